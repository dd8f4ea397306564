"""Every RPC of every service under generated messages, as a hostile third-party client sends them.

The client knows only what the server's reflection tells it: the request classes are built from the
descriptors reflection serves, and calls go out as raw bytes on a plain channel. Hypothesis builds
each request field by field from its descriptor, mixing arbitrary values with the boundaries that
broke servers before (enum numbers out of range, 1e300, 5,000-digit page tokens, 20 KB ids) and with
ids and tokens that exist (a real match, a seat token of someone else's match). For every call:
- the status is OK or a coded error: never UNKNOWN or INTERNAL, always with an ErrorInfo;
- an error changes nothing in the store (every key's bytes are the same before and after) nor in
  the accounts of the records database (SQLite here).

The server runs on a real Redis with its background loops stopped and bots that never play, so that
nothing but the calls changes the store.
"""

from __future__ import annotations

import sqlite3
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import grpc
import pytest
import redis
from google.protobuf import descriptor_pool, message_factory
from google.protobuf.descriptor import FieldDescriptor
from grpc_reflection.v1alpha.proto_reflection_descriptor_database import ProtoReflectionDescriptorDatabase
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from apps.platform import Deps, create_server
from services.kit.config import Config
from services.kit.errors import error_info
from services.match.redis_store import RedisStore
from services.records.sql_store import build_records
from sizzle.auth.v1 import auth_service_pb2
from sizzle.match.v1 import match_service_pb2
from sizzle.matchmaking.v1 import matchmaking_service_pb2
from sizzle.rules.v1 import rules_service_pb2
from tests.match.players import BOT, HUMAN, Player
from tests.servers import ServerThread

KEY = "sizzle-hostile-test-key-0123456789"
OUR_SERVICES = [f.services_by_name[name] for f, name in (
    (auth_service_pb2.DESCRIPTOR, "AuthService"), (match_service_pb2.DESCRIPTOR, "MatchService"),
    (matchmaking_service_pb2.DESCRIPTOR, "MatchmakingService"), (rules_service_pb2.DESCRIPTOR, "RulesService"))]
RPCS = [f"{service.full_name}/{method.name}" for service in OUR_SERVICES for method in service.methods]
NEVER = {grpc.StatusCode.UNKNOWN, grpc.StatusCode.INTERNAL}
EXAMPLES = 120  # per RPC


class IdleBots:
    """Bot seats that never move: nothing changes the store but the test's calls."""

    async def dispatch(self, match_id: str, seat: int, version: int, game_id: str) -> None:
        return None


@dataclass
class World:
    """The server, the descriptors it serves, and what exists in it for the attacker to aim at."""

    server: ServerThread
    channel: grpc.Channel
    pool: descriptor_pool.DescriptorPool
    redis: redis.Redis
    prefix: str
    ids: list[str]
    option_names: list[str]
    tokens: list[str]
    type_urls: list[str]
    templates: dict[str, list[dict[str, Any]]]  # valid requests per method name, to mutate a field at a time
    records: Path  # the records database's SQLite file


@pytest.fixture(scope="module")
def world(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    prefix = f"sizzle-test-{uuid.uuid4().hex[:12]}"
    records = tmp_path_factory.mktemp("hostile") / "records.sqlite3"
    config = Config(addr="127.0.0.1:0", token_key=KEY, redis_url=redis_url, redis_prefix=prefix,
                    matchmaking_interval_ms=10**9, max_message_bytes=256 * 1024,
                    records_url=f"sqlite+aiosqlite:///{records}")
    server = ServerThread(lambda: create_server(config, Deps(store=RedisStore(redis_url, prefix, 3600),
                                                             bots=IdleBots(), records=build_records(config))))
    server.call(server.running.deadlines.stop())
    channel = grpc.insecure_channel(server.target)
    # What a client learns from reflection alone.
    pool = descriptor_pool.DescriptorPool(ProtoReflectionDescriptorDatabase(channel))
    alice, bob, carol = (Player.guest(channel, name) for name in ("alice", "bob", "carol"))
    from sizzle.auth.v1 import auth_service_pb2_grpc
    account = auth_service_pb2_grpc.AuthServiceStub(channel).Register(
        auth_service_pb2.RegisterRequest(username="dave", password="dave's long password"), timeout=10)
    running = alice.create("grill_party", [HUMAN, HUMAN])
    alice.join(running.match_id)
    bob.join(running.match_id)
    waiting = carol.create("hibachi", [HUMAN, BOT])
    carol.join(waiting.match_id)
    open_match = carol.create("license_to_grill", [HUMAN, HUMAN, BOT])
    ticket = matchmaking_service_pb2.CreateTicketRequest(game_id="hibachi", allow_bots=True)
    from sizzle.matchmaking.v1 import matchmaking_service_pb2_grpc
    created = matchmaking_service_pb2_grpc.MatchmakingServiceStub(channel).CreateTicket(
        ticket, metadata=[("authorization", f"Bearer {alice.token}")], timeout=5).ticket
    from sizzle.rules.v1 import rules_service_pb2_grpc
    games = rules_service_pb2_grpc.RulesServiceStub(channel).ListGames(rules_service_pb2.ListGamesRequest(), timeout=5)
    option_names = sorted({o.name for g in games.games for o in g.options})
    ids = [*option_names, account.player_id, "dave", running.match_id, waiting.match_id, open_match.match_id,
           created.ticket_id, alice.seat_token[:8],
           alice.token.split(".")[1][:20], "grill_party", "hibachi", "a_la_carte", "license_to_grill",
           "a_la_carte_cards"]
    type_urls = [f"type.googleapis.com/sizzle.games.{g}.v1.{m}" for g in
                 ("grill_party", "hibachi", "license_to_grill", "a_la_carte", "a_la_carte_cards")
                 for m in ("Action", "State", "View")]
    rules = rules_service_pb2_grpc.RulesServiceStub(channel)
    state = rules.NewGame(rules_service_pb2.NewGameRequest(game_id="a_la_carte_cards", num_players=2, seed=3),
                          timeout=5).state
    game_state = {"game_id": state.game_id, "state": {"type_url": state.state.type_url, "value": state.state.value}}
    seats = [{"kind": 1}, {"kind": 2, "difficulty": 3}]
    templates: dict[str, list[dict[str, Any]]] = {
        "CreateGuest": [{"display_name": "eve"}],
        "CreateMatch": [{"game_id": g, "seats": seats, "options": o, "turn_seconds": 30} for g, o in
                        (("a_la_carte_cards", {"minutes": "5"}), ("a_la_carte_cards", {"rounds": "3"}),
                         ("hibachi", {}), ("grill_party", {}))]
                       # bots only: the match starts at once (its clock with it)
                       + [{"game_id": "a_la_carte_cards", "seats": [{"kind": 2}, {"kind": 2}],
                           "options": {"minutes": "5"}}],
        "JoinMatch": [{"match_id": open_match.match_id}, {"match_id": running.match_id, "seat": 1}],
        "GetMatch": [{"match_id": running.match_id, "read_mask": {"paths": ["match"]}}],
        "ListMatches": [{"game_id": "grill_party", "page_size": 2, "status": 2}],
        "SubmitAction": [{"match_id": running.match_id, "action_id": 0, "expected_version": 2, "request_id": "r1"}],
        "WatchMatch": [{"match_id": running.match_id, "from_version": 0}],
        "LeaveMatch": [{"match_id": running.match_id}],
        "GetReplay": [{"match_id": running.match_id}],
        "CreateTicket": [{"game_id": "hibachi", "player_counts": [2, 3], "allow_bots": True, "max_wait_seconds": 5}],
        "GetTicket": [{"ticket_id": created.ticket_id}],
        "WatchTicket": [{"ticket_id": created.ticket_id}],
        "CancelTicket": [{"ticket_id": created.ticket_id}],
        "GetRating": [{"game_id": "hibachi", "player_id": "bot-easy"}, {"game_id": "hibachi", "history_size": 5}],
        "Register": [{"username": "mallory", "password": "mallory's long password"}],
        "Login": [{"username": "dave", "password": "dave's long password"}],
        "UpgradeGuest": [{"username": "trent", "password": "trent's long password"}],
        "ListMatchHistory": [{"player_id": account.player_id, "page_size": 5}, {"game_id": "hibachi"}],
        "ListLeaderboard": [{"game_id": "hibachi", "page_size": 5, "around_me": True}],
        "ListGames": [{}],
        "GetGame": [{"game_id": "hibachi"}],
        "NewGame": [{"game_id": "a_la_carte_cards", "num_players": 3, "options": {"minutes": "2"}, "seed": 1}],
        "ListLegalActions": [{"state": game_state}],
        "ApplyAction": [{"state": game_state, "seat": 0, "action_id": 0}],
        "GetView": [{"state": game_state, "seat": 1}],
    }
    yield World(server, channel, pool, redis.Redis.from_url(redis_url), prefix, ids, option_names,
                [alice.token, alice.seat_token, bob.seat_token, carol.seat_token, account.token, "x.y.z", ""],
                type_urls, templates, records)
    channel.close()
    server.stop()
    keys = list(redis.Redis.from_url(redis_url).scan_iter(match=f"{prefix}:*", count=1000))
    if keys:
        redis.Redis.from_url(redis_url).delete(*keys)


# ------------------------------------------------------------------ values, field by field
def boundary_strings(world: World) -> st.SearchStrategy[str]:
    return st.one_of(
        st.sampled_from(world.ids),
        st.text(max_size=40),
        st.sampled_from(["", " ", "nan", "inf", "-1", "1_0", "²", "0x10", "1e300", "9" * 5000, "a" * 20_000,
                         "\x00", "../../etc/passwd", "' OR 1=1 --", "m_" + "0" * 16, "bot:x:0:1", "*", "%s%n"]),
    )


NUMBER_TEXTS = ["0", "-1", "1", "5", "1e300", "1e15", "nan", "inf", "-inf", "1e-300", "99999999999", "2.5", "0x10"]
INT_EDGES = [0, 1, -1, 2, 3, 4, 5, 6, 99, 2**31 - 1, -(2**31)]
INT64_EDGES = [*INT_EDGES, 2**63 - 1, -(2**63), 10**15]
UINT_EDGES = [0, 1, 2**32 - 1, 2**64 - 1, 42]
FLOAT_EDGES = [0.0, -1.0, 1e300, -1e300, float("nan"), float("inf"), float("-inf"), 1e15, 0.5]


def scalar(world: World, field: FieldDescriptor) -> st.SearchStrategy[Any]:
    kind = field.type
    if kind == FieldDescriptor.TYPE_STRING:
        return boundary_strings(world)
    if kind == FieldDescriptor.TYPE_BYTES:
        return st.binary(max_size=64)
    if kind == FieldDescriptor.TYPE_BOOL:
        return st.booleans()
    if kind == FieldDescriptor.TYPE_ENUM:
        return st.one_of(st.sampled_from([v.number for v in field.enum_type.values]), st.sampled_from(INT_EDGES))
    if kind in (FieldDescriptor.TYPE_INT32, FieldDescriptor.TYPE_SINT32, FieldDescriptor.TYPE_SFIXED32):
        return st.one_of(st.sampled_from(INT_EDGES), st.integers(-(2**31), 2**31 - 1))
    if kind in (FieldDescriptor.TYPE_INT64, FieldDescriptor.TYPE_SINT64, FieldDescriptor.TYPE_SFIXED64):
        return st.one_of(st.sampled_from(INT64_EDGES), st.integers(-(2**63), 2**63 - 1))
    if kind in (FieldDescriptor.TYPE_UINT32, FieldDescriptor.TYPE_FIXED32):
        return st.sampled_from(UINT_EDGES[:3])
    if kind in (FieldDescriptor.TYPE_UINT64, FieldDescriptor.TYPE_FIXED64):
        return st.sampled_from(UINT_EDGES)
    if kind in (FieldDescriptor.TYPE_DOUBLE, FieldDescriptor.TYPE_FLOAT):
        width = 32 if kind == FieldDescriptor.TYPE_FLOAT else 64
        return st.one_of(st.sampled_from(FLOAT_EDGES), st.floats(width=width))
    raise AssertionError(f"no strategy for field type {kind}")


def any_message(world: World, depth: int) -> st.SearchStrategy[dict[str, Any]]:
    """google.protobuf.Any: empty, an unknown type, a known type with garbage bytes, or a generated one."""
    def known(type_url: str) -> st.SearchStrategy[dict[str, Any]]:
        descriptor = world.pool.FindMessageTypeByName(type_url.rsplit("/", 1)[1])
        return message_values(world, descriptor, depth + 1).map(
            lambda fields: {"type_url": type_url, "value": build(descriptor, fields).SerializeToString()})

    return st.one_of(
        st.just({}),
        st.fixed_dictionaries({"type_url": boundary_strings(world), "value": st.binary(max_size=32)}),
        st.fixed_dictionaries({"type_url": st.sampled_from(world.type_urls), "value": st.binary(max_size=32)}),
        st.sampled_from(world.type_urls).flatmap(known),
    )


def field_value(world: World, field: FieldDescriptor, depth: int) -> st.SearchStrategy[Any]:
    if field.type == FieldDescriptor.TYPE_MESSAGE:
        if field.message_type.full_name == "google.protobuf.Any":
            return any_message(world, depth)
        if field.message_type.full_name == "google.protobuf.FieldMask":
            paths = st.one_of(st.sampled_from(["match", "seat", "view", "rendering", "legal_actions",
                                               "legal_actions.action_id", "state", ""]), boundary_strings(world))
            return st.fixed_dictionaries({"paths": st.lists(paths, max_size=3)})
        if depth > 3:
            return st.just({})
        return message_values(world, field.message_type, depth + 1)
    return scalar(world, field)


def message_values(world: World, descriptor: Any, depth: int = 0) -> st.SearchStrategy[dict[str, Any]]:
    """A dict of field name -> value for a message type (maps as dicts, repeated as lists), each field
    present or absent."""
    fields = {name: st.one_of(st.none(), strategy) for name, strategy in field_strategies(world, descriptor,
                                                                                          depth).items()}
    return st.fixed_dictionaries(fields).map(lambda d: {k: v for k, v in d.items() if v is not None})


def field_strategies(world: World, descriptor: Any, depth: int = 0) -> dict[str, st.SearchStrategy[Any]]:
    """Each field's values: maps as dicts, repeated fields as lists."""
    fields = {}
    for field in descriptor.fields:
        if field.message_type is not None and field.message_type.GetOptions().map_entry:
            key, value = field.message_type.fields_by_name["key"], field.message_type.fields_by_name["value"]
            keys, values = field_value(world, key, depth), field_value(world, value, depth)
            if field.name == "options":  # the names a client reads from RulesService.ListGames, mostly
                keys = st.one_of(st.sampled_from(world.option_names), keys)
                values = st.one_of(st.sampled_from(NUMBER_TEXTS), values)
            strategy: st.SearchStrategy[Any] = st.dictionaries(keys, values, min_size=1, max_size=3)
        elif field.is_repeated:
            strategy = st.lists(field_value(world, field, depth), max_size=4)
        else:
            strategy = field_value(world, field, depth)
        fields[field.name] = strategy
    return fields


def build(descriptor: Any, values: dict[str, Any]) -> Any:
    message = message_factory.GetMessageClass(descriptor)()
    fill(message, values)
    return message


def fill(message: Any, values: dict[str, Any]) -> None:
    for name, value in values.items():
        field = message.DESCRIPTOR.fields_by_name[name]
        target = getattr(message, name) if field.type == FieldDescriptor.TYPE_MESSAGE or field.is_repeated else None
        if field.message_type is not None and field.message_type.GetOptions().map_entry:
            value_field = field.message_type.fields_by_name["value"]
            for k, v in value.items():
                if value_field.type == FieldDescriptor.TYPE_MESSAGE:
                    fill(target[k], v)
                else:
                    target[k] = v
        elif field.is_repeated:
            for item in value:
                if field.type == FieldDescriptor.TYPE_MESSAGE:
                    fill(target.add(), item)
                else:
                    target.append(item)
        elif field.type == FieldDescriptor.TYPE_MESSAGE:
            target.SetInParent()
            fill(target, value)
        else:
            setattr(message, name, value)


# ------------------------------------------------------------------ the property
def snapshot(world: World) -> dict[bytes, bytes | None]:
    """Every key of this server's store with its bytes (what an error must leave as it was)."""
    # The matchmaker's pool leases (taken on its first cycle at start) lapse by themselves, and the
    # quota keys are accounting that every call may touch (an earlier case's watch stream renews and
    # frees its slot while this case runs); what an error must not change is everything else.
    keys = sorted(k for k in world.redis.scan_iter(match=f"{world.prefix}:*", count=1000)
                  if not k.endswith(b":lease") and b":quota:" not in k)
    store: dict[bytes, bytes | None] = dict(zip(keys, [world.redis.dump(k) for k in keys], strict=True))
    with sqlite3.connect(world.records) as db:  # the accounts: Register, Login and UpgradeGuest write there
        store[b"records:accounts"] = repr(db.execute("SELECT * FROM accounts ORDER BY 1").fetchall()).encode()
    return store


def requests(world: World, rpc: str, descriptor: Any) -> st.SearchStrategy[dict[str, Any]]:
    """Arbitrary requests, and valid ones with one or two fields replaced by generated values (what
    reaches deep into a handler: 1e300 minutes on an otherwise good CreateMatch)."""
    generated = message_values(world, descriptor)
    templates = world.templates.get(rpc.split("/")[1], [{}])  # a new RPC without a template: from nothing
    strategies = field_strategies(world, descriptor)
    if not strategies:
        return generated
    changes = st.lists(st.sampled_from(sorted(strategies)), min_size=1, max_size=2, unique=True).flatmap(
        lambda names: st.fixed_dictionaries({name: strategies[name] for name in names}))
    mutated = st.tuples(st.sampled_from(templates), changes).map(lambda pair: {**pair[0], **pair[1]})
    return st.one_of(generated, mutated, mutated)


def undeclared_enums(message: Any, path: str = "") -> list[str]:
    """Enum fields of an answer holding a number their enum does not declare (a server that accepted
    difficulty 99 hands it back, and nothing downstream knows what it means)."""
    found = []
    for field, value in message.ListFields():
        where = f"{path}.{field.name}"
        kind, enum_type = field.type, field.enum_type
        if field.message_type is not None and field.message_type.GetOptions().map_entry:
            entry_value = field.message_type.fields_by_name["value"]
            kind, enum_type, items = entry_value.type, entry_value.enum_type, list(value.values())
        else:
            items = list(value) if field.is_repeated else [value]
        for item in items:
            if kind == FieldDescriptor.TYPE_ENUM and enum_type.values_by_number.get(item) is None:
                found.append(f"{where}={item}")
            elif kind == FieldDescriptor.TYPE_MESSAGE:
                found.extend(undeclared_enums(item, where))
    return found


def call(world: World, rpc: str, request: Any, token: str) -> grpc.RpcError | None:
    service_name, method_name = rpc.split("/")
    method = world.pool.FindServiceByName(service_name).methods_by_name[method_name]
    response_class = message_factory.GetMessageClass(method.output_type)
    metadata = [("authorization", f"Bearer {token}")] if token else []
    args = dict(request_serializer=lambda m: m.SerializeToString(), response_deserializer=response_class.FromString)
    try:
        if method.server_streaming:
            stream = world.channel.unary_stream(f"/{rpc}", **args)(request, metadata=metadata, timeout=3)
            try:
                response = next(stream)  # the first update is answered at once; later ones wait for changes
            finally:
                stream.cancel()
        else:
            response = world.channel.unary_unary(f"/{rpc}", **args)(request, metadata=metadata, timeout=5)
        assert not undeclared_enums(response), (rpc, undeclared_enums(response), request)
    except grpc.RpcError as error:
        if error.code() == grpc.StatusCode.CANCELLED:  # our own cancel after the first update
            return None
        return error
    return None


def test_reflection_serves_every_rpc_of_every_service(world: World) -> None:
    served = {f"{s.full_name}/{m.name}" for s in map(world.pool.FindServiceByName,
                                                      [s.full_name for s in OUR_SERVICES]) for m in s.methods}
    assert served == set(RPCS)


def check_call(world: World, rpc: str, request: Any, token: str) -> grpc.RpcError | None:
    """The property, for one call: OK, or a coded error with an ErrorInfo that changed nothing."""
    before = snapshot(world)
    error = call(world, rpc, request, token)
    if error is None:
        return None
    assert error.code() not in NEVER, (rpc, error.code(), error.details(), request)
    assert error_info(error) is not None, (rpc, error.code(), error.details())
    assert len(error.details() or "") <= 400, (rpc, "an error echoes too much of the request")
    after = snapshot(world)
    changed = sorted(k for k in set(before) | set(after) if before.get(k) != after.get(k))
    assert not changed, (rpc, error.code(), error.details(), "an error changed the store", changed)
    return error


M, MM, RS = "sizzle.match.v1.MatchService", "sizzle.matchmaking.v1.MatchmakingService", "sizzle.rules.v1.RulesService"
BOTS = [{"kind": 2}, {"kind": 2}]
# The inputs a black-box client found escaping the error model (issue 18), each refused with the reason.
KNOWN_ATTACKS = [
    *[(f"{M}/CreateMatch", {"game_id": "hibachi", "seats": [{"kind": 2, "difficulty": d}, {"kind": 2}]},
       "INVALID_REQUEST") for d in (99, -1)],
    (f"{M}/CreateMatch", {"game_id": "hibachi", "seats": BOTS, "takeover_difficulty": 99}, "INVALID_REQUEST"),
    (f"{M}/CreateMatch", {"game_id": "hibachi", "seats": [{"kind": 7}, {"kind": 2}]}, "INVALID_REQUEST"),
    (f"{M}/CreateMatch", {"game_id": "a_la_carte_cards", "seats": BOTS, "options": {"minutes": "1e300"}},
     "INVALID_OPTION"),
    (f"{M}/CreateMatch", {"game_id": "a_la_carte_cards", "seats": BOTS, "options": {"minutes": "1e15"}},
     "INVALID_OPTION"),
    (f"{M}/CreateMatch", {"game_id": "a_la_carte_cards", "seats": BOTS, "options": {"minutes": "nan"}},
     "INVALID_OPTION"),
    # float() took these (a black-box audit): digit separators, spaces, other scripts' digits, a clock of 0
    *[(f"{M}/CreateMatch", {"game_id": "a_la_carte_cards", "seats": BOTS, "options": {"minutes": minutes}},
       "INVALID_OPTION") for minutes in ("1_0", " 5 ", "\u0661\u0660", "1e-300", "1e1", "0.5", "+5", "5.")],
    (f"{M}/CreateMatch", {"game_id": "hibachi", "seats": BOTS, "turn_seconds": 2**31 - 1}, "INVALID_REQUEST"),
    (f"{M}/CreateMatch", {"game_id": "hibachi", "seats": BOTS, "options": {"x" * 20_000: "1"}}, "INVALID_OPTION"),
    (f"{M}/CreateMatch", {"game_id": "g" * 20_000, "seats": BOTS}, "INVALID_REQUEST"),
    (f"{RS}/NewGame", {"game_id": "a_la_carte_cards", "num_players": 2, "options": {"minutes": "1e300"}},
     "INVALID_OPTION"),
    *[(f"{M}/ListMatches", {"page_token": token}, "INVALID_REQUEST") for token in ("nan", "1_0", "²", "9" * 5000)],
    *[(f"{MM}/ListLeaderboard", {"game_id": "hibachi", "page_token": token}, "INVALID_REQUEST")
      for token in ("nan", "1_0", "²", "9" * 5000, "-5")],
    (f"{M}/GetMatch", {"match_id": "m" * 20_000}, "INVALID_REQUEST"),
    (f"{M}/JoinMatch", {"match_id": "m" * 20_000}, "INVALID_REQUEST"),
    (f"{M}/SubmitAction", {"match_id": "m" * 20_000, "action_id": 0, "request_id": "r"}, "INVALID_REQUEST"),
    (f"{M}/SubmitAction", {"match_id": "m_x", "action_id": 0, "request_id": "r" * 20_000}, "INVALID_REQUEST"),
    (f"{M}/WatchMatch", {"match_id": "m" * 20_000}, "INVALID_REQUEST"),
    (f"{M}/GetReplay", {"match_id": "m" * 20_000}, "INVALID_REQUEST"),
    (f"{MM}/GetTicket", {"ticket_id": "t" * 20_000}, "INVALID_REQUEST"),
    (f"{MM}/GetRating", {"game_id": "hibachi", "player_id": "p" * 20_000}, "INVALID_REQUEST"),
    (f"{MM}/CreateTicket", {"game_id": "hibachi", "player_counts": list(range(1000))}, "INVALID_REQUEST"),
    (f"{RS}/GetGame", {"game_id": "g" * 20_000}, "UNKNOWN_GAME"),
]


@pytest.mark.parametrize(("rpc", "values", "reason"), KNOWN_ATTACKS,
                         ids=[f"{a[0].rsplit('/', 1)[1]}-{i}" for i, a in enumerate(KNOWN_ATTACKS)])
def test_known_attacks_get_their_reason(world: World, rpc: str, values: dict[str, Any], reason: str) -> None:
    service_name, method_name = rpc.split("/")
    descriptor = world.pool.FindServiceByName(service_name).methods_by_name[method_name].input_type
    error = check_call(world, rpc, build(descriptor, values), world.tokens[0])
    assert error is not None and error_info(error).reason == reason, (  # type: ignore[union-attr]
        rpc, error and error.details())


@pytest.mark.parametrize("rpc", RPCS)
def test_every_bad_request_gets_a_coded_error_and_changes_nothing(world: World, rpc: str) -> None:
    service_name, method_name = rpc.split("/")
    descriptor = world.pool.FindServiceByName(service_name).methods_by_name[method_name].input_type

    # The player token most often (it may create, join and queue); seat tokens, a garbage token, none.
    tokens = st.one_of(st.just(world.tokens[0]), st.sampled_from(world.tokens))

    @settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
              suppress_health_check=list(HealthCheck))
    @given(values=requests(world, rpc, descriptor), token=tokens)
    def check(values: dict[str, Any], token: str) -> None:
        check_call(world, rpc, build(descriptor, values), token)

    check()
