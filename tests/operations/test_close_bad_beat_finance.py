"""The Bad Beat fund in finance (§ 553.20(e): finance keeps the official record): each
fund's closed day, its contributions, awards and count over the day, the month and the
year to date, in the finance day page, its CSV, the PDF and the regulator export."""

from __future__ import annotations

import csv
import datetime
import io
import zipfile

import pytest
from django.contrib.auth.models import User

from operations.close import close_gaming_day
from tables.bad_beat import contributions_cents, fund_history
from tables.formatting import dollars
from tables.models import BadBeatFundDay, Variance
from tables.poker_room import adjust_display, count_fund, play_poker_day
from tables.rules.poker_room.rulesets import BAD_BEAT_ACES_FULL
from tests.operations.test_close import DAY, IN_DAY, NEXT_MORNING
from tests.tables.test_bad_beat_awards import _bad_beat_hand

pytestmark = pytest.mark.django_db
FUND = "BB-HOLDEM"
NEXT = DAY + datetime.timedelta(days=1)
ONE_DAY = datetime.timedelta(days=1)


def _award(**payload):
    from audit.ledger import Actor, NewEvent, append

    kind = payload.pop("kind")
    append(f"badbeat:{FUND}", [NewEvent(kind, {"gaming_day": NEXT.isoformat(), **payload})],
           expected_version=None, actor=Actor.system("test"))  # fmt: skip


@pytest.fixture
def two_days(casino, play, ledger_clock):
    """Day one: the poker room's hands, the box counted, the display adjusted. Day two: a
    Bad Beat hand, verified, paid by the posted shares, the display adjusted."""
    play(rounds=5)
    ledger_clock.at = IN_DAY
    play_poker_day(DAY, hands_per_table=25, seed=3, supervisor="shift_supervisor")
    count_fund(FUND, DAY, dealer="dealer", floorperson="floorperson")
    adjust_display(FUND, DAY, finance="finance", floorperson="floorperson")
    ledger_clock.at = NEXT_MORNING
    close_gaming_day(DAY, requested_by="finance", force=True)
    ledger_clock.at = IN_DAY + ONE_DAY
    _bad_beat_hand("PK-HE-01-BB", table_id="PK-HE-01", fund=FUND, day=NEXT)
    count_fund(FUND, NEXT, dealer="dealer", floorperson="floorperson")
    _award(kind="badbeat.award_verified", hand_id="PK-HE-01-BB", verified_by="shift_supervisor")
    (before,) = fund_history(FUND, NEXT, NEXT)
    award = BAD_BEAT_ACES_FULL.award(fund_cents=before.closing_cents, losing_seat=1,
                                     winning_seat=2, table_seats=(1, 2, 3))  # fmt: skip
    shares = {1: award.losing_hand_cents, 2: award.winning_hand_cents, **award.table_cents}
    _award(kind="badbeat.award_paid", hand_id="PK-HE-01-BB", location="table", paid_by="finance",
           shares=[{"seat": s, "amount_cents": c} for s, c in shares.items()])  # fmt: skip
    adjust_display(FUND, NEXT, finance="finance", floorperson="floorperson")
    ledger_clock.at = NEXT_MORNING + ONE_DAY
    close_gaming_day(NEXT, requested_by="finance", force=True)
    return sum(shares.values())


def test_553_20_e_the_close_keeps_each_fund_s_day_and_finds_nothing_in_a_correct_award(
    two_days
):
    first = BadBeatFundDay.objects.get(fund_id=FUND, gaming_day=DAY)
    second = BadBeatFundDay.objects.get(fund_id=FUND, gaming_day=NEXT)
    assert first.opening_cents == 0
    assert first.contributions_cents == first.counted_cents == contributions_cents(FUND, DAY)
    assert second.opening_cents == first.closing_cents == first.displayed_cents
    assert (second.contributions_cents, second.counted_cents) == (100, 100)
    assert (second.awards, second.awards_cents) == (1, two_days)
    assert second.closing_cents == second.displayed_cents == (
        first.closing_cents + 100 - two_days)  # fmt: skip
    assert second.pending == [] and second.variances == 0
    assert not Variance.objects.filter(table_id=FUND).exists()


def test_553_20_e_finance_sees_the_funds_day_month_and_year_in_the_page_csv_and_pdf(
    two_days, client
):
    finance = User.objects.get(username="finance")
    finance.is_staff = True
    finance.save()
    client.force_login(finance)
    page = client.get(f"/admin/finance/{NEXT.isoformat()}/").content.decode()
    assert "Bad Beat funds" in page and f'data-fund="{FUND}"' in page
    response = client.get(f"/admin/finance/{NEXT.isoformat()}/bad-beat-funds.csv")
    (row,) = csv.DictReader(io.StringIO(response.content.decode()))
    first = BadBeatFundDay.objects.get(fund_id=FUND, gaming_day=DAY)
    month = first.contributions_cents + 100
    assert (row["contributions_cents"], row["awards"], row["awards_cents"]) == (
        "100", "1", str(two_days))  # fmt: skip
    assert row["month_contributions_cents"] == row["year_contributions_cents"] == str(month)
    assert row["month_counted_cents"] == str(month) and row["month_awards"] == "1"
    pdf = client.get(f"/admin/finance/{NEXT.isoformat()}/win-report.pdf").content
    second = BadBeatFundDay.objects.get(fund_id=FUND, gaming_day=NEXT)
    for text in ("Bad Beat funds, Section 553.20", FUND, dollars(second.closing_cents),
                 dollars(month)):  # fmt: skip
        assert text.encode() in pdf, text
    dealer = User.objects.get(username="dealer")
    dealer.is_staff = True
    dealer.save()
    client.force_login(dealer)
    assert client.get(f"/admin/finance/{NEXT.isoformat()}/bad-beat-funds.csv").status_code == 403


def test_553_20_e_the_regulator_export_carries_the_funds_days(two_days, settings):
    (archive,) = (settings.EXPORT_ROOT).glob(f"*{NEXT.isoformat()}*.zip")
    with zipfile.ZipFile(archive) as opened:
        name = next(n for n in opened.namelist() if n.endswith("/bad_beat_funds.csv"))
        rows = list(csv.DictReader(io.StringIO(opened.read(name).decode())))
    assert [(r["fund_id"], r["awards"], r["awards_cents"]) for r in rows] == [
        (FUND, "1", str(two_days))]  # fmt: skip


def test_553_20_i_a_discontinued_fund_s_transfer_is_a_movement_in_the_close_and_its_csv(
    casino, play, ledger_clock, client
):
    from audit.ledger import Actor, NewEvent, append, read_stream
    from tables.bad_beat import balance_cents
    from tables.poker_room import post_fund_rules

    play(rounds=5)
    ledger_clock.at = IN_DAY
    play_poker_day(DAY, hands_per_table=25, seed=3, supervisor="shift_supervisor", planted=())
    post_fund_rules("BB-OTHER", datetime.date(2016, 1, 1), Actor.system("test"),
                    "shift_supervisor")  # fmt: skip
    balance = balance_cents(FUND, read_stream(f"badbeat:{FUND}"))
    assert balance > 0
    append(f"badbeat:{FUND}", [NewEvent("badbeat.discontinued", {
        "effective_from": NEXT.isoformat(), "board_approval": "PGCB approval 2026-17",
        "transfer_to": "BB-OTHER", "transferred_cents": balance,
        "discontinued_by": "shift_supervisor", "approved_by": "finance"})],
        expected_version=None, actor=Actor.system("test"))  # fmt: skip
    ledger_clock.at = NEXT_MORNING
    close_gaming_day(DAY, requested_by="finance", force=True)
    ledger_clock.at = NEXT_MORNING + ONE_DAY
    close_gaming_day(NEXT, requested_by="finance", force=True)
    moved = {row.fund_id: (row.opening_cents, row.transferred_cents, row.closing_cents)
             for row in BadBeatFundDay.objects.filter(gaming_day=NEXT)}  # fmt: skip
    assert moved == {FUND: (balance, -balance, 0), "BB-OTHER": (0, balance, balance)}
    finance = User.objects.get(username="finance")
    finance.is_staff = True
    finance.save()
    client.force_login(finance)
    response = client.get(f"/admin/finance/{NEXT.isoformat()}/bad-beat-funds.csv")
    rows = {row["fund_id"]: row for row in csv.DictReader(io.StringIO(response.content.decode()))}
    assert rows[FUND]["transferred_cents"] == str(-balance)
