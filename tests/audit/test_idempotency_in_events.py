"""Issue 21, "Retries stay exactly-once even if an idempotency record is
lost": a batch's idempotency key is stored with its events (the first
event's chained metadata) under a unique index, so the database itself
refuses a second store of the batch, and the retry gets the original answer
read back from the events. Attacked as an insider would: the idempotency
record deleted with the append-only triggers off."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, connection, transaction

from audit import errors
from audit.ledger import append, read_stream
from audit.models import Event
from tests.audit.helpers import SYSTEM, counted, new_stream
from tests.audit.test_api_faults import body, device, url  # noqa: F401  (fixture)

pytestmark = pytest.mark.django_db


def _lose_the_record(key: str) -> None:
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL session_replication_role = replica")
        cursor.execute("DELETE FROM ledger_idempotency WHERE key = %s", [key])
        assert cursor.rowcount == 1
        cursor.execute("SET LOCAL session_replication_role = origin")


@pytest.mark.parametrize("expected_version", [0, None])
def test_a_retry_after_its_record_is_deleted_gets_the_original_answer_not_a_copy(
    expected_version,
):
    stream = new_stream("lost-record")
    batch = [counted(1, 0), counted(1, 1)]
    first = append(stream, batch, expected_version=expected_version, actor=SYSTEM,
                   idempotency_key="lost-1")  # fmt: skip
    _lose_the_record("lost-1")
    again = append(stream, batch, expected_version=expected_version, actor=SYSTEM,
                   idempotency_key="lost-1")  # fmt: skip
    assert again.replayed and again.as_dict() == first.as_dict()
    assert Event.objects.filter(stream_id=stream).count() == 2


def test_the_key_reused_with_another_body_after_the_record_is_deleted_is_still_a_422():
    stream = new_stream("lost-record")
    append(stream, [counted(1, 0)], expected_version=None, actor=SYSTEM, idempotency_key="lost-2")
    _lose_the_record("lost-2")
    with pytest.raises(errors.IdempotencyConflict):
        append(stream, [counted(1, 9)], expected_version=None, actor=SYSTEM,
               idempotency_key="lost-2")  # fmt: skip
    assert Event.objects.filter(stream_id=stream).count() == 1


def test_the_database_refuses_a_second_batch_with_the_same_key():
    """Even written by SQL past the append service, the key is unique among
    the events of its streams' gaming day (PostgreSQL enforces it per
    partition, ``audit.partitions``; a batch's retry is of the same stream,
    so in the same partition)."""
    stream = new_stream("lost-record")
    append(stream, [counted(1, 0)], expected_version=0, actor=SYSTEM, idempotency_key="lost-3")
    (event,) = read_stream(stream)
    with pytest.raises(IntegrityError), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(
            "INSERT INTO ledger_event (position, stream_id, version, event_type, schema_version,"
            " payload, metadata, occurred_at, recorded_at, prev_hash, hash, day_key) SELECT "
            "position + 1000000, stream_id || '-copy', version, event_type, schema_version, "
            "payload, metadata, occurred_at, recorded_at, prev_hash, hash, day_key "
            "FROM ledger_event WHERE position = %s",
            [event.position],
        )


def test_over_the_api_a_retry_whose_record_is_gone_is_answered_as_the_first_time(device):  # noqa: F811
    stream = new_stream("lost-api")
    first = device.post(url(stream), body(1, 2), format="json", HTTP_IDEMPOTENCY_KEY="api-lost")
    assert first.status_code == 201
    _lose_the_record("api-lost")
    again = device.post(url(stream), body(1, 2), format="json", HTTP_IDEMPOTENCY_KEY="api-lost")
    assert again.status_code == 200, again.json()
    assert again["Idempotent-Replayed"] == "true" and again.json() == first.json()
    assert Event.objects.filter(stream_id=stream).count() == 2


def test_verify_ledger_names_an_idempotency_record_deleted():
    from tests.audit.test_verify_ledger import _verify

    stream = new_stream("lost-record")
    append(stream, [counted(1, 0)], expected_version=0, actor=SYSTEM, idempotency_key="lost-4")
    _lose_the_record("lost-4")
    code, out = _verify()
    assert code == 1
    assert (f"BROKEN idempotency records: stream {stream} version 1 (position "
            in out and "stored under Idempotency-Key 'lost-4', whose record is gone") in out, out
