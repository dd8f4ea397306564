"""The commit path of the match core: an action on a version this process holds needs no read, a
replica holding an old version is still refused by the compare-and-set, and a deadline entry left
behind by a lost race never takes a person's seat."""

from __future__ import annotations

import asyncio
import random
import uuid

import pytest

from services.auth.tokens import SEAT, Identity
from services.kit.errors import GameError
from services.match.core import Matches
from sizzle.common.v1 import common_pb2
from sizzle.match.v1 import match_service_pb2 as mpb
from tests.match.test_log_replay import CountingStore, create, new_core, replicas


def seat_identity(match_id: str, seat: int) -> Identity:
    return Identity(kind=SEAT, player_id=f"p{seat}", match_id=match_id, seat=seat)


def request_at(core: Matches, loaded: object, rng: random.Random, request_id: str = "") -> mpb.SubmitActionRequest:
    match = loaded.match  # type: ignore[attr-defined]
    action_id = rng.choice(loaded.engine.legal_actions(loaded.state))  # type: ignore[attr-defined]
    return mpb.SubmitActionRequest(match_id=match.match_id, expected_version=match.version, action_id=action_id,
                                   request_id=request_id or uuid.uuid4().hex)


def test_an_action_on_the_version_this_process_committed_reads_nothing() -> None:
    async def main() -> None:
        store = CountingStore()
        (core,) = replicas(store, 1)
        match_id = await create(core, "hibachi", 3)
        rng = random.Random(2)
        loaded = await core.load(match_id)
        for _ in range(10):
            request = request_at(core, loaded, rng)
            before = store.reads
            response = await core.submit(seat_identity(match_id, loaded.match.seat_to_move), request)
            assert store.reads == before, "the submit read the store"
            loaded = await core.load(match_id)
            assert loaded.match.version == response.match.version == request.expected_version + 1

    asyncio.run(main())


def test_a_replica_holding_an_old_version_is_refused_and_answers_a_retry() -> None:
    """Replica A committed version 1 and holds it; replica B moves the match to 2. An action sent to A
    at version 1 is refused as stale (not applied to what A holds), and a retry of B's request sent
    to A gets B's answer."""
    async def main() -> None:
        store = CountingStore()
        a, b = replicas(store)
        match_id = await create(a, "grill_party", 2)
        rng = random.Random(4)
        first = request_at(a, await a.load(match_id), rng)
        seat = (await a.load(match_id)).match.seat_to_move
        await a.submit(seat_identity(match_id, seat), first)  # A holds version 1
        at_one = await b.load(match_id)
        moved = request_at(b, at_one, rng, request_id="moved-by-b")
        answer = await b.submit(seat_identity(match_id, at_one.match.seat_to_move), moved)
        assert answer.match.version == 2
        # A still holds version 1; an action at version 1 reaches A.
        late = mpb.SubmitActionRequest(match_id=match_id, expected_version=1, action_id=moved.action_id,
                                       request_id=uuid.uuid4().hex)
        with pytest.raises(GameError) as refused:
            await a.submit(seat_identity(match_id, at_one.match.seat_to_move), late)
        assert refused.value.reason == common_pb2.ERROR_REASON_STALE_VERSION
        assert (await a.load(match_id)).match.version == 2
        again = await a.submit(seat_identity(match_id, at_one.match.seat_to_move), moved)
        assert again.match.version == 2 and list(again.events) == list(answer.events)

    asyncio.run(main())


def test_a_stale_deadline_entry_never_takes_a_persons_seat() -> None:
    """A match whose person has no turn timer has no deadline; an entry left behind (a commit that
    lost its compare-and-set after scheduling, a crash before the entry was removed) is dropped when
    it comes due, and nobody is replaced by a bot."""
    async def main() -> None:
        core, clock = new_core()
        match_id = await create(core, "hibachi", 2)
        loaded = await core.load(match_id)
        assert loaded.match.turn_deadline_unix_ms == 0 and loaded.match.status == mpb.MATCH_STATUS_RUNNING
        await core.store.schedule(match_id, clock.now - 1)
        assert await core.store.due(clock.now, 10) == [match_id]
        await core.on_deadline(match_id)
        after = await core.load(match_id)
        assert after.match.version == loaded.match.version
        assert all(s.kind == mpb.SEAT_KIND_HUMAN and not s.taken_over for s in after.match.seats)
        assert await core.store.due(clock.now + 10**9, 10) == []

    asyncio.run(main())
