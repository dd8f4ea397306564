"""RulesService over a real gRPC server on loopback: listing, playing, and every kind of bad input."""

from __future__ import annotations

import random

import grpc
import pytest
from google.protobuf import any_pb2
from grpc_health.v1 import health_pb2, health_pb2_grpc

from services.kit.errors import error_info  # noqa: F811
from sizzle.games.grill_party.v1 import grill_party_pb2
from sizzle.rules.v1 import rules_service_pb2 as pb
from sizzle.rules.v1 import rules_service_pb2_grpc


@pytest.fixture()
def rules(channel: grpc.Channel) -> rules_service_pb2_grpc.RulesServiceStub:
    return rules_service_pb2_grpc.RulesServiceStub(channel)


def refused(call, request, code: grpc.StatusCode, reason: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(grpc.RpcError) as caught:
        call(request, timeout=5)
    assert caught.value.code() == code, caught.value.details()
    info = error_info(caught.value)
    assert info is not None and info.reason == reason, info


def test_list_and_get_games(rules: rules_service_pb2_grpc.RulesServiceStub) -> None:
    games = rules.ListGames(pb.ListGamesRequest(), timeout=5).games
    ids = [g.game_id for g in games]
    assert "grill_party" in ids and ids == sorted(ids)
    spec = rules.GetGame(pb.GetGameRequest(game_id="grill_party"), timeout=5).game
    assert (spec.min_players, spec.max_players) == (2, 5)
    assert spec.state_type == "sizzle.games.grill_party.v1.State"


def test_whole_game_through_the_service(rules: rules_service_pb2_grpc.RulesServiceStub) -> None:
    state = rules.NewGame(pb.NewGameRequest(game_id="grill_party", num_players=3, seed=7), timeout=5).state
    rng = random.Random(7)
    outcome = None
    for _ in range(5000):
        legal = rules.ListLegalActions(pb.ListLegalActionsRequest(state=state), timeout=5)
        if legal.seat == -1:
            break
        choice = rng.choice(legal.actions)
        request = pb.ApplyActionRequest(state=state, seat=legal.seat)
        if rng.random() < 0.5:
            request.action_id = choice.action_id
        else:
            request.structured.CopyFrom(choice.action)
        response = rules.ApplyAction(request, timeout=5)
        state = response.state
        if response.HasField("outcome"):
            outcome = response.outcome
    assert outcome is not None and sum(r.winner for r in outcome.results) >= 1
    view = rules.GetView(pb.GetViewRequest(state=state, seat=-1), timeout=5)
    assert "GAME OVER" in view.rendering and not view.observation


def test_views_hide_other_hands(rules: rules_service_pb2_grpc.RulesServiceStub) -> None:
    state = rules.NewGame(pb.NewGameRequest(game_id="grill_party", num_players=2, seed=1), timeout=5).state
    seat_view = rules.GetView(pb.GetViewRequest(state=state, seat=0), timeout=5)
    view = grill_party_pb2.View()
    seat_view.view.Unpack(view)
    assert len(view.players[0].hand) == 4 and len(view.players[1].hand) == 0
    assert len(seat_view.observation) == 252  # docs/rules/grill_party.md: 252 floats


def test_unknown_game(rules: rules_service_pb2_grpc.RulesServiceStub) -> None:
    refused(rules.GetGame, pb.GetGameRequest(game_id="chess"), grpc.StatusCode.INVALID_ARGUMENT, "UNKNOWN_GAME")
    refused(rules.NewGame, pb.NewGameRequest(game_id="chess", num_players=2), grpc.StatusCode.INVALID_ARGUMENT,
            "UNKNOWN_GAME")


def test_wrong_player_count_and_options(rules: rules_service_pb2_grpc.RulesServiceStub) -> None:
    refused(rules.NewGame, pb.NewGameRequest(game_id="grill_party", num_players=6),
            grpc.StatusCode.INVALID_ARGUMENT, "INVALID_PLAYER_COUNT")
    refused(rules.NewGame, pb.NewGameRequest(game_id="grill_party", num_players=2, options={"tactical": "maybe"}),
            grpc.StatusCode.INVALID_ARGUMENT, "INVALID_OPTION")
    refused(rules.NewGame, pb.NewGameRequest(game_id="grill_party", num_players=2, options={"speed": "1"}),
            grpc.StatusCode.INVALID_ARGUMENT, "INVALID_OPTION")


def test_malformed_states(rules: rules_service_pb2_grpc.RulesServiceStub) -> None:
    garbage = pb.GameState(game_id="grill_party", state=any_pb2.Any(
        type_url="type.googleapis.com/sizzle.games.grill_party.v1.State", value=b"\xff\xff\xff\x07garbage"))
    refused(rules.ListLegalActions, pb.ListLegalActionsRequest(state=garbage), grpc.StatusCode.INVALID_ARGUMENT,
            "MALFORMED_STATE")
    wrong_type = pb.GameState(game_id="grill_party", state=any_pb2.Any(type_url="type.googleapis.com/x.Y"))
    refused(rules.GetView, pb.GetViewRequest(state=wrong_type), grpc.StatusCode.INVALID_ARGUMENT, "MALFORMED_STATE")
    state = rules.NewGame(pb.NewGameRequest(game_id="grill_party", num_players=2, seed=1), timeout=5).state
    broken = grill_party_pb2.State()
    state.state.Unpack(broken)
    broken.grill[0] += 3  # grillables out of nowhere
    tampered = pb.GameState(game_id="grill_party")
    tampered.state.Pack(broken)
    refused(rules.ApplyAction, pb.ApplyActionRequest(state=tampered, seat=0, action_id=0),
            grpc.StatusCode.INVALID_ARGUMENT, "MALFORMED_STATE")
    del broken.players[1:]  # a one-player table
    tampered.state.Pack(broken)
    refused(rules.ListLegalActions, pb.ListLegalActionsRequest(state=tampered), grpc.StatusCode.INVALID_ARGUMENT,
            "MALFORMED_STATE")


def test_illegal_and_out_of_turn_actions(rules: rules_service_pb2_grpc.RulesServiceStub) -> None:
    state = rules.NewGame(pb.NewGameRequest(game_id="grill_party", num_players=2, seed=1), timeout=5).state
    legal = {a.action_id for a in rules.ListLegalActions(pb.ListLegalActionsRequest(state=state), timeout=5).actions}
    illegal = next(i for i in range(122) if i not in legal)
    refused(rules.ApplyAction, pb.ApplyActionRequest(state=state, seat=0, action_id=illegal),
            grpc.StatusCode.FAILED_PRECONDITION, "ILLEGAL_ACTION")
    refused(rules.ApplyAction, pb.ApplyActionRequest(state=state, seat=1, action_id=min(legal)),
            grpc.StatusCode.FAILED_PRECONDITION, "NOT_YOUR_TURN")
    refused(rules.ApplyAction, pb.ApplyActionRequest(state=state, seat=0, action_id=10_000),
            grpc.StatusCode.INVALID_ARGUMENT, "MALFORMED_ACTION")
    refused(rules.ApplyAction, pb.ApplyActionRequest(state=state, seat=0), grpc.StatusCode.INVALID_ARGUMENT,
            "MALFORMED_ACTION")
    not_an_action = pb.ApplyActionRequest(state=state, seat=0)
    not_an_action.structured.Pack(pb.ListGamesRequest())
    refused(rules.ApplyAction, not_an_action, grpc.StatusCode.INVALID_ARGUMENT, "MALFORMED_ACTION")
    refused(rules.GetView, pb.GetViewRequest(state=state, seat=5), grpc.StatusCode.INVALID_ARGUMENT, "INVALID_SEAT")


def test_health_is_serving(channel: grpc.Channel) -> None:
    health = health_pb2_grpc.HealthStub(channel)
    for service in ("", "sizzle.rules.v1.RulesService"):
        status = health.Check(health_pb2.HealthCheckRequest(service=service), timeout=5).status
        assert status == health_pb2.HealthCheckResponse.SERVING


def test_a_broken_state_is_refused_without_the_codes_exception_text(
        rules: rules_service_pb2_grpc.RulesServiceStub) -> None:
    """A black-box audit sent states with numbers out of range and got numpy's and Python's own words
    back ("index 347 is out of bounds for axis 0 with size 344", "list index out of range", a bare
    "9"): every refusal now says MALFORMED_STATE in the engine's words, never the exception's."""
    from google.protobuf import descriptor_pool, message_factory
    from google.protobuf.descriptor import FieldDescriptor

    rng = random.Random(1)
    leaked: list[str] = []
    for game in ("a_la_carte", "grill_party", "hibachi", "license_to_grill", "a_la_carte_cards"):
        base = rules.NewGame(pb.NewGameRequest(game_id=game, num_players=3, seed=7), timeout=5).state
        state_class = message_factory.GetMessageClass(descriptor_pool.Default().FindMessageTypeByName(
            base.state.TypeName()))
        for _ in range(60):
            state = state_class()
            base.state.Unpack(state)
            ints = [(message, field) for message, field in leaves(state)
                    if field.type in (FieldDescriptor.TYPE_INT32, FieldDescriptor.TYPE_ENUM)
                    and not field.is_repeated]
            message, field = rng.choice(ints)
            setattr(message, field.name, rng.choice([347, -7, 9, 10**6]))
            packed = pb.GameState(game_id=game)
            packed.state.Pack(state)
            for call, request in ((rules.GetView, pb.GetViewRequest(state=packed, seat=0)),
                                  (rules.ListLegalActions, pb.ListLegalActionsRequest(state=packed)),
                                  (rules.ApplyAction, pb.ApplyActionRequest(state=packed, seat=0,
                                                                                           action_id=0))):
                try:
                    call(request, timeout=10)
                except grpc.RpcError as error:
                    info = error_info(error)
                    assert info is not None, error.details()
                    details = error.details() or ""
                    if info.reason == "MALFORMED_STATE" and any(
                            text in details for text in ("out of bounds", "index out of range", "axis",
                                                         "has no name defined", "inconsistent: 9")):
                        leaked.append(f"{game} {field.name}: {details}")
    assert not leaked, leaked[:5]


def leaves(message):  # type: ignore[no-untyped-def]
    """Every (message, scalar field) of a message, nested ones included (not map entries)."""
    from google.protobuf.descriptor import FieldDescriptor

    for field in message.DESCRIPTOR.fields:
        if field.type == FieldDescriptor.TYPE_MESSAGE:
            if field.is_repeated:
                if not field.message_type.GetOptions().map_entry:
                    for sub in getattr(message, field.name):
                        yield from leaves(sub)
            elif message.HasField(field.name):
                yield from leaves(getattr(message, field.name))
        else:
            yield message, field
