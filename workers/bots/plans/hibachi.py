"""Hibachi's single-minded plans: where a player hunting for the simplest strong plan would throw
every chip (shared/RULINGS.md, "Balance of what is ours"; docs/rules/hibachi.md, "Balance").

Each plan names the spaces its throws aim at; while cleaning it plays as the heuristic does (which
takes the bonus card, places the chip, reserves the recipe its chips landed on), so a plan is judged
by where it throws. Where several throws fit the plan (the four chips; several ingredient spaces),
the heuristic chooses among them.

The gate (`python -m workers.training.balance --game hibachi`) plays them at the default skill
(average, every seat). Skill is a per-seat option, so `python -m workers.bots.plans.hibachi` plays
them at every skill level too: the whole table at one level, and the plan's seat at one level
against average throwers.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from functools import lru_cache
from pathlib import Path
from typing import Any

from services.rules.games.hibachi.public import (
    ACTION_SPACE,
    CHILI,
    INGREDIENT_SPACE,
    LAYOUT,
    RECIPE_KINDS,
    SKILL_SPREADS,
    hit_rates,
)
from services.rules.registry import get_engine
from sizzle.games.hibachi.v1 import hibachi_pb2 as pb
from workers.bots.heuristic import heuristic_bot
from workers.bots.interface import Bot
from workers.bots.plans import Plan, SingleMindedBot
from workers.training.arena import play_game
from workers.training.tournament import Standing, default_table_sizes, seatings

# The seat order is the rulebook's (the head chef passes left; the first is drawn at random), not ours.
SEATS_RULED_BY_US = False

INGREDIENT_SPACES = frozenset(INGREDIENT_SPACE.values())
BONUS_SPACE = ACTION_SPACE[pb.SPACE_KIND_BONUS_INGREDIENT]
PLACE_SPACE = ACTION_SPACE[pb.SPACE_KIND_PLACE_CHIP]
SAFEST_MARGIN = 0.02  # spaces within this of the least risk of a wasted chip count as the safest
AIM_THROWS = 4000  # throws per space of the estimate


@lru_cache(maxsize=16)
def wasted_chances(spread: float) -> tuple[float, ...]:
    """The share of throws aimed at each space, at this spread, that end on no space at all or
    beyond the raised edge (a chip that can at best cook, or not even that)."""
    rates = [hit_rates(space, spread, AIM_THROWS) for space in range(LAYOUT.spaces)]
    return tuple(r.grill + r.off for r in rates)


def aimed_space(action_id: int) -> int | None:
    """The space a throw id aims at, or None for an id that is no throw."""
    if LAYOUT.throw_base <= action_id < LAYOUT.buy_base:
        return (action_id - LAYOUT.throw_base) % LAYOUT.spaces
    return None


def throws_at(spaces: Callable[[Any], frozenset[int]]) -> Callable[[Any, int], bool]:
    """A plan's predicate: the throws aimed at one of the spaces `spaces(view)` names."""

    def picks(view: Any, action_id: int) -> bool:
        space = aimed_space(action_id)
        return space is not None and space in spaces(view)

    return picks


def always(space: int) -> Callable[[Any, int], bool]:
    chosen = frozenset({space})
    return throws_at(lambda view: chosen)


def cheapest_ingredients(view: Any) -> frozenset[int]:
    """The ingredient spaces with the fewest chips on them now (face-down values are hidden, so a
    chip counts as a chip): where buying costs least."""
    crowd = dict.fromkeys(INGREDIENT_SPACES, 0)
    for chip in view.chips:
        if chip.status == pb.CHIP_STATUS_ON_BOARD:
            for space in chip.spaces:
                if space in crowd:
                    crowd[space] += 1
    fewest = min(crowd.values())
    return frozenset(space for space, count in crowd.items() if count == fewest)


def lacking_ingredients(view: Any) -> frozenset[int]:
    """The spaces of every ingredient a recipe on show or in reserve needs and the hand lacks."""
    player = view.players[view.core.viewer]
    hand = list(player.hand)
    kinds = {k for recipe in [*view.recipes_on_show, *player.reserve] for k in RECIPE_KINDS[recipe] if hand[k] < 1}
    return frozenset(INGREDIENT_SPACE[k] for k in kinds) or INGREDIENT_SPACES


def safest_spaces(view: Any) -> frozenset[int]:
    """The spaces where the seat's own throws are least often wasted (the board is public, the spread
    in its view): never risk the edge, so that every chip lands on some space, to buy, sell or
    cook with."""
    wasted = wasted_chances(view.players[view.core.viewer].throw_spread)
    least = min(wasted)
    return frozenset(space for space, chance in enumerate(wasted) if chance <= least + SAFEST_MARGIN)


def free_card_spaces(view: Any) -> frozenset[int]:
    """Bonus ingredient while no chip lies on it, else Place a chip (which can lay a chip on Bonus
    ingredient later): the two ways to a card for free."""
    taken = any(c.status == pb.CHIP_STATUS_ON_BOARD and BONUS_SPACE in c.spaces for c in view.chips)
    return frozenset({PLACE_SPACE if taken else BONUS_SPACE})


PLANS: tuple[Plan, ...] = (
    Plan("always Bonus ingredient", always(BONUS_SPACE)),
    Plan("always Place a chip", always(PLACE_SPACE)),
    Plan("always Reserve a recipe", always(ACTION_SPACE[pb.SPACE_KIND_RESERVE_RECIPE])),
    Plan("always Head chef", always(ACTION_SPACE[pb.SPACE_KIND_HEAD_CHEF])),
    Plan("always the chili", always(INGREDIENT_SPACE[CHILI])),
    Plan("always the cheapest ingredient", throws_at(cheapest_ingredients)),
    Plan("always the ingredients it lacks", throws_at(lacking_ingredients)),
    Plan("always an ingredient space", throws_at(lambda view: INGREDIENT_SPACES)),
    Plan("always the safest space", throws_at(safest_spaces)),
    Plan("always a free card (Bonus ingredient, else Place a chip)", throws_at(free_card_spaces)),
)
# The control: the heuristic itself, measured the same way (a plan that picks nothing).
CONTROL = Plan("the heuristic itself (control)", lambda view, action_id: False)

Task = tuple[str, str, str, list[tuple[int, int, int]]]  # plan, hero skill, others' skill, games


def _play(task: Task) -> list[tuple[int, float]]:
    """Plays one batch in a worker process: [(players, the plan's win share)]."""
    plan_name, hero_skill, other_skill, games = task
    engine = get_engine("hibachi")
    plan = next(p for p in (*PLANS, CONTROL) if p.name == plan_name)
    out = []
    for players, hero_seat, seed in games:
        rng = random.Random(seed)
        bots: list[Bot] = [heuristic_bot("hibachi", rng) for _ in range(players)]
        bots[hero_seat] = SingleMindedBot("hibachi", plan, rng)
        skills = [hero_skill if seat == hero_seat else other_skill for seat in range(players)]
        shares, _ = play_game(engine, bots, rng.getrandbits(63), {"seat_skills": ",".join(skills)})
        out.append((players, shares[hero_seat]))
    return out


def measure(
    games: int, workers: int, settings: Sequence[tuple[str, str]], plans: Sequence[str], seed: int
) -> dict[tuple[str, str, str], Standing]:
    """Every plan at every (plan's skill, others' skill) setting, `games` games each over every
    table size and seat (the same seeds for every plan and setting)."""
    orders = seatings(default_table_sizes("hibachi"))
    rng = random.Random(seed)
    series = [(*orders[i % len(orders)], rng.getrandbits(63)) for i in range(games)]
    parts = max(1, workers)
    tasks: list[Task] = []
    for hero_skill, other_skill in settings:
        for name in plans:
            tasks.extend((name, hero_skill, other_skill, series[i::parts]) for i in range(parts) if series[i::parts])
    results: dict[tuple[str, str, str], Standing] = {}
    with ProcessPoolExecutor(max_workers=parts) as pool:
        for (name, hero_skill, other_skill, _), played in zip(tasks, pool.map(_play, tasks), strict=True):
            standing = results.setdefault((name, hero_skill, other_skill), Standing("heuristic"))
            for players, share in played:
                standing.add(share, players)
                standing.by_players.setdefault(players, Standing("heuristic", players=str(players))).add(share, players)
    return results


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Hibachi's plans against heuristics at every skill level")
    parser.add_argument("--games", type=int, default=1000, help="games per plan and setting (default 1000)")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--plan", action="append", help="only this plan (repeatable)")
    parser.add_argument("--skill", action="append", help="only this skill level (repeatable)")
    parser.add_argument("--mixed", action="store_true", help="also the plan's seat at each level against average")
    parser.add_argument("--seed", type=int, default=20_261_205)
    parser.add_argument("--json", type=Path, help="also write the results as JSON to this file")
    args = parser.parse_args(argv)
    skills = args.skill or list(SKILL_SPREADS)
    default = "average"
    settings = [(skill, skill) for skill in skills]
    if args.mixed:
        settings += [(skill, default) for skill in skills if skill != default]
    plans = args.plan or [p.name for p in PLANS]
    if args.mixed:
        plans = [*plans, CONTROL.name]
    start = time.perf_counter()
    results = measure(args.games, args.workers, settings, plans, args.seed)
    worst = 0.0
    report = []
    for (name, hero_skill, other_skill), standing in results.items():
        low, high = standing.interval
        sizes = "  ".join(
            f"{players}p {s.share:5.1%} ({s.ratio:4.2f}x)" for players, s in sorted(standing.by_players.items())
        )
        print(
            f"{name:34s} plan {hero_skill:7s} others {other_skill:7s} games {standing.games:5d}  "
            f"win {standing.share:6.1%} [{low:6.1%}, {high:6.1%}]  ratio {standing.ratio:4.2f}x  {sizes}",
            flush=True,
        )
        worst = max(worst, standing.ratio)
        report.append({"plan": name, "plan_skill": hero_skill, "others_skill": other_skill, **standing.summary()})
    print(f"worst ratio {worst:4.2f}x in {time.perf_counter() - start:.0f} s")
    if args.json:
        args.json.write_text(json.dumps(report, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
