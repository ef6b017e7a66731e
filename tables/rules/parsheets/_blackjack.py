"""The blackjack family's par sheets and finance's house edges, shared by its three games.

* **Side wagers**, exact by enumeration over the real shoe
  (:mod:`tables.rules.blackjack_parsheet`): Bust It (§ 581.12(c)), Push 22 under the
  table and deck count the round was opened with (§ 590.12(c)), Insurance (§ 5xx.12).
* **The main game**, per unit of the initial main wager (the Bet or Blackjack Wager),
  under the game's optimal total-dependent strategy, printed as a chart
  (:mod:`tables.rules.blackjack_strategy`): the edge finance uses is the exact
  calculation (a second or so, for the round's deck count; six where the chapter
  leaves the count to the casino); the simulator playing the same strategy
  (:func:`tables.rules.blackjack_simulate.choose`) is the cross-check, its 95 %
  interval typed in :data:`MAIN_GAME` (a run takes minutes); :func:`simulate_main_game`
  reruns it and a test checks a short run against the exact figure.
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
from tables.rules.blackjack_strategy import Edge, chart_text, house_edge, strategy
from tables.rules.events import DealerCollected, DealerPaid, WagerPlaced
from tables.rules.house_edge import HouseEdge
from tables.rules.parsheet import WagerSheet

__all__ = ["MAIN_GAME", "MainGame", "simulate_main_game", "exact_edge", "parsheet", "house_edges"]

_SIDE = frozenset({BUST_IT, PUSH_22, INSURANCE})


@dataclass(frozen=True, slots=True)
class MainGame:
    """A simulated main-game edge per initial main wager, with its 95 % half-width:
    the cross-check of the exact figure, under the same strategy."""

    edge: Fraction
    half_width: Fraction
    rounds: int
    seed: int

    @property
    def source(self) -> str:
        edge, half, rounds, seed = self.edge, self.half_width, self.rounds, self.seed
        return (f"simulated, the optimal total-dependent strategy, {rounds:,} rounds of "
                f"five seats, seed {seed}, per initial main wager: "
                f"{float(edge):.2%} ± {float(half):.2%}")  # fmt: skip


#: ``simulate_main_game(game, 200_000, seed=1)`` (six decks for 590 and 591) under the optimal
#: strategy, three to four minutes a game on this machine: 0.55 % ± 0.64 %, 0.38 % ± 0.34 %,
#: -0.03 % ± 0.38 % (exact: 0.52 %, 0.41 %, -0.04 %).
MAIN_GAME: dict[str, MainGame] = {
    "double_attack_blackjack": MainGame(Fraction(14_797, 2_666_432),
                                        Fraction(63_540_847, 10_000_000_000), 200_000, 1),
    "free_bet_blackjack": MainGame(Fraction(225, 58_612),
                                   Fraction(6_777_233, 2_000_000_000), 200_000, 1),
    "double_back_jack": MainGame(Fraction(-1_801, 5_333_802),
                                 Fraction(7_604_729, 2_000_000_000), 200_000, 1),
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


def exact_edge(ruleset: Any, options: Mapping[str, Any]) -> Edge:
    """The main game's exact edge for the round's deck count (the rules' own if none)."""
    decks = options.get("decks")
    return house_edge(ruleset.rules, None if decks is None else int(decks))


def _exact_source(edge: Edge) -> str:
    return (f"exact, the optimal total-dependent strategy, {edge.decks} decks, per initial "
            f"main wager: dealer by recursion over the shoe, the player's later cards with "
            f"replacement")  # fmt: skip


def parsheet(game: BlackjackGame, ruleset: Any, options: Mapping[str, Any]) -> dict[str, Any]:
    """The side wagers exactly; the main game exactly, its chart, and the simulated check."""
    exact = exact_edge(ruleset, options)
    simulated = MAIN_GAME[game.id]
    notes = [
        "Exact: the dealer's final totals by recursion over the shoe less the up card and "
        "the player's two cards, without replacement, given no dealer Blackjack after the "
        "peek; the player's later cards with replacement; resplits to the chapter's limit.",
        "Doubles, splits, Second Chance and the Double Attack Wager are decisions inside "
        "the main game's edge; Free Bet lammers are markers, not handle.",
    ]
    if exact.raise_on:
        ups = ", ".join("A" if up == 1 else str(up) for up in sorted(exact.raise_on))
        notes.append(f"§ 581.6(e): the Double Attack Wager, as large as the Bet, is placed "
                     f"on an up card of {ups}; the edge is per initial Bet Wager.")  # fmt: skip
    return {
        "exact": False,
        "side_wagers": _sides(game, ruleset, options),
        "whole_game": {
            "title": f"{game.name} ({ruleset.chapter}), main game per initial "
                     f"{ruleset.rules.main_wager} - EXACT, simulated as a check",
            "house_edge": exact.house_edge,
            "simulated_house_edge": simulated.edge,
            "half_width_95": simulated.half_width,
            "strategy": f"{_exact_source(exact)}; check: {simulated.source}",
            "chart": chart_text(strategy(ruleset.rules, exact.decks)).splitlines(),
            "notes": notes,
        },
    }  # fmt: skip


def house_edges(game: BlackjackGame, ruleset: Any,
                options: Mapping[str, Any]) -> tuple[HouseEdge, ...]:  # fmt: skip
    """Finance's edges: the main wager carries the game's exact edge, by-choice wagers none
    of their own, each side wager its exact sheet's; lammers are no handle."""
    main_wager = ruleset.rules.main_wager
    main = exact_edge(ruleset, options)
    inside = frozenset(spec.name for spec in game.wagers if spec.handle
                       and spec.name not in _SIDE and spec.name != main_wager)  # fmt: skip
    edges = [
        HouseEdge(handle=frozenset({main_wager}), edge=main.house_edge,
                  source=_exact_source(main)),
        HouseEdge(handle=inside, edge=Fraction(0),
                  source="inside the main wager's edge: decisions of the hand"),
    ]  # fmt: skip
    for sheet in _sides(game, ruleset, options):
        edges.append(HouseEdge(handle=frozenset({sheet.wager}), edge=sheet.house_edge,
                               source=f"exact over the shoe ({sheet.section})"))  # fmt: skip
    return tuple(edges)
