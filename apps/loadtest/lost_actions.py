"""`make loadtest`'s check after a run: every action the match service acknowledged is in its
match's log at its version (none lost), once the bots have finished the matches."""

from __future__ import annotations

import time

import grpc

from apps.loadtest.scenario import CALL_SECONDS, Stats
from services.match.read_masks import MATCH_ONLY
from sizzle.match.v1 import match_service_pb2 as mpb
from sizzle.match.v1 import match_service_pb2_grpc

POLL_SECONDS = 0.5


def count_lost_actions(channel: grpc.Channel, stats: Stats, drain_seconds: float) -> tuple[int, int]:
    """Waits (at most `drain_seconds`) for the matches the players sat in to finish, then checks
    every acknowledged action against its match's log. Returns (lost actions, matches still unfinished)."""
    stub = match_service_pb2_grpc.MatchServiceStub(channel)
    deadline = time.monotonic() + drain_seconds
    pending = set(stats.matches)
    while pending and time.monotonic() < deadline:
        for match_id in list(pending):
            request = mpb.GetMatchRequest(match_id=match_id, read_mask=MATCH_ONLY)
            match = stub.GetMatch(request, timeout=CALL_SECONDS).match
            if match.status != mpb.MATCH_STATUS_RUNNING:
                pending.discard(match_id)
                if match.status == mpb.MATCH_STATUS_FINISHED:
                    stats.finished.add(match_id)
        time.sleep(POLL_SECONDS)
    with stats.lock:
        acked = list(stats.acked)
    logs: dict[str, dict[int, tuple[int, int]]] = {}
    for match_id in {entry[0] for entry in acked}:
        replay = stub.GetReplay(mpb.GetReplayRequest(match_id=match_id), timeout=CALL_SECONDS)
        # Before a match's end its replay names each version's seat but not the action taken.
        logs[match_id] = {step.version: (step.seat, step.action_id if replay.complete else -1)
                          for step in replay.steps}
    lost = 0
    for match_id, version, seat, action_id in acked:
        logged = logs[match_id].get(version)
        if logged is None or logged[0] != seat or logged[1] not in (action_id, -1):
            lost += 1
    return lost, len(pending)
