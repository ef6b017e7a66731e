"""Texas Hold 'Em Bonus Poker par sheet (§ 563).

Payouts and hands come from the game module
(:mod:`tables.rules.games.texas_hold_em_bonus_563`).

* **Bonus Wager** (§ 563.12(c), (d)), exact: the player's two cards (1,326 hands)
  and, for the player-and-dealer aces supplement, the dealer's two of the 50 left.
* **Ante, Flop, Turn and River** under the stated :func:`strategy`, simulated with a
  95 % confidence interval (the exact count, 1,326 × 1,225 × C(48, 5) deals, takes
  far more than minutes): fold at the flop only an unsuited, unpaired hand with no
  card above 7; bet the Turn and the River when the player's cards improve the
  board's own hand (a pair or better that the board alone does not make). Each
  simulated deal is settled under all four readings of the Ante (straight or flush
  qualifier, an unqualified winning Ante pushed or lost).

>>> sheet = bonus_sheet("563.12(c) minimum", None)
>>> f"{float(sheet.house_edge):.4%}"
'8.8989%'
"""

from __future__ import annotations

import functools
import math
import random
from collections import Counter
from collections.abc import Mapping, Sequence
from fractions import Fraction
from itertools import combinations
from typing import Any

from tables.rules.cards import STANDARD_DECK, Card, Rank
from tables.rules.games import texas_hold_em_bonus_563 as thb
from tables.rules.hands import FiveCardCategory as F
from tables.rules.hands import best_five_of
from tables.rules.house_edge import HouseEdge
from tables.rules.parsheet import PayoutRow, WagerSheet

__all__ = ["bonus_sheet", "simulate", "strategy", "parsheet", "house_edges", "ROUNDS", "SEED"]

ROUNDS, SEED = 200_000, 1
READINGS = tuple((q, u) for q in thb.QUALIFIERS for u in ("push", "lose"))
_BOARD_CATEGORY = {(1,) * 3: F.HIGH_CARD, (2, 1): F.PAIR, (3,): F.THREE_OF_A_KIND,
                   (1,) * 4: F.HIGH_CARD, (2, 1, 1): F.PAIR, (2, 2): F.TWO_PAIR,
                   (3, 1): F.THREE_OF_A_KIND, (4,): F.FOUR_OF_A_KIND}  # fmt: skip


@functools.cache
def bonus_sheet(table: str, supplement: str | None) -> WagerSheet:
    """The Bonus on ``table``, every player hand and dealer hand counted (§ 563.12(c), (d))."""
    counts: Counter[Any] = Counter()
    for hand in combinations(STANDARD_DECK, 2):
        key = thb.bonus_key(hand)
        aces = 1 if key == "AA" else 0  # the dealer's two of the 50 left: C(2, 2) aces
        counts[key, False] += 1225 - aces
        counts[key, True] += aces
    total = 1326 * 1225
    won: Counter[Any] = Counter()
    for (key, dealer_aces), count in counts.items():
        odds = thb.bonus_odds(table, key, dealer_aces, supplement)
        won[None if odds is None else (f"{key} at {odds}", odds)] += count
    rows = [
        PayoutRow(
            label=label,
            odds=odds,
            combinations=count,
            probability=Fraction(count, total),
            net=odds.ratio,
        )
        for (label, odds), count in sorted(
            ((k, v) for k, v in won.items() if k is not None), key=lambda item: item[0][0]
        )
    ]
    rows.append(
        PayoutRow(
            label="Not on the table (loses)",
            odds=None,
            combinations=won[None],
            probability=Fraction(won[None], total),
            net=Fraction(-1),
        )
    )
    name = f"Bonus {table}" + (f", aces supplement {supplement}" if supplement else "")
    return WagerSheet(wager=name, section="563.12(c)", total=total, rows=tuple(rows))  # fmt: skip


def _improves(hole: Sequence[Card], board: Sequence[Card]) -> bool:
    """The player's cards make a better hand category than the board's own cards."""
    shape = tuple(sorted(Counter(card.rank for card in board).values(), reverse=True))
    return best_five_of((*hole, *board)).category > _BOARD_CATEGORY[shape]


def _flop_bet(hole: Sequence[Card]) -> bool:
    first, second = hole
    return first.rank == second.rank or first.suit == second.suit or (
        max(first.rank, second.rank) > Rank.SEVEN)  # fmt: skip


def strategy(state: Any, seat: Any, step: Any, rng: Any) -> str:
    """The stated strategy at each decision (§ 563.11(a), (c), (e))."""
    hole = [card for card in seat.cards if card is not None]
    if step.name == "flop_decision":
        return "bet" if _flop_bet(hole) else "fold"
    board = [card for card in state.community if card is not None]
    return "bet" if _improves(hole, board) else "check"


STRATEGY = strategy
STATED = (
    "Flop Wager unless the two cards are unsuited, unpaired and none above 7 (fold); "
    "Turn and River Wagers when the player's cards make a better category than the "
    "board's own cards, else check"
)


@functools.cache
def simulate(rounds: int = ROUNDS, seed: int = SEED) -> dict[tuple[str, str], dict[str, Any]]:
    """Per Ante: the mean result, its 95 % half-width and the wagered average, per reading."""
    rng, deck = random.Random(seed), list(STANDARD_DECK)
    sums = {reading: [0, 0] for reading in READINGS}
    wagered = 0
    for _ in range(rounds):
        cards = rng.sample(deck, 9)
        hole, dealer, board = cards[:2], cards[2:4], cards[4:]
        if not _flop_bet(hole):
            for reading in READINGS:
                sums[reading][0] -= 1
                sums[reading][1] += 1
            wagered += 1
            continue
        units = 2 + _improves(hole, board[:3]) + _improves(hole, board[:4])
        wagered += 1 + units
        mine, theirs = best_five_of((*hole, *board)), best_five_of((*dealer, *board))
        for (qualifier, unpaid), total in sums.items():
            if mine < theirs:
                result = -1 - units
            elif mine == theirs:
                result = 0
            elif mine.category >= thb.QUALIFIERS[qualifier]:
                result = 1 + units
            else:
                result = units - (unpaid == "lose")
            total[0] += result
            total[1] += result * result
    figures = {}
    for reading, (first, second) in sums.items():
        mean = Fraction(first, rounds)
        variance = (Fraction(second, rounds) - mean * mean) * rounds / (rounds - 1)
        half = Fraction(1.96 * math.sqrt(variance / rounds)).limit_denominator(10**9)
        average = Fraction(wagered, rounds)
        figures[reading] = {"house_edge": -mean, "half_width_95": half, "average_wagered": average,
                            "element_of_risk": -mean / average}  # fmt: skip
    return figures


# ``simulate(ROUNDS, SEED)``, recorded for finance (tests rerun it).
SIMULATED_EDGES: dict[tuple[str, str], tuple[Fraction, Fraction]] = {
    ("straight", "push"): (Fraction(2931, 40000), Fraction(9107765, 638074534)),
    ("straight", "lose"): (Fraction(86277, 200000), Fraction(6506642, 509720121)),
    ("flush", "push"): (Fraction(4101, 40000), Fraction(10529897, 744539780)),
    ("flush", "lose"): (Fraction(97977, 200000), Fraction(2963621, 237439958)),
}


def parsheet(ruleset: Any, options: Mapping[str, Any]) -> dict[str, Any]:
    """The par sheet of a round under ``options`` (the whole game simulated, seconds)."""
    figures = simulate()
    chosen = (options["ante_qualifier"], options["unqualified_ante"])
    return {
        "method": "SIDE WAGERS EXACT, WHOLE GAME SIMULATED",
        "side_wagers": [
            bonus_sheet(table, supplement)
            for table in thb.PAY_TABLES
            for supplement in (None, "replaces", "adds")
        ],  # fmt: skip
        "selected_side_wager": bonus_sheet(
            options["bonus_table"], options["aces_supplement"]
        ).wager,
        "whole_game": {
            "title": f"Ante, Flop, Turn and River, stated strategy - SIMULATED ({ROUNDS:,} "
            f"rounds, seed {SEED}, 95 % confidence interval)",
            "per": "Ante",
            **figures[chosen],
            "strategy": STATED,
            "by_reading": [
                {"ante_qualifier": q, "unqualified_ante": u, **figures[q, u]} for q, u in READINGS
            ],  # fmt: skip
        },
    }


def house_edges(ruleset: Any, options: Mapping[str, Any]) -> tuple[HouseEdge, ...]:
    """The Ante carries the simulated whole game's edge (the Flop, Turn and River Wagers
    are decisions inside it); the Bonus its exact one."""
    reading = (options["ante_qualifier"], options["unqualified_ante"])
    edge, half = SIMULATED_EDGES[reading]
    bonus = bonus_sheet(options["bonus_table"], options["aces_supplement"])
    return (
        HouseEdge(handle=frozenset({thb.ANTE}), edge=edge, half_width=half,
                  source=f"simulated, stated strategy, {ROUNDS:,} rounds, seed {SEED}, per Ante, "
                  f"{reading[0]} qualifier, unqualified Ante {reading[1]} (563.11(h)(2))"),
        *(HouseEdge(handle=frozenset({wager}), edge=Fraction(0),
                    source="inside the Ante's edge: a decision (563.11(a), (c), (e))")
          for wager in (thb.FLOP, thb.TURN, thb.RIVER)),
        HouseEdge(handle=frozenset({thb.BONUS}), edge=bonus.house_edge,
                  source=f"exact over 1,326 x 1,225 hands ({bonus.wager})"),
    )  # fmt: skip
