"""Setting up License to Grill positions by hand for the scenario tests.

A position starts from a real new game (so every card is somewhere) and is rearranged: recipes are
handed to players with their tiles and cubes, the display is chosen, dishes are put on the table.
`ready` rebuilds the taken-squares bitboards and checks the engine's invariants."""

from __future__ import annotations

from typing import Any

from services.rules.games.license_to_grill import ENGINE
from services.rules.games.license_to_grill import kitchen as kit
from services.rules.games.license_to_grill.content import CONTENT, LAYOUT, RECIPES
from sizzle.games.license_to_grill.v1 import license_to_grill_pb2 as pb

# Recipes the tests use, by shape and colour (ids in content.txtpb).
RIBEYE = 0  # red 2x2 square, season 1, sauce 0, rest rises
FILET = 3  # red domino
BURGER = 4  # red 2x2, season 1, sauce 1
PORTERHOUSE = 2  # red P pentomino (5 squares)
HOT_DOGS = 6  # red I tetromino, no season
SALMON = 17  # red L tetromino, short prepare track [2, 1, -1]
SHRIMP = 18  # red domino, grill track [1, 3, 2, -1]
PAELLA = 20  # yellow U pentomino
CORNBREAD = 35  # yellow 2x2
BEANS = 37  # yellow L tromino
CORN = 23  # green I tetromino
PORTOBELLO = 24  # green 2x2, season 2, sauce 1
HALLOUMI = 29  # green domino, rest track [2, 0]

MEAT, VEGGIE = pb.GRILL_SIDE_MEAT, pb.GRILL_SIDE_VEGGIE


def new(num_players: int = 3, seed: int = 1) -> Any:
    return ENGINE.new_game(num_players, {}, seed)


def _pull(state: Any, card: int) -> None:
    """Takes a card out of its cooler deck, off the display (refilling its place) or off the ruined pile."""
    meat = RECIPES[card].cooler == pb.COOLER_MEAT
    deck = state.meat_cooler if meat else state.veggie_cooler
    shown = state.meat_on_show if meat else state.veggie_on_show
    if card in deck:
        deck.remove(card)
    elif card in state.ruined:
        state.ruined.remove(card)
    elif card in shown:
        index = list(shown).index(card)
        if deck:
            shown[index] = deck.pop(0)
        else:
            del shown[index]
    else:
        raise ValueError(f"card {card} is already in play")


def show(state: Any, meat: list[int] | None = None, veggie: list[int] | None = None) -> None:
    """Puts exactly these cards on show (the cards on show now go back under their cooler deck)."""
    for cards, shown, deck in (
        (meat, state.meat_on_show, state.meat_cooler),
        (veggie, state.veggie_on_show, state.veggie_cooler),
    ):
        if cards is None:
            continue
        deck.extend(shown)
        del shown[:]
        for card in cards:
            deck.remove(card)
        shown.extend(cards)


def empty_cooler(state: Any, meat: bool = True, veggie: bool = True) -> None:
    """Moves the whole deck (not the cards on show) of a cooler to the ruined pile."""
    for flag, deck in ((meat, state.meat_cooler), (veggie, state.veggie_cooler)):
        if flag:
            state.ruined.extend(deck)
            del deck[:]


def give(
    state: Any,
    seat: int,
    card: int,
    spot: int,
    rotation: int = 0,
    row: int = 0,
    col: int = 0,
    *,
    prepare_cube: int = 0,
    grill_cube: int = -1,
    rest_cube: int = -1,
    season: int = 0,
    sauce: int = 0,
    grilled_this_turn: bool = False,
) -> Any:
    """Hands `card` to `seat` with its tile at `spot` (grilling and resting recipes get cubes on
    their first spaces unless told)."""
    _pull(state, card)
    if spot in (pb.SPOT_GRILL, pb.SPOT_REST) and grill_cube < 0:
        grill_cube = 0
    if spot == pb.SPOT_REST and rest_cube < 0:
        rest_cube = 0
    return state.players[seat].recipes.add(
        card=card,
        spot=spot,
        rotation=rotation,
        row=row,
        col=col,
        prepare_cube=prepare_cube,
        grill_cube=grill_cube,
        rest_cube=rest_cube,
        season_cubes=season,
        sauce_cubes=sauce,
        grilled_this_turn=grilled_this_turn,
    )


def served(state: Any, seat: int, card: int, points: int, rotation: int = 0, row: int = 0, col: int = 0) -> None:
    """Puts a dish `seat` served on the tablecloth."""
    _pull(state, card)
    state.table.add(seat=seat, card=card, rotation=rotation, row=row, col=col)
    state.players[seat].served.add(card=card, points=points)
    state.players[seat].score += points


def to_move(state: Any, seat: int, phase: int = pb.PHASE_ACTION, actions_left: int | None = None) -> None:
    state.core.seat_to_move = seat
    state.phase = phase
    state.actions_left = CONTENT.actions_per_turn if actions_left is None else actions_left
    state.pending_kind = pb.ACTION_KIND_UNSPECIFIED
    del state.bonus_icons[:]
    del state.advance_queue[:]


def ready(state: Any) -> Any:
    kit.settle_squares(state)
    ENGINE.check_invariants(state)
    return state


def act(state: Any, action: pb.Action) -> list[Any]:
    return ENGINE.apply(state, state.core.seat_to_move, action)


def choose(kind: str, card: int) -> pb.Action:
    return pb.Action(**{kind: pb.ChooseRecipe(card=card)})


def place(rotation: int, row: int, col: int) -> pb.Action:
    return pb.Action(place=pb.Place(rotation=rotation, row=row, col=col))


def legal(state: Any) -> list[pb.Action]:
    seat = state.core.seat_to_move
    return [ENGINE.id_to_action(state, seat, a) for a in ENGINE.legal_actions(state)]


def legal_kinds(state: Any) -> set[str]:
    return {a.WhichOneof("kind") for a in legal(state)}


def legal_cards(state: Any, kind: str) -> set[int]:
    return {getattr(a, kind).card for a in legal(state) if a.WhichOneof("kind") == kind}


def legal_places(state: Any) -> set[tuple[int, int, int]]:
    return {(a.place.rotation, a.place.row, a.place.col) for a in legal(state) if a.WhichOneof("kind") == "place"}


def is_legal(state: Any, action: pb.Action) -> bool:
    return ENGINE.structured_is_legal(state, state.core.seat_to_move, action)


def finish_turn(state: Any) -> list[Any]:
    """Ends the turn of the seat to move through the rules, as if its actions were spent."""
    to_move(state, state.core.seat_to_move, pb.PHASE_FREE_MOVES, actions_left=0)
    return act(state, pb.Action(end_turn=pb.EndTurn()))


def start_turn_of(state: Any, seat: int) -> list[Any]:
    """Lets the seat before `seat` end its turn, so that `seat`'s turn starts (and its tracks advance)."""
    n = state.core.num_players
    to_move(state, (seat - 1) % n, pb.PHASE_FREE_MOVES, actions_left=0)
    return act(state, pb.Action(end_turn=pb.EndTurn()))


__all__ = ["ENGINE", "LAYOUT", "pb"]
