"""A plain-text table of a view for logs and terminals; once the game is over it ends with the final
standings (points, stars, rank)."""

from __future__ import annotations

from typing import Any

from services.rules.games.a_la_carte.content import (
    CONTENT,
    DIE,
    RECIPES,
    color_name,
    condiment_name,
    cup_name,
    dish_name,
)
from services.rules.games.a_la_carte.observe import end_text
from sizzle.games.a_la_carte.v1 import a_la_carte_pb2 as pb


def _needs_text(needs: tuple[int, ...]) -> str:
    wanted = ", ".join(f"{condiment_name(d)} {n}" for d, n in enumerate(needs) if n)
    return f"needs {wanted}" if wanted else "unseasoned"


def _pan_text(stove: Any) -> str:
    parts = [f"{condiment_name(d)} {n}" for d, n in enumerate(stove.pan) if n]
    if stove.salt:
        parts.append(f"salt {stove.salt}")
    return ", ".join(parts) or "nothing"


def _stove_text(stove: Any) -> str:
    if stove.crepe:
        return f"heat {stove.heat}/{CONTENT.max_heat}  Crepe (burns at {CONTENT.crepe.burnt_at})"
    if stove.dish < 0:
        return f"heat {stove.heat}/{CONTENT.max_heat}  empty pan"
    recipe = RECIPES[stove.dish]
    return (
        f"heat {stove.heat}/{CONTENT.max_heat}  {dish_name(stove.dish)} ({color_name(recipe.color)},"
        f" {recipe.points} pts; heat {recipe.heat_min}-{recipe.heat_max}, burnt at {recipe.burnt_at};"
        f" {_needs_text(recipe.needs)})  pan: {_pan_text(stove)}"
    )


def _ranks(view: Any) -> list[int]:
    keys = [(p.stars >= CONTENT.stars_to_win, p.points) for p in view.players]
    return [1 + sum(1 for other in keys if other > key) for key in keys]


def render(view: Any) -> str:
    core = view.core
    if core.game_over:
        status = "GAME OVER"
    else:
        phase = pb.Phase.Name(view.phase).removeprefix("PHASE_").lower().replace("_", " ")
        status = f"seat {core.seat_to_move} to move ({phase}, {view.actions_left} actions left"
        if view.three_spoons_taken:
            status += ", three spoons taken: no other cup"
        if view.HasField("reseasoning"):
            status += f", re-seasoning seat {view.reseasoning.seat}: {view.reseasoning.tips_left} tips left"
        status += ")"
        if view.last_round_by >= 0:
            status += f"  LAST ROUND (seat {view.last_round_by} finished a fifth dish)"
    lines = [f"A la carte  move {core.move_number}  {status}"]
    if view.last_face:
        lines[0] += f"  last roll: {DIE[view.last_face - 1].label}"
    dispensers = " | ".join(
        f"{condiment_name(d)} {dispenser.pieces}+{dispenser.salt} salt" for d, dispenser in enumerate(view.dispensers)
    )
    lines.append(f"  dispensers: {dispensers}")
    sink = ", ".join(f"{condiment_name(d)} {n}" for d, n in enumerate(view.sink) if n)
    lines.append(
        f"  sink: {sink or '-'}{f', salt {view.sink_salt}' if view.sink_salt else ''}"
        f"  | coffee tray: {sum(view.tray)} cups | stars left: {view.stars_left}"
        f" | dishes left: {len(view.supply)} | trash: {len(view.trash)}"
    )
    for p in view.players:
        you = " (you)" if p.seat == core.viewer else ""
        turn = "*" if p.seat == core.seat_to_move else " "
        cups = ", ".join(f"{cup_name(c)} x{n}" for c, n in enumerate(p.cups) if n) or "-"
        served = ", ".join(dish_name(d) for d in p.finished)
        trashed = ", ".join(dish_name(d) for d in p.trashed)
        if p.crepe == pb.CREPE_STATUS_FINISHED:
            served = f"{served}, Crepe" if served else "Crepe"
        crepe = pb.CrepeStatus.Name(p.crepe).removeprefix("CREPE_STATUS_").lower().replace("_", " ")
        lines.append(f" {turn}seat {p.seat}{you} [{p.skill}]  {_stove_text(p.stove)}")
        lines.append(
            f"      points {p.points}  stars {p.stars}  cups: {cups}  victory cups {p.victory_cups}"
            f"  crepe: {crepe}  served: {served or '-'}  trashed: {trashed or '-'}"
        )
    if core.game_over:
        lines.append(f"  {end_text(view.end, view.ended_by)}")
        lines.append("  final standings:")
        ranks = _ranks(view)
        for p in sorted(view.players, key=lambda q: (ranks[q.seat], q.seat)):
            won = "  winner" if ranks[p.seat] == 1 else ""
            stars = f"{p.stars} star{'' if p.stars == 1 else 's'}"
            lines.append(f"    rank {ranks[p.seat]}  seat {p.seat}  {p.points} points  {stars}{won}")
    return "\n".join(lines)
