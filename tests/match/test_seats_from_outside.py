"""Who holds a seat, seen from outside: a third-party client with the real grpcurl binary (through
reflection) against the whole platform on loopback. Each case is one a black-box audit found open:
- leaving a table that has not started and joining again took another seat each time, the one left
  turned into a bot still carrying the player's id (one player held a table's every seat, and anyone
  could turn a stranger's open seat into a bot);
- a seat's WatchMatch stream kept sending the seat's hand, its secret draws and its legal actions
  after the player left it (or ran out of time), where every other call refuses the token;
- JoinMatch for a seat number the table does not have said SEAT_UNAVAILABLE (FAILED_PRECONDITION: try
  again later) instead of INVALID_SEAT (INVALID_ARGUMENT)."""

from __future__ import annotations

import json
import subprocess
import time
from typing import Any

from tests.docs.grpcurl_walkthrough import grpcurl_binary
from tests.servers import ServerThread

M = "sizzle.match.v1.MatchService"
# grpcurl exits 64 + the status code of a failed call
PERMISSION_DENIED, INVALID_ARGUMENT = 64 + 7, 64 + 3


def messages(text: str) -> list[dict[str, Any]]:
    decoder, text, out = json.JSONDecoder(), text.strip(), []
    while text:
        value, end = decoder.raw_decode(text)
        out.append(value)
        text = text[end:].lstrip()
    return out


def grpcurl_args(target: str, method: str, data: dict[str, Any], token: str = "", *extra: str) -> list[str]:
    auth = ["-H", f"authorization: Bearer {token}"] if token else []
    return [str(grpcurl_binary()), "-plaintext", *extra, *auth, "-d", json.dumps(data), target, method]


def call(target: str, method: str, data: dict[str, Any], token: str = "") -> tuple[int, list[dict[str, Any]], str]:
    done = subprocess.run(grpcurl_args(target, method, data, token), capture_output=True, text=True, timeout=30)
    return done.returncode, messages(done.stdout) if done.returncode == 0 else [], done.stderr


def ok(target: str, method: str, data: dict[str, Any], token: str = "") -> dict[str, Any]:
    code, out, err = call(target, method, data, token)
    assert code == 0, (method, data, err)
    return out[0]


def guest(target: str, name: str) -> str:
    return ok(target, "sizzle.auth.v1.AuthService/CreateGuest", {"display_name": name})["token"]


def table(target: str, token: str, humans: int) -> str:
    seats = [{"kind": "SEAT_KIND_HUMAN"}] * humans
    return ok(target, f"{M}/CreateMatch", {"game_id": "grill_party", "seats": seats}, token)["match"]["matchId"]


def test_leaving_a_table_before_it_starts_opens_the_seat_and_no_one_holds_two(platform: ServerThread) -> None:
    target = platform.target
    al, bob = guest(target, "al"), guest(target, "bob")
    match_id = table(target, al, 3)
    for _ in range(3):  # join, leave, join, leave, join
        joined = ok(target, f"{M}/JoinMatch", {"match_id": match_id}, al)
        if _ < 2:
            left = ok(target, f"{M}/LeaveMatch", {"match_id": match_id}, joined["seatToken"])["match"]
            assert all(seat.get("kind") == "SEAT_KIND_HUMAN" and not seat.get("playerId") for seat in left["seats"])
    match = joined["match"]
    al_id = next(seat["playerId"] for seat in match["seats"] if seat.get("playerId"))
    assert match["status"] == "MATCH_STATUS_WAITING"
    assert [seat.get("playerId") for seat in match["seats"]].count(al_id) == 1
    assert all(seat["kind"] == "SEAT_KIND_HUMAN" and not seat.get("takenOver") for seat in match["seats"])
    # A stranger who joins and leaves leaves the seat open for a person, not to a bot.
    stranger = ok(target, f"{M}/JoinMatch", {"match_id": match_id}, bob)
    after = ok(target, f"{M}/LeaveMatch", {"match_id": match_id}, stranger["seatToken"])["match"]
    seat = after["seats"][stranger.get("seat", 0)]
    assert seat["kind"] == "SEAT_KIND_HUMAN" and not seat.get("playerId") and not seat.get("takenOver")
    assert after["status"] == "MATCH_STATUS_WAITING"


def test_a_seats_watch_stream_ends_when_the_seat_is_no_longer_the_players(platform: ServerThread) -> None:
    target = platform.target
    alice, bob = guest(target, "alice"), guest(target, "bob")
    match_id = table(target, alice, 2)
    ok(target, f"{M}/JoinMatch", {"match_id": match_id}, alice)
    seat_b = ok(target, f"{M}/JoinMatch", {"match_id": match_id}, bob)["seatToken"]
    watch = subprocess.Popen(grpcurl_args(target, f"{M}/WatchMatch", {"match_id": match_id, "from_version": -1},
                                          seat_b, "-max-time", "20"),
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(2)  # the stream is open and has sent the seat's view
    ok(target, f"{M}/LeaveMatch", {"match_id": match_id}, seat_b)
    out, err = watch.communicate(timeout=30)
    # It ends at the version where a bot took the seat over, refused as a new WatchMatch would be.
    assert watch.returncode == PERMISSION_DENIED and "WRONG_SEAT" in err, (watch.returncode, err)
    streamed = messages(out)
    assert streamed, "the stream sent nothing before it ended"
    for update in streamed:  # nothing of the seat once it was a bot's
        assert update["match"]["seats"][1]["kind"] == "SEAT_KIND_HUMAN", update["match"]
    code, _, refused = call(target, f"{M}/WatchMatch", {"match_id": match_id}, seat_b)
    assert code == PERMISSION_DENIED and "WRONG_SEAT" in refused


def test_joining_a_seat_the_table_does_not_have_is_an_invalid_seat(platform: ServerThread) -> None:
    target = platform.target
    host = guest(target, "host")
    match_id = table(target, host, 2)
    for seat in (-1, 2, 2**31 - 1):
        code, _, err = call(target, f"{M}/JoinMatch", {"match_id": match_id, "seat": seat}, host)
        assert code == INVALID_ARGUMENT and '"reason":"INVALID_SEAT"' in err.replace(" ", ""), (seat, err)
    assert ok(target, f"{M}/JoinMatch", {"match_id": match_id, "seat": 1}, host)["seat"] == 1


GAMES_AND_TABLES = [("license_to_grill", 3), ("grill_party", 2), ("a_la_carte", 2), ("a_la_carte_cards", 2),
                    ("hibachi", 2)]


def test_a_waiting_seat_shows_nothing_of_its_hand_until_the_game_starts(platform: ServerThread) -> None:
    """A black-box audit: the cards are dealt when the table is created, and a seat token showed its
    seat's hand while the table waited. Since a waiting seat is open again when left, one player went
    round the open seats (join, GetMatch, leave) and sat down knowing every other hand. A waiting seat
    now sees what a spectator sees, through every call; its own hand shows once the game runs."""
    target = platform.target
    for game_id, humans in GAMES_AND_TABLES:
        host = guest(target, "host")
        seats = [{"kind": "SEAT_KIND_HUMAN"}] * humans
        match_id = ok(target, f"{M}/CreateMatch", {"game_id": game_id, "seats": seats}, host)["match"]["matchId"]
        peeker = ok(target, f"{M}/JoinMatch", {"match_id": match_id, "seat": humans - 1}, guest(target, "peek"))
        token = peeker["seatToken"]
        spectators = ok(target, f"{M}/GetMatch", {"match_id": match_id})["view"]
        seated = ok(target, f"{M}/GetMatch", {"match_id": match_id}, token)
        assert seated["match"]["status"] == "MATCH_STATUS_WAITING" and seated["seat"] == humans - 1
        assert seated["view"] == spectators, game_id
        watch = subprocess.run(grpcurl_args(target, f"{M}/WatchMatch", {"match_id": match_id, "from_version": -1},
                                            token, "-max-time", "2"), capture_output=True, text=True, timeout=30)
        first = messages(watch.stdout)[0]
        assert first["view"] == spectators and "secretText" not in json.dumps(first), game_id
        replay = ok(target, f"{M}/GetReplay", {"match_id": match_id}, token)
        assert "secretText" not in json.dumps(replay), game_id
        # The others sit down: the game runs, and the seat's view is its own from then on.
        for seat in range(humans - 1):
            ok(target, f"{M}/JoinMatch", {"match_id": match_id, "seat": seat}, guest(target, f"p{seat}"))
        running = ok(target, f"{M}/GetMatch", {"match_id": match_id}, token)
        assert running["match"]["status"] == "MATCH_STATUS_RUNNING"
        assert running["view"] != ok(target, f"{M}/GetMatch", {"match_id": match_id})["view"], game_id


def test_a_seat_token_of_an_earlier_sitting_acts_for_nothing(platform: ServerThread) -> None:
    """A black-box audit: join a waiting table's seat (token OLD), leave (OLD refused, rightly), join
    the same seat again: OLD read the seat's view and played its moves again (a leave and a join in
    one second even gave the very same token). A seat token names its sitting now."""
    target = platform.target
    al, bo = guest(target, "al"), guest(target, "bo")
    match_id = table(target, al, 2)
    old = ok(target, f"{M}/JoinMatch", {"match_id": match_id, "seat": 0}, al)["seatToken"]
    ok(target, f"{M}/LeaveMatch", {"match_id": match_id}, old)
    new = ok(target, f"{M}/JoinMatch", {"match_id": match_id, "seat": 0}, al)["seatToken"]
    assert new != old
    ok(target, f"{M}/JoinMatch", {"match_id": match_id, "seat": 1}, bo)  # the game runs
    for method, data in ((f"{M}/GetMatch", {"match_id": match_id}), (f"{M}/LeaveMatch", {"match_id": match_id}),
                         (f"{M}/WatchMatch", {"match_id": match_id})):
        code, _, err = call(target, method, data, old)
        assert code == PERMISSION_DENIED and "WRONG_SEAT" in err, (method, err)
    assert ok(target, f"{M}/GetMatch", {"match_id": match_id}, new)["match"]["status"] == "MATCH_STATUS_RUNNING"
    # Joining again hands out the seat's token again (its times may differ): it acts, the old one not.
    again = ok(target, f"{M}/JoinMatch", {"match_id": match_id}, al)["seatToken"]
    assert ok(target, f"{M}/GetMatch", {"match_id": match_id}, again)["match"]["status"] == "MATCH_STATUS_RUNNING"
    assert call(target, f"{M}/GetMatch", {"match_id": match_id}, old)[0] == PERMISSION_DENIED
