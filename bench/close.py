"""Close bench: a simulated gaming day closed end to end, stage by stage.

``python -m bench.close`` (or ``python -m bench --only close``) creates the
database ``pitboss_bench_close`` on the server of ``DATABASE_URL`` (dropping a
leftover one first), migrates it, configures a casino (Pennsylvania, 200
tables: 3/4 Criss-Cross ``PA-674a-2019``, 1/4 Double Cross ``MA-DCP-UNDATED``;
the crew as users with their roles) and records whole table days with
``tables.simulation.simulate_table_days`` (opening, buy-ins, the rounds through
``append_many`` with 500 rounds per commit, fills, closing, the count entered
and verified; dealer errors 2 %, irregularities 1 %): day A with 50 tables
and day B with 200 tables, the same rounds per table. The read models are
then brought up to date (``ANALYZE ledger_event``, then
``audit.projections.run_all()``: what the projection worker and autovacuum
do while the day is played) and the database vacuumed and analysed; all
timed apart from the load, none part of the close.

The ledger's clock: events are recorded at the real clock's pace, shifted so
that each day's play falls inside its gaming day and each close runs the
morning after (``audit.clock.recording_at``, as the demo's past days do;
``close_gaming_day(now=…)`` is given the same shifted time). Nothing else is
touched: the seal and the export cover the events whose ``recorded_at`` falls
in the day's window, exactly as in production.

Then each close runs in a fresh interpreter (so its peak memory is its own):
``close_gaming_day(day, requested_by="finance", workers=N, progress=…)`` for
each N of ``--workers`` (default 1 and 2), each N on a fresh copy of the days
as loaded; the progress callback timestamping the stage boundaries: started,
replayed (the day's one read), reconciled, sealed, exported, completed;
inside them, the library functions they call are timed (``_read_whole``,
``read_day_in_parts``, ``run_part``, ``walk_day``, ``verify_seal``,
``run_all``, ``_write_day``, ``write_zip``); per stage, the CPU seconds of
the close process, of the pool reading parts and of the rest of the machine
(PostgreSQL). Peak RSS of the close process and of its pool. Then the floor:
the day's events read once as the close reads them, nothing done with them.
The stages side by side for each N, with ratios. A close that fails is
reported with the stage it failed in (exit status 1).
``--profile N`` closes day B once more on a copy of the loaded database with
``workers=1`` under cProfile, one profiler per stage.

The full day (200 × 1,000 rounds) takes about an hour to load and project
here; a probe day measures the load, projection and close rates first and,
when A and B would not fit ``--budget``, the rounds per table are scaled down
and the 200 × 1,000 close extrapolated from day B (printed as such).
``--keep`` keeps the databases (and a copy of the loaded, unclosed one);
``--reuse`` starts from that copy instead of loading again.
"""

from __future__ import annotations

import argparse
import base64
import contextlib
import datetime
import json
import os
import secrets
import shutil
import subprocess
import sys
import tempfile
import time
import traceback
from collections import Counter
from dataclasses import asdict
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from bench.ledger import DEFAULT_URL, Line, bench_url, conninfo, recreate_database
from bench.replay import Day, load_progress, setup_django, table_plans

BENCH_DATABASE = "pitboss_bench_close"
PROJECT_ROOT = Path(__file__).resolve().parent.parent
# Far apart, so each close (the next morning) falls in a day of its own; no DST change.
PROBE_DAY = datetime.date(2024, 2, 14)
DAY_A = datetime.date(2025, 2, 12)
DAY_B = datetime.date(2026, 2, 11)
RESULT_PREFIX = "BENCH-CLOSE-RESULT "
PROBE_TABLES = 20
PROBE_ROUNDS = 25
ROUNDS_PER_COMMIT = 500
#: When play starts on the ledger's clock (after the gaming day's start), and
#: when the close runs (after its end).
PLAY_STARTS_AFTER = datetime.timedelta(hours=1)
CLOSE_RUNS_AFTER = datetime.timedelta(hours=1)

# Targets of the issue (see bench/README.md).
TARGET_CLOSE_SECONDS = 120.0  # 200 tables × 1,000 rounds, end to end, two workers
TARGET_MEMORY_RATIO = 1.2  # peak RSS, 200 tables ÷ 50 tables ("flat")
TARGET_SPEEDUP = 1.7  # the read-replay-hash stage, two workers against one
FULL_TABLES = 200
FULL_ROUNDS = 1000
DEFAULT_BUDGET = 900.0

STAGES = ("started", "replayed", "reconciled", "sealed", "exported", "completed")
#: Stages whose work grows with the rounds (extrapolated linearly); the others
#: work per table (the close of a 200-table day has as many however long).
ROUND_STAGES = frozenset({"replayed", "sealed", "exported"})
CREW_ROLES = {"dealer": "dealer", "floor": "floorperson", "cage": "cage cashier",
              "finance": "finance", "supervisor": "shift supervisor"}


def day_bounds(day: datetime.date) -> tuple[datetime.datetime, datetime.datetime]:
    from casino.models import Casino

    return Casino.current().gaming_day_bounds(day)


# --- setup -------------------------------------------------------------------------------


def setup_casino(tables: int) -> None:
    """The casino, its tables and the crew (users holding their roles)."""
    from django.contrib.auth.models import Group, User

    from casino.models import Casino, Jurisdiction
    from tables.models import DealingMethod, Game, Table

    jurisdiction, _ = Jurisdiction.objects.get_or_create(code="PA", name="Pennsylvania")
    Casino.objects.create(name="Bench casino", jurisdiction=jurisdiction)
    for plan in table_plans(tables):
        criss_cross = plan.table_id.startswith("CC-")
        Table.objects.create(
            table_id=plan.table_id, ruleset_id=plan.ruleset_id,
            game=Game.CRISS_CROSS_POKER if criss_cross else Game.DOUBLE_CROSS_POKER,
            dealing_method=DealingMethod.HAND if criss_cross else DealingMethod.MANUAL_SHOE,
            min_wager_cents=500, max_wager_cents=50_000)
    for username, role in CREW_ROLES.items():
        user = User.objects.create_user(username=username)
        user.groups.add(Group.objects.get(name=role))


def ledger_size() -> int:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM ledger_event")
        return cursor.fetchone()[0]


def load_day(day: Day, seed: int, *, quiet: bool = False) -> None:
    """Whole table days recorded during ``day`` (the ledger's clock at the
    gaming day's start + 1 h, running at real speed); read models deferred."""
    from audit import clock
    from tables.simulation import simulate_table_days

    start, _ = day_bounds(day.gaming_day)
    began = time.perf_counter()
    total = day.tables * day.rounds_per_table
    tick = load_progress(total, 5, quiet=quiet)
    played = [0]

    def progress(count: int) -> None:
        tick(count)
        played[0] += count
        if played[0] == total:
            # What autovacuum would have done while the day was played: closing each
            # table asks the ledger for its open rounds (``rounds_in_progress``), planned
            # on the statistics of an empty ledger otherwise (7 s a table on day A, not 0.4 s).
            analyze()

    before = ledger_size()
    with clock.recording_at(start + PLAY_STARTS_AFTER):
        summary = simulate_table_days(
            table_plans(day.tables), day.gaming_day, rounds_per_table=day.rounds_per_table,
            seed=seed, dealer_error_percent=2, irregularity_percent=1,
            rounds_per_commit=ROUNDS_PER_COMMIT, project=False, progress=progress)
    day.load_seconds = time.perf_counter() - began
    day.rounds = summary.rounds
    day.events = ledger_size() - before  # rounds, table days, slips and counts
    day.injected = dict(Counter(one.expected_finding.value for _, one in summary.injected))
    print(f"  {day.title}: {day.rounds:,} rounds, {day.events:,} events (table days and "
          f"counts included) in {day.load_seconds:.1f} s = "
          f"{day.rounds / day.load_seconds:,.0f} rounds/s, "
          f"{day.events / day.load_seconds:,.0f} ev/s; {day.injected_total:,} dealer errors "
          "injected", flush=True)


def analyze() -> float:
    """``ANALYZE ledger_event``: the statistics autovacuum keeps fresh while a
    day is played (after a bulk load of minutes it has not caught up, and
    the projections' keyset queries are planned on an empty table's)."""
    from django.db import connection

    began = time.perf_counter()
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE ledger_event")
    return time.perf_counter() - began


def project_all(label: str) -> float:
    """``run_all()``: every read model brought up to the ledger's head."""
    from audit.projections import run_all

    print(f"  {label}: ANALYZE ledger_event in {analyze():.1f} s", flush=True)
    began = time.perf_counter()
    applied = run_all()
    seconds = time.perf_counter() - began
    per = ", ".join(f"{name} {count:,}" for name, count in applied.items() if count)
    print(f"  {label}: run_all() in {seconds:.1f} s (events applied: {per})", flush=True)
    return seconds


def vacuum_analyze() -> float:
    from django.db import connection

    began = time.perf_counter()
    with connection.cursor() as cursor:
        cursor.execute("VACUUM (ANALYZE)")
    seconds = time.perf_counter() - began
    print(f"  VACUUM (ANALYZE) in {seconds:.1f} s (what autovacuum does while the day is "
          "played: hint bits and visibility map set, statistics fresh)", flush=True)
    return seconds


# --- bookkeeping (for --reuse) ------------------------------------------------------------


def save_bookkeeping(body: dict[str, Any]) -> None:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("CREATE TABLE IF NOT EXISTS bench_close_run (id int PRIMARY KEY, "
                       "body jsonb NOT NULL)")
        cursor.execute("INSERT INTO bench_close_run VALUES (1, %s) ON CONFLICT (id) DO UPDATE "
                       "SET body = excluded.body", [json.dumps(body, default=str)])


def read_bookkeeping(url: str) -> dict[str, Any] | None:
    import psycopg

    try:
        with psycopg.connect(**conninfo(url)) as conn:
            row = conn.execute("SELECT body::text FROM bench_close_run WHERE id = 1").fetchone()
    except psycopg.Error:
        return None
    return json.loads(row[0]) if row else None


def database_exists(base_url: str, name: str) -> bool:
    import psycopg

    with psycopg.connect(**{**conninfo(base_url), "dbname": "postgres"}) as conn:
        return conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone() \
            is not None


def copy_database(base_url: str, source: str, target: str) -> float:
    """``CREATE DATABASE target TEMPLATE source`` (a file copy; no one may be
    connected to ``source``)."""
    import psycopg
    from psycopg import sql

    began = time.perf_counter()
    with psycopg.connect(**{**conninfo(base_url), "dbname": "postgres"}, autocommit=True) as conn:
        conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(
            sql.Identifier(target)))
        conn.execute(sql.SQL("CREATE DATABASE {} TEMPLATE {}").format(
            sql.Identifier(target), sql.Identifier(source)))
    return time.perf_counter() - began


def _migrate_reused() -> bool:
    """A reused database brought to this commit's schema; whether it was behind."""
    from django.core.management import call_command
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    executor = MigrationExecutor(connection)
    if not executor.migration_plan(executor.loader.graph.leaf_nodes()):
        return False
    call_command("migrate", verbosity=0, interactive=False)
    return True


# --- workers (fresh interpreters) -----------------------------------------------------------


class Timed:
    """Wrap module attributes so each call's duration is recorded (the close
    calls them by module lookup; the wrappers add a clock read per call)."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, float]] = []
        #: label -> the process's peak RSS (MB) at the end of a call that raised it.
        self.peaks: dict[str, float] = {}

    def wrap(self, module: Any, name: str, label: str) -> None:
        function = getattr(module, name)

        def timed(*args: Any, **kwargs: Any) -> Any:
            began, peak = time.perf_counter(), peak_rss_mb()
            try:
                return function(*args, **kwargs)
            finally:
                self.calls.append((label, time.perf_counter() - began))
                if (after := peak_rss_mb()) > peak:
                    self.peaks[label] = max(after, self.peaks.get(label, 0.0))

        setattr(module, name, timed)


def _export_sizes(name: str) -> tuple[int, int]:
    """The export directory's bytes, and its largest file's."""
    from operations.close import export_root

    directory = export_root() / name
    sizes = [path.stat().st_size for path in directory.rglob("*") if path.is_file()] \
        if directory.is_dir() else []
    return sum(sizes), max(sizes, default=0)


def peak_rss_mb() -> float:
    """This process's peak resident memory so far (VmHWM), in MB."""
    with contextlib.suppress(OSError, IndexError, ValueError):
        status = Path("/proc/self/status").read_text()
        return int(status.split("VmHWM:", 1)[1].split()[0]) / 1024
    return 0.0


def cpu_sample() -> tuple[float, float, float, float]:
    """CPU seconds so far: this process, its reaped children (the replay
    pool), and the whole machine's busy and total core-seconds (/proc/stat;
    the PostgreSQL server's share is in the machine's, not in ours)."""
    import resource

    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    busy = total = 0.0
    with contextlib.suppress(OSError):
        fields = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
        tick = os.sysconf("SC_CLK_TCK")
        total = sum(fields[:8]) / tick  # user … steal (guest time is inside user)
        busy = total - (fields[3] + fields[4]) / tick  # less idle and iowait
    return (own.ru_utime + own.ru_stime, children.ru_utime + children.ru_stime, busy, total)


def worker_close(day: datetime.date, workers: int) -> dict[str, Any]:
    import resource

    import audit.exports
    import audit.projections
    import audit.seals
    from audit import clock
    from audit.ledger import read_stream
    from operations.close import close_gaming_day, close_stream_id

    _, end = day_bounds(day)
    timed = Timed()
    import operations.close
    import operations.day_read

    timed.wrap(operations.close, "read_day_in_parts", "read_day_in_parts")
    timed.wrap(operations.day_read, "_read_whole", "read_whole")  # a small day, in one process
    timed.wrap(operations.day_read, "run_part", "run_part")  # the parts this process read
    # The seal's members and the rounds to replay, written to the close's scratch tables.
    timed.wrap(operations.day_read, "_write_membership", "membership")
    timed.wrap(operations.day_read, "join_parts", "join_parts")  # events.jsonl from the parts
    timed.wrap(audit.seals, "walk_day", "walk_day")  # only a resumed close's, or verify_seal's
    timed.wrap(audit.exports, "verify_seal", "verify_seal")
    timed.wrap(audit.projections, "run_all", "run_all")
    timed.wrap(audit.exports, "_write_day", "_write_day")
    timed.wrap(audit.exports, "write_zip", "write_zip")
    marks: list[tuple[str, int, int, float, tuple[float, ...]]] = []
    peaks: dict[str, float] = {}  # stage -> the close process's peak RSS at its last mark

    def progress(stage: str, done: int, total: int) -> None:
        marks.append((stage, done, total, time.perf_counter(), cpu_sample()))
        peaks[stage] = peak_rss_mb()

    cpu_began = cpu_sample()
    began = time.perf_counter()
    error = where = ""
    try:
        with clock.recording_at(end + CLOSE_RUNS_AFTER) as now:
            close_gaming_day(day, requested_by="finance", workers=workers, now=now,
                             progress=progress)
    except Exception as failure:  # a close that fails is a finding: report how far it got
        error = f"{type(failure).__name__}: {failure}"
        where = traceback.format_exc()
    finished = time.perf_counter()
    cpu_finished = cpu_sample()
    stages: dict[str, float] = {}
    firsts: dict[str, float] = {}
    cpu: dict[str, list[float]] = {}  # stage → [this process, replay pool, machine busy, total]
    failed_in = ""
    previous, cpu_previous = began, cpu_began
    for stage in STAGES:
        seen = [mark for mark in marks if mark[0] == stage]
        if stage == "completed" and not error:
            seen = [(stage, 1, 1, finished, cpu_finished)]
        if not seen or seen[-1][1] < seen[-1][2]:  # the stage did not finish
            if not error:
                raise RuntimeError(f"no progress reported for {stage}: {marks}")
            failed_in = stage
            seen = [*seen, (stage, 0, 1, finished, cpu_finished)]
        firsts[stage] = seen[0][3] - previous
        stages[stage] = seen[-1][3] - previous
        cpu[stage] = [b - a for a, b in zip(cpu_previous, seen[-1][4], strict=True)]
        previous, cpu_previous = seen[-1][3], seen[-1][4]
        if failed_in:
            break
    payloads = {e.event_type.partition(".")[2]: e.payload
                for e in read_stream(close_stream_id(day))}
    replayed, sealed = payloads.get("replayed", {}), payloads.get("sealed", {})
    reconciled = payloads.get("reconciled", {}).get("totals", {})
    self_usage = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)  # the replay pool, reaped
    sizes = _export_sizes(audit.exports.export_name(day))
    return {
        "seconds": finished - began, "stages": stages, "firsts": firsts, "cpu": cpu,
        "calls": timed.calls, "call_peaks": timed.peaks, "stage_peaks": peaks,
        "error": error, "traceback": where, "failed_in": failed_in,
        "stages_run": [stage for stage in STAGES if stage in payloads],
        "rounds": replayed.get("rounds", 0), "events": replayed.get("events", 0),
        "findings": replayed.get("findings", {}), "refused": len(replayed.get("refused", [])),
        "tables": reconciled.get("tables", 0), "variances": reconciled.get("variances", 0),
        "day_events": sealed.get("events", 0), "streams": sealed.get("streams", 0),
        "zip_bytes": payloads.get("exported", {}).get("bytes", 0),
        "export_bytes": sizes[0], "largest_file_bytes": sizes[1],
        "peak_rss_mb": self_usage.ru_maxrss / 1024, "pool_peak_rss_mb": children.ru_maxrss / 1024,
        "cpu_seconds": self_usage.ru_utime + self_usage.ru_stime,
        "pool_cpu_seconds": children.ru_utime + children.ru_stime,
    }


def worker_profile(day: datetime.date, lines: int) -> dict[str, Any]:
    """cProfile of a real close of ``day`` (on a copy of the loaded database),
    one profiler per stage, switched at the stage boundaries the progress
    callback reports; ``workers=1`` so the replay runs where the profiler is."""
    import cProfile
    import io
    import pstats

    from audit import clock
    from operations.close import close_gaming_day

    _, end = day_bounds(day)
    profilers: list[tuple[str, cProfile.Profile, float]] = []
    finished: set[str] = set()

    def switch(stage: str) -> None:
        if profilers:
            profilers[-1][1].disable()
            name, profiler, began = profilers[-1]
            profilers[-1] = (name, profiler, time.perf_counter() - began)
        if stage:
            profiler = cProfile.Profile()
            profilers.append((stage, profiler, time.perf_counter()))
            profiler.enable()

    def progress(stage: str, done: int, total: int) -> None:
        if done >= total and stage not in finished:
            finished.add(stage)
            switch(STAGES[STAGES.index(stage) + 1])

    switch(STAGES[0])
    with clock.recording_at(end + CLOSE_RUNS_AFTER) as now:
        close_gaming_day(day, requested_by="finance", workers=1, now=now, progress=progress)
    switch("")
    out = io.StringIO()
    for stage, profiler, seconds in profilers:
        out.write(f"\n  --- {stage}: {seconds:.2f} s under the profiler ---\n")
        stats = pstats.Stats(profiler, stream=out)
        stats.sort_stats("tottime").print_stats(lines)
        out.write("  cumulative:\n")
        stats.sort_stats("cumulative").print_stats(max(10, lines // 2))
    text = out.getvalue().replace(str(PROJECT_ROOT) + os.sep, "")
    text = text.replace(sys.prefix + os.sep, "").replace(sys.base_prefix + os.sep, "")
    return {"text": text, "stages": {stage: seconds for stage, _, seconds in profilers}}


def worker_floor(day: datetime.date) -> dict[str, Any]:
    """The raw read of the day the close reads once: ``member_rows`` of the
    day's seal members at the close's cutoff, rows fetched and dropped."""
    from audit.ledger import read_stream
    from audit.seals import day_membership, member_rows
    from operations.close import close_stream_id

    cutoff = read_stream(close_stream_id(day))[0].payload["cutoff_position"]
    members, _ = day_membership(day, cutoff)
    began = time.perf_counter()
    events = sum(1 for _ in member_rows(members))
    return {"events": events, "seconds": time.perf_counter() - began}


def worker_main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.close --worker")
    parser.add_argument("kind", choices=("close", "profile", "floor"))
    parser.add_argument("--day", type=datetime.date.fromisoformat, required=True)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--lines", type=int, default=25)
    options = parser.parse_args(argv)
    setup_django(os.environ["DATABASE_URL"], migrate=False)
    from django.db import connection

    connection.ensure_connection()  # the connect is not part of any figure
    if options.kind == "close":
        result = worker_close(options.day, options.workers)
    elif options.kind == "floor":
        result = worker_floor(options.day)
    else:
        result = worker_profile(options.day, options.lines)
    print(RESULT_PREFIX + json.dumps(result), flush=True)
    return 0


def run_worker(env: dict[str, str], *args: str) -> dict[str, Any]:
    began = time.perf_counter()
    done = subprocess.run(  # noqa: S603
        [sys.executable, "-m", "bench.close", "--worker", *args], cwd=PROJECT_ROOT,
        env={**os.environ, **env}, capture_output=True, text=True, check=False)
    for line in done.stdout.splitlines():
        if line.startswith(RESULT_PREFIX):
            result = json.loads(line[len(RESULT_PREFIX):])
            result["wall_seconds"] = time.perf_counter() - began
            return result
    raise RuntimeError(f"worker {args} exited with {done.returncode}:\n"
                       f"{done.stdout[-2000:]}{done.stderr[-4000:]}")


# --- the bench ---------------------------------------------------------------------------------


def revision() -> str:
    """The commit measured, and whether the code it runs differs from it."""
    def git(*args: str) -> str:
        return subprocess.run(["git", *args], cwd=PROJECT_ROOT, capture_output=True,  # noqa: S603, S607
                              text=True, check=True).stdout.strip()

    try:
        commit = git("rev-parse", "--short", "HEAD")
        changed = git("status", "--porcelain", "--untracked-files=no", "--", "audit", "casino",
                      "tables").splitlines()
    except (OSError, subprocess.CalledProcessError):
        return "git revision unknown"
    return f"commit {commit}" + (f" with {len(changed)} uncommitted changes under audit/, "
                                 "casino/, tables/" if changed else "")


def mb(size: float) -> str:
    return f"{size / 1e6:,.1f} MB"


def calls_total(result: dict[str, Any], label: str) -> tuple[float, int]:
    seconds = [s for name, s in result["calls"] if name == label]
    return sum(seconds), len(seconds)


def print_close(day: Day, result: dict[str, Any]) -> None:
    stages, firsts = result["stages"], result["firsts"]
    events = result["day_events"] or day.events  # the seal's count, or the load's
    rounds = result["rounds"] or day.rounds
    if result["error"]:
        print(f"  {day.title}: *** THE CLOSE FAILED in stage {result['failed_in']!r} after "
              f"{result['seconds']:.1f} s: {result['error']}")
        print("    " + "\n    ".join(result["traceback"].rstrip().splitlines()[-12:]))
    else:
        print(f"  {day.title}: closed in {result['seconds']:.1f} s (wall with interpreter "
              f"start-up {result['wall_seconds']:.1f} s)")
    print(f"    stages recorded: {', '.join(result['stages_run']) or 'none'}")
    walk_seconds, walks = calls_total(result, "walk_day")
    seal_walk = next((s for name, s in result["calls"] if name == "walk_day"), 0.0)
    run_all_seconds, _ = calls_total(result, "run_all")
    verify_seconds, _ = calls_total(result, "verify_seal")
    write_seconds, _ = calls_total(result, "_write_day")
    zip_seconds, _ = calls_total(result, "write_zip")
    exported = stages.get("exported", 0.0)
    rest = exported - run_all_seconds - verify_seconds - write_seconds - zip_seconds
    notes = {
        "started": f"tables checked, cutoff fixed ({day.tables} tables)",
        "replayed": f"the day's one read ({read_note(result)}): {rounds:,} rounds replayed, "
                    f"{events:,} events hashed and written; {result['events']:,} round events = "
                    f"{result['events'] / stages.get('replayed', 1):,.0f} ev/s, "
                    f"{rounds / stages.get('replayed', 1):,.0f} rounds/s "
                    f"(count_rounds {firsts.get('replayed', 0):.2f} s)",
        "reconciled": f"{result['tables']} tables, {result['variances']} variances",
        "sealed": f"signed over {events:,} events in {result['streams']:,} streams (walked "
                  f"in the replay's read{f'; walk_day {seal_walk:.1f} s' if seal_walk else ''})",
        "exported": f"run_all {run_all_seconds:.1f} s, verify_seal {verify_seconds:.1f} s, "
                    f"files {write_seconds:.1f} s, zip {zip_seconds:.1f} s, rest (zip "
                    f"SHA-256) {rest:.1f} s; {mb(result['export_bytes'])} of files "
                    f"({result['export_bytes'] / max(exported, 1e-9) / 1e6:,.1f} MB/s), zip "
                    f"{mb(result['zip_bytes'])}",
        "completed": "close.exported, close.completed, the closes projection",
    }
    for stage, seconds in stages.items():
        share = 100 * seconds / result["seconds"]
        failed = "FAILED after " if stage == result["failed_in"] else ""
        print(f"    {stage:<11} {seconds:8.2f} s {share:5.1f} %  {failed}{notes[stage]}")
    cpu = result["cpu"]
    if all(c[3] > 0 for c in cpu.values()):
        print("    CPU core-seconds per stage, machine total: this process + replay workers + "
              "the rest (PostgreSQL, and whatever else runs on the machine) | idle")
        for stage in cpu:
            own, pool, busy, total = cpu[stage]
            print(f"    {stage:<11} {own:7.1f} + {pool:6.1f} + {max(0.0, busy - own - pool):6.1f} "
                  f"| {total - busy:6.1f} idle  ({100 * busy / total:3.0f} % busy)")
    pool = (f"largest replay worker {result['pool_peak_rss_mb']:,.0f} MB"
            if result["pool_peak_rss_mb"] else "no replay pool (1,000 rounds or fewer)")
    rises = ", ".join(f"{stage} {mb:,.0f}" for stage, mb in result["stage_peaks"].items())
    calls = ", ".join(f"{label} {mb:,.0f}"
                      for label, mb in sorted(result["call_peaks"].items(), key=lambda p: p[1]))
    print(f"    the close process's peak RSS (MB) by the end of each stage: {rises}; "
          f"calls that raised it, to: {calls or 'none'}")
    print(f"    peak RSS: close process {result['peak_rss_mb']:,.0f} MB, {pool}; CPU: close "
          f"process {result['cpu_seconds']:,.1f} s, replay workers "
          f"{result['pool_cpu_seconds']:,.1f} s (the server's not included); walk_day ran "
          f"{walks}× ({walk_seconds:.1f} s)", flush=True)


def read_note(result: dict[str, Any]) -> str:
    whole, _ = calls_total(result, "read_whole")
    parts, _ = calls_total(result, "read_day_in_parts")
    own, count = calls_total(result, "run_part")
    membership, _ = calls_total(result, "membership")
    before = f"the seal's members and the rounds written {membership:.1f} s"
    if not whole:
        joined, _ = calls_total(result, "join_parts")
        return (f"in parts, {parts:.1f} s: {before}; {count} parts looked at here, "
                f"{own:.1f} s; events.jsonl joined from the parts {joined:.1f} s, in a thread "
                "beside the reconciliation and the seal")
    return f"whole, {whole:.1f} s: {before}"


def print_comparison(runs: dict[int, dict[str, dict[str, Any]]],
                     floors: dict[str, dict[str, Any]]) -> None:
    """Each stage with each worker count, the ratio of the first count's time
    to the last's, and the floor."""
    counts = sorted(runs)
    print("\n   stage by stage (s)" + "".join(f"{'A, ' + str(n) + ' w':>12}" for n in counts)
          + "".join(f"{'B, ' + str(n) + ' w':>12}" for n in counts)
          + (f"{'A ratio':>10}{'B ratio':>10}" if len(counts) > 1 else ""))
    for stage in (*STAGES, "total"):
        cells, ratios = [], []
        for label in ("A", "B"):
            values = [runs[n][label]["seconds"] if stage == "total"
                      else runs[n][label]["stages"].get(stage, float("nan")) for n in counts]
            cells += [f"{v:12.2f}" for v in values]
            if len(counts) > 1:
                ratios.append(f"{values[0] / values[-1]:9.2f}×" if values[-1] else f"{'—':>10}")
        print(f"    {stage:<17}" + "".join(cells) + "".join(ratios))
    print(f"    {'floor (raw read)':<17}" + "".join(
        f"{floors[label]['seconds']:12.2f}" + " " * 12 * (len(counts) - 1) for label in ("A", "B")))


def check_findings(day: Day, result: dict[str, Any]) -> bool:
    if "replayed" not in result["stages_run"]:
        print("    findings: the close recorded no replay", flush=True)
        return False
    found = sum(result["findings"].values())
    same = result["findings"] == day.injected and not result["refused"]
    print(f"    findings {found:,} vs injected dealer errors {day.injected_total:,}: "
          + ("match, kind by kind" if same else
             f"DIFFER: found {result['findings']}, injected {day.injected}, "
             f"{result['refused']} rounds refused"), flush=True)
    return same


def extrapolate(result: dict[str, Any], factor: float) -> dict[str, float]:
    """Each stage that finished, scaled (a failed stage is left out)."""
    return {stage: seconds * (factor if stage in ROUND_STAGES else 1.0)
            for stage, seconds in result["stages"].items() if stage != result["failed_in"]}


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--worker"]:
        return worker_main(argv[1:])
    parser = argparse.ArgumentParser(prog="python -m bench.close",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=FULL_TABLES,
                        help=f"tables on day B, the big day (default {FULL_TABLES})")
    parser.add_argument("--tables-small", type=int, default=50,
                        help="tables on day A, for the memory comparison (default 50)")
    parser.add_argument("--rounds", type=int, default=FULL_ROUNDS,
                        help=f"rounds per table on both days (default {FULL_ROUNDS:,})")
    parser.add_argument("--budget", type=float, default=DEFAULT_BUDGET, metavar="SECONDS",
                        help="if loading, projecting and closing both days at the probe's rates "
                        "would take longer, scale the rounds per table down to fit and "
                        f"extrapolate (default {DEFAULT_BUDGET:g}; 0: always the full days)")
    parser.add_argument("--workers", type=lambda text: [int(n) for n in text.split(",")],
                        default=[1, 2], metavar="N[,N…]",
                        help="close_gaming_day(workers=N), each on a fresh copy of the loaded "
                        "days (default 1,2)")
    parser.add_argument("--profile", type=int, default=0, metavar="LINES",
                        help="also cProfile each stage's work on day B; print this many lines")
    parser.add_argument("--seed", type=int, default=592)
    parser.add_argument("--database", default=BENCH_DATABASE,
                        help=f"the bench's own database (default {BENCH_DATABASE})")
    parser.add_argument("--keep", action="store_true",
                        help="keep the bench database, a copy of it as loaded (<database>_loaded) "
                        "and the exports")
    parser.add_argument("--reuse", action="store_true",
                        help="start from <database>_loaded of an earlier --keep run with the "
                        "same sizes instead of loading (implies --keep)")
    options = parser.parse_args(argv)
    options.keep = options.keep or options.reuse

    base_url = os.environ.get("DATABASE_URL") or DEFAULT_URL
    loaded_name = f"{options.database}_loaded"
    if urlsplit(base_url).path.lstrip("/") in (options.database, loaded_name):
        parser.error(f"DATABASE_URL already names {options.database}; point it at another one")
    url = bench_url(base_url, options.database)
    loaded_url = bench_url(base_url, loaded_name)
    info = conninfo(url)
    stored = None
    if options.reuse and database_exists(base_url, loaded_name):
        stored = read_bookkeeping(loaded_url)
        if stored and (stored["tables"], stored["tables_small"], stored["asked_rounds"],
                       stored["budget"]) != (options.tables, options.tables_small,
                                             options.rounds, options.budget):
            print(f"  {loaded_name} holds other sizes ({stored['tables_small']}/"
                  f"{stored['tables']} tables, --rounds {stored['asked_rounds']}, --budget "
                  f"{stored['budget']:g}): loading afresh")
            stored = None
    if stored:
        seconds = copy_database(base_url, loaded_name, options.database)
        print(f"close bench on database {options.database!r} at {info['host']}:{info['port']} "
              f"(copied from {loaded_name} in {seconds:.0f} s: --reuse)")
    else:
        recreate_database(base_url, options.database)
        print(f"close bench on database {options.database!r} at {info['host']}:{info['port']} "
              "(created for this run)")
    export_root = Path(tempfile.mkdtemp(prefix="pitboss-bench-close-"))
    os.environ["EXPORT_ROOT"] = str(export_root)
    os.environ["LEDGER_SIGNING_KEY"] = base64.b64encode(secrets.token_bytes(32)).decode()
    try:
        return _run(options, url, stored, base_url, loaded_name)
    finally:
        with contextlib.suppress(Exception):
            from django.db import connections

            connections.close_all()
        if options.keep:
            print(f"kept database {options.database}"
                  + (f" and {loaded_name} (as loaded)" if database_exists(base_url, loaded_name)
                     else "") + f"; exports in {export_root}")
        else:
            recreate_database(base_url, options.database, drop_only=True)
            recreate_database(base_url, loaded_name, drop_only=True)
            shutil.rmtree(export_root, ignore_errors=True)


def _run(options: argparse.Namespace, url: str, stored: dict[str, Any] | None, base_url: str,
         loaded_name: str) -> int:
    began = time.perf_counter()
    setup_django(url, migrate=not stored)
    from django.db import connection

    if stored and _migrate_reused():
        connection.close()
        seconds = copy_database(base_url, options.database, loaded_name)
        print(f"  migrated to this commit's schema; {loaded_name} replaced by the migrated copy "
              f"in {seconds:.0f} s")

    with connection.cursor() as cursor:
        cursor.execute("SHOW server_version")
        server = cursor.fetchone()[0]
    print(f"PostgreSQL {server}; Python {sys.version.split()[0]}, {os.cpu_count()} CPUs, "
          "load average " + "/".join(f"{load:.1f}" for load in os.getloadavg())
          + f" (other work on the machine lowers every figure); {revision()}\n")
    env = {"DATABASE_URL": url, "LEDGER_PROJECT_ON_APPEND": "0"}
    day_a = Day("A", DAY_A, options.tables_small, options.rounds)
    day_b = Day("B", DAY_B, options.tables, options.rounds)
    probe = Day("probe", PROBE_DAY, PROBE_TABLES, PROBE_ROUNDS)
    phases: dict[str, float] = {}
    print("1. load: simulate_table_days → append (table days, counts) and append_many (rounds, "
          f"{ROUNDS_PER_COMMIT} per commit), LEDGER_PROJECT_ON_APPEND=0, project=False; the "
          "ledger's clock inside each gaming day")
    if stored:
        for day in (probe, day_a, day_b):
            day.__dict__.update(stored["days"][day.label])
        phases = stored["phases"]
        print(f"  already loaded (--reuse): {day_a.title}, {day_b.title} "
              f"(load {phases['load']:.0f} s, run_all {phases['project']:.0f} s, "
              f"VACUUM {phases['vacuum']:.0f} s when loaded)")
    else:
        setup_casino(max(options.tables, options.tables_small, PROBE_TABLES))
        print(f"  probe day ({probe.gaming_day}): {probe.tables} tables × {probe.rounds_per_table} "
              "rounds, loaded, projected and closed to measure the rates")
        load_day(probe, options.seed + 2, quiet=True)
        project_seconds = project_all("probe")
        connection.close()
        probe_close = run_worker(env, "close", "--day", str(probe.gaming_day),
                                 "--workers", str(options.workers[-1]))
        per_round = (probe.load_seconds + project_seconds + probe_close["wall_seconds"]) \
            / probe.rounds
        print(f"  probe close: {probe_close['seconds']:.1f} s ({probe_close['wall_seconds']:.1f} s "
              f"with interpreter start-up); ≈ {1000 * per_round:.1f} ms per round to load, "
              "project and close")
        wanted = (day_a.tables + day_b.tables) * options.rounds
        fits = int(options.budget / per_round / (day_a.tables + day_b.tables))
        if options.budget and fits < options.rounds:
            fits = max(1, fits)
            print(f"  *** {wanted:,} rounds at that rate would take {wanted * per_round / 60:,.0f} "
                  f"min, over --budget {options.budget:g} s: SCALED DOWN to {fits:,} rounds per "
                  f"table (days of {day_a.tables * fits:,} and {day_b.tables * fits:,} rounds); "
                  f"the {FULL_TABLES} × {FULL_ROUNDS:,}-round close is EXTRAPOLATED from day B. "
                  "--budget 0 loads the full days.")
            day_a.rounds_per_table = day_b.rounds_per_table = fits
        for day, seed in ((day_a, options.seed), (day_b, options.seed + 1)):
            print(f"  {day.title} ({day.gaming_day})")
            load_day(day, seed)
        phases["load"] = day_a.load_seconds + day_b.load_seconds
        phases["project"] = project_all("read models of days A and B (not part of the close)")
        phases["vacuum"] = vacuum_analyze()
        save_bookkeeping({
            "tables": options.tables, "tables_small": options.tables_small,
            "asked_rounds": options.rounds, "budget": options.budget, "phases": phases,
            "days": {d.label: asdict(d) for d in (probe, day_a, day_b)}})
        connection.close()
        if options.keep or options.profile or len(options.workers) > 1:
            seconds = copy_database(base_url, options.database, loaded_name)
            print(f"  copied to {loaded_name} in {seconds:.0f} s, unclosed (for --profile; with "
                  "--keep, --reuse starts from it)")
    connection.close()  # the close workers are the only clients from here on

    print("\n2. close_gaming_day(day, requested_by='finance', workers=N), each in a fresh "
          "interpreter, the ledger's clock the next morning; stage = from the previous stage's "
          "last progress report to its own; for each N the days as loaded (a fresh copy)")
    runs: dict[int, dict[str, dict[str, Any]]] = {}
    matched = True
    for number, workers in enumerate(options.workers):
        if number:
            connection.close()
            seconds = copy_database(base_url, loaded_name, options.database)
            print(f"  (the days as loaded again: copied from {loaded_name} in {seconds:.0f} s)")
        print(f"  workers={workers}")
        runs[workers] = {}
        for day in (day_a, day_b):
            result = run_worker(env, "close", "--day", str(day.gaming_day),
                                "--workers", str(workers))
            runs[workers][day.label] = result
            print_close(day, result)
            matched = check_findings(day, result) and matched
    floors = {day.label: run_worker(env, "floor", "--day", str(day.gaming_day))
              for day in (day_a, day_b)}
    print("\n   the floor: the day's events read once in position order "
          "(audit.seals.member_rows, what the close's one read sends), nothing done with them")
    for day in (day_a, day_b):
        floor = floors[day.label]
        print(f"    day {day.label}: {floor['events']:,} events in {floor['seconds']:.1f} s = "
              f"{floor['events'] / floor['seconds']:,.0f} ev/s")
    print_comparison(runs, floors)
    closes = runs[options.workers[-1]]
    result_a, result_b = closes["A"], closes["B"]
    full_rounds = FULL_TABLES * FULL_ROUNDS
    factor = full_rounds / day_b.rounds
    projected = extrapolate(result_b, factor)
    projected_total = sum(projected.values())
    linear_total = result_b["seconds"] * factor
    measured_full = day_b.rounds == full_rounds
    print(f"\n3. the {FULL_TABLES} × {FULL_ROUNDS:,}-round close: "
          + ("MEASURED (day B is full size)" if measured_full else
             f"EXTRAPOLATED from day B ({day_b.rounds:,} rounds, ×{factor:.2f}): replay, "
             "seal and export linearly with the rounds; started, reconciled and completed "
             "work per table (200 either way), kept as measured"))
    for stage in STAGES:
        if stage in projected:
            print(f"    {stage:<11} {projected[stage]:8.1f} s")
        else:
            print(f"    {stage:<11}        — (did not finish on day B)")
    print(f"    {'total':<11} {projected_total:8.1f} s = {projected_total / 60:.1f} min "
          + ("(of the stages that finished: a LOWER BOUND)" if result_b["error"] else
             f"(everything × {factor:.2f}: {linear_total:.1f} s)"))
    both = [stage for stage in STAGES if stage in ROUND_STAGES and stage in projected
            and stage in extrapolate(result_a, 1.0)]
    events_a = result_a["day_events"] or day_a.events
    events_b = result_b["day_events"] or day_b.events
    print(f"    linearity, day A → day B ({events_b / events_a:.2f}× the events): " + ", ".join(
        f"{stage} ×{result_b['stages'][stage] / result_a['stages'][stage]:.2f}" for stage in both)
        + "; µs per event of the day, A → B: " + ", ".join(
        f"{stage} {1e6 * result_a['stages'][stage] / events_a:.1f} → "
        f"{1e6 * result_b['stages'][stage] / events_b:.1f}" for stage in both))

    if options.profile:
        scratch = f"{options.database}_profile"
        print(f"\n4. cProfile of the close of day B, workers=1 (the replay in the profiled "
              f"process), on {scratch}, a copy of {loaded_name}; one profiler per stage, top "
              f"{options.profile} by own time, then cumulative")
        copy_database(base_url, loaded_name, scratch)
        try:
            profile = run_worker({**env, "DATABASE_URL": bench_url(base_url, scratch)},
                                 "profile", "--day", str(day_b.gaming_day),
                                 "--lines", str(options.profile))
        finally:
            recreate_database(base_url, scratch, drop_only=True)
        print(profile["text"])
        print("  under the profiler: " + ", ".join(
            f"{stage} {seconds:.1f} s" for stage, seconds in profile["stages"].items()))

    lines: list[Line] = []
    for day in (day_a, day_b):
        lines.append(Line(f"load day {day.label}", f"{day.rounds / day.load_seconds:,.0f} rnd/s",
                          note=f"{day.rounds:,} rounds, {day.events:,} events in "
                          f"{day.load_seconds:.0f} s; not part of the close"))
    lines.append(Line("read models (run_all)", f"{phases['project']:,.0f} s",
                      note="days A and B, before the closes; not part of the close"))
    for day, result in ((day_a, result_a), (day_b, result_b)):
        done = ", ".join(f"{s} {t:.1f}" for s, t in result["stages"].items()
                         if s in STAGES[1:5] and s != result["failed_in"])
        if result["error"]:
            lines.append(Line(f"close day {day.label}", "FAILED", "completes", False,
                              f"in {result['failed_in']} after {result['seconds']:,.1f} s: "
                              f"{result['error'][:120]}; finished: {done}"))
        else:
            lines.append(Line(f"close day {day.label}", f"{result['seconds']:,.1f} s",
                              note=f"{day.tables} × {day.rounds_per_table:,} rounds, measured; "
                              + done))
    stages_b = extrapolate(result_b, 1.0)
    events_b = result_b["day_events"] or day_b.events
    if "replayed" in stages_b:
        lines.append(Line("replay day B", f"{result_b['events'] / stages_b['replayed']:,.0f} ev/s",
                          note=f"{result_b['rounds'] / stages_b['replayed']:,.0f} rounds/s, "
                          f"{options.workers[-1]} processes"))
    counts = sorted(runs)
    if len(counts) > 1 and all("replayed" in runs[n]["B"]["stages"] for n in counts):
        one, most = (runs[n]["B"]["stages"]["replayed"] for n in (counts[0], counts[-1]))
        lines.append(Line(f"read + replay + hash, {counts[-1]} ÷ {counts[0]} workers",
                          f"{one / most:.2f}×", f"≥ {TARGET_SPEEDUP}×",
                          one / most >= TARGET_SPEEDUP,
                          f"day B: {one:.1f} s → {most:.1f} s"))
    floor_b = floors["B"]["seconds"]
    lines.append(Line("floor: raw read of day B", f"{floor_b:.1f} s",
                      note=f"{floors['B']['events']:,} events, "
                      f"{floors['B']['events'] / floor_b:,.0f} ev/s; the close took "
                      f"{result_b['seconds'] / floor_b:.1f}× it with {counts[-1]} workers"))
    if "sealed" in stages_b:
        lines.append(Line("seal day B", f"{events_b / stages_b['sealed']:,.0f} ev/s",
                          note=f"{events_b:,} events in the day"))
    if "exported" in stages_b:
        lines.append(Line("export day B",
                          f"{result_b['export_bytes'] / stages_b['exported'] / 1e6:,.1f} MB/s",
                          note=f"{mb(result_b['export_bytes'])} of files, zip "
                          f"{mb(result_b['zip_bytes'])}, {stages_b['exported']:.1f} s"))
    if result_b["error"]:
        lines.append(Line(f"close {FULL_TABLES} × {FULL_ROUNDS:,}", "FAILED",
                          f"target ≤ {TARGET_CLOSE_SECONDS:g} s", False,
                          f"day B's close failed in {result_b['failed_in']}; the stages before "
                          f"it extrapolate to {projected_total:,.0f} s"))
    else:
        lines.append(Line(f"close {FULL_TABLES} × {FULL_ROUNDS:,}", f"{projected_total:,.1f} s",
                          f"target ≤ {TARGET_CLOSE_SECONDS:g} s",
                          projected_total <= TARGET_CLOSE_SECONDS,
                          "measured" if measured_full else
                          f"extrapolated from {day_b.rounds:,} rounds; "
                          f"all-linear {linear_total:,.0f} s"))
    largest = result_b["largest_file_bytes"] * factor
    lines.append(Line("largest export file, full day", mb(largest),
                      note=f"events.jsonl, × {factor:.2f}; over 2 GiB, a ZIP64 entry"
                      if largest >= 2**31 else "events.jsonl"))
    peak_a = max(result_a["peak_rss_mb"], result_a["pool_peak_rss_mb"])
    peak_b = max(result_b["peak_rss_mb"], result_b["pool_peak_rss_mb"])
    ratio = peak_b / peak_a
    lines.append(Line(f"peak RSS {day_b.tables} / {day_a.tables} tables", f"{ratio:.2f}×",
                      f"flat (≤ {TARGET_MEMORY_RATIO}×)", ratio <= TARGET_MEMORY_RATIO,
                      f"{peak_a:,.0f} MB → {peak_b:,.0f} MB at {day_a.rounds_per_table:,} rounds "
                      f"per table; close process {result_a['peak_rss_mb']:,.0f} → "
                      f"{result_b['peak_rss_mb']:,.0f} MB, replay worker "
                      f"{result_a['pool_peak_rss_mb']:,.0f} → "
                      f"{result_b['pool_peak_rss_mb']:,.0f} MB"))
    lines.append(Line("findings = injected", "yes" if matched else "NO", "equal", matched,
                      f"A {day_a.injected_total:,}, B {day_b.injected_total:,} dealer errors"))
    loads = "/".join(f"{load:.1f}" for load in os.getloadavg())
    print(f"\nSummary (close bench, {time.perf_counter() - began:.0f} s, "
          f"{os.cpu_count()} CPUs, load average now {loads})")
    for line in lines:
        print(line.render())
    return 0 if matched and not (result_a["error"] or result_b["error"]) else 1


if __name__ == "__main__":
    sys.exit(main())
