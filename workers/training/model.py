"""The policy network (a small MLP from observation to one logit per action id), its masked loss,
ONNX export with a dynamic batch axis, and the torch/onnxruntime parity check."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import torch
from torch import nn

OPSET = 17
INPUT_NAME = "observation"
OUTPUT_NAME = "logits"
ILLEGAL_LOGIT = -1e9


class PolicyNet(nn.Module):
    def __init__(self, obs_size: int, num_actions: int, hidden: int = 256, layers: int = 2) -> None:
        super().__init__()
        parts: list[nn.Module] = []
        width = obs_size
        for _ in range(layers):
            parts += [nn.Linear(width, hidden), nn.ReLU()]
            width = hidden
        parts.append(nn.Linear(width, num_actions))
        self.net = nn.Sequential(*parts)
        self.obs_size = obs_size
        self.num_actions = num_actions
        self.hidden = hidden
        self.layers = layers

    def forward(self, obs: torch.Tensor) -> torch.Tensor:
        return self.net(obs.flatten(1))


def masked_cross_entropy(logits: torch.Tensor, mask: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    """Cross-entropy of a target distribution over the legal ids (illegal logits are ignored, as the
    runtime ignores them)."""
    masked = logits.masked_fill(~mask, ILLEGAL_LOGIT)
    log_probs = torch.log_softmax(masked, dim=1)
    return -(target * log_probs.masked_fill(~mask, 0.0)).sum(dim=1).mean()


def export_onnx(model: PolicyNet, obs_shape: tuple[int, ...], path: Path) -> None:
    model.eval()
    dummy = torch.zeros((1, *obs_shape), dtype=torch.float32)
    path.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(
        model,
        (dummy,),
        str(path),
        input_names=[INPUT_NAME],
        output_names=[OUTPUT_NAME],
        dynamic_axes={INPUT_NAME: {0: "batch"}, OUTPUT_NAME: {0: "batch"}},
        opset_version=OPSET,
        dynamo=False,
    )


PARITY_TOLERANCE = 1e-5  # of the largest logit's size: float32 rounding, not a different function


def check_parity(model: PolicyNet, obs_shape: tuple[int, ...], path: Path, seed: int,
                 batch: int = 64) -> tuple[float, float]:
    """Torch and onnxruntime logits on random inputs at two batch sizes: (max abs difference, that
    difference over the largest logit's size, at least 1). Raises AssertionError when the relative
    one exceeds PARITY_TOLERANCE: the two sum in different orders, so a wide network's large logits
    differ in their last float32 bits (an absolute bound would fail them for rounding alone)."""
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    session = ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
    generator = np.random.default_rng(seed)
    worst = relative = 0.0
    model.eval()
    for size in (1, batch):
        obs = generator.uniform(-1.0, 2.0, size=(size, *obs_shape)).astype(np.float32)
        with torch.no_grad():
            expected = model(torch.from_numpy(obs)).numpy()
        (actual,) = session.run([OUTPUT_NAME], {INPUT_NAME: obs})
        assert actual.shape == expected.shape, f"onnx gives {actual.shape}, torch {expected.shape}"
        diff = float(np.abs(actual - expected).max())
        worst = max(worst, diff)
        relative = max(relative, diff / max(1.0, float(np.abs(expected).max())))
    assert relative < PARITY_TOLERANCE, f"onnxruntime and torch disagree by {worst} ({relative:.2e} of the logits)"
    return worst, relative


def fit_value(model: PolicyNet, train: tuple[np.ndarray, np.ndarray], holdout: tuple[np.ndarray, np.ndarray],
              max_epochs: int, seed: int, lr: float = 1e-3, batch_size: int = 512) -> dict[str, float]:
    """Regresses a one-output network on final values (mean squared error), keeping the epoch
    that predicts the held-out games best (outcomes are noisy: a value net overfits them fast).
    Returns the held-out mean squared error, the held-out variance and the epochs kept."""
    generator = torch.Generator().manual_seed(seed)
    x, y = torch.from_numpy(train[0]), torch.from_numpy(train[1].astype(np.float32))
    hx, hy = torch.from_numpy(holdout[0]), torch.from_numpy(holdout[1].astype(np.float32))
    optimizer = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=1e-4)
    steps = max(1, (len(x) + batch_size - 1) // batch_size)
    best_loss, best_state, best_epoch = float("inf"), None, 0
    for epoch in range(1, max_epochs + 1):
        model.train()
        perm = torch.randperm(len(x), generator=generator)
        for k in range(steps):
            idx = perm[k * batch_size : (k + 1) * batch_size]
            loss = torch.nn.functional.mse_loss(model(x[idx])[:, 0], y[idx])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        model.eval()
        with torch.no_grad():
            held = torch.nn.functional.mse_loss(model(hx)[:, 0], hy).item()
        if held < best_loss:
            best_loss, best_epoch = held, epoch
            best_state = {k: v.clone() for k, v in model.state_dict().items()}
        elif epoch - best_epoch >= 2:
            break
    if best_state is not None:
        model.load_state_dict(best_state)
    model.eval()
    return {"holdout_mse": best_loss, "holdout_variance": float(hy.var(unbiased=False)), "epochs": best_epoch}


def numpy_weights(model: PolicyNet) -> list[tuple[np.ndarray, np.ndarray]]:
    layers = [m for m in model.net if isinstance(m, nn.Linear)]
    return [(m.weight.detach().numpy().T.copy(), m.bias.detach().numpy().copy()) for m in layers]


def load_onnx(path: Path) -> PolicyNet:
    """The network an `export_onnx` wrote, read back by its initializers' names (those of the state
    dict): where a run goes on from a shipped model."""
    import onnx
    from onnx import numpy_helper

    state = {init.name: torch.from_numpy(numpy_helper.to_array(init).copy())
             for init in onnx.load(str(path)).graph.initializer}
    weights = sorted((name for name in state if name.endswith(".weight")), key=lambda name: int(name.split(".")[1]))
    first, last = state[weights[0]], state[weights[-1]]
    model = PolicyNet(first.shape[1], last.shape[0], first.shape[0], len(weights) - 1)
    model.load_state_dict(state)
    model.eval()
    return model
