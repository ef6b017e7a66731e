"""Read-model check bench: ``verify_projections`` of a gaming day beside
replaying it, in one run.

``python -m bench.verify`` (or ``python -m bench --only verify``) creates the
database ``pitboss_bench_verify`` on the server of ``DATABASE_URL`` (dropping
a leftover one first), migrates it, configures the close bench's casino
(``--tables`` tables, 3/4 Criss-Cross, 1/4 Double Cross; their configuration
imported into the ledger as ``migrate`` does) and records whole table days
of ``--rounds`` rounds each with ``tables.simulation.simulate_table_days``
(dealer errors 2 %, irregularities 1 %), then brings every read model up to
date (``run_all``) and vacuums and analyses, none of it timed.

Then, each in a fresh interpreter, as a user runs them:

1. ``manage.py replay --gaming-day D --workers 1`` (the replay bench's
   single-process figure) and ``--workers 2``;
2. ``manage.py verify_projections --gaming-day D --workers 1`` and
   ``--workers 2``: every projection of the day recomputed into shadow tables
   and compared (with 2, in parts by table, each in a process of its own),
   the configuration history checked, the outcome recorded in the ledger;
3. the same with 2 workers after one round's recorded payment is raised by
   $1,000 in the database (exit status 1, the round named).

Printed with each check's time over replay's with as many processes, and the
same for CPU seconds (the steadier figure on a shared machine).

``--keep`` keeps the database; ``--reuse`` reuses a kept one (same sizes).
"""

from __future__ import annotations

import argparse
import datetime
import os
import re
import resource
import subprocess
import sys
import time
from pathlib import Path

from bench.ledger import DEFAULT_URL, bench_url, recreate_database
from bench.replay import Day, setup_django

BENCH_DATABASE = "pitboss_bench_verify"
PROJECT_ROOT = Path(__file__).resolve().parent.parent
DAY = datetime.date(2026, 2, 11)
REPLAYED = re.compile(r"Replayed ([\d,]+) rounds, ([\d,]+) events in ([\d.]+) s")
VERIFIED = re.compile(r"over gaming day \S+, (\d+) events replayed in ([\d.]+) s")


def load(url: str, tables: int, rounds: int) -> Day:
    setup_django(url, migrate=True)
    from bench.close import load_day, project_all, setup_casino, vacuum_analyze
    from tables.configuration import import_history

    setup_casino(tables)
    import_history()
    day = Day("D", DAY, tables, rounds)
    load_day(day, seed=11)
    project_all("day D")
    vacuum_analyze()
    return day


def _cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def _command(url: str, *args: str) -> tuple[float, float, int, str]:
    """Wall seconds, CPU seconds (the command and the processes it forked:
    on a shared machine the steadier figure), exit status, output."""
    env = {**os.environ, "DATABASE_URL": url, "LEDGER_PROJECT_ON_APPEND": "0"}
    command = [sys.executable, "manage.py", *args, "--no-progress", "--skip-checks"]
    started, cpu = time.perf_counter(), _cpu()
    done = subprocess.run(command, cwd=PROJECT_ROOT, env=env, capture_output=True,  # noqa: S603
                          text=True, check=False)  # fmt: skip
    return (time.perf_counter() - started, _cpu() - cpu, done.returncode,
            done.stdout + done.stderr)  # fmt: skip


def tamper(url: str, cents: int) -> str:
    """One round's recorded payment raised by ``cents``, as an insider would
    (lowered back by the same call with ``-cents``)."""
    import psycopg

    from bench.ledger import conninfo

    with psycopg.connect(**conninfo(url), autocommit=True) as connection:
        row = connection.execute("SELECT stream_id FROM tables_round WHERE gaming_day = %s "
                                 "ORDER BY stream_id LIMIT 1", [DAY]).fetchone()  # fmt: skip
        connection.execute("UPDATE tables_round SET recorded_paid_cents = recorded_paid_cents "
                           "+ %s WHERE stream_id = %s", [cents, row[0]])  # fmt: skip
    return row[0]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.verify",
                                     description=__doc__.splitlines()[0])  # fmt: skip
    parser.add_argument("--url", default=os.environ.get("DATABASE_URL", DEFAULT_URL))
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=25, help="rounds per table")
    parser.add_argument("--repeats", type=int, default=3,
                        help="runs of each command, alternating; the fastest is shown "
                        "(the machine is shared)")  # fmt: skip
    parser.add_argument("--database", default=BENCH_DATABASE,
                        help="the bench's database (dropped and created)")  # fmt: skip
    parser.add_argument("--keep", action="store_true")
    parser.add_argument("--reuse", action="store_true")
    options = parser.parse_args(argv)
    url = bench_url(options.url, options.database)
    if not options.reuse:
        recreate_database(options.url, options.database)
        print(f"loading {options.tables} tables × {options.rounds} rounds on {DAY} …",
              flush=True)  # fmt: skip
        load(url, options.tables, options.rounds)
    day = DAY.isoformat()
    runs: dict[str, list[tuple[float, float, float, str]]] = {}
    for _ in range(options.repeats):
        for label, args in (
            ("replay, 1 process", ("replay", "--gaming-day", day, "--workers", "1")),
            ("replay, 2 processes", ("replay", "--gaming-day", day, "--workers", "2")),
            ("verify_projections, 1 process",
             ("verify_projections", "--gaming-day", day, "--workers", "1")),
            ("verify_projections, 2 processes",
             ("verify_projections", "--gaming-day", day, "--workers", "2")),
        ):
            seconds, cpu, code, out = _command(url, *args)
            replayed, verified = REPLAYED.search(out), VERIFIED.search(out)
            if code or not (replayed or verified):
                print(f"{label} failed ({code}):\n{out[-3000:]}")
                return 1
            match = replayed or verified
            events, inside = ((match[2], float(match[3])) if replayed
                              else (match[1], float(match[2])))  # fmt: skip
            runs.setdefault(label, []).append((seconds, inside, cpu, events))
    figures = [(label, *min(found, key=lambda run: run[1])) for label, found in runs.items()]
    stream = tamper(url, 100_000)
    seconds, cpu, code, out = _command(url, "verify_projections", "--gaming-day", day,
                                       "--workers", "2")  # fmt: skip
    tamper(url, -100_000)
    named = [line for line in out.splitlines() if line.startswith("DIFFERS")]
    forged = VERIFIED.search(out)
    figures.append(("verify_projections, 2, 1 round forged", seconds,
                    float(forged[2]) if forged else 0.0, cpu, f"exit {code}"))  # fmt: skip
    print(f"\n{'':38} {'wall s':>8} {'its own s':>10} {'CPU s':>7}  events")
    for label, seconds, inside, cpu, events in figures:
        print(f"{label:38} {seconds:8.2f} {inside:10.2f} {cpu:7.2f}  {events}")
    print("(wall: the command's process from start to exit, Django's start included; its own: "
          "the time the command reports for its work; CPU: user + system seconds of the "
          "command and the processes it forked, Django's start included, PostgreSQL's not; "
          f"load average {'/'.join(f'{load:.1f}' for load in os.getloadavg())})")
    own = {label: inside for label, _, inside, _, _ in figures}
    cpus = {label: cpu for label, _, _, cpu, _ in figures}
    print("\nverify_projections ÷ replay, their own times:")
    for processes in ("1 process", "2 processes"):
        print(f"  {processes:12} {own[f'verify_projections, {processes}']:6.2f} s ÷ "
              f"{own[f'replay, {processes}']:6.2f} s = "
              f"{own[f'verify_projections, {processes}'] / own[f'replay, {processes}']:.2f}")
    print(f"  2 processes' verify ÷ 1 process's replay: "
          f"{own['verify_projections, 2 processes'] / own['replay, 1 process']:.2f}")
    print("verify_projections ÷ replay, CPU seconds:")
    for processes in ("1 process", "2 processes"):
        print(f"  {processes:12} {cpus[f'verify_projections, {processes}']:6.2f} s ÷ "
              f"{cpus[f'replay, {processes}']:6.2f} s = "
              f"{cpus[f'verify_projections, {processes}'] / cpus[f'replay, {processes}']:.2f}")
    print("\n".join(named) or f"NOT NAMED: {stream}")
    if not options.keep and not options.reuse:
        recreate_database(options.url, options.database, drop_only=True)
    return 0 if code == 1 and named else 1


if __name__ == "__main__":
    sys.exit(main())
