"""The replay screen (`sizzle replay MATCH_ID`): steps through a match's event log with keys for next
and previous. Once a match is over its log is complete (seed and every action), so the board at each
step is rebuilt by replaying the actions through the game's engine and shown as a spectator sees it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import grpc
from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Container, Vertical
from textual.widgets import Footer, Static

from clients.connection import MatchLink, explain
from clients.tui.layout import layout_for
from clients.tui.panels import PANELS_CSS, BoardPanel, EventLog, PlayersPanel, arrange
from clients.tui.seats import seat_label
from clients.tui.table import event_line, final_text
from sizzle.common.v1 import common_pb2
from sizzle.match.v1 import match_service_pb2 as mpb

EVENTS_SHOWN = 40  # steps of history beside the board
CSS = PANELS_CSS + """
#position { height: auto; padding: 0 1; text-style: bold; background: $panel; }
#final { display: none; height: auto; padding: 0 1; }
.framed #final { border: round $success; }
.compact #final { border-top: round $success; }
ReplayApp.at-end #final { display: block; }
"""


@dataclass
class Frame:
    """The match after one step of its log."""

    step: mpb.ReplayStep
    rendering: str
    view: Any = None
    lines: list[tuple[int, str]] = field(default_factory=list)  # the step's events: (seat, line)


def build_frames(replay: mpb.GetReplayResponse) -> tuple[list[Frame], str]:
    """One frame per step; the board is rebuilt when the log is complete. Returns the frames and a
    note for people when the board cannot be shown."""
    match = replay.match
    engine: Any = None
    state: Any = None
    note = ""
    if replay.complete:
        try:
            from services.rules import registry

            engine = registry.get_engine(match.game_id)
            state = engine.new_game(replay.num_players, dict(match.options), replay.seed, keyed=replay.keyed_draws)
        except Exception as error:  # a game this client does not know
            note = f"the board cannot be shown: {error}"
            state = None
    else:
        note = "the match is not over: its log has the events only (the board is shown once it ends)"
    frames = []
    steps = list(replay.steps)
    for index, step in enumerate(steps):
        if state is not None:
            try:
                if step.action.type_url:
                    action = engine.Action()
                    step.action.Unpack(action)
                    engine.apply(state, step.seat, action)
                elif index == len(steps) - 1 and not state.core.game_over and match.outcome.results:
                    engine.end_by_clock(state)  # the only change without an action that ends a game
            except Exception as error:
                note = f"the board could not be rebuilt past version {step.version}: {error}"
                state = None
        view = engine.view(state, -1) if state is not None else None
        rendering = engine.render(view) if view is not None else note
        frames.append(Frame(step, rendering, view, [(e.seat, event_line(match, e)) for e in step.events]))
    return frames, note


class ReplayApp(App[None]):
    """A finished match, step by step."""

    CSS = CSS
    TITLE = "Sizzle replay"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS = [
        # Priority: the scrolling board would take the arrows and pages otherwise.
        Binding("right,n,space,l", "step(1)", "next", priority=True),
        Binding("left,p,h,backspace", "step(-1)", "previous", priority=True),
        Binding("pagedown", "step(10)", "+10", show=False, priority=True),
        Binding("pageup", "step(-10)", "-10", show=False, priority=True),
        Binding("home,g", "jump(0)", "first", priority=True),
        Binding("end,G", "jump(-1)", "last", priority=True),
        Binding("q,ctrl+q", "quit", "quit"),
    ]

    def __init__(self, target: str, match_id: str, *, link: MatchLink | None = None) -> None:
        super().__init__()
        self.match_id = match_id
        self.link = link or MatchLink(target, match_id)
        self.replay: mpb.GetReplayResponse | None = None
        self.frames: list[Frame] = []
        self.position = 0
        self.loaded = False
        self.screen_layout = layout_for(80, 24)

    def compose(self) -> ComposeResult:
        yield Static(f"Sizzle replay · match {self.match_id}", id="topbar", markup=False)
        with Container(id="main"):
            yield BoardPanel("loading the replay...", id="board-box")
            with Vertical(id="side"):
                with Container(id="info"):
                    yield PlayersPanel(id="players")
                    yield EventLog(id="log")
        yield Static(id="position", markup=False)
        yield Static(id="final", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#board-box").border_title = "table"
        self.query_one("#players").border_title = "players"
        self.query_one("#log").border_title = "log"
        self.query_one("#final").border_title = "final table"
        self.query_one(EventLog).highlighted = 1
        self.on_resize(events.Resize(self.size, self.size))
        self.run_worker(self.load(), exclusive=True)

    def on_resize(self, event: events.Resize) -> None:
        self.screen_layout = layout_for(event.size.width, event.size.height)
        self.size_panels()

    def size_panels(self) -> None:
        arrange(self, self.screen_layout, len(self.replay.match.seats) if self.replay is not None else 2)

    async def on_unmount(self) -> None:
        await self.link.close()

    async def load(self) -> None:
        try:
            replay = await self.link.replay()
        except grpc.RpcError as error:
            self.query_one(BoardPanel).show(f"cannot load the replay: {explain(error)}")
            return
        self.replay = replay
        self.frames, _ = build_frames(replay)
        try:
            from services.rules import registry

            game = registry.get_engine(replay.match.game_id).spec.display_name
        except Exception:
            game = replay.match.game_id
        self.title = f"Sizzle replay · {game}"
        self.query_one("#topbar", Static).update(Text(f"Sizzle replay · {game} · match {self.match_id}"))
        self.query_one("#final", Static).update(final_text(replay.match))
        self.loaded = True
        self.show()

    def show(self) -> None:
        if self.replay is None or not self.frames:
            return
        match = self.replay.match
        frame = self.frames[self.position]
        self.query_one(BoardPanel).show(frame.rendering)
        at_move = mpb.Match()
        at_move.CopyFrom(match)
        at_move.status = mpb.MATCH_STATUS_FINISHED  # no seat-to-move marker from the end state
        if frame.view is not None:
            at_move.status = mpb.MATCH_STATUS_RUNNING if not frame.view.core.game_over else mpb.MATCH_STATUS_FINISHED
            at_move.seat_to_move = frame.view.core.seat_to_move
        self.query_one(PlayersPanel).show(at_move, -1, match.game_id, frame.view)
        self.size_panels()
        shown = self.frames[max(0, self.position - EVENTS_SHOWN):self.position + 1]
        self.query_one(EventLog).replace([f.lines or [(f.step.seat, f"(version {f.step.version})")] for f in shown])
        step = frame.step
        self.query_one("#position", Static).update(Text(
            f"step {self.position + 1} of {len(self.frames)} · version {step.version} · {seat_label(match, step.seat)}"
            + ("" if self.replay.complete else " · the match is not over")))
        self.set_class(self.position == len(self.frames) - 1 and bool(match.outcome.results), "at-end")

    def action_step(self, step: int) -> None:
        if self.frames:
            self.position = max(0, min(len(self.frames) - 1, self.position + step))
            self.show()

    def action_jump(self, where: int) -> None:
        if self.frames:
            self.position = where % len(self.frames)
            self.show()

    @property
    def current_events(self) -> list[common_pb2.Event]:
        return list(self.frames[self.position].step.events) if self.frames else []
