"""Flop Poker par sheet (§ 583), exact: every figure is a count over the deck.

Payouts and hands come from the game module (:mod:`tables.rules.games.flop_poker_583`).

* **Three Card Bonus** (§ 583.12(c)): the player's three cards alone, 22,100 hands.
* **Ante and Flop** (§ 583.11(b), (d)(2), § 583.12(a), (b)) exactly under optimal play.
  No dealer hand: a hand's result depends on its three cards and the three community
  cards only, so for every player hand (one per suit pattern, weighted) the flop
  outcomes over all C(49, 3) = 18,424 boards are counted and the Flop Wager is made
  when it is worth more than the folded Ante's -1. A board's payout is the best of its
  three pairs of community cards; the boards whose best is at most level ``k`` are the
  triangles of the graph of pairs paying at most ``k``, counted with bit sets.
* **Pot** (§ 583.11(e)): players' money shared among the players; the house neither
  wins nor loses it, so it has no edge and is no handle. A folded player stays in it,
  so it never changes the Flop decision.

>>> sheet = three_card_bonus_sheet(False)
>>> sheet.total, f"{float(sheet.house_edge):.4%}"
(22100, '8.1267%')
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Mapping, Sequence
from fractions import Fraction
from itertools import combinations, permutations
from typing import Any

from tables.rules.cards import STANDARD_DECK, Card, Suit
from tables.rules.games import flop_poker_583 as flp
from tables.rules.hands import evaluate_five
from tables.rules.house_edge import HouseEdge
from tables.rules.parsheet import PayoutRow, WagerSheet

__all__ = ["AnteFlop", "ante_flop", "three_card_bonus_sheet", "parsheet", "house_edges"]

HANDS, BOARDS = 22_100, 18_424
LEVELS: tuple[str | None, ...] = (None, *reversed([key for key, _ in flp.FLOP_TABLE]))


def _rows(table: Sequence[tuple[str, Any]], counts: Counter[str | None], total: int,
          lose: str) -> tuple[PayoutRow, ...]:  # fmt: skip
    rows = [PayoutRow(label=key, odds=odds, combinations=counts[key],
                      probability=Fraction(counts[key], total), net=odds.ratio)
            for key, odds in table]  # fmt: skip
    rows.append(PayoutRow(label=lose, odds=None, combinations=counts[None],
                          probability=Fraction(counts[None], total), net=Fraction(-1)))  # fmt: skip
    return tuple(rows)


@functools.cache
def three_card_bonus_sheet(ace_low: bool) -> WagerSheet:
    """The Three Card Bonus (§ 583.12(c)), every three-card hand counted."""
    counts = Counter(flp.bonus_key(hand, ace_low) for hand in combinations(STANDARD_DECK, 3))
    name = "A-2-3 a straight" if ace_low else "A-2-3 no straight (583.6(a))"
    return WagerSheet(
        wager=f"Three Card Bonus, {name}",
        section="583.12(c)",
        total=HANDS,
        rows=_rows(flp.BONUS_TABLE, counts, HANDS, "Less than a pair (loses)"),
    )


def _canonical(hand: Sequence[Card]) -> tuple[tuple[int, int], ...]:
    """The hand with its suits renamed to the least arrangement (one per suit pattern)."""
    return min(tuple(sorted((int(card.rank), order[_SUITS[card.suit]]) for card in hand))
               for order in permutations(range(4)))  # fmt: skip


_SUITS = {suit: number for number, suit in enumerate(Suit)}


def _board_levels(hand: Sequence[Card]) -> list[int]:
    """How many boards of the 49 cards left pay each level (0: below jacks)."""
    rest = [card for card in STANDARD_DECK if card not in hand]
    level = {key: number for number, key in enumerate(LEVELS)}
    pairs = {}
    for (i, a), (j, b) in combinations(enumerate(rest), 2):
        pairs[i, j] = level[flp.flop_key(evaluate_five((*hand, a, b)))]
    counts, below = [0] * len(LEVELS), 0
    present = sorted(set(pairs.values()))
    for top in present:
        adjacent = [0] * len(rest)
        for (i, j), value in pairs.items():
            if value <= top:
                adjacent[i] |= 1 << j
                adjacent[j] |= 1 << i
        triangles = sum((adjacent[i] & adjacent[j] & ~((2 << j) - 1)).bit_count()
                        for (i, j), value in pairs.items() if value <= top)  # fmt: skip
        counts[top], below = triangles - below, triangles
    return counts


class AnteFlop:
    """Ante and Flop under optimal play, per unit of Ante."""

    def __init__(self, classes: Mapping[Any, tuple[int, list[int], Sequence[Card]]]) -> None:
        odds = [Fraction(0), *(o.ratio for _, o in reversed(flp.FLOP_TABLE))]
        returns = [Fraction(-2), *(1 + ratio for ratio in odds[1:])]  # Ante and Flop together
        value, played, self.outcomes = Fraction(0), 0, Counter[str]()
        #: Hands on which the stated rule (:func:`plays`) and the counted best play differ.
        self.off_rule = 0
        for weight, counts, hand in classes.values():
            play = sum((count * ret for count, ret in zip(counts, returns, strict=True)),
                       Fraction(0)) / BOARDS  # fmt: skip
            self.off_rule += weight * ((play >= -1) != plays(hand))
            if play >= -1:
                played += weight
                for key, count in zip(LEVELS, counts, strict=True):
                    self.outcomes[key or "Below a pair of jacks"] += weight * count
            value += weight * max(play, Fraction(-1))
        self.house_edge = -value / HANDS
        self.play_frequency = Fraction(played, HANDS)
        self.element_of_risk = self.house_edge / (1 + self.play_frequency)


@functools.cache
def ante_flop() -> AnteFlop:
    """Every player hand (by suit pattern) against every board, counted (seconds)."""
    weights: Counter[tuple[Any, ...]] = Counter()
    first: dict[tuple[Any, ...], tuple[Card, ...]] = {}
    for hand in combinations(STANDARD_DECK, 3):
        key = _canonical(hand)
        weights[key] += 1
        first.setdefault(key, hand)
    return AnteFlop({key: (weights[key], _board_levels(first[key]), first[key]) for key in weights})


RULE = (
    "Make the Flop Wager with a pair or better, three suited cards, three ranks within a "
    "span of five (10-J-K, 4-6-8), or a jack or higher; fold the rest"
)


def plays(cards: Sequence[Card]) -> bool:
    """:data:`RULE`: the best play, as the sheet proves hand by hand (``off_rule`` is 0)."""
    ranks = sorted(int(card.rank) for card in cards)
    flush = len({card.suit for card in cards}) == 1
    run = ranks[2] - ranks[0] <= 4 and len(set(ranks)) == 3
    return len(set(ranks)) < 3 or flush or run or ranks[2] >= 11


def strategy(state: Any, seat: Any, step: Any, rng: Any) -> str:
    """§ 583.11(b): bet the Flop on a hand :func:`plays` plays, else fold."""
    return "bet" if plays([card for card in seat.cards if card is not None]) else "fold"


STRATEGY = strategy


def parsheet(ruleset: Any, options: Mapping[str, Any]) -> dict[str, Any]:
    """The par sheet of a round under ``options``."""
    game = ante_flop()
    return {
        "side_wagers": [three_card_bonus_sheet(False), three_card_bonus_sheet(True)],
        "selected_side_wager": three_card_bonus_sheet(options["three_card_ace_low"]).wager,
        "whole_game": {
            "title": "Ante and Flop, optimal strategy - EXACT (every player hand against every "
            "board of the 49 cards left)",
            "per": "Ante",
            "house_edge": game.house_edge,
            "element_of_risk": game.element_of_risk,
            "play_frequency": game.play_frequency,
            "outcomes_when_played": {
                k: Fraction(v, HANDS * BOARDS) for k, v in game.outcomes.items()
            },
            "strategy": f"{RULE} ({ruleset.section('11(b)')}): on every hand the better of "
            "the Flop Wager and the -1 of a fold, counted",
            "hands_off_the_rule": game.off_rule,
        },
        "pot": {
            "house_edge": Fraction(0),
            "handle": False,
            "notes": [
                f"{ruleset.section('11(e)')}: the Pot is shared among the players; "
                "the house neither wins nor loses it."
            ],
        },  # fmt: skip
    }


def house_edges(ruleset: Any, options: Mapping[str, Any]) -> tuple[HouseEdge, ...]:
    """Finance's edges: the Ante carries the Ante/Flop game's (the Flop Wager is a
    decision inside it), the Three Card Bonus its own; the Pot is no handle."""
    bonus = three_card_bonus_sheet(options["three_card_ace_low"])
    return (
        HouseEdge(handle=frozenset({flp.ANTE}), edge=ante_flop().house_edge,
                  source="exact, optimal play, per Ante (583.11(b), 583.12(a)-(b))"),
        HouseEdge(handle=frozenset({flp.FLOP}), edge=Fraction(0),
                  source="inside the Ante's edge: a decision (583.11(b))"),
        HouseEdge(handle=frozenset({flp.BONUS}), edge=bonus.house_edge,
                  source=f"exact over 22,100 hands ({bonus.wager})"),
    )  # fmt: skip
