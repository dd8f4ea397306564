"""The bot-turn contract: what the match service and whoever plays its bot seats (the in-process bots
of services/match/bots.py in the embedded default, the Celery workers of workers/bots/ otherwise)
must agree on, in one place that both import.

- `TASK`: the Celery task a turn is enqueued as, with arguments (match_id, seat, version,
  dispatched_unix_ms); the workers register their task under this name.
- `BOT_READ`: what a bot reads of its match (GetMatch's read mask: the match, the seat's view, the
  legal ids).
- `bot_request_id()`: the idempotent request id of a turn: one turn, one id, whoever plays it and
  however often it is dispatched.
- `BotFactory`: (game id, difficulty name, random source) -> a bot whose `step(view, legal)` returns
  an action id. The composition root gives the policy (`workers.bots.policy.make_bot`); the match
  service never imports the workers.
- `decide()`: the one routine both paths call to turn a view into the SubmitAction of that turn. The
  bot's random source is seeded with (match, seat, version), so a turn played twice decides alike.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from services.match.read_masks import BOT_READ
from sizzle.match.v1 import match_service_pb2 as mpb

__all__ = ["BOT_READ", "TASK", "BotFactory", "bot_request_id", "decide", "difficulty_name"]

TASK = "workers.bots.tasks.take_turn"
BotFactory = Callable[[str, str, random.Random], Any]


def bot_request_id(match_id: str, seat: int, version: int) -> str:
    """The idempotent request id of a bot turn."""
    return f"bot:{match_id}:{seat}:{version}"


def difficulty_name(difficulty: int) -> str:
    """A seat's Difficulty as the policies name it ("easy", "medium", "hard"); unset is medium."""
    return mpb.Difficulty.Name(difficulty or mpb.DIFFICULTY_MEDIUM).removeprefix("DIFFICULTY_").lower()


def decide(make_bot: BotFactory, match: mpb.Match, seat: int, view: Any,
           legal: Sequence[int]) -> mpb.SubmitActionRequest:
    """The SubmitAction of `seat`'s turn at the match's version: the seat's bot picks among `legal`."""
    rng = random.Random(f"{match.match_id}:{seat}:{match.version}")
    bot = make_bot(match.game_id, difficulty_name(match.seats[seat].difficulty), rng)
    action_id = bot.step(view, list(legal))  # the policy records its own decision time, once
    return mpb.SubmitActionRequest(match_id=match.match_id, action_id=action_id, expected_version=match.version,
                                   request_id=bot_request_id(match.match_id, seat, match.version), seat=seat)
