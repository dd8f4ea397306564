"""The tournament harness: the Wilson interval, the pass marks and a short run."""

from __future__ import annotations

import pytest

from workers.training.tournament import Standing, main, run_tournament, seatings, wilson


def test_wilson_interval() -> None:
    low, high = wilson(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-3) and high == pytest.approx(0.5962, abs=1e-3)
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == pytest.approx(1.0)
    assert wilson(0, 0) == (0.0, 1.0)


def test_pass_marks() -> None:
    strong = Standing("heuristic")
    for i in range(100):
        strong.add(1.0 if i % 2 == 0 else 0.0, 4)  # 50% at four-player tables: 2x chance
    assert strong.chance == pytest.approx(0.25) and strong.ratio == pytest.approx(2.0) and strong.target_met()
    two = Standing("random")
    for i in range(100):
        two.add(1.0 if i < 91 else 0.0, 2)  # 91% at two-player tables
    assert two.target_met()
    weak = Standing("random")
    for i in range(100):
        weak.add(1.0 if i < 40 else 0.0, 3)
    assert not weak.target_met()


def test_seatings_cover_every_seat_of_every_table() -> None:
    assert seatings([2, 3]) == [(2, 0), (2, 1), (3, 0), (3, 1), (3, 2)]


def test_a_short_tournament_runs(capsys: pytest.CaptureFixture[str]) -> None:
    standings = run_tournament("grill_party", games=8, table_sizes=[2, 3])
    assert [s.opponent for s in standings] == ["heuristic", "random"]
    assert all(s.games == 8 and 0.0 <= s.share <= 1.0 for s in standings)
    assert main(["--game", "grill_party", "--games", "5"]) == 0
    out = capsys.readouterr().out
    assert "vs heuristic" in out and "games/s" in out


def test_the_heuristic_as_hero_plays_at_chance_against_itself(capsys: pytest.CaptureFixture[str]) -> None:
    """--hero measures a teacher with the same harness; the heuristic against itself is the control:
    over enough games its share is chance: the 95% interval of the win share holds the chance share."""
    (standing,) = run_tournament("a_la_carte_cards", games=400, opponents=["heuristic"], hero_kind="heuristic")
    low, high = standing.interval
    assert standing.games == 400 and low <= standing.chance <= high, (standing.share, standing.chance)
    assert 0.8 < standing.ratio < 1.2
    assert main(["--game", "grill_party", "--games", "4", "--hero", "expert", "--opponent", "random"]) == 0
    out = capsys.readouterr().out
    assert "vs random" in out and "vs heuristic" not in out
    with pytest.raises(ValueError, match="unknown hero"):
        run_tournament("grill_party", games=1, hero_kind="nobody")
