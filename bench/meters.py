"""Meters bench (issue 11): a day of Caribbean Stud tables closed with its
progressive meters reconciled, beside the same day without them, in one run.

``python -m bench.meters`` (or ``python -m bench --only meters``) creates two
databases on the server of ``DATABASE_URL`` (dropping leftovers first):
``pitboss_bench_meters_without`` and ``pitboss_bench_meters_with``. The first
is migrated and given the casino (``--tables`` Caribbean Stud Poker tables,
§ 555, ``PA-555-2010``; the crew as users with their roles), then copied to
the second, so both start alike. Each then records the same gaming day in a
fresh interpreter with ``tables.simulation.simulate_table_days`` (same seed,
``--rounds`` rounds per table, dealer errors 2 %, irregularities 1 %):

* **without**: no progressive offered, no meter: the simulator's players
  never place the $1 progressive payout wager (§ 555.7(c)). They still draw
  the same random numbers (a side wager not placed consumes its draw), so
  the cards, seats and decisions are the day with them, less that wager;
* **with**: ``--meters`` meters (default 10) of ``tables / meters`` tables
  each, configured as the demo's ``CSP-PROG-1`` ($1 wager, 70 % of it,
  $10,000 initial and reset, the chapter's schedule), the players placing the
  $1 wager as the simulator does (half the seats), and each meter's day on its
  stream as the demo records it (``operations.meter_rounds.record_day``: the
  opening readings, each round's contribution and hits with their payments,
  the closing readings), so the close reconciles every meter.

The read models are brought up to date and each database vacuumed and
analysed (none of it timed). Then each day is closed in a fresh interpreter
(``close_gaming_day(day, requested_by="finance", workers=N)``, as the close
bench does, its stage times from the progress callback), without and with
alternating, ``--repeats`` times each on a fresh copy of the loaded database;
the best close of each is compared. The target: with ÷ without ≤ 1.2.
``--profile N`` also closes the day with meters under cProfile, one
profiler per stage (``bench.close``'s profile worker).
"""

from __future__ import annotations

import argparse
import base64
import datetime
import functools
import json
import os
import secrets
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from bench.close import (
    CLOSE_RUNS_AFTER,
    CREW_ROLES,
    PLAY_STARTS_AFTER,
    ROUNDS_PER_COMMIT,
    STAGES,
    copy_database,
    day_bounds,
    ledger_size,
    project_all,
    revision,
    vacuum_analyze,
)
from bench.close import run_worker as run_close_worker
from bench.ledger import DEFAULT_URL, Line, bench_url, conninfo, recreate_database
from bench.replay import setup_django

BENCH_DATABASE = "pitboss_bench_meters"
PROJECT_ROOT = Path(__file__).resolve().parent.parent
DAY = datetime.date(2026, 2, 11)
GAME = "caribbean_stud_poker"
RULESET = "PA-555-2010"
RESULT_PREFIX = "BENCH-METERS-RESULT "
TARGET_RATIO = 1.2  # the close with meters ÷ the close without (issue 11, "Speed")
LABELS = ("without", "with")
#: Rounds a meter of 20 tables contributes on a history day (``--history-days``):
#: this bench's day holds about 430 a meter, some 157,000 a year.
HISTORY_ROUNDS = 430


def table_ids(count: int) -> list[str]:
    return [f"CSP-{n:03d}" for n in range(1, count + 1)]


def setup_casino(tables: int) -> None:
    """The casino, its Caribbean Stud tables and the crew."""
    from django.contrib.auth.models import Group, User

    from casino.models import Casino, Jurisdiction
    from tables.models import DealingMethod, Table

    jurisdiction, _ = Jurisdiction.objects.get_or_create(code="PA", name="Pennsylvania")
    Casino.objects.create(name="Bench casino", jurisdiction=jurisdiction)
    Table.objects.bulk_create(
        Table(table_id=table_id, ruleset_id=RULESET, game=GAME,
              dealing_method=DealingMethod.MANUAL_SHOE, min_wager_cents=500,
              max_wager_cents=50_000)
        for table_id in table_ids(tables))  # fmt: skip
    for username, role in CREW_ROLES.items():
        User.objects.create_user(username=username).groups.add(Group.objects.get(name=role))


# --- workers (fresh interpreters) -----------------------------------------------------------


def _without_progressive() -> None:
    """Caribbean Stud players who never place the progressive wager: the declared
    simulator with no side wagers (the game has one), its draws unchanged."""
    import tables.simulation
    from tables.rules.simulate_declared import Play, simulate_declared

    chosen = tables.simulation.simulator_for
    quiet = functools.partial(simulate_declared, play=Play(side_wager_percent=0))
    tables.simulation.simulator_for = lambda game: quiet if game == GAME else chosen(game)


def _configure_meters(tables: list[str], meters: int, history_days: int = 0) -> list[str]:
    """``meters`` meters, the tables shared out in order, configured as the demo's
    ``CSP-PROG-1`` (§ 555.13(d)-(e)) from the start of the day ``history_days`` before."""
    from audit import clock
    from audit.ledger import Actor
    from progressives import service
    from tables.rules.progressives.chapters import CARIBBEAN_STUD_555
    from tables.rules.progressives.events import MeterConfigured, OddCents, RateBase

    supervisor = Actor.system("supervisor", source="bench")
    size = -(-len(tables) // meters)
    ids = []
    since = DAY - datetime.timedelta(days=history_days)
    with clock.recording_at(day_bounds(since)[0]):
        for number, first in enumerate(range(0, len(tables), size), start=1):
            meter_id = f"CSP-PROG-{number:02d}"
            service.configure(MeterConfigured(
                meter_id=meter_id, effective_from=since, chapter=CARIBBEAN_STUD_555.chapter,
                tables=tuple(tables[first:first + size]), wager_amounts_cents=(100,),
                rate_numerator=70, rate_denominator=100, rate_base=RateBase.AMOUNT_WAGERED,
                initial_cents=1_000_000, reset_cents=1_000_000,
                schedule=CARIBBEAN_STUD_555.schedule, share_rounding="round_down_to_cent",
                odd_cents=OddCents.FIRST_IN_PAYMENT_ORDER), actor=supervisor)  # fmt: skip
            ids.append(meter_id)
    return ids


def _record_history(meter_ids: list[str], days: int, per_day: int) -> int:
    """``days`` gaming days before the bench's day on each meter's stream: ``per_day``
    rounds' contributions a meter a day (1 to 3 $1 wagers each, the tables in turn),
    one batch a meter a day; then the close of the day before, untimed, which leaves
    the checkpoint the day's close starts from. Returns the events recorded."""
    import random

    from audit import clock
    from audit.ledger import Actor, NewEvent, append, head_position, read_stream
    from operations.meters import reconcile_meters
    from progressives.streams import meter_stream
    from tables.rules.progressives.events import MeterContributed

    system = Actor.system("simulator", source="simulator")
    draw = random.Random(days)
    recorded = 0
    linked = {meter_id: read_stream(meter_stream(meter_id), limit=1)[0].payload["tables"]
              for meter_id in meter_ids}  # fmt: skip
    for back in range(days, 0, -1):
        day = DAY - datetime.timedelta(days=back)
        with clock.recording_at(day_bounds(day)[1] - CLOSE_RUNS_AFTER):
            for meter_id in meter_ids:
                tables = linked[meter_id]
                events = [NewEvent(MeterContributed.TYPE, MeterContributed(
                    round_id=f"{meter_id}-{day}-{n}", table=tables[n % len(tables)],
                    gaming_day=day, wagers_cents=(100,) * draw.randint(1, 3)).to_payload())
                    for n in range(per_day)]  # fmt: skip
                append(meter_stream(meter_id), events, expected_version=None, actor=system)
                recorded += len(events)
    reconcile_meters(DAY - datetime.timedelta(days=1), head_position(), {}, {})
    return recorded


def worker_load(tables: int, rounds: int, meters: int, seed: int,
                history_days: int = 0) -> dict[str, Any]:  # fmt: skip
    from audit import clock
    from audit.ledger import Actor
    from operations.meter_rounds import record_day
    from tables.simulation import TablePlan, simulate_table_days

    start, end = day_bounds(DAY)
    ids = table_ids(tables)
    meter_ids = _configure_meters(ids, meters, history_days) if meters else []
    began = time.perf_counter()
    history = _record_history(meter_ids, history_days, HISTORY_ROUNDS) if history_days else 0
    history_seconds = time.perf_counter() - began
    if not meters:
        _without_progressive()
    before = ledger_size()
    began = time.perf_counter()
    with clock.recording_at(start + PLAY_STARTS_AFTER):
        summary = simulate_table_days(
            [TablePlan(table_id, RULESET) for table_id in ids], DAY, rounds_per_table=rounds,
            seed=seed, dealer_error_percent=2, irregularity_percent=1,
            rounds_per_commit=ROUNDS_PER_COMMIT, project=False)  # fmt: skip
    played = time.perf_counter() - began
    play_events = ledger_size() - before
    began = time.perf_counter()
    for meter_id in meter_ids:
        with clock.recording_at(end - CLOSE_RUNS_AFTER):
            record_day(meter_id, DAY, actor=Actor.system("simulator", source="simulator"),
                       validated_by="floor")  # fmt: skip
    metered = time.perf_counter() - began
    project_seconds = project_all("read models (not part of the close)")
    vacuum_analyze()
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*), coalesce(sum((payload->>'amount_cents')::bigint), "
                       "0)::bigint FROM ledger_event WHERE event_type = 'round.wager_placed' "
                       "AND payload->>'wager' = 'PROGRESSIVE'")  # fmt: skip
        wagers, wagered = cursor.fetchone()
    return {
        "rounds": summary.rounds, "play_events": play_events,
        "meter_events": ledger_size() - before - play_events, "play_seconds": played,
        "history_events": history, "history_seconds": history_seconds,
        "meter_seconds": metered, "project_seconds": project_seconds, "meters": len(meter_ids),
        "progressive_wagers": wagers, "progressive_cents": wagered,
        "injected": dict(Counter(one.expected_finding.value for _, one in summary.injected)),
    }


def worker_close(workers: int) -> dict[str, Any]:
    """The close bench's close of the day, with ``reconcile_meters`` timed and the
    meters the close reconciled (its ``close.reconciled`` event)."""
    import bench.close
    import operations.close
    from audit.ledger import read_stream
    from operations.close import close_stream_id

    timed = bench.close.Timed()
    timed.wrap(operations.close, "reconcile_meters", "reconcile_meters")
    result = bench.close.worker_close(DAY, workers)
    result["reconcile_meters_seconds"] = sum(seconds for _, seconds in timed.calls)
    reconciled = next((e.payload for e in read_stream(close_stream_id(DAY))
                       if e.event_type == "close.reconciled"), {})  # fmt: skip
    result["meters"] = reconciled.get("meters", [])
    result["meter_fold"] = _time_meter_fold() if result["meters"] else {}
    return result


def _time_meter_fold() -> dict[str, float]:
    """``reconcile_meters`` of the day closed again, after the close, from the
    checkpoint the day before's close left and from each meter's first event."""
    from audit.ledger import head_position
    from operations.meters import reconcile_meters

    timings = {}
    for label, checkpoints in (("checkpoint", True), ("whole", False)):
        began = time.perf_counter()
        reconcile_meters(DAY, head_position(), {}, {}, checkpoints=checkpoints)
        timings[label] = time.perf_counter() - began
    return timings


def worker_main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.meters --worker")
    parser.add_argument("kind", choices=("setup", "load", "close"))
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=25)
    parser.add_argument("--meters", type=int, default=0)
    parser.add_argument("--seed", type=int, default=555)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--history-days", type=int, default=0)
    options = parser.parse_args(argv)
    setup_django(os.environ["DATABASE_URL"], migrate=options.kind == "setup")
    result: dict[str, Any] = {}
    if options.kind == "setup":
        setup_casino(options.tables)
    elif options.kind == "load":
        result = worker_load(options.tables, options.rounds, options.meters, options.seed,
                             options.history_days)  # fmt: skip
    else:
        from django.db import connection

        connection.ensure_connection()  # the connect is not part of any figure
        result = worker_close(options.workers)
    print(RESULT_PREFIX + json.dumps(result), flush=True)
    return 0


def run_worker(url: str, *args: str) -> dict[str, Any]:
    env = {**os.environ, "DATABASE_URL": url, "LEDGER_PROJECT_ON_APPEND": "0"}
    done = subprocess.run([sys.executable, "-m", "bench.meters", "--worker", *args],  # noqa: S603
                          cwd=PROJECT_ROOT, env=env, capture_output=True, text=True,
                          check=False)  # fmt: skip
    for line in done.stdout.splitlines():
        if line.startswith(RESULT_PREFIX):
            return json.loads(line[len(RESULT_PREFIX):])
    raise RuntimeError(f"worker {args} exited with {done.returncode}:\n"
                       f"{done.stdout[-2000:]}{done.stderr[-4000:]}")


# --- the bench ---------------------------------------------------------------------------------


def _loads() -> str:
    return "/".join(f"{load:.1f}" for load in os.getloadavg())


def _dollars(cents: int) -> str:
    return f"${cents / 100:,.2f}"


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--worker"]:
        return worker_main(argv[1:])
    parser = argparse.ArgumentParser(prog="python -m bench.meters",
                                     description=__doc__.splitlines()[0])  # fmt: skip
    parser.add_argument("--tables", type=int, default=200, help="Caribbean Stud tables")
    parser.add_argument("--rounds", type=int, default=25, help="rounds per table")
    parser.add_argument("--meters", type=int, default=10,
                        help="meters on the day with them, the tables shared out among them")
    parser.add_argument("--workers", type=int, default=1, help="close_gaming_day(workers=N)")
    parser.add_argument("--repeats", type=int, default=5,
                        help="closes of each day, alternating, each on a fresh copy of the "
                        "loaded database; the best of each is compared")  # fmt: skip
    parser.add_argument("--profile", type=int, default=0, metavar="LINES",
                        help="also cProfile the close with meters, stage by stage")
    parser.add_argument("--seed", type=int, default=555)
    parser.add_argument("--history-days", type=int, default=0, metavar="N",
                        help=f"N days of meter history before the day ({HISTORY_ROUNDS} "
                        "rounds' contributions a meter a day) on the day with them")  # fmt: skip
    parser.add_argument("--database", default=BENCH_DATABASE,
                        help="prefix of the bench's databases (<prefix>_without, <prefix>_with)")
    parser.add_argument("--keep", action="store_true", help="keep the databases and exports")
    options = parser.parse_args(argv)
    base_url = os.environ.get("DATABASE_URL") or DEFAULT_URL
    names = {label: f"{options.database}_{label}" for label in LABELS}
    export_root = Path(tempfile.mkdtemp(prefix="pitboss-bench-meters-"))
    os.environ["EXPORT_ROOT"] = str(export_root)
    os.environ["LEDGER_SIGNING_KEY"] = base64.b64encode(secrets.token_bytes(32)).decode()
    try:
        return _run(options, base_url, names)
    finally:
        if options.keep:
            print(f"kept databases {', '.join(names.values())} (and *_loaded); exports in "
                  f"{export_root}")
        else:
            for name in names.values():
                recreate_database(base_url, name, drop_only=True)
                recreate_database(base_url, f"{name}_loaded", drop_only=True)
            shutil.rmtree(export_root, ignore_errors=True)


def _run(options: argparse.Namespace, base_url: str, names: dict[str, str]) -> int:
    began = time.perf_counter()
    urls = {label: bench_url(base_url, name) for label, name in names.items()}
    info = conninfo(urls["with"])
    print(f"meters bench on {info['host']}:{info['port']}, databases "
          f"{', '.join(names.values())}; {os.cpu_count()} CPUs, load average {_loads()}; "
          f"{revision()}\n")
    print(f"1. load: {options.tables} Caribbean Stud tables ({RULESET}) × {options.rounds} "
          f"rounds on {DAY}, the same seed on both databases (not timed as the close)")
    recreate_database(base_url, names["without"])
    run_worker(urls["without"], "setup", "--tables", str(options.tables))
    copy_database(base_url, names["without"], names["with"])
    loaded: dict[str, dict[str, Any]] = {}
    for label in LABELS:
        meters = options.meters if label == "with" else 0
        loaded[label] = day = run_worker(urls[label], "load", "--tables", str(options.tables),
                                         "--rounds", str(options.rounds), "--meters",
                                         str(meters), "--seed", str(options.seed),
                                         "--history-days",
                                         str(options.history_days if meters else 0))  # fmt: skip
        print(f"  {label:<7}: {day['rounds']:,} rounds, {day['play_events']:,} events of play "
              f"in {day['play_seconds']:.0f} s; {day['progressive_wagers']:,} progressive "
              f"wagers ({_dollars(day['progressive_cents'])}); {day['meters']} meters, "
              f"{day['meter_events']:,} meter events recorded in {day['meter_seconds']:.0f} s; "
              f"read models {day['project_seconds']:.0f} s; dealer errors injected "
              f"{sum(day['injected'].values())}"
              + (f"; history {options.history_days} days before, {day['history_events']:,} "
                 f"meter events in {day['history_seconds']:.0f} s" if day["history_events"]
                 else ""), flush=True)  # fmt: skip
    if options.repeats > 1 or options.profile or options.keep:
        for label in LABELS:
            copy_database(base_url, names[label], f"{names[label]}_loaded")

    print(f"\n2. close_gaming_day({DAY}, requested_by='finance', workers={options.workers}), "
          f"each in a fresh interpreter; without and with alternating, {options.repeats} × "
          "each on a fresh copy of the loaded database")
    closes: dict[str, list[dict[str, Any]]] = {label: [] for label in LABELS}
    for repeat in range(options.repeats):
        for label in LABELS:
            if repeat:
                copy_database(base_url, f"{names[label]}_loaded", names[label])
            result = run_worker(urls[label], "close", "--workers", str(options.workers))
            if result["error"]:
                print(f"  {label}: THE CLOSE FAILED in {result['failed_in']}: {result['error']}")
                return 1
            closes[label].append(result)
            print(f"  {label:<7} #{repeat + 1}: {result['seconds']:6.2f} s ("
                  + ", ".join(f"{stage} {seconds:.2f}" for stage, seconds in
                              result["stages"].items())
                  + f"; reconcile_meters {result['reconcile_meters_seconds']:.2f}"
                  + "".join(f", again {how} {seconds:.2f}" for how, seconds in
                            result.get("meter_fold", {}).items())
                  + "); load "
                  f"average {_loads()}",
                  flush=True)  # fmt: skip
    best = {label: min(closes[label], key=lambda r: r["seconds"]) for label in LABELS}
    without, with_ = best["without"], best["with"]

    print("\n   stage by stage, the best close of each (s)   without      with     ratio"
          "   with − without")
    for stage in (*STAGES, "total"):
        a, b = ((r["seconds"] if stage == "total" else r["stages"].get(stage, 0.0))
                for r in (without, with_))  # fmt: skip
        ratio = f"{b / a:8.2f}×" if a >= 0.01 else f"{'—':>9}"
        print(f"    {stage:<42}{a:9.2f} {b:9.2f} {ratio} {b - a:+10.2f}")
    print(f"    {'round events replayed':<42}{without['events']:9,} {with_['events']:9,}")
    print(f"    {'events sealed (the day)':<42}{without['day_events']:9,} "
          f"{with_['day_events']:9,}")
    print(f"    {'CPU s of the close process':<42}{without['cpu_seconds']:9.2f} "
          f"{with_['cpu_seconds']:9.2f} {with_['cpu_seconds'] / without['cpu_seconds']:8.2f}×")

    meters = with_["meters"]
    variances = [v for meter in meters for v in meter["variances"]]
    print(f"\n3. the meters the close reconciled: {len(meters)}, {len(variances)} variances")
    for meter in meters:
        print(f"    {meter['meter_id']}: {len(meter['tables'])} tables, opening "
              f"{_dollars(meter['opening_cents'])} + contributions "
              f"{_dollars(meter['contributions_cents'])} − payouts "
              f"{_dollars(meter['payouts_cents'])} + resets {_dollars(meter['resets_cents'])} "
              f"(fixed amounts the house paid: {_dollars(meter['house_payouts_cents'])}) "
              f"= closing {_dollars(meter['closing_cents'])}, displayed "
              + (_dollars(meter["displayed_cents"]) if meter["displayed_cents"] is not None
                 else "—") + f", {len(meter['variances'])} variances"
              + "".join(f"; {v['kind']} {v['detail']}" for v in meter["variances"]))
    matched = True
    for label in LABELS:
        found, injected = best[label]["findings"], loaded[label]["injected"]
        same = found == injected and not best[label]["refused"]
        matched = matched and same
        print(f"    {label}: replay findings {sum(found.values())} vs dealer errors injected "
              f"{sum(injected.values())}: " + ("match, kind by kind" if same else
                                               f"DIFFER: found {found}, injected {injected}"))

    if options.profile:
        scratch = f"{names['with']}_profile"
        print(f"\n4. cProfile of the close with meters (workers=1) on {scratch}, a copy of the "
              f"loaded database; top {options.profile} by own time per stage")
        copy_database(base_url, f"{names['with']}_loaded", scratch)
        try:
            profile = run_close_worker({"DATABASE_URL": bench_url(base_url, scratch)}, "profile",
                                       "--day", str(DAY), "--lines", str(options.profile))
        finally:
            recreate_database(base_url, scratch, drop_only=True)
        print(profile["text"])

    ratio = with_["seconds"] / without["seconds"]
    medians = {label: statistics.median(r["seconds"] for r in closes[label]) for label in LABELS}
    cpus = {label: min(r["cpu_seconds"] for r in closes[label]) for label in LABELS}
    spread = {label: "/".join(f"{r['seconds']:.1f}" for r in closes[label]) for label in LABELS}
    lines = [
        Line("close without meters", f"{without['seconds']:.2f} s",
             note=f"best of {spread['without']} s; {options.tables} × {options.rounds} rounds, "
             f"{without['day_events']:,} events"),
        Line("close with meters", f"{with_['seconds']:.2f} s",
             note=f"best of {spread['with']} s; {len(meters)} meters reconciled, "
             f"{with_['day_events']:,} events"),
        Line("with ÷ without", f"{ratio:.2f}×", f"≤ {TARGET_RATIO}×", ratio <= TARGET_RATIO,
             f"the best closes; medians {medians['with']:.2f} ÷ {medians['without']:.2f} s = "
             f"{medians['with'] / medians['without']:.2f}×"),
        Line("  CPU of the close process", f"{cpus['with'] / cpus['without']:.2f}×",
             note=f"{cpus['with']:.2f} ÷ {cpus['without']:.2f} s, the least of each (the "
             "steadier figure on a shared machine; PostgreSQL's not in it)"),
        Line("  the day's events", f"{with_['day_events'] / without['day_events']:.2f}×",
             note="with ÷ without: what a close costing the same per event would take"),
        Line("  reconcile_meters", f"{with_['reconcile_meters_seconds']:.2f} s",
             note=f"{100 * with_['reconcile_meters_seconds'] / with_['seconds']:.1f} % of the "
             "best close with meters"),
        *([Line("  reconcile_meters again, from the checkpoint",
                f"{with_['meter_fold']['checkpoint']:.2f} s",
                note=f"the whole streams: {with_['meter_fold']['whole']:.2f} s; "
                f"{options.history_days} days of history before the day")]
          if options.history_days else []),
        Line("meters reconciled", f"{len(meters)}", f"{options.meters}",
             len(meters) == options.meters, f"{len(variances)} variances"),
        Line("findings = injected", "yes" if matched else "NO", "equal", matched),
    ]
    print(f"\nSummary (meters bench, {time.perf_counter() - began:.0f} s, {os.cpu_count()} CPUs, "
          f"load average now {_loads()})")
    for line in lines:
        print(line.render())
    return 0 if matched else 1


if __name__ == "__main__":
    sys.exit(main())
