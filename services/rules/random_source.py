"""The random source of a game: splitmix64 whose whole state is one counter inside the game state.

Because the counter lives in the state (`sizzle.common.v1.RandomState`), a state copied, stored and
parsed again draws exactly the same numbers, and replaying the seed and the actions reproduces a game.
"""

from __future__ import annotations

import math
from collections.abc import MutableSequence, Sequence
from typing import TypeVar

from sizzle.common.v1 import common_pb2

T = TypeVar("T")

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


def seed_random(random_state: common_pb2.RandomState, seed: int) -> None:
    """Starts `random_state` from a seed (any integer; only its low 64 bits count)."""
    random_state.counter = _mix(seed & _MASK)


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
        counter = (self._state.counter + _GOLDEN) & _MASK
        self._state.counter = counter
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
