"""The shared base of every rules engine.

An engine is pure: no I/O, no clock, no global random. The base class owns the checks every game
shares (game over, seat range, turn order, action range and legality) so they are written once;
a game's hooks only compute legal actions and mutate the state after the checks passed.

The action codec (`id_to_action`, `action_to_id`) and `describe_action` receive either the state
or the acting seat's view, and read only fields both have (`core.num_players`, the phase, ...), so a
bot holding only its view can decode ids too.

State, Action and View are the game's proto messages. Every State has `sizzle.common.v1.CoreState
core = 1` and every View `sizzle.common.v1.CoreView core = 1`.
"""

from __future__ import annotations

import hashlib
import sys
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from functools import cached_property
from pathlib import Path
from typing import Any, ClassVar

import numpy as np
from google.protobuf import message_factory, text_format
from google.protobuf.message import Message

from services.kit.errors import GameError
from services.rules.random_source import RandomSource, seed_random
from services.rules.spec import GameSpec
from sizzle.common.v1 import common_pb2

Reason = common_pb2.ErrorReason


def fault_text(exc: BaseException) -> str:
    """What a refusal of a malformed state says of the fault: an invariant's own words (the engines'
    `check_invariants` assert them), never the text of a Python or numpy exception ("index 347 is out
    of bounds for axis 0 with size 344" tells a caller about the code, not about its state)."""
    if isinstance(exc, AssertionError) and str(exc):
        return str(exc)
    return "a field is out of range or missing"


class Engine(ABC):
    """Base of a game's rules. Subclasses set the class attributes and implement the hooks."""

    spec: ClassVar[GameSpec]
    State: ClassVar[type[Any]]
    Action: ClassVar[type[Any]]
    View: ClassVar[type[Any]]
    # The engine's revision: bump it with every change of what the rules do (a legal action, an
    # effect, a score). With the content's digest it makes the rules version a match records
    # (`rules_version`), so that no replica applies other rules to a match and old replays stay true.
    rules_revision: ClassVar[int] = 1

    # ------------------------------------------------------------------ hooks a game implements
    @abstractmethod
    def setup(self, state: Any, options: Mapping[str, str], rng: RandomSource) -> None:
        """Fills a fresh state whose `core` is set (players, seed, random source, seat 0 to move)."""

    @abstractmethod
    def legal_action_ids(self, state: Any) -> list[int]:
        """The ids the seat to move may play now, ascending. Called only while the game runs."""

    @abstractmethod
    def id_to_action(self, state: Any, seat: int, action_id: int) -> Any:
        """The structured action of an id (the id may be illegal now; it is within range)."""

    @abstractmethod
    def action_to_id(self, state: Any, seat: int, action: Any) -> int | None:
        """The id of a structured action, or None when no id expresses it."""

    @abstractmethod
    def mutate(self, state: Any, seat: int, action: Any, rng: RandomSource) -> list[common_pb2.Event]:
        """Applies a legal action. Sets core.seat_to_move and core.game_over for what follows."""

    @abstractmethod
    def view(self, state: Any, seat: int) -> Any:
        """What `seat` may see (seat -1: the public view of a spectator)."""

    @abstractmethod
    def observation(self, view: Any) -> np.ndarray:
        """The observation tensor (float32, spec.observation_shape) computed from a seat's view."""

    @abstractmethod
    def outcome(self, state: Any) -> common_pb2.Outcome | None:
        """Scores, ranks and winners once the game is over, else None."""

    @abstractmethod
    def describe_action(self, state: Any, seat: int, action: Any) -> str:
        """The action in plain words, as the seat would choose it."""

    @abstractmethod
    def render(self, view: Any) -> str:
        """A plain-text rendering of a view, for logs and terminals."""

    @abstractmethod
    def resample_hidden(self, state: Any, seat: int, rng: RandomSource) -> Any:
        """A copy of `state` where everything `seat` cannot know (deck orders, others' hidden
        cards, the random source) is drawn anew, consistently with what it can see. The
        conformance suite checks that the seat's view is unchanged; search bots use it too."""

    def check_invariants(self, state: Any) -> None:  # noqa: B027 (optional hook: no invariants by default)
        """Raises AssertionError when the state breaks one of the game's invariants."""

    def clock_limit_seconds(self, state: Any) -> float | None:
        """Seconds of wall clock after the start when the game ends by the clock (a match option of
        some games), or None. The engine has no clock: the match service keeps the time and calls
        `end_by_clock` when it runs out."""
        return None

    def on_clock_expired(self, state: Any) -> list[common_pb2.Event]:
        """Ends the game because its wall-clock time ran out (games with clock_limit_seconds)."""
        raise GameError(Reason.ERROR_REASON_ILLEGAL_ACTION, f"{self.spec.display_name} has no game clock")

    def structured_is_legal(self, state: Any, seat: int, action: Any) -> bool:
        """Whether a structured action is legal now. By default: its id is legal. Games whose
        people may send actions no id expresses (a free aim point) override this."""
        action_id = self.action_to_id(state, seat, action)
        return action_id is not None and self.is_legal_id(state, action_id)

    def is_legal_id(self, state: Any, action_id: int) -> bool:
        return action_id in self.legal_action_ids(state)

    # ------------------------------------------------------------------ the shared API
    @property
    def game_id(self) -> str:
        return self.spec.game_id

    @cached_property
    def rules_version(self) -> str:
        """`<revision>.<content digest>`: what a match records of the rules it is played under. The
        digest is of the parsed content (comments and layout of the text file do not count)."""
        return f"{self.rules_revision}.{content_digest(type(self))}"

    def new_game(self, num_players: int, options: Mapping[str, str] | None = None, seed: int = 0,
                 keyed: bool = False) -> Any:
        """A game set up from `seed`; `keyed` draws keyed numbers (services/rules/random_source.py),
        as a match whose seed the server chose does."""
        self.spec.check_player_count(num_players)
        resolved = self.spec.resolve_options(options)
        state = self.State()
        core = state.core
        core.num_players = num_players
        core.seat_to_move = 0
        core.seed = seed & ((1 << 64) - 1)
        seed_random(core.random, seed, keyed)
        self.setup(state, resolved, RandomSource(core.random))
        return state

    def legal_actions(self, state: Any, seat: int | None = None) -> list[int]:
        """Legal ids of `seat` (default: the seat to move); empty when it is not its turn."""
        core = state.core
        if core.game_over or (seat is not None and seat != core.seat_to_move):
            return []
        return self.legal_action_ids(state)

    def legal_mask(self, state: Any, seat: int | None = None) -> np.ndarray:
        mask = np.zeros(self.spec.num_distinct_actions, dtype=bool)
        mask[self.legal_actions(state, seat)] = True
        return mask

    def apply(self, state: Any, seat: int, action: Message | int) -> list[common_pb2.Event]:
        """Checks and applies one action in place, in either form. On refusal the state is untouched."""
        core = state.core
        if core.game_over:
            raise GameError(Reason.ERROR_REASON_GAME_OVER, "the game is over")
        if not 0 <= seat < core.num_players:
            raise GameError(Reason.ERROR_REASON_INVALID_SEAT, f"there is no seat {seat} at this table")
        if seat != core.seat_to_move:
            raise GameError(
                Reason.ERROR_REASON_NOT_YOUR_TURN,
                f"it is seat {core.seat_to_move}'s turn, not seat {seat}'s",
                {"seat_to_move": str(core.seat_to_move)},
            )
        if isinstance(action, int):
            if not 0 <= action < self.spec.num_distinct_actions:
                raise GameError(
                    Reason.ERROR_REASON_MALFORMED_ACTION,
                    f"action id {action} is outside 0..{self.spec.num_distinct_actions - 1}",
                )
            if not self.is_legal_id(state, action):
                raise GameError(
                    Reason.ERROR_REASON_ILLEGAL_ACTION,
                    f"action {action} ({self.describe_action(state, seat, self.id_to_action(state, seat, action))})"
                    " is not legal now",
                )
            message = self.id_to_action(state, seat, action)
        else:
            if not isinstance(action, self.Action):
                raise GameError(
                    Reason.ERROR_REASON_MALFORMED_ACTION,
                    f"expected a {self.Action.DESCRIPTOR.full_name}, got {type(action).__name__}",
                )
            for oneof in self.Action.DESCRIPTOR.oneofs:  # an action that names no kind is none at all
                if action.WhichOneof(oneof.name) is None:
                    kinds = ", ".join(field.name for field in oneof.fields)
                    raise GameError(Reason.ERROR_REASON_MALFORMED_ACTION,
                                    f"the action sets none of {oneof.name}: {kinds}")
            if not self.structured_is_legal(state, seat, action):
                raise GameError(Reason.ERROR_REASON_ILLEGAL_ACTION,
                                f"{self._safe_describe(state, seat, action)} is not legal now")
            message = action
        events = self.mutate(state, seat, message, RandomSource(core.random))
        core.move_number += 1
        if core.game_over:
            core.seat_to_move = -1
        return events

    def end_by_clock(self, state: Any) -> list[common_pb2.Event]:
        """Ends a running game whose wall-clock limit has passed (called by the match service)."""
        if state.core.game_over:
            raise GameError(Reason.ERROR_REASON_GAME_OVER, "the game is over")
        events = self.on_clock_expired(state)
        state.core.game_over = True
        state.core.seat_to_move = -1
        return events

    def observe(self, state: Any, seat: int) -> np.ndarray:
        return self.observation(self.view(state, seat))

    def legal_action_descriptions(self, state: Any) -> list[tuple[int, Any, str]]:
        seat = state.core.seat_to_move
        out = []
        for action_id in self.legal_actions(state):
            action = self.id_to_action(state, seat, action_id)
            out.append((action_id, action, self.describe_action(state, seat, action)))
        return out

    def validate_state(self, state: Any) -> None:
        """Refuses a state that cannot be a state of this game (for states from untrusted bytes)."""
        core = state.core
        if not self.spec.min_players <= core.num_players <= self.spec.max_players:
            raise GameError(Reason.ERROR_REASON_MALFORMED_STATE, f"state has {core.num_players} players")
        if core.game_over != (core.seat_to_move == -1) or core.seat_to_move >= core.num_players:
            raise GameError(Reason.ERROR_REASON_MALFORMED_STATE, f"state has seat {core.seat_to_move} to move")
        try:
            self.check_invariants(state)
        except (AssertionError, IndexError, KeyError, ValueError) as exc:
            raise GameError(Reason.ERROR_REASON_MALFORMED_STATE, f"state breaks the rules: {fault_text(exc)}") from exc

    def _safe_describe(self, state: Any, seat: int, action: Any) -> str:
        try:
            return self.describe_action(state, seat, action)
        except (IndexError, KeyError, ValueError):
            return "that action"


def game_content(engine_class: type[Engine]) -> Message | None:
    """The game's content: `content.txtpb` beside the engine's package, parsed as the `Content`
    message of the game's proto package; None for a game without one."""
    package = Path(sys.modules[engine_class.__module__].__file__ or "").parent
    path = package / "content.txtpb"
    content_type = engine_class.State.DESCRIPTOR.file.message_types_by_name.get("Content")
    if not path.exists() or content_type is None:
        return None
    content: Message = message_factory.GetMessageClass(content_type)()
    text_format.Parse(path.read_text(encoding="utf-8"), content)
    return content


def content_digest(engine_class: type[Engine]) -> str:
    """12 hex digits of SHA-256 over the game's content (`game_content`); "none" for a game without one."""
    content = game_content(engine_class)
    if content is None:
        return "none"
    return hashlib.sha256(content.SerializeToString(deterministic=True)).hexdigest()[:12]


def core_view(state: Any, seat: int) -> common_pb2.CoreView:
    core = state.core
    return common_pb2.CoreView(
        num_players=core.num_players,
        seat_to_move=core.seat_to_move,
        game_over=core.game_over,
        move_number=core.move_number,
        viewer=seat,
    )


def ranked_outcome(
    keys: Sequence[tuple[float, ...]], scores: Sequence[float], reason: str
) -> common_pb2.Outcome:
    """An Outcome ranking seats by `keys` (higher is better, compared as tuples); equal keys share a rank."""
    outcome = common_pb2.Outcome(reason=reason)
    for seat, key in enumerate(keys):
        rank = 1 + sum(1 for other in keys if other > key)
        outcome.results.add(seat=seat, score=float(scores[seat]), rank=rank, winner=rank == 1)
    return outcome
