"""Exact par sheets of the blackjack side wagers, by enumeration over the real shoe.

Each wager here depends on the dealer's cards alone. The players' cards dealt
between the dealer's are unseen and unconditioned, so the dealer's cards are a
random sequence drawn without replacement from the full batch: the sheets
enumerate that sequence exactly, in :class:`fractions.Fraction`.

* Bust It (§ 581.7(m), § 581.12(c)): the dealer's first three cards from eight
  Spanish decks, every ordered triple of card kinds weighted by the cards left;
* Push 22 (§ 590.6(e), § 590.12(c)): the dealer's whole hand, drawn to all 17s,
  by a recursion over the values drawn (a memo on the multiset), for every deck
  count the casino may choose; "same suit" and "same colour" by the same
  recursion over one suit's (one colour's) cards only, times four (two);
* Insurance (§ 5xx.8, § 5xx.12): the hole card under an ace up card, from the
  batch less that ace (the player's own cards not conditioned on, as the
  published sheets do).

>>> from tables.rules.blackjack import DOUBLE_ATTACK_581
>>> sheet = insurance_sheet(DOUBLE_ATTACK_581)
>>> sheet.house_edge, round(float(sheet.house_edge), 4)
(Fraction(47, 383), 0.1227)
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from fractions import Fraction

from tables.rules.blackjack import FREE_BET_590, BlackjackRules, Soft17
from tables.rules.blackjack_settlement import BUST_IT_TABLE, PUSH_22_TABLES
from tables.rules.cards import STANDARD_DECK, Rank, Suit
from tables.rules.money import Odds
from tables.rules.parsheet import PayoutRow, WagerSheet
from tables.rules.shoe import shoe_spec

__all__ = ["bust_it_sheet", "push_22_sheet", "insurance_sheet", "DECK_COUNTS"]

DECK_COUNTS = tuple(range(1, 9))
"""The deck counts priced for § 590.3(a) and § 591.3(a) ("at least one deck")."""

_RED = frozenset({Suit.HEARTS, Suit.DIAMONDS})


def _value(rank: Rank) -> int:
    return 1 if rank is Rank.ACE else min(int(rank), 10)


def _sheet(wager: str, section: str, wins: list[tuple[str, Odds, Fraction]],
           total: int | None = None) -> WagerSheet:  # fmt: skip
    """A sheet from each winning line's probability; the rest loses. ``total``: the
    outcomes counted (else the probabilities' common denominator)."""
    lose = 1 - sum((probability for _, _, probability in wins), Fraction(0))
    if total is None:
        total = math.lcm(*(p.denominator for _, _, p in wins), lose.denominator)
    rows = [PayoutRow(label=label, odds=odds, combinations=int(p * total), probability=p,
                      net=Fraction(odds.numerator, odds.denominator))
            for label, odds, p in wins]  # fmt: skip
    rows.append(PayoutRow(label="Loses", odds=None, combinations=int(lose * total),
                          probability=lose, net=Fraction(-1)))  # fmt: skip
    return WagerSheet(wager=wager, section=section, total=total, rows=tuple(rows))


# ---- Bust It ------------------------------------------------------------------------------


@functools.cache
def bust_it_sheet() -> WagerSheet:
    """§ 581.12(c) over eight Spanish decks: the dealer busts on exactly his third card.

    >>> sheet = bust_it_sheet()
    >>> sheet.total == 384 * 383 * 382
    True
    """
    counts = list(shoe_spec("581").composition)
    size = sum(counts)
    kinds = [card for card in STANDARD_DECK if counts[card.index]]
    wins: dict[str, int] = {label: 0 for label, _, _ in BUST_IT_TABLE}
    for first in kinds:
        n1 = counts[first.index]
        counts[first.index] -= 1
        for second in kinds:
            n2 = counts[second.index]
            total = _value(first.rank) + _value(second.rank)
            soft = Rank.ACE in (first.rank, second.rank) and total + 10 <= 21
            if not n2 or (soft and total + 10 >= 17) or (not soft and total >= 17):
                continue  # the dealer stands on his first two cards (§ 581.7(m)(1))
            counts[second.index] -= 1
            for third in kinds:
                n3 = counts[third.index]
                if not n3 or total + _value(third.rank) <= 21:
                    continue
                label = _bust_it_line(first, second, third)
                wins[label] += n1 * n2 * n3
            counts[second.index] += 1
        counts[first.index] += 1
    ordered = size * (size - 1) * (size - 2)
    lines = [(label, odds, Fraction(wins[label], ordered)) for label, odds, _ in BUST_IT_TABLE]
    return _sheet("BUST_IT", "581.12(c)", lines, ordered)


def _bust_it_line(*cards: object) -> str:
    first, second, third = cards
    ranks = {card.rank for card in cards}  # type: ignore[attr-defined]
    suits = {card.suit for card in cards}  # type: ignore[attr-defined]
    if ranks == {Rank.EIGHT}:
        if len(suits) == 1:
            return BUST_IT_TABLE[0][0]
        if suits <= _RED or not suits & _RED:
            return BUST_IT_TABLE[1][0]
    return next(label for label, _, ranks_of in BUST_IT_TABLE
                if third.rank in ranks_of)  # type: ignore[attr-defined]  # fmt: skip


# ---- Push 22 ------------------------------------------------------------------------------


def _dealer_22(decks: int, allowed: Callable[[Suit], bool], hit_soft_17: bool) -> Fraction:
    """P(the dealer's hand totals 22 and every card of it is of a suit ``allowed``)."""
    size = 52 * decks
    left_by_value = [0] * 11
    for card in STANDARD_DECK:
        if allowed(card.suit):
            left_by_value[_value(card.rank)] += decks

    @functools.cache
    def chance(drawn: tuple[int, ...]) -> Fraction:
        cards = sum(drawn)
        total = sum(value * count for value, count in enumerate(drawn))
        soft = drawn[1] > 0 and total + 10 <= 21
        best = total + 10 if soft else total
        if cards >= 2 and (best > 17 or (best == 17 and not (soft and hit_soft_17))):
            return Fraction(int(best == 22))
        if total > 22:
            return Fraction(0)
        remaining = size - cards
        result = Fraction(0)
        for value in range(1, 11):
            left = left_by_value[value] - drawn[value]
            if left > 0:
                after = (*drawn[:value], drawn[value] + 1, *drawn[value + 1 :])
                result += Fraction(left, remaining) * chance(after)
        return result

    return chance((0,) * 11)


@functools.cache
def _push_22_chances(decks: int, hit_soft_17: bool) -> tuple[Fraction, Fraction, Fraction]:
    """P(a 22 all of one suit), P(of one colour, not one suit), P(any other 22)."""
    same_suit = 4 * _dealer_22(decks, lambda suit: suit is Suit.SPADES, hit_soft_17)
    same_colour = 2 * _dealer_22(decks, lambda suit: suit not in _RED, hit_soft_17) - same_suit
    any_22 = _dealer_22(decks, lambda suit: True, hit_soft_17)
    return same_suit, same_colour, any_22 - same_suit - same_colour


def push_22_sheet(decks: int, table: str = "A", rules: BlackjackRules = FREE_BET_590) -> WagerSheet:
    """§ 590.12(c) paytable ``table`` with ``decks`` standard decks: the dealer's 22.

    The dealer draws to all 17s whatever the players hold (the wager depends on
    his total, § 590.7(m)); a Blackjack never makes 22 (§ 590.7(g)).
    """
    same_suit, same_colour, other = _push_22_chances(decks, rules.soft_17 is Soft17.HIT)
    (suit_label, suit_odds), (colour_label, colour_odds), (other_label, other_odds) = (
        PUSH_22_TABLES[table])  # fmt: skip
    lines = [(suit_label, suit_odds, same_suit), (colour_label, colour_odds, same_colour),
             (other_label, other_odds, other)]  # fmt: skip
    return _sheet("PUSH_22", "590.12(c)", lines)


# ---- Insurance ----------------------------------------------------------------------------


def insurance_sheet(rules: BlackjackRules, decks: int | None = None) -> WagerSheet:
    """§ 5xx.8, § 5xx.12: won when the hole card under the ace is one the chapter names.

    ``decks``: the batch of a § 590 or § 591 table (the rule set's own when none).
    """
    spec = shoe_spec(rules.chapter, decks if decks is not None else rules.decks)
    counts = spec.composition
    left = spec.size - 1  # the ace up
    winners = sum(counts[card.index] for card in STANDARD_DECK
                  if card.rank in rules.insurance_ranks)  # fmt: skip
    line = ("Hole card " + ("king, queen or jack" if rules.insurance_ranks.isdisjoint({Rank.TEN})
                            else "a 10-value card"))  # fmt: skip
    return _sheet("INSURANCE", rules.section("insurance_pays"),
                  [(line, rules.insurance_odds, Fraction(winners, left))])  # fmt: skip
