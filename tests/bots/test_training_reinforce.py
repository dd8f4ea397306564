"""Reinforcement's critic baseline (workers/training/reinforce.py) and the pinned float kernels of
training. They need torch: `make test` installs the training extras for them."""

from __future__ import annotations

import numpy as np
import torch

from workers.training.reinforce import Baseline, Critic, Settings

SIZES = (2, 4)


def batch(generator: torch.Generator, noise: float = 0.1) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Observations whose first feature, times the table size, is the expected return."""
    x = torch.rand(512, 8, generator=generator)
    table = torch.tensor(list(SIZES) * 256)
    returns = x[:, 0] * table + noise * torch.randn(512, generator=generator)
    return x, table, returns.float()


def baseline() -> Baseline:
    torch.manual_seed(0)
    critic = Critic(8, SIZES, 32)
    return Baseline(critic, torch.optim.Adam(critic.parameters(), lr=1e-3))


def test_the_critic_learns_the_return_of_a_position_and_its_advantages_are_what_is_left() -> None:
    settings = Settings(games=1, baseline="critic", critic_epochs=5, critic_warmup=3, minibatch=64)
    generator = torch.Generator().manual_seed(1)
    learner = baseline()
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
    learner = baseline()
    x, table, _ = batch(generator)
    learner.advantages(x, table, torch.zeros(512), np.zeros(512, np.float32), settings, generator)
    assert learner.explained() == 0.0  # equal returns: no variance to explain
    x, table, returns = batch(generator)
    learner.advantages(x, table, returns, np.zeros(512, np.float32), settings, generator)
    assert learner.explained() < 0.5


def test_reinforcement_with_the_critic_runs_and_records_its_explained_variance() -> None:
    """The whole stage on real games of the card game (a tiny network, two batches of 50): the critic
    baseline is wired in, every check is recorded, and the run is the same when repeated."""
    from services.rules.registry import get_engine
    from workers.training.model import PolicyNet
    from workers.training.reinforce import reinforce

    engine = get_engine("a_la_carte_cards")
    obs_size = int(np.prod(engine.spec.observation_shape))
    settings = Settings(games=100, batch=50, check_every=1, check_games=10, chunk_games=25, baseline="critic",
                        critic_warmup=1)
    runs = []
    for _ in range(2):
        torch.manual_seed(3)
        model = PolicyNet(obs_size, engine.spec.num_distinct_actions, 16)
        outcome = reinforce(model, "a_la_carte_cards", (2, 3), settings, seed=5, workers=1,
                            check=lambda net: float(sum(p.detach().abs().sum() for p in net.parameters())),
                            log=lambda _: None)
        assert outcome.games == 100 and outcome.decisions > 0
        assert [games for games, _ in outcome.checks] == [0, 50, 100]
        assert len(outcome.explained) == 2
        runs.append((outcome.checks, outcome.decisions))
    assert runs[0] == runs[1]
    assert runs[0][0][1][1] != runs[0][0][0][1]  # the policy moved


def test_training_pins_the_float_kernels_before_numpy_and_torch_load() -> None:
    """Runs on other CPUs gave other networks (docs/bots.md, "The same model on another machine"):
    every training tool runs the package first, which pins the kernels unless the caller chose."""
    import os
    import subprocess
    import sys

    probe = ("import workers.training.train as t, json; print(json.dumps(t.float_kernels()))")
    env = {k: v for k, v in os.environ.items() if k not in ("ATEN_CPU_CAPABILITY", "MKL_CBWR", "OPENBLAS_CORETYPE")}
    pinned = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True, check=True)
    assert '"torch_cpu_capability": "AVX2"' in pinned.stdout and '"openblas_coretype": "Haswell"' in pinned.stdout
    chosen = subprocess.run([sys.executable, "-c", probe], env=env | {"ATEN_CPU_CAPABILITY": "default"},
                            capture_output=True, text=True, check=True)
    assert '"torch_cpu_capability": "DEFAULT"' in chosen.stdout  # a variable already set wins


def test_an_exported_network_reads_back_exactly(tmp_path) -> None:
    from workers.training.model import PolicyNet, export_onnx, load_onnx

    torch.manual_seed(4)
    model = PolicyNet(12, 5, 16, 3)
    export_onnx(model, (12,), tmp_path / "m.onnx")
    back = load_onnx(tmp_path / "m.onnx")
    assert (back.obs_size, back.num_actions, back.hidden, back.layers) == (12, 5, 16, 3)
    for (name, a), (_, b) in zip(model.state_dict().items(), back.state_dict().items(), strict=True):
        assert torch.equal(a, b), name


def test_training_goes_on_from_an_exported_model_and_its_card_names_it(tmp_path) -> None:
    """`train --start-from`: no imitation or teacher rounds; reinforcement starts from the model's own
    network and the card records which model (by digest) it went on from. A model of another game's
    shape is refused."""
    import json
    import subprocess
    import sys

    from services.rules.registry import get_engine
    from workers.bots.policy import card_path, file_sha256, model_path
    from workers.training.model import PolicyNet, export_onnx

    def train(*args: str) -> subprocess.CompletedProcess[str]:  # its own process: train pins threads and seeds
        return subprocess.run([sys.executable, "-m", "workers.training.train", *args], capture_output=True, text=True,
                              timeout=600)

    spec = get_engine("a_la_carte_cards").spec
    start = tmp_path / "start.onnx"
    torch.manual_seed(2)
    shape = tuple(spec.observation_shape)
    export_onnx(PolicyNet(int(np.prod(shape)), spec.num_distinct_actions, 24), shape, start)
    out = tmp_path / "out"
    run = train("--game", "a_la_carte_cards", "--start-from", str(start), "--reinforce-games", "50",
                "--reinforce-check-games", "10", "--eval-games", "4", "--out", str(out))
    assert run.returncode == 0, run.stderr
    assert "going on from" in run.stdout and "imitation" not in run.stdout
    card = json.loads(card_path("a_la_carte_cards", out).read_text())
    training = card["training"]
    assert training["start_from"] == {"onnx": str(start), "onnx_sha256": file_sha256(start)}
    assert "imitation_games" not in training and "teacher" not in training
    assert training["reinforcement"]["games"] == 50 and training["reinforcement"]["decisions"] > 0
    assert card["architecture"].startswith(f"MLP {int(np.prod(spec.observation_shape))} -> 24 -> 24 ->")
    assert model_path("a_la_carte_cards", out).is_file()
    other = train("--game", "hibachi", "--start-from", str(start), "--reinforce-games", "50", "--out", str(tmp_path))
    assert other.returncode == 2 and "hibachi needs" in other.stderr
