"""Lunar Poker par sheet (§ 589): the Super Wager exact, the main game simulated.

Everything about the game is read from its modules (:mod:`tables.rules.games.lunar_poker_589`
and ``_lunar_hands``): the pay tables, :func:`super_key`, :func:`qualifies`, the
winning and second combinations. Nothing here restates a payout.

* **Super Wager** (§ 589.12(b)): on the first five cards alone; all 2,598,960
  hands are counted once under each reading of the defective table, and every
  table A-C priced from the counts. Both readings pay the player more than he
  stakes: the table as printed cannot be offered at a house edge.
* **Ante, Bet and Options fees** (§ 589.11, § 589.12(a), (c), (d)) under the
  stated strategy :func:`first_choice` / :func:`after_draw` / :func:`forces`,
  one player against the dealer, simulated (``ROUNDS`` rounds, seed ``SEED``)
  with its 95 % confidence interval, per unit of Ante, fees included as the
  house's revenue. The instant payout is exact: the simulated result excludes
  first-five royal and straight flushes, whose value (4 and 36 in 2,598,960)
  is added for each table A-H.
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
from tables.rules.games import _lunar_hands as lh
from tables.rules.games import lunar_poker_589 as lun
from tables.rules.hands import FiveCardCategory as F
from tables.rules.hands import best_five_of, evaluate_five
from tables.rules.house_edge import HouseEdge
from tables.rules.parsheet import PayoutRow, WagerSheet

HANDS = 2_598_960
ROYALS, STRAIGHT_FLUSHES = 4, 36
ROUNDS, SEED = 1_000_000, 589
#: The main game without first-five royal/straight flushes, per unit of Ante, per
#: dealt hand (``parsheet lunar_poker --ruleset PA-589-2013``: ROUNDS rounds, SEED).
MAIN_RESULT = Fraction(-89_872, 499_993)
MAIN_HALF_WIDTH = Fraction(52_227_007, 10**10)
_LABELS = {key: key.replace("_", " ").capitalize() for key in lh.SUPER_KEYS}
Strategy = tuple[str, tuple[str, ...]]
STATED = ("declare a royal or straight flush; bet a pair or better or ace-king; buy a sixth "
          "card to four to a flush or an open-ended straight; with a lone ace or king, exchange "
          "the other four; else fold. After a draw: bet a pair or better or ace-king, else fold. "
          "Force a dealer who does not qualify with a flush or better.")  # fmt: skip


def _suited_run(five: Sequence[Card]) -> bool:
    """Four to a flush, or four consecutive ranks (an open-ended straight draw)."""
    if max(Counter(card.suit for card in five).values()) >= 4:
        return True
    ranks = sorted({int(card.rank) for card in five})
    return any(ranks[i + 3] - ranks[i] == 3 and ranks[i + 3] < 14 and ranks[i] > 2
               for i in range(len(ranks) - 3))  # fmt: skip


def first_choice(five: Sequence[Card]) -> Strategy:
    """§ 589.11(b) under the stated strategy: declare a royal or straight flush; bet a
    pair or better or ace-king; buy a sixth card to four to a flush or an open-ended
    straight; keep a lone ace or king and exchange the other four; else fold."""
    if evaluate_five(five).category >= F.STRAIGHT_FLUSH:
        return "declare", ()
    if lh.qualifies(five):
        return "bet", ()
    if _suited_run(five):
        return "sixth_card", ()
    high = [i for i, card in enumerate(five) if card.rank in (Rank.ACE, Rank.KING)]
    if high:
        return "exchange", tuple(lh.SPOTS[i] for i in range(5) if i != high[0])
    return "fold", ()


def after_draw(hand: Sequence[Card]) -> str:
    """§ 589.11(d)(2)(iii): bet a pair or better or ace-king, else fold."""
    return "bet" if lh.qualifies(hand) else "fold"


def forces(hand: Sequence[Card]) -> bool:
    """§ 589.11(e)(2): force a dealer who did not qualify with a flush or better."""
    return best_five_of(hand).category >= F.FLUSH


def strategy(state: Any, seat: Any, step: Any, rng: random.Random) -> Any:
    """The simulator's play: the stated strategy at each decision."""
    if step.name == lun.FIRST:
        choice, out = first_choice([card for card in seat.cards[:5] if card is not None])
        return (choice, {"discard": ",".join(out)}) if out else choice
    if step.name == lun.DRAWN:
        return after_draw(lh.hand_of(seat))
    return "force" if forces(lh.hand_of(seat)) else "no_force"


STRATEGY = strategy


def _bet_result(hand: Sequence[Card], dealer: Sequence[Card]) -> int:
    """Ante + Bet (2 Antes) against a qualifying dealer, in Antes (§ 589.11(e)(1))."""
    mine, theirs = best_five_of(hand), best_five_of(dealer)
    if mine < theirs:
        return -3
    if mine == theirs:
        return 0
    category, winning = lh.winning_combination(hand)
    second = lh.second_combination(hand, winning)
    odds = lh.BET_TABLE[category].ratio + (lh.BET_TABLE[second].ratio if second else 0)
    return int(2 * odds)


def play_round(rng: random.Random) -> int | None:
    """One player's result in Antes, fees included; ``None`` for a first-five
    royal or straight flush (priced exactly apart)."""
    deck = list(STANDARD_DECK)
    rng.shuffle(deck)
    five, dealer = deck[:5], deck[5:10]
    rest = deck[10:]
    choice, out = first_choice(five)
    if choice == "declare":
        return None
    if choice == "fold":
        return -1
    fee, hand = 0, list(five)
    if choice in ("sixth_card", "exchange"):
        fee = -1
        hand = [card for spot, card in zip(lh.SPOTS, five, strict=True) if spot not in out]
        hand += [rest.pop() for _ in range(len(out) or 1)]
        if after_draw(hand) == "fold":
            return fee - 1
    if lh.qualifies(dealer):
        return fee + _bet_result(hand, dealer)
    if not forces(hand):
        return fee + 1
    top = max(dealer, key=lambda card: card.rank)
    forced = [card for card in dealer if card != top] + [rest.pop()]
    if not lh.qualifies(forced):
        return fee - 1
    return fee - 1 + _bet_result(hand, forced)


@functools.cache
def main_game(rounds: int = ROUNDS, seed: int = SEED) -> tuple[Fraction, Fraction, int]:
    """(mean result per dealt hand without first-five flushes, 95 % half-width, rounds)."""
    rng = random.Random(seed)
    total = squares = counted = 0
    for _ in range(rounds):
        result = play_round(rng)
        if result is None:
            continue
        total, squares, counted = total + result, squares + result * result, counted + 1
    mean = Fraction(total, counted)
    variance = (Fraction(squares, counted) - mean * mean) * counted / (counted - 1)
    scaled = variance * Fraction(196, 100) ** 2 / counted * 10**20
    half = Fraction(math.isqrt(scaled.numerator // scaled.denominator), 10**10)
    return mean, half, counted


def edge(instant_table: str, result: Fraction = MAIN_RESULT) -> Fraction:
    """House edge per unit of Ante: the simulated rest and the exact instant payout."""
    royal, straight = lh.INSTANT[instant_table]
    flushes = ROYALS + STRAIGHT_FLUSHES
    instant = Fraction(ROYALS * royal.numerator + STRAIGHT_FLUSHES * straight.numerator, HANDS)
    return -(result * Fraction(HANDS - flushes, HANDS) + instant)


@functools.cache
def super_counts() -> Counter[tuple[str | None, str | None]]:
    """How many five-card hands each reading pays on each line (one pass over the deck)."""
    counts: Counter[tuple[str | None, str | None]] = Counter()
    for five in combinations(STANDARD_DECK, 5):
        counts[(lh.super_key(five, "literal"), lh.super_key(five, "ace_king_high"))] += 1
    return counts


def super_sheet(table: str, reading: str) -> WagerSheet:
    """The Super Wager on table ``table`` under ``reading`` (§ 589.12(b)), every hand."""
    position = lh.SUPER_READINGS.index(reading)
    by_key: Counter[str | None] = Counter()
    for keys, count in super_counts().items():
        by_key[keys[position]] += count
    pays = lh.SUPER_TABLES[table]
    rows = [PayoutRow(label=_LABELS[key], odds=pays[key], combinations=by_key[key],
                      probability=Fraction(by_key[key], HANDS), net=pays[key].ratio)
            for key in lh.SUPER_KEYS]  # fmt: skip
    rows.append(PayoutRow(label="Nothing listed (loses)", odds=None, combinations=by_key[None],
                          probability=Fraction(by_key[None], HANDS), net=Fraction(-1)))  # fmt: skip
    return WagerSheet(wager=f"Super {table}, reading {reading}", section="589.12(b)",
                      total=HANDS, rows=tuple(rows))  # fmt: skip


def parsheet(ruleset: Any, options: Mapping[str, Any]) -> dict[str, Any]:
    """The par sheet under ``options``; the main game is simulated afresh."""
    mean, half, counted = main_game()
    table = options["instant_table"]
    reading = options["super_reading"]
    sheets = [super_sheet(t, r) for r in lh.SUPER_READINGS for t in lh.SUPER_TABLES]
    return {
        "side_wagers": sheets,
        "selected_side_wager": None if reading is None else
        f"Super {options['super_table']}, reading {reading}",
        "whole_game": {
            "title": f"Ante, Bet and Options fees, stated strategy - SIMULATED ({counted:,} "
            f"hands of {ROUNDS:,}, seed {SEED}; first-five royal and straight flushes exact)",
            "per": "Ante",
            "house_edge": edge(table, mean),
            "half_width_95": half,
            "house_edge_by_instant_table": {t: edge(t, mean) for t in lh.INSTANT},
            "strategy": STATED,
            "notes": [
                "Fees (§ 589.11(d)(2)(i), (e)(2)(ii)) count as the house's revenue per Ante; "
                "they are not handle.",
                "Both readings of § 589.12(b) give the player the edge on the Super Wager.",
            ],
        },
    }


def house_edges(ruleset: Any, options: Mapping[str, Any]) -> tuple[HouseEdge, ...]:
    """Finance's edges: the Ante carries the game (fees included) per Ante; the Bet is a
    decision inside it; the Super its table's exact edge (none offered without a reading)."""
    table, reading = options["instant_table"], options["super_reading"]
    source = (f"simulated, stated strategy, {ROUNDS:,} rounds, seed {SEED}, per Ante, fees "
              f"included; instant table {table} exact")  # fmt: skip
    supered = Fraction(0) if reading is None else (
        super_sheet(options["super_table"], reading).house_edge)  # fmt: skip
    return (
        HouseEdge(handle=frozenset({lun.ANTE}), edge=edge(table), source=source,
                  half_width=MAIN_HALF_WIDTH),
        HouseEdge(handle=frozenset({lun.BET}), edge=Fraction(0),
                  source="inside the Ante's edge: a decision (589.11(b))"),
        HouseEdge(handle=frozenset({lun.SUPER}), edge=supered,
                  source="not offered without a reading" if reading is None else
                  f"exact over 2,598,960 hands, table {options['super_table']}, {reading}"),
    )  # fmt: skip
