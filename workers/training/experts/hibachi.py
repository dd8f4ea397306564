"""Expert Hibachi: Fired Up! bot (training teacher).

Hibachi is a race to three cooked recipes (money only breaks ties between chefs who get there in
the same round). A recipe costs three cards and one activation to cook it, so a chef needs about
twelve useful activations to win, and every round gives only three or four. The expert therefore
counts everything in activations:

* Plan. It finds the cheapest set of recipes that finishes the game (on show or in its reserve;
  missing ones cost a guess), allocating its hand recipe by recipe, with two chili cards standing in
  for one missing ingredient. The plan's cost T is the cards still missing plus the cooks still to
  do; recipes on show carry a small risk surcharge (another chef may cook them first).
* Chips already on the board are future activations: it projects how much of T its unused chips can
  still cover this round (a chip on Bonus ingredient can take any card, a chip on an ingredient
  space can buy that card, and any chip can cook once a recipe is complete).
* Throwing. The board (revision 2) keeps Bonus ingredient small, in a corner by the raised edge:
  it reads its own landing chances (the board is public, its spread is in its view). A thrower who
  lands there most of the time (an expert) sends its dearest chips there while the plan lacks cards
  and the space has room; otherwise the cheapest chip goes to the space of the plan's next card it
  can afford (a cheap chip keeps the price low). Then a chip the plan cannot use goes, dearest
  first, to the space of a spare card (selling pays twice the chips there); then one chip a round
  to Bonus ingredient however hard it is to hit (a free card of any kind), then to Reserve a recipe.
* Rivals. A rival's chips on ingredient spaces show which cards it lacks; a recipe on show whose
  ingredients cover all of them is probably its target, so that recipe's risk goes up (the plan
  prefers others, and leaves it for last).
* Cleaning. A one-ply lookahead: every legal activation is applied to a copy of what it sees and
  scored by the projected T at the end of the round (and then money, which breaks ties at the
  end). So it cooks with the chip that is least useful elsewhere, uses a chip that can only buy one
  kind before a chip on Bonus ingredient (which keeps its choice for later), sells what no plan
  needs, and never buys what it does not need. Among equally good activations it first works on
  the recipes on show at some risk (cooked at once, before another chef takes them).
* Near the end (when this round can finish its third recipe), money decides ties, so spare chips
  sell dear rather than reach for the next recipe.

It sees only its view and the legal ids; the one-ply evaluations use the engine's own content tables
(the recipes, the action-id layout) on small copies, with the plan cached by hand and recipes, so a
whole game stays fast.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from functools import lru_cache
from typing import Any, NamedTuple

from services.rules.games.hibachi.public import (
    ACTION_SPACE,
    CHILI,
    CHIP_VALUES,
    CONTENT,
    INGREDIENT_SPACE,
    LAYOUT,
    RECIPE_KINDS,
    SPACE_INGREDIENT,
    allocate,
    hit_rates,
)
from sizzle.games.hibachi.v1 import hibachi_pb2 as pb

V, S, K, R, C = LAYOUT.values, LAYOUT.spaces, LAYOUT.kinds, LAYOUT.recipes, LAYOUT.cook_options
# `make train GAME=hibachi` (the shipped model): four times the common imitation games, 8 epochs and
# two DAgger rounds (neither beat the imitation student, which ships).
# On the board of revision 2 the imitation student made 0.73x chance against heuristics from 3,000
# games and 1.30x from 6,000 (the expert's throws are hard to learn); with the plan outlook in the
# observation (docs/rules/hibachi.md) 1.44x from 6,000 and, from 12,000 games and 8 epochs, the
# student the rounds select; then 80,000 reinforcement games (100 batches of 800) from it with the learnt
# critic as the baseline (2.36x over 5,000 other deals, where 48,000 games with the batch mean made
# 2.16x; its card has the command and the figures).
TRAINING_DEFAULTS = {"heuristic_games": 12000, "imitation_epochs": 8, "rounds": 2, "reinforce_games": 80_000,
                     "reinforce_baseline": "critic"}

BONUS = ACTION_SPACE[pb.SPACE_KIND_BONUS_INGREDIENT]
PLACE = ACTION_SPACE[pb.SPACE_KIND_PLACE_CHIP]
RESERVE = ACTION_SPACE[pb.SPACE_KIND_RESERVE_RECIPE]
ON_BOARD = pb.CHIP_STATUS_ON_BOARD
IN_SUPPLY = pb.CHIP_STATUS_IN_SUPPLY
INVALID = pb.CHIP_STATUS_INVALID
WIN = CONTENT.recipes_to_win
CHILI_NEED = CONTENT.chili_per_ingredient
SELL = CONTENT.sell_multiplier

# Tuning (in activations: one activation ~ one card).
SHOW_RISK = 0.35  # surcharge on a recipe on show: another chef may cook it first
UNKNOWN_RECIPE = 3.6  # a recipe not yet seen: three cards, and finding it
RESERVED_UNKNOWN = 2.7  # a recipe reserved this round (not yet known to this view)
MONEY_WEIGHT = 0.05 / 100  # an activation is worth 2,000 yen while racing
END_MONEY_WEIGHT = 1.0 / 100  # ... and money is everything once the race is decided
SPARE_CARD = 0.02  # a card no plan needs still may be sold or fit a later recipe
BONUS_CROWD = 2  # chips on Bonus ingredient before a throw goes elsewhere (two crowd the small space)
BONUS_CHANCE = 0.6  # sends every chip it can to Bonus ingredient only when this share lands there
AIM_THROWS = 2000  # throws of the landing-chance estimate per space
HEAD_CHEF_VALUE = 0.05  # activating first next round helps a little in races for recipes on show
ORDER_WEIGHT = 0.02  # among equal plans, first the cards and cooks of the riskiest recipes on show

THREAT_FULL = 1.5  # a rival's chips lie only on this recipe's ingredient spaces
THREAT_PART = 0.3  # ... per ingredient space of this recipe among others

@lru_cache(maxsize=16)
def landing_chances(spread: float) -> tuple[float, ...]:
    """The share of throws aimed at each space that land on it, at this spread (the board is public)."""
    return tuple(hit_rates(space, spread, AIM_THROWS).target for space in range(S))


Show = tuple[tuple[int, float], ...]  # the recipes on show, each with its risk surcharge
Cap = tuple[int, ...]  # the kinds an unused chip can still take this round (ANY_KIND: any card)
ANY_KIND = -1


def _urgency(risk: float) -> float:
    """How much sooner to work on a recipe on show: the riskier the sooner, unless a rival is
    all but sure to cook it first (then it is left for last, in case the rival fails)."""
    return risk if risk < THREAT_FULL else 0.0


class RecipePlan(NamedTuple):
    """The cheapest way to cook the recipes still needed (see `best_plan`)."""

    cost: float  # in activations
    missing_by: tuple[list[int], ...]  # the missing kinds of each known recipe of the plan, easiest first
    spare: int  # the cards (chili aside) the plan leaves over
    urgent: float  # the activations its recipes on show still need, weighted by their risk
    spare_kinds: tuple[int, ...]  # the kinds of those cards


@lru_cache(maxsize=65536)
def best_plan(hand: tuple[int, ...], need: int, show: Show, reserve: tuple[int, ...], pending: int) -> RecipePlan:
    """The cheapest way to cook `need` more recipes. `pending` counts reserved recipes this view
    cannot see yet (reserved this very round)."""
    spare_all = tuple(k for k in range(K) if hand[k] > 0 and k != CHILI)
    if need <= 0:
        return RecipePlan(0.0, (), sum(hand) - hand[CHILI], 0.0, spare_all)
    known = [*show, *((r, 0.0) for r in reserve)]
    best = RecipePlan(float("inf"), (), sum(hand) - hand[CHILI], 0.0, spare_all)
    # As many known recipes as the plan needs; the rest are recipes not seen yet (or reserved this
    # round). (Leaving out a threatened recipe on purpose plans worse: it leaves chips idle.)
    size = min(need, len(known))
    extra = need - size
    unknown = min(extra, pending) * RESERVED_UNKNOWN + max(extra - pending, 0) * UNKNOWN_RECIPE
    for chosen in itertools.combinations(known, size):
        # Easiest recipe first: it claims the shared cards.
        order = sorted(chosen, key=lambda item: sum(1 for k in RECIPE_KINDS[item[0]] if hand[k] < 1))
        missing_total, missing_by, left = allocate(hand, [r for r, _ in order])
        cost = missing_total + sum(risk for _, risk in order) + unknown + need
        if cost < best.cost:
            pairs = zip(order, missing_by, strict=True)
            urgent = sum(_urgency(risk) * (len(missing) + 1) for (_, risk), missing in pairs)
            spare_kinds = tuple(k for k in range(K) if left[k] > 0 and k != CHILI)
            best = RecipePlan(cost, tuple(missing_by), sum(left) - left[CHILI], urgent, spare_kinds)
    return best


def covered(missing_by: tuple[list[int], ...], caps: Sequence[Cap]) -> int:
    """How many activations of the plan the unused chips (their capabilities) can still do this
    round: cards first for the easiest recipe, then its cook, then the next recipe."""
    if not caps:
        return 0
    free = list(caps)
    done = 0
    for missing in missing_by:
        progress = 0
        for k in missing:
            # A chip that can only take this kind first; a chip on Bonus ingredient last.
            pick = next((i for i, cap in enumerate(free) if k in cap), None)
            if pick is None:
                pick = next((i for i, cap in enumerate(free) if ANY_KIND in cap), None)
            if pick is None:
                return done + progress
            free.pop(pick)
            progress += 1
        if not free:
            return done + progress
        free.pop()  # any chip cooks
        done += progress + 1
    return done


class Situation:
    """What the expert's seat sees, as plain Python values it can copy and change cheaply."""

    def __init__(self, view: Any) -> None:
        me = view.core.viewer
        self.me = me
        player = view.players[me]
        self.spread = player.throw_spread
        self.hand = tuple(player.hand)
        self.money = player.money
        self.cooked = len(player.cooked)
        self.reserve = tuple(player.reserve)
        self.show_ids = tuple(view.recipes_on_show)
        self.deck = view.recipe_deck_size
        four_players = view.core.num_players == 4
        self.costs = [0] * S
        self.crowd = [0] * S
        # My chips by value index: (status, spaces).
        self.mine: dict[int, tuple[int, tuple[int, ...]]] = {}
        self.rival_kinds: dict[int, set[int]] = {}
        for chip in view.chips:
            if chip.status == ON_BOARD:
                if chip.owner != me:
                    rival = self.rival_kinds.setdefault(chip.owner, set())
                    rival.update(SPACE_INGREDIENT[s] for s in chip.spaces if s in SPACE_INGREDIENT)
                for space in chip.spaces:
                    self.crowd[space] += 1
                    if chip.HasField("value"):
                        self.costs[space] += chip.value
            if chip.owner == me:
                self.mine[CHIP_VALUES.index(chip.value)] = (chip.status, tuple(chip.spaces))
        # Chips that Place a chip can lay down without moving a chip in play: the supply (4 players
        # throw only 3) during cleaning, and invalid throws.
        spare_status = (INVALID,) if view.phase == pb.PHASE_THROWING else (INVALID, IN_SUPPLY)
        self.spares = sum(1 for status, _ in self.mine.values() if status in spare_status)
        self.spare_chip = self.spares > 0 or (view.phase == pb.PHASE_THROWING and four_players)
        self.spare_status = spare_status
        self.show: Show = tuple((r, SHOW_RISK + self._threat(r)) for r in self.show_ids)

    def _threat(self, recipe: int) -> float:
        """How likely a rival cooks this recipe this round, read from the ingredient spaces its
        chips lie on (a chef throws at the spaces of the cards it lacks)."""
        kinds = set(RECIPE_KINDS[recipe])
        threat = 0.0
        for seat, rival_kinds in self.rival_kinds.items():
            if not rival_kinds or seat == self.me:
                continue
            overlap = len(rival_kinds & kinds)
            if rival_kinds <= kinds:
                threat = max(threat, THREAT_FULL)
            else:
                threat = max(threat, THREAT_PART * overlap)
        return threat


def caps_of(spaces: Sequence[int], spare_chip: bool) -> Cap:
    """What a chip on these spaces can take: any card on Bonus ingredient, or its spaces' kinds. On
    Place a chip it is as good as Bonus ingredient when a spare chip (in the supply, or invalid) can
    be laid there; otherwise it can only cook (or move a chip, which the lookahead values itself)."""
    kinds = [SPACE_INGREDIENT[s] for s in spaces if s in SPACE_INGREDIENT]
    if BONUS in spaces or (spare_chip and PLACE in spaces):
        kinds.append(ANY_KIND)
    return tuple(kinds)


class HibachiExpert:
    """The training teacher: counts the activations to three recipes and spends each chip where it
    saves the most of them (see the module docstring). Deterministic: it draws nothing from rng."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def step(self, view: Any, legal_actions: Sequence[int]) -> int:
        sit = Situation(view)
        if view.phase == pb.PHASE_THROWING:
            return self._throw(sit, legal_actions)
        return self._activate(sit, legal_actions)

    # ------------------------------------------------------------------ evaluation
    def _value(
        self,
        sit: Situation,
        hand: tuple[int, ...],
        cooked: int,
        show: Show,
        reserve: tuple[int, ...],
        pending: int,
        money: int,
        caps: Sequence[Cap],
    ) -> float:
        """Minus the activations still needed to win after this round's unused chips, plus money."""
        need = WIN - cooked
        cost, missing_by, spare, urgent, _ = best_plan(hand, need, show, reserve, pending)
        left = cost - covered(missing_by, caps)
        money_weight = END_MONEY_WEIGHT if left <= 0.0 else MONEY_WEIGHT
        return -max(left, 0.0) + money * money_weight + SPARE_CARD * spare - ORDER_WEIGHT * urgent

    # ------------------------------------------------------------------ throwing
    def _throw(self, sit: Situation, legal: Sequence[int]) -> int:
        ready = sorted({(a - LAYOUT.throw_base) // S for a in legal})
        caps = [caps_of(spaces, sit.spare_chip) for status, spaces in sit.mine.values() if status == ON_BOARD]
        need = WIN - sit.cooked
        plan = best_plan(sit.hand, need, sit.show, sit.reserve, 0)
        lacking = self._lacking(plan.missing_by, caps)
        mine = {space for status, spaces in sit.mine.values() if status == ON_BOARD for space in spaces}
        chances = landing_chances(sit.spread)
        room = sit.crowd[BONUS] < BONUS_CROWD
        if room and chances[BONUS] >= BONUS_CHANCE and lacking:
            return LAYOUT.throw(ready[-1], BONUS)
        # The next cards of the plan, bought: a card costs the chips on its space, this chip's too.
        affordable = [k for k in lacking if sit.costs[INGREDIENT_SPACE[k]] + CHIP_VALUES[ready[0]] <= sit.money]
        if affordable:
            k = min(affordable, key=lambda kind: (sit.crowd[INGREDIENT_SPACE[kind]], kind))
            return LAYOUT.throw(ready[0], INGREDIENT_SPACE[k])
        # A chip to sell a spare card with (dearest: selling pays twice the chips there).
        spare = [k for k in plan.spare_kinds if INGREDIENT_SPACE[k] not in mine]
        if spare:
            k = max(spare, key=lambda kind: (sit.crowd[INGREDIENT_SPACE[kind]], kind))
            return LAYOUT.throw(ready[-1], INGREDIENT_SPACE[k])
        # One chip on Bonus ingredient a round, however hard it is to hit: a free card of any kind.
        if BONUS not in mine and room:
            return LAYOUT.throw(ready[0], BONUS)
        if not sit.reserve and RESERVE not in mine and sit.deck:
            return LAYOUT.throw(ready[0], RESERVE)
        return LAYOUT.throw(ready[0], BONUS)

    @staticmethod
    def _lacking(missing_by: tuple[list[int], ...], caps: Sequence[Cap]) -> list[int]:
        """The kinds of the plan's next cards that no chip on the board covers yet."""
        free = list(caps)
        lacking = []
        for missing in missing_by:
            for k in missing:
                pick = next((i for i, cap in enumerate(free) if k in cap), None)
                if pick is None:
                    pick = next((i for i, cap in enumerate(free) if ANY_KIND in cap), None)
                if pick is None:
                    lacking.append(k)
                else:
                    free.pop(pick)
            if lacking:
                return lacking
        return lacking

    # ------------------------------------------------------------------ cleaning
    def _activate(self, sit: Situation, legal: Sequence[int]) -> int:
        unused = {v: spaces for v, (status, spaces) in sit.mine.items() if status == ON_BOARD}
        best, best_score = legal[-1], -1e18
        for action_id in legal:
            score = self._score(sit, unused, action_id)
            if score > best_score:
                best, best_score = action_id, score
        return best

    def _score(self, sit: Situation, unused: dict[int, tuple[int, ...]], action_id: int) -> float:
        """The value of the round's end after this activation (decoded from the id layout)."""
        hand, money, cooked = sit.hand, sit.money, sit.cooked
        show, reserve, pending = sit.show, sit.reserve, 0
        extra = 0.0
        moved: tuple[int, tuple[int, ...]] | None = None
        if action_id < LAYOUT.sell_base:  # buy
            v, k = divmod(action_id - LAYOUT.buy_base, K)
            hand = _plus(hand, k, 1)
            money -= sit.costs[INGREDIENT_SPACE[k]]
        elif action_id < LAYOUT.bonus_base:  # sell
            v, k = divmod(action_id - LAYOUT.sell_base, K)
            hand = _plus(hand, k, -1)
            money += SELL * sit.costs[INGREDIENT_SPACE[k]]
        elif action_id < LAYOUT.place_base:  # bonus
            v, k = divmod(action_id - LAYOUT.bonus_base, K)
            hand = _plus(hand, k, 1)
        elif action_id < LAYOUT.reserve_base:  # place
            rest, space = divmod(action_id - LAYOUT.place_base, S)
            v, w = divmod(rest, V)
            moved = (w, (space,))
        elif action_id < LAYOUT.head_chef_base:  # reserve
            v = action_id - LAYOUT.reserve_base
            pending = 1
        elif action_id < LAYOUT.cook_base:  # head chef
            v = action_id - LAYOUT.head_chef_base
            extra = HEAD_CHEF_VALUE
        elif action_id < LAYOUT.nothing_base:  # cook
            rest, option = divmod(action_id - LAYOUT.cook_base, C)
            v, recipe = divmod(rest, R)
            kinds = RECIPE_KINDS[recipe]
            for j, kind in enumerate(kinds):
                if option == 1 + j:
                    hand = _plus(hand, CHILI, -CHILI_NEED)
                else:
                    hand = _plus(hand, kind, -1)
            cooked += 1
            if recipe in sit.show_ids:
                show = tuple(item for item in show if item[0] != recipe)
            else:
                reserve = tuple(r for r in reserve if r != recipe)
        else:  # nothing
            v = action_id - LAYOUT.nothing_base
        rest_chips = dict(unused)
        del rest_chips[v]
        if moved is not None:
            rest_chips[moved[0]] = moved[1]
        spare = sit.spare_chip
        if moved is not None and sit.mine[moved[0]][0] in sit.spare_status:
            spare = sit.spares > 1  # the spare chip itself is laid down
        caps = [caps_of(spaces, spare) for spaces in rest_chips.values()]
        value = self._value(sit, hand, cooked, show, reserve, pending, money, caps)
        # Plain activations use the cheapest chip, so dear chips keep others' prices up.
        return value + extra - CHIP_VALUES[v] / 1e6


def _plus(hand: tuple[int, ...], kind: int, count: int) -> tuple[int, ...]:
    changed = list(hand)
    changed[kind] += count
    return tuple(changed)
