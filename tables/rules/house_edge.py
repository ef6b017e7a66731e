"""House edges for theoretical win, as data: one figure per rule set and wager.

Theoretical win is Σ over wagers of handle × house edge, where each edge is
per unit of the handle it names. Every figure comes from this package's own
par sheets. A declared game whose par-sheet module
(:mod:`tables.rules.parsheets`) offers ``house_edges(ruleset, options)`` has
its edges generated from it, per the round's options, computed once per
process and kept in memory (Three Card Poker: well under a second). Figures
obtained by counting (the Five Card Bonus, the Double Cross three-card wager)
are generated from their sheets on first use. Only the whole-game figures that
take minutes (Criss-Cross, exact) or are simulated (Double Cross) are kept as
constants, and tests check each against its par sheet.

Three Card Poker (§ 565): the Ante carries the Ante/Play game's edge under
optimal play per unit of Ante; the Play Wager is handle (as declared) with no
edge of its own, like the Criss-Cross Bets; Pair Plus has its pay table's edge.

Criss-Cross (§ 592/674a): the game's edge is per unit of *initial ante
total* (Ante Across + Ante Down, § .7(d)); the Across, Down and Middle Bets
that follow are decisions whose value is already in that edge, so they add no
handle of their own. The Five Card Bonus (§ .12(c)) is its own wager. Under
592 a pair of 10s on a Middle Bet pushes unless the rule set says otherwise
(§ 592.12(b), an audited setting); paid 1 to 1, the player has the edge.

Double Cross (Massachusetts): per unit of Ante; the Raise wagers are
decisions inside that edge; the three-card wager (Section 11(c)) is exact.
The base game has no exact solver yet: its edge is simulated under the
``optimal`` strategy and carries its 95 % confidence half-width.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from tables.rules.events import Wager


@dataclass(frozen=True)
class HouseEdge:
    """The house edge of one wager family, per unit of its handle."""

    #: The wagers whose amounts make the handle (a game's wager names).
    handle: frozenset[str]
    edge: Fraction
    #: How the figure was obtained (exact, or simulated with its interval).
    source: str
    #: 95 % confidence half-width of a simulated edge (0 when exact).
    half_width: Fraction = Fraction(0)


#: Criss-Cross whole game, exact under optimal play (``parsheet --exact``).
CRISS_CROSS_GAME = HouseEdge(
    handle=frozenset({Wager.ANTE_ACROSS, Wager.ANTE_DOWN}),
    edge=Fraction(579_091, 13_378_456),
    source="exact, optimal play (parsheet --exact), per initial ante total",
)
#: § 592.12(b) read as paying a pair of 10s 1 to 1 (not the default reading).
CRISS_CROSS_GAME_PAYING_TENS = HouseEdge(
    handle=CRISS_CROSS_GAME.handle,
    edge=Fraction(-339_430_603, 7_023_689_400),
    source="exact, optimal play, § 592.12(b) pair of 10s paid 1 to 1",
)


@functools.cache
def _five_card_bonus() -> HouseEdge:
    """Five Card Bonus, exact over every five-card hand (§ 592/674a.12(c)); one table for all."""
    from tables.rules import parsheet
    from tables.rules.rulesets import PA_674A_2019

    edge = parsheet.five_card_bonus_sheet(PA_674A_2019).house_edge
    return HouseEdge(frozenset({Wager.FIVE_CARD_BONUS}), edge, "exact over 2,598,960 hands")


@functools.cache
def _three_card() -> HouseEdge:
    """Double Cross three-card wager, exact over 22,100 hands (Section 11(c))."""
    from tables.rules import parsheet
    from tables.rules.rulesets import MA_DCP

    edge = parsheet.three_card_sheet(MA_DCP).house_edge
    return HouseEdge(frozenset({Wager.THREE_CARD}), edge, "exact over 22,100 hands")


_GENERATED = {"FIVE_CARD_BONUS": _five_card_bonus, "THREE_CARD": _three_card}


def __getattr__(name: str) -> HouseEdge:
    """``FIVE_CARD_BONUS`` and ``THREE_CARD``: generated from their sheets on first use."""
    if name in _GENERATED:
        return _GENERATED[name]()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


#: Double Cross base game, simulated (``parsheet double_cross_poker --rounds 200000 --seed 1``).
DOUBLE_CROSS_GAME = HouseEdge(
    handle=frozenset({Wager.ANTE}),
    edge=Fraction(6_259, 100_000),
    source="simulated, optimal strategy, 200,000 rounds, seed 1, per Ante: 6.26 % ± 1.32 %",
    half_width=Fraction(131_624_224, 10**10),
)
#: The typed-in whole games, with the generated side wager beside each.
_TYPED: dict[tuple[str, str], tuple[HouseEdge, str]] = {
    ("PA-592-2014", "push"): (CRISS_CROSS_GAME, "FIVE_CARD_BONUS"),
    ("PA-592-2014", "pay_1_to_1"): (CRISS_CROSS_GAME_PAYING_TENS, "FIVE_CARD_BONUS"),
    ("PA-674a-2016", ""): (CRISS_CROSS_GAME, "FIVE_CARD_BONUS"),
    ("PA-674a-2019", ""): (CRISS_CROSS_GAME, "FIVE_CARD_BONUS"),
    ("MA-DCP-UNDATED", ""): (DOUBLE_CROSS_GAME, "THREE_CARD"),
}


def house_edges(
    ruleset_id: str, pair_of_tens: str = "", options: Mapping[str, Any] | None = None
) -> tuple[HouseEdge, ...]:
    """The edges that apply to rounds of ``ruleset_id``; ``pair_of_tens`` is
    the § 592.12(b) reading the round was settled under (592 only); ``options``
    the round's options as its settlement recorded them (the declared ones are
    read, a missing one takes the rule set's default).

    >>> [str(e.edge) for e in house_edges("PA-674a-2019")]
    ['579091/13378456', '7653/216580']
    >>> edges = house_edges("PA-565-2010", options={"pair_plus_table": "1-4-6-30-40"})
    >>> [str(e.edge) for e in edges]
    ['686689/20358520', '0', '128/5525']
    """
    key = (ruleset_id, pair_of_tens or ("push" if ruleset_id == "PA-592-2014" else ""))
    if key in _TYPED:
        game, side = _TYPED[key]
        return (game, _GENERATED[side]())
    generated = _generated(ruleset_id, options or {})
    if generated is None:
        raise KeyError(f"no house edge is recorded for rule set {ruleset_id} {key[1]}")
    return generated


def _generated(ruleset_id: str, options: Mapping[str, Any]) -> tuple[HouseEdge, ...] | None:
    """The edges of a declared game's par-sheet module, or ``None`` if it has none."""
    from tables.rules import parsheets, registry

    try:
        ruleset = registry.ruleset(ruleset_id)
    except KeyError:
        return None
    if getattr(parsheets.module(ruleset.game), "house_edges", None) is None:
        return None
    names = parsheets.options(ruleset.game, {}, ruleset)
    chosen = parsheets.options(
        ruleset.game, {name: options[name] for name in names if name in options}, ruleset
    )
    return _edges_of(ruleset_id, tuple(sorted(chosen.items())))


@functools.cache
def _edges_of(ruleset_id: str, options: tuple[tuple[str, Any], ...]) -> tuple[HouseEdge, ...]:
    """Computed once per rule set and options in a process."""
    from tables.rules import parsheets, registry

    ruleset = registry.ruleset(ruleset_id)
    module = parsheets.module(ruleset.game)
    assert module is not None
    edges: tuple[HouseEdge, ...] = module.house_edges(ruleset, dict(options))
    return edges


def theoretical_win(
    ruleset_id: str,
    wagers: Mapping[Any, int],
    pair_of_tens: str = "",
    options: Mapping[str, Any] | None = None,
) -> Fraction:
    """Σ handle × edge over one round's (or one day's) wagers, exact, in cents.

    >>> theoretical_win("MA-DCP-UNDATED", {Wager.THREE_CARD: 5_525})
    Fraction(128, 1)
    """
    total = Fraction(0)
    for edge in house_edges(ruleset_id, pair_of_tens, options):
        handle = sum(wagers.get(wager, 0) for wager in edge.handle)
        total += handle * edge.edge
    return total
