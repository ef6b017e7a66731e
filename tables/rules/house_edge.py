"""House edges for theoretical win, as data: one figure per rule set and wager.

Theoretical win is Σ over wagers of handle × house edge, where each edge is
per unit of the handle it names. Every figure comes from this package's own
par sheets (:mod:`tables.rules.parsheet`, :mod:`tables.rules.parsheet_exact`);
they are kept here as constants because the whole-game figures take minutes
to compute, and tests check each constant against its par sheet.

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

from dataclasses import dataclass
from fractions import Fraction

from tables.rules.events import Wager


@dataclass(frozen=True)
class HouseEdge:
    """The house edge of one wager family, per unit of its handle."""

    #: The wagers whose amounts make the handle.
    handle: frozenset[Wager]
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
#: Five Card Bonus, exact over every five-card hand (§ 592/674a.12(c)).
FIVE_CARD_BONUS = HouseEdge(
    handle=frozenset({Wager.FIVE_CARD_BONUS}),
    edge=Fraction(7_653, 216_580),
    source="exact over 2,598,960 hands",
)
#: Double Cross base game, simulated (``parsheet double_cross_poker --rounds 200000 --seed 1``).
DOUBLE_CROSS_GAME = HouseEdge(
    handle=frozenset({Wager.ANTE}),
    edge=Fraction(6_259, 100_000),
    source="simulated, optimal strategy, 200,000 rounds, seed 1, per Ante: 6.26 % ± 1.32 %",
    half_width=Fraction(131_624_224, 10**10),
)
#: Double Cross three-card wager, exact over 22,100 hands (Section 11(c)).
THREE_CARD = HouseEdge(
    handle=frozenset({Wager.THREE_CARD}),
    edge=Fraction(128, 5_525),
    source="exact over 22,100 hands",
)

HOUSE_EDGES: dict[tuple[str, str], tuple[HouseEdge, ...]] = {
    ("PA-592-2014", "push"): (CRISS_CROSS_GAME, FIVE_CARD_BONUS),
    ("PA-592-2014", "pay_1_to_1"): (CRISS_CROSS_GAME_PAYING_TENS, FIVE_CARD_BONUS),
    ("PA-674a-2016", ""): (CRISS_CROSS_GAME, FIVE_CARD_BONUS),
    ("PA-674a-2019", ""): (CRISS_CROSS_GAME, FIVE_CARD_BONUS),
    ("MA-DCP-UNDATED", ""): (DOUBLE_CROSS_GAME, THREE_CARD),
}


def house_edges(ruleset_id: str, pair_of_tens: str = "") -> tuple[HouseEdge, ...]:
    """The edges that apply to rounds of ``ruleset_id``; ``pair_of_tens`` is
    the § 592.12(b) reading the round was settled under (592 only).

    >>> [str(e.edge) for e in house_edges("PA-674a-2019")]
    ['579091/13378456', '7653/216580']
    """
    key = (ruleset_id, pair_of_tens or ("push" if ruleset_id == "PA-592-2014" else ""))
    try:
        return HOUSE_EDGES[key]
    except KeyError:
        raise KeyError(f"no house edge is recorded for rule set {ruleset_id} {key[1]}") from None


def theoretical_win(ruleset_id: str, wagers: dict[Wager, int], pair_of_tens: str = "") -> Fraction:
    """Σ handle × edge over one round's (or one day's) wagers, exact, in cents.

    >>> theoretical_win("MA-DCP-UNDATED", {Wager.THREE_CARD: 5_525})
    Fraction(128, 1)
    """
    total = Fraction(0)
    for edge in house_edges(ruleset_id, pair_of_tens):
        handle = sum(wagers.get(wager, 0) for wager in edge.handle)
        total += handle * edge.edge
    return total
