"""sizzle.rules.v1.RulesService: the registered engines over gRPC, stateless.

It deals in full states, so it is for trusted callers (tools, training, the other services). The
servicer validates and converts; the engines do the rest.
"""

from __future__ import annotations

from typing import Any

from google.protobuf import any_pb2
from google.protobuf.message import DecodeError

from services.kit.errors import GameError
from services.rules import registry
from services.rules.engine import Engine, fault_text, game_content
from sizzle.common.v1 import common_pb2
from sizzle.rules.v1 import rules_service_pb2 as pb
from sizzle.rules.v1 import rules_service_pb2_grpc

Reason = common_pb2.ErrorReason
SERVICE_NAME = pb.DESCRIPTOR.services_by_name["RulesService"].full_name

# What a bad (but parseable) state can make an engine raise before validation catches it.
ENGINE_FAULTS = (IndexError, KeyError, ValueError, TypeError, ZeroDivisionError)


def game_spec(engine: Engine) -> pb.GameSpec:
    spec = engine.spec.to_proto(
        engine.State.DESCRIPTOR.full_name, engine.Action.DESCRIPTOR.full_name, engine.View.DESCRIPTOR.full_name
    )
    spec.rules_version = engine.rules_version
    return spec


def pack(message: Any) -> any_pb2.Any:
    packed = any_pb2.Any()
    packed.Pack(message)
    return packed


def unpack_state(game_state: pb.GameState) -> tuple[Engine, Any]:
    """The engine and the validated state of a GameState from an untrusted caller."""
    engine = registry.get_engine(game_state.game_id)
    state = engine.State()
    if not game_state.state.Is(state.DESCRIPTOR):
        raise GameError(
            Reason.ERROR_REASON_MALFORMED_STATE,
            f"state is a {game_state.state.TypeName() or 'nothing'}, expected {state.DESCRIPTOR.full_name}",
        )
    try:
        game_state.state.Unpack(state)
    except DecodeError as exc:
        raise GameError(Reason.ERROR_REASON_MALFORMED_STATE, "state bytes do not parse") from exc
    engine.validate_state(state)
    return engine, state


def unpack_action(engine: Engine, structured: any_pb2.Any) -> Any:
    action = engine.Action()
    if not structured.Is(action.DESCRIPTOR):
        raise GameError(
            Reason.ERROR_REASON_MALFORMED_ACTION,
            f"action is a {structured.TypeName() or 'nothing'}, expected {action.DESCRIPTOR.full_name}",
        )
    try:
        structured.Unpack(action)
    except DecodeError as exc:
        raise GameError(Reason.ERROR_REASON_MALFORMED_ACTION, "action bytes do not parse") from exc
    return action


def wrap_state(engine: Engine, state: Any) -> pb.GameState:
    return pb.GameState(game_id=engine.game_id, state=pack(state))


class RulesServicer(rules_service_pb2_grpc.RulesServiceServicer):
    async def ListGames(self, request: pb.ListGamesRequest, context: Any) -> pb.ListGamesResponse:
        return pb.ListGamesResponse(games=[game_spec(e) for e in registry.engines()])

    async def GetGame(self, request: pb.GetGameRequest, context: Any) -> pb.GetGameResponse:
        engine = registry.get_engine(request.game_id)
        response = pb.GetGameResponse(game=game_spec(engine))
        content = game_content(type(engine))
        if content is not None:
            response.content.Pack(content)
        return response

    async def NewGame(self, request: pb.NewGameRequest, context: Any) -> pb.NewGameResponse:
        engine = registry.get_engine(request.game_id)
        state = engine.new_game(request.num_players, dict(request.options), request.seed, keyed=request.keyed_draws)
        return pb.NewGameResponse(state=wrap_state(engine, state))

    async def ListLegalActions(self, request: pb.ListLegalActionsRequest, context: Any) -> pb.ListLegalActionsResponse:
        engine, state = unpack_state(request.state)
        try:
            actions = [
                pb.LegalAction(action_id=i, action=pack(a), description=d)
                for i, a, d in engine.legal_action_descriptions(state)
            ]
        except ENGINE_FAULTS as exc:
            raise GameError(Reason.ERROR_REASON_MALFORMED_STATE, f"state is inconsistent: {fault_text(exc)}") from exc
        return pb.ListLegalActionsResponse(seat=state.core.seat_to_move, actions=actions)

    async def ApplyAction(self, request: pb.ApplyActionRequest, context: Any) -> pb.ApplyActionResponse:
        engine, state = unpack_state(request.state)
        which = request.WhichOneof("action")
        if which is None:
            raise GameError(Reason.ERROR_REASON_MALFORMED_ACTION, "give the action as `structured` or `action_id`")
        action = request.action_id if which == "action_id" else unpack_action(engine, request.structured)
        try:
            events = engine.apply(state, request.seat, action)
        except ENGINE_FAULTS as exc:
            raise GameError(Reason.ERROR_REASON_MALFORMED_STATE, f"state is inconsistent: {fault_text(exc)}") from exc
        response = pb.ApplyActionResponse(state=wrap_state(engine, state), events=events)
        outcome = engine.outcome(state)
        if outcome is not None:
            response.outcome.CopyFrom(outcome)
        return response

    async def GetView(self, request: pb.GetViewRequest, context: Any) -> pb.GetViewResponse:
        engine, state = unpack_state(request.state)
        if not -1 <= request.seat < state.core.num_players:
            raise GameError(Reason.ERROR_REASON_INVALID_SEAT, f"there is no seat {request.seat} at this table")
        try:
            view = engine.view(state, request.seat)
            response = pb.GetViewResponse(view=pack(view), rendering=engine.render(view))
            if request.seat >= 0:
                response.observation.extend(engine.observation(view).ravel().tolist())
        except ENGINE_FAULTS as exc:
            raise GameError(Reason.ERROR_REASON_MALFORMED_STATE, f"state is inconsistent: {fault_text(exc)}") from exc
        return response
