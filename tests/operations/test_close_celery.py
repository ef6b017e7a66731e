"""The gaming-day close survives its worker being killed: a real Celery
worker (prefork, on Redis, against the test database) is SIGKILLed — its
whole process group, no warm shutdown — in the middle of the close. Nothing
is sent again: the broker hands the killed, unacknowledged message out again
after its visibility timeout (shortened here to ``VISIBILITY_TIMEOUT``; the
setting's reasoning is in ``casino/settings.py``), a fresh worker resumes at
the first missing stage from the same cutoff, and the figures and the export
are the ones an undisturbed, in-process computation gives, byte for byte.

The close is sent twice at once, too (a duplicate delivery): one run takes
the day's lock, the other finds it busy and looks again every second, before
and after the kill, and ends reporting the day already closed.

Slow (the day is simulated in this process, two workers start, the close
runs: 30 to 60 s) but it is the only test of the close under a real worker
and a real kill. ``make test`` starts Redis (``scripts/ensure-redis.sh``).

The day's events are recorded here, under the ledger clock of
``test_close`` (the worker is another process: the clock cannot reach it);
the worker's own appends, the close's events, carry the real clock, after
the day: they are not the day's events, and the seal does not cover them.
"""

from __future__ import annotations

import hashlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.conf import settings

from audit.ledger import read_stream
from casino.models import Casino, DayClose, DayCloseStatus, Jurisdiction
from operations import close
from operations.close import STAGE_NAMES, STAGES, close_stream_id
from operations.day_read import replay_apart
from tables.models import DealingMethod, Game, Table, TableDayFigures
from tables.simulation import TablePlan, simulate_table_days
from tables.win import day_win
from tests.operations.test_close import CREW, DAY, TEST_KEY, LedgerClock
from tests.tables.test_deck_job_celery import flushed_broker, stop, test_database_url

#: Without REDIS_URL, a Redis database nothing else uses (the deck job's test
#: has 13); flushed first.
SPARE_REDIS_DB = 14
#: The workers' broker visibility timeout (seconds): how long the killed
#: close waits to be delivered again.
VISIBILITY_TIMEOUT = 8
#: 4 tables x ROUNDS: the replay takes a second or two in the worker, long
#: enough to be killed in the middle of it.
ROUNDS = 300
PLANS = [TablePlan("T1", "PA-674a-2019"), TablePlan("T2", "PA-674a-2019"),
         TablePlan("D1", "MA-DCP-UNDATED"), TablePlan("D2", "MA-DCP-UNDATED")]  # fmt: skip
WAIT_SECONDS = 60
TASK = "casino.close_gaming_day"


def redis_url() -> str:
    """REDIS_URL's database as given (each suite running on this machine has
    its own), or the spare one."""
    if os.environ.get("REDIS_URL"):
        return os.environ["REDIS_URL"]
    return f"redis://127.0.0.1:6379/{SPARE_REDIS_DB}"


def kill(worker: subprocess.Popen) -> None:
    """SIGKILL to the worker's whole process group: the pool child running
    the close dies with its parent, nothing is acknowledged or cleaned up."""
    os.killpg(worker.pid, signal.SIGKILL)
    worker.wait(timeout=15)


class Workers:
    """Celery workers started for the test, each in its own process group."""

    def __init__(self, workdir: Path, broker: str):
        self.workdir = workdir
        self.env = {
            **os.environ,
            "DATABASE_URL": test_database_url(),
            "CELERY_BROKER_URL": broker,
            # The task's PROGRESS states, read back by the test.
            "CELERY_RESULT_BACKEND": broker,
            "DJANGO_SETTINGS_MODULE": "casino.settings",
            "DJANGO_DEBUG": "0",
            # The seal is signed with the test key, never a development one.
            "LEDGER_SIGNING_KEY": TEST_KEY,
            "EXPORT_ROOT": str(workdir / "exports"),
            "CELERY_VISIBILITY_TIMEOUT": str(VISIBILITY_TIMEOUT),
            "CLOSE_BUSY_RETRY_SECONDS": "1",
            # The day is small: read in parts all the same, by the workers' processes.
            "CLOSE_PARTS_ABOVE_EVENTS": "0",
        }
        self.started: list[subprocess.Popen] = []

    def start(self, concurrency: int = 2) -> subprocess.Popen:
        number = len(self.started) + 1
        with open(self.workdir / f"worker-{number}.log", "w") as log:
            worker = subprocess.Popen(
                [str(Path(sys.executable).with_name("celery")), "-A", "casino", "worker",
                 "--pool", "prefork", "--concurrency", str(concurrency), "-l", "info",
                 "--without-gossip", "--without-mingle",
                 "--hostname", f"close-test-{number}-{os.getpid()}@%h"],
                cwd=settings.BASE_DIR, env=self.env, stdout=log, stderr=subprocess.STDOUT,
                start_new_session=True,  # its own process group, killed as one
            )  # fmt: skip
        self.started.append(worker)
        return worker

    def log(self, number: int) -> str:
        return (self.workdir / f"worker-{number}.log").read_text()

    def logs(self) -> str:
        return "\n".join(
            f"--- worker {n} (exit code {w.returncode}):\n"
            + (self.workdir / f"worker-{n}.log").read_text()[-3000:]
            for n, w in enumerate(self.started, start=1)
        )

    def stop_all(self) -> None:
        for worker in self.started:
            stop(worker)


@pytest.fixture
def day(role_users, settings, tmp_path):
    """Four table days of DAY, recorded during DAY by this process."""
    settings.EXPORT_ROOT = tmp_path / "in-process"
    settings.LEDGER_SIGNING_KEY = TEST_KEY
    jurisdiction, _ = Jurisdiction.objects.get_or_create(code="PA", name="Pennsylvania")
    Casino.objects.create(name="Test casino", jurisdiction=jurisdiction)
    for plan in PLANS:
        criss_cross = plan.table_id.startswith("T")
        Table.objects.create(
            table_id=plan.table_id, ruleset_id=plan.ruleset_id,
            game=Game.CRISS_CROSS_POKER if criss_cross else Game.DOUBLE_CROSS_POKER,
            dealing_method=DealingMethod.HAND if criss_cross else DealingMethod.MANUAL_SHOE,
            min_wager_cents=500, max_wager_cents=50000,
        )  # fmt: skip
    # The ledger clock for the recording only: everything after it (the
    # workers, the in-process comparison) runs on the real clock.
    with pytest.MonkeyPatch.context() as patch:
        LedgerClock(patch)
        summary = simulate_table_days(PLANS, DAY, rounds_per_table=ROUNDS, seed=23, crew=CREW,
                                      dealer_error_percent=0, irregularity_percent=0,
                                      rounds_per_commit=200)  # fmt: skip
    return summary


@pytest.mark.slow
@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_a_worker_killed_mid_close_and_a_rerun_give_identical_figures(day, tmp_path):
    from celery import Celery

    from audit.exports import export_day
    from audit.models import DaySeal
    from audit.seals import public_key_text, signing_key

    broker = redis_url()
    flushed_broker(broker)
    client = Celery("close-test", broker=broker, backend=broker, set_as_current=False)
    workers = Workers(tmp_path, broker)
    begun = time.monotonic()
    try:
        # 1. The first worker (two processes) is given the close twice at once:
        # one run takes the day's lock and reports its progress as task state,
        # the other finds the day busy and looks again every second. In the
        # middle of the replay (the cutoff is fixed, the rounds are being read
        # up to it), the worker is killed.
        first = workers.start()
        sent = [client.send_task(TASK, args=[DAY.isoformat(), "finance", False]) for _ in "ab"]
        deadline = time.monotonic() + WAIT_SECONDS
        meta: dict = {}
        runner = ""
        while time.monotonic() < deadline and first.poll() is None:
            metas = {task.id: client.backend.get_task_meta(task.id) for task in sent}
            running = [(i, m) for i, m in metas.items() if m["status"] == "PROGRESS"]
            runner, meta = running[0] if running else ("", {})
            # Killed once some rounds are replayed (progress comes every 500
            # rounds), or at whatever later stage it is if that was missed.
            if (
                meta
                and meta["result"]["stage"] != "started"
                and (meta["result"]["stage"] != "replayed" or meta["result"]["done"] > 0)
                and "being closed by another run" in workers.log(1)
            ):
                break
            time.sleep(0.01)
        assert meta.get("status") == "PROGRESS", f"no progress: {meta}\n{workers.logs()}"
        assert "being closed by another run" in workers.log(1), workers.logs()
        kill(first)
        killed = time.monotonic()
        killed_at = killed - begun
        at_kill = meta["result"]  # e.g. {"stage": "replayed", "done": 0, "total": 1200}
        before = read_stream(close_stream_id(DAY))
        # The last state the killed worker reported: still PROGRESS, never SUCCESS.
        assert client.backend.get_task_meta(runner)["status"] == "PROGRESS"

        # 2. Killed: the stream stops short of close.completed, and nothing of
        # the killed stage was recorded.
        interrupted = [e.event_type for e in before]
        assert interrupted == list(STAGES[: len(interrupted)])
        assert close.STARTED in interrupted and close.COMPLETED not in interrupted
        missing = [STAGE_NAMES[s] for s in STAGES[len(interrupted) :]]

        # 3. A fresh worker, and nothing sent: the broker delivers the killed
        # close again (it was never acknowledged) once its visibility timeout
        # has passed, and the duplicate's retry with it.
        workers.start()
        redelivered = None
        while redelivered is None and time.monotonic() < killed + VISIBILITY_TIMEOUT + 30:
            if f"[{runner}] received" in workers.log(2):
                redelivered = time.monotonic() - killed
            time.sleep(0.1)
        assert redelivered is not None, f"not delivered again\n{workers.logs()}"
        assert redelivered < VISIBILITY_TIMEOUT + 15
        # This process is no task, but Celery may think it is: eager tasks
        # applied from several threads at once (the ledger's concurrency
        # tests) can leave its process-wide "inside a task" flag set.
        summaries = sorted(
            task.get(timeout=WAIT_SECONDS, interval=0.2, disable_sync_subtasks=False)
            for task in sent
        )
        finished_at = time.monotonic() - begun
    except BaseException:
        workers.stop_all()
        print(workers.logs())
        raise
    finally:
        workers.stop_all()
        flushed_broker(broker)  # the results

    # One run resumed at the first missing stage (the stages before the kill
    # were not redone); the other found the day closed.
    assert summaries == sorted([
        f"gaming day {DAY} closed: 4 tables, {4 * ROUNDS} rounds, 0 variances; "
        f"stages run: {', '.join(missing)}",
        f"gaming day {DAY} is already closed",
    ])  # fmt: skip
    summary = summaries

    # 4. Each stage once, in order; what was recorded before the kill is unchanged.
    events = read_stream(close_stream_id(DAY))
    assert [e.event_type for e in events] == list(STAGES)
    assert events[: len(before)] == before
    recorded = {e.event_type: e.payload for e in events}
    cutoff = recorded[close.STARTED]["cutoff_position"]

    # The figures are the in-process computation's, from the same cutoff.
    replayed = replay_apart(DAY, cutoff).payload()
    assert recorded[close.REPLAYED] == replayed
    assert replayed["rounds"] == 4 * ROUNDS and replayed["refused"] == []
    assert recorded[close.RECONCILED] == close._reconcile(
        DAY, recorded[close.STARTED], replayed, close._no_progress
    )
    for plan in PLANS:
        table_id = plan.table_id
        row = TableDayFigures.objects.get(table_id=table_id, gaming_day=DAY)
        rack = day.collected_cents[table_id] - day.paid_cents[table_id]
        assert row.win_cents == day_win(table_id, DAY).win_cents == rack
        assert row.status == "reconciled" and row.rounds == ROUNDS
    totals = recorded[close.RECONCILED]["totals"]
    assert recorded[close.COMPLETED] == {"tables": 4, "variances": 0,
                                         "win_cents": totals["win_cents"]}  # fmt: skip
    assert totals["win_cents"] == sum(day.collected_cents.values()) - sum(day.paid_cents.values())
    closed = DayClose.objects.get(gaming_day=DAY)
    assert closed.status == DayCloseStatus.CLOSED and closed.win_cents == totals["win_cents"]

    # The seal was signed in the worker with the key passed to it.
    seal = DaySeal.objects.get(gaming_day=DAY)
    assert seal.seal_hash == recorded[close.SEALED]["seal_hash"]
    assert not seal.development_key
    assert seal.public_key == public_key_text(signing_key()[0])  # TEST_KEY's

    # The worker's export is byte for byte a fresh in-process export.
    archive = tmp_path / "exports" / f"{recorded[close.EXPORTED]['name']}.zip"
    worker_zip = archive.read_bytes()
    assert hashlib.sha256(worker_zip).hexdigest() == recorded[close.EXPORTED]["zip_sha256"]
    fresh = export_day(DAY, tmp_path / "fresh", make_zip=True).with_suffix(".zip")
    assert fresh.read_bytes() == worker_zip

    print(
        f"\nkilled after {killed_at:.1f} s with {interrupted[-1]} recorded and progress "
        f"{at_kill}; delivered again {redelivered:.1f} s after the kill, completed at "
        f"{finished_at:.1f} s: {summary}"
    )
