"""verify_ledger recomputes every chain and names the first broken event."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command
from django.db import connection

from audit.ledger import append, read_stream
from tests.audit.helpers import SYSTEM, counted, new_stream

pytestmark = pytest.mark.django_db


def _verify() -> tuple[int, str]:
    out = StringIO()
    try:
        call_command("verify_ledger", "--no-progress", stdout=out)
    except SystemExit as exit_:
        return int(exit_.code), out.getvalue()
    return 0, out.getvalue()


def _bypass_triggers(sql: str, params: list) -> None:
    """Test-only tampering: triggers off for this test's transaction alone."""
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL session_replication_role = replica")
        cursor.execute(sql, params)
        cursor.execute("SET LOCAL session_replication_role = origin")


@pytest.fixture
def streams():
    good, bad = new_stream("good"), new_stream("bad")
    append(good, [counted(1, i) for i in range(3)], expected_version=0, actor=SYSTEM)
    append(bad, [counted(2, i) for i in range(4)], expected_version=0, actor=SYSTEM)
    return good, bad


def test_an_intact_ledger_verifies(streams):
    code, out = _verify()
    assert code == 0, out
    assert "every hash chain intact" in out


def test_an_altered_payload_is_found_and_named(streams):
    good, bad = streams
    target = read_stream(bad)[1]
    _bypass_triggers(
        "UPDATE ledger_event SET payload = %s WHERE position = %s",
        ['{"writer": 2, "seq": 1, "amount": 99999}', target.position],
    )
    code, out = _verify()
    assert code == 1
    assert f"stream {bad}: first broken event is version 2 (position {target.position})" in out
    assert "content altered" in out
    assert good not in out


def test_a_removed_event_is_found_as_a_missing_version_and_a_gap(streams):
    _, bad = streams
    target = read_stream(bad)[2]
    _bypass_triggers("DELETE FROM ledger_event WHERE position = %s", [target.position])
    code, out = _verify()
    assert code == 1
    assert f"stream {bad}: first broken event is version 4" in out
    assert "version 3 is missing" in out
    assert f"missing global positions from: {target.position}" in out


def test_a_rewritten_chain_link_is_found(streams):
    _, bad = streams
    target = read_stream(bad)[3]
    _bypass_triggers(
        "UPDATE ledger_event SET prev_hash = %s WHERE position = %s", ["f" * 64, target.position]
    )
    code, out = _verify()
    assert code == 1
    assert f"stream {bad}: first broken event is version 4" in out
    assert "does not match the previous hash" in out
