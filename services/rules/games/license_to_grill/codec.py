"""License to Grill's action codec: dense ids <-> structured actions, and actions in plain words.

The layout is `content.ActionLayout`. Decoding is pure arithmetic; encoding a placement reads the
pending card (both the State and every View carry it) to map a rotation that gives the same shape as
a lower one (a square tile turned once) to that lower rotation, the one the legal ids use.
"""

from __future__ import annotations

from typing import Any

from services.rules.games.license_to_grill import geometry as geo
from services.rules.games.license_to_grill import kitchen as kit
from services.rules.games.license_to_grill.content import (
    CHOOSE_KINDS,
    CONTENT,
    LAYOUT,
    NUM_RECIPES,
    ROTATIONS,
    kind_name,
    recipe_name,
    side_name,
)
from sizzle.games.license_to_grill.v1 import license_to_grill_pb2 as pb
from sizzle.games.license_to_grill.v1.license_to_grill_pb2 import (  # enum values: module globals are fast
    ACTION_KIND_UNSPECIFIED,
    GRILL_SIDE_MEAT,
    GRILL_SIDE_VEGGIE,
)

CHOOSE_FIELDS: dict[str, int] = {kind_name(k): k for k in CHOOSE_KINDS}
CHOOSE_FIELD_NAMES: tuple[str, ...] = tuple(kind_name(k) for k in CHOOSE_KINDS)
KNOB_SIDES = (GRILL_SIDE_MEAT, GRILL_SIDE_VEGGIE)
CLICKS = CONTENT.knobs.clicks_per_grill
PLACE_BASE = LAYOUT.place_base
PLACE_END = PLACE_BASE + LAYOUT.place_size
PLACE_PLANE = LAYOUT.place_rows * LAYOUT.place_cols
TURN_KNOB_BASE = LAYOUT.turn_knob_base
LEAVE_KNOBS = LAYOUT.leave_knobs
CHOOSE_KNOB_BASE = LAYOUT.choose_knob_base
SKIP_BONUS = LAYOUT.skip_bonus
END_TURN = LAYOUT.end_turn


def turn_knob_id(side: int, clicks: int) -> int:
    return TURN_KNOB_BASE + 2 * KNOB_SIDES.index(side) + (1 if clicks > 0 else 0)


def id_to_action(action_id: int) -> pb.Action:
    """The structured action of an id (pure arithmetic: no state needed)."""
    if action_id < PLACE_BASE:
        block, card = divmod(action_id, NUM_RECIPES)
        return pb.Action(**{CHOOSE_FIELD_NAMES[block]: pb.ChooseRecipe(card=card)})
    if action_id < PLACE_END:
        rest = action_id - PLACE_BASE
        rotation, rest = divmod(rest, PLACE_PLANE)
        row, col = divmod(rest, LAYOUT.place_cols)
        return pb.Action(place=pb.Place(rotation=rotation, row=row, col=col))
    if action_id < LEAVE_KNOBS:
        index = action_id - TURN_KNOB_BASE
        return pb.Action(turn_knob=pb.TurnKnob(side=KNOB_SIDES[index // 2], clicks=CLICKS if index % 2 else -CLICKS))
    if action_id == LEAVE_KNOBS:
        return pb.Action(leave_knobs=pb.LeaveKnobs())
    if action_id < SKIP_BONUS:
        return pb.Action(choose_knob=pb.ChooseKnob(side=KNOB_SIDES[action_id - CHOOSE_KNOB_BASE]))
    if action_id == SKIP_BONUS:
        return pb.Action(skip_bonus=pb.SkipBonus())
    return pb.Action(end_turn=pb.EndTurn())


def action_to_id(position: Any, action: Any) -> int | None:
    """The id of a structured action, or None. Reads only the pending card (State and View have it)."""
    kind = action.WhichOneof("kind")
    if kind is None:
        return None
    if kind in CHOOSE_FIELDS:
        card = getattr(action, kind).card
        return kit.BASE[CHOOSE_FIELDS[kind]] + card if 0 <= card < NUM_RECIPES else None
    if kind == "place":
        place = action.place
        if not (0 <= place.rotation < ROTATIONS and 0 <= place.row < LAYOUT.place_rows):
            return None
        if not 0 <= place.col < LAYOUT.place_cols:
            return None
        rotation = place.rotation
        if position.pending_kind != ACTION_KIND_UNSPECIFIED and 0 <= position.pending_card < NUM_RECIPES:
            # A turn that gives the same shape is the same placement (a square tile turned once).
            rotation = geo.CANONICAL_ROTATION[position.pending_card][rotation]
        return PLACE_BASE + LAYOUT.place_offset(rotation, place.row, place.col)
    if kind == "turn_knob":
        knob = action.turn_knob
        if knob.side not in KNOB_SIDES or knob.clicks not in (-CLICKS, CLICKS):
            return None
        return turn_knob_id(knob.side, knob.clicks)
    if kind == "leave_knobs":
        return LEAVE_KNOBS
    if kind == "choose_knob":
        side = action.choose_knob.side
        return CHOOSE_KNOB_BASE + KNOB_SIDES.index(side) if side in KNOB_SIDES else None
    if kind == "skip_bonus":
        return SKIP_BONUS
    return END_TURN


def describe_action(position: Any, action: Any) -> str:
    """The action in plain words (reads only the pending action, which State and View both have)."""
    kind = action.WhichOneof("kind")
    if kind in CHOOSE_FIELDS:
        card = getattr(action, kind).card
        verb = "free move of" if kind == "move" else kind
        return f"{verb} {recipe_name(card)}"
    if kind == "place":
        p = action.place
        what = recipe_name(position.pending_card) if position.pending_kind else "the tile"
        target = {
            kit.PREPARE: "the Prepare area",
            kit.GRILL: "the grill",
            kit.MOVE: "the grill",
            kit.REST: "the Rest area",
            kit.SERVE: "the tablecloth",
        }.get(position.pending_kind, "its area")
        return f"put {what} on {target}, {p.rotation} quarter turn(s), row {p.row}, col {p.col}"
    if kind == "turn_knob":
        k = action.turn_knob
        return f"turn the {side_name(k.side)} knob {'up' if k.clicks > 0 else 'down'}"
    if kind == "leave_knobs":
        return "leave the knobs"
    if kind == "choose_knob":
        return f"cook with the {side_name(action.choose_knob.side)} knob"
    if kind == "skip_bonus":
        return "give up the covered icons"
    return "end the turn"
