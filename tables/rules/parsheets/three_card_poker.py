"""Three Card Poker par sheet (§ 565), exact: every figure is a count over the deck.

Everything about the game is read from its module
(:mod:`tables.rules.games.three_card_poker_565`): the pay tables, the Ante
bonus tables and their readings, :func:`hand_key` and :func:`pay` for what a
hand is paid, :func:`qualifies` for the dealer and :func:`compare` for who
wins. Nothing here restates a payout or a ranking.

* **Pair Plus** (§ 565.12(d)) and **the Ante bonus** (§ 565.12(e), (f)) depend
  on the player's three cards alone: the 22,100 hands are counted.
* **Ante and Play** (§ 565.11(b), § 565.12(a)-(c)) exactly under optimal play:
  for every player hand, playing is worth the Ante bonus plus the Ante and
  Play results against each of the C(49, 3) = 18,424 dealer hands left; folding
  is worth -1 Ante; the better is chosen. The dealer hands are never looped
  over: with ``G(S)`` the value of a group ``S`` of dealer hands held as a
  sorted list of strengths (a few bisections), the hands disjoint from
  ``P = {x, y, z}`` are by inclusion-exclusion
  ``G(all) - G(x) - G(y) - G(z) + G(xy) + G(xz) + G(yz) - G({P})``.
  Under ``tie_rule=literal`` (§ 565.6(c) read literally) hands of one category
  may compare otherwise than by strength; those dealer classes are corrected
  one by one, counted the same way.

Figures are per unit of Ante (house edge) and per unit wagered (element of
risk: Ante + Play when played). Pair Plus never changes the decision: every
hand it pays (a pair or better) is played, so a § 565.11(b) forfeit on a fold
never takes a winning Pair Plus and the wagers' figures simply add.

>>> game = ante_play()
>>> game.threshold, f"{float(game.house_edge):.4%}"
('Q-6-4', '3.3730%')
"""

from __future__ import annotations

import functools
from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations
from typing import Any

from tables.rules.cards import STANDARD_DECK, Card, Rank
from tables.rules.games import three_card_poker_565 as tcp
from tables.rules.hands import three_card_strength
from tables.rules.house_edge import HouseEdge
from tables.rules.parsheet import PayoutRow, WagerSheet

__all__ = [
    "AntePlay",
    "ante_bonus_sheet",
    "ante_play",
    "bonus_choices",
    "house_edges",
    "pair_plus_sheet",
    "parsheet",
    "value_of_playing",
]

HANDS = 22_100
DEALER_HANDS = 18_424  # C(49, 3)
_LABELS = {
    "MINI_ROYAL_SPADES": "Mini royal flush of spades (A-K-Q)",
    "MINI_ROYAL": "Mini royal flush (A-K-Q)",
    "STRAIGHT_FLUSH": "Straight flush",
    "THREE_OF_A_KIND": "Three-of-a-kind",
    "STRAIGHT": "Straight",
    "FLUSH": "Flush",
    "PAIR": "Pair",
}


@dataclass(frozen=True, slots=True)
class _Deck:
    """Every three-card hand with its strength, grouped for inclusion-exclusion."""

    hands: tuple[tuple[Card, Card, Card], ...]
    strengths: tuple[int, ...]
    keys: tuple[str, ...]
    every: list[int]  # sorted strengths of all hands
    by_card: dict[Card, list[int]]  # sorted strengths of the hands holding a card
    by_pair: dict[tuple[Card, Card], list[int]]  # ... holding both cards (deck order)
    qualifying: int  # lowest strength the dealer plays with (§ 565.12(a))
    example: dict[int, tuple[Card, Card, Card]]  # one hand of each strength
    index: dict[frozenset[Card], int]  # position of a hand in ``hands``


@functools.cache
def _deck() -> _Deck:
    hands = tuple(combinations(STANDARD_DECK, 3))
    strengths = tuple(three_card_strength(hand) for hand in hands)
    by_card: dict[Card, list[int]] = {card: [] for card in STANDARD_DECK}
    by_pair: dict[tuple[Card, Card], list[int]] = {}
    example: dict[int, tuple[Card, Card, Card]] = {}
    for hand, strength in zip(hands, strengths, strict=True):
        example.setdefault(strength, hand)
        for card in hand:
            by_card[card].append(strength)
        for pair in combinations(hand, 2):
            by_pair.setdefault(pair, []).append(strength)
    for group in (*by_card.values(), *by_pair.values()):
        group.sort()
    # The dealer's qualification must be a threshold of strength for the counting below.
    qualifying = min(s for s, hand in example.items() if tcp.qualifies(hand))
    assert all(tcp.qualifies(hand) == (s >= qualifying) for s, hand in example.items())
    return _Deck(hands=hands, strengths=strengths, keys=tuple(map(tcp.hand_key, hands)),
                 every=sorted(strengths), by_card=by_card, by_pair=by_pair,
                 qualifying=qualifying, example=example,
                 index={frozenset(hand): i for i, hand in enumerate(hands)})  # fmt: skip


def _group_value(group: Sequence[int], mine: int, qualifying: int) -> int:
    """Σ over dealer hands in ``group`` of the Ante + Play result when the player plays.

    Dealer below queen high: Ante 1 to 1, Play returned (+1, § 565.12(a)); else
    +2 if the player is higher (§ 565.12(b)), 0 on a tie (§ 565.12(c)), -2 if lower.
    """
    size, low = len(group), bisect_left(group, qualifying)
    if mine < qualifying:
        return low - 2 * (size - low)
    below, above = bisect_left(group, mine), size - bisect_right(group, mine)
    return low + 2 * (below - low) - 2 * above


def _count(group: Sequence[int], strength: int) -> int:
    return bisect_right(group, strength) - bisect_left(group, strength)


@functools.cache
def _literal_changes(mine: int) -> tuple[tuple[int, int], ...]:
    """(dealer strength, change of Ante + Play) where § 565.6(c) read literally
    decides otherwise than strength, the dealer qualifying."""
    deck = _deck()
    hand = deck.example[mine]
    changes = []
    for theirs, other in deck.example.items():
        if theirs < deck.qualifying:
            continue
        conventional = (mine > theirs) - (mine < theirs)
        literal = tcp.compare(hand, other, "literal")
        if literal != conventional:
            changes.append((theirs, 2 * (literal - conventional)))
    return tuple(changes)


@functools.cache
def _play_values(tie_rule: str) -> tuple[int, ...]:
    """Σ of Ante + Play over the 18,424 dealer hands, for each player hand (no bonus)."""
    deck = _deck()
    qualifying, every = deck.qualifying, deck.every
    values = []
    for hand, mine in zip(deck.hands, deck.strengths, strict=True):
        groups = [deck.by_pair[pair] for pair in combinations(hand, 2)]
        value = (
            _group_value(every, mine, qualifying)
            - sum(_group_value(deck.by_card[card], mine, qualifying) for card in hand)
            + sum(_group_value(group, mine, qualifying) for group in groups)
            - _group_value((mine,), mine, qualifying)
        )
        if tie_rule == "literal":
            for theirs, change in _literal_changes(mine):
                left = (
                    _count(every, theirs)
                    - sum(_count(deck.by_card[card], theirs) for card in hand)
                    + sum(_count(group, theirs) for group in groups)
                    - (theirs == mine)
                )
                value += left * change
        values.append(value)
    return tuple(values)


def value_of_playing(
    cards: Sequence[Card],
    ante_bonus_table: str = "base",
    reading: str | None = None,
    tie_rule: str = "conventional",
) -> Fraction:
    """What playing ``cards`` is worth per unit of Ante, bonus included (folding: -1)."""
    deck = _deck()
    index = deck.index[frozenset(cards)]
    odds = tcp.pay(tcp.ante_bonus(ante_bonus_table, reading), deck.keys[index])
    bonus = odds.ratio if odds is not None else Fraction(0)
    return Fraction(_play_values(tie_rule)[index], DEALER_HANDS) + bonus


def _ranks(hand: Sequence[Card]) -> str:
    names = {Rank.ACE: "A", Rank.KING: "K", Rank.QUEEN: "Q", Rank.JACK: "J", Rank.TEN: "10"}
    ranks = sorted((card.rank for card in hand), reverse=True)
    return "-".join(names.get(rank, str(int(rank))) for rank in ranks)


@dataclass(frozen=True, slots=True)
class AntePlay:
    """The Ante/Play game under optimal play, per unit of Ante."""

    expected_result: Fraction
    play_hands: int
    bonus_return: Fraction
    threshold: str  # the weakest hand played ("Q-6-4"): it and every stronger hand
    exceptions: int  # hands whose decision breaks the threshold (0: a pure threshold)
    near: tuple[tuple[str, int, Fraction, str], ...]  # (hand, hands, value of playing, decision)

    @property
    def house_edge(self) -> Fraction:
        """Per unit of Ante."""
        return -self.expected_result

    @property
    def play_frequency(self) -> Fraction:
        return Fraction(self.play_hands, HANDS)

    @property
    def average_wagered(self) -> Fraction:
        """Ante plus Play, per unit of Ante."""
        return 1 + self.play_frequency

    @property
    def element_of_risk(self) -> Fraction:
        """Per unit wagered (Ante and Play)."""
        return self.house_edge / self.average_wagered


@functools.cache
def ante_play(
    ante_bonus_table: str = "base", reading: str | None = None, tie_rule: str = "conventional"
) -> AntePlay:
    """The Ante/Play game exactly under optimal play (§ 565.11(b), § 565.12(a)-(c), (e), (f))."""
    deck = _deck()
    bonus = tcp.ante_bonus(ante_bonus_table, reading)
    # In units of 1/18,424 of an Ante: integers unless a bonus's odds have a denominator.
    scaled: dict[str, Fraction | int] = {}
    for key in set(deck.keys):
        odds = tcp.pay(bonus, key)
        extra = odds.ratio * DEALER_HANDS if odds is not None else Fraction(0)
        scaled[key] = extra.numerator if extra.denominator == 1 else extra
    fold = -DEALER_HANDS
    total: Fraction | int = 0
    bonus_total: Fraction | int = 0
    played = 0
    by_strength: dict[int, list[Fraction | int]] = {}
    for key, mine, value in zip(deck.keys, deck.strengths, _play_values(tie_rule), strict=True):
        play = value + scaled[key]
        by_strength.setdefault(mine, []).append(play)
        if play >= fold:  # a tie would not change the edge; played, as the table would see it
            total, played, bonus_total = total + play, played + 1, bonus_total + scaled[key]
        else:
            total += fold
    unit = HANDS * DEALER_HANDS
    weakest = min(s for s, plays in by_strength.items() if any(p >= fold for p in plays))
    exceptions = sum((p >= fold) != (s >= weakest) for s, plays in by_strength.items()
                     for p in plays)  # fmt: skip
    near = tuple(
        (_ranks(deck.example[s]), len(plays), Fraction(sum(plays), len(plays) * DEALER_HANDS),
         "play" if all(p >= fold for p in plays) else "fold")
        for s in range(weakest - 3, weakest + 3) if s in by_strength
        for plays in [by_strength[s]]
    )  # fmt: skip
    return AntePlay(expected_result=Fraction(total) / unit, play_hands=played,
                    bonus_return=Fraction(bonus_total) / unit,
                    threshold=_ranks(deck.example[weakest]), exceptions=exceptions,
                    near=near)  # fmt: skip


def _sheet(wager: str, section: str, table: Sequence[tuple[str, Any]], lose: Fraction,
           lose_label: str) -> WagerSheet:  # fmt: skip
    counts: Counter[str | None] = Counter()
    for key in _deck().keys:
        # The row is the first line the hand is on; settlement must pay that line's odds.
        line = next((name for name, odds in table if tcp.pay(((name, odds),), key)), None)
        assert tcp.pay(table, key) == (None if line is None else dict(table)[line])
        counts[line] += 1
    rows = [
        PayoutRow(label=_LABELS[line], odds=odds, combinations=counts[line],
                  probability=Fraction(counts[line], HANDS), net=odds.ratio)
        for line, odds in table
    ]  # fmt: skip
    rows.append(PayoutRow(label=lose_label, odds=None, combinations=counts[None],
                          probability=Fraction(counts[None], HANDS), net=lose))  # fmt: skip
    return WagerSheet(wager=wager, section=section, total=HANDS, rows=tuple(rows))


@functools.cache
def pair_plus_sheet(table: str) -> WagerSheet:
    """Pair Plus on pay table ``table`` (§ 565.12(d)), every hand counted."""
    return _sheet(f"Pair Plus {table}", "565.12(d)", tcp.PAY_TABLES[table], Fraction(-1),
                  "Less than a pair (loses)")  # fmt: skip


@functools.cache
def ante_bonus_sheet(table: str, reading: str | None = None) -> WagerSheet:
    """The Ante bonus per unit of Ante, paid on Ante and Play (§ 565.12(e), (f)).

    Its ``expected_result`` is the bonus's return (never negative: nothing is
    staked on it); every hand it pays is played under optimal play.
    """
    section = "565.12(e)" if table == "base" else "565.12(f)"
    name = "base" if table == "base" else f"{table}, reading {reading}"
    return _sheet(f"Ante bonus {name}", section, tcp.ante_bonus(table, reading), Fraction(0),
                  "Less than a straight (no bonus)")  # fmt: skip


def bonus_choices() -> tuple[tuple[str, str | None], ...]:
    """Every Ante bonus a rule set may choose: § 565.12(e), and each column of
    § 565.12(f) under each reading."""
    columns = ("A", "B", "C")
    return (("base", None), *((table, reading) for table in columns for reading in tcp.READINGS))


def parsheet(ruleset: Any, options: Mapping[str, Any]) -> dict[str, Any]:
    """The par sheet of a round under ``options`` (the game's declared options)."""
    table, reading = options["ante_bonus_table"], options["ante_bonus_reading"]
    if table != "base" and reading is None:
        raise ValueError(f"{ruleset.section('12(f)')}: ante_bonus_table={table} needs an "
                         "ante_bonus_reading (the text is garbled)")  # fmt: skip
    if table == "base":
        reading = None
    game = ante_play(table, reading, options["tie_rule"])
    return {
        "side_wagers": [pair_plus_sheet(name) for name in tcp.PAY_TABLES],
        "selected_side_wager": f"Pair Plus {options['pair_plus_table']}",
        "ante_bonus": [ante_bonus_sheet(*choice) for choice in bonus_choices()],
        "whole_game": {
            "title": "Ante and Play, optimal strategy - EXACT (every player hand against "
            "every dealer hand of the 49 cards left)",
            "per": "Ante",
            "house_edge": game.house_edge,
            "element_of_risk": game.element_of_risk,
            "play_frequency": game.play_frequency,
            "average_wagered": game.average_wagered,
            "ante_bonus_return": game.bonus_return,
            "strategy": f"Play {game.threshold} or better, fold the rest "
            f"({ruleset.section('11(b)')}); hands off the threshold: {game.exceptions}",
            "near_threshold": [
                {"hand": hand, "hands": count, "value_of_playing": value, "decision": decision}
                for hand, count, value, decision in game.near
            ],
            "notes": [
                "Per unit of Ante; element of risk per unit of Ante plus Play. Folding is "
                "worth -1; a hand is played when playing is worth at least that.",
                "Pair Plus is apart: every hand it pays is played, so a "
                f"{ruleset.section('11(b)')} forfeit on a fold never changes its figures.",
            ],
        },
        "by_ante_bonus": [
            {
                "ante_bonus": name,
                "house_edge": result.house_edge,
                "element_of_risk": result.element_of_risk,
                "play_frequency": result.play_frequency,
            }
            for name, result in (
                ("base" if t == "base" else f"{t}, {r}", ante_play(t, r, options["tie_rule"]))
                for t, r in bonus_choices()
            )
        ],  # fmt: skip
    }


def house_edges(ruleset: Any, options: Mapping[str, Any]) -> tuple[HouseEdge, ...]:
    """Finance's edges for rounds under ``options``, from this par sheet.

    The Ante carries the whole Ante/Play game's edge per unit of Ante (the Play
    Wager is a decision inside it, § 565.11(b), and the Ante bonus a payout on
    it); the Play Wager is handle with no edge of its own, so theoretical win is
    Ante × edge whatever the players' play rate. Pair Plus has its table's edge.
    """
    table = options["ante_bonus_table"]
    reading = None if table == "base" else options["ante_bonus_reading"]
    game = ante_play(table, reading, options["tie_rule"])
    bonus = "565.12(e)" if table == "base" else f"565.12(f) table {table}, {reading}"
    pair_plus = options["pair_plus_table"]
    return (
        HouseEdge(handle=frozenset({tcp.ANTE}), edge=game.house_edge,
                  source=f"exact, optimal play (play {game.threshold} or better), per Ante, "
                  f"Ante bonus {bonus}, tie rule {options['tie_rule']}"),
        HouseEdge(handle=frozenset({tcp.PLAY}), edge=Fraction(0),
                  source="inside the Ante's edge: a decision (565.11(b))"),
        HouseEdge(handle=frozenset({tcp.PAIR_PLUS}), edge=pair_plus_sheet(pair_plus).house_edge,
                  source=f"exact over 22,100 hands, pay table {pair_plus} (565.12(d))"),
    )  # fmt: skip


_QUEEN_SIX_FOUR = three_card_strength((Card.parse("Qc"), Card.parse("6d"), Card.parse("4h")))


def queen_six_four(state: Any, seat: Any, step: Any, rng: Any) -> str:
    """§ 565.11(b) under the strategy this sheet proves optimal: play Q-6-4 or better."""
    cards = [card for card in seat.cards if card is not None]
    return "play" if three_card_strength(cards) >= _QUEEN_SIX_FOUR else "fold"


#: The simulator plays the strategy this par sheet proves optimal.
STRATEGY = queen_six_four
