"""The board of revision 2 (shared/RULINGS.md, Hibachi: "the action spaces are smaller or harder
targets than the ingredient spaces, so that a free card (Bonus ingredient) is a prize of skill, not a
habit"), checked on the content and with the hit-rate measurement docs/rules/hibachi.md shows."""

from __future__ import annotations

import math

import pytest

from services.rules.games.hibachi.accuracy import hit_rates, markdown, table
from services.rules.games.hibachi.content import SKILL_SPREADS, SPACES
from services.rules.games.hibachi.geometry import INNER_MAX_X, INNER_MAX_Y, INNER_MIN_X, INNER_MIN_Y
from sizzle.games.hibachi.v1 import hibachi_pb2 as pb
from tests.rules.games.hibachi.hibachi_builders import ENGINE, action_space

THROWS = 4000
INGREDIENT_SPACES = [s.id for s in SPACES if s.kind == pb.SPACE_KIND_INGREDIENT]
ACTION_SPACES = [s.id for s in SPACES if s.kind != pb.SPACE_KIND_INGREDIENT]
BONUS_SPACE = action_space(pb.SPACE_KIND_BONUS_INGREDIENT)


def area(space: int) -> float:
    """The area of a rounded rectangle."""
    s = SPACES[space]
    r = s.corner_radius
    return 4 * s.half_width * s.half_height - (4 - math.pi) * r * r


def test_the_rules_are_revision_2() -> None:
    assert ENGINE.rules_revision == 2
    assert ENGINE.rules_version.startswith("2.")


def test_every_action_space_is_smaller_than_every_ingredient_space() -> None:
    assert max(area(s) for s in ACTION_SPACES) < 0.5 * min(area(s) for s in INGREDIENT_SPACES)


def test_the_action_spaces_lie_by_the_raised_edge_and_the_ingredient_spaces_within() -> None:
    def margin(space: int) -> float:
        """How far the space's centre lies from the nearest raised edge."""
        s = SPACES[space]
        x, y = s.centre_x, s.centre_y
        return min(x - INNER_MIN_X, INNER_MAX_X - x, y - INNER_MIN_Y, INNER_MAX_Y - y)

    assert max(margin(s) for s in ACTION_SPACES) < min(margin(s) for s in INGREDIENT_SPACES)


@pytest.mark.parametrize("skill", list(SKILL_SPREADS))
def test_at_every_skill_the_action_spaces_are_harder_targets_than_the_ingredient_spaces(skill: str) -> None:
    spread = SKILL_SPREADS[skill]
    hardest_ingredient = min(hit_rates(s, spread, THROWS).target for s in INGREDIENT_SPACES)
    easiest_action = max(hit_rates(s, spread, THROWS).target for s in ACTION_SPACES)
    assert easiest_action < hardest_ingredient - 0.15


def test_bonus_ingredient_is_a_prize_of_skill() -> None:
    rates = {skill: hit_rates(BONUS_SPACE, spread, THROWS) for skill, spread in SKILL_SPREADS.items()}
    # An expert lands there most of the time, an average thrower about a third, a novice rarely.
    assert rates["expert"].target > 0.7
    assert 0.2 < rates["average"].target < 0.5
    assert rates["novice"].target < 0.2
    # A miss can run off the board: the risk of aiming at the corner.
    assert rates["average"].off > 0.1 and rates["novice"].off > 0.3
    # Aimed at an ingredient space, an average throw stays on the board.
    assert all(hit_rates(s, SKILL_SPREADS["average"], THROWS).off < 0.05 for s in INGREDIENT_SPACES)


def test_hit_rates_add_up_and_are_reproducible() -> None:
    rates = hit_rates(BONUS_SPACE, SKILL_SPREADS["average"], 500)
    assert math.isclose(rates.target + rates.other + rates.grill + rates.off, 1.0)
    assert rates == hit_rates(BONUS_SPACE, SKILL_SPREADS["average"], 500)
    assert rates != hit_rates(BONUS_SPACE, SKILL_SPREADS["average"], 500, seed=1)


def test_the_hit_rate_table_has_a_row_per_space_and_a_column_per_skill() -> None:
    text = markdown(table(throws=50))
    lines = text.splitlines()
    assert len(lines) == 2 + len(SPACES)
    assert all(skill in lines[0] for skill in SKILL_SPREADS)
    assert lines[2 + BONUS_SPACE].startswith("| Bonus ingredient |")
