"""Many concurrent WatchMatch streams on one server process: every stream gets its first update, and
an action reaches every watcher.

This also guards the grpcio pin in pyproject.toml: grpcio 1.82 to 1.85 leaves a few of a thousand
concurrent streams of an asyncio client forever unstarted (the call never reaches the server)."""

from __future__ import annotations

import asyncio
import time

import grpc

from apps.bench.harness import server_process
from apps.bench.match import guests, new_match, submit_next
from sizzle.match.v1 import match_service_pb2 as mpb
from sizzle.match.v1 import match_service_pb2_grpc

STREAMS = 1200
PER_MATCH = 10
PER_CONNECTION = 100


async def open_streams(target: str) -> tuple[int, int, int]:
    channels = [grpc.aio.insecure_channel(target, options=[("grpc.use_local_subchannel_pool", 1)])
                for _ in range(STREAMS // PER_CONNECTION)]
    stub = match_service_pb2_grpc.MatchServiceStub(channels[0])
    players = await guests(channels[0], 2)
    games = [await new_match(stub, players, "a_la_carte_cards", seed=i + 1) for i in range(STREAMS // PER_MATCH)]
    started = 0
    moved = 0
    all_started = asyncio.Event()

    async def watch(index: int) -> None:
        nonlocal started, moved
        game = games[index % len(games)]
        version = game.version
        watcher = match_service_pb2_grpc.MatchServiceStub(channels[index % len(channels)])
        call = watcher.WatchMatch(mpb.WatchMatchRequest(match_id=game.match_id, from_version=version))
        first = await call.read()
        assert first.match.version == version
        started += 1
        if started == STREAMS:
            all_started.set()
        update = await call.read()
        assert update.match.version == version + 1
        moved += 1
        call.cancel()

    tasks = [asyncio.create_task(watch(i)) for i in range(STREAMS)]
    begin = time.monotonic()
    try:
        await asyncio.wait_for(all_started.wait(), 30)
    except TimeoutError:
        pass
    seconds = int(time.monotonic() - begin)
    if all_started.is_set():
        versions = {game.match_id: game.version for game in games}
        for game in games:
            await submit_next(stub, game, "a_la_carte_cards")
            assert game.version == versions[game.match_id] + 1
        await asyncio.wait(tasks, timeout=60)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    for channel in channels:
        await channel.close()
    return started, moved, seconds


def test_a_thousand_watchers_all_start_and_all_see_the_next_action() -> None:
    with server_process("match") as target:
        started, moved, seconds = asyncio.run(open_streams(target))
    assert started == STREAMS, f"only {started} of {STREAMS} streams got their first update in {seconds}s"
    assert moved == STREAMS, f"only {moved} of {STREAMS} watchers saw the next action"
