"""The policy's decision time against a bare onnxruntime call on the same model, as a ratio.

    python -m workers.bots.policy_bench [--game G] [--positions N]

The bare call is `session.run` on an observation computed beforehand (the least any runtime can
do); the decision is the whole `OnnxPolicy.step` a bot worker makes: the observation tensor from
the view, inference, the legal-action mask and the pick. Both run over positions of heuristic games,
in several interleaved passes; the best pass of each counts (the least disturbed by other work on
the machine). Every pass decides on positions no earlier pass saw (an observation builder may keep
rows it has made before, as a worker does over a match; a position seen twice would flatter it); the
bare call's inputs are observations of yet other positions, since a dense network's time does not
depend on its input's values. The target: the decision within 2x the bare call.

It also splits a decision in place: more passes, on positions of their own, time the observation and
the rest of `step` (inference and pick) apart inside the decision loop. Each costs more there than
alone, since the network's weights and the builder's working set take turns in the same caches
(docs/bots.md, "The ONNX policy and the difficulties").
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Sequence
from typing import Any

import numpy as np

from services.rules.registry import game_ids, get_engine
from workers.bots.heuristic import heuristic_bot
from workers.bots.policy import OnnxPolicy, load_model, model_path


def decision_positions(game_id: str, count: int, seed: int = 1) -> list[tuple[Any, list[int]]]:
    """(view, legal ids) at decisions with a choice in games of heuristic bots."""
    engine = get_engine(game_id)
    spec = engine.spec
    rng = random.Random(seed)
    positions: list[tuple[Any, list[int]]] = []
    while len(positions) < count:
        players = rng.randint(spec.min_players, spec.max_players)
        state = engine.new_game(players, None, rng.getrandbits(63))
        bots = [heuristic_bot(game_id, rng) for _ in range(players)]
        while not state.core.game_over and len(positions) < count:
            seat = state.core.seat_to_move
            legal = engine.legal_actions(state)
            view = engine.view(state, seat)
            if len(legal) > 1:
                positions.append((view, legal))
            engine.apply(state, seat, bots[seat].step(view, legal))
    return positions


def measure(game_id: str, positions: int = 2000, passes: int = 7) -> dict[str, float]:
    """Seconds per decision of the policy and of the bare call, and their ratio."""
    import onnxruntime as ort

    engine = get_engine(game_id)
    cases = decision_positions(game_id, positions * (3 * passes + 1))
    chunks = [cases[k * positions : (k + 1) * positions] for k in range(3 * passes + 1)]
    observations = [engine.observation(view)[None] for view, _ in chunks[-1]]  # the bare call's inputs
    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    session = ort.InferenceSession(str(model_path(game_id)), options, providers=["CPUExecutionProvider"])
    name = session.get_inputs()[0].name
    policy = OnnxPolicy(game_id, "hard", random.Random(0), model=load_model(game_id))

    def bare() -> float:
        start = time.perf_counter()
        for obs in observations:
            session.run(None, {name: obs})
        return (time.perf_counter() - start) / len(observations)

    def decide(chunk: list[tuple[Any, list[int]]]) -> float:
        start = time.perf_counter()
        for view, legal in chunk:
            policy.step(view, legal)
        return (time.perf_counter() - start) / len(chunk)

    def observe(chunk: list[tuple[Any, list[int]]]) -> float:
        start = time.perf_counter()
        for view, _ in chunk:
            engine.observation(view)
        return (time.perf_counter() - start) / len(chunk)

    def split(chunk: list[tuple[Any, list[int]]]) -> tuple[float, float]:
        """A decision loop as `step` makes it, the observation and the rest timed apart."""
        clock = time.perf_counter
        observing = choosing = 0.0
        for view, legal in chunk:
            start = clock()
            obs = engine.observation(view)
            built = clock()
            policy.choose(obs, legal)
            choosing += clock() - built
            observing += built - start
        return observing / len(chunk), choosing / len(chunk)

    bare_s, decide_s, observe_s, split_s = [], [], [], []
    for k in range(passes):  # interleaved, so a burst of other load hits both alike
        bare_s.append(bare())
        decide_s.append(decide(chunks[3 * k]))
        observe_s.append(observe(chunks[3 * k + 1]))
        split_s.append(split(chunks[3 * k + 2]))
    best_bare, best_decide = min(bare_s), min(decide_s)
    in_loop_observation, in_loop_choice = min(split_s, key=sum)
    return {
        "bare_onnxruntime_s": best_bare,
        "policy_decision_s": best_decide,
        "observation_s": min(observe_s),
        "observation_in_loop_s": in_loop_observation,
        "inference_and_pick_in_loop_s": in_loop_choice,
        "ratio": best_decide / best_bare,
        "median_ratio": float(np.median(np.array(decide_s) / np.array(bare_s))),
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", action="append", help="a game id (repeatable; default: every shipped model)")
    parser.add_argument("--positions", type=int, default=1000, help="positions per pass")
    args = parser.parse_args(argv)
    games = args.game or [g for g in game_ids() if model_path(g).is_file()]
    for game_id in games:
        m = measure(game_id, args.positions)
        print(
            f"{game_id:18s} policy decision {m['policy_decision_s'] * 1e6:7.1f} us"
            f" (observation {m['observation_s'] * 1e6:5.1f} us alone; in the loop"
            f" {m['observation_in_loop_s'] * 1e6:5.1f} us + inference and pick"
            f" {m['inference_and_pick_in_loop_s'] * 1e6:5.1f} us)"
            f"  bare onnxruntime {m['bare_onnxruntime_s'] * 1e6:7.1f} us"
            f"  ratio {m['ratio']:.2f}x (median pass {m['median_ratio']:.2f}x, target <= 2x)"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
