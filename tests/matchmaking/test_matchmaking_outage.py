"""A matchmaking store lost while a ticket waits (a Redis of the test's own, killed and started again
empty): the ticket's WatchTicket stream rides the outage out and ends with the ticket EXPIRED, as
docs/operations.md says ("What is lost when Redis is lost"). A resilience audit found the stream ended
at once with STORE_UNAVAILABLE and the client's retried watch answered UNKNOWN_TICKET, never EXPIRED."""

from __future__ import annotations

import threading
import time
import uuid

import grpc

from sizzle.matchmaking.v1 import matchmaking_service_pb2 as mmpb
from tests.bots.test_broker_outage import Broker
from tests.matchmaking.clients import EXPIRED, Client, start_platform


def test_a_ticket_lost_with_its_store_ends_expired_on_its_open_watch() -> None:
    redis = Broker()
    redis.start()
    server = start_platform("redis", redis.url, f"sizzle-test-{uuid.uuid4().hex[:8]}")
    try:
        with grpc.insecure_channel(server.target) as channel:
            player = Client.guest(channel, "wendy")
            ticket = player.ticket("hibachi", counts=(4,), bots=False, wait=300)  # nobody else comes
            seen: list[mmpb.Ticket] = []
            ended: list[BaseException | None] = []

            def watch() -> None:
                try:
                    seen.extend(player.watch(ticket.ticket_id, timeout=60))
                    ended.append(None)
                except grpc.RpcError as error:
                    ended.append(error)

            watcher = threading.Thread(target=watch, daemon=True)
            watcher.start()
            deadline = time.monotonic() + 10
            while not seen and time.monotonic() < deadline:
                time.sleep(0.05)
            assert seen, "the watch sent nothing"
            redis.kill()
            time.sleep(3)  # longer than the stream's poll: it meets the outage
            redis.start()  # back, empty
            watcher.join(45)
            assert ended == [None], ended and ended[0]
            assert seen[-1].status == EXPIRED and seen[-1].ticket_id == ticket.ticket_id
    finally:
        server.stop()
        redis.kill()
