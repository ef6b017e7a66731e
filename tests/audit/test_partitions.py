"""The partitioned ledger (PostgreSQL, ``audit.partitions``) and its
retention (``audit.retention``): the append-only triggers in every partition,
(stream, version) unique across partitions, a stream kept whole in its first
gaming day's partition, and retention that archives, verifies, records and
only then detaches, after which ``verify_ledger`` still passes."""

from __future__ import annotations

import datetime
import json
import stat
import subprocess
import sys

import psycopg
import pytest
from django.db import DatabaseError, IntegrityError, connection, transaction

from audit import clock, partitions
from audit.errors import ArchivedStream
from audit.exports import ExportError, export_day
from audit.ledger import NewEvent, append, read_all, read_stream
from audit.retention import RetentionRefused, retain, verify_archive
from audit.seals import generate_signing_key
from audit.storage import store
from audit.verify import verify
from tests.audit.helpers import SYSTEM, counted, new_stream

pytestmark = pytest.mark.django_db

NOW = datetime.datetime.now(datetime.UTC)
#: A gaming day seven years back: past the five years kept.
OLD = datetime.datetime(NOW.year - 7, 3, 15, 12, tzinfo=datetime.UTC)


@pytest.fixture(autouse=True)
def _utc_days(settings, tmp_path):
    settings.EXPORT_ROOT = tmp_path / "exports"
    settings.LEDGER_RETENTION_YEARS = 5
    settings.LEDGER_SIGNING_KEY = generate_signing_key()
    partitions.forget_calendar()
    partitions._calendar_cache = (float("inf"), None)  # day keys: UTC dates
    yield
    partitions.forget_calendar()


def _append_at(moment: datetime.datetime, stream_id: str, events, expected: int | None):
    with clock.recording_at(moment):
        return append(stream_id, events, expected_version=expected, actor=SYSTEM)


def downloaded() -> NewEvent:
    payload = {"gaming_day": "2019-01-02", "downloaded_by": "regulator", "roles": ["regulator"]}
    return NewEvent("audit.export_downloaded", {**payload, "seal_hash": None})


def _partition_of(position: int) -> str:
    with connection.cursor() as cursor:
        cursor.execute("SELECT tableoid::regclass::text FROM ledger_event WHERE position = %s",
                       [position])  # fmt: skip
        return cursor.fetchone()[0]


@pytest.fixture
def old_stream():
    partitions.ensure_partitions(OLD.date(), OLD.date())
    stream_id = new_stream("old")
    _append_at(OLD, stream_id, [counted(1, 0), counted(1, 1)], 0)
    return stream_id


@pytest.mark.parametrize("statement", ["UPDATE {table} SET stream_id = 'test:forged'",
                                       "DELETE FROM {table}", "TRUNCATE {table}"])  # fmt: skip
def test_every_partition_refuses_update_delete_and_truncate(old_stream, statement):
    (event,) = read_stream(old_stream, limit=1)
    lasting = _append_at(OLD, "export:2019-01-02", [downloaded()], 0)
    # A day no partition was made for lands in the default partition.
    stray = _append_at(datetime.datetime(1995, 6, 1, tzinfo=datetime.UTC), new_stream(),
                       [counted(1, 0)], 0)  # fmt: skip
    tables = [_partition_of(p) for p in (event.position, lasting.first_position,
                                         stray.first_position)]  # fmt: skip
    assert tables == [f"ledger_event_p{OLD:%Y%m}01", partitions.LASTING_PARTITION,
                      partitions.DEFAULT_PARTITION]  # fmt: skip
    for target in tables:
        with (pytest.raises(DatabaseError, match="append-only"), transaction.atomic(),
              connection.cursor() as cursor):  # fmt: skip
            cursor.execute(
                statement.format(table=target)
                + ("" if statement.startswith("TRUNCATE") else " WHERE true")
            )


def test_a_stream_stays_in_its_first_days_partition(old_stream):
    """Appended years later, a stream's events still go to the partition of
    the gaming day it began on: it is never split."""
    later = append(old_stream, [counted(1, 2)], expected_version=2, actor=SYSTEM)
    first = read_stream(old_stream, limit=1)[0]
    assert _partition_of(later.first_position) == _partition_of(first.position)


def test_a_lasting_kind_lives_in_the_lasting_partition():
    result = _append_at(OLD, "export:2019-01-03", [downloaded()], 0)
    assert _partition_of(result.first_position) == partitions.LASTING_PARTITION


def test_a_stream_version_is_unique_across_partitions(old_stream):
    """Two writers that start the same stream with different day keys (the
    gaming day turned between them) collide on the stream's start; a second
    copy of a version in the stream's own partition collides on the unique
    index; one written by SQL into another partition is found by verify_ledger."""
    rows, hashes, recorded_at = _chain(old_stream)
    with pytest.raises((IntegrityError, psycopg.IntegrityError)), transaction.atomic():
        store().write(old_stream, rows, recorded_at, None, "", hashes, 0, NOW.date())
    with pytest.raises(IntegrityError), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(_copy_version_sql("day_key"), [old_stream])
    with connection.cursor() as cursor:
        cursor.execute(_copy_version_sql(f"'{NOW.date()}'::date"), [old_stream])
    broken = verify().breaks
    assert [b.stream_id for b in broken] == [old_stream]


def _chain(stream_id: str):
    from audit.storage import chain

    return chain(stream_id, [counted(9, 9)], 0, "0" * 64, SYSTEM, None)


def _copy_version_sql(day_key: str) -> str:
    return ("INSERT INTO ledger_event (position, stream_id, version, event_type, schema_version, "
            "payload, metadata, occurred_at, recorded_at, prev_hash, hash, day_key) SELECT "
            "(SELECT position + 1 FROM ledger_head), stream_id, version, event_type, "
            "schema_version, payload, metadata, occurred_at, recorded_at, prev_hash, hash, "
            f"{day_key} FROM ledger_event WHERE stream_id = %s AND version = 1")  # fmt: skip


def test_retention_archives_verifies_records_and_detaches(old_stream):
    lasting = "export:2019-01-04"  # a lasting kind: a day's export is downloaded for years
    _append_at(OLD, lasting, [downloaded()], 0)
    append(lasting, [downloaded()], expected_version=1, actor=SYSTEM)
    recent = new_stream("recent")
    append(recent, [counted(3, 0)], expected_version=0, actor=SYSTEM)
    assert verify().ok

    done = retain()

    assert (done.events, done.streams) == (2, 1)
    assert done.partitions == (f"ledger_event_p{OLD:%Y%m}01",)
    assert verify_archive(done.archive) == []
    offline = subprocess.run([sys.executable, str(done.archive / "verify_retained.py")],
                             capture_output=True, text=True, check=False)  # fmt: skip
    assert offline.returncode == 0, offline.stdout
    assert "2 events in 1 streams, every chain from genesis" in offline.stdout
    for name in ("events.jsonl", "manifest.json", "signature.json"):
        assert not (done.archive / name).stat().st_mode & stat.S_IWUSR, name
    lines = (done.archive / "events.jsonl").read_text().splitlines()
    assert [json.loads(line)["stream_id"] for line in lines] == [old_stream, old_stream]
    recorded = read_stream(f"retention:{done.first_day}_{done.last_day}")
    assert [e.event_type for e in recorded] == ["ledger.retained"]
    assert recorded[0].payload["events"] == 2 and recorded[0].payload["streams"] == 1
    assert all(p.start != done.first_day for p in partitions.day_partitions())
    assert read_stream(old_stream) == []
    assert [e.version for e in read_stream(lasting)] == [1, 2]
    assert len(read_stream(recent)) == 1
    with pytest.raises(ArchivedStream):
        append(old_stream, [counted(1, 3)], expected_version=None, actor=SYSTEM)
    report = verify()
    assert report.ok, (report.breaks, report.position_problems, report.problems)
    with pytest.raises(ExportError, match="archived by the ledger's retention"):
        export_day(OLD.date(), done.archive.parent)


def test_an_archive_altered_on_disk_no_longer_verifies(old_stream):
    done = retain()
    events = done.archive / "events.jsonl"
    events.chmod(0o644)
    events.write_text(events.read_text().replace('"seq":1', '"seq":7'))
    problems = verify_archive(done.archive)
    offline = subprocess.run([sys.executable, str(done.archive / "verify_retained.py")],
                             capture_output=True, text=True, check=False)  # fmt: skip
    assert offline.returncode == 1 and "FAILED: events.jsonl" in offline.stdout
    assert any("hash does not match" in p for p in problems)
    assert any("SHA-256" in p for p in problems)
    assert verify().ok  # the manifest is as recorded; only the long read finds this
    (done.archive / "manifest.json").chmod(0o644)
    (done.archive / "manifest.json").unlink()
    assert verify().problems["retention archives"] == [
        f"retention:{done.first_day}_{done.last_day}: its archive {done.archive} is missing "
        "or unreadable"
    ]


def test_retention_refuses_a_stream_still_written_to(old_stream):
    append(old_stream, [counted(1, 2)], expected_version=2, actor=SYSTEM)
    with pytest.raises(RetentionRefused, match=f"{old_stream}.*lasting"):
        retain()
    assert any(p.start.year == OLD.year for p in partitions.day_partitions())
    assert read_all(event_types=["ledger.retained"]) == []
    assert len(read_stream(old_stream)) == 3


def test_retention_refuses_when_nothing_is_old_enough():
    with pytest.raises(RetentionRefused, match="nothing to archive"):
        retain()


def test_a_partition_detached_without_retention_is_named_by_verify_ledger():
    first = append(new_stream("recent"), [counted(1, 0)], expected_version=0, actor=SYSTEM)
    partitions.ensure_partitions(OLD.date(), OLD.date())
    _append_at(OLD, new_stream("old"), [counted(1, 0), counted(1, 1)], 0)
    assert verify().ok
    with connection.cursor() as cursor:
        cursor.execute(f"ALTER TABLE ledger_event DETACH PARTITION ledger_event_p{OLD:%Y%m}01")
    problems = verify().position_problems
    assert problems[-1] == f"missing global positions from: {first.first_position + 1}"


def test_beat_makes_the_partitions_of_the_next_sixty_days_ahead():
    from audit.tasks import prepare_partitions

    prepare_partitions()
    ahead = partitions.gaming_day(clock.now()) + datetime.timedelta(days=60)
    assert any(p.start <= ahead < p.end for p in partitions.day_partitions())
    assert prepare_partitions() == []  # made once


def test_the_migration_adds_the_day_key_to_a_unique_index():
    from importlib import import_module

    migration = import_module("audit.migrations.0016_partitioned_ledger")
    assert migration._with_day_key(
        "CREATE UNIQUE INDEX k ON public.ledger_event USING btree "
        "((((metadata -> 'idempotency') ->> 'key'))) WHERE (x IS NOT NULL)"
    ) == ("CREATE UNIQUE INDEX k ON public.ledger_event USING btree "
          "((((metadata -> 'idempotency') ->> 'key')), day_key) WHERE (x IS NOT NULL)")  # fmt: skip
