"""Statistical tests of the simulated throw, with fixed seeds: spread by skill, accuracy at a space's
centre, the face-up rate, pushes never leaving chips overlapping, and reproducibility."""

from __future__ import annotations

import math
import random
import statistics

from services.rules.games.hibachi.content import CONTENT, SKILL_SPREADS, SPACES
from services.rules.games.hibachi.geometry import CHIP_DIAMETER, spaces_under_hole
from services.rules.games.hibachi.throwing import draw_landing
from services.rules.random_source import RandomSource, seed_random
from sizzle.common.v1 import common_pb2
from sizzle.games.hibachi.v1 import hibachi_pb2 as pb
from tests.rules.games.hibachi.hibachi_builders import ENGINE, chip, ingredient_space, new_table, throw_at

EGG_SPACE = ingredient_space(pb.INGREDIENT_EGG)
THROWS = 3000


def source(seed: int) -> RandomSource:
    state = common_pb2.RandomState()
    seed_random(state, seed)
    return RandomSource(state)


def landings(skill: str, aim: tuple[float, float], seed: int = 42) -> list[tuple[float, float]]:
    rng = source(seed)
    return [draw_landing(*aim, SKILL_SPREADS[skill], rng) for _ in range(THROWS)]


def test_spread_of_landings_grows_as_skill_falls() -> None:
    aim = (SPACES[EGG_SPACE].centre_x, SPACES[EGG_SPACE].centre_y)
    rms = {}
    for skill in ("expert", "average", "novice"):
        points = landings(skill, aim)
        rms[skill] = math.sqrt(statistics.fmean(math.dist(p, aim) ** 2 for p in points))
        # Normal noise on each axis: the root mean square miss is sqrt(2) spreads (within 5%).
        assert abs(rms[skill] / (math.sqrt(2) * SKILL_SPREADS[skill]) - 1.0) < 0.05
        # Centred on the aim: no bias on either axis.
        assert abs(statistics.fmean(p[0] for p in points) - aim[0]) < 0.1 * SKILL_SPREADS[skill]
        assert abs(statistics.fmean(p[1] for p in points) - aim[1]) < 0.1 * SKILL_SPREADS[skill]
    assert rms["expert"] < rms["average"] < rms["novice"]


def hit_rate(skill: str, space: int) -> float:
    aim = (SPACES[space].centre_x, SPACES[space].centre_y)
    return statistics.fmean(1.0 if space in spaces_under_hole(*p) else 0.0 for p in landings(skill, aim, seed=7))


def test_aim_at_a_space_centre_lands_on_it_most_of_the_time_at_average_skill() -> None:
    assert hit_rate("average", EGG_SPACE) > 0.75
    assert hit_rate("expert", EGG_SPACE) > 0.97
    assert hit_rate("novice", EGG_SPACE) < hit_rate("average", EGG_SPACE)


def test_whole_throws_hit_the_aimed_space_more_often_with_more_skill() -> None:
    hits = {}
    for skill in ("novice", "expert"):
        count = 0
        for seed in range(300):
            state = new_table(players=2, seed=seed, skill=skill)
            throw_at(state, 0, 100, SPACES[EGG_SPACE].centre_x, SPACES[EGG_SPACE].centre_y)
            count += chip(state, 0, 100).space_bits >> EGG_SPACE & 1
        hits[skill] = count / 300
    assert hits["expert"] > hits["novice"] + 0.2


def test_chips_land_face_up_with_the_contents_small_probability() -> None:
    face_up = 0
    trials = 2000
    for seed in range(trials):
        state = new_table(players=2, seed=seed)
        throw_at(state, 0, 100, SPACES[EGG_SPACE].centre_x, SPACES[EGG_SPACE].centre_y)
        face_up += chip(state, 0, 100).face_up
    p = CONTENT.throw_model.face_up_probability
    tolerance = 4 * math.sqrt(p * (1 - p) / trials)
    assert abs(face_up / trials - p) < tolerance


def test_pushes_keep_chips_from_overlapping() -> None:
    rng = random.Random(3)
    pushes = 0
    for seed in range(150):
        players = rng.choice([2, 3, 4])
        state = ENGINE.new_game(players, {"skill": rng.choice(["novice", "average", "expert"])}, seed)
        while state.phase == pb.PHASE_THROWING:
            # Everyone aims at the same two spaces: a crowded board.
            space = EGG_SPACE if rng.random() < 0.7 else EGG_SPACE + 1
            ids = [a for a in ENGINE.legal_actions(state) if a % len(SPACES) == space]
            events = ENGINE.apply(state, state.core.seat_to_move, rng.choice(ids))
            pushes += sum("knocks" in e.text for e in events)
            on_board = [c for c in state.chips if c.status == pb.CHIP_STATUS_ON_BOARD]
            for i, a in enumerate(on_board):
                for b in on_board[i + 1 :]:
                    assert math.dist((a.x, a.y), (b.x, b.y)) >= CHIP_DIAMETER
    assert pushes > 100  # the check bit: many throws did knock chips around


def test_throws_are_reproducible_from_the_seed() -> None:
    def play(seed: int) -> list[tuple[float, float]]:
        state = new_table(players=3, seed=seed)
        rng = random.Random(1)
        while state.phase == pb.PHASE_THROWING:
            ENGINE.apply(state, state.core.seat_to_move, rng.choice(ENGINE.legal_actions(state)))
        return [(c.x, c.y) for c in state.chips]

    assert play(9) == play(9)
    assert play(9) != play(10)
