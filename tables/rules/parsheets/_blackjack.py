"""The blackjack family's par sheets and finance's house edges, shared by its three games.

* **Side wagers**, exact by enumeration over the real shoe
  (:mod:`tables.rules.blackjack_parsheet`): Bust It (§ 581.12(c)), Push 22 under the
  table and deck count the round was opened with (§ 590.12(c)), Insurance (§ 5xx.12).
* **The main game**, per unit of the initial main wager (the Bet or Blackjack Wager):
  simulated under the simulator's total-dependent strategy
  (:func:`tables.rules.blackjack_simulate.choose`, not the optimal one) with its 95 %
  interval, six decks where the chapter leaves the count to the casino. The figure
  finance uses is typed in :data:`MAIN_GAME` (a run takes minutes);
  :func:`simulate_main_game` reruns it and a test checks a short run against it.
  The Double Attack Wager, doubles, splits and Second Chance are decisions whose value
  is inside that edge: they are handle with no edge of their own. Free Bet's lammers
  are markers, no handle (§ 590.7(n)-(q)): a lammer paid counts in the main game's
  result, one collected moves no money.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from tables.rules.blackjack import BUST_IT, INSURANCE, MARKERS, PUSH_22
from tables.rules.blackjack_declaration import BlackjackGame
from tables.rules.blackjack_parsheet import bust_it_sheet, insurance_sheet, push_22_sheet
from tables.rules.blackjack_simulate import simulate_table
from tables.rules.events import DealerCollected, DealerPaid, WagerPlaced
from tables.rules.house_edge import HouseEdge
from tables.rules.parsheet import WagerSheet

__all__ = ["MAIN_GAME", "MainGame", "simulate_main_game", "parsheet", "house_edges"]

_SIDE = frozenset({BUST_IT, PUSH_22, INSURANCE})


@dataclass(frozen=True, slots=True)
class MainGame:
    """A simulated main-game edge per initial main wager, with its 95 % half-width."""

    edge: Fraction
    half_width: Fraction
    rounds: int
    seed: int

    @property
    def source(self) -> str:
        edge, half, rounds, seed = self.edge, self.half_width, self.rounds, self.seed
        return (f"simulated, the simulator's total-dependent strategy, {rounds:,} rounds of "
                f"five seats, seed {seed}, per initial main wager: "
                f"{float(edge):.2%} ± {float(half):.2%}")  # fmt: skip


#: ``simulate_main_game(game, 40_000, seed=1)`` (six decks for 590 and 591), about seven
#: minutes a game on this machine: 4.69 % ± 1.34 %, 3.54 % ± 0.77 %, 3.46 % ± 0.89 %.
MAIN_GAME: dict[str, MainGame] = {
    "double_attack_blackjack": MainGame(Fraction(24_991, 533_265),
                                        Fraction(133_929_027, 10**10), 40_000, 1),
    "free_bet_blackjack": MainGame(Fraction(37_745, 1_065_484),
                                   Fraction(4_832_799, 625_000_000), 40_000, 1),
    "double_back_jack": MainGame(Fraction(9_203, 266_181),
                                 Fraction(44_314_087, 5_000_000_000), 40_000, 1),
}  # fmt: skip


def simulate_main_game(game: BlackjackGame, rounds: int, seed: int) -> MainGame:
    """The main game's edge per initial main wager over ``rounds`` rounds from one shoe.

    Each round is one sample (its seats' net over their main wagers): the interval is the
    ratio estimator's. Side wagers are left out; a collected lammer moves no money.
    """
    table = simulate_table(random.Random(seed), game, rounds=rounds)
    main = game.rulesets[0].rules.main_wager
    samples: list[tuple[int, int]] = []
    for events in table.rounds:
        stake: dict[int, int] = {}
        net: dict[int, int] = {}
        for event in events:
            if isinstance(event, WagerPlaced) and event.wager == main:
                stake[event.seat] = event.amount_cents
            elif isinstance(event, DealerPaid | DealerCollected) and event.wager not in _SIDE:
                if isinstance(event, DealerCollected) and event.wager in MARKERS:
                    continue
                sign = 1 if isinstance(event, DealerCollected) else -1
                net[event.seat] = net.get(event.seat, 0) + sign * event.amount_cents
        # The seats of a round share the dealer's hand: the round is the sample.
        samples.append((sum(net.get(seat, 0) for seat in stake), sum(stake.values())))
    total_stake = sum(amount for _, amount in samples)
    edge = Fraction(sum(won for won, _ in samples), total_stake)
    n = len(samples)
    residuals = sum((won - float(edge) * amount) ** 2 for won, amount in samples)
    # An interval, not money: a float square root, kept to ten decimal places.
    half = 1.96 * math.sqrt(residuals / (n - 1) / n) / (total_stake / n)
    return MainGame(edge, Fraction(round(half * 10**10), 10**10), rounds, seed)


def _sides(game: BlackjackGame, ruleset: Any, options: Mapping[str, Any]) -> list[WagerSheet]:
    decks = options.get("decks")
    sheets = [insurance_sheet(ruleset.rules, decks)]
    if game.wager(BUST_IT) is not None:
        sheets.append(bust_it_sheet())
    if game.wager(PUSH_22) is not None:
        sheets.append(push_22_sheet(decks or 6, options.get("push_22_table", "A"),
                                    ruleset.rules))  # fmt: skip
    return sheets


def parsheet(game: BlackjackGame, ruleset: Any, options: Mapping[str, Any]) -> dict[str, Any]:
    """The side wagers exactly; the main game as :data:`MAIN_GAME` has it."""
    main = MAIN_GAME[game.id]
    return {
        "exact": False,
        "side_wagers": _sides(game, ruleset, options),
        "whole_game": {
            "title": f"{game.name} ({ruleset.chapter}), main game per initial "
                     f"{ruleset.rules.main_wager} - SIMULATED",
            "house_edge": main.edge,
            "half_width_95": main.half_width,
            "strategy": main.source,
            "notes": [
                "The strategy is the simulator's total-dependent one, not the optimal: "
                "the exact strategy and edge are not computed yet.",
                "Doubles, splits, Second Chance and the Double Attack Wager are decisions "
                "inside the main game's edge; Free Bet lammers are markers, not handle.",
            ],
        },
    }  # fmt: skip


def house_edges(game: BlackjackGame, ruleset: Any,
                options: Mapping[str, Any]) -> tuple[HouseEdge, ...]:  # fmt: skip
    """Finance's edges: the main wager carries the game's, by-choice wagers none of their
    own, each side wager its exact sheet's; lammers are no handle."""
    main_wager = ruleset.rules.main_wager
    main = MAIN_GAME[game.id]
    inside = frozenset(spec.name for spec in game.wagers if spec.handle
                       and spec.name not in _SIDE and spec.name != main_wager)  # fmt: skip
    edges = [
        HouseEdge(handle=frozenset({main_wager}), edge=main.edge, source=main.source,
                  half_width=main.half_width),
        HouseEdge(handle=inside, edge=Fraction(0),
                  source="inside the main wager's edge: decisions of the hand"),
    ]  # fmt: skip
    for sheet in _sides(game, ruleset, options):
        edges.append(HouseEdge(handle=frozenset({sheet.wager}), edge=sheet.house_edge,
                               source=f"exact over the shoe ({sheet.section})"))  # fmt: skip
    return tuple(edges)
