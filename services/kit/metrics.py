"""Every Prometheus metric of Sizzle, in one place, named sizzle_* with units in the names, except the
RPC families, which keep the names and labels every gRPC dashboard knows (go-grpc-prometheus's and
py-grpc-prometheus's `grpc_server_*`: grpc_type, grpc_service, grpc_method, grpc_code). No maintained
interceptor library serves grpc.aio servers with them, so services/kit/interceptor.py records them.

docs/operations.md lists each one and what it tells. Services serve them on their own HTTP port
(SIZZLE_METRICS_PORT); Celery workers with several processes use the client's multiprocess mode.
"""

from __future__ import annotations

from prometheus_client import Counter, Gauge, Histogram, start_http_server

_LATENCY_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)

_RPC = ["grpc_type", "grpc_service", "grpc_method"]
RPC_STARTED = Counter("grpc_server_started_total", "RPCs started on the server", _RPC)
RPC_HANDLED = Counter("grpc_server_handled_total", "RPCs completed on the server, by status code (OK or not)",
                      [*_RPC, "grpc_code"])
RPC_HANDLING = Histogram("grpc_server_handling_seconds",
                         "RPC handling time, seconds (server streams: their whole life)", _RPC,
                         buckets=_LATENCY_BUCKETS)
RPC_MESSAGES_SENT = Counter("grpc_server_msg_sent_total", "Messages the server sent on streams", _RPC)
OPEN_STREAMS = Gauge("sizzle_grpc_open_streams", "Server streams open now (WatchMatch, WatchTicket)",
                     ["grpc_service", "grpc_method"], multiprocess_mode="livesum")
LIVE_MATCHES = Gauge("sizzle_live_matches", "Matches running in this process's view of the store", ["game"],
                     multiprocess_mode="livesum")
ACTIONS_APPLIED = Counter("sizzle_actions_applied_total", "Actions applied, by game and actor (human or bot)",
                          ["game", "actor"])
ACTIONS_REJECTED = Counter("sizzle_actions_rejected_total", "Actions refused, by game and ErrorInfo reason",
                           ["game", "reason"])
BOT_DISPATCH_FAILURES = Counter("sizzle_bot_dispatch_failures_total",
                                "Bot turns the match service could not enqueue (its deadline retries them), by game",
                                ["game"])
STORE_OPERATION = Histogram(
    "sizzle_store_operation_duration_seconds", "Store operation latency, by store kind and operation",
    ["store", "operation"], buckets=_LATENCY_BUCKETS,
)
TICKETS_WAITING = Gauge("sizzle_matchmaking_tickets_waiting", "Tickets waiting, by pool", ["pool"],
                        multiprocess_mode="livesum")
TIME_TO_MATCH = Histogram("sizzle_matchmaking_time_to_match_seconds", "Time from ticket to match, by game", ["game"],
                          buckets=(0.1, 0.5, 1, 2, 5, 10, 30, 60, 120, 300, 600))
MATCHES_FORMED = Counter("sizzle_matchmaking_matches_formed_total", "Matches formed by matchmaking, by game", ["game"])
BOT_SEATS_FILLED = Counter("sizzle_matchmaking_bot_seats_filled_total", "Seats filled by bots at formation, by game",
                           ["game"])
BOT_DECISION = Histogram("sizzle_bot_decision_seconds", "Time a bot policy takes to pick an action, by game and kind",
                         ["game", "kind"], buckets=_LATENCY_BUCKETS)
BOT_TURN_LATENCY = Histogram(
    "sizzle_bot_turn_latency_seconds", "From the previous action applied to the bot's action applied, by game",
    ["game"], buckets=_LATENCY_BUCKETS,
)
MODEL_FALLBACKS = Counter("sizzle_bot_model_fallbacks_total",
                          "Bot decisions that fell back to the heuristic (missing or broken model), by game",
                          ["game", "reason"])

RECORDS_PENDING = Gauge("sizzle_records_pending_matches",
                        "Finished matches queued in the live store and not yet in the records database "
                        "(the shared queue, as this replica's writer last read it)", multiprocess_mode="max")
RECORDS_WRITTEN = Counter("sizzle_records_written_total", "Finished matches this replica's writer recorded")
QUOTA_REFUSALS = Counter("sizzle_quota_refusals_total", "Requests refused by a quota or rate limit, by quota",
                         ["quota"])


def record_rpc(kind: str, service: str, method: str, code: str, seconds: float) -> None:
    """One RPC done: kind is grpc_type ("unary" or "server_stream"), code the status name."""
    RPC_HANDLED.labels(kind, service, method, code).inc()
    RPC_HANDLING.labels(kind, service, method).observe(seconds)


def serve_metrics(port: int, addr: str = "127.0.0.1") -> None:
    """Starts the metrics HTTP endpoint (no-op for port 0)."""
    if port:
        try:
            start_http_server(port, addr=addr)
        except OSError as error:
            raise OSError(f"the metrics endpoint cannot listen on {addr}:{port}: {error.strerror or error}") from None
