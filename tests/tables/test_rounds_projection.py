"""The rounds projection replays each round and stores its findings."""

from __future__ import annotations

import datetime

import pytest
from django.core.management import call_command

from audit import projections
from audit.ledger import Actor, NewEvent, append
from tables.models import Finding, Round
from tables.simulation import TablePlan, simulate_gaming_day
from tests.tables.helpers import DealerError, criss_cross_round

pytestmark = pytest.mark.django_db
DAY = datetime.date(2024, 5, 1)


def _append(events, stream="round:T1-1"):
    append(
        stream,
        [NewEvent(e.TYPE, e.to_payload()) for e in events],
        expected_version=0,
        actor=Actor.system("tests"),
    )


def test_a_correct_round_has_no_findings_and_balances():
    events, _ = criss_cross_round()
    _append(events)
    projections.run(projections.PROJECTIONS["tables.rounds"])
    row = Round.objects.get(stream_id="round:T1-1")
    assert (row.status, row.table_id, row.gaming_day, row.finding_count) == ("closed", "T1", DAY, 0)
    assert row.recorded_paid_cents == row.required_paid_cents
    assert row.recorded_collected_cents == row.required_collected_cents


def test_674a_12_b_paying_a_pair_of_tens_is_a_finding():
    # Search seeds for a round where the dealer can wrongly pay a pair of 10s.
    for seed in range(400):
        events, injected = criss_cross_round(
            seed=seed, dealer_errors=[DealerError.PAY_PAIR_OF_TENS]
        )
        if injected:
            break
    else:
        pytest.fail("no simulated round with a pair of 10s")
    _append(events)
    projections.run(projections.PROJECTIONS["tables.rounds"])
    (finding,) = Finding.objects.all()
    assert finding.kind == "UNEXPECTED_PAYMENT"
    assert (finding.seat, finding.wager) == (injected[0].seat, injected[0].wager.value)
    assert "674a.12(b)" in finding.section


def test_every_injected_dealer_error_becomes_exactly_one_finding_and_rebuild_is_identical():
    # 592 is not in force in 2024: simulate each rule set on a day it governs.
    expected = []
    for seed, (plan, day) in enumerate(
        [
            (TablePlan("CC-1", "PA-674a-2019"), DAY),
            (TablePlan("CC-2", "PA-592-2014"), datetime.date(2015, 6, 1)),
            (TablePlan("DX-1", "MA-DCP-UNDATED"), DAY),
        ]
    ):
        summary = simulate_gaming_day(
            [plan],
            day,
            rounds_per_table=40,
            seed=seed,
            dealer_error_percent=30,
            irregularity_percent=0,
        )
        expected.extend(
            (stream, i.seat, i.wager.value, i.expected_finding.value)
            for stream, i in summary.injected
        )
    assert len(expected) > 10
    found = sorted(Finding.objects.values_list("round_id", "seat", "wager", "kind"))
    assert found == sorted(expected)
    assert Round.objects.count() == 120

    rounds = list(Round.objects.order_by("stream_id").values_list())
    findings = sorted(
        Finding.objects.values_list(
            "round_id", "seat", "wager", "kind", "expected_cents", "recorded_cents", "section"
        )
    )
    call_command("rebuild_projection", "tables.rounds", "--no-progress")
    assert list(Round.objects.order_by("stream_id").values_list()) == rounds
    assert (
        sorted(
            Finding.objects.values_list(
                "round_id", "seat", "wager", "kind", "expected_cents", "recorded_cents", "section"
            )
        )
        == findings
    )


def test_bulk_simulation_through_append_many_gives_the_same_rounds_and_findings():
    plan = [TablePlan("CC-9", "PA-674a-2019")]
    one = simulate_gaming_day(plan, DAY, rounds_per_table=12, seed=9, dealer_error_percent=50)
    rows = list(
        Round.objects.order_by("stream_id").values_list(
            "stream_id", "wagered_cents", "finding_count", "required_paid_cents"
        )
    )
    Finding.objects.all().delete()
    Round.objects.all().delete()
    from audit.ledger import read_stream

    first_events = [e.payload for e in read_stream("round:CC-9-20240501-00001")]
    plan_b = [TablePlan("CC-8", "PA-674a-2019")]
    bulk = simulate_gaming_day(
        plan_b, DAY, rounds_per_table=12, seed=9, dealer_error_percent=50, rounds_per_commit=5
    )
    assert (bulk.rounds, bulk.events, len(bulk.injected)) == (
        one.rounds,
        one.events,
        len(one.injected),
    )
    bulk_rows = list(
        Round.objects.filter(table_id="CC-8")
        .order_by("stream_id")
        .values_list("stream_id", "wagered_cents", "finding_count", "required_paid_cents")
    )
    assert [r[1:] for r in bulk_rows] == [r[1:] for r in rows]
    bulk_events = [e.payload for e in read_stream("round:CC-8-20240501-00001")]
    assert bulk_events[1:] == first_events[1:]
