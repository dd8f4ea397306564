"""The ladder and the difficulties it tunes: the shipped difficulties file, a blunder rate that does
what it says, small ladders whose ratings order the bots as their play does, and matchmaking's bot
seats starting from the ladder's measured ratings. The full ladder is `make ladder` (docs/bots.md)."""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

import pytest

from services.matchmaking import ratings
from services.matchmaking.ratings import BOT_START, MODEL, bot_id, bot_start, record_of
from services.rules.registry import game_ids, get_engine
from sizzle.match.v1 import match_service_pb2 as mpb
from workers.bots.interface import Bot, RandomBot
from workers.bots.policy import DEFAULT_PLAY, Difficulty, OnnxPolicy, Play, difficulties_path, play_of
from workers.training.arena import play_out, win_shares
from workers.training.ladder import BOT_RATINGS, Entry, run_ladder, seats_for, separated, write_bot_ratings


def test_every_game_ships_tuned_difficulties_that_weaken_in_order() -> None:
    tuned = json.loads(difficulties_path().read_text())
    assert set(tuned) == set(game_ids())
    for game_id in game_ids():
        easy, medium, hard = (play_of(game_id, d) for d in (Difficulty.EASY, Difficulty.MEDIUM, Difficulty.HARD))
        assert hard == Play(None, 0.0)
        assert 0.0 < medium.blunder < easy.blunder < 1.0, game_id
        marks = tuned[game_id]
        assert marks["easy"]["ratio_vs_heuristic"] < 1.0 < marks["hard"]["ratio_vs_heuristic"], game_id
        assert marks["easy"]["ratio_vs_heuristic"] < marks["medium"]["ratio_vs_heuristic"] \
            < marks["hard"]["ratio_vs_heuristic"], game_id


def test_a_bad_difficulties_file_is_refused(tmp_path: Path) -> None:
    (tmp_path / "difficulties.json").write_text(json.dumps({"hibachi": {"easy": {"temperature": 1, "blunder": 2}}}))
    with pytest.raises(ValueError, match="blunder"):
        play_of("hibachi", Difficulty.EASY, tmp_path)
    assert play_of("hibachi", Difficulty.MEDIUM, tmp_path) == DEFAULT_PLAY[Difficulty.MEDIUM]


def test_a_blunder_rate_of_one_plays_uniformly_and_zero_plays_the_best() -> None:
    engine = get_engine("grill_party")
    state = engine.new_game(3, None, 4)
    seat = state.core.seat_to_move
    view, legal = engine.view(state, seat), engine.legal_actions(state)
    assert len(legal) > 3
    rng = random.Random(1)
    blundering = OnnxPolicy("grill_party", Difficulty.EASY, rng, play=Play(None, 1.0))
    counts = Counter(blundering.step(view, legal) for _ in range(200 * len(legal)))
    assert set(counts) == set(legal) and min(counts.values()) > 100  # every legal id, about equally
    best = OnnxPolicy("grill_party", Difficulty.EASY, rng, play=Play(None, 0.0))
    assert len({best.step(view, legal) for _ in range(20)}) == 1


def test_a_table_seats_distinct_entrants_while_they_last() -> None:
    rng = random.Random(2)
    pool = ["random", "heuristic", "easy", "medium", "hard"]
    for players in range(2, 7):
        seated = seats_for(rng, players, pool, with_search=players % 2 == 0)
        assert len(seated) == players
        assert ("search" in seated) == (players % 2 == 0)
        distinct = min(players, len(pool) + (players % 2 == 0))
        assert len(set(seated)) == distinct


def test_a_small_ladder_rates_the_bots_as_they_play() -> None:
    ladder = run_ladder("grill_party", games=150, search_games=2, search_iterations=6, seed=5)
    entries = ladder.entries
    assert set(entries) == {"random", "heuristic", "easy", "medium", "hard", "search"}
    assert entries["search"].tables == 2 and ladder.search_decisions > 0
    assert sum(e.tables for e in entries.values()) == sum(
        [2, 3, 4, 5][i % 4] for i in range(150))  # every seat of every table rated once
    # Random never wins Grill Party against anyone who plays: it is rated last, by a clear margin.
    assert entries["random"].wins == 0.0
    assert all(separated(entries["random"], e) for n, e in entries.items() if n not in ("random", "search"))
    assert entries["hard"].rating.mu > entries["easy"].rating.mu
    checks = dict(ladder.checks())
    assert ladder.summary()["tables"] == 150 and checks["random < easy"]


def test_separation_needs_a_gap_beyond_the_combined_uncertainty() -> None:
    low, high = Entry("a"), Entry("b")
    low.rating = ratings.RatingRecord(20.0, 1.0)
    high.rating = ratings.RatingRecord(22.0, 1.0)
    assert not separated(low, high)  # 2.0 < 1.96 * sqrt(2)... is 2.77
    high.rating = ratings.RatingRecord(23.0, 1.0)
    assert separated(low, high) and not separated(high, low)


def test_matchmaking_starts_bots_from_the_shipped_ladder() -> None:
    measured = json.loads(BOT_RATINGS.read_text())
    assert set(measured) == set(game_ids())
    for game_id, ladder in measured.items():
        starts = [bot_start(game_id, d) for d in (mpb.DIFFICULTY_EASY, mpb.DIFFICULTY_MEDIUM, mpb.DIFFICULTY_HARD)]
        assert starts[0].mu < starts[1].mu < starts[2].mu, game_id
        entrants = ladder["entrants"]
        assert starts[2].mu - starts[0].mu == pytest.approx(entrants["hard"]["mu"] - entrants["easy"]["mu"])
        assert all(s.sigma >= ratings.BOT_SIGMA_FLOOR for s in starts)
        # An unrated bot's record is its start; a stored one wins.
        assert record_of(game_id, bot_id(mpb.DIFFICULTY_HARD), None).mu == starts[2].mu
        assert record_of(game_id, "someone", None).mu == MODEL.mu


def test_a_game_missing_from_the_ladder_starts_its_bots_at_the_fixed_priors(tmp_path: Path) -> None:
    path = tmp_path / "bot_ratings.json"
    ladder = run_ladder("a_la_carte_cards", games=20, seed=3)
    write_bot_ratings([ladder], path)
    assert bot_start("hibachi", mpb.DIFFICULTY_EASY, path) == BOT_START[mpb.DIFFICULTY_EASY]
    measured = bot_start("a_la_carte_cards", mpb.DIFFICULTY_EASY, path)
    heuristic = ladder.entries["heuristic"].rating.mu
    assert measured.mu == pytest.approx(MODEL.mu + ladder.entries["easy"].rating.mu - heuristic, abs=0.01)


def test_easy_still_beats_random_at_the_card_game() -> None:
    """The ladder's first check, on real play: easy (the most blundering difficulty) still beats
    random at two-player tables of the card game."""
    engine = get_engine("a_la_carte_cards")
    wins = 0.0
    for seed in range(40):
        bots: list[Bot] = [OnnxPolicy("a_la_carte_cards", Difficulty.EASY, random.Random(seed)),
                           RandomBot(random.Random(seed))]
        state = engine.new_game(2, None, seed)
        play_out(engine, state, bots)
        wins += win_shares(engine, state)[0]
    assert wins / 40 > 0.7
