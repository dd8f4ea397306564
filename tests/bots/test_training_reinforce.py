"""Reinforcement's critic baseline (workers/training/reinforce.py). Needs torch: it runs where the
training extras are installed (`make .venv/.train-installed`), and is skipped elsewhere."""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from workers.training.reinforce import Baseline, Critic, Settings  # noqa: E402

SIZES = (2, 4)


def batch(generator: torch.Generator, noise: float = 0.1) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Observations whose first feature, times the table size, is the expected return."""
    x = torch.rand(512, 8, generator=generator)
    table = torch.tensor(list(SIZES) * 256)
    returns = x[:, 0] * table + noise * torch.randn(512, generator=generator)
    return x, table, returns.float()


def baseline(warmup: int) -> Baseline:
    torch.manual_seed(0)
    critic = Critic(8, SIZES, 32)
    return Baseline(critic, torch.optim.Adam(critic.parameters(), lr=1e-3))


def test_the_critic_learns_the_return_of_a_position_and_its_advantages_are_what_is_left() -> None:
    settings = Settings(games=1, baseline="critic", critic_epochs=5, critic_warmup=3, minibatch=64)
    generator = torch.Generator().manual_seed(1)
    learner = baseline(settings.critic_warmup)
    fallback = np.full(512, 7.0, np.float32)
    for index in range(30):
        x, table, returns = batch(generator)
        advantage = learner.advantages(x, table, returns, fallback, settings, generator)
        if index < settings.critic_warmup:
            assert (advantage == fallback).all()  # the batch mean serves until the critic has learnt
        else:
            assert abs(float(advantage.std()) - 1.0) < 1e-4
        if index == 19:
            assert learner.explained() < 0.9  # over its first batches it was still learning
    assert learner.explained() > 0.9  # the returns' spread is the position's, which the critic sees
    x, table, returns = batch(generator, noise=0.0)
    with torch.no_grad():
        residual = returns - learner.critic(x, table)
    assert float(residual.abs().mean()) < 0.1  # and it tells a four-player table from a two-player one
    assert learner.explained() == 0.0  # nothing measured since the last call


def test_an_untrained_critic_explains_nothing_and_a_constant_return_gives_no_advantage() -> None:
    settings = Settings(games=1, baseline="critic", critic_warmup=0)
    generator = torch.Generator().manual_seed(2)
    learner = baseline(0)
    x, table, _ = batch(generator)
    learner.advantages(x, table, torch.zeros(512), np.zeros(512, np.float32), settings, generator)
    assert learner.explained() == 0.0  # equal returns: no variance to explain
    x, table, returns = batch(generator)
    learner.advantages(x, table, returns, np.zeros(512, np.float32), settings, generator)
    assert learner.explained() < 0.5
