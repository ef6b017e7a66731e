"""Playing cards of the standard 52-card deck.

A :class:`Card` is a frozen value made of a :class:`Rank` and a :class:`Suit`.
Cards are written as two characters, rank then suit (``"Ah"``, ``"Td"``);
``"10d"`` is accepted as another spelling of ``"Td"``.

The ranks and suits follow the card rank of the games we host, for example
Pennsylvania Criss-Cross Poker § 592.6(a) / § 674a.6(a) and Massachusetts
Double Cross Poker Section 5(a): "ace, king, queen, jack, 10, 9, 8, 7, 6, 5, 4,
3 and 2", "All suits shall be equal in rank". The order of :class:`Suit` members
is therefore only a convention for indexing, never a ranking.

>>> card = Card.parse("Ah")
>>> card.rank, card.suit
(<Rank.ACE: 14>, <Suit.HEARTS: 'h'>)
>>> str(card), card.index
('Ah', 50)
>>> [str(card) for card in parse_cards("AhKd Qs")]
['Ah', 'Kd', 'Qs']
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import IntEnum, StrEnum
from typing import Final

__all__ = ["JOKER", "JOKER_DECK", "STANDARD_DECK", "Card", "Rank", "Suit", "parse_cards"]


class Rank(IntEnum):
    """Rank of a card; the value is the rank's pip value with the ace high (14).

    An ace counts low only where a rule says so (the A-2-3-4-5 straight of
    § 592.6(a)); that is the evaluators' business, not the card's.

    >>> Rank.ACE > Rank.KING > Rank.TWO
    True
    >>> Rank.TEN.symbol, Rank.from_symbol("t")
    ('T', <Rank.TEN: 10>)
    """

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def symbol(self) -> str:
        """One-character symbol of the rank: ``2``-``9``, ``T``, ``J``, ``Q``, ``K`` or ``A``.

        :return: the symbol.

        >>> Rank.QUEEN.symbol
        'Q'
        """
        return _RANK_SYMBOLS[self - 2]

    @classmethod
    def from_symbol(cls, text: str) -> Rank:
        """Rank for a symbol such as ``"A"``, ``"t"`` or ``"10"`` (letters in either case).

        :param text: the symbol.
        :return: the rank.
        :raises ValueError: if ``text`` is not a rank symbol.

        >>> Rank.from_symbol("10"), Rank.from_symbol("k")
        (<Rank.TEN: 10>, <Rank.KING: 13>)
        """
        rank = _RANK_BY_SYMBOL.get(text.upper())
        if rank is None:
            raise ValueError(
                f"{text!r} is not a card rank (expected one of 2-9, T, 10, J, Q, K, A)"
            )
        return rank

    def plural(self) -> str:
        """English plural used in hand names, e.g. ``"10s"``, ``"jacks"``, ``"sixes"``.

        :return: the plural.

        >>> Rank.TEN.plural(), Rank.JACK.plural(), Rank.SIX.plural()
        ('10s', 'jacks', 'sixes')
        """
        return _RANK_PLURALS[self - 2]

    def singular(self) -> str:
        """English name used in hand names, e.g. ``"10"``, ``"jack"``, ``"ace"``.

        :return: the name.

        >>> Rank.TEN.singular(), Rank.ACE.singular()
        ('10', 'ace')
        """
        return _RANK_NAMES[self - 2]


class Suit(StrEnum):
    """Suit of a card; the value is its one-letter symbol.

    All suits are equal in rank (§ 592.6(a), Double Cross Section 5(a)); the
    member order only fixes :attr:`Card.index`.

    >>> Suit("h") is Suit.HEARTS, str(Suit.SPADES)
    (True, 's')
    """

    CLUBS = "c"
    DIAMONDS = "d"
    HEARTS = "h"
    SPADES = "s"


_RANK_SYMBOLS: Final = "23456789TJQKA"
_RANK_BY_SYMBOL: Final[dict[str, Rank]] = {
    **{symbol: Rank(value) for value, symbol in enumerate(_RANK_SYMBOLS, start=2)},
    "10": Rank.TEN,
}
_RANK_NAMES: Final = (
    "2", "3", "4", "5", "6", "7", "8", "9", "10", "jack", "queen", "king", "ace",
)  # fmt: skip
_RANK_PLURALS: Final = (
    "2s", "3s", "4s", "5s", "sixes", "7s", "8s", "9s", "10s", "jacks", "queens", "kings", "aces",
)  # fmt: skip
_SUITS: Final = tuple(Suit)
_SUIT_INDEX: Final = {suit: position for position, suit in enumerate(_SUITS)}
_SUIT_BY_SYMBOL: Final = {
    **{suit.value: suit for suit in _SUITS},
    **{suit.value.upper(): suit for suit in _SUITS},
}

# Evaluation code carried by each card so the hand evaluators (tables.rules.hands)
# need one slot read per card and a few integer additions per hand.
#
# The code is the sum of two parts:
# * a rank value from RANK_SUM_VALUES. These values were chosen (greedy search)
#   so that every multiset of five ranks, no rank more than four times, has a
#   different sum; the sum of five codes therefore identifies the ranks held.
# * 7 shifted into a 6-bit field of the card's suit. Five cards of one suit sum
#   to 35 (0b100011) in that field, and fewer sum to at most 28, so bit 5 of a
#   field is set exactly when all five cards share its suit.
# ``sum(codes) & EVALUATION_MASK`` keeps the rank sum and the four flush bits.
RANK_SUM_VALUES: Final = (0, 1, 5, 22, 94, 312, 992, 2422, 5624, 12522, 19998, 43258, 79415)
RANK_SUM_BITS: Final = 19
SUIT_FIELD_BITS: Final = 6
FLUSH_BITS: Final = tuple(1 << (RANK_SUM_BITS + SUIT_FIELD_BITS * i + 5) for i in range(4))
EVALUATION_MASK: Final = (1 << RANK_SUM_BITS) - 1 | sum(FLUSH_BITS)


@dataclass(frozen=True, slots=True)
class Card:
    """One card of the standard deck: a :class:`Rank` and a :class:`Suit`.

    Cards compare equal when rank and suit are equal; they are hashable.
    :attr:`index` numbers the deck 0-51 (rank-major: ``2c`` = 0, ``2d`` = 1,
    …, ``As`` = 51); the numbering is stable and may be stored.

    >>> Card(Rank.TEN, Suit.DIAMONDS) == Card.parse("Td") == Card.parse("10d")
    True
    >>> Card.from_index(0), str(Card.from_index(51))
    (Card(rank=<Rank.TWO: 2>, suit=<Suit.CLUBS: 'c'>), 'As')
    """

    rank: Rank
    suit: Suit
    index: int = field(init=False, repr=False, compare=False, hash=False)
    """Stable position of the card in :data:`STANDARD_DECK` (0-51)."""
    evaluation_code: int = field(init=False, repr=False, compare=False, hash=False)
    """Opaque integer used by :mod:`tables.rules.hands`; not part of the card's identity."""

    def __post_init__(self) -> None:
        """Check the field types and compute :attr:`index` and the evaluation code.

        :raises TypeError: if ``rank`` or ``suit`` is not a :class:`Rank` / :class:`Suit`.

        >>> Card(Rank.ACE, Suit.SPADES).index
        51
        """
        if not isinstance(self.rank, Rank) or not isinstance(self.suit, Suit):
            raise TypeError(f"Card needs a Rank and a Suit, got {self.rank!r}, {self.suit!r}")
        suit_index = _SUIT_INDEX[self.suit]
        object.__setattr__(self, "index", (self.rank - 2) * 4 + suit_index)
        object.__setattr__(
            self,
            "evaluation_code",
            RANK_SUM_VALUES[self.rank - 2] + (7 << (RANK_SUM_BITS + SUIT_FIELD_BITS * suit_index)),
        )

    def __str__(self) -> str:
        """Two-character form, rank then suit.

        :return: e.g. ``"Ah"``, ``"Td"``.

        >>> str(Card(Rank.TEN, Suit.DIAMONDS))
        'Td'
        """
        return _RANK_SYMBOLS[self.rank - 2] + self.suit.value

    @classmethod
    def parse(cls, text: str) -> Card:
        """Card from its text form: the rank's symbol (or ``10``), then the suit's letter.

        Letters may be in either case; surrounding whitespace is ignored.

        :param text: e.g. ``"Ah"``, ``"Td"``, ``"10d"``.
        :return: the card.
        :raises ValueError: if ``text`` is not a card; the message names the text.

        >>> Card.parse("Ah"), Card.parse("10d") == Card.parse("td")
        (Card(rank=<Rank.ACE: 14>, suit=<Suit.HEARTS: 'h'>), True)
        >>> Card.parse("1h")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        ValueError: '1h' is not a card (expected ... then suit c, d, h, s)
        """
        stripped = text.strip()
        if stripped.upper() == "JK":
            return JOKER
        rank = _RANK_BY_SYMBOL.get(stripped[:-1].upper())
        suit = _SUIT_BY_SYMBOL.get(stripped[-1:])
        if rank is None or suit is None:
            raise ValueError(
                f"{text!r} is not a card (expected rank 2-9, T, J, Q, K, A or 10, "
                "then suit c, d, h, s)"
            )
        return _CARD_BY_RANK_AND_SUIT[rank, suit]

    @classmethod
    def from_index(cls, index: int) -> Card:
        """Card at a stable :attr:`index` (0-51) of :data:`STANDARD_DECK`.

        :param index: the index.
        :return: the card.
        :raises ValueError: if ``index`` is outside 0-51.

        >>> str(Card.from_index(50))
        'Ah'
        """
        if not 0 <= index < 52:
            raise ValueError(f"card index {index!r} is outside 0-51")
        return STANDARD_DECK[index]


STANDARD_DECK: Final[tuple[Card, ...]] = tuple(Card(rank, suit) for rank in Rank for suit in _SUITS)
"""The 52 cards in :attr:`Card.index` order: ``2c 2d 2h 2s 3c … As``.

>>> len(STANDARD_DECK), str(STANDARD_DECK[0]), str(STANDARD_DECK[-1])
(52, '2c', 'As')
"""

_CARD_BY_RANK_AND_SUIT: Final = {(card.rank, card.suit): card for card in STANDARD_DECK}


@dataclass(frozen=True, slots=True)
class _Joker(Card):
    """The joker of Pai Gow Poker's deck (§ 561.3(a), § 588.3(a)): written ``"Jk"``.

    It carries the ace's rank because "the joker shall be used and ranked as an
    ace" save where it completes a straight or a flush (§ 561.6(a), (c); § 588.6(a));
    its suit means nothing: the Pai Gow evaluators test for it before reading one.
    It never equals a card of the standard deck; :attr:`index` is 52.
    """

    def __post_init__(self) -> None:
        object.__setattr__(self, "index", 52)
        object.__setattr__(self, "evaluation_code", 0)

    def __str__(self) -> str:
        return "Jk"


JOKER: Final[Card] = _Joker(Rank.ACE, Suit.SPADES)
"""The joker (one per deck, § 561.3(a)).

>>> str(JOKER), Card.parse("jk") is JOKER, JOKER == Card.parse("As")
('Jk', True, False)
"""

JOKER_DECK: Final[tuple[Card, ...]] = (*STANDARD_DECK, JOKER)
"""The 53 cards of a deck with one joker."""

_CARD_TEXT: Final = re.compile(r"\s*(jk|(?:10|[2-9tjqka])[cdhs])\s*,?", re.IGNORECASE)


def parse_cards(text: str) -> tuple[Card, ...]:
    """Cards from text, with or without separators: ``"AhKd Qs"``, ``"AhKdQs"``, ``"10h, 9c"``.

    Duplicates are kept: checking a hand is the evaluators' job.

    :param text: the cards, each as for :meth:`Card.parse`.
    :return: the cards in the order written (empty for blank text).
    :raises ValueError: if the text is not a sequence of cards; the message names the text.

    >>> [str(card) for card in parse_cards("AhKdQs")]
    ['Ah', 'Kd', 'Qs']
    >>> parse_cards("Ah Kx")
    Traceback (most recent call last):
    ...
    ValueError: 'Ah Kx' is not a sequence of cards (at position 3: 'Kx')
    """
    cards: list[Card] = []
    position = 0
    length = len(text)
    while position < length:
        match = _CARD_TEXT.match(text, position)
        if match is None:
            if not text[position:].strip():
                break
            raise ValueError(
                f"{text!r} is not a sequence of cards "
                f"(at position {position}: {text[position:].strip()!r})"
            )
        cards.append(Card.parse(match.group(1)))
        position = match.end()
    return tuple(cards)
