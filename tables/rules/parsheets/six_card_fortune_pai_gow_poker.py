"""Six-Card Fortune Pai Gow Poker par sheet (§ 588): the bonuses exact, the main game simulated.

* **Fortune Bonus, Insurance, Progressive Payout** (§ 588.12(b)-(d)): settled on
  the player's best five of six cards, so priced exactly over all
  C(53, 6) = 22,957,480 hands. The hands are counted by rank multiset: for each
  multiset of six ranks (or five and the joker) every assignment of suits is
  either without a flush (judged on the ranks) or has exactly one suit holding a
  given set of its ranks (five or more, four or more with the joker); one
  representative hand of each class is judged by the game's own evaluator and
  weighted by the number of hands in its class.
* **The Progressive** pays "for 1" (the stake was taken) and a share of the meter
  for five aces (100 %) and a royal flush (10 %): its return per unit is
  ``fixed + (p(five aces) + p(royal) / 10) * meter / wager``, and it breaks even at
  the meter amount the sheet gives per dollar wagered.
* **Main and Double Down Wagers** (§ 588.11(f), (g)): one player against the
  dealer, both setting by § 588.11(d), doubling down with two pair or better,
  simulated (``ROUNDS`` rounds, seed ``SEED``) with a 95 % interval.
"""

from __future__ import annotations

import functools
import math
import random
from collections import Counter
from collections.abc import Iterator, Mapping
from fractions import Fraction
from itertools import combinations
from math import comb, prod
from typing import Any

from tables.rules.cards import JOKER, JOKER_DECK, Card, Rank, Suit
from tables.rules.games import _pai_gow_hands as pg
from tables.rules.games import six_card_fortune_588 as scf
from tables.rules.games._six_card_fortune import FORTUNE, PROGRESSIVE
from tables.rules.house_edge import HouseEdge
from tables.rules.money import MeterShare
from tables.rules.parsheet import PayoutRow, WagerSheet
from tables.rules.progressives.chapters import SIX_CARD_FORTUNE_588, ForOne

HANDS = comb(53, 6)
ROUNDS, SEED = 100_000, 588
#: Main + Double Down per unit of the main wager, and its 95 % half-width
#: (``parsheet six_card_fortune_pai_gow_poker``: ROUNDS rounds, SEED, six-card qualifier).
MAIN_RESULT = Fraction(-5_423, 100_000)
MAIN_HALF_WIDTH = Fraction(49_865_557, 10**10)
_SUITS = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
Key = tuple[pg.Category, int | None]


def _multisets(size: int, low: int = 2) -> Iterator[tuple[int, ...]]:
    """Every multiset of ``size`` ranks from ``low`` up, no rank more than four times."""
    if size == 0:
        yield ()
        return
    for rank in range(low, 15):
        for rest in _multisets(size - 1, rank):
            if rest.count(rank) < 4:
                yield (rank, *rest)


def _classes(ranks: tuple[int, ...], joker: bool) -> Iterator[tuple[list[Card], int]]:
    """A representative hand of each class of suit assignments, and how many hands it stands for."""
    counts = Counter(ranks)
    distinct = sorted(counts)
    need = 4 if joker else 5
    total, flushes = prod(comb(4, n) for n in counts.values()), 0
    for size in range(need, len(distinct) + 1):
        for suited in combinations(distinct, size):
            hands = 4 * prod(comb(3, counts[r] - (r in suited)) for r in distinct)
            if not hands:
                continue
            flushes += hands
            cards = [Card(Rank(r), Suit.SPADES) for r in suited]
            for rank in distinct:
                others = counts[rank] - (rank in suited)
                cards += [Card(Rank(rank), suit) for suit in _SUITS[1:1 + others]]
            yield cards + [JOKER] * joker, hands
    used: Counter[Suit] = Counter()
    cards = []
    for rank in distinct:  # spread the suits so that no suit can make a flush
        for suit in sorted(_SUITS, key=lambda s: used[s])[: counts[rank]]:
            used[suit] += 1
            cards.append(Card(Rank(rank), suit))
    yield cards + [JOKER] * joker, total - flushes


@functools.cache
def best_hand_counts() -> Counter[Key]:
    """How many six-card hands have each best hand (category, and top card when no pair)."""
    counts: Counter[Key] = Counter()
    for joker in (False, True):
        for ranks in _multisets(5 if joker else 6):
            for cards, hands in _classes(ranks, joker):
                if hands:
                    best = pg.best_of_six(cards)
                    top = best.ranks[0] if best.category is pg.Category.HIGH_CARD else None
                    counts[(best.category, top)] += hands
    assert sum(counts.values()) == HANDS
    return counts


def _by_category() -> Counter[pg.Category]:
    found: Counter[pg.Category] = Counter()
    for (category, _), count in best_hand_counts().items():
        found[category] += count
    return found


def _row(label: str, odds: Any, count: int, net: Fraction) -> PayoutRow:
    return PayoutRow(label=label, odds=odds, combinations=count,
                     probability=Fraction(count, HANDS), net=net)  # fmt: skip


def fortune_sheet() -> WagerSheet:
    """The Fortune Bonus Wager (§ 588.12(b)(i)), exact."""
    found = _by_category()
    rows = [_row(category.name, odds, found[category], odds.ratio)
            for category, odds in pg.FORTUNE_TABLE.items()]  # fmt: skip
    losing = HANDS - sum(row.combinations for row in rows)
    rows.append(_row("Below three-of-a-kind (loses)", None, losing, Fraction(-1)))
    return WagerSheet(wager="Fortune Bonus", section="588.12(b)(i)", total=HANDS, rows=tuple(rows))


def insurance_sheet() -> WagerSheet:
    """The Insurance Wager (§ 588.12(c)), exact."""
    counts = best_hand_counts()
    rows = [_row(pg.INSURANCE_NAMES[top], odds, counts[(pg.Category.HIGH_CARD, top)], odds.ratio)
            for top, odds in pg.INSURANCE_TABLE.items()]  # fmt: skip
    losing = HANDS - sum(row.combinations for row in rows)
    rows.append(_row("Better than king-high (loses)", None, losing, Fraction(-1)))
    return WagerSheet(wager="Insurance", section="588.12(c)", total=HANDS, rows=tuple(rows))


def progressive() -> dict[str, Any]:
    """The Progressive Payout Wager's return per unit against the meter (§ 588.12(d)(1))."""
    found = _by_category()
    fixed, meter_share = Fraction(0), Fraction(0)
    lines = {}
    for line in SIX_CARD_FORTUNE_588.schedule:
        probability = Fraction(found[pg.Category[line.hand]], HANDS)
        lines[line.hand] = {"pays": str(line.pays), "combinations": found[pg.Category[line.hand]]}
        if isinstance(line.pays, ForOne):
            fixed += probability * Fraction(line.pays.numerator, line.pays.denominator)
        elif isinstance(line.pays, MeterShare):
            meter_share += probability * line.pays.share
    return {
        "lines": lines,
        "fixed_return_per_unit": fixed,
        "meter_return_per_dollar_of_meter_per_dollar_wagered": meter_share,
        "break_even_meter_per_dollar_wagered": (1 - fixed) / meter_share,
        "return_at_minimum_reset_on_5_dollars": fixed + meter_share * Fraction(5_000, 5),
    }


def _progressive_notes() -> list[str]:
    figures = progressive()
    fixed = figures["fixed_return_per_unit"]
    share = figures["meter_return_per_dollar_of_meter_per_dollar_wagered"]
    return [f"Progressive Payout (§ 588.12(d)(1)), exact: returns {float(fixed):.4%} per unit from "
            f"its 'for 1' lines plus {float(share):.4e} x meter / wager; it breaks even at a "
            f"meter of {float(figures['break_even_meter_per_dollar_wagered']):,.0f} times the "
            "wager."]


def play_round(rng: random.Random, qualifier: str) -> Fraction:
    """Main and Double Down results per unit of the main wager (§ 588.11(f), (g))."""
    deck = list(JOKER_DECK)
    rng.shuffle(deck)
    mine, dealer = pg.house_way_588(deck[:6]), pg.house_way_588(deck[6:12])
    if pg.fouled(mine):
        return Fraction(-1)
    high = pg.versus(mine.high, dealer.high) > 0
    low = pg.versus(mine.low, dealer.low, joker_low_wins=True) > 0
    result = Fraction(1 if high and low else 0 if high or low else -1)
    if pg.best_of_six(deck[:6]).category < pg.Category.TWO_PAIR:
        return result
    judged = pg.evaluate(dealer.high) if qualifier == "high_hand" else pg.best_of_six(deck[6:12])
    qualifies = judged.category > pg.Category.PAIR or (
        judged.category is pg.Category.PAIR and judged.ranks[0] >= 8)  # fmt: skip
    return 2 * result if qualifies else result


@functools.cache
def main_game(qualifier: str, rounds: int = ROUNDS, seed: int = SEED) -> tuple[Fraction, Fraction]:
    """(mean result per unit of the main wager, 95 % half-width)."""
    rng = random.Random(seed)
    results = [play_round(rng, qualifier) for _ in range(rounds)]
    mean = sum(results, Fraction(0)) / rounds
    squares = sum((r * r for r in results), Fraction(0))
    variance = (squares / rounds - mean * mean) * rounds / (rounds - 1)
    scaled = variance * Fraction(196, 100) ** 2 / rounds * 10**20
    return mean, Fraction(math.isqrt(scaled.numerator // scaled.denominator), 10**10)


def parsheet(ruleset: Any, options: Mapping[str, Any]) -> dict[str, Any]:
    """The par sheet under ``options``; the main game is simulated afresh."""
    qualifier = options["double_down_hand"] or "six_cards"
    mean, half = main_game(qualifier)
    return {
        "exact": False,
        "side_wagers": [fortune_sheet(), insurance_sheet()],
        "selected_side_wager": None,
        "progressive": progressive(),
        "whole_game": {
            "title": f"Main and Double Down Wagers, § 588.11(d) for both, double down with two "
            f"pair or better - SIMULATED ({ROUNDS:,} rounds, seed {SEED}, qualifier {qualifier})",
            "per": "Six-Card Fortune Pai Gow Poker Wager",
            "house_edge": -mean,
            "half_width_95": half,
            "strategy": "both set by § 588.11(d); the player doubles down with two pair or better",
            "notes": [*_progressive_notes(),
                      "Envy bonuses depend on the other players' hands: not priced here."],
        },
    }


def house_edges(ruleset: Any, options: Mapping[str, Any]) -> tuple[HouseEdge, ...]:
    """Finance's edges: the main game (Double Down inside it), the bonuses exact; the
    Progressive's house-paid lines only (the meter's share is the meter's, not the house's)."""
    fixed = progressive()["fixed_return_per_unit"]
    return (
        HouseEdge(handle=frozenset({scf.MAIN}), edge=-MAIN_RESULT, half_width=MAIN_HALF_WIDTH,
                  source=f"simulated, § 588.11(d) for both, {ROUNDS:,} rounds, seed {SEED}"),
        HouseEdge(handle=frozenset({scf.DOUBLE_DOWN}), edge=Fraction(0),
                  source="inside the main wager's edge: a decision (588.11(c))"),
        HouseEdge(handle=frozenset({FORTUNE}), edge=fortune_sheet().house_edge,
                  source=f"exact over {HANDS:,} hands"),
        HouseEdge(handle=frozenset({scf.INSURANCE}), edge=insurance_sheet().house_edge,
                  source=f"exact over {HANDS:,} hands"),
        HouseEdge(handle=frozenset({PROGRESSIVE}), edge=1 - fixed,
                  source="exact, the house-paid 'for 1' lines; the meter lines are the meter's"),
    )  # fmt: skip
