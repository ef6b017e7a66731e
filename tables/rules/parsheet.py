"""Par sheets: exact and simulated returns computed from the engine's own rule sets.

Nothing here holds a payout: every figure comes from the pay tables of a
:mod:`tables.rules.rulesets` value, looked up with :func:`tables.rules.engine.lookup`
exactly as settlement does, and hands come from :mod:`tables.rules.hands`.
Randomness is never invented here (STYLE "For this project" 4): every
simulation takes a ``random.Random`` made by the caller.

Units: the figures are per unit of the wager (side wagers), per unit of
*initial ante total* (house edge; Criss-Cross antes are two units, the Ante
Across and the Ante Down, § 592/674a.7(d)) and per unit of *total amount
wagered* (element of risk).

What is exact and what is simulated:

* Five Card Bonus (§ 592/674a.12(c)) and the Double Cross three-card wager
  (Section 11(c)): exact, by counting every hand (:func:`five_card_bonus_sheet`,
  :func:`three_card_sheet`).
* Criss-Cross under ``optimal``: the Middle Bet decision (§ .11(f)) is exactly
  optimal (every CENTER card is enumerated and fold, 1x and 3x compared); the
  Across and Down Bets are chosen by the exact expected return of that bet over
  every completion of its own hand (:class:`CrissCrossOptimal`). The whole-game
  figures of this strategy are simulated.
* Criss-Cross under truly optimal play (every decision by backward induction):
  exact whole-game house edge and element of risk in
  :mod:`tables.rules.parsheet_exact` (``parsheet --exact``).
* Double Cross under ``optimal``: fold or play an alignment by rollouts of the
  unseen cards (Section 10(c)); whole-game figures simulated.

>>> from tables.rules.rulesets import PA_674A_2019
>>> sheet = five_card_bonus_sheet(PA_674A_2019)
>>> sheet.total, sheet.house_edge
(2598960, Fraction(7653, 216580))
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_HALF_EVEN, Decimal
from fractions import Fraction
from itertools import combinations, combinations_with_replacement
from typing import Final

from tables.rules.cards import STANDARD_DECK, Card, Rank, Suit
from tables.rules.engine import lookup
from tables.rules.hands import (
    FiveCardCategory,
    evaluate_five,
    evaluate_three,
    five_card_strength,
)
from tables.rules.money import Odds
from tables.rules.rulesets import (
    CrissCrossRuleSet,
    DoubleCrossRuleSet,
    PairOfTensMiddleBets,
    PayLine,
)

__all__ = [
    "PayoutRow",
    "WagerSheet",
    "five_card_bonus_sheet",
    "three_card_sheet",
    "CrissCrossPays",
    "CrissCrossOptimal",
    "CrissCrossBasic",
    "DoubleCrossPays",
    "DoubleCrossOptimal",
    "DoubleCrossBasic",
    "MiddleDecision",
    "SimulationResult",
    "criss_cross_net",
    "double_cross_net",
    "simulate_criss_cross_game",
    "simulate_double_cross_game",
    "percent",
    "fraction_text",
]

Z_95: Final = Decimal("1.959963984540054")  # two-sided 95 % normal quantile


def percent(value: Fraction, places: int = 4) -> Decimal:
    """``value`` as a percentage, quantised to ``places`` decimals (half even).

    >>> percent(Fraction(1, 3))
    Decimal('33.3333')
    """
    exact = Decimal(value.numerator * 100) / Decimal(value.denominator)
    return exact.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_EVEN)


def fraction_text(value: Fraction) -> str:
    """``"num/den"`` form of a fraction (``"3/1"`` for whole numbers too).

    >>> fraction_text(Fraction(-6, 4))
    '-3/2'
    """
    return f"{value.numerator}/{value.denominator}"


def _resolve(
    table: Sequence[PayLine],
    category: int,
    pair_rank: int | None,
    pair_of_tens: PairOfTensMiddleBets | None = None,
) -> PayLine | None:
    """The line settlement uses for a hand (first matching line; § 592.12(b) conflict by option)."""
    match = lookup(tuple(table), category, pair_rank)
    if match.conflict:
        wanted_push = (pair_of_tens or PairOfTensMiddleBets.PUSH) is PairOfTensMiddleBets.PUSH
        return next(line for line in match.conflict if (line.odds is None) == wanted_push)
    return match.line


def _net(line: PayLine | None) -> Fraction:
    """Player's result per unit staked: the odds if the line pays, 0 on a push, -1 if none."""
    if line is None:
        return Fraction(-1)
    return Fraction(0) if line.odds is None else line.odds.ratio


# ---------------------------------------------------------------------------
# Wagers without a player decision: exact by counting
# ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class PayoutRow:
    """One outcome of a side wager: a pay-table line, or the losing remainder (``odds`` None)."""

    label: str
    odds: Odds | None
    combinations: int
    probability: Fraction
    net: Fraction
    """Player's result per unit staked on this outcome (odds, or -1 for the losing row)."""

    @property
    def contribution(self) -> Fraction:
        """Contribution of this outcome to the player's expected result per unit."""
        return self.probability * self.net


@dataclass(frozen=True, slots=True, kw_only=True)
class WagerSheet:
    """Exact par sheet of a wager settled on the cards alone."""

    wager: str
    section: str
    total: int
    rows: tuple[PayoutRow, ...]

    @property
    def expected_result(self) -> Fraction:
        """Player's expected result per unit staked (negative: the house wins)."""
        return sum((row.contribution for row in self.rows), Fraction(0))

    @property
    def house_edge(self) -> Fraction:
        """House edge per unit staked, exact."""
        return -self.expected_result

    @property
    def hit_frequency(self) -> Fraction:
        """Probability that the wager wins."""
        return sum((row.probability for row in self.rows if row.odds is not None), Fraction(0))


def _sheet(
    wager: str,
    section: str,
    table: Sequence[PayLine],
    counts: Counter[PayLine | None],
    loss_label: str,
) -> WagerSheet:
    total = sum(counts.values())
    rows = [
        PayoutRow(
            label=line.label,
            odds=line.odds,
            combinations=counts.get(line, 0),
            probability=Fraction(counts.get(line, 0), total),
            net=_net(line),
        )
        for line in table
    ]
    rows.append(
        PayoutRow(
            label=loss_label,
            odds=None,
            combinations=counts.get(None, 0),
            probability=Fraction(counts.get(None, 0), total),
            net=Fraction(-1),
        )
    )
    return WagerSheet(wager=wager, section=section, total=total, rows=tuple(rows))


def five_card_category_counts() -> dict[tuple[FiveCardCategory, int | None], int]:
    """Number of five-card hands of each (category, pair rank), counted by rank multiset.

    Every multiset of five ranks (no rank more than four times) is evaluated
    once, suited and unsuited, and weighted by its number of suit assignments:
    ``prod(C(4, m))`` for the rank multiplicities ``m``, of which 4 are flushes
    when the five ranks differ. Pair ranks are kept for pair lines.

    >>> counts = five_card_category_counts()
    >>> counts[FiveCardCategory.ROYAL_FLUSH, None], sum(counts.values())
    (4, 2598960)
    """
    counts: Counter[tuple[FiveCardCategory, int | None]] = Counter()
    suits = tuple(Suit)
    for ranks in combinations_with_replacement(tuple(Rank), 5):
        multiplicity = Counter(ranks)
        if max(multiplicity.values()) > 4:
            continue
        ways = math.prod(math.comb(4, m) for m in multiplicity.values())
        seen: Counter[Rank] = Counter()
        unsuited: list[Card] = []
        for rank in ranks:  # suits c, d, h, s within a rank; distinct ranks get c,c,c,c,d
            unsuited.append(Card(rank, suits[seen[rank]]))
            seen[rank] += 1
        if len(multiplicity) == 5:
            unsuited[-1] = Card(ranks[-1], suits[1])
            suited = evaluate_five([Card(rank, suits[0]) for rank in ranks])
            counts[suited.category, None] += 4
            ways -= 4
        hand = evaluate_five(unsuited)
        counts[hand.category, _pair(hand.category, hand.pair_rank)] += ways
    return dict(counts)


def _pair(category: int, pair_rank: Rank | None) -> int | None:
    return int(pair_rank) if category == FiveCardCategory.PAIR and pair_rank is not None else None


def five_card_bonus_sheet(ruleset: CrissCrossRuleSet) -> WagerSheet:
    """Exact par sheet of the Five Card Bonus Wager (§ 592/674a.7(e), .11(h)(5), .12(c)).

    The wager is on the five community cards alone, so each of the C(52, 5)
    hands is equally likely and no decision of the player changes it.
    """
    table = ruleset.five_card_bonus_table
    counts: Counter[PayLine | None] = Counter()
    for (category, pair_rank), number in five_card_category_counts().items():
        counts[_resolve(table, category, pair_rank)] += number
    return _sheet(
        "Five Card Bonus", ruleset.section("12(c)"), table, counts, "Less than a pair of 6s (loses)"
    )


def three_card_sheet(ruleset: DoubleCrossRuleSet) -> WagerSheet:
    """Exact par sheet of the Double Cross three-card wager (Sections 6(d), 10(a), 11(c)).

    The hand is the player's two cards and TOP; it is settled at Section 10(a)
    before any decision, a qualifying player exposes (a non-exposed wager
    loses), so the result depends on the three cards only: all 22,100 are
    counted.
    """
    table = ruleset.three_card_table
    counts: Counter[PayLine | None] = Counter()
    for cards in combinations(STANDARD_DECK, 3):
        hand = evaluate_three(cards)
        counts[_resolve(table, hand.category, None)] += 1
    return _sheet("Three-card wager", "Section 11(c)", table, counts, "Any other hand (loses)")


# ---------------------------------------------------------------------------
# Criss-Cross: settlement per strength, strategies, simulation
# ---------------------------------------------------------------------------

_STRENGTH_COUNT: Final = 7462


def _hand_of_strength() -> list[tuple[int, int | None]]:
    """(category, pair rank) of each five-card strength 0..7461."""
    result: list[tuple[int, int | None] | None] = [None] * _STRENGTH_COUNT
    for cards in _representatives():
        hand = evaluate_five(cards)
        result[hand.strength] = (int(hand.category), _pair(hand.category, hand.pair_rank))
    assert all(item is not None for item in result)
    return [item for item in result if item is not None]


def _representatives() -> list[list[Card]]:
    """One five-card hand for every strength (unsuited and suited per rank multiset)."""
    suits = tuple(Suit)
    hands: list[list[Card]] = []
    for ranks in combinations_with_replacement(tuple(Rank), 5):
        multiplicity = Counter(ranks)
        if max(multiplicity.values()) > 4:
            continue
        seen: Counter[Rank] = Counter()
        cards: list[Card] = []
        for rank in ranks:
            cards.append(Card(rank, suits[seen[rank]]))
            seen[rank] += 1
        if len(multiplicity) == 5:
            cards[-1] = Card(ranks[-1], suits[1])
            hands.append([Card(rank, suits[0]) for rank in ranks])
        hands.append(cards)
    return hands


_HANDS_BY_STRENGTH: list[tuple[int, int | None]] | None = None


def _strength_hands() -> list[tuple[int, int | None]]:
    global _HANDS_BY_STRENGTH
    if _HANDS_BY_STRENGTH is None:
        _HANDS_BY_STRENGTH = _hand_of_strength()
    return _HANDS_BY_STRENGTH


@dataclass(frozen=True, slots=True)
class CrissCrossPays:
    """Per-unit results of the Ante and Bet tables for every five-card strength.

    ``ante[s]`` and ``bet[s]`` are the player's result per unit staked on an
    Ante (§ .12(a)) and on an Across/Down/Middle Bet (§ .12(b)) when the hand
    has strength ``s``; all odds of these tables are whole numbers.
    """

    ruleset: CrissCrossRuleSet
    pair_of_tens: PairOfTensMiddleBets | None
    ante: tuple[int, ...]
    bet: tuple[int, ...]

    @classmethod
    def of(
        cls, ruleset: CrissCrossRuleSet, pair_of_tens: PairOfTensMiddleBets | None = None
    ) -> CrissCrossPays:
        """Build the tables for ``ruleset`` (``pair_of_tens`` as the § 592.12(b) option)."""
        choice = pair_of_tens or ruleset.pair_of_tens_middle_bets
        ante: list[int] = []
        bet: list[int] = []
        for category, pair_rank in _strength_hands():
            for table, out in ((ruleset.ante_table, ante), (ruleset.bet_table, bet)):
                value = _net(_resolve(table, category, pair_rank, choice))
                if value.denominator != 1:
                    raise ValueError(f"{ruleset.id}: odds {value} are not whole numbers")
                out.append(int(value))
        return cls(ruleset, choice, tuple(ante), tuple(bet))


def criss_cross_net(
    pays: CrissCrossPays,
    hole: Sequence[Card],
    across_line: Sequence[Card],
    down_line: Sequence[Card],
    multiples: Sequence[int],
) -> int:
    """Player's result in ante units for one position (§ .11(b)-(h)); Five Card Bonus excluded.

    ``across_line`` is ROW-1, CENTER, ROW-3 and ``down_line`` TOP, CENTER,
    BOTTOM. ``multiples`` holds the Across, Down and Middle multiples placed, in
    order; fewer than three means the player folded at the next decision and
    forfeits the antes and every bet placed.

    >>> from tables.rules.cards import parse_cards
    >>> from tables.rules.rulesets import PA_674A_2019
    >>> pays = CrissCrossPays.of(PA_674A_2019)
    >>> criss_cross_net(pays, parse_cards("AhAd"), parse_cards("2c7d9s"),
    ...                 parse_cards("3c7d8s"), (3, 3, 3))
    11
    >>> criss_cross_net(pays, parse_cards("AhAd"), parse_cards("2c7d9s"),
    ...                 parse_cards("3c7d8s"), (3,))
    -5
    """
    if len(multiples) < 3:
        return -(2 + sum(multiples))
    across = five_card_strength((*hole, *across_line))
    down = five_card_strength((*hole, *down_line))
    bet = pays.bet
    a, d, m = multiples
    return (
        pays.ante[across]
        + pays.ante[down]
        + a * bet[across]
        + d * bet[down]
        + m * bet[max(across, down)]
    )


@dataclass(frozen=True, slots=True)
class MiddleDecision:
    """Exact values of the Middle Bet choices (§ .11(f)) in ante units, over the 46 CENTER cards."""

    fold: Fraction
    continue_1x: Fraction
    continue_3x: Fraction

    @property
    def best(self) -> int:
        """0 (fold), 1 or 3: the multiple with the highest value (ties continue at 1x)."""
        options = ((self.continue_1x, 1), (self.continue_3x, 3), (self.fold, 0))
        return max(options, key=lambda item: item[0])[1]

    @property
    def value(self) -> Fraction:
        """Value of the best choice."""
        return max(self.fold, self.continue_1x, self.continue_3x)


def middle_decision(
    pays: CrissCrossPays,
    hole: Sequence[Card],
    row_1: Card,
    row_3: Card,
    top: Card,
    bottom: Card,
    across: int,
    down: int,
) -> MiddleDecision:
    """Exact value of folding or betting 1x / 3x at the Middle Bet, every CENTER enumerated.

    2x is never better than both 1x and 3x: the value is linear in the multiple.
    """
    known = {card.index for card in (*hole, row_1, row_3, top, bottom)}
    h1, h2 = hole
    base = 0
    middle = 0
    ante, bet = pays.ante, pays.bet
    count = 0
    for card in STANDARD_DECK:
        if card.index in known:
            continue
        s_across = five_card_strength((h1, h2, row_1, card, row_3))
        s_down = five_card_strength((h1, h2, top, card, bottom))
        base += ante[s_across] + ante[s_down] + across * bet[s_across] + down * bet[s_down]
        middle += bet[max(s_across, s_down)]
        count += 1
    return MiddleDecision(
        fold=Fraction(-(2 + across + down)),
        continue_1x=Fraction(base + middle, count),
        continue_3x=Fraction(base + 3 * middle, count),
    )


def _suit_map(hole: Sequence[Card]) -> dict[Suit, Suit]:
    """A suit permutation taking ``hole`` to its canonical form (first suits c, then d)."""
    order = tuple(Suit)
    mapping: dict[Suit, Suit] = {}
    for card in sorted(hole, key=lambda card: (-card.rank, card.suit)):
        if card.suit not in mapping:
            mapping[card.suit] = order[len(mapping)]
    for suit in order:
        if suit not in mapping:
            mapping[suit] = order[len(mapping)]
    return mapping


_SUIT_INDEX: Final = {suit: number for number, suit in enumerate(Suit)}


def _mapped(card: Card, mapping: Mapping[Suit, Suit]) -> Card:
    return STANDARD_DECK[(card.rank - 2) * 4 + _SUIT_INDEX[mapping[card.suit]]]


def starting_hand_class(hole: Sequence[Card]) -> str:
    """The class of two cards among the 169: ``"AA"``, ``"AKs"``, ``"72o"``.

    >>> from tables.rules.cards import parse_cards
    >>> starting_hand_class(parse_cards("7h Kh")), starting_hand_class(parse_cards("Td Tc"))
    ('K7s', 'TT')
    """
    high, low = sorted(hole, key=lambda card: -card.rank)
    text = high.rank.symbol + low.rank.symbol
    if high.rank == low.rank:
        return text
    return text + ("s" if high.suit == low.suit else "o")


@dataclass(slots=True)
class _HoleTable:
    """Exact sums of the Bet result over every three-card completion of a canonical hole."""

    completions: int
    ante_total: int
    bet_total: int
    bet_by_card: list[int]
    bet_by_pair: dict[int, int]


@dataclass
class CrissCrossOptimal:
    """Criss-Cross strategy: exact Middle Bet, Across/Down by their bet's exact expected return.

    * Across Bet (§ .11(b)): ``E`` = expected result per unit of a Bet on a hand
      made of the two cards and three random cards (exact, C(50, 3)
      completions). 3x if ``E > 0``, else 1x. Fold when continuing (with the
      Down and Middle rules below) is estimated to be worth less than the
      forfeit of both antes: by :meth:`calibrate` (rollouts per starting-hand
      class from a generator passed in), else by the lower bound
      ``2 * E[ante] + 3 * E`` (the Middle Bet valued as one hand).
    * Down Bet (§ .11(d)): 3x if the Down Hand's Bet has positive expected result
      given the cards seen (exact over its C(48, 3) completions), else 1x; never fold.
    * Middle Bet (§ .11(f)): exactly optimal (:func:`middle_decision`).
    """

    pays: CrissCrossPays
    name: str = "optimal"
    _tables: dict[tuple[Card, Card], _HoleTable] = field(default_factory=dict)
    continuation: dict[str, Fraction] = field(default_factory=dict)
    """Estimated value of continuing at the Across Bet, per starting-hand class (calibrated)."""

    def calibrate(self, rng: random.Random, samples: int) -> None:
        """Estimate, for each of the 169 classes, the value of continuing at the Across Bet.

        ``samples`` deals of the five community cards per class (one
        representative hole), played with :meth:`down` and :meth:`middle`; the
        Across multiple is the bet rule's (3x if its expected result is positive).
        """
        seen: set[str] = set()
        for first, second in combinations(STANDARD_DECK, 2):
            name = starting_hand_class((first, second))
            if name in seen:
                continue
            seen.add(name)
            hole = (first, second)
            _, bet = self.across_expectations(hole)
            a = 3 if bet > 0 else 1
            unseen = [card for card in STANDARD_DECK if card not in hole]
            total = 0
            for _ in range(samples):
                row_1, row_3, top, bottom, center = rng.sample(unseen, 5)
                placed = [a, self.down(hole, row_1, row_3, a)]
                m = self.middle(hole, row_1, row_3, top, bottom, *placed)
                if m:
                    placed.append(m)
                total += criss_cross_net(
                    self.pays, hole, (row_1, center, row_3), (top, center, bottom), placed
                )
            self.continuation[name] = Fraction(total, samples)

    def _table(self, hole: tuple[Card, Card]) -> _HoleTable:
        table = self._tables.get(hole)
        if table is not None:
            return table
        bet = self.pays.bet
        ante = self.pays.ante
        others = [card for card in STANDARD_DECK if card not in hole]
        by_card = [0] * 52
        by_pair: dict[int, int] = {}
        ante_total = bet_total = 0
        h1, h2 = hole
        for x, y, z in combinations(others, 3):
            strength = five_card_strength((h1, h2, x, y, z))
            value = bet[strength]
            ante_total += ante[strength]
            if value:
                bet_total += value
                i, j, k = x.index, y.index, z.index
                by_card[i] += value
                by_card[j] += value
                by_card[k] += value
                by_pair[i * 52 + j] = by_pair.get(i * 52 + j, 0) + value
                by_pair[i * 52 + k] = by_pair.get(i * 52 + k, 0) + value
                by_pair[j * 52 + k] = by_pair.get(j * 52 + k, 0) + value
        table = _HoleTable(math.comb(50, 3), ante_total, bet_total, by_card, by_pair)
        self._tables[hole] = table
        return table

    def _canonical(self, hole: Sequence[Card]) -> tuple[tuple[Card, Card], dict[Suit, Suit]]:
        mapping = _suit_map(hole)
        first, second = sorted(
            (_mapped(card, mapping) for card in hole), key=lambda card: card.index
        )
        return (first, second), mapping

    def across_expectations(self, hole: Sequence[Card]) -> tuple[Fraction, Fraction]:
        """Exact expected Ante and Bet results per unit for one hand of these two cards."""
        canonical, _ = self._canonical(hole)
        table = self._table(canonical)
        return (
            Fraction(table.ante_total, table.completions),
            Fraction(table.bet_total, table.completions),
        )

    def across(self, hole: Sequence[Card]) -> int:
        """Across Bet multiple (0 = fold)."""
        ante, bet = self.across_expectations(hole)
        estimate = self.continuation.get(starting_hand_class(hole))
        if (2 * ante + 3 * bet if estimate is None else estimate) < -2:
            return 0
        return 3 if bet > 0 else 1

    def down_expectation(self, hole: Sequence[Card], row_1: Card, row_3: Card) -> Fraction:
        """Exact expected Down Bet result per unit, given the cards seen at § .11(d)."""
        canonical, mapping = self._canonical(hole)
        table = self._table(canonical)
        i, j = sorted((_mapped(row_1, mapping).index, _mapped(row_3, mapping).index))
        total = (
            table.bet_total
            - table.bet_by_card[i]
            - table.bet_by_card[j]
            + table.bet_by_pair.get(i * 52 + j, 0)
        )
        return Fraction(total, math.comb(48, 3))

    def down(self, hole: Sequence[Card], row_1: Card, row_3: Card, across: int) -> int:
        """Down Bet multiple (never folds)."""
        return 3 if self.down_expectation(hole, row_1, row_3) > 0 else 1

    def middle(
        self,
        hole: Sequence[Card],
        row_1: Card,
        row_3: Card,
        top: Card,
        bottom: Card,
        across: int,
        down: int,
    ) -> int:
        """Middle Bet multiple (0 = fold), exactly optimal."""
        return middle_decision(self.pays, hole, row_1, row_3, top, bottom, across, down).best


@dataclass
class CrissCrossPlayed(CrissCrossOptimal):
    """What the demo's players play: :class:`CrissCrossOptimal` uncalibrated,
    except that they never fold at the Across Bet. Uncalibrated, its fold rule
    is a lower bound that folds about half the hands and gives the house about
    17 % of the antes instead of the par sheet's 4.3 %; playing on keeps them
    within sampling error of it (6,000 rounds: −7 %, one seat, seed 11)."""

    name: str = "played"

    def across(self, hole: Sequence[Card]) -> int:
        """3x if the Across Bet's exact expected result is positive, else 1x."""
        _, bet = self.across_expectations(hole)
        return 3 if bet > 0 else 1


@dataclass
class CrissCrossBasic:
    """Basic strategy: every bet at 1x, never fold."""

    pays: CrissCrossPays
    name: str = "basic"

    def across(self, hole: Sequence[Card]) -> int:
        """Always 1x."""
        return 1

    def down(self, hole: Sequence[Card], row_1: Card, row_3: Card, across: int) -> int:
        """Always 1x."""
        return 1

    def middle(
        self,
        hole: Sequence[Card],
        row_1: Card,
        row_3: Card,
        top: Card,
        bottom: Card,
        across: int,
        down: int,
    ) -> int:
        """Always 1x."""
        return 1


@dataclass(frozen=True, slots=True, kw_only=True)
class SimulationResult:
    """Simulated whole-game figures with 95 % confidence half-widths.

    ``net`` and ``wagered`` are totals in units of one ante (exact integers, or
    halves for Double Cross two pair: ``scale`` units per ante).
    """

    rounds: int
    initial_per_round: int
    scale: int
    net: int
    net_squares: int
    wagered: int
    wagered_squares: int
    cross: int
    folds: tuple[tuple[str, int], ...] = ()
    multiples: tuple[tuple[str, int], ...] = ()

    @property
    def house_edge(self) -> Fraction:
        """Estimated expected loss per unit of initial ante total."""
        return Fraction(-self.net, self.rounds * self.initial_per_round * self.scale)

    @property
    def house_edge_half_width(self) -> Fraction:
        """95 % confidence half-width of :attr:`house_edge` (normal approximation)."""
        n = self.rounds
        mean = Fraction(self.net, n)
        variance = (Fraction(self.net_squares, n) - mean * mean) * Fraction(n, max(n - 1, 1))
        return _ci(variance / n) / (self.initial_per_round * self.scale)

    @property
    def element_of_risk(self) -> Fraction:
        """Estimated expected loss per unit of total amount wagered (ratio estimator)."""
        return Fraction(-self.net, self.wagered)

    @property
    def element_of_risk_half_width(self) -> Fraction:
        """95 % half-width of :attr:`element_of_risk` by the delta method."""
        n = self.rounds
        ratio = Fraction(-self.net, self.wagered)
        # Var(-X - R W) = E[X^2] + 2R E[XW] + R^2 E[W^2] - (mean)^2 with mean = 0 at R.
        second = (
            Fraction(self.net_squares, n)
            + 2 * ratio * Fraction(self.cross, n)
            + ratio * ratio * Fraction(self.wagered_squares, n)
        )
        mean_wagered = Fraction(self.wagered, n)
        return _ci(second / n) / mean_wagered

    @property
    def average_wagered(self) -> Fraction:
        """Average total amount wagered per round, in antes of one unit."""
        return Fraction(self.wagered, self.rounds * self.scale)


def _ci(variance_of_mean: Fraction) -> Fraction:
    root = Decimal(variance_of_mean.numerator) / Decimal(variance_of_mean.denominator)
    return Fraction(Z_95 * root.sqrt())


CrissCrossStrategy = CrissCrossOptimal | CrissCrossBasic


def simulate_criss_cross_game(
    rng: random.Random,
    strategy: CrissCrossStrategy,
    rounds: int,
    progress: Callable[[int], None] | None = None,
) -> SimulationResult:
    """Play ``rounds`` rounds of one position with ``strategy``, dealing from ``rng``.

    Cards are drawn in the order hole, hole, ROW-1, ROW-3, TOP, BOTTOM, CENTER.
    """
    pays = strategy.pays
    net = squares = wagered = wagered_squares = cross = 0
    folds: Counter[str] = Counter()
    multiples: Counter[str] = Counter()
    for number in range(rounds):
        h1, h2, row_1, row_3, top, bottom, center = rng.sample(STANDARD_DECK, 7)
        hole = (h1, h2)
        placed: list[int] = []
        a = strategy.across(hole)
        if a:
            placed.append(a)
            d = strategy.down(hole, row_1, row_3, a)
            placed.append(d)
            m = strategy.middle(hole, row_1, row_3, top, bottom, a, d)
            if m:
                placed.append(m)
        if len(placed) < 3:
            folds[("across", "down", "middle")[len(placed)]] += 1
        for name, value in zip(("across", "down", "middle"), placed, strict=False):
            multiples[f"{name} {value}x"] += 1
        result = criss_cross_net(pays, hole, (row_1, center, row_3), (top, center, bottom), placed)
        stake = 2 + sum(placed)
        net += result
        squares += result * result
        wagered += stake
        wagered_squares += stake * stake
        cross += result * stake
        if progress is not None and number % 10_000 == 9_999:
            progress(10_000)
    return SimulationResult(
        rounds=rounds,
        initial_per_round=2,
        scale=1,
        net=net,
        net_squares=squares,
        wagered=wagered,
        wagered_squares=wagered_squares,
        cross=cross,
        folds=tuple(sorted(folds.items())),
        multiples=tuple(sorted(multiples.items())),
    )


def across_strategy_table(strategy: CrissCrossOptimal) -> list[tuple[str, int, Fraction]]:
    """The Across decision for each of the 169 starting-hand classes, strongest first.

    :return: (class, multiple or 0 for fold, exact expected Bet result per unit).
    """
    rows: list[tuple[str, int, Fraction]] = []
    seen: set[str] = set()
    for first, second in combinations(STANDARD_DECK, 2):
        name = starting_hand_class((first, second))
        if name in seen:
            continue
        seen.add(name)
        _, bet = strategy.across_expectations((first, second))
        rows.append((name, strategy.across((first, second)), bet))
    rows.sort(key=lambda row: row[2], reverse=True)
    return rows


# ---------------------------------------------------------------------------
# Double Cross
# ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DoubleCrossPays:
    """Raise-table results per five-card strength, in ``scale`` units per ante.

    ``raise_win[s]`` is what one raise wager of one ante wins when the player's
    hand of strength ``s`` beats the dealer (Section 11(b)); ``ante_win`` is the
    ante's 1 to 1 (Section 10(g)(3)).
    """

    ruleset: DoubleCrossRuleSet
    scale: int
    ante_win: int
    raise_win: tuple[int, ...]

    @classmethod
    def of(cls, ruleset: DoubleCrossRuleSet) -> DoubleCrossPays:
        """Build the tables for ``ruleset``."""
        odds = [line.odds for line in ruleset.raise_table if line.odds is not None]
        scale = math.lcm(ruleset.ante_odds.denominator, *(item.denominator for item in odds))
        wins: list[int] = []
        for category, pair_rank in _strength_hands():
            line = _resolve(ruleset.raise_table, category, pair_rank)
            if line is None or line.odds is None:
                raise ValueError(f"{ruleset.id}: no raise line for category {category}")
            wins.append(int(line.odds.ratio * scale))
        return cls(ruleset, scale, int(ruleset.ante_odds.ratio * scale), tuple(wins))


VERTICAL: Final = "vertical"
HORIZONTAL: Final = "horizontal"


def double_cross_net(
    pays: DoubleCrossPays,
    hole: Sequence[Card],
    dealer: Sequence[Card],
    horizontal: Sequence[Card],
    vertical: Sequence[Card],
    alignment: str | None,
) -> int:
    """Player's result on the ante and raises, in ``pays.scale`` units per ante (Section 10).

    ``horizontal`` is ROW-1, CENTER, ROW-3; ``vertical`` TOP, CENTER, BOTTOM;
    ``alignment`` None is a fold (Section 10(c)(1): the ante is lost). Hands
    compare by strength (``HandComparison.STANDARD``); the three-card wager is
    not included.
    """
    if alignment is None:
        return -pays.scale
    line = vertical if alignment == VERTICAL else horizontal
    player = five_card_strength((*hole, *line))
    dealer_strength = max(
        five_card_strength((*dealer, *vertical)), five_card_strength((*dealer, *horizontal))
    )
    if player > dealer_strength:
        return pays.ante_win + 2 * pays.raise_win[player]
    if player < dealer_strength:
        return -3 * pays.scale
    return 0


@dataclass
class DoubleCrossBasic:
    """Basic strategy: always play, in the alignment whose revealed card ranks higher."""

    pays: DoubleCrossPays
    name: str = "basic"

    def decide(self, hole: Sequence[Card], top: Card, row_3: Card) -> str | None:
        """Alignment to play (never folds)."""
        return VERTICAL if top.rank >= row_3.rank else HORIZONTAL


@dataclass
class DoubleCrossOptimal:
    """Fold or play an alignment by rollouts of the unseen cards (Section 10(c)).

    For each decision, ``samples`` deals of ROW-1, CENTER, BOTTOM and the
    dealer's two cards are drawn from the generator passed in, and both
    alignments are valued on the same deals; the player plays the better one
    when its estimate beats the fold (-1 ante), else folds. Estimates are
    memoised per suit-canonical decision state.
    """

    pays: DoubleCrossPays
    rng: random.Random
    samples: int = 64
    name: str = "optimal"
    _memo: dict[tuple[int, ...], str | None] = field(default_factory=dict)

    def decide(self, hole: Sequence[Card], top: Card, row_3: Card) -> str | None:
        """Alignment to play, or None to fold."""
        mapping = _suit_map(hole)
        key = (
            *sorted(_mapped(card, mapping).index for card in hole),
            _mapped(top, mapping).index,
            _mapped(row_3, mapping).index,
        )
        if key in self._memo:
            return self._memo[key]
        known = {card.index for card in (*hole, top, row_3)}
        unseen = [card for card in STANDARD_DECK if card.index not in known]
        vertical_total = horizontal_total = 0
        for _ in range(self.samples):
            row_1, center, bottom, d1, d2 = self.rng.sample(unseen, 5)
            horizontal = (row_1, center, row_3)
            vertical = (top, center, bottom)
            dealer = (d1, d2)
            vertical_total += double_cross_net(
                self.pays, hole, dealer, horizontal, vertical, VERTICAL
            )
            horizontal_total += double_cross_net(
                self.pays, hole, dealer, horizontal, vertical, HORIZONTAL
            )
        best_total, best = max((vertical_total, VERTICAL), (horizontal_total, HORIZONTAL))
        choice = best if best_total > -self.pays.scale * self.samples else None
        self._memo[key] = choice
        return choice


DoubleCrossStrategy = DoubleCrossOptimal | DoubleCrossBasic


def simulate_double_cross_game(
    rng: random.Random,
    strategy: DoubleCrossStrategy,
    rounds: int,
    progress: Callable[[int], None] | None = None,
) -> SimulationResult:
    """Play ``rounds`` rounds of one position against the dealer, dealing from ``rng``."""
    pays = strategy.pays
    scale = pays.scale
    net = squares = wagered = wagered_squares = cross = 0
    decisions: Counter[str] = Counter()
    for number in range(rounds):
        h1, h2, top, row_3, row_1, center, bottom, d1, d2 = rng.sample(STANDARD_DECK, 9)
        alignment = strategy.decide((h1, h2), top, row_3)
        decisions[alignment or "fold"] += 1
        result = double_cross_net(
            pays, (h1, h2), (d1, d2), (row_1, center, row_3), (top, center, bottom), alignment
        )
        stake = scale * (1 if alignment is None else 3)
        net += result
        squares += result * result
        wagered += stake
        wagered_squares += stake * stake
        cross += result * stake
        if progress is not None and number % 10_000 == 9_999:
            progress(10_000)
    return SimulationResult(
        rounds=rounds,
        initial_per_round=1,
        scale=scale,
        net=net,
        net_squares=squares,
        wagered=wagered,
        wagered_squares=wagered_squares,
        cross=cross,
        folds=(("fold", decisions["fold"]),),
        multiples=tuple(sorted(decisions.items())),
    )
