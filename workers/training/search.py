"""The reference search player: information-set Monte Carlo tree search (single-observer ISMCTS,
Cowling, Powley and Whitehouse 2012; OpenSpiel's `ismcts`), with heuristic rollouts.

At a decision of `seat`, every iteration
1. redraws everything the seat cannot know (`engine.resample_hidden`, from the seat's information
   only: the determinization never peeks),
2. descends the one tree of action sequences from the root, at each node choosing among the actions
   legal in this determinization by UCT from the point of view of the seat to move there (a child's
   availability, not its parent's visits, counts in the exploration term: an action legal in few
   redraws is not starved),
3. adds one node, rolls the game out to its end with the heuristic bot in every seat, and
4. backs the win shares up the path, each node scoring them for the seat that chose it.
The action taken is the root's most visited. With `iterations` (200 is the reference) and a seed, a
decision is reproducible. It is a reference and a teacher, never run by the workers (one decision
takes seconds, not microseconds).

`python -m workers.training.search --game hibachi --games 100` measures it against heuristic bots
(and `--opponent onnx` against the shipped hard model) with the tournament's harness and seatings.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from services.rules.engine import Engine
from services.rules.registry import get_engine
from workers.bots.heuristic import heuristic_bot
from workers.bots.interface import Bot
from workers.training.arena import MAX_ACTIONS, win_shares
from workers.training.teacher import redraw

EXPLORATION = 0.7  # UCT's constant for rewards in [0, 1] (win shares)
REFERENCE_ITERATIONS = 200


@dataclass
class Node:
    """One action sequence from the root: its statistics for the seat that chose its last action."""

    seat: int = -1  # who chose the action leading here (-1 at the root)
    visits: int = 0
    reward: float = 0.0  # summed win shares of `seat`
    available: int = 0  # iterations in which this node's action was legal at its parent
    children: dict[int, Node] = field(default_factory=dict)

    def uct(self, exploration: float) -> float:
        if self.visits == 0:
            return math.inf
        return self.reward / self.visits + exploration * math.sqrt(math.log(max(self.available, 1)) / self.visits)


class InformationSetSearch:
    """ISMCTS for one game; `choose(state, seat)` searches from `seat`'s information only."""

    def __init__(self, engine: Engine, rollout_bot: Callable[[random.Random], Bot], iterations: int = 200,
                 seed: int = 0, exploration: float = EXPLORATION) -> None:
        self.engine = engine
        self.iterations = iterations
        self.exploration = exploration
        self.rng = random.Random(seed)
        self.rollout_rng = random.Random(seed + 1)
        self.rollout_bot = rollout_bot(self.rollout_rng)

    def _redraw(self, state: Any, seat: int) -> Any:
        return redraw(self.engine, state, seat, self.rng)

    def choose(self, state: Any, seat: int, legal: Sequence[int] | None = None) -> int:
        legal = list(legal if legal is not None else self.engine.legal_actions(state))
        if len(legal) == 1:
            return legal[0]
        root = Node()
        for _ in range(self.iterations):
            self._iterate(root, self._redraw(state, seat))
        visited = [(child.visits, action) for action, child in root.children.items() if action in legal]
        most = max(visits for visits, _ in visited)
        return self.rng.choice([action for visits, action in visited if visits == most])

    def _iterate(self, root: Node, state: Any) -> None:
        engine, core = self.engine, state.core
        path = [root]
        node = root
        # Selection: down the tree while every action legal here has been tried.
        while not core.game_over:
            legal = engine.legal_actions(state)
            mover = core.seat_to_move
            for action in legal:
                child = node.children.get(action)
                if child is not None:
                    child.available += 1
            untried = [a for a in legal if a not in node.children]
            if untried:  # expansion: one new node, then the rollout
                action = self.rng.choice(untried)
                child = node.children[action] = Node(seat=mover, available=1)
                engine.apply(state, mover, action)
                path.append(child)
                break
            action = max(legal, key=lambda a: (node.children[a].uct(self.exploration), self.rng.random()))
            node = node.children[action]
            engine.apply(state, mover, action)
            path.append(node)
        shares = self._roll_out(state)
        for visited in path:
            visited.visits += 1
            if visited.seat >= 0:
                visited.reward += shares[visited.seat]

    def _roll_out(self, state: Any) -> list[float]:
        engine, core = self.engine, state.core
        steps = 0
        while not core.game_over and steps < MAX_ACTIONS:
            seat = core.seat_to_move
            legal = engine.legal_actions(state)
            action = legal[0] if len(legal) == 1 else self.rollout_bot.step(engine.view(state, seat), legal)
            engine.apply(state, seat, action)
            steps += 1
        return win_shares(engine, state)


class SearchPlayer:
    """A bot over ISMCTS. The arena hands it the game's state (`observe_game`): it searches from
    redrawn states only, so it knows what its seat may and nothing more."""

    def __init__(self, game_id: str, rng: random.Random, iterations: int = REFERENCE_ITERATIONS) -> None:
        self.search = InformationSetSearch(get_engine(game_id), lambda r: heuristic_bot(game_id, r), iterations,
                                           seed=rng.getrandbits(63))
        self.state: Any = None
        self.decisions = 0
        self.seconds = 0.0

    def observe_game(self, state: Any) -> None:
        self.state = state

    def step(self, view: Any, legal_actions: Sequence[int]) -> int:
        if self.state is None:
            raise RuntimeError("a SearchPlayer needs the arena's state (observe_game) before it moves")
        start = time.perf_counter()
        action = self.search.choose(self.state, view.core.viewer, legal_actions)
        self.seconds += time.perf_counter() - start
        self.decisions += 1
        return action


def main(argv: Sequence[str] | None = None) -> int:
    from workers.training.tournament import default_table_sizes, play_match_series

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", required=True)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--iterations", type=int, default=REFERENCE_ITERATIONS)
    parser.add_argument("--opponent", choices=("heuristic", "random", "onnx"), default="heuristic")
    parser.add_argument("--players", type=int, action="append", help="table sizes (default: every size)")
    parser.add_argument("--seed", type=int, default=20_261_205)
    args = parser.parse_args(argv)
    players: list[SearchPlayer] = []

    def hero(rng: random.Random) -> Bot:
        player = SearchPlayer(args.game, rng, args.iterations)
        players.append(player)
        return player

    standing = play_match_series(args.game, hero, args.opponent, args.games,
                                 args.players or default_table_sizes(args.game), args.seed)
    decisions = sum(p.decisions for p in players)
    per_decision = sum(p.seconds for p in players) / max(decisions, 1)
    print(standing.line(args.game).replace(" FAIL", "").replace(" PASS", ""))
    for _, by_size in sorted(standing.by_players.items()):
        print("  " + by_size.line(args.game).replace(" FAIL", "").replace(" PASS", ""))
    print(f"search: {args.iterations} iterations, {decisions} decisions, {per_decision * 1000:.0f} ms a decision")
    return 0


if __name__ == "__main__":
    sys.exit(main())
