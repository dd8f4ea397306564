"""The match options that set each seat's skill: `skill` for every seat, `seat_skills` to override it
seat by seat. Skill names map to distributions in the content's `skills`."""

from __future__ import annotations

from collections.abc import Mapping

from services.kit.errors import GameError
from services.rules.games.a_la_carte.content import CONTENT, SKILL_NAMES
from services.rules.spec import OptionSpec
from sizzle.common.v1 import common_pb2

OPTIONS = (
    OptionSpec(
        "skill",
        "How skilled every chef is at tipping dispensers and flipping crepes",
        CONTENT.default_skill,
        SKILL_NAMES,
    ),
    OptionSpec(
        "seat_skills",
        "Comma-separated skill per seat overriding `skill` (e.g. \"expert,,novice\"; blank keeps `skill`)",
        "",
    ),
)


def seat_skills(options: Mapping[str, str], num_players: int) -> list[int]:
    """The skill index of every seat; refuses unknown names and more entries than seats."""
    default = SKILL_NAMES.index(options["skill"])
    skills = [default] * num_players
    text = options.get("seat_skills", "").strip()
    if not text:
        return skills
    entries = [entry.strip() for entry in text.split(",")]
    if len(entries) > num_players:
        raise GameError(
            common_pb2.ERROR_REASON_INVALID_OPTION,
            f"seat_skills names {len(entries)} seats but the table has {num_players}",
            {"option": "seat_skills"},
        )
    for seat, entry in enumerate(entries):
        if not entry:
            continue
        if entry not in SKILL_NAMES:
            raise GameError(
                common_pb2.ERROR_REASON_INVALID_OPTION,
                f"seat_skills: {entry!r} is not one of {', '.join(SKILL_NAMES)}",
                {"option": "seat_skills"},
            )
        skills[seat] = SKILL_NAMES.index(entry)
    return skills
