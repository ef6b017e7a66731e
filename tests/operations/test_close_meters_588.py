"""Six-Card Fortune Pai Gow Poker's meter (§ 588.12(d)) in the gaming-day close: its
tables' accepted Progressive Payout Wagers contribute at the configured rate (the
chapter states none, so the configuration must give one), a hit paid a share of the
meter reaches it as Caribbean Stud's and Raise It Up's do, and the day reconciles."""

from __future__ import annotations

import pytest

from audit.ledger import Actor, NewEvent, append
from operations.close import close_gaming_day
from operations.management.commands.demo import SCF_METER, TABLE_OPTIONS, Command, declared_tables
from operations.meter_rounds import meter_rounds, record_day
from progressives import service
from progressives.models import MeterDay
from tables.models import DealingMethod, Table, Variance
from tables.rules.events import DealingMethod as EngineDealing
from tables.rules.events import RoundOpened
from tables.rules.games import six_card_fortune_588 as game
from tables.rules.progressives.chapters import SIX_CARD_FORTUNE_588
from tables.rules.progressives.events import MeterConfigured, OddCents, RateBase
from tables.simulation import TablePlan, simulate_table_days
from tests.operations.test_close import CREW, DAY, IN_DAY, NEXT_MORNING
from tests.rules import test_six_card_fortune_588 as scf

pytestmark = pytest.mark.django_db

SYSTEM = Actor.system("meters")
SUPERVISOR = Actor(username="shift_supervisor", roles=frozenset({"shift supervisor"}))
METER = "SCF-M1"
#: The casino's rate of progression (its Rules Submission's; § 588.12 states none).
RATE = 15
OPTIONS = TABLE_OPTIONS["six_card_fortune_pai_gow_poker"]  # the demo's tables'
PLAYED, STAGED = ("SCF-01", "SCF-02"), "SCF-03"


@pytest.fixture
def scf_tables(casino, ledger_clock):
    ledger_clock.at = IN_DAY
    for table_id in (*PLAYED, STAGED):
        Table.objects.create(table_id=table_id, pit="2", game="six_card_fortune_pai_gow_poker",
                             ruleset_id="PA-588-2014", min_wager_cents=500,
                             max_wager_cents=50000,
                             dealing_method=DealingMethod.MANUAL_SHOE)  # fmt: skip
    service.configure(MeterConfigured(
        meter_id=METER, effective_from=DAY, chapter="588", tables=(*PLAYED, STAGED),
        wager_amounts_cents=(100, 500, 2_500), rate_numerator=RATE, rate_denominator=100,
        rate_base=RateBase.AMOUNT_WAGERED, initial_cents=500_000, reset_cents=500_000,
        schedule=SIX_CARD_FORTUNE_588.schedule, share_rounding="round_down_to_cent",
        odd_cents=OddCents.FIRST_IN_PAYMENT_ORDER), actor=SUPERVISOR)  # fmt: skip
    simulate_table_days([TablePlan(t, "PA-588-2014", options=OPTIONS) for t in PLAYED], DAY,
                        rounds_per_table=40, seed=11, crew=CREW, dealer_error_percent=0,
                        irregularity_percent=0)  # fmt: skip


def _a_royal_flush_round() -> None:
    """§ 588.12(d)(1): a royal flush is paid 10 % of the meter, off the table; seat 1's
    straight flush is paid 300 for 1 by the dealer, not from the meter."""
    side = [(1, game.PROGRESSIVE, 500), (2, game.PROGRESSIVE, 100)]
    hands = {1: "9s Ts Js Qs Ks 2h", 2: "Ac Kc Qc Jc Tc 2s"}
    events = scf.a_round(hands, {1: "6", 2: "6"}, dealer="8d 8h 6c 4s 3h 2d", side=side,
                         progressive_offered=True, **scf.READINGS)  # fmt: skip
    opened = events[0]
    events[0] = RoundOpened.build(
        round_id="SCF-03-1", game=opened.game, ruleset_id=opened.ruleset_id, table_id=STAGED,
        gaming_day=DAY, seats=opened.seats, players=opened.players,
        dealing_method=EngineDealing.MANUAL_SHOE, start="rng", progressive_offered=True,
        **scf.READINGS)  # fmt: skip
    actor = Actor.system("simulator", source="simulator")
    append(f"table:{STAGED}:{DAY}", [NewEvent("table.opened", {
        "opener": {"500": 40}, "dealer": CREW.dealer, "floorperson": CREW.floorperson})],
        expected_version=0, actor=actor)  # fmt: skip
    append("round:SCF-03-1", [NewEvent(e.TYPE, e.to_payload()) for e in events],
           expected_version=0, actor=actor)  # fmt: skip


def test_588_12_d_the_meter_takes_its_tables_wagers_at_the_configured_rate(
        scf_tables, ledger_clock):  # fmt: skip
    rounds = list(meter_rounds(DAY, PLAYED))
    accepted = sum(sum(r.wagers_cents) for r in rounds)
    assert accepted > 0 and {r.table for r in rounds} == set(PLAYED)
    state = record_day(METER, DAY, actor=SYSTEM, validated_by="floorperson").state
    ledger_clock.at = NEXT_MORNING
    close_gaming_day(DAY, requested_by="finance")
    assert not Variance.objects.filter(table_id=METER).exists()
    row = MeterDay.objects.get(meter_id=METER, gaming_day=DAY)
    assert (row.chapter, row.opening_cents) == ("588", 500_000)
    assert row.contributions_cents == accepted * RATE // 100
    assert row.closing_cents == state.amount_cents == row.displayed_cents


def test_588_12_d_1_and_d_3_a_royal_flush_is_paid_a_tenth_of_the_meter_at_its_turn(
        scf_tables, ledger_clock):  # fmt: skip
    _a_royal_flush_round()
    (staged,) = meter_rounds(DAY, (STAGED,))
    assert (staged.wagers_cents, staged.hits) == ((500, 100), ((2, "ROYAL_FLUSH", 100),))
    state = record_day(METER, DAY, actor=SYSTEM, validated_by="floorperson").state
    ledger_clock.at = NEXT_MORNING
    close_gaming_day(DAY, requested_by="shift_supervisor", force=True)  # SCF-03 left open
    row = MeterDay.objects.get(meter_id=METER, gaming_day=DAY)
    # The meter when seat 2's turn came (§ 588.12(d)(3)): every round before it and its own.
    before = sum(sum(r.wagers_cents) for r in meter_rounds(DAY, (*PLAYED, STAGED)))
    owed = (500_000 + before * RATE // 100) // 10
    assert row.payouts_cents == owed > 50_000
    assert row.closing_cents == state.amount_cents == 500_000 + row.contributions_cents - owed
    assert not Variance.objects.filter(table_id=METER).exists()


def test_588_12_d_a_wrong_payment_of_the_royal_flush_is_a_variance_citing_the_turn(
        scf_tables, ledger_clock):  # fmt: skip
    _a_royal_flush_round()
    recorded = record_day(METER, DAY, actor=SYSTEM, validated_by="floorperson",
                          wrong_payment_cents=2_500)  # fmt: skip
    assert recorded.wrong_payment_made
    ledger_clock.at = NEXT_MORNING
    close_gaming_day(DAY, requested_by="shift_supervisor", force=True)  # SCF-03 left open
    variance = Variance.objects.get(table_id=METER, kind="meter_payout")
    assert variance.amount == 2_500 and "588.12(d)(3)" in variance.detail


def test_588_12_d_the_demo_links_both_six_card_fortune_tables_to_a_third_meter(
        casino, ledger_clock):  # fmt: skip
    """The rate is the demo casino's (15 %): § 588.12 states none, so it has no default."""
    from fractions import Fraction

    from django.contrib.auth.models import User

    from audit.ledger import read_stream
    from progressives.streams import folded, meter_stream

    ids = tuple(t[0] for t in declared_tables() if t[1] == "six_card_fortune_pai_gow_poker")
    for table_id in ids:
        Table.objects.create(table_id=table_id, pit="2", game="six_card_fortune_pai_gow_poker",
                             ruleset_id="PA-588-2014", min_wager_cents=500,
                             max_wager_cents=50000,
                             dealing_method=DealingMethod.MANUAL_SHOE)  # fmt: skip
    supervisor, _ = User.objects.get_or_create(username="supervisor")
    supervisor.groups.set(User.objects.get(username="shift_supervisor").groups.all())
    ledger_clock.at = IN_DAY
    assert SCF_METER in Command()._configure_meters(DAY)
    state = folded(read_stream(meter_stream(SCF_METER)))
    config = state.history[-1]
    assert (config.chapter, config.tables, config.rate) == ("588", ids, Fraction(15, 100))
    assert len(ids) == 2 and state.amount_cents >= SIX_CARD_FORTUNE_588.minimum_reset_cents

