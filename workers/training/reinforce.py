"""Reinforcement against the heuristic: a trained student plays on and learns from its own results.

The students imitate their teachers, so they are as strong as the teacher and no stronger; where no
search beats the expert (the kitchen game: docs/bots.md, "Expert iteration") nothing could teach
them better play. Here the reward itself teaches: proximal policy optimisation (PPO, Schulman et al.
2017, the clipped objective) of the student's logits, from games where one seat samples from the
network (at a temperature) against heuristic bots, the others as in the tournament.

- A batch is `batch` games (selfplay.reinforcement_chunk, in fixed seeded chunks: the same data for
  any number of workers). Every decision of the learner with a choice is a sample.
- The return of a sample is its game's win share times the table size (so it counts in units of
  chance's share at that table): Monte Carlo returns, every decision of a game shares its game's
  result (the games are short, tens of decisions). With `placing` the return also counts the
  learner's place, `placing` times 1 for first ... 0 for last (selfplay.learner_return): a game
  lost in second place then teaches more than one lost in last, a denser signal than the win alone.
  The advantage is the return less a baseline, normalised over the batch. The baseline
  (`baseline`) is either the batch's mean at that table size ("batch"), or a learnt value of the
  decision ("critic": a separate network from the observation and the table size to the expected
  return, as PPO's value function; it is fitted on every batch after that batch's advantages are
  taken, and replaces the batch mean once it has seen `critic_warmup` batches). The critic can
  tell a good position from a lucky deal, which the batch mean cannot: over fresh deals the
  kitchen game's network made 1.32x chance against 1.25x with the batch mean after the same 96,000
  games, Grill Party's some 0.02x more (docs/bots.md, "Reinforcement").
- The step: `epochs` passes over the batch in minibatches, maximising the clipped ratio of the new
  to the sampling probability times the advantage; Adam at a small learning rate.
- Every `check_every` batches the network plays `check_games` fixed deals against heuristics at its
  best legal id (as the hard bot plays); the best check, the starting network's included, is what
  this stage gives back.

It runs in train.py after the teacher rounds, from the student they selected (`--reinforce-games`).
"""

from __future__ import annotations

import copy
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import torch
from torch import nn

from workers.training.model import ILLEGAL_LOGIT, PolicyNet, numpy_weights
from workers.training.selfplay import ChunkJob, ChunkResult, Samples, advantages, run_chunks


@dataclass(frozen=True)
class Settings:
    games: int  # every reinforcement game of the stage (whole batches)
    batch: int = 800  # games a policy step learns from (in chunks of chunk_games)
    temperature: float = 0.5  # the learner's sampling temperature
    lr: float = 3e-5
    epochs: int = 3
    clip: float = 0.2
    minibatch: int = 1024
    check_every: int = 10  # batches between checks
    check_games: int = 2000
    chunk_games: int = 50
    baseline: str = "batch"  # "batch" (the batch's mean return at the table size) or "critic"
    critic_hidden: int = 256
    critic_lr: float = 1e-3
    critic_epochs: int = 2  # passes over each batch fitting the critic
    critic_warmup: int = 3  # batches the critic learns from before it is the baseline
    placing: float = 0.0  # the weight of the learner's placing in the return (selfplay.learner_return)


@dataclass
class Outcome:
    model: PolicyNet  # the best check's network
    checks: list[tuple[int, float]] = field(default_factory=list)  # (games played, ratio to chance)
    games: int = 0
    decisions: int = 0
    time_capped: bool = False
    # the critic's explained variance of the returns, per check (1 - residual variance / variance,
    # on the batches since the previous check, before fitting on them)
    explained: list[float] = field(default_factory=list)

    @property
    def best(self) -> tuple[int, float]:
        return max(self.checks, key=lambda check: check[1])


class Critic(nn.Module):
    """The expected return of a learner's decision, from its observation and a one-hot of the table
    size (the same observation is worth a different share at another table)."""

    def __init__(self, obs_size: int, sizes: tuple[int, ...], hidden: int) -> None:
        super().__init__()
        self.sizes = sizes
        self.net = nn.Sequential(nn.Linear(obs_size + len(sizes), hidden), nn.ReLU(),
                                 nn.Linear(hidden, hidden), nn.ReLU(), nn.Linear(hidden, 1))

    def forward(self, obs: torch.Tensor, table: torch.Tensor) -> torch.Tensor:
        one_hot = (table[:, None] == torch.tensor(self.sizes)[None, :]).float()
        return self.net(torch.cat([obs.flatten(1), one_hot], 1))[:, 0]


@dataclass
class Baseline:
    """The critic, its optimiser and the batches it has learnt from (settings.baseline == "critic")."""

    critic: Critic
    optimizer: torch.optim.Optimizer
    batches: int = 0
    residual: float = 0.0  # squared errors and squared deviations of the returns since the last check
    spread: float = 0.0

    def advantages(self, x: torch.Tensor, table: torch.Tensor, returns: torch.Tensor,
                   fallback: np.ndarray, settings: Settings, generator: torch.Generator) -> np.ndarray:
        """The batch's advantages (normalised), then one fit of the critic on the batch."""
        with torch.no_grad():
            predicted = self.critic(x, table)
        self.residual += float(((returns - predicted) ** 2).sum())
        self.spread += float(((returns - returns.mean()) ** 2).sum())
        if self.batches < settings.critic_warmup:
            advantage = fallback
        else:
            raw = (returns - predicted).numpy().astype(np.float64)
            spread = raw.std()
            advantage = (raw / spread if spread > 0 else raw).astype(np.float32)
        self.critic.train()
        for _ in range(settings.critic_epochs):
            order = torch.randperm(len(x), generator=generator)
            for start in range(0, len(x), settings.minibatch):
                idx = order[start : start + settings.minibatch]
                loss = torch.nn.functional.mse_loss(self.critic(x[idx], table[idx]), returns[idx])
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
        self.critic.eval()
        self.batches += 1
        return advantage

    def explained(self) -> float:
        """The share of the returns' variance the critic explained since the last call."""
        share = 1.0 - self.residual / self.spread if self.spread > 0 else 0.0
        self.residual = self.spread = 0.0
        return share


def policy_step(model: PolicyNet, optimizer: torch.optim.Optimizer, results: list[ChunkResult],
                settings: Settings, generator: torch.Generator, baseline: Baseline | None = None) -> int:
    """One PPO step on a batch's results; returns the number of samples it learnt from."""
    samples, log_probs, outcomes = Samples(), [], []
    for result in results:
        samples.extend(result.samples)
        log_probs += result.log_probs
        outcomes += result.outcomes
    if not len(samples):
        return 0
    obs, mask, target = samples.arrays(model.num_actions)
    x, legal = torch.from_numpy(obs), torch.from_numpy(mask)
    played = torch.from_numpy(target.argmax(1))
    old = torch.tensor(log_probs, dtype=torch.float32)
    batch_mean = advantages(outcomes)
    if baseline is None:
        advantage = torch.from_numpy(batch_mean)
    else:
        table = torch.tensor([n for n, _ in outcomes])
        returns = torch.tensor([share * n for n, share in outcomes], dtype=torch.float32)
        advantage = torch.from_numpy(baseline.advantages(x, table, returns, batch_mean, settings, generator))
    model.train()
    for _ in range(settings.epochs):
        order = torch.randperm(len(x), generator=generator)
        for start in range(0, len(x), settings.minibatch):
            idx = order[start : start + settings.minibatch]
            logits = (model(x[idx]) / settings.temperature).masked_fill(~legal[idx], ILLEGAL_LOGIT)
            new = torch.log_softmax(logits, 1).gather(1, played[idx, None])[:, 0]
            ratio = torch.exp(new - old[idx])
            gain = torch.min(ratio * advantage[idx],
                             ratio.clamp(1 - settings.clip, 1 + settings.clip) * advantage[idx])
            loss = -gain.mean()
            optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            optimizer.step()
    model.eval()
    return len(x)


def reinforce(model: PolicyNet, game: str, sizes: tuple[int, ...], settings: Settings, seed: int, workers: int,
              check: Callable[[PolicyNet], float], deadline: float | None = None,
              log: Callable[[str], None] = print) -> Outcome:
    """Trains a copy of `model` for `settings.games` games (fewer when `deadline`, time.monotonic,
    passes first); `check(model)` scores a network (its ratio to chance on fixed deals)."""
    master = random.Random(seed)
    generator = torch.Generator().manual_seed(seed)
    model = copy.deepcopy(model)
    optimizer = torch.optim.Adam(model.parameters(), lr=settings.lr)
    baseline = None
    if settings.baseline == "critic":
        critic = Critic(model.obs_size, sizes, settings.critic_hidden)
        baseline = Baseline(critic, torch.optim.Adam(critic.parameters(), lr=settings.critic_lr))
    else:
        assert settings.baseline == "batch", f"unknown baseline {settings.baseline!r}"
    outcome = Outcome(copy.deepcopy(model), [(0, check(model))])
    log(f"reinforcement: the starting student checks at {outcome.checks[0][1]:.3f}x")
    batch = min(settings.batch, settings.games)
    batches = max(1, settings.games // batch)
    per_batch = max(1, batch // settings.chunk_games)
    started = time.monotonic()
    for index in range(1, batches + 1):
        if deadline is not None and time.monotonic() > deadline:
            outcome.time_capped = True
            log("time cap reached: reinforcement stops early (this run will not reproduce on another machine)")
            break
        weights = numpy_weights(model)
        jobs = [ChunkJob(game, "reinforcement", master.getrandbits(63), settings.chunk_games, sizes,
                         student_temperature=settings.temperature, policy_weights=weights,
                         placing=settings.placing)
                for _ in range(per_batch)]
        results = list(run_chunks(jobs, workers))
        outcome.games += sum(r.games for r in results)
        outcome.decisions += policy_step(model, optimizer, results, settings, generator, baseline)
        if index % settings.check_every == 0 or index == batches:
            score = check(model)
            if score > outcome.best[1]:
                outcome.model = copy.deepcopy(model)
            outcome.checks.append((outcome.games, score))
            explains = ""
            if baseline is not None:
                outcome.explained.append(baseline.explained())
                explains = f"; the critic explains {outcome.explained[-1]:.1%} of the returns' variance"
            log(f"reinforcement: {outcome.games} games, {outcome.decisions} decisions; {score:.3f}x"
                f"{explains} ({time.monotonic() - started:.0f}s)")
    return outcome
