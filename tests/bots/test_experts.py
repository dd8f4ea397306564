"""The expert bots (training teachers): found by their naming rule, they play whole games with legal
ids only, and the same rng gives the same game. How strong they are is the tournament's business
(`python -m workers.training.tournament --hero expert`), not a unit test's."""

from __future__ import annotations

import random
from typing import Any

import pytest

from services.rules.registry import game_ids, get_engine
from workers.bots.heuristic import heuristic_class
from workers.training.experts import expert_bot, expert_class


def _play(game_id: str, players: int, seed: int) -> list[int]:
    engine = get_engine(game_id)
    rng = random.Random(seed)
    bots = [expert_bot(game_id, rng) if seat == 0 else expert_bot(game_id, random.Random(seed + seat))
            for seat in range(players)]
    state = engine.new_game(players, None, seed)
    played: list[int] = []
    while not state.core.game_over and len(played) < 5_000:
        seat = state.core.seat_to_move
        legal = engine.legal_actions(state)
        action = bots[seat].step(engine.view(state, seat), legal)
        assert action in legal, f"seat {seat} chose {action}, not among {legal}"
        engine.apply(state, seat, action)
        played.append(action)
    assert state.core.game_over, "the experts did not finish the game"
    return played


@pytest.mark.parametrize("game_id", game_ids())
def test_experts_play_whole_games_with_legal_ids_and_reproducibly(game_id: str) -> None:
    spec = get_engine(game_id).spec
    for players in {spec.min_players, spec.max_players}:
        assert _play(game_id, players, 11) == _play(game_id, players, 11)


@pytest.mark.parametrize("game_id", game_ids())
def test_a_game_without_an_expert_is_taught_by_its_heuristic(game_id: str) -> None:
    bot = expert_bot(game_id, random.Random(0))
    expected = expert_class(game_id) or heuristic_class(game_id)
    assert type(bot) is expected


# ---------------------------------------------------------------- A la carte, the card game
# Scenario tests of its expert (workers/training/experts/a_la_carte_cards.py): positions where its
# planning over the remaining turns decides otherwise than the heuristic beginner does.


def _cards_expert_step(state: Any) -> int:
    from services.rules.games.a_la_carte_cards import ENGINE
    from workers.training.experts.a_la_carte_cards import ALaCarteCardsExpert

    seat = state.core.seat_to_move
    return int(ALaCarteCardsExpert(random.Random(1)).step(ENGINE.view(state, seat), ENGINE.legal_actions(state)))


def test_cards_expert_tables_count_only_the_dishes_in_hand_at_the_end_and_grow_with_turns() -> None:
    from services.rules.games.a_la_carte_cards.scoring import hand_score
    from workers.training.experts.a_la_carte_cards import SIX, tables

    table = tables((50, 17, 33), 10)
    assert [float(v) for v in table.value[0]] == [float(hand_score(hand)) for hand in SIX]
    for turns in range(1, 11):
        # a turn more never loses what a hand holds, and brings something on average
        assert all(table.value[turns] >= table.value[turns - 1])
        assert table.value[turns].mean() > table.value[turns - 1].mean() + 0.2


def test_cards_expert_takes_a_main_course_off_the_pile() -> None:
    from services.rules.games.a_la_carte_cards.content import LAYOUT
    from tests.rules.games.a_la_carte_cards.a_la_carte_cards_positions import position

    assert _cards_expert_step(position(["AAADDD", "AAADDD"], pile="M")) == LAYOUT.take_discard
    assert _cards_expert_step(position(["AAADDD", "AAADDD"], pile="A")) == LAYOUT.draw_from_deck


def test_cards_expert_draws_blind_rather_than_take_an_appetizer_that_comes_anyway() -> None:
    # A M M D D D with an appetizer on the pile: taking it serves two Classic meals now (the
    # heuristic takes it), but half the deck is appetizers and a sixth main courses, and a third main
    # course in hand is worth more than serving its second dish a turn earlier.
    from services.rules.games.a_la_carte_cards.content import LAYOUT
    from tests.rules.games.a_la_carte_cards.a_la_carte_cards_positions import position
    from workers.bots.heuristic.a_la_carte_cards import ALaCarteCardsHeuristic

    state = position(["AMMDDD", "AAADDD", "AAADDD", "AAADDD"], pile="A", round_=4)
    assert _cards_expert_step(state) == LAYOUT.draw_from_deck
    from services.rules.games.a_la_carte_cards import ENGINE

    heuristic = ALaCarteCardsHeuristic(random.Random(1))
    assert heuristic.step(ENGINE.view(state, 0), ENGINE.legal_actions(state)) == LAYOUT.take_discard


def test_cards_expert_keeps_appetizers_which_either_dish_takes() -> None:
    # A A A A D D D after a draw, nothing to serve: the heuristic discards an appetizer (the
    # commonest card); the expert a dessert, since Break the rules takes two appetizers.
    from services.rules.games.a_la_carte_cards.content import LAYOUT
    from sizzle.games.a_la_carte_cards.v1 import a_la_carte_cards_pb2 as pb
    from tests.rules.games.a_la_carte_cards.a_la_carte_cards_positions import position

    state = position(["AAAADDD", "AAADDD"], pile="A", phase=pb.PHASE_SERVE, round_=3)
    assert _cards_expert_step(state) == LAYOUT.discard_base + 2  # a dessert


def test_cards_expert_keeps_a_main_course_from_its_only_rival() -> None:
    # A M M M M D D after a restock, two turns left: the fourth main course is worth least to its
    # own hand, but on the pile it is nearly a dish to the next seat. At two players that seat is the
    # only rival and a dessert goes; at three players the main course goes.
    from services.rules.games.a_la_carte_cards.content import LAYOUT
    from sizzle.games.a_la_carte_cards.v1 import a_la_carte_cards_pb2 as pb
    from tests.rules.games.a_la_carte_cards.a_la_carte_cards_positions import position

    def discard(players: int) -> int:
        state = position(["AMMMMDD"] + ["AAADDD"] * (players - 1), pile="A", phase=pb.PHASE_DISCARD,
                         served_this_turn=1, served=[[1, 0]] + [[0, 0]] * (players - 1), round_=9)
        return _cards_expert_step(state)

    assert discard(2) == LAYOUT.discard_base + 2  # a dessert
    assert discard(3) == LAYOUT.discard_base + 1  # a main course
