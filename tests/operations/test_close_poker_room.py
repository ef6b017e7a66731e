"""The poker room through the close: its hands are replayed with the day's rounds, their
findings counted by kind and the section the replay cites, and a poker table's figures
are the rake, never the pots (§ 553.15)."""

from __future__ import annotations

import pytest

from audit.ledger import read_stream
from casino.models import DayClose
from operations.close import REPLAYED, close_gaming_day, close_stream_id
from tables.models import TableDayFigures
from tables.poker_hands import finding_key
from tables.poker_room import play_poker_day, replay_poker_day
from tests.operations.test_close import DAY, IN_DAY, NEXT_MORNING

pytestmark = pytest.mark.django_db


@pytest.fixture
def poker_day(casino, play, ledger_clock):
    play(rounds=5)
    ledger_clock.at = IN_DAY
    day = play_poker_day(DAY, hands_per_table=25, seed=3, supervisor="shift_supervisor")
    ledger_clock.at = NEXT_MORNING
    return day


def test_553_the_close_replays_the_poker_hands_and_counts_their_findings_by_section(poker_day):
    expected: dict[str, int] = {}
    for findings in replay_poker_day(DAY).values():
        for finding in findings:
            expected[finding_key(finding)] = expected.get(finding_key(finding), 0) + 1
    assert {"MISPUSHED_POT § 553.8(b)(4)(i)", "OVER_RAKED § 553.15(b)(1)",
            "MISSED_BAD_BEAT_CONTRIBUTION § 553.20(c)"} <= set(expected)  # fmt: skip
    close_gaming_day(DAY, requested_by="finance", force=True)
    replayed = next(e for e in read_stream(close_stream_id(DAY)) if e.event_type == REPLAYED)
    poker = {k: v for k, v in replayed.payload["findings"].items() if "§" in k}
    assert poker == expected
    assert sum(t["hands"] for t in replayed.payload["poker"].values()) == poker_day.hands
    close = DayClose.objects.get(gaming_day=DAY)
    assert close.findings == sum(replayed.payload["findings"].values())


def test_553_15_a_poker_table_s_figures_are_the_rake_never_the_pots(poker_day):
    close_gaming_day(DAY, requested_by="finance", force=True)
    replayed = next(e for e in read_stream(close_stream_id(DAY)) if e.event_type == REPLAYED)
    hands = replayed.payload["poker"]["PK-HE-01"]
    row = TableDayFigures.objects.get(table_id="PK-HE-01", gaming_day=DAY)
    assert row.rounds == hands["hands"] == 25 and row.handle_cents == 0
    assert row.collected_cents == row.paid_cents == 0  # the rake goes to the drop box
    assert row.theoretical_win_cents == hands["required_rake_cents"] > 0
    # The planted over-rake: the dealers took a dollar more than the rule requires.
    taken = sum(t["rake_cents"] - t["required_rake_cents"]
                for t in replayed.payload["poker"].values())  # fmt: skip
    assert taken == 100


def test_553_20_d_the_close_counts_the_bad_beat_box_against_the_hands_contributions(
    poker_day, role_users, ledger_clock, client
):
    from casino.roles import Role
    from tables.models import Variance
    from tables.poker_room import count_fund

    ledger_clock.at = IN_DAY
    count_fund("BB-HOLDEM", DAY, dealer="dealer", floorperson="floorperson", short_cents=100)
    ledger_clock.at = NEXT_MORNING
    report = close_gaming_day(DAY, requested_by="finance", force=True)
    variance = Variance.objects.get(gaming_day=DAY, kind="bad_beat_count")
    assert (variance.table_id, variance.amount, variance.threshold) == ("BB-HOLDEM", -100, 0)
    assert "§ 553.20(d)" in variance.detail
    reconciled = next(e for e in read_stream(close_stream_id(DAY))
                      if e.event_type == "close.reconciled").payload  # fmt: skip
    assert [f["fund_id"] for f in reconciled["funds"]] == ["BB-HOLDEM"]
    assert report.variances == Variance.objects.filter(gaming_day=DAY).count()
    role_users[Role.FINANCE].is_staff = True
    role_users[Role.FINANCE].save()
    client.force_login(role_users[Role.FINANCE])
    page = client.get(f"/admin/finance/{DAY.isoformat()}/BB-HOLDEM/variance/bad_beat_count/")
    assert page.status_code == 200 and "badbeat.counted" in page.content.decode()
    day_page = client.get(f"/admin/finance/{DAY.isoformat()}/").content.decode()
    assert f"/admin/finance/{DAY.isoformat()}/BB-HOLDEM/variance/bad_beat_count/" in day_page


def test_553_20_d_h_a_box_and_a_display_that_match_the_fund_are_no_variance(
    poker_day, ledger_clock
):
    from tables.models import Variance
    from tables.poker_room import adjust_display, count_fund

    ledger_clock.at = IN_DAY
    counted = count_fund("BB-HOLDEM", DAY, dealer="dealer", floorperson="floorperson")
    displayed = adjust_display("BB-HOLDEM", DAY, finance="finance", floorperson="floorperson")
    ledger_clock.at = NEXT_MORNING
    close_gaming_day(DAY, requested_by="finance", force=True)
    assert not Variance.objects.filter(gaming_day=DAY, kind__startswith="bad_beat").exists()
    reconciled = next(e for e in read_stream(close_stream_id(DAY))
                      if e.event_type == "close.reconciled").payload  # fmt: skip
    (fund,) = reconciled["funds"]
    assert fund["variances"] == [] and fund["pending"] == []
    assert fund["contributed_cents"] == fund["counted_cents"] == counted
    assert fund["closing_cents"] == fund["displayed_cents"] == displayed == counted


def test_553_20_h_a_display_never_adjusted_is_a_variance_of_the_close(
    poker_day, role_users, client
):
    from casino.roles import Role
    from tables.models import Variance

    close_gaming_day(DAY, requested_by="finance", force=True)
    variance = Variance.objects.get(gaming_day=DAY, kind="bad_beat_display")
    assert variance.table_id == "BB-HOLDEM" and "§ 553.20(h)" in variance.detail
    role_users[Role.FINANCE].is_staff = True
    role_users[Role.FINANCE].save()
    client.force_login(role_users[Role.FINANCE])
    url = f"/admin/finance/{DAY.isoformat()}/BB-HOLDEM/variance/bad_beat_display/"
    assert url in client.get(f"/admin/finance/{DAY.isoformat()}/").content.decode()
    page = client.get(url)
    assert page.status_code == 200 and "Bad Beat display vs finance" in page.content.decode()


def test_553_20_f_a_bad_beat_the_close_s_replay_finds_unverified_is_a_variance(
    poker_day, ledger_clock
):
    """A Bad Beat hand at the fund's table (aces full beaten by four kings): nobody verified
    it by the close."""
    from tables.models import Variance
    from tests.tables.test_bad_beat_awards import _bad_beat_hand

    ledger_clock.at = IN_DAY
    _bad_beat_hand("PK-HE-01-BB", table_id="PK-HE-01", fund="BB-HOLDEM", day=DAY)
    ledger_clock.at = NEXT_MORNING
    close_gaming_day(DAY, requested_by="finance", force=True)
    variance = Variance.objects.get(gaming_day=DAY, kind="bad_beat_unverified")
    assert variance.table_id == "BB-HOLDEM"
    assert variance.detail == ("§ 553.20(f): hand PK-HE-01-BB is a Bad Beat under the posted "
                               "rules and was not verified")  # fmt: skip


def test_553_the_hands_read_in_parts_by_table_give_the_one_read_close(
    poker_day, monkeypatch, settings, tmp_path
):
    from operations import day_read
    from tests.operations.test_close_parts import _same_as_one_read

    settings.CLOSE_PARTS_ABOVE_EVENTS = 0
    monkeypatch.setattr(day_read, "_can_fork", lambda workers: False)
    rounds = day_read.day_rounds(DAY, 10**12)
    assert sum(s.startswith("poker-hand:") for s in rounds) == poker_day.hands
    report = close_gaming_day(DAY, requested_by="finance", force=True, workers=2)
    _same_as_one_read(report, tmp_path)  # the replay, the seal (hands included), the export
    replayed = next(e for e in read_stream(close_stream_id(DAY)) if e.event_type == REPLAYED)
    assert sum(t["hands"] for t in replayed.payload["poker"].values()) == poker_day.hands
