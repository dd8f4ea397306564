"""Season actions: one tip of one dispenser over the own pan; pieces drawn from what it holds (salt
included), the count shaped by skill and fill; which dispensers a chef may use; refilling from the sink."""

from __future__ import annotations

from collections import Counter

from services.rules.games.a_la_carte.content import SKILLS
from services.rules.games.a_la_carte.kitchen import tip
from services.rules.random_source import RandomSource, seed_random
from sizzle.common.v1 import common_pb2
from sizzle.games.a_la_carte.v1 import a_la_carte_pb2 as pb
from tests.rules.games.a_la_carte.scenario import (
    BREAKFAST_FIDEL,
    ENGINE,
    HIPPO,
    LEMON,
    OCTOPUS,
    PEPPER,
    L,
    force,
    kitchen,
    put_dish,
    texts,
)


def _source(seed: int) -> RandomSource:
    random_state = common_pb2.RandomState()
    seed_random(random_state, seed)
    return RandomSource(random_state)


def test_season_tips_one_dispenser_into_the_own_pan() -> None:
    state = kitchen()
    after, events = force(state, L.season_base + PEPPER, lambda s: s.players[0].stove.pan[PEPPER] == 1)
    assert after.dispensers[PEPPER].pieces + after.dispensers[PEPPER].salt < 20
    assert after.players[1].stove.pan[PEPPER] == 0, "only the own pan"
    assert after.actions_left == 2, "a season action costs one spoon"
    assert "pepper dispenser" in texts(events)


def test_season_salt_can_fall_out_of_any_dispenser() -> None:
    state = kitchen()
    after, _ = force(state, L.season_base + PEPPER, lambda s: s.players[0].stove.salt >= 1)
    assert after.dispensers[PEPPER].salt < 5


def test_season_sometimes_nothing_falls() -> None:
    after, events = force(kitchen(), L.season_base + PEPPER, lambda s: not any(s.players[0].stove.pan)
                          and s.players[0].stove.salt == 0)
    assert after.actions_left == 2 and "nothing falls" in texts(events)


def test_season_pieces_are_drawn_from_what_the_dispenser_holds() -> None:
    state = kitchen()
    state.dispensers[PEPPER].salt, state.sink_salt = 0, 5  # a dispenser with no salt left
    for counter in range(200):
        state.core.random.counter = counter
        trial = pb.State()
        trial.CopyFrom(state)
        ENGINE.apply(trial, 0, L.season_base + PEPPER)
        assert trial.players[0].stove.salt == 0


def test_season_tip_count_follows_the_skill() -> None:
    rng = _source(3)
    means = {}
    for index, skill in enumerate(SKILLS):
        counts: Counter[int] = Counter()
        for _ in range(4000):
            dispenser = pb.Dispenser(condiment=pb.CONDIMENT_PEPPER, pieces=15, salt=5)
            counts[sum(tip(rng, index, dispenser))] += 1
        weights = list(skill.tip_bands[-1].weights)
        expected_one = weights[1] / sum(weights)
        assert abs(counts[1] / 4000 - expected_one) < 0.03, skill.name
        means[skill.name] = sum(k * v for k, v in counts.items()) / 4000
    assert means["expert"] < means["average"] < means["novice"], "experts pour more carefully"


def test_season_tip_count_depends_on_how_full_the_dispenser_is() -> None:
    rng = _source(5)
    full = sum(sum(tip(rng, 0, pb.Dispenser(pieces=15, salt=5))) for _ in range(3000))
    low = sum(sum(tip(rng, 0, pb.Dispenser(pieces=3, salt=1))) for _ in range(3000))
    assert low < full


def test_season_never_pours_more_than_the_dispenser_holds() -> None:
    rng = _source(9)
    for _ in range(500):
        dispenser = pb.Dispenser(pieces=1, salt=0)
        pieces, salt = tip(rng, 0, dispenser)
        assert pieces + salt <= 1 and dispenser.pieces == 1 - pieces


def test_season_skill_is_per_seat() -> None:
    state = kitchen(options={"seat_skills": "novice,expert"})
    assert [p.skill for p in state.players] == [0, 2]


def test_season_only_with_condiments_of_the_recipe() -> None:
    state = kitchen()  # Hippo in Burgundy: pepper 2, lemon 1
    seasons = [a - L.season_base for a in ENGINE.legal_actions(state) if L.season_base <= a < L.choose_heat_base]
    assert seasons == [LEMON, PEPPER]


def test_season_not_once_two_pieces_of_that_condiment_are_in_the_pan() -> None:
    state = kitchen()
    put_dish(state, 0, HIPPO, pan={PEPPER: 2, LEMON: 1})
    seasons = [a - L.season_base for a in ENGINE.legal_actions(state) if L.season_base <= a < L.choose_heat_base]
    assert seasons == [LEMON], "more lemon may be added; a third pepper may not"


def test_season_unseasoned_dish_cannot_be_seasoned() -> None:
    state = kitchen(dishes=(BREAKFAST_FIDEL, OCTOPUS))
    assert ENGINE.legal_actions(state) == [L.roll]


def test_season_not_from_an_empty_dispenser() -> None:
    state = kitchen()
    state.sink[LEMON], state.dispensers[LEMON].pieces = 15, 0
    state.sink_salt, state.dispensers[LEMON].salt = 5, 0
    assert L.season_base + LEMON not in ENGINE.legal_actions(state)


def test_refill_dispenser_with_only_salt_left_from_the_sink() -> None:
    state = kitchen(dishes=(HIPPO, OCTOPUS))
    # The pepper dispenser holds one pepper and one salt; four pepper and three salt lie in the sink.
    state.dispensers[PEPPER].pieces, state.dispensers[PEPPER].salt = 1, 1
    state.sink[PEPPER] = 14
    state.sink_salt = 4
    after, events = force(state, L.season_base + PEPPER,
                          lambda s: s.players[0].stove.pan[PEPPER] == 1 and s.players[0].stove.salt == 0)
    dispenser = after.dispensers[PEPPER]
    assert dispenser.pieces == 14 and after.sink[PEPPER] == 0, "every pepper piece in the sink goes back"
    assert dispenser.salt == 5 and after.sink_salt == 0, "salt is topped back up to five"
    assert "refilled" in texts(events)


def test_refill_with_less_salt_when_the_sink_has_too_little() -> None:
    state = kitchen(dishes=(HIPPO, OCTOPUS))
    state.dispensers[PEPPER].pieces, state.dispensers[PEPPER].salt = 1, 0
    state.sink[PEPPER], state.sink_salt = 14, 3
    state.players[1].stove.salt = 2  # the other two salt crystals are in Octopus's pan
    ENGINE.check_invariants(state)
    after, _ = force(state, L.season_base + PEPPER,
                     lambda s: s.players[0].stove.pan[PEPPER] == 1 and s.players[0].stove.salt == 0)
    assert after.dispensers[PEPPER].pieces == 14 and after.dispensers[PEPPER].salt == 3
    assert after.sink_salt == 0


def test_refill_waits_while_the_sink_has_none_of_its_colour() -> None:
    state = kitchen(dishes=(HIPPO, OCTOPUS))
    state.dispensers[PEPPER].pieces, state.dispensers[PEPPER].salt = 1, 5
    state.players[1].stove.pan[PEPPER] = 14  # every other pepper piece is in Octopus's pan
    ENGINE.check_invariants(state)
    after, _ = force(state, L.season_base + PEPPER,
                     lambda s: s.players[0].stove.pan[PEPPER] == 1 and s.players[0].stove.salt == 0)
    assert after.dispensers[PEPPER].pieces == 0 and after.dispensers[PEPPER].salt == 5
