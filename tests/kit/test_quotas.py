"""Quotas and rate limits hold across replicas: two match-service replicas on one Redis, one player
alternating between them, refused with RESOURCE_EXHAUSTED, QUOTA_EXCEEDED and a RetryInfo."""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterator

import grpc
import pytest
import redis

from apps.platform import Deps, create_server
from services.kit.config import Config
from services.kit.errors import error_info, retry_info
from services.match.redis_store import RedisStore
from sizzle.match.v1 import match_service_pb2 as mpb
from tests.conftest import random_bot_factory
from tests.match.players import BOT, HUMAN, Player, auth
from tests.servers import ServerThread

KEY = "sizzle-quota-test-key-0123456789abc"


class Replicas:
    def __init__(self, redis_url: str, **limits: object) -> None:
        self.prefix = f"sizzle-test-{uuid.uuid4().hex[:12]}"
        config = Config(addr="127.0.0.1:0", token_key=KEY, redis_url=redis_url, redis_prefix=self.prefix,
                        **limits)  # type: ignore[arg-type]
        self.servers = [ServerThread(lambda: create_server(config, Deps(
            store=RedisStore(redis_url, self.prefix, 3600), bot_factory=random_bot_factory,
            services=("match",)))) for _ in range(2)]
        self.channels = [grpc.insecure_channel(s.target) for s in self.servers]
        self.redis_url = redis_url

    def close(self) -> None:
        for channel in self.channels:
            channel.close()
        for server in self.servers:
            server.stop()
        client = redis.Redis.from_url(self.redis_url)
        keys = list(client.scan_iter(match=f"{self.prefix}:*", count=1000))
        if keys:
            client.delete(*keys)


@pytest.fixture()
def replicas(request: pytest.FixtureRequest, redis_url: str) -> Iterator[Replicas]:
    made = Replicas(redis_url, **request.param)
    yield made
    made.close()


def over_quota(error: grpc.RpcError, quota: str) -> None:
    assert error.code() == grpc.StatusCode.RESOURCE_EXHAUSTED, error.details()
    info = error_info(error)
    assert info is not None and info.reason == "QUOTA_EXCEEDED" and info.metadata["quota"] == quota
    retry = retry_info(error)
    assert retry is not None and retry.retry_delay.ToMilliseconds() > 0


def players_on_both(replicas: Replicas, name: str) -> tuple[Player, Player]:
    """The same player (one token) as seen through each replica."""
    first = Player.guest(replicas.channels[0], name)
    second = Player(replicas.channels[1], name, first.token)
    return first, second


@pytest.mark.parametrize("replicas", [{"quota_matches_per_hour": 5, "quota_live_matches": 0}], indirect=True)
def test_matches_per_hour_hold_across_replicas(replicas: Replicas) -> None:
    a, b = players_on_both(replicas, "ann")
    for index in range(5):
        (a, b)[index % 2].create("hibachi", [HUMAN, BOT])
    with pytest.raises(grpc.RpcError) as caught:
        b.create("hibachi", [HUMAN, BOT])
    over_quota(caught.value, "matches_per_hour")
    with pytest.raises(grpc.RpcError):
        a.create("hibachi", [HUMAN, BOT])
    listed = a.stub.ListMatches(mpb.ListMatchesRequest(game_id="hibachi", page_size=100), timeout=5).matches
    assert len(listed) == 5  # the refused calls created nothing
    other, _ = players_on_both(replicas, "bo")
    other.create("hibachi", [HUMAN, BOT])  # another player's quota is untouched


@pytest.mark.parametrize("replicas", [{"quota_matches_per_hour": 100, "quota_matches_per_hour_per_address": 6}],
                         indirect=True)
def test_new_guests_do_not_reset_an_addresss_matches(replicas: Replicas) -> None:
    """A black-box audit: guests are free, so a new guest every twenty matches made tables without
    end from one address (bot-only ones play out at once, each a stored replay and a records row)."""
    for index in range(3):
        a, b = players_on_both(replicas, f"guest{index}")
        a.create("hibachi", [BOT, BOT])
        b.create("hibachi", [BOT, BOT])
    fresh, fresh_elsewhere = players_on_both(replicas, "yet another guest")
    for player in (fresh, fresh_elsewhere):
        with pytest.raises(grpc.RpcError) as caught:
            player.create("hibachi", [BOT, BOT])
        over_quota(caught.value, "address_matches_per_hour")


@pytest.mark.parametrize("replicas", [{"quota_live_matches": 2}], indirect=True)
def test_live_matches_hold_across_replicas_and_free_up_when_a_match_ends(replicas: Replicas) -> None:
    a, b = players_on_both(replicas, "cy")
    a.create("hibachi", [HUMAN, HUMAN])
    b.create("hibachi", [HUMAN, HUMAN])
    with pytest.raises(grpc.RpcError) as caught:
        a.create("hibachi", [HUMAN, HUMAN])
    over_quota(caught.value, "live_matches")
    # Bots-only matches end on their own and give their slot back.
    c, d = players_on_both(replicas, "di")
    for _ in range(4):
        for player in (c, d):
            deadline = time.monotonic() + 30
            while True:
                try:
                    player.create("grill_party", [BOT, BOT])
                    break
                except grpc.RpcError as error:  # both slots still held by running bot matches
                    over_quota(error, "live_matches")
                    assert time.monotonic() < deadline, "a finished match never gave its slot back"
                    time.sleep(0.1)


@pytest.mark.parametrize("replicas", [{"quota_requests_per_second": 5.0, "quota_request_burst": 10}],
                         indirect=True)
def test_requests_per_second_hold_across_replicas(replicas: Replicas) -> None:
    a, b = players_on_both(replicas, "ed")
    allowed, refusal = 0, None
    for index in range(40):
        player = (a, b)[index % 2]
        try:
            player.stub.ListMatches(mpb.ListMatchesRequest(), metadata=auth(player.token), timeout=5)
            allowed += 1
        except grpc.RpcError as error:
            refusal = error
            break
    assert refusal is not None and 10 <= allowed <= 13  # the burst, shared by both replicas, and a refill or two
    over_quota(refusal, "requests")
    time.sleep(0.5)  # the bucket refills at 5 a second
    a.stub.ListMatches(mpb.ListMatchesRequest(), metadata=auth(a.token), timeout=5)


@pytest.mark.parametrize("replicas", [{"quota_watch_streams": 2}], indirect=True)
def test_watch_streams_hold_across_replicas(replicas: Replicas) -> None:
    a, b = players_on_both(replicas, "flo")
    match = a.create("hibachi", [HUMAN, HUMAN])

    def watch(player: Player) -> grpc.Future:  # type: ignore[type-arg]
        stream = player.stub.WatchMatch(mpb.WatchMatchRequest(match_id=match.match_id), metadata=auth(player.token),
                                        timeout=30)
        next(stream)  # open and answered
        return stream

    first, second = watch(a), watch(b)
    with pytest.raises(grpc.RpcError) as caught:
        watch(a)
    over_quota(caught.value, "watch_streams")
    first.cancel()
    deadline = time.monotonic() + 10
    while True:  # the cancelled stream gives its slot back as its handler ends
        try:
            third = watch(b)
            break
        except grpc.RpcError as error:
            over_quota(error, "watch_streams")
            assert time.monotonic() < deadline
            time.sleep(0.1)
    second.cancel()
    third.cancel()
