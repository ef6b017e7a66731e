"""Partitioned-ledger bench: appends and reads on a ledger holding a year of
gaming days beside an empty one, and a month per partition beside a day.

``python -m bench.partitions`` (or ``python -m bench --only partitions``)
makes three databases on the server of ``DATABASE_URL`` and migrates them:

* ``empty``: the ledger as migrated (its partitions: lasting, default, this
  month and the next);
* ``year``: the same plus ``--days`` past gaming days (365), each of
  ``--rounds`` streams (8) of ``--events`` events (20), recorded inside its
  own day (the ledger's clock, ``audit.clock.recording_at``), one
  ``append_many`` per day: a partition per month, as ``ensure_partitions``
  makes them (``LEDGER_PARTITION_MONTHS`` = 1);
* ``daily``: the same year in a partition per day (made by the bench), the
  alternative ``audit.partitions`` did not take.

Then, interleaved over ``--runs`` rounds (the machine is shared: interleaving
keeps ratios fair), on each database: ``append`` of 40 events starting a new
stream (a round); ``append`` of 40 more to it; ``read_stream`` of it;
``read_stream`` of the oldest stream; ``read_all`` of the last 500 positions
(a projection catching up). Each figure is the median over ``--samples``
operations per round, then the median over rounds; printed with its ratio to
the empty ledger's.

``--keep`` keeps the databases; ``--reuse`` reuses kept ones.
"""

from __future__ import annotations

import argparse
import datetime
import os
import statistics
import sys
import time
from collections.abc import Callable

from bench.ledger import DEFAULT_URL, bench_url, make_batches, recreate_database, setup_django

NAMES = {"empty": "pitboss_bench_part_empty", "year": "pitboss_bench_part_year",
         "daily": "pitboss_bench_part_daily"}  # fmt: skip
OPERATIONS = ("append, new stream", "append, existing stream", "read_stream, new",
              "read_stream, oldest", "read_all, last 500")  # fmt: skip


def use(name: str) -> None:
    """Point Django's connection at another bench database."""
    from django.db import connection

    connection.close()
    connection.settings_dict["NAME"] = name


def year_range(days: int) -> tuple[datetime.date, datetime.date]:
    """``days`` gaming days ending before this month (whose partition the
    migration made whole), so a day per partition does not overlap it."""
    last = datetime.date.today().replace(day=1) - datetime.timedelta(days=1)
    return last - datetime.timedelta(days=days - 1), last


def daily_partitions(first: datetime.date, last: datetime.date) -> None:
    from django.db import connection

    from audit.partitions import append_only

    with connection.cursor() as cursor:
        day = first
        while day <= last:
            name = f"ledger_event_p{day:%Y%m%d}"
            cursor.execute(f"CREATE TABLE {name} PARTITION OF ledger_event FOR VALUES FROM "
                           f"('{day}') TO ('{day + datetime.timedelta(days=1)}')")  # fmt: skip
            append_only(cursor, name)
            day += datetime.timedelta(days=1)


def load_year(days: int, rounds: int, events: int, *, daily: bool) -> int:
    from django.db import connection

    from audit import clock
    from audit.ledger import Actor, NewEvent, StreamBatch, append_many
    from audit.partitions import ensure_partitions
    from bench.ledger import EVENT_TYPE

    first, last = year_range(days)
    if daily:
        daily_partitions(first, last)
    else:
        ensure_partitions(first, last)
    payloads = [batch[:events] for batch in make_batches(rounds, seed=16)]
    actor = Actor.system("bench")
    total = 0
    day = first
    while day <= last:
        noon = datetime.datetime.combine(day, datetime.time(12), tzinfo=datetime.UTC)
        with clock.recording_at(noon):
            append_many([StreamBatch(f"bench:{day}-{n}", [NewEvent(EVENT_TYPE, p) for p in b], 0)
                         for n, b in enumerate(payloads)], actor=actor)  # fmt: skip
        total += rounds * events
        day += datetime.timedelta(days=1)
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE ledger_event")
    return total


def measure(samples: int, tag: str) -> dict[str, float]:
    """One round of every operation on the current database: medians, ms."""
    from audit.ledger import Actor, NewEvent, append, head_position, read_all, read_stream
    from bench.ledger import EVENT_TYPE

    actor = Actor.system("bench")
    batches = make_batches(2, seed=7)
    events = [[NewEvent(EVENT_TYPE, p) for p in batch] for batch in batches]
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT stream_id FROM ledger_event ORDER BY position LIMIT 1")
        row = cursor.fetchone()
    oldest = row[0] if row else None
    times: dict[str, list[float]] = {name: [] for name in OPERATIONS}

    def timed(name: str, operation: Callable[[], object]) -> None:
        started = time.perf_counter()
        operation()
        times[name].append((time.perf_counter() - started) * 1000)

    for n in range(samples):
        stream = f"bench:m-{tag}-{n}-{os.getpid()}-{time.monotonic_ns()}"
        timed(OPERATIONS[0], lambda s=stream: append(s, events[0], expected_version=0,
                                                     actor=actor))  # fmt: skip
        timed(OPERATIONS[1], lambda s=stream: append(s, events[1], expected_version=40,
                                                     actor=actor))  # fmt: skip
        timed(OPERATIONS[2], lambda s=stream: read_stream(s))
        timed(OPERATIONS[3], lambda s=stream: read_stream(oldest or s))
        timed(OPERATIONS[4], lambda: read_all(after=head_position() - 500, limit=500))
    return {name: statistics.median(values) for name, values in times.items()}


def partition_count() -> int:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_inherits WHERE inhparent = 'ledger_event'::regclass"
        )
        return cursor.fetchone()[0]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.partitions",
                                     description=__doc__.splitlines()[0])  # fmt: skip
    parser.add_argument("--days", type=int, default=365)
    parser.add_argument("--rounds", type=int, default=8, help="streams per day")
    parser.add_argument("--events", type=int, default=20, help="events per stream")
    parser.add_argument("--samples", type=int, default=40, help="operations per round")
    parser.add_argument("--runs", type=int, default=5, help="interleaved rounds")
    parser.add_argument("--keep", action="store_true")
    parser.add_argument("--reuse", action="store_true")
    options = parser.parse_args(argv)
    base = os.environ.get("DATABASE_URL", DEFAULT_URL)
    if not options.reuse:
        for name in NAMES.values():
            recreate_database(base, name)
    setup_django(bench_url(base, NAMES["empty"]))
    from django.core.management import call_command

    if not options.reuse:
        for label in ("year", "daily"):
            use(NAMES[label])
            call_command("migrate", verbosity=0, interactive=False)
            started = time.perf_counter()
            total = load_year(options.days, options.rounds, options.events,
                              daily=label == "daily")  # fmt: skip
            print(
                f"{label}: {total:,} events over {options.days} days loaded in "
                f"{time.perf_counter() - started:.0f} s",
                flush=True,
            )
    counts = {}
    for label, name in NAMES.items():
        use(name)
        counts[label] = partition_count()
    print(f"load average at start: {os.getloadavg()[0]:.2f} (2 CPUs, shared: timings are noisy)")
    rounds: dict[str, list[dict[str, float]]] = {label: [] for label in NAMES}
    for run in range(options.runs):
        for label, name in NAMES.items():
            use(name)
            rounds[label].append(measure(options.samples, f"{label}{run}"))
    print(f"load average at end: {os.getloadavg()[0]:.2f}")
    figures = {label: {op: statistics.median(r[op] for r in runs) for op in OPERATIONS}
               for label, runs in rounds.items()}  # fmt: skip
    header = (
        f"{'median ms per operation':28} {'empty':>8} {'year, monthly':>20} {'year, daily':>20}"
    )
    print(
        f"\npartitions: empty {counts['empty']}, year monthly {counts['year']}, "
        f"year daily {counts['daily']}\n{header}"
    )
    for op in OPERATIONS:
        empty = figures["empty"][op]
        cells = [f"{figures[label][op]:8.2f} ({figures[label][op] / empty:4.2f}×)"
                 for label in ("year", "daily")]  # fmt: skip
        print(f"{op:28} {empty:8.2f} {cells[0]:>20} {cells[1]:>20}")
    if not options.keep:
        use("postgres")
        for name in NAMES.values():
            recreate_database(base, name, drop_only=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
