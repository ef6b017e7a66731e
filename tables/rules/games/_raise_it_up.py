"""Raise It Up Stud Poker's hands and pay tables (§ 587.6, § 587.12), apart from its
declaration (:mod:`tables.rules.games.raise_it_up_587`) so the par sheet reads the same."""

from __future__ import annotations

from collections.abc import Sequence

from tables.rules.cards import Card, Rank
from tables.rules.hands import FiveCardCategory as F
from tables.rules.hands import ThreeCardCategory as T
from tables.rules.hands import best_five_of, evaluate_three
from tables.rules.money import Odds
from tables.rules.progressives.chapters import RAISE_IT_UP_587
from tables.rules.progressives.envy import ENVY_587, envy_hand_587

ANTE, BLIND, PAIR_PLUS, SIX_CARD = "ANTE", "BLIND", "PAIR_PLUS", "SIX_CARD_BONUS"
PLAYS = ("PLAY_FIRST", "PLAY_SECOND", "PLAY_THIRD")  # § 587.11(b), (d), (f)
PROGRESSIVE, PROGRESSIVE_PAYOUT, ENVY = "PROGRESSIVE", "PROGRESSIVE_PAYOUT", "PROGRESSIVE_ENVY"
COMMUNITY = ("4TH_STREET", "5TH_STREET", "SIXTH_STREET")  # § 587.2(b)(3)
_O = Odds

PLAY_TABLE = {  # § 587.12(c)
    "ROYAL_FLUSH": _O(100), "STRAIGHT_FLUSH": _O(20), "FOUR_OF_A_KIND": _O(10),
    "FULL_HOUSE": _O(6), "FLUSH": _O(5), "STRAIGHT": _O(4), "THREE_OF_A_KIND": _O(3),
    "TWO_PAIR": _O(3, 2), "PAIR_OF_TENS_OR_BETTER": _O(1),
}  # fmt: skip
BLIND_TABLE = {  # § 587.12(d): two pair and a pair of 10s or better push
    "ROYAL_FLUSH": _O(1000), "STRAIGHT_FLUSH": _O(200), "FOUR_OF_A_KIND": _O(30),
    "FULL_HOUSE": _O(4), "FLUSH": _O(3), "STRAIGHT": _O(2), "THREE_OF_A_KIND": _O(1),
}  # fmt: skip
PAIR_PLUS_TABLES = {  # § 587.12(a): straight flush, three-of-a-kind, straight, flush, pair
    name: {"STRAIGHT_FLUSH": _O(40), "THREE_OF_A_KIND": _O(trips), "STRAIGHT": _O(straight),
           "FLUSH": _O(flush), "PAIR": _O(1)}
    for name, trips, straight, flush in (("A", 30, 6, 4), ("B", 25, 6, 4), ("C", 30, 5, 4),
                                         ("D", 30, 6, 3))
}  # fmt: skip
SIX_CARD_TABLES = {  # § 587.12(f)
    name: {"ROYAL_FLUSH": _O(1000), "STRAIGHT_FLUSH": _O(200), "FOUR_OF_A_KIND": _O(quads),
           "FULL_HOUSE": _O(full), "FLUSH": _O(flush), "STRAIGHT": _O(straight),
           "THREE_OF_A_KIND": _O(trips)}
    for name, quads, full, flush, straight, trips in (
        ("A", 50, 25, 20, 10, 5), ("B", 50, 25, 15, 10, 5), ("C", 100, 20, 15, 9, 8),
        ("D", 100, 20, 15, 10, 7))
}  # fmt: skip
PROGRESSIVE_AMOUNTS = tuple(ENVY_587)  # § 587.12(e)(5): $1 and $5


def main_key(cards: Sequence[Card]) -> str | None:
    """The § 587.12(c) line of the best five of six cards; ``None`` below a pair of 10s."""
    hand = best_five_of(cards)
    if hand.category >= F.TWO_PAIR:
        return hand.category.name
    if hand.category is F.PAIR and hand.pair_rank is not None and hand.pair_rank >= Rank.TEN:
        return "PAIR_OF_TENS_OR_BETTER"
    return None


def three_card_key(cards: Sequence[Card], ace_low: bool) -> str | None:
    """The § 587.6(c) hand of a player's three cards, or ``None`` below a pair."""
    hand = evaluate_three(cards)
    category = hand.category
    if not ace_low and category in (T.STRAIGHT, T.STRAIGHT_FLUSH) and hand.ranks[0] is Rank.THREE:
        category = T.FLUSH if category is T.STRAIGHT_FLUSH else T.HIGH_CARD
    return None if category is T.HIGH_CARD else category.name


def progressive_key(cards: Sequence[Card], ace_low: bool) -> str | None:
    """The § 587.12(e)(1) line of three cards, only the highest (§ 587.12(e)(2))."""
    key = envy_hand_587(cards) or three_card_key(cards, ace_low)
    return key if key in {line.hand for line in RAISE_IT_UP_587.schedule} else None


