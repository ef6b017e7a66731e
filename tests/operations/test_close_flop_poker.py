"""A Flop Poker table (§ 583) through the close: its Pot Wagers are the players'
money (§ 583.8(b), § 583.11(e)), so they are no handle, carry no theoretical win
and move no chips of the rack; the day still reconciles to the cent."""

from __future__ import annotations

import pytest

from audit.ledger import iter_all
from operations.close import close_gaming_day
from tables.models import DealingMethod, Table, TableDayFigures
from tables.rules.house_edge import theoretical_win
from tables.simulation import TablePlan, simulate_table_days
from tables.win import day_win
from tests.operations.test_close import CREW, DAY, IN_DAY, NEXT_MORNING, PLANS

pytestmark = pytest.mark.django_db

FLP = TablePlan("FP-01", "PA-583-2014")


@pytest.fixture
def played(casino, ledger_clock):
    Table.objects.create(table_id="FP-01", pit="1", game="flop_poker", ruleset_id="PA-583-2014",
                         min_wager_cents=500, max_wager_cents=50000,
                         dealing_method=DealingMethod.MANUAL_SHOE)  # fmt: skip
    ledger_clock.at = IN_DAY
    summary = simulate_table_days([*PLANS, FLP], DAY, rounds_per_table=30, seed=5, crew=CREW,
                                  dealer_error_percent=20)  # fmt: skip
    ledger_clock.at = NEXT_MORNING
    return summary


def _placed(table_id: str) -> dict[str, int]:
    rounds, placed = set(), {}
    for event in iter_all():
        if event.event_type == "round.opened" and event.payload["table_id"] == table_id:
            rounds.add(event.stream_id)
        elif event.stream_id in rounds and event.payload.get("amount_cents"):
            wager = {"round.wager_placed": event.payload.get("wager"),
                     "round.decision": "FLOP"}.get(event.event_type)  # fmt: skip
            if wager:
                placed[wager] = placed.get(wager, 0) + event.payload["amount_cents"]
    return placed


def test_583_11_e_the_pot_is_no_handle_no_theoretical_win_and_no_rack_chips(played):
    report = close_gaming_day(DAY, requested_by="finance")
    row = TableDayFigures.objects.get(table_id="FP-01", gaming_day=DAY)
    assert row.status == "reconciled" and row.rounds == 30 and report.variances == 0
    placed = _placed("FP-01")
    assert placed["POT"] and placed["POT"] % 500 == 0  # each the table minimum
    handle = {wager: amount for wager, amount in placed.items() if wager != "POT"}
    assert row.handle_cents == sum(handle.values())
    assert row.theoretical_win_cents == round(theoretical_win("PA-583-2014", handle))
    # The rack moved by what the dealer collected less what he paid, the pot's transfers
    # between players left out: the count's win is exactly that.
    rack = played.collected_cents["FP-01"] - played.paid_cents["FP-01"]
    assert row.win_cents == day_win("FP-01", DAY).win_cents == rack
    assert row.win_cents == row.collected_cents - row.paid_cents
    assert row.collected_cents < played.collected_cents["FP-01"]  # the pots' losers left out
