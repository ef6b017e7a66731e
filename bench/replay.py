"""Replay bench: verify a simulated gaming day from PostgreSQL, end to end.

``python -m bench.replay`` (or ``python -m bench --only replay``) creates the
database ``pitboss_bench_replay`` on the server of ``DATABASE_URL`` (dropping a
leftover one first), migrates it and fills two gaming days with
``tables.simulation.simulate_gaming_day`` (3/4 Criss-Cross ``PA-674a-2019``,
1/4 Double Cross ``MA-DCP-UNDATED``; dealer errors 2 %, irregularities 1 %;
500 rounds per ``append_many`` commit): day A with 50 tables and day B with
200 tables. Then, each in a fresh interpreter so peak memory is per run:

1. ``replay_rounds(gaming_day=A)`` and ``(gaming_day=B)``: rounds, events,
   seconds, rates, peak RSS, and the findings against the injected errors;
2. where the time goes: the DB read alone (``iter_round_events``, decoding
   included), and in memory (no DB) on a sample of day A: the reader's row
   decode, the rule events' ``from_payload`` and ``tables.rules.replay.replay``;
3. a 2-process fan-out of day B (the tables split across two workers, each
   calling ``replay_rounds(gaming_day=B, table_id=…)`` per table: the only
   split the existing API offers);
4. optionally (``--profile N``) a cProfile of ``replay_rounds`` on day A.

``--keep`` keeps the database; ``--reuse`` keeps and reuses an already
populated one (same sizes) to skip the load while iterating.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime
import json
import os
import secrets
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from bench.ledger import DEFAULT_URL, Line, bench_url, conninfo, recreate_database

BENCH_DATABASE = "pitboss_bench_replay"
PROJECT_ROOT = Path(__file__).resolve().parent.parent
DAY_A = datetime.date(2026, 3, 2)
DAY_B = datetime.date(2026, 3, 3)
CRISS_CROSS = "PA-674a-2019"
DOUBLE_CROSS = "MA-DCP-UNDATED"
RESULT_PREFIX = "BENCH-REPLAY-RESULT "
PAGE = 10000  # iter_round_events' default page
PAGED_ROUNDS = 250  # rounds per query of the bench's round-paged reader

# Targets of the issue (see bench/README.md).
TARGET_EPS = 100_000
TARGET_RPS = 2_000
TARGET_DAY_SECONDS = 100.0  # 200 tables × 1,000 rounds
FULL_DAY_ROUNDS = 200 * 1000
DEFAULT_LOAD_BUDGET = 240.0
PROBE_ROUNDS = 5


# --- setup -------------------------------------------------------------------


def setup_django(url: str, *, migrate: bool) -> None:
    os.environ["DATABASE_URL"] = url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")
    os.environ.setdefault("SECRET_KEY", "pitboss-bench-" + secrets.token_hex(16))
    os.environ["LEDGER_PROJECT_ON_APPEND"] = "0"
    import django

    django.setup()
    if migrate:
        from django.core.management import call_command

        call_command("migrate", verbosity=0, interactive=False)


def table_plans(count: int) -> list[Any]:
    """``count`` tables: 3 in 4 Criss-Cross, the rest Double Cross."""
    from tables.simulation import TablePlan

    double = count // 4
    return ([TablePlan(f"CC-{n:03d}", CRISS_CROSS) for n in range(1, count - double + 1)]
            + [TablePlan(f"DX-{n:03d}", DOUBLE_CROSS) for n in range(1, double + 1)])


@dataclass
class Day:
    label: str
    gaming_day: datetime.date
    tables: int
    rounds_per_table: int
    rounds: int = 0
    events: int = 0
    injected: dict[str, int] = field(default_factory=dict)  # expected finding kind → count
    load_seconds: float = 0.0

    @property
    def injected_total(self) -> int:
        return sum(self.injected.values())


def _bookkeeping(cursor: Any) -> None:
    cursor.execute("CREATE TABLE IF NOT EXISTS bench_replay_day (gaming_day date PRIMARY KEY, "
                   "body jsonb NOT NULL)")


def load_day(day: Day, seed: int, *, quiet: bool = False) -> None:
    """Simulate and append the day through the ledger (``append_many``).

    ``simulate_gaming_day`` ends with ``audit.projections.run_all()``, which
    would replay every round once more for the rounds read model: the bench
    swaps it for a no-op while loading (the ledger rows are the same)."""
    from unittest import mock

    from django.db import connection

    import tables.simulation as simulation

    plans = table_plans(day.tables)
    total = day.tables * day.rounds_per_table
    step = max(1, total // 10)
    done = [0]
    started = time.perf_counter()

    def tick(count: int) -> None:
        done[0] += count
        if not quiet and done[0] % step == 0:
            elapsed = time.perf_counter() - started
            print(f"    {done[0]:>8,}/{total:,} rounds, {elapsed:6.1f} s, "
                  f"{done[0] / elapsed:,.0f} rounds/s", flush=True)

    with mock.patch.object(simulation, "run_all", lambda: {}):
        summary = simulation.simulate_gaming_day(
            plans, day.gaming_day, rounds_per_table=day.rounds_per_table, seed=seed,
            dealer_error_percent=2, irregularity_percent=1, rounds_per_commit=500,
            progress=tick)
    day.load_seconds = time.perf_counter() - started
    day.rounds, day.events = summary.rounds, summary.events
    day.injected = dict(Counter(one.expected_finding.value for _, one in summary.injected))
    with connection.cursor() as cursor:
        _bookkeeping(cursor)
        cursor.execute("INSERT INTO bench_replay_day VALUES (%s, %s) ON CONFLICT (gaming_day) "
                       "DO UPDATE SET body = excluded.body",
                       [day.gaming_day, json.dumps(day.__dict__, default=str)])
    print(f"  day {day.label} ({day.gaming_day}): {day.rounds:,} rounds, {day.events:,} events "
          f"loaded in {day.load_seconds:.1f} s = {day.rounds / day.load_seconds:,.0f} rounds/s, "
          f"{day.events / day.load_seconds:,.0f} ev/s; {day.injected_total:,} dealer errors "
          "injected", flush=True)


def stored_day(day: Day) -> bool:
    """Fill ``day`` from an earlier run's bookkeeping (``--reuse``), if it matches."""
    from django.db import connection

    with connection.cursor() as cursor:
        _bookkeeping(cursor)
        cursor.execute("SELECT body::text FROM bench_replay_day WHERE gaming_day = %s",
                       [day.gaming_day])
        row = cursor.fetchone()
    if row is None:
        return False
    body = json.loads(row[0])
    if body["tables"] != day.tables:
        return False
    day.rounds_per_table = body["rounds_per_table"]
    day.rounds, day.events, day.injected = body["rounds"], body["events"], body["injected"]
    day.load_seconds = body["load_seconds"]
    return True


# --- workers (fresh interpreters) -----------------------------------------------


def _peak_rss_mb() -> float:
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux


def worker_replay(day: datetime.date, tables: list[str] | None) -> dict[str, Any]:
    from tables.verification import replay_rounds

    started = time.perf_counter()
    if tables is None:
        summaries = [replay_rounds(gaming_day=day)]
    else:
        summaries = [replay_rounds(gaming_day=day, table_id=table) for table in tables]
    seconds = time.perf_counter() - started
    findings: Counter[str] = Counter()
    for summary in summaries:
        findings.update(summary.findings or {})
    return {"rounds": sum(s.rounds for s in summaries), "events": sum(s.events for s in summaries),
            "seconds": seconds, "findings": dict(findings),
            "refused": sum(len(s.refused or ()) for s in summaries),
            "rounds_with_findings": sum(s.rounds_with_findings for s in summaries)}


def worker_read(day: datetime.date) -> dict[str, Any]:
    from tables.verification import iter_round_events

    started = time.perf_counter()
    events, streams, last, marks = 0, 0, None, [started]
    for event in iter_round_events(gaming_day=day, page=PAGE):
        events += 1
        if event.stream_id != last:
            streams, last = streams + 1, event.stream_id
        if events % PAGE == 1:  # the first event of a page: its query just ran
            marks.append(time.perf_counter())
    seconds = time.perf_counter() - started
    pages = [b - a for a, b in zip(marks, marks[1:], strict=False)]
    return {"rounds": streams, "events": events, "seconds": seconds, "pages": pages}


RAW_COLUMNS = ("e.position, e.stream_id, e.version, e.event_type, e.schema_version, "
               "e.payload::text, e.metadata::text, e.occurred_at, e.recorded_at, e.prev_hash, "
               "e.hash")


def worker_raw_read(day: datetime.date) -> dict[str, Any]:
    """The same rows as ``iter_round_events`` in the same order, with a plain
    psycopg server-side cursor and no decoding: what SQL + transfer cost."""
    import psycopg

    from bench.ledger import conninfo

    sql = (f"SELECT {RAW_COLUMNS} FROM ledger_event e JOIN ledger_event o "
           "ON o.stream_id = e.stream_id AND o.version = 1 AND o.event_type = 'round.opened' "
           "AND o.payload ->> 'gaming_day' = %s WHERE e.stream_id LIKE 'round:%%' "
           "ORDER BY e.stream_id, e.version")
    with psycopg.connect(**conninfo(os.environ["DATABASE_URL"])) as conn:
        started = time.perf_counter()
        events, streams, last = 0, 0, None
        with conn.cursor(name="bench_replay_raw") as cursor:
            cursor.itersize = 10000
            cursor.execute(sql, [str(day)])
            for row in cursor:
                events += 1
                if row[1] != last:
                    streams, last = streams + 1, row[1]
        seconds = time.perf_counter() - started
        # One later page of iter_round_events' own query (its SQL, as of this
        # writing), as the server runs it: does a page cost its rows or the day?
        page_sql = (f"SELECT {RAW_COLUMNS} FROM ledger_event e JOIN ledger_event o "
                    "ON o.stream_id = e.stream_id AND o.version = 1 "
                    "AND o.event_type = 'round.opened' AND o.payload ->> 'gaming_day' = %s "
                    "WHERE e.stream_id LIKE 'round:%%' AND (e.stream_id > %s OR "
                    "(e.stream_id = %s AND e.version > %s)) ORDER BY e.stream_id, e.version "
                    "LIMIT %s")
        after = conn.execute(
            "SELECT o.stream_id FROM ledger_event o WHERE o.event_type = 'round.opened' "
            "AND o.payload ->> 'gaming_day' = %s ORDER BY o.stream_id OFFSET %s LIMIT 1",
            [str(day), streams // 2]).fetchone()[0]
        plan = conn.execute("EXPLAIN (ANALYZE, FORMAT JSON) " + page_sql,
                            [str(day), after, after, 0, PAGE]).fetchone()[0][0]
    return {"rounds": streams, "events": events, "seconds": seconds,
            "page_ms": plan["Execution Time"], "page_plan": _plan_outline(plan["Plan"])}


def _plan_outline(node: dict[str, Any], depth: int = 0) -> list[str]:
    lines = [f"{'  ' * depth}{node['Node Type']}"
             + (f" on {node['Index Name']}" if "Index Name" in node else "")
             + f": {node.get('Actual Rows', 0) * node.get('Actual Loops', 1):,.0f} rows"
             + (f" ({node['Actual Loops']:,} loops)" if node.get("Actual Loops", 1) > 1 else "")]
    for child in node.get("Plans", ()):
        lines.extend(_plan_outline(child, depth + 1))
    return lines


def worker_replay_paged(day: datetime.date, rounds_per_page: int) -> dict[str, Any]:
    """A prototype of the suggested reader, in the bench (not project code):
    page by ROUNDS on the (gaming_day, stream_id) index of round.opened, then
    that page's events by (stream_id, version); every page costs its own rows.
    Then the same ``verify_round`` and tallies as ``replay_rounds``."""
    import orjson
    import psycopg

    from audit.ledger import RecordedEvent
    from bench.ledger import conninfo
    from tables.verification import rounds_of, verify_round

    sql = (f"SELECT {RAW_COLUMNS} FROM ledger_event e WHERE e.stream_id IN ("
           "SELECT o.stream_id FROM ledger_event o WHERE o.event_type = 'round.opened' "
           "AND o.payload ->> 'gaming_day' = %s AND o.stream_id > %s "
           "ORDER BY o.stream_id LIMIT %s) ORDER BY e.stream_id, e.version")
    loads = orjson.loads

    def events() -> Any:
        after = ""
        with psycopg.connect(**conninfo(os.environ["DATABASE_URL"])) as conn:
            while True:
                rows = conn.execute(sql, [str(day), after, rounds_per_page]).fetchall()
                for row in rows:  # schema versions are all current here: no upcasting
                    yield RecordedEvent(row[0], row[1], row[2], row[3], row[4], loads(row[5]),
                                        loads(row[6]), row[7], row[8], row[9], row[10])
                if not rows:
                    return
                after = rows[-1][1]

    started = time.perf_counter()
    rounds = count = 0
    findings: Counter[str] = Counter()
    for stream_id, recorded in rounds_of(events()):
        verified = verify_round(stream_id, recorded)
        rounds += 1
        count += len(recorded)
        if verified.result is not None:
            findings.update(finding.kind.value for finding in verified.result.findings)
    return {"rounds": rounds, "events": count, "seconds": time.perf_counter() - started,
            "findings": dict(findings), "refused": 0, "rounds_with_findings": 0}


def worker_split(day: datetime.date) -> dict[str, Any]:
    """``replay_rounds``' loop, instrumented: wall and CPU time of this
    interpreter in the reader, in ``from_payload`` and in the rules replay,
    all in one run (reader wall − reader CPU ≈ waiting for PostgreSQL)."""
    from tables.rules import replay as engine_replay
    from tables.rules.events import ROUND_EVENT_TYPES
    from tables.verification import iter_round_events, rounds_of

    clock, cpu = time.perf_counter, time.process_time
    walls = dict.fromkeys(("read", "from_payload", "replay"), 0.0)
    cpus = dict.fromkeys(walls, 0.0)
    rounds = events = 0
    started = clock()
    source = rounds_of(iter_round_events(gaming_day=day))
    while True:
        w0, c0 = clock(), cpu()
        item = next(source, None)
        w1, c1 = clock(), cpu()
        walls["read"] += w1 - w0
        cpus["read"] += c1 - c0
        if item is None:
            break
        typed = [ROUND_EVENT_TYPES[e.event_type].from_payload(e.payload) for e in item[1]
                 if e.event_type in ROUND_EVENT_TYPES]
        w2, c2 = clock(), cpu()
        walls["from_payload"] += w2 - w1
        cpus["from_payload"] += c2 - c1
        engine_replay.replay(typed)
        walls["replay"] += clock() - w2
        cpus["replay"] += cpu() - c2
        rounds += 1
        events += len(item[1])
    return {"rounds": rounds, "events": events, "seconds": clock() - started, "walls": walls,
            "cpus": cpus}


def worker_engine(day: datetime.date, sample_rounds: int, repeats: int) -> dict[str, Any]:
    """In memory, no DB: the stages of verifying the first ``sample_rounds``
    rounds of ``day`` (read once through ``iter_round_events``)."""
    from tables.rules import replay as engine_replay
    from tables.rules.events import ROUND_EVENT_TYPES
    from tables.verification import iter_round_events, rounds_of, verify_round

    grouped = []
    for stream_id, events in rounds_of(iter_round_events(gaming_day=day)):
        grouped.append((stream_id, events))
        if len(grouped) >= sample_rounds:
            break
    recorded = [event for _, events in grouped for event in events]
    typed = [[ROUND_EVENT_TYPES[e.event_type].from_payload(e.payload) for e in events]
             for _, events in grouped]
    replay = engine_replay.replay

    def from_payloads() -> None:
        for _, events in grouped:
            [ROUND_EVENT_TYPES[e.event_type].from_payload(e.payload) for e in events]

    def rules_replay() -> None:
        for events in typed:
            replay(events)

    def verify_all() -> None:
        for stream_id, events in grouped:
            verify_round(stream_id, events)

    # Each stage drops its results as it goes, as the streaming replay does
    # (keeping them all would make the cyclic GC the bottleneck).
    stages = {
        "group by round (rounds_of)": lambda: sum(1 for _ in rounds_of(recorded)),
        "from_payload (→ rule events)": from_payloads,
        "rules replay (tables.rules.replay)": rules_replay,
        "verify_round (from_payload + replay)": verify_all,
    }
    best: dict[str, float] = {}
    for _ in range(repeats):
        for name, stage in stages.items():
            started = time.perf_counter()
            stage()
            best[name] = min(best.get(name, float("inf")), time.perf_counter() - started)
    return {"rounds": len(grouped), "events": len(recorded), "stages": best}


def worker_profile(day: datetime.date, lines: int) -> dict[str, Any]:
    import cProfile
    import io
    import pstats

    from tables.verification import replay_rounds

    profiler = cProfile.Profile()
    profiler.enable()
    summary = replay_rounds(gaming_day=day)
    profiler.disable()
    out = io.StringIO()
    stats = pstats.Stats(profiler, stream=out)
    stats.sort_stats("tottime").print_stats(lines)
    out.write("\n  --- the project's own code (own time) ---\n")
    stats.print_stats(r"(audit|tables)/", lines)
    out.write("\n  --- cumulative ---\n")
    stats.sort_stats("cumulative").print_stats(lines)
    text = out.getvalue().replace(str(PROJECT_ROOT) + os.sep, "")
    return {"rounds": summary.rounds, "events": summary.events, "text": text}


def worker_main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.replay --worker")
    parser.add_argument("kind", choices=("replay", "paged", "read", "raw", "split", "engine",
                                         "profile"))
    parser.add_argument("--day", type=datetime.date.fromisoformat, required=True)
    parser.add_argument("--tables", default="")
    parser.add_argument("--sample", type=int, default=1000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--lines", type=int, default=30)
    parser.add_argument("--tracemalloc", action="store_true")
    options = parser.parse_args(argv)
    setup_django(os.environ["DATABASE_URL"], migrate=False)
    from django.db import connection

    connection.ensure_connection()  # the connect is not part of any figure
    import resource

    usage = resource.getrusage(resource.RUSAGE_SELF)
    cpu_before = usage.ru_utime + usage.ru_stime
    if options.tracemalloc:
        import tracemalloc

        tracemalloc.start()
    if options.kind == "replay":
        result = worker_replay(options.day, options.tables.split(",") if options.tables else None)
    elif options.kind == "read":
        result = worker_read(options.day)
    elif options.kind == "paged":
        result = worker_replay_paged(options.day, options.sample)
    elif options.kind == "split":
        result = worker_split(options.day)
    elif options.kind == "raw":
        result = worker_raw_read(options.day)
    elif options.kind == "engine":
        result = worker_engine(options.day, options.sample, options.repeats)
    else:
        result = worker_profile(options.day, options.lines)
    result["peak_rss_mb"] = _peak_rss_mb()
    usage = resource.getrusage(resource.RUSAGE_SELF)
    result["cpu_seconds"] = usage.ru_utime + usage.ru_stime - cpu_before
    if options.tracemalloc:
        import tracemalloc

        result["tracemalloc_peak_mb"] = tracemalloc.get_traced_memory()[1] / 2**20
    print(RESULT_PREFIX + json.dumps(result), flush=True)
    return 0


def start_worker(url: str, *args: str) -> subprocess.Popen[str]:
    env = {**os.environ, "DATABASE_URL": url, "LEDGER_PROJECT_ON_APPEND": "0"}
    return subprocess.Popen(  # noqa: S603
        [sys.executable, "-m", "bench.replay", "--worker", *args], cwd=PROJECT_ROOT, env=env,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def finish_worker(process: subprocess.Popen[str]) -> dict[str, Any]:
    out, err = process.communicate()
    for line in out.splitlines():
        if line.startswith(RESULT_PREFIX):
            return json.loads(line[len(RESULT_PREFIX):])
    raise RuntimeError(f"worker {process.args[3:]} exited with {process.returncode}:\n"
                       f"{out[-2000:]}{err[-3000:]}")


def run_worker(url: str, *args: str) -> dict[str, Any]:
    return finish_worker(start_worker(url, *args))


# --- the bench -------------------------------------------------------------------


def rates(result: dict[str, Any]) -> tuple[float, float]:
    return result["events"] / result["seconds"], result["rounds"] / result["seconds"]


def print_replay(label: str, result: dict[str, Any]) -> None:
    eps, rps = rates(result)
    memory = f"peak RSS {result['peak_rss_mb']:,.0f} MB"
    if "cpu_seconds" in result:  # this interpreter's CPU time (not the server's)
        memory = f"client CPU {result['cpu_seconds']:,.1f} s; " + memory
    if "tracemalloc_peak_mb" in result:
        memory += f", tracemalloc peak {result['tracemalloc_peak_mb']:,.1f} MB"
    print(f"  {label:<40} {result['rounds']:>8,} rounds {result['events']:>10,} ev in "
          f"{result['seconds']:7.2f} s = {eps:>9,.0f} ev/s {rps:>7,.0f} rounds/s; {memory}",
          flush=True)


def check_findings(day: Day, result: dict[str, Any]) -> bool:
    found = sum(result["findings"].values())
    same = result["findings"] == day.injected and not result["refused"]
    print(f"    findings {found:,} vs injected dealer errors {day.injected_total:,}: "
          + ("match, kind by kind" if same else
             f"DIFFER: found {result['findings']}, injected {day.injected}, "
             f"{result['refused']} rounds refused"), flush=True)
    return same


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--worker"]:
        return worker_main(argv[1:])
    parser = argparse.ArgumentParser(prog="python -m bench.replay",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--tables-a", type=int, default=50, help="tables on day A (default 50)")
    parser.add_argument("--tables-b", type=int, default=200, help="tables on day B (default 200)")
    parser.add_argument("--rounds", type=int, default=1000,
                        help="rounds per table on both days (default 1000)")
    parser.add_argument("--load-budget", type=float, default=DEFAULT_LOAD_BUDGET,
                        metavar="SECONDS",
                        help="if loading both days at the rate of a small probe would take "
                        "longer, scale rounds per table down to fit and extrapolate "
                        f"(default {DEFAULT_LOAD_BUDGET:g}; 0: always load the full days)")
    parser.add_argument("--sample", type=int, default=1000,
                        help="rounds of day A held in memory for the engine figures")
    parser.add_argument("--workers", type=int, default=2, help="fan-out processes (0: skip)")
    parser.add_argument("--tracemalloc", action="store_true",
                        help="also trace Python allocations in the replay runs (slower)")
    parser.add_argument("--profile", type=int, default=0, metavar="LINES",
                        help="also cProfile replay_rounds on day A; print this many lines")
    parser.add_argument("--seed", type=int, default=592)
    parser.add_argument("--database", default=BENCH_DATABASE,
                        help=f"the bench's own database (default {BENCH_DATABASE})")
    parser.add_argument("--keep", action="store_true", help="keep the bench database at the end")
    parser.add_argument("--reuse", action="store_true",
                        help="reuse a populated bench database of the same sizes (implies --keep)")
    options = parser.parse_args(argv)
    options.keep = options.keep or options.reuse

    base_url = os.environ.get("DATABASE_URL") or DEFAULT_URL
    if urlsplit(base_url).path.lstrip("/") == options.database:
        parser.error(f"DATABASE_URL already names {options.database}; point it at another one")
    url = bench_url(base_url, options.database)
    info = conninfo(url)
    if not (options.reuse and _exists(base_url, options.database)):
        recreate_database(base_url, options.database)
        print(f"replay bench on database {options.database!r} at {info['host']}:{info['port']} "
              "(created for this run)")
    else:
        print(f"replay bench on database {options.database!r} at {info['host']}:{info['port']} "
              "(reused: --reuse)")
    try:
        return _run(options, url)
    finally:
        with contextlib.suppress(Exception):
            from django.db import connections

            connections.close_all()
        if options.keep:
            print(f"kept database {options.database}")
        else:
            recreate_database(base_url, options.database, drop_only=True)


def _exists(base_url: str, name: str) -> bool:
    import psycopg

    with psycopg.connect(**{**conninfo(base_url), "dbname": "postgres"}) as conn:
        return conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone() \
            is not None


def _run(options: argparse.Namespace, url: str) -> int:
    started = time.perf_counter()
    setup_django(url, migrate=True)
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SHOW server_version")
        server = cursor.fetchone()[0]
    print(f"PostgreSQL {server}; Python {sys.version.split()[0]}, {os.cpu_count()} CPUs, "
          "load average " + "/".join(f"{load:.1f}" for load in os.getloadavg())
          + " (other work on the machine lowers every figure)\n")

    day_a = Day("A", DAY_A, options.tables_a, options.rounds)
    day_b = Day("B", DAY_B, options.tables_b, options.rounds)
    print("1. load: simulate_gaming_day → append_many, 500 rounds per commit, "
          "LEDGER_PROJECT_ON_APPEND=0, projections not run")
    stored = options.reuse and stored_day(day_a) and stored_day(day_b)
    if not stored and options.load_budget:
        probe = Day("probe", DAY_A - datetime.timedelta(days=1), day_a.tables, PROBE_ROUNDS)
        print(f"  probe day ({probe.gaming_day}, not replayed): {probe.tables} tables × "
              f"{PROBE_ROUNDS} rounds, to measure the load rate")
        load_day(probe, options.seed + 2, quiet=True)
        rate = probe.rounds / probe.load_seconds
        wanted = (day_a.tables + day_b.tables) * options.rounds
        fits = int(options.load_budget * rate / (day_a.tables + day_b.tables))
        if fits < options.rounds:
            print(f"  *** {wanted:,} rounds at {rate:,.0f} rounds/s would take "
                  f"{wanted / rate / 60:,.0f} min to load, over --load-budget "
                  f"{options.load_budget:g} s: SCALED DOWN to {fits:,} rounds per table "
                  f"(days of {day_a.tables * fits:,} and {day_b.tables * fits:,} rounds); "
                  f"the {FULL_DAY_ROUNDS:,}-round day is extrapolated from day B. "
                  "--load-budget 0 loads the full days.")
            day_a.rounds_per_table = day_b.rounds_per_table = max(1, fits)
    for day, seed in ((day_a, options.seed), (day_b, options.seed + 1)):
        if stored:
            print(f"  day {day.label} ({day.gaming_day}): {day.tables} tables × "
                  f"{day.rounds_per_table:,} rounds = {day.rounds:,} rounds, {day.events:,} "
                  f"events already there (--reuse; loaded earlier in {day.load_seconds:.1f} s "
                  f"= {day.rounds / day.load_seconds:,.0f} rounds/s)")
            continue
        print(f"  day {day.label}: {day.tables} tables × {day.rounds_per_table:,} rounds")
        load_day(day, seed)
    if not stored:
        # What autovacuum would do after a bulk load, done now so that every
        # run (fresh or --reuse) plans its queries with the same statistics.
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE ledger_event")
        print("  ANALYZE ledger_event")
    connection.close()  # the workers are the only readers from here on

    memory_flag = ("--tracemalloc",) if options.tracemalloc else ()
    print("\n2. replay_rounds(gaming_day=…), each in a fresh interpreter")
    replays: dict[str, dict[str, Any]] = {}
    matched = True
    for day in (day_a, day_b):
        result = run_worker(url, "replay", "--day", str(day.gaming_day), *memory_flag)
        replays[day.label] = result
        print_replay(f"day {day.label}: {day.tables} tables × {day.rounds_per_table:,} rounds",
                     result)
        matched = check_findings(day, result) and matched

    print("\n   the same verification with a round-paged reader (a prototype of the suggested "
          f"fix, in the bench: {PAGED_ROUNDS} rounds per query)")
    paged: dict[str, dict[str, Any]] = {}
    for day in (day_a, day_b):
        result = run_worker(url, "paged", "--day", str(day.gaming_day),
                            "--sample", str(PAGED_ROUNDS), *memory_flag)
        paged[day.label] = result
        print_replay(f"day {day.label}, round-paged reader", result)
        matched = check_findings(day, result) and matched

    print("\n3. where the time goes")
    read = run_worker(url, "read", "--day", str(day_a.gaming_day))
    print_replay("DB read alone: iter_round_events, day A", read)
    pages = read["pages"]
    if pages:
        print(f"    {len(pages)} pages of {PAGE:,} events: first {pages[0]:.2f} s, mean "
              f"{sum(pages) / len(pages):.2f} s, last {pages[-1]:.2f} s (query + decode)")
    raw = run_worker(url, "raw", "--day", str(day_a.gaming_day))
    print_replay("same rows, raw psycopg, no decode, day A", raw)
    raw_b = run_worker(url, "raw", "--day", str(day_b.gaming_day))
    print_replay("same rows, raw psycopg, no decode, day B", raw_b)
    print(f"    one page ({PAGE:,} events) of iter_round_events' query, EXPLAIN ANALYZE: "
          f"{raw['page_ms']:,.0f} ms on day A, {raw_b['page_ms']:,.0f} ms on day B "
          f"({raw_b['events'] / raw['events']:.1f}× the events); plan on day B:")
    for line in raw_b["page_plan"]:
        print(f"      {line}")
    engine = run_worker(url, "engine", "--day", str(day_a.gaming_day),
                        "--sample", str(options.sample))
    print(f"  in memory, no DB: the first {engine['rounds']:,} rounds = {engine['events']:,} "
          "events of day A, best of 3, one core:")
    for name, seconds in engine["stages"].items():
        print(f"    {name:<40} {seconds:7.3f} s = {engine['events'] / seconds:>10,.0f} ev/s "
              f"{engine['rounds'] / seconds:>9,.0f} rounds/s")
    stages = engine["stages"]
    verify_seconds = stages["verify_round (from_payload + replay)"]
    split = run_worker(url, "split", "--day", str(day_a.gaming_day))
    per_event = 1e6 / split["events"]
    print(f"  split of day A's replay loop, instrumented, one run: {split['seconds']:.2f} s = "
          f"{split['seconds'] * per_event:.1f} µs per event (target {1e6 / TARGET_EPS:.0f} µs); "
          "wall / this interpreter's CPU:")
    names = {"read": "reader: iter_round_events + rounds_of",
             "from_payload": "verify: from_payload (→ rule events)",
             "replay": "verify: tables.rules.replay.replay"}
    for key, name in names.items():
        wall, used = split["walls"][key], split["cpus"][key]
        share = 100 * wall / split["seconds"]
        print(f"    {name:<40} {wall * per_event:6.1f} µs/ev = {share:5.1f} % of the wall; "
              f"CPU {used * per_event:6.1f} µs/ev")
    waiting = split["walls"]["read"] - split["cpus"]["read"]
    print(f"    (reader wall − CPU: {waiting * per_event:.1f} µs/ev waiting for PostgreSQL or for "
          "a core; the machine's load average is in the header)")

    fan = None
    if options.workers > 1:
        print(f"\n4. fan-out: day B's tables split across {options.workers} processes, "
              "replay_rounds(gaming_day=B, table_id=…) per table")
        tables = [plan.table_id for plan in table_plans(day_b.tables)]
        shares = [tables[k::options.workers] for k in range(options.workers)]
        serial = run_worker(url, "replay", "--day", str(day_b.gaming_day),
                            "--tables", ",".join(tables))
        print_replay("1 process, table by table", serial)
        wall = time.perf_counter()
        processes = [start_worker(url, "replay", "--day", str(day_b.gaming_day),
                                  "--tables", ",".join(share)) for share in shares]
        parts = [finish_worker(process) for process in processes]
        wall = time.perf_counter() - wall
        fan = {"rounds": sum(p["rounds"] for p in parts), "events": sum(p["events"] for p in parts),
               "seconds": max(p["seconds"] for p in parts),
               "peak_rss_mb": max(p["peak_rss_mb"] for p in parts),
               "cpu_seconds": sum(p["cpu_seconds"] for p in parts)}
        for number, part in enumerate(parts, start=1):
            print_replay(f"worker {number}: {len(shares[number - 1])} tables", part)
        print_replay(f"day B, {options.workers} processes (slowest worker)", fan)
        print(f"    speed-up {replays['B']['seconds'] / fan['seconds']:.2f}× over one "
              f"replay_rounds(gaming_day=B), {serial['seconds'] / fan['seconds']:.2f}× over one "
              f"process table by table; wall clock with interpreter start-up {wall:.1f} s")
        fan_findings: Counter[str] = Counter()
        for part in parts:
            fan_findings.update(part["findings"])
        same = dict(fan_findings) == replays["B"]["findings"]
        print(f"    findings {sum(fan_findings.values()):,} "
              f"({'same as' if same else 'DIFFER from'} one process)")

    if options.profile:
        print(f"\n5. cProfile of replay_rounds(gaming_day=A) (top {options.profile} by own time)")
        profile = run_worker(url, "profile", "--day", str(day_a.gaming_day),
                             "--lines", str(options.profile))
        print(profile["text"])

    lines: list[Line] = []
    for day in (day_a, day_b):
        lines.append(Line(f"load day {day.label}", f"{day.rounds / day.load_seconds:,.0f} rnd/s",
                          note=f"{day.rounds:,} rounds, {day.events:,} events in "
                          f"{day.load_seconds:.0f} s = {day.events / day.load_seconds:,.0f} ev/s"))
    for day in (day_a, day_b):
        result = replays[day.label]
        eps, rps = rates(result)
        note = f"{day.tables} tables × {day.rounds_per_table:,} rounds, peak RSS " \
               f"{result['peak_rss_mb']:,.0f} MB, " \
               f"{result['events'] / result['cpu_seconds']:,.0f} ev per client CPU-second"
        lines.append(Line(f"replay day {day.label} events/s", f"{eps:,.0f} ev/s",
                          f"target {TARGET_EPS:,}", eps >= TARGET_EPS, note))
        lines.append(Line(f"replay day {day.label} rounds/s", f"{rps:,.0f} rnd/s",
                          f"target {TARGET_RPS:,}", rps >= TARGET_RPS,
                          f"{result['seconds']:.1f} s"))
    result_b = replays["B"]
    projected = FULL_DAY_ROUNDS * result_b["seconds"] / result_b["rounds"]
    scaled = "" if result_b["rounds"] == FULL_DAY_ROUNDS else \
        f" (extrapolated from {result_b['rounds']:,} rounds)"
    lines.append(Line("200 × 1,000 rounds day", f"{projected:,.1f} s",
                      f"target ≤ {TARGET_DAY_SECONDS:g} s", projected <= TARGET_DAY_SECONDS,
                      "one process" + scaled + ("; linear: a lower bound while each page "
                                                "of the reader costs the whole day"
                                                if scaled else "")))
    for day in (day_a, day_b):
        eps, rps = rates(paged[day.label])
        lines.append(Line(f"day {day.label}, round-paged (proto)", f"{eps:,.0f} ev/s",
                          f"target {TARGET_EPS:,}", eps >= TARGET_EPS,
                          f"{rps:,.0f} rounds/s, peak RSS "
                          f"{paged[day.label]['peak_rss_mb']:,.0f} MB; the bench's prototype "
                          "of the suggested reader"))
    projected_paged = FULL_DAY_ROUNDS * paged["B"]["seconds"] / paged["B"]["rounds"]
    lines.append(Line("  … 200 × 1,000 day (proto)", f"{projected_paged:,.1f} s",
                      f"target ≤ {TARGET_DAY_SECONDS:g} s",
                      projected_paged <= TARGET_DAY_SECONDS, "one process" + scaled))
    if fan is not None:
        projected_fan = FULL_DAY_ROUNDS * fan["seconds"] / fan["rounds"]
        lines.append(Line(f"  … with {options.workers} processes", f"{projected_fan:,.1f} s",
                          f"target ≤ {TARGET_DAY_SECONDS:g} s",
                          projected_fan <= TARGET_DAY_SECONDS,
                          f"{result_b['seconds'] / fan['seconds']:.2f}× over one call, "
                          f"{serial['seconds'] / fan['seconds']:.2f}× over table by table"
                          + scaled))
    ratio = result_b["peak_rss_mb"] / replays["A"]["peak_rss_mb"]
    lines.append(Line("peak RSS B / A", f"{ratio:.2f}×", "flat (≤ 1.2×)", ratio <= 1.2,
                      f"{replays['A']['peak_rss_mb']:,.0f} MB → "
                      f"{result_b['peak_rss_mb']:,.0f} MB for "
                      f"{result_b['rounds'] / replays['A']['rounds']:.1f}× the rounds"))
    lines.append(Line("findings = injected", "yes" if matched else "NO", "equal", matched,
                      f"A {day_a.injected_total:,}, B {day_b.injected_total:,} dealer errors"))
    lines.append(Line("DB read alone (day A)", f"{rates(read)[0]:,.0f} ev/s",
                      note="iter_round_events, decode included"))
    lines.append(Line("verify in memory (1 core)", f"{engine['events'] / verify_seconds:,.0f} ev/s",
                      note="from_payload + tables.rules.replay, no DB"))
    loads = "/".join(f"{load:.1f}" for load in os.getloadavg())
    print(f"\nSummary (replay bench, {time.perf_counter() - started:.0f} s, "
          f"{os.cpu_count()} CPUs, load average now {loads})")
    for line in lines:
        print(line.render())
    return 0 if matched else 1


if __name__ == "__main__":
    sys.exit(main())
