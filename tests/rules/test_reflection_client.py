"""A client that knows only reflection (no generated code) lists the games and plays a whole game."""

from __future__ import annotations

import random

import grpc
from google.protobuf import descriptor_pool, message_factory
from grpc_reflection.v1alpha.proto_reflection_descriptor_database import ProtoReflectionDescriptorDatabase

from tests.servers import ServerThread

SERVICE = "sizzle.rules.v1.RulesService"


def test_reflection_only_client_plays_grill_party(platform: ServerThread) -> None:
    with grpc.insecure_channel(platform.target) as channel:
        database = ProtoReflectionDescriptorDatabase(channel)
        assert SERVICE in database.get_services()
        pool = descriptor_pool.DescriptorPool(database)
        service = pool.FindServiceByName(SERVICE)

        def stub(method_name: str):  # type: ignore[no-untyped-def]
            method = service.methods_by_name[method_name]
            request_cls = message_factory.GetMessageClass(method.input_type)
            response_cls = message_factory.GetMessageClass(method.output_type)
            call = channel.unary_unary(
                f"/{SERVICE}/{method_name}",
                request_serializer=lambda m: m.SerializeToString(),
                response_deserializer=response_cls.FromString,
            )
            return lambda **fields: call(request_cls(**fields), timeout=5)

        games = stub("ListGames")().games
        assert "grill_party" in [g.game_id for g in games]
        state = stub("NewGame")(game_id="grill_party", num_players=2, seed=11).state
        rng = random.Random(11)
        for _ in range(5000):
            legal = stub("ListLegalActions")(state=state)
            if legal.seat == -1:
                break
            response = stub("ApplyAction")(state=state, seat=legal.seat, action_id=rng.choice(legal.actions).action_id)
            state = response.state
        assert response.HasField("outcome")
        assert sum(r.winner for r in response.outcome.results) == 1
