"""Settlement as money movements: who pays whom, how much, under which section.

Pay-table lines may pay odds, a fixed amount or a share of a meter, and a
commission is a charge of its own; the games that need them (Caribbean Stud's
meter, Let It Ride's fixed bonus, Pai Gow's 5 % vigorish) declare them.
"""

from __future__ import annotations

from fractions import Fraction

from tables.rules.engine import (
    HOUSE,
    Automation,
    Movement,
    Outcome,
    Settlement,
    SettlementLine,
    win_line,
)
from tables.rules.events import Decision
from tables.rules.money import ROUND_DOWN_TO_CENT, Commission, Fixed, MeterShare, Odds
from tables.rules.replay import replay
from tests.rules.test_three_card_poker_565 import a_round


def test_a_settlement_says_who_pays_whom_for_every_line_that_moves_money():
    events = a_round(
        [(1, "ANTE", 1000), (2, "ANTE", 500)],
        {1: "Ks Kd 2h", 2: "Jd 9s 3c"},
        "Qc 8d 4h",
        [Decision(seat=s, choice="play", amount_cents=a) for s, a in ((1, 1000), (2, 500))],
    )
    settlement = replay(events, tuple(Automation)).settlement
    assert set(settlement.movements) == {
        Movement(HOUSE, "seat 1 hand 1", 1000, "ANTE", "565.12(b)"),
        Movement(HOUSE, "seat 1 hand 1", 1000, "PLAY", "565.12(b)"),
        Movement("seat 2 hand 1", HOUSE, 500, "ANTE", "565.11(d)(2)"),
        Movement("seat 2 hand 1", HOUSE, 500, "PLAY", "565.11(d)(2)"),
    }


def test_a_push_or_a_returned_stake_moves_no_money():
    line = SettlementLine(seat=1, player="p", wager="ANTE", stake_cents=500,
                          outcome=Outcome.PUSH, amount_cents=500, section="565.12(c)")  # fmt: skip
    assert line.movement is None


def _won(odds, **extra) -> SettlementLine:
    return win_line(seat=3, player="p", wager="PROGRESSIVE", stake_cents=100, odds=odds,
                    rounding=ROUND_DOWN_TO_CENT, section="555.13(d)", hand=None, pay_line=None,
                    **extra)  # fmt: skip


def test_a_pay_table_line_may_pay_odds_a_fixed_amount_or_a_share_of_a_meter():
    assert _won(Odds(50)).amount_cents == 5_000
    assert _won(Fixed(500_000)).amount_cents == 500_000  # e.g. § 555.13(d): $5,000 straight flush
    share = _won(MeterShare(Fraction(1, 10)), meter_cents=1_234_567, counterparty="meter:CSP-1")
    assert share.amount_cents == 123_456
    assert share.movement == Movement("meter:CSP-1", "seat 3 hand 1", 123_456, "PROGRESSIVE",
                                      "555.13(d)")  # fmt: skip


def test_a_commission_is_a_charge_rounded_up_as_the_rule_set_says():
    # § 561.13(m): 5 % of the winnings, rounded up to 25 cents where the rule set says so.
    vig = Commission(Fraction(5, 100), round_up_to=25)
    assert [vig.on(amount) for amount in (1_000, 1_010, 1_500)] == [50, 75, 75]
    charge = Movement("seat 2 hand 1", "commission", vig.on(1_010), "MAIN", "561.13(m)")
    settlement = Settlement(round_id="r", ruleset_id="x", rounding="round_down_to_cent", lines=(),
                            charges=(charge,))  # fmt: skip
    assert settlement.movements == (charge,)
