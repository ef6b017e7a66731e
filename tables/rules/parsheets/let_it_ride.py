"""Let It Ride par sheet (§ 559), exact: every figure is a count over the deck.

Everything about the game is read from its module
(:mod:`tables.rules.games.let_it_ride_559`): the pay tables, :func:`main_key`,
:func:`three_card_key`, :func:`three_card_odds` and :func:`bonus_amount`.

* **Bets 1-3** (§ 559.7(d), § 559.13, § 559.14(b)) exactly under optimal play.
  Each bet is paid on the same final hand, and taking one back never changes
  another, so each is decided on its own: Bet 3 always rides; Bet 2 rides when
  the four cards known then (three own, one community) are worth at least 0 on
  average over the 48 unseen fifth cards; Bet 1 when the three own cards are
  worth at least 0 on average over the 49 × 48 ordered pairs of community cards.
  A hand's payout depends only on its ranks and whether all five share a suit,
  so four cards are summarised by (ranks, suited) and the 48 fifth cards by
  rank: every one of the 270,725 four-card and 22,100 three-card sets is valued.
* **The Three Card Bonus** (§ 559.9, § 559.14(e)): every three-card hand, each
  table A-F (and, for A-C, each reading of the mini-royal).
* **The Let It Ride Bonus** (§ 559.8, § 559.14(d)): every five-card hand; the
  $1 chip is kept by the house, so a winner nets the amount less $1.

>>> game = main_game()
>>> f"{float(game.house_edge):.4%}", f"{float(game.element_of_risk):.4%}"
('3.5057%', '2.8453%')
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations
from typing import Any

from tables.rules.cards import STANDARD_DECK, Card, Rank, Suit
from tables.rules.games import let_it_ride_559 as lir
from tables.rules.house_edge import HouseEdge
from tables.rules.money import Odds
from tables.rules.parsheet import PayoutRow, WagerSheet

__all__ = ["MainGame", "main_game", "three_card_sheet", "bonus_sheet", "parsheet", "house_edges",
           "optimal", "STRATEGY"]  # fmt: skip

FIVE_CARD_HANDS = 2_598_960
FOUR_CARD_SETS = 270_725
_RANKS = tuple(Rank)
_SUITS = tuple(Suit)
_LABELS = {
    "ROYAL_FLUSH": "Royal flush", "STRAIGHT_FLUSH": "Straight flush",
    "FOUR_OF_A_KIND": "Four-of-a-kind", "FULL_HOUSE": "Full house", "FLUSH": "Flush",
    "STRAIGHT": "Straight", "THREE_OF_A_KIND": "Three-of-a-kind", "TWO_PAIR": "Two pair",
    "PAIR_OF_TENS_OR_BETTER": "Pair of tens or better", "MINI_ROYAL": "Mini-royal", "PAIR": "Pair",
}  # fmt: skip
Key = tuple[tuple[Rank, ...], bool]  # sorted ranks, all of one suit


@functools.cache
def _five_key(ranks: tuple[Rank, ...], suited: bool) -> str | None:
    """The § 559.14(b) line of five cards of ``ranks`` (one suit when ``suited``)."""
    seen: Counter[Rank] = Counter()
    cards = []
    for rank in ranks:  # each rank's copies in distinct suits
        cards.append(Card(rank, Suit.CLUBS if suited else _SUITS[seen[rank]]))
        seen[rank] += 1
    if not suited and len(seen) == 5:
        cards[0] = Card(ranks[0], Suit.DIAMONDS)
    return lir.main_key(cards)


def _next_cards(key: Key) -> list[tuple[int, Key]]:
    """(number of unseen cards, key with it) for each rank the next card may have."""
    ranks, suited = key
    out = []
    for rank in _RANKS:
        left = 4 - ranks.count(rank)
        more = tuple(sorted((*ranks, rank)))
        if suited and rank not in ranks:  # one of the four left is of the suit
            out.append((1, (more, True)))
            left -= 1
        if left:
            out.append((left, (more, False)))
    return out


@functools.cache
def _key_counts(size: int) -> Counter[Key]:
    """How many sets of ``size`` cards have each key."""
    return Counter(_key_of(cards) for cards in combinations(STANDARD_DECK, size))


@dataclass(frozen=True, slots=True)
class MainGame:
    """Bets 1-3 under optimal play, per unit of one bet (all three equal)."""

    bet_values: tuple[Fraction, Fraction, Fraction]  # expected result of Bets 1, 2, 3
    ride: tuple[Fraction, Fraction]  # how often Bets 1 and 2 ride

    @property
    def house_edge(self) -> Fraction:
        """Per unit of one bet (the usual figure: the player's loss per Bet Number 3)."""
        return -sum(self.bet_values, Fraction(0))

    @property
    def per_initial_wager(self) -> Fraction:
        """Per unit of the three bets as placed (finance's handle)."""
        return self.house_edge / 3

    @property
    def average_wagered(self) -> Fraction:
        """Bets riding to the showdown, per unit of one bet."""
        return 1 + self.ride[0] + self.ride[1]

    @property
    def element_of_risk(self) -> Fraction:
        """Per unit left riding to the showdown."""
        return self.house_edge / self.average_wagered


@functools.cache
def four_card_sums(table: str = "559.14(b) minimum") -> dict[Key, Fraction]:
    """Σ of one bet's result (odds, or -1) over the 48 unseen fifth cards, per four-card key."""
    odds = dict(lir.MAIN_TABLES[table])

    def value(key: Key) -> Fraction:
        line = _five_key(*key)
        return odds[line].ratio if line is not None else Fraction(-1)

    return {key: sum((n * value(five) for n, five in _next_cards(key)), Fraction(0))
            for key in _key_counts(4)}  # fmt: skip


def three_card_sum(key: Key, table: str = "559.14(b) minimum") -> Fraction:
    """Σ of one bet's result over the 49 × 48 ordered community cards, for three cards."""
    sums = four_card_sums(table)
    return sum((n * sums[four] for n, four in _next_cards(key)), Fraction(0))


@functools.cache
def main_game(table: str = "559.14(b) minimum") -> MainGame:
    """Bets 1-3 exactly under optimal play (§ 559.13(b), (d), § 559.14(b))."""
    sums = four_card_sums(table)
    bet1 = bet2 = bet3 = Fraction(0)
    rides1 = rides2 = 0
    for key, count in _key_counts(4).items():
        bet3 += count * sums[key]
        if sums[key] >= 0:  # a bet worth nothing either way rides
            bet2, rides2 = bet2 + count * sums[key], rides2 + count
    for key, count in _key_counts(3).items():
        total = three_card_sum(key, table)
        if total >= 0:
            bet1, rides1 = bet1 + count * total, rides1 + count
    return MainGame(
        bet_values=(bet1 / (22_100 * 49 * 48), bet2 / (FOUR_CARD_SETS * 48),
                    bet3 / (FOUR_CARD_SETS * 48)),
        ride=(Fraction(rides1, 22_100), Fraction(rides2, FOUR_CARD_SETS)),
    )  # fmt: skip


@functools.cache
def five_card_counts() -> dict[str, int]:
    """Five-card hands by § 559.14(b) line ("" below a pair of tens)."""
    counts: Counter[str] = Counter()
    for key, count in _key_counts(4).items():
        for n, five in _next_cards(key):
            counts[_five_key(*five) or ""] += count * n
    return {line: total // 5 for line, total in counts.items()}  # each hand from 5 four-sets


@functools.cache
def three_card_sheet(table: str, reading: str | None = None) -> WagerSheet:
    """The Three Card Bonus on Table ``table`` (§ 559.14(e)), every three-card hand counted."""
    counts: Counter[str | None] = Counter()
    for three in combinations(STANDARD_DECK, 3):
        counts[lir.three_card_key(three)] += 1
    lines = lir.THREE_CARD_TABLES[table]
    paid: Counter[str] = Counter()
    for key, count in counts.items():
        odds = lir.three_card_odds(table, key, reading)
        if odds is not None:
            line = next(name for name, o in lines if o == odds and (name == key or
                        key == "MINI_ROYAL"))  # fmt: skip
            paid[line] += count
    rows = [PayoutRow(label=_LABELS[line], odds=odds, combinations=paid[line],
                      probability=Fraction(paid[line], 22_100), net=odds.ratio)
            for line, odds in lines]  # fmt: skip
    losing = 22_100 - sum(paid.values())
    rows.append(PayoutRow(label="Less than a pair (loses)", odds=None, combinations=losing,
                          probability=Fraction(losing, 22_100), net=Fraction(-1)))  # fmt: skip
    name = table if reading is None else f"{table}, mini-royal paid as a {reading}"
    return WagerSheet(wager=f"Three Card Bonus Table {name}", section="559.14(e)", total=22_100,
                      rows=tuple(rows))  # fmt: skip


@functools.cache
def bonus_sheet(amounts: str = "559.14(d) minimum") -> WagerSheet:
    """The $1 Let It Ride Bonus (§ 559.14(d)); nets the amount less the $1 the house kept."""
    counts = five_card_counts()
    stake = lir.LIR_BONUS_CENTS
    rows = []
    for line, cents in lir.LIR_BONUS_AMOUNTS[amounts]:
        rows.append(PayoutRow(label=f"{_LABELS[line]}: ${cents // 100:,}",
                              odds=Odds(cents - stake, stake), combinations=counts.get(line, 0),
                              probability=Fraction(counts.get(line, 0), FIVE_CARD_HANDS),
                              net=Fraction(cents - stake, stake)))  # fmt: skip
    losing = FIVE_CARD_HANDS - sum(row.combinations for row in rows)
    rows.append(PayoutRow(label="Less than three-of-a-kind (loses)", odds=None,
                          combinations=losing, probability=Fraction(losing, FIVE_CARD_HANDS),
                          net=Fraction(-1)))  # fmt: skip
    return WagerSheet(wager=f"Let It Ride Bonus {amounts}", section="559.14(d)",
                      total=FIVE_CARD_HANDS, rows=tuple(rows))  # fmt: skip


def _three_card_choices() -> tuple[tuple[str, str | None], ...]:
    """Every Three Card Bonus a rule set may choose: Tables A-C under each reading, D-F."""
    readings: tuple[str | None, ...] = lir.MINI_ROYAL_READINGS
    return tuple((table, reading) for table in lir.THREE_CARD_TABLES
                 for reading in ((None,) if table in "DEF" else readings))  # fmt: skip


def _riding_examples(table: str) -> str:
    """The weakest three-card holdings on which Bet Number 1 rides, a few of them."""
    counts = _key_counts(3)
    riding = sorted((three_card_sum(key, table), key) for key in counts
                    if three_card_sum(key, table) >= 0)  # fmt: skip
    shown = ", ".join("-".join(r.symbol for r in reversed(key[0])) + (" suited" if key[1] else "")
                      for _, key in riding[:4])  # fmt: skip
    hands = sum(counts[key] for _, key in riding)
    return f"{hands:,} of 22,100 hands ride, the weakest {shown}"


def parsheet(ruleset: Any, options: Mapping[str, Any]) -> dict[str, Any]:
    """The par sheet of a round under ``options`` (the game's declared options)."""
    table, reading = options["three_card_bonus_table"], options["mini_royal_reading"]
    if table in ("A", "B", "C") and reading is None:
        raise ValueError(f"{ruleset.section('14(e)')}: three_card_bonus_table={table} needs a "
                         "mini_royal_reading (the mini-royal is N/A in Tables A-C)")  # fmt: skip
    game = main_game(options["main_table"])
    selected = None if table is None else three_card_sheet(table, reading if table in "ABC"
                                                           else None).wager  # fmt: skip
    return {
        "whole_game": {
            "title": "Bets 1-3, optimal strategy - EXACT (every three- and four-card holding "
            "against every card to come)",
            "per": "one bet (the three are equal)",
            "house_edge": game.house_edge,
            "house_edge_per_three_bets": game.per_initial_wager,
            "element_of_risk": game.element_of_risk,
            "average_wagered": game.average_wagered,
            "bet_1_rides": game.ride[0],
            "bet_2_rides": game.ride[1],
            "expected_result_bet_1": game.bet_values[0],
            "expected_result_bet_2": game.bet_values[1],
            "expected_result_bet_3": game.bet_values[2],
            "strategy": f"Let Bet Number 1 ride when the three cards are worth at least 0 "
            f"({ruleset.section('13(b)')}; {_riding_examples(options['main_table'])}); Bet Number "
            f"2 likewise on the four cards ({ruleset.section('13(d)')}); Bet Number 3 always.",
            "final_hands": [{"hand": _LABELS.get(line, "Less than a pair of tens"),
                             "combinations": count,
                             "probability": Fraction(count, FIVE_CARD_HANDS)}
                            for line, count in sorted(five_card_counts().items(),
                                                      key=lambda item: item[1])],
            "notes": [
                "House edge per unit of one bet; per unit of the three bets as placed it is a "
                "third of that (finance's handle); element of risk per unit riding to the end.",
            ],
        },  # fmt: skip
        "side_wagers": [three_card_sheet(t, r) for t, r in _three_card_choices()],
        "selected_side_wager": selected,
        "let_it_ride_bonus": bonus_sheet(options["let_it_ride_bonus_amounts"]),
        "let_it_ride_bonus_offered": bool(options["let_it_ride_bonus"]),
    }


def house_edges(ruleset: Any, options: Mapping[str, Any]) -> tuple[HouseEdge, ...]:
    """Finance's edges: Bets 1-3 per unit of the three as placed (a bet taken back
    is handle with the edge its withdrawal already counts), each bonus its sheet's."""
    game = main_game(options["main_table"])
    edges = [HouseEdge(handle=frozenset(lir.BETS), edge=game.per_initial_wager,
                       source="exact, optimal play, per unit of Bets 1-3 as placed "
                       f"({options['main_table']})")]  # fmt: skip
    table = options["three_card_bonus_table"]
    if table is None:
        edges.append(HouseEdge(handle=frozenset({lir.THREE_CARD_BONUS}), edge=Fraction(0),
                               source="not offered (559.9(a)): no handle"))  # fmt: skip
    else:
        reading = options["mini_royal_reading"] if table in "ABC" else None
        sheet = three_card_sheet(table, reading or "straight")
        edges.append(HouseEdge(handle=frozenset({lir.THREE_CARD_BONUS}), edge=sheet.house_edge,
                               source=f"exact over 22,100 hands, {sheet.wager} (559.14(e))"))
    bonus = bonus_sheet(options["let_it_ride_bonus_amounts"])
    edges.append(HouseEdge(handle=frozenset({lir.LIR_BONUS}), edge=bonus.house_edge,
                           source=f"exact over 2,598,960 hands, {bonus.wager}"))
    return tuple(edges)


def optimal(state: Any, seat: Any, step: Any, rng: Any) -> str:
    """§ 559.13(b), (d) under the strategy this sheet proves optimal."""
    table = state.options["main_table"]
    known = [card for card in seat.cards if card is not None]
    if step.name == "bet_2_decision":
        known.append(state.community[0])
        worth = four_card_sums(table)[_key_of(known)]
    else:
        worth = three_card_sum(_key_of(known), table)
    return "let_it_ride" if worth >= 0 else "withdraw"


def _key_of(cards: Sequence[Card]) -> Key:
    return tuple(sorted(card.rank for card in cards)), len({card.suit for card in cards}) == 1


#: The simulator plays the strategy this par sheet proves optimal.
STRATEGY = optimal
