"""License to Grill's invariants: every card in one place, tiles inside their areas and never
overlapping, the bitboards in step with the tiles, cubes on their tracks, a consistent turn."""

from __future__ import annotations

from typing import Any

from services.rules.games.license_to_grill import geometry as geo
from services.rules.games.license_to_grill import kitchen as kit
from services.rules.games.license_to_grill.content import CONTENT, NUM_RECIPES, RECIPES
from sizzle.games.license_to_grill.v1.license_to_grill_pb2 import (  # enum values: module globals are fast
    ACTION_KIND_UNSPECIFIED,
    COOLER_MEAT,
    COOLER_VEGGIE,
    PHASE_ADVANCE,
    PHASE_BONUS,
    PHASE_KNOB,
    PHASE_PLACE,
    PHASE_UNSPECIFIED,
    SPOT_GRILL,
    SPOT_PREPARE,
    SPOT_REST,
)

LAST_SETTING = len(CONTENT.knobs.settings) - 1


def check_invariants(state: Any) -> None:
    """Raises AssertionError when the state breaks one of the game's invariants."""
    n = state.core.num_players
    assert len(state.players) == n, "one player board per seat"
    places = [*state.meat_cooler, *state.veggie_cooler, *state.meat_on_show, *state.veggie_on_show, *state.ruined]
    for player in state.players:
        places.extend(r.card for r in player.recipes)
        places.extend(d.card for d in player.served)
    assert sorted(places) == list(range(NUM_RECIPES)), "every recipe card is in exactly one place"
    for cards, cooler in (
        (state.meat_cooler, COOLER_MEAT),
        (state.meat_on_show, COOLER_MEAT),
        (state.veggie_cooler, COOLER_VEGGIE),
        (state.veggie_on_show, COOLER_VEGGIE),
    ):
        assert all(RECIPES[c].cooler == cooler for c in cards), "a card is beside the wrong cooler"
    assert len(state.meat_on_show) <= CONTENT.on_show_per_cooler >= len(state.veggie_on_show), "too many on show"
    assert not state.meat_cooler or len(state.meat_on_show) == CONTENT.on_show_per_cooler, "a gap on show"
    assert not state.veggie_cooler or len(state.veggie_on_show) == CONTENT.on_show_per_cooler, "a gap on show"
    assert 0 <= state.meat_knob <= LAST_SETTING and 0 <= state.veggie_knob <= LAST_SETTING, "knob off its scale"
    grill = 0
    for player in state.players:
        boards = {SPOT_PREPARE: 0, SPOT_REST: 0}
        for rip in player.recipes:
            recipe = RECIPES[rip.card]
            assert 0 <= rip.prepare_cube < len(recipe.prepare), "prepare cube off its track"
            assert 0 <= rip.season_cubes <= recipe.season and 0 <= rip.sauce_cubes <= recipe.sauce, "bonus cubes"
            off = kit.offset(rip)
            if rip.spot == SPOT_GRILL:
                mask = geo.GRILL_BY_OFFSET[rip.card][off].mask
                assert not grill & mask, "tiles overlap on the grill"
                grill |= mask
                assert 0 <= rip.grill_cube < len(recipe.grill) and rip.rest_cube == -1, "grill cubes"
            else:
                by_offset = geo.PREPARE_BY_OFFSET if rip.spot == SPOT_PREPARE else geo.REST_BY_OFFSET
                mask = by_offset[rip.card][off].mask
                assert not boards[rip.spot] & mask, "tiles overlap on a player board"
                boards[rip.spot] |= mask
                if rip.spot == SPOT_PREPARE:
                    assert rip.grill_cube == -1 and rip.rest_cube == -1 and rip.sauce_cubes == 0, "prepare cubes"
                else:
                    assert 0 <= rip.grill_cube < len(recipe.grill), "a resting recipe was grilled"
                    assert 0 <= rip.rest_cube < len(recipe.rest), "rest cube off its track"
        assert player.prepare_squares == boards[SPOT_PREPARE], "Prepare squares out of step with the tiles"
        assert player.rest_squares == boards[SPOT_REST], "Rest squares out of step with the tiles"
        assert player.score == sum(d.points for d in player.served), "score is the sum of the dishes"
        assert all(d.points >= 0 for d in player.served), "a dish never scores below zero"
    table = 0
    for piece in state.table:
        mask = geo.TABLE_BY_OFFSET[n][piece.card][kit.offset(piece)].mask
        assert not table & mask, "tiles overlap on the tablecloth"
        table |= mask
    assert len(state.table) == sum(len(p.served) for p in state.players), "every served dish is on the table"
    assert state.grill_squares == grill, "grill squares out of step with the tiles"
    assert state.table_squares == table, "tablecloth squares out of step with the tiles"
    assert 0 <= state.quiet_turns <= CONTENT.stalemate_rounds * n, "quiet turns out of range"
    if not state.core.game_over:
        assert 0 <= state.actions_left <= CONTENT.actions_per_turn, "actions left"
        assert state.phase != PHASE_UNSPECIFIED, "a running game has a phase"
        pending = state.phase in (PHASE_PLACE, PHASE_KNOB)
        assert pending == (state.pending_kind != ACTION_KIND_UNSPECIFIED), "pending action and phase disagree"
        assert (state.phase == PHASE_ADVANCE) == bool(state.advance_queue), "advance queue and phase disagree"
        assert (state.phase == PHASE_BONUS) <= bool(state.bonus_icons), "bonus phase without icons"
