"""Issue 13, part 1: a day's seal holds the close's membership.

A day's seal covers every event of the streams that belong to that gaming
day (table days, counts, rounds, slips: registered by ``tables`` through
``audit.providers.DayStreams``) up to its cutoff, whenever recorded, and
every event recorded in its window of a stream that belongs to no day, or to
an earlier day past that day's sealed cutoff: each event in exactly one
seal. Before, a seal took the events *recorded* in the day's window, and a
day recorded later (an import, a device's buffer) was sealed over 0 events.
"""

from __future__ import annotations

import base64
import datetime
import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest
from django.db import connection

from audit.exports import export_day, pretty_json
from audit.ledger import append, head_position
from audit.seals import day_members, day_window, member_rows, seal_day, verify_seal
from casino.models import Casino, Jurisdiction
from tables.simulation import TablePlan, simulate_gaming_day
from tests.audit.helpers import SYSTEM, LedgerClock, counted

pytestmark = pytest.mark.django_db

TEST_KEY = base64.b64encode(bytes(range(32))).decode()
FIRST = datetime.date(2026, 3, 9)
SECOND = datetime.date(2026, 3, 10)
THIRD = datetime.date(2026, 3, 11)
#: 06:00 New York is 10:00 UTC in March 2026: an instant inside each gaming day.
IN_FIRST = datetime.datetime(2026, 3, 9, 15, 0, tzinfo=datetime.UTC)
IN_SECOND = datetime.datetime(2026, 3, 10, 15, 0, tzinfo=datetime.UTC)
#: Inside THIRD: when both earlier days' play is recorded (an import).
LATE = datetime.datetime(2026, 3, 11, 15, 0, tzinfo=datetime.UTC)
AFTER = datetime.datetime(2026, 3, 12, 12, 0, tzinfo=datetime.UTC)
TABLES = [TablePlan("CC-1", "PA-674a-2019"), TablePlan("DX-1", "MA-DCP-UNDATED")]


@pytest.fixture(autouse=True)
def _signing_key(settings):
    settings.LEDGER_SIGNING_KEY = TEST_KEY
    settings.DEBUG = False


def _positions(day: datetime.date, cutoff: int | None) -> set[int]:
    start, end = day_window(day)
    return {row[0] for row in member_rows(day_members(day, start, end, cutoff))}


def _all_positions() -> set[int]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT position FROM ledger_event")
        return {row[0] for row in cursor.fetchall()}


def test_days_recorded_late_are_sealed_over_their_events_each_event_once(monkeypatch, tmp_path):
    clock = LedgerClock(monkeypatch, IN_FIRST)
    jurisdiction, _ = Jurisdiction.objects.get_or_create(code="PA", name="Pennsylvania")
    Casino.objects.create(name="Test casino", jurisdiction=jurisdiction)
    # Streams of no gaming day fall in the day they are recorded.
    append("test:in-first", [counted(1, 1)], expected_version=0, actor=SYSTEM)
    clock.at = IN_SECOND
    append("test:in-second", [counted(2, 1)], expected_version=0, actor=SYSTEM)
    # Both days' play is recorded late, inside THIRD's window.
    clock.at = LATE
    first = simulate_gaming_day(TABLES, FIRST, rounds_per_table=2, seed=1)
    second = simulate_gaming_day(TABLES, SECOND, rounds_per_table=2, seed=2)
    append("test:in-second", [counted(2, 2)], expected_version=1, actor=SYSTEM)
    cutoff = head_position()
    # A round of SECOND appended after its close's cutoff: not SECOND's (the
    # close never read it), so it is THIRD's, the day it was recorded in.
    after = simulate_gaming_day([TablePlan("CC-2", "PA-674a-2019")], SECOND,
                                rounds_per_table=1, seed=3)

    seals = {day: seal_day(day, now=AFTER, cutoff=cutoff if day == SECOND else None)
             for day in (FIRST, SECOND)}  # fmt: skip
    seals[THIRD] = seal_day(THIRD, now=AFTER)

    assert seals[FIRST].event_count == first.events + 1
    assert seals[SECOND].event_count == second.events + 1
    # THIRD: SECOND's late round and test:in-second's second event, none of the days' play.
    assert seals[THIRD].event_count == after.events + 1
    for day in seals:
        report = verify_seal(day)
        assert report.ok, report.problems
    cutoffs = {day: seal.body.get("cutoff_position") for day, seal in seals.items()}
    members = {day: _positions(day, cutoffs[day]) for day in seals}
    assert [len(members[day]) for day in seals] == [s.event_count for s in seals.values()]
    assert not members[FIRST] & members[SECOND]
    assert not members[SECOND] & members[THIRD]
    assert not members[FIRST] & members[THIRD]
    assert members[FIRST] | members[SECOND] | members[THIRD] == _all_positions()

    # The export of a day recorded late lists its events and verifies offline.
    exported = export_day(FIRST, tmp_path)
    lines = (exported / "events.jsonl").read_bytes().splitlines()
    assert len(lines) == seals[FIRST].event_count
    code, out = _verify(exported)
    assert code == 0, out
    assert "rounds, table days, slips and counts listed have their events" in out


def _verify(directory: Path) -> tuple[int, str]:
    done = subprocess.run([sys.executable, str(directory / "verify_export.py"), str(directory)],
                          capture_output=True, text=True, check=False)  # fmt: skip
    return done.returncode, done.stdout + done.stderr


def _rehash(directory: Path, name: str) -> None:
    """What a forger does after editing a file: manifest.json re-hashed."""
    manifest = json.loads((directory / "manifest.json").read_text())
    data = (directory / name).read_bytes()
    manifest["files"][name] = {"sha256": hashlib.sha256(data).hexdigest(), "bytes": len(data)}
    (directory / "manifest.json").write_bytes(pretty_json(manifest))


def test_the_verifier_names_a_listed_round_whose_events_were_removed(monkeypatch, tmp_path):
    LedgerClock(monkeypatch, LATE)
    jurisdiction, _ = Jurisdiction.objects.get_or_create(code="PA", name="Pennsylvania")
    Casino.objects.create(name="Test casino", jurisdiction=jurisdiction)
    simulate_gaming_day(TABLES, FIRST, rounds_per_table=2, seed=5)
    exported = export_day(FIRST, tmp_path, now=AFTER)
    assert _verify(exported)[0] == 0
    victim = "round:CC-1-20260309-00002"
    events = exported / "events.jsonl"
    kept = [line for line in events.read_bytes().splitlines(keepends=True)
            if json.loads(line)["stream_id"] != victim]  # fmt: skip
    assert len(kept) < len(events.read_bytes().splitlines())
    events.write_bytes(b"".join(kept))
    _rehash(exported, "events.jsonl")
    code, out = _verify(exported)
    assert code == 1
    assert f"rounds.csv line 3: the round {victim} is listed but its events are absent" in out


def test_a_day_sealed_without_a_cutoff_takes_the_ledger_head(monkeypatch):
    clock = LedgerClock(monkeypatch, LATE)
    jurisdiction, _ = Jurisdiction.objects.get_or_create(code="PA", name="Pennsylvania")
    Casino.objects.create(name="Test casino", jurisdiction=jurisdiction)
    played = simulate_gaming_day(TABLES[:1], FIRST, rounds_per_table=2, seed=4)
    clock.at = AFTER
    seal = seal_day(FIRST, now=AFTER)
    assert seal.body["cutoff_position"] == head_position()
    assert seal.event_count == played.events > 0


def test_a_day_s_own_streams_are_members_up_to_the_cutoff_whatever_the_window_saw(monkeypatch):
    """The ranges of a day's own streams (``_own_range``) from the window and one
    pass over what was recorded after it (``_own_tail``) are those two probes a stream give
    (``_ranges_upto``): a stream begun in the window and continued the next morning,
    one begun before the window, one wholly after it, one untouched since."""
    from audit.seals import _own_range, _own_tail, _ranges_upto, _window_rows
    from tests.audit.helpers import new_stream

    start = datetime.datetime(2024, 5, 1, 10, tzinfo=datetime.UTC)
    end = start + datetime.timedelta(hours=20)
    clock = LedgerClock(monkeypatch, start - datetime.timedelta(hours=1))
    before, inside, late, quiet = (new_stream("own") for _ in range(4))
    append(before, [counted(1, 1)], expected_version=0, actor=SYSTEM)
    clock.at = start + datetime.timedelta(hours=1)
    for stream in (before, inside, quiet):
        version = 1 if stream == before else 0
        append(stream, [counted(1, 2), counted(1, 3)], expected_version=version, actor=SYSTEM)
    filler = new_stream("other")
    append(filler, [counted(2, n) for n in range(1, 41)], expected_version=0, actor=SYSTEM)
    clock.at = end + datetime.timedelta(hours=1)  # the next morning, before the close
    append(inside, [counted(1, 4)], expected_version=2, actor=SYSTEM)
    append(late, [counted(1, 1)], expected_version=0, actor=SYSTEM)
    cutoff = head_position()
    append(inside, [counted(1, 5)], expected_version=3, actor=SYSTEM)  # after the cutoff
    own = {before, inside, late, quiet}
    window = {row[0]: row[1:] for row in _window_rows(start, end)}
    tail = _own_tail(start, end, cutoff)
    assert tail is not None  # the morning's tail is short: read once, not probed
    found = {s: _own_range(s, window[s], tail, cutoff) for s in own if s in window}
    assert sorted(s for s, r in found.items() if r is not None) == sorted([inside, quiet])
    found.update(_ranges_upto(sorted(s for s in own if found.get(s) is None), cutoff))
    assert found == _ranges_upto(sorted(own), cutoff)
    assert found[inside][:2] == (1, 3) and found[before][:2] == (1, 3)
    assert found[late][:2] == (1, 1) and found[quiet][:2] == (1, 2)
