"""A closed day's export: its figures are signed by the seal (issue 13). The
attacks of the issue on a real close: the win report lowered by $50,000, the
variances emptied, the close's events emptied, each with manifest.json
re-hashed; before, the verifier said OK to each."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys

import pytest

from operations.close import close_gaming_day, close_stream_id
from tables.simulation import TableDayPlan
from tests.audit.test_export_signatures import rehash
from tests.operations.test_close import DAY, casino, ledger_clock, play  # noqa: F401  (fixtures)

pytestmark = pytest.mark.django_db


@pytest.fixture
def closed(casino, play, tmp_path):  # noqa: F811
    import zipfile

    play(TableDayPlan(inventory_short_cents={"T1": 3_000}, drop_short_cents={"D1": 10_000}))
    report = close_gaming_day(DAY, requested_by="finance")
    with zipfile.ZipFile(report.export) as archive:
        archive.extractall(tmp_path / "unzipped")
    return tmp_path / "unzipped" / report.export.stem


def verify(directory):
    done = subprocess.run([sys.executable, str(directory / "verify_export.py"), str(directory)],
                          capture_output=True, text=True, timeout=120)  # fmt: skip
    return done.returncode, done.stdout + done.stderr


def test_the_closed_days_export_verifies_and_signs_the_close_up_to_its_reconciliation(closed):
    code, out = verify(closed)
    assert code == 0, out
    seal = json.loads((closed / "seal.json").read_text())["body"]
    assert seal["contents"]["close"]["stream_id"] == close_stream_id(DAY)
    assert seal["contents"]["close"]["version"] == 3  # started, replayed, reconciled
    assert sorted(seal["contents"]["files"]) == sorted(
        name for name in json.loads((closed / "manifest.json").read_text())["files"]
        if name.endswith(".csv"))  # fmt: skip


def test_a_win_report_lowered_by_50000_dollars_is_refused(closed):
    path = closed / "win_report.csv"
    rows = list(csv.reader(io.StringIO(path.read_text())))
    header = rows[0]
    cents, dollars = header.index("win_cents"), header.index("win_dollars")
    win = int(rows[1][cents]) - 5_000_000
    rows[1][cents], rows[1][dollars] = str(win), f"{win / 100:.2f}"
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows)
    path.write_text(out.getvalue())
    rehash(closed, "win_report.csv")
    code, text = verify(closed)
    assert code == 1, text
    assert "FAILED: win_report.csv: SHA-256" in text
    assert "the file was changed after the day was sealed" in text


def test_emptied_variances_are_refused(closed):
    path = closed / "variances.csv"
    assert len(path.read_text().splitlines()) == 3  # header and the two planted variances
    path.write_text(path.read_text().splitlines()[0] + "\n")
    rehash(closed, "variances.csv")
    code, text = verify(closed)
    assert code == 1, text
    assert "FAILED: variances.csv: SHA-256" in text


def test_emptied_close_events_are_refused(closed):
    (closed / "close_events.jsonl").write_bytes(b"")
    rehash(closed, "close_events.jsonl")
    code, text = verify(closed)
    assert code == 1, text
    assert ("close_events.jsonl: holds 0 events of close:2024-05-01; the seal signed the close "
            "up to version 3") in text  # fmt: skip
