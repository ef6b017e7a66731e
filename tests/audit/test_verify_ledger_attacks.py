"""verify_ledger names every tampering of issue 13 (stream, version,
position), attacked as an insider with superuser rights would: triggers off
(``session_replication_role = replica``) inside the test's own transaction,
rows edited directly. Before, each of these verified OK (or, for a stream's
last event deleted, as "missing positions" naming no stream)."""

from __future__ import annotations

import datetime

import pytest
from django.db import connection

from audit.hashing import event_hash
from audit.ledger import append, read_stream
from audit.models import DaySeal, RejectedSubmission
from audit.projections import run_all
from audit.seals import seal_day
from tests.audit import test_seals
from tests.audit.helpers import SYSTEM, counted, new_stream
from tests.audit.test_seals import AFTER, CARRIED, DAY, PREVIOUS
from tests.audit.test_verify_ledger import _bypass_triggers, _verify

days = test_seals.days
ledger_clock = test_seals.ledger_clock
_signing_key = test_seals._signing_key

pytestmark = pytest.mark.django_db


@pytest.fixture
def streams():
    """Three streams, appended in order, and the stream index brought up to
    date (as the projections keep it on a running system)."""
    first, middle, last = new_stream("first"), new_stream("middle"), new_stream("last")
    append(first, [counted(1, i) for i in range(3)], expected_version=0, actor=SYSTEM)
    append(middle, [counted(2, i) for i in range(4)], expected_version=0, actor=SYSTEM)
    append(last, [counted(3, i) for i in range(2)], expected_version=0, actor=SYSTEM)
    run_all()
    assert _verify()[0] == 0
    return first, middle, last


def _sql(*statements):
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL session_replication_role = replica")
        for sql, params in statements:
            cursor.execute(sql, params)
        cursor.execute("SET LOCAL session_replication_role = origin")


def test_a_streams_head_deleted_and_the_ledger_head_moved_back_is_named(streams):
    *_, last = streams
    head = read_stream(last)[-1]
    _sql(("DELETE FROM ledger_event WHERE position = %s", [head.position]),
         ("UPDATE ledger_head SET position = position - 1 WHERE id = 1", []))  # fmt: skip
    code, out = _verify()
    assert code == 1, out
    assert (f"BROKEN stream heads: stream {last} version 2 (position {head.position}): the "
            "stream index recorded this head") in out  # fmt: skip
    assert "the ledger holds it only to version 1: events were removed" in out
    assert (f"the ledger head is at position {head.position - 1}, but projection "
            f"audit.stream_index has read up to {head.position}") in out  # fmt: skip


def test_a_streams_last_event_deleted_is_named_by_its_stream(streams):
    first, *_ = streams
    head = read_stream(first)[-1]
    _bypass_triggers("DELETE FROM ledger_event WHERE position = %s", [head.position])
    code, out = _verify()
    assert code == 1
    assert f"stream {first} version 3 (position {head.position})" in out


def test_a_whole_stream_deleted_and_the_positions_renumbered_is_named(streams):
    first, middle, last = streams
    _sql(("DELETE FROM ledger_event WHERE stream_id = %s", [first]),
         ("UPDATE ledger_event SET position = position - 3", []),
         ("UPDATE ledger_head SET position = position - 3 WHERE id = 1", []))  # fmt: skip
    code, out = _verify()
    assert code == 1, out
    assert f"stream {first} version 3 (position 3): the stream index recorded this head" in out
    assert "the ledger holds none of it" in out
    assert f"stream {last} version 2 (position 9): now at position 6" in out


def test_two_events_global_positions_swapped_are_named(streams):
    first, middle, _ = streams
    a, b = read_stream(first)[-1], read_stream(middle)[0]
    _sql(("UPDATE ledger_event SET position = -1 WHERE position = %s", [a.position]),
         ("UPDATE ledger_event SET position = %s WHERE position = %s", [a.position, b.position]),
         ("UPDATE ledger_event SET position = %s WHERE position = -1", [b.position]))  # fmt: skip
    code, out = _verify()
    assert code == 1, out
    assert (f"stream {first} version 3 (position {a.position}): now at position {b.position}"
            in out)  # fmt: skip
    assert f"stream {middle} version 1: at position {a.position}, recorded at {b.position}" in out


def test_versions_whose_positions_were_swapped_within_a_stream_are_named(streams):
    _, middle, _ = streams
    one, two = read_stream(middle)[:2]
    _sql(("UPDATE ledger_event SET position = -1 WHERE position = %s", [one.position]),
         ("UPDATE ledger_event SET position = %s WHERE position = %s",
          [one.position, two.position]),
         ("UPDATE ledger_event SET position = %s WHERE position = -1", [two.position]))  # fmt: skip
    code, out = _verify()
    assert code == 1
    assert (f"stream {middle}: first broken event is version 2 (position {one.position}): "
            f"global position {one.position} does not follow version 1's {two.position}") in out


def _rehash_from(stream_id: str, version: int, payload: dict) -> None:
    """Rewrite one payload and re-make the stream's chain from there on."""
    events = read_stream(stream_id)
    statements, prev = [], events[version - 2].hash if version > 1 else "0" * 64
    for event in events[version - 1:]:
        body = payload if event.version == version else event.payload
        digest = event_hash(stream_id=stream_id, version=event.version,
                            event_type=event.event_type, schema_version=event.schema_version,
                            payload=body, metadata=event.metadata,
                            occurred_at=event.occurred_at, recorded_at=event.recorded_at,
                            prev_hash=prev)  # fmt: skip
        import json

        statements.append(("UPDATE ledger_event SET payload = %s, prev_hash = %s, hash = %s "
                           "WHERE position = %s",
                           [json.dumps(body), prev, digest, event.position]))  # fmt: skip
        prev = digest
    _sql(*statements)


def test_a_payload_rewritten_with_its_chain_re_hashed_is_named(streams):
    _, middle, _ = streams
    _rehash_from(middle, 2, {"writer": 2, "seq": 1, "amount": 99_999})
    code, out = _verify()
    assert code == 1, out
    head = read_stream(middle)[-1]
    assert (f"BROKEN stream heads: stream {middle} version 4 (position {head.position}): "
            f"hash {head.hash[:12]}… in the ledger") in out  # fmt: skip
    assert "the chain was re-hashed" in out


def test_a_sealed_day_re_hashed_no_longer_matches_its_signed_merkle_root(
    days, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        seal_day(PREVIOUS, now=AFTER)
        seal_day(DAY, now=AFTER)
    assert _verify()[0] == 0
    _rehash_from(CARRIED, 3, {"writer": 1, "seq": 3, "amount": 1})
    code, out = _verify()
    assert code == 1, out
    assert "BROKEN seals: seal of 2026-03-10: Merkle root of the day's stream heads is" in out


def _rejected(at: datetime.datetime) -> RejectedSubmission:
    return RejectedSubmission.objects.create(
        received_at=at, stream_id="round:X", status_code=400, reason="schema",
        message="refused", source="api",
    )  # fmt: skip


def test_deleted_rejected_submissions_are_named(days, django_capture_on_commit_callbacks):
    refused = _rejected(test_seals.IN_DAY)
    with django_capture_on_commit_callbacks(execute=True):
        seal_day(PREVIOUS, now=AFTER)
        seal_day(DAY, now=AFTER)
    assert _verify()[0] == 0
    _bypass_triggers("DELETE FROM ledger_rejected WHERE id = %s", [refused.id])
    code, out = _verify()
    assert code == 1, out
    assert (f"BROKEN rejected submissions: refused submission id {refused.id} of gaming day "
            "2026-03-10, signed by its seal, is gone") in out  # fmt: skip


def test_a_deleted_seal_row_is_named(days, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        seal_day(PREVIOUS, now=AFTER)
        seal_day(DAY, now=AFTER)
    assert _verify()[0] == 0
    _bypass_triggers("DELETE FROM ledger_day_seal WHERE gaming_day = %s", [DAY])
    code, out = _verify()
    assert code == 1, out
    assert ("BROKEN seals: seal of 2026-03-10: in the seal archive" in out
            and "but not in the database: a seal row was deleted" in out)  # fmt: skip


def test_a_seal_deleted_from_the_middle_of_the_chain_is_named(
    days, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        seal_day(PREVIOUS, now=AFTER)
        seal_day(DAY, now=AFTER)
    _bypass_triggers("DELETE FROM ledger_day_seal WHERE gaming_day = %s", [PREVIOUS])
    code, out = _verify()
    assert code == 1
    assert ("seal of 2026-03-10: names the seal of 2026-03-09" in out
            and "the database's previous seal is none" in out)  # fmt: skip
    assert not DaySeal.objects.filter(gaming_day=PREVIOUS).exists()


def test_the_nightly_job_raises_a_finding_naming_what_it_found(streams):
    from django_celery_beat.models import PeriodicTask

    from audit.tasks import verify_ledger

    assert PeriodicTask.objects.get(task="audit.verify_ledger").crontab.hour == "3"
    assert verify_ledger.apply().get()["ok"] is True
    *_, last = streams
    head = read_stream(last)[-1]
    _sql(("DELETE FROM ledger_event WHERE position = %s", [head.position]),
         ("UPDATE ledger_head SET position = position - 1 WHERE id = 1", []))  # fmt: skip
    result = verify_ledger.apply().get()
    assert result["ok"] is False
    (finding,) = read_stream(result["finding"])
    assert finding.event_type == "ledger.check_failed"
    assert finding.metadata["actor"] == "ledger-check"
    assert any(f"stream {last} version 2 (position {head.position})" in problem
               for problem in finding.payload["problems"])  # fmt: skip


def test_an_append_permission_added_by_sql_is_named(streams):
    with connection.cursor() as cursor:
        cursor.execute("INSERT INTO ledger_append_permission (role_id, event_type) SELECT id, "
                       "'compliance.*' FROM auth_group WHERE name = 'floorperson' RETURNING id")
        ident = cursor.fetchone()[0]
    code, out = _verify()
    assert code == 1
    assert (f"BROKEN append permissions: floorperson may append compliance.* (id {ident}): no "
            "history record; it was added outside the application") in out  # fmt: skip


def test_a_permission_granted_in_the_admin_is_not_a_finding(streams):
    from django.contrib.auth.models import Group

    from audit.models import AppendPermission

    AppendPermission.objects.create(role=Group.objects.get(name="floorperson"),
                                    event_type="compliance.*")  # fmt: skip
    assert _verify()[0] == 0
