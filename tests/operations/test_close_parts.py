"""The close's read of the day in parts by table (``operations.day_read``):
the same figures, seal and export as one read, whoever reads the parts —
the tasks in this process (eager Celery, the embedded default), a forked
pool (the command on PostgreSQL), or the close's own process taking over a
part no one else does."""

from __future__ import annotations

import pytest

from audit import claims
from audit.ledger import read_stream
from audit.seals import day_membership, walk_day
from operations import day_read
from operations.close import close_gaming_day, close_stream_id
from tables.simulation import TableDayPlan
from tests.operations.test_close import DAY

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def in_parts(settings):
    settings.CLOSE_PARTS_ABOVE_EVENTS = 0  # the test days are small


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
    again = export_day(DAY, tmp_path / "again", make_zip=True)
    assert again.with_suffix(".zip").read_bytes() == report.export.read_bytes()


def test_the_parts_split_the_day_by_table_into_disjoint_sets_of_its_streams(casino, play):
    play(rounds=12)
    members, _ = day_membership(DAY, None)
    rounds = day_read.day_rounds(DAY, 10**9)
    parts = day_read.plan_parts(members, rounds, 8)
    assert len(parts) == 2  # two tables: one part each, whatever was asked
    assert sorted(s for part in parts for s in part) == sorted(members)
    for part in parts:
        tables = {day_read._table_of(s, rounds) for s in part} - {None}
        assert len(tables) == 1
    assert set(rounds.values()) == {"T1", "D1"}


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


def test_a_part_of_a_close_that_has_ended_is_left(tmp_path):
    assert day_read.run_part(tmp_path / ".close-2024-05-01-gone", 0) == "its close is over"


def test_a_part_held_by_a_live_reader_is_left_and_read_once_that_reader_dies(
    casino, play, tmp_path
):
    import zlib

    import orjson
    from django.db import connections

    play(rounds=12)
    members, _ = day_membership(DAY, None)
    part = day_read.plan_parts(members, day_read.day_rounds(DAY, 10**9), 2)[0]
    directory = tmp_path / ".close-2024-05-01-run"
    directory.mkdir()
    (directory / "part-0.plan.json").write_bytes(orjson.dumps(
        {"members": {s: members[s] for s in part}, "rounds": []}))
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
    assert result["check"]["events"] == sum(members[s][1] - members[s][0] + 1 for s in part)
    assert result["check"]["problems"] == []


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
