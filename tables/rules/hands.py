"""Five-card and three-card poker hand evaluators.

Hands are frozen, hashable, totally ordered values: the stronger hand compares
greater and hands of equal strength compare equal (STYLE "For this project" 6).

* Five-card hands follow Pennsylvania Criss-Cross Poker § 592.6 / § 674a.6 and
  Massachusetts Double Cross Poker Section 5(a), (b): ace high, or low only in
  the A-2-3-4-5 straight or straight flush; no wrap-around (Q-K-A-2-3 is not a
  straight); all suits equal. Double Cross adds "High Card" (Section 5(b)(10)).
  Hands of one category are compared by the ranks forming the category and then
  by the kickers, as in standard poker (neither text states a kicker rule; a tie
  is a hand "of equal ranking", Double Cross Section 10(g)(3)).
* Three-card hands follow Double Cross Section 5(c): straight flush,
  three-of-a-kind, straight (Q-K-A high, A-2-3 low, but "an ace may not be
  combined with a king and two"), flush, one pair; anything else is
  :attr:`ThreeCardCategory.HIGH_CARD`, which that section does not pay.

Evaluation is a dictionary lookup. Each :class:`~tables.rules.cards.Card` carries
an ``evaluation_code``; the sum of five codes, masked, identifies the multiset of
ranks and whether all five cards share a suit (see ``tables.rules.cards``). The
tables below map that key to a dense strength and are built once at import from
the category definitions.

>>> from tables.rules.cards import parse_cards
>>> hand = evaluate_five(parse_cards("Ah 2c 3d 4s 5h"))
>>> str(hand), hand.category.name, hand.ranks[0].name
('Straight, 5 high', 'STRAIGHT', 'FIVE')
>>> evaluate_five(parse_cards("Td Tc 9s 4h 2c")) > hand
False
>>> str(best_five_of(parse_cards("As Ks Qs Js Ts 9s 2d")))
'Royal flush'
>>> str(evaluate_three(parse_cards("Qh Kc Ad")))
'Three-card straight, ace high'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from enum import IntEnum
from itertools import combinations, combinations_with_replacement
from typing import Final, TypeVar

from tables.rules.cards import (
    EVALUATION_MASK,
    FLUSH_BITS,
    RANK_SUM_BITS,
    RANK_SUM_VALUES,
    SUIT_FIELD_BITS,
    Card,
    Rank,
)

__all__ = [
    "FiveCardCategory",
    "FiveCardHand",
    "ThreeCardCategory",
    "ThreeCardHand",
    "FourCardCategory",
    "FourCardHand",
    "best_five_of",
    "compare_literal",
    "best_four_of",
    "best_four_strength",
    "evaluate_four",
    "four_card_strength",
    "evaluate_five",
    "evaluate_three",
    "five_card_strength",
    "three_card_strength",
]


class FiveCardCategory(IntEnum):
    """Five-card hand categories, weakest first (§ 592.6(b), Double Cross Section 5(b)).

    The regulations list the hands from highest to lowest; this enum lists the
    same hands from lowest to highest so that a stronger category compares
    greater. HIGH_CARD is Double Cross Section 5(b)(10); the Pennsylvania texts
    simply do not name it.

    >>> FiveCardCategory.FLUSH > FiveCardCategory.STRAIGHT
    True
    >>> FiveCardCategory.FULL_HOUSE.label
    'Full house'
    """

    HIGH_CARD = 0  # Double Cross 5(b)(10)
    PAIR = 1  # § 592.6(b)(9), Double Cross 5(b)(9)
    TWO_PAIR = 2  # § 592.6(b)(8), 5(b)(8)
    THREE_OF_A_KIND = 3  # § 592.6(b)(7), 5(b)(7)
    STRAIGHT = 4  # § 592.6(b)(6), 5(b)(6)
    FLUSH = 5  # § 592.6(b)(5), 5(b)(5)
    FULL_HOUSE = 6  # § 592.6(b)(4), 5(b)(4)
    FOUR_OF_A_KIND = 7  # § 592.6(b)(3), 5(b)(3)
    STRAIGHT_FLUSH = 8  # § 592.6(b)(2), 5(b)(2)
    ROYAL_FLUSH = 9  # § 592.6(b)(1), 5(b)(1)

    @property
    def label(self) -> str:
        """Readable name of the category, e.g. ``"Two pair"``.

        :return: the name.

        >>> FiveCardCategory.ROYAL_FLUSH.label
        'Royal flush'
        """
        return _FIVE_CARD_LABELS[self]


_FIVE_CARD_LABELS: Final = (
    "High card", "Pair", "Two pair", "Three of a kind", "Straight",
    "Flush", "Full house", "Four of a kind", "Straight flush", "Royal flush",
)  # fmt: skip


class ThreeCardCategory(IntEnum):
    """Three-card hand categories, weakest first (Double Cross Section 5(c)).

    Section 5(c) lists straight flush, three-of-a-kind, straight, flush and one
    pair, in the order of its Section 11(c) odds; this enum lists them from
    lowest to highest. HIGH_CARD is every other hand, which Section 5(c) does
    not recognise for a payout.

    >>> ThreeCardCategory.STRAIGHT > ThreeCardCategory.FLUSH
    True
    >>> ThreeCardCategory.STRAIGHT_FLUSH.label
    'Three-card straight flush'
    """

    HIGH_CARD = 0  # not a permissible hand of Section 5(c)
    PAIR = 1  # Section 5(c)(5)
    FLUSH = 2  # Section 5(c)(4)
    STRAIGHT = 3  # Section 5(c)(3)
    THREE_OF_A_KIND = 4  # Section 5(c)(2)
    STRAIGHT_FLUSH = 5  # Section 5(c)(1)

    @property
    def label(self) -> str:
        """Readable name of the category, as Double Cross Section 11(c) prints it.

        :return: the name.

        >>> ThreeCardCategory.PAIR.label
        'One pair'
        """
        return _THREE_CARD_LABELS[self]


_THREE_CARD_LABELS: Final = (
    "High card", "One pair", "Three-card flush", "Three-card straight",
    "Three of a kind", "Three-card straight flush",
)  # fmt: skip

class FourCardCategory(IntEnum):
    """Four-card hand categories, weakest first (Four Card Poker § 557.6(b)).

    § 557.6(b) ranks a four-of-a-kind above a straight flush and a
    three-of-a-kind above a flush and a straight; there is no royal flush.

    >>> FourCardCategory.THREE_OF_A_KIND > FourCardCategory.FLUSH > FourCardCategory.STRAIGHT
    True
    """

    HIGH_CARD = 0  # none of § 557.6(b)'s hands
    PAIR = 1  # § 557.6(b)(7)
    TWO_PAIR = 2  # § 557.6(b)(6)
    STRAIGHT = 3  # § 557.6(b)(5)
    FLUSH = 4  # § 557.6(b)(4)
    THREE_OF_A_KIND = 5  # § 557.6(b)(3)
    STRAIGHT_FLUSH = 6  # § 557.6(b)(2)
    FOUR_OF_A_KIND = 7  # § 557.6(b)(1)

    @property
    def label(self) -> str:
        """Readable name of the category, e.g. ``"Two pair"``."""
        return _FOUR_CARD_LABELS[self]


_FOUR_CARD_LABELS: Final = (
    "High card", "Pair", "Two pair", "Straight", "Flush", "Three of a kind",
    "Straight flush", "Four of a kind",
)  # fmt: skip

_Category = TypeVar("_Category", FiveCardCategory, ThreeCardCategory, FourCardCategory)


def _grouped(ranks: Iterable[Rank]) -> tuple[tuple[Rank, ...], tuple[int, ...]]:
    """Distinct ranks ordered by how often they occur, then by rank, with their counts."""
    counted = sorted(Counter(ranks).items(), key=lambda item: (item[1], item[0]), reverse=True)
    return tuple(rank for rank, _ in counted), tuple(count for _, count in counted)


def _straight_ranks(
    distinct: tuple[Rank, ...], *, low_ace_with: frozenset[Rank]
) -> tuple[Rank, ...] | None:
    """Ranks of a straight, high card first, or None.

    ``distinct`` is sorted high to low. An ace is low only when the other ranks
    are exactly ``low_ace_with`` (2-3-4-5 for five cards, § 592.6(a); 2-3 for
    three cards, Double Cross Section 5(c)(3)), so nothing wraps around.
    """
    if all(higher - lower == 1 for higher, lower in zip(distinct, distinct[1:], strict=False)):
        return distinct
    if distinct[0] is Rank.ACE and frozenset(distinct[1:]) == low_ace_with:
        return (*distinct[1:], Rank.ACE)
    return None


_WHEEL_WITHOUT_ACE: Final = frozenset({Rank.TWO, Rank.THREE, Rank.FOUR, Rank.FIVE})
_LOW_FOUR_WITHOUT_ACE: Final = frozenset({Rank.TWO, Rank.THREE, Rank.FOUR})
_LOW_THREE_WITHOUT_ACE: Final = frozenset({Rank.TWO, Rank.THREE})


def _classify_five(
    ranks: tuple[Rank, ...], *, suited: bool
) -> tuple[FiveCardCategory, tuple[Rank, ...]]:
    """Category and significance-ordered ranks of five ranks, all suited or not."""
    distinct, counts = _grouped(ranks)
    if counts == (4, 1):
        return FiveCardCategory.FOUR_OF_A_KIND, distinct
    if counts == (3, 2):
        return FiveCardCategory.FULL_HOUSE, distinct
    if counts == (3, 1, 1):
        return FiveCardCategory.THREE_OF_A_KIND, distinct
    if counts == (2, 2, 1):
        return FiveCardCategory.TWO_PAIR, distinct
    if counts == (2, 1, 1, 1):
        return FiveCardCategory.PAIR, distinct
    straight = _straight_ranks(distinct, low_ace_with=_WHEEL_WITHOUT_ACE)
    if straight is not None and suited:
        if straight[0] is Rank.ACE:
            return FiveCardCategory.ROYAL_FLUSH, straight
        return FiveCardCategory.STRAIGHT_FLUSH, straight
    if suited:
        return FiveCardCategory.FLUSH, distinct
    if straight is not None:
        return FiveCardCategory.STRAIGHT, straight
    return FiveCardCategory.HIGH_CARD, distinct


def _classify_three(
    ranks: tuple[Rank, ...], *, suited: bool
) -> tuple[ThreeCardCategory, tuple[Rank, ...]]:
    """Category and significance-ordered ranks of three ranks, all suited or not."""
    distinct, counts = _grouped(ranks)
    if counts == (3,):
        return ThreeCardCategory.THREE_OF_A_KIND, distinct
    if counts == (2, 1):
        return ThreeCardCategory.PAIR, distinct
    straight = _straight_ranks(distinct, low_ace_with=_LOW_THREE_WITHOUT_ACE)
    if straight is not None:
        return (
            ThreeCardCategory.STRAIGHT_FLUSH if suited else ThreeCardCategory.STRAIGHT
        ), straight
    if suited:
        return ThreeCardCategory.FLUSH, distinct
    return ThreeCardCategory.HIGH_CARD, distinct


def _classify_four(
    ranks: tuple[Rank, ...], *, suited: bool
) -> tuple[FourCardCategory, tuple[Rank, ...]]:
    """Category and significance-ordered ranks of four ranks, all suited or not (§ 557.6)."""
    distinct, counts = _grouped(ranks)
    if counts == (4,):
        return FourCardCategory.FOUR_OF_A_KIND, distinct
    if counts == (3, 1):
        return FourCardCategory.THREE_OF_A_KIND, distinct
    if counts == (2, 2):
        return FourCardCategory.TWO_PAIR, distinct
    if counts == (2, 1, 1):
        return FourCardCategory.PAIR, distinct
    # § 557.6(a), (b)(5): 4-3-2-A is the lowest straight; K-A-2-3 is none.
    straight = _straight_ranks(distinct, low_ace_with=_LOW_FOUR_WITHOUT_ACE)
    if straight is not None:
        kind = FourCardCategory.STRAIGHT_FLUSH if suited else FourCardCategory.STRAIGHT
        return kind, straight
    if suited:
        return FourCardCategory.FLUSH, distinct
    return FourCardCategory.HIGH_CARD, distinct


class _OrderedByStrength:
    """Comparison, equality and hashing of hands by their ``strength``.

    Comparing with anything that is not a hand of the same class returns
    ``NotImplemented``, so a five-card hand never compares with a three-card one.
    """

    __slots__ = ()
    strength: int

    def __eq__(self, other: object) -> bool:
        if isinstance(other, _OrderedByStrength) and type(other) is type(self):
            return self.strength == other.strength
        return NotImplemented

    def __hash__(self) -> int:
        return hash((type(self).__name__, self.strength))

    def __lt__(self, other: object) -> bool:
        if isinstance(other, _OrderedByStrength) and type(other) is type(self):
            return self.strength < other.strength
        return NotImplemented

    def __le__(self, other: object) -> bool:
        if isinstance(other, _OrderedByStrength) and type(other) is type(self):
            return self.strength <= other.strength
        return NotImplemented

    def __gt__(self, other: object) -> bool:
        if isinstance(other, _OrderedByStrength) and type(other) is type(self):
            return self.strength > other.strength
        return NotImplemented

    def __ge__(self, other: object) -> bool:
        if isinstance(other, _OrderedByStrength) and type(other) is type(self):
            return self.strength >= other.strength
        return NotImplemented


@dataclass(frozen=True, slots=True, eq=False)
class FiveCardHand(_OrderedByStrength):
    """Value of a five-card poker hand (§ 592.6, Double Cross Section 5(b)).

    Hands are totally ordered by :attr:`strength`: the stronger hand compares
    greater, and hands of equal strength (same category and same ranks, suits
    being equal per § 592.6(a)) compare equal and hash alike. Get hands from
    :func:`evaluate_five` or :func:`best_five_of`; there is exactly one
    instance per strength.

    :ivar category: the :class:`FiveCardCategory`.
    :ivar ranks: one entry per distinct rank, most significant first: larger
        groups first, then higher ranks (a pair of 10s with A-7-2 is
        ``(10, 14, 7, 2)``). A wheel (A-2-3-4-5) is ``(5, 4, 3, 2, 14)``, its
        high card being the five.
    :ivar strength: 0 (7-5-4-3-2 high) to 7461 (royal flush); higher is stronger.

    >>> from tables.rules.cards import parse_cards
    >>> pair = evaluate_five(parse_cards("Th Tc As 7d 2c"))
    >>> str(pair), pair.pair_rank, [int(rank) for rank in pair.ranks]
    ('Pair of 10s', <Rank.TEN: 10>, [10, 14, 7, 2])
    >>> pair == evaluate_five(parse_cards("Td Ts Ah 7c 2s"))
    True
    """

    category: FiveCardCategory
    ranks: tuple[Rank, ...]
    strength: int

    @property
    def pair_rank(self) -> Rank | None:
        """Rank of the pair of a PAIR hand, else None.

        For wagers such as "a pair of 6s or better" (§ 674a.11, § 674a.12(c)):
        ``hand.category > PAIR or (hand.pair_rank or 0) >= Rank.SIX``.

        :return: the pair's rank, or None for any other category.

        >>> from tables.rules.cards import parse_cards
        >>> evaluate_five(parse_cards("6h 6c As 7d 2c")).pair_rank
        <Rank.SIX: 6>
        >>> evaluate_five(parse_cards("6h 6c 7s 7d 2c")).pair_rank is None
        True
        """
        return self.ranks[0] if self.category is FiveCardCategory.PAIR else None

    def __str__(self) -> str:
        """Readable description, e.g. ``"Pair of 10s"``, ``"Straight, 5 high"``, ``"Royal flush"``.

        >>> from tables.rules.cards import parse_cards
        >>> str(evaluate_five(parse_cards("7h 7c 7s Kd Kc")))
        'Full house, 7s full of kings'
        """
        return _describe(self.category, self.ranks)


@dataclass(frozen=True, slots=True, eq=False)
class ThreeCardHand(_OrderedByStrength):
    """Value of a three-card poker hand (Double Cross Section 5(c)).

    Same ordering contract as :class:`FiveCardHand`: stronger compares greater,
    equal strength compares equal; one instance per strength.

    :ivar category: the :class:`ThreeCardCategory`.
    :ivar ranks: one entry per distinct rank, most significant first; the low
        straight A-2-3 is ``(3, 2, 14)``.
    :ivar strength: 0 (5-3-2 high) upwards; higher is stronger.

    >>> from tables.rules.cards import parse_cards
    >>> low = evaluate_three(parse_cards("Ah 2c 3d"))
    >>> str(low), low < evaluate_three(parse_cards("2h 3c 4d"))
    ('Three-card straight, 3 high', True)
    """

    category: ThreeCardCategory
    ranks: tuple[Rank, ...]
    strength: int

    @property
    def pair_rank(self) -> Rank | None:
        """Rank of the pair of a PAIR hand, else None.

        :return: the pair's rank, or None for any other category.

        >>> from tables.rules.cards import parse_cards
        >>> evaluate_three(parse_cards("Qh Qc 2d")).pair_rank
        <Rank.QUEEN: 12>
        """
        return self.ranks[0] if self.category is ThreeCardCategory.PAIR else None

    def __str__(self) -> str:
        """Readable description, e.g. ``"Three-card flush, king high"``.

        >>> from tables.rules.cards import parse_cards
        >>> str(evaluate_three(parse_cards("Kh 9h 2h")))
        'Three-card flush, king high'
        """
        return _describe(self.category, self.ranks)


@dataclass(frozen=True, slots=True, eq=False)
class FourCardHand(_OrderedByStrength):
    """Value of a four-card poker hand (Four Card Poker § 557.6).

    Same ordering contract as :class:`FiveCardHand`; hands of one category are
    compared by the ranks forming it, then the kickers.

    >>> from tables.rules.cards import parse_cards
    >>> str(evaluate_four(parse_cards("Ah 2c 3d 4s")))
    'Straight, 4 high'
    """

    category: FourCardCategory
    ranks: tuple[Rank, ...]
    strength: int

    @property
    def pair_rank(self) -> Rank | None:
        """Rank of the pair of a PAIR hand, else None (Aces Up pays a pair of aces)."""
        return self.ranks[0] if self.category is FourCardCategory.PAIR else None

    def __str__(self) -> str:
        return _describe(self.category, self.ranks)


def _describe(
    category: FiveCardCategory | ThreeCardCategory | FourCardCategory, ranks: tuple[Rank, ...]
) -> str:
    """Readable description of a hand from its category and ranks."""
    name = category.name
    label = category.label
    if name == "ROYAL_FLUSH":
        return label
    if name == "HIGH_CARD":
        return f"{ranks[0].singular().capitalize()} high"
    if name == "PAIR":
        return f"Pair of {ranks[0].plural()}"
    if name == "TWO_PAIR":
        return f"{label}, {ranks[0].plural()} and {ranks[1].plural()}"
    if name == "THREE_OF_A_KIND" or name == "FOUR_OF_A_KIND":
        return f"{label}, {ranks[0].plural()}"
    if name == "FULL_HOUSE":
        return f"{label}, {ranks[0].plural()} full of {ranks[1].plural()}"
    return f"{label}, {ranks[0].singular()} high"


_Hand = TypeVar("_Hand", FiveCardHand, ThreeCardHand, FourCardHand)


def _build_table(
    *,
    size: int,
    classify: Callable[..., tuple[_Category, tuple[Rank, ...]]],
    make_hand: Callable[[_Category, tuple[Rank, ...], int], _Hand],
    flush_bit: int,
) -> tuple[dict[int, int], tuple[_Hand, ...]]:
    """Lookup table from masked code sums to strengths, and the hand of each strength.

    Every multiset of ``size`` ranks (no rank more than four times) is
    classified unsuited, and every set of distinct ranks also suited. The
    distinct (category, ranks) values are sorted weakest first, which gives the
    dense strengths.
    """
    values: dict[tuple[_Category, tuple[Rank, ...]], list[int]] = {}
    for ranks in combinations_with_replacement(sorted(Rank, reverse=True), size):
        if max(Counter(ranks).values()) > 4:
            continue
        rank_sum = sum(RANK_SUM_VALUES[rank - 2] for rank in ranks)
        values.setdefault(classify(ranks, suited=False), []).append(rank_sum)
        if len(set(ranks)) == size:
            suited = classify(ranks, suited=True)
            for suit_index in range(4):
                values.setdefault(suited, []).append(
                    rank_sum + (flush_bit << SUIT_FIELD_BITS * suit_index)
                )
    strength_by_key: dict[int, int] = {}
    hands: list[_Hand] = []
    for strength, (category_and_ranks, keys) in enumerate(sorted(values.items())):
        hands.append(make_hand(*category_and_ranks, strength))
        for key in keys:
            if key in strength_by_key:
                raise AssertionError(f"evaluation key collision for {category_and_ranks}")
            strength_by_key[key] = strength
    return strength_by_key, tuple(hands)


# Five cards of one suit set bit 5 of the suit's field (see tables.rules.cards).
_FIVE_CARD_STRENGTH: dict[int, int]
_FIVE_CARD_HANDS: tuple[FiveCardHand, ...]
_FIVE_CARD_STRENGTH, _FIVE_CARD_HANDS = _build_table(
    size=5, classify=_classify_five, make_hand=FiveCardHand, flush_bit=FLUSH_BITS[0]
)
# Three cards of one suit sum to 21 (0b10101) in the suit's field, two or fewer
# to at most 14, so bit 4 of a field marks a three-card flush.
_THREE_CARD_FLUSH_BIT: Final = 1 << (RANK_SUM_BITS + 4)
_THREE_CARD_MASK: Final = (1 << RANK_SUM_BITS) - 1 | sum(
    _THREE_CARD_FLUSH_BIT << SUIT_FIELD_BITS * suit_index for suit_index in range(4)
)
_THREE_CARD_STRENGTH: dict[int, int]
_THREE_CARD_HANDS: tuple[ThreeCardHand, ...]
_THREE_CARD_STRENGTH, _THREE_CARD_HANDS = _build_table(
    size=3, classify=_classify_three, make_hand=ThreeCardHand, flush_bit=_THREE_CARD_FLUSH_BIT
)
# Four cards: each card adds 1 to its suit's 6-bit field (not 7), so bit 2 of a
# field is set exactly when all four cards share the suit; the rank sums of four
# ranks are distinct (a fifth rank value, the two's, is 0).
_FOUR_CARD_FLUSH_BIT: Final = 1 << (RANK_SUM_BITS + 2)
_FOUR_CARD_MASK: Final = (1 << RANK_SUM_BITS) - 1 | sum(
    _FOUR_CARD_FLUSH_BIT << SUIT_FIELD_BITS * suit_index for suit_index in range(4)
)
_FOUR_CARD_STRENGTH: dict[int, int]
_FOUR_CARD_HANDS: tuple[FourCardHand, ...]
_FOUR_CARD_STRENGTH, _FOUR_CARD_HANDS = _build_table(
    size=4, classify=_classify_four, make_hand=FourCardHand, flush_bit=_FOUR_CARD_FLUSH_BIT
)
# The four-card code of each card by its index: its rank value and 1 in its suit's field.
_FOUR_CARD_CODES: Final = tuple(
    RANK_SUM_VALUES[index // 4] + (1 << (RANK_SUM_BITS + SUIT_FIELD_BITS * (index % 4)))
    for index in range(52)
)
# The same keys straight to the hand values, for evaluate_five / evaluate_three.
_FIVE_CARD_HAND_BY_KEY: Final = {key: _FIVE_CARD_HANDS[s] for key, s in _FIVE_CARD_STRENGTH.items()}
_THREE_CARD_HAND_BY_KEY: Final = {
    key: _THREE_CARD_HANDS[s] for key, s in _THREE_CARD_STRENGTH.items()
}


def five_card_strength(cards: Sequence[Card]) -> int:
    """Strength of exactly five cards, the fast path of :func:`evaluate_five`.

    Same ordering as :attr:`FiveCardHand.strength` (0 to 7461, higher is
    stronger). The count is checked, but duplicate cards are not always
    detected here: validate untrusted input with :func:`evaluate_five`.

    :param cards: five distinct cards.
    :return: the strength.
    :raises ValueError: if there are not exactly five cards, or the cards cannot
        form a hand (e.g. the same card twice in a flush).

    >>> from tables.rules.cards import parse_cards
    >>> five_card_strength(parse_cards("AsKsQsJsTs")), five_card_strength(parse_cards("7c5d4h3s2c"))
    (7461, 0)
    """
    try:
        first, second, third, fourth, fifth = cards
        return _FIVE_CARD_STRENGTH[
            (
                first.evaluation_code
                + second.evaluation_code
                + third.evaluation_code
                + fourth.evaluation_code
                + fifth.evaluation_code
            )
            & EVALUATION_MASK
        ]
    except (ValueError, KeyError):
        _check_distinct(cards, 5, "five-card hand")
        raise ValueError(f"{_show(cards)} is not a five-card hand") from None


def evaluate_five(cards: Sequence[Card]) -> FiveCardHand:
    """Five-card hand of exactly five distinct cards (§ 592.6, Double Cross Section 5(b)).

    :param cards: the five cards, in any order.
    :return: the hand.
    :raises ValueError: if there are not exactly five cards or a card repeats.

    >>> from tables.rules.cards import parse_cards
    >>> str(evaluate_five(parse_cards("Qs Kd Ah 2c 3c")))
    'Ace high'
    >>> evaluate_five(parse_cards("Ah Ah Kd Qs Jc"))
    Traceback (most recent call last):
    ...
    ValueError: Ah Ah Kd Qs Jc repeats a card; a five-card hand needs 5 distinct cards
    """
    try:
        first, second, third, fourth, fifth = cards
        hand = _FIVE_CARD_HAND_BY_KEY[
            (
                first.evaluation_code
                + second.evaluation_code
                + third.evaluation_code
                + fourth.evaluation_code
                + fifth.evaluation_code
            )
            & EVALUATION_MASK
        ]
        # Ten comparisons are cheaper than building a set or tuples (measured).
        a, b, c, d, e = first.index, second.index, third.index, fourth.index, fifth.index
        if a == b or a == c or a == d or a == e or b == c or b == d:  # noqa: SIM109
            raise KeyError(a)
        if b == e or c == d or c == e or d == e:  # noqa: SIM109
            raise KeyError(e)
    except (ValueError, KeyError, AttributeError):
        _check_distinct(cards, 5, "five-card hand")
        raise ValueError(f"{_show(cards)} is not a five-card hand") from None
    return hand


def best_five_of(cards: Sequence[Card]) -> FiveCardHand:
    """Best five-card hand that can be made from five or more distinct cards (e.g. 6 or 7).

    :param cards: the cards.
    :return: the strongest hand among all five-card combinations.
    :raises ValueError: if there are fewer than five cards or a card repeats.

    >>> from tables.rules.cards import parse_cards
    >>> str(best_five_of(parse_cards("2h 3d 4c 5s 9h Ah Kh")))
    'Straight, 5 high'
    """
    if len(cards) < 5:
        raise ValueError(
            f"{_show(cards)} has {len(cards)} cards; a best five-card hand needs at least 5"
        )
    _check_distinct(cards, len(cards), "best five-card hand")
    table = _FIVE_CARD_STRENGTH
    mask = EVALUATION_MASK
    codes = [card.evaluation_code for card in cards]
    best = max(
        table[(first + second + third + fourth + fifth) & mask]
        for first, second, third, fourth, fifth in combinations(codes, 5)
    )
    return _FIVE_CARD_HANDS[best]


_GROUP_SIZES: Final = {
    FiveCardCategory.FOUR_OF_A_KIND: (4, 1), FiveCardCategory.FULL_HOUSE: (3, 2),
    FiveCardCategory.THREE_OF_A_KIND: (3, 1, 1), FiveCardCategory.TWO_PAIR: (2, 2, 1),
    FiveCardCategory.PAIR: (2, 1, 1, 1),
}  # fmt: skip


def compare_literal(left: FiveCardHand, right: FiveCardHand) -> int:
    """1, 0 or -1: hands compared as the Pennsylvania tie rule reads literally.

    Categories first (§ 563.6(b), § 583.6(b)); within one, "the hand which contains
    the highest ranking card ... which is not contained in the other hand" (§ 563.6(c),
    § 583.6(c)), so three 3s and two aces beat three kings and two 2s. A straight's
    ace below a 2 stays low (the text names A-2-3-4-5 the lowest straight).

    >>> from tables.rules.cards import parse_cards
    >>> compare_literal(evaluate_five(parse_cards("3h 3c 3d Ah As")),
    ...                 evaluate_five(parse_cards("Kh Kc Kd 2h 2s")))
    1
    """
    if left.category != right.category:
        return 1 if left.category > right.category else -1
    mine, theirs = _multiset(left), _multiset(right)
    for rank in list(mine):
        if rank in theirs:
            mine.remove(rank)
            theirs.remove(rank)
    if not mine:
        return 0
    return 1 if max(mine) > max(theirs) else -1


def _multiset(hand: FiveCardHand) -> list[int]:
    """The five ranks of ``hand`` (a wheel's ace as 1)."""
    sizes = _GROUP_SIZES.get(hand.category, (1,) * 5)
    ranks = [int(rank) for rank, size in zip(hand.ranks, sizes, strict=True) for _ in range(size)]
    if hand.category in (FiveCardCategory.STRAIGHT, FiveCardCategory.STRAIGHT_FLUSH):
        ranks = [1 if rank == 14 and hand.ranks[0] == 5 else rank for rank in ranks]
    return ranks


def three_card_strength(cards: Sequence[Card]) -> int:
    """Strength of exactly three cards, the fast path of :func:`evaluate_three`.

    Same ordering as :attr:`ThreeCardHand.strength`; duplicate cards are not
    always detected here.

    :param cards: three distinct cards.
    :return: the strength.
    :raises ValueError: if there are not exactly three cards or they cannot form a hand.

    >>> from tables.rules.cards import parse_cards
    >>> three_card_strength(parse_cards("Ah2h3h")) < three_card_strength(parse_cards("2h3h4h"))
    True
    """
    try:
        first, second, third = cards
        return _THREE_CARD_STRENGTH[
            (first.evaluation_code + second.evaluation_code + third.evaluation_code)
            & _THREE_CARD_MASK
        ]
    except (ValueError, KeyError):
        _check_distinct(cards, 3, "three-card hand")
        raise ValueError(f"{_show(cards)} is not a three-card hand") from None


def evaluate_three(cards: Sequence[Card]) -> ThreeCardHand:
    """Three-card hand of exactly three distinct cards (Double Cross Section 5(c)).

    :param cards: the three cards, in any order.
    :return: the hand.
    :raises ValueError: if there are not exactly three cards or a card repeats.

    >>> from tables.rules.cards import parse_cards
    >>> str(evaluate_three(parse_cards("Kh Ac 2d")))
    'Ace high'
    """
    try:
        first, second, third = cards
        hand = _THREE_CARD_HAND_BY_KEY[
            (first.evaluation_code + second.evaluation_code + third.evaluation_code)
            & _THREE_CARD_MASK
        ]
        if first.index == second.index or first.index == third.index:
            raise KeyError(first)
        if second.index == third.index:
            raise KeyError(second)
    except (ValueError, KeyError, AttributeError):
        _check_distinct(cards, 3, "three-card hand")
        raise ValueError(f"{_show(cards)} is not a three-card hand") from None
    return hand


def _check_distinct(cards: Sequence[Card], count: int, what: str) -> None:
    """Raise ValueError unless ``cards`` are ``count`` distinct cards."""
    if len(cards) != count:
        raise ValueError(f"{_show(cards)} has {len(cards)} cards; a {what} needs {count}")
    for card in cards:
        if not isinstance(card, Card):
            raise ValueError(f"{card!r} in {_show(cards)} is not a Card")
    if len({card.index for card in cards}) != count:
        raise ValueError(f"{_show(cards)} repeats a card; a {what} needs {count} distinct cards")


def _show(cards: Sequence[Card]) -> str:
    """Cards as text for error messages."""
    try:
        return " ".join(str(card) for card in cards)
    except TypeError:
        return repr(cards)


def four_card_strength(cards: Sequence[Card]) -> int:
    """Strength of exactly four distinct cards (§ 557.6); higher is stronger.

    >>> from tables.rules.cards import parse_cards
    >>> quads, straight_flush = parse_cards("As Ad Ah Ac"), parse_cards("Ks Qs Js Ts")
    >>> four_card_strength(quads) > four_card_strength(straight_flush)
    True
    """
    _check_distinct(cards, 4, "four-card hand")
    codes = _FOUR_CARD_CODES
    key = sum(codes[card.index] for card in cards) & _FOUR_CARD_MASK
    return _FOUR_CARD_STRENGTH[key]


def evaluate_four(cards: Sequence[Card]) -> FourCardHand:
    """Four-card hand of exactly four distinct cards (Four Card Poker § 557.6)."""
    return _FOUR_CARD_HANDS[four_card_strength(cards)]


def best_four_strength(cards: Sequence[Card]) -> int:
    """Strength of the best four-card hand among four or more distinct cards.

    § 557.1 "Hand": the best Four Card Poker hand formed from the cards dealt
    (a player's five, the dealer's six). Not validated: the fast path of
    :func:`best_four_of`.
    """
    table, mask = _FOUR_CARD_STRENGTH, _FOUR_CARD_MASK
    codes = [_FOUR_CARD_CODES[card.index] for card in cards]
    return max(table[(a + b + c + d) & mask] for a, b, c, d in combinations(codes, 4))


def best_four_of(cards: Sequence[Card]) -> FourCardHand:
    """The best four-card hand among four or more distinct cards (§ 557.1, § 557.11(e)).

    >>> from tables.rules.cards import parse_cards
    >>> str(best_four_of(parse_cards("9h 9c 9d Kh 2s 3s")))
    'Three of a kind, 9s'
    """
    if len(cards) < 4:
        raise ValueError(f"{_show(cards)} has {len(cards)} cards; a best four-card hand needs 4")
    _check_distinct(cards, len(cards), "best four-card hand")
    return _FOUR_CARD_HANDS[best_four_strength(cards)]
