"""Raise It Up Stud Poker par sheet (§ 587).

Hands and pay tables are read from :mod:`tables.rules.games._raise_it_up`, the
progressive's schedule from :mod:`tables.rules.progressives.chapters`.

* **Pair Plus** (§ 587.12(a)) and **the Progressive Payout Wager**
  (§ 587.12(e)(1)) depend on the player's three cards: EXACT over the 22,100
  hands. The progressive chip is taken at "no more bets" (§ 587.8(b)): a "for 1"
  line pays its multiple and nothing more, so the return per unit wagered is
  ``a + b·M`` (``b`` the chance of the ace, king and queen of spades, paid the
  whole meter ``M``), breaking even at ``M = (w - fixed) / b``. Envy Bonuses
  depend on the other players' hands; their value per other player is given.
* **Six Card Bonus** (§ 587.12(f)) depends on the best five of six cards: EXACT
  over the 20,358,520 six-card hands, counted by rank pattern and the suit
  assignments that make a flush (five or six of one suit).
* **Ante, Blind and Play** under a stated strategy, SIMULATED (95 % interval).

The strategy (stated, not proved optimal, chosen among a few by simulation):
before 4th Street play 3 times the Ante with a pair or better, three suited
cards or three cards of 10 or higher; before 5th Street 2 times with a pair;
before sixth Street once with a pair, four to a flush, four to an open
straight or four cards of 10 or higher, else fold.

>>> six_card_counts()["ROYAL_FLUSH"], sum(six_card_counts().values())
(188, 20358520)
"""

from __future__ import annotations

import functools
import itertools
import math
import random
from collections import Counter
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from tables.rules.cards import STANDARD_DECK, Card, Rank
from tables.rules.games import _raise_it_up as riu
from tables.rules.house_edge import HouseEdge
from tables.rules.money import MeterShare, Odds
from tables.rules.parsheet import PayoutRow, SimulationResult, WagerSheet
from tables.rules.progressives.chapters import RAISE_IT_UP_587, ForOne
from tables.rules.progressives.envy import ENVY_587

__all__ = ["six_card_counts", "three_card_counts", "pair_plus", "six_card_bonus", "progressive",
           "decide", "simulate", "parsheet", "house_edges", "STRATEGY", "SIMULATED"]  # fmt: skip

THREE_CARD_HANDS, SIX_CARD_HANDS = 22_100, 20_358_520
ROUNDS, SEED = 200_000, 1
#: The default run (``manage.py parsheet raise_it_up_stud_poker --json``): house edge
#: per Ante and its 95 % half-width.
SIMULATED = (Fraction(34_887, 400_000), Fraction(26_808_655, 10**9))  # 8.72 % ± 2.68 %


@functools.cache
def three_card_counts(ace_low: bool = False) -> Mapping[str, int]:
    """Every three-card hand by its § 587.6(c) hand and by its progressive line."""
    counts: Counter[str] = Counter()
    for cards in itertools.combinations(STANDARD_DECK, 3):
        counts[f"pair_plus:{riu.three_card_key(cards, ace_low)}"] += 1
        counts[f"progressive:{riu.progressive_key(cards, ace_low)}"] += 1
    return counts


def _straight_high(ranks: set[int]) -> int | None:
    """The highest five-card straight among distinct ``ranks`` (an ace also low, § 587.6(a))."""
    ranks = ranks | {1} if 14 in ranks else ranks
    return next((high for high in range(14, 4, -1) if set(range(high - 4, high + 1)) <= ranks),
                None)  # fmt: skip


def _suited(ranks: Sequence[int]) -> str:
    high = _straight_high(set(ranks))
    return "FLUSH" if high is None else "ROYAL_FLUSH" if high == 14 else "STRAIGHT_FLUSH"


_BY_COUNTS = {(4, 2): "FOUR_OF_A_KIND", (4, 1, 1): "FOUR_OF_A_KIND", (3, 3): "FULL_HOUSE",
              (3, 2, 1): "FULL_HOUSE", (3, 1, 1, 1): "THREE_OF_A_KIND", (2, 2, 2): "TWO_PAIR",
              (2, 2, 1, 1): "TWO_PAIR"}  # fmt: skip


@functools.cache
def six_card_counts() -> Mapping[str, int]:
    """Six-card hands by their best five (§ 587.6(b)); a pair split at 10s (§ 587.7(d)(1))."""
    counts: Counter[str] = Counter()
    for multiset in itertools.combinations_with_replacement(range(2, 15), 6):
        held = Counter(multiset)
        shape = tuple(sorted(held.values(), reverse=True))
        if shape[0] > 4:
            continue
        ways = math.prod(math.comb(4, count) for count in held.values())
        distinct = sorted(held)
        if shape == (1,) * 6:  # six of one suit (4 ways) or five (6 × 4 × 3 ways)
            counts[_suited(distinct)] += 4
            for odd in distinct:
                counts[_suited([rank for rank in distinct if rank != odd])] += 12
            flushes = 4 + 72
        elif shape == (2, 1, 1, 1, 1):  # five distinct suited, the pair's other card not
            counts[_suited(distinct)] += 12
            flushes = 12
        else:
            flushes = 0
        if len(distinct) >= 5 and _straight_high(set(distinct)) is not None:
            key = "STRAIGHT"
        elif shape in _BY_COUNTS:
            key = _BY_COUNTS[shape]
        elif shape[0] == 2:
            pair = next(rank for rank, count in held.items() if count == 2)
            key = "PAIR_OF_TENS_OR_BETTER" if pair >= Rank.TEN else "PAIR_BELOW_TENS"
        else:
            key = "HIGH_CARD"
        counts[key] += ways - flushes
    return counts


def _sheet(wager: str, section: str, table: Mapping[str, Odds], counts: Mapping[str, int],
           total: int) -> WagerSheet:  # fmt: skip
    rows = [PayoutRow(label=key, odds=odds, combinations=counts.get(key, 0),
                      probability=Fraction(counts.get(key, 0), total), net=odds.ratio)
            for key, odds in table.items()]  # fmt: skip
    lost = total - sum(row.combinations for row in rows)
    rows.append(PayoutRow(label="loses", odds=None, combinations=lost,
                          probability=Fraction(lost, total), net=Fraction(-1)))  # fmt: skip
    return WagerSheet(wager=wager, section=section, total=total, rows=tuple(rows))


def pair_plus(table: str, ace_low: bool = False) -> WagerSheet:
    counts = {key.partition(":")[2]: n for key, n in three_card_counts(ace_low).items()
              if key.startswith("pair_plus:")}  # fmt: skip
    return _sheet(f"Pair Plus, Paytable {table}", "587.12(a)", riu.PAIR_PLUS_TABLES[table],
                  counts, THREE_CARD_HANDS)  # fmt: skip


def six_card_bonus(table: str) -> WagerSheet:
    return _sheet(f"Six Card Bonus, Paytable {table}", "587.12(f)", riu.SIX_CARD_TABLES[table],
                  six_card_counts(), SIX_CARD_HANDS)  # fmt: skip


def progressive(wager_cents: int = 100, ace_low: bool = False) -> dict[str, Any]:
    """The wager's exact return as a function of the meter, its break-even meter, the
    house's hold at the chapter's least rate (14 %, § 587.12(e)(3)) and the Envy value."""
    counts = three_card_counts(ace_low)
    fixed, slope, hit = Fraction(0), Fraction(0), Fraction(0)
    rows: list[dict[str, Any]] = []
    for line in RAISE_IT_UP_587.schedule:
        chance = Fraction(counts[f"progressive:{line.hand}"], THREE_CARD_HANDS)
        hit += chance
        if isinstance(line.pays, ForOne):
            fixed += chance * line.pays.on(wager_cents)
        elif isinstance(line.pays, MeterShare):
            slope += chance * line.pays.share
        rows.append({"hand": line.label, "pays": str(line.pays),
                     "combinations": counts[f"progressive:{line.hand}"], "probability": chance})
    exact = (wager_cents - fixed) / slope
    rate = RAISE_IT_UP_587.minimum_rate
    assert rate is not None
    envy = sum((Fraction(counts[f"progressive:{hand}"], THREE_CARD_HANDS) * amount
                for hand, amount in ENVY_587[wager_cents].items()), Fraction(0))  # fmt: skip
    return {
        "schedule": f"587.12(e)(1), ${wager_cents // 100} wager", "wager_cents": wager_cents,
        "rows": rows, "hit_frequency": hit,
        "fixed_return_cents": fixed,
        "meter_weight": slope, "break_even_meter_cents": -(-exact.numerator // exact.denominator),
        "return_at": [{"meter": f"${cents // 100:,}",
                       "expected_result": (fixed + slope * cents - wager_cents) / wager_cents}
                      for cents in (100_000, 1_000_000, 5_000_000)],
        "house_hold_at_minimum_rate": 1 - rate - fixed / wager_cents,
        "envy_cents_per_other_player": envy,
    }  # fmt: skip


def _paired(cards: Sequence[Card]) -> bool:
    return len({card.rank for card in cards}) < len(cards)


def _draws(cards: Sequence[Card]) -> bool:
    """One card to come, a chance above 1 in 5 to reach a pair of 10s or better: any
    pair, four to a flush, four to an open straight or four cards of 10 or higher."""
    ranks = {int(card.rank) for card in cards}
    open_four = any({low, low + 1, low + 2, low + 3} <= ranks for low in range(3, 11))
    flush = max(Counter(card.suit for card in cards).values()) >= 4
    high = sum(1 for card in cards if card.rank >= Rank.TEN) >= 4
    return len(ranks) < len(cards) or flush or open_four or high


def decide(step: str, cards: Sequence[Card], shown: Sequence[Card]) -> str:
    """The stated strategy at § 587.11(b), (d) or (f), from the player's cards and the
    community cards shown."""
    held = [*cards, *shown]
    if step == "first_decision":
        suited = len({card.suit for card in held}) == 1
        high = all(card.rank >= Rank.TEN for card in held)
        return "play" if _paired(held) or suited or high else "check"
    if step == "second_decision":
        return "play" if _paired(held) else "check"
    return "play" if _draws(held) else "fold"


def stated(state: Any, seat: Any, step: Any, rng: Any) -> str:
    shown = [card for card, up in zip(state.community, state.community_exposed, strict=True)
             if up and card is not None]  # fmt: skip
    return decide(step.name, [card for card in seat.cards if card is not None], shown)


#: The simulator plays the strategy this par sheet states.
STRATEGY = stated
_MULTIPLES = {"first_decision": 3, "second_decision": 2, "third_decision": 1}


def simulate(rounds: int = ROUNDS, seed: int = SEED) -> SimulationResult:
    """Ante, Blind and Play under the stated strategy, in half-units of the Ante."""
    rng, deck = random.Random(seed), list(STANDARD_DECK)
    net = net_squares = wagered = wagered_squares = cross = 0
    decided: Counter[str] = Counter()
    for _ in range(rounds):
        dealt = rng.sample(deck, 6)
        cards, board = dealt[:3], dealt[3:]
        multiple = 0
        for shown, step in enumerate(_MULTIPLES):
            choice = decide(step, cards, board[:shown])
            if choice != "check":
                multiple = _MULTIPLES[step] if choice == "play" else 0
                decided[f"{step}:{choice}"] += 1
                break
        if multiple == 0:
            total, staked = -4, 4
        else:
            key, staked = riu.main_key(dealt), 2 * (2 + multiple)
            if key is None:
                total = -staked
            else:
                blind = riu.BLIND_TABLE.get(key)
                total = 2 + int(2 * multiple * riu.PLAY_TABLE[key].ratio) + (
                    int(2 * blind.ratio) if blind is not None else 0)  # fmt: skip
        net, net_squares = net + total, net_squares + total * total
        wagered, wagered_squares = wagered + staked, wagered_squares + staked * staked
        cross += total * staked
    return SimulationResult(rounds=rounds, initial_per_round=1, scale=2, net=net,
                            net_squares=net_squares, wagered=wagered,
                            wagered_squares=wagered_squares, cross=cross,
                            multiples=tuple(sorted(decided.items())))  # fmt: skip


def parsheet(ruleset: Any, options: Mapping[str, Any]) -> dict[str, Any]:
    """The par sheet of a round under ``options`` (the game's declared options)."""
    game, ace_low = simulate(), options["ace_low_three_card_straight"]
    return {
        "exact": False,
        "side_wagers": [pair_plus(table, ace_low) for table in riu.PAIR_PLUS_TABLES]
        + [six_card_bonus(table) for table in riu.SIX_CARD_TABLES],
        "progressive": [progressive(cents, ace_low) for cents in riu.PROGRESSIVE_AMOUNTS],
        "whole_game": {
            "title": f"Ante, Blind and Play, stated strategy - SIMULATED ({ROUNDS:,} rounds, "
            f"seed {SEED}; 95 % confidence intervals)",
            "per": "Ante",
            "house_edge": game.house_edge,
            "house_edge_half_width": game.house_edge_half_width,
            "element_of_risk": game.element_of_risk,
            "element_of_risk_half_width": game.element_of_risk_half_width,
            "average_wagered": Fraction(game.wagered, game.rounds * game.scale),
            "decisions": {name: Fraction(count, game.rounds) for name, count in game.multiples},
            "strategy": "3 x the Ante with a pair, three suited or three cards of 10 or higher; "
            "2 x with a pair; 1 x with a pair, four to a flush or an open straight or four "
            "cards of 10 or higher, else fold "
            f"({ruleset.section('11(b)')}, (d), (f)); not proved optimal",
        },
    }


def house_edges(ruleset: Any, options: Mapping[str, Any]) -> tuple[HouseEdge, ...]:
    """Finance's edges: the Ante carries the Ante/Blind/Play game; the side wagers exact; the
    progressive's hold at the chapter's least rate (the meter's share is its liability)."""
    edge, half = SIMULATED
    edges = [
        HouseEdge(handle=frozenset({riu.ANTE}), edge=edge, half_width=half,
                  source=f"simulated, stated strategy, {ROUNDS:,} rounds, seed {SEED}, per Ante"),
        HouseEdge(handle=frozenset({riu.BLIND, *riu.PLAYS}), edge=Fraction(0),
                  source="inside the Ante's edge: the Blind equals it, the Play is a decision"),
        HouseEdge(handle=frozenset({riu.PROGRESSIVE}),
                  edge=progressive()["house_hold_at_minimum_rate"],
                  source="exact over 22,100 hands, $1 wager, 14 % rate (587.12(e)(3))"),
    ]  # fmt: skip
    for wager, sheet in ((riu.PAIR_PLUS, pair_plus(options["pair_plus_table"] or "A")),
                         (riu.SIX_CARD, six_card_bonus(options["six_card_bonus_table"] or "A"))):
        edges.append(HouseEdge(handle=frozenset({wager}), edge=sheet.house_edge,
                               source=f"exact, {sheet.wager}"))  # fmt: skip
    return tuple(edges)
