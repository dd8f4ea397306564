"""How the matchmaker groups tickets, as pure functions of what it read from the pool.

Each cycle takes anchors (tickets at their longest wait that allow bots, then the oldest) and, for
each, the tickets nearest its rating within its window, which widens the longer the anchor waits. An
anchor is seated with the closest tickets that accept the same table size (the largest size people
can fill now); once at its longest wait, with bots allowed, it is seated at once with whoever is
close and allows bots too, bots taking the seats left."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from services.kit.config import Config
from sizzle.matchmaking.v1 import matchmaking_service_pb2 as mmpb


@dataclass
class Table:
    """A group to seat: the people (anchor first), the table size and how many seats bots take."""

    people: list[mmpb.Ticket]
    num_players: int
    bots: int

    @property
    def ticket_ids(self) -> list[str]:
        return [t.ticket_id for t in self.people]


def window(config: Config, waited_ms: int) -> float:
    """The rating window (mu points either side) of a ticket that has waited this long."""
    grown = config.matchmaking_window_base + config.matchmaking_window_growth * max(waited_ms, 0) / 1000
    return min(grown, config.matchmaking_window_max)


def bot_fill_due(ticket: mmpb.Ticket, now_ms: int) -> bool:
    return ticket.allow_bots and now_ms >= ticket.wait_deadline_unix_ms


def people_table(anchor: mmpb.Ticket, nearby: Sequence[mmpb.Ticket]) -> Table | None:
    for size in sorted(anchor.player_counts, reverse=True):
        fit = [t for t in nearby if size in t.player_counts]
        if len(fit) >= size - 1:
            return Table([anchor, *fit[:size - 1]], size, 0)
    return None


def bot_table(anchor: mmpb.Ticket, nearby: Sequence[mmpb.Ticket]) -> Table:
    """The most people the anchor's sizes allow (the smaller table on a tie); bots fill the rest."""
    willing = [t for t in nearby if t.allow_bots]
    best: Table | None = None
    for size in sorted(anchor.player_counts):
        fit = [t for t in willing if size in t.player_counts][:size - 1]
        if best is None or len(fit) > len(best.people) - 1:
            best = Table([anchor, *fit], size, size - 1 - len(fit))
    assert best is not None
    return best


def plan(config: Config, anchors: Sequence[mmpb.Ticket], nearby: Sequence[Sequence[mmpb.Ticket]],
         now_ms: int) -> list[Table]:
    """Tables for this cycle; no ticket is in two of them."""
    used: set[str] = set()
    tables = []
    for anchor, candidates in zip(anchors, nearby, strict=True):
        if anchor.ticket_id in used:
            continue
        reach = window(config, now_ms - anchor.created_unix_ms)
        close = sorted(
            (t for t in candidates
             if t.ticket_id not in used and t.ticket_id != anchor.ticket_id and abs(t.rating - anchor.rating) <= reach),
            key=lambda t: (abs(t.rating - anchor.rating), t.created_unix_ms),
        )
        table = people_table(anchor, close)
        if table is None and bot_fill_due(anchor, now_ms):
            table = bot_table(anchor, close)
        if table is not None:
            used.update(table.ticket_ids)
            tables.append(table)
    return tables
