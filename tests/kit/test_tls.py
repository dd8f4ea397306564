"""TLS and mTLS end to end, with a CA and certificates made here: whole matches over TLS through the
repository's own clients (the terminal client's connection, the example client, the CLI), the
matchmaker and a Celery bot worker calling the match service with their client certificates;
plaintext clients, strangers' CAs and missing client certificates refused; a half-configured TLS
stops a process with one line that names the variable."""

from __future__ import annotations

import asyncio
import datetime
import ipaddress
import os
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import grpc
import pytest
import redis
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

from apps.cli import build_parser, main
from apps.platform import Deps, create_server
from clients import minimal_client
from clients.cli import invite_line, seat_for, tls_flags, tls_for
from clients.connection import ClientError, MatchLink, new_match, peek_match
from services.kit.config import Config
from services.kit.server import start_server
from services.kit.tls import ClientTLS, TLSConfigError, client_tls, open_channel, server_tls
from services.match.redis_store import RedisStore
from sizzle.match.v1 import match_service_pb2 as mpb
from sizzle.match.v1 import match_service_pb2_grpc
from sizzle.matchmaking.v1 import matchmaking_service_pb2 as mmpb
from sizzle.matchmaking.v1 import matchmaking_service_pb2_grpc
from tests.bots.test_celery_worker import Worker, wait_finished
from tests.conftest import random_bot_factory
from tests.match.players import Player, auth
from tests.servers import ServerThread

KEY = "sizzle-tls-test-key-0123456789abcdef"
ROOT = Path(__file__).resolve().parents[2]


# --- a CA and its certificates, made with `cryptography` -------------------------------------------

Issued = tuple[ec.EllipticCurvePrivateKey, x509.Certificate]


def _certificate(name: str, key: ec.EllipticCurvePrivateKey, issuer: Issued | None,
                 extensions: list[tuple[x509.ExtensionType, bool]]) -> x509.Certificate:
    now = datetime.datetime.now(datetime.UTC)
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)])
    signer_key, signer = issuer if issuer is not None else (key, None)
    builder = (x509.CertificateBuilder().subject_name(subject)
               .issuer_name(signer.subject if signer is not None else subject)
               .public_key(key.public_key()).serial_number(x509.random_serial_number())
               .not_valid_before(now - datetime.timedelta(hours=1)).not_valid_after(now + datetime.timedelta(days=1)))
    for extension, critical in extensions:
        builder = builder.add_extension(extension, critical)
    return builder.sign(signer_key, hashes.SHA256())


def make_ca(name: str) -> Issued:
    key = ec.generate_private_key(ec.SECP256R1())
    return key, _certificate(name, key, None, [
        (x509.BasicConstraints(ca=True, path_length=None), True),
        (x509.KeyUsage(digital_signature=True, content_commitment=False, key_encipherment=False,
                       data_encipherment=False, key_agreement=False, key_cert_sign=True, crl_sign=True,
                       encipher_only=False, decipher_only=False), True),
        (x509.SubjectKeyIdentifier.from_public_key(key.public_key()), False),
    ])


def issue(ca: Issued, name: str, *, server: bool) -> Issued:
    key = ec.generate_private_key(ec.SECP256R1())
    usage = ExtendedKeyUsageOID.SERVER_AUTH if server else ExtendedKeyUsageOID.CLIENT_AUTH
    extensions: list[tuple[x509.ExtensionType, bool]] = [
        (x509.BasicConstraints(ca=False, path_length=None), True),
        (x509.ExtendedKeyUsage([usage]), False),
        (x509.AuthorityKeyIdentifier.from_issuer_public_key(ca[0].public_key()), False),
    ]
    if server:
        extensions.append((x509.SubjectAlternativeName(
            [x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), False))
    return key, _certificate(name, key, ca, extensions)


@dataclass(frozen=True)
class Pki:
    """PEM files: our CA, the server's certificate (localhost, 127.0.0.1), a client certificate, and a
    stranger CA with a client certificate of its own."""

    ca: str
    server_cert: str
    server_key: str
    client_cert: str
    client_key: str
    stranger_ca: str
    stranger_cert: str
    stranger_key: str


def _write(folder: Path, name: str, issued: Issued) -> tuple[str, str]:
    key, cert = issued
    cert_path, key_path = folder / f"{name}.pem", folder / f"{name}-key.pem"
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    return str(cert_path), str(key_path)


@pytest.fixture(scope="module")
def pki(tmp_path_factory: pytest.TempPathFactory) -> Pki:
    folder = tmp_path_factory.mktemp("pki")
    ca, stranger = make_ca("Sizzle test CA"), make_ca("Somebody else's CA")
    ca_pem, _ = _write(folder, "ca", ca)
    stranger_pem, _ = _write(folder, "stranger-ca", stranger)
    return Pki(ca_pem, *_write(folder, "server", issue(ca, "sizzle-match", server=True)),
               *_write(folder, "client", issue(ca, "sizzle-matchmaking", server=False)),
               stranger_pem, *_write(folder, "stranger-client", issue(stranger, "intruder", server=False)))


def trusting(ca: str, cert: str = "", key: str = "", server_name: str = "") -> ClientTLS:
    tls = client_tls(Config(tls_ca=ca, tls_client_cert=cert, tls_client_key=key, tls_server_name=server_name))
    assert tls is not None
    return tls


# --- servers --------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def tls_platform(pki: Pki) -> Iterator[ServerThread]:
    """The whole platform serving TLS (no client certificates asked)."""
    config = Config(addr="127.0.0.1:0", tls_cert=pki.server_cert, tls_key=pki.server_key)
    server = ServerThread(lambda: create_server(config, Deps(bot_factory=random_bot_factory)))
    yield server
    server.stop()


@pytest.fixture(scope="module")
def mtls_platform(pki: Pki) -> Iterator[ServerThread]:
    """Every service requiring client certificates of our CA; the matchmaker beside the match service
    calls it with its own client certificate."""
    config = Config(addr="127.0.0.1:0", tls_cert=pki.server_cert, tls_key=pki.server_key, tls_client_ca=pki.ca,
                    tls_ca=pki.ca, tls_client_cert=pki.client_cert, tls_client_key=pki.client_key,
                    matchmaking_interval_ms=30, matchmaking_lease_ms=1000)
    deps = Deps(services=("rules", "match", "matchmaking"), bot_factory=random_bot_factory)
    server = ServerThread(lambda: create_server(config, deps))
    yield server
    server.stop()


def play_to_the_end(target: str, tls: ClientTLS, game_id: str = "grill_party", bots: int = 2) -> mpb.Match:
    """A guest seated against bots plays its first legal action every turn, following the match with
    the terminal client's MatchLink, all over `tls`."""
    seating = new_match(target, game_id, name="ann", bots=bots, tls=tls)

    async def play() -> mpb.Match:
        link = MatchLink(target, seating.match_id, seating.seat_token, tls=tls)
        try:
            async for update in link.updates():
                if update.match.status == mpb.MATCH_STATUS_FINISHED:
                    return update.match
                if update.legal_actions:
                    await link.submit(update.legal_actions[0].action_id, update.match.version)
        finally:
            await link.close()
        raise AssertionError("the stream ended before the match")

    return asyncio.run(asyncio.wait_for(play(), 120))


def refused(tls: ClientTLS | None, target: str) -> str:
    """What the terminal client says when its calls cannot get through."""
    with pytest.raises(ClientError) as caught:
        new_match(target, "grill_party", name="eve", bots=1, tls=tls)
    return str(caught.value)


# --- TLS ------------------------------------------------------------------------------------------

def test_a_whole_match_over_tls_with_bots(tls_platform: ServerThread, pki: Pki) -> None:
    assert tls_platform.running.running.secure
    match = play_to_the_end(tls_platform.target, trusting(pki.ca), bots=2)
    assert len(match.outcome.results) == 3 and any(r.winner for r in match.outcome.results)
    assert peek_match(tls_platform.target, match.match_id, trusting(pki.ca)).status == mpb.MATCH_STATUS_FINISHED


def test_plaintext_clients_and_strangers_cas_are_refused(tls_platform: ServerThread, pki: Pki) -> None:
    target = tls_platform.target
    assert "cannot reach the server" in refused(None, target)
    assert "cannot reach the server" in refused(trusting(pki.stranger_ca), target)
    with grpc.insecure_channel(target) as channel, pytest.raises(grpc.RpcError) as caught:
        Player.guest(channel, "eve")
    assert caught.value.code() == grpc.StatusCode.UNAVAILABLE


def test_the_name_checked_is_the_targets_or_the_one_given(tls_platform: ServerThread, pki: Pki) -> None:
    port = tls_platform.running.port
    for target in (f"127.0.0.1:{port}", f"localhost:{port}"):  # both are in the certificate
        with open_channel(target, trusting(pki.ca)) as channel:
            assert Player.guest(channel, "ann").token
    with open_channel(f"127.0.0.1:{port}", trusting(pki.ca, server_name="localhost")) as channel:
        assert Player.guest(channel, "ann").token
    assert "cannot reach the server" in refused(trusting(pki.ca, server_name="elsewhere.example"),
                                                tls_platform.target)


def test_the_example_client_plays_over_tls(tls_platform: ServerThread, pki: Pki,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    args = ["--server", tls_platform.target, "--game", "grill_party", "--bots", "1"]
    assert minimal_client.main([*args, "--ca", pki.ca]) == 0
    assert "final table:" in capsys.readouterr().out
    assert minimal_client.main(args) == 1  # plaintext against a TLS port
    assert "UNAVAILABLE" in capsys.readouterr().err


def test_the_command_line_takes_a_ca(tls_platform: ServerThread, pki: Pki, capsys: pytest.CaptureFixture[str],
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    target = tls_platform.target
    for variable in ("SIZZLE_TLS_CA", "SIZZLE_TLS_SYSTEM_ROOTS", "SIZZLE_TLS_CLIENT_CERT", "SIZZLE_TLS_CLIENT_KEY",
                     "SIZZLE_TLS_SERVER_NAME"):
        monkeypatch.delenv(variable, raising=False)
    args = build_parser().parse_args(["play", "grill_party", "--humans", "2", "--bots", "1", "--name", "kim",
                                      "--server", target, "--ca", pki.ca])
    seating = seat_for(args, target, tls_for(args))
    assert seating.open_seats == 1
    assert f"--join {seating.match_id} --server {target} --ca {pki.ca}" in invite_line(seating, tls_flags(args))
    # Over TLS `watch` reaches the server (which knows no such match); in plaintext it reaches nothing.
    assert main(["watch", "m_missing", "--server", target, "--ca", pki.ca]) == 2
    assert "UNKNOWN_MATCH" in capsys.readouterr().err
    assert main(["watch", seating.match_id, "--server", target]) == 2
    assert "cannot reach the server" in capsys.readouterr().err
    assert main(["replay", seating.match_id, "--server", target, "--ca", "/nowhere/ca.pem"]) == 2
    assert "--ca=/nowhere/ca.pem cannot be read" in capsys.readouterr().err
    monkeypatch.setenv("SIZZLE_TLS_CA", pki.ca)  # the environment does what --ca does
    assert tls_for(build_parser().parse_args(["watch", "m_1"])) == trusting(pki.ca)
    monkeypatch.delenv("SIZZLE_TLS_CA")
    system = tls_for(build_parser().parse_args(["watch", "m_1", "--tls"]))
    assert system is not None and system.root_certificates is None  # the system's roots


# --- mTLS -----------------------------------------------------------------------------------------

def test_mtls_refuses_clients_without_our_certificate(mtls_platform: ServerThread, pki: Pki) -> None:
    target = mtls_platform.target
    assert "cannot reach the server" in refused(trusting(pki.ca), target)
    assert "cannot reach the server" in refused(trusting(pki.ca, pki.stranger_cert, pki.stranger_key), target)


def test_mtls_a_client_with_our_certificate_plays(mtls_platform: ServerThread, pki: Pki) -> None:
    match = play_to_the_end(mtls_platform.target, trusting(pki.ca, pki.client_cert, pki.client_key), bots=1)
    assert match.status == mpb.MATCH_STATUS_FINISHED and len(match.outcome.results) == 2


def test_mtls_the_matchmaker_creates_matches_with_its_certificate(mtls_platform: ServerThread, pki: Pki) -> None:
    tls = trusting(pki.ca, pki.client_cert, pki.client_key)
    with open_channel(mtls_platform.target, tls) as channel:
        guest = Player.guest(channel, "gus")
        stub = matchmaking_service_pb2_grpc.MatchmakingServiceStub(channel)
        ticket = stub.CreateTicket(mmpb.CreateTicketRequest(game_id="a_la_carte_cards", player_counts=[2],
                                                            allow_bots=True, max_wait_seconds=1),
                                   metadata=auth(guest.token), timeout=5).ticket
        deadline = time.monotonic() + 30
        while ticket.status == mmpb.TICKET_STATUS_WAITING:
            assert time.monotonic() < deadline, "the matchmaker never seated the ticket"
            time.sleep(0.1)
            ticket = stub.GetTicket(mmpb.GetTicketRequest(ticket_id=ticket.ticket_id), metadata=auth(guest.token),
                                    timeout=5).ticket
        # Seated: the matchmaker's CreateMatch went through the mTLS port with its client certificate.
        assert ticket.status == mmpb.TICKET_STATUS_ASSIGNED, ticket
        match = match_service_pb2_grpc.MatchServiceStub(channel).GetMatch(
            mpb.GetMatchRequest(match_id=ticket.assignment.match_id), metadata=auth(ticket.assignment.seat_token),
            timeout=5).match
        assert match.game_id == "a_la_carte_cards" and len(match.seats) == 2


def test_mtls_a_celery_bot_worker_plays_with_its_certificate(redis_url: str, pki: Pki) -> None:
    run = uuid.uuid4().hex[:10]
    broker = redis_url.rsplit("/", 1)[0] + "/12"
    prefix, queue = f"sizzle-test-{run}", f"bots-test-{run}"
    config = Config(addr="127.0.0.1:0", token_key=KEY, redis_url=redis_url, redis_prefix=prefix, broker_url=broker,
                    bot_queue=queue, bot_turn_timeout_seconds=3.0, tls_cert=pki.server_cert,
                    tls_key=pki.server_key, tls_client_ca=pki.ca)
    server = ServerThread(lambda: create_server(config, Deps(store=RedisStore(redis_url, prefix, 3600))))
    worker = Worker({"SIZZLE_BROKER_URL": broker, "SIZZLE_BOT_QUEUE": queue, "SIZZLE_MATCH_ADDR": server.target,
                     "SIZZLE_TOKEN_KEY": KEY, "SIZZLE_TLS_CA": pki.ca, "SIZZLE_TLS_CLIENT_CERT": pki.client_cert,
                     "SIZZLE_TLS_CLIENT_KEY": pki.client_key})
    try:
        with open_channel(server.target, trusting(pki.ca, pki.client_cert, pki.client_key)) as channel:
            bots = [mpb.SeatSpec(kind=mpb.SEAT_KIND_BOT, difficulty=mpb.DIFFICULTY_EASY)] * 2
            match = Player.guest(channel, "host").create("a_la_carte_cards", bots)
            finished = wait_finished(channel, match.match_id, timeout=120)
            assert finished.status == mpb.MATCH_STATUS_FINISHED and finished.version > 2
    finally:
        worker.stop()
        server.stop()
        for url, pattern in ((redis_url, f"{prefix}:*"), (broker, f"*{queue}*")):
            client = redis.Redis.from_url(url)
            keys = list(client.scan_iter(match=pattern, count=1000))
            if keys:
                client.delete(*keys)


# --- half-configured TLS --------------------------------------------------------------------------

@pytest.mark.parametrize("fields, says", [
    ({"tls_cert": "server_cert"}, "SIZZLE_TLS_CERT is set but SIZZLE_TLS_KEY is not"),
    ({"tls_key": "server_key"}, "SIZZLE_TLS_KEY is set but SIZZLE_TLS_CERT is not"),
    ({"tls_cert": "/nowhere/cert.pem", "tls_key": "server_key"}, "SIZZLE_TLS_CERT=/nowhere/cert.pem cannot be read"),
    ({"tls_cert": "server_key", "tls_key": "server_key"}, "holds no PEM certificate"),
    ({"tls_cert": "server_cert", "tls_key": "server_cert"}, "SIZZLE_TLS_KEY="),
    ({"tls_client_ca": "ca"}, "SIZZLE_TLS_CLIENT_CA is set but SIZZLE_TLS_CERT and SIZZLE_TLS_KEY are not"),
])
def test_a_half_configured_server_refuses_to_start(pki: Pki, fields: dict[str, str], says: str) -> None:
    config = Config(addr="127.0.0.1:0", **{k: getattr(pki, v, v) for k, v in fields.items()})  # type: ignore[arg-type]
    with pytest.raises(TLSConfigError, match=says):
        server_tls(config)
    with pytest.raises(TLSConfigError, match=says):
        asyncio.run(start_server(config, []))


@pytest.mark.parametrize("fields, says", [
    ({"tls_ca": "/nowhere/ca.pem"}, "SIZZLE_TLS_CA=/nowhere/ca.pem cannot be read"),
    ({"tls_ca": "ca", "tls_client_cert": "client_cert"}, "SIZZLE_TLS_CLIENT_CERT is set but SIZZLE_TLS_CLIENT_KEY"),
    ({"tls_client_cert": "client_cert", "tls_client_key": "client_key"}, "outgoing calls are plaintext"),
    ({"tls_server_name": "localhost"}, "SIZZLE_TLS_SERVER_NAME is set but outgoing calls are plaintext"),
])
def test_a_half_configured_client_refuses_to_start(pki: Pki, fields: dict[str, str], says: str) -> None:
    with pytest.raises(TLSConfigError, match=says):
        client_tls(Config(**{k: getattr(pki, v, v) for k, v in fields.items()}))  # type: ignore[arg-type]


def test_plaintext_stays_the_default() -> None:
    assert server_tls(Config()) is None and client_tls(Config()) is None
    assert client_tls(Config.from_env({"SIZZLE_TLS_SYSTEM_ROOTS": "1"})) == ClientTLS()


def test_sizzle_serve_half_configured_stops_with_one_line(pki: Pki) -> None:
    env = {**os.environ, "SIZZLE_ADDR": "127.0.0.1:0", "SIZZLE_TLS_CERT": pki.server_cert}
    env.pop("SIZZLE_TLS_KEY", None)
    run = subprocess.run([sys.executable, "-m", "apps.cli", "serve"], env=env, capture_output=True, text=True,
                         timeout=60, cwd=ROOT)
    assert run.returncode == 1, run.stderr
    assert "Traceback" not in run.stderr and "Sizzle is serving" not in run.stdout, run.stderr
    assert run.stderr.strip().splitlines()[-1] == ("sizzle: SIZZLE_TLS_CERT is set but SIZZLE_TLS_KEY is not: give "
                                                   "the certificate's private key too (both or neither)")
