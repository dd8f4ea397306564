"""What the matchmaking store keeps, in plain types: ticket states, formations in progress and rating
records, with the encodings both store implementations share."""

from __future__ import annotations

import base64
import json
import re
import secrets
from dataclasses import dataclass, field

from sizzle.matchmaking.v1 import matchmaking_service_pb2 as mmpb

# Stored ticket states. FORMING is internal: the matchmaker has claimed the ticket for a match it is
# creating; clients see it as WAITING, and a cancel still wins.
WAITING = mmpb.TICKET_STATUS_WAITING
ASSIGNED = mmpb.TICKET_STATUS_ASSIGNED
CANCELLED = mmpb.TICKET_STATUS_CANCELLED
EXPIRED = mmpb.TICKET_STATUS_EXPIRED
FORMING = 9
LIVE = (WAITING, FORMING)

_TICKET_ID = re.compile(r"^tk-([a-z0-9_]{1,64})-([0-9a-f]{16})$")


def new_ticket_id(game_id: str) -> str:
    """Ticket ids carry their game, so every key of a ticket is found in its pool without a lookup."""
    return f"tk-{game_id}-{secrets.token_hex(8)}"


def game_of(ticket_id: str) -> str | None:
    found = _TICKET_ID.match(ticket_id)
    return found.group(1) if found else None


def public(ticket: mmpb.Ticket, status: int, assignment: bytes = b"") -> mmpb.Ticket:
    """The ticket as its player sees it: the stored state, FORMING shown as WAITING."""
    out = mmpb.Ticket()
    out.CopyFrom(ticket)
    out.status = WAITING if status == FORMING else status  # type: ignore[assignment]
    if assignment:
        out.assignment.ParseFromString(assignment)
    return out


@dataclass
class Formation:
    """A group the matchmaker has claimed and is seating, recorded with the claim so that when its
    replica dies the next lease holder puts its tickets back."""

    formation_id: str
    holder: str
    ticket_ids: list[str]
    created_ms: int
    match_id: str = ""
    # ticket id -> serialized Assignment, once the match exists (what `assign` writes).
    assignments: dict[str, bytes] = field(default_factory=dict)

    def encode(self) -> str:
        return json.dumps({
            "holder": self.holder, "tickets": self.ticket_ids, "at": self.created_ms, "match": self.match_id,
            "assignments": {k: base64.b64encode(v).decode() for k, v in self.assignments.items()},
        })

    @staticmethod
    def decode(formation_id: str, raw: str | bytes) -> Formation:
        data = json.loads(raw)
        return Formation(formation_id, data["holder"], list(data["tickets"]), int(data["at"]), data.get("match", ""),
                         {k: base64.b64decode(v) for k, v in data.get("assignments", {}).items()})


def new_formation(holder: str, ticket_ids: list[str], now_ms: int) -> Formation:
    return Formation("f" + secrets.token_hex(8), holder, ticket_ids, now_ms)


BOT_PREFIX = "bot-"


def is_bot(player_id: str) -> bool:
    return player_id.startswith(BOT_PREFIX)


@dataclass(frozen=True)
class RatingRecord:
    """One player's (or bot difficulty's) OpenSkill rating at a game."""

    mu: float
    sigma: float
    matches: int = 0
    name: str = ""

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma

    def encode(self) -> str:
        return json.dumps({"mu": self.mu, "sigma": self.sigma, "n": self.matches, "name": self.name},
                          sort_keys=True)

    @staticmethod
    def decode(raw: str | bytes) -> RatingRecord:
        data = json.loads(raw)
        return RatingRecord(float(data["mu"]), float(data["sigma"]), int(data.get("n", 0)), str(data.get("name", "")))


@dataclass(frozen=True)
class RatingWrite:
    """One compare-and-set of a rating: the raw record read ('' for none) and the record to write."""

    player_id: str
    expected: str
    new: RatingRecord
