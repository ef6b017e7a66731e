"""Regulator exports: byte-identical, and checkable offline by the script they ship."""

from __future__ import annotations

import csv
import datetime
import json
import subprocess
import sys
import zipfile
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command

from audit.exports import (
    ExportError,
    dollars,
    event_line,
    export_day,
    export_range,
    pretty_json,
    record_download,
    static_file,
)
from audit.hashing import canonical_json
from audit.ledger import Actor, read_stream
from audit.models import DaySeal
from audit.seals import seal_day
from tests.audit import test_seals
from tests.audit.test_seals import AFTER, CARRIED, DAY, PREVIOUS, _bypass_triggers

# The two-day ledger and the test signing key of the seal tests.
days = test_seals.days
ledger_clock = test_seals.ledger_clock
_signing_key = test_seals._signing_key

pytestmark = pytest.mark.django_db

DAY_FILES = [
    "README.md",
    "bad_beat_funds.csv",
    "close_events.jsonl",
    "compliance.csv",
    "decks.csv",
    "dice.csv",
    "events.jsonl",
    "findings.csv",
    "manifest.json",
    "meters.csv",
    "prior_heads.jsonl",
    "rounds.csv",
    "seal.json",
    "slips.csv",
    "table_days.csv",
    "variances.csv",
    "verify_export.py",
    "win_report.csv",
]
PACKAGED_VERIFIER = Path(__import__("audit").__file__).parent / "export_files" / "verify_export.py"


def _run(verifier: Path, directory: Path, env: dict | None = None) -> tuple[int, str]:
    done = subprocess.run(
        [sys.executable, str(verifier), str(directory)],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    return done.returncode, done.stdout + done.stderr


@pytest.fixture
def exported(days, tmp_path) -> Path:
    return export_day(DAY, tmp_path / "first", make_zip=True, now=AFTER)


def _files(directory: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(directory.iterdir())}


def test_an_export_holds_the_documented_files(exported):
    assert sorted(p.name for p in exported.iterdir()) == DAY_FILES
    manifest = json.loads((exported / "manifest.json").read_text())
    assert sorted(manifest["files"]) == [f for f in DAY_FILES if f != "manifest.json"]
    assert "generated" not in json.dumps(manifest)
    assert manifest["format"] == "pitboss-day-export/1"


def test_two_exports_of_a_sealed_day_are_byte_identical(exported, tmp_path):
    second = export_day(DAY, tmp_path / "second", make_zip=True, now=AFTER)
    assert _files(second) == _files(exported)
    assert second.with_suffix(".zip").read_bytes() == exported.with_suffix(".zip").read_bytes()


def test_the_zip_is_sorted_with_fixed_timestamps(exported):
    with zipfile.ZipFile(exported.with_suffix(".zip")) as archive:
        names = archive.namelist()
        assert names == [f"pitboss-export-2026-03-10/{name}" for name in DAY_FILES]
        assert {info.date_time for info in archive.infolist()} == {(1980, 1, 1, 0, 0, 0)}
        events = names[DAY_FILES.index("events.jsonl")]
        assert archive.read(events) == (exported / "events.jsonl").read_bytes()


def test_events_are_written_in_global_order_exactly_as_stored(exported, days):
    lines = (exported / "events.jsonl").read_bytes().splitlines(keepends=True)
    assert len(lines) == days.events
    positions = [json.loads(line)["position"] for line in lines]
    assert positions == sorted(positions)
    carried = read_stream(CARRIED)
    first = json.loads(lines[0])
    assert (first["stream_id"], first["version"]) == (CARRIED, 3)
    assert first["payload"] == {"writer": 1, "seq": 3, "amount": 12345}
    assert first["prev_hash"] == carried[1].hash
    prior = (exported / "prior_heads.jsonl").read_bytes().splitlines()
    assert [json.loads(line)["version"] for line in prior] == [2]
    assert json.loads(prior[0])["hash"] == carried[1].hash


def test_csvs_carry_cents_and_dollars(exported, days):
    rows = list(csv.DictReader(StringIO((exported / "rounds.csv").read_text())))
    assert len(rows) == days.rounds
    for row in rows:
        assert row["gaming_day"] == "2026-03-10"
        assert dollars(int(row["wagered_cents"])) == row["wagered_dollars"]
    header = (exported / "table_days.csv").read_text().splitlines()[0].split(",")
    assert header[header.index("opener_cents") + 1] == "opener_dollars"


@pytest.mark.parametrize(
    ("cents", "text"), [(0, "0.00"), (5, "0.05"), (12345, "123.45"), (-250, "-2.50")]
)
def test_dollars_are_exact(cents, text):
    assert dollars(cents) == text


def test_the_shipped_verifier_passes_a_fresh_export(exported, days):
    code, out = _run(exported / "verify_export.py", exported)
    assert code == 0, out
    assert "18 files" not in out and "17 files match manifest.json" in out
    assert "Ed25519 signature verifies" in out
    assert f"{days.events} event hashes and {days.rounds + 1} stream chains intact" in out
    assert "Merkle root of" in out
    assert out.strip().endswith("OK: the export of gaming day 2026-03-10 is consistent")


def test_the_verifier_says_when_it_could_not_check_the_signature(exported, tmp_path):
    blocker = tmp_path / "no-cryptography" / "cryptography"
    blocker.mkdir(parents=True)
    (blocker / "__init__.py").write_text("raise ImportError('hidden for this test')\n")
    env = {"PYTHONPATH": str(blocker.parent), "PATH": "/usr/bin:/bin"}
    code, out = _run(PACKAGED_VERIFIER, exported, env=env)
    assert code == 0, out
    assert "signature was NOT checked" in out
    done = subprocess.run(
        [sys.executable, str(PACKAGED_VERIFIER), str(exported), "--require-signature"],
        capture_output=True,
        text=True,
        env=env,
    )
    assert done.returncode == 3


# close_events.jsonl is empty before the close (its tampering: tests/operations/test_close.py).
@pytest.mark.parametrize("name", [name for name in DAY_FILES if name != "close_events.jsonl"])
def test_a_changed_byte_in_any_file_is_named(exported, name):
    path = exported / name
    data = bytearray(path.read_bytes())
    middle = len(data) // 2
    data[middle] = ord("#") if data[middle] != ord("#") else ord("%")
    path.write_bytes(bytes(data))
    code, out = _run(PACKAGED_VERIFIER, exported)
    assert code == 1, out
    assert out.splitlines()[-1].startswith(f"FAILED: {name}"), out


def _rewrite_manifest(directory: Path, name: str) -> None:
    import hashlib

    manifest = json.loads((directory / "manifest.json").read_text())
    data = (directory / name).read_bytes()
    manifest["files"][name] = {"sha256": hashlib.sha256(data).hexdigest(), "bytes": len(data)}
    (directory / "manifest.json").write_bytes(pretty_json(manifest))


def test_an_altered_event_with_a_matching_manifest_is_named_by_stream_and_version(exported):
    path = exported / "events.jsonl"
    lines = path.read_bytes().splitlines(keepends=True)
    target = json.loads(lines[5])
    target["metadata"]["actor"] = "someone else"
    lines[5] = canonical_json(target) + b"\n"
    path.write_bytes(b"".join(lines))
    _rewrite_manifest(exported, "events.jsonl")
    code, out = _run(PACKAGED_VERIFIER, exported)
    assert code == 1, out
    assert f"FAILED: stream {target['stream_id']} version {target['version']}" in out
    assert "content altered" in out


def test_a_removed_event_line_is_named_by_the_next_version(exported):
    path = exported / "events.jsonl"
    lines = path.read_bytes().splitlines(keepends=True)
    removed = json.loads(lines[1])
    following = next(
        json.loads(line)
        for line in lines[2:]
        if json.loads(line)["stream_id"] == removed["stream_id"]
    )
    path.write_bytes(b"".join(lines[:1] + lines[2:]))
    _rewrite_manifest(exported, "events.jsonl")
    code, out = _run(PACKAGED_VERIFIER, exported)
    assert code == 1, out
    assert f"stream {removed['stream_id']} version {following['version']}" in out


def test_an_altered_prior_head_is_named(exported):
    path = exported / "prior_heads.jsonl"
    event = json.loads(path.read_bytes())
    event["payload"]["amount"] = 1
    path.write_bytes(canonical_json(event) + b"\n")
    _rewrite_manifest(exported, "prior_heads.jsonl")
    code, out = _run(PACKAGED_VERIFIER, exported)
    assert code == 1, out
    assert f"FAILED: stream {CARRIED} version 2 (prior_heads.jsonl line 1)" in out


def test_an_export_refuses_a_day_that_no_longer_matches_its_seal(days, tmp_path):
    seal_day(DAY, now=AFTER)
    _bypass_triggers(
        "UPDATE ledger_event SET payload = %s WHERE stream_id = %s AND version = 3",
        ['{"writer": 1, "seq": 3, "amount": 1}', CARRIED],
    )
    with pytest.raises(ExportError, match=f"stream {CARRIED} version 3"):
        export_day(DAY, tmp_path, now=AFTER)


def test_a_range_export_verifies_and_chains_its_seals(days, tmp_path):
    target = export_range(PREVIOUS, DAY, tmp_path, make_zip=True, now=AFTER)
    code, out = _run(target / "verify_export.py", target)
    assert code == 0, out
    assert "pitboss-export-2026-03-10/seal.json names the seal of 2026-03-09" in out
    assert "OK: the export of 2026-03-09 to 2026-03-10 is consistent" in out
    assert target.with_suffix(".zip").is_file()


def test_the_export_day_command_seals_and_writes_the_directory_and_zip(days, tmp_path):
    # The command uses the real clock: both test days are long over.
    out = StringIO()
    call_command("export_day", "--day", "2026-03-10", "--out", str(tmp_path), "--zip", stdout=out)
    assert DaySeal.objects.filter(gaming_day=DAY).exists()
    assert (tmp_path / "pitboss-export-2026-03-10" / "manifest.json").is_file()
    assert (tmp_path / "pitboss-export-2026-03-10.zip").is_file()
    assert "verify_export.py" in out.getvalue()


def test_each_download_is_recorded_in_the_ledger(days, role_users):
    from casino.roles import Role

    seal = seal_day(DAY, now=AFTER)
    regulator = Actor.from_user(role_users[Role.REGULATOR])
    record_download(regulator, DAY)
    record_download(regulator, DAY)
    events = read_stream("export:2026-03-10")
    assert [e.event_type for e in events] == ["audit.export_downloaded"] * 2
    assert events[0].payload == {
        "gaming_day": "2026-03-10",
        "downloaded_by": "regulator",
        "roles": ["regulator"],
        "seal_hash": seal.seal_hash,
    }


def test_the_static_files_ship_as_package_data():
    assert b"465a.6" in static_file("README.md")
    assert static_file("verify_export.py").startswith(b"#!/usr/bin/env python3")


def test_an_event_line_is_canonical_json_of_the_stored_row(days):
    row = (1, "test:x", 1, "test.counted", 1, '{"b": 1, "a": "é"}', {}, AFTER, AFTER, "0" * 64,
           "f" * 64)  # fmt: skip
    line = event_line(row)
    assert line.endswith(b"\n") and b'"payload":{"a":"\xc3\xa9","b":1}' in line
    assert datetime.date.fromisoformat(json.loads(line)["recorded_at"][:10]) == AFTER.date()


def test_pages_of_any_size_give_the_same_export(exported, tmp_path, monkeypatch):
    from audit import exports, seals

    monkeypatch.setattr(exports, "PAGE", 7)
    monkeypatch.setattr(seals, "PAGE", 3)
    paged = export_day(DAY, tmp_path / "paged", now=AFTER)
    assert _files(paged) == _files(exported)
    assert seals.verify_seal(DAY).ok


def test_a_big_entry_is_deflated_in_blocks_any_unzip_reads_and_the_bytes_do_not_vary(
    tmp_path, monkeypatch
):
    """A busy day's events.jsonl (gigabytes) is deflated in fixed blocks on two threads
    (``_BlockDeflate``): one deflate stream all the same, which zipfile reads back with
    its CRC checked, and the same bytes however the threads finish; smaller entries
    are deflated as before."""
    from audit import exports

    monkeypatch.setattr(exports, "ZIP_BLOCKS_FROM", 200_000)
    monkeypatch.setattr(exports, "ZIP_BLOCK", 64_000)
    directory = tmp_path / "pitboss-export-2024-05-01"
    directory.mkdir()
    lines = b"".join(b'{"position":%d,"payload":{"card":"%s"}}\n' % (n, b"AKQJT98765"[n % 10:][:1])
                     for n in range(40_000))  # fmt: skip
    (directory / "events.jsonl").write_bytes(lines)
    (directory / "small.csv").write_bytes(b"a,b\n1,2\n")
    first = exports.write_zip(directory, tmp_path / "first.zip")
    second = exports.write_zip(directory, tmp_path / "second.zip")
    assert first.read_bytes() == second.read_bytes()
    with zipfile.ZipFile(first) as archive:
        assert archive.testzip() is None  # every entry inflates to its recorded CRC
        assert archive.read(f"{directory.name}/events.jsonl") == lines
    monkeypatch.setattr(exports, "ZIP_BLOCKS_FROM", len(lines) + 1)
    whole = exports.write_zip(directory, tmp_path / "whole.zip")
    assert whole.read_bytes() != first.read_bytes()  # the blocks were used above
    with zipfile.ZipFile(whole) as archive:
        assert archive.read(f"{directory.name}/events.jsonl") == lines
