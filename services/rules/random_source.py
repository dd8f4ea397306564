"""The random source of a game: splitmix64 whose whole state is one counter inside the game state.

Because the counter lives in the state (`sizzle.common.v1.RandomState`), a state copied, stored and
parsed again draws exactly the same numbers, and replaying the seed and the actions reproduces a game.

splitmix64 runs backwards: one exact draw a player sees (a Hibachi chip's landing point is two) gives
the counter, and the counter the seed, and with it every hidden card. A game whose seed must stay
secret while it runs (the match service's, when it chose the seed) draws keyed numbers instead:
BLAKE2b of the counter under a key made from the seed (`seed_random(..., keyed=True)`), a keyed hash
whose outputs tell nothing of the key. Both stay reproducible from the seed.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import MutableSequence, Sequence
from typing import TypeVar

from sizzle.common.v1 import common_pb2

T = TypeVar("T")

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


def seed_random(random_state: common_pb2.RandomState, seed: int, keyed: bool = False) -> None:
    """Starts `random_state` from a seed (any integer; only its low 64 bits count); `keyed` draws
    keyed numbers (the module docstring)."""
    seed &= _MASK
    random_state.counter = _mix(seed)
    random_state.key = hashlib.blake2b(seed.to_bytes(8, "little"), digest_size=32,
                                       person=b"sizzle-draws").digest() if keyed else b""


def _mix(z: int) -> int:
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


class RandomSource:
    """Draws numbers from, and advances, the RandomState message it wraps."""

    __slots__ = ("_state",)

    def __init__(self, random_state: common_pb2.RandomState) -> None:
        self._state = random_state

    def next_u64(self) -> int:
        state = self._state
        counter = (state.counter + _GOLDEN) & _MASK
        state.counter = counter
        key = state.key
        if key:
            return int.from_bytes(hashlib.blake2b(counter.to_bytes(8, "little"), digest_size=8, key=key).digest(),
                                  "little")
        return _mix(counter)

    def below(self, n: int) -> int:
        """A uniform integer in [0, n)."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        return self.next_u64() % n  # bias < n / 2**64, far below anything a game can notice

    def uniform(self) -> float:
        """A uniform float in [0, 1)."""
        return (self.next_u64() >> 11) * (1.0 / (1 << 53))

    def normal(self, mean: float = 0.0, stddev: float = 1.0) -> float:
        """A normally distributed float (Box-Muller; one draw per call keeps the state simple)."""
        u1 = 1.0 - self.uniform()
        u2 = self.uniform()
        return mean + stddev * math.sqrt(-2.0 * math.log(u1)) * math.cos(2.0 * math.pi * u2)

    def choice(self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]

    def weighted_index(self, weights: Sequence[float]) -> int:
        """An index drawn with probability proportional to its weight."""
        total = float(sum(weights))
        if total <= 0:
            raise ValueError("weights must have a positive sum")
        point = self.uniform() * total
        for index, weight in enumerate(weights):
            point -= weight
            if point < 0:
                return index
        return max(i for i, w in enumerate(weights) if w > 0)

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher-Yates in place (works on repeated proto fields too)."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]
