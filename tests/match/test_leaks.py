"""The leaks of docs/security.md played as attacks through gRPC, against a real server on Redis:
request ids answered to someone else, a creator's fixed seed, a retry answered with the match as it is
now. Each attack must get a coded error or a fresh answer of its own, never another caller's."""

from __future__ import annotations

import grpc
import pytest

from services.match.bot_turns import bot_request_id
from sizzle.match.v1 import match_service_pb2 as mpb
from tests.match.players import BOT, HUMAN, Player, auth
from tests.match.test_match_api import chan, redis_server, refused, seated  # noqa: F401 (fixtures)


def private_draw(player: Player, others: list[Player]) -> tuple[mpb.SubmitActionRequest, mpb.SubmitActionResponse]:
    """Plays grill_party until `player` makes an action whose answer carries a private event; returns
    that request and its answer. The others play whatever when it is their turn."""
    by_seat = {p.seat: p for p in [player, *others]}
    for step in range(2_000):
        current = player.get()
        mover = by_seat[current.match.seat_to_move]
        view = mover.get()
        choice = mover.rng.choice(view.legal_actions).action_id
        request = mpb.SubmitActionRequest(match_id=player.match_id, action_id=choice,
                                          expected_version=view.match.version, request_id=f"r{step}")
        answer = mover.stub.SubmitAction(request, metadata=auth(mover.seat_token), timeout=5)
        if mover is player and any(e.secret_text for e in answer.events):
            return request, answer
    raise AssertionError("no private draw in 2,000 actions")


def test_another_seat_replaying_a_request_id_gets_no_answer_of_mine(chan: grpc.Channel) -> None:  # noqa: F811
    alice, bob = seated(chan, "grill_party", 2)
    request, first = private_draw(alice, [bob])
    assert any("you draw" in e.secret_text for e in first.events)
    # Bob sends Alice's exact request (her request id, version and action) with his own seat token.
    with pytest.raises(grpc.RpcError) as caught:
        bob.stub.SubmitAction(request, metadata=auth(bob.seat_token), timeout=5)
    assert caught.value.code() in (grpc.StatusCode.ABORTED, grpc.StatusCode.FAILED_PRECONDITION)
    assert "draw" not in (caught.value.details() or "")
    # A different action under her id is a new request of Bob's, not REQUEST_ID_REUSED (which would tell
    # him the id exists).
    other = mpb.SubmitActionRequest()
    other.CopyFrom(request)
    other.action_id = (request.action_id + 1) % 10
    with pytest.raises(grpc.RpcError) as caught:
        bob.stub.SubmitAction(other, metadata=auth(bob.seat_token), timeout=5)
    assert "REQUEST_ID_REUSED" not in str(caught.value.trailing_metadata())
    # A seat token of an unrelated match sending it is refused as a stranger.
    carol, dave = seated(chan, "grill_party", 2)
    refused(grpc.StatusCode.PERMISSION_DENIED, "WRONG_SEAT", carol.stub.SubmitAction, request,
            metadata=auth(carol.seat_token))
    # Alice herself still gets her first answer, private events included.
    again = alice.stub.SubmitAction(request, metadata=auth(alice.seat_token), timeout=5)
    assert list(again.events) == list(first.events) and again.match.version == first.match.version


def test_a_bots_predictable_request_ids_give_away_nothing(chan: grpc.Channel) -> None:  # noqa: F811
    (alice,) = seated(chan, "grill_party", 1, bots=1)
    # Let the bot play a few turns; each of its request ids is bot:<match>:<seat>:<version>.
    played: list[int] = []
    for _ in range(400):
        current = alice.get()
        if current.match.status == mpb.MATCH_STATUS_FINISHED or len(played) >= 5:
            break
        if current.match.seat_to_move == alice.seat:
            alice.submit(alice.rng.choice(current.legal_actions).action_id, current.match.version)
        else:
            played.append(current.match.version)
            import time
            time.sleep(0.05)
    replay = alice.stub.GetReplay(mpb.GetReplayRequest(match_id=alice.match_id), metadata=auth(alice.seat_token),
                                  timeout=5)
    bot_steps = [s for s in replay.steps if s.seat == 1]
    assert bot_steps, "the bot never played"
    for step in bot_steps:
        guess = mpb.SubmitActionRequest(match_id=alice.match_id, action_id=0, expected_version=step.version - 1,
                                        request_id=bot_request_id(alice.match_id, 1, step.version - 1))
        for action_id in range(3):
            guess.action_id = action_id
            try:
                answer = alice.stub.SubmitAction(guess, metadata=auth(alice.seat_token), timeout=5)
            except grpc.RpcError as error:
                assert error.code() in (grpc.StatusCode.ABORTED, grpc.StatusCode.FAILED_PRECONDITION,
                                        grpc.StatusCode.INVALID_ARGUMENT), error.details()
                assert "REQUEST_ID_REUSED" not in str(error.trailing_metadata())
            else:  # only possible as a fresh action of Alice's own at the current version
                assert all(e.secret_text == "" or e.seat == alice.seat for e in answer.events)


def test_a_fixed_seed_is_marked_never_joined_unawares_and_never_rated(chan: grpc.Channel) -> None:  # noqa: F811
    host, guest = Player.guest(chan, "host"), Player.guest(chan, "guest")
    match = host.create("grill_party", [HUMAN, HUMAN], seed=1234)
    assert match.seed_fixed
    host.join(match.match_id)  # the creator knows what it chose
    refused(grpc.StatusCode.FAILED_PRECONDITION, "FIXED_SEED", guest.stub.JoinMatch,
            mpb.JoinMatchRequest(match_id=match.match_id), metadata=auth(guest.token))
    assert host.get().match.status == mpb.MATCH_STATUS_WAITING  # the refusal changed nothing
    joined = guest.stub.JoinMatch(mpb.JoinMatchRequest(match_id=match.match_id, accept_fixed_seed=True),
                                  metadata=auth(guest.token), timeout=5)
    assert joined.match.status == mpb.MATCH_STATUS_RUNNING and joined.match.seed_fixed
    # A match with a random seed says so; bots-only and the creator's own seats are unaffected.
    assert not host.create("grill_party", [HUMAN, BOT]).seed_fixed
    assert host.create("grill_party", [BOT, BOT], seed=5).seed_fixed


def test_the_rating_keeper_never_rates_a_fixed_seed_match() -> None:
    import asyncio

    from services.matchmaking.ratings import rate_match

    match = mpb.Match(match_id="m_x", game_id="grill_party", seed_fixed=True, status=mpb.MATCH_STATUS_FINISHED)
    match.seats.add(seat=0, kind=mpb.SEAT_KIND_HUMAN, player_id="p_a")
    match.seats.add(seat=1, kind=mpb.SEAT_KIND_HUMAN, player_id="p_b")
    match.outcome.results.add(seat=0, rank=1, winner=True)
    match.outcome.results.add(seat=1, rank=2)
    assert asyncio.run(rate_match(None, match, 1000)) == "unrated"  # type: ignore[arg-type]  (never reads the store)


def test_a_retry_after_the_match_moved_on_answers_the_version_it_made(chan: grpc.Channel) -> None:  # noqa: F811
    alice, bob = seated(chan, "grill_party", 2)
    request, first = private_draw(alice, [bob])
    # The match moves on: whoever is to move plays a few actions.
    by_seat = {alice.seat: alice, bob.seat: bob}
    for _ in range(4):
        current = alice.get()
        if current.match.status != mpb.MATCH_STATUS_RUNNING:
            break
        by_seat[current.match.seat_to_move].play_if_my_turn()
    assert alice.get().match.version > first.match.version
    again = alice.stub.SubmitAction(request, metadata=auth(alice.seat_token), timeout=5)
    assert again.match == first.match  # the version, seat to move, seats and deadlines of the first answer
    assert list(again.events) == list(first.events)
