"""One bot turn, as a plain function over a MatchService stub (testable without Celery).

It reads the seat's view through MatchService with the bot credential, runs the policy, and submits
with a request id derived from (match, seat, version), so a turn is played at most once however
often it is dispatched.
"""

from __future__ import annotations

import logging
import time
from typing import Any

import grpc

from services.kit import metrics
from services.kit.errors import error_info
from services.match.bot_turns import BOT_READ, BotFactory, decide
from services.rules import registry
from sizzle.match.v1 import match_service_pb2 as mpb

log = logging.getLogger("sizzle.bots.turn")


def play_turn(stub: Any, bot_token: str, match_id: str, seat: int, version: int, make_bot: BotFactory,
              timeout: float, dispatched_unix_ms: int = 0, think_seconds: float = 0.0) -> str:
    """Plays the bot turn of `seat` at `version`; returns what happened ("played", "stale", ...)."""
    metadata = [("authorization", f"Bearer {bot_token}")]
    current = stub.GetMatch(mpb.GetMatchRequest(match_id=match_id, seat=seat, read_mask=BOT_READ),
                            metadata=metadata, timeout=timeout)
    match = current.match
    if match.version != version or match.seat_to_move != seat or match.status != mpb.MATCH_STATUS_RUNNING:
        return "stale"
    engine = registry.get_engine(match.game_id)
    view = engine.View()
    current.view.Unpack(view)
    request = decide(make_bot, match, seat, view, [a.action_id for a in current.legal_actions])
    if think_seconds:
        time.sleep(think_seconds)
    try:
        stub.SubmitAction(request, metadata=metadata, timeout=timeout)
    except grpc.RpcError as error:
        info = error_info(error)
        if info is not None and info.reason in ("STALE_VERSION", "GAME_OVER"):
            return "stale"  # another dispatch of this turn played it
        raise
    if dispatched_unix_ms:
        metrics.BOT_TURN_LATENCY.labels(match.game_id).observe(max(0.0, time.time() - dispatched_unix_ms / 1000))
    return "played"
