"""Exact whole-game figures of Criss-Cross Poker under optimal strategy (§ 592/674a.11).

One position, Five Card Bonus excluded. The player sees the two cards and
decides the Across Bet (§ .11(b)); ROW-1 and ROW-3 are revealed and the player
decides the Down Bet (§ .11(d)); TOP and BOTTOM are revealed and the player
decides the Middle Bet (§ .11(f)); CENTER is revealed and every wager settles
(§ .11(h), § .12(a), (b); the Middle Bet on the higher hand). Each decision is
fold, 1x or 3x, and is solved by backward induction with exact integer
expectations (no sampling anywhere).

Why only fold, 1x and 3x: the result of a round is affine in each multiple, so
the value of every later decision is a maximum of affine functions of the
multiples already placed, hence convex in them, and an expectation of convex
functions is convex. A convex function on [1, 3] is largest at an end, so no
multiple strictly between 1x and 3x (2x, or any real multiple) ever does
better than the better of 1x and 3x.

How it is made fast (all exact):

* Both hands contain the two hole cards, so a five-card flush needs suited
  hole cards. For unsuited hole cards every card is reduced to its rank; for
  suited hole cards to (rank, of the hole cards' suit or not). Cards of one
  such *type* are interchangeable, and each state carries the number of unseen
  cards of each type, so the probabilities are exact counts.
* The Across Hand (hole, ROW-1, CENTER, ROW-3) and the Down Hand (hole, TOP,
  CENTER, BOTTOM) are both "hole cards plus a pair of revealed cards plus
  CENTER", so one table per pair of types serves both hands.
* Sums over CENTER run over every type weighted by the unseen count after the
  hole cards, and the (at most four) cards already dealt are subtracted.
* The 1,326 two-card hands fall into 169 classes (13 pairs x 6, 78 suited x 4,
  78 unsuited x 12), solved once each.

Values are integers over known denominators: a Middle-stage value is over 46
(CENTER cards), a Down-stage value over 46 x 1,128 (TOP/BOTTOM pairs), an
Across-stage value over 46 x 1,128 x 1,225 (ROW pairs). Ties are broken towards
1x, then 3x, then fold (as :class:`tables.rules.parsheet.MiddleDecision`); ties
do not change the house edge but can change the element of risk.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import combinations, combinations_with_replacement
from operator import mul
from typing import Final

from tables.rules.cards import STANDARD_DECK, Card, Rank, Suit
from tables.rules.hands import five_card_strength

__all__ = [
    "ClassResult",
    "ExactGame",
    "HoleSolver",
    "hole_classes",
    "solve_class",
    "solve_game",
]

CENTERS: Final = 46
TOP_BOTTOM_PAIRS: Final = math.comb(48, 2)
ROW_PAIRS: Final = math.comb(50, 2)
MIDDLE_DEN: Final = CENTERS
DOWN_DEN: Final = CENTERS * TOP_BOTTOM_PAIRS
ACROSS_DEN: Final = DOWN_DEN * ROW_PAIRS
HOLE_COMBINATIONS: Final = math.comb(52, 2)

_SUITS: Final = tuple(Suit)
_NONFLUSH: dict[tuple[int, ...], int] = {}


def _nonflush_strength(ranks: tuple[int, ...]) -> int:
    """Strength of five cards of these ranks that are not all one suit (0 if impossible)."""
    key = tuple(sorted(ranks))
    value = _NONFLUSH.get(key)
    if value is None:
        if max(key.count(rank) for rank in key) > 4:
            value = 0  # never dealt: its weight is always zero
        else:
            seen: dict[int, int] = {}
            cards: list[Card] = []
            for rank in key:
                cards.append(Card(Rank(rank), _SUITS[seen.get(rank, 0)]))
                seen[rank] = seen.get(rank, 0) + 1
            if len(seen) == 5:
                cards[-1] = Card(Rank(key[-1]), _SUITS[1])
            value = five_card_strength(cards)
        _NONFLUSH[key] = value
    return value


class HoleSolver:
    """Backward induction for one two-card hand (a representative of its class).

    :param ante: player's result per unit of an Ante, by five-card strength.
    :param bet: player's result per unit of a Bet, by five-card strength.
    """

    def __init__(self, ante: Sequence[int], bet: Sequence[int], hole: Sequence[Card]) -> None:
        first, second = hole
        self.hole = (first, second)
        self.ante = ante
        self.bet = bet
        self.suited = first.suit == second.suit
        hole_ranks = (int(first.rank), int(second.rank))
        self.hole_ranks = hole_ranks
        # Types: rank 2..14, and for suited hole cards whether of the hole suit.
        types: list[tuple[int, bool]] = []
        weights: list[int] = []
        for rank in range(2, 15):
            held = hole_ranks.count(rank)
            if self.suited:
                types.append((rank, True))
                weights.append(1 - held)
                types.append((rank, False))
                weights.append(3)
            else:
                types.append((rank, False))
                weights.append(4 - held)
        self.types = types
        self.weights = weights
        self.index = {item: number for number, item in enumerate(types)}
        assert sum(weights) == 50
        self._pairs: dict[tuple[int, int], tuple[list[int], list[int], list[int], int, int]] = {}
        self.monotone = all(bet[i] <= bet[i + 1] for i in range(len(bet) - 1))

    # -- tables ---------------------------------------------------------------------

    def type_of(self, card: Card) -> int:
        """Type index of an unseen card."""
        return self.index[(int(card.rank), self.suited and card.suit == self.hole[0].suit)]

    def _strength(self, a: int, b: int, c: int) -> int:
        (ra, fa), (rb, fb), (rc, fc) = self.types[a], self.types[b], self.types[c]
        if fa and fb and fc:
            if len({ra, rb, rc, *self.hole_ranks}) < 5:
                return 0  # the same card twice: never dealt
            suit = self.hole[0].suit
            return five_card_strength(
                (*self.hole, Card(Rank(ra), suit), Card(Rank(rb), suit), Card(Rank(rc), suit))
            )
        return _nonflush_strength((*self.hole_ranks, ra, rb, rc))

    def pair_table(self, a: int, b: int) -> tuple[list[int], list[int], list[int], int, int]:
        """For the revealed pair of types (a, b): strength, ante and bet by CENTER type.

        Also the totals of the ante and bet results weighted by the unseen
        counts after the hole cards only.
        """
        key = (a, b) if a <= b else (b, a)
        table = self._pairs.get(key)
        if table is None:
            strengths = [self._strength(a, b, c) for c in range(len(self.types))]
            antes = [self.ante[s] for s in strengths]
            bets = [self.bet[s] for s in strengths]
            table = (
                strengths,
                antes,
                bets,
                sum(map(mul, self.weights, antes)),
                sum(map(mul, self.weights, bets)),
            )
            self._pairs[key] = table
        return table

    def pairs(self, weights: Sequence[int]) -> list[tuple[int, int, int]]:
        """Unordered pairs of types with their number of card pairs, given unseen counts."""
        result = []
        for a, b in combinations_with_replacement(range(len(self.types)), 2):
            count = weights[a] * weights[b] if a != b else math.comb(weights[a], 2)
            if count:
                result.append((a, b, count))
        return result

    # -- stages ---------------------------------------------------------------------

    def down_stage(
        self, a: int, b: int
    ) -> dict[int, tuple[int, int, tuple[int, int, int], tuple[int, int, int]]]:
        """Optimal Down and Middle play after ROW-1, ROW-3 of types ``a``, ``b``.

        :return: for Across multiple 1 and 3: (value, wagered) over ``DOWN_DEN``
            in ante units, the Down decision as a one-hot (fold, 1x, 3x) triple,
            and the Middle decisions (fold, 1x, 3x) counted over ``DOWN_DEN //
            CENTERS`` TOP/BOTTOM pairs.
        """
        weights = list(self.weights)
        weights[a] -= 1
        weights[b] -= 1
        strengths_r, antes_r, bets_r, ante_total_r, bet_total_r = self.pair_table(a, b)
        bet = self.bet
        base_weights = self.weights
        monotone = self.monotone
        # Deals where no (Across, Down) pair of multiples folds the Middle Bet add
        # linearly: sums of count x (antes + m x middle), across, down, m, [m = 3], count.
        linear = [0, 0, 0, 0, 0, 0]
        # Other deals, per (A, D): value, wagered, Middle folds, Middle 3x.
        extra = {(x, y): [0, 0, 0, 0] for x in (1, 3) for y in (1, 3)}
        for c, d, count in self.pairs(weights):
            strengths_t, antes_t, bets_t, ante_total_t, bet_total_t = self.pair_table(c, d)
            s_ante = (
                ante_total_r
                + ante_total_t
                - antes_r[a]
                - antes_r[b]
                - antes_r[c]
                - antes_r[d]
                - antes_t[a]
                - antes_t[b]
                - antes_t[c]
                - antes_t[d]
            )
            s_across = bet_total_r - bets_r[a] - bets_r[b] - bets_r[c] - bets_r[d]
            s_down = bet_total_t - bets_t[a] - bets_t[b] - bets_t[c] - bets_t[d]
            if monotone:  # the Bet on the higher hand is the higher of the two Bets
                best = list(map(max, bets_r, bets_t))
            else:
                best = list(map(bet.__getitem__, map(max, strengths_r, strengths_t)))
            s_middle = sum(map(mul, base_weights, best)) - best[a] - best[b] - best[c] - best[d]
            middle = 3 if s_middle > 0 else 1
            core = s_ante + middle * s_middle
            v11 = core + s_across + s_down
            if (
                v11 >= -4 * CENTERS
                and v11 + 2 * s_down >= -6 * CENTERS
                and v11 + 2 * s_across >= -6 * CENTERS
                and v11 + 2 * s_across + 2 * s_down >= -8 * CENTERS
            ):
                linear[0] += count * core
                linear[1] += count * s_across
                linear[2] += count * s_down
                linear[3] += count * middle
                if middle == 3:
                    linear[4] += count
                linear[5] += count
                continue
            for (x, y), slot in extra.items():
                fold = -(2 + x + y) * CENTERS
                value = core + x * s_across + y * s_down
                if value >= fold:
                    slot[0] += count * value
                    slot[1] += count * (2 + x + y + middle) * CENTERS
                    if middle == 3:
                        slot[3] += count
                else:
                    slot[0] += count * fold
                    slot[1] += count * -fold
                    slot[2] += count
        acc = {}
        for (x, y), (value, wagered, folds, threes) in extra.items():
            acc[x, y] = (
                value + linear[0] + x * linear[1] + y * linear[2],
                wagered + ((2 + x + y) * linear[5] + linear[3]) * CENTERS,
                folds,
                threes + linear[4],
            )
        result = {}
        for x in (1, 3):
            options = []
            for y in (1, 3):
                value, wagered, folds, threes = acc[x, y]
                options.append(
                    (
                        value,
                        wagered,
                        (0, 1, 0) if y == 1 else (0, 0, 1),
                        (folds, TOP_BOTTOM_PAIRS - folds - threes, threes),
                    )
                )
            fold = -(2 + x) * DOWN_DEN
            one, three = options
            if one[0] >= three[0] and one[0] >= fold:
                result[x] = one
            elif three[0] >= fold:
                result[x] = three
            else:
                result[x] = (fold, -fold, (1, 0, 0), (0, 0, 0))
        return result

    def down_value(self, row_1: Card, row_3: Card, across: int) -> Fraction:
        """Exact expected result (ante units) of optimal play after the ROW cards."""
        value = self.down_stage(self.type_of(row_1), self.type_of(row_3))[across][0]
        return Fraction(value, DOWN_DEN)

    def solve(self) -> ClassResult:
        """Optimal Across, Down and Middle play for this two-card hand."""
        totals = {x: _Totals() for x in (1, 3)}
        for a, b, count in self.pairs(self.weights):
            stage = self.down_stage(a, b)
            for x in (1, 3):
                value, wagered, down, middle = stage[x]
                slot = totals[x]
                slot.value += count * value
                slot.wagered += count * wagered
                for i in range(3):
                    slot.down[i] += count * down[i] * DOWN_DEN
                    slot.middle[i] += count * middle[i] * CENTERS
        fold = -2 * ACROSS_DEN
        one, three = totals[1], totals[3]
        if one.value >= three.value and one.value >= fold:
            across, chosen = 1, one
        elif three.value >= fold:
            across, chosen = 3, three
        else:
            across, chosen = 0, _Totals(fold, -fold)
        return ClassResult(
            hole=self.hole,
            across=across,
            value_fold=Fraction(-2),
            value_1x=Fraction(one.value, ACROSS_DEN),
            value_3x=Fraction(three.value, ACROSS_DEN),
            value=chosen.value,
            wagered=chosen.wagered,
            down=(chosen.down[0], chosen.down[1], chosen.down[2]),
            middle=(chosen.middle[0], chosen.middle[1], chosen.middle[2]),
        )


@dataclass(slots=True)
class _Totals:
    """One Across multiple's sums over the ROW deals, over ``ACROSS_DEN``: value,
    wagered, and the Down and Middle decisions (fold, 1x, 3x)."""

    value: int = 0
    wagered: int = 0
    down: list[int] = field(default_factory=lambda: [0, 0, 0])
    middle: list[int] = field(default_factory=lambda: [0, 0, 0])


@dataclass(frozen=True, slots=True)
class ClassResult:
    """Optimal play of one two-card class; integer totals over ``ACROSS_DEN``."""

    hole: tuple[Card, Card]
    across: int
    value_fold: Fraction
    value_1x: Fraction
    value_3x: Fraction
    value: int
    wagered: int
    down: tuple[int, int, int]
    """Fold, 1x, 3x at the Down Bet, over ``ACROSS_DEN`` (zero if the Across folds)."""
    middle: tuple[int, int, int]

    @property
    def name(self) -> str:
        """Starting-hand class (``"AKs"``)."""
        high, low = sorted(self.hole, key=lambda card: -card.rank)
        text = high.rank.symbol + low.rank.symbol
        if high.rank == low.rank:
            return text
        return text + ("s" if high.suit == low.suit else "o")

    @property
    def expected(self) -> Fraction:
        """Expected result of optimal play in ante units (both antes: 2 units staked)."""
        return Fraction(self.value, ACROSS_DEN)


def hole_classes() -> list[tuple[tuple[Card, Card], int]]:
    """One representative of each of the 169 classes with its number of combinations."""
    result = []
    ranks = sorted(Rank, reverse=True)
    clubs, diamonds = _SUITS[0], _SUITS[1]
    for high_index, high in enumerate(ranks):
        for low in ranks[high_index:]:
            if high == low:
                result.append(((Card(high, clubs), Card(low, diamonds)), 6))
            else:
                result.append(((Card(high, clubs), Card(low, clubs)), 4))
                result.append(((Card(high, clubs), Card(low, diamonds)), 12))
    assert sum(weight for _, weight in result) == HOLE_COMBINATIONS
    return result


def solve_class(arguments: tuple[Sequence[int], Sequence[int], tuple[Card, Card]]) -> ClassResult:
    """Solve one class (top-level so that a process pool can call it)."""
    ante, bet, hole = arguments
    return HoleSolver(ante, bet, hole).solve()


@dataclass(frozen=True, slots=True)
class ExactGame:
    """Exact whole-game figures under optimal play."""

    classes: tuple[tuple[ClassResult, int], ...]
    seconds: float

    @property
    def denominator(self) -> int:
        """Common denominator of the integer totals."""
        return ACROSS_DEN * HOLE_COMBINATIONS

    @property
    def expected_result(self) -> Fraction:
        """Player's expected result per round in ante units (two antes of one unit)."""
        return Fraction(sum(item.value * weight for item, weight in self.classes), self.denominator)

    @property
    def average_wagered(self) -> Fraction:
        """Expected total wagered per round, in ante units."""
        return Fraction(
            sum(item.wagered * weight for item, weight in self.classes), self.denominator
        )

    @property
    def house_edge(self) -> Fraction:
        """Expected loss per unit of initial ante total (both antes)."""
        return -self.expected_result / 2

    @property
    def element_of_risk(self) -> Fraction:
        """Expected loss per unit of total amount wagered."""
        return -self.expected_result / self.average_wagered

    def _frequency(self, field: str) -> tuple[Fraction, Fraction, Fraction]:
        totals = [0, 0, 0]
        for item, weight in self.classes:
            for i, value in enumerate(getattr(item, field)):
                totals[i] += value * weight
        den = self.denominator
        return (Fraction(totals[0], den), Fraction(totals[1], den), Fraction(totals[2], den))

    @property
    def across_frequency(self) -> tuple[Fraction, Fraction, Fraction]:
        """Probability of fold, 1x, 3x at the Across Bet."""
        totals = [0, 0, 0]
        for item, weight in self.classes:
            totals[(0, 1, 3).index(item.across)] += weight
        return (
            Fraction(totals[0], HOLE_COMBINATIONS),
            Fraction(totals[1], HOLE_COMBINATIONS),
            Fraction(totals[2], HOLE_COMBINATIONS),
        )

    @property
    def down_frequency(self) -> tuple[Fraction, Fraction, Fraction]:
        """Probability (per round) of fold, 1x, 3x at the Down Bet."""
        return self._frequency("down")

    @property
    def middle_frequency(self) -> tuple[Fraction, Fraction, Fraction]:
        """Probability (per round) of fold, 1x, 3x at the Middle Bet."""
        return self._frequency("middle")


def solve_game(
    ante: Sequence[int], bet: Sequence[int], mapper: Callable[..., Iterable[ClassResult]] = map
) -> ExactGame:
    """Solve all 169 classes (``mapper`` may be a process pool's ``imap``)."""
    started = time.monotonic()
    classes = hole_classes()
    results = list(mapper(solve_class, [(tuple(ante), tuple(bet), hole) for hole, _ in classes]))
    paired = tuple(zip(results, (weight for _, weight in classes), strict=True))
    return ExactGame(paired, time.monotonic() - started)


def every_card_pair(excluded: Iterable[Card]) -> list[tuple[Card, Card]]:
    """Unordered pairs of the cards not in ``excluded`` (for checks)."""
    gone = set(excluded)
    return list(combinations([card for card in STANDARD_DECK if card not in gone], 2))
