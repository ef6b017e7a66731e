"""The gaming-day close (``operations.close``): tables checked, rounds replayed,
each table reconciled, the day sealed and exported — one ledger event per
stage, idempotent and resumable.

The win is closing inventory + credits + drop − opening inventory − fills
(as the issue cites Pennsylvania § 601a.9(c); that text is not among our
sources). The inventory and count procedures are internal controls (PA
Chapter 465a), so the close's refusals cite no section.
"""

from __future__ import annotations

import base64
import datetime
import subprocess
import sys
from fractions import Fraction

import pytest

from audit import errors
from audit.ledger import Actor, NewEvent, append, iter_all, read_stream
from casino.models import Casino, DayClose, DayCloseStatus, Jurisdiction, VariancePolicy
from operations import close
from operations.close import CloseRefused, close_gaming_day, close_stream_id
from tables.models import DealingMethod, Game, Table, TableDayFigures, Variance
from tables.rules.events import Wager
from tables.rules.house_edge import CRISS_CROSS_GAME, DOUBLE_CROSS_GAME, FIVE_CARD_BONUS, THREE_CARD
from tables.simulation import OPENER, Crew, TableDayPlan, TablePlan, simulate_table_days
from tables.win import day_win
from tests.audit import helpers

pytestmark = pytest.mark.django_db

DAY = datetime.date(2024, 5, 1)
#: 06:00 New York is 10:00 UTC in May: inside DAY, and inside the day after.
IN_DAY = datetime.datetime(2024, 5, 1, 15, tzinfo=datetime.UTC)
NEXT_MORNING = datetime.datetime(2024, 5, 2, 11, tzinfo=datetime.UTC)
TEST_KEY = base64.b64encode(bytes(range(32))).decode()
CREW = Crew(dealer="dealer", floorperson="floorperson", cage="cage_cashier", counter="finance",
            verifier="shift_supervisor")  # fmt: skip
PLANS = [TablePlan("T1", "PA-674a-2019"), TablePlan("D1", "MA-DCP-UNDATED")]


class LedgerClock(helpers.LedgerClock):
    """Play is recorded during DAY, the count and the close the next morning,
    as on the floor."""

    def __init__(self, monkeypatch):
        super().__init__(monkeypatch, IN_DAY)


@pytest.fixture
def ledger_clock(monkeypatch):
    return LedgerClock(monkeypatch)


@pytest.fixture
def casino(role_users, settings, tmp_path, ledger_clock):
    settings.EXPORT_ROOT = tmp_path / "exports"
    settings.LEDGER_SIGNING_KEY = TEST_KEY
    jurisdiction, _ = Jurisdiction.objects.get_or_create(code="PA", name="Pennsylvania")
    Casino.objects.create(name="Test casino", jurisdiction=jurisdiction)
    Table.objects.create(table_id="T1", game=Game.CRISS_CROSS_POKER, ruleset_id="PA-674a-2019",
                         min_wager_cents=500, max_wager_cents=50000,
                         dealing_method=DealingMethod.HAND)  # fmt: skip
    Table.objects.create(table_id="D1", game=Game.DOUBLE_CROSS_POKER, ruleset_id="MA-DCP-UNDATED",
                         min_wager_cents=500, max_wager_cents=50000,
                         dealing_method=DealingMethod.MANUAL_SHOE)  # fmt: skip
    return role_users


@pytest.fixture
def play(ledger_clock):
    def play(plan: TableDayPlan | None = None, rounds=30, seed=7):
        """Table days recorded during DAY; the clock then moves to the next
        morning, where the close runs."""
        ledger_clock.at = IN_DAY
        summary = simulate_table_days(PLANS, DAY, rounds_per_table=rounds, seed=seed, crew=CREW,
                                      plan=plan, dealer_error_percent=0,
                                      irregularity_percent=0)  # fmt: skip
        ledger_clock.at = NEXT_MORNING
        return summary

    return play


def figures(table_id, day=DAY) -> TableDayFigures:
    return TableDayFigures.objects.get(table_id=table_id, gaming_day=day)


def test_a_clean_day_reconciles_to_the_cent(casino, play):
    summary = play()
    report = close_gaming_day(DAY, requested_by="finance")
    assert report.stages_run == ["started", "replayed", "reconciled", "sealed", "exported",
                                 "completed"]  # fmt: skip
    assert report.tables == 2 and report.variances == 0
    for table_id in ("T1", "D1"):
        row = figures(table_id)
        # The count's win (tables.win, read straight from the ledger) …
        assert row.win_cents == day_win(table_id, DAY).win_cents
        # … equals what the dealers collected less what they paid.
        rack = summary.collected_cents[table_id] - summary.paid_cents[table_id]
        assert row.win_cents == rack == row.collected_cents - row.paid_cents
        assert row.opener_cents == sum(int(k) * v for k, v in OPENER.items())
        assert row.status == "reconciled" and row.rounds == 30
        assert row.hold_basis_points == round(Fraction(row.win_cents, row.drop_cents) * 10_000)
    day = DayClose.objects.get(gaming_day=DAY)
    assert day.status == DayCloseStatus.CLOSED and day.seal_hash and day.export_sha256
    assert report.export.is_file()


def test_theoretical_win_is_handle_times_the_par_sheet_edges(casino, play):
    play()
    close_gaming_day(DAY, requested_by="finance")
    # Handle by wager, summed here from the stored events (not by the close's tally).
    handle: dict[tuple[str, str], int] = {}
    rounds = {}
    for event in iter_all():
        if event.event_type == "round.opened":
            rounds[event.stream_id] = event.payload["table_id"]
        elif event.event_type == "round.wager_placed":
            key = (rounds[event.stream_id], event.payload["wager"])
            handle[key] = handle.get(key, 0) + event.payload["amount_cents"]
    t1 = ((handle[("T1", Wager.ANTE_ACROSS)] + handle[("T1", Wager.ANTE_DOWN)])
          * CRISS_CROSS_GAME.edge + handle.get(("T1", Wager.FIVE_CARD_BONUS), 0)
          * FIVE_CARD_BONUS.edge)  # fmt: skip
    d1 = (handle[("D1", Wager.ANTE)] * DOUBLE_CROSS_GAME.edge
          + handle.get(("D1", Wager.THREE_CARD), 0) * THREE_CARD.edge)  # fmt: skip
    assert figures("T1").theoretical_win_cents == round(t1)
    assert figures("D1").theoretical_win_cents == round(d1)
    assert figures("T1").handle_cents == sum(v for (t, _), v in handle.items() if t == "T1")


def test_inventory_and_drop_variances_above_the_25_dollar_tolerance(casino, play):
    # T1's tray is $30 short at the close; D1's drop is $100 short at the count.
    play(TableDayPlan(inventory_short_cents={"T1": 3_000}, drop_short_cents={"D1": 10_000}))
    close_gaming_day(DAY, requested_by="finance")
    variances = {(v.table_id, v.kind): v for v in Variance.objects.filter(gaming_day=DAY)}
    assert set(variances) == {("T1", "inventory"), ("D1", "drop")}
    inventory = variances[("T1", "inventory")]
    assert (inventory.amount, inventory.threshold, inventory.unit) == (-3_000, 2_500, "cents")
    assert "-$30.00 unexplained" in inventory.detail
    assert variances[("D1", "drop")].amount == -10_000
    # Hand-computed: the win falls by exactly the shortage.
    t1, d1 = figures("T1"), figures("D1")
    assert t1.win_cents == t1.collected_cents - t1.paid_cents - 3_000
    assert d1.win_cents == d1.collected_cents - d1.paid_cents - 10_000
    assert t1.variances == 1 and d1.variances == 1


def test_shortages_within_tolerance_raise_nothing(casino, play):
    play(TableDayPlan(inventory_short_cents={"T1": 2_500}, drop_short_cents={"D1": 2_500}))
    close_gaming_day(DAY, requested_by="finance")
    assert not Variance.objects.exists()


def test_thresholds_come_from_the_jurisdictions_policy_in_force(casino, play):
    VariancePolicy.objects.create(jurisdiction_id="PA", effective_from=datetime.date(2024, 1, 1),
                                  inventory_tolerance_cents=5_000)  # fmt: skip
    play(TableDayPlan(inventory_short_cents={"T1": 3_000}))
    close_gaming_day(DAY, requested_by="finance")
    assert not Variance.objects.filter(kind="inventory").exists()
    started = read_stream(close_stream_id(DAY))[0]
    assert started.payload["thresholds"]["inventory_tolerance_cents"] == 5_000


def test_open_tables_and_unverified_counts_refuse_the_close_listing_them(casino, play):
    play(TableDayPlan(left_open=frozenset({"T1"}), unverified=frozenset({"D1"})))
    with pytest.raises(CloseRefused) as refused:
        close_gaming_day(DAY, requested_by="finance")
    assert "still open: T1" in str(refused.value)
    assert "drop not counted and verified: D1" in str(refused.value)
    assert read_stream(close_stream_id(DAY)) == []


def test_only_a_shift_supervisor_may_force_the_close(casino, play):
    play(TableDayPlan(left_open=frozenset({"T1"})))
    with pytest.raises(errors.RuleViolation, match="requested_by"):
        close_gaming_day(DAY, requested_by="finance", force=True)
    report = close_gaming_day(DAY, requested_by="shift_supervisor", force=True)
    assert report.tables == 2
    assert figures("T1").status == "left_open" and figures("T1").win_cents == 0
    assert Variance.objects.get(table_id="T1").kind == "left_open"
    assert figures("D1").status == "reconciled"
    started = read_stream(close_stream_id(DAY))[0].payload
    assert started["forced"] is True and started["left_open"] == ["T1"]


def test_a_day_not_yet_ended_is_refused(casino):
    with pytest.raises(CloseRefused, match="has not ended"):
        close_gaming_day(DAY, requested_by="finance",
                         now=datetime.datetime(2024, 5, 1, 12, tzinfo=datetime.UTC))  # fmt: skip


def test_a_second_close_changes_nothing_and_reports_already_closed(casino, play):
    play()
    first = close_gaming_day(DAY, requested_by="finance")
    version = len(read_stream(close_stream_id(DAY)))
    again = close_gaming_day(DAY, requested_by="finance")
    assert again.already_closed and again.stages_run == []
    assert "already closed" in again.summary()
    assert len(read_stream(close_stream_id(DAY))) == version == 6
    assert (again.win_cents, again.tables, again.export) == (first.win_cents, first.tables,
                                                             first.export)  # fmt: skip


def test_a_close_interrupted_mid_way_resumes_with_identical_results(casino, play, monkeypatch,
                                                                      tmp_path):  # fmt: skip
    play(TableDayPlan(inventory_short_cents={"T1": 3_000}))

    def crash(*args, **kwargs):
        raise RuntimeError("worker lost")

    monkeypatch.setattr(close, "_export", crash)
    with pytest.raises(RuntimeError):
        close_gaming_day(DAY, requested_by="finance")
    assert [e.event_type for e in read_stream(close_stream_id(DAY))][-1] == "close.sealed"
    reconciled = read_stream(close_stream_id(DAY))[2].payload
    # A recount after the close began is past its cutoff: the close ignores it.
    append(f"count:T1:{DAY}", [NewEvent("count.recount", {
        "currency": {"10000": 1}, "chips": {}, "counted_by": "finance",
        "reason": "recounted after the close began"})],
        expected_version=2, actor=Actor.system("test", source="test"))  # fmt: skip
    monkeypatch.undo()
    report = close_gaming_day(DAY, requested_by="finance")
    assert report.stages_run == ["exported", "completed"]
    assert read_stream(close_stream_id(DAY))[2].payload == reconciled
    assert figures("T1").drop_cents != 10_000


def test_two_exports_of_a_closed_day_are_byte_identical_and_verify(casino, play, tmp_path):
    from audit.exports import export_day

    play()
    report = close_gaming_day(DAY, requested_by="finance")
    again = export_day(DAY, tmp_path / "again", make_zip=True)
    assert again.with_suffix(".zip").read_bytes() == report.export.read_bytes()
    win_report = (again / "win_report.csv").read_text()
    assert win_report.splitlines()[0].startswith("table_id,gaming_day,game,pit")
    assert len(win_report.splitlines()) == 3
    checked = subprocess.run([sys.executable, str(again / "verify_export.py"), str(again)],
                             capture_output=True, text=True)  # fmt: skip
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "close_events.jsonl: 4 events of close:2024-05-01 intact" in checked.stdout


def test_the_close_reads_the_day_once_for_the_replay_the_seal_and_the_export(
    casino, play, monkeypatch, tmp_path
):
    """One pass in position order replays the rounds, checks every hash and
    link for the seal and writes events.jsonl; the figures are those of the
    rounds read and replayed on their own, the export byte for byte a fresh
    one's (which reads the day apart)."""
    import audit.exports
    import audit.seals
    import tables.verification
    from audit.exports import export_day
    from operations import day_read

    play(TableDayPlan(inventory_short_cents={"T1": 3_000}))
    reads = []
    member_rows = audit.seals.member_rows

    def counted(members):
        reads.append(len(members))
        return member_rows(members)

    def forbidden(*args, **kwargs):
        raise AssertionError("the day was read a second time")

    monkeypatch.setattr(day_read, "member_rows", counted)
    monkeypatch.setattr(audit.seals, "walk_day", forbidden)
    monkeypatch.setattr(audit.exports, "write_events", forbidden)
    monkeypatch.setattr(tables.verification, "iter_round_events", forbidden)
    # The read models' CSVs too: written once, as the seal signs them, and moved in.
    csv_rows, tables_read = audit.exports._csv_rows, []

    def rows_once(queryset):
        tables_read.append(queryset.model._meta.db_table)
        return csv_rows(queryset)

    monkeypatch.setattr(audit.exports, "_csv_rows", rows_once)
    # And the seal's members, seconds of a busy day's server time: asked once.
    members_of, asked = audit.seals.gather_members, []

    def gathered(*args):
        asked.append(args[0])
        return members_of(*args)

    monkeypatch.setattr(audit.seals, "gather_members", gathered)
    monkeypatch.setattr(day_read, "gather_members", gathered)
    report = close_gaming_day(DAY, requested_by="finance")
    assert len(reads) == 1
    assert tables_read and len(tables_read) == len(set(tables_read))
    assert asked == [DAY]
    monkeypatch.undo()
    events = read_stream(close_stream_id(DAY))
    cutoff = events[0].payload["cutoff_position"]
    assert events[1].payload == day_read.replay_apart(DAY, cutoff).payload()
    assert events[1].payload["rounds"] == 60
    assert not list(report.export.parent.glob(".*"))  # the events file and CSVs moved in
    again = export_day(DAY, tmp_path / "again", make_zip=True)
    assert again.with_suffix(".zip").read_bytes() == report.export.read_bytes()


def test_a_changed_close_event_in_the_export_is_named_by_the_verifier(casino, play, tmp_path):
    import json

    from audit.exports import export_day

    play()
    close_gaming_day(DAY, requested_by="finance")
    directory = export_day(DAY, tmp_path)
    path = directory / "close_events.jsonl"
    lines = path.read_bytes().splitlines(keepends=True)
    tampered = lines[2].replace(b'"win_cents":', b'"win_cents":1', 1)
    path.write_bytes(b"".join([*lines[:2], tampered, *lines[3:]]))
    manifest = json.loads((directory / "manifest.json").read_text())
    import hashlib

    manifest["files"]["close_events.jsonl"] = {
        "sha256": hashlib.sha256(path.read_bytes()).hexdigest(), "bytes": path.stat().st_size}
    (directory / "manifest.json").write_text(
        json.dumps(manifest, indent=2, sort_keys=True, ensure_ascii=False) + "\n")
    checked = subprocess.run([sys.executable, str(directory / "verify_export.py"),
                              str(directory)], capture_output=True, text=True)  # fmt: skip
    assert checked.returncode == 1
    assert "close_events.jsonl line 3: content altered" in checked.stdout + checked.stderr


def test_the_close_runs_at_the_gaming_day_boundary_and_follows_it(casino):
    from django_celery_beat.models import PeriodicTask

    task = PeriodicTask.objects.get(task="casino.close_due_day")
    assert (task.crontab.hour, task.crontab.minute) == ("6", "0")
    casino_row = Casino.objects.get()
    casino_row.gaming_day_starts_at = datetime.time(4, 30)
    casino_row.time_zone = "America/Chicago"
    casino_row.save()
    task.refresh_from_db()
    assert (task.crontab.hour, task.crontab.minute) == ("4", "30")
    assert str(task.crontab.timezone) == "America/Chicago"


def test_the_command_closes_a_day_with_a_progress_bar(casino, play, capsys):
    from django.core.management import call_command

    play()
    call_command("close_gaming_day", "--day", str(DAY), "--workers", "1")
    captured = capsys.readouterr()
    assert "gaming day 2024-05-01 closed: 2 tables, 60 rounds, 0 variances" in captured.out
    assert "replayed" in captured.err  # the tqdm bar
    call_command("close_gaming_day", "--day", str(DAY))
    assert "already closed" in capsys.readouterr().out


def test_the_beat_task_closes_the_day_or_says_what_it_waits_for(casino, play):
    from operations.tasks import close_due_day

    play(TableDayPlan(unverified=frozenset({"D1"})))
    waiting = close_due_day.apply(kwargs={"day": str(DAY)}).get()
    assert "drop not counted and verified: D1" in waiting
    append(f"count:D1:{DAY}", [NewEvent("count.verified", {"verified_by": "shift_supervisor"})],
           expected_version=1, actor=Actor.system("test", source="test"))  # fmt: skip
    assert "closed: 2 tables" in close_due_day.apply(kwargs={"day": str(DAY)}).get()
    # Without a day, beat closes the day that ended last (here: none was played).
    yesterday = close_due_day.apply().get()
    assert "closed: 0 tables" in yesterday


def test_a_csv_changed_on_disk_between_the_seal_and_the_export_is_written_again(
    casino, play, monkeypatch, tmp_path
):
    """An insider who edits a read model's CSV the seal left for the export (between
    the two stages) does not get it into the export: its digest is no longer the one
    signed, so the export writes it again from the read model."""
    from audit.exports import export_day
    from operations import close as close_module

    play()
    export = close_module._export

    def tampered(day, now, progress, check_seal, events=None, csvs=None, members=None):
        rounds = csvs / "rounds.csv"
        rounds.write_bytes(rounds.read_bytes().replace(b",", b";", 1))
        return export(day, now, progress, check_seal, events, csvs, members)

    monkeypatch.setattr(close_module, "_export", tampered)
    report = close_gaming_day(DAY, requested_by="finance")
    monkeypatch.undo()
    again = export_day(DAY, tmp_path / "again", make_zip=True)
    assert again.with_suffix(".zip").read_bytes() == report.export.read_bytes()
