"""The descriptors gRPC reflection serves carry every field's json_name (services/kit/reflection_pool.py),
so grpcurl 1.8.6, which takes JSON names from the descriptor as given, prints the lowerCamel names the
guides use, exactly as a client that computes them does (Go's protojson, through `buf curl`)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import grpc
from google.protobuf import descriptor_pb2, descriptor_pool
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

from services.kit.reflection_pool import fill_json_names, json_name
from tests.docs import grpcurl_walkthrough
from tests.servers import ServerThread

ROOT = Path(__file__).resolve().parents[2]
SYMBOLS = [
    "sizzle.auth.v1.AuthService", "sizzle.match.v1.MatchService", "sizzle.matchmaking.v1.MatchmakingService",
    "sizzle.rules.v1.RulesService", "grpc.health.v1.Health",
    "sizzle.games.grill_party.v1.View",  # what an Any in a MatchService answer holds
]


def served_files(target: str, symbols: list[str]) -> dict[str, descriptor_pb2.FileDescriptorProto]:
    """Every file the reflection service sends for `symbols` (with their imports), by name."""
    requests = [reflection_pb2.ServerReflectionRequest(file_containing_symbol=symbol) for symbol in symbols]
    files: dict[str, descriptor_pb2.FileDescriptorProto] = {}
    with grpc.insecure_channel(target) as channel:
        stub = reflection_pb2_grpc.ServerReflectionStub(channel)
        for response in stub.ServerReflectionInfo(iter(requests), timeout=10):
            assert response.HasField("file_descriptor_response"), response
            for serialized in response.file_descriptor_response.file_descriptor_proto:
                file = descriptor_pb2.FileDescriptorProto.FromString(serialized)
                files[file.name] = file
    return files


def fields_of(messages: list[descriptor_pb2.DescriptorProto], prefix: str) -> list[tuple[str, str, str]]:
    out = []
    for message in messages:
        full = f"{prefix}.{message.name}"
        out += [(full, field.name, field.json_name if field.HasField("json_name") else "") for field in message.field]
        out += fields_of(list(message.nested_type), full)
    return out


def test_json_name_is_protocs_lower_camel() -> None:
    assert json_name("match_id") == "matchId"
    assert json_name("turn_deadline_unix_ms") == "turnDeadlineUnixMs"
    assert json_name("seat") == "seat"
    assert json_name("player_2_score") == "player2Score"
    assert json_name("a__b") == "aB"
    assert json_name("_leading") == "Leading"


def test_fill_json_names_keeps_a_declared_json_name_and_fills_nested_fields() -> None:
    file = descriptor_pb2.FileDescriptorProto(name="t.proto", message_type=[descriptor_pb2.DescriptorProto(
        name="Outer",
        field=[descriptor_pb2.FieldDescriptorProto(name="seat_token"),
               descriptor_pb2.FieldDescriptorProto(name="odd_one", json_name="theOddOne")],
        nested_type=[descriptor_pb2.DescriptorProto(
            name="Inner", field=[descriptor_pb2.FieldDescriptorProto(name="from_version")])])])
    fill_json_names(file)
    assert [f.json_name for f in file.message_type[0].field] == ["seatToken", "theOddOne"]
    assert file.message_type[0].nested_type[0].field[0].json_name == "fromVersion"


def test_reflection_serves_every_field_with_its_json_name(platform: ServerThread) -> None:
    files = served_files(platform.target, SYMBOLS)
    assert {"sizzle/match/v1/match_service.proto", "sizzle/games/grill_party/v1/grill_party.proto",
            "google/protobuf/any.proto", "grpc_health/v1/health.proto"} <= set(files)
    runtime = descriptor_pool.Default()
    checked = 0
    for file in files.values():
        for message, field, served_json_name in fields_of(list(file.message_type), file.package):
            expected = runtime.FindMessageTypeByName(message.lstrip(".")).fields_by_name[field].json_name
            assert served_json_name == expected, f"{file.name}: {message}.{field} is served as {served_json_name!r}"
            checked += 1
    assert checked > 200
    match = next(m for m in files["sizzle/match/v1/match_service.proto"].message_type if m.name == "Match")
    assert {f.name: f.json_name for f in match.field}["match_id"] == "matchId"


def test_grpcurl_old_and_a_protojson_client_print_the_same_json(platform: ServerThread) -> None:
    """grpcurl 1.8.6 (json_name as served) and `buf curl` (Go's protojson, which computes a missing
    json_name, as grpcurl 1.8.8 and newer do) read the same match through reflection."""
    with grpcurl_walkthrough.reader_path() as path:
        env = {"PATH": path}
        created = subprocess.run(
            ["grpcurl", "-plaintext", "-d", '{"display_name": "carol"}', platform.target,
             "sizzle.auth.v1.AuthService/CreateGuest"], env=env, capture_output=True, text=True, timeout=30)
        token = json.loads(created.stdout)["token"]
        match = subprocess.run(
            ["grpcurl", "-plaintext", "-H", f"authorization: Bearer {token}", "-d",
             '{"game_id": "grill_party", "seats": [{"kind": "SEAT_KIND_HUMAN"}, {"kind": "SEAT_KIND_BOT"}]}',
             platform.target, "sizzle.match.v1.MatchService/CreateMatch"],
            env=env, capture_output=True, text=True, timeout=30)
        request = json.dumps({"match_id": json.loads(match.stdout)["match"]["matchId"]})
        old = subprocess.run(["grpcurl", "-plaintext", "-d", request, platform.target,
                              "sizzle.match.v1.MatchService/GetMatch"],
                             env=env, capture_output=True, text=True, timeout=30)
    new = subprocess.run([str(ROOT / "scripts" / "buf.sh"), "curl", "--protocol", "grpc", "--http2-prior-knowledge",
                          "-d", request, f"http://{platform.target}/sizzle.match.v1.MatchService/GetMatch"],
                         capture_output=True, text=True, timeout=180)
    assert old.returncode == 0 and new.returncode == 0, old.stderr + new.stderr
    old_answer, new_answer = json.loads(old.stdout), json.loads(new.stdout)
    assert old_answer == new_answer
    assert old_answer["match"]["gameId"] == "grill_party" and old_answer["view"]["core"]["numPlayers"] == 2
