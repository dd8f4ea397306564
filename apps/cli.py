"""The `sizzle` command line: serve, games, selfplay (and more as the platform grows)."""

from __future__ import annotations

import argparse
import asyncio
import faulthandler
import logging
import random
import sys
from collections.abc import Sequence

from services.kit.config import Config, ConfigError

EXIT_SECONDS = 10.0  # how long the interpreter's exit may take after `serve` has stopped everything


def _parse_options(pairs: Sequence[str]) -> dict[str, str]:
    options = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep:
            raise SystemExit(f"--option takes NAME=VALUE, not {pair!r}")
        options[name] = value
    return options


def cmd_games(args: argparse.Namespace) -> int:
    if getattr(args, "server", None):
        from clients.cli import cmd_remote_games

        return cmd_remote_games(args)  # the games that server plays
    from services.rules import registry

    print(f"{'game':<18} {'name':<24} {'players':<8} {'actions':>8}  observation  options")
    for engine in registry.engines():
        spec = engine.spec
        options = ", ".join(f"{o.name}={o.default}" for o in spec.options) or "-"
        shape = "x".join(map(str, spec.observation_shape))
        print(
            f"{spec.game_id:<18} {spec.display_name:<24} {spec.min_players}-{spec.max_players:<6} "
            f"{spec.num_distinct_actions:>8}  {shape:<11}  {options}"
        )
    return 0


def outcome_table(outcome: object) -> str:
    lines = ["final table:", f"  {'rank':<5} {'seat':<5} {'score':>8}"]
    for result in sorted(outcome.results, key=lambda r: (r.rank, r.seat)):  # type: ignore[attr-defined]
        crown = "  winner" if result.winner else ""
        lines.append(f"  {result.rank:<5} {result.seat:<5} {result.score:>8g}{crown}")
    lines.append(f"  ({outcome.reason})")  # type: ignore[attr-defined]
    return "\n".join(lines)


def cmd_selfplay(args: argparse.Namespace) -> int:
    from services.kit.errors import GameError
    from services.rules import registry

    try:
        engine = registry.get_engine(args.game)
        state = engine.new_game(args.players, _parse_options(args.option), args.seed)
    except GameError as error:
        print(f"error: {error.message} ({error.reason_name})", file=sys.stderr)
        return 2
    rng = random.Random(args.seed)
    while not state.core.game_over:
        seat = state.core.seat_to_move
        events = engine.apply(state, seat, rng.choice(engine.legal_actions(state)))
        if args.verbose:
            for event in events:
                print(event.text)
    print(engine.render(engine.view(state, -1)))
    outcome = engine.outcome(state)
    print(f"{state.core.move_number} actions")
    print(outcome_table(outcome))
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    from apps.serve import serve

    config = Config.from_env()
    if args.addr:
        config = config.with_overrides(addr=args.addr)
    if refused := config.insecure_reason():
        print(f"sizzle serve: {refused}", file=sys.stderr)
        return 2
    services = tuple(s.strip() for s in args.services.split(",")) if args.services else None
    from services.records.migrate import NotMigrated

    try:
        asyncio.run(serve(config, services))
    except NotMigrated as error:
        print(f"sizzle serve: {error}", file=sys.stderr)
        return 2
    # Past this point only the interpreter's own exit is left; should it hang, the threads' stacks go
    # to stderr and the process ends anyway.
    faulthandler.dump_traceback_later(EXIT_SECONDS, exit=True)
    return 0


def cmd_worker(args: argparse.Namespace) -> int:
    import os
    import tempfile

    # Multiprocess metrics: set before any metric is created, in this process and its children.
    os.environ.setdefault("PROMETHEUS_MULTIPROC_DIR", tempfile.mkdtemp(prefix="sizzle-metrics-"))
    config = Config.from_env()
    if refused := config.insecure_reason():
        print(f"sizzle worker: {refused}", file=sys.stderr)
        return 2
    if config.metrics_port:
        from prometheus_client import CollectorRegistry, multiprocess, start_http_server

        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
        start_http_server(config.metrics_port, addr=config.metrics_addr, registry=registry)
    from workers.bots.celery_app import app

    app.worker_main(["worker", "-Q", config.bot_queue, "--concurrency", str(args.concurrency), "--loglevel",
                     args.loglevel, "--hostname", f"sizzle-bots-{os.getpid()}@%h", "--without-gossip",
                     "--without-mingle"])
    return 0


def cmd_records_migrate(args: argparse.Namespace) -> int:
    from services.records.database import describe, records_url
    from services.records.migrate import migrate

    config = Config.from_env()
    url = records_url(config)
    if not url:
        print("sizzle records migrate: set SIZZLE_RECORDS_URL (the live store is shared, so records need a "
              "database of their own)", file=sys.stderr)
        return 2
    revision = asyncio.run(migrate(url, config.records_schema, args.revision))
    print(f"the records database {describe(url)} is at revision {revision}")
    return 0


def cmd_ratings_rebuild(args: argparse.Namespace) -> int:
    from services.matchmaking.ratings import rebuild_rating_cache
    from services.matchmaking.wiring import build_store
    from services.records.sql_store import build_records
    from services.rules import registry

    config = Config.from_env()
    records = build_records(config)
    if records is None or not config.redis_url:
        print("sizzle ratings rebuild: needs SIZZLE_REDIS_URL (the cache) and SIZZLE_RECORDS_URL (the ratings); "
              "the embedded store rebuilds itself at every start", file=sys.stderr)
        return 2

    async def rebuild() -> int:
        cache = build_store(config)
        try:
            await records.open()
            return await rebuild_rating_cache(records, cache, [args.game] if args.game else registry.game_ids())
        finally:
            await cache.close()
            await records.close()

    print(f"rebuilt the ratings cache from the records: {asyncio.run(rebuild())} ratings")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="sizzle", description="Sizzle: a game server for cooking board games")
    sub = parser.add_subparsers(dest="command", required=True)

    serve = sub.add_parser("serve", help="run every service in one process")
    serve.add_argument("--addr", help="HOST:PORT to listen on (default: $SIZZLE_ADDR or 127.0.0.1:50051)")
    serve.add_argument("--services", help="comma-separated subset to run: rules,match,matchmaking (default: all)")
    serve.set_defaults(func=cmd_serve)

    worker = sub.add_parser("worker", help="run a Celery bot worker (needs $SIZZLE_BROKER_URL)")
    worker.add_argument("--concurrency", type=int, default=2, help="worker processes")
    worker.add_argument("--loglevel", default="INFO")
    worker.set_defaults(func=cmd_worker)

    games = sub.add_parser("games", help="list the registered games (with --server: the games that server plays)")
    games.set_defaults(func=cmd_games)

    selfplay = sub.add_parser("selfplay", help="play a random game in-process and print the final table")
    selfplay.add_argument("game")
    selfplay.add_argument("--players", type=int, default=2)
    selfplay.add_argument("--seed", type=int, default=0)
    selfplay.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    selfplay.add_argument("--verbose", action="store_true", help="print every event")
    selfplay.set_defaults(func=cmd_selfplay)

    records = sub.add_parser("records", help="the durable records database")
    records_sub = records.add_subparsers(dest="records_command", required=True)
    migrate = records_sub.add_parser("migrate", help="create or upgrade its tables ($SIZZLE_RECORDS_URL)")
    migrate.add_argument("--revision", default="head", help="the revision to upgrade to (default: the latest)")
    migrate.set_defaults(func=cmd_records_migrate)

    ratings = sub.add_parser("ratings", help="ratings and leaderboards")
    ratings_sub = ratings.add_subparsers(dest="ratings_command", required=True)
    rebuild = ratings_sub.add_parser("rebuild", help="rebuild the Redis ratings cache and leaderboards from records")
    rebuild.add_argument("--game", help="only this game")
    rebuild.set_defaults(func=cmd_ratings_rebuild)

    from clients.cli import register_commands, server_arguments

    server_arguments(games, "ask the platform at HOST:PORT which games it plays (default: this install's games)")
    register_commands(sub)  # play, watch, replay, lobby: the terminal client
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args))
    except ConfigError as error:  # a mistyped SIZZLE_* name or a bad value: one line, no traceback
        print(f"sizzle {args.command}: {error}", file=sys.stderr)
        return 2
    except OSError as error:  # an address it cannot listen on (taken, not this machine's): one line
        print(f"sizzle {args.command}: {error}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
