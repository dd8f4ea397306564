"""Training data: games played in-process and the decisions and positions recorded from them.

Two kinds of games, both generated in fixed chunks seeded from the run's seed, so a run is
reproducible whatever the number of worker processes:

- imitation games: the heuristic bot in every seat. Every decision with a choice is a policy
  sample whose target is the heuristic's action; a sample of positions, seen by every seat, are
  value samples whose target is that seat's final value (win share plus rank bonus).
- teacher games: one learner seat plays the current student (sampling) or follows the teacher, the
  others the heuristic. At each of the learner's decisions the search teacher scores the
  candidates; the softmax of the scores is the policy target (DAgger: the states come from the
  student's own play, the labels from the teacher). Value samples are recorded as above.

With the expert teacher (`ChunkJob.teacher == "expert"`, the game's expert bot from
`workers/training/experts/`) both kinds change: imitation games seat the expert at some seats (at
least one) and the heuristic at the others, and only the experts' decisions are samples; in teacher
games the expert's own pick at each of the learner's decisions is the target. No value samples:
the expert needs no value network.

With expert iteration (`ChunkJob.teacher == "iteration"`) imitation games are the expert's, and in
teacher games the learner's decisions are labelled by rollout search over the current network
(`teacher.RolloutImprovement`, `iteration_chunk`).

Reinforcement games (`ChunkJob.kind == "reinforcement"`, `reinforcement_chunk`) have no teacher:
one learner seat samples from the current network against heuristics, and each of its decisions is
kept with the probability its sampling gave the action and the game's outcome for that seat, the
data of a policy-gradient step (workers/training/reinforce.py).

Workers never import torch: the student and the value network run as numpy MLPs.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from services.rules.engine import Engine
from services.rules.registry import get_engine
from workers.bots.heuristic import heuristic_bot
from workers.training.arena import MAX_ACTIONS, win_shares
from workers.training.teacher import RolloutImprovement, ValueLookahead, final_value

Weights = list[tuple[np.ndarray, np.ndarray]]


@dataclass
class Samples:
    """Policy samples: observation, legal ids and a target distribution over them."""

    obs: list[np.ndarray] = field(default_factory=list)
    legal: list[list[int]] = field(default_factory=list)
    target: list[dict[int, float]] = field(default_factory=list)

    def add(self, obs: np.ndarray, legal: Sequence[int], target: dict[int, float]) -> None:
        self.obs.append(obs)
        self.legal.append(list(legal))
        self.target.append(target)

    def extend(self, other: Samples) -> None:
        self.obs += other.obs
        self.legal += other.legal
        self.target += other.target

    def __len__(self) -> int:
        return len(self.obs)

    def arrays(self, num_actions: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        n = len(self.obs)
        obs = np.stack(self.obs).astype(np.float32)
        mask = np.zeros((n, num_actions), dtype=bool)
        target = np.zeros((n, num_actions), dtype=np.float32)
        for i, (legal, dist) in enumerate(zip(self.legal, self.target, strict=True)):
            mask[i, legal] = True
            for action, p in dist.items():
                target[i, action] = p
        return obs, mask, target


@dataclass
class ValueSamples:
    """Positions seen by a seat and the seat's final value in that game."""

    obs: list[np.ndarray] = field(default_factory=list)
    value: list[float] = field(default_factory=list)

    def extend(self, other: ValueSamples) -> None:
        self.obs += other.obs
        self.value += other.value

    def __len__(self) -> int:
        return len(self.obs)


class NumpyMLP:
    """An MLP forward pass (ReLU between layers) over weights exported from torch."""

    def __init__(self, weights: Weights) -> None:
        self.weights = weights

    def __call__(self, obs: np.ndarray) -> np.ndarray:
        x = obs.reshape(obs.shape[0], -1) if obs.ndim > 1 else obs.reshape(1, -1)
        last = len(self.weights) - 1
        for i, (w, b) in enumerate(self.weights):
            x = x @ w + b
            if i < last:
                np.maximum(x, 0.0, out=x)
        return x


class NumpyPolicy:
    """The student as a bot without torch."""

    def __init__(self, engine: Engine, weights: Weights, rng: random.Random, temperature: float = 0.0) -> None:
        self.engine = engine
        self.mlp = NumpyMLP(weights)
        self.rng = rng
        self.temperature = temperature

    def scores(self, obs: np.ndarray, legal: Sequence[int]) -> np.ndarray:
        return self.mlp(obs)[0, list(legal)]

    def ranked(self, obs: np.ndarray, legal: Sequence[int]) -> list[int]:
        """Legal ids, best first by the student's logits."""
        return [legal[i] for i in np.argsort(-self.scores(obs, legal), kind="stable")]

    def pick(self, obs: np.ndarray, legal: Sequence[int]) -> int:
        return self.sample(obs, legal)[0]

    def sample(self, obs: np.ndarray, legal: Sequence[int]) -> tuple[int, float]:
        """An id and the log-probability of picking it (0.0 when the best id is taken)."""
        scores = self.scores(obs, legal)
        if self.temperature <= 0:
            return int(legal[int(scores.argmax())]), 0.0
        z = np.exp((scores - scores.max()) / self.temperature)
        total = float(z.sum())
        point = self.rng.random() * total
        index = min(int(np.searchsorted(np.cumsum(z), point, side="right")), len(z) - 1)
        return int(legal[index]), math.log(max(float(z[index]) / total, 1e-30))

    def step(self, view: Any, legal_actions: Sequence[int]) -> int:
        return self.pick(self.engine.observation(view), legal_actions)


def value_function(weights: Weights) -> Any:
    mlp = NumpyMLP(weights)
    return lambda obs: mlp(obs)[:, 0]


@dataclass(frozen=True)
class ChunkJob:
    """One unit of data generation: `games` games from `seed` (picklable for worker processes)."""

    game_id: str
    kind: str  # "imitation", "teacher", "evaluation" or "reinforcement"
    seed: int
    games: int
    table_sizes: tuple[int, ...]
    value_every: float = 0.25  # the share of positions recorded as value samples
    redraws: int = 4
    max_candidates: int = 8
    follow_teacher: float = 0.5
    student_temperature: float = 0.5
    target_temperature: float = 0.02
    policy_weights: Weights | None = None
    value_weights: Weights | None = None
    # "search" (value-scored lookahead), "expert" (the game's expert bot) or "iteration" (imitation
    # of the expert, then rollout search over the current network: expert iteration)
    teacher: str = "search"
    margin: float = 0.05  # expert iteration: how much better a candidate must do to overrule the network
    expert_share: float = 0.5  # imitation games with the expert teacher: the chance a seat is an expert
    # reinforcement: the weight of the learner's placing (1 first ... 0 last) beside its win share in
    # the return (reinforce.Settings.placing)
    placing: float = 0.0


@dataclass
class ChunkResult:
    samples: Samples
    values: ValueSamples
    games: int
    decisions: int
    lookaheads: int
    seconds: float
    wins: float = 0.0  # evaluation games: the student's win shares, and the shares chance gives
    chance: float = 0.0
    # reinforcement games, one entry per sample: the log-probability the sampling gave the action
    # played, and the table size and the learner's win share of the sample's game
    log_probs: list[float] = field(default_factory=list)
    outcomes: list[tuple[int, float]] = field(default_factory=list)


def soft_target(values: dict[int, float], temperature: float) -> dict[int, float]:
    """A distribution over the searched candidates: the softmax of their scores."""
    top = max(values.values())
    if temperature <= 0:
        return {max(values, key=values.__getitem__): 1.0}
    weights = {a: math.exp((v - top) / temperature) for a, v in values.items()}
    total = sum(weights.values())
    return {a: w / total for a, w in weights.items()}


def _candidates(legal: list[int], obs: np.ndarray, view: Any, student: NumpyPolicy | None, heuristic: Any,
                limit: int, rng: random.Random) -> list[int]:
    """The actions the teacher compares: all when few, else the heuristic's pick, the student's
    favourites and a few at random."""
    if len(legal) <= limit:
        return legal
    chosen = [heuristic.step(view, legal)]
    if student is not None:
        for action in student.ranked(obs, legal):
            if len(chosen) >= limit * 3 // 4:
                break
            if action not in chosen:
                chosen.append(action)
    rest = [a for a in legal if a not in chosen]
    rng.shuffle(rest)
    return chosen + rest[: limit - len(chosen)]


def _decisions(engine: Any, state: Any) -> Iterator[tuple[int, list[int]]]:
    """Plays `state` to its end (at most MAX_ACTIONS actions): forced actions are applied here, and
    every decision with a choice is yielded as (seat, legal) for the caller to apply its pick."""
    steps = 0
    while not state.core.game_over and steps < MAX_ACTIONS:
        seat = state.core.seat_to_move
        legal = engine.legal_actions(state)
        if len(legal) == 1:
            engine.apply(state, seat, legal[0])
        else:
            yield seat, legal
        steps += 1


def _learner_table(engine: Any, job: ChunkJob, rng: random.Random) -> tuple[int, int, list[Any], NumpyPolicy, Any]:
    """A game of one learner seat against heuristics, drawn from `rng` in a fixed order (the shipped
    models' data depend on it): the table size, the learner's seat, the heuristic bots (one per
    seat), the network at `student_temperature` and the new game."""
    assert job.policy_weights is not None
    n = job.table_sizes[rng.randrange(len(job.table_sizes))]
    learner = rng.randrange(n)
    bot_rng = random.Random(rng.getrandbits(63))
    bots: list[Any] = [heuristic_bot(job.game_id, bot_rng) for _ in range(n)]
    student = NumpyPolicy(engine, job.policy_weights, bot_rng, job.student_temperature)
    return n, learner, bots, student, engine.new_game(n, None, rng.getrandbits(63))


def evaluation_chunk(job: ChunkJob) -> ChunkResult:
    """The student (its best legal id, as the hard bot plays) in one seat against heuristic bots,
    cycling through the table sizes and seats."""
    started = time.perf_counter()
    assert job.policy_weights is not None
    engine = get_engine(job.game_id)
    rng = random.Random(job.seed)
    seatings = [(n, seat) for n in job.table_sizes for seat in range(n)]
    wins = chance = 0.0
    for index in range(job.games):
        n, hero = seatings[(job.seed + index) % len(seatings)]
        bot_rng = random.Random(rng.getrandbits(63))
        bots: list[Any] = [heuristic_bot(job.game_id, bot_rng) for _ in range(n)]
        bots[hero] = NumpyPolicy(engine, job.policy_weights, bot_rng, 0.0)
        state = engine.new_game(n, None, rng.getrandbits(63))
        for seat, legal in _decisions(engine, state):
            engine.apply(state, seat, bots[seat].step(engine.view(state, seat), legal))
        wins += win_shares(engine, state)[hero]
        chance += 1.0 / n
    return ChunkResult(Samples(), ValueSamples(), job.games, 0, 0, time.perf_counter() - started, wins, chance)


def reinforcement_chunk(job: ChunkJob) -> ChunkResult:
    """Games of one learner seat sampling from the network (at `student_temperature`) against
    heuristic bots; every decision of the learner with a choice is a sample, with its log-probability
    and the game's outcome (ChunkResult.log_probs, .outcomes)."""
    started = time.perf_counter()
    assert job.policy_weights is not None, "reinforcement games play a network"
    engine = get_engine(job.game_id)
    rng = random.Random(job.seed)
    samples = Samples()
    log_probs: list[float] = []
    outcomes: list[tuple[int, float]] = []
    for _ in range(job.games):
        n, learner, bots, student, state = _learner_table(engine, job, rng)
        first = len(samples)
        for seat, legal in _decisions(engine, state):
            if seat == learner:
                obs = engine.observation(engine.view(state, seat))
                action, log_prob = student.sample(obs, legal)
                samples.add(obs, legal, {action: 1.0})
                log_probs.append(log_prob)
            else:
                action = bots[seat].step(engine.view(state, seat), legal)
            engine.apply(state, seat, action)
        outcomes += [(n, learner_return(engine, state, learner, job.placing))] * (len(samples) - first)
    return ChunkResult(samples, ValueSamples(), job.games, len(samples), 0, time.perf_counter() - started,
                       log_probs=log_probs, outcomes=outcomes)


def learner_return(engine: Any, state: Any, seat: int, placing: float) -> float:
    """The seat's win share, plus `placing` times its placing (1 for first ... 0 for last, from the
    outcome's ranks) over the table size: times the table size, as the advantages count it, the
    return is the share in units of chance plus `placing` times the placing."""
    share = win_shares(engine, state)[seat]
    outcome = engine.outcome(state)
    n = state.core.num_players
    if not placing or outcome is None or n < 2:
        return share
    rank = outcome.results[seat].rank
    return share + placing * (n - rank) / (n - 1) / n


def advantages(outcomes: list[tuple[int, float]]) -> np.ndarray:
    """The advantage of each reinforcement sample, from its (table size, win share): the share less
    the mean share of the batch's samples at that table size (the baseline), times the table size,
    normalised to unit spread."""
    sizes = np.array([n for n, _ in outcomes], dtype=np.float64)
    shares = np.array([share for _, share in outcomes], dtype=np.float64)
    baseline = np.zeros_like(shares)
    for n in np.unique(sizes):
        at = sizes == n
        baseline[at] = shares[at].mean()
    advantage = (shares - baseline) * sizes
    spread = advantage.std()
    return (advantage / spread if spread > 0 else advantage).astype(np.float32)


def play_chunk(job: ChunkJob) -> ChunkResult:
    if job.kind == "evaluation":
        return evaluation_chunk(job)
    if job.kind == "reinforcement":
        return reinforcement_chunk(job)
    if job.teacher == "expert" or (job.teacher == "iteration" and job.kind == "imitation"):
        return expert_chunk(job)
    if job.teacher == "iteration":
        return iteration_chunk(job)
    started = time.perf_counter()
    engine = get_engine(job.game_id)
    rng = random.Random(job.seed)
    teach = job.kind == "teacher"
    teacher = None
    if teach:
        assert job.value_weights is not None, "teacher games need a value network"
        teacher = ValueLookahead(
            engine, lambda r: heuristic_bot(job.game_id, r), value_function(job.value_weights),
            random.Random(rng.getrandbits(63)), redraws=job.redraws,
        )
    samples, values = Samples(), ValueSamples()
    lookaheads = 0
    for _ in range(job.games):
        n = job.table_sizes[rng.randrange(len(job.table_sizes))]
        learner = rng.randrange(n) if teach else -1
        bot_rng = random.Random(rng.getrandbits(63))
        bots: list[Any] = [heuristic_bot(job.game_id, bot_rng) for _ in range(n)]
        student = NumpyPolicy(engine, job.policy_weights, bot_rng, job.student_temperature) \
            if teach and job.policy_weights is not None else None
        state = engine.new_game(n, None, rng.getrandbits(63))
        positions: list[tuple[int, np.ndarray]] = []
        steps = 0
        while not state.core.game_over and steps < MAX_ACTIONS:
            seat = state.core.seat_to_move
            if rng.random() < job.value_every:
                for watcher in range(n):
                    if not teach or watcher == learner:
                        positions.append((watcher, engine.observe(state, watcher)))
            legal = engine.legal_actions(state)
            if len(legal) == 1:
                action = legal[0]
            elif teacher is not None and seat == learner:
                view = engine.view(state, seat)
                obs = engine.observation(view)
                arms = _candidates(legal, obs, view, student, bots[seat], job.max_candidates, rng)
                result = teacher.search(state, seat, arms)
                lookaheads += result.lookaheads
                samples.add(obs, legal, soft_target(result.values, job.target_temperature))
                if student is None or rng.random() < job.follow_teacher:
                    action = result.action
                else:
                    action = student.pick(obs, legal)
            else:
                view = engine.view(state, seat)
                action = bots[seat].step(view, legal)
                if not teach:
                    samples.add(engine.observation(view), legal, {action: 1.0})
            engine.apply(state, seat, action)
            steps += 1
        finals = [final_value(engine, state, s) for s in range(n)]
        for watcher, obs in positions:
            values.obs.append(obs)
            values.value.append(finals[watcher])
    return ChunkResult(samples, values, job.games, len(samples), lookaheads, time.perf_counter() - started)


def expert_chunk(job: ChunkJob) -> ChunkResult:
    """Games for the expert teacher. Imitation: experts at some seats (each with probability
    `expert_share`, at least one), heuristics at the others; every expert decision with a choice is
    a sample. Teacher (DAgger): one learner seat plays the student (sampling) or, with probability
    `follow_teacher`, the expert; each of its decisions is labelled with the expert's pick."""
    from workers.training.experts import expert_bot

    started = time.perf_counter()
    engine = get_engine(job.game_id)
    rng = random.Random(job.seed)
    teach = job.kind == "teacher"
    samples = Samples()
    for _ in range(job.games):
        n = job.table_sizes[rng.randrange(len(job.table_sizes))]
        if teach:
            learners = {rng.randrange(n)}
        else:
            learners = {seat for seat in range(n) if rng.random() < job.expert_share} or {rng.randrange(n)}
        bot_rng = random.Random(rng.getrandbits(63))
        bots: list[Any] = [
            expert_bot(job.game_id, bot_rng) if seat in learners else heuristic_bot(job.game_id, bot_rng)
            for seat in range(n)
        ]
        student = NumpyPolicy(engine, job.policy_weights, bot_rng, job.student_temperature) \
            if teach and job.policy_weights is not None else None
        state = engine.new_game(n, None, rng.getrandbits(63))
        for seat, legal in _decisions(engine, state):
            view = engine.view(state, seat)
            action = bots[seat].step(view, legal)
            if seat in learners:
                obs = engine.observation(view)
                samples.add(obs, legal, {action: 1.0})
                if student is not None and rng.random() >= job.follow_teacher:
                    action = student.pick(obs, legal)
            engine.apply(state, seat, action)
    return ChunkResult(samples, ValueSamples(), job.games, len(samples), 0, time.perf_counter() - started)


def iteration_chunk(job: ChunkJob) -> ChunkResult:
    """Expert iteration's games: one learner seat plays the current network (sampling) or, with
    probability `follow_teacher`, the search over it (teacher.RolloutImprovement: the network's
    `max_candidates` favourites played out `redraws` times each, the network in the seat and
    heuristics in the others), the others the heuristic; each of its decisions is labelled with the
    search's pick."""
    started = time.perf_counter()
    assert job.policy_weights is not None, "expert iteration searches over a network"
    engine = get_engine(job.game_id)
    rng = random.Random(job.seed)
    greedy = NumpyPolicy(engine, job.policy_weights, rng, 0.0)  # deterministic: rng unused
    search = RolloutImprovement(engine, greedy, lambda r: heuristic_bot(job.game_id, r),
                                random.Random(rng.getrandbits(63)), candidates=job.max_candidates,
                                redraws=job.redraws, margin=job.margin)
    samples = Samples()
    lookaheads = 0
    for _ in range(job.games):
        n, learner, bots, student, state = _learner_table(engine, job, rng)
        for seat, legal in _decisions(engine, state):
            if seat == learner:
                obs = engine.observation(engine.view(state, seat))
                result = search.search(state, seat, student.ranked(obs, legal))
                lookaheads += result.lookaheads
                samples.add(obs, legal, {result.action: 1.0})
                action = result.action if rng.random() < job.follow_teacher else student.pick(obs, legal)
            else:
                action = bots[seat].step(engine.view(state, seat), legal)
            engine.apply(state, seat, action)
    return ChunkResult(samples, ValueSamples(), job.games, len(samples), lookaheads, time.perf_counter() - started)


def run_chunks(jobs: Iterable[ChunkJob], workers: int, deadline: float | None = None) -> Iterator[ChunkResult]:
    """Results in job order (so the data is the same for any number of workers); once `deadline`
    (time.monotonic) has passed no new job starts, so what comes back is always a prefix."""
    if workers <= 1:
        for job in jobs:
            if deadline is not None and time.monotonic() > deadline:
                return
            yield play_chunk(job)
        return
    import multiprocessing

    context = multiprocessing.get_context("fork")
    pool = context.Pool(workers)
    pending: list[Any] = []
    try:
        it = iter(jobs)
        pending = [pool.apply_async(play_chunk, (job,)) for _, job in zip(range(workers * 2), it, strict=False)]
        while pending:
            result = pending.pop(0).get()
            yield result
            if deadline is not None and time.monotonic() > deadline:
                continue
            nxt = next(it, None)
            if nxt is not None:
                pending.append(pool.apply_async(play_chunk, (nxt,)))
    finally:
        # A consumer that stops early (a teacher round with its labels) leaves jobs in flight. The
        # pool is not terminated under them: Pool.terminate can hang for good when its task thread
        # is still writing a job (megabytes of weights) into the pipe of workers it has just killed.
        # The few jobs in flight finish instead, and the pool closes.
        for job in pending:
            job.wait()
        pool.close()
        pool.join()
