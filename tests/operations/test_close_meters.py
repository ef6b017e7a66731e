"""Progressive meters in the gaming-day close (issue 11): two Caribbean Stud
tables (§ 555) linked to one meter; each meter's day reconciled (opening +
contributions − payouts ± signed adjustments = closing) against its
controller's readings, the rounds' accepted wagers against its contributions,
and a progressive paid other than the meter owed at the player's turn
(§ 555.13(f)) found as a variance."""

from __future__ import annotations

from fractions import Fraction

import pytest
from django.contrib.auth.models import User

from audit.ledger import Actor
from casino.models import DayClose
from operations.close import close_gaming_day
from operations.meter_rounds import meter_rounds, record_day
from progressives import service
from progressives.models import MeterDay
from tables.models import DealingMethod, Table, TableDayFigures, Variance
from tables.rules.progressives.chapters import CARIBBEAN_STUD_555, RAISE_IT_UP_587
from tables.rules.progressives.events import MeterConfigured, OddCents, RateBase
from tables.simulation import TablePlan, simulate_table_days
from tests.operations.test_close import CREW, DAY, IN_DAY, NEXT_MORNING, PLANS

pytestmark = pytest.mark.django_db

SYSTEM = Actor.system("meters")
SUPERVISOR = Actor(username="shift_supervisor", roles=frozenset({"shift supervisor"}))
CSP = [TablePlan("CSP-01", "PA-555-2010"), TablePlan("CSP-02", "PA-555-2010")]
METER = "CSP-M1"


def configure(tables=("CSP-01", "CSP-02")):
    service.configure(MeterConfigured(
        meter_id=METER, effective_from=DAY, chapter="555", tables=tables,
        wager_amounts_cents=(100,), rate_numerator=70, rate_denominator=100,
        rate_base=RateBase.AMOUNT_WAGERED, initial_cents=1_000_000, reset_cents=1_000_000,
        schedule=CARIBBEAN_STUD_555.schedule, share_rounding="round_down_to_cent",
        odd_cents=OddCents.FIRST_IN_PAYMENT_ORDER), actor=SUPERVISOR)  # fmt: skip


@pytest.fixture
def csp_tables(casino):
    for plan in CSP:
        Table.objects.create(table_id=plan.table_id, pit="2", game="caribbean_stud_poker",
                             ruleset_id="PA-555-2010", min_wager_cents=500,
                             max_wager_cents=50000,
                             dealing_method=DealingMethod.MANUAL_SHOE)  # fmt: skip
    return casino


@pytest.fixture
def played(csp_tables, ledger_clock):
    ledger_clock.at = IN_DAY
    configure()
    summary = simulate_table_days([*PLANS, *CSP], DAY, rounds_per_table=60, seed=3, crew=CREW,
                                  dealer_error_percent=0, irregularity_percent=0)  # fmt: skip
    return summary


def test_a_meter_linked_to_two_tables_reconciles_to_the_cent(played, ledger_clock):
    rounds = list(meter_rounds(DAY, ("CSP-01", "CSP-02")))
    assert {r.table for r in rounds} == {"CSP-01", "CSP-02"}
    state = record_day(METER, DAY, actor=SYSTEM, validated_by="floorperson").state
    ledger_clock.at = NEXT_MORNING
    report = close_gaming_day(DAY, requested_by="finance")
    assert report.variances == 0
    row = MeterDay.objects.get(meter_id=METER, gaming_day=DAY)
    accepted = sum(sum(r.wagers_cents) for r in rounds)
    # § 555.13(e): 70 % of every accepted $1 wager of both tables' rounds.
    assert row.contributions_cents == accepted * 70 // 100
    assert row.closing_cents == state.amount_cents == row.displayed_cents
    assert row.opening_cents + row.contributions_cents - row.payouts_cents + (
        row.adjustments_cents + row.resets_cents) == row.closing_cents
    handle = sum(TableDayFigures.objects.get(table_id=t, gaming_day=DAY).handle_cents
                 for t in ("CSP-01", "CSP-02"))  # fmt: skip
    assert handle > accepted > 0
    assert DayClose.objects.get(gaming_day=DAY).variances == 0


def test_a_wrong_payment_and_a_drifting_display_are_variances_of_the_meter(client, played,
                                                                          ledger_clock):
    # A straight flush paid 10 % of the meter before its own round contributed (§ 555.13(f)).
    service.record_round(METER, round_id="staged-1", table="CSP-01", gaming_day=DAY,
                         wagers_cents=(100,), hits=((4, "STRAIGHT_FLUSH", 100),), actor=SYSTEM)
    service.record_payment(METER, round_id="staged-1", table="CSP-01", seat=4,
                           amount_cents=100_000, validated_by="floorperson", actor=SYSTEM)
    record_day(METER, DAY, actor=SYSTEM, validated_by="floorperson", displayed_error_cents=2_500)
    ledger_clock.at = NEXT_MORNING
    report = close_gaming_day(DAY, requested_by="finance")
    found = {v.kind: v for v in Variance.objects.filter(table_id=METER)}
    assert set(found) == {"meter_payout", "meter_display", "meter_contributions"}
    assert "555.13(f)" in found["meter_payout"].detail and found["meter_payout"].amount == 7
    assert found["meter_display"].amount == 2_500
    # The staged round's wager is credited to the meter but no table's round accepted it.
    assert found["meter_contributions"].amount == 100
    assert report.variances == 3
    # Finance lists them and works each on its own page, under the meter's id.
    finance = User.objects.get(username="finance")
    finance.is_staff = True
    finance.save()
    client.force_login(finance)
    listing = client.get(f"/admin/finance/variances/?day={DAY}")
    assert listing.status_code == 200 and METER in listing.content.decode()
    page = client.get(f"/admin/finance/{DAY}/{METER}/variance/meter_payout/")
    assert page.status_code == 200 and "555.13(f)" in page.content.decode()


def test_a_signed_adjustment_moves_the_day_and_the_identity_still_holds(played, ledger_clock):
    proposal = service.propose_adjustment(METER, amount_cents=-1_000, reason="meter test",
                                          actor=SUPERVISOR)  # fmt: skip
    finance = Actor(username="finance", roles=frozenset({"finance"}))
    service.record_round(METER, round_id="x", table="CSP-01", gaming_day=DAY,
                         wagers_cents=(100,), actor=SYSTEM)  # fmt: skip
    service.confirm_adjustment(METER, proposal_version=proposal.last_version,
                               amount_cents=-1_000, reason="meter test",
                               proposed_by=SUPERVISOR.username, actor=finance)  # fmt: skip
    ledger_clock.at = NEXT_MORNING
    close_gaming_day(DAY, requested_by="finance")
    row = MeterDay.objects.get(meter_id=METER, gaming_day=DAY)
    assert row.adjustments_cents == -1_000
    assert row.closing_cents == row.opening_cents + row.contributions_cents - 1_000


def test_finance_sees_the_liability_and_the_floor_board_the_meters(client, played, ledger_clock):
    from casino.roles import Role

    record_day(METER, DAY, actor=SYSTEM, validated_by="floorperson")
    ledger_clock.at = NEXT_MORNING
    close_gaming_day(DAY, requested_by="finance")
    row = MeterDay.objects.get(meter_id=METER, gaming_day=DAY)
    finance = User.objects.get(username="finance")
    finance.is_staff = True
    finance.save()
    client.force_login(finance)
    page = client.get("/admin/finance/2024-05-01/").content.decode()
    assert "Progressive liability" in page and f'data-meter="{METER}"' in page
    csv = client.get("/admin/finance/2024-05-01/progressive-liability.csv")
    lines = csv.content.decode().splitlines()
    assert csv.status_code == 200 and lines[1].startswith(f"2024-05-01,{METER},555,")
    assert lines[1].split(",")[10] == str(row.closing_cents)
    assert client.get("/admin/finance/2024-05-01/progressive-liability.csv").status_code == 200
    dealer = User.objects.get(username=Role.DEALER.value)
    dealer.is_staff = True
    dealer.save()
    client.force_login(dealer)
    assert client.get("/admin/finance/2024-05-01/progressive-liability.csv").status_code == 403
    supervisor = User.objects.get(username="shift_supervisor")
    supervisor.is_staff = True
    supervisor.save()
    client.force_login(supervisor)
    board = client.get("/admin/floor/").content.decode()
    assert "Progressive meters" in board and "CSP-01, CSP-02" in board


def test_the_win_report_pdf_prints_each_meter_s_liability_day_month_and_year(
        client, played, ledger_clock):  # fmt: skip
    """The PDF finance signs shows what the page and the CSV show: the liability (closing)
    and its movement over the day, the month and the year to date (issue 11)."""
    import datetime

    from tables.formatting import dollars

    record_day(METER, DAY, actor=SYSTEM, validated_by="floorperson")
    ledger_clock.at = NEXT_MORNING
    close_gaming_day(DAY, requested_by="finance")
    row = MeterDay.objects.get(meter_id=METER, gaming_day=DAY)
    # The day before, the last of April, as its close recorded it: in the year, not the month.
    april = MeterDay.objects.create(
        meter_id=METER, gaming_day=DAY - datetime.timedelta(days=1), chapter="555",
        tables=["CSP-01", "CSP-02"], opening_cents=990_000, contributions_cents=10_000,
        payouts_cents=0, adjustments_cents=0, resets_cents=0, closing_cents=1_000_000,
        computed_at_position=0)  # fmt: skip
    finance = User.objects.get(username="finance")
    finance.is_staff = True
    finance.save()
    client.force_login(finance)
    pdf = client.get("/admin/finance/2024-05-01/win-report.pdf").content
    day = row.movement_cents
    assert 0 < day != day + april.movement_cents
    assert b"Progressive liability \\(closing\\) and its movement" in pdf  # PDF escapes
    for text in (METER, dollars(row.opening_cents), dollars(row.closing_cents), dollars(day),
                 dollars(day + april.movement_cents)):  # fmt: skip
        assert text.encode() in pdf, text
    csv = client.get("/admin/finance/2024-05-01/progressive-liability.csv").content.decode()
    fields = csv.splitlines()[1].split(",")
    assert fields[12:15] == [str(day), str(day), str(day + april.movement_cents)]


def test_a_close_reconciled_before_the_meters_reads_as_version_2_with_none():
    from audit.registry import REGISTRY

    stored = {"tables": [], "totals": {"tables": 0, "reconciled": 0, "variances": 0}}
    assert REGISTRY.upcast("close.reconciled", 1, stored) == (2, {**stored, "meters": []})


@pytest.fixture
def riu_tables(casino):
    from operations.management.commands.demo import declared_tables

    ids = [t[0] for t in declared_tables() if t[1] == "raise_it_up_stud_poker"]
    for table_id in ids:
        Table.objects.create(table_id=table_id, pit="2", game="raise_it_up_stud_poker",
                             ruleset_id="PA-587-2014", min_wager_cents=500,
                             max_wager_cents=50000,
                             dealing_method=DealingMethod.MANUAL_SHOE)  # fmt: skip
    # The demo's shift supervisor configures its meters.
    supervisor, _ = User.objects.get_or_create(username="supervisor")
    supervisor.groups.set(User.objects.get(username="shift_supervisor").groups.all())
    return ids


def test_587_13_the_demo_s_raise_it_up_meter_counts_no_void_round_s_progressive(
        riu_tables, ledger_clock):  # fmt: skip
    """The demo's second meter (§ 587.12(e)(3): 14 %, $1,000 or more) over its two tables'
    day, some rounds void (§ 587.13(c), (d), (f): every wager returned, the progressive's
    too): the close finds the meter credited with exactly what the rounds accepted."""
    from audit.ledger import read_stream
    from operations.management.commands.demo import RIU_METER, TABLE_OPTIONS, Command
    from progressives.streams import folded, meter_stream
    from tables.models import Round
    from tables.verification import RoundSelection, iter_round_events, rounds_of, verify_round

    ledger_clock.at = IN_DAY
    assert RIU_METER in Command()._configure_meters(DAY)
    state = folded(read_stream(meter_stream(RIU_METER)))
    config = state.history[-1]
    assert (config.chapter, config.tables, config.rate) == ("587", tuple(riu_tables),
                                                            Fraction(14, 100))
    assert config.rate >= RAISE_IT_UP_587.minimum_rate and state.amount_cents >= 100_000
    options = TABLE_OPTIONS["raise_it_up_stud_poker"]
    simulate_table_days([TablePlan(t, "PA-587-2014", options=options) for t in riu_tables], DAY,
                        rounds_per_table=60, seed=5, crew=CREW, dealer_error_percent=0,
                        irregularity_percent=25)  # fmt: skip
    voided = 0
    for table in riu_tables:
        selection = RoundSelection(gaming_day=DAY, table_id=table)
        for stream_id, events in rounds_of(iter_round_events(selection)):
            result = verify_round(stream_id, events).result
            assert result is not None
            final = result.final_state
            voided += final.void_section is not None and any(
                "PROGRESSIVE" in seat.wagers for seat in final.seats.values())
    assert voided, "no void round with a progressive wager: the test would prove nothing"
    record_day(RIU_METER, DAY, actor=SYSTEM, validated_by="floorperson")
    ledger_clock.at = NEXT_MORNING
    close_gaming_day(DAY, requested_by="finance")
    assert not Variance.objects.filter(table_id=RIU_METER).exists()
    row = MeterDay.objects.get(meter_id=RIU_METER, gaming_day=DAY)
    accepted = sum(sum(r.wagers_cents) for r in meter_rounds(DAY, tuple(riu_tables)))
    assert row.contributions_cents == accepted * 14 // 100 > 0
    assert Round.objects.filter(table_id__in=riu_tables).count() == 120
