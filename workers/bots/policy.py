"""The ONNX policy runtime: a game's trained model as a bot, with the heuristic as its safety net.

A model lives in workers/models/<game_id>.onnx beside its card <game_id>.card.json. It is loaded
lazily, once per process: the cache is keyed by game and pid, so a Celery worker that forks after
importing this module builds its own onnxruntime session in the child, never sharing the parent's.

A decision builds the observation tensor from the seat's view (`engine.observation(view)`, the same
function training used), runs the model through a reusable IOBinding on preallocated input and
output buffers, masks the illegal ids and picks by difficulty: hard takes the best legal id
(deterministic); medium and easy sample from the legal ids' softmax at a temperature and, with a
probability (the blunder rate), play a uniformly random legal id instead, drawing from the injected
random generator. Each game's temperatures and blunder rates are tuned by the ladder
(workers/training/ladder.py, `make ladder`) so that easy < medium < hard by a measured margin, and
kept in workers/models/difficulties.json; a game missing there plays the defaults below.

When a model is missing, fails to load, does not match the game's tensor shapes or its card's
checksum, or fails at run time, the bot plays the game's heuristic instead: the first failure in a
process is logged as a warning, and every decision made by the fallback is counted in
sizzle_bot_model_fallbacks_total{game, reason}.
"""

from __future__ import annotations

import enum
import functools
import hashlib
import json
import logging
import os
import random
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

from services.kit.metrics import BOT_DECISION, MODEL_FALLBACKS
from services.rules.engine import Engine
from services.rules.registry import get_engine
from workers.bots.heuristic import heuristic_bot
from workers.bots.interface import Bot

log = logging.getLogger(__name__)

MODELS_DIR = Path(__file__).resolve().parent.parent / "models"


# Up to this many legal ids, the best is found by reading each logit (faster than gathering them).
_FEW = 16


class Difficulty(enum.StrEnum):
    """How well a policy bot plays: hard is the strongest the model can play."""

    EASY = "easy"
    MEDIUM = "medium"
    HARD = "hard"

    @classmethod
    def parse(cls, value: str | Difficulty) -> Difficulty:
        try:
            return cls(str(value).lower())
        except ValueError:
            raise ValueError(f"unknown difficulty {value!r} (easy, medium, hard)") from None


@dataclass(frozen=True)
class Play:
    """How a difficulty picks: a sampling temperature over the legal ids' logits (None takes the
    best id) and the share of decisions that play a uniformly random legal id instead."""

    temperature: float | None
    blunder: float = 0.0

    def as_json(self) -> dict[str, float | None]:
        return {"temperature": self.temperature, "blunder": round(self.blunder, 4)}


DEFAULT_PLAY: dict[Difficulty, Play] = {
    Difficulty.EASY: Play(1.0, 0.35),
    Difficulty.MEDIUM: Play(0.5, 0.1),
    Difficulty.HARD: Play(None, 0.0),
}


def difficulties_path(models_dir: Path | None = None) -> Path:
    return (models_dir or MODELS_DIR) / "difficulties.json"


@functools.lru_cache(maxsize=8)
def _tuned_plays(path: str) -> dict[str, dict[str, dict[str, Any]]]:
    """The tuned difficulties file, read once a process (empty when there is none)."""
    file = Path(path)
    return json.loads(file.read_text()) if file.is_file() else {}


def play_of(game_id: str, difficulty: Difficulty, models_dir: Path | None = None) -> Play:
    """A game's tuned play at a difficulty (hard is always the best id), else the default."""
    if difficulty is Difficulty.HARD:
        return DEFAULT_PLAY[difficulty]
    path = difficulties_path(models_dir)
    tuned = _tuned_plays(str(path)).get(game_id, {}).get(difficulty.value)
    if not tuned:
        return DEFAULT_PLAY[difficulty]
    temperature = tuned.get("temperature")
    blunder = float(tuned.get("blunder", 0.0))
    if (temperature is not None and not temperature > 0) or not 0.0 <= blunder <= 1.0:
        raise ValueError(f"{path}: {game_id} {difficulty.value} has a bad temperature or blunder rate: {tuned}")
    return Play(None if temperature is None else float(temperature), blunder)


class ModelUnavailable(Exception):
    """A model that cannot be used; `reason` is the metric label (missing, load_error, ...)."""

    def __init__(self, reason: str, detail: str) -> None:
        super().__init__(f"{reason}: {detail}")
        self.reason = reason


def model_path(game_id: str, models_dir: Path | None = None) -> Path:
    return (models_dir or MODELS_DIR) / f"{game_id}.onnx"


def card_path(game_id: str, models_dir: Path | None = None) -> Path:
    return (models_dir or MODELS_DIR) / f"{game_id}.card.json"


def file_sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


class OnnxModel:
    """One onnxruntime session of a game's model with its reusable buffers (one per process)."""

    def __init__(self, engine: Engine, path: Path, card: Path | None = None) -> None:
        import onnxruntime as ort  # imported here so that modules importing bots stay light

        spec = engine.spec
        if not path.is_file():
            raise ModelUnavailable("missing", f"no model file at {path}")
        if card is not None and card.is_file():
            try:
                expected = json.loads(card.read_text())["onnx_sha256"]
            except (ValueError, KeyError) as exc:
                raise ModelUnavailable("bad_card", f"{card}: {exc}") from exc
            actual = file_sha256(path)
            if actual != expected:
                raise ModelUnavailable("checksum", f"{path} has sha256 {actual}, its card says {expected}")
        options = ort.SessionOptions()
        options.intra_op_num_threads = 1
        options.inter_op_num_threads = 1
        options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        try:
            session = ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
        except Exception as exc:  # onnxruntime raises its own exception types for broken files
            raise ModelUnavailable("load_error", f"{path}: {exc}") from exc
        inputs, outputs = session.get_inputs(), session.get_outputs()
        if len(inputs) != 1 or not outputs:
            raise ModelUnavailable("shape_mismatch", f"{path} must have one input and an output")
        obs_shape = tuple(spec.observation_shape)
        if tuple(inputs[0].shape[1:]) != obs_shape or outputs[0].shape[-1] != spec.num_distinct_actions:
            raise ModelUnavailable(
                "shape_mismatch",
                f"{path} maps {inputs[0].shape} to {outputs[0].shape}; the game needs"
                f" (batch, {', '.join(map(str, obs_shape))}) to (batch, {spec.num_distinct_actions})",
            )
        self.session = session
        self.input_name = inputs[0].name
        self.output_name = outputs[0].name
        self.obs_buffer = np.zeros((1, *obs_shape), dtype=np.float32)
        self.obs_row = self.obs_buffer[0]
        self.logits_buffer = np.zeros((1, spec.num_distinct_actions), dtype=np.float32)
        self.logits = self.logits_buffer[0]
        self.binding = session.io_binding()
        self.binding.bind_input(
            self.input_name, "cpu", 0, np.float32, self.obs_buffer.shape, self.obs_buffer.ctypes.data
        )
        self.binding.bind_output(
            self.output_name, "cpu", 0, np.float32, self.logits_buffer.shape, self.logits_buffer.ctypes.data
        )
        self.lock = threading.Lock()  # the buffers are shared by every bot of this game in the process
        # The public run_with_iobinding re-checks WebGPU graph capture on every call (2 us of a 15 us
        # run); the CPU provider never captures, so call the session's binding run itself when this
        # onnxruntime has it (the public method does exactly this call after its checks).
        native_session = getattr(session, "_sess", None)
        native_binding = getattr(self.binding, "_iobinding", None)
        if native_session is not None and native_binding is not None and hasattr(native_session, "run_with_iobinding"):
            self._run_bound = partial(native_session.run_with_iobinding, native_binding, None)
        else:
            self._run_bound = partial(session.run_with_iobinding, self.binding)

    def run(self, obs: np.ndarray) -> np.ndarray:
        """The logits of one observation, in the model's own output buffer (valid until the next
        run; the caller holds `lock`)."""
        np.copyto(self.obs_row, obs)
        self._run_bound()
        return self.logits


_MODELS: dict[tuple[str, int, str], OnnxModel | ModelUnavailable] = {}
_MODELS_LOCK = threading.Lock()


def load_model(game_id: str, models_dir: Path | None = None) -> OnnxModel:
    """The process's model of a game, created on first use; raises ModelUnavailable (remembered, so
    a broken model is not retried on every decision of the process)."""
    path = model_path(game_id, models_dir)
    key = (game_id, os.getpid(), str(path))
    cached = _MODELS.get(key)
    if cached is None:
        with _MODELS_LOCK:
            cached = _MODELS.get(key)
            if cached is None:
                try:
                    cached = OnnxModel(get_engine(game_id), path, card_path(game_id, models_dir))
                except ModelUnavailable as exc:
                    cached = exc
                _MODELS[key] = cached
    if isinstance(cached, ModelUnavailable):
        raise cached
    return cached


def clear_model_cache() -> None:
    """Forgets every loaded model of this process (tests; a retrained model on disk)."""
    with _MODELS_LOCK:
        _MODELS.clear()
    _tuned_plays.cache_clear()


class OnnxPolicy:
    """A bot playing a game's ONNX model at a difficulty."""

    def __init__(self, game_id: str, difficulty: Difficulty | str, rng: random.Random,
                 model: OnnxModel | None = None, models_dir: Path | None = None, play: Play | None = None) -> None:
        self.game_id = game_id
        self.difficulty = Difficulty.parse(difficulty)
        self.play = play if play is not None else play_of(game_id, self.difficulty, models_dir)
        self.temperature = self.play.temperature
        self.blunder = self.play.blunder
        self.rng = rng
        self.engine = get_engine(game_id)
        self.model = model if model is not None else load_model(game_id, models_dir)
        self._decision_seconds = BOT_DECISION.labels(game_id, f"onnx_{self.difficulty.value}")

    def step(self, view: Any, legal_actions: Sequence[int]) -> int:
        start = time.perf_counter()
        if len(legal_actions) == 1:
            action = legal_actions[0]
        elif self.blunder and self.rng.random() < self.blunder:
            action = legal_actions[self.rng.randrange(len(legal_actions))]
        else:
            action = self.choose(self.engine.observation(view), legal_actions)
        self._decision_seconds.observe(time.perf_counter() - start)
        return action

    def choose(self, obs: np.ndarray, legal_actions: Sequence[int]) -> int:
        """The id picked among `legal_actions` for an observation tensor."""
        model = self.model
        with model.lock:
            logits = model.run(obs)
            if self.temperature is None:  # the best legal id (the first among equals)
                if len(legal_actions) <= _FEW:
                    return int(max(legal_actions, key=logits.item))
                return int(legal_actions[int(logits.take(legal_actions).argmax())])
            legal_logits = logits.take(legal_actions)  # a copy: safe after the lock is released
        scaled = (legal_logits - legal_logits.max()) / self.temperature
        weights = np.exp(scaled, out=scaled)
        point = self.rng.random() * float(weights.sum())
        index = int(np.searchsorted(np.cumsum(weights), point, side="right"))
        return int(legal_actions[min(index, len(legal_actions) - 1)])


class FallbackBot:
    """The heuristic playing in place of a model that cannot be used; counts every decision."""

    def __init__(self, game_id: str, reason: str, rng: random.Random) -> None:
        self.game_id = game_id
        self.reason = reason
        self.bot = heuristic_bot(game_id, rng)
        self._fallbacks = MODEL_FALLBACKS.labels(game_id, reason)
        self._decision_seconds = BOT_DECISION.labels(game_id, "heuristic")

    def step(self, view: Any, legal_actions: Sequence[int]) -> int:
        start = time.perf_counter()
        self._fallbacks.inc()
        action = self.bot.step(view, legal_actions)
        self._decision_seconds.observe(time.perf_counter() - start)
        return action


class GuardedPolicy:
    """An OnnxPolicy that hands a decision to the heuristic when inference fails at run time."""

    def __init__(self, policy: OnnxPolicy, rng: random.Random) -> None:
        self.policy = policy
        self.rng = rng
        self._fallback: FallbackBot | None = None

    def step(self, view: Any, legal_actions: Sequence[int]) -> int:
        try:
            action = self.policy.step(view, legal_actions)
            if action in legal_actions:
                return action
            detail = f"picked illegal id {action}"
        except Exception as exc:  # a model that loaded but cannot run must not stop the match
            detail = repr(exc)
        if self._fallback is None:
            log.warning("bot model of %s failed at run time (%s); playing the heuristic", self.policy.game_id, detail)
            self._fallback = FallbackBot(self.policy.game_id, "inference_error", self.rng)
        return self._fallback.step(view, legal_actions)


_WARNED: set[tuple[str, int, str]] = set()


def make_bot(game_id: str, difficulty: Difficulty | str, rng: random.Random, models_dir: Path | None = None) -> Bot:
    """The bot for a seat: the game's ONNX policy at `difficulty`, or the heuristic when the model
    cannot be used (logged once per process, counted per decision)."""
    difficulty = Difficulty.parse(difficulty)
    try:
        policy = OnnxPolicy(game_id, difficulty, rng, models_dir=models_dir)
    except ModelUnavailable as exc:
        key = (game_id, os.getpid(), exc.reason)
        if key not in _WARNED:
            _WARNED.add(key)
            log.warning("no usable bot model for %s (%s); bots play the heuristic", game_id, exc)
        return FallbackBot(game_id, exc.reason, rng)
    return GuardedPolicy(policy, rng)


__all__ = [
    "DEFAULT_PLAY",
    "Difficulty",
    "FallbackBot",
    "GuardedPolicy",
    "ModelUnavailable",
    "OnnxModel",
    "OnnxPolicy",
    "Play",
    "clear_model_cache",
    "difficulties_path",
    "load_model",
    "make_bot",
    "play_of",
]
