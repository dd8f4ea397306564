"""The table screen: a seat playing a match (`sizzle play`) or a spectator following one live
(`sizzle watch`). It shows the game's board as the engine renders the caller's view, the players and
how they stand, what happened (events), the turn timer, the legal actions in plain words with a key
each, and the final table at the end. It follows the match with a MatchLink, which reconnects and
resumes by itself."""

from __future__ import annotations

import time

import grpc
from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, ScrollableContainer, Vertical
from textual.widgets import Footer, Header, Input, OptionList, RichLog, Static

from clients.connection import MatchLink, explain, reason
from clients.tui.menu import KEYS, ActionMenu
from clients.tui.table import (
    event_line,
    final_table,
    format_table,
    local_rendering,
    player_rows,
    status_line,
    timer_text,
    unpack_view,
)
from sizzle.common.v1 import common_pb2
from sizzle.match.v1 import match_service_pb2 as mpb
from sizzle.rules.v1 import rules_service_pb2 as rpb

CSS = """
#main { height: 1fr; }
#board-box { width: 3fr; border: round $accent; }
#board { width: auto; }
#side { width: 2fr; min-width: 44; }
#players { height: auto; border: round $secondary; padding: 0 1; }
#timer { height: auto; padding: 0 1; color: $warning; }
#connection { height: auto; padding: 0 1; color: $error; }
#events { height: 1fr; border: round $secondary; }
#actions-box { height: 16; border: round $primary; }
#status { height: auto; padding: 0 1; text-style: bold; }
#filter { height: 1; margin: 0 1; }
#actions { height: 1fr; }
#actions.idle { color: $text-muted; }
#page { height: 1; padding: 0 1; color: $text-muted; }
#final { display: none; height: auto; border: double $success; padding: 0 1; }
MatchApp.spectator #actions-box { height: auto; }
MatchApp.spectator #filter, MatchApp.spectator #actions, MatchApp.spectator #page { display: none; }
MatchApp.finished #filter, MatchApp.finished #actions, MatchApp.finished #page { display: none; }
MatchApp.finished #actions-box { height: auto; }
MatchApp.finished #final { display: block; }
"""


def _display_name(game_id: str) -> str:
    try:
        from services.rules import registry

        return registry.get_engine(game_id).spec.display_name
    except Exception:
        return game_id


class MatchApp(App[mpb.Match | None]):
    """One match on screen. With a seat token it plays that seat; without one it watches."""

    CSS = CSS
    TITLE = "Sizzle"
    BINDINGS = [
        Binding("ctrl+q", "quit", "quit"),
        Binding("greater_than_sign", "page(1)", "next page", priority=True),
        Binding("less_than_sign", "page(-1)", "previous page", priority=True),
        Binding("right", "page(1)", "next page", show=False),
        Binding("left", "page(-1)", "previous page", show=False),
        Binding("slash", "filter", "filter"),
        Binding("escape", "clear_filter", "clear filter", show=False),
        Binding("ctrl+l", "leave", "leave (a bot plays on)"),
    ]

    def __init__(self, target: str, match_id: str, *, token: str = "", seat: int = -1, invite: str = "",
                 link: MatchLink | None = None) -> None:
        super().__init__()
        self.match_id = match_id
        self.seat = seat if token else -1
        self.invite = invite
        self.link = link or MatchLink(target, match_id, token)
        self.link.on_connection = self.show_connection
        self.match: mpb.Match | None = None
        self.menu = ActionMenu()
        self.pending_version: int | None = None  # the version an action in flight was chosen at
        self.finished = False
        self.updates_seen = 0
        self.events_seen: list[common_pb2.Event] = []
        self.turns_played = 0
        self.notice = ""
        self._shown: dict[str, object] = {}  # what each widget shows, to skip repaints that change nothing

    @property
    def spectating(self) -> bool:
        return self.seat < 0

    # ------------------------------------------------------------------ layout
    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="main"):
            with ScrollableContainer(id="board-box"):
                yield Static(id="board", markup=False)
            with Vertical(id="side"):
                yield Static(id="players", markup=False)
                yield Static(id="timer", markup=False)
                yield Static(id="connection", markup=False)
                yield RichLog(id="events", wrap=True, min_width=20, max_lines=5000)
        with Vertical(id="actions-box"):
            yield Static("connecting...", id="status", markup=False)
            yield Input(placeholder="press / and type words to filter the actions", id="filter", compact=True)
            yield OptionList(id="actions", markup=False, compact=True)
            yield Static(id="page", markup=False)
        yield Static(id="final", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        if self.spectating:
            self.add_class("spectator")
        self.sub_title = f"match {self.match_id}" + (" · spectating" if self.spectating else f" · seat {self.seat}")
        self.query_one("#board-box").border_title = "table"
        self.query_one("#players").border_title = "players"
        self.query_one("#events").border_title = "what happened"
        self.query_one("#actions-box").border_title = "watching" if self.spectating else "your actions"
        self.query_one("#final").border_title = "final table"
        self.query_one("#actions", OptionList).focus()
        self.run_worker(self.follow(), group="follow", exclusive=True)
        self.set_interval(0.5, self.tick)

    async def on_unmount(self) -> None:
        await self.link.close()

    # ------------------------------------------------------------------ following the match
    async def follow(self) -> None:
        from_version = -1
        while True:
            try:
                async for update in self.link.updates(from_version):
                    self.apply_update(update)
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

    def apply_update(self, update: mpb.WatchMatchResponse) -> None:
        previous = self.match
        match = update.match
        self.match = match
        self.updates_seen += 1
        if not self.spectating:
            self.seat = update.seat if update.seat >= 0 else self.seat
        game_id = match.game_id
        if previous is None:
            self.title = f"Sizzle · {_display_name(game_id)}"
        view = unpack_view(game_id, update.view)
        rendering = update.rendering or (local_rendering(game_id, view) if view is not None else "")
        self.show("#board", rendering)
        header, rows = player_rows(match, self.seat, game_id, view)
        self.show("#players", format_table(header, rows))
        log = self.query_one("#events", RichLog)
        self.events_seen.extend(update.events)
        for event in update.events:
            log.write(Text(event_line(match, event)))
        my_turn = self.plays(match)
        was_my_turn = previous is not None and self.plays(previous)
        if my_turn and not was_my_turn:
            log.write(Text(f"--- your turn (move {match.version}) ---", style="bold"))
        if self.pending_version is not None and match.version > self.pending_version:
            self.pending_version = None
            self.notice = ""
        self.menu.offer(update.legal_actions if my_turn else [])
        if self.query_one("#filter", Input).value != self.menu.words:  # the menu dropped a stale filter
            self.query_one("#filter", Input).value = self.menu.words
        if match.status == mpb.MATCH_STATUS_FINISHED and not self.finished:
            self.finished = True
            self.add_class("finished")
            self.show("#final", final_table(match, self.seat) + "\n\npress q to leave")
        self.refresh_actions()
        self.tick()

    def plays(self, match: mpb.Match) -> bool:
        """Whether this screen's seat is to move (and still played by us, not by a bot)."""
        seat = self.seat
        return (not self.spectating and match.status == mpb.MATCH_STATUS_RUNNING and match.seat_to_move == seat
                and 0 <= seat < len(match.seats) and match.seats[seat].kind == mpb.SEAT_KIND_HUMAN)

    def show(self, selector: str, text: str) -> None:
        """Puts plain text in a Static, unless it shows that already (each change costs a layout)."""
        if self._shown.get(selector) != text:
            self._shown[selector] = text
            self.query_one(selector, Static).update(Text(text, no_wrap=selector == "#board"))

    def show_connection(self, text: str) -> None:
        try:
            self.show("#connection", text)
        except Exception:  # the screen is gone (the app is closing)
            pass

    def tick(self) -> None:
        if self.match is not None:
            self.show("#timer", timer_text(self.match, self.seat, int(time.time() * 1000)))

    def refresh_actions(self) -> None:
        match = self.match
        status = status_line(match, self.seat) if match is not None else "connecting..."
        if match is not None and match.status == mpb.MATCH_STATUS_WAITING and self.invite:
            status += f"\n{self.invite}"
        if self.pending_version is not None:
            status = "sending your action..."
        if self.notice:
            status += f"\n{self.notice}"
        self.show("#status", status)
        options = self.query_one("#actions", OptionList)
        lines = [f"{key}  {action.description}" for key, action in self.menu.shown()]
        if self._shown.get("#actions") != lines:
            self._shown["#actions"] = lines
            options.clear_options()
            options.add_options([Text(line) for line in lines])
        options.set_class(not self.can_act, "idle")
        matching, total = len(self.menu.matching), len(self.menu.actions)
        page = f"page {self.menu.page + 1}/{self.menu.pages} (< > to turn)" if self.menu.pages > 1 else ""
        counted = f"{matching} of {total} actions match '{self.menu.words}'" if self.menu.words else \
            f"{total} actions" if total else ""
        self.show("#page", "  ".join(p for p in (counted, page) if p))

    # ------------------------------------------------------------------ choosing
    @property
    def can_act(self) -> bool:
        match = self.match
        return (match is not None and not self.finished and self.pending_version is None and self.plays(match)
                and bool(self.menu.actions))

    def on_key(self, event: events.Key) -> None:
        if isinstance(self.focused, Input):
            return
        if self.finished and event.character == "q":
            event.stop()
            self.exit(self.match)
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
        self.query_one("#events", RichLog).write(Text(f"you choose: {action.description}", style="italic"))
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
        if not self.spectating and not self.finished:
            self.query_one("#filter", Input).focus()

    def action_clear_filter(self) -> None:
        self.query_one("#filter", Input).value = ""
        self.query_one("#actions", OptionList).focus()

    def on_input_changed(self, event: Input.Changed) -> None:
        self.menu.set_filter(event.value)
        self.refresh_actions()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.query_one("#actions", OptionList).focus()

    async def action_leave(self) -> None:
        if self.spectating or self.finished or self.match is None:
            return
        try:
            await self.link.leave()
            self.notice = "you left: a bot plays your seat from now on (ctrl+q quits)"
        except grpc.RpcError as error:
            self.notice = f"could not leave: {explain(error)}"
        self.refresh_actions()

    async def action_quit(self) -> None:
        self.exit(self.match)
