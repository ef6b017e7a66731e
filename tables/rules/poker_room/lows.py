"""Low hands of the poker room: ace-to-five, with the eight-or-better qualifier.

§ 553.4(c) ranks the cards for Low-hand Poker "ace, two, three, four, five,
six, seven, eight, nine, 10, jack, queen and king" from highest to lowest, and
§ 553.4(d) ranks low hands as "the inverse of the rankings for a High Poker
hand ... provided, however, that straights and flushes will not be considered":
no pair beats one pair, which beats two pairs, then three, a full house, four
of a kind. A wheel (A-2-3-4-5) is the best low, and a 2-3-4-5-6 of one suit is
a good low (§ 553.10(k)(1)-(2)).

Within one category § 553.4(e) gives the win to "the hand which contains the
highest ranking card as provided in subsection ... (c) ... which is not
contained in the other hand". Read literally, with (c)'s order (the ace and
the two the highest ranking low cards), 8-5-4-3-2 beats 7-6-5-4-3, the
reverse of lowball as played, where the hands are compared from their worst
card down. The text does not settle it, so the reading is an explicit option
of the rule set (:class:`LowTieBreak`), the usual reading the default.

The eight-or-better qualifier (§ 553.10(j), § 553.12(k)): "a winning low-hand
may not contain a pair, a three-of-a-kind or a four-of-a-kind or a nine, 10,
jack, queen or king".

Low hands are ordered values like the high hands of :mod:`tables.rules.hands`:
the better low compares greater (STYLE 6), whichever reading is in force.

>>> from tables.rules.cards import parse_cards
>>> wheel = evaluate_low(parse_cards("As 2d 3c 4h 5s"))
>>> seven = evaluate_low(parse_cards("7c 6d 5c 4h 3s"))
>>> eight = evaluate_low(parse_cards("8c 5d 4c 3h 2s"))
>>> wheel > seven > eight, str(seven), seven.qualifies_eight_or_better
(True, '7-6-5-4-3', True)
>>> literal = LowTieBreak.LITERAL_553_4_E
>>> eight_low = evaluate_low(parse_cards("8c5d4c3h2s"), literal)
>>> eight_low > evaluate_low(parse_cards("7c6d5c4h3s"), literal)
True
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import IntEnum, StrEnum
from itertools import combinations

from tables.rules.cards import Card, Rank

__all__ = [
    "LowCategory",
    "LowHand",
    "LowTieBreak",
    "best_low",
    "best_omaha_low",
    "evaluate_low",
]


class LowTieBreak(StrEnum):
    """How two low hands of one category compare (§ 553.4(e), see the module docs)."""

    WORST_CARD_FIRST = "worst_card_first"
    """Lowball as played: the hand whose highest pip is lower wins, then the next."""
    LITERAL_553_4_E = "literal_553_4_e"
    """§ 553.4(e) word for word: the unshared card highest in § 553.4(c)'s order wins."""


class LowCategory(IntEnum):
    """Categories of a low hand, worst to best: § 553.4(d)'s inverse of § 553.4(b)."""

    FOUR_OF_A_KIND = 0
    FULL_HOUSE = 1
    THREE_OF_A_KIND = 2
    TWO_PAIRS = 3
    ONE_PAIR = 4
    NO_PAIR = 5


# Group sizes, largest first, of each category (straights and flushes ignored).
_CATEGORY_BY_SHAPE = {
    (4, 1): LowCategory.FOUR_OF_A_KIND,
    (3, 2): LowCategory.FULL_HOUSE,
    (3, 1, 1): LowCategory.THREE_OF_A_KIND,
    (2, 2, 1): LowCategory.TWO_PAIRS,
    (2, 1, 1, 1): LowCategory.ONE_PAIR,
    (1, 1, 1, 1, 1): LowCategory.NO_PAIR,
}


def low_pip(rank: Rank) -> int:
    """The rank's pip value with the ace low (1), for low hands (§ 553.4(c)).

    >>> low_pip(Rank.ACE), low_pip(Rank.KING)
    (1, 13)
    """
    return 1 if rank is Rank.ACE else int(rank)


@dataclass(frozen=True, slots=True, order=True)
class LowHand:
    """Value of a five-card low hand; the better low compares greater.

    :ivar key: what the comparison uses; built by :func:`evaluate_low` for the
        reading in force, so compare only hands built under one reading.
    :ivar pips: the five ranks as low pips (ace 1), highest first.
    :ivar category: the :class:`LowCategory`.
    """

    key: tuple[int, ...]
    pips: tuple[int, ...]
    category: LowCategory

    @property
    def qualifies_eight_or_better(self) -> bool:
        """True if no pair or more and no card above an eight (§ 553.10(j), § 553.12(k))."""
        return self.category is LowCategory.NO_PAIR and self.pips[0] <= 8

    def __str__(self) -> str:
        """The pips from the highest, e.g. ``"8-5-4-3-A"``."""
        return "-".join("A" if pip == 1 else Rank(pip).symbol for pip in self.pips)


def evaluate_low(
    cards: Sequence[Card], tie_break: LowTieBreak = LowTieBreak.WORST_CARD_FIRST
) -> LowHand:
    """Low hand of exactly five distinct cards (§ 553.4(c)-(e)).

    :param cards: the five cards.
    :param tie_break: the reading of § 553.4(e) in force.
    :return: the hand.
    :raises ValueError: unless there are five distinct cards.

    >>> from tables.rules.cards import parse_cards
    >>> evaluate_low(parse_cards("As Ad 2c 3h 4s")) < evaluate_low(parse_cards("Ks Qd Jc 9h 8s"))
    True
    """
    if len(cards) != 5 or len(set(cards)) != 5:
        raise ValueError(
            f"a low hand needs five distinct cards, got {len(set(cards))} of {len(cards)}"
        )
    counts = Counter(low_pip(card.rank) for card in cards)
    category = _CATEGORY_BY_SHAPE[tuple(sorted(counts.values(), reverse=True))]
    pips = tuple(sorted((low_pip(card.rank) for card in cards), reverse=True))
    if tie_break is LowTieBreak.WORST_CARD_FIRST:
        # Larger groups first, then the higher pip: the lower sequence is the better low.
        grouped = sorted(counts, key=lambda pip: (counts[pip], pip), reverse=True)
        key = (category, *(-pip for pip in grouped))
    else:
        # § 553.4(c) ranks the ace highest (14 - 1 = 13) and the king lowest (1).
        # Comparing the sequences sorted best card first is exactly "the highest
        # ranking card not contained in the other hand" of § 553.4(e).
        key = (category, *sorted((14 - pip for pip in pips), reverse=True))
    return LowHand(key=key, pips=pips, category=category)


def best_low(
    cards: Sequence[Card],
    *,
    eight_or_better: bool,
    tie_break: LowTieBreak = LowTieBreak.WORST_CARD_FIRST,
) -> LowHand | None:
    """Best low of any five of ``cards`` (Seven-card Stud, Five-card Draw Low).

    :param cards: five or more distinct cards.
    :param eight_or_better: only hands that qualify count (§ 553.10(j)).
    :param tie_break: the reading of § 553.4(e) in force.
    :return: the best low, or None when none qualifies.

    >>> from tables.rules.cards import parse_cards
    >>> str(best_low(parse_cards("Ah 2h 9c 9d Kh 5s 7c"), eight_or_better=False))
    '9-7-5-2-A'
    >>> best_low(parse_cards("Ah 2h 9c 9d Kh 5s 7c"), eight_or_better=True) is None
    True
    """
    return _best(combinations(cards, 5), eight_or_better, tie_break)


def best_omaha_low(
    hole: Sequence[Card],
    board: Sequence[Card],
    *,
    eight_or_better: bool,
    tie_break: LowTieBreak = LowTieBreak.WORST_CARD_FIRST,
) -> LowHand | None:
    """Best low of exactly two hole cards and three board cards (§ 553.12(j), (l)(1)).

    >>> from tables.rules.cards import parse_cards
    >>> hole, board = parse_cards("Ac2dKsKh"), parse_cards("3c4d8h9sQd")
    >>> str(best_omaha_low(hole, board, eight_or_better=True))
    '8-4-3-2-A'
    """
    return _best(
        (two + three for two in combinations(hole, 2) for three in combinations(board, 3)),
        eight_or_better,
        tie_break,
    )


def _best(
    hands: Iterable[Sequence[Card]], eight_or_better: bool, tie_break: LowTieBreak
) -> LowHand | None:
    best: LowHand | None = None
    for five in hands:
        hand = evaluate_low(five, tie_break)
        # Under the literal reading a 9-low may outrank an 8-low, so the best
        # qualifying hand is sought among the qualifying ones, not checked after.
        if eight_or_better and not hand.qualifies_eight_or_better:
            continue
        if best is None or hand > best:
            best = hand
    return best
