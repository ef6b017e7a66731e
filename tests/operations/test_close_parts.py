"""The close's read of the day in parts by position range
(``operations.day_read``): the same figures, seal and export as one read,
wherever the cuts fall (inside rounds, inside an event removed or altered)
and whoever reads the parts — the tasks in this process (eager Celery, the
embedded default), a forked pool (the command on PostgreSQL), or the close's
own process taking over a part no one else does."""

from __future__ import annotations

import itertools

import pytest

from audit import claims
from audit.ledger import read_stream
from audit.models import CloseMember, CloseRound
from audit.seals import day_membership, member_rows, walk_day
from operations import day_read
from operations.close import close_gaming_day, close_stream_id
from tables.simulation import TableDayPlan
from tests.operations.test_close import DAY

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def in_parts(settings, monkeypatch):
    import audit.seals

    settings.CLOSE_PARTS_ABOVE_EVENTS = 0  # the test days are small
    # The membership a few streams at a time, asking of each chunk while the rows come
    # (a busy day's 200,000 come in chunks of 20,000).
    monkeypatch.setattr(audit.seals, "CHUNK", 7)


def _same_as_one_read(report, tmp_path):
    from audit.exports import export_day
    from audit.models import DaySeal

    events = read_stream(close_stream_id(DAY))
    cutoff = events[0].payload["cutoff_position"]
    assert events[1].payload == day_read.replay_apart(DAY, cutoff).payload()
    seal = DaySeal.objects.get(gaming_day=DAY)
    walk = walk_day(DAY, cutoff=cutoff)
    assert (seal.merkle_root, seal.event_count, seal.stream_count) == (
        walk.merkle_root, walk.events, walk.streams)
    assert not list(report.export.parent.glob(".*"))  # parts and events file cleared away
    assert not CloseMember.objects.exists() and not CloseRound.objects.exists()  # and scratch
    again = export_day(DAY, tmp_path / "again", make_zip=True)
    assert again.with_suffix(".zip").read_bytes() == report.export.read_bytes()


def _written(run="close-2024-05-01-test"):
    """The day's membership and rounds written under ``run``, as the close writes them."""
    table, _ = day_read._write_membership(run, DAY, 10**9, replay=True)
    return run, table.events


def test_the_membership_written_to_its_table_is_the_seal_s(casino, play):
    play(rounds=12)
    run, events = _written()
    members, rounds = day_read.run_members(run)
    assert members == day_membership(DAY, 10**9)[0]
    assert rounds == day_read.day_rounds(DAY, 10**9)
    assert events == sum(found[1] - found[0] + 1 for found in members.values())


@pytest.mark.parametrize("own", ["from the window", "each probed"])
def test_the_membership_a_few_streams_at_a_time_is_the_membership_at_once(
    casino, play, monkeypatch, own
):
    """The window's streams are classified a chunk at a time, the day's own ones
    ranged from the window and what came after it, or each probed (off PostgreSQL,
    or a day closed long after its end): the same members either way."""
    import audit.seals

    play(rounds=12)
    monkeypatch.setattr(audit.seals, "CHUNK", 20_000)
    at_once = day_membership(DAY, 10**9)
    monkeypatch.setattr(audit.seals, "CHUNK", 3)
    if own == "each probed":
        monkeypatch.setattr(audit.seals, "_own_tail", lambda *args: None)
    assert day_membership(DAY, 10**9) == at_once
    run, _ = _written()
    assert day_read.run_members(run)[0] == at_once[0]


def test_the_parts_cut_the_day_s_positions_into_ranges_each_round_replayed_in_one(casino, play):
    play(rounds=12)
    run, events = _written()
    members, rounds = day_read.run_members(run)
    plans = day_read.plan_parts(run, 3, events)
    assert len(plans) == 3
    ranges = [tuple(plan["within"]) for plan in plans]
    assert ranges[0][0] == min(r[2] for r in members.values())
    assert ranges[-1][1] == max(r[3] for r in members.values())
    assert all(high + 1 == low for (_, high), (low, _) in itertools.pairwise(ranges))
    replayed, carried = [], []
    for low, high in ranges:
        reaching, carried_here, replayed_here = day_read.part_members(run, (low, high))
        assert reaching == {s: r for s, r in members.items() if r[2] <= high and r[3] >= low}
        assert carried_here == sorted(s for s in reaching if members[s][2] < low)
        assert all(low <= members[s][3] <= high for s in replayed_here)
        replayed.extend(replayed_here)
        carried.append(carried_here)
    assert sorted(replayed) == sorted(rounds)  # each round once: in the part it ends in
    assert carried[1]  # the table days, open all day, cross every cut


def test_a_busy_day_is_cut_into_parts_of_at_most_close_part_events(casino, play, settings):
    """A reader's memory is its part's streams: more events, more parts, not larger."""
    play(rounds=12)
    run, events = _written()
    settings.CLOSE_PART_EVENTS = -(-events // 5)  # a fifth, rounded up
    assert len(day_read.plan_parts(run, 2, events)) == 6  # for two workers: three each
    assert len(day_read.plan_parts(run, 3, events)) == 6
    settings.CLOSE_PART_EVENTS = events
    assert len(day_read.plan_parts(run, 2, events)) == 2


def _cut_every(monkeypatch, step):
    """The day cut after every ``step`` positions, whatever lies there."""
    monkeypatch.setattr(day_read, "_can_fork", lambda workers: False)
    def every(run, parts, events):
        first, last = day_read.member_span(run)
        return day_read.plans_at(run, list(range(first + step, last, step)))

    monkeypatch.setattr(day_read, "plan_parts", every)


def test_parts_cut_inside_rounds_give_the_one_read_close(casino, play, monkeypatch, tmp_path):
    play(TableDayPlan(inventory_short_cents={"T1": 3_000}))
    _cut_every(monkeypatch, 37)  # rounds begun in one part and replayed in a later one
    # A killed close's scratch rows, cleared by the next run of the same day.
    CloseMember.objects.create(run=f"close-{DAY.isoformat()}-killed", stream_id="round:x",
                               first_version=1, last_version=1, first_position=1,
                               last_position=1)  # fmt: skip
    report = close_gaming_day(DAY, requested_by="finance", workers=2)
    assert report.rounds == 60
    _same_as_one_read(report, tmp_path)


def _round_event_after_a_cut(step):
    """A round's event that a cut every ``step`` positions makes the first of its part
    while the round began in the part before."""
    from django.db import connection

    members, _ = day_membership(DAY, None)
    start = min(r[2] for r in members.values()) + 1  # each part's first: a cut's next
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT stream_id, version, position FROM ledger_event WHERE stream_id LIKE "
            "'round:%%' AND version > 2 AND position > %s AND (position - %s) %% %s = 0 "
            "ORDER BY position LIMIT 1",
            [start, start, step])
        return cursor.fetchone()


@pytest.mark.parametrize("tamper", ["removed", "altered", "relinked", "altered twice"])
def test_a_tampered_event_where_a_part_begins_is_named_as_one_read_names_it(
    casino, play, monkeypatch, tmp_path, tamper
):
    from django.db import connection

    play(rounds=12)
    stream_id, version, position = _round_event_after_a_cut(37)
    altered = "UPDATE ledger_event SET payload = payload || '{\"x\": 1}' WHERE position = %s"
    changes = {
        "removed": [("DELETE FROM ledger_event WHERE position = %s", [position])],
        "altered": [(altered, [position])],
        "relinked": [("UPDATE ledger_event SET prev_hash = repeat('0', 64) WHERE position = %s",
                      [position])],
        # The stream's first break, in the part before, is the one named.
        "altered twice": [(altered, [position]), (
            altered.replace("position = %s", "stream_id = %s AND version = 1"), [stream_id])],
    }[tamper]  # fmt: skip
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL session_replication_role = replica")
        for sql, params in changes:
            cursor.execute(sql, params)
        cursor.execute("SET LOCAL session_replication_role = origin")
    _cut_every(monkeypatch, 37)
    cutoff = 10**9
    whole = walk_day(DAY, cutoff=cutoff)
    assert len(whole.problems) == 1 and f"stream {stream_id} " in whole.problems[0]
    read = day_read.read_day_in_parts(DAY, cutoff, tmp_path / "events.jsonl", replay=False,
                                      workers=2, scratch=tmp_path)  # fmt: skip
    assert read.walk.problems == whole.problems
    assert (read.walk.merkle_root, read.walk.events) == (whole.merkle_root, whole.events)


def test_parts_read_by_eager_tasks_in_this_process_give_the_one_read_close(
    casino, play, monkeypatch, tmp_path
):
    play(TableDayPlan(inventory_short_cents={"T1": 3_000}))
    ran = []
    run_part = day_read.run_part

    def spy(directory, index):
        ran.append(index)
        return run_part(directory, index)

    monkeypatch.setattr(day_read, "_can_fork", lambda workers: False)
    monkeypatch.setattr(day_read, "run_part", spy)
    import operations.tasks

    monkeypatch.setattr(operations.tasks, "run_part", spy)
    report = close_gaming_day(DAY, requested_by="finance", workers=2)
    assert sorted(set(ran)) == [0, 1]
    assert report.rounds == 60 and report.tables == 2
    _same_as_one_read(report, tmp_path)


@pytest.mark.django_db(transaction=True, serialized_rollback=True)  # the pool reads commits
def test_parts_read_by_a_forked_pool_give_the_one_read_close(casino, play, tmp_path):
    play(TableDayPlan(inventory_short_cents={"T1": 3_000}))
    report = close_gaming_day(DAY, requested_by="finance", workers=2)
    assert report.rounds == 60
    _same_as_one_read(report, tmp_path)


@pytest.mark.django_db(transaction=True, serialized_rollback=True)  # the pool reads commits
def test_the_pool_is_forked_before_the_membership_is_asked(casino, play, tmp_path, monkeypatch):
    """A forked reader is a copy of the close process: forked after the membership,
    it held every stream of the day (the bench's 200-table day: 274 MB, not 190)."""
    import multiprocessing

    play(rounds=12)
    asked = day_read._write_membership
    children_then: list[int] = []

    def membership(*args, **kwargs):
        children_then.append(len(multiprocessing.active_children()))
        return asked(*args, **kwargs)

    monkeypatch.setattr(day_read, "_write_membership", membership)
    report = close_gaming_day(DAY, requested_by="finance", workers=2)
    assert report.rounds == 24  # two tables
    assert children_then == [1]


def test_a_part_of_a_close_that_has_ended_is_left(tmp_path):
    assert day_read.run_part(tmp_path / ".close-2024-05-01-gone", 0) == "its close is over"


def test_a_part_held_by_a_live_reader_is_left_and_read_once_that_reader_dies(
    casino, play, tmp_path
):
    import zlib

    import orjson
    from django.db import connections

    play(rounds=12)
    run, events = _written()
    plan = day_read.plan_parts(run, 2, events)[0]
    members, _, rounds = day_read.part_members(run, tuple(plan["within"]))
    directory = tmp_path / ".close-2024-05-01-run"
    directory.mkdir()
    (directory / "part-0.plan.json").write_bytes(orjson.dumps(plan))
    reader = connections.create_connection("default")  # another worker's claim
    with reader.cursor() as cursor:
        cursor.execute("SELECT pg_try_advisory_lock(%s, %s)", [
            claims.PART_LOCK_CLASS, zlib.crc32(b".close-2024-05-01-run/0") - 2**31])
        assert cursor.fetchone()[0]
    assert day_read.run_part(directory, 0) == "being read elsewhere"
    reader.close()  # the reader dies: its session, and the lock, end
    assert day_read.run_part(directory, 0) == "read"
    assert day_read.run_part(directory, 0) == "read already"
    result = orjson.loads((directory / "part-0.json").read_bytes())
    low, high = plan["within"]
    assert result["check"]["events"] == sum(1 for row in member_rows(members)
                                            if low <= row[0] <= high)  # fmt: skip
    assert result["check"]["problems"] == []
    assert result["tally"]["rounds"] == len(rounds)


@pytest.mark.parametrize("workers", [1, 2])
def test_a_close_resumed_at_the_seal_reads_the_day_there_without_replaying_it(
    casino, play, monkeypatch, tmp_path, workers
):
    from operations import close

    play()
    monkeypatch.setattr(day_read, "_can_fork", lambda workers: False)

    def crash(*args, **kwargs):
        raise RuntimeError("worker lost")

    monkeypatch.setattr(close, "_reconcile", crash)
    with pytest.raises(RuntimeError):
        close_gaming_day(DAY, requested_by="finance", workers=workers)
    monkeypatch.undo()
    monkeypatch.setattr(day_read, "_can_fork", lambda workers: False)
    replays = []
    add = day_read.DayTally.add
    monkeypatch.setattr(day_read.DayTally, "add",
                        lambda self, *args: replays.append(1) or add(self, *args))
    report = close_gaming_day(DAY, requested_by="finance", workers=workers)
    assert report.stages_run == ["reconciled", "sealed", "exported", "completed"]
    assert replays == []  # the day was read for the seal and the export only
    _same_as_one_read(report, tmp_path)


def test_events_jsonl_is_put_together_from_the_parts_while_the_close_reconciles_and_seals(
    casino, play, monkeypatch, tmp_path
):
    import threading

    from operations import close

    play()
    monkeypatch.setattr(day_read, "_can_fork", lambda workers: False)
    reconciling, order = threading.Event(), []
    join_parts, reconcile = day_read.join_parts, close._reconcile

    def join_when_reconciling(parts, path):
        order.append("join waits" if reconciling.wait(10) else "join alone")
        return join_parts(parts, path)

    def reconcile_first(*args):
        reconciling.set()
        order.append("reconcile")
        return reconcile(*args)

    monkeypatch.setattr(day_read, "join_parts", join_when_reconciling)
    monkeypatch.setattr(close, "_reconcile", reconcile_first)
    report = close_gaming_day(DAY, requested_by="finance", workers=2)
    assert sorted(order) == ["join waits", "reconcile"]  # not "join alone": 10 s, then the read
    _same_as_one_read(report, tmp_path)


@pytest.mark.parametrize("workers", [1, 2])
def test_a_payload_changed_so_it_no_longer_builds_its_event_is_named_by_the_close(
    casino, play, monkeypatch, workers
):
    """An insider's edit the ledger would have refused: the replay refuses the round
    instead of failing on it, and the seal names the altered event."""
    from django.db import connection

    from audit.seals import SealError

    play(rounds=12)
    monkeypatch.setattr(day_read, "_can_fork", lambda workers: False)
    stream_id, version, position = _round_event_after_a_cut(37)
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL session_replication_role = replica")
        cursor.execute("UPDATE ledger_event SET payload = payload || '{\"x\": 1}' "
                       "WHERE position = %s", [position])
        cursor.execute("SET LOCAL session_replication_role = origin")
    with pytest.raises(SealError) as refused:
        close_gaming_day(DAY, requested_by="finance", workers=workers)
    assert (f"stream {stream_id} version {version} (position {position}): content altered"
            in str(refused.value))
    replayed = read_stream(close_stream_id(DAY))[1].payload
    assert replayed["refused"] == [stream_id]


@pytest.mark.parametrize("workers", [1, 2])
@pytest.mark.parametrize("column", ["occurred_at", "recorded_at"])
def test_a_timestamp_moved_by_a_microsecond_is_named_by_the_close_and_only_it(
    casino, play, monkeypatch, column, workers
):
    """The read formats a timestamp only when it differs from the last event's
    (an append's events share theirs): an insider who moves one event of an
    append by a microsecond gets that event named, and not its neighbours."""
    from django.db import connection

    from audit.seals import SealError

    play(rounds=12)
    monkeypatch.setattr(day_read, "_can_fork", lambda workers: False)
    stream_id, version, position = _round_event_after_a_cut(37)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {column} FROM ledger_event WHERE position IN (%s, %s, %s)",
                       [position - 1, position, position + 1])  # fmt: skip
        assert len({row[0] for row in cursor.fetchall()}) == 1  # one append's
        cursor.execute("SET LOCAL session_replication_role = replica")
        cursor.execute(f"UPDATE ledger_event SET {column} = {column} + interval '1 microsecond' "
                       "WHERE position = %s", [position])  # fmt: skip
        cursor.execute("SET LOCAL session_replication_role = origin")
    with pytest.raises(SealError) as refused:
        close_gaming_day(DAY, requested_by="finance", workers=workers)
    assert str(refused.value).endswith(
        f"stream {stream_id} version {version} (position {position}): content altered: "
        "the recomputed hash differs from the stored one")


@pytest.mark.parametrize("kernel", ["copies", "copies part, then refuses", "cannot"])
def test_the_parts_files_are_joined_whole_however_the_kernel_copies(tmp_path, monkeypatch, kernel):
    """``events.jsonl`` is the parts' lines one after the other, and its digest that
    file's: copied by the kernel (``copy_file_range``), by Python from where the
    kernel stopped, or by Python alone (not Linux; a file system that refuses)."""
    import errno
    import hashlib
    import os

    parts = []
    for index, size in enumerate([5_000, 300_001, 0, 70_000]):
        part = tmp_path / f"part-{index}.events"
        part.write_bytes(bytes((index * 7 + n) % 251 for n in range(size)))
        parts.append(part)
    expected = b"".join(part.read_bytes() for part in parts)
    copy = os.copy_file_range
    copied = []
    if kernel == "copies":

        def counted(*args):
            copied.append(copy(*args))
            return copied[-1]

        monkeypatch.setattr(os, "copy_file_range", counted)
    elif kernel == "copies part, then refuses":
        calls = []

        def partly(src, dst, count, offset_src=None, offset_dst=None):
            calls.append(count)
            if len(calls) > 1:
                raise OSError(errno.EXDEV, "cross-device")
            return copy(src, dst, min(count, 4_096), offset_src, offset_dst)

        monkeypatch.setattr(os, "copy_file_range", partly)
    elif kernel == "cannot":
        monkeypatch.delattr(os, "copy_file_range")
    joined = tmp_path / "events.jsonl"
    digest = day_read.join_parts(parts, joined)
    assert joined.read_bytes() == expected
    assert digest == {"sha256": hashlib.sha256(expected).hexdigest(), "bytes": len(expected)}
    if kernel == "copies":  # every part after the first, by the kernel
        assert sum(copied) == len(expected) - 5_000


def test_a_stream_struck_from_the_scratch_table_mid_close_is_named_by_verify_seal(
    casino, play, monkeypatch
):
    """An insider who deletes a round's row from the close's scratch table while
    the close reads leaves it out of that close's seal; the table is never the
    record: ``verify_seal`` recomputes the membership from the ledger and names
    the day's root and counts."""
    from django.db import connection

    from audit.seals import verify_seal

    play(rounds=12)
    written = day_read._write_membership
    struck = []

    def strike(run, *args, **kwargs):
        found = written(run, *args, **kwargs)
        with connection.cursor() as cursor:
            cursor.execute("DELETE FROM audit_close_member WHERE id = (SELECT min(id) FROM "
                           "audit_close_member WHERE run = %s AND stream_id LIKE 'round:%%') "
                           "RETURNING stream_id", [run])  # fmt: skip
            struck.append(cursor.fetchone()[0])
        return found

    monkeypatch.setattr(day_read, "_write_membership", strike)
    close_gaming_day(DAY, requested_by="finance", workers=2)
    assert struck
    report = verify_seal(DAY)
    assert not report.ok
    assert any("Merkle root of the day's stream heads" in p for p in report.problems)
    assert any("the seal says" in p and "events in" in p for p in report.problems)
