"""Versioned rules: two replicas with two versions of a game's rules on one store. Each plays only
the matches of its own version and answers the others UNAVAILABLE (RULES_VERSION), so a client
retries another replica; a finished match keeps its outcome whatever rules a replica has."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import grpc
import pytest
import redis

from apps.platform import Deps, create_server
from services.kit.config import Config
from services.match.redis_store import RedisStore
from services.rules import registry
from sizzle.match.v1 import match_service_pb2 as mpb
from tests.conftest import random_bot_factory
from tests.match.players import BOT, HUMAN, Player, auth
from tests.match.test_match_api import refused
from tests.servers import ServerThread

KEY = "sizzle-rules-version-test-key-0123"
GAME = "grill_party"


def next_rules(game_id: str) -> Any:
    """The game's engine as the next release would ship it: one engine revision on."""
    current = registry.get_engine(game_id)
    bumped = type("NextRules", (type(current),), {"rules_revision": type(current).rules_revision + 1})
    return bumped()


@pytest.fixture()
def replicas(redis_url: str) -> Iterator[tuple[grpc.Channel, grpc.Channel]]:
    prefix = f"sizzle-test-{uuid.uuid4().hex[:12]}"
    config = Config(addr="127.0.0.1:0", token_key=KEY, redis_url=redis_url, redis_prefix=prefix)
    newer = next_rules(GAME)

    def engines(game_id: str) -> Any:
        return newer if game_id == GAME else registry.get_engine(game_id)

    old = ServerThread(lambda: create_server(config, Deps(store=RedisStore(redis_url, prefix, 3600),
                                                          bot_factory=random_bot_factory, services=("match",))))
    new = ServerThread(lambda: create_server(config, Deps(store=RedisStore(redis_url, prefix, 3600),
                                                          bot_factory=random_bot_factory, services=("match",),
                                                          engines=engines)))
    channels = (grpc.insecure_channel(old.target), grpc.insecure_channel(new.target))
    yield channels
    for channel in channels:
        channel.close()
    old.stop()
    new.stop()
    client = redis.Redis.from_url(redis_url)
    keys = list(client.scan_iter(match=f"{prefix}:*", count=1000))
    if keys:
        client.delete(*keys)


def test_each_replica_plays_only_matches_of_its_rules(replicas: tuple[grpc.Channel, grpc.Channel]) -> None:
    old_channel, new_channel = replicas
    on_old = Player.guest(old_channel, "ann")
    match = on_old.create(GAME, [HUMAN, HUMAN])
    # a seed the server chose draws keyed numbers, and the version says so
    assert match.rules_version == registry.get_engine(GAME).rules_version + "+keyed"
    on_old.join(match.match_id)
    guest_on_new = Player.guest(new_channel, "bo")
    refused(grpc.StatusCode.UNAVAILABLE, "RULES_VERSION", guest_on_new.stub.JoinMatch,
            mpb.JoinMatchRequest(match_id=match.match_id), metadata=auth(guest_on_new.token))
    refused(grpc.StatusCode.UNAVAILABLE, "RULES_VERSION", guest_on_new.stub.GetMatch,
            mpb.GetMatchRequest(match_id=match.match_id))
    guest_on_old = Player(old_channel, "bo", guest_on_new.token)
    guest_on_old.join(match.match_id)  # the client retries the replica that has the rules
    current = on_old.get()
    assert current.match.status == mpb.MATCH_STATUS_RUNNING
    mover = on_old if current.match.seat_to_move == on_old.seat else guest_on_old
    request = mpb.SubmitActionRequest(match_id=match.match_id, action_id=mover.get().legal_actions[0].action_id,
                                      expected_version=current.match.version, request_id="a1")
    new_stub = Player(new_channel, "x", mover.token).stub
    refused(grpc.StatusCode.UNAVAILABLE, "RULES_VERSION", new_stub.SubmitAction, request,
            metadata=auth(mover.seat_token))
    assert on_old.get().match.version == current.match.version  # nothing applied by the other rules
    mover.stub.SubmitAction(request, metadata=auth(mover.seat_token), timeout=5)
    # A match made on the new replica is the new replica's.
    on_new = Player(new_channel, "ann", on_old.token)
    newer = on_new.create(GAME, [HUMAN, BOT])
    assert newer.rules_version == next_rules(GAME).rules_version + "+keyed" != match.rules_version
    refused(grpc.StatusCode.UNAVAILABLE, "RULES_VERSION", on_old.stub.JoinMatch,
            mpb.JoinMatchRequest(match_id=newer.match_id), metadata=auth(on_old.token))


def test_a_finished_match_keeps_its_outcome_and_its_replay_says_why_it_is_gone(
        replicas: tuple[grpc.Channel, grpc.Channel]) -> None:
    old_channel, new_channel = replicas
    host = Player.guest(old_channel, "host")
    match = host.create(GAME, [BOT, BOT])
    import time

    deadline = time.monotonic() + 60
    while host.stub.GetMatch(mpb.GetMatchRequest(match_id=match.match_id), timeout=5).match.status != \
            mpb.MATCH_STATUS_FINISHED:
        assert time.monotonic() < deadline
        time.sleep(0.05)
    finished = host.stub.GetMatch(mpb.GetMatchRequest(match_id=match.match_id), timeout=5).match
    new_stub = Player(new_channel, "x", host.token).stub
    seen = new_stub.GetMatch(mpb.GetMatchRequest(match_id=match.match_id), timeout=5)
    assert seen.match.outcome == finished.outcome and not seen.view.type_url  # no view: not these rules
    with pytest.raises(grpc.RpcError) as caught:
        new_stub.GetReplay(mpb.GetReplayRequest(match_id=match.match_id), timeout=5)
    assert caught.value.code() == grpc.StatusCode.UNAVAILABLE
    assert match.rules_version in (caught.value.details() or "")
    assert host.stub.GetReplay(mpb.GetReplayRequest(match_id=match.match_id), timeout=5).complete
