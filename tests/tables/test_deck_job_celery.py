"""The deck job end to end: a real Celery worker with embedded beat
(django-celery-beat's database scheduler) on Redis, against the test
database, raises the finding for an overdue deck by itself.

Slow (some seconds: the worker starts, beat ticks, the task runs; polled for
at most 90 s) but it is the only test that proves the schedule, the task name and the
broker wiring fit together. ``make test`` starts Redis
(``scripts/ensure-redis.sh``).
"""

from __future__ import annotations

import datetime
import os
import signal
import subprocess
import sys
import tempfile
import time
import urllib.parse
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection
from django.utils import timezone

from audit.ledger import Actor, NewEvent, append
from tables.models import ComplianceFinding, Table

#: A Redis database nothing else uses, flushed before the test.
SPARE_REDIS_DB = 13
POLL_SECONDS = 90


def redis_url() -> str:
    base = urllib.parse.urlparse(os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0"))
    return base._replace(path=f"/{SPARE_REDIS_DB}").geturl()


def test_database_url() -> str:
    """The database this test writes to (pytest-django's ``test_<name>``)."""
    db = connection.settings_dict
    credentials = urllib.parse.quote(db["USER"] or "postgres")
    if db["PASSWORD"]:
        credentials += ":" + urllib.parse.quote(db["PASSWORD"])
    host = f"{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}"
    return f"postgres://{credentials}@{host}/{db['NAME']}"


test_database_url.__test__ = False  # a helper, not a test


def flushed_broker(url: str) -> None:
    import redis

    try:
        redis.Redis.from_url(url, socket_connect_timeout=2).flushdb()
    except redis.exceptions.ConnectionError as error:
        pytest.fail(f"Redis is not reachable at {url} ({error}); run scripts/ensure-redis.sh")


def stop(worker: subprocess.Popen) -> None:
    """SIGTERM to the worker's whole process group (beat, pool children),
    then SIGKILL if it has not left within 15 seconds."""
    if worker.poll() is not None:
        return
    try:
        os.killpg(worker.pid, signal.SIGTERM)
        worker.wait(timeout=15)
    except subprocess.TimeoutExpired:
        os.killpg(worker.pid, signal.SIGKILL)
        worker.wait(timeout=15)
    except ProcessLookupError:
        pass


@pytest.mark.slow
@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_the_beat_scheduled_worker_raises_an_overdue_deck(role_users):
    from django_celery_beat.models import IntervalSchedule, PeriodicTask

    Table.objects.create(table_id="CC-09", game="criss_cross_poker", ruleset_id="PA-592-2014",
                         min_wager_cents=500, max_wager_cents=50000,
                         dealing_method="HAND")  # fmt: skip
    since = timezone.now() - datetime.timedelta(hours=5)
    append("deck:CELERY-1", [
        NewEvent("deck.received", {"table_id": "CC-09", "back_colour": "red",
                                   "received_by": "floorperson"}, occurred_at=since),
        NewEvent("deck.inspected", {"dealer": "dealer"}, occurred_at=since),
        NewEvent("deck.verified", {"floorperson": "floorperson"}, occurred_at=since),
        NewEvent("deck.put_in_use", {}, occurred_at=since),
    ], expected_version=0, actor=Actor.system("test"))  # fmt: skip

    # The migration's every-minute row (recreated if a flush took it), made
    # due at once: beat would otherwise wait a minute for the first tick.
    every_minute, _ = IntervalSchedule.objects.get_or_create(every=1, period="minutes")
    task, _ = PeriodicTask.objects.get_or_create(
        task="tables.check_decks",
        defaults={"name": "Deck checks (test)", "interval": every_minute},
    )
    task.enabled = True
    task.last_run_at = timezone.now() - datetime.timedelta(days=1)
    task.save()

    broker = redis_url()
    flushed_broker(broker)
    env = {
        **os.environ,
        "DATABASE_URL": test_database_url(),
        "CELERY_BROKER_URL": broker,
        "DJANGO_SETTINGS_MODULE": "casino.settings",
    }
    celery = Path(sys.executable).with_name("celery")
    with tempfile.TemporaryDirectory() as workdir:
        log_path = Path(workdir) / "worker.log"
        with open(log_path, "w") as log:
            worker = subprocess.Popen(
                [
                    str(celery),
                    "-A",
                    "casino",
                    "worker",
                    "--beat",
                    "-l",
                    "info",
                    "--concurrency",
                    "1",
                    "--schedule",
                    str(Path(workdir) / "beat-schedule"),
                    "--hostname",
                    f"deck-test-{os.getpid()}@%h",
                ],  # fmt: skip
                cwd=settings.BASE_DIR,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # its own process group, killed as one
            )
            started = time.monotonic()
            try:
                finding = None
                while time.monotonic() - started < POLL_SECONDS and worker.poll() is None:
                    finding = ComplianceFinding.objects.filter(deck_id="CELERY-1").first()
                    if finding is not None:
                        break
                    time.sleep(1)
            finally:
                stop(worker)
        elapsed = time.monotonic() - started
        output = log_path.read_text()
    assert finding is not None, (
        f"no finding after {elapsed:.0f} s (worker exit code {worker.returncode}); "
        f"worker log:\n{output[-4000:]}"
    )
    assert finding.kind == "deck_overdue"
    assert finding.table_id == "CC-09"
    assert finding.section == "592.3(c)"
    assert "tables.check_decks" in output
