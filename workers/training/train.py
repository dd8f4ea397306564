"""The training pipeline of one game's policy, from nothing to a shipped model and its card.

    python -m workers.training.train --game G [--minutes M] [--seed S] [--workers W]

The teacher is the game's expert bot (workers/training/experts/<game>.py) when it has one, else the
search teacher (--teacher chooses). --teacher iteration is expert iteration: imitation of the expert,
then each round's labels come from rollout search over the previous round's network
(workers/training/teacher.py, RolloutImprovement).

1. Imitation games: the policy network learns to play like the teacher's seats. With the search
   teacher these are heuristic games, and a value network also learns each seat's expected final
   value from what the seat sees (the games' outcomes); with the expert, the expert plays some
   seats against heuristics and its decisions are the samples.
2. Teacher rounds (DAgger): games where one seat plays the student; each of its decisions is
   labelled by the teacher (the expert's pick, or the search teacher of workers/training/teacher.py:
   a determinized one-turn lookahead scored by the value network), and the student is retrained on
   all teacher labels after each round, the imitation data kept as a lighter prior.
3. Reinforcement (--reinforce-games, off unless TRAINING_DEFAULTS or the command line ask): the
   selected student plays on against heuristics and learns from its own results by PPO
   (workers/training/reinforce.py); its best check ships when it beats the student it started from.
   With --start-from M.onnx stages 1 and 2 are skipped: reinforcement goes on from an exported
   model's network (its card says how that one was made; the new card names it by digest).
4. Export to ONNX (dynamic batch axis), check onnxruntime against torch on random inputs.
5. The tournament (workers/training/tournament.py) measures the hard bot against heuristic and
   random opponents; the model and its card go to workers/models/ (or --out).

Data comes in fixed chunks seeded from --seed, so a run is reproducible for any --workers: the
teacher rounds are budgeted in labels (--rounds of --labels each), not in time. --minutes is only a
safety cap on the teacher rounds and reinforcement: a run that hits it stops issuing new chunks, and its card
says so (`time_capped`: such a run depends on the machine's speed and does not reproduce). Torch
runs on one thread, and on float kernels pinned for every x86-64 machine (workers/training/__init__.py;
the card's `float_kernels`), so a run gives the same model on another machine too.
"""

from __future__ import annotations

import argparse
import copy
import datetime
import json
import math
import os
import random
import shutil
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import torch
from threadpoolctl import threadpool_limits

from services.rules.registry import get_engine
from workers.bots.policy import MODELS_DIR, Difficulty, card_path, file_sha256, model_path
from workers.training.experts import expert_class, training_defaults
from workers.training.model import (
    INPUT_NAME,
    OPSET,
    OUTPUT_NAME,
    PolicyNet,
    check_parity,
    export_onnx,
    fit_value,
    load_onnx,
    masked_cross_entropy,
    numpy_weights,
)
from workers.training.reinforce import Settings, reinforce
from workers.training.selfplay import ChunkJob, ChunkResult, Samples, ValueSamples, run_chunks
from workers.training.tournament import default_table_sizes, run_tournament

MAX_MODEL_BYTES = 5 * 1024 * 1024
# Settings every game trains with unless its expert module's TRAINING_DEFAULTS (so that `make train
# GAME=<id>` reproduces its shipped model) or the command line says otherwise.
COMMON_DEFAULTS = {"heuristic_games": 3000, "hidden": 256, "imitation_epochs": 6, "minutes": 60.0, "rounds": 3,
                   "reinforce_games": 0, "reinforce_baseline": "batch", "reinforce_placing": 0.0}
MIN_VALUE_VARIANCE = 1e-3  # below this the games' outcomes hardly differ: nothing for the teacher


def float_kernels() -> dict[str, str | None]:
    """The float kernels this run used (workers/training/__init__.py pins them): a run reproduces
    bit for bit where these are the same."""
    from threadpoolctl import threadpool_info

    openblas = [info.get("architecture") for info in threadpool_info() if info.get("internal_api") == "openblas"]
    return {
        "torch_cpu_capability": torch.backends.cpu.get_cpu_capability(),
        "mkl_cbwr": os.environ.get("MKL_CBWR"),
        "openblas_coretype": openblas[0] if openblas else None,
    }


def log(message: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {message}", flush=True)


def fit(
    model: PolicyNet,
    datasets: Sequence[tuple[Samples, float]],
    epochs: int,
    seed: int,
    lr: float = 1e-3,
    batch_size: int = 256,
) -> dict[str, float]:
    """Trains on weighted datasets (masked cross-entropy); returns the last epoch's losses."""
    generator = torch.Generator().manual_seed(seed)
    num_actions = model.num_actions
    tensors = []
    for samples, weight in datasets:
        if len(samples) == 0 or weight <= 0:
            continue
        obs_array, mask_array, target_array = samples.arrays(num_actions)
        tensors.append(
            (torch.from_numpy(obs_array), torch.from_numpy(mask_array), torch.from_numpy(target_array), weight)
        )
    optimizer = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=1e-4)
    total = sum(len(t[0]) for t in tensors)
    steps_per_epoch = max(1, math.ceil(total / batch_size))
    scheduler = torch.optim.lr_scheduler.OneCycleLR(optimizer, max_lr=lr, total_steps=epochs * steps_per_epoch)
    losses: dict[str, float] = {}
    model.train()
    for _ in range(epochs):
        perms = [torch.randperm(len(t[0]), generator=generator) for t in tensors]
        sums = [0.0] * len(tensors)
        for step in range(steps_per_epoch):
            loss = torch.zeros(())
            for k, (obs, mask, target, weight) in enumerate(tensors):
                # each dataset gives a slice proportional to its size, so an epoch sees each once
                n = len(obs)
                lo, hi = step * n // steps_per_epoch, (step + 1) * n // steps_per_epoch
                if hi <= lo:
                    continue
                idx = perms[k][lo:hi]
                part = masked_cross_entropy(model(obs[idx]), mask[idx], target[idx])
                sums[k] += part.item() * (hi - lo)
                loss = loss + weight * part * (hi - lo) / batch_size
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            scheduler.step()
        losses = {f"dataset{k}": sums[k] / len(t[0]) for k, t in enumerate(tensors)}
    model.eval()
    return losses


def agreement(model: PolicyNet, samples: Samples) -> float:
    """How often the student's best legal id is the labelled one."""
    if not len(samples):
        return 0.0
    obs, mask, target = samples.arrays(model.num_actions)
    with torch.no_grad():
        logits = model(torch.from_numpy(obs)).masked_fill(~torch.from_numpy(mask), -1e9)
    return float((logits.argmax(1) == torch.from_numpy(target).argmax(1)).float().mean())


def subsample(samples: Samples, keep: int, seed: int) -> Samples:
    if len(samples) <= keep:
        return samples
    picked = sorted(random.Random(seed).sample(range(len(samples)), keep))
    out = Samples()
    for i in picked:
        out.add(samples.obs[i], samples.legal[i], samples.target[i])
    return out


def split(samples: Samples, holdout: float, seed: int) -> tuple[Samples, Samples]:
    order = list(range(len(samples)))
    random.Random(seed).shuffle(order)
    cut = int(len(order) * (1 - holdout))
    a, b = Samples(), Samples()
    for k, i in enumerate(order):
        (a if k < cut else b).add(samples.obs[i], samples.legal[i], samples.target[i])
    return a, b


def select_score(model: PolicyNet, game: str, sizes: tuple[int, ...], games: int, seed: int,
                 workers: int) -> float:
    """The student's win share against heuristic bots over its chance share (the same games for
    every student compared)."""
    weights = numpy_weights(model)
    chunk = 25
    jobs = [ChunkJob(game, "evaluation", seed + k * chunk, chunk, sizes, policy_weights=weights)
            for k in range(max(1, games // chunk))]
    results = list(run_chunks(jobs, workers))
    return sum(r.wins for r in results) / max(sum(r.chance for r in results), 1e-9)


def value_arrays(results: Sequence[ChunkResult]) -> tuple[np.ndarray, np.ndarray]:
    values = ValueSamples()
    for result in results:
        values.extend(result.values)
    return np.stack(values.obs).astype(np.float32), np.asarray(values.value, dtype=np.float32)


def teach(args: argparse.Namespace, parser: argparse.ArgumentParser, engine: Any, sizes: tuple[int, ...],
          master: random.Random, started: float, deadline: float) -> tuple[PolicyNet, str, bool, dict[str, object]]:
    """Stages 1 and 2: the student the teacher rounds select, the stage it comes from, whether the time
    cap cut the rounds short, and what the card says of them."""
    spec = engine.spec
    obs_shape = tuple(spec.observation_shape)
    obs_size = int(np.prod(obs_shape))
    teacher_kind = args.teacher or ("expert" if expert_class(args.game) is not None else "search")
    iteration = teacher_kind == "iteration"
    expert = teacher_kind in ("expert", "iteration")  # expert iteration starts from the expert's imitation
    if expert and expert_class(args.game) is None:
        parser.error(f"{args.game} has no expert bot (workers/training/experts/{args.game}.py)")
    labels_per_round = args.labels or (6_000 if iteration else 20_000 if expert else 4_000)
    redraws = args.redraws or (8 if iteration else 4)
    max_candidates = args.max_candidates or (3 if iteration else 8)
    log(f"{args.game}: observation {obs_shape}, {spec.num_distinct_actions} action ids, tables {sizes};"
        f" teacher: {teacher_kind}")

    # 1. imitation games (and, for the search teacher, the value network's games)
    chunk_games = 50
    jobs = [
        ChunkJob(args.game, "imitation", master.getrandbits(63), chunk_games, sizes,
                 value_every=0.0 if expert else 0.1, teacher=teacher_kind)
        for _ in range(math.ceil(args.heuristic_games / chunk_games))
    ]
    results = list(run_chunks(jobs, args.workers))
    imitation = Samples()
    for result in results:
        imitation.extend(result.samples)
    imitation_train, imitation_test = split(imitation, 0.1, args.seed)
    value_fit: dict[str, float] | None = None
    value_weights = None
    value_positions = 0
    if expert:
        log(f"imitation games: {len(jobs) * chunk_games} games, {len(imitation)} expert decisions")
    else:
        holdout_chunks = max(1, len(results) // 10)
        value_train = value_arrays(results[:-holdout_chunks])
        value_holdout = value_arrays(results[-holdout_chunks:])
        value_positions = len(value_train[0]) + len(value_holdout[0])
        log(f"heuristic games: {len(jobs) * chunk_games} games, {len(imitation)} decisions,"
            f" {value_positions} value positions")
        value_net = PolicyNet(obs_size, 1, args.hidden, args.layers)
        value_fit = fit_value(value_net, value_train, value_holdout, 10, args.seed)
        value_fit["r2"] = 1 - value_fit["holdout_mse"] / max(value_fit["holdout_variance"], 1e-9)
        value_weights = numpy_weights(value_net)
        log(f"value network: held-out mse {value_fit['holdout_mse']:.4f} (R2 {value_fit['r2']:.3f}) after"
            f" {value_fit['epochs']} epochs")
    model = PolicyNet(obs_size, spec.num_distinct_actions, args.hidden, args.layers)
    fit(model, [(imitation_train, 1.0)], args.imitation_epochs, args.seed)
    imitation_model = model
    log(f"imitation: agreement with the teacher on held-out decisions {agreement(model, imitation_test):.1%}"
        f" ({time.monotonic() - started:.0f}s)")
    select_seed = master.getrandbits(40)
    selection = [("imitation", select_score(model, args.game, sizes, args.select_games, select_seed, args.workers))]
    best_model, best_score = model, selection[0][1]
    log(f"imitation student: {best_score:.2f}x chance against the heuristic ({args.select_games} games)")

    # 2. teacher rounds
    prior = subsample(imitation_train, args.imitation_keep, args.seed)
    teacher = Samples()
    teacher_games = 0
    lookaheads = 0
    rounds_done = 0
    time_capped = False  # the safety cap cut the teacher rounds short (the run then depends on the machine)
    chunk_games = 2 if iteration else 20 if expert else 4
    rounds = args.rounds
    if value_fit is not None and value_fit["holdout_variance"] < MIN_VALUE_VARIANCE:
        # Every heuristic game ended alike (say, all seats tied): the value network scores every
        # position the same, so the teacher could only pick at random. Ship the imitation.
        log("the heuristic games all end alike: no teacher rounds, the imitation student ships")
        rounds = 0
    for round_index in range(rounds):
        policy_weights = numpy_weights(model)
        round_seed = master.getrandbits(63)
        teacher_jobs = (  # as many as the round needs; seeds fixed by position, whatever the workers prefetch
            ChunkJob(
                args.game, "teacher", round_seed + index, chunk_games, sizes, redraws=redraws,
                max_candidates=max_candidates, policy_weights=policy_weights, value_weights=value_weights,
                teacher=teacher_kind, margin=args.margin,
            )
            for index in range(100_000)
        )
        fresh = Samples()
        for result in run_chunks(teacher_jobs, args.workers, deadline):
            fresh.extend(result.samples)
            teacher_games += result.games
            lookaheads += result.lookaheads
            if len(fresh) >= labels_per_round:
                break
        if len(fresh) < labels_per_round:
            time_capped = True
        if len(fresh):
            log(f"round {round_index + 1}: the student agreed with the teacher on {agreement(model, fresh):.1%}"
                f" of {len(fresh)} new decisions")
        teacher.extend(fresh)
        rounds_done += 1
        # each round fine-tunes the imitation student on all teacher labels so far, the imitation
        # data replayed beside them, so it keeps what it knew of the game
        model = copy.deepcopy(imitation_model)
        losses = fit(model, [(teacher, 1.0), (prior, args.imitation_weight)], args.epochs,
                     args.seed + round_index + 1, lr=args.finetune_lr)
        score = select_score(model, args.game, sizes, args.select_games, select_seed, args.workers)
        selection.append((f"round {round_index + 1}", score))
        if score > best_score:
            best_model, best_score = model, score
        log(f"round {round_index + 1}: {teacher_games} teacher games, {len(teacher)} labels, {lookaheads}"
            f" lookaheads, losses {', '.join(f'{v:.3f}' for v in losses.values())}; {score:.2f}x chance"
            f" against the heuristic ({time.monotonic() - started:.0f}s)")
        if time.monotonic() > deadline and round_index + 1 < rounds:
            time_capped = True
            log("time cap reached: no more teacher rounds (this run will not reproduce on another machine)")
            break

    model = best_model
    chosen = next(stage for stage, score in selection if score == best_score)
    log(f"the teacher rounds select the {chosen} student ({best_score:.2f}x chance in selection)")
    record: dict[str, object] = {
        "imitation_games": {"games": len(results) * 50, "imitation_decisions": len(imitation),
                            "value_positions": value_positions,
                            "seats": "expert at some seats, heuristic at the others" if expert
                            else "heuristic at every seat"},
        "value_network": None if value_fit is None else {
            "holdout_mse": round(value_fit["holdout_mse"], 5),
            "holdout_variance": round(value_fit["holdout_variance"], 5),
            "holdout_r2": round(value_fit["r2"], 4), "epochs": value_fit["epochs"]},
        "teacher": {
            "kind": teacher_kind,
            "method": (f"expert iteration: imitation of the expert bot (workers/training/experts/{args.game}.py),"
                       " then rounds whose labels come from rollout search over the previous round's network"
                       " (its favourite candidates played out with common random numbers, workers/training/"
                       "teacher.py RolloutImprovement) in the network's own games") if iteration else
                      (f"the expert bot (workers/training/experts/{args.game}.py): imitation of its games"
                       " against heuristics, then DAgger rounds labelling the student's own games"
                       " with the expert's picks") if expert else
                      ("determinized one-turn lookahead with heuristic replies, scored by the value network;"
                       " DAgger rounds from the student's own games"),
            "rounds": rounds_done,
            "time_capped": time_capped,
            "games": teacher_games,
            "decisions": len(teacher),
            "labels_per_round": labels_per_round,
            **({} if expert and not iteration else {
                "lookaheads": lookaheads, "redraws_per_decision": redraws, "max_candidates": max_candidates,
                **({"margin": args.margin} if iteration else {})}),
        },
        "selection": {"games_against_heuristic": args.select_games, "chosen": chosen,
                      "ratio_to_chance": {stage: round(score, 3) for stage, score in selection}},
        "imitation_epochs": args.imitation_epochs,
        "finetune_epochs_per_round": args.epochs,
        "finetune_lr": args.finetune_lr,
        "imitation_weight": args.imitation_weight,
        "imitation_kept": len(prior),
    }
    return model, chosen, time_capped, record


def resume(args: argparse.Namespace, parser: argparse.ArgumentParser, spec: Any) -> tuple[PolicyNet, str, bool,
                                                                                     dict[str, object]]:
    """Instead of stages 1 and 2 (--start-from): the network of an exported model, whose own card says
    how it was made; reinforcement goes on from it."""
    path = args.start_from
    model = load_onnx(path)
    wanted = (int(np.prod(tuple(spec.observation_shape))), spec.num_distinct_actions)
    if (model.obs_size, model.num_actions) != wanted:
        parser.error(f"{path} maps {model.obs_size} inputs to {model.num_actions} ids; {args.game} needs {wanted}")
    args.hidden, args.layers = model.hidden, model.layers
    digest = file_sha256(path)
    log(f"{args.game}: going on from {path} (sha256 {digest[:12]}), MLP {model.obs_size} -> "
        + " -> ".join([str(model.hidden)] * model.layers) + f" -> {model.num_actions}")
    return model, f"the model of {path.name}", False, {"start_from": {"onnx": str(path), "onnx_sha256": digest}}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", required=True)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--minutes", type=float,
                        help="safety cap: no teacher chunk starts after this many minutes (default 60, or"
                             " TRAINING_DEFAULTS); a run it cuts short does not reproduce")
    parser.add_argument("--workers", type=int, default=1, help="data generation processes (default 1)")
    parser.add_argument("--teacher", choices=("expert", "search", "iteration"),
                        help="expert bot, value-scored search, or expert iteration (imitation of the expert,"
                             " then rollout search over the current network labels each round; default:"
                             " expert when the game has one, or TRAINING_DEFAULTS)")
    parser.add_argument("--heuristic-games", type=int,
                        help="imitation games (and value games; default 3000, or TRAINING_DEFAULTS)")
    parser.add_argument("--labels", type=int,
                        help="teacher labels per round (default 4000; 20000 with the expert; 6000 in expert iteration)")
    parser.add_argument("--rounds", type=int, help="teacher rounds (default 3, or TRAINING_DEFAULTS)")
    parser.add_argument("--redraws", type=int, help="redrawn hidden states per teacher decision (default 4; 8 in"
                        " expert iteration)")
    parser.add_argument("--max-candidates", type=int, help="candidates the search compares (default 8; the"
                        " network's 3 favourites in expert iteration)")
    parser.add_argument("--margin", type=float, default=0.05,
                        help="expert iteration: how much better (mean final value) a candidate must do to"
                             " overrule the network's favourite")
    parser.add_argument("--hidden", type=int, help="hidden layer width (default 256, or TRAINING_DEFAULTS)")
    parser.add_argument("--layers", type=int, default=2)
    parser.add_argument("--imitation-epochs", type=int, help="default 6, or TRAINING_DEFAULTS")
    parser.add_argument("--epochs", type=int, default=10, help="fine-tuning epochs per teacher round")
    parser.add_argument("--finetune-lr", type=float, default=3e-4)
    parser.add_argument("--imitation-keep", type=int, default=60000,
                        help="imitation decisions kept beside the teacher labels")
    parser.add_argument("--imitation-weight", type=float, default=0.5)
    parser.add_argument("--players", type=int, action="append", help="table sizes to train on (default: all)")
    parser.add_argument("--select-games", type=int, default=300,
                        help="games against the heuristic that pick the best student of the rounds")
    parser.add_argument("--reinforce-games", type=int,
                        help="reinforcement games after the teacher rounds (default 0: none, or TRAINING_DEFAULTS)")
    parser.add_argument("--reinforce-lr", type=float, default=Settings.lr)
    parser.add_argument("--reinforce-baseline", choices=("batch", "critic"),
                        help="what a reinforcement sample's return is measured against: the batch's mean at its"
                             " table size, or a learnt critic (default batch, or TRAINING_DEFAULTS)")
    parser.add_argument("--reinforce-placing", type=float,
                        help="weight of the learner's placing (1 first ... 0 last) in its return beside the win"
                             " share in units of chance (default 0: the win share alone, or TRAINING_DEFAULTS)")
    parser.add_argument("--reinforce-check-games", type=int, default=Settings.check_games,
                        help="games against the heuristic that check the reinforced network every"
                             f" {Settings.check_every} batches of {Settings.batch}")
    parser.add_argument("--eval-games", type=int, default=1000, help="tournament games per opponent kind")
    parser.add_argument("--start-from", type=Path,
                        help="an exported model (ONNX) to go on from: no imitation or teacher rounds, reinforcement"
                             " (--reinforce-games) starts from its network")
    parser.add_argument("--out", type=Path, default=MODELS_DIR)
    args = parser.parse_args(argv)

    for name, value in (COMMON_DEFAULTS | training_defaults(args.game)).items():
        if getattr(args, name) is None:
            setattr(args, name, value)
    # One thread per process: the data workers are the parallelism. OpenBLAS would otherwise start
    # a spinning thread per core in every forked worker (numpy's forward in the rollouts), and two
    # workers on two cores ran the expert-iteration rollouts several times slower.
    torch.set_num_threads(1)
    threadpool_limits(1)
    torch.manual_seed(args.seed)
    started = time.monotonic()
    engine = get_engine(args.game)
    spec = engine.spec
    obs_shape = tuple(spec.observation_shape)
    obs_size = int(np.prod(obs_shape))
    sizes = tuple(args.players or default_table_sizes(args.game))
    master = random.Random(args.seed)
    deadline = started + args.minutes * 60
    if args.start_from is None:
        model, chosen, time_capped, taught = teach(args, parser, engine, sizes, master, started, deadline)
    else:
        model, chosen, time_capped, taught = resume(args, parser, spec)

    # 3. reinforcement
    reinforcement: dict[str, object] | None = None
    if args.reinforce_games > 0:
        settings = Settings(games=args.reinforce_games, lr=args.reinforce_lr, check_games=args.reinforce_check_games,
                            baseline=args.reinforce_baseline, placing=args.reinforce_placing)
        check_seed = master.getrandbits(40)
        outcome = reinforce(
            model, args.game, sizes, settings, master.getrandbits(63), args.workers,
            lambda net: select_score(net, args.game, sizes, settings.check_games, check_seed, args.workers),
            deadline, log,
        )
        time_capped = time_capped or outcome.time_capped
        best_games, best_check = outcome.best
        if best_games > 0:
            model, chosen = outcome.model, f"{chosen}, reinforced over {best_games} games"
        reinforcement = {
            "method": "PPO against heuristic opponents from the selected student (workers/training/reinforce.py):"
                      " one learner seat sampling at a temperature, reward its win share (and its placing, weighted"
                      " by `placing`)",
            "baseline": settings.baseline,
            "games": outcome.games, "decisions": outcome.decisions, "batch_games": settings.batch,
            "temperature": settings.temperature, "lr": settings.lr, "epochs": settings.epochs, "clip": settings.clip,
            "check_games": settings.check_games, "placing": settings.placing,
            "checks": {str(games): round(score, 3) for games, score in outcome.checks},
            "chosen_games": best_games,
        }
        if settings.baseline == "critic":
            reinforcement["critic"] = {
                "hidden": settings.critic_hidden, "lr": settings.critic_lr, "epochs": settings.critic_epochs,
                "warmup_batches": settings.critic_warmup,
                "explained_variance": [round(share, 3) for share in outcome.explained],
            }
        log(f"reinforcement: the check picks the network after {best_games} games ({best_check:.3f}x)")
    log(f"shipping the student of {chosen}")

    # 4. export and parity
    with tempfile.TemporaryDirectory() as tmp:
        candidate_dir = Path(tmp)
        candidate = model_path(args.game, candidate_dir)
        export_onnx(model, obs_shape, candidate)
        parity, parity_relative = check_parity(model, obs_shape, candidate, args.seed)
        size = candidate.stat().st_size
        assert size < MAX_MODEL_BYTES, f"model is {size} bytes, over the {MAX_MODEL_BYTES} limit"
        log(f"exported {size} bytes; onnxruntime vs torch max abs diff {parity:.2e}"
            f" ({parity_relative:.2e} of the largest logit)")

        # 5. strength
        tournament_started = time.monotonic()
        standings = run_tournament(args.game, args.eval_games, candidate_dir, Difficulty.HARD, sizes)
        for standing in standings:
            log(standing.line(args.game))
        elapsed = time.monotonic() - started
        args.out.mkdir(parents=True, exist_ok=True)
        target = model_path(args.game, args.out)
        shutil.copyfile(candidate, target)
    card = {
        "game": args.game,
        "display_name": spec.display_name,
        "onnx": target.name,
        "onnx_sha256": file_sha256(target),
        "onnx_bytes": target.stat().st_size,
        "input": {"name": INPUT_NAME, "shape": ["batch", *obs_shape], "dtype": "float32"},
        "output": {"name": OUTPUT_NAME, "shape": ["batch", spec.num_distinct_actions], "dtype": "float32"},
        "opset": OPSET,
        "architecture": f"MLP {obs_size} -> " + " -> ".join([str(args.hidden)] * args.layers)
        + f" -> {spec.num_distinct_actions}, ReLU; logits over action ids, illegal ids masked at run time",
        "training": {
            "command": "python -m workers.training.train " + " ".join(sys.argv[1:] if argv is None else argv),
            "seed": args.seed,
            "table_sizes": list(sizes),
            **taught,
            "reinforcement": reinforcement,
            "parity_max_abs_diff": parity,
            "parity_relative_diff": parity_relative,
            "torch": torch.__version__,
            "float_kernels": float_kernels(),
            "workers": args.workers,
            "seconds": round(tournament_started - started, 1),
            "seconds_with_tournament": round(elapsed, 1),
            "date": datetime.date.today().isoformat(),
        },
        "strength": {
            "difficulty": "hard",
            "summary": {s.opponent: f"{s.share:.1%} vs chance {s.chance:.1%} ({s.ratio:.2f}x)" for s in standings},
            "results": [s.summary() for s in standings],
        },
    }
    card_path(args.game, args.out).write_text(json.dumps(card, indent=2) + "\n")
    log(f"wrote {target} and its card in {elapsed:.0f}s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
