"""The demo's poker room: a day at four tables whose planted errors the replay finds (§ 553)."""

from __future__ import annotations

import datetime

import pytest

from tables.bad_beat import count_variances
from tables.poker_room import PLANTED, count_fund, play_poker_day, replay_poker_day
from tables.rules.poker_room.replay import FindingKind

pytestmark = pytest.mark.django_db
DAY = datetime.date(2026, 11, 24)


def test_553_the_replay_finds_exactly_the_planted_errors(role_users):
    day = play_poker_day(DAY, hands_per_table=25, seed=3, supervisor="shift_supervisor")
    assert day.hands == 100 and set(day.planted) == set(PLANTED)
    found = replay_poker_day(DAY)
    assert set(found) == set(day.planted.values())
    kinds = {(f.kind, f.section) for findings in found.values() for f in findings}
    assert {
        (FindingKind.MISPUSHED_POT, "553.8(b)(4)(i)"),
        (FindingKind.OVER_RAKED, "553.15(b)(1)"),
        (FindingKind.MISSED_BAD_BEAT_CONTRIBUTION, "553.20(c)"),
    } <= kinds


def test_553_20_d_a_short_count_of_the_fund_s_box_is_a_variance(role_users):
    play_poker_day(DAY, hands_per_table=10, seed=3, supervisor="shift_supervisor", planted=())
    count_fund("BB-HOLDEM", DAY, dealer="dealer", floorperson="floorperson", short_cents=100)
    variance = count_variances(DAY)["BB-HOLDEM"]
    assert (variance.difference_cents, variance.section) == (-100, "553.20(d)")


def test_553_manage_py_replay_replays_the_day_s_poker_hands_citing_sections(role_users):
    import io

    from django.core.management import call_command

    play_poker_day(DAY, hands_per_table=25, seed=3, supervisor="shift_supervisor")
    out = io.StringIO()
    call_command("replay", "--gaming-day", DAY.isoformat(), "--list", "--no-progress",
                 stdout=out)  # fmt: skip
    text = out.getvalue()
    assert "Replayed 100 poker hands" in text
    for key in ("MISPUSHED_POT § 553.8(b)(4)(i)", "OVER_RAKED § 553.15(b)(1)",
                "MISSED_BAD_BEAT_CONTRIBUTION § 553.20(c)"):  # fmt: skip
        assert key in text


def test_553_20_h_the_demo_adjusts_the_fund_s_display_to_the_fund(role_users):
    from tables.bad_beat import fund_history
    from tables.poker_room import adjust_display

    play_poker_day(DAY, hands_per_table=10, seed=3, supervisor="shift_supervisor", planted=())
    shown = adjust_display("BB-HOLDEM", DAY, finance="finance", floorperson="floorperson")
    (today,) = fund_history("BB-HOLDEM", DAY, DAY)
    assert shown == today.closing_cents == today.contributions_cents > 0
    assert today.variances == ()


def test_553_15_b_3_the_demo_s_time_charge_table_charges_as_posted(role_users):
    from tables.poker_room import charge_time
    from tables.time_charges import charge_days

    start = datetime.datetime(2026, 11, 24, 20, 0, tzinfo=datetime.UTC)
    cents = charge_time("PK-TC-01", DAY, start, periods=3, seats=(1, 2, 3, 4),
                        dealer="dealer", floorperson="floorperson")  # fmt: skip
    assert cents == 3 * 1_000  # $30 an hour a table, a third of it every 20 minutes
    (table,) = charge_days(DAY, 2**62).values()
    assert (table["required_cents"], table["verified_cents"], table["findings"]) == (
        cents, cents, {})  # fmt: skip
