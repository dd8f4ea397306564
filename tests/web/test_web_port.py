"""The web port through real HTTP clients: the Connect protocol (JSON and binary), gRPC-Web, unary
and server streaming, against the same servicers as the gRPC port, with the same error model,
rate limit and metrics; CORS as configured; the client's files with their security headers."""

from __future__ import annotations

import base64
import json
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import grpc
import pytest
from connectrpc.client import ConnectClientSync
from connectrpc.compat import google_protobuf_binary_codec
from connectrpc.errors import ConnectError
from connectrpc.method import IdempotencyLevel, MethodInfo, StreamType
from connectrpc.protocol import ProtocolType
from google.protobuf import descriptor_pool, message_factory
from google.rpc import error_details_pb2
from prometheus_client import REGISTRY

from apps.platform import Deps
from sizzle.auth.v1 import auth_service_pb2 as apb
from sizzle.auth.v1 import auth_service_pb2_grpc
from sizzle.match.v1 import match_service_pb2 as mpb
from sizzle.match.v1 import match_service_pb2_grpc
from tests.conftest import random_bot_factory
from tests.servers import ServerThread
from tests.web.servers import start_web_platform, web_config


def method(full: str, streaming: bool = False) -> MethodInfo[Any, Any]:
    service, name = full.rsplit("/", 1)
    desc = descriptor_pool.Default().FindServiceByName(service).methods_by_name[name]
    return MethodInfo(name=name, service_name=service, input=message_factory.GetMessageClass(desc.input_type),
                      output=message_factory.GetMessageClass(desc.output_type),
                      idempotency_level=IdempotencyLevel.UNKNOWN,
                      stream_type=StreamType.SERVER_STREAM if streaming else StreamType.UNARY)


CREATE_GUEST = method("sizzle.auth.v1.AuthService/CreateGuest")
CREATE_MATCH = method("sizzle.match.v1.MatchService/CreateMatch")
GET_MATCH = method("sizzle.match.v1.MatchService/GetMatch")
WATCH_MATCH = method("sizzle.match.v1.MatchService/WatchMatch", streaming=True)
LIST_GAMES = method("sizzle.rules.v1.RulesService/ListGames")
GET_GAME = method("sizzle.rules.v1.RulesService/GetGame")


@pytest.fixture(scope="module")
def site() -> Iterator[ServerThread]:
    server = ServerThread(lambda: start_web_platform(web_config(web_cors_origins="https://friend.example"),
                                                     Deps(bot_factory=random_bot_factory)))
    yield server
    server.stop()


def client(site: ServerThread, protocol: ProtocolType) -> ConnectClientSync:
    return ConnectClientSync(site.running.url, codec=google_protobuf_binary_codec(), protocol=protocol,
                             timeout_ms=10_000)


def post_json(url: str, body: dict[str, Any], headers: dict[str, str] | None = None) -> tuple[int, dict[str, Any]]:
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json", **(headers or {})})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"{}")


def reason_of(error: ConnectError) -> str:
    for detail in error.details:
        if detail.type_name == "google.rpc.ErrorInfo":
            return error_details_pb2.ErrorInfo.FromString(detail.message_bytes).reason
    return ""


def test_connect_json_lists_the_games(site: ServerThread) -> None:
    status, body = post_json(f"{site.running.url}/sizzle.rules.v1.RulesService/ListGames", {})
    assert status == 200
    assert {g["gameId"] for g in body["games"]} >= {"license_to_grill", "grill_party", "a_la_carte",
                                                     "a_la_carte_cards", "hibachi"}


def test_a_refusal_carries_the_error_info_reason(site: ServerThread) -> None:
    status, body = post_json(f"{site.running.url}/sizzle.auth.v1.AuthService/CreateGuest", {"displayName": ""})
    assert status == 400 and body["code"] == "invalid_argument"
    [detail] = body["details"]
    assert detail["type"] == "google.rpc.ErrorInfo"
    info = error_details_pb2.ErrorInfo.FromString(base64.b64decode(detail["value"] + "=="))
    assert info.reason == "INVALID_REQUEST" and info.domain == "sizzle.games"


@pytest.mark.parametrize("protocol", [ProtocolType.CONNECT, ProtocolType.GRPC_WEB])
def test_both_protocols_serve_unary_and_streaming_calls(site: ServerThread, protocol: ProtocolType) -> None:
    with client(site, protocol) as web:
        guest = web.execute_unary(request=apb.CreateGuestRequest(display_name="Web"), method=CREATE_GUEST)
        auth = {"authorization": f"Bearer {guest.token}"}
        created = web.execute_unary(request=mpb.CreateMatchRequest(game_id="grill_party", seats=[
            mpb.SeatSpec(kind=mpb.SEAT_KIND_BOT), mpb.SeatSpec(kind=mpb.SEAT_KIND_BOT)]), method=CREATE_MATCH,
            headers=auth)
        versions = [u.match.version for u in web.execute_server_stream(
            request=mpb.WatchMatchRequest(match_id=created.match.match_id, from_version=-1), method=WATCH_MATCH)]
        assert versions and versions == sorted(versions)
        last = web.execute_unary(request=mpb.GetMatchRequest(match_id=created.match.match_id), method=GET_MATCH)
        assert last.match.status == mpb.MATCH_STATUS_FINISHED and last.match.version == versions[-1]


@pytest.mark.parametrize("protocol", [ProtocolType.CONNECT, ProtocolType.GRPC_WEB])
def test_errors_match_the_grpc_port(site: ServerThread, protocol: ProtocolType) -> None:
    with grpc.insecure_channel(site.target) as channel:
        with pytest.raises(grpc.RpcError) as on_grpc:
            match_service_pb2_grpc.MatchServiceStub(channel).GetMatch(mpb.GetMatchRequest(match_id="m_nope"), timeout=5)
    with client(site, protocol) as web, pytest.raises(ConnectError) as on_web:
        web.execute_unary(request=mpb.GetMatchRequest(match_id="m_nope"), method=GET_MATCH)
    assert on_grpc.value.code() == grpc.StatusCode.NOT_FOUND
    assert on_web.value.code.name == "NOT_FOUND" and on_web.value.message == on_grpc.value.details()
    assert reason_of(on_web.value) == "UNKNOWN_MATCH"


def test_one_application_core_serves_both_ports(site: ServerThread) -> None:
    """A match made through the gRPC port is the web port's match too: the same Matches object."""
    with grpc.insecure_channel(site.target) as channel:
        guest = auth_service_pb2_grpc.AuthServiceStub(channel).CreateGuest(apb.CreateGuestRequest(display_name="G"))
        created = match_service_pb2_grpc.MatchServiceStub(channel).CreateMatch(
            mpb.CreateMatchRequest(game_id="hibachi", seats=[mpb.SeatSpec(kind=mpb.SEAT_KIND_HUMAN)] * 2),
            metadata=(("authorization", f"Bearer {guest.token}"),))
    with client(site, ProtocolType.CONNECT) as web:
        seen = web.execute_unary(request=mpb.GetMatchRequest(match_id=created.match.match_id), method=GET_MATCH)
    assert seen.match.match_id == created.match.match_id and seen.match.status == mpb.MATCH_STATUS_WAITING


def test_garbage_is_an_invalid_request_not_a_crash(site: ServerThread) -> None:
    request = urllib.request.Request(f"{site.running.url}/sizzle.match.v1.MatchService/GetMatch", data=b"\xff\xff\xff",
                                     headers={"Content-Type": "application/proto"}, method="POST")
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=10)
    body = json.loads(refused.value.read())
    assert refused.value.code == 400 and body["code"] == "invalid_argument"
    assert body["details"][0]["type"] == "google.rpc.ErrorInfo"


def test_game_content_is_public_for_drawing_boards(site: ServerThread) -> None:
    from sizzle.games.hibachi.v1 import hibachi_pb2
    from sizzle.rules.v1 import rules_service_pb2 as rpb

    with client(site, ProtocolType.CONNECT) as web:
        game = web.execute_unary(request=rpb.GetGameRequest(game_id="hibachi"), method=GET_GAME)
    content = hibachi_pb2.Content()
    assert game.content.Unpack(content) and content.board.spaces and content.board.width > 0


def test_calls_are_counted_in_the_rpc_metrics(site: ServerThread) -> None:
    def count() -> float:
        return REGISTRY.get_sample_value("grpc_server_handled_total", {
            "grpc_type": "unary", "grpc_service": "sizzle.rules.v1.RulesService", "grpc_method": "ListGames",
            "grpc_code": "OK"}) or 0.0

    before = count()
    post_json(f"{site.running.url}/sizzle.rules.v1.RulesService/ListGames", {})
    assert count() == before + 1


def test_cors_allows_the_configured_origins_only(site: ServerThread) -> None:
    def preflight(origin: str) -> tuple[int, str | None]:
        headers = {"Origin": origin, "Access-Control-Request-Method": "POST",
                   "Access-Control-Request-Headers": "content-type,connect-protocol-version"}
        request = urllib.request.Request(f"{site.running.url}/sizzle.rules.v1.RulesService/ListGames", method="OPTIONS",
                                         headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return response.status, response.headers.get("Access-Control-Allow-Origin")
        except urllib.error.HTTPError as error:
            return error.code, error.headers.get("Access-Control-Allow-Origin")

    assert preflight("https://friend.example") == (200, "https://friend.example")
    assert preflight("https://stranger.example")[1] is None


def test_unknown_methods_and_paths_are_not_found(site: ServerThread) -> None:
    status, _ = post_json(f"{site.running.url}/sizzle.match.v1.MatchService/Teleport", {})
    assert status == 404


def test_paths_with_no_file_are_not_found_not_a_server_error(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """Found by a black-box audit: every path the port does not serve answered 500 and wrote an ERROR
    traceback to the log (the static files' 404 and 405 reached the server unhandled)."""
    (tmp_path / "index.html").write_text("<!doctype html><title>Sizzle</title>")
    server = ServerThread(lambda: start_web_platform(web_config(), Deps(), client_dir=tmp_path))
    try:
        base = server.running.url
        cases = [("GET", "/nope", 404), ("GET", "/assets/missing.js", 404), ("GET", "/sizzle.nope.v1.X/Y", 404),
                 ("POST", "/", 405), ("DELETE", "/index.html", 405)]
        with caplog.at_level("ERROR"):
            for verb, path, code in cases:
                with pytest.raises(urllib.error.HTTPError) as refused:
                    urllib.request.urlopen(urllib.request.Request(base + path, data=b"" if verb == "POST" else None,
                                                                  method=verb), timeout=10)
                assert refused.value.code == code, (verb, path)
                assert refused.value.headers["X-Content-Type-Options"] == "nosniff"
        assert not [r for r in caplog.records if r.levelname == "ERROR"], caplog.text
    finally:
        server.stop()


@pytest.mark.parametrize(("path", "body"), [
    ("sizzle.match.v1.MatchService/ListMatches", {"status": "MATCH_STATUS_NOPE", "pageSize": 1}),
    ("sizzle.match.v1.MatchService/CreateMatch",
     {"gameId": "grill_party", "seats": [{"kind": "SEAT_KIND_BOT", "difficulty": "DIFFICULTY_INSANE"},
                                         {"kind": "SEAT_KIND_BOT"}]}),
    ("sizzle.match.v1.MatchService/GetMatch", {"matchId": "m_x", "noSuchField": 1}),
    ("sizzle.rules.v1.RulesService/ListGames", []),  # an empty request is valid; an array is none
    # An enum's number must be whole (2.5 was read as RUNNING, true as WAITING, 1.7 as a human seat).
    ("sizzle.match.v1.MatchService/ListMatches", {"status": 2.5}),
    ("sizzle.match.v1.MatchService/ListMatches", {"status": True}),
    ("sizzle.match.v1.MatchService/CreateMatch",
     {"gameId": "grill_party", "seats": [{"kind": 1.7}, {"kind": "SEAT_KIND_BOT", "difficulty": 3.9}]}),
    # ... also inside an Any: a game's action (a regression audit: RulesService applied take 1.5 as 1).
    ("sizzle.match.v1.MatchService/SubmitAction",
     {"matchId": "m_0123456789abcdef", "requestId": "r", "structured": {
         "@type": "type.googleapis.com/sizzle.games.grill_party.v1.Action",
         "exchange": {"fromGrill": True, "take": 1.5, "give": "GRILLABLE_FISH"}}}),
])
def test_connect_json_is_as_strict_as_the_binary_form(site: ServerThread, path: str, body: Any) -> None:
    """An unknown enum name was read as 0 (a status filter of any status, a medium bot for an unknown
    difficulty) and an unknown field or a JSON array passed; gRPC refuses the same requests."""
    token = post_json(f"{site.running.url}/sizzle.auth.v1.AuthService/CreateGuest", {"displayName": "strict"})[1]
    status, answer = post_json(f"{site.running.url}/{path}", body,  # type: ignore[arg-type]
                               {"Authorization": f"Bearer {token['token']}"})
    assert status == 400 and answer["code"] == "invalid_argument", answer
    info = error_details_pb2.ErrorInfo.FromString(base64.b64decode(answer["details"][0]["value"] + "=="))
    assert info.reason == "INVALID_REQUEST"


def test_an_undecodable_request_says_so_in_our_words_with_its_reason(site: ServerThread) -> None:
    """A black-box audit: a JSON error carried Python's "invalid literal for int() with base 10" and
    protobuf's list of the message's fields, and a corrupt gzip body zlib's text without ErrorInfo."""
    url = f"{site.running.url}/sizzle.match.v1.MatchService/ListMatches"
    cases = [(json.dumps({"pageSize": "abc"}).encode(), {}),
             (json.dumps({"nope": 1}).encode(), {}),
             (b"{not json", {}),
             (b'{"pageSize": 1, "pageSize": 2}', {}),
             (b"\x1f\x8b\x08\x00garbage-not-deflate", {"Content-Encoding": "gzip"})]
    for body, headers in cases:
        request = urllib.request.Request(url, data=body, method="POST",
                                         headers={"Content-Type": "application/json", **headers})
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request, timeout=10)
        answer = json.loads(refused.value.read())
        assert refused.value.code == 400 and answer["code"] == "invalid_argument", answer
        info = error_details_pb2.ErrorInfo.FromString(base64.b64decode(answer["details"][0]["value"] + "=="))
        assert info.reason == "INVALID_REQUEST", answer
        for library_words in ("invalid literal", "Available Fields", "base 10", "Error -3", "Expecting",
                              "Failed to", "Message type", "Can not find"):
            assert library_words not in answer["message"], answer["message"]


def test_an_enum_as_a_whole_number_or_a_name_is_welcome(site: ServerThread) -> None:
    token = post_json(f"{site.running.url}/sizzle.auth.v1.AuthService/CreateGuest", {"displayName": "enum"})[1]
    for status in (2, 2.0, "MATCH_STATUS_RUNNING"):
        answer = post_json(f"{site.running.url}/sizzle.match.v1.MatchService/ListMatches", {"status": status},
                           {"Authorization": f"Bearer {token['token']}"})
        assert answer[0] == 200, answer


def test_a_grpc_call_the_web_port_does_not_serve_is_unimplemented(site: ServerThread,
                                                                  caplog: pytest.LogCaptureFixture) -> None:
    """The real grpcurl's reflection against the web port (a bidirectional stream it does not serve)
    got the files' 405 page, and Hypercorn logged a traceback for each call (a black-box audit)."""
    import subprocess

    from tests.docs.grpcurl_walkthrough import grpcurl_binary

    target = site.running.url.removeprefix("http://")
    with caplog.at_level("ERROR"):
        listed = subprocess.run([str(grpcurl_binary()), "-plaintext", target, "list"], capture_output=True,
                                text=True, timeout=30)
        assert listed.returncode != 0 and "does not support the reflection API" in listed.stderr, listed.stderr
        time.sleep(0.5)
    assert not [r for r in caplog.records if r.levelname == "ERROR"], caplog.text


def test_the_rate_limit_admits_web_calls_like_grpc_calls() -> None:
    server = ServerThread(lambda: start_web_platform(web_config(quota_requests_per_second=0.001, quota_request_burst=2),
                                                     Deps(bot_factory=random_bot_factory)))
    try:
        url = f"{server.running.url}/sizzle.rules.v1.RulesService/ListGames"
        answers = [post_json(url, {}) for _ in range(4)]
        assert [status for status, _ in answers[:2]] == [200, 200]
        status, body = answers[-1]
        assert status == 429 and body["code"] == "resource_exhausted"
        assert [d["type"] for d in body["details"]][:1] == ["google.rpc.ErrorInfo"]
    finally:
        server.stop()


@pytest.mark.parametrize("hops", [0, 1])
def test_behind_a_proxy_the_quotas_count_the_callers_forwarded_address(hops: int) -> None:
    """In the cluster every browser call reaches a pod through the Ingress, so the connection's address
    is the proxy's: with SIZZLE_WEB_PROXY_HOPS=1 the per-address quotas count the address the proxy
    appended to X-Forwarded-For instead; with 0 (callers reach the port directly) the header is the
    caller's own text and is ignored, or it would choose its own quota."""
    server = ServerThread(lambda: start_web_platform(
        web_config(quota_requests_per_second=0.001, quota_request_burst=2, web_proxy_hops=hops), Deps()))
    try:
        url = f"{server.running.url}/sizzle.rules.v1.RulesService/ListGames"

        def from_(address: str, written_by_caller: str = "") -> int:
            chain = ", ".join(filter(None, [written_by_caller, address]))
            return post_json(url, {}, {"X-Forwarded-For": chain})[0]

        assert [from_("203.0.113.1"), from_("203.0.113.1")] == [200, 200]
        assert from_("203.0.113.1") == 429
        # Another browser behind the same proxy; then the first again, forging an earlier entry.
        assert from_("203.0.113.2") == (200 if hops else 429)
        assert from_("203.0.113.1", written_by_caller="198.51.100.9") == 429
    finally:
        server.stop()


def test_the_client_files_come_from_the_configured_folder(tmp_path: Path) -> None:
    """The image carries the client's build at /app/web (SIZZLE_WEB_CLIENT_DIR), not in a checkout."""
    (tmp_path / "index.html").write_text("<!doctype html><title>Sizzle from the image</title>")
    server = ServerThread(lambda: start_web_platform(web_config(web_client_dir=str(tmp_path)), Deps(), client_dir=None))
    try:
        with urllib.request.urlopen(f"{server.running.url}/", timeout=10) as response:
            assert b"Sizzle from the image" in response.read()
    finally:
        server.stop()


def test_the_client_is_served_with_security_headers(tmp_path: Path) -> None:
    (tmp_path / "index.html").write_text("<!doctype html><title>Sizzle</title>")
    server = ServerThread(lambda: start_web_platform(web_config(), Deps(), client_dir=tmp_path))
    try:
        with urllib.request.urlopen(f"{server.running.url}/", timeout=10) as response:
            assert response.status == 200 and b"Sizzle" in response.read()
            assert "default-src 'self'" in response.headers["Content-Security-Policy"]
            assert response.headers["X-Content-Type-Options"] == "nosniff"
    finally:
        server.stop()


def test_a_missing_client_build_says_how_to_build_it(tmp_path: Path) -> None:
    server = ServerThread(lambda: start_web_platform(web_config(), Deps(), client_dir=tmp_path / "none"))
    try:
        with pytest.raises(urllib.error.HTTPError) as missing:
            urllib.request.urlopen(f"{server.running.url}/", timeout=10)
        assert missing.value.code == 503 and b"make run" in missing.value.read()
    finally:
        server.stop()
