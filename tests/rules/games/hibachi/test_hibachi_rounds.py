"""Beginning a new round and winning the game."""

from __future__ import annotations

from services.rules.games.hibachi.content import CONTENT, LAYOUT
from sizzle.games.hibachi.v1 import hibachi_pb2 as pb
from tests.rules.games.hibachi.hibachi_builders import (
    EGG,
    ENGINE,
    FRIED_RICE,
    ONION,
    RICE,
    give,
    ingredient_space,
    new_table,
    put_on,
    to_cleaning,
    v,
)

L = LAYOUT
EGG_SPACE = ingredient_space(pb.INGREDIENT_EGG)
RICE_SPACE = ingredient_space(pb.INGREDIENT_RICE)


def finish_round(state: object) -> None:
    """Every chef removes its chips doing nothing until the round ends."""
    start = state.round  # type: ignore[attr-defined]
    while not state.core.game_over and state.round == start:  # type: ignore[attr-defined]
        ids = ENGINE.legal_actions(state)
        ENGINE.apply(state, state.core.seat_to_move, ids[-1])  # type: ignore[attr-defined]


def simple_round(players: int = 3, head_chef: int = 0) -> object:
    state = new_table(players=players, head_chef=head_chef)
    for seat in range(players):
        put_on(state, seat, 100, RICE_SPACE, dx=-40.0 + 40.0 * seat)
    return to_cleaning(state)


def test_head_chef_passes_to_the_left_at_the_end_of_the_round() -> None:
    state = simple_round(players=3, head_chef=2)
    finish_round(state)
    assert state.round == 2 and state.head_chef == 0
    assert state.phase == pb.PHASE_THROWING and state.core.seat_to_move == 0


def test_recipes_on_show_are_refilled_to_three_at_the_end_of_the_round() -> None:
    state = simple_round()
    state.players[1].cooked.append(state.recipes_on_show.pop())
    state.players[2].cooked.append(state.recipes_on_show.pop())
    top = list(state.recipe_deck[:2])
    finish_round(state)
    assert len(state.recipes_on_show) == 3 and list(state.recipes_on_show[1:]) == top


def test_no_recipes_are_drawn_when_none_were_cooked() -> None:
    state = simple_round()
    deck = list(state.recipe_deck)
    finish_round(state)
    assert list(state.recipe_deck) == deck


def test_fewer_recipes_are_shown_when_the_deck_runs_out() -> None:
    state = simple_round()
    state.players[1].reserve.extend(state.recipe_deck)
    del state.recipe_deck[:]
    state.players[2].cooked.append(state.recipes_on_show.pop())
    finish_round(state)
    assert len(state.recipes_on_show) == 2


def test_chips_go_back_to_their_owners_for_the_next_round() -> None:
    state = simple_round()
    finish_round(state)
    for c in state.chips:
        assert c.status == pb.CHIP_STATUS_IN_SUPPLY and not c.face_up and c.arrival == -1 and c.space_bits == 0
    assert ENGINE.legal_actions(state) == sorted(
        L.throw(value, space) for value in range(L.values) for space in range(L.spaces)
    )


def three_recipe_table(money: tuple[int, int, int] = (1200, 1200, 1200)) -> object:
    """Seat 1 has cooked two recipes and can cook its third; the head chef is seat 0."""
    state = simple_round()
    others = [r for r in state.recipe_deck if r != FRIED_RICE][:2]
    for r in others:
        state.recipe_deck.remove(r)
    state.players[1].cooked.extend(others)
    if FRIED_RICE in state.recipe_deck:
        state.recipe_deck.remove(FRIED_RICE)
        state.recipe_deck.append(state.recipes_on_show.pop())
        state.recipes_on_show.append(FRIED_RICE)
    for k in (RICE, EGG, ONION):
        give(state, 1, k)
    for seat, yen in enumerate(money):
        state.players[seat].money = yen
    return state


def test_the_round_in_which_a_chef_cooks_three_recipes_is_played_to_its_end() -> None:
    state = three_recipe_table()
    put_on(state, 2, 200, EGG_SPACE).face_up = True
    ENGINE.check_invariants(state)
    ENGINE.apply(state, 0, L.nothing(v(100)))
    ENGINE.apply(state, 1, L.cook(v(100), FRIED_RICE, 0))
    assert len(state.players[1].cooked) == 3 and not state.core.game_over
    ENGINE.apply(state, 2, L.buy(v(200), EGG))  # the others still finish cleaning
    assert not state.core.game_over
    ENGINE.apply(state, 2, L.nothing(v(100)))
    assert state.core.game_over and state.core.seat_to_move == -1
    outcome = ENGINE.outcome(state)
    assert [r.rank for r in outcome.results] == [2, 1, 3]  # seat 2 spent 200 yen on the egg
    assert [r.winner for r in outcome.results] == [False, True, False]


def test_several_chefs_with_three_recipes_are_separated_by_money() -> None:
    state = three_recipe_table(money=(1200, 900, 1500))
    extra = [r for r in state.recipe_deck][:3]
    for r in extra:
        state.recipe_deck.remove(r)
    state.players[2].cooked.extend(extra)
    ENGINE.check_invariants(state)
    ENGINE.apply(state, 0, L.nothing(v(100)))
    ENGINE.apply(state, 1, L.cook(v(100), FRIED_RICE, 0))
    ENGINE.apply(state, 2, L.nothing(v(100)))
    outcome = ENGINE.outcome(state)
    assert [r.rank for r in outcome.results] == [3, 2, 1]
    assert [r.winner for r in outcome.results] == [False, False, True]


def test_a_tie_in_recipes_and_money_is_shared() -> None:
    state = three_recipe_table(money=(1200, 1500, 1500))
    extra = [r for r in state.recipe_deck][:4]
    for r in extra:
        state.recipe_deck.remove(r)
    state.players[2].cooked.extend(extra)  # four recipes count as "cooked three" too
    ENGINE.check_invariants(state)
    ENGINE.apply(state, 0, L.nothing(v(100)))
    ENGINE.apply(state, 1, L.cook(v(100), FRIED_RICE, 0))
    ENGINE.apply(state, 2, L.nothing(v(100)))
    outcome = ENGINE.outcome(state)
    assert [r.rank for r in outcome.results] == [3, 1, 1]
    assert [r.winner for r in outcome.results] == [False, True, True]


def test_the_round_safeguard_ends_an_endless_game() -> None:
    state = simple_round()
    state.round = CONTENT.max_rounds
    state.players[0].cooked.append(state.recipe_deck.pop())
    finish_round(state)
    assert state.core.game_over
    outcome = ENGINE.outcome(state)
    assert outcome.results[0].rank == 1 and "rounds" in outcome.reason


def test_a_whole_game_of_first_legal_moves_ends() -> None:
    state = ENGINE.new_game(4, {}, 3)
    steps = 0
    while not state.core.game_over:
        ENGINE.apply(state, state.core.seat_to_move, ENGINE.legal_actions(state)[0])
        steps += 1
    assert ENGINE.outcome(state) is not None and steps > 0
