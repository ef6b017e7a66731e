"""Lunar Poker's hands and pay tables (§ 589.6, § 589.12), apart from the game's declaration.

>>> from tables.rules.cards import parse_cards
>>> hand = parse_cards("Ah Kd 7h 7c 2s")
>>> super_key(hand, "literal"), super_key(hand, "ace_king_high")
('ACE_KING', None)
>>> category, winning = winning_combination(parse_cards("Ah Ad Kc 8s 9h"))
>>> category.name, second_combination(parse_cards("Ah Ad Kc 8s 9h"), winning).name
('PAIR', 'HIGH_CARD')
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from typing import Any

from tables.rules.cards import Card, Rank
from tables.rules.hands import FiveCardCategory as F
from tables.rules.hands import best_five_of, evaluate_five
from tables.rules.money import Odds

_O = Odds
SPOTS = ("1", "2", "3", "4", "5")

INSTANT = {  # § 589.12(a): (royal flush, straight flush) on the Ante
    "A": (_O(1500), _O(500)), "B": (_O(1500), _O(400)), "C": (_O(1500), _O(300)),
    "D": (_O(1200), _O(400)), "E": (_O(1200), _O(300)), "F": (_O(1000), _O(300)),
    "G": (_O(800), _O(300)), "H": (_O(600), _O(300)),
}  # fmt: skip
SUPER_KEYS = ("FOUR_OF_A_KIND", "SAME_COLORED_STRAIGHT", "FULL_HOUSE", "FLUSH", "STRAIGHT",
              "THREE_OF_A_KIND", "ACE_KING", "SAME_COLORED_FIVE")  # fmt: skip
SUPER_TABLES = {  # § 589.12(b), in the order of SUPER_KEYS
    table: dict(zip(SUPER_KEYS, map(_O, (250, 150, 100, 60, 30, trips, ace_king, 2)), strict=True))
    for table, trips, ace_king in (("A", 8, 6), ("B", 8, 5), ("C", 7, 6))
}
SUPER_READINGS = ("literal", "ace_king_high")
BET_TABLE = {  # § 589.12(c)
    F.ROYAL_FLUSH: _O(100), F.STRAIGHT_FLUSH: _O(50), F.FOUR_OF_A_KIND: _O(20),
    F.FULL_HOUSE: _O(7), F.FLUSH: _O(5), F.STRAIGHT: _O(4), F.THREE_OF_A_KIND: _O(3),
    F.TWO_PAIR: _O(2), F.PAIR: _O(1), F.HIGH_CARD: _O(1),  # HIGH_CARD: ace-king only
}  # fmt: skip


def _has_ace_king(cards: Sequence[Card]) -> bool:
    ranks = {card.rank for card in cards}
    return Rank.ACE in ranks and Rank.KING in ranks


def name(cards: Sequence[Card]) -> str:
    """The § 589.6(b) name of the best five of ``cards`` (ace-king named as such)."""
    hand = best_five_of(cards)
    if hand.category is F.HIGH_CARD and _has_ace_king(cards):
        return "Ace-king"
    return str(hand)


def qualifies(cards: Sequence[Card]) -> bool:
    """Ace-king or better (§ 589.11(e)(1), § 589.6(b)(10))."""
    return best_five_of(cards).category is not F.HIGH_CARD or _has_ace_king(cards)


def super_key(five: Sequence[Card], reading: str) -> str | None:
    """The § 589.6(d) line the first five cards are paid on, the highest listed first."""
    hand, colours = evaluate_five(five), {card.suit.value in "hd" for card in five}
    category, same = hand.category, len(colours) == 1
    if category is F.FOUR_OF_A_KIND:
        return "FOUR_OF_A_KIND"
    if category >= F.STRAIGHT_FLUSH or (category is F.STRAIGHT and same):
        return "SAME_COLORED_STRAIGHT"  # § 589.11(c)(2)(ii): a straight flush counts so
    if category in (F.FULL_HOUSE, F.FLUSH, F.STRAIGHT, F.THREE_OF_A_KIND):
        return category.name
    if _has_ace_king(five) and (reading == "literal" or category is F.HIGH_CARD):
        return "ACE_KING"
    return "SAME_COLORED_FIVE" if same else None


def winning_combination(cards: Sequence[Card]) -> tuple[F, frozenset[Card]]:
    """The winning combination: the category of the best five and the cards making it."""
    best = max(combinations(cards, 5), key=lambda five: evaluate_five(five).strength)
    hand = evaluate_five(best)
    if hand.category in (F.PAIR, F.TWO_PAIR, F.THREE_OF_A_KIND, F.FOUR_OF_A_KIND):
        groups = hand.ranks[: 2 if hand.category is F.TWO_PAIR else 1]
        return hand.category, frozenset(card for card in best if card.rank in groups)
    if hand.category is F.HIGH_CARD:
        return F.HIGH_CARD, frozenset(c for c in best if c.rank in (Rank.ACE, Rank.KING))
    return hand.category, frozenset(best)


def second_combination(cards: Sequence[Card], winning: frozenset[Card]) -> F | None:
    """The best-paying § 589.6(b) combination holding a card outside ``winning``."""
    found: list[F] = []
    for size in (2, 3, 4, 5):
        for combo in combinations(cards, size):
            if not set(combo) - winning:
                continue
            ranks = sorted(card.rank for card in combo)
            if size == 2 and ranks[0] == ranks[1]:
                found.append(F.PAIR)
            elif size == 2 and ranks == [Rank.KING, Rank.ACE]:
                found.append(F.HIGH_CARD)
            elif size == 3 and ranks[0] == ranks[2]:
                found.append(F.THREE_OF_A_KIND)
            elif size == 4 and ranks[0] == ranks[3]:
                found.append(F.FOUR_OF_A_KIND)
            elif size == 4 and ranks[0] == ranks[1] != ranks[2] == ranks[3]:
                found.append(F.TWO_PAIR)
            elif size == 5 and evaluate_five(combo).category >= F.STRAIGHT:
                found.append(evaluate_five(combo).category)
    return max(found, key=lambda category: BET_TABLE[category].ratio, default=None)


def discards(seat: Any) -> tuple[str, ...]:
    """The spots the player exchanged (``params.discard``, "1,3")."""
    text = str(seat.params.get("discard", "") or "")
    return tuple(spot.strip() for spot in text.split(",") if spot.strip())


def hand_of(seat: Any) -> tuple[Card, ...]:
    """The player's cards after any draw: five, or six with a bought card."""
    cards, out = seat.cards, discards(seat)
    kept = [card for spot, card in zip(SPOTS, cards, strict=False) if spot not in out]
    return tuple(card for card in (*kept, *cards[5:]) if card is not None)


def dealer_hand(state: Any) -> tuple[Card, ...]:
    """The dealer's five, his highest card swapped for the forced card if one was drawn."""
    five = tuple(card for card in state.dealer[:5] if card is not None)
    extra = state.dealer[5]
    if extra is None:
        return five
    top = max(five, key=lambda card: card.rank)  # no pair when forced: one highest card
    return (*(card for card in five if card != top), extra)
