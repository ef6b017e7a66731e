"""Criss-Cross Poker, Pennsylvania Chapter 592 (2014) and Chapter 674a (2016, 2019).

The two chapters share their numbering (§ 592.n is § 674a.n), so one
declaration serves both; the rule set supplies the chapter prefix, the pay
tables and the options that differ (pair of 10s, positions per player, payout
limit). The hands and the settlement lines are in ``_criss_cross_settlement``.

Steps, in order: wagering, dealing (the cross, then two cards to each seat with
both Antes), the Across decision, ROW_1 and ROW_3 turned, the Down decision,
TOP and BOTTOM turned, the Middle decision, CENTER turned, settlement.

>>> [phase.value for phase in Phase][:3]
['wagering', 'dealing', 'across_decision']
"""

from __future__ import annotations

import enum

from tables.rules.declaration import (
    Choice,
    Deal,
    DealingSections,
    Decide,
    Game,
    Layout,
    MultipleOf,
    OptionSpec,
    Reveal,
    Showdown,
    Wagering,
    WagerSpec,
)
from tables.rules.engine import Refusal, RuleViolation, SettlementLine
from tables.rules.events import DealingMethod, IrregularityKind, WagerPlaced
from tables.rules.events import Wager as W
from tables.rules.games._criss_cross_settlement import (  # noqa: F401 (re-exported)
    ACROSS_LINE,
    DOWN_LINE,
    POSITIONS,
    SETTLEMENT_ORDER,
    across_hand,
    down_hand,
    seat_lines,
)
from tables.rules.irregularities import Remedies, StubRemedy
from tables.rules.machine import (  # noqa: F401 (the engine's calls, for this game's callers)
    RoundState,
    Seat,
    apply,
    can_apply,
    complete,
    declare,
    required_settlement,
    verify,
)
from tables.rules.rulesets import (
    CRISS_CROSS_POKER,
    PA_592_2014,
    PA_674A_2016,
    PA_674A_2019,
    PairOfTensMiddleBets,
)

NAME = "Criss-Cross Poker"


class Phase(enum.StrEnum):
    """The phases of a Criss-Cross round (the declared steps, then void and closed)."""

    WAGERING = "wagering"
    DEALING = "dealing"
    ACROSS_DECISION = "across_decision"
    REVEAL_ACROSS = "reveal_across"
    DOWN_DECISION = "down_decision"
    REVEAL_DOWN = "reveal_down"
    MIDDLE_DECISION = "middle_decision"
    REVEAL_CENTER = "reveal_center"
    SETTLEMENT = "settlement"
    VOIDED = "voided"
    CLOSED = "closed"


# What each decision asks for, on which Ante, its section, and what a fold there forfeits.
FOLDS = {
    Phase.ACROSS_DECISION: (W.ACROSS_BET, W.ANTE_ACROSS, "11(b)", (W.ANTE_ACROSS, W.ANTE_DOWN)),
    Phase.DOWN_DECISION: (W.DOWN_BET, W.ANTE_DOWN, "11(d)",
                          (W.ANTE_ACROSS, W.ANTE_DOWN, W.ACROSS_BET)),
    Phase.MIDDLE_DECISION: (W.MIDDLE_BET, W.ANTE_ACROSS, "11(f)",
                            (W.ANTE_ACROSS, W.ANTE_DOWN, W.ACROSS_BET, W.DOWN_BET)),
}  # fmt: skip


def _decision(phase: Phase) -> Decide:
    wager, _, section, _ = FOLDS[phase]
    return Decide(phase, section, (Choice("bet", places=wager), Choice("fold", folds=True)))


def _bet(wager: W, base: W, section: str) -> WagerSpec:
    bounds = MultipleOf(base, "bet_multiple_min", "bet_multiple_max", "bet_whole_multiples_only")
    return WagerSpec(wager, wager.name.replace("_", " ").title(), section, bounds, by_choice=True)


def participates(seat: Seat) -> bool:
    """Cards go to a seat with both Antes (§ .8(d))."""
    return W.ANTE_ACROSS in seat.wagers and W.ANTE_DOWN in seat.wagers


def wager_rules(state: RoundState, seat: Seat, event: WagerPlaced) -> Refusal | None:
    """§ .7(d)-(g): equal Antes, the Five Card Bonus after them, a player's positions."""
    section = state.section
    if event.wager == W.FIVE_CARD_BONUS:
        if not participates(seat):
            return Refusal(section("7(e)"), "the Five Card Bonus follows the Antes", "wager")
    else:
        other = W.ANTE_DOWN if event.wager == W.ANTE_ACROSS else W.ANTE_ACROSS
        if other in seat.wagers and seat.wagers[other] != event.amount_cents:
            return Refusal(
                section("7(d)"), "Ante Across and Ante Down must be equal", "amount_cents"
            )
    limit = state.options["positions_per_player"]
    if limit is not None:
        own = [
            other.seat
            for other in state.seats.values()
            if other.player == seat.player and (other.wagers or other.seat == seat.seat)
        ]
        if len(own) > limit:
            reason = f"player {seat.player} may wager on at most {limit} position(s)"
            return Refusal(section("7(g)"), reason, "seat")
        if limit > 1 and max(own) - min(own) + 1 != len(own):
            return Refusal(section("7(g)"), "a player's boxes must be adjacent", "seat")
    return None


def opening_check(state: RoundState) -> None:
    """The Rules Submission's choices this version allows (§ .7(g), § .12(b), § .12(d))."""
    ruleset, opened, section = state.ruleset, state.opened, state.section
    if opened.option("pair_of_tens_middle_bets") is not None and (
        ruleset.pair_of_tens_middle_bets is None
    ):
        raise RuleViolation(section("12(b)"), "the pay table has no pair-of-10s conflict",
                            "options.pair_of_tens_middle_bets")  # fmt: skip
    positions = opened.option("positions_per_player")
    if positions not in (None, 1) and not ruleset.positions_per_player_configurable:
        raise RuleViolation(section("7(g)"), "a player may not wager on more than one position",
                            "options.positions_per_player")  # fmt: skip
    limit = opened.payout_limit_cents
    if limit is not None and not ruleset.payout_limit_permitted:
        raise RuleViolation(section("12"), "no payout limit is authorized", "payout_limit_cents")
    if limit is not None and limit < ruleset.payout_limit_floor_cents:
        raise RuleViolation(section("12(d)"), "the payout limit may not be less than $50,000",
                            "payout_limit_cents")  # fmt: skip


def settle(state: RoundState, seat: Seat) -> list[SettlementLine]:
    """§ .11(h): a seat's lines (``_criss_cross_settlement.seat_lines``)."""
    dealt = state.phase != Phase.WAGERING
    return seat_lines(state, seat, complete=complete(state), dealt=dealt, folds=FOLDS)


_SECTIONS = {  # what the engine cites for its generic checks
    "seated": "7(b)", "wagers": "7(f)", "by_choice": "7(f)", "already_placed": "7(d)",
    "after_no_more_bets": "7(c)", "decisions": "11(b)", "card_in_play": "3(a)",
    "card_count": "13(c)", "early_exposure": "11(c)", "no_spot": "11", "card_mismatch": "11(i)",
    "showdown": "11(g)", "settle": "11(h)", "collect": "11(b)", "close": "11(i)", "void": "13",
    "irregularities": "13", "payout_limit": "12(d)",
}  # fmt: skip

GAME = declare(
    Game(
        id=CRISS_CROSS_POKER,
        name=NAME,
        rulesets=(PA_592_2014, PA_674A_2016, PA_674A_2019),
        layout=Layout(seat_spots=("1", "2"), community_spots=tuple(POSITIONS), max_seats=6),
        wagers=(
            WagerSpec(W.ANTE_ACROSS, "Ante Across", "7(d)"),
            _bet(W.ACROSS_BET, W.ANTE_ACROSS, "11(b)"),
            WagerSpec(W.ANTE_DOWN, "Ante Down", "7(d)"),
            _bet(W.DOWN_BET, W.ANTE_DOWN, "11(d)"),
            _bet(W.MIDDLE_BET, W.ANTE_ACROSS, "11(f)"),
            WagerSpec(
                W.FIVE_CARD_BONUS,
                "Five Card Bonus Wager",
                "7(e)",
                offered=lambda state: state.options["five_card_bonus_offered"],
            ),
        ),  # fmt: skip
        steps=(
            Wagering(),
            Deal(order=("community", "seats")),
            _decision(Phase.ACROSS_DECISION),
            Reveal(Phase.REVEAL_ACROSS, "11(c)", ("ROW_1", "ROW_3"), dealer=False),
            _decision(Phase.DOWN_DECISION),
            Reveal(Phase.REVEAL_DOWN, "11(e)", ("TOP", "BOTTOM"), dealer=False),
            _decision(Phase.MIDDLE_DECISION),
            Reveal(Phase.REVEAL_CENTER, "11(g)", ("CENTER",), dealer=False),
            Showdown("11(g)"),
        ),
        settle=settle,
        participates=participates,
        wager_rules=wager_rules,
        opening_check=opening_check,
        options=(
            OptionSpec("five_card_bonus_offered", "7(e)", (False, True), False, recorded=False),
            OptionSpec(
                "pair_of_tens_middle_bets", "12(b)", (None, *PairOfTensMiddleBets), None
            ),  # fmt: skip
            OptionSpec("positions_per_player", "7(g)", (None, *range(1, 7)), None, recorded=False),
        ),
        dealing={
            DealingMethod.MANUAL_SHOE: DealingSections("8(b)", "8(d)", "8(h)", "8(e)"),
            DealingMethod.HAND: DealingSections("9(a)(3)", "9(b)", "9(f)", "9(c)"),
            DealingMethod.AUTOMATED_SHOE: DealingSections("10(a)(2)", "10(b)", "10(f)", "10(c)"),
        },
        # § .13: CARD_DRAWN_IN_ERROR (13(b)) is used as the next card and DEVICE_OUT_OF_ORDER
        # (13(g)) is a table fact for the floor; neither changes the round.
        remedies=Remedies(
            face_up="13(a)",
            voids={
                IrregularityKind.INCORRECT_CARD_COUNT: (
                    "13(c)",
                    "a player or the community area had a wrong count",
                ),
                IrregularityKind.COMMUNITY_CARD_EXPOSED_EARLY: (
                    "13(d)",
                    "a community card was exposed before its reveal",
                ),
                IrregularityKind.SHOE_MALFUNCTION: (
                    "13(f)",
                    "the automated dealing shoe failed during the round",
                ),
            },
        ),  # fmt: skip
        stub_remedy=StubRemedy(
            misdeal="stub count: cards misdealt but 52 remain in the deck",
            mismatch="stub count {counted}, expected {expected}, no misdeal: deck removed",
        ),
        sections=_SECTIONS,
    )
)
