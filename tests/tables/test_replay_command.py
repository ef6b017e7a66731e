"""manage.py replay: every round of a day or a table, with a summary."""

from __future__ import annotations

import datetime
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from tables.simulation import TablePlan, simulate_gaming_day

pytestmark = pytest.mark.django_db
DAY = datetime.date(2024, 5, 1)


@pytest.fixture
def day():
    return simulate_gaming_day(
        [TablePlan("CC-1", "PA-674a-2019"), TablePlan("DX-1", "MA-DCP-UNDATED")],
        DAY,
        rounds_per_table=15,
        seed=11,
        dealer_error_percent=40,
        irregularity_percent=0,
    )


def _replay(*args: str) -> str:
    out = StringIO()
    call_command("replay", "--no-progress", *args, stdout=out)
    return out.getvalue()


def test_it_replays_a_day_and_counts_findings_by_kind(day):
    out = _replay("--gaming-day", "2024-05-01")
    assert f"Replayed 30 rounds, {day.events:,} events" in out
    kinds = {}
    for _, injected in day.injected:
        kinds[injected.expected_finding.value] = kinds.get(injected.expected_finding.value, 0) + 1
    for kind, count in kinds.items():
        assert f"{kind:<26} {count:>8,}" in out


def test_it_filters_by_table_and_lists_findings_with_sections(day):
    out = _replay("--table", "DX-1", "--list")
    assert "Replayed 15 rounds" in out
    listed = [line for line in out.splitlines() if line.startswith("round:DX-1")]
    assert len(listed) == sum(1 for stream, _ in day.injected if stream.startswith("round:DX-1"))
    assert all("(§ " in line for line in listed)


def test_an_empty_selection_is_an_error(day):
    with pytest.raises(CommandError, match="no rounds match gaming day 2020-01-01"):
        _replay("--gaming-day", "2020-01-01")


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_workers_share_the_rounds_and_agree_with_one_process():
    """Worker processes read committed rounds, hence a transactional test."""
    from tables.verification import RoundSelection, count_rounds, split_tables, tables_of

    simulate_gaming_day([TablePlan("CC-1", "PA-674a-2019"), TablePlan("DX-1", "MA-DCP-UNDATED")],
                        DAY, rounds_per_table=15, seed=11, dealer_error_percent=40,
                        irregularity_percent=0)  # fmt: skip
    selection = RoundSelection(gaming_day=DAY)
    assert tables_of(selection) == {"CC-1": 15, "DX-1": 15} and count_rounds(selection) == 30
    assert split_tables(tables_of(selection), 8) == [["CC-1"], ["DX-1"]]  # by table
    single = _replay("--gaming-day", "2024-05-01")
    assert single.splitlines()[1:] == _replay_with_workers().splitlines()[1:]


def _replay_with_workers() -> str:
    out = StringIO()
    call_command("replay", "--no-progress", "--gaming-day", "2024-05-01", "--workers", "2",
                 stdout=out)  # fmt: skip
    return out.getvalue()


def test_a_part_task_replays_its_tables_and_its_summary_travels_as_json(day):
    """What a Celery worker runs for ``replay --workers N`` with a broker: its
    parts' summaries add up to the one-process replay."""
    from tables.tasks import replay_tables_task
    from tables.verification import ReplaySummary, RoundSelection, replay_rounds

    whole = replay_rounds(RoundSelection(gaming_day=DAY))
    merged = ReplaySummary()
    for part in (["CC-1"], ["DX-1"]):
        merged.merge(ReplaySummary.from_payload(replay_tables_task("2024-05-01", part)))
    assert merged.findings == whole.findings and merged.rounds == whole.rounds == 30
    assert (merged.events, merged.rounds_with_findings) == (whole.events,
                                                            whole.rounds_with_findings)


def test_workers_with_a_broker_but_no_result_backend_are_refused(day, settings):
    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.CELERY_RESULT_BACKEND = None
    with pytest.raises(CommandError, match="CELERY_RESULT_BACKEND"):
        _replay("--gaming-day", "2024-05-01", "--workers", "2")
