"""The random source: splitmix64 runs backwards from one exact draw (the attack a black-box audit
made on Hibachi, whose chip landing points are two exact draws: the seed, and so every hidden card,
mid-game); keyed draws, which the match service deals with when it chose the seed, do not."""

from __future__ import annotations

from services.rules.random_source import RandomSource, seed_random
from sizzle.common.v1 import common_pb2

MASK = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15


def unmix(z: int) -> int:
    """The inverse of splitmix64's output function: what an attacker computes."""
    z ^= (z >> 31) ^ (z >> 62)
    z = (z * pow(0x94D049BB133111EB, -1, 1 << 64)) & MASK
    z ^= (z >> 27) ^ (z >> 54)
    z = (z * pow(0xBF58476D1CE4E5B9, -1, 1 << 64)) & MASK
    z ^= (z >> 30) ^ (z >> 60)
    return z


def attack(first_draw: int) -> tuple[int, int]:
    """(the seed, the next draw) as splitmix64 gives them from one draw seen."""
    counter = unmix(first_draw)
    seed = unmix((counter - GOLDEN) & MASK)
    following = (counter + GOLDEN) & MASK
    following ^= following >> 30
    following = (following * 0xBF58476D1CE4E5B9) & MASK
    following ^= following >> 27
    following = (following * 0x94D049BB133111EB) & MASK
    return seed, following ^ (following >> 31)


def draws(seed: int, keyed: bool, count: int = 3) -> list[int]:
    state = common_pb2.RandomState()
    seed_random(state, seed, keyed=keyed)
    source = RandomSource(state)
    return [source.next_u64() for _ in range(count)]


def test_one_plain_draw_gives_the_seed_and_the_next_draw_and_a_keyed_one_gives_neither() -> None:
    for seed in (1, 20_261_207, (1 << 63) - 25):
        plain = draws(seed, keyed=False)
        assert attack(plain[0]) == (seed, plain[1])  # why plain splitmix64 cannot keep a seed secret
        keyed = draws(seed, keyed=True)
        guessed_seed, guessed_next = attack(keyed[0])
        assert guessed_seed != seed and guessed_next != keyed[1]


def test_keyed_draws_are_reproducible_from_the_seed_and_survive_a_stored_state() -> None:
    assert draws(7, keyed=True) == draws(7, keyed=True) != draws(8, keyed=True)
    assert draws(7, keyed=True) != draws(7, keyed=False)
    state = common_pb2.RandomState()
    seed_random(state, 7, keyed=True)
    source = RandomSource(state)
    source.next_u64()
    stored = common_pb2.RandomState.FromString(state.SerializeToString())  # as the match store keeps it
    assert RandomSource(stored).next_u64() == source.next_u64()


def test_keyed_draws_are_uniform() -> None:
    state = common_pb2.RandomState()
    seed_random(state, 3, keyed=True)
    source = RandomSource(state)
    counts = [0] * 6
    for _ in range(60_000):
        counts[source.below(6)] += 1
    assert all(abs(c - 10_000) < 400 for c in counts), counts  # about 4 standard deviations
    values = [source.uniform() for _ in range(20_000)]
    assert abs(sum(values) / len(values) - 0.5) < 0.01 and min(values) >= 0.0 and max(values) < 1.0
