"""The table screen: a seat playing a match (`sizzle play`) or a spectator following one live
(`sizzle watch`). It shows the game's board as the engine renders the caller's view, the players and
how they stand (each seat in its colour), what happened (the last moves highlighted), the turn timer,
the legal actions in plain words with a key each, and the final table at the end.

It follows the match with a MatchLink, which reconnects and resumes by itself; a lost connection is
said in a bar across the top of the screen. Updates are shown in order, bot moves at a person's pace
(clients/tui/pacing.py). Where things go depends on the terminal's size (clients/tui/layout.py)."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable

import grpc
from rich.text import Text
from textual import events
from textual.app import App, ComposeResult, ScreenStackError
from textual.binding import Binding
from textual.containers import Container, Vertical
from textual.css.query import NoMatches
from textual.widgets import Footer, Input, OptionList, Static

from clients.connection import MatchLink, explain, reason
from clients.tui.layout import layout_for
from clients.tui.menu import KEYS, ActionMenu
from clients.tui.pacing import Pacer, moves_of
from clients.tui.panels import PANELS_CSS, BoardPanel, EventLog, PlayersPanel, arrange
from clients.tui.seats import seat_label
from clients.tui.table import (
    event_line,
    final_text,
    local_rendering,
    move_number,
    status_line,
    timer_text,
    unpack_view,
)
from sizzle.common.v1 import common_pb2
from sizzle.match.v1 import match_service_pb2 as mpb
from sizzle.rules.v1 import rules_service_pb2 as rpb

CSS = PANELS_CSS + """
#connection { display: none; height: auto; background: $error; color: $text; padding: 0 1; text-style: bold; }
#connection.lost { display: block; }
#actions-box { height: auto; padding: 0 1; }
#status { height: auto; text-style: bold; }
#filter { display: none; height: 1; }
#actions { height: auto; }
#final { display: none; height: auto; }
.framed #actions-box { border: round $primary; }
.compact #actions-box { border-top: round $primary; }
MatchApp.filtering #filter { display: block; }
MatchApp.idle #actions { display: none; }
MatchApp.finished #actions, MatchApp.finished #filter { display: none; }
MatchApp.finished #final { display: block; }
"""


def _display_name(game_id: str) -> str:
    try:
        from services.rules import registry

        return registry.get_engine(game_id).spec.display_name
    except Exception:
        return game_id


class MatchApp(App[mpb.Match | None]):
    """One match on screen. With a seat token it plays that seat; without one it watches.

    `bot_pause` (seconds) spaces the bot moves shown to a person (0: as they come); `clock` gives the
    time the turn timer counts from (Unix milliseconds)."""

    CSS = CSS
    TITLE = "Sizzle"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS = [
        Binding("ctrl+q", "quit", "quit"),
        Binding("q", "close", "quit"),
        Binding("greater_than_sign", "page(1)", "next page", priority=True),
        Binding("less_than_sign", "page(-1)", "previous page", priority=True),
        Binding("right", "page(1)", "next page", show=False),
        Binding("left", "page(-1)", "previous page", show=False),
        Binding("slash", "filter", "filter"),
        Binding("escape", "clear_filter", "clear filter", show=False),
        Binding("pageup", "scroll_board(-1)", "scroll the table", show=False, priority=True),
        Binding("pagedown", "scroll_board(1)", "scroll the table", show=False, priority=True),
        Binding("ctrl+l", "leave", "leave (a bot plays on)"),
    ]

    def __init__(self, target: str, match_id: str, *, token: str = "", seat: int = -1, invite: str = "",
                 link: MatchLink | None = None, bot_pause: float = 0.0,
                 clock: Callable[[], int] | None = None) -> None:
        super().__init__()
        self.match_id = match_id
        self.seat = seat if token else -1
        self.invite = invite
        self.link = link or MatchLink(target, match_id, token)
        self.link.on_connection = self.show_connection
        self.pacer = Pacer(bot_pause)
        self.clock = clock or (lambda: int(time.time() * 1000))
        self.match: mpb.Match | None = None
        self.view_moves: int | None = None  # the moves played, as the board counts them
        self.menu = ActionMenu()
        self.pending_version: int | None = None  # the version an action in flight was chosen at
        self.finished = False
        self.has_left = False
        self.updates_seen = 0
        self.events_seen: list[common_pb2.Event] = []
        self.turns_played = 0
        self.turn_marked: int | None = None  # the version whose "your turn" line is in the log
        self.notice = ""
        self.inbox: asyncio.Queue[mpb.WatchMatchResponse] = asyncio.Queue()
        self._presenting = False
        self.screen_layout = layout_for(80, 24)
        self._shown: dict[str, object] = {}  # what each widget shows, to skip repaints that change nothing

    @property
    def spectating(self) -> bool:
        return self.seat < 0

    @property
    def idle(self) -> bool:
        """Whether every update received so far is on screen."""
        return self.inbox.empty() and not self._presenting

    # ------------------------------------------------------------------ layout
    def compose(self) -> ComposeResult:
        yield Static(id="topbar", markup=False)
        yield Static(id="connection", markup=False)
        with Container(id="main"):
            yield BoardPanel(id="board-box")
            with Vertical(id="side"):
                with Container(id="info"):
                    yield PlayersPanel(id="players")
                    yield EventLog(id="log")
                with Vertical(id="actions-box"):
                    yield Static("connecting...", id="status", markup=False)
                    yield Input(placeholder="words to filter the actions by (Enter: back to the list)", id="filter",
                                compact=True)
                    yield OptionList(id="actions", markup=False, compact=True)
                    yield Static(id="final", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#board-box").border_title = "table"
        self.query_one("#players").border_title = "players"
        self.query_one("#log").border_title = "what happened"
        self.show_topbar()
        self.place_panels(self.size.width, self.size.height)
        self.set_class(True, "idle")
        self.query_one("#actions", OptionList).focus()
        self.run_worker(self.follow(), group="follow", exclusive=True)
        self.run_worker(self.present(), group="present", exclusive=True)
        self.set_interval(0.5, self.tick)
        self.refresh_actions()

    async def on_unmount(self) -> None:
        await self.link.close()

    def on_resize(self, event: events.Resize) -> None:
        self.place_panels(event.size.width, event.size.height)

    def place_panels(self, width: int, height: int) -> None:
        """Places the panels for a terminal of this size (clients/tui/layout.py)."""
        self.screen_layout = layout_for(width, height)
        self.menu.resize(self.screen_layout.action_rows)
        self.size_info()
        self.refresh_actions()

    def size_info(self) -> None:
        arrange(self, self.screen_layout, len(self.match.seats) if self.match is not None else 2)

    # ------------------------------------------------------------------ following the match
    async def follow(self) -> None:
        """Receives the match's updates (the presenter shows them)."""
        from_version = -1
        while True:
            try:
                async for update in self.link.updates(from_version):
                    self.inbox.put_nowait(update)
                return
            except grpc.RpcError as error:
                if reason(error) == "WRONG_SEAT" and self.link.token:
                    # A bot plays the seat now (time ran out, or we left): the token no longer shows
                    # its view, so go on watching as a spectator from where we were.
                    self.link.token = ""
                    self.notice = "a bot plays your seat now: you are watching"
                    from_version = self.link.last_version
                    continue
                self.show_connection(f"cannot follow the match: {explain(error)}")
                return

    async def present(self) -> None:
        """Shows the updates in order, bot moves at the pacer's pace (the log received first: at once)."""
        first = True
        while True:
            update = await self.inbox.get()
            self._presenting = True
            try:
                for move in moves_of(update.events):
                    if not first:
                        await self.pacer.before(update.match, move)
                    self.log_move(update.match, move)
                    self.pacer.shown()
                self.apply_update(update)
            except NoMatches:  # the screen is closing
                return
            finally:
                self._presenting = False
            first = False

    def log_move(self, match: mpb.Match, move: list[common_pb2.Event]) -> None:
        self.events_seen.extend(move)
        self.query_one(EventLog).add_move([(event.seat, event_line(match, event)) for event in move])

    def apply_update(self, update: mpb.WatchMatchResponse) -> None:
        """The board, the players and the actions at the update's version (its events are logged)."""
        previous = self.match
        match = update.match
        self.match = match
        self.updates_seen += 1
        if not self.spectating:
            self.seat = update.seat if update.seat >= 0 else self.seat
        game_id = match.game_id
        view = unpack_view(game_id, update.view)
        self.view_moves = move_number(view)
        if previous is None:
            self.title = f"Sizzle · {_display_name(game_id)}"
            self.query_one(EventLog).highlighted = max(len(match.seats), 2)
        self.show_topbar()
        rendering = update.rendering or (local_rendering(game_id, view) if view is not None else "")
        self.query_one(BoardPanel).show(rendering)
        self.query_one(PlayersPanel).show(match, self.seat, game_id, view)
        self.size_info()  # fits the players to their panel
        my_turn = self.plays(match)
        if my_turn and self.turn_marked != match.version:
            self.turn_marked = match.version
            moves = self.view_moves if self.view_moves is not None else match.version
            self.query_one(EventLog).add_note(f"--- your turn (move {moves}) ---", style="bold reverse")
        if self.pending_version is not None and match.version > self.pending_version:
            self.pending_version = None
            self.notice = ""
        self.menu.offer(update.legal_actions if my_turn else [])
        if self.query_one("#filter", Input).value != self.menu.words:  # the menu dropped a stale filter
            self.query_one("#filter", Input).value = self.menu.words
        if match.status == mpb.MATCH_STATUS_FINISHED and not self.finished:
            self.finished = True
            self.add_class("finished")
            final = final_text(match, self.seat)
            final.append("\n\npress q to leave", style="bold")
            self.query_one("#final", Static).update(final)
        self.refresh_actions()

    def plays(self, match: mpb.Match) -> bool:
        """Whether this screen's seat is to move (and still played by us, not by a bot)."""
        seat = self.seat
        return (not self.spectating and match.status == mpb.MATCH_STATUS_RUNNING and match.seat_to_move == seat
                and 0 <= seat < len(match.seats) and match.seats[seat].kind == mpb.SEAT_KIND_HUMAN)

    def show(self, selector: str, text: str) -> None:
        """Puts plain text in a Static, unless it shows that already (each change costs a layout)."""
        if self._shown.get(selector) != text:
            self._shown[selector] = text
            self.query_one(selector, Static).update(Text(text))

    def show_topbar(self) -> None:
        match = self.match
        game = f" · {_display_name(match.game_id)}" if match is not None else ""
        who = "spectating" if self.spectating else (
            f"you: {seat_label(match, self.seat)}" if match is not None else f"seat {self.seat}")
        self.show("#topbar", f"Sizzle{game} · match {self.match_id} · {who}")

    def show_connection(self, text: str) -> None:
        """The state of the connection, in a bar across the top (empty: connected)."""
        try:
            self.show("#connection", text)
            self.query_one("#connection").set_class(bool(text), "lost")
        except Exception:  # the screen is gone (the app is closing)
            pass

    def tick(self) -> None:
        # the screen is closing (its widgets gone), or closed (the stack empty: a tick due as the app exits)
        with contextlib.suppress(NoMatches, ScreenStackError):
            self.refresh_actions()

    def refresh_actions(self) -> None:
        match = self.match
        status = status_line(match, self.seat) if match is not None else "connecting..."
        if match is not None and self.plays(match) and self.view_moves is not None:
            status = status.replace("your turn", f"your turn (move {self.view_moves})", 1)
        if match is not None and (timer := timer_text(match, self.seat, self.clock())):
            status += f"  ·  {timer}"
        if match is not None and match.status == mpb.MATCH_STATUS_WAITING and self.invite:
            status += f"\n{self.invite}"
        if self.pending_version is not None:
            status = "sending your action..."
        if self.notice:
            status += f"\n{self.notice}"
        self.show("#status", status)
        self.set_class(not self.can_act, "idle")
        self.set_class(bool(self.menu.words) or isinstance(self.focused, Input), "filtering")
        options = self.query_one("#actions", OptionList)
        lines = [f"{key}  {action.description}" for key, action in self.menu.shown()]
        if self._shown.get("#actions") != lines:
            self._shown["#actions"] = lines
            options.clear_options()
            options.add_options([Text(line, no_wrap=True, overflow="ellipsis") for line in lines])
        self.query_one("#actions-box").border_title = self.actions_title()
        self.refresh_bindings()

    def actions_title(self) -> str:
        if self.finished:
            return "final table"
        if self.spectating:
            return "watching"
        if not self.can_act:
            return "your actions"
        matching, total = len(self.menu.matching), len(self.menu.actions)
        counted = f"{matching} of {total} match '{self.menu.words}'" if self.menu.words else f"{total}"
        page = f" · page {self.menu.page + 1}/{self.menu.pages} (< >)" if self.menu.pages > 1 else ""
        return f"your actions · {counted}{page}"

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Only the keys that do something now are offered in the footer."""
        if action in ("page", "filter"):
            return self.can_act and (action == "filter" or self.menu.pages > 1)
        if action == "clear_filter":
            return self.can_act
        if action == "leave":
            return not self.spectating and not self.finished and not self.has_left and self.match is not None
        if action == "close":
            return self.finished
        if action == "quit":
            return not self.finished
        return True

    # ------------------------------------------------------------------ choosing
    @property
    def can_act(self) -> bool:
        match = self.match
        return (match is not None and not self.finished and self.pending_version is None and self.plays(match)
                and bool(self.menu.actions))

    def on_key(self, event: events.Key) -> None:
        if isinstance(self.focused, Input):
            return
        if event.character and event.character in KEYS:
            action = self.menu.pick(event.character)
            if action is not None:
                event.stop()
                self.choose(action)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        shown = self.menu.shown()
        if 0 <= event.option_index < len(shown):
            self.choose(shown[event.option_index][1])

    def choose(self, action: rpb.LegalAction) -> None:
        if not self.can_act or self.match is None:
            return
        self.pending_version = self.match.version
        self.notice = ""
        self.query_one(EventLog).add_note(f"you choose: {action.description}")
        self.refresh_actions()
        self.run_worker(self.send(action, self.match.version), group="submit")

    async def send(self, action: rpb.LegalAction, version: int) -> None:
        try:
            await self.link.submit(action.action_id, version)
            self.turns_played += 1
        except grpc.RpcError as error:
            self.pending_version = None
            why = reason(error)
            if why == "STALE_VERSION":
                self.notice = "the match moved on before your action arrived: choose again"
            elif why == "WRONG_SEAT":
                self.notice = "a bot plays your seat now (your time ran out or you left)"
            else:
                self.notice = f"refused: {explain(error)}"
            self.refresh_actions()

    # ------------------------------------------------------------------ keys
    def action_page(self, step: int) -> None:
        self.menu.turn_page(step)
        self.refresh_actions()

    def action_filter(self) -> None:
        if self.can_act:
            self.add_class("filtering")
            self.query_one("#filter", Input).focus()

    def action_clear_filter(self) -> None:
        self.query_one("#filter", Input).value = ""
        self.query_one("#actions", OptionList).focus()
        self.refresh_actions()

    def action_scroll_board(self, step: int) -> None:
        board = self.query_one(BoardPanel)
        board.scroll_relative(y=step * max(board.size.height - 2, 1), animate=False)

    def on_input_changed(self, event: Input.Changed) -> None:
        self.menu.set_filter(event.value)
        self.refresh_actions()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.query_one("#actions", OptionList).focus()
        self.refresh_actions()

    async def action_leave(self) -> None:
        if self.spectating or self.finished or self.match is None:
            return
        try:
            await self.link.leave()
            self.has_left = True
            self.notice = "you left: a bot plays your seat from now on (ctrl+q quits)"
        except grpc.RpcError as error:
            self.notice = f"could not leave: {explain(error)}"
        self.refresh_actions()

    async def action_close(self) -> None:
        self.exit(self.match)

    async def action_quit(self) -> None:
        self.exit(self.match)
