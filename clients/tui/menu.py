"""The legal actions as a menu: one key each (1-9, then a-z), pages when there are more than the
screen shows (at most one per key), and a filter of words for games with hundreds of actions."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from sizzle.rules.v1 import rules_service_pb2 as rpb

KEYS = "123456789abcdefghijklmnopqrstuvwxyz"


@dataclass
class ActionMenu:
    """The actions offered now, the words they are filtered by, and the page shown."""

    actions: list[rpb.LegalAction] = field(default_factory=list)
    words: str = ""
    page: int = 0
    page_size: int = len(KEYS)  # actions a page shows: as many as the screen has rows for, at most one per key

    def offer(self, actions: Sequence[rpb.LegalAction]) -> None:
        """New actions: back to the first page. The filter stays while it still matches some."""
        self.actions = list(actions)
        self.page = 0
        if self.actions and self.words and not self.matching:
            self.words = ""

    def clear(self) -> None:
        self.offer([])

    def set_filter(self, words: str) -> None:
        self.words = words
        self.page = 0

    @property
    def matching(self) -> list[rpb.LegalAction]:
        terms = self.words.lower().split()
        if not terms:
            return self.actions
        return [a for a in self.actions if all(t in a.description.lower() for t in terms)]

    @property
    def pages(self) -> int:
        return max(1, -(-len(self.matching) // self.size))

    @property
    def size(self) -> int:
        return max(1, min(self.page_size, len(KEYS)))

    def resize(self, page_size: int) -> None:
        """Pages of `page_size` actions from now on, the first of them shown."""
        if page_size != self.page_size:
            self.page_size = page_size
            self.page = 0

    def turn_page(self, step: int) -> None:
        self.page = (self.page + step) % self.pages

    def shown(self) -> list[tuple[str, rpb.LegalAction]]:
        """The actions of the page with their keys."""
        start = self.page * self.size
        return list(zip(KEYS, self.matching[start:start + self.size], strict=False))

    def pick(self, key: str) -> rpb.LegalAction | None:
        for shown_key, action in self.shown():
            if shown_key == key:
                return action
        return None
