"""The `play`, `watch`, `replay` and `lobby` commands of the `sizzle` command line (the terminal
client), and `games --server` (the games a server plays).

Each connects in plaintext unless given a CA (`--ca`, or $SIZZLE_TLS_CA) or `--tls` (the system's
roots); the client certificate of mTLS and the name to check come from the environment
(SIZZLE_TLS_CLIENT_CERT, SIZZLE_TLS_CLIENT_KEY, SIZZLE_TLS_SERVER_NAME).
"""

from __future__ import annotations

import argparse
import getpass
import logging
import sys
from typing import Any

import grpc

from clients.connection import (
    CALL_TIMEOUT,
    DEFAULT_ADDR,
    DIFFICULTIES,
    ClientError,
    MatchLink,
    Seating,
    default_server,
    explain,
    join_match,
    new_match,
    peek_match,
)
from services.kit.config import Config
from services.kit.tls import ClientTLS, TLSConfigError, client_tls, variable


def _parse_options(pairs: list[str]) -> dict[str, str]:
    options = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep:
            raise ClientError(f"--option takes NAME=VALUE, not {pair!r}")
        options[name] = value
    return options


def default_name() -> str:
    try:
        name = getpass.getuser()
    except Exception:
        name = ""
    name = "".join(c for c in name if c.isprintable()).strip()[:32]
    return name or "guest"


def default_bots(game_id: str, humans: int) -> int:
    """Enough bots for the game's smallest table (at least one when playing alone)."""
    try:
        from services.rules import registry

        least = registry.get_engine(game_id).spec.min_players
    except Exception:
        least = 2
    return max(least - humans, 0 if humans > 1 else 1)


def tls_for(args: argparse.Namespace) -> ClientTLS | None:
    """The TLS of the command's calls: --ca or --tls over the environment's SIZZLE_TLS_*; None: plaintext."""
    config = Config.from_env()
    if args.ca:
        config = config.with_overrides(tls_ca=args.ca)
    if args.tls:
        config = config.with_overrides(tls_system_roots=1)
    try:
        return client_tls(config)
    except TLSConfigError as error:
        said = str(error).replace(variable("tls_ca"), "--ca") if args.ca else str(error)
        raise ClientError(said) from None


def tls_flags(args: argparse.Namespace) -> str:
    """The TLS flags of this command, for a friend's command line."""
    return (f" --ca {args.ca}" if args.ca else "") + (" --tls" if args.tls else "")


def server_flag(target: str) -> str:
    """`--server` for a friend's command line: always, unless the server is the built-in default (the
    friend may not share this terminal's $SIZZLE_ADDR)."""
    return "" if target == DEFAULT_ADDR else f" --server {target}"


def invite_line(seating: Seating, flags: str = "") -> str:
    server = server_flag(seating.target)
    fixed = " --accept-fixed-seed" if seating.match.seed_fixed else ""
    return f"a friend joins with: sizzle play {seating.game_id} --join {seating.match_id}{server}{flags}{fixed}"


def seat_for(args: argparse.Namespace, target: str, tls: ClientTLS | None = None) -> Seating:
    name = args.name or default_name()
    if args.join:
        if args.game:
            match = peek_match(target, args.join, tls)
            if match.game_id != args.game:
                raise ClientError(f"match {args.join} plays {match.game_id}, not {args.game}")
        return join_match(target, args.join, name=name, tls=tls, accept_fixed_seed=args.accept_fixed_seed)
    if not args.game:
        raise ClientError("name the game to play (see `sizzle games`), or --join a match")
    if args.queue:
        from clients.queue import queue_for_match

        return queue_for_match(target, args.game, name=name, players=args.players, max_wait_seconds=args.max_wait,
                               allow_bots=not args.no_bots, on_wait=lambda text: print(text, flush=True), tls=tls)
    bots = args.bots if args.bots is not None else default_bots(args.game, args.humans)
    return new_match(target, args.game, name=name, bots=bots, humans=args.humans, difficulty=args.difficulty,
                     turn_seconds=args.turn_seconds, options=_parse_options(args.option), seed=args.seed, tls=tls)


def _quiet() -> None:
    # Log lines would scribble over the screen.
    logging.getLogger().setLevel(logging.WARNING)


def _goodbye(match: Any, seat: int, match_id: str) -> None:
    from clients.tui.table import final_table
    from sizzle.match.v1 import match_service_pb2 as mpb

    if match is not None and match.status == mpb.MATCH_STATUS_FINISHED:
        print(final_table(match, seat))
        print(f"replay it with: sizzle replay {match_id}")
    elif match is not None:
        print(f"match {match_id} goes on without this screen")


def bot_pause(args: argparse.Namespace) -> float:
    """Seconds between two bot moves shown to a person: --bot-pause, else $SIZZLE_BOT_PAUSE_MS."""
    milliseconds = args.bot_pause if args.bot_pause is not None else Config.from_env().bot_pause_ms
    return max(0, milliseconds) / 1000


def cmd_play(args: argparse.Namespace) -> int:
    target = args.server or default_server()
    try:
        tls = tls_for(args)
        seating = seat_for(args, target, tls)
    except ClientError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    invite = ""
    print(f"match {seating.match_id}: {seating.display_name} plays seat {seating.seat}")
    if seating.open_seats:
        invite = invite_line(seating, tls_flags(args))
        print(f"the match waits for {seating.open_seats} more player(s); {invite}", flush=True)
    from clients.tui.match_app import MatchApp

    _quiet()
    link = MatchLink(target, seating.match_id, seating.seat_token, tls=tls)
    app = MatchApp(target, seating.match_id, token=seating.seat_token, seat=seating.seat, invite=invite, link=link,
                   bot_pause=bot_pause(args))
    _goodbye(app.run(), seating.seat, seating.match_id)
    return 0


def cmd_watch(args: argparse.Namespace) -> int:
    target = args.server or default_server()
    try:
        tls = tls_for(args)
        peek_match(target, args.match_id, tls)
    except ClientError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    from clients.tui.match_app import MatchApp

    _quiet()
    app = MatchApp(target, args.match_id, link=MatchLink(target, args.match_id, tls=tls), bot_pause=bot_pause(args))
    _goodbye(app.run(), -1, args.match_id)
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    target = args.server or default_server()
    try:
        tls = tls_for(args)
        peek_match(target, args.match_id, tls)
    except ClientError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    from clients.tui.replay_app import ReplayApp

    _quiet()
    ReplayApp(target, args.match_id, link=MatchLink(target, args.match_id, tls=tls)).run()
    return 0


def cmd_lobby(args: argparse.Namespace) -> int:
    """The lobby, then the chosen match (a seat, the spectator's screen or the replay), then the lobby again."""
    from clients.tui.lobby_app import LobbyApp
    from clients.tui.match_app import MatchApp

    target = args.server or default_server()
    try:
        tls = tls_for(args)
    except ClientError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    _quiet()
    flags = server_flag(target) + tls_flags(args)
    while True:
        choice = LobbyApp(target, link=MatchLink(target, "", tls=tls), game_id=args.game or "",
                          target_flags=flags, player_id=args.player or "").run()
        if choice is None:
            return 0
        match_id = choice.match.match_id
        if choice.action == "replay":
            from clients.tui.replay_app import ReplayApp

            ReplayApp(target, match_id, link=MatchLink(target, match_id, tls=tls)).run()
            continue
        if choice.action == "join":
            try:
                seating = join_match(target, match_id, name=args.name or default_name(), tls=tls,
                                     accept_fixed_seed=choice.accept_fixed_seed)
            except ClientError as error:
                print(f"error: {error}", file=sys.stderr)
                continue
            app = MatchApp(target, match_id, token=seating.seat_token, seat=seating.seat,
                           link=MatchLink(target, match_id, seating.seat_token, tls=tls), bot_pause=bot_pause(args))
        else:
            app = MatchApp(target, match_id, link=MatchLink(target, match_id, tls=tls), bot_pause=bot_pause(args))
        app.run()


def games_table(games: list[Any]) -> str:
    """The games a server plays (RulesService GameSpecs), in the columns of `sizzle games`."""
    lines = [f"{'game':<18} {'name':<24} {'players':<8} {'actions':>8}  observation  options"]
    for spec in games:
        options = ", ".join(f"{o.name}={o.default_value}" for o in spec.options) or "-"
        shape = "x".join(map(str, spec.observation_shape))
        lines.append(f"{spec.game_id:<18} {spec.display_name:<24} {spec.min_players}-{spec.max_players:<6} "
                     f"{spec.num_distinct_actions:>8}  {shape:<11}  {options}")
    return "\n".join(lines)


def _games_refusal(target: str, error: grpc.RpcError) -> str:
    if error.code() == grpc.StatusCode.UNIMPLEMENTED:
        return (f"the server at {target} does not list its games (its rules service is internal there): "
                "`sizzle lobby` shows the matches it plays")
    if error.code() == grpc.StatusCode.UNAVAILABLE:
        return f"cannot reach the server at {target}: {error.details()}"
    return f"could not list the games of {target}: {explain(error)}"


def cmd_remote_games(args: argparse.Namespace) -> int:
    """`sizzle games --server ADDR`: the games that server plays, asked of its RulesService."""
    from services.kit.tls import open_channel
    from sizzle.rules.v1 import rules_service_pb2 as rpb
    from sizzle.rules.v1 import rules_service_pb2_grpc

    target = args.server
    try:
        tls = tls_for(args)
        with open_channel(target, tls) as channel:
            stub = rules_service_pb2_grpc.RulesServiceStub(channel)
            try:
                games = list(stub.ListGames(rpb.ListGamesRequest(), timeout=CALL_TIMEOUT).games)
            except grpc.RpcError as error:
                raise ClientError(_games_refusal(target, error)) from None
    except ClientError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    print(f"games played at {target}:")
    print(games_table(games))
    return 0


def server_arguments(parser: argparse.ArgumentParser, server_help: str = "") -> None:
    """--server, --ca and --tls: where the platform is and how to reach it."""
    _server_argument(parser, server_help)


def _server_argument(parser: argparse.ArgumentParser, server_help: str = "") -> None:
    parser.add_argument("--server", metavar="ADDR",
                        help=server_help or "HOST:PORT of the platform (default: $SIZZLE_ADDR or 127.0.0.1:50051)")
    parser.add_argument("--ca", metavar="FILE",
                        help="connect with TLS, trusting the CA in this PEM file (default: $SIZZLE_TLS_CA)")
    parser.add_argument("--tls", action="store_true",
                        help="connect with TLS, trusting the system's root certificates (default: plaintext)")


def _pause_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--bot-pause", type=int, metavar="MS",
                        help="shortest time between two bot moves on screen, so a person can follow them "
                             "(default: $SIZZLE_BOT_PAUSE_MS or 700; 0: as fast as they come)")


def register_commands(sub: Any) -> None:
    """Adds `play`, `watch`, `replay` and `lobby` to the `sizzle` command line's subparsers."""
    play = sub.add_parser("play", help="play a game in the terminal, against bots or friends")
    play.add_argument("game", nargs="?", help="the game (see `sizzle games`); optional with --join")
    play.add_argument("--bots", type=int, help="bot seats (default: enough for the game's smallest table)")
    play.add_argument("--humans", type=int, default=1,
                      help="human seats, yours included; the others join with --join (default 1)")
    play.add_argument("--difficulty", choices=sorted(DIFFICULTIES), default="medium", help="the bots' strength")
    play.add_argument("--queue", action="store_true", help="find opponents through matchmaking instead")
    play.add_argument("--players", type=int, default=0, help="with --queue: the table size wanted (default: any)")
    play.add_argument("--max-wait", type=int, default=0, metavar="S",
                      help="with --queue: seconds to wait for people before bots fill in (default: the server's)")
    play.add_argument("--no-bots", action="store_true", help="with --queue: wait for people only")
    play.add_argument("--join", metavar="MATCH_ID", help="take an open seat of a match someone created")
    play.add_argument("--name", help="the name others see (default: your user name)")
    play.add_argument("--turn-seconds", type=int, default=0,
                      help="seconds per turn before a bot plays for the seat (default: no limit)")
    play.add_argument("--option", action="append", default=[], metavar="NAME=VALUE", help="a game option")
    play.add_argument("--seed", type=int, default=0,
                      help="the game's seed (default: random); a chosen seed lets you compute every hidden card, so "
                           "the match is never rated and friends join it only with --accept-fixed-seed")
    play.add_argument("--accept-fixed-seed", action="store_true",
                      help="with --join: join a match whose creator chose the seed (and can see every hidden card)")
    _pause_argument(play)
    _server_argument(play)
    play.set_defaults(func=cmd_play)

    watch = sub.add_parser("watch", help="follow a match live as a spectator")
    watch.add_argument("match_id")
    _pause_argument(watch)
    _server_argument(watch)
    watch.set_defaults(func=cmd_watch)

    replay = sub.add_parser("replay", help="step through a finished match's log")
    replay.add_argument("match_id")
    _server_argument(replay)
    replay.set_defaults(func=cmd_replay)

    lobby = sub.add_parser("lobby", help="the live matches of a server, to join or watch")
    lobby.add_argument("--game", help="only this game's matches")
    lobby.add_argument("--name", help="the name others see when you join (default: your user name)")
    lobby.add_argument("--player", metavar="PLAYER_ID",
                       help="also list this player's finished matches, to replay (servers that keep records)")
    _pause_argument(lobby)
    _server_argument(lobby)
    lobby.set_defaults(func=cmd_lobby)
