"""The embedded default (SQLite, eager Celery) works on its own: migrate,
append through the API path, refuse changes at the database (the refusals'
table too, after the columns migration 0011 added), throttle, verify."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CHECK = r'''
import datetime
from django.db import DatabaseError, connection
from tables.models import Finding, Round
from tables.simulation import TablePlan, simulate_gaming_day
summary = simulate_gaming_day([TablePlan("CC-1", "PA-674a-2019")], datetime.date(2024, 5, 1),
                              rounds_per_table=20, seed=5, dealer_error_percent=50)
assert Round.objects.count() == 20, Round.objects.count()
assert Finding.objects.count() == len(summary.injected) > 0
try:
    with connection.cursor() as cursor:
        cursor.execute("UPDATE ledger_event SET version = 99")
except DatabaseError as error:
    assert "append-only" in str(error)
else:
    raise AssertionError("SQLite accepted an UPDATE of the ledger")
# Issue 14: migration 0011 added the bounded-body columns in place; the triggers stay.
from django.test import Client
from audit.models import RejectedSubmission
anonymous = Client()
answers = [anonymous.post("/api/v1/streams/test:x/events", "x" * 5000,
                          content_type="application/json").status_code for _ in range(22)]
assert answers == [401] * 20 + [429] * 2, answers  # the throttle counts in Django's cache
refusal = RejectedSubmission.objects.latest("id")
assert (refusal.body_length, len(bytes(refusal.body_prefix))) == (5000, 2048)
for statement in ("UPDATE ledger_rejected SET body_sha256 = ''", "DELETE FROM ledger_rejected"):
    try:
        with connection.cursor() as cursor:
            cursor.execute(statement)
    except DatabaseError as error:
        assert "append-only" in str(error)
    else:
        raise AssertionError(f"SQLite accepted {statement}")
print("sqlite-ok", connection.vendor)
'''


def _manage(*args: str, env: dict[str, str]) -> str:
    completed = subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True,
        text=True, timeout=300,
    )
    assert completed.returncode == 0, completed.stdout + completed.stderr
    return completed.stdout


def test_the_embedded_default_runs_on_sqlite(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "CELERY_BROKER_URL"}}
    env.update(SQLITE_PATH=str(tmp_path / "pitboss.sqlite3"), DJANGO_DEBUG="1",
               EXPORT_ROOT=str(tmp_path / "exports"))  # never the checkout's seals
    _manage("migrate", "-v0", env=env)
    assert "sqlite-ok sqlite" in _manage("shell", "-c", CHECK, env=env)
    assert "every hash chain intact" in _manage("verify_ledger", "--no-progress", env=env)
    replayed = _manage("replay", "--no-progress", "--gaming-day", "2024-05-01", env=env)
    assert "Replayed 20 rounds" in replayed
    # Issue 21: the read models checked against the ledger in SQLite's temp schema.
    checked = _manage("verify_projections", "--no-progress", env=env)
    assert "every row is what the events give" in checked, checked
    _manage("shell", "-c", "from django.db import connection\nconnection.cursor().execute("
            "'UPDATE tables_round SET recorded_paid_cents = recorded_paid_cents + 100000')",
            env=env)  # fmt: skip
    forged = subprocess.run([sys.executable, "manage.py", "verify_projections", "--no-progress",
                             "--gaming-day", "2024-05-01"], cwd=ROOT, env=env,
                            capture_output=True, text=True, timeout=300)  # fmt: skip
    assert forged.returncode == 1, forged.stdout + forged.stderr
    assert forged.stdout.count("DIFFERS tables.rounds: tables_round round:") == 20, forged.stdout
    # In parts by table (SQLite: one after another, each in a savepoint): the same.
    parts = subprocess.run([sys.executable, "manage.py", "verify_projections", "--no-progress",
                            "--gaming-day", "2024-05-01", "--workers", "2"], cwd=ROOT, env=env,
                           capture_output=True, text=True, timeout=300)  # fmt: skip
    assert parts.returncode == 1, parts.stdout + parts.stderr
    assert ([line for line in parts.stdout.splitlines() if line.startswith("DIFFERS")]
            == [line for line in forged.stdout.splitlines() if line.startswith("DIFFERS")])
