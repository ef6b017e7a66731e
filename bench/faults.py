"""Faults bench: what table devices are told while the database restarts, and
how soon a killed close comes back (issue 22). Also the machinery of the
fault tests (``tests/audit/test_faults_live.py``): the server, the devices and
the ledger check are the same.

``python -m bench.faults --restart-command "pg_ctlcluster 15 faults restart -m fast"``
with ``DATABASE_URL`` naming a PostgreSQL server **of your own** (the command
restarts it; never point it at a shared one):

1. **Appends while the database restarts.** Creates ``pitboss_bench_faults``
   there (dropped first), migrates it, starts gunicorn with two workers
   (``casino.wsgi``, no broker: projections inline, the embedded default) and
   four device threads, each appending two-event batches to its own stream
   with the ``expected_version`` it knows; three send an ``Idempotency-Key``,
   one sends none (the ledger derives one). A device retries the same request
   on a 503 or a lost connection, after ``Retry-After``. Meanwhile the
   database is restarted ``--restarts`` times (``--restart-command``), some
   seconds apart. Reported: batches acknowledged, lost (acknowledged, not
   stored), duplicated (stored twice), half-written, stored-but-refused
   (answered a refusal or a 500, yet stored: must be 0), the status codes the
   devices saw, the hash chains, and per restart the seconds from the restart
   command to the next append that succeeded.
2. **A killed close.** A small simulated day is closed by a real Celery worker
   (Redis at ``REDIS_URL``, database 15 unless ``--redis-db``), with the
   production visibility timeout unless ``--visibility-timeout``; the worker is
   SIGKILLed mid-close and a fresh one started. Reported: the seconds from the
   kill until the close was delivered again, and until it completed.

Exit status 1 if anything was lost, duplicated, half-written or stored yet
refused, or the close did not complete.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime
import http.client
import json
import os
import random
import secrets
import signal
import subprocess
import sys
import threading
import time
import urllib.parse
import uuid
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

PROJECT_ROOT = Path(__file__).resolve().parent.parent
EVENT_TYPE = "fault.counted"
STREAM_KIND = "fault"
#: What a device does not retry: the ledger refused the batch.
REFUSALS = frozenset({400, 401, 403, 404, 409, 422, 500})


def register_fault_types() -> None:
    """The devices' event type and stream kind (idempotent)."""
    from audit.registry import (
        EventType,
        StreamKind,
        object_schema,
        register_event_type,
        register_stream_kind,
    )

    register_event_type(EventType(
        name=EVENT_TYPE, version=1, description="A numbered fact sent by a fault-test device.",
        schema=object_schema({"writer": {"type": "integer"}, "seq": {"type": "integer"}},
                             required=["writer", "seq"]),
    ))  # fmt: skip
    register_stream_kind(StreamKind(name=STREAM_KIND, description="Fault drills",
                                    accepts=frozenset({"fault.*"})))  # fmt: skip


def post_worker_init(worker: Any) -> None:
    """gunicorn hook (``-c python:bench.faults``): each worker knows the type."""
    register_fault_types()


# --- the server ---------------------------------------------------------------------------


def with_application_name(url: str, name: str) -> str:
    """The URL with ``application_name`` set, so its backends can be told apart
    (and only they terminated) on a shared server."""
    parts = urllib.parse.urlparse(url)
    query = dict(urllib.parse.parse_qsl(parts.query))
    query["application_name"] = name
    return parts._replace(query=urllib.parse.urlencode(query)).geturl()


def free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Server:
    """gunicorn with ``workers`` sync workers, in its own process group."""

    def __init__(self, database_url: str, log_path: Path, *, workers: int = 2,
                 env: dict[str, str] | None = None) -> None:  # fmt: skip
        self.port = free_port()
        self.log_path = log_path
        gunicorn = Path(sys.executable).with_name("gunicorn")
        environment = {
            **os.environ, "DATABASE_URL": database_url, "ALLOWED_HOSTS": "127.0.0.1",
            "SECRET_KEY": "pitboss-faults-" + secrets.token_hex(16), "DJANGO_DEBUG": "0",
            "SECURE_SSL_REDIRECT": "0",  # plain HTTP on the loopback, on purpose
            "DJANGO_SETTINGS_MODULE": "casino.settings",
            # A load generator, not a hostile client: the throttle would measure itself.
            "API_THROTTLE_TOKEN": "1000000/min", "API_THROTTLE_ANONYMOUS": "1000000/min",
            **(env or {}),
        }  # fmt: skip
        environment.pop("CELERY_BROKER_URL", None)  # projections inline, as the embedded default
        with open(log_path, "w") as log:
            self.process = subprocess.Popen(
                [str(gunicorn), "casino.wsgi", "-b", f"127.0.0.1:{self.port}", "-w", str(workers),
                 "--timeout", "30", "--graceful-timeout", "5", "-c", "python:bench.faults"],
                cwd=PROJECT_ROOT, env=environment, stdout=log, stderr=subprocess.STDOUT,
                start_new_session=True,
            )  # fmt: skip
        self._wait_ready()

    def _wait_ready(self, seconds: float = 60) -> None:
        deadline = time.monotonic() + seconds
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(f"gunicorn exited ({self.process.returncode}):\n{self.log()}")
            try:
                probe = http.client.HTTPConnection("127.0.0.1", self.port, timeout=5)
                probe.request("GET", "/api/v1/event-types")
                probe.getresponse().read()
                probe.close()
                if len(self.worker_pids()) > 0:
                    return
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"gunicorn did not answer within {seconds} s:\n{self.log()}")
            time.sleep(0.2)

    def worker_pids(self) -> list[int]:
        path = Path(f"/proc/{self.process.pid}/task/{self.process.pid}/children")
        try:
            return [int(pid) for pid in path.read_text().split()]
        except OSError:
            return []

    def kill_worker(self) -> int | None:
        """SIGKILL one worker (the master starts another): whatever request it
        was serving is cut off with no answer."""
        pids = self.worker_pids()
        if not pids:
            return None
        victim = random.choice(pids)
        with contextlib.suppress(ProcessLookupError):
            os.kill(victim, signal.SIGKILL)
        return victim

    def log(self) -> str:
        return self.log_path.read_text()[-4000:]

    def stop(self) -> None:
        if self.process.poll() is not None:
            return
        try:
            os.killpg(self.process.pid, signal.SIGTERM)
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=15)
        except ProcessLookupError:
            pass


def terminate_backends(admin_url: str, application_name: str) -> int:
    """Drop the server's connections to the database: only the backends with
    this application name in this database, nobody else's."""
    import psycopg

    parts = urllib.parse.urlparse(admin_url)
    database = parts.path.lstrip("/")
    with psycopg.connect(parts._replace(query="").geturl(), autocommit=True) as conn:
        rows = conn.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE application_name = %s AND datname = %s AND pid <> pg_backend_pid()",
            [application_name, database],
        ).fetchall()
    return sum(1 for (done,) in rows if done)


# --- the devices -------------------------------------------------------------------------


@dataclass(eq=False)
class Device(threading.Thread):
    """Appends ``batches`` two-event batches to its own stream, one after the
    other, retrying the same request on a 503 or a lost connection."""

    port: int
    token: str
    writer: int
    batches: int
    deadline: float
    keyless: bool = False
    pause: float = 0.0
    #: Set: no new batch is begun (the one under way is finished).
    stop: threading.Event = field(default_factory=threading.Event)
    stream: str = ""
    #: (monotonic time, batch, status or the connection error's name)
    attempts: list[tuple[float, int, Any]] = field(default_factory=list)
    acknowledged: dict[int, dict[str, Any]] = field(default_factory=dict)
    refused: dict[int, tuple[int, str]] = field(default_factory=dict)
    unfinished: int | None = None

    def __post_init__(self) -> None:
        threading.Thread.__init__(self, name=f"device-{self.writer}", daemon=True)
        self.stream = self.stream or f"{STREAM_KIND}:device-{self.writer}-{uuid.uuid4().hex[:8]}"

    def body(self, batch: int) -> bytes:
        events = [{"type": EVENT_TYPE, "payload": {"writer": self.writer, "seq": 2 * batch + i}}
                  for i in range(2)]  # fmt: skip
        return json.dumps({"expected_version": 2 * batch, "events": events}).encode()

    def run(self) -> None:
        client: http.client.HTTPConnection | None = None
        for batch in range(self.batches):
            if self.stop.is_set():
                break
            headers = {"Authorization": f"Token {self.token}", "X-Device": f"drill-{self.writer}",
                       "Content-Type": "application/json"}  # fmt: skip
            if not self.keyless:
                headers["Idempotency-Key"] = f"{self.stream}/{batch}"
            while True:
                if time.monotonic() > self.deadline:
                    self.unfinished = batch
                    return
                wait = 0.2
                try:
                    if client is None:
                        client = http.client.HTTPConnection("127.0.0.1", self.port, timeout=15)
                    client.request("POST", f"/api/v1/streams/{self.stream}/events",
                                   body=self.body(batch), headers=headers)  # fmt: skip
                    response = client.getresponse()
                    text = response.read().decode()
                    status: Any = response.status
                    if response.getheader("Connection", "").lower() == "close":
                        client.close()
                        client = None
                except (OSError, http.client.HTTPException) as error:
                    status = type(error).__name__
                    if client is not None:
                        client.close()
                    client = None
                    text = ""
                self.attempts.append((time.monotonic(), batch, status))
                if status in (200, 201):
                    self.acknowledged[batch] = json.loads(text)
                    break
                if status in REFUSALS:
                    self.refused[batch] = (status, text[:500])
                    self.unfinished = batch  # the next batch's version would be wrong
                    return
                if status == 503:
                    wait = float(json.loads(text).get("retry_after", 1))
                time.sleep(min(wait, 2.0))
            if self.pause:
                time.sleep(self.pause)
        if client is not None:
            client.close()


def statuses(devices: list[Device]) -> Counter:
    return Counter(status for d in devices for _, _, status in d.attempts)


def outcome(cursor: Any, devices: list[Device]) -> dict[str, Any]:
    """The ledger against what the devices were told (``cursor``: a DB-API
    cursor on the database the server wrote to)."""
    figures = Counter()
    problems: list[str] = []
    for device in devices:
        cursor.execute(
            "SELECT version, payload FROM ledger_event WHERE stream_id = %s ORDER BY version",
            [device.stream],
        )
        rows = cursor.fetchall()
        seqs = Counter()
        for version, payload in rows:
            payload = json.loads(payload) if isinstance(payload, str) else payload
            seqs[payload["seq"]] += 1
            if payload["seq"] != version - 1:
                problems.append(f"{device.stream} v{version} holds seq {payload['seq']}")
        attempted = {batch for _, batch, _ in device.attempts}
        for batch in sorted(attempted):
            stored = [seqs[2 * batch + i] for i in range(2)]
            acknowledged = batch in device.acknowledged
            figures["acknowledged"] += acknowledged
            if acknowledged and stored == [0, 0]:
                figures["lost"] += 1
            if any(n > 1 for n in stored):
                figures["duplicated"] += 1
            if sorted(set(stored)) == [0, 1]:
                figures["half-written"] += 1
            if batch in device.refused and any(stored):
                figures["stored but refused"] += 1
            if batch in device.refused:
                figures["refused"] += 1
        figures["stored events"] += len(rows)
    for name in ("acknowledged", "lost", "duplicated", "half-written", "stored but refused",
                 "refused"):  # fmt: skip
        figures.setdefault(name, 0)
    return {"figures": dict(figures), "problems": problems}


def make_device_token(username: str = "fault-device") -> str:
    from django.contrib.auth.models import Group, User

    from casino.roles import Role
    from operations import tokens

    user, _ = User.objects.get_or_create(username=username)
    user.groups.add(Group.objects.get(name=Role.SYSTEM.value))
    return tokens.issue(user, device=username, by="bench")[1]


# --- the bench ---------------------------------------------------------------------------


def _setup_django(url: str) -> None:
    os.environ["DATABASE_URL"] = url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")
    os.environ.setdefault("SECRET_KEY", "pitboss-faults-" + secrets.token_hex(16))
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0, interactive=False)
    register_fault_types()


def _recreate(base_url: str, name: str) -> str:
    import psycopg
    from psycopg import sql

    parts = urllib.parse.urlparse(base_url)
    with psycopg.connect(parts._replace(path="/postgres").geturl(), autocommit=True) as conn:
        database = sql.Identifier(name)
        conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(database))
        conn.execute(sql.SQL("CREATE DATABASE {}").format(database))
    return parts._replace(path=f"/{name}").geturl()


def _wait_for_database(url: str, seconds: float = 60) -> None:
    import psycopg

    deadline = time.monotonic() + seconds
    while True:
        try:
            with psycopg.connect(url, connect_timeout=2) as conn:
                conn.execute("SELECT 1")
            return
        except psycopg.OperationalError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)


def bench_restarts(url: str, options: argparse.Namespace, workdir: Path) -> bool:
    from django.db import connection

    from audit.verify import verify

    token = make_device_token()
    app_name = f"pitboss-faults-{os.getpid()}"
    server = Server(with_application_name(url, app_name), workdir / "gunicorn.log")
    devices: list[Device] = []
    restarts: list[tuple[float, float]] = []  # (command started, command finished)
    try:
        began = time.monotonic()
        deadline = began + options.seconds + 120
        stop = threading.Event()
        devices = [Device(server.port, token, writer, 10**6, deadline, keyless=(writer == 4),
                          pause=options.pause, stop=stop)
                   for writer in range(1, 5)]  # fmt: skip
        for device in devices:
            device.start()
        spacing = options.seconds / (options.restarts + 1)
        for number in range(options.restarts):
            time.sleep(spacing)
            started = time.monotonic()
            done = subprocess.run(options.restart_command, shell=True, capture_output=True,
                                  text=True)  # fmt: skip
            if done.returncode != 0:
                print(f"restart {number + 1} failed: {done.stderr.strip()}", file=sys.stderr)
            restarts.append((started, time.monotonic()))
            print(f"  restart {number + 1}: {time.monotonic() - started:.1f} s "
                  f"(at {started - began:.1f} s)", flush=True)  # fmt: skip
        time.sleep(spacing)
        stop.set()
        for device in devices:
            device.join(max(1.0, deadline - time.monotonic()))
    finally:
        server.stop()
    connection.close()
    _wait_for_database(url)
    with connection.cursor() as cursor:
        result = outcome(cursor, devices)
    report = verify()
    seen = statuses(devices)
    successes = sorted(t for d in devices for t, _, s in d.attempts if s in (200, 201))
    failures = sorted(t for d in devices for t, _, s in d.attempts if s not in (200, 201))
    # Per restart: from the first failed attempt after the command began to
    # the next append that succeeded (the outage as the devices saw it), and
    # from the command's return to that append.
    outages, after_return = [], []
    for started, finished in restarts:
        failed = [t for t in failures if t >= started]
        if not failed:
            outages.append(0.0)
            after_return.append(0.0)
            continue
        later = [t for t in successes if t > failed[0]]
        outages.append(later[0] - failed[0] if later else float("nan"))
        after_return.append(max(0.0, later[0] - finished) if later else float("nan"))
    figures = result["figures"]
    unfinished = [d.writer for d in devices if d.unfinished is not None]
    print(f"\nappends under {options.restarts} database restarts "
          "(4 devices appending batches of 2 events, one without Idempotency-Key):")
    for name in ("acknowledged", "lost", "duplicated", "half-written", "stored but refused",
                 "refused"):  # fmt: skip
        print(f"  {name:<22} {figures[name]}")
    print(f"  status codes seen      {dict(sorted(seen.items(), key=str))}")
    print("  appends succeed again  "
          + ", ".join(f"{seconds:.1f} s" for seconds in outages)
          + " after the first failed attempt of each restart; "
          + ", ".join(f"{seconds:.1f} s" for seconds in after_return)
          + " after the restart command returned")  # fmt: skip
    print(f"  hash chains            {'intact' if report.ok else report.breaks[:3]} "
          f"({report.events} events, {report.streams} streams)")
    if unfinished:
        print(f"  devices that did not finish: {unfinished}")
    for problem in result["problems"][:10]:
        print(f"  PROBLEM {problem}")
    bad = (figures["lost"] or figures["duplicated"] or figures["half-written"]
           or figures["stored but refused"] or not report.ok or unfinished
           or result["problems"])  # fmt: skip
    return not bad


def bench_killed_close(url: str, options: argparse.Namespace, workdir: Path) -> bool:
    import redis
    from celery import Celery

    from audit.ledger import read_stream
    from casino.models import Casino, Jurisdiction
    from operations.close import STAGES, close_stream_id
    from tables.models import DealingMethod, Game, Table
    from tables.simulation import TablePlan, simulate_table_days

    day = datetime.date.today() - datetime.timedelta(days=2)
    plans = [TablePlan(f"T{n}", "PA-674a-2019") for n in range(1, 5)]
    jurisdiction, _ = Jurisdiction.objects.get_or_create(code="PA", name="Pennsylvania")
    if not Casino.objects.exists():
        Casino.objects.create(name="Faults casino", jurisdiction=jurisdiction)
    for plan in plans:
        Table.objects.get_or_create(table_id=plan.table_id, defaults=dict(
            ruleset_id=plan.ruleset_id, game=Game.CRISS_CROSS_POKER,
            dealing_method=DealingMethod.HAND, min_wager_cents=500, max_wager_cents=50000))
    print(f"\nsimulating {len(plans)} tables x {options.rounds} rounds on {day}…", flush=True)
    _simulate_in_day(plans, day, options.rounds, simulate_table_days)

    base = urllib.parse.urlparse(os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0"))
    broker = base._replace(path=f"/{options.redis_db}").geturl()
    redis.Redis.from_url(broker).flushdb()
    env = {**os.environ, "DATABASE_URL": url, "CELERY_BROKER_URL": broker,
           "CELERY_RESULT_BACKEND": broker, "DJANGO_DEBUG": "0",
           "LEDGER_SIGNING_KEY": _signing_key(), "EXPORT_ROOT": str(workdir / "exports")}
    if options.visibility_timeout:
        env["CELERY_VISIBILITY_TIMEOUT"] = str(options.visibility_timeout)
    client = Celery("faults-bench", broker=broker, backend=broker)
    workers: list[subprocess.Popen] = []

    def start_worker() -> subprocess.Popen:
        log = open(workdir / f"worker-{len(workers) + 1}.log", "w")  # noqa: SIM115
        worker = subprocess.Popen(
            [str(Path(sys.executable).with_name("celery")), "-A", "casino", "worker", "--pool",
             "prefork", "--concurrency", "1", "-l", "info", "--without-gossip",
             "--without-mingle", "--hostname", f"faults-bench-{len(workers)}-{os.getpid()}@%h"],
            cwd=PROJECT_ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
            start_new_session=True)  # fmt: skip
        workers.append(worker)
        return worker

    try:
        first = start_worker()
        sent = client.send_task("casino.close_gaming_day", args=[day.isoformat(), "finance"])
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline:
            meta = client.backend.get_task_meta(sent.id)
            if meta["status"] == "PROGRESS" and meta["result"]["stage"] != "started":
                break
            time.sleep(0.05)
        os.killpg(first.pid, signal.SIGKILL)
        first.wait()
        killed = time.monotonic()
        at_kill = meta["result"]
        print(f"  worker killed mid-close at {at_kill}", flush=True)
        start_worker()
        redelivered = None
        while time.monotonic() < killed + options.visibility_wait:
            meta = client.backend.get_task_meta(sent.id)
            log = (workdir / f"worker-{len(workers)}.log").read_text()
            if redelivered is None and sent.id in log:
                redelivered = time.monotonic() - killed
            if meta["status"] == "SUCCESS":
                break
            time.sleep(0.2)
        completed = time.monotonic() - killed if meta["status"] == "SUCCESS" else None
    finally:
        for worker in workers:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(worker.pid, signal.SIGTERM)
            with contextlib.suppress(subprocess.TimeoutExpired):
                worker.wait(timeout=15)
            with contextlib.suppress(ProcessLookupError):
                os.killpg(worker.pid, signal.SIGKILL)
        redis.Redis.from_url(broker).flushdb()
    stages = [e.event_type for e in read_stream(close_stream_id(day))]
    from django.conf import settings

    timeout = options.visibility_timeout or settings.CELERY_VISIBILITY_TIMEOUT
    print(f"killed close (visibility timeout {timeout} s):")
    print(f"  delivered again after  {_seconds(redelivered)}")
    print(f"  completed after        {_seconds(completed)} ({meta['status']}: {meta['result']})")
    print(f"  close stages recorded  {len(stages)} of {len(STAGES)}, each once: "
          f"{stages == list(STAGES)}")
    return completed is not None and stages == list(STAGES)


def _seconds(value: float | None) -> str:
    return "never" if value is None else f"{value:.1f} s"


def _signing_key() -> str:
    import base64

    return base64.b64encode(secrets.token_bytes(32)).decode()


def _simulate_in_day(plans: list[Any], day: datetime.date, rounds: int, simulate: Any) -> None:
    """Record the day's play inside its gaming day (``audit.clock.recording_at``,
    as the bench's loads and the demo do); the clock is real again after it."""
    from audit import clock
    from casino.models import Casino

    start, _ = Casino.current().gaming_day_bounds(day)
    with clock.recording_at(start + datetime.timedelta(hours=2)):
        simulate(plans, day, rounds_per_table=rounds, seed=22, crew=_crew(),
                 dealer_error_percent=0, irregularity_percent=0, rounds_per_commit=200)
    from audit.projections import run_all

    run_all()


def _crew() -> Any:
    """The close tests' crew, one user per role (as their fixture makes them)."""
    from django.contrib.auth.models import Group, User

    from casino.roles import Role
    from tests.operations.test_close import CREW

    for role in Role:
        user, _ = User.objects.get_or_create(username=role.value.replace(" ", "_"))
        user.groups.add(Group.objects.get(name=role.value))
    return CREW


@contextlib.contextmanager
def _workdir() -> Iterator[Path]:
    import tempfile

    with tempfile.TemporaryDirectory(prefix="pitboss-faults-") as path:
        yield Path(path)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.faults", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--restart-command", required=True,
                        help="restarts the server of DATABASE_URL (yours alone)")
    parser.add_argument("--restarts", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=30,
                        help="the restarts are spread over this long")
    parser.add_argument("--pause", type=float, default=0.02, help="between a device's batches")
    parser.add_argument("--rounds", type=int, default=300, help="per table, for the close")
    parser.add_argument("--redis-db", type=int, default=15)
    parser.add_argument("--visibility-timeout", type=int, default=0,
                        help="seconds; 0 keeps the setting's default")
    parser.add_argument("--visibility-wait", type=float, default=300)
    parser.add_argument("--skip-close", action="store_true")
    options = parser.parse_args(argv)
    base_url = os.environ.get("DATABASE_URL")
    if not base_url:
        parser.error("set DATABASE_URL to a PostgreSQL server of your own")
    url = _recreate(base_url, "pitboss_bench_faults")
    _setup_django(url)
    with _workdir() as workdir:
        ok = bench_restarts(url, options, workdir)
        if not options.skip_close:
            ok = bench_killed_close(url, options, workdir) and ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
