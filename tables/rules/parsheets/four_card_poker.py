"""Four Card Poker par sheet (§ 557).

Everything about the game is read from its module
(:mod:`tables.rules.games.four_card_poker_557`): the pay tables, :func:`aces_up_key`,
:func:`pay` and :func:`compare`.

* **Aces Up** (§ 557.12(a)(3)), each of Tables I-VII, and **the Ante bonus**
  (§ 557.12(a)(2)) depend on the player's five cards alone: EXACT, the best four
  of every one of the 2,598,960 five-card hands.
* **Ante and Play** (§ 557.11(c), § 557.12(a)(1)-(2)) under a stated strategy,
  SIMULATED: an exact count would value each of 2,598,960 player hands against
  the 10,737,573 dealer hands of six of the 47 cards left, beyond minutes in
  pure Python. Each simulated player hand is played against ``DEALERS`` dealer
  hands drawn from the cards left; a hand's mean is one observation, so the
  95 % confidence interval is exact for the clustered sample. Finance reads the
  figures of the default run, kept below (``house_edges``), and a test checks
  them against a fresh, shorter run.

The strategy (stated, not proved optimal): Play Wager of 3 × the Ante with a
pair of 10s or better, 1 × with a pair of 3s to 9s, fold anything less.
"""

from __future__ import annotations

import functools
import random
from collections import Counter
from collections.abc import Mapping, Sequence
from fractions import Fraction
from itertools import combinations
from typing import Any

from tables.rules.cards import STANDARD_DECK, Card
from tables.rules.games import four_card_poker_557 as fcp
from tables.rules.hands import (
    _FOUR_CARD_CODES,
    _FOUR_CARD_HANDS,
    _FOUR_CARD_MASK,
    _FOUR_CARD_STRENGTH,
    best_four_of,
)
from tables.rules.house_edge import HouseEdge
from tables.rules.parsheet import PayoutRow, SimulationResult, WagerSheet

__all__ = ["aces_up_sheet", "ante_bonus_sheet", "simulate", "parsheet", "house_edges",
           "multiple", "STRATEGY", "ROUNDS", "DEALERS", "SEED"]  # fmt: skip

HANDS = 2_598_960
ROUNDS, DEALERS, SEED = 500_000, 4, 1
_LABELS = {
    "FOUR_OF_A_KIND": "Four-of-a-kind", "STRAIGHT_FLUSH": "Straight flush",
    "THREE_OF_A_KIND": "Three-of-a-kind", "FLUSH": "Flush", "STRAIGHT": "Straight",
    "TWO_PAIR": "Two pair", "PAIR_OF_ACES": "Pair of aces",
}  # fmt: skip
#: The default run (``manage.py parsheet four_card_poker --ruleset PA-557-2010 --json``,
#: per tie rule): house edge per Ante and its 95 % half-width, as exact fractions.
SIMULATED: dict[str, tuple[Fraction, Fraction]] = {
    "conventional": (Fraction(13_321, 500_000), Fraction(5_547_132, 10**9)),  # 2.66 % ± 0.55 %
    "literal": (Fraction(76_601, 500_000), Fraction(5_593_307, 10**9)),  # 15.32 % ± 0.56 %
}


@functools.cache
def _best_of_five_counts() -> tuple[int, ...]:
    """How many of the 2,598,960 five-card hands have each best-four strength."""
    codes, table, mask = _FOUR_CARD_CODES, _FOUR_CARD_STRENGTH, _FOUR_CARD_MASK
    counts = [0] * len(_FOUR_CARD_HANDS)
    for i in range(48):
        a = codes[i]
        for j in range(i + 1, 49):
            ab = a + codes[j]
            for k in range(j + 1, 50):
                abc = ab + codes[k]
                for m in range(k + 1, 51):
                    abcd = abc + codes[m]
                    for e in codes[m + 1 :]:
                        total = abcd + e
                        best = table[abcd & mask]
                        for drop in (a, codes[j], codes[k], codes[m]):
                            strength = table[(total - drop) & mask]
                            if strength > best:
                                best = strength
                        counts[best] += 1
    return tuple(counts)


def _sheet(wager: str, section: str, table: Sequence[tuple[str, Any]], key: Any,
           lose: Fraction, lose_label: str) -> WagerSheet:  # fmt: skip
    counts: Counter[str | None] = Counter()
    for strength, count in enumerate(_best_of_five_counts()):
        if count:
            counts[key(_FOUR_CARD_HANDS[strength])] += count
    rows = [PayoutRow(label=_LABELS[line], odds=odds, combinations=counts[line],
                      probability=Fraction(counts[line], HANDS), net=odds.ratio)
            for line, odds in table]  # fmt: skip
    losing = HANDS - sum(row.combinations for row in rows)
    rows.append(PayoutRow(label=lose_label, odds=None, combinations=losing,
                          probability=Fraction(losing, HANDS), net=lose))  # fmt: skip
    return WagerSheet(wager=wager, section=section, total=HANDS, rows=tuple(rows))


@functools.cache
def aces_up_sheet(table: str) -> WagerSheet:
    """Aces Up on Table ``table`` (§ 557.12(a)(3)), the best four of every five-card hand."""
    return _sheet(f"Aces Up Table {table}", "557.12(a)(3)", fcp.ACES_UP_TABLES[table],
                  fcp.aces_up_key, Fraction(-1), "Less than a pair of aces (loses)")  # fmt: skip


@functools.cache
def ante_bonus_sheet(table: str) -> WagerSheet:
    """The Ante bonus per unit of Ante (§ 557.12(a)(2)); never negative: nothing is staked."""
    lines = fcp.ANTE_BONUS_TABLES[table]
    return _sheet(f"Ante bonus {table}", "557.12(a)(2)", lines,
                  lambda hand: hand.category.name if fcp.pay(lines, hand.category.name) else None,
                  Fraction(0), "Less than three-of-a-kind (no bonus)")  # fmt: skip


_TEN_PAIR = best_four_of([Card.parse(text) for text in ("Ts", "Td", "2c", "3h")]).strength
_THREE_PAIR = best_four_of([Card.parse(text) for text in ("3s", "3d", "2c", "4h")]).strength


def multiple(strength: int) -> int:
    """The stated strategy: the Play Wager's multiple of the Ante (0: fold, § 557.11(c))."""
    return 3 if strength >= _TEN_PAIR else 1 if strength >= _THREE_PAIR else 0


@functools.cache
def _examples() -> dict[int, tuple[Card, ...]]:
    found: dict[int, tuple[Card, ...]] = {}
    for four in combinations(STANDARD_DECK, 4):
        found.setdefault(best_four_of(four).strength, four)
    return found


@functools.cache
def _result(mine: int, theirs: int, tie_rule: str) -> int:
    """The module's comparison of two hands of these strengths (1, 0 or -1)."""
    if tie_rule == "conventional":
        return (mine > theirs) - (mine < theirs)
    examples = _examples()
    return fcp.compare(examples[mine], examples[theirs], tie_rule)


def simulate(rounds: int = ROUNDS, seed: int = SEED, tie_rule: str = "conventional",
             bonus_table: str = "557.12(a)(2) minimum") -> SimulationResult:  # fmt: skip
    """Ante and Play under the stated strategy, per unit of Ante, ``DEALERS`` dealers a hand."""
    rng = random.Random(seed)
    codes, table, mask = _FOUR_CARD_CODES, _FOUR_CARD_STRENGTH, _FOUR_CARD_MASK
    bonus_lines = fcp.ANTE_BONUS_TABLES[bonus_table]
    bonus = {s: int(odds.ratio) if (odds := fcp.pay(bonus_lines, h.category.name)) else 0
             for s, h in enumerate(_FOUR_CARD_HANDS)}  # fmt: skip
    net = net_squares = wagered = wagered_squares = cross = 0
    plays: Counter[str] = Counter()
    deck = list(range(52))
    for _ in range(rounds):
        cards = rng.sample(deck, 5)
        mine = max(table[sum(codes[c] for c in four) & mask] for four in combinations(cards, 4))
        times = multiple(mine)
        plays[{0: "fold", 1: "1x", 3: "3x"}[times]] += 1
        if not times:
            total, staked = -DEALERS, DEALERS
        else:
            left = [card for card in deck if card not in cards]
            total, staked = 0, (1 + times) * DEALERS
            for _ in range(DEALERS):
                dealer = [codes[c] for c in rng.sample(left, 6)]
                theirs = max(table[(a + b + c + d) & mask]
                             for a, b, c, d in combinations(dealer, 4))  # fmt: skip
                won = _result(mine, theirs, tie_rule) >= 0  # § 557.12(a)(1): a tie wins
                total += (1 + times) * (1 if won else -1) + bonus[mine]
        net, net_squares = net + total, net_squares + total * total
        wagered, wagered_squares = wagered + staked, wagered_squares + staked * staked
        cross += total * staked
    return SimulationResult(rounds=rounds, initial_per_round=1, scale=DEALERS, net=net,
                            net_squares=net_squares, wagered=wagered,
                            wagered_squares=wagered_squares, cross=cross,
                            multiples=tuple(sorted(plays.items())))  # fmt: skip


def parsheet(ruleset: Any, options: Mapping[str, Any]) -> dict[str, Any]:
    """The par sheet of a round under ``options`` (the game's declared options)."""
    game = simulate(ROUNDS, SEED, options["tie_rule"], options["ante_bonus_table"])
    return {
        "exact": False,
        "side_wagers": [aces_up_sheet(table) for table in fcp.ACES_UP_TABLES],
        "selected_side_wager": f"Aces Up Table {options['aces_up_table']}",
        "ante_bonus": [ante_bonus_sheet(table) for table in fcp.ANTE_BONUS_TABLES],
        "whole_game": {
            "title": f"Ante and Play, stated strategy - SIMULATED ({ROUNDS:,} player hands, "
            f"{DEALERS} dealer hands each, seed {SEED}; 95 % confidence intervals)",
            "per": "Ante",
            "house_edge": game.house_edge,
            "house_edge_half_width": game.house_edge_half_width,
            "element_of_risk": game.element_of_risk,
            "element_of_risk_half_width": game.element_of_risk_half_width,
            "average_wagered": Fraction(game.wagered, game.rounds * game.scale),
            "decisions": {name: Fraction(count, game.rounds) for name, count in game.multiples},
            "strategy": "Play Wager 3 x the Ante with a pair of 10s or better, 1 x with a pair of "
            f"3s to 9s, fold the rest ({ruleset.section('11(c)')}); not proved optimal",
            "tie_rule": options["tie_rule"],
            "notes": [
                "Per unit of Ante, the Ante bonus included; a tie wins for the player "
                f"({ruleset.section('12(a)(1)')}). Element of risk per unit of Ante plus Play.",
            ],
        },
    }


def house_edges(ruleset: Any, options: Mapping[str, Any]) -> tuple[HouseEdge, ...]:
    """Finance's edges: the Ante carries the whole Ante/Play game (the Play Wager is a
    decision inside it, § 557.11(c)); Aces Up has its table's exact edge."""
    edge, half = SIMULATED[options["tie_rule"]]
    table = options["aces_up_table"]
    return (
        HouseEdge(handle=frozenset({fcp.ANTE}), edge=edge, half_width=half,
                  source=f"simulated, stated strategy, {ROUNDS:,} hands x {DEALERS} dealers, "
                  f"seed {SEED}, per Ante, tie rule {options['tie_rule']}"),
        HouseEdge(handle=frozenset({fcp.PLAY}), edge=Fraction(0),
                  source="inside the Ante's edge: a decision (557.11(c))"),
        HouseEdge(handle=frozenset({fcp.ACES_UP}), edge=aces_up_sheet(table).house_edge,
                  source=f"exact over 2,598,960 hands, Aces Up Table {table} (557.12(a)(3))"),
    )  # fmt: skip


def stated(state: Any, seat: Any, step: Any, rng: Any) -> str:
    """§ 557.11(c) under the stated strategy (the simulator chooses the multiple)."""
    cards = [card for card in seat.cards if card is not None]
    return "play" if multiple(best_four_of(cards).strength) else "fold"


#: The simulator plays the strategy this par sheet states.
STRATEGY = stated
