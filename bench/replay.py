"""Replay bench: verify a simulated gaming day from PostgreSQL, end to end.

``python -m bench.replay`` (or ``python -m bench --only replay``) creates the
database ``pitboss_bench_replay`` on the server of ``DATABASE_URL`` (dropping a
leftover one first), migrates it and fills two gaming days with
``tables.simulation.simulate_gaming_day(..., rounds_per_commit=500,
project=False)`` (3/4 Criss-Cross ``PA-674a-2019``, 1/4 Double Cross
``MA-DCP-UNDATED``; dealer errors 2 %, irregularities 1 %): day A with 50
tables and day B with 200 tables. Then, each in a fresh interpreter so peak
memory is per run:

1. ``replay_rounds(RoundSelection(gaming_day=A))`` and ``(…=B)`` in one
   process: rounds, events, seconds, rates, peak RSS, CPU seconds, and the
   findings against the injected errors;
2. day B fanned out over ``--workers`` (2) processes the way a user does it:
   ``manage.py replay --gaming-day B --workers 2 --no-progress``, its summary
   line parsed;
3. where the time goes: the DB read alone (``iter_round_events``, row decode
   included, with the time of each page of rounds) on both days, and in memory
   (no DB) on a sample of day A: row decode, ``from_payload``, the rules
   replay and ``verify_round``;
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
import re
import secrets
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable
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
ROUNDS_PER_PAGE = 250  # iter_round_events' default page, in rounds

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

    @property
    def title(self) -> str:
        return f"day {self.label}: {self.tables} tables × {self.rounds_per_table:,} rounds"


def _bookkeeping(cursor: Any) -> None:
    cursor.execute("CREATE TABLE IF NOT EXISTS bench_replay_day (gaming_day date PRIMARY KEY, "
                   "body jsonb NOT NULL)")


def load_progress(total: int, lines: int, *, quiet: bool = False) -> Callable[[int], None]:
    """A simulator ``progress`` callback printing ``lines`` lines of rounds
    loaded, seconds and rate while ``total`` rounds load."""
    step = max(1, total // lines)
    done = [0]
    started = time.perf_counter()

    def tick(count: int) -> None:
        done[0] += count
        if not quiet and done[0] % step == 0:
            elapsed = time.perf_counter() - started
            print(f"    {done[0]:>8,}/{total:,} rounds, {elapsed:6.1f} s, "
                  f"{done[0] / elapsed:,.0f} rounds/s", flush=True)

    return tick


def load_day(day: Day, seed: int, *, quiet: bool = False) -> None:
    """Simulate and append the day through the ledger (``append_many``, 500
    rounds per commit); ``project=False`` skips the read models (the ledger
    rows are the same)."""
    from django.db import connection

    from tables.simulation import simulate_gaming_day

    plans = table_plans(day.tables)
    started = time.perf_counter()
    tick = load_progress(day.tables * day.rounds_per_table, 10, quiet=quiet)
    summary = simulate_gaming_day(
        plans, day.gaming_day, rounds_per_table=day.rounds_per_table, seed=seed,
        dealer_error_percent=2, irregularity_percent=1, rounds_per_commit=500, project=False,
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
    """Fill ``day`` from an earlier run's bookkeeping (``--reuse``), if it
    matches and the day's rounds are still in the ledger."""
    from django.db import connection

    from tables.verification import RoundSelection, count_rounds

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
    if count_rounds(RoundSelection(gaming_day=day.gaming_day)) != body["rounds"]:
        return False
    day.rounds_per_table = body["rounds_per_table"]
    day.rounds, day.events, day.injected = body["rounds"], body["events"], body["injected"]
    day.load_seconds = body["load_seconds"]
    return True


# --- workers (fresh interpreters) -----------------------------------------------


def _peak_rss_mb() -> float:
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux


def worker_replay(day: datetime.date) -> dict[str, Any]:
    from tables.verification import RoundSelection, replay_rounds

    started, cpu = time.perf_counter(), time.process_time()
    summary = replay_rounds(RoundSelection(gaming_day=day))
    # The process's CPU time too: on a shared machine it moves far less with the load.
    return {"rounds": summary.rounds, "events": summary.events,
            "seconds": time.perf_counter() - started,
            "cpu_seconds": time.process_time() - cpu, "findings": summary.findings,
            "refused": len(summary.refused), "rounds_with_findings": summary.rounds_with_findings}


SUMMARY_LINE = re.compile(r"Replayed ([\d,]+) rounds, ([\d,]+) events in ([\d.]+) s")
FINDING_LINE = re.compile(r"^  (\S+)\s+([\d,]+)$")


def worker_command(day: datetime.date, workers: int) -> dict[str, Any]:
    """``manage.py replay --gaming-day DAY --workers N --no-progress`` as a
    user runs it; its summary parsed. RUSAGE_CHILDREN covers the command and
    its pool workers (peak RSS of the largest, CPU of all)."""
    import resource

    # --skip-checks: the deployment checks (e.g. casino.E002, a signing key
    # for the day seals) are not replay's concern and the bench has no key.
    command = [sys.executable, "manage.py", "replay", "--gaming-day", str(day),
               "--workers", str(workers), "--no-progress", "--skip-checks"]
    started = time.perf_counter()
    done = subprocess.run(command, cwd=PROJECT_ROOT, capture_output=True, text=True,  # noqa: S603
                          check=False)
    wall = time.perf_counter() - started
    match = SUMMARY_LINE.search(done.stdout)
    if done.returncode or match is None:
        raise RuntimeError(f"manage.py replay exited with {done.returncode}:\n"
                           f"{done.stdout[-2000:]}{done.stderr[-3000:]}")
    findings = {}
    for line in done.stdout[match.end():].splitlines():
        found = FINDING_LINE.match(line)
        if found:
            findings[found[1]] = int(found[2].replace(",", ""))
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return {"rounds": int(match[1].replace(",", "")), "events": int(match[2].replace(",", "")),
            "seconds": float(match[3]), "wall_seconds": wall, "findings": findings,
            "refused": done.stdout.count("not replayable"),
            "peak_rss_mb": usage.ru_maxrss / 1024,
            "children_cpu_seconds": usage.ru_utime + usage.ru_stime}


def worker_read(day: datetime.date) -> dict[str, Any]:
    """``iter_round_events`` alone (query + transfer + row decode), with the
    time of each page of rounds (the first event of a page arrives right
    after its query)."""
    from tables.verification import RoundSelection, iter_round_events

    started = time.perf_counter()
    events, rounds, last, marks = 0, 0, None, [started]
    for event in iter_round_events(RoundSelection(gaming_day=day),
                                   rounds_per_page=ROUNDS_PER_PAGE):
        events += 1
        if event.stream_id != last:
            rounds, last = rounds + 1, event.stream_id
            if rounds % ROUNDS_PER_PAGE == 1 and rounds > 1:
                marks.append(time.perf_counter())
    seconds = time.perf_counter() - started
    marks.append(started + seconds)
    pages = [b - a for a, b in zip(marks, marks[1:], strict=False)]
    return {"rounds": rounds, "events": events, "seconds": seconds, "pages": pages}


def worker_engine(day: datetime.date, sample_rounds: int, repeats: int) -> dict[str, Any]:
    """In memory, no DB: the stages of verifying the first ``sample_rounds``
    rounds of ``day`` (read once through ``iter_round_events``)."""
    import orjson

    from audit.storage import decode_facts
    from tables.rules import replay as engine_replay
    from tables.rules.events import ROUND_EVENT_TYPES
    from tables.verification import RoundSelection, iter_round_events, rounds_of, verify_round

    grouped = []
    for stream_id, events in rounds_of(iter_round_events(RoundSelection(gaming_day=day))):
        grouped.append((stream_id, events))
        if len(grouped) >= sample_rounds:
            break
    recorded = [event for _, events in grouped for event in events]
    # The rows as the server sends them (JSON as text), for the reader's decode.
    dumps = orjson.dumps
    rows = [(e.position, e.stream_id, e.version, e.event_type, e.schema_version,
             dumps(e.payload).decode(), e.occurred_at) for e in recorded]
    typed = [[ROUND_EVENT_TYPES[e.event_type].from_payload(e.payload) for e in events]
             for _, events in grouped]
    replay = engine_replay.replay

    def decode_rows() -> None:
        decode_facts(rows, typed_times=True)

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
        "row decode (reader, orjson)": decode_rows,
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

    from tables.verification import RoundSelection, replay_rounds

    profiler = cProfile.Profile()
    profiler.enable()
    summary = replay_rounds(RoundSelection(gaming_day=day))
    profiler.disable()
    out = io.StringIO()
    stats = pstats.Stats(profiler, stream=out)
    stats.sort_stats("tottime").print_stats(lines)
    out.write("\n  --- the project's own code (own time) ---\n")
    stats.print_stats(r"(audit|tables)/", lines)
    out.write("\n  --- cumulative ---\n")
    stats.sort_stats("cumulative").print_stats(lines)
    text = out.getvalue().replace(str(PROJECT_ROOT) + os.sep, "")
    text = text.replace(sys.prefix + os.sep, "").replace(sys.base_prefix + os.sep, "")
    return {"rounds": summary.rounds, "events": summary.events, "text": text}


def worker_main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.replay --worker")
    parser.add_argument("kind", choices=("replay", "command", "read", "engine", "profile"))
    parser.add_argument("--day", type=datetime.date.fromisoformat, required=True)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--sample", type=int, default=1000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--lines", type=int, default=30)
    parser.add_argument("--tracemalloc", action="store_true")
    options = parser.parse_args(argv)
    if options.kind == "command":  # no Django here: the command sets itself up
        print(RESULT_PREFIX + json.dumps(worker_command(options.day, options.workers)),
              flush=True)
        return 0
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
        result = worker_replay(options.day)
    elif options.kind == "read":
        result = worker_read(options.day)
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
    parser.add_argument("--workers", type=int, default=2,
                        help="processes of the manage.py replay --workers run (1: skip)")
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
          "LEDGER_PROJECT_ON_APPEND=0, project=False (no read models)")
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
    print("\n2. replay_rounds(RoundSelection(gaming_day=…)), one process, each in a fresh "
          "interpreter")
    replays: dict[str, dict[str, Any]] = {}
    matched = True
    for day in (day_a, day_b):
        result = run_worker(url, "replay", "--day", str(day.gaming_day), *memory_flag)
        replays[day.label] = result
        print_replay(f"day {day.label}: {day.tables} tables × {day.rounds_per_table:,} rounds",
                     result)
        matched = check_findings(day, result) and matched

    fan = None
    if options.workers > 1:
        print(f"\n3. fan-out: manage.py replay --gaming-day {day_b.gaming_day} --workers "
              f"{options.workers} --no-progress --skip-checks (split_tables into up to "
              f"{options.workers * 4} "
              "parts of whole tables, multiprocessing fork pool)")
        fan = run_worker(url, "command", "--day", str(day_b.gaming_day),
                         "--workers", str(options.workers))
        print_replay(f"day B, {options.workers} processes", fan)
        print(f"    the command's own time (after Django start-up and count_rounds); wall with "
              f"interpreter start-up {fan['wall_seconds']:.1f} s; CPU of the command and its "
              f"workers {fan['children_cpu_seconds']:,.1f} s; speed-up "
              f"{replays['B']['seconds'] / fan['seconds']:.2f}× over one process")
        matched = check_findings(day_b, fan) and matched

    print("\n4. where the time goes")
    reads: dict[str, dict[str, Any]] = {}
    for day in (day_a, day_b):
        read = run_worker(url, "read", "--day", str(day.gaming_day))
        reads[day.label] = read
        print_replay(f"DB read alone: iter_round_events, day {day.label}", read)
        pages = read["pages"]
        if pages:
            print(f"    {len(pages)} pages of {ROUNDS_PER_PAGE} rounds: first {pages[0]:.3f} s, "
                  f"mean {sum(pages) / len(pages):.3f} s, max {max(pages):.3f} s, "
                  f"last {pages[-1]:.3f} s (each: the next page's query, fetch and decode; "
                  "the first also the first page's, the last none)")
    engine = run_worker(url, "engine", "--day", str(day_a.gaming_day),
                        "--sample", str(options.sample))
    print(f"  in memory, no DB: the first {engine['rounds']:,} rounds = {engine['events']:,} "
          "events of day A, best of 3, one core:")
    for name, seconds in engine["stages"].items():
        print(f"    {name:<40} {seconds:7.3f} s = {engine['events'] / seconds:>10,.0f} ev/s "
              f"{engine['rounds'] / seconds:>9,.0f} rounds/s "
              f"{1e6 * seconds / engine['events']:6.1f} µs/ev")
    verify_seconds = engine["stages"]["verify_round (from_payload + replay)"]
    verify_us = 1e6 * verify_seconds / engine["events"]
    for day in (day_a, day_b):
        replay_us = 1e6 * replays[day.label]["seconds"] / replays[day.label]["events"]
        read_us = 1e6 * reads[day.label]["seconds"] / reads[day.label]["events"]
        print(f"  day {day.label}: replay {replay_us:.1f} µs/ev ≈ read {read_us:.1f} "
              f"({100 * read_us / replay_us:.0f} %) + verify {verify_us:.1f} "
              f"({100 * verify_us / replay_us:.0f} %) + rest {replay_us - read_us - verify_us:.1f}"
              f" (separate runs; target {1e6 / TARGET_EPS:.0f} µs/ev)")

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
               f"{result['peak_rss_mb']:,.0f} MB, CPU {result['cpu_seconds']:,.1f} s"
        lines.append(Line(f"replay day {day.label} events/s", f"{eps:,.0f} ev/s",
                          f"target {TARGET_EPS:,}", eps >= TARGET_EPS, note))
        lines.append(Line(f"replay day {day.label} rounds/s", f"{rps:,.0f} rnd/s",
                          f"target {TARGET_RPS:,}", rps >= TARGET_RPS,
                          f"{result['seconds']:.1f} s"))
    result_b = replays["B"]
    scaled = "" if result_b["rounds"] == FULL_DAY_ROUNDS else \
        f", extrapolated from {result_b['rounds']:,} rounds"
    projected = FULL_DAY_ROUNDS * result_b["seconds"] / result_b["rounds"]
    lines.append(Line("200 × 1,000 rounds day", f"{projected:,.1f} s",
                      f"target ≤ {TARGET_DAY_SECONDS:g} s", projected <= TARGET_DAY_SECONDS,
                      "one process" + scaled))
    if fan is not None:
        eps, rps = rates(fan)
        lines.append(Line(f"day B, {options.workers} processes", f"{eps:,.0f} ev/s",
                          f"target {TARGET_EPS:,}", eps >= TARGET_EPS,
                          f"{rps:,.0f} rounds/s, manage.py replay --workers {options.workers}, "
                          f"largest process {fan['peak_rss_mb']:,.0f} MB"))
        projected_fan = FULL_DAY_ROUNDS * fan["seconds"] / fan["rounds"]
        lines.append(Line(f"  … 200 × 1,000 day, {options.workers} proc.",
                          f"{projected_fan:,.1f} s", f"target ≤ {TARGET_DAY_SECONDS:g} s",
                          projected_fan <= TARGET_DAY_SECONDS,
                          f"{result_b['seconds'] / fan['seconds']:.2f}× over one process"
                          + scaled))
    ratio = result_b["peak_rss_mb"] / replays["A"]["peak_rss_mb"]
    lines.append(Line("peak RSS B / A", f"{ratio:.2f}×", "flat (≤ 1.2×)", ratio <= 1.2,
                      f"{replays['A']['peak_rss_mb']:,.0f} MB → "
                      f"{result_b['peak_rss_mb']:,.0f} MB for "
                      f"{result_b['rounds'] / replays['A']['rounds']:.1f}× the rounds"))
    lines.append(Line("findings = injected", "yes" if matched else "NO", "equal", matched,
                      f"A {day_a.injected_total:,}, B {day_b.injected_total:,} dealer errors"
                      + (", also with the fan-out" if fan is not None else "")))
    for day in (day_a, day_b):
        lines.append(Line(f"DB read alone (day {day.label})",
                          f"{rates(reads[day.label])[0]:,.0f} ev/s",
                          note="iter_round_events, row decode included"))
    lines.append(Line("verify in memory (1 core)", f"{engine['events'] / verify_seconds:,.0f} ev/s",
                      note="verify_round: from_payload + tables.rules.replay, no DB"))
    loads = "/".join(f"{load:.1f}" for load in os.getloadavg())
    print(f"\nSummary (replay bench, {time.perf_counter() - started:.0f} s, "
          f"{os.cpu_count()} CPUs, load average now {loads})")
    for line in lines:
        print(line.render())
    return 0 if matched else 1


if __name__ == "__main__":
    sys.exit(main())
