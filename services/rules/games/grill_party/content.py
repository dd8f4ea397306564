"""Grill Party's content data, loaded once from content.txtpb, and the derived action-id layout."""

from __future__ import annotations

from dataclasses import dataclass

from services.rules.content import load_content
from sizzle.games.grill_party.v1 import grill_party_pb2 as pb

CONTENT: pb.Content = load_content(__file__, pb.Content)
MAX_PLAYERS = 5  # five colour sets in the box
MIN_PLAYERS = 2


@dataclass(frozen=True)
class ActionLayout:
    """Dense ids: exchanges (source x take x give; source 0 is the grill, source r the seat r places
    to the left), then play card, stop, tuck card, draw."""

    kinds: int
    cards: int
    sources: int

    @property
    def exchange_base(self) -> int:
        return 0

    @property
    def play_base(self) -> int:
        return self.sources * self.kinds * self.kinds

    @property
    def stop(self) -> int:
        return self.play_base + self.cards

    @property
    def tuck_base(self) -> int:
        return self.stop + 1

    @property
    def draw(self) -> int:
        return self.tuck_base + self.cards

    @property
    def size(self) -> int:
        return self.draw + 1


LAYOUT = ActionLayout(kinds=len(CONTENT.grillables), cards=len(CONTENT.cards), sources=MAX_PLAYERS)


def kind_index(grillable: int) -> int:
    """Index of a grillable in the content's list (stock and grill counts use this index)."""
    return list(CONTENT.grillables).index(grillable)


def grillable_name(grillable: int) -> str:
    return pb.Grillable.Name(grillable).removeprefix("GRILLABLE_").capitalize()


def card_name(card: int) -> str:
    return CONTENT.cards[card].name
