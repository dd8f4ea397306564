"""The search teacher: a determinized one-turn lookahead scored by a learned value function.

At a decision of `seat`, the teacher redraws everything the seat cannot know
(`engine.resample_hidden`: it never peeks), applies each candidate action, lets the heuristic bot
play on (the rest of the seat's turn, then the other seats) until `seat` is to move again after the
others replied (or the game ends), and scores what the seat then
sees with the value network (its expected share of the win, learned from the outcomes of whole
games). Every candidate is played from the same redrawn states with the same bot seeds (common
random numbers), and the scores are averaged over a few redraws.

Why not roll every game out to the end: one decision moves a seat's chance of winning by a few
points while the luck of a whole game moves it by fifty, so whole-game rollouts would need
thousands of games per decision to tell candidates apart. A value network averages that luck over
all its training games once; the lookahead then only has to see the candidate's consequences and
the opponents' replies.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from services.rules.engine import Engine
from services.rules.random_source import RandomSource, seed_random
from sizzle.common.v1 import common_pb2
from workers.bots.interface import Bot
from workers.training.arena import play_out

RANK_WEIGHT = 0.3  # the rank bonus next to a whole win (1.0), so that lost games still say something


def final_value(engine: Engine, state: Any, seat: int) -> float:
    """A finished game's value for `seat`, centred on the table: its share of the win less the
    average share, plus RANK_WEIGHT times its rank score less the average rank score. Zero for
    every seat of a game that all seats tie (and for an unfinished game)."""
    outcome = engine.outcome(state)
    n = state.core.num_players
    if outcome is None or n < 2:
        return 0.0
    winners = sum(1 for r in outcome.results if r.winner)
    rank_scores = [(n - r.rank) / (n - 1) for r in outcome.results]
    result = outcome.results[seat]
    win = 1.0 / winners if result.winner else 0.0
    return (win - 1.0 / n) + RANK_WEIGHT * (rank_scores[seat] - sum(rank_scores) / n)


def redraw(engine: Engine, state: Any, seat: int, rng: random.Random) -> Any:
    """A copy of `state` with everything `seat` cannot know redrawn (`engine.resample_hidden`),
    seeded from `rng`."""
    source_state = common_pb2.RandomState()
    seed_random(source_state, rng.getrandbits(63))
    return engine.resample_hidden(state, seat, RandomSource(source_state))


@dataclass
class SearchResult:
    action: int
    values: dict[int, float]  # mean score of each candidate
    lookaheads: int


ValueFunction = Callable[[np.ndarray], np.ndarray]  # (batch, *obs) -> (batch,)


class ValueLookahead:
    """Determinized one-turn lookahead; `rollout_bot(rng)` plays the other seats."""

    def __init__(
        self,
        engine: Engine,
        rollout_bot: Callable[[random.Random], Bot],
        value: ValueFunction,
        rng: random.Random,
        redraws: int = 4,
        max_steps: int = 500,
    ) -> None:
        self.engine = engine
        self.value = value
        self.rng = rng
        self.redraws = redraws
        self.max_steps = max_steps
        self._bot_rng = random.Random(rng.getrandbits(63))
        self._bot = rollout_bot(self._bot_rng)

    def _redraw(self, state: Any, seat: int) -> Any:
        return redraw(self.engine, state, seat, self.rng)

    def _look_ahead(self, sample: Any, seat: int, action: int, bot_seed: int) -> tuple[float | None, np.ndarray | None]:
        """(the final value, None) when the game ends, else (None, the seat's observation then)."""
        engine = self.engine
        state = type(sample)()
        state.CopyFrom(sample)
        engine.apply(state, seat, action)
        self._bot_rng.seed(bot_seed)
        core = state.core
        steps = 0
        others_moved = False
        # On to the seat's next turn: its own further steps of this turn (played by the bot too),
        # then the others' replies, until the seat is to move again after someone else moved.
        while not core.game_over and steps < self.max_steps:
            mover = core.seat_to_move
            if mover == seat and others_moved:
                break
            others_moved |= mover != seat
            legal = engine.legal_actions(state)
            chosen = legal[0] if len(legal) == 1 else self._bot.step(engine.view(state, mover), legal)
            engine.apply(state, mover, chosen)
            steps += 1
        if core.game_over:
            return final_value(engine, state, seat), None
        return None, engine.observe(state, seat)

    def search(self, state: Any, seat: int, candidates: Sequence[int] | None = None) -> SearchResult:
        arms = list(candidates) if candidates is not None else self.engine.legal_actions(state, seat)
        if len(arms) == 1:
            return SearchResult(arms[0], {arms[0]: 0.0}, 0)
        totals = dict.fromkeys(arms, 0.0)
        pending: list[tuple[int, np.ndarray]] = []
        for _ in range(self.redraws):
            sample = self._redraw(state, seat)
            bot_seed = self.rng.getrandbits(63)
            for a in arms:
                final, obs = self._look_ahead(sample, seat, a, bot_seed)
                if obs is None:
                    totals[a] += final or 0.0
                else:
                    pending.append((a, obs))
        if pending:
            scores = self.value(np.stack([obs for _, obs in pending]))
            for (a, _), score in zip(pending, scores, strict=True):
                totals[a] += float(score)
        means = {a: totals[a] / self.redraws for a in arms}
        top = max(means.values())
        best = self.rng.choice([a for a in arms if means[a] >= top - 1e-9])  # ties: at random
        return SearchResult(best, means, self.redraws * len(arms))


class SearchBot:
    """A bot that runs the teacher from the true state (for measuring the teacher; it knows only
    what its seat may, because every lookahead starts from a redrawn state)."""

    def __init__(self, search: ValueLookahead, state_ref: Callable[[], Any]) -> None:
        self.search = search
        self.state_ref = state_ref

    def step(self, view: Any, legal_actions: Sequence[int]) -> int:
        return self.search.search(self.state_ref(), view.core.viewer, legal_actions).action


class RolloutImprovement:
    """Expert iteration's search: Monte Carlo policy improvement over the current network (Tesauro
    and Galperin's rollout player).

    At a decision of `seat` it takes the network's `candidates` favourite legal ids and, for each of
    `redraws` redrawn hidden states (`engine.resample_hidden`: it never peeks), plays every
    candidate out to the end of the game: the network (`policy`, its best legal id) in the seat,
    `rollout_bot` in the others. Every candidate is played from the same redrawn state with the same
    bots' seeds (common random numbers), so the luck of a whole game, which swamps one decision's
    effect in a plain rollout, largely cancels between candidates. The network's own favourite
    stands unless another candidate's mean final value beats it by more than `margin`: the search
    overrules the network only where its rollouts clearly say so.
    """

    def __init__(
        self,
        engine: Engine,
        policy: Bot,
        rollout_bot: Callable[[random.Random], Bot],
        rng: random.Random,
        candidates: int = 3,
        redraws: int = 8,
        margin: float = 0.05,
        max_steps: int = 20_000,
    ) -> None:
        self.engine = engine
        self.policy = policy
        self.rollout_bot = rollout_bot
        self.rng = rng
        self.candidates = candidates
        self.redraws = redraws
        self.margin = margin
        self.max_steps = max_steps

    def search(self, state: Any, seat: int, ranked: Sequence[int]) -> SearchResult:
        """`ranked`: the legal ids, the network's favourite first."""
        arms = list(ranked[: self.candidates])
        if len(arms) == 1:
            return SearchResult(arms[0], {arms[0]: 0.0}, 0)
        engine = self.engine
        n = state.core.num_players
        totals = dict.fromkeys(arms, 0.0)
        for _ in range(self.redraws):
            sample = redraw(engine, state, seat, self.rng)
            bot_seed = self.rng.getrandbits(63)
            for a in arms:
                game = type(sample)()
                game.CopyFrom(sample)
                engine.apply(game, seat, a)
                bots = [self.rollout_bot(random.Random(bot_seed + k)) for k in range(n)]
                bots[seat] = self.policy
                play_out(engine, game, bots, self.max_steps)
                totals[a] += final_value(engine, game, seat)
        means = {a: totals[a] / self.redraws for a in arms}
        best = max(arms, key=means.__getitem__)  # the first among equals: the network's order
        action = best if means[best] > means[arms[0]] + self.margin else arms[0]
        return SearchResult(action, means, self.redraws * len(arms))
