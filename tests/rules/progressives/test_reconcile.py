"""A meter's gaming day: opening + contributions − payouts + adjustments + resets = closing."""

from __future__ import annotations

import datetime

from tables.rules.progressives.events import MeterAdjusted, MeterRead, MeterReset, ReadingOccasion
from tables.rules.progressives.meter import fold
from tables.rules.progressives.reconcile import reconcile_day

from .meters import DAY, configured, contributed, hit, paid


def read(displayed, occasion=ReadingOccasion.CLOSING):
    return MeterRead(table="T-01", gaming_day=DAY, occasion=occasion, displayed_cents=displayed)


def a_day():
    return [
        configured(reserve_numerator=1, reserve_denominator=7, reset_cents=500_000),
        read(1_000_000, ReadingOccasion.OPENING),
        contributed(70),
        hit(6, "FLUSH"),
        hit(2, "STRAIGHT_FLUSH"),
        paid(6, 5_000),
        paid(2, 90_000),  # owed 10 % of 1,004,200: 100,420
        hit(3, "ROYAL_FLUSH", round_id="r2"),
        paid(3, 903_780, round_id="r2"),
        MeterReset(amount_cents=500_000),
        MeterAdjusted(amount_cents=-20, reason="controller", proposed_by="a", confirmed_by="b"),
        read(499_960),
    ]


def test_the_day_balances_and_names_each_movement():
    folded = fold(a_day())
    day = reconcile_day(1_000_000, folded.effects, closing_cents=folded.state.amount_cents)
    assert day.balances
    assert (day.contributions_cents, day.reserve_contributions_cents) == (4_200, 700)
    assert day.payouts_cents == 100_420 + 903_780
    assert day.house_payouts_cents == 5_000
    assert (day.resets_cents, day.reset_from_reserve_cents) == (500_000, 700)
    assert day.adjustments_cents == -20
    assert day.closing_cents == 499_980
    assert [(p.seat, p.difference_cents) for p in day.wrong_payments] == [(2, -10_420)]
    assert day.closing_reading.difference_cents == -20
    assert day.variances(threshold_cents=20) == ()
    assert [r.difference_cents for r in day.variances(threshold_cents=19)] == [-20]


def test_a_day_missing_one_of_its_effects_does_not_balance():
    folded = fold(a_day())
    effects = [e for e in folded.effects if type(e).__name__ != "Adjustment"]
    day = reconcile_day(1_000_000, effects, closing_cents=folded.state.amount_cents)
    assert (day.balances, day.unexplained_cents) == (False, -20)


def test_a_later_day_opens_where_the_last_closed():
    first = fold(a_day()[:3])
    events = [*a_day()[:3], contributed(10, day=DAY + datetime.timedelta(days=1))]
    second = fold(events)
    day = reconcile_day(
        first.state.amount_cents, second.effects[3:], closing_cents=second.state.amount_cents
    )
    assert day.balances and day.contributions_cents == 600
