"""Appends through a real server while its connections are dropped and its
workers killed (issue 22): gunicorn with two workers against the test
database, four device threads appending two-event batches (three with an
``Idempotency-Key``, one without: the ledger derives it), retrying the same
request on a 503 or a lost connection. Meanwhile the server's database
connections are terminated every few tenths of a second
(``pg_terminate_backend``, only the backends with this test's application
name) and a worker is SIGKILLed twice, mid-request.

Every acknowledged batch is stored, nothing twice, nothing half-written,
nothing stored yet refused; the devices saw only 201, 200, 503 and cut
connections; the hash chains verify. Bounded: the devices give up after
``DEADLINE`` seconds (the test then fails). The machinery is the faults
bench's (``bench/faults.py``), which does the same across database restarts.
"""

from __future__ import annotations

import os
import time

import pytest
from django.db import connection

from audit.verify import verify
from bench.faults import (
    Device,
    Server,
    make_device_token,
    outcome,
    statuses,
    terminate_backends,
    with_application_name,
)
from tests.tables.test_deck_job_celery import test_database_url

BATCHES = 12
DEADLINE = 90
WORKER_KILLS = 2


@pytest.mark.slow
@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_dropped_connections_and_killed_workers_lose_and_duplicate_nothing(tmp_path):
    token = make_device_token()
    app_name = f"pitboss-fault-test-{os.getpid()}"
    server = Server(with_application_name(test_database_url(), app_name), tmp_path / "g.log")
    terminated = kills = 0
    began = time.monotonic()
    try:
        devices = [Device(server.port, token, writer, BATCHES, began + DEADLINE,
                          keyless=(writer == 4))
                   for writer in range(1, 5)]  # fmt: skip
        for device in devices:
            device.start()
        tick = 0
        while any(d.is_alive() for d in devices) and time.monotonic() < began + DEADLINE + 5:
            time.sleep(0.25)
            tick += 1
            terminated += terminate_backends(test_database_url(), app_name)
            done = sum(len(d.acknowledged) for d in devices)
            # A worker killed once a third, and again once two thirds, are in.
            if kills < WORKER_KILLS and done >= (kills + 1) * 4 * BATCHES // 3:
                kills += server.kill_worker() is not None
        for device in devices:
            device.join(5)
        elapsed = time.monotonic() - began
    finally:
        server.stop()
    log = server.log()

    with connection.cursor() as cursor:
        result = outcome(cursor, devices)
    figures = result["figures"]
    seen = statuses(devices)
    summary = f"{figures}; statuses {dict(seen)}; {terminated} terminated; {kills} killed"
    assert result["problems"] == [], summary
    assert [d.unfinished for d in devices] == [None] * 4, f"{summary}\n{log}"
    assert figures["acknowledged"] == 4 * BATCHES, summary
    assert figures["stored events"] == 4 * BATCHES * 2, summary
    for name in ("lost", "duplicated", "half-written", "stored but refused", "refused"):
        assert figures[name] == 0, summary
    # Only answers a device can act on: stored (201, or 200 for a retry that
    # had been stored), or try again (503, or the connection cut by a kill).
    assert set(seen) <= {200, 201, 503, "RemoteDisconnected", "ConnectionResetError",
                         "BrokenPipeError", "ConnectionRefusedError"}, summary  # fmt: skip
    assert 500 not in seen and "Server Error" not in log
    # The faults happened: the drill is not a quiet run.
    assert kills == WORKER_KILLS and terminated > 0, summary
    assert sum(n for status, n in seen.items() if status not in (200, 201)) > 0, summary
    assert verify().ok
    print(f"\n{elapsed:.1f} s: {summary}")
