"""What a registered game is: its id, name, player counts, options and tensor shapes."""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from services.kit.errors import GameError
from sizzle.common.v1 import common_pb2
from sizzle.rules.v1 import rules_service_pb2

MAX_OPTION_CHARS = 64  # no option value of any game is longer
# A numeric option's value: plain ASCII decimal digits with an optional fraction, as every client
# reads it alike (float() would also take "1_0", " 5 ", other scripts' digits and exponents).
DECIMAL = re.compile(r"[0-9]+(\.[0-9]+)?", re.ASCII)


@dataclass(frozen=True)
class OptionSpec:
    """One match option: a name, what it does, its default and (when closed) its allowed values."""

    name: str
    description: str
    default: str
    allowed: tuple[str, ...] = ()
    # A free-form numeric option's bounds (inclusive): a value outside them, or no finite number, is
    # refused at creation. An empty value stays allowed when the default is empty (the option unset).
    minimum: float | None = None
    maximum: float | None = None

    def check(self, value: str) -> None:
        """Refuses a value this option cannot take (INVALID_OPTION)."""
        if self.allowed and value not in self.allowed:
            shown = value if len(value) <= 24 else value[:24] + "..."
            raise GameError(common_pb2.ERROR_REASON_INVALID_OPTION,
                            f"option {self.name}={shown!r} is not one of {', '.join(self.allowed)}",
                            {"option": self.name})
        if self.minimum is None and self.maximum is None or (value == "" and self.default == ""):
            return
        number = float(value) if DECIMAL.fullmatch(value) else math.nan
        low = -math.inf if self.minimum is None else self.minimum
        high = math.inf if self.maximum is None else self.maximum
        if not (math.isfinite(number) and low <= number <= high):
            shown = value if len(value) <= 24 else value[:24] + "..."
            raise GameError(common_pb2.ERROR_REASON_INVALID_OPTION,
                            f"option {self.name}={shown!r} is not a decimal number from {low:g} to {high:g}",
                            {"option": self.name})

    def to_proto(self) -> rules_service_pb2.OptionSpec:
        return rules_service_pb2.OptionSpec(
            name=self.name, description=self.description, default_value=self.default, allowed_values=self.allowed
        )


@dataclass(frozen=True)
class GameSpec:
    """The registry's entry for a game."""

    game_id: str
    display_name: str
    min_players: int
    max_players: int
    num_distinct_actions: int
    observation_shape: tuple[int, ...]
    options: tuple[OptionSpec, ...] = field(default=())

    def check_player_count(self, num_players: int) -> None:
        if not self.min_players <= num_players <= self.max_players:
            raise GameError(
                common_pb2.ERROR_REASON_INVALID_PLAYER_COUNT,
                f"{self.display_name} is for {self.min_players} to {self.max_players} players, not {num_players}",
                {"min_players": str(self.min_players), "max_players": str(self.max_players)},
            )

    def resolve_options(self, options: Mapping[str, str] | None) -> dict[str, str]:
        """All options with defaults filled in; unknown names and closed-set values are refused."""
        given = dict(options or {})
        known = {o.name: o for o in self.options}
        for name in given:
            if name not in known:
                shown = name if len(name) <= 24 else name[:24] + "..."
                raise GameError(
                    common_pb2.ERROR_REASON_INVALID_OPTION,
                    f"{self.game_id} has no option {shown!r} (options: {', '.join(sorted(known)) or 'none'})",
                    {"option": shown},
                )
        resolved = {}
        for option in self.options:
            value = given.get(option.name, option.default)
            if len(value) > MAX_OPTION_CHARS:
                raise GameError(common_pb2.ERROR_REASON_INVALID_OPTION,
                                f"option {option.name} is longer than {MAX_OPTION_CHARS} characters",
                                {"option": option.name})
            option.check(value)
            resolved[option.name] = value
        return resolved

    def to_proto(self, state_type: str, action_type: str, view_type: str) -> rules_service_pb2.GameSpec:
        return rules_service_pb2.GameSpec(
            game_id=self.game_id,
            display_name=self.display_name,
            min_players=self.min_players,
            max_players=self.max_players,
            options=[o.to_proto() for o in self.options],
            num_distinct_actions=self.num_distinct_actions,
            observation_shape=list(self.observation_shape),
            state_type=state_type,
            action_type=action_type,
            view_type=view_type,
        )
