"""A progressive meter as a ledger stream (``meter:<id>``): its event types, the
policy that asks the rules engine (§ 555.13(e)-(f)), two-person adjustments and
the ``progressives.meters`` read model."""

from __future__ import annotations

import datetime

import pytest

from audit import errors, projections
from audit.ledger import Actor, NewEvent, append, read_stream, stream_version
from audit.registry import REGISTRY
from casino.roles import Role
from progressives import service
from progressives.models import Meter
from progressives.projections import METERS
from progressives.streams import ADJUSTMENT_PROPOSED, meter_stream
from tables.rules.progressives.chapters import CARIBBEAN_STUD_555
from tables.rules.progressives.events import (
    METER_EVENT_TYPES,
    MeterConfigured,
    OddCents,
    RateBase,
    ReadingOccasion,
)

pytestmark = pytest.mark.django_db

DAY = datetime.date(2024, 5, 1)
SYSTEM = Actor.system("test")
METER = "CSP-M1"


def person(role: Role, name: str | None = None) -> Actor:
    return Actor(username=name or role.value.replace(" ", "_"), roles=frozenset({role.value}))


SUPERVISOR = person(Role.SHIFT_SUPERVISOR)
FINANCE = person(Role.FINANCE)


def configuration(**overrides) -> MeterConfigured:
    terms = dict(meter_id=METER, effective_from=DAY, chapter="555", tables=("CSP-01", "CSP-02"),
                 wager_amounts_cents=(100,), rate_numerator=70, rate_denominator=100,
                 rate_base=RateBase.AMOUNT_WAGERED, initial_cents=1_000_000,
                 reset_cents=1_000_000, schedule=CARIBBEAN_STUD_555.schedule,
                 share_rounding="round_down_to_cent", odd_cents=OddCents.FIRST_IN_PAYMENT_ORDER)
    terms.update(overrides)
    return MeterConfigured(**terms)


def a_round(round_id, wagers, hits=(), table="CSP-01"):
    return service.record_round(METER, round_id=round_id, table=table, gaming_day=DAY,
                                wagers_cents=(100,) * wagers, hits=hits, actor=SYSTEM)


def meter_row() -> Meter:
    projections.run(METERS)
    return Meter.objects.get(meter_id=METER)


def test_every_meter_event_type_is_registered_with_a_schema_version():
    for name in (*METER_EVENT_TYPES, ADJUSTMENT_PROPOSED):
        assert REGISTRY.event_types[name].version == 1
    assert REGISTRY.stream_kind_of(meter_stream(METER)).accepts_type("meter.paid")


def test_a_meter_linked_to_two_tables_is_one_stream_and_each_round_contributes_its_rate():
    service.configure(configuration(), actor=SUPERVISOR)
    a_round("r1", 5)
    a_round("r2", 2, table="CSP-02")
    a_round("r2", 2, table="CSP-02")  # the same round again: its key returns the first result
    assert stream_version(meter_stream(METER)) == 3
    row = meter_row()
    # § 555.13(e): 70 % of each $1 wager, 7 wagers.
    assert (row.amount_cents, row.tables, row.game) == (1_000_490, ["CSP-01", "CSP-02"],
                                                        "caribbean_stud_poker")


def test_555_13_e_a_rate_below_70_percent_is_refused_and_nothing_is_written():
    with pytest.raises(errors.RuleViolation) as refused:
        service.configure(configuration(rate_numerator=69), actor=SUPERVISOR)
    assert refused.value.section == "555.13(e)"
    assert "rate_numerator" in refused.value.field
    assert stream_version(meter_stream(METER)) == 0


def test_a_meter_is_configured_only_by_a_supervisor_or_an_administrator():
    with pytest.raises(errors.Forbidden):
        service.configure(configuration(), actor=person(Role.DEALER))
    assert stream_version(meter_stream(METER)) == 0


def test_555_13_f_a_share_is_owed_at_the_meter_when_that_player_is_paid():
    service.configure(configuration(), actor=SUPERVISOR)
    a_round("r1", 3, hits=((5, "ROYAL_FLUSH", 100), (2, "FLUSH", 100)))
    # Another table's round contributes before seat 5 is paid: the meter at the turn counts.
    a_round("r9", 10, table="CSP-02")
    service.record_payment(METER, round_id="r1", table="CSP-01", seat=5,
                           amount_cents=1_000_210, validated_by="floorperson", actor=SYSTEM)
    row = meter_row()
    assert row.amount_cents == 0 and row.last_hit_table == "CSP-01"
    assert row.last_hit_hand == "ROYAL_FLUSH" and row.last_hit_cents == 1_000_210
    # § 555.13(e): after a payout of the whole meter, nothing but the reset comes next.
    with pytest.raises(errors.RuleViolation) as refused:
        a_round("r10", 1)
    assert refused.value.section == "555.13(e)"
    append(meter_stream(METER), [NewEvent("meter.reset", {"amount_cents": 1_000_000})],
           expected_version=None, actor=SYSTEM)  # fmt: skip
    service.record_payment(METER, round_id="r1", table="CSP-01", seat=2, amount_cents=5_000,
                           validated_by="floorperson", actor=SYSTEM)  # fmt: skip
    assert meter_row().amount_cents == 1_000_000  # the flush's $50 is the house's


def test_555_12_b_3_a_payment_not_validated_by_a_floorperson_is_refused():
    service.configure(configuration(), actor=SUPERVISOR)
    a_round("r1", 1, hits=((1, "FLUSH", 100),))
    with pytest.raises(errors.RuleViolation) as refused:
        service.record_payment(METER, round_id="r1", table="CSP-01", seat=1, amount_cents=5_000,
                               validated_by=" ", actor=SYSTEM)  # fmt: skip
    assert refused.value.section == "555.12(b)(3)"


def test_555_13_e_a_reset_that_follows_no_payout_of_the_whole_meter_is_refused():
    service.configure(configuration(), actor=SUPERVISOR)
    with pytest.raises(errors.RuleViolation) as refused:
        append(meter_stream(METER), [NewEvent("meter.reset", {"amount_cents": 1_000_000})],
               expected_version=None, actor=SYSTEM)  # fmt: skip
    assert refused.value.section == "555.13(e)" and "signed adjustment" in refused.value.message


def test_a_meter_decreases_by_an_adjustment_only_once_a_second_person_confirms_it():
    service.configure(configuration(), actor=SUPERVISOR)
    proposal = service.propose_adjustment(METER, amount_cents=-2_500, reason="controller reset "
                                          "by a power cut", actor=SUPERVISOR)  # fmt: skip
    assert meter_row().amount_cents == 1_000_000  # a proposal changes nothing
    with pytest.raises(errors.LedgerError):  # the proposer may not confirm his own
        service.confirm_adjustment(METER, proposal_version=proposal.last_version,
                                   amount_cents=-2_500, reason="controller reset by a power cut",
                                   proposed_by=SUPERVISOR.username, actor=SUPERVISOR)  # fmt: skip
    with pytest.raises(errors.RuleViolation) as other:  # not what was proposed
        service.confirm_adjustment(METER, proposal_version=proposal.last_version,
                                   amount_cents=-25_000, reason="controller reset by a power cut",
                                   proposed_by=SUPERVISOR.username, actor=FINANCE)  # fmt: skip
    assert "not the one proposed" in other.value.message
    service.confirm_adjustment(METER, proposal_version=proposal.last_version, amount_cents=-2_500,
                               reason="controller reset by a power cut",
                               proposed_by=SUPERVISOR.username, actor=FINANCE)  # fmt: skip
    assert meter_row().amount_cents == 997_500
    with pytest.raises(errors.RuleViolation):  # confirmed once only
        service.confirm_adjustment(METER, proposal_version=proposal.last_version,
                                   amount_cents=-2_500, reason="controller reset by a power cut",
                                   proposed_by=SUPERVISOR.username, actor=person(
                                       Role.ADMINISTRATOR))  # fmt: skip


def test_an_adjustment_without_a_proposal_is_refused():
    service.configure(configuration(), actor=SUPERVISOR)
    payload = {"amount_cents": -100, "reason": "x", "proposed_by": "someone",
               "confirmed_by": FINANCE.username, "confirms_version": 1}
    with pytest.raises(errors.RuleViolation) as refused:
        append(meter_stream(METER), [NewEvent("meter.adjusted", payload)], expected_version=None,
               actor=FINANCE)  # fmt: skip
    assert "confirms_version" in refused.value.field


def test_readings_are_kept_beside_the_book_amount_on_the_read_model():
    service.configure(configuration(), actor=SUPERVISOR)
    a_round("r1", 10)
    service.record_reading(METER, table="CSP-02", gaming_day=DAY,
                           occasion=ReadingOccasion.CLOSING, displayed_cents=1_000_800,
                           actor=SYSTEM)  # fmt: skip
    row = meter_row()
    assert (row.amount_cents, row.displayed_cents) == (1_000_700, 1_000_800)


def test_a_configuration_change_is_effective_dated_and_kept_with_its_history():
    service.configure(configuration(), actor=SUPERVISOR)
    a_round("r1", 10)
    later = configuration(effective_from=DAY + datetime.timedelta(days=1), rate_numerator=80,
                          tables=("CSP-01", "CSP-02", "CSP-03"))  # fmt: skip
    service.configure(later, actor=SUPERVISOR)
    with pytest.raises(errors.RuleViolation):  # never into the past of a contribution
        service.configure(configuration(effective_from=DAY, rate_numerator=90), actor=SUPERVISOR)
    assert meter_row().tables == ["CSP-01", "CSP-02", "CSP-03"]
    kinds = [event.event_type for event in read_stream(meter_stream(METER))]
    assert kinds == ["meter.configured", "meter.contributed", "meter.configured"]


def test_the_read_model_rebuilds_identically_from_the_ledger():
    service.configure(configuration(), actor=SUPERVISOR)
    a_round("r1", 4, hits=((3, "STRAIGHT_FLUSH", 100),))
    service.record_payment(METER, round_id="r1", table="CSP-01", seat=3, amount_cents=100_002,
                           validated_by="floorperson", actor=SYSTEM)  # fmt: skip
    projections.run(METERS)
    before = list(Meter.objects.values())
    projections.rebuild(METERS)
    assert list(Meter.objects.values()) == before
