"""Per-game replay bench: a simulated day of every game in the registry, from PostgreSQL.

``python -m bench.games`` (or ``python -m bench --only games``) creates the
database ``pitboss_bench_games`` on the server of ``DATABASE_URL`` (dropping a
leftover one first), migrates it and, for **every game of the engine's
registry** (a new game module is benched with no edit here), takes its latest
rule set and two gaming days in force: one with ``--tables-small`` (50) tables
and one with ``--tables-large`` (200), ``--rounds`` (40) rounds per table each,
simulated by the game's own simulator (dealer errors 2 %, irregularities 1 %)
and appended with ``append_many`` (500 rounds per commit, no read models).

Each day is then replayed and verified from the ledger in a fresh interpreter
(``tables.verification.replay_rounds``: read, decode, replay, compare the
dealer's actions with the required settlement). Printed per game: rounds,
events, events/s and rounds/s of the large day, the ratio of its rounds/s to
Criss-Cross's in the same run (target: none below 0.8), peak RSS of the small
and the large day's replay (target: flat, the large one at most 1.25 × the
small one), and whether replay found exactly the injected dealer errors.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime
import json
import os
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from bench.ledger import DEFAULT_URL, bench_url, conninfo, recreate_database
from bench.replay import PROJECT_ROOT, RESULT_PREFIX, _peak_rss_mb, setup_django, worker_replay

BENCH_DATABASE = "pitboss_bench_games"
REFERENCE = "criss_cross_poker"
TARGET_RATIO = 0.8
FLAT = 1.25  # the large day's peak RSS over the small day's
UNDATED = datetime.date(2026, 3, 2)  # a rule set in force whatever the day (Double Cross)


@dataclass
class GameDays:
    game: str
    ruleset_id: str
    days: dict[str, datetime.date]  # "small" / "large" → gaming day
    injected: dict[str, dict[str, int]] = field(default_factory=dict)
    replayed: dict[str, dict[str, Any]] = field(default_factory=dict)


def plan_games(only: frozenset[str] = frozenset()) -> list[GameDays]:
    """Every registry game (Criss-Cross first), or those in ``only`` beside Criss-Cross,
    with its latest rule set and two free days in force."""
    from tables.rules.registry import game_ids
    from tables.rules.rulesets import RULESETS

    used: set[datetime.date] = set()
    planned = []
    chosen = [game for game in game_ids() if not only or game in only or game == REFERENCE]
    for game in sorted(chosen, key=lambda name: (name != REFERENCE, name)):
        ruleset = max((r for r in RULESETS.values() if r.game == game),
                      key=lambda r: r.effective_from or datetime.date.min)  # fmt: skip
        day = ruleset.effective_from or UNDATED
        days = {}
        for size in ("small", "large"):
            while day in used or not ruleset.in_force(day):
                day += datetime.timedelta(days=1)
            used.add(day)
            days[size] = day
        planned.append(GameDays(game, ruleset.id, days))
    return planned


def load(game: GameDays, tables: dict[str, int], rounds: int, seed: int) -> None:
    from tables.simulation import TablePlan, simulate_gaming_day

    prefix = "".join(word[0] for word in game.game.split("_")).upper()
    for size, day in game.days.items():
        plans = [TablePlan(f"{prefix}-{n:03d}", game.ruleset_id) for n in range(tables[size])]
        started = time.perf_counter()
        summary = simulate_gaming_day(plans, day, rounds_per_table=rounds, seed=seed,
                                      dealer_error_percent=2, irregularity_percent=1,
                                      rounds_per_commit=500, project=False)  # fmt: skip
        seconds = time.perf_counter() - started
        game.injected[size] = dict(Counter(one.expected_finding.value
                                           for _, one in summary.injected))  # fmt: skip
        print(f"  {game.game:<22} {size:<5} {day}: {summary.rounds:>7,} rounds, "
              f"{summary.events:>9,} events loaded in {seconds:6.1f} s", flush=True)


def worker_main(argv: list[str]) -> int:
    day = datetime.date.fromisoformat(argv[0])
    setup_django(os.environ["DATABASE_URL"], migrate=False)
    from django.db import connection

    connection.ensure_connection()  # the connect is not part of any figure
    result = worker_replay(day)
    result["peak_rss_mb"] = _peak_rss_mb()
    print(RESULT_PREFIX + json.dumps(result), flush=True)
    return 0


def run_worker(url: str, day: datetime.date) -> dict[str, Any]:
    env = {**os.environ, "DATABASE_URL": url, "LEDGER_PROJECT_ON_APPEND": "0"}
    done = subprocess.run(  # noqa: S603
        [sys.executable, "-m", "bench.games", "--worker", str(day)], cwd=PROJECT_ROOT, env=env,
        capture_output=True, text=True, check=False)  # fmt: skip
    for line in done.stdout.splitlines():
        if line.startswith(RESULT_PREFIX):
            return dict(json.loads(line[len(RESULT_PREFIX) :]))
    raise RuntimeError(f"replay of {day} exited with {done.returncode}:\n{done.stderr[-3000:]}")


def report(games: list[GameDays], tables: dict[str, int]) -> bool:
    """The table; whether every target is met."""
    reference = next(g for g in games if g.game == REFERENCE).replayed["large"]
    reference_rps = reference["rounds"] / reference["seconds"]
    print(f"\n{'game':<22} {'rule set':<16} {'rounds':>7} {'events':>9} {'ev/s':>9} {'µs/ev':>6} "
          f"{'cpu µs/ev':>9} "
          f"{'rounds/s':>9} {'× CC':>6} {'RSS ' + str(tables['small']):>8} "
          f"{'RSS ' + str(tables['large']):>8} {'flat':>5}  findings")
    ok = True
    for game in games:
        large, small = game.replayed["large"], game.replayed["small"]
        rps, eps = large["rounds"] / large["seconds"], large["events"] / large["seconds"]
        ratio, growth = rps / reference_rps, large["peak_rss_mb"] / small["peak_rss_mb"]
        exact = all(game.replayed[s]["findings"] == game.injected[s]
                    and not game.replayed[s]["refused"] for s in game.days)  # fmt: skip
        passed = ratio >= TARGET_RATIO and growth <= FLAT and exact
        ok = ok and passed
        print(f"{game.game:<22} {game.ruleset_id:<16} {large['rounds']:>7,} "
              f"{large['events']:>9,} {eps:>9,.0f} {1e6 / eps:>6.2f} "
              f"{1e6 * large['cpu_seconds'] / large['events']:>9.2f} {rps:>9,.0f} {ratio:>6.2f} "
              f"{small['peak_rss_mb']:>6,.0f}MB {large['peak_rss_mb']:>6,.0f}MB {growth:>5.2f}  "
              f"{'exact' if exact else 'DIFFER'}  {'PASS' if passed else 'SHORT'}", flush=True)
    print(f"\nTargets: rounds/s ≥ {TARGET_RATIO} × Criss-Cross's in the same run; peak RSS of "
          f"{tables['large']} tables ≤ {FLAT} × that of {tables['small']}; replay finds exactly "
          "the injected errors.")
    return ok


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--worker"]:
        return worker_main(argv[1:])
    parser = argparse.ArgumentParser(prog="python -m bench.games",
                                     description=__doc__.splitlines()[0])  # fmt: skip
    parser.add_argument("--tables-small", type=int, default=50)
    parser.add_argument("--tables-large", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=40, help="rounds per table (default 40)")
    parser.add_argument("--seed", type=int, default=589)
    parser.add_argument("--keep", action="store_true", help="keep the bench database at the end")
    parser.add_argument("--games", default="",
                        help="comma-separated game ids benched beside Criss-Cross (default: all)")
    parser.add_argument("--database", default=BENCH_DATABASE,
                        help=f"its database, dropped and recreated (default {BENCH_DATABASE})")
    options = parser.parse_args(argv)
    database = options.database
    base_url = os.environ.get("DATABASE_URL") or DEFAULT_URL
    if urlsplit(base_url).path.lstrip("/") == database:
        parser.error(f"DATABASE_URL already names {database}; point it at another one")
    url = bench_url(base_url, database)
    recreate_database(base_url, database)
    info = conninfo(url)
    print(f"games bench on database {database!r} at {info['host']}:{info['port']}; "
          f"{os.cpu_count()} CPUs, load average "
          + "/".join(f"{load:.1f}" for load in os.getloadavg()))
    try:
        setup_django(url, migrate=True)
        games = plan_games(frozenset(filter(None, options.games.split(","))))
        tables = {"small": options.tables_small, "large": options.tables_large}
        print(f"1. load: {len(games)} games × ({options.tables_small} + {options.tables_large} "
              f"tables) × {options.rounds} rounds")
        for game in games:
            load(game, tables, options.rounds, options.seed)
        print("2. replay-verify each day from PostgreSQL, each in a fresh interpreter")
        for game in games:
            for size, day in game.days.items():
                game.replayed[size] = run_worker(url, day)
        report(games, tables)
        return 0  # measurements, not tests: a SHORT never fails the command
    finally:
        with contextlib.suppress(Exception):
            from django.db import connections

            connections.close_all()
        if not options.keep:
            recreate_database(base_url, database, drop_only=True)


if __name__ == "__main__":
    sys.exit(main())
