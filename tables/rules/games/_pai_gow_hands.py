"""Pai Gow hands (§ 561.6, § 588.6): the joker as a bug, set hands, copies, the house way.

A seven-card (§ 561) or six-card (§ 588) hand is set into a five-card high hand
and a two-card or one-card low hand; the high hand must rank "equal to or
higher than" the low hand (§ 561.13(a), § 588.11(b)). The joker is an ace
except where it completes a straight, a flush, a straight flush or a royal
flush (§ 561.6(a), (c); § 588.6(a)). A-2-3-4-5 is the second-highest straight
and the highest straight flush below the royal (§ 561.6(b)(3), (7)). Hands of
one category compare conventionally (the sets, then the kickers): § 561.6(d)
read literally would let 3-3-3-A-A beat K-K-K-2-2 (see the game modules).
Readings of this module, each stated where it is used:

* a joker completing a flush plays as the highest rank the flush lacks;
* "identical rank" (a copy) is equal keys: it goes to the dealer (§ 561.13(g)(2), § 588.6(c)).

>>> from tables.rules.cards import parse_cards
>>> str(evaluate(parse_cards("Jk Kh Qh Jh Th"))), str(evaluate(parse_cards("Jk Ah")))
('ROYAL_FLUSH', 'PAIR')
>>> evaluate(parse_cards("Ah 2c 3d 4s 5h")) > evaluate(parse_cards("Kh Qc Jd Ts 9h"))
True
"""

from __future__ import annotations

import datetime
import enum
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations
from typing import Any

from tables.rules.cards import JOKER, Card, Rank
from tables.rules.engine import Refusal
from tables.rules.money import Commission, Odds

__all__ = ["Category", "PaiGowHand", "evaluate", "Setting", "settings", "fouled", "versus",
           "HouseWay", "house_way_561", "house_way_588", "best_of_six", "VIGORISH", "commission",
           "FORTUNE_TABLE", "INSURANCE_TABLE", "INSURANCE_NAMES", "insurance_key",
           "two_areas_refusal"]  # fmt: skip

ACE = int(Rank.ACE)
# Straights by the ranks they hold, weakest first; the value orders them (§ 561.6(b)(7)):
# 6-high .. K-high, then A-2-3-4-5 (second highest), then A-K-Q-J-10.
_WINDOWS = tuple((frozenset(range(high - 4, high + 1)), 2 * high) for high in range(6, 14)) + (
    (frozenset({ACE, 2, 3, 4, 5}), 27), (frozenset(range(10, 15)), 28))  # fmt: skip
_BROADWAY = 28


class Category(enum.IntEnum):
    """The hands of § 561.6(b) / § 588.6(b), weakest first (HIGH_CARD: none of them)."""

    HIGH_CARD = 0
    PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8
    ROYAL_FLUSH = 9
    FIVE_ACES = 10


@dataclass(frozen=True, slots=True, order=True)
class PaiGowHand:
    """A hand of 1, 2 or 5 cards: ordered by category, then ``ranks`` (sets first, then kickers)."""

    category: Category
    ranks: tuple[int, ...]

    def __str__(self) -> str:
        return self.category.name


def _sets(ranks: Sequence[int]) -> tuple[Category, tuple[int, ...]]:
    counts = Counter(ranks)
    order = sorted(counts, key=lambda rank: (counts[rank], rank), reverse=True)
    shape = sorted(counts.values(), reverse=True)
    key = tuple(order)
    if shape[0] >= 4:
        return Category.FOUR_OF_A_KIND, key
    if shape[:2] == [3, 2]:
        return Category.FULL_HOUSE, key
    if shape[0] == 3:
        return Category.THREE_OF_A_KIND, key
    if shape[:2] == [2, 2]:
        return Category.TWO_PAIR, key
    return (Category.PAIR if shape[0] == 2 else Category.HIGH_CARD), key


def evaluate(cards: Sequence[Card]) -> PaiGowHand:
    """The rank of a high hand (5 cards) or a low hand (2 or 1 card) under § 561.6 / § 588.6."""
    joker = JOKER in cards
    natural = [card for card in cards if card is not JOKER]
    as_aces = [int(card.rank) for card in natural] + ([ACE] if joker else [])
    category, key = _sets(as_aces)
    if len(cards) < 5:
        return PaiGowHand(category, key)
    if joker and as_aces.count(ACE) == 5:
        return PaiGowHand(Category.FIVE_ACES, (ACE,))
    ranks = {int(card.rank) for card in natural}
    straight = 0
    if len(ranks) == len(natural):  # no pair among the natural cards
        straight = max((value for window, value in _WINDOWS if ranks <= window), default=0)
    flush = len({card.suit for card in natural}) == 1
    if straight and flush:
        if straight == _BROADWAY:
            return PaiGowHand(Category.ROYAL_FLUSH, ())
        return PaiGowHand(Category.STRAIGHT_FLUSH, (straight,))
    if category >= Category.FULL_HOUSE:
        return PaiGowHand(category, key)
    if flush:
        held = sorted(ranks, reverse=True)
        if joker:  # reading: the joker is the highest rank the flush lacks
            held = sorted([*held, max(set(range(2, 15)) - ranks)], reverse=True)
        return PaiGowHand(Category.FLUSH, tuple(held))
    if straight:
        return PaiGowHand(Category.STRAIGHT, (straight,))
    return PaiGowHand(category, key)


@dataclass(frozen=True, slots=True)
class Setting:
    """A hand set into its high (five cards) and low (two cards, or one in § 588) hands."""

    high: tuple[Card, ...]
    low: tuple[Card, ...]


def settings(cards: Sequence[Card], low_size: int) -> list[Setting]:
    """Every way to set ``cards`` with ``low_size`` cards in the low hand."""
    return [Setting(tuple(card for card in cards if card not in low), low)
            for low in combinations(cards, low_size)]  # fmt: skip


def fouled(setting: Setting) -> bool:
    """Whether the high hand ranks below the low hand (§ 561.13(g)(3), § 588.11(f)(1)(v))."""
    return evaluate(setting.high) < evaluate(setting.low)


def versus(player: Sequence[Card], dealer: Sequence[Card], joker_low_wins: bool = False) -> int:
    """1 if the player's hand ranks higher than the dealer's, 0 for a copy, -1 if lower.

    ``joker_low_wins``: § 588.6(c), a player's joker played as the low hand is higher.
    """
    if joker_low_wins and tuple(player) == (JOKER,):
        return 1
    mine, theirs = evaluate(player), evaluate(dealer)
    return (mine > theirs) - (mine < theirs)


@dataclass(frozen=True, slots=True, kw_only=True)
class HouseWay:
    """How a casino requires the dealer's hands set (§ 561.13(d)): its Rules Submission, as data.

    The dealer keeps the high hand at least a category the hand's sets give and,
    within it, plays the highest low hand (then the highest high hand).
    """

    id: str
    casino: str
    effective_from: datetime.date
    effective_to: datetime.date | None = None
    source: str = ""
    #: Four of a kind of this rank or higher is split into two pairs.
    split_quads_from: int = int(Rank.SEVEN)
    #: Three aces are split: a pair of aces high, an ace in the low hand.
    split_trip_aces: bool = True
    #: Two pair whose higher pair is at least this rank are always split.
    split_two_pair_from: int = int(Rank.JACK)
    #: Below that, two pair stay together when an ace (or the joker) can lead the low hand.
    two_pair_together_with_ace: bool = True
    #: A straight or better is played in the high hand over a single pair or no pair.
    play_straights: bool = True


def _target(cards: Sequence[Card], way: HouseWay, best: Category) -> Category:
    """The least high-hand category the house way keeps for these seven cards."""
    counts = Counter(ACE if card is JOKER else int(card.rank) for card in cards)
    shape = sorted(counts.values(), reverse=True)
    pairs = sorted((rank for rank, n in counts.items() if n == 2), reverse=True)
    if shape[0] >= 4:
        quads = max(rank for rank, n in counts.items() if n >= 4)
        return Category.PAIR if quads >= way.split_quads_from else Category.FOUR_OF_A_KIND
    if shape[0] == 3:
        trips = [rank for rank, n in counts.items() if n == 3]
        if len(trips) == 2 or pairs:  # two trips split; a full house puts the pair low
            return Category.PAIR if len(trips) == 2 else Category.THREE_OF_A_KIND
        split = trips[0] == ACE and way.split_trip_aces
        return Category.PAIR if split else Category.THREE_OF_A_KIND
    if len(pairs) >= 3:
        return Category.PAIR
    if len(pairs) == 2:
        ace_single = counts.get(ACE) == 1
        together = (pairs[0] < way.split_two_pair_from and ace_single
                    and way.two_pair_together_with_ace)  # fmt: skip
        return Category.TWO_PAIR if together else Category.PAIR
    base = Category.PAIR if pairs else Category.HIGH_CARD
    return Category.STRAIGHT if way.play_straights and best >= Category.STRAIGHT else base


def house_way_561(cards: Sequence[Card], way: HouseWay) -> Setting:
    """The dealer's setting of seven cards under ``way`` (§ 561.13(d); reset to it, § 561.14(i))."""
    legal = [(setting, evaluate(setting.high), evaluate(setting.low))
             for setting in settings(cards, 2)]  # fmt: skip
    legal = [entry for entry in legal if entry[1] >= entry[2]]
    target = _target(cards, way, max(high.category for _, high, _ in legal))
    kept = [entry for entry in legal if entry[1].category >= target] or legal
    return max(kept, key=lambda entry: (entry[2], entry[1]))[0]


def house_way_588(cards: Sequence[Card]) -> Setting:
    """The dealer's setting of six cards under § 588.11(d)(1)-(6).

    Reading: § 588.11(d)(1) ("Notwithstanding ...") governs whenever the cards
    hold a set: no set is broken, the highest other card is the low hand, save two
    three-of-a-kinds (a card of the higher set low) and three pairs (a card of the
    highest pair low); with no other card (four of a kind and a pair) a card of the
    lower set is low. Otherwise (2)-(6): the best high hand, the highest low card.
    """
    counts = Counter(ACE if card is JOKER else int(card.rank) for card in cards)
    in_sets = {rank for rank, n in counts.items() if n >= 2}

    def rank_of(card: Card) -> int:
        return ACE if card is JOKER else int(card.rank)

    def low(card: Card) -> Setting:
        return Setting(tuple(other for other in cards if other is not card), (card,))

    if in_sets:
        trips = sorted((rank for rank, n in counts.items() if n == 3), reverse=True)
        pairs = sorted((rank for rank, n in counts.items() if n == 2), reverse=True)
        singles = [card for card in cards if rank_of(card) not in in_sets]
        if len(trips) == 2:
            pick = next(card for card in cards if rank_of(card) == trips[0])
        elif len(pairs) == 3:
            pick = next(card for card in cards if rank_of(card) == pairs[0])
        elif singles:
            pick = max(singles, key=lambda card: (rank_of(card), card is not JOKER))
        else:
            pick = next(card for card in cards if rank_of(card) == min(in_sets))
        return low(pick)
    options = [low(card) for card in cards]
    best = max(evaluate(setting.high).category for setting in options)
    kept = [s for s in options if evaluate(s.high).category == best and not fouled(s)]
    return max(kept, key=lambda setting: (rank_of(setting.low[0]), evaluate(setting.high)))


def best_of_six(cards: Sequence[Card]) -> PaiGowHand:
    """The highest-ranking five-card hand of six cards (§ 588.11(h): rearranged for the bonuses)."""
    return max(evaluate(five) for five in combinations(cards, 5))


VIGORISH = Fraction(5, 100)
"""§ 561.13(m): "an amount equal to 5% of the amount won"."""


def commission(won_cents: int, quarter_round_up: bool) -> int:
    """The vigorish on ``won_cents`` (§ 561.13(m)), in whole cents up, or to 25 cents up.

    >>> commission(700, False), commission(700, True), commission(10_000, True)
    (35, 50, 500)
    """
    return Commission(VIGORISH, round_up_to=25 if quarter_round_up else 1).on(won_cents)


FORTUNE_TABLE = {  # § 588.12(b)(i)
    Category.FIVE_ACES: Odds(1000), Category.ROYAL_FLUSH: Odds(250),
    Category.STRAIGHT_FLUSH: Odds(100), Category.FOUR_OF_A_KIND: Odds(50),
    Category.FULL_HOUSE: Odds(15), Category.FLUSH: Odds(10),
    Category.STRAIGHT: Odds(8), Category.THREE_OF_A_KIND: Odds(5),
}  # fmt: skip
INSURANCE_TABLE = {8: Odds(100), 9: Odds(30), 10: Odds(10), 11: Odds(7), 12: Odds(4), 13: Odds(3)}
"""§ 588.12(c): by the highest card of a hand with no pair, straight or flush."""
INSURANCE_NAMES = {8: "EIGHT_HIGH", 9: "NINE_HIGH", 10: "TEN_HIGH", 11: "JACK_HIGH",
                   12: "QUEEN_HIGH", 13: "KING_HIGH"}  # fmt: skip


def insurance_key(hand: PaiGowHand) -> int | None:
    """The § 588.12(c) line of a best hand, by its highest card, or None (better than king-high)."""
    if hand.category is Category.HIGH_CARD and hand.ranks[0] in INSURANCE_TABLE:
        return hand.ranks[0]
    return None


def two_areas_refusal(state: Any, seat: Any, section: str) -> Refusal | None:
    """A player wagers on one betting area, or on two adjacent ones where the rule set
    allows it (option ``two_areas``; § 561.7(d), § 588.7(f))."""
    others = [other.seat for other in state.seats.values()
              if other.player == seat.player and other.seat != seat.seat and other.wagers]
    if not others:
        return None
    if not state.options["two_areas"]:
        return Refusal(section, f"{seat.player} wagers at another betting area", "seat")
    if len(others) > 1 or abs(others[0] - seat.seat) != 1:
        return Refusal(section, "a second betting area must be adjacent, and only one", "seat")
    return None
