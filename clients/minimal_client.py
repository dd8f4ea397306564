"""A complete minimal Sizzle client, written with nothing but gRPC and the stubs generated from
protos/ (the sizzle.* modules, and google.rpc's for error details): it creates a guest, creates a
match against bots, plays random legal actions until the end and prints the final table.

It shows everything a client in any language needs: tokens in the `authorization` metadata, a
WatchMatch stream resumed from the last version after a dropped connection, submits retried with
the same request id, and refusals read from their ErrorInfo reason (never from the message text).
It speaks plaintext, or TLS when given the CA that signs the server (--ca) or --tls (the system's roots).

    python -m clients.minimal_client --server 127.0.0.1:50051 --game grill_party --bots 1
    python -m clients.minimal_client --server play.example.com:443 --tls
"""

from __future__ import annotations

import argparse
import random
import sys
import time
import uuid

import grpc
from google.rpc import error_details_pb2, status_pb2

from sizzle.auth.v1 import auth_service_pb2, auth_service_pb2_grpc
from sizzle.match.v1 import match_service_pb2, match_service_pb2_grpc

# Failures where the server never decided anything: try again (with the same request id).
RETRY = {grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED}


def bearer(token: str) -> list[tuple[str, str]]:
    return [("authorization", f"Bearer {token}")]


def error_reason(error: grpc.RpcError) -> str:
    """The ErrorInfo reason of a refusal, e.g. "STALE_VERSION": it travels in the
    `grpc-status-details-bin` trailer as a serialized google.rpc.Status."""
    for key, value in error.trailing_metadata() or ():  # type: ignore[attr-defined]
        if key == "grpc-status-details-bin":
            status = status_pb2.Status.FromString(value)
            for detail in status.details:
                if detail.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
                    info = error_details_pb2.ErrorInfo()
                    detail.Unpack(info)
                    return info.reason
    return ""


def submit(stub: match_service_pb2_grpc.MatchServiceStub, token: str, match_id: str, action_id: int,
           version: int) -> None:
    """Plays one action. A retry carries the same request id, so it is never applied twice."""
    request = match_service_pb2.SubmitActionRequest(
        match_id=match_id, action_id=action_id, expected_version=version, request_id=uuid.uuid4().hex)
    for attempt in range(20):
        try:
            stub.SubmitAction(request, metadata=bearer(token), timeout=5)
            return
        except grpc.RpcError as error:
            if error.code() in RETRY or error_reason(error) == "STORE_UNAVAILABLE":
                time.sleep(min(0.2 * 2 ** attempt, 3))
                continue
            if error_reason(error) in ("STALE_VERSION", "NOT_YOUR_TURN", "GAME_OVER"):
                return  # the match moved on (a bot played for us after a timeout): the stream shows it
            raise


def open_channel(server: str, ca: str = "", tls: bool = False) -> grpc.Channel:
    """Plaintext, or TLS when given the CA's PEM file (or tls: trusting the system's root certificates)."""
    if not ca and not tls:
        return grpc.insecure_channel(server)
    roots = None
    if ca:
        with open(ca, "rb") as pem:
            roots = pem.read()
    return grpc.secure_channel(server, grpc.ssl_channel_credentials(root_certificates=roots))


def name_of(match: match_service_pb2.Match, seat: int) -> str:
    return match.seats[seat].display_name if 0 <= seat < len(match.seats) else "game"


def play(server: str, game_id: str, bots: int, name: str, seed: int = 0, ca: str = "",
         tls: bool = False) -> match_service_pb2.Match:
    rng = random.Random(seed or None)
    with open_channel(server, ca, tls) as channel:
        auth = auth_service_pb2_grpc.AuthServiceStub(channel)
        stub = match_service_pb2_grpc.MatchServiceStub(channel)

        # 1. A guest player and its token.
        guest = auth.CreateGuest(auth_service_pb2.CreateGuestRequest(display_name=name), timeout=5)

        # 2. A match: our human seat and the bots; then our seat and its seat token.
        seats = [match_service_pb2.SeatSpec(kind=match_service_pb2.SEAT_KIND_HUMAN)] + [
            match_service_pb2.SeatSpec(kind=match_service_pb2.SEAT_KIND_BOT,
                                       difficulty=match_service_pb2.DIFFICULTY_EASY)] * bots
        created = stub.CreateMatch(match_service_pb2.CreateMatchRequest(game_id=game_id, seats=seats, seed=seed),
                                   metadata=bearer(guest.token), timeout=5)
        match_id = created.match.match_id
        joined = stub.JoinMatch(match_service_pb2.JoinMatchRequest(match_id=match_id),
                                metadata=bearer(guest.token), timeout=5)
        seat_token = joined.seat_token
        print(f"match {match_id}: {name} plays seat {joined.seat}")

        # 3. Follow the match; act when the update carries our legal actions. When the stream
        #    breaks, watch again from the last version seen: nothing is missed or repeated.
        version = -1
        while True:
            try:
                request = match_service_pb2.WatchMatchRequest(match_id=match_id, from_version=version)
                for update in stub.WatchMatch(request, metadata=bearer(seat_token)):
                    version = update.match.version
                    for event in update.events:
                        print(f"  {name_of(update.match, event.seat)}: {event.text}")
                    if update.match.status == match_service_pb2.MATCH_STATUS_FINISHED:
                        return update.match
                    if update.legal_actions:
                        choice = rng.choice(update.legal_actions)
                        print(f"  -> {choice.description}")
                        submit(stub, seat_token, match_id, choice.action_id, version)
            except grpc.RpcError as error:
                if error.code() not in RETRY:
                    raise
                time.sleep(0.5)


def final_table(match: match_service_pb2.Match) -> str:
    lines = ["final table:", f"  {'rank':<5} {'seat':<5} {'player':<20} {'score':>8}"]
    for result in sorted(match.outcome.results, key=lambda r: (r.rank, r.seat)):
        crown = "  winner" if result.winner else ""
        name = name_of(match, result.seat)
        lines.append(f"  {result.rank:<5} {result.seat:<5} {name:<20} {result.score:>8g}{crown}")
    lines.append(f"  ({match.outcome.reason})")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Play a random game against bots through the Sizzle API")
    parser.add_argument("--server", default="127.0.0.1:50051")
    parser.add_argument("--game", default="grill_party")
    parser.add_argument("--bots", type=int, default=1)
    parser.add_argument("--name", default="minimal client")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--ca", default="", help="connect with TLS, trusting the CA in this PEM file")
    parser.add_argument("--tls", action="store_true", help="connect with TLS, trusting the system's roots")
    args = parser.parse_args(argv)
    try:
        match = play(args.server, args.game, args.bots, args.name, args.seed, args.ca, args.tls)
    except grpc.RpcError as error:
        print(f"error: {error.details()} ({error_reason(error) or error.code().name})", file=sys.stderr)
        return 1
    except OSError as error:  # the CA file
        print(f"error: {error}", file=sys.stderr)
        return 1
    print(final_table(match))
    return 0


if __name__ == "__main__":
    sys.exit(main())
