"""MatchmakingService end to end: the whole platform on a loopback port (rules, match and
matchmaking, in-process bots), real gRPC clients, and the matchmaking store on a real Redis or
in-process (every scenario runs on both)."""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Iterator

import grpc
import pytest

from services.kit.errors import error_info
from services.matchmaking.ratings import bot_id, rate_match
from sizzle.match.v1 import match_service_pb2 as mpb
from sizzle.matchmaking.v1 import matchmaking_service_pb2 as mmpb
from tests.matchmaking.clients import (
    ASSIGNED,
    CANCELLED,
    EXPIRED,
    WAITING,
    Client,
    auth,
    mm_store,
    seed_rating,
    start_platform,
)
from tests.servers import ServerThread
from tests.waiting import eventually

BACKENDS = ["memory", "redis"]


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture()
def make_platform(backend: str, redis_url: str, redis_prefix: str) -> Iterator[object]:
    started: list[ServerThread] = []

    def make(**overrides: object) -> ServerThread:
        server = start_platform(backend, redis_url, redis_prefix, **overrides)
        started.append(server)
        return server

    yield make
    for server in started:
        server.stop()


def clients(server: ServerThread, *names: str) -> tuple[grpc.Channel, list[Client]]:
    channel = grpc.insecure_channel(server.target)
    return channel, [Client.guest(channel, n) for n in names]


def refusal(call: object) -> tuple[grpc.StatusCode, str, dict[str, str]]:
    with pytest.raises(grpc.RpcError) as caught:
        call()  # type: ignore[operator]
    info = error_info(caught.value)  # type: ignore[arg-type]
    assert info is not None
    return caught.value.code(), info.reason, dict(info.metadata)  # type: ignore[attr-defined]


def gone(client: Client, ticket_id: str) -> bool:
    try:
        client.get(ticket_id)
    except grpc.RpcError as error:
        info = error_info(error)  # type: ignore[arg-type]
        return info is not None and info.reason == "UNKNOWN_TICKET"
    return False


def test_people_are_grouped_by_rating(make_platform) -> None:  # type: ignore[no-untyped-def]
    server = make_platform()
    channel, people = clients(server, "low1", "high1", "low2", "high2")
    for person, mu in zip(people, (10.0, 40.0, 11.0, 41.0), strict=True):
        seed_rating(server, "hibachi", person, mu)
    tickets = [p.ticket("hibachi") for p in people]
    assert [t.rating for t in tickets] == [10.0, 40.0, 11.0, 41.0]
    final = [p.final(t.ticket_id) for p, t in zip(people, tickets, strict=True)]
    assert all(t.status == ASSIGNED for t in final)
    low, high = {final[0].assignment.match_id, final[2].assignment.match_id}, {final[1].assignment.match_id,
                                                                               final[3].assignment.match_id}
    assert len(low) == 1 and len(high) == 1 and low != high
    for person, ticket in zip(people, final, strict=True):
        seen = person.seated(ticket)  # the seat token acts for the assigned seat
        assert seen.seat == ticket.assignment.seat and seen.match.seats[seen.seat].player_id == person.player_id
        assert ticket.assignment.num_players == 2 and ticket.assignment.bot_seats == 0
        assert all(s.kind == mpb.SEAT_KIND_HUMAN for s in seen.match.seats)
    assert people[0].get(tickets[0].ticket_id).status == ASSIGNED  # readable after assignment
    channel.close()


def test_the_window_widens_with_waiting(make_platform) -> None:  # type: ignore[no-untyped-def]
    server = make_platform(matchmaking_window_base=1.0, matchmaking_window_growth=8.0)
    channel, (low, high) = clients(server, "low", "high")
    seed_rating(server, "hibachi", low, 10.0)
    seed_rating(server, "hibachi", high, 30.0)
    started = time.monotonic()
    first = low.ticket("hibachi")
    second = high.ticket("hibachi")
    time.sleep(0.5)  # windows of 1 + 8/s: 5 points apart after half a second, 20 needs ~2.4 s
    assert low.get(first.ticket_id).status == WAITING and high.get(second.ticket_id).status == WAITING
    a, b = low.final(first.ticket_id), high.final(second.ticket_id)
    waited = time.monotonic() - started
    assert a.status == b.status == ASSIGNED and a.assignment.match_id == b.assignment.match_id
    assert 2.0 <= waited < 6.0
    channel.close()


def test_bots_fill_at_the_longest_wait(make_platform) -> None:  # type: ignore[no-untyped-def]
    server = make_platform()
    channel, (strong, weak, other) = clients(server, "strong", "weak", "other")
    seed_rating(server, "grill_party", strong, 45.0)
    seed_rating(server, "grill_party", weak, 5.0)
    t1 = strong.ticket("grill_party", counts=(3,), bots=True, wait=1)
    t2 = weak.ticket("grill_party", counts=(2, 4), bots=True, wait=1)
    # Far from both in rating and not allowing bots: never joins their tables, and expires.
    t3 = other.ticket("grill_party", counts=(2, 3, 4), bots=False, wait=1)
    a, b = strong.final(t1.ticket_id), weak.final(t2.ticket_id)
    for ticket in (a, b):
        assert ticket.status == ASSIGNED
        assert ticket.assignment.assigned_unix_ms >= ticket.wait_deadline_unix_ms  # not before the longest wait
    assert a.assignment.match_id != b.assignment.match_id
    assert (a.assignment.num_players, a.assignment.bot_seats) == (3, 2)
    assert (b.assignment.num_players, b.assignment.bot_seats) == (2, 1)  # the smallest table when alone
    bots_of = {}
    for person, ticket in ((strong, a), (weak, b)):
        seats = person.seated(ticket).match.seats
        bots_of[person.name] = {s.difficulty for s in seats if s.kind == mpb.SEAT_KIND_BOT}
        assert [s.player_id for s in seats if s.kind == mpb.SEAT_KIND_HUMAN] == [person.player_id]
    assert bots_of == {"strong": {mpb.DIFFICULTY_HARD}, "weak": {mpb.DIFFICULTY_EASY}}
    eventually(lambda: gone(other, t3.ticket_id), timeout=5)  # expired and removed
    channel.close()


def test_people_close_by_share_a_bot_table(make_platform) -> None:  # type: ignore[no-untyped-def]
    server = make_platform()
    channel, (alice, bob) = clients(server, "alice", "bob")
    t1 = alice.ticket("grill_party", counts=(4,), bots=True, wait=1)
    t2 = bob.ticket("grill_party", counts=(3, 4), bots=True, wait=20)
    a, b = alice.final(t1.ticket_id), bob.final(t2.ticket_id)
    assert a.assignment.match_id == b.assignment.match_id
    assert (a.assignment.num_players, a.assignment.bot_seats) == (4, 2)
    channel.close()


def test_expiry_removes_the_ticket(make_platform, backend: str, redis_url: str,  # type: ignore[no-untyped-def]
                                   redis_prefix: str) -> None:
    server = make_platform()
    channel, (alice,) = clients(server, "alice")
    ticket = alice.ticket("hibachi", wait=1)
    updates = list(alice.watch(ticket.ticket_id))
    assert [u.status for u in updates] == [WAITING, EXPIRED]
    code, reason, _ = refusal(lambda: alice.get(ticket.ticket_id))
    assert (code, reason) == (grpc.StatusCode.NOT_FOUND, "UNKNOWN_TICKET")
    assert alice.ticket("hibachi").status == WAITING  # the slot is free again
    if backend == "redis":
        import redis

        client = redis.Redis.from_url(redis_url)
        left = [k.decode() for k in client.scan_iter(match=f"{redis_prefix}:mm:*")]  # test inspection only
        assert not any(ticket.ticket_id in k for k in left), left
        assert client.zscore(f"{redis_prefix}:mm:{{mm:hibachi}}:by_time", ticket.ticket_id) is None
    channel.close()


def test_one_live_ticket_and_validation(make_platform) -> None:  # type: ignore[no-untyped-def]
    server = make_platform()
    channel, (alice, bob) = clients(server, "alice", "bob")
    first = alice.ticket("license_to_grill", counts=(5,))
    code, reason, meta = refusal(lambda: alice.ticket("license_to_grill", counts=(4,)))
    assert (code, reason, meta) == (grpc.StatusCode.ALREADY_EXISTS, "TICKET_EXISTS", {"ticket_id": first.ticket_id})
    other = alice.ticket("hibachi", counts=(3,))  # one per game
    assert other.player_counts == [3] and other.max_wait_seconds == 30
    assert alice.cancel(first.ticket_id).status == CANCELLED
    assert alice.cancel(first.ticket_id).status == CANCELLED  # again: same answer
    assert alice.ticket("license_to_grill", counts=()).player_counts == [3, 4, 5]  # empty: every size the game allows
    assert refusal(lambda: alice.ticket("no_such_game"))[1] == "UNKNOWN_GAME"
    assert refusal(lambda: alice.ticket("a_la_carte_cards", counts=(2, 9)))[1] == "INVALID_PLAYER_COUNT"
    assert refusal(lambda: bob.ticket("hibachi", wait=-1))[1] == "INVALID_REQUEST"
    assert bob.ticket("a_la_carte", wait=100_000).max_wait_seconds == 600  # capped by SIZZLE_TICKET_TTL_SECONDS
    # Someone else's ticket does not exist for bob; no token is refused.
    assert refusal(lambda: bob.get(other.ticket_id))[:2] == (grpc.StatusCode.NOT_FOUND, "UNKNOWN_TICKET")
    assert refusal(lambda: bob.cancel(other.ticket_id))[1] == "UNKNOWN_TICKET"
    anonymous = Client(channel, "x", "", "")
    assert refusal(lambda: anonymous.mm.GetTicket(mmpb.GetTicketRequest(ticket_id=other.ticket_id), timeout=5))[1] \
        == "INVALID_TOKEN"
    assert refusal(lambda: alice.get("garbage"))[1] == "UNKNOWN_TICKET"
    channel.close()


def test_tickets_take_the_match_quotas_of_their_player_and_address(make_platform) -> None:  # type: ignore[no-untyped-def]
    """A black-box audit: with CreateMatch refused by its quotas, the same guest ran six tables in a
    row through tickets that allow bots (matchmaking creates with the service's credential, which no
    quota limits). A ticket now costs a match of its player's and its address's hourly quotas."""
    server = make_platform(quota_matches_per_hour=2, quota_matches_per_hour_per_address=3)
    channel, (alice, bob) = clients(server, "alice", "bob")
    bots = [mpb.SeatSpec(kind=mpb.SEAT_KIND_BOT)] * 2

    def create(client: Client) -> mpb.Match:
        return client.matches.CreateMatch(mpb.CreateMatchRequest(game_id="hibachi", seats=bots),
                                          metadata=auth(client.token), timeout=5).match

    first = alice.ticket("hibachi", bots=True, wait=1)  # a ticket is a match: one of alice's two
    assert create(alice).match_id
    per_player = refusal(lambda: create(alice))
    assert per_player[:2] == (grpc.StatusCode.RESOURCE_EXHAUSTED, "QUOTA_EXCEEDED")
    assert refusal(lambda: alice.ticket("grill_party", bots=True))[:2] == per_player[:2]
    # bob, from the same address: its third match of the hour is its first ticket; then none.
    assert bob.ticket("grill_party", bots=True, wait=1).ticket_id
    assert refusal(lambda: bob.ticket("hibachi", bots=True))[:2] == per_player[:2]
    assert refusal(lambda: create(bob))[:2] == per_player[:2]
    assert alice.final(first.ticket_id).status == ASSIGNED  # the ticket that was let in plays
    channel.close()


def test_a_ticket_cancelled_while_its_match_forms_is_never_placed(make_platform) -> None:  # type: ignore[no-untyped-def]
    server = make_platform(matchmaking_pause_after_claim_ms=400)
    store = mm_store(server)
    channel, (alice, bob, carol) = clients(server, "alice", "bob", "carol")
    ta = alice.ticket("hibachi")
    tb = bob.ticket("hibachi")
    forming = eventually(lambda: server.call(store.formations("hibachi")), timeout=5, every=0.01)
    assert set(forming[0].ticket_ids) == {ta.ticket_id, tb.ticket_id}
    assert alice.cancel(ta.ticket_id).status == CANCELLED  # while the match is being created
    assert alice.final(ta.ticket_id).status == CANCELLED
    # bob goes back to the pool with his wait and is seated with the next person instead.
    tc = carol.ticket("hibachi")
    b, c = bob.final(tb.ticket_id), carol.final(tc.ticket_id)
    assert b.status == c.status == ASSIGNED and b.assignment.match_id == c.assignment.match_id
    assert b.created_unix_ms == tb.created_unix_ms
    cancelled = alice.get(ta.ticket_id)
    assert cancelled.status == CANCELLED and not cancelled.HasField("assignment")
    # The match created for alice and bob was handed to bots: nobody holds a seat of it, and it was
    # never theirs (their ids stayed on the bots' seats, so it showed in alice's history: an audit).
    listed = alice.matches.ListMatches(mpb.ListMatchesRequest(game_id="hibachi"), timeout=5).matches
    assert len(listed) == 2
    dropped = next(m for m in listed if m.match_id != b.assignment.match_id)
    assert all(s.kind == mpb.SEAT_KIND_BOT and not s.player_id and not s.taken_over for s in dropped.seats)
    assert {s.display_name for s in dropped.seats} == {"medium bot"}
    channel.close()


def test_cancellations_racing_the_matchmaker(make_platform) -> None:  # type: ignore[no-untyped-def]
    server = make_platform(matchmaking_interval_ms=5, matchmaking_pause_after_claim_ms=5)
    channel, people = clients(server, *(f"p{i}" for i in range(24)))
    rng = random.Random(7)
    tickets = {p.name: p.ticket("a_la_carte_cards", counts=(2, 3)) for p in people}
    cancellers = [p for p in people if rng.random() < 0.5]

    def cancel(person: Client) -> None:
        time.sleep(rng.random() * 0.05)
        person.cancel(tickets[person.name].ticket_id)

    threads = [threading.Thread(target=cancel, args=(p,)) for p in cancellers]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    final = {}
    for person in people:
        ticket = eventually(lambda p=person: (t := p.get(tickets[p.name].ticket_id)).status != WAITING and t,
                            timeout=10) if person in cancellers else None
        final[person.name] = ticket or person.get(tickets[person.name].ticket_id)
    placed: dict[str, set[str]] = {}
    for person in people:
        ticket = final[person.name]
        if ticket.status == CANCELLED:
            assert not ticket.HasField("assignment")
        if ticket.status == ASSIGNED:
            placed.setdefault(ticket.assignment.match_id, set()).add(person.player_id)
    # Every seat a person holds (not taken over by a bot) is the seat of an assigned ticket.
    for match in alice_list(people[0]):
        holders = {s.player_id for s in match.seats if s.kind == mpb.SEAT_KIND_HUMAN}
        assert holders <= placed.get(match.match_id, set()), (match, placed)
    channel.close()


def alice_list(client: Client) -> list[mpb.Match]:
    return list(client.matches.ListMatches(mpb.ListMatchesRequest(game_id="a_la_carte_cards", page_size=100),
                                           timeout=5).matches)


def test_ratings_update_once_per_match(make_platform) -> None:  # type: ignore[no-untyped-def]
    server = make_platform()
    store = mm_store(server)
    channel, (alice,) = clients(server, "alice")
    before = alice.rating("a_la_carte_cards")
    assert (before.mu, before.matches_played, before.rank) == (25.0, 0, 0)
    ticket = alice.final(alice.ticket("a_la_carte_cards", bots=True, wait=1).ticket_id)
    assert ticket.status == ASSIGNED and ticket.assignment.bot_seats == 1
    a = ticket.assignment
    # alice walks away: a bot finishes her seat, and the result still counts for her.
    alice.matches.LeaveMatch(mpb.LeaveMatchRequest(match_id=a.match_id), metadata=[("authorization",
                             f"Bearer {a.seat_token}")], timeout=5)
    after = eventually(lambda: (r := alice.rating("a_la_carte_cards")).matches_played and r, timeout=20)
    assert after.matches_played == 1 and after.sigma < before.sigma and after.rank == 1  # (a draw keeps mu)
    finished = alice.matches.GetMatch(mpb.GetMatchRequest(match_id=a.match_id), timeout=5).match
    assert finished.status == mpb.MATCH_STATUS_FINISHED
    bot = next(s for s in finished.seats if not s.player_id)
    assert alice.rating("a_la_carte_cards", bot_id(bot.difficulty)).matches_played == 1
    # Rating it again (another replica's keeper, a retry) changes nothing.
    assert server.call(rate_match(store, finished, 60_000)) == "done"
    server.call(server.running.matchmaking.keeper.track([("a_la_carte_cards", a.match_id)]))
    time.sleep(1.0)
    assert alice.rating("a_la_carte_cards").matches_played == 1
    board = alice.mm.ListLeaderboard(mmpb.ListLeaderboardRequest(game_id="a_la_carte_cards"), timeout=5)
    assert [e.player_id for e in board.entries] == [alice.player_id] and board.total == 1
    channel.close()


def test_leaderboard_pages_and_around_me(make_platform) -> None:  # type: ignore[no-untyped-def]
    server = make_platform()
    channel, people = clients(server, *(f"p{i:02d}" for i in range(25)))
    for i, person in enumerate(people):
        seed_rating(server, "hibachi", person, 10.0 + i)  # p24 is the best
    me = people[12]
    stub = me.mm
    first = stub.ListLeaderboard(mmpb.ListLeaderboardRequest(game_id="hibachi", page_size=10), timeout=5)
    assert [e.display_name for e in first.entries] == [f"p{i:02d}" for i in range(24, 14, -1)]
    assert [e.rank for e in first.entries] == list(range(1, 11)) and first.total == 25
    pages = [first]
    while pages[-1].next_page_token:
        pages.append(stub.ListLeaderboard(mmpb.ListLeaderboardRequest(
            game_id="hibachi", page_size=10, page_token=pages[-1].next_page_token), timeout=5))
    assert [len(p.entries) for p in pages] == [10, 10, 5]
    around = stub.ListLeaderboard(mmpb.ListLeaderboardRequest(game_id="hibachi", page_size=5, around_me=True),
                                  metadata=[("authorization", f"Bearer {me.token}")], timeout=5)
    assert [e.rank for e in around.entries] == [11, 12, 13, 14, 15] and around.entries[2].player_id == me.player_id
    mine = me.rating("hibachi")
    assert mine.rank == 13 and mine.mu == 22.0 and mine.display_name == "p12"
    assert me.rating("hibachi", "bot-hard").mu > me.rating("hibachi", "bot-easy").mu
    assert refusal(lambda: stub.ListLeaderboard(mmpb.ListLeaderboardRequest(game_id="hibachi", page_size=500),
                                                timeout=5))[1] == "INVALID_REQUEST"
    assert refusal(lambda: stub.ListLeaderboard(mmpb.ListLeaderboardRequest(game_id="hibachi", around_me=True),
                                                timeout=5))[1] == "INVALID_TOKEN"
    channel.close()
