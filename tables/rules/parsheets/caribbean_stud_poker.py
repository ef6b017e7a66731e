"""Caribbean Stud Poker par sheet (§ 555).

Everything about the game is read from its module
(:mod:`tables.rules.games.caribbean_stud_555`): the Bet table, :func:`qualifies`,
:func:`progressive_hand`; and the progressive's schedule from
:mod:`tables.rules.progressives.chapters`.

* **The progressive payout wager** (§ 555.7(c), § 555.13(d)) depends on the
  player's five cards alone: EXACT over the 2,598,960 hands, as a function of
  the meter amount ``M``. The $1 chip is taken into the table inventory
  container at "no more bets" (§ 555.8(b)), so a winner receives the amount and
  nets it less $1. The return per $1 is ``a + b·M`` with ``b`` the chance of a
  hand paid a share of the meter; it breaks even at ``M = -a / b``. Several
  royal flushes at one table sharing the meter (§ 555.13(f)) are ignored: they
  change the figures by less than one part in a million.
* **Ante and Bet** (§ 555.11, § 555.13(b)-(c)) under a stated strategy,
  SIMULATED: an exact count would value each of 2,598,960 player hands against
  the 1,533,939 dealer hands of the 47 cards left. Each simulated player hand
  meets ``DEALERS`` dealer hands drawn from the cards left; a hand's mean is one
  observation. Finance reads the default run's figures (``SIMULATED``); a test
  checks them against a fresh, shorter run.

The strategy (stated, not proved optimal): Bet with a pair or better or with
an ace and a king; fold the rest.

>>> sheet = progressive_sheet(straight_flush_at_ten_percent=False)
>>> sheet.break_even_cents
36929000
>>> f"{float(sheet.expected_result(100_000_00)):.4%}"
'-41.4458%'
"""

from __future__ import annotations

import functools
import random
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from tables.rules.cards import STANDARD_DECK, Rank, parse_cards
from tables.rules.games import caribbean_stud_555 as csp
from tables.rules.hands import FiveCardCategory as F
from tables.rules.hands import evaluate_five, five_card_strength
from tables.rules.house_edge import HouseEdge
from tables.rules.money import Fixed, MeterShare
from tables.rules.parsheet import SimulationResult, five_card_category_counts
from tables.rules.progressives.chapters import CARIBBEAN_STUD_555, caribbean_stud_schedule

__all__ = ["ProgressiveRow", "ProgressiveSheet", "progressive_sheet", "simulate", "bets",
           "parsheet", "house_edges", "STRATEGY", "ROUNDS", "DEALERS", "SEED",
           "SIMULATED"]  # fmt: skip

HANDS = 2_598_960
ROUNDS, DEALERS, SEED = 300_000, 4, 1
#: The default run (``manage.py parsheet caribbean_stud_poker --json``, per tie rule):
#: house edge per Ante and its 95 % half-width, as exact fractions.
SIMULATED: dict[str, tuple[Fraction, Fraction]] = {
    "conventional": (Fraction(64_471, 1_200_000), Fraction(6_262_310, 10**9)),  # 5.37 % ± 0.63 %
    "literal": (Fraction(21_143, 400_000), Fraction(6_262_506, 10**9)),  # 5.29 % ± 0.63 %
}


@dataclass(frozen=True, slots=True, kw_only=True)
class ProgressiveRow:
    """One line of the progressive schedule and how many five-card hands it pays."""

    hand: str
    label: str
    pays: str
    combinations: int
    probability: Fraction
    #: Cents paid by the house on this line (0 for a share of the meter).
    fixed_cents: int
    #: The share of the meter paid on this line (0 for a fixed amount).
    meter_share: Fraction


@dataclass(frozen=True, slots=True, kw_only=True)
class ProgressiveSheet:
    """The $1 progressive wager's exact return as a function of the meter amount."""

    schedule: str
    wager_cents: int
    rows: tuple[ProgressiveRow, ...]

    @property
    def hit_frequency(self) -> Fraction:
        """The chance that a hand is paid anything."""
        return sum((row.probability for row in self.rows), Fraction(0))

    @property
    def fixed_return(self) -> Fraction:
        """Expected cents paid per wager by fixed lines (the house's payouts)."""
        return sum((row.probability * row.fixed_cents for row in self.rows), Fraction(0))

    @property
    def meter_weight(self) -> Fraction:
        """Expected share of the meter paid per wager (the slope ``b``)."""
        return sum((row.probability * row.meter_share for row in self.rows), Fraction(0))

    def expected_result(self, meter_cents: int) -> Fraction:
        """The player's expected result per unit wagered with the meter at ``meter_cents``."""
        paid = self.fixed_return + self.meter_weight * meter_cents
        return (paid - self.wager_cents) / self.wager_cents

    @property
    def break_even_cents(self) -> int:
        """The least meter amount (whole cents) at which the wager returns at least 0."""
        exact = (self.wager_cents - self.fixed_return) / self.meter_weight
        return -(-exact.numerator // exact.denominator)

    def house_hold(self, rate: Fraction) -> Fraction:
        """The house's expected hold per unit wagered when ``rate`` of each wager goes to
        the meter (§ 555.13(e)): it keeps the wager less the contribution and the fixed
        lines; the meter pays its shares out of the contributions (before the seed of a
        reset, which the house funds)."""
        return 1 - rate - self.fixed_return / self.wager_cents


@functools.cache
def _category_counts() -> Mapping[str, int]:
    counts: Counter[str] = Counter()
    for (category, _), count in five_card_category_counts().items():
        counts[category.name] += count
    return counts


@functools.cache
def progressive_sheet(*, straight_flush_at_ten_percent: bool) -> ProgressiveSheet:
    """§ 555.13(d)'s least schedule, the straight flush at 10 % of the meter or $5,000."""
    counts, rows = _category_counts(), []
    schedule = caribbean_stud_schedule(straight_flush_at_ten_percent=straight_flush_at_ten_percent)
    for line in schedule:
        count = counts[line.hand]
        pays = line.pays
        rows.append(ProgressiveRow(
            hand=line.hand, label=line.label, pays=str(pays), combinations=count,
            probability=Fraction(count, HANDS),
            fixed_cents=pays.cents if isinstance(pays, Fixed) else 0,
            meter_share=pays.share if isinstance(pays, MeterShare) else Fraction(0)))  # fmt: skip
    name = "straight flush 10% of the meter" if straight_flush_at_ten_percent else (
        "straight flush $5,000")  # fmt: skip
    return ProgressiveSheet(schedule=f"555.13(d) minimum, {name}",
                            wager_cents=csp.PROGRESSIVE_CENTS, rows=tuple(rows))  # fmt: skip


def bets(strength: int, ranks: frozenset[Rank]) -> bool:
    """The stated strategy: Bet with a pair or better, or with an ace and a king."""
    return strength >= _PAIR or (Rank.ACE in ranks and Rank.KING in ranks)


_PAIR = five_card_strength(parse_cards("2c 2d 3h 4s 5c"))  # the lowest pair
_ODDS = {F[key]: int(odds.ratio) for key, odds in csp.BET_TABLES["555.13(c) minimum"]
         if key != "ONE_PAIR_OR_LESS"}  # fmt: skip


def simulate(rounds: int = ROUNDS, seed: int = SEED, tie_rule: str = "conventional"
             ) -> SimulationResult:  # fmt: skip
    """Ante and Bet under the stated strategy, per unit of Ante, ``DEALERS`` dealers a hand."""
    rng = random.Random(seed)
    deck = list(STANDARD_DECK)
    literal = tie_rule == "literal"
    net = net_squares = wagered = wagered_squares = cross = 0
    decided: Counter[str] = Counter()
    for _ in range(rounds):
        cards = rng.sample(deck, 5)
        mine = evaluate_five(cards)
        if not bets(mine.strength, frozenset(card.rank for card in cards)):
            decided["fold"] += 1
            total, staked = -DEALERS, DEALERS
        else:
            decided["bet"] += 1
            left = [card for card in deck if card not in cards]
            odds = _ODDS.get(mine.category, 1)
            total, staked = 0, 3 * DEALERS
            for _ in range(DEALERS):
                dealer = rng.sample(left, 5)
                if not csp.qualifies(dealer):
                    total += 1  # § 555.11(f)(2)-(3): Ante 1 to 1, Bet returned
                    continue
                result = csp.compare(cards, dealer, tie_rule) if literal else (
                    (mine.strength > (s := five_card_strength(dealer)))
                    - (mine.strength < s))  # fmt: skip
                total += 1 + 2 * odds if result > 0 else -3 if result < 0 else 0
        net, net_squares = net + total, net_squares + total * total
        wagered, wagered_squares = wagered + staked, wagered_squares + staked * staked
        cross += total * staked
    return SimulationResult(rounds=rounds, initial_per_round=1, scale=DEALERS, net=net,
                            net_squares=net_squares, wagered=wagered,
                            wagered_squares=wagered_squares, cross=cross,
                            multiples=tuple(sorted(decided.items())))  # fmt: skip


def _progressive_report(sheet: ProgressiveSheet) -> dict[str, Any]:
    return {
        "schedule": sheet.schedule,
        "rows": [{"hand": row.label, "pays": row.pays, "combinations": row.combinations,
                  "probability": row.probability} for row in sheet.rows],  # fmt: skip
        "hit_frequency": sheet.hit_frequency,
        "fixed_return_cents": sheet.fixed_return,
        "meter_weight": sheet.meter_weight,
        "break_even_meter_cents": sheet.break_even_cents,
        "return_at": [{"meter": f"${cents // 100:,}",
                       "expected_result": sheet.expected_result(cents)}
                      for cents in (10_000_000, 20_000_000, 50_000_000, 100_000_000)],  # fmt: skip
        "house_hold_at_minimum_rate": sheet.house_hold(Fraction(70, 100)),
    }


def parsheet(ruleset: Any, options: Mapping[str, Any]) -> dict[str, Any]:
    """The par sheet of a round under ``options`` (the game's declared options)."""
    game = simulate(ROUNDS, SEED, options["tie_rule"])
    return {
        "exact": False,
        "progressive": [_progressive_report(progressive_sheet(straight_flush_at_ten_percent=ten))
                        for ten in (True, False)],  # fmt: skip
        "whole_game": {
            "title": f"Ante and Bet, stated strategy - SIMULATED ({ROUNDS:,} player hands, "
            f"{DEALERS} dealer hands each, seed {SEED}; 95 % confidence intervals)",
            "per": "Ante",
            "house_edge": game.house_edge,
            "house_edge_half_width": game.house_edge_half_width,
            "element_of_risk": game.element_of_risk,
            "element_of_risk_half_width": game.element_of_risk_half_width,
            "average_wagered": Fraction(game.wagered, game.rounds * game.scale),
            "decisions": {name: Fraction(count, game.rounds) for name, count in game.multiples},
            "strategy": "Bet (2 x the Ante) with a pair or better or with an ace and a king, "
            f"fold the rest ({ruleset.section('11(a)')}); not proved optimal",
            "tie_rule": options["tie_rule"],
            "notes": [
                f"Per unit of Ante. The dealer qualifies with A-K-4-3-2 or better "
                f"({ruleset.section('1')}); Bet odds {options['bet_table']}.",
            ],
        },
    }


def house_edges(ruleset: Any, options: Mapping[str, Any]) -> tuple[HouseEdge, ...]:
    """Finance's edges: the Ante carries the Ante/Bet game (the Bet is a decision inside
    it, § 555.11(a)); the progressive's hold at the chapter's least rate of progression."""
    edge, half = SIMULATED[options["tie_rule"]]
    sheet = progressive_sheet(straight_flush_at_ten_percent=True)
    rate = CARIBBEAN_STUD_555.minimum_rate
    assert rate is not None
    return (
        HouseEdge(handle=frozenset({csp.ANTE}), edge=edge, half_width=half,
                  source=f"simulated, stated strategy, {ROUNDS:,} hands x {DEALERS} dealers, "
                  f"seed {SEED}, per Ante, tie rule {options['tie_rule']}"),
        HouseEdge(handle=frozenset({csp.BET}), edge=Fraction(0),
                  source="inside the Ante's edge: a decision (555.11(a))"),
        HouseEdge(handle=frozenset({csp.PROGRESSIVE}), edge=sheet.house_hold(rate),
                  source="exact over 2,598,960 hands: the wager less the 70 % rate of "
                  "progression (555.13(e)) and the fixed lines (555.13(d)); the meter's "
                  "shares are its liability, not the house's"),
    )  # fmt: skip


def stated(state: Any, seat: Any, step: Any, rng: Any) -> str:
    """§ 555.11(a) under the stated strategy."""
    cards = [card for card in seat.cards if card is not None]
    hand = evaluate_five(cards)
    return "bet" if bets(hand.strength, frozenset(card.rank for card in cards)) else "fold"


#: The simulator plays the strategy this par sheet states.
STRATEGY = stated
