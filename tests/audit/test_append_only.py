"""The database itself refuses to change or remove ledger rows."""

from __future__ import annotations

import pytest
from django.db import DatabaseError, connection, transaction

from audit.errors import StaleVersion
from audit.ledger import append
from tests.audit.helpers import SYSTEM, counted, new_stream

pytestmark = pytest.mark.django_db


@pytest.fixture
def stream():
    stream_id = new_stream()
    append(
        stream_id, [counted(1, 0)], expected_version=0, actor=SYSTEM, idempotency_key="append-only"
    )
    with pytest.raises(StaleVersion):  # leaves a row in ledger_rejected too
        append(stream_id, [counted(1, 1)], expected_version=0, actor=SYSTEM)
    return stream_id


@pytest.mark.parametrize("table", ["ledger_event", "ledger_idempotency", "ledger_rejected"])
@pytest.mark.parametrize(
    "statement",
    ["UPDATE {table} SET stream_id = 'test:forged'", "DELETE FROM {table}", "TRUNCATE {table}"],
)
def test_the_database_refuses_update_delete_and_truncate(stream, table, statement):
    with (
        pytest.raises(DatabaseError, match="append-only"),
        transaction.atomic(),
        connection.cursor() as cursor,
    ):
        cursor.execute(statement.format(table=table))


def test_the_orm_cannot_delete_an_event_either(stream):
    from audit.models import Event

    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
        Event.objects.filter(stream_id=stream).delete()
    assert Event.objects.filter(stream_id=stream).count() == 1
