"""The lobby (`sizzle lobby`): the live matches of a server (MatchService.ListMatches), those waiting
for players to join and those being played to watch, and, for a player (`--player`), that player's
finished matches (MatchService.ListMatchHistory, from the server's durable records) to replay. It
refreshes itself every few seconds; the person picks a match and the lobby hands the choice back to
the command line, which takes the seat, opens the spectator's screen or the replay, then comes back
here."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import grpc
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.widgets import DataTable, Footer, Static

from clients.connection import CALL_TIMEOUT, MatchLink, auth, explain, reason
from clients.tui.seats import seat_label, seat_style, swatch
from sizzle.match.v1 import match_service_pb2 as mpb

REFRESH_SECONDS = 3.0
PAGE_SIZE = 50  # matches of each status listed
CSS = """
#topbar { height: 1; background: $panel; padding: 0 1; text-style: bold; }
#matches { height: 1fr; }
#history { display: none; height: 1fr; border-top: round $secondary; }
LobbyApp.with-history #history { display: block; }
#details { height: auto; max-height: 50%; padding: 0 1; border-top: round $secondary; }
#notice { height: auto; padding: 0 1; text-style: bold; color: $warning; }
"""
COLUMNS = ("game", "status", "seats", "players", "age")
HISTORY_COLUMNS = ("game", "result", "players", "ended")


@dataclass(frozen=True)
class LobbyChoice:
    """What the person chose: to join a match ("join"), to watch it ("watch") or to replay it ("replay")."""

    action: str
    match: mpb.Match
    accept_fixed_seed: bool = False


def game_name(game_id: str) -> str:
    try:
        from services.rules import registry

        return registry.get_engine(game_id).spec.display_name
    except Exception:
        return game_id


def open_seats(match: mpb.Match) -> int:
    return sum(1 for s in match.seats if s.kind == mpb.SEAT_KIND_HUMAN and not s.player_id)


def age_text(created_unix_ms: int, now_ms: int) -> str:
    seconds = max(0, (now_ms - created_unix_ms) // 1000)
    if seconds < 60:
        return f"{seconds}s"
    if seconds < 3600:
        return f"{seconds // 60}m"
    return f"{seconds // 3600}h"


def players_line(match: mpb.Match) -> str:
    """The players' names, bots counted by difficulty ("alice, bob, 2 medium bots")."""
    people = [s.display_name or f"seat {s.seat}" for s in match.seats
              if s.kind == mpb.SEAT_KIND_HUMAN and s.player_id]
    bots: dict[str, int] = {}
    for seat in match.seats:
        if seat.kind == mpb.SEAT_KIND_BOT and not seat.taken_over:
            bots[seat.display_name or "bot"] = bots.get(seat.display_name or "bot", 0) + 1
    named = people + [name if count == 1 else f"{count} {name}s" for name, count in bots.items()]
    return ", ".join(named) or "-"


def match_row(match: mpb.Match, now_ms: int) -> tuple[str, ...]:
    waiting = match.status == mpb.MATCH_STATUS_WAITING
    status = f"{open_seats(match)} open seat{'s' if open_seats(match) != 1 else ''}" if waiting else "playing"
    taken = len(match.seats) - open_seats(match)
    return (game_name(match.game_id), status, f"{taken}/{len(match.seats)}", players_line(match),
            age_text(match.created_unix_ms, now_ms))


def result_text(match: mpb.Match, seat: int) -> str:
    """How `seat` finished ("1st of 3, winner, 20")."""
    result = next((r for r in match.outcome.results if r.seat == seat), None)
    if result is None:
        return "-"
    place = {1: "1st", 2: "2nd", 3: "3rd"}.get(result.rank, f"{result.rank}th")
    return f"{place} of {len(match.seats)}{', winner' if result.winner else ''}, {result.score:g}"


def history_row(entry: mpb.MatchHistoryEntry, now_ms: int) -> tuple[str, ...]:
    match = entry.match
    return (game_name(match.game_id), result_text(match, entry.seat), players_line(match),
            age_text(entry.finished_unix_ms, now_ms) + " ago")


def details_text(match: mpb.Match, target_flags: str) -> Text:
    """The highlighted match: its seats in their colours and the commands that join or watch it."""
    text = Text(f"{game_name(match.game_id)} · match {match.match_id}", style="bold")
    if match.options:
        text.append(" · " + ", ".join(f"{k}={v}" for k, v in sorted(match.options.items()) if v))
    if match.turn_seconds:
        text.append(f" · {match.turn_seconds}s a turn")
    for seat in match.seats:
        text.append("\n")
        text.append_text(swatch(seat.seat))
        text.append(" " + seat_label(match, seat.seat), style=seat_style(seat.seat))
    if match.seed_fixed:
        text.append("\nits creator chose the seed (and can compute every hidden card); it is never rated",
                    style="italic")
    if match.status == mpb.MATCH_STATUS_FINISHED:
        text.append(f"\nEnter replays it · or from a shell: sizzle replay {match.match_id}{target_flags}", style="dim")
        return text
    verbs = ("j joins · " if open_seats(match) else "") + "w watches"
    text.append(f"\n{verbs} · or from a shell: sizzle watch {match.match_id}{target_flags}", style="dim")
    return text


class LobbyApp(App["LobbyChoice | None"]):
    """The live matches of a server, to join or watch, and a player's past matches to replay (those of
    `player_id`, or of the player whose `token` it is). `target_flags` are the command line's flags
    that name the server (shown in the commands); `clock` gives Unix milliseconds (the ages)."""

    CSS = CSS
    TITLE = "Sizzle lobby"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS = [
        Binding("j", "join", "join"),
        Binding("w", "watch", "watch"),
        Binding("p", "replay", "replay"),
        Binding("r", "refresh", "refresh"),
        Binding("q,ctrl+q", "quit", "quit"),
    ]

    def __init__(self, target: str, *, link: MatchLink | None = None, game_id: str = "", target_flags: str = "",
                 clock: Callable[[], int] | None = None, refresh_seconds: float = REFRESH_SECONDS,
                 player_id: str = "", token: str = "") -> None:
        super().__init__()
        self.player_id = player_id
        self.token = token
        self.history: list[mpb.MatchHistoryEntry] = []
        self.history_note = ""
        self.target = target
        self.link = link or MatchLink(target, "")
        self.game_id = game_id
        self.target_flags = target_flags
        self.clock = clock or (lambda: int(time.time() * 1000))
        self.refresh_seconds = refresh_seconds
        self.matches: list[mpb.Match] = []
        self.loaded = False
        self.confirming = ""  # the fixed-seed match whose join waits for a second press

    def compose(self) -> ComposeResult:
        where = f" · {game_name(self.game_id)}" if self.game_id else ""
        yield Static(f"Sizzle lobby · {self.target}{where}", id="topbar", markup=False)
        yield DataTable(id="matches", cursor_type="row", zebra_stripes=True)
        yield DataTable(id="history", cursor_type="row", zebra_stripes=True)
        yield Static(id="notice", markup=False)
        yield Static(id="details", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one("#matches", DataTable)
        table.add_columns(*COLUMNS)
        table.focus()
        self.query_one("#history", DataTable).add_columns(*HISTORY_COLUMNS)
        self.query_one("#history").border_title = f"past matches of {self.player_id or 'you'} (Tab: here and back)"
        self.set_class(self.wants_history, "with-history")
        self.query_one("#details").border_title = "match"
        self.run_worker(self.load(), group="load", exclusive=True)
        if self.refresh_seconds > 0:
            self.set_interval(self.refresh_seconds, self.action_refresh)

    async def on_unmount(self) -> None:
        await self.link.close()

    async def list_matches(self) -> list[mpb.Match]:
        """Waiting matches first (they need players), then those being played; newest first in each."""
        found: list[mpb.Match] = []
        for status in (mpb.MATCH_STATUS_WAITING, mpb.MATCH_STATUS_RUNNING):
            request = mpb.ListMatchesRequest(game_id=self.game_id, status=status, page_size=PAGE_SIZE)
            response = await self.link.stub.ListMatches(request, timeout=CALL_TIMEOUT)
            found.extend(response.matches)
        return found

    @property
    def wants_history(self) -> bool:
        return bool(self.player_id or self.token)

    async def list_history(self) -> list[mpb.MatchHistoryEntry]:
        """The player's finished matches, newest first (the first page)."""
        request = mpb.ListMatchHistoryRequest(player_id=self.player_id, page_size=PAGE_SIZE)
        response = await self.link.stub.ListMatchHistory(request, metadata=auth(self.token), timeout=CALL_TIMEOUT)
        return list(response.entries)

    async def load(self) -> None:
        try:
            matches = await self.list_matches()
        except grpc.RpcError as error:
            self.say(f"cannot list the matches of {self.target}: {explain(error)}")
            return
        if self.wants_history:
            try:
                self.show_history(await self.list_history())
                self.history_note = ""
            except grpc.RpcError as error:
                self.history_note = ("this server keeps no match history" if reason(error) == "STORE_UNAVAILABLE"
                                     or error.code() == grpc.StatusCode.UNIMPLEMENTED
                                     else f"cannot list the past matches: {explain(error)}")
        self.show(matches)

    def show_history(self, entries: list[mpb.MatchHistoryEntry]) -> None:
        table = self.query_one("#history", DataTable)
        cursor = table.cursor_row
        self.history = entries
        table.clear()
        now = self.clock()
        for entry in entries:
            table.add_row(*history_row(entry, now), key=entry.match.match_id)
        if entries:
            table.move_cursor(row=min(max(cursor, 0), len(entries) - 1))

    def show(self, matches: list[mpb.Match]) -> None:
        table = self.query_one("#matches", DataTable)
        chosen = self.chosen
        self.matches = matches
        table.clear()
        now = self.clock()
        for match in matches:
            table.add_row(*match_row(match, now), key=match.match_id)
        if chosen is not None:
            index = next((i for i, m in enumerate(matches) if m.match_id == chosen.match_id), 0)
            table.move_cursor(row=index)
        self.loaded = True
        if not matches:
            self.say(f"no live matches{' of ' + game_name(self.game_id) if self.game_id else ''} on {self.target}: "
                     "start one with `sizzle play GAME --humans 2` (r refreshes)")
        elif not self.confirming:
            self.say("")
        self.show_details()

    @property
    def in_history(self) -> bool:
        """Whether the person is in the past matches (else in the live ones)."""
        return self.focused is self.query_one("#history")

    @property
    def chosen(self) -> mpb.Match | None:
        if self.in_history:
            row = self.query_one("#history", DataTable).cursor_row
            return self.history[row].match if 0 <= row < len(self.history) else None
        table = self.query_one("#matches", DataTable)
        if not self.matches or not 0 <= table.cursor_row < len(self.matches):
            return None
        return self.matches[table.cursor_row]

    def show_details(self) -> None:
        match = self.chosen
        details = self.query_one("#details", Static)
        details.display = match is not None
        if match is not None:
            details.update(details_text(match, self.target_flags))

    def say(self, text: str) -> None:
        """A line for the person above the details (and why the past matches are missing, if they are)."""
        text = "\n".join(line for line in (text, self.history_note) if line)
        notice = self.query_one("#notice", Static)
        notice.update(Text(text))
        notice.display = bool(text)

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        self.confirming = ""
        self.say("")
        self.show_details()

    def on_descendant_focus(self) -> None:
        self.show_details()
        self.refresh_bindings()

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        match = self.chosen
        if self.in_history:
            self.action_replay()
        elif match is not None and open_seats(match):
            self.action_join()
        else:
            self.action_watch()

    def action_refresh(self) -> None:
        self.run_worker(self.load(), group="load", exclusive=True)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Join and watch in the live matches, replay in the past ones."""
        if action == "replay":
            return self.in_history
        if action in ("join", "watch"):
            return not self.in_history
        return True

    def action_replay(self) -> None:
        match = self.chosen
        if match is not None and self.in_history:
            self.exit(LobbyChoice("replay", match))

    def action_join(self) -> None:
        match = self.chosen
        if match is None or self.in_history:
            return
        if not open_seats(match):
            self.say("no open seat in this match: w watches it")
            return
        if match.seed_fixed and self.confirming != match.match_id:
            self.confirming = match.match_id
            self.say("its creator chose the seed and can compute every hidden card: j again joins anyway")
            return
        self.exit(LobbyChoice("join", match, accept_fixed_seed=match.seed_fixed))

    def action_watch(self) -> None:
        match = self.chosen
        if match is not None and not self.in_history:
            self.exit(LobbyChoice("watch", match))

    async def action_quit(self) -> None:
        self.exit(None)
