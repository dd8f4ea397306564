"""The training pipeline's torch-free parts: data generation and the search teacher."""

from __future__ import annotations

import random

import numpy as np
import pytest

from services.rules.registry import get_engine
from workers.bots.heuristic import heuristic_bot
from workers.training.selfplay import ChunkJob, NumpyMLP, play_chunk, soft_target
from workers.training.teacher import ValueLookahead, final_value

GAME = "grill_party"


def tiny_weights(obs_size: int, out: int, seed: int = 0) -> list[tuple[np.ndarray, np.ndarray]]:
    rng = np.random.default_rng(seed)
    return [
        (rng.normal(0, 0.1, (obs_size, 16)).astype(np.float32), np.zeros(16, np.float32)),
        (rng.normal(0, 0.1, (16, out)).astype(np.float32), np.zeros(out, np.float32)),
    ]


def test_imitation_chunk_is_reproducible_and_labels_legal_actions() -> None:
    job = ChunkJob(GAME, "imitation", seed=42, games=2, table_sizes=(2, 3), value_every=0.2)
    a, b = play_chunk(job), play_chunk(job)
    assert len(a.samples) == len(b.samples) > 0
    assert all(np.array_equal(x, y) for x, y in zip(a.samples.obs, b.samples.obs, strict=True))
    assert a.samples.target == b.samples.target
    for legal, target in zip(a.samples.legal, a.samples.target, strict=True):
        assert len(legal) > 1 and set(target) <= set(legal)
    assert len(a.values) > 0 and all(-1.0 <= v <= 1.0 for v in a.values.value)
    obs, mask, target = a.samples.arrays(get_engine(GAME).spec.num_distinct_actions)
    assert obs.shape[0] == mask.shape[0] == target.shape[0]
    assert np.allclose(target.sum(1), 1.0) and not (target > 0)[~mask].any()


def test_teacher_chunk_labels_the_learner_with_soft_targets() -> None:
    spec = get_engine(GAME).spec
    size = int(np.prod(spec.observation_shape))
    job = ChunkJob(GAME, "teacher", seed=7, games=1, table_sizes=(2,), redraws=1, max_candidates=3,
                   policy_weights=tiny_weights(size, spec.num_distinct_actions),
                   value_weights=tiny_weights(size, 1, seed=1))
    result = play_chunk(job)
    assert result.decisions == len(result.samples) > 0 and result.lookaheads > 0
    for legal, target in zip(result.samples.legal, result.samples.target, strict=True):
        assert set(target) <= set(legal) and abs(sum(target.values()) - 1.0) < 1e-9


def test_lookahead_prefers_what_the_value_function_likes() -> None:
    engine = get_engine(GAME)
    state = engine.new_game(3, None, 99)
    legal = engine.legal_actions(state)
    # A value function that only looks at the seat's own hand and deck: fewer cards left is better.
    teacher = ValueLookahead(
        engine, lambda r: heuristic_bot(GAME, r), lambda obs: -(obs[:, 14] * 4 + obs[:, 15] * 20),
        random.Random(1), redraws=2,
    )
    result = teacher.search(state, 0, legal)
    assert result.action in legal and set(result.values) == set(legal)
    assert result.values[result.action] == max(result.values.values())


def test_soft_target_and_final_value() -> None:
    target = soft_target({1: 0.5, 2: 0.4, 3: 0.1}, 0.05)
    assert abs(sum(target.values()) - 1) < 1e-12 and target[1] > target[2] > target[3]
    assert soft_target({1: 0.2, 2: 0.3}, 0.0) == {2: 1.0}
    engine = get_engine(GAME)
    state = engine.new_game(2, None, 3)
    assert final_value(engine, state, 0) == 0.0  # a running game: nothing yet
    players = [heuristic_bot(GAME, random.Random(seat)) for seat in range(2)]
    while not state.core.game_over:
        seat = state.core.seat_to_move
        engine.apply(state, seat, players[seat].step(engine.view(state, seat), engine.legal_actions(state)))
    values = [final_value(engine, state, seat) for seat in range(2)]
    assert abs(sum(values)) < 1e-12 and max(values) > 0  # centred on the table


def test_numpy_mlp_batches() -> None:
    mlp = NumpyMLP(tiny_weights(4, 3))
    single = mlp(np.ones(4, np.float32))
    batch = mlp(np.ones((5, 4), np.float32))
    assert single.shape == (1, 3) and batch.shape == (5, 3) and np.allclose(batch, single)


def test_expert_chunks_label_the_experts_own_picks() -> None:
    spec = get_engine(GAME).spec
    size = int(np.prod(spec.observation_shape))
    job = ChunkJob(GAME, "imitation", seed=5, games=2, table_sizes=(2, 4), teacher="expert")
    a, b = play_chunk(job), play_chunk(job)
    assert len(a.samples) == len(b.samples) > 0 and a.samples.target == b.samples.target
    assert len(a.values) == 0  # the expert needs no value network
    for legal, target in zip(a.samples.legal, a.samples.target, strict=True):
        assert len(legal) > 1 and len(target) == 1 and set(target) <= set(legal)
    dagger = ChunkJob(GAME, "teacher", seed=6, games=2, table_sizes=(3,), teacher="expert", follow_teacher=0.0,
                      policy_weights=tiny_weights(size, spec.num_distinct_actions))
    result = play_chunk(dagger)
    assert result.decisions == len(result.samples) > 0
    assert all(len(t) == 1 and set(t) <= set(legal)
               for legal, t in zip(result.samples.legal, result.samples.target, strict=True))


def test_iteration_chunks_label_the_searchs_pick_among_the_networks_favourites() -> None:
    game = "license_to_grill"  # short games: every label costs candidates x redraws whole rollouts
    spec = get_engine(game).spec
    size = int(np.prod(spec.observation_shape))
    weights = tiny_weights(size, spec.num_distinct_actions)
    job = ChunkJob(game, "teacher", seed=3, games=1, table_sizes=(3,), teacher="iteration", redraws=1,
                   max_candidates=2, policy_weights=weights)
    a, b = play_chunk(job), play_chunk(job)
    assert a.decisions == len(a.samples) > 0 and a.samples.target == b.samples.target  # reproducible
    assert a.lookaheads > 0
    mlp = NumpyMLP(weights)
    for obs, legal, target in zip(a.samples.obs, a.samples.legal, a.samples.target, strict=True):
        (label,) = target
        favourites = [legal[i] for i in np.argsort(-mlp(obs)[0, legal], kind="stable")[:2]]
        assert label in favourites  # the search only compares the network's favourites


def test_rollout_search_keeps_the_networks_favourite_unless_another_clearly_wins() -> None:
    from workers.training.teacher import RolloutImprovement

    game = "license_to_grill"
    engine = get_engine(game)
    state = engine.new_game(3, None, 11)
    seat = state.core.seat_to_move
    legal = engine.legal_actions(state)
    assert len(legal) > 1
    bot = heuristic_bot(game, random.Random(0))
    never = RolloutImprovement(engine, bot, lambda r: heuristic_bot(game, r), random.Random(1), candidates=3,
                               redraws=2, margin=10.0)  # no candidate can beat the favourite by 10
    result = never.search(state, seat, legal)
    assert result.action == legal[0] and result.lookaheads == 2 * 3 and set(result.values) == set(legal[:3])
    eager = RolloutImprovement(engine, bot, lambda r: heuristic_bot(game, r), random.Random(1), candidates=3,
                               redraws=2, margin=-10.0)  # any candidate overrules: the best mean wins
    result = eager.search(state, seat, legal)
    assert result.values[result.action] == max(result.values.values())
    assert state.core.seat_to_move == seat and engine.legal_actions(state) == legal  # the state is untouched


def test_reinforcement_chunks_record_the_sampling_probability_and_the_games_outcome() -> None:
    game = "a_la_carte"
    engine = get_engine(game)
    spec = engine.spec
    weights = tiny_weights(int(np.prod(spec.observation_shape)), spec.num_distinct_actions, seed=4)
    job = ChunkJob(game, "reinforcement", seed=9, games=3, table_sizes=(2, 3), student_temperature=0.5,
                   policy_weights=weights)
    a, b = play_chunk(job), play_chunk(job)
    assert a.decisions == len(a.samples) == len(a.log_probs) == len(a.outcomes) > 0
    assert a.log_probs == b.log_probs and a.outcomes == b.outcomes and a.samples.target == b.samples.target
    mlp = NumpyMLP(weights)
    for obs, legal, target, log_prob in zip(a.samples.obs, a.samples.legal, a.samples.target, a.log_probs,
                                            strict=True):
        (played,) = target
        logits = mlp(obs)[0, legal] / 0.5
        expected = logits[legal.index(played)] - logits.max() - np.log(np.exp(logits - logits.max()).sum())
        assert len(legal) > 1 and abs(log_prob - expected) < 1e-4  # the probability the sampling gave it
    games = {}
    for n, share in a.outcomes:
        assert n in (2, 3) and 0.0 <= share <= 1.0
        games[n, share] = games.get((n, share), 0) + 1
    assert 1 <= len(games) <= 3  # every decision of a game carries that game's outcome


def test_advantages_centre_each_table_size_on_its_own_mean() -> None:
    from workers.training.selfplay import advantages

    outcomes = [(2, 1.0), (2, 1.0), (2, 0.0), (2, 0.0), (4, 1.0), (4, 0.0), (4, 0.0), (4, 0.0)]
    adv = advantages(outcomes)
    assert abs(adv[:4].sum()) < 1e-6 and abs(adv[4:].sum()) < 1e-6  # the baseline of each size is its own
    assert adv[0] > 0 > adv[2] and adv[4] > adv[0]  # a four-player win is the bigger surprise
    assert abs(float(adv.std()) - 1.0) < 1e-5
    assert not advantages([(3, 0.5), (3, 0.5)]).any()  # nothing to learn from equal outcomes


def test_the_placing_return_adds_the_seats_place_to_its_win_share() -> None:
    from workers.training.arena import play_out, win_shares
    from workers.training.selfplay import learner_return

    engine = get_engine("a_la_carte")
    rng = random.Random(5)
    seen_places = set()
    for _ in range(6):
        state = engine.new_game(4, None, rng.getrandbits(63))
        play_out(engine, state, [heuristic_bot("a_la_carte", rng) for _ in range(4)])
        ranks = [r.rank for r in engine.outcome(state).results]
        shares = win_shares(engine, state)
        for seat in range(4):
            assert learner_return(engine, state, seat, 0.0) == shares[seat]  # off: the win share alone
            place = learner_return(engine, state, seat, 1.0) - shares[seat]
            assert abs(place * 4 - (4 - ranks[seat]) / 3) < 1e-12  # times the table size: 1 first ... 0 last
            seen_places.add(round(place * 12))
        # a better rank never returns less
        order = sorted(range(4), key=lambda s: ranks[s])
        values = [learner_return(engine, state, s, 1.0) for s in order]
        assert values == sorted(values, reverse=True)
    assert len(seen_places) >= 3  # the games had winners, middle places and last places
    job = ChunkJob("a_la_carte", "reinforcement", seed=9, games=4, table_sizes=(4,), student_temperature=0.5,
                   policy_weights=tiny_weights(int(np.prod(engine.spec.observation_shape)),
                                               engine.spec.num_distinct_actions, seed=4), placing=1.0)
    plain = play_chunk(ChunkJob(**{**job.__dict__, "placing": 0.0}))
    placed = play_chunk(job)
    assert placed.log_probs == plain.log_probs  # the same games: only the return differs
    assert any(p > s for (_, p), (_, s) in zip(placed.outcomes, plain.outcomes, strict=True))
    assert all(p >= s for (_, p), (_, s) in zip(placed.outcomes, plain.outcomes, strict=True))


def test_a_consumer_that_stops_early_leaves_no_pool_behind(monkeypatch: pytest.MonkeyPatch) -> None:
    """A teacher round stops reading once it has its labels, with jobs of megabytes (the policy's
    weights) still in flight; terminating the pool under them hung a training run for good (its task
    thread blocked writing a job into the pipe of the workers it had killed). The pool now finishes
    the jobs in flight and closes, every time, and is never terminated."""
    import multiprocessing
    import multiprocessing.pool
    import threading

    terminated: list[object] = []
    monkeypatch.setattr(multiprocessing.pool.Pool, "terminate", lambda pool: terminated.append(pool))

    from workers.training.selfplay import run_chunks

    spec = get_engine(GAME).spec
    obs_size = int(np.prod(spec.observation_shape))
    rng = np.random.default_rng(3)
    wide = 2048  # some 3 MB of weights a job, far beyond a pipe's buffer
    weights = [(rng.normal(0, 0.01, (obs_size, wide)).astype(np.float32), np.zeros(wide, np.float32)),
               (rng.normal(0, 0.01, (wide, spec.num_distinct_actions)).astype(np.float32),
                np.zeros(spec.num_distinct_actions, np.float32))]
    jobs = (ChunkJob(GAME, "evaluation", seed=k, games=1, table_sizes=(2,), policy_weights=weights)
            for k in range(1000))
    done: list[int] = []

    def consume() -> None:
        for rounds in range(8):
            for _ in run_chunks(jobs, 2):
                break  # the first result is enough
            done.append(rounds)

    thread = threading.Thread(target=consume, daemon=True)
    thread.start()
    thread.join(120)
    assert not thread.is_alive() and len(done) == 8, "run_chunks hung after its consumer stopped"
    assert multiprocessing.active_children() == []  # every pool's workers joined
    assert terminated == []
