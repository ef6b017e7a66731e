"""A Bad Beat fund's days folded from its entries (§ 553.20(f)-(h)), without the ledger."""

from __future__ import annotations

import datetime

from tables.rules.poker_room.bad_beat_fund import (
    AWARD,
    DISPLAY,
    BeatSeats,
    EntryKind,
    FundEntry,
    RulesHistory,
    fund_days,
)
from tables.rules.poker_room.rulesets import BAD_BEAT_ACES_FULL

DAY = datetime.date(2026, 11, 24)
RULES = RulesHistory(((datetime.date(2026, 1, 1), BAD_BEAT_ACES_FULL),))
SEATS = {"H1": BeatSeats(losing_seat=1, winning_seat=2, table_seats=(1, 2, 3))}


def _entry(position: int, kind: EntryKind, day: datetime.date = DAY, **fields) -> FundEntry:
    return FundEntry(position=position, gaming_day=day, kind=kind, **fields)


def _contributed(position: int, cents: int, day: datetime.date = DAY) -> FundEntry:
    return _entry(position, EntryKind.CONTRIBUTED, day, amount_cents=cents)


def _adjusted(position: int, cents: int, day: datetime.date = DAY) -> FundEntry:
    return _entry(position, EntryKind.ADJUSTED, day, amount_cents=cents, displayed_cents=cents)


def test_553_20_b_3_the_award_is_the_posted_shares_of_the_fund_when_verified():
    """$1,000 in the fund: 9/10 paid, half to the losing hand, a quarter to the winning
    hand, a quarter to the other player; a contribution after the verification is not owed."""
    entries = [_contributed(1, 100_000), _entry(2, EntryKind.VERIFIED, hand_id="H1"),
               _contributed(3, 100),
               _entry(4, EntryKind.PAID, hand_id="H1", shares={1: 45_000, 2: 22_500, 3: 22_500}),
               _adjusted(5, 10_100)]  # fmt: skip
    (day,) = fund_days(entries, DAY, DAY, rules=RULES, beats=SEATS)
    assert (day.awards, day.awards_cents, day.closing_cents, day.variances) == (
        1, 90_000, 10_100, ())  # fmt: skip


def test_553_20_f_1_an_adjustment_before_the_payment_leaves_the_display_pending():
    entries = [_contributed(1, 100_000), _entry(2, EntryKind.VERIFIED, hand_id="H1"),
               _adjusted(3, 100_000)]  # fmt: skip
    (day,) = fund_days(entries, DAY, DAY, rules=RULES, beats=SEATS)
    assert day.pending == ("H1",)
    assert [v.kind for v in day.variances] == [AWARD]  # verified, not paid at the close


def test_553_20_h_a_later_day_opens_as_the_day_before_closed_and_is_adjusted_again():
    nxt = DAY + datetime.timedelta(days=1)
    entries = [_contributed(1, 500), _adjusted(2, 500), _contributed(3, 200, nxt)]
    first, second = fund_days(entries, DAY, nxt, rules=RULES, beats={})
    assert (first.closing_cents, first.variances) == (500, ())
    assert (second.opening_cents, second.contributions_cents, second.closing_cents) == (
        500, 200, 700)  # fmt: skip
    assert second.displayed_cents == 500  # the day before's adjustment
    (variance,) = second.variances
    assert (variance.kind, variance.section) == (DISPLAY, "553.20(h)")
    (only,) = fund_days(entries, nxt, nxt, rules=RULES, beats={})
    assert only == second
