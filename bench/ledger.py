"""Ledger benchmark: appends, reads and the HTTP API, on a database of its own.

``python -m bench.ledger`` (or ``python -m bench``, or ``make bench``) creates
the database ``pitboss_bench`` on the server of ``DATABASE_URL`` (dropping a
leftover one first), migrates it, runs every phase on it and drops it at the
end (``--keep`` keeps it). Dev and test databases are never touched.

Phases, all on the same database in one run:

1. single writers, 40 events per transaction, run interleaved in rounds (the
   server's fsync latency drifts; interleaving keeps the ratios fair):
   the server's durable commits/s (tiny INSERT + COMMIT: with one commit per
   batch, the WAL flush is the floor of every append figure); raw COPY of
   equivalent rows into a plain table with ledger_event's columns (no index,
   no trigger: the anchor, same rows and same number of commits);
   ``audit.ledger.append`` of 40 realistic round events (validated, hashed,
   idempotency key); the ``eventsourcing`` library's PostgreSQL application
   recorder with the same events, 40 per aggregate. Then one big COPY (the
   physical ceiling) and a few appends with the projections run inline after
   each commit (what the embedded default, eager Celery, does);
2. ``audit.ledger.append`` from 4 writer threads;
3. ``audit.ledger.iter_all()`` over everything vs a raw psycopg read of the
   same columns in the same order (default loaders: jsonb → dict) vs
   eventsourcing's ``select_notifications`` + decode, best of 3, interleaved;
4. the HTTP API under gunicorn: sequential POSTs of 40 events, p50/p95/p99.

Appends run with ``LEDGER_PROJECT_ON_APPEND=0`` (also in the gunicorn
workers) unless the environment says otherwise: the figures are the ledger's;
the inline-projection line prices the read models separately.

The gunicorn workers learn the bench's event type through this module used as
gunicorn's config (``-c python:bench.ledger``: the ``post_worker_init`` hook
below). That is also why the module imports nothing from the project at import
time: gunicorn's master imports it before Django is set up.
"""

from __future__ import annotations

import argparse
import contextlib
import cProfile
import http.client
import json
import os
import pstats
import random
import secrets
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

BENCH_DATABASE = "pitboss_bench"
DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/pitboss"
BATCH = 40
STREAM_KIND = "bench"
EVENT_TYPE = "bench.round_event"
ES_SCHEMA = "eventsourcing"
PROJECT_ROOT = Path(__file__).resolve().parent.parent
COLUMNS = ("position", "stream_id", "version", "event_type", "schema_version", "payload",
           "metadata", "occurred_at", "recorded_at", "prev_hash", "hash")

# Targets of the ledger (see bench/README.md).
TARGET_APPEND_EPS = 25_000
TARGET_READ_RATIO = 0.8
TARGET_READ_EPS = 100_000
TARGET_VS_EVENTSOURCING = 2.5
TARGET_P99_MS = 25.0

WAGERS = ("ANTE_ACROSS", "ANTE_DOWN", "BONUS", "PAIR_PLUS", "PLAY")
RANKS = "23456789TJQKA"
SUITS = "cdhs"


# --- the bench's event type (also registered in the gunicorn workers) --------


def register_bench_types() -> None:
    """Register the bench event type and stream kind (idempotent)."""
    from audit.registry import (
        CENTS,
        EventType,
        StreamKind,
        object_schema,
        register_event_type,
        register_stream_kind,
    )

    register_event_type(EventType(
        name=EVENT_TYPE,
        version=1,
        description="A benchmark round event: a seat's card and wager.",
        schema=object_schema({
            "seat": {"type": "integer", "minimum": 1, "maximum": 7},
            "card": {"type": "string", "pattern": "^[2-9TJQKA][cdhs]$"},
            "amount": CENTS,
            "wager": {"enum": list(WAGERS)},
        }),
    ))
    register_stream_kind(StreamKind(name=STREAM_KIND, description="Ledger benchmark",
                                    accepts=frozenset({"bench.*"})))


def post_worker_init(worker: Any) -> None:
    """gunicorn hook (``-c python:bench.ledger``): each worker learns the bench type."""
    register_bench_types()


# --- events ------------------------------------------------------------------


def round_payloads(rng: random.Random, count: int = BATCH) -> list[dict[str, Any]]:
    """``count`` realistic round events: wagers and dealt cards around a table."""
    deck = [rank + suit for rank in RANKS for suit in SUITS]
    rng.shuffle(deck)
    return [
        {"seat": 1 + index % 7, "card": deck[index % 52],
         "amount": rng.choice((500, 1000, 2500, 5000, 10000)), "wager": rng.choice(WAGERS)}
        for index in range(count)
    ]


def make_batches(count: int, seed: int) -> list[list[dict[str, Any]]]:
    rng = random.Random(seed)
    return [round_payloads(rng) for _ in range(count)]


# --- database plumbing -----------------------------------------------------------


def bench_url(base_url: str, name: str) -> str:
    parts = urlsplit(base_url)
    return urlunsplit((parts.scheme, parts.netloc, "/" + name, parts.query, parts.fragment))


def conninfo(url: str) -> dict[str, Any]:
    parts = urlsplit(url)
    return {"host": parts.hostname or "127.0.0.1", "port": parts.port or 5432,
            "user": parts.username or "postgres", "password": parts.password or "",
            "dbname": parts.path.lstrip("/")}


def recreate_database(base_url: str, name: str, *, drop_only: bool = False) -> None:
    import psycopg
    from psycopg import sql

    with psycopg.connect(**{**conninfo(base_url), "dbname": "postgres"}, autocommit=True) as conn:
        database = sql.Identifier(name)
        conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(database))
        if not drop_only:
            conn.execute(sql.SQL("CREATE DATABASE {}").format(database))


def setup_django(url: str) -> None:
    """Point Django at the bench database, migrate it, register the bench type."""
    os.environ["DATABASE_URL"] = url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")
    os.environ.setdefault("SECRET_KEY", "pitboss-bench-" + secrets.token_hex(16))
    # The append itself is measured: read models are brought up to date by a
    # Celery task after each commit, which without a broker runs inline (the
    # embedded default). bench_inline_projections() prices that separately.
    os.environ.setdefault("LEDGER_PROJECT_ON_APPEND", "0")
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0, interactive=False)
    register_bench_types()


def progress(iterable: Any, description: str, total: int | None = None) -> Any:
    try:
        from tqdm import tqdm
    except ImportError:
        print(f"  {description}…", flush=True)
        return iterable
    return tqdm(iterable, desc=f"  {description}", total=total, leave=False, mininterval=0.5,
                disable=not sys.stderr.isatty())


def print_line(label: str, events: int, seconds: float, extra: str = "") -> float:
    rate = events / seconds
    print(f"  {label:<44} {events:>8,} ev in {seconds:7.2f} s = {rate:>10,.0f} ev/s {extra}",
          flush=True)
    return rate


# --- contenders for the single-writer append ----------------------------------------
#
# The machine's fsync latency drifts (other databases on the same server write
# WAL too), so the single-writer contenders run interleaved: each round times a
# slice of every contender in turn, and each figure is its total over all
# rounds. Ratios then compare like with like.


class CommitProbe:
    """The server's durable commits/s: tiny INSERT + COMMIT on a plain table."""

    label = "durable commits (INSERT+COMMIT loop)"

    def __init__(self, info: dict[str, Any]) -> None:
        import psycopg

        self.conn = psycopg.connect(**info, autocommit=True)
        self.conn.execute("CREATE TABLE bench_commit (id bigserial PRIMARY KEY, v integer)")
        self.count, self.seconds = 0, 0.0

    def run(self, seconds: float) -> None:
        execute = self.conn.execute
        started = time.perf_counter()
        while time.perf_counter() - started < seconds:
            execute("INSERT INTO bench_commit (v) VALUES (1)")  # autocommit: one commit each
            self.count += 1
        self.seconds += time.perf_counter() - started

    def close(self) -> None:
        self.conn.execute("DROP TABLE bench_commit")
        self.conn.close()


def raw_rows(prefix: str, batches: list[list[dict[str, Any]]], first_position: int
             ) -> list[list[tuple[Any, ...]]]:
    """Rows as ledger_event would hold them (hash chain included), per batch."""
    from audit.hashing import GENESIS_HASH, event_hash

    rows: list[list[tuple[Any, ...]]] = []
    position = first_position - 1
    now = datetime.now(UTC)
    metadata = {"actor": "bench", "source": "job", "idempotency_key": ""}
    for number, payloads in enumerate(batches):
        stream_id = f"{STREAM_KIND}:{prefix}-{number:06d}"
        metadata["idempotency_key"] = f"{prefix}-{number:06d}"
        prev_hash = GENESIS_HASH
        batch_rows = []
        for version, payload in enumerate(payloads, start=1):
            position += 1
            digest = event_hash(stream_id=stream_id, version=version, event_type=EVENT_TYPE,
                                schema_version=1, payload=payload, metadata=metadata,
                                occurred_at=now, recorded_at=now, prev_hash=prev_hash)
            batch_rows.append((position, stream_id, version, EVENT_TYPE, 1, json.dumps(payload),
                               json.dumps(metadata), now, now, prev_hash, digest))
            prev_hash = digest
        rows.append(batch_rows)
    return rows


class RawCopy:
    """COPY into a plain table with ledger_event's columns (no index, no trigger)."""

    label = "raw COPY, 40 rows per transaction (anchor)"
    sql = f"COPY bench_raw_event ({', '.join(COLUMNS)}) FROM STDIN"

    def __init__(self, info: dict[str, Any]) -> None:
        import psycopg

        self.conn = psycopg.connect(**info)
        self.conn.execute("CREATE TABLE bench_raw_event (LIKE ledger_event)")
        self.conn.commit()
        self.events, self.seconds, self.position = 0, 0.0, 1

    def run(self, prefix: str, batches: list[list[dict[str, Any]]]) -> None:
        rows = raw_rows(prefix, batches, self.position)  # prepared outside the timing
        self.position += len(batches) * BATCH
        conn, sql = self.conn, self.sql
        started = time.perf_counter()
        for batch in rows:
            with conn.cursor() as cursor, cursor.copy(sql) as copy:
                for row in batch:
                    copy.write_row(row)
            conn.commit()
        self.seconds += time.perf_counter() - started
        self.events += len(rows) * BATCH

    def one_transaction(self, batches: list[list[dict[str, Any]]]) -> float:
        rows = raw_rows("copy-big", batches, self.position)
        self.conn.execute("TRUNCATE bench_raw_event")
        self.conn.commit()
        started = time.perf_counter()
        with self.conn.cursor() as cursor, cursor.copy(self.sql) as copy:
            for batch in rows:
                for row in batch:
                    copy.write_row(row)
        self.conn.commit()
        return print_line("raw COPY, one big transaction (ceiling)", len(rows) * BATCH,
                          time.perf_counter() - started)

    def close(self) -> None:
        self.conn.execute("DROP TABLE bench_raw_event")
        self.conn.commit()
        self.conn.close()


def _append_batches(prefix: str, batches: list[list[dict[str, Any]]]) -> None:
    from audit.ledger import Actor, NewEvent, append

    actor = Actor.system("bench")
    prepared = [[NewEvent(EVENT_TYPE, payload) for payload in payloads] for payloads in batches]
    for number, events in enumerate(prepared):
        append(f"{STREAM_KIND}:{prefix}-{number:06d}", events, expected_version=0, actor=actor,
               idempotency_key=f"{prefix}-{number:06d}")


class OurAppend:
    label = "ledger append, 1 writer"

    def __init__(self) -> None:
        self.events, self.seconds = 0, 0.0
        _append_batches("warmup", make_batches(20, 0))

    def run(self, prefix: str, batches: list[list[dict[str, Any]]]) -> None:
        started = time.perf_counter()
        _append_batches(prefix, batches)
        self.seconds += time.perf_counter() - started
        self.events += len(batches) * BATCH


class Eventsourcing:
    """The eventsourcing library's PostgreSQL application recorder, its own schema."""

    label = "eventsourcing insert_events, 1 writer"

    def __init__(self, info: dict[str, Any]) -> None:
        import psycopg
        from eventsourcing.persistence import DatetimeAsISO, JSONTranscoder, StoredEvent
        from eventsourcing.postgres import PostgresApplicationRecorder, PostgresDatastore

        with psycopg.connect(**info, autocommit=True) as conn:
            conn.execute(f"CREATE SCHEMA IF NOT EXISTS {ES_SCHEMA}")
        self.datastore = PostgresDatastore(
            dbname=info["dbname"], host=info["host"], port=info["port"], user=info["user"],
            password=info["password"], schema=ES_SCHEMA, originator_id_type="text",
        )
        self.recorder = PostgresApplicationRecorder(self.datastore)
        self.recorder.create_table()
        # The library's own transcoder, as its Mapper would use it.
        self.transcoder = JSONTranscoder()
        self.transcoder.register(DatetimeAsISO())
        self.stored_event = StoredEvent
        self.events, self.seconds = 0, 0.0
        self._insert("es-warmup", make_batches(20, 0))

    def _insert(self, prefix: str, batches: list[list[dict[str, Any]]]) -> None:
        encode, insert, stored_event = (self.transcoder.encode, self.recorder.insert_events,
                                        self.stored_event)
        metadata = {"actor": "bench", "source": "job"}
        for number, payloads in enumerate(batches):
            originator = f"{STREAM_KIND}:{prefix}-{number:06d}"
            occurred_at = datetime.now(UTC)
            insert([
                stored_event(originator_id=originator, originator_version=version,
                             topic=EVENT_TYPE,
                             state=encode({"payload": payload, "timestamp": occurred_at,
                                           "metadata": metadata}))
                for version, payload in enumerate(payloads, start=1)
            ])

    def run(self, prefix: str, batches: list[list[dict[str, Any]]]) -> None:
        started = time.perf_counter()
        self._insert(prefix, batches)
        self.seconds += time.perf_counter() - started
        self.events += len(batches) * BATCH

    def read(self) -> int:
        decode, select = self.transcoder.decode, self.recorder.select_notifications
        count, start = 0, 1
        while True:
            page = select(start, 5000)
            for notification in page:
                decode(notification.state)
            count += len(page)
            if len(page) < 5000:
                return count
            start = page[-1].id + 1

    def close(self) -> None:
        self.datastore.close()


@dataclass
class AppendFigures:
    commits: float
    copy_batched: float
    copy_big: float
    ours: float
    eventsourcing: Eventsourcing | None


def bench_single_writers(info: dict[str, Any], batches: list[list[dict[str, Any]]],
                         rounds: int, with_eventsourcing: bool) -> AppendFigures:
    probe, copy, ours = CommitProbe(info), RawCopy(info), OurAppend()
    es: Eventsourcing | None = None
    if with_eventsourcing:
        try:
            es = Eventsourcing(info)
        except ImportError as error:
            print(f"  eventsourcing not installed ({error}); install the bench extra. Skipped.")
    slices = [batches[index::rounds] for index in range(rounds)]
    try:
        for number, chunk in enumerate(progress(slices, f"{rounds} interleaved rounds")):
            probe.run(0.5)
            copy.run(f"copy{number}", chunk)
            ours.run(f"w1r{number}", chunk)
            if es is not None:
                es.run(f"es{number}", chunk)
        commits = probe.count / probe.seconds
        print(f"  {probe.label:<44} {probe.count:>8,} in {probe.seconds:7.2f} s = "
              f"{commits:>10,.0f} commits/s  → {BATCH}-event batches: "
              f"{commits * BATCH:,.0f} ev/s floor")
        copy_batched = print_line(copy.label, copy.events, copy.seconds)
        our_rate = print_line(ours.label, ours.events, ours.seconds)
        if es is not None:
            print_line(es.label, es.events, es.seconds)
        copy_big = copy.one_transaction(batches)
    finally:
        probe.close()
        copy.close()
    return AppendFigures(commits, copy_batched, copy_big, our_rate, es)


def bench_inline_projections(batches: list[list[dict[str, Any]]]) -> float | None:
    """The append with the read models brought up to date inline after each
    commit (eager Celery: the embedded default with no broker)."""
    from django.conf import settings

    if not hasattr(settings, "LEDGER_PROJECT_ON_APPEND"):
        return None
    saved = settings.LEDGER_PROJECT_ON_APPEND
    settings.LEDGER_PROJECT_ON_APPEND = True
    try:
        started = time.perf_counter()
        _append_batches("inline", batches)
        elapsed = time.perf_counter() - started
    finally:
        settings.LEDGER_PROJECT_ON_APPEND = saved
    return print_line("ledger append + projections inline (eager)", len(batches) * BATCH,
                      elapsed, f"{1000 * elapsed / len(batches):.1f} ms per batch")


def bench_append_threads(batches: list[list[dict[str, Any]]], writers: int) -> float:
    from django.db import connection

    shares = [batches[index::writers] for index in range(writers)]
    barrier = threading.Barrier(writers + 1)
    failures: list[BaseException] = []

    def writer(index: int) -> None:
        try:
            _append_batches(f"w{writers}x-{index}", shares[index][:5])  # connect, warm up
            barrier.wait()
            _append_batches(f"w{writers}-{index}", shares[index])
        except BaseException as error:  # reported below, never swallowed
            failures.append(error)
            with contextlib.suppress(threading.BrokenBarrierError):
                barrier.abort()
        finally:
            connection.close()

    threads = [threading.Thread(target=writer, args=(index,)) for index in range(writers)]
    for thread in threads:
        thread.start()
    barrier.wait()
    started = time.perf_counter()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - started
    if failures:
        raise failures[0]
    return print_line(f"ledger append, {writers} writer threads", len(batches) * BATCH, elapsed)


# --- reads ---------------------------------------------------------------------------


def read_ours() -> int:
    from audit.ledger import iter_all

    count = 0
    for _event in iter_all():
        count += 1
    return count


def raw_reader(info: dict[str, Any]) -> tuple[Callable[[], int], Callable[[], None]]:
    import psycopg

    conn = psycopg.connect(**info, autocommit=True)
    query = f"SELECT {', '.join(COLUMNS)} FROM ledger_event ORDER BY position"  # noqa: S608

    def read() -> int:
        with conn.cursor() as cursor:
            cursor.execute(query)
            rows = cursor.fetchall()
        assert not rows or isinstance(rows[0][5], dict), "jsonb should load as dict"
        return len(rows)

    return read, conn.close


@dataclass
class ReadFigures:
    ours: float
    raw: float
    events: int
    eventsourcing: float | None
    eventsourcing_events: int


def bench_reads(info: dict[str, Any], runs: int, es: Eventsourcing | None) -> ReadFigures:
    """Best of ``runs`` for each reader, the readers interleaved run by run."""
    read_raw, close = raw_reader(info)
    readers: dict[str, Callable[[], int]] = {"raw": read_raw, "ours": read_ours}
    if es is not None:
        readers["es"] = es.read
    best = dict.fromkeys(readers, float("inf"))
    counts = dict.fromkeys(readers, 0)
    try:
        for _ in progress(range(runs), f"reads, best of {runs}"):
            for name, read in readers.items():
                started = time.perf_counter()
                counts[name] = read()
                best[name] = min(best[name], time.perf_counter() - started)
    finally:
        close()
    if counts["ours"] != counts["raw"]:
        raise RuntimeError(f"iter_all() read {counts['ours']} events, the table holds "
                           f"{counts['raw']}")
    raw = print_line(f"raw psycopg SELECT + fetchall (best of {runs})", counts["raw"], best["raw"])
    ours = print_line(f"ledger iter_all() (best of {runs})", counts["ours"], best["ours"])
    es_rate = None
    if es is not None:
        es_rate = print_line(f"eventsourcing select_notifications + decode (best of {runs})",
                             counts["es"], best["es"])
    return ReadFigures(ours, raw, counts["ours"], es_rate, counts.get("es", 0))


# --- HTTP API --------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def api_token() -> str:
    from django.contrib.auth.models import Group, User

    from casino.roles import Role
    from operations import tokens

    user, _ = User.objects.get_or_create(username="bench-api")
    user.groups.add(Group.objects.get(name=Role.SYSTEM.value))
    return tokens.issue(user, device="bench-api", by="bench")[1]


@contextlib.contextmanager
def gunicorn_server(url: str, log: Any) -> Iterator[int]:
    port = free_port()
    gunicorn = Path(sys.executable).with_name("gunicorn")
    env = {**os.environ, "DATABASE_URL": url, "ALLOWED_HOSTS": "127.0.0.1",
           "SECRET_KEY": "pitboss-bench-" + secrets.token_hex(16), "DJANGO_DEBUG": "0",
           "SECURE_SSL_REDIRECT": "0",  # plain HTTP on the loopback, on purpose
           # A load generator, not a hostile client: the throttle would measure itself.
           "API_THROTTLE_TOKEN": "1000000/min"}
    process = subprocess.Popen(  # noqa: S603
        [str(gunicorn), "casino.wsgi", "-b", f"127.0.0.1:{port}", "-w", "2",
         "-c", "python:bench.ledger"],
        cwd=PROJECT_ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"gunicorn exited with status {process.returncode}")
            try:
                probe = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
                probe.request("GET", "/api/v1/event-types")
                probe.getresponse().read()
                probe.close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise RuntimeError("gunicorn did not answer within 30 s") from None
                time.sleep(0.2)
        yield port
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def bench_http(url: str, requests: int, seed: int) -> dict[str, float] | None:
    token = api_token()
    bodies = []
    for payloads in make_batches(requests + 20, seed):
        bodies.append(json.dumps({
            "expected_version": 0,
            "events": [{"type": EVENT_TYPE, "payload": payload} for payload in payloads],
        }).encode())
    with tempfile.TemporaryFile("w+") as log:
        try:
            with gunicorn_server(url, log) as port:
                client = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
                latencies: list[float] = []
                items = progress(enumerate(bodies), "HTTP POST", len(bodies))
                for number, body in items:
                    headers = {"Authorization": f"Token {token}",
                               "Content-Type": "application/json",
                               "Idempotency-Key": f"http-{number:06d}"}
                    started = time.perf_counter()
                    client.request("POST", f"/api/v1/streams/{STREAM_KIND}:http-{number:06d}"
                                   "/events", body=body, headers=headers)
                    response = client.getresponse()
                    answer = response.read()
                    elapsed = time.perf_counter() - started
                    if response.status != 201:
                        raise RuntimeError(f"POST answered {response.status}: {answer[:300]!r}")
                    if number >= 20:  # the first 20 warm the workers up
                        latencies.append(elapsed * 1000)
                client.close()
        except Exception:
            log.seek(0)
            tail = log.read()[-3000:]
            print(f"  gunicorn log (tail):\n{tail}")
            raise
    figures = {"p50": percentile(latencies, 0.50), "p95": percentile(latencies, 0.95),
               "p99": percentile(latencies, 0.99), "max": max(latencies),
               "mean": statistics.fmean(latencies), "requests": len(latencies)}
    print(f"  {'HTTP POST 40 events (gunicorn -w 2, sync)':<44} {len(latencies):>8,} requests: "
          f"p50 {figures['p50']:.1f} ms, p95 {figures['p95']:.1f} ms, "
          f"p99 {figures['p99']:.1f} ms, max {figures['max']:.1f} ms "
          f"= {1000 / figures['mean'] * BATCH:,.0f} ev/s sequential")
    return figures


# --- profile -------------------------------------------------------------------------


def profile_ours(batches: list[list[dict[str, Any]]], lines: int) -> None:
    """cProfile of our append and our read, for finding where the time goes."""
    for label, action in (
        ("append, 1 writer", lambda: _append_batches("prof", batches)),
        ("iter_all()", read_ours),
    ):
        profiler = cProfile.Profile()
        profiler.enable()
        action()
        profiler.disable()
        print(f"\n  --- cProfile: {label} (sorted by own time) ---")
        stats = pstats.Stats(profiler)
        stats.sort_stats("tottime").print_stats(lines)


# --- summary ---------------------------------------------------------------------------


@dataclass
class Line:
    label: str
    figure: str
    target: str = ""
    passed: bool | None = None
    note: str = ""

    def render(self) -> str:
        verdict = "" if self.passed is None else ("PASS" if self.passed else "SHORT")
        text = f"  {self.label:<30} {self.figure:>16}   {self.target:<16} {verdict:<5}"
        return (text + (f"  ({self.note})" if self.note else "")).rstrip()


def rate_text(value: float) -> str:
    return f"{value:,.0f} ev/s"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.ledger",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--batches", type=int, default=2000,
                        help="40-event batches per append phase (default 2000 = 80,000 events)")
    parser.add_argument("--writers", type=int, default=4, help="concurrent writer threads")
    parser.add_argument("--requests", type=int, default=500, help="HTTP POSTs (after 20 warm-up)")
    parser.add_argument("--rounds", type=int, default=4,
                        help="single-writer contenders run interleaved in this many rounds")
    parser.add_argument("--inline-batches", type=int, default=50,
                        help="batches appended with projections inline (0: skip)")
    parser.add_argument("--read-runs", type=int, default=3, help="reads: best of this many")
    parser.add_argument("--seed", type=int, default=592)
    parser.add_argument("--database", default=BENCH_DATABASE,
                        help=f"the bench's own database (default {BENCH_DATABASE})")
    parser.add_argument("--keep", action="store_true", help="keep the bench database at the end")
    parser.add_argument("--skip-http", action="store_true")
    parser.add_argument("--skip-eventsourcing", action="store_true")
    parser.add_argument("--profile", type=int, default=0, metavar="LINES",
                        help="also cProfile our append and read; print this many lines")
    options = parser.parse_args(argv)

    base_url = os.environ.get("DATABASE_URL") or DEFAULT_URL
    if urlsplit(base_url).path.lstrip("/") == options.database:
        parser.error(f"DATABASE_URL already names {options.database}; point it at another one")
    url = bench_url(base_url, options.database)
    info = conninfo(url)
    print(f"ledger bench on database {options.database!r} at {info['host']}:{info['port']} "
          f"(created for this run); {options.batches:,} batches × {BATCH} events per append phase")
    recreate_database(base_url, options.database)
    try:
        return _run(options, url, info)
    finally:
        from django.db import connections

        connections.close_all()
        if options.keep:
            print(f"kept database {options.database}")
        else:
            recreate_database(base_url, options.database, drop_only=True)


def _run(options: argparse.Namespace, url: str, info: dict[str, Any]) -> int:
    started = time.perf_counter()
    setup_django(url)
    import psycopg

    with psycopg.connect(**info) as conn:
        server = conn.execute("SHOW server_version").fetchone()[0]
        settings = dict(conn.execute(
            "SELECT name, setting FROM pg_settings WHERE name IN "
            "('synchronous_commit', 'fsync', 'wal_sync_method', 'commit_delay')").fetchall())
    print(f"PostgreSQL {server}, " + ", ".join(f"{k}={v}" for k, v in sorted(settings.items()))
          + f"; Python {sys.version.split()[0]}, {os.cpu_count()} CPUs, load average "
          + "/".join(f"{load:.1f}" for load in os.getloadavg())
          + " (other work on the machine lowers every figure)\n")

    batches = make_batches(options.batches, options.seed)
    lines: list[Line] = []

    print(f"1. single writers, {options.rounds} interleaved rounds, 40 events per transaction: "
          "commit probe, raw COPY, ledger append (validated, hashed, idempotency key)"
          + ("" if options.skip_eventsourcing else ", eventsourcing"))
    appends = bench_single_writers(info, batches, options.rounds, not options.skip_eventsourcing)
    commits, copy_batched, copy_big, single = (appends.commits, appends.copy_batched,
                                               appends.copy_big, appends.ours)
    floor = commits * BATCH
    es = appends.eventsourcing

    inline = None
    if options.inline_batches:
        print("   the same append with projections run inline after each commit (no broker)")
        inline = bench_inline_projections(make_batches(options.inline_batches, options.seed + 4))

    print(f"2. ledger append, {options.writers} writer threads")
    concurrent = bench_append_threads(make_batches(options.batches, options.seed + 1),
                                      options.writers)

    print("3. read everything in global order")
    try:
        reads = bench_reads(info, options.read_runs, es)
    finally:
        if es is not None:
            es.close()
    our_read, raw_read, read_events = reads.ours, reads.raw, reads.events

    print("4. HTTP API")
    http_figures = None
    if options.skip_http:
        print("  skipped (--skip-http)")
    else:
        try:
            http_figures = bench_http(url, options.requests, options.seed + 2)
        except Exception as error:  # the other figures stand; say why this one is missing
            print(f"  HTTP phase failed: {error}")

    if options.profile:
        print("\n5. cProfile")
        profile_ours(make_batches(min(options.batches, 500), options.seed + 3), options.profile)

    floor_note = f"fsync floor: {commits:,.0f} commits/s × {BATCH} = {floor:,.0f} ev/s"
    lines.append(Line("durable commits/s", f"{commits:,.0f} /s", note="tiny INSERT+COMMIT loop"))
    lines.append(Line("raw COPY 40/txn (anchor)", rate_text(copy_batched),
                      note=f"append anchor; {floor_note}"))
    lines.append(Line("raw COPY one txn", rate_text(copy_big), note="physical ceiling"))
    lines.append(Line("append (1 writer)", rate_text(single), f"target {TARGET_APPEND_EPS:,}",
                      single >= TARGET_APPEND_EPS,
                      f"{floor_note}; {single / copy_batched:.2f}× raw COPY 40/txn"))
    if inline is not None:
        lines.append(Line("append + inline projections", rate_text(inline),
                          note=f"LEDGER_PROJECT_ON_APPEND with eager Celery; "
                          f"{1000 * BATCH / inline:.1f} ms per batch vs "
                          f"{1000 * BATCH / single:.1f} ms without"))
    lines.append(Line(f"append ({options.writers} writers)", rate_text(concurrent),
                      f"target {TARGET_APPEND_EPS:,}", concurrent >= TARGET_APPEND_EPS,
                      f"{concurrent / single:.2f}× 1 writer; commits can share a WAL flush"))
    lines.append(Line("read iter_all()", rate_text(our_read), f"target {TARGET_READ_EPS:,}",
                      our_read >= TARGET_READ_EPS,
                      f"{read_events:,} events; raw psycopg reads {rate_text(raw_read)} here"))
    lines.append(Line("read ours / raw psycopg", f"{our_read / raw_read:.2f}×",
                      f"target ≥ {TARGET_READ_RATIO}", our_read / raw_read >= TARGET_READ_RATIO,
                      f"raw {rate_text(raw_read)}"))
    if es is not None and reads.eventsourcing is not None:
        es_append = es.events / es.seconds
        lines.append(Line("append ours / eventsourcing", f"{single / es_append:.2f}×",
                          f"target ≥ {TARGET_VS_EVENTSOURCING}",
                          single / es_append >= TARGET_VS_EVENTSOURCING,
                          f"eventsourcing {rate_text(es_append)}; an append as fast as raw "
                          f"COPY 40/txn would make it {copy_batched / es_append:.2f}×"))
        lines.append(Line("read ours / eventsourcing", f"{our_read / reads.eventsourcing:.2f}×",
                          note=f"eventsourcing {rate_text(reads.eventsourcing)}, "
                          f"{reads.eventsourcing_events:,} events"))
    else:
        lines.append(Line("eventsourcing", "skipped"))
    if http_figures is not None:
        lines.append(Line("HTTP POST 40 ev p99", f"{http_figures['p99']:.1f} ms",
                          f"target ≤ {TARGET_P99_MS:g} ms", http_figures["p99"] <= TARGET_P99_MS,
                          f"p50 {http_figures['p50']:.1f} ms, p95 {http_figures['p95']:.1f} ms, "
                          f"{http_figures['requests']} sequential requests; the in-process "
                          f"append alone takes {1000 * BATCH / single:.1f} ms per batch"))
    else:
        lines.append(Line("HTTP POST 40 ev p99", "not measured", f"target ≤ {TARGET_P99_MS:g} ms",
                          note="see phase 6 above"))

    loads = "/".join(f"{load:.1f}" for load in os.getloadavg())
    print(f"\nSummary (ledger bench, {time.perf_counter() - started:.0f} s, "
          f"{os.cpu_count()} CPUs, load average now {loads})")
    for line in lines:
        print(line.render())
    return 0


if __name__ == "__main__":
    sys.exit(main())
