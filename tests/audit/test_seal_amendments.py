"""Issue 13, part 1: a correction appended to a sealed day's stream after
its seal goes into an amendment of that day, chained to its seal.

The correction is an event of the day it is recorded in (each event in
exactly one seal); that day's seal lists it in ``amendments``: the amended
day, the hash of its seal, the streams and events amending it and their
Merkle root, all signed. The export of the later day carries it and the
offline verifier recomputes it; ``verify_ledger`` recomputes it too.
"""

from __future__ import annotations

import datetime
import json

import pytest
from django.db import connection

from audit.exports import export_day, export_range
from audit.ledger import append, read_stream
from audit.records import NewEvent
from audit.seals import seal_day, verify_seal
from casino.models import Casino, Jurisdiction
from tables.simulation import TablePlan, simulate_gaming_day
from tests.audit.helpers import SYSTEM, LedgerClock
from tests.audit.test_seal_membership import (
    AFTER,
    FIRST,
    IN_FIRST,
    IN_SECOND,
    SECOND,
    _all_positions,
    _positions,
    _signing_key,  # noqa: F401 (the fixture: a pinned key, DEBUG off)
    _verify,
)
from tests.audit.test_verify_ledger import _verify as _verify_ledger

pytestmark = pytest.mark.django_db

ROUND = "round:CC-1-20260309-00001"
#: Inside FIRST's gaming day, once it has ended: when FIRST is sealed.
FIRST_SEALED = datetime.datetime(2026, 3, 10, 12, 0, tzinfo=datetime.UTC)


@pytest.fixture
def amended(monkeypatch):
    clock = LedgerClock(monkeypatch, IN_FIRST)
    jurisdiction, _ = Jurisdiction.objects.get_or_create(code="PA", name="Pennsylvania")
    Casino.objects.create(name="Test casino", jurisdiction=jurisdiction)
    simulate_gaming_day([TablePlan("CC-1", "PA-674a-2019")], FIRST, rounds_per_table=2, seed=7)
    first = seal_day(FIRST, now=FIRST_SEALED)
    assert "amendments" not in first.body
    clock.at = IN_SECOND
    version = read_stream(ROUND)[-1].version
    correction = NewEvent("ledger.correction", {"corrects_version": 1,
                                                "reason": "wrong seat recorded"})  # fmt: skip
    append(ROUND, [correction], expected_version=version, actor=SYSTEM)
    second = seal_day(SECOND, now=AFTER)
    return first, second, version + 1


def test_a_correction_of_a_sealed_day_lands_in_an_amendment_chained_to_its_seal(amended):
    first, second, corrected_version = amended
    (amendment,) = second.body["amendments"]
    assert amendment["gaming_day"] == FIRST.isoformat()
    assert amendment["amends_seal_hash"] == first.seal_hash
    assert amendment["streams"] == [ROUND]
    assert amendment["events"] == 1
    # The correction is SECOND's event, and in no other seal.
    members = {day: _positions(day, seal.body["cutoff_position"])
               for day, seal in ((FIRST, first), (SECOND, second))}  # fmt: skip
    correction = read_stream(ROUND)[-1]
    assert correction.version == corrected_version
    assert correction.position in members[SECOND]
    assert correction.position not in members[FIRST]
    assert not members[FIRST] & members[SECOND]
    assert members[FIRST] | members[SECOND] == _all_positions()
    assert verify_seal(FIRST).ok and verify_seal(SECOND).ok
    code, out = _verify_ledger()
    assert code == 0, out


def test_both_exports_verify_offline_and_the_later_lists_the_amendment(amended, tmp_path):
    first, second, _ = amended
    earlier = export_day(FIRST, tmp_path / "one")
    later = export_day(SECOND, tmp_path / "two")
    assert "amendments" not in json.loads((earlier / "seal.json").read_text())["body"]
    code, out = _verify(earlier)
    assert code == 0, out
    code, out = _verify(later)
    assert code == 0, out
    assert (f"ok   seal.json amendment of {FIRST}: 1 events in 1 streams, chained to seal "
            f"{first.seal_hash}") in out
    both = export_range(FIRST, SECOND, tmp_path / "range")
    code, out = _verify(both)
    assert code == 0, out


def test_an_amendment_naming_another_seal_is_caught_by_verify_ledger(amended):
    first, second, _ = amended
    body = dict(second.body)
    body["amendments"] = [{**body["amendments"][0], "amends_seal_hash": "f" * 64}]
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL session_replication_role = replica")
        cursor.execute("UPDATE ledger_day_seal SET body = %s WHERE gaming_day = %s",
                       [json.dumps(body), SECOND])  # fmt: skip
        cursor.execute("SET LOCAL session_replication_role = origin")
    report = verify_seal(SECOND)
    assert ("the day's amendments of earlier sealed days (streams, events, Merkle root, "
            "or the amended day's seal hash) differ from those its seal signed") in report.problems
    code, out = _verify_ledger()
    assert code == 1, out
