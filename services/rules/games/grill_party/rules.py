"""Grill Party's rules: exchange a grillable, play condition cards matching the grill, draw to four.

Turn steps (rulebook "Game Play"): 1 the plate goes back into the stock (automatic; plates start
empty), 2 exchange (compulsory, RULINGS.md), 3 play cards one at a time then stop (stopping with
none played turns the top score card face down), then (tactical variant) tuck cards, 4 draw to four.
Stalemate (ours): after `stalemate_rounds` rounds in a row with no card played the game ends, and
every seat ranks by cards left.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from typing import Any

import numpy as np

from services.rules.engine import Engine, core_view, ranked_outcome
from services.rules.float_runs import floats, one_hot
from services.rules.games.grill_party import content as gp
from services.rules.games.grill_party.content import CONTENT, LAYOUT, card_name, grillable_name
from services.rules.random_source import RandomSource
from services.rules.spec import GameSpec, OptionSpec
from sizzle.common.v1 import common_pb2
from sizzle.games.grill_party.v1 import grill_party_pb2 as pb

KINDS = LAYOUT.kinds
GRILLABLES = list(CONTENT.grillables)
CARDS = list(CONTENT.cards)


def condition_holds(card: pb.ConditionCard, grill: Any) -> bool:
    """Whether a condition card matches the central grill (counts by kind index)."""
    x = GRILLABLES.index(card.x)
    if card.kind == pb.CONDITION_KIND_NO:
        return grill[x] == 0
    if card.kind == pb.CONDITION_KIND_MORE:
        y = GRILLABLES.index(card.y)
        return grill[x] >= 1 and grill[x] > grill[y]
    if card.kind == pb.CONDITION_KIND_MOST:
        return all(grill[x] > grill[other] for other in range(KINDS) if other != x)
    raise ValueError(f"card {card.id} has no condition kind")


def blocked_cards(state: Any, seat: int) -> set[int]:
    """Cards `seat` may not play: the face-up top score card of every other player."""
    blocked = set()
    for other, player in enumerate(state.players):
        if other != seat and player.score_pile and not player.top_face_down:
            blocked.add(player.score_pile[-1])
    return blocked


# ------------------------------------------------------------------ observation layout
# One flat float32 vector, seats relative to the viewer (a spectator reads as seat 0, with no hand):
#   grill     count of each kind / (players + 1)                                          KINDS
#   players   per relative seat 0..MAX_PLAYERS-1, all zeros past the table size:          MAX_PLAYERS * PLAYER_SIZE
#               present, stock by kind / (players + 1), plate one-hot (empty, kinds)      1 + KINDS + (KINDS + 1)
#               hand size / hand_size, deck size / cards, score pile size / cards         3
#               top score card one-hot (none: empty or face down, then the card ids)      cards + 1
#   my hand   1 for each card in the viewer's hand                                         cards
#   phase     one-hot (exchange, play, tuck)                                               3
#   turn      cards played this turn / hand_size, tactical variant, viewer to move,       4
#             quiet turns / the stalemate limit (stalemate_rounds x players)
#   outlook   what each exchange would leave, by (take, give) from the grill, then the     3 * (KINDS * KINDS + 1)
#             grill as it is (an exchange with a player leaves it so): the viewer's hand
#             cards playable there (not blocked by a face-up top card) / hand_size, all
#             zeros for a spectator; then how many card kinds hold there / cards; then the
#             most card kinds the next seat can make hold with one exchange from there
#             (with the kinds in its stock) / cards. An exchange that cannot take (none of
#             that kind on the grill) reads 0.
# The outlook is a function of the fields above, given to the network ready-made: it lines up with
# the exchange ids, so a policy learns to weigh exchanges without first learning the card conditions.
PLAYER_SIZE = 1 + KINDS + (KINDS + 1) + 3 + (LAYOUT.cards + 1)
MY_HAND_AT = KINDS + gp.MAX_PLAYERS * PLAYER_SIZE
OUTLOOK_SIZE = 3 * (KINDS * KINDS + 1)


def observation_size() -> int:
    return MY_HAND_AT + LAYOUT.cards + 3 + 4 + OUTLOOK_SIZE


# `observation` joins the float32 bytes of these precomputed runs in layout order
# (services/rules/float_runs.py: each value the layout's float64 expression rounded once to float32).


# The grill and the stocks are read kind by kind, unrolled in `observation`: Grillable has four kinds.
if KINDS != 4:
    raise ValueError("content: grill party's observation expects the four grillables")
_MOST_OF_A_KIND = CONTENT.grill_per_kind + gp.MAX_PLAYERS * CONTENT.stock_per_kind
_PER_PLAYERS_PLUS_ONE = [  # [players][count]: count / (players + 1)
    [floats(c / float(n + 1)) for c in range(_MOST_OF_A_KIND + 1)] for n in range(gp.MAX_PLAYERS + 1)
]
_PER_HAND_SIZE = [floats(c / CONTENT.hand_size) for c in range(LAYOUT.cards + 1)]  # [count]
_PER_CARDS = [floats(c / LAYOUT.cards) for c in range(LAYOUT.cards + 1)]  # [count]
_PLATE = {pb.GRILLABLE_UNSPECIFIED: one_hot(0, KINDS + 1)} | {g: one_hot(1 + k, KINDS + 1)
                                                            for k, g in enumerate(GRILLABLES)}
_TOP_CARD = [one_hot(t, LAYOUT.cards + 1) for t in range(LAYOUT.cards + 1)]  # [0: none, 1 + card id]
_PHASE = {phase: one_hot(phase - 1 if phase else None, 3) for phase in pb.Phase.values()}
_FLAG = (floats(0.0), floats(1.0))
_QUIET = [  # [players][quiet turns]: quiet turns / the stalemate limit
    [floats(q / (CONTENT.stalemate_rounds * n)) if n else b"" for q in range(CONTENT.stalemate_rounds * n + 1)]
    for n in range(gp.MAX_PLAYERS + 1)
]
_PRESENT = _FLAG[1]
_ABSENT_SEATS = [bytes(4 * PLAYER_SIZE * (gp.MAX_PLAYERS - n)) for n in range(gp.MAX_PLAYERS + 1)]  # [players]
_NO_HAND = bytes(4 * LAYOUT.cards)

# The outlook's tables. The grill always holds the same number of grillables (an exchange swaps one
# for one), so it is one of few states: GRILL_STATES lists them, HOLDS[g] is the bit mask of the cards
# whose condition holds on state g, and _AFTER[g] the state after each (take, give) from the grill
# (-1: nothing of that kind to take), then g itself.
_GRILL_TOTAL = KINDS * CONTENT.grill_per_kind
GRILL_STATES = [c for c in itertools.product(range(_GRILL_TOTAL + 1), repeat=KINDS) if sum(c) == _GRILL_TOTAL]
GRILL_INDEX = {c: g for g, c in enumerate(GRILL_STATES)}
HOLDS = [sum(1 << card.id for card in CARDS if condition_holds(card, c)) for c in GRILL_STATES]


def _after(grill: tuple[int, ...], take: int, give: int) -> int:
    if grill[take] == 0:
        return -1
    moved = list(grill)
    moved[take] -= 1
    moved[give] += 1
    return GRILL_INDEX[tuple(moved)]


_AFTER = [[_after(c, take, give) for take in range(KINDS) for give in range(KINDS)] + [g]
          for g, c in enumerate(GRILL_STATES)]
_NONE_PLAYABLE = floats(0.0)
_KINDS_HOLDING = [  # [g]: the outlook's second half, how many card kinds hold after each exchange
    b"".join(_NONE_PLAYABLE if a < 0 else floats(HOLDS[a].bit_count() / LAYOUT.cards) for a in after)
    for after in _AFTER
]


def _next_best(grill: int, gives: int) -> float:
    """The most card kinds a seat whose stock holds the kinds in bit mask `gives` can make hold with
    one exchange from grill state `grill` (an exchange with a player leaves the grill as it is)."""
    reachable = [grill] + [
        after for k, after in enumerate(_AFTER[grill][: KINDS * KINDS]) if after >= 0 and gives >> (k % KINDS) & 1
    ]
    return max(HOLDS[r].bit_count() for r in reachable) / LAYOUT.cards


_NEXT_BEST = [  # [g][gives]: the outlook's third half, for the next seat's stock kinds `gives`
    [b"".join(_NONE_PLAYABLE if a < 0 else floats(_next_best(a, gives)) for a in after) for gives in range(1 << KINDS)]
    for after in _AFTER
]
_NO_OUTLOOK = bytes(4 * (KINDS * KINDS + 1))


class GrillParty(Engine):
    spec = GameSpec(
        game_id="grill_party",
        display_name="Grill Party",
        min_players=gp.MIN_PLAYERS,
        max_players=gp.MAX_PLAYERS,
        num_distinct_actions=LAYOUT.size,
        observation_shape=(observation_size(),),
        options=(
            OptionSpec(
                "tactical",
                "Tactical variant: before drawing, cards from hand may be put under the deck",
                "false",
                ("false", "true"),
            ),
        ),
    )
    State = pb.State
    Action = pb.Action
    View = pb.View

    # ------------------------------------------------------------------ setup
    def setup(self, state: Any, options: Mapping[str, str], rng: RandomSource) -> None:
        state.tactical = options["tactical"] == "true"
        state.grill.extend([CONTENT.grill_per_kind] * KINDS)
        state.phase = pb.PHASE_EXCHANGE
        state.supergrillmaster = -1
        for _ in range(state.core.num_players):
            player = state.players.add()
            player.stock.extend([CONTENT.stock_per_kind] * KINDS)
            deck = [card.id for card in CARDS]
            rng.shuffle(deck)
            face_up, deck = deck[: CONTENT.face_up_at_setup], deck[CONTENT.face_up_at_setup :]
            player.score_pile.extend(face_up)
            player.hand.extend(deck[: CONTENT.hand_size])
            player.deck.extend(deck[CONTENT.hand_size :])

    # ------------------------------------------------------------------ legal actions
    def legal_action_ids(self, state: Any) -> list[int]:
        seat = state.core.seat_to_move
        me = state.players[seat]
        phase = state.phase
        if phase == pb.PHASE_EXCHANGE:
            return self._legal_exchanges(state, seat)
        if phase == pb.PHASE_PLAY:
            blocked = blocked_cards(state, seat)
            grill = state.grill
            plays = [
                LAYOUT.play_base + card
                for card in sorted(me.hand)
                if card not in blocked and condition_holds(CARDS[card], grill)
            ]
            return [*plays, LAYOUT.stop]
        return [*(LAYOUT.tuck_base + card for card in sorted(me.hand)), LAYOUT.draw]

    def _legal_exchanges(self, state: Any, seat: int) -> list[int]:
        n = state.core.num_players
        my_stock = state.players[seat].stock
        gives = [g for g in range(KINDS) if my_stock[g] > 0]
        ids: list[int] = []
        for source in range(n):
            pool = state.grill if source == 0 else state.players[(seat + source) % n].stock
            for take in range(KINDS):
                if pool[take] > 0:
                    base = (source * KINDS + take) * KINDS
                    ids.extend(base + give for give in gives)
        return ids

    # ------------------------------------------------------------------ codec
    def id_to_action(self, state: Any, seat: int, action_id: int) -> pb.Action:
        if action_id < LAYOUT.play_base:
            source, rest = divmod(action_id, KINDS * KINDS)
            take, give = divmod(rest, KINDS)
            exchange = pb.Exchange(take=GRILLABLES[take], give=GRILLABLES[give])
            if source == 0:
                exchange.from_grill = True
            else:
                exchange.from_seat = (seat + source) % state.core.num_players
            return pb.Action(exchange=exchange)
        if action_id < LAYOUT.stop:
            return pb.Action(play_card=pb.PlayCard(card=action_id - LAYOUT.play_base))
        if action_id == LAYOUT.stop:
            return pb.Action(stop_playing=pb.StopPlaying())
        if action_id < LAYOUT.draw:
            return pb.Action(tuck_card=pb.TuckCard(card=action_id - LAYOUT.tuck_base))
        return pb.Action(draw=pb.Draw())

    def action_to_id(self, state: Any, seat: int, action: Any) -> int | None:
        kind = action.WhichOneof("kind")
        if kind == "exchange":
            ex = action.exchange
            if ex.take not in GRILLABLES or ex.give not in GRILLABLES:
                return None
            n = state.core.num_players
            if ex.from_grill:
                source = 0
            elif 0 <= ex.from_seat < n and ex.from_seat != seat:
                source = (ex.from_seat - seat) % n
            else:
                return None
            return (source * KINDS + GRILLABLES.index(ex.take)) * KINDS + GRILLABLES.index(ex.give)
        if kind == "play_card":
            card = action.play_card.card
            return LAYOUT.play_base + card if 0 <= card < LAYOUT.cards else None
        if kind == "stop_playing":
            return LAYOUT.stop
        if kind == "tuck_card":
            card = action.tuck_card.card
            return LAYOUT.tuck_base + card if 0 <= card < LAYOUT.cards else None
        if kind == "draw":
            return LAYOUT.draw
        return None

    # ------------------------------------------------------------------ applying
    def mutate(self, state: Any, seat: int, action: Any, rng: RandomSource) -> list[common_pb2.Event]:
        kind = action.WhichOneof("kind")
        me = state.players[seat]
        if kind == "exchange":
            return self._exchange(state, seat, action.exchange)
        if kind == "play_card":
            card = action.play_card.card
            me.hand.remove(card)
            me.score_pile.append(card)
            me.top_face_down = False
            state.cards_played_this_turn += 1
            events = [common_pb2.Event(seat=seat, text=f"seat {seat} plays {card_name(card)}")]
            if not me.hand and not me.deck:
                state.core.game_over = True
                state.supergrillmaster = seat
                events.append(common_pb2.Event(seat=-1, text=f"seat {seat} has played every card: Supergrillmaster!"))
            return events
        if kind == "stop_playing":
            if state.cards_played_this_turn == 0:
                events = [common_pb2.Event(seat=seat, text=f"seat {seat} plays no card")]
                if me.score_pile and not me.top_face_down:
                    me.top_face_down = True
                    events.append(common_pb2.Event(seat=seat, text=f"seat {seat} turns its top score card face down"))
                self._end_turn(state, seat)
                if state.core.game_over:
                    events.append(common_pb2.Event(
                        seat=-1, text=f"no card played for {CONTENT.stalemate_rounds} rounds: stalemate"))
                return events
            if state.tactical:
                state.phase = pb.PHASE_TUCK
                return []
            return self._draw_and_end(state, seat)
        if kind == "tuck_card":
            card = action.tuck_card.card
            me.hand.remove(card)
            me.deck.append(card)
            return [
                common_pb2.Event(
                    seat=seat,
                    text=f"seat {seat} puts a card under its deck",
                    secret_text=f"you put {card_name(card)} under your deck",
                    secret_seat=seat,
                )
            ]
        return self._draw_and_end(state, seat)

    def _exchange(self, state: Any, seat: int, ex: pb.Exchange) -> list[common_pb2.Event]:
        me = state.players[seat]
        take, give = GRILLABLES.index(ex.take), GRILLABLES.index(ex.give)
        if ex.from_grill:
            pool, where = state.grill, "the grill"
        else:
            pool, where = state.players[ex.from_seat].stock, f"seat {ex.from_seat}"
        pool[take] -= 1
        me.plate = ex.take
        me.stock[give] -= 1
        pool[give] += 1
        state.phase = pb.PHASE_PLAY
        text = f"seat {seat} takes {grillable_name(ex.take)} from {where} and gives {grillable_name(ex.give)}"
        return [common_pb2.Event(seat=seat, text=text)]

    def _draw_and_end(self, state: Any, seat: int) -> list[common_pb2.Event]:
        me = state.players[seat]
        drawn = []
        while len(me.hand) < CONTENT.hand_size and me.deck:
            drawn.append(me.deck.pop(0))
            me.hand.append(drawn[-1])
        self._end_turn(state, seat)
        if not drawn:
            return []
        return [
            common_pb2.Event(
                seat=seat,
                text=f"seat {seat} draws {len(drawn)} card{'s' if len(drawn) > 1 else ''}",
                secret_text="you draw " + ", ".join(card_name(c) for c in drawn),
                secret_seat=seat,
            )
        ]

    def _end_turn(self, state: Any, seat: int) -> None:
        """Counts a quiet turn (or ends the game in a stalemate), then hands over to the next seat."""
        n = state.core.num_players
        state.quiet_turns = 0 if state.cards_played_this_turn else state.quiet_turns + 1
        if state.quiet_turns >= CONTENT.stalemate_rounds * n:
            state.core.game_over = True  # stalemate: nobody can (or will) play; rank by cards left
            return
        nxt = (seat + 1) % n
        player = state.players[nxt]
        # Step 1 of the next turn: the plate goes back into the stock.
        if player.plate != pb.GRILLABLE_UNSPECIFIED:
            player.stock[GRILLABLES.index(player.plate)] += 1
            player.plate = pb.GRILLABLE_UNSPECIFIED
        state.core.seat_to_move = nxt
        state.phase = pb.PHASE_EXCHANGE
        state.cards_played_this_turn = 0

    # ------------------------------------------------------------------ the end
    def outcome(self, state: Any) -> common_pb2.Outcome | None:
        if not state.core.game_over:
            return None
        keys = []
        for seat, player in enumerate(state.players):
            left = len(player.hand) + len(player.deck)
            keys.append((1.0 if seat == state.supergrillmaster else 0.0, -float(left)))
        scores = [len(p.score_pile) for p in state.players]
        if state.supergrillmaster < 0:
            reason = f"stalemate: no card played for {CONTENT.stalemate_rounds} rounds; every seat ranks by cards left"
        else:
            reason = f"seat {state.supergrillmaster} played all its cards; the others rank by cards left"
        return ranked_outcome(keys, scores, reason)

    # ------------------------------------------------------------------ views
    def view(self, state: Any, seat: int) -> pb.View:
        view = pb.View(
            core=core_view(state, seat),
            grill=state.grill,
            phase=state.phase,
            cards_played_this_turn=state.cards_played_this_turn,
            tactical=state.tactical,
            quiet_turns=state.quiet_turns,
        )
        for other, player in enumerate(state.players):
            pv = view.players.add(
                seat=other,
                stock=player.stock,
                plate=player.plate,
                hand_size=len(player.hand),
                deck_size=len(player.deck),
                score_pile_size=len(player.score_pile),
            )
            if player.score_pile and not player.top_face_down:
                pv.top_card = player.score_pile[-1]
            if other == seat:
                pv.hand.extend(sorted(player.hand))
        return view

    def observation(self, view: Any) -> np.ndarray:
        """The layout above ("observation layout"), from the view's fields only."""
        core = view.core
        n = core.num_players
        viewer = core.viewer
        me = max(viewer, 0)
        seats = view.players[:]  # every seat, in seat order
        players = seats[me:] + seats[:me] if me else seats  # relative seats 0, 1, ...
        per_players = _PER_PLAYERS_PLUS_ONE[n]
        per_hand = _PER_HAND_SIZE
        per_cards = _PER_CARDS
        grill = view.grill
        runs = [per_players[grill[0]], per_players[grill[1]], per_players[grill[2]], per_players[grill[3]]]
        for p in players:
            stock = p.stock
            runs += (
                _PRESENT,
                per_players[stock[0]],
                per_players[stock[1]],
                per_players[stock[2]],
                per_players[stock[3]],
                _PLATE[p.plate],
                per_hand[p.hand_size],
                per_cards[p.deck_size],
                per_cards[p.score_pile_size],
                _TOP_CARD[p.top_card + 1 if p.HasField("top_card") else 0],
            )
        runs += (
            _ABSENT_SEATS[n],
            _NO_HAND,  # my hand: its cards are set below
            _PHASE[view.phase],
            per_hand[view.cards_played_this_turn],
            _FLAG[view.tactical],
            _FLAG[core.seat_to_move == viewer],
            _QUIET[n][view.quiet_turns],
        )
        grill_state = GRILL_INDEX.get((grill[0], grill[1], grill[2], grill[3]))
        if grill_state is None:  # not a grill the rules can reach: no outlook
            runs += (_NO_OUTLOOK, _NO_OUTLOOK, _NO_OUTLOOK)
        else:
            if viewer >= 0:
                usable = 0
                for card in players[0].hand[:]:
                    usable |= 1 << card
                for p in players[1:]:
                    if p.HasField("top_card"):
                        usable &= ~(1 << p.top_card)
                holds = HOLDS
                runs += [_NONE_PLAYABLE if a < 0 else per_hand[(holds[a] & usable).bit_count()]
                         for a in _AFTER[grill_state]]
            else:
                runs.append(_NO_OUTLOOK)
            runs.append(_KINDS_HOLDING[grill_state])
            if n > 1:
                stock = players[1].stock
                gives = (stock[0] > 0) | (stock[1] > 0) << 1 | (stock[2] > 0) << 2 | (stock[3] > 0) << 3
                runs.append(_NEXT_BEST[grill_state][gives])
            else:
                runs.append(_NO_OUTLOOK)
        obs = np.frombuffer(bytearray(b"".join(runs)), np.float32)
        if viewer >= 0:
            for card in players[0].hand[:]:
                obs[MY_HAND_AT + card] = 1.0
        return obs

    def resample_hidden(self, state: Any, seat: int, rng: RandomSource) -> Any:
        sample = pb.State()
        sample.CopyFrom(state)
        sample.core.random.counter = rng.next_u64()
        for other, player in enumerate(sample.players):
            if other == seat:
                deck = list(player.deck)
                rng.shuffle(deck)
                player.deck[:] = deck
            else:
                unseen = list(player.hand) + list(player.deck)
                rng.shuffle(unseen)
                hand_size = len(player.hand)
                player.hand[:] = unseen[:hand_size]
                player.deck[:] = unseen[hand_size:]
        return sample

    def check_invariants(self, state: Any) -> None:
        n = state.core.num_players
        assert len(state.players) == n and len(state.grill) == KINDS, "wrong number of players or grill slots"
        assert sum(state.grill) == KINDS * CONTENT.grill_per_kind, "the grill must hold four grillables"
        totals = list(state.grill)
        for player in state.players:
            on_plate = 1 if player.plate else 0
            assert sum(player.stock) + on_plate == KINDS * CONTENT.stock_per_kind, "a player must hold four grillables"
            assert all(count >= 0 for count in player.stock), "negative stock"
            for k in range(KINDS):
                totals[k] += player.stock[k]
            if player.plate:
                totals[GRILLABLES.index(player.plate)] += 1
            cards = sorted([*player.hand, *player.deck, *player.score_pile])
            assert cards == list(range(LAYOUT.cards)), "each player holds exactly one deck"
            assert len(player.hand) <= CONTENT.hand_size, "too many cards in hand"
        per_kind = CONTENT.grill_per_kind + n * CONTENT.stock_per_kind
        assert totals == [per_kind] * KINDS, "grillables were created or lost"
        assert state.phase in (pb.PHASE_EXCHANGE, pb.PHASE_PLAY, pb.PHASE_TUCK), "unknown phase"
        assert 0 <= state.quiet_turns <= CONTENT.stalemate_rounds * n, "quiet turns out of range"

    # ------------------------------------------------------------------ words
    def describe_action(self, state: Any, seat: int, action: Any) -> str:
        kind = action.WhichOneof("kind")
        if kind == "exchange":
            ex = action.exchange
            where = "the grill" if ex.from_grill else f"seat {ex.from_seat}"
            return f"take {grillable_name(ex.take)} from {where}, give {grillable_name(ex.give)}"
        if kind == "play_card":
            return f"play {card_name(action.play_card.card)}"
        if kind == "stop_playing":
            return "stop playing cards" if state.cards_played_this_turn else "play no card (top card face down)"
        if kind == "tuck_card":
            return f"put {card_name(action.tuck_card.card)} under your deck"
        return "draw back to four cards"

    def render(self, view: Any) -> str:
        def stock_text(counts: Any) -> str:
            return ", ".join(f"{grillable_name(g)} x{c}" for g, c in zip(GRILLABLES, counts, strict=True) if c) or "-"

        phase = pb.Phase.Name(view.phase).removeprefix("PHASE_").lower()
        lines = [f"Grill Party  move {view.core.move_number}  " + (
            "GAME OVER" if view.core.game_over else f"seat {view.core.seat_to_move} to move ({phase})"
        )]
        lines.append(f"  grill: {stock_text(view.grill)}")
        if view.quiet_turns:
            limit = CONTENT.stalemate_rounds * view.core.num_players
            lines.append(f"  no card played for {view.quiet_turns} turns (stalemate at {limit})")
        for p in view.players:
            me = " (you)" if p.seat == view.core.viewer else ""
            top = card_name(p.top_card) if p.HasField("top_card") else ("face down" if p.score_pile_size else "-")
            plate = grillable_name(p.plate) if p.plate else "-"
            lines.append(
                f"  seat {p.seat}{me}: stock {stock_text(p.stock)} | plate {plate} | hand {p.hand_size}"
                f" | deck {p.deck_size} | score pile {p.score_pile_size} (top: {top})"
            )
            if p.hand:
                lines.append("      hand: " + "; ".join(card_name(c) for c in p.hand))
        return "\n".join(lines)
