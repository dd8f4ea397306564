"""MatchService and AuthService over a real gRPC server on loopback with a real Redis store."""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Iterator

import grpc
import jwt
import pytest
import redis
from google.protobuf import field_mask_pb2

from apps.platform import Deps, create_server
from services.kit.config import Config
from services.kit.errors import error_info
from services.match.redis_store import RedisStore
from services.rules import registry
from sizzle.match.v1 import match_service_pb2 as mpb
from sizzle.match.v1 import match_service_pb2_grpc
from tests.conftest import random_bot_factory
from tests.match.players import BOT, HUMAN, Player, auth, play_out
from tests.servers import ServerThread

KEY = "sizzle-test-key-0123456789abcdef"


@pytest.fixture(scope="module")
def redis_server(redis_url: str) -> Iterator[ServerThread]:
    prefix = f"sizzle-test-{uuid.uuid4().hex[:12]}"
    config = Config(addr="127.0.0.1:0", token_key=KEY, redis_url=redis_url, redis_prefix=prefix,
                    bot_turn_timeout_seconds=2.0, max_message_bytes=256 * 1024)
    store = RedisStore(redis_url, prefix, 3600)
    server = ServerThread(lambda: create_server(config, Deps(store=store, bot_factory=random_bot_factory)))
    yield server
    server.stop()
    client = redis.Redis.from_url(redis_url)
    keys = list(client.scan_iter(match=f"{prefix}:*", count=1000))
    if keys:
        client.delete(*keys)


@pytest.fixture()
def chan(redis_server: ServerThread) -> Iterator[grpc.Channel]:
    with grpc.insecure_channel(redis_server.target) as channel:
        yield channel


def refused(code: grpc.StatusCode, reason: str, call, *args, **kwargs) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(grpc.RpcError) as caught:
        call(*args, timeout=5, **kwargs)
    assert caught.value.code() == code, caught.value.details()
    info = error_info(caught.value)
    assert info is not None and info.reason == reason, (info, caught.value.details())


def seated(chan: grpc.Channel, game: str, humans: int, bots: int = 0, **fields: object) -> list[Player]:
    players = [Player.guest(chan, f"p{i}", seed=i) for i in range(humans)]
    match = players[0].create(game, [HUMAN] * humans + [BOT] * bots, **fields)
    for player in players:
        player.join(match.match_id)
    return players


@pytest.mark.parametrize("game_id", registry.game_ids())
def test_whole_game_through_the_api(chan: grpc.Channel, game_id: str) -> None:
    spec = registry.get_engine(game_id).spec
    players = seated(chan, game_id, spec.min_players, seed=42)
    match = play_out(players)
    assert match.status == mpb.MATCH_STATUS_FINISHED and len(match.outcome.results) == spec.min_players
    replay = players[0].stub.GetReplay(mpb.GetReplayRequest(match_id=match.match_id), timeout=5)
    assert replay.complete and replay.seed == 42 and replay.steps[-1].version == match.version
    # The full log reproduces the game exactly.
    engine = registry.get_engine(game_id)
    state = engine.new_game(replay.num_players, dict(match.options), replay.seed, keyed=replay.keyed_draws)
    for step in replay.steps:
        if step.action.type_url:
            action = engine.Action()
            step.action.Unpack(action)
            engine.apply(state, step.seat, action)
    assert state.core.game_over and engine.outcome(state) == match.outcome


def test_bots_fill_seats_and_play(chan: grpc.Channel) -> None:
    players = seated(chan, "grill_party", 1, bots=2)
    match = play_out(players)
    assert match.status == mpb.MATCH_STATUS_FINISHED


def test_waiting_match_refuses_actions_and_spectators_see_public_view(chan: grpc.Channel) -> None:
    host, guest = Player.guest(chan, "host"), Player.guest(chan, "guest")
    match = host.create("grill_party", [HUMAN, HUMAN])
    assert match.status == mpb.MATCH_STATUS_WAITING
    host.join(match.match_id)
    refused(grpc.StatusCode.FAILED_PRECONDITION, "MATCH_NOT_STARTED", host.stub.SubmitAction,
            mpb.SubmitActionRequest(match_id=match.match_id, action_id=0, request_id="x"),
            metadata=auth(host.seat_token))
    guest.join(match.match_id)
    spectator = host.stub.GetMatch(mpb.GetMatchRequest(match_id=match.match_id), timeout=5)
    assert spectator.seat == -1 and not spectator.legal_actions and spectator.match.status == mpb.MATCH_STATUS_RUNNING
    assert "(you)" not in spectator.rendering
    # Joining again hands back the same seat; a third person finds no seat.
    assert host.join(match.match_id).seat == 0
    late = Player.guest(chan, "late")
    refused(grpc.StatusCode.FAILED_PRECONDITION, "SEAT_UNAVAILABLE", late.stub.JoinMatch,
            mpb.JoinMatchRequest(match_id=match.match_id), metadata=auth(late.token))


def test_a_read_mask_fills_only_the_fields_it_names(chan: grpc.Channel) -> None:
    players = seated(chan, "hibachi", 2)
    full = players[0].get()
    mover = next(p for p in players if p.seat == full.match.seat_to_move)
    waiting = next(p for p in players if p is not mover)
    full = mover.get()

    def read(player: Player, *paths: str) -> mpb.GetMatchResponse:
        request = mpb.GetMatchRequest(match_id=player.match_id, read_mask=field_mask_pb2.FieldMask(paths=paths))
        return player.stub.GetMatch(request, metadata=auth(player.seat_token), timeout=5)

    # What a bot reads: the match, the view and the legal ids, with no descriptions and no rendering.
    ids_only = read(mover, "match", "view", "legal_actions.action_id")
    assert ids_only.match == full.match and ids_only.view == full.view and full.rendering and not ids_only.rendering
    assert [a.action_id for a in ids_only.legal_actions] == [a.action_id for a in full.legal_actions]
    assert len(full.legal_actions) > 1 and all(a.description and a.HasField("action") for a in full.legal_actions)
    assert not any(a.description or a.HasField("action") for a in ids_only.legal_actions)
    assert not read(waiting, "legal_actions.action_id").legal_actions  # not its turn: no ids
    match_only = read(mover, "match")
    assert match_only.match == full.match and not match_only.HasField("view") and not match_only.legal_actions
    assert read(mover, "seat", "rendering") == mpb.GetMatchResponse(seat=mover.seat, rendering=full.rendering)
    for bad in (["match.version"], ["match", "legal_actions.description"], ["View"]):
        refused(grpc.StatusCode.INVALID_ARGUMENT, "INVALID_REQUEST", mover.stub.GetMatch,
                mpb.GetMatchRequest(match_id=mover.match_id, read_mask=field_mask_pb2.FieldMask(paths=bad)),
                metadata=auth(mover.seat_token))
    assert mover.get() == full  # reads change nothing


def test_concurrent_conflicting_submissions_apply_once(chan: grpc.Channel) -> None:
    players = seated(chan, "grill_party", 2)
    mover = next(p for p in players if p.seat == 0)
    current = mover.get()
    version = current.match.version
    legal = [a.action_id for a in current.legal_actions]
    results: list[object] = []
    lock = threading.Lock()

    def submit(i: int) -> None:
        try:
            outcome: object = mover.submit(legal[i % len(legal)], version, request_id=f"c{i}")
        except grpc.RpcError as error:
            outcome = (error.code(), error_info(error).reason)  # type: ignore[union-attr]
        with lock:
            results.append(outcome)

    threads = [threading.Thread(target=submit, args=(i,)) for i in range(100)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    applied = [r for r in results if isinstance(r, mpb.SubmitActionResponse)]
    assert len(applied) == 1
    assert all(r == (grpc.StatusCode.ABORTED, "STALE_VERSION") for r in results if r not in applied)
    assert mover.get().match.version == version + 1


def test_repeated_request_id_is_applied_once(chan: grpc.Channel) -> None:
    players = seated(chan, "grill_party", 2)
    mover = next(p for p in players if p.seat == 0)
    current = mover.get()
    action = current.legal_actions[0].action_id
    first = mover.submit(action, current.match.version, request_id="same")
    again = mover.submit(action, current.match.version, request_id="same")
    assert first == again and mover.get().match.version == current.match.version + 1
    replay = mover.stub.GetReplay(mpb.GetReplayRequest(match_id=mover.match_id), metadata=auth(mover.seat_token),
                                  timeout=5)
    assert len(replay.steps) == current.match.version + 2  # one entry per version, nothing applied twice
    refused(grpc.StatusCode.INVALID_ARGUMENT, "REQUEST_ID_REUSED", mover.stub.SubmitAction,
            mpb.SubmitActionRequest(match_id=mover.match_id, action_id=action + 1, request_id="same",
                                    expected_version=current.match.version), metadata=auth(mover.seat_token))


def test_watcher_that_resumes_misses_nothing(chan: grpc.Channel) -> None:
    players = seated(chan, "grill_party", 2)
    watcher = match_service_pb2_grpc.MatchServiceStub(chan)
    seen: list[tuple[int, list[str]]] = []
    stream = watcher.WatchMatch(mpb.WatchMatchRequest(match_id=players[0].match_id, from_version=-1), timeout=30)
    first = next(stream)
    seen.append((first.match.version, [e.text for e in first.events]))
    for _ in range(6):
        for player in players:
            player.play_if_my_turn()
    while seen[-1][0] < 4:
        update = next(stream)
        seen.append((update.match.version, [e.text for e in update.events]))
    stream.cancel()  # the client drops
    last = seen[-1][0]
    for _ in range(6):
        for player in players:
            player.play_if_my_turn()
    resumed = watcher.WatchMatch(mpb.WatchMatchRequest(match_id=players[0].match_id, from_version=last), timeout=30)
    target = players[0].get().match.version
    while seen[-1][0] < target:
        update = next(resumed)
        seen.append((update.match.version, [e.text for e in update.events]))
    resumed.cancel()
    texts = [t for _, batch in seen for t in batch]
    replay = watcher.GetReplay(mpb.GetReplayRequest(match_id=players[0].match_id), timeout=5)
    assert texts == [e.text for step in replay.steps for e in step.events]


def test_watch_ends_when_the_match_ends(chan: grpc.Channel) -> None:
    players = seated(chan, "grill_party", 1, bots=1)
    finished = play_out(players)
    updates = list(players[0].stub.WatchMatch(mpb.WatchMatchRequest(match_id=finished.match_id), timeout=10))
    assert updates[-1].match.status == mpb.MATCH_STATUS_FINISHED


def test_leave_hands_the_seat_to_a_bot(chan: grpc.Channel) -> None:
    players = seated(chan, "grill_party", 2)
    leaver = players[1]
    # Only a service names a seat to give up (a reservation): a player leaves its own seat only.
    bot = jwt.encode({"kind": "bot", "sub": "bot", "iss": "sizzle", "iat": int(time.time()),
                      "exp": int(time.time()) + 60}, KEY, algorithm="HS256")
    for token, seat in ((leaver.seat_token, 0), (leaver.token, 1), (players[0].seat_token, 1), (bot, 1)):
        refused(grpc.StatusCode.PERMISSION_DENIED, "WRONG_SEAT", leaver.stub.LeaveMatch,
                mpb.LeaveMatchRequest(match_id=leaver.match_id, seat=seat), metadata=auth(token))
    service = jwt.encode({"kind": "service", "sub": "matchmaking", "iss": "sizzle", "iat": int(time.time()),
                          "exp": int(time.time()) + 60}, KEY, algorithm="HS256")
    refused(grpc.StatusCode.INVALID_ARGUMENT, "INVALID_SEAT", leaver.stub.LeaveMatch,
            mpb.LeaveMatchRequest(match_id=leaver.match_id), metadata=auth(service))
    assert players[0].get().match.seats[0].kind == mpb.SEAT_KIND_HUMAN
    left = leaver.stub.LeaveMatch(mpb.LeaveMatchRequest(match_id=leaver.match_id), metadata=auth(leaver.seat_token),
                                  timeout=5).match
    assert left.seats[1].kind == mpb.SEAT_KIND_BOT and left.seats[1].taken_over
    refused(grpc.StatusCode.PERMISSION_DENIED, "WRONG_SEAT", leaver.stub.GetMatch,
            mpb.GetMatchRequest(match_id=leaver.match_id), metadata=auth(leaver.seat_token))
    assert play_out(players[:1]).status == mpb.MATCH_STATUS_FINISHED


def test_a_waiting_table_takes_a_bounded_number_of_seat_changes(chan: grpc.Channel) -> None:
    """A black-box audit: one guest joined and left a stranger's open seat 11,000 times, each a log
    entry, until the finished match's replay was over the message limit (RESOURCE_EXHAUSTED with no
    ErrorInfo, and a traceback logged per GetReplay). A waiting table now takes 200 seat changes."""
    host, churner = Player.guest(chan, "host"), Player.guest(chan, "churn")
    match_id = host.create("grill_party", [HUMAN, HUMAN, HUMAN]).match_id  # seat 2 stays open
    host.join(match_id, 0)
    for _ in range(150):
        try:
            churner.join(match_id, 1)
        except grpc.RpcError as error:
            info = error_info(error)
            assert error.code() == grpc.StatusCode.FAILED_PRECONDITION
            assert info is not None and info.reason == "SEAT_UNAVAILABLE"
            break
        churner.stub.LeaveMatch(mpb.LeaveMatchRequest(match_id=match_id), metadata=auth(churner.seat_token),
                                timeout=5)
    else:
        raise AssertionError("150 joins and leaves of one waiting seat, none refused")
    waiting = host.get().match
    assert waiting.status == mpb.MATCH_STATUS_WAITING and 200 <= waiting.version <= 201
    replay = host.stub.GetReplay(mpb.GetReplayRequest(match_id=match_id), timeout=10)
    assert replay.ByteSize() < 64 * 1024


def test_turn_deadline_lets_a_bot_take_over(chan: grpc.Channel) -> None:
    players = seated(chan, "grill_party", 2, turn_seconds=1)
    start = players[0].get().match
    assert start.turn_deadline_unix_ms > 0
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        match = players[1].stub.GetMatch(mpb.GetMatchRequest(match_id=start.match_id), timeout=5).match
        if match.seats[0].taken_over and match.version > start.version + 1:
            break
        time.sleep(0.1)
    else:
        raise AssertionError("the seat that ran out of time was not taken over")
    replay = players[1].stub.GetReplay(mpb.GetReplayRequest(match_id=start.match_id), timeout=5)
    assert any("ran out of time" in e.text for s in replay.steps for e in s.events)


def test_list_matches_pages(chan: grpc.Channel) -> None:
    host = Player.guest(chan, "lister")
    made = {host.create("a_la_carte_cards" if "a_la_carte_cards" in registry.game_ids() else "grill_party",
                        [HUMAN, HUMAN]).match_id for _ in range(5)}
    stub = host.stub
    found: list[str] = []
    token = ""
    while True:
        page = stub.ListMatches(mpb.ListMatchesRequest(status=mpb.MATCH_STATUS_WAITING, page_size=2,
                                                       page_token=token), timeout=5)
        found.extend(m.match_id for m in page.matches)
        token = page.next_page_token
        if not token:
            break
    assert made <= set(found) and len(found) == len(set(found))
    refused(grpc.StatusCode.INVALID_ARGUMENT, "INVALID_REQUEST", stub.ListMatches,
            mpb.ListMatchesRequest(page_token="garbage"))
    refused(grpc.StatusCode.INVALID_ARGUMENT, "UNKNOWN_GAME", stub.ListMatches, mpb.ListMatchesRequest(game_id="x"))


def test_bad_input_gets_the_right_code_and_changes_nothing(chan: grpc.Channel) -> None:
    players = seated(chan, "grill_party", 2)
    mover, other = sorted(players, key=lambda p: p.seat)
    stub = mover.stub
    before = mover.get().match
    mid = mover.match_id
    legal = mover.get().legal_actions[0].action_id

    def submit(token: str, **fields: object) -> tuple:  # type: ignore[type-arg]
        request = mpb.SubmitActionRequest(match_id=mid, action_id=legal, expected_version=before.version,
                                          request_id=uuid.uuid4().hex)
        for name, value in fields.items():
            setattr(request, name, value)
        return (stub.SubmitAction, request)

    garbage = chan.unary_unary("/sizzle.match.v1.MatchService/SubmitAction",
                               request_serializer=lambda b: b, response_deserializer=lambda b: b)
    refused(grpc.StatusCode.INVALID_ARGUMENT, "INVALID_REQUEST", garbage, b"\xff\xff\xff\xff\x0f garbage",
            metadata=auth(mover.seat_token))
    refused(grpc.StatusCode.NOT_FOUND, "UNKNOWN_MATCH", *submit(mover.seat_token, match_id="m_nope"),
            metadata=auth(mover.seat_token))
    forged = jwt.encode({"kind": "seat", "sub": "p_x", "match": mid, "seat": 0, "iss": "sizzle",
                         "iat": int(time.time()), "exp": int(time.time()) + 60},
                        "another-key-of-a-decent-length-0123456789", algorithm="HS256")
    refused(grpc.StatusCode.UNAUTHENTICATED, "INVALID_TOKEN", *submit(forged), metadata=auth(forged))
    expired = jwt.encode({"kind": "seat", "sub": "p_x", "match": mid, "seat": 0, "iss": "sizzle",
                          "iat": int(time.time()) - 100, "exp": int(time.time()) - 50}, KEY, algorithm="HS256")
    refused(grpc.StatusCode.UNAUTHENTICATED, "INVALID_TOKEN", *submit(expired), metadata=auth(expired))
    refused(grpc.StatusCode.UNAUTHENTICATED, "INVALID_TOKEN", *submit(""), metadata=[("authorization", "Basic x")])
    refused(grpc.StatusCode.UNAUTHENTICATED, "INVALID_TOKEN", *submit(""))
    # A reserved seat's display name without its player was accepted and ignored (an audit).
    named = mpb.CreateMatchRequest(game_id="grill_party",
                                   seats=[mpb.SeatSpec(kind=mpb.SEAT_KIND_HUMAN, reserved_display_name="Al"), BOT])
    refused(grpc.StatusCode.INVALID_ARGUMENT, "INVALID_REQUEST", stub.CreateMatch, named, metadata=auth(mover.token))
    # Calls that need no token refuse a bad one all the same (ListMatches answered OK: an audit).
    for bad in (forged, expired, "garbage"):
        refused(grpc.StatusCode.UNAUTHENTICATED, "INVALID_TOKEN", stub.ListMatches, mpb.ListMatchesRequest(),
                metadata=auth(bad))
        refused(grpc.StatusCode.UNAUTHENTICATED, "INVALID_TOKEN", stub.GetMatch, mpb.GetMatchRequest(match_id=mid),
                metadata=auth(bad))
    refused(grpc.StatusCode.FAILED_PRECONDITION, "NOT_YOUR_TURN", *submit(other.seat_token),
            metadata=auth(other.seat_token))
    # A seat token of another match.
    elsewhere = seated(chan, "grill_party", 2)[0]
    refused(grpc.StatusCode.PERMISSION_DENIED, "WRONG_SEAT", *submit(elsewhere.seat_token),
            metadata=auth(elsewhere.seat_token))
    # A player token is not a seat token; the bot credential may not act for a human seat.
    refused(grpc.StatusCode.PERMISSION_DENIED, "WRONG_SEAT", *submit(mover.token), metadata=auth(mover.token))
    bot = jwt.encode({"kind": "bot", "sub": "bot", "iss": "sizzle", "iat": int(time.time()),
                      "exp": int(time.time()) + 60}, KEY, algorithm="HS256")
    refused(grpc.StatusCode.PERMISSION_DENIED, "WRONG_SEAT", *submit(bot, seat=0), metadata=auth(bot))
    refused(grpc.StatusCode.ABORTED, "STALE_VERSION", *submit(mover.seat_token, expected_version=before.version + 3),
            metadata=auth(mover.seat_token))
    illegal = next(i for i in range(122) if i not in {a.action_id for a in mover.get().legal_actions})
    refused(grpc.StatusCode.FAILED_PRECONDITION, "ILLEGAL_ACTION", *submit(mover.seat_token, action_id=illegal),
            metadata=auth(mover.seat_token))
    refused(grpc.StatusCode.INVALID_ARGUMENT, "MALFORMED_ACTION", *submit(mover.seat_token, action_id=99_999),
            metadata=auth(mover.seat_token))
    refused(grpc.StatusCode.INVALID_ARGUMENT, "INVALID_REQUEST", *submit(mover.seat_token, request_id=""),
            metadata=auth(mover.seat_token))
    big = mpb.CreateMatchRequest(game_id="grill_party", seats=[HUMAN, HUMAN], options={"x": "y" * 400_000})
    with pytest.raises(grpc.RpcError) as caught:
        stub.CreateMatch(big, metadata=auth(mover.token), timeout=5)
    assert caught.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
    after = mover.get().match
    assert after.version == before.version and after == before
