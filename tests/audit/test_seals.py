"""Gaming-day seals: a signed, chained Merkle root over the day's stream heads."""

from __future__ import annotations

import base64
import dataclasses
import datetime
import hashlib
import importlib.util
from io import StringIO

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.core.management import call_command
from django.db import connection, transaction

from audit.hashing import GENESIS_HASH, canonical_json
from audit.ledger import Actor, NewEvent, append
from audit.models import DaySeal
from audit.seals import (
    DEVELOPMENT_KEY_NOTE,
    MEMBERSHIP,
    MerkleRoot,
    SealError,
    leaf_hash,
    seal_day,
    verify_seal,
    verify_signature,
)
from casino.checks import check_production_safety
from casino.models import Casino, Jurisdiction
from tables.simulation import TablePlan, simulate_gaming_day
from tests.audit.helpers import SYSTEM, LedgerClock, counted

pytestmark = pytest.mark.django_db

#: A fixed test key (never a real one): base64 of the bytes 0..31.
TEST_KEY = base64.b64encode(bytes(range(32))).decode()
PREVIOUS = datetime.date(2026, 3, 9)
DAY = datetime.date(2026, 3, 10)
#: Instants inside each gaming day (06:00 New York is 10:00 UTC in March 2026).
IN_PREVIOUS = datetime.datetime(2026, 3, 9, 15, 0, tzinfo=datetime.UTC)
IN_DAY = datetime.datetime(2026, 3, 10, 15, 0, tzinfo=datetime.UTC)
AFTER = datetime.datetime(2026, 3, 12, 12, 0, tzinfo=datetime.UTC)
CARRIED = "test:carried-over"


def _verifier():
    """The shipped offline verifier, imported as a plain module."""
    from importlib import resources

    path = resources.files("audit").joinpath("export_files", "verify_export.py")
    spec = importlib.util.spec_from_file_location("verify_export", str(path))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(autouse=True)
def _signing_key(settings):
    settings.LEDGER_SIGNING_KEY = TEST_KEY
    settings.DEBUG = False


@pytest.fixture
def ledger_clock(monkeypatch):
    return LedgerClock(monkeypatch, IN_DAY)


@dataclasses.dataclass
class Days:
    rounds: int
    events: int


@pytest.fixture
def days(ledger_clock) -> Days:
    """Two gaming days: one stream starts the day before and carries on into
    DAY (so its chain crosses the boundary), plus simulated play on DAY."""
    jurisdiction, _ = Jurisdiction.objects.get_or_create(code="PA", name="Pennsylvania")
    Casino.objects.create(name="Test casino", jurisdiction=jurisdiction)
    ledger_clock.at = IN_PREVIOUS
    append(CARRIED, [counted(1, 1), counted(1, 2)], expected_version=0, actor=SYSTEM)
    append("test:previous-only", [counted(2, 1)], expected_version=0, actor=SYSTEM)
    ledger_clock.at = IN_DAY
    append(CARRIED, [counted(1, 3, amount=12345)], expected_version=2, actor=SYSTEM)
    summary = simulate_gaming_day(
        [TablePlan("CC-1", "PA-674a-2019"), TablePlan("DX-1", "MA-DCP-UNDATED")],
        DAY,
        rounds_per_table=3,
        seed=7,
        dealer_error_percent=30,
    )
    return Days(rounds=summary.rounds, events=summary.events + 1)


def _bypass_triggers(sql: str, params: list) -> None:
    """Test-only tampering: triggers off for this test's transaction alone."""
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL session_replication_role = replica")
        cursor.execute(sql, params)
        cursor.execute("SET LOCAL session_replication_role = origin")


def _day_event(stream_prefix: str, version: int):
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT stream_id, position FROM ledger_event WHERE stream_id LIKE %s AND version = %s "
            "ORDER BY position LIMIT 1",
            [stream_prefix + "%", version],
        )
        return cursor.fetchone()


# --- the seal ----------------------------------------------------------------------------


def test_a_seal_covers_every_stream_head_of_the_day_and_is_signed(days):
    seal = seal_day(DAY, now=AFTER)
    body = seal.body
    assert body["gaming_day"] == "2026-03-10"
    assert body["events"] == seal.event_count == days.events
    assert body["streams"] == seal.stream_count == days.rounds + 1
    assert body["window"] == {
        "start": "2026-03-10T10:00:00.000000Z",
        "end": "2026-03-11T10:00:00.000000Z",
        "time_zone": "America/New_York",
        "gaming_day_starts_at": "06:00:00",
        "membership": MEMBERSHIP,
    }
    assert body["signing_key"]["development"] is False
    assert verify_signature(body, seal.signature, seal.public_key)
    assert seal.seal_hash == hashlib.sha256(canonical_json(body)).hexdigest()
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT DISTINCT ON (stream_id) stream_id, version, hash FROM ledger_event "
            "WHERE recorded_at >= %s AND recorded_at < %s ORDER BY stream_id, version DESC",
            ["2026-03-10T10:00Z", "2026-03-11T10:00Z"],
        )
        heads = sorted(cursor.fetchall())
    leaves = [leaf_hash(*head) for head in heads]
    assert seal.merkle_root == _verifier().merkle_root(leaves).hex()
    assert ("test:carried-over", 3) in [(s, v) for s, v, _ in heads]


def test_sealing_a_sealed_day_returns_the_same_seal(days):
    first = seal_day(DAY, now=AFTER)
    again = seal_day(DAY, now=AFTER + datetime.timedelta(days=3))
    assert again.pk == first.pk and again.seal_hash == first.seal_hash
    assert DaySeal.objects.count() == 1


def test_a_seal_is_deterministic(days):
    bodies = []
    for _ in range(2):
        with transaction.atomic():
            seal = seal_day(DAY, now=AFTER)
            bodies.append((canonical_json(seal.body), seal.signature))
            transaction.set_rollback(True)
    assert bodies[0] == bodies[1]


def test_each_seal_names_the_previous_days_seal(days):
    first = seal_day(PREVIOUS, now=AFTER)
    second = seal_day(DAY, now=AFTER)
    assert first.body["previous_seal_hash"] == GENESIS_HASH
    assert first.body["events"] == 3 and first.body["streams"] == 2
    assert second.body["previous_gaming_day"] == "2026-03-09"
    assert second.body["previous_seal_hash"] == first.seal_hash
    assert verify_seal(PREVIOUS).ok and verify_seal(DAY).ok


def test_a_day_that_has_not_ended_is_not_sealed(days):
    with pytest.raises(SealError, match="still open until 2026-03-11T10:00:00.000000Z"):
        seal_day(DAY, now=IN_DAY)
    assert not DaySeal.objects.exists()


def test_an_earlier_day_cannot_be_sealed_after_a_later_one(days):
    seal_day(DAY, now=AFTER)
    with pytest.raises(SealError, match="2026-03-10 is already sealed"):
        seal_day(PREVIOUS, now=AFTER)


def test_a_day_with_a_broken_chain_is_not_sealed(days):
    stream_id, position = _day_event("round:", 2)
    _bypass_triggers(
        'UPDATE ledger_event SET metadata = \'{"actor": "someone else"}\' WHERE position = %s',
        [position],
    )
    with pytest.raises(SealError, match=f"stream {stream_id} version 2"):
        seal_day(DAY, now=AFTER)


def test_an_event_changed_after_the_seal_is_named_by_verify_seal_and_verify_ledger(days):
    seal_day(DAY, now=AFTER)
    assert verify_seal(DAY).ok
    _bypass_triggers(
        "UPDATE ledger_event SET payload = %s WHERE stream_id = %s AND version = 3",
        ['{"writer": 1, "seq": 3, "amount": 99999}', CARRIED],
    )
    report = verify_seal(DAY)
    assert not report.ok
    assert any(
        f"stream {CARRIED} version 3" in p and "content altered" in p for p in report.problems
    )
    out = StringIO()
    with pytest.raises(SystemExit):
        call_command("verify_ledger", "--no-progress", stdout=out)
    assert f"stream {CARRIED}: first broken event is version 3" in out.getvalue()


def test_a_removed_event_changes_the_root_and_the_counts(days):
    seal_day(DAY, now=AFTER)
    _bypass_triggers("DELETE FROM ledger_event WHERE stream_id = %s AND version = 3", [CARRIED])
    problems = " | ".join(verify_seal(DAY).problems)
    assert "Merkle root of the day's stream heads" in problems
    assert f"the day now holds {days.events - 1} events" in problems


def test_seals_are_append_only(days):
    seal = seal_day(DAY, now=AFTER)
    with pytest.raises(Exception, match="append-only"), transaction.atomic():
        DaySeal.objects.filter(pk=seal.pk).update(merkle_root="0" * 64)
    with pytest.raises(Exception, match="append-only"), transaction.atomic():
        DaySeal.objects.filter(pk=seal.pk).delete()


def test_a_development_key_is_used_only_with_debug_and_is_labelled(days, settings):
    settings.DEBUG = True
    settings.LEDGER_SIGNING_KEY = ""
    seal = seal_day(DAY, now=AFTER)
    assert seal.development_key is True
    assert seal.body["signing_key"]["development"] is True
    assert seal.body["signing_key"]["note"] == DEVELOPMENT_KEY_NOTE
    assert verify_signature(seal.body, seal.signature, seal.public_key)


def test_without_a_key_and_without_debug_nothing_is_signed(days, settings):
    settings.LEDGER_SIGNING_KEY = ""
    with pytest.raises(ImproperlyConfigured, match="casino.E002"):
        seal_day(DAY, now=AFTER)


@pytest.mark.parametrize(
    ("key", "problem"),
    [
        ("", "is not set"),
        ("not base64!", "is not base64"),
        (base64.b64encode(b"short").decode(), "decodes to 5 bytes"),
    ],
)
def test_casino_E002_refuses_production_without_a_real_signing_key(settings, key, problem):
    settings.LEDGER_SIGNING_KEY = key
    errors = [e for e in check_production_safety(None) if e.id == "casino.E002"]
    assert len(errors) == 1 and problem in errors[0].msg
    settings.DEBUG = True
    assert not [e for e in check_production_safety(None) if e.id == "casino.E002"]


def test_casino_E002_accepts_a_real_signing_key(settings):
    assert not [e for e in check_production_safety(None) if e.id == "casino.E002"]


def test_the_seal_day_command_prints_the_root_and_the_public_key(days, ledger_clock):
    out = StringIO()
    call_command("seal_day", "--day", "2026-03-09", stdout=out)
    seal = DaySeal.objects.get(gaming_day=PREVIOUS)
    assert f"merkle root {seal.merkle_root}" in out.getvalue()
    assert f"public key  {seal.public_key}" in out.getvalue()


@pytest.mark.parametrize("count", [0, 1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 33])
def test_the_streaming_merkle_root_is_the_rfc_6962_tree_hash(count):
    leaves = [leaf_hash(f"test:{i:03d}", i + 1, f"{i:064x}") for i in range(count)]
    root = MerkleRoot()
    for leaf in leaves:
        root.add(leaf)
    assert root.hexdigest() == _verifier().merkle_root(leaves).hex()


def test_the_rfc_6962_tree_hash_of_three_leaves_splits_after_two():
    a, b, c = (hashlib.sha256(bytes([i])).digest() for i in range(3))
    node = hashlib.sha256(b"\x01" + a + b).digest()
    expected = hashlib.sha256(b"\x01" + node + c).hexdigest()
    root = MerkleRoot()
    for leaf in (a, b, c):
        root.add(leaf)
    assert root.hexdigest() == expected


def test_an_event_type_for_downloads_is_registered():
    from audit.registry import REGISTRY

    assert "audit.export_downloaded" in REGISTRY.event_types
    assert REGISTRY.stream_kind_of("export:2026-03-10") is not None


def test_appending_uses_the_test_clock(ledger_clock, db):
    ledger_clock.at = IN_PREVIOUS
    result = append("test:clock", [NewEvent("test.counted", {"writer": 1, "seq": 1})],
                    expected_version=0, actor=Actor.system("tests"))  # fmt: skip
    with connection.cursor() as cursor:
        cursor.execute("SELECT recorded_at FROM ledger_event WHERE position = %s",
                       [result.first_position])  # fmt: skip
        assert cursor.fetchone()[0] == IN_PREVIOUS
