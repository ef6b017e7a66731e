"""Pai Gow Poker par sheet (§ 561): the one wager, simulated under the house way.

The chapter has no side wager, so nothing is settled on the cards alone. The
Pai Gow Poker Wager is priced for one player at the table against the dealer,
both setting their hands by the rule set's house way (the casino's data,
:data:`~tables.rules.games.pai_gow_poker_561.HOUSE_WAYS`, or the token of a
version loaded from the casino's Rules Submission), simulated
(``ROUNDS`` rounds, seed ``SEED``) with a 95 % confidence interval: the exact
figure needs every pair of 7-card hands from 53 cards (about 10^14 deals),
which is intractable here. A win pays 1 to 1 less the 5 % vigorish
(§ 561.13(m)), taken exactly (95 cents per dollar); rounding the vigorish up
to the cent or to 25 cents only adds to the house's figure.
"""

from __future__ import annotations

import functools
import math
import random
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from tables.rules.cards import JOKER_DECK
from tables.rules.games import pai_gow_poker_561 as pgp
from tables.rules.games._house_way import house_way_of
from tables.rules.games._pai_gow_hands import VIGORISH, HouseWay, fouled, house_way_561, versus
from tables.rules.house_edge import HouseEdge

ROUNDS, SEED = 100_000, 561
#: The player's mean result per unit wagered and its 95 % half-width
#: (``parsheet pai_gow_poker --ruleset PA-561-2010``: ROUNDS rounds, SEED, house way SAMPLE-2010).
MAIN_RESULT = Fraction(-55_481, 2_000_000)
MAIN_HALF_WIDTH = Fraction(46_403_391, 10**10)
STATED = "the player sets his hands by the house way, as the dealer does"
_WIN = 1 - VIGORISH


def play_round(rng: random.Random, way: HouseWay) -> tuple[Fraction, str]:
    """One player's result per unit wagered, and how the wager ended (§ 561.13(g)-(k))."""
    deck = list(JOKER_DECK)
    rng.shuffle(deck)
    mine, dealer = house_way_561(deck[:7], way), house_way_561(deck[7:14], way)
    if fouled(mine):
        return Fraction(-1), "lose"
    high, low = versus(mine.high, dealer.high), versus(mine.low, dealer.low)
    if high > 0 and low > 0:
        return _WIN, "win"
    if high > 0 or low > 0:
        return Fraction(0), "push"
    return Fraction(-1), "lose"


@functools.cache
def main_game(way_id: str, rounds: int = ROUNDS,
              seed: int = SEED) -> tuple[Fraction, Fraction, dict[str, int]]:  # fmt: skip
    """(mean result per unit, 95 % half-width, outcomes counted) over ``rounds`` rounds."""
    rng, way = random.Random(seed), house_way_of(way_id, pgp.HOUSE_WAYS)
    total, squares = Fraction(0), Fraction(0)
    outcomes = {"win": 0, "push": 0, "lose": 0}
    for _ in range(rounds):
        result, outcome = play_round(rng, way)
        total, squares = total + result, squares + result * result
        outcomes[outcome] += 1
    mean = total / rounds
    variance = (squares / rounds - mean * mean) * rounds / (rounds - 1)
    scaled = variance * Fraction(196, 100) ** 2 / rounds * 10**20
    half = Fraction(math.isqrt(scaled.numerator // scaled.denominator), 10**10)
    return mean, half, outcomes


def parsheet(ruleset: Any, options: Mapping[str, Any]) -> dict[str, Any]:
    """The par sheet under ``options``; the wager is simulated afresh."""
    way = options["house_way"]
    mean, half, outcomes = main_game(way)
    return {
        "method": "SIMULATED (the chapter has no side wager)",
        "side_wagers": [],
        "selected_side_wager": None,
        "whole_game": {
            "title": f"Pai Gow Poker Wager, house way {way} - SIMULATED ({ROUNDS:,} rounds, "
            f"seed {SEED})",
            "per": "Pai Gow Poker Wager",
            "house_edge": -mean,
            "half_width_95": half,
            **{f"{name}_frequency": Fraction(count, ROUNDS) for name, count in outcomes.items()},
            "strategy": STATED,
            "notes": [
                "Vigorish taken exactly (5 %, § 561.13(m)); the rule set's rounding up adds to "
                "the house's edge, by the stake.",
                "Copies go to the dealer (§ 561.13(g)(2)); one hand higher is a tie (§ 561.13(i)).",
            ],
        },
    }


def house_edges(ruleset: Any, options: Mapping[str, Any]) -> tuple[HouseEdge, ...]:
    """Finance's edge: the recorded simulation of the sample house way."""
    return (
        HouseEdge(handle=frozenset({pgp.WAGER}), edge=-MAIN_RESULT,
                  source=f"simulated, house way SAMPLE-2010 for player and dealer, {ROUNDS:,} "
                  f"rounds, seed {SEED}, vigorish exact", half_width=MAIN_HALF_WIDTH),
    )  # fmt: skip
