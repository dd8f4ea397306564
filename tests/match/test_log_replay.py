"""The log keeps an action's id, not its events: the events come back by applying the actions again
from the seed (the engines are deterministic). Every game, a structured action, a clock that ends a
match, resumed watchers and retried requests all get the very events the first time produced."""

from __future__ import annotations

import asyncio
import random
import uuid

import pytest

from services.auth.tokens import SEAT, SERVICE, Identity, TokenSigner
from services.kit.config import Config
from services.match.core import Matches, visible_events
from services.match.core import pack as pack_action
from services.match.store import MemoryStore
from services.rules import registry
from sizzle.match.v1 import match_service_pb2 as mpb

SERVICE_ID = Identity(kind=SERVICE, player_id="test")


class Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000_000

    def __call__(self) -> int:
        return self.now


def replicas(store: MemoryStore, count: int = 2) -> list[Matches]:
    """Match-service replicas sharing one store, one token key and one clock."""
    signer, clock = TokenSigner("k" * 32, 3600), Clock()
    return [Matches(Config(), store, signer, clock=clock) for _ in range(count)]


def new_core() -> tuple[Matches, Clock]:
    clock = Clock()
    return Matches(Config(), MemoryStore(), TokenSigner("k" * 32, 3600), clock=clock), clock


async def create(core: Matches, game_id: str, players: int, options: dict[str, str] | None = None) -> str:
    seats = [mpb.SeatSpec(kind=mpb.SEAT_KIND_HUMAN, reserved_player_id=f"p{s}") for s in range(players)]
    created = await core.create(SERVICE_ID, mpb.CreateMatchRequest(game_id=game_id, seats=seats, seed=7,
                                                                   options=options or {}))
    return created.match.match_id


async def submit(core: Matches, match_id: str, seat: int, version: int, **action: object) -> mpb.SubmitActionResponse:
    identity = Identity(kind=SEAT, player_id=f"p{seat}", match_id=match_id, seat=seat)
    request = mpb.SubmitActionRequest(match_id=match_id, expected_version=version, request_id=uuid.uuid4().hex,
                                      **action)  # type: ignore[arg-type]
    return await core.submit(identity, request)


async def play(core: Matches, match_id: str, steps: int, rng: random.Random) -> list[tuple[int, int, list]]:
    """Random actions (a structured one now and then); returns (version, seat, events seen) per action."""
    seen = []
    for _ in range(steps):
        loaded = await core.load(match_id)
        if loaded.match.status == mpb.MATCH_STATUS_FINISHED:
            break
        seat = loaded.state.core.seat_to_move
        action_id = rng.choice(loaded.engine.legal_actions(loaded.state))
        if rng.random() < 0.3:
            structured = loaded.engine.id_to_action(loaded.state, seat, action_id)
            response = await submit(core, match_id, seat, loaded.match.version, structured=pack_action(structured))
        else:
            response = await submit(core, match_id, seat, loaded.match.version, action_id=action_id)
        seen.append((response.match.version, seat, list(response.events)))
    return seen


@pytest.mark.parametrize("game_id", registry.game_ids())
def test_replay_gives_back_every_event_and_the_state(game_id: str) -> None:
    async def main() -> None:
        core, _ = new_core()
        engine = registry.get_engine(game_id)
        match_id = await create(core, game_id, engine.spec.min_players)
        seen = await play(core, match_id, 10_000, random.Random(3))
        loaded = await core.load(match_id)
        assert loaded.match.status == mpb.MATCH_STATUS_FINISHED
        replay = await core.replay(None, match_id)
        steps = {step.version: step for step in replay.steps}
        for version, seat, events in seen:
            assert visible_events(steps[version].events, seat) == events, f"version {version}"
            assert steps[version].seat == seat and steps[version].HasField("action")
        state, after = await core._state_at(loaded, loaded.match.version)
        assert state == loaded.state and after == []

    asyncio.run(main())


def test_a_resumed_watcher_and_a_retry_get_the_first_events() -> None:
    async def main() -> None:
        core, _ = new_core()
        match_id = await create(core, "hibachi", 3)
        seen = await play(core, match_id, 12, random.Random(5))
        version, seat, events = seen[5]
        identity = Identity(kind=SEAT, player_id=f"p{seat}", match_id=match_id, seat=seat)
        stream = core.watch(identity, mpb.WatchMatchRequest(match_id=match_id, from_version=version - 1))
        first = await stream.__anext__()
        await stream.aclose()
        later = [e for v, s, evs in seen[5:] for e in visible_events(evs, seat)]
        assert list(first.events) == later  # everything since, as that seat sees it
        # A retry of the request that made `version` (same request, so the same request id) answers the same.
        loaded = await core.load(match_id)
        entry = (await core.store.log(match_id, version - 1))[0]
        again = await core._replayed(loaded, entry, entry.request_hash)
        assert list(again.events) == events

    asyncio.run(main())


def test_a_match_ended_by_the_clock_replays_to_its_final_state() -> None:
    async def main() -> None:
        core, clock = new_core()
        match_id = await create(core, "a_la_carte_cards", 3, {"minutes": "1"})
        await play(core, match_id, 7, random.Random(9))
        clock.now += 61_000
        await core.on_deadline(match_id)
        loaded = await core.load(match_id)
        assert loaded.match.status == mpb.MATCH_STATUS_FINISHED
        replay = await core.replay(None, match_id)
        assert replay.steps[-1].events[0].text == "time is up"
        state, _ = await core._state_at(loaded, loaded.match.version)
        assert state == loaded.state

    asyncio.run(main())


class CountingStore(MemoryStore):
    """A memory store that counts the reads a watcher could make."""

    def __init__(self) -> None:
        super().__init__()
        self.reads = 0

    async def load(self, match_id: str):  # type: ignore[no-untyped-def]
        self.reads += 1
        return await super().load(match_id)

    async def log(self, match_id: str, after_version: int):  # type: ignore[no-untyped-def]
        self.reads += 1
        return await super().log(match_id, after_version)


def test_a_watcher_where_the_action_was_committed_reads_nothing_and_sees_what_others_see() -> None:
    """The replica that commits a version hands it to its own watchers; a replica that did not
    reads it from the store. Both send the same updates."""
    async def main() -> None:
        store = CountingStore()
        committer, elsewhere = replicas(store)
        match_id = await create(committer, "hibachi", 3)
        request = mpb.WatchMatchRequest(match_id=match_id, from_version=-1)
        here, there = committer.watch(None, request), elsewhere.watch(None, request)
        assert await here.__anext__() == await there.__anext__()
        rng = random.Random(11)
        for _ in range(15):
            await play(committer, match_id, 1, rng)
            before = store.reads
            local = await here.__anext__()
            assert store.reads == before, "the committing replica's watcher read the store"
            remote = await there.__anext__()
            assert store.reads > before
            assert local == remote
        await here.aclose()
        await there.aclose()

    asyncio.run(main())
