"""What a registered game is: its id, name, player counts, options and tensor shapes."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from services.kit.errors import GameError
from sizzle.common.v1 import common_pb2
from sizzle.rules.v1 import rules_service_pb2


@dataclass(frozen=True)
class OptionSpec:
    """One match option: a name, what it does, its default and (when closed) its allowed values."""

    name: str
    description: str
    default: str
    allowed: tuple[str, ...] = ()

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
                raise GameError(
                    common_pb2.ERROR_REASON_INVALID_OPTION,
                    f"{self.game_id} has no option {name!r} (options: {', '.join(sorted(known)) or 'none'})",
                    {"option": name},
                )
        resolved = {}
        for option in self.options:
            value = given.get(option.name, option.default)
            if option.allowed and value not in option.allowed:
                raise GameError(
                    common_pb2.ERROR_REASON_INVALID_OPTION,
                    f"option {option.name}={value!r} is not one of {', '.join(option.allowed)}",
                    {"option": option.name},
                )
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
