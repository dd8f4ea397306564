"""One conformance suite for every registered game: 2,000 random games each per run (10,000 with -m slow)."""

from __future__ import annotations

import pytest

from services.rules import registry
from tests.rules.conformance import play_random_game, views_hold_no_random_source

GAMES = registry.game_ids()
CHUNKS = 8
GAMES_PER_RUN = 2_000
SLOW_GAMES_PER_RUN = 10_000


def _play_chunk(game_id: str, chunk: int, total: int) -> None:
    engine = registry.get_engine(game_id)
    per_chunk = total // CHUNKS
    totals = {"steps": 0, "resampled_differed": 0, "leak_checks": 0}
    for index in range(per_chunk):
        seed = chunk * 1_000_003 + index
        stats = play_random_game(engine, seed, thorough=index < 2)
        for key in totals:
            totals[key] += stats[key]
    assert totals["leak_checks"] > 0
    # The leak check bites only if redrawing hidden information changes states; it must, in every game.
    assert totals["resampled_differed"] > 0, f"{game_id}: resample_hidden never changed a state"


@pytest.mark.parametrize("chunk", range(CHUNKS))
@pytest.mark.parametrize("game_id", GAMES)
def test_random_games_conform(game_id: str, chunk: int) -> None:
    _play_chunk(game_id, chunk, GAMES_PER_RUN)


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(CHUNKS))
@pytest.mark.parametrize("game_id", GAMES)
def test_many_random_games_conform(game_id: str, chunk: int) -> None:
    _play_chunk(game_id, chunk + CHUNKS, SLOW_GAMES_PER_RUN)


@pytest.mark.parametrize("game_id", GAMES)
def test_views_never_carry_the_random_source(game_id: str) -> None:
    engine = registry.get_engine(game_id)
    assert views_hold_no_random_source(engine.View.DESCRIPTOR)
    assert engine.State.DESCRIPTOR.fields_by_name["core"].message_type.full_name == "sizzle.common.v1.CoreState"


@pytest.mark.parametrize("game_id", GAMES)
def test_spec_is_consistent(game_id: str) -> None:
    engine = registry.get_engine(game_id)
    spec = engine.spec
    assert spec.game_id == game_id and 1 <= spec.min_players <= spec.max_players
    assert spec.num_distinct_actions > 0 and all(d > 0 for d in spec.observation_shape)
    for option in spec.options:
        assert not option.allowed or option.default in option.allowed
