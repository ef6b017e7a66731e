"""Finance's pages (``tables.finance``): the daily win report of a closed
gaming day, its variances and drill-down to a table's rounds, the charts,
and the CSV and PDF downloads.

The day is made on the floor by the simulator and closed by the close job;
the expected figures are worked out here, not read back from the close:
from what the simulator says the dealers collected and paid, the buy-ins the
table recorded (its table-day read model) and the shortages the plan put
in: win = collected − paid − tray shortage − drop shortage, and the drop is
the buy-ins less the drop shortage.
"""

from __future__ import annotations

import csv
import datetime
import io
import re
from decimal import Decimal
from fractions import Fraction

import pytest

from casino.models import Casino, DayClose, Jurisdiction
from casino.roles import Role
from operations.close import close_gaming_day
from tables.finance import CSV_COLUMNS, FINANCE_ROLES, nice_scale
from tables.models import DealingMethod, Game, Round, Table, TableDay, TableDayFigures
from tables.simulation import TableDayPlan, simulate_table_days
from tests.operations.test_close import CREW, PLANS, TEST_KEY, LedgerClock

pytestmark = pytest.mark.django_db

DAY = datetime.date(2024, 5, 1)
#: An earlier closed day of the same year, in another month (year to date only).
EARLIER = datetime.date(2024, 3, 15)
SHORTAGES = TableDayPlan(inventory_short_cents={"T1": 3_000}, drop_short_cents={"D1": 10_000})
PAGE = "/admin/finance/2024-05-01/"
URLS = [
    "/admin/finance/",
    PAGE,
    "/admin/finance/variances/",
    "/admin/finance/2024-05-01/win-report.csv",
    "/admin/finance/2024-05-01/win-report.pdf",
    "/admin/finance/2024-05-01/T1/",
]


def money(cents: int) -> str:
    """Dollars as the pages write them (a true minus sign)."""
    sign = "−" if cents < 0 else ""
    return f"{sign}${abs(cents) // 100:,}.{abs(cents) % 100:02d}"


def hold_text(win_cents: int, drop_cents: int, minus: str = "−") -> str:
    points = round(Fraction(win_cents, drop_cents) * 10_000)  # half to even, exactly
    sign = minus if points < 0 else ""
    return f"{sign}{abs(points) // 100}.{abs(points) % 100:02d} %"


@pytest.fixture
def clock(monkeypatch):
    return LedgerClock(monkeypatch)


@pytest.fixture
def casino(role_users, settings, tmp_path, clock):
    """The test casino's two tables in two pits; every role's user may open
    the admin, and the finance pages decide by role."""
    settings.EXPORT_ROOT = tmp_path / "exports"
    settings.LEDGER_SIGNING_KEY = TEST_KEY
    jurisdiction, _ = Jurisdiction.objects.get_or_create(code="PA", name="Pennsylvania")
    Casino.objects.create(name="Test casino", jurisdiction=jurisdiction)
    Table.objects.create(table_id="T1", pit="1", game=Game.CRISS_CROSS_POKER,
                         ruleset_id="PA-674a-2019", min_wager_cents=500, max_wager_cents=50000,
                         dealing_method=DealingMethod.HAND)  # fmt: skip
    Table.objects.create(table_id="D1", pit="2", game=Game.DOUBLE_CROSS_POKER,
                         ruleset_id="MA-DCP-UNDATED", min_wager_cents=500,
                         max_wager_cents=50000,
                         dealing_method=DealingMethod.MANUAL_SHOE)  # fmt: skip
    for user in role_users.values():
        user.is_staff = True
        user.save()
    return role_users


def play_and_close(clock, day, *, plan=None, seed=7, dealer_error_percent=0):
    """A day played at both tables (recorded during the day) and closed the
    next morning."""
    clock.at = datetime.datetime.combine(day, datetime.time(15), tzinfo=datetime.UTC)
    summary = simulate_table_days(PLANS, day, rounds_per_table=30, seed=seed, crew=CREW,
                                  plan=plan, dealer_error_percent=dealer_error_percent,
                                  irregularity_percent=0)  # fmt: skip
    clock.at = datetime.datetime.combine(day + datetime.timedelta(days=1), datetime.time(11),
                                         tzinfo=datetime.UTC)  # fmt: skip
    close_gaming_day(day, requested_by="finance")
    return summary


def expected(days) -> dict[tuple[datetime.date, str], tuple[int, int]]:
    """(win, drop) of each table on each (day, simulator summary, plan)."""
    figures = {}
    for day, summary, plan in days:
        for table_id in ("T1", "D1"):
            win = (summary.collected_cents[table_id] - summary.paid_cents[table_id]
                   - plan.inventory_short_cents.get(table_id, 0)
                   - plan.drop_short_cents.get(table_id, 0))  # fmt: skip
            buy_ins = TableDay.objects.get(table_id=table_id, gaming_day=day).buy_ins_cents
            figures[(day, table_id)] = (win, buy_ins - plan.drop_short_cents.get(table_id, 0))
    return figures


@pytest.fixture
def closed(casino, clock):
    """DAY closed with T1's tray $30 short and D1's drop $100 short (and some
    dealer errors, so rounds have findings). Returns each table's expected
    (win, drop)."""
    summary = play_and_close(clock, DAY, plan=SHORTAGES, dealer_error_percent=10)
    return expected([(DAY, summary, SHORTAGES)])


@pytest.fixture
def two_days(casino, clock):
    """EARLIER closed clean, then DAY as in ``closed``."""
    earlier = play_and_close(clock, EARLIER, seed=3)
    summary = play_and_close(clock, DAY, plan=SHORTAGES, dealer_error_percent=10)
    return expected([(EARLIER, earlier, TableDayPlan()), (DAY, summary, SHORTAGES)])


def _row(html: str, attribute: str) -> str:
    match = re.search(rf"<tr {attribute}[^>]*>.*?</tr>", html, re.S)
    assert match, f"no row {attribute}"
    return match.group(0)


def _as(client, users, role):
    client.force_login(users[role])
    return client


# --- the daily win report ---------------------------------------------------------------


def test_the_report_shows_each_tables_win_and_hold_and_the_totals(client, casino, closed):
    response = _as(client, casino, Role.FINANCE).get(PAGE)
    assert response.status_code == 200
    html = response.content.decode()
    (t1_win, t1_drop), (d1_win, d1_drop) = closed[(DAY, "T1")], closed[(DAY, "D1")]
    report = response.context["report"]
    lines = {line.table_id: line for line in report.tables}
    assert (lines["T1"].win_cents, lines["T1"].drop_cents) == (t1_win, t1_drop)
    assert (lines["D1"].win_cents, lines["D1"].drop_cents) == (d1_win, d1_drop)
    for table_id, win, drop in (("T1", t1_win, t1_drop), ("D1", d1_win, d1_drop)):
        row = _row(html, f'data-table="{table_id}"')
        assert money(win) in row and money(drop) in row
        assert hold_text(win, drop) in row
        assert f'href="/admin/finance/2024-05-01/{table_id}/#variances">1</a>' in row
    total = _row(html, 'class="casino-total"')
    assert money(t1_win + d1_win) in total and money(t1_drop + d1_drop) in total
    assert hold_text(t1_win + d1_win, t1_drop + d1_drop) in total
    assert report.total.win_cents == t1_win + d1_win
    assert report.total.hold == Fraction(t1_win + d1_win, t1_drop + d1_drop)
    # One game and one pit per table here: each subtotal is its table's figures.
    criss_cross = _row(html, 'data-game="criss_cross_poker"')
    assert money(t1_win) in criss_cross and hold_text(t1_win, t1_drop) in criss_cross
    pit_two = _row(html, 'data-pit="2"')
    assert money(d1_win) in pit_two and hold_text(d1_win, d1_drop) in pit_two
    theoretical = TableDayFigures.objects.get(table_id="T1", gaming_day=DAY).theoretical_win_cents
    assert money(theoretical) in _row(html, 'data-table="T1"')


def test_a_negative_win_is_written_with_a_minus_and_marked(client, casino, closed):
    TableDayFigures.objects.filter(table_id="D1", gaming_day=DAY).update(win_cents=-12_345)
    html = _as(client, casino, Role.FINANCE).get(PAGE).content.decode()
    assert '<td class="num win negative">−$123.45</td>' in _row(html, 'data-table="D1"')


def test_month_and_year_to_date_add_the_closed_days(client, casino, two_days):
    closed = two_days
    response = _as(client, casino, Role.FINANCE).get(PAGE)
    periods = {period.label: period for period in response.context["report"].periods}
    day_win = closed[(DAY, "T1")][0] + closed[(DAY, "D1")][0]
    earlier_win = closed[(EARLIER, "T1")][0] + closed[(EARLIER, "D1")][0]
    year_drop = sum(drop for _, drop in closed.values())
    casino_totals = periods["Casino"]
    assert casino_totals.day.win_cents == casino_totals.month.win_cents == day_win
    assert casino_totals.year.win_cents == day_win + earlier_win
    assert casino_totals.year.drop_cents == year_drop
    assert casino_totals.year.hold == Fraction(day_win + earlier_win, year_drop)
    double_cross = periods["Double Cross Poker"]
    assert double_cross.year.win_cents == closed[(DAY, "D1")][0] + closed[(EARLIER, "D1")][0]
    row = _row(response.content.decode(), 'data-scope="Casino"')
    assert money(day_win + earlier_win) in row
    assert hold_text(day_win + earlier_win, year_drop) in row


def test_the_finance_page_opens_the_latest_closed_day_and_lists_the_others(
    client, casino, two_days
):
    response = _as(client, casino, Role.FINANCE).get("/admin/finance/")
    assert response.status_code == 302 and response.url == PAGE
    html = client.get(PAGE).content.decode()
    assert 'href="/admin/finance/2024-03-15/"' in html
    assert DayClose.objects.get(gaming_day=DAY).seal_hash in html
    assert client.get("/admin/finance/?day=2024-03-15").url == "/admin/finance/2024-03-15/"


def test_a_day_not_closed_is_404_and_a_malformed_one_400(client, casino, closed):
    client = _as(client, casino, Role.FINANCE)
    missing = client.get("/admin/finance/2024-05-02/")
    assert missing.status_code == 404
    assert "gaming day 2024-05-02 has not been closed" in missing.content.decode()
    assert client.get("/admin/finance/2024-05-02/win-report.pdf").status_code == 404
    malformed = client.get("/admin/finance/05-01-2024/")
    assert malformed.status_code == 400 and "YYYY-MM-DD" in malformed.content.decode()


# --- the charts -------------------------------------------------------------------------


def test_the_report_draws_actual_against_theoretical_win_as_svg(client, casino, closed):
    html = _as(client, casino, Role.FINANCE).get(PAGE).content.decode()
    tables_chart = re.search(r'<svg class="chart" data-chart="tables".*?</svg>', html, re.S)[0]
    assert 'role="img"' in tables_chart and "<title id=\"chart-tables-title\">" in tables_chart
    assert "<desc id=\"chart-tables-desc\">" in tables_chart
    assert len(re.findall(r'<rect class="bar actual', tables_chart)) == 2
    assert len(re.findall(r'<rect class="bar theoretical', tables_chart)) == 2
    assert "win (dollars)" in tables_chart and ">table</text>" in tables_chart
    t1_win = closed[(DAY, "T1")][0]
    assert f"<title>T1 actual win {money(t1_win)}</title>" in tables_chart
    month = re.search(r'<svg class="chart" data-chart="month".*?</svg>', html, re.S)[0]
    # One closed day in May so far: one point in each series.
    assert len(re.findall(r"<circle ", month)) == 2
    # The values are in a table too.
    assert money(t1_win) in re.search(r'id="chart-tables-data".*?</table>', html, re.S)[0]


def test_nice_scale_covers_the_values_and_zero_in_round_steps():
    assert nice_scale([12_345, -2_000]) == (-5_000, 15_000, 5_000)
    assert nice_scale([-700]) == (-800, 0, 200)
    assert nice_scale([0, 0]) == (0, 100, 20)
    low, high, step = nice_scale([987_654_321])
    assert low == 0 and high >= 987_654_321 and (high - low) // step <= 5


# --- variances and the drill-down -------------------------------------------------------


def test_the_variances_are_exactly_the_planted_shortages(client, casino, two_days):
    client = _as(client, casino, Role.FINANCE)
    response = client.get("/admin/finance/variances/?from=2024-03-01&to=2024-05-31")
    assert response.status_code == 200
    html = response.content.decode()
    assert set(re.findall(r'data-variance="([^"]+)"', html)) == {"T1 inventory", "D1 drop"}
    inventory = _row(html, 'data-variance="T1 inventory"')
    assert "−$30.00" in inventory and "$25.00" in inventory
    assert 'href="/admin/finance/2024-05-01/T1/#variances"' in inventory
    assert "−$100.00" in _row(html, 'data-variance="D1 drop"')
    # The latest closed day by default; the report lists the same two.
    default = client.get("/admin/finance/variances/").content.decode()
    assert set(re.findall(r'data-variance="([^"]+)"', default)) == {"T1 inventory", "D1 drop"}
    day_page = client.get(PAGE).content.decode()
    assert set(re.findall(r'data-variance="([^"]+)"', day_page)) == {"T1 inventory", "D1 drop"}
    only_drop = client.get("/admin/finance/variances/?kind=drop").content.decode()
    assert set(re.findall(r'data-variance="([^"]+)"', only_drop)) == {"D1 drop"}
    assert client.get("/admin/finance/variances/?from=2024-05-02&to=2024-05-01").status_code == 400


def test_the_drill_down_shows_the_components_and_every_round_findings_first(
    client, casino, closed
):
    response = _as(client, casino, Role.FINANCE).get("/admin/finance/2024-05-01/T1/")
    assert response.status_code == 200
    html = response.content.decode()
    figures = TableDayFigures.objects.get(table_id="T1", gaming_day=DAY)
    components = re.search(r'id="win-components".*?</table>', html, re.S)[0]
    for cents in (figures.opener_cents, figures.fills_cents, figures.closer_cents,
                  figures.drop_cents, figures.win_cents):  # fmt: skip
        assert money(cents) in components
    inventory = re.search(r'id="reconciliation".*?</table>', html, re.S)[0]
    assert money(figures.expected_inventory_change_cents) in inventory
    assert money(figures.inventory_change_cents) in inventory and "−$30.00" in inventory
    assert set(re.findall(r'data-variance="([^"]+)"', html)) == {"T1 inventory"}
    listed = re.findall(r'<tr data-round="([^"]+)"( class="has-findings")?', html)
    rounds = Round.objects.filter(table_id="T1", gaming_day=DAY)
    assert sorted(r for r, _ in listed) == sorted(rounds.values_list("round_id", flat=True))
    assert len(listed) == 30
    flagged = [bool(mark) for _, mark in listed]
    assert any(flagged), "the plan's dealer errors should leave findings on T1"
    assert flagged == sorted(flagged, reverse=True)  # rounds with findings first
    for stream_id in rounds.values_list("stream_id", flat=True):
        assert f'href="/admin/tables/round/{stream_id}/change/"' in html


def test_a_table_without_figures_is_404(client, casino, closed):
    response = _as(client, casino, Role.FINANCE).get("/admin/finance/2024-05-01/X9/")
    assert response.status_code == 404


# --- downloads --------------------------------------------------------------------------


def test_the_csv_rows_equal_the_figures_with_totals(client, casino, closed):
    response = _as(client, casino, Role.FINANCE).get("/admin/finance/2024-05-01/win-report.csv")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    assert response["Content-Disposition"] == (
        'attachment; filename="pitboss-win-report-2024-05-01.csv"'
    )
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[0] == CSV_COLUMNS
    assert CSV_COLUMNS[:3] == ["row", "gaming_day", "table_id"]
    records = [dict(zip(rows[0], row, strict=True)) for row in rows[1:]]
    tables = {r["table_id"]: r for r in records if r["row"] == "table"}
    assert set(tables) == {"T1", "D1"}
    for figures in TableDayFigures.objects.filter(gaming_day=DAY):
        record = tables[figures.table_id]
        assert int(record["win_cents"]) == figures.win_cents == closed[(DAY, figures.table_id)][0]
        assert Decimal(record["win_dollars"]) == Decimal(figures.win_cents) / 100
        assert int(record["drop_cents"]) == figures.drop_cents
        assert int(record["handle_cents"]) == figures.handle_cents
        assert int(record["theoretical_win_cents"]) == figures.theoretical_win_cents
        assert record["hold_percent"] == hold_text(figures.win_cents, figures.drop_cents,
                                                   "-").removesuffix(" %")  # fmt: skip
        assert (record["pit"], record["game"], record["status"]) == (
            figures.pit, figures.game, "reconciled")
        assert record["variances"] == "1"
    (casino_row,) = [r for r in records if r["row"] == "casino"]
    win = closed[(DAY, "T1")][0] + closed[(DAY, "D1")][0]
    drop = closed[(DAY, "T1")][1] + closed[(DAY, "D1")][1]
    assert int(casino_row["win_cents"]) == win and int(casino_row["drop_cents"]) == drop
    assert [r["row"] for r in records] == ["table", "table", "game", "game", "pit", "pit",
                                           "casino"]  # fmt: skip
    assert {r["game"] for r in records if r["row"] == "game"} == {"criss_cross_poker",
                                                                  "double_cross_poker"}


def test_the_pdf_is_a_signable_report_of_the_day(client, casino, closed):
    client = _as(client, casino, Role.FINANCE)
    response = client.get("/admin/finance/2024-05-01/win-report.pdf")
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert response["Content-Disposition"] == (
        'attachment; filename="pitboss-win-report-2024-05-01.pdf"'
    )
    pdf = response.content
    assert pdf.startswith(b"%PDF-")
    win = closed[(DAY, "T1")][0] + closed[(DAY, "D1")][0]
    drop = closed[(DAY, "T1")][1] + closed[(DAY, "D1")][1]
    for text in ("2024-05-01", "Test casino", "Casino total", money(win).replace("−", "-"),
                 hold_text(win, drop, "-"), "Prepared by", "Reviewed by", "Date",
                 DayClose.objects.get(gaming_day=DAY).seal_hash, "inventory", "drop vs buy-ins"):
        assert text.encode() in pdf, text
    # Deterministic: the same day gives the same bytes.
    assert client.get("/admin/finance/2024-05-01/win-report.pdf").content == pdf


# --- who may see it ---------------------------------------------------------------------


def test_finance_shift_supervisors_regulators_and_administrators_may_see_it(
    client, casino, closed
):
    for role in sorted(FINANCE_ROLES):
        client = _as(client, casino, role)
        for url in URLS:
            assert client.get(url, follow=True).status_code == 200, (role, url)
        assert 'href="/admin/finance/">Finance</a>' in client.get("/admin/").content.decode()


def test_dealers_floorpersons_and_other_roles_get_403_and_no_finance_link(client, casino):
    for role in (Role.DEALER, Role.FLOORPERSON, Role.CAGE_CASHIER, Role.TABLE_DEVICE, None):
        client = _as(client, casino, role)
        for url in URLS:
            assert client.get(url).status_code == 403, (role, url)
        assert "/admin/finance/" not in client.get("/admin/floor/").content.decode()


def test_people_not_signed_in_are_sent_to_the_login(client, casino):
    for url in URLS:
        response = client.get(url)
        assert response.status_code == 302 and "/admin/login/" in response.url
