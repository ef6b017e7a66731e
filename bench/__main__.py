"""``python -m bench``: run every benchmark module present.

* ``bench.ledger`` — appends, reads and the HTTP API against PostgreSQL,
  compared with raw COPY, raw psycopg and the ``eventsourcing`` library;
* ``bench.bench_evaluator`` — the hand evaluator (run only if it is there);
* ``bench.replay`` — replay-verify of simulated gaming days from PostgreSQL;
* ``bench.games`` — the same for a simulated day of every game in the registry,
  each beside Criss-Cross, at 50 and 200 tables;
* ``bench.close`` — the gaming-day close (replay, reconciliation, seal,
  export) of simulated days, stage by stage;
* ``bench.round_append`` — a 95-event round appended one event at a time
  through the ledger: the rounds service's work against one replay;
* ``bench.verify`` — ``verify_projections`` of a simulated 200-table day beside
  ``replay`` of the same day (``python -m bench.verify --help``);
* ``bench.parsheet`` — the Three Card Poker exact par sheet, cold (no database);
* ``bench.dice_parsheet`` — every dice par sheet under every reading, cold;
* ``bench.blackjack_parsheet`` — the blackjack side wagers' exact sheets, cold;
* ``bench.blackjack_edge`` — each blackjack game's optimal strategy and exact house edge, cold;
* ``bench.blackjack_replay`` — a blackjack round's replay per event beside Criss-Cross's;
* ``bench.poker`` — replay-verify of the poker room's random hands, in memory.
* ``bench.partitions`` — appends and reads on a ledger holding a year of
  gaming days beside an empty one (``python -m bench.partitions --help``).
* ``bench.meters`` — the close of a 200-table Caribbean Stud day with its
  progressive meters reconciled beside the same day without them
  (``python -m bench.meters --help``).

``python -m bench --only ledger --batches 500`` runs one of them; options
after ``--only`` that the dispatcher does not know go to the ledger bench
(see ``python -m bench.ledger --help``), the replay bench
(``python -m bench.replay --help``), the close bench
(``python -m bench.close --help``) or the round-append bench
(``python -m bench.round_append --help``). The evaluator runs with its defaults.
"""

from __future__ import annotations

import argparse
import importlib
import sys
import traceback

BENCHMARKS = (
    "ledger", "evaluator", "replay", "games", "close", "round_append", "verify", "parsheet",
    "dice_parsheet", "blackjack_parsheet", "blackjack_edge", "blackjack_replay", "poker",
    "partitions", "meters",
)  # fmt: skip
#: Benchmarks run as ``python -m bench.<name>`` in their own interpreter.
MODULES = ("replay", "games", "close", "round_append", "verify", "parsheet", "dice_parsheet",
           "blackjack_parsheet", "blackjack_edge", "blackjack_replay", "poker",
           "partitions", "meters")  # fmt: skip


def _run_evaluator() -> int:
    try:
        module = importlib.import_module("bench.bench_evaluator")
    except ModuleNotFoundError as error:
        if error.name == "bench.bench_evaluator":
            print("evaluator bench (bench/bench_evaluator.py) not present; skipped")
            return 0
        raise
    main = getattr(module, "main", None)
    if main is None:
        print("bench/bench_evaluator.py has no main(); skipped")
        return 0
    # Its main() parses sys.argv: give it none of ours, so it runs its defaults.
    saved = sys.argv
    sys.argv = [module.__file__ or "bench_evaluator"]
    try:
        return int(main() or 0)
    finally:
        sys.argv = saved


def _run_ledger(arguments: list[str]) -> int:
    from bench import ledger

    return ledger.main(arguments)


def _run_module(module: str, arguments: list[str]) -> int:
    # Its own interpreter: it sets Django up on its own database, and the
    # ledger bench may already have set Django up in this one.
    import subprocess

    return subprocess.call([sys.executable, "-m", module, *arguments])  # noqa: S603


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=BENCHMARKS, help="run one benchmark")
    options, rest = parser.parse_known_args(argv)
    if rest and options.only not in ("ledger", *MODULES):
        parser.error(f"options {rest} need --only with one of ledger, {', '.join(MODULES)}")
    chosen = [options.only] if options.only else list(BENCHMARKS)
    status = 0
    for name in chosen:
        print(f"\n{'=' * 30} {name} bench {'=' * 30}", flush=True)
        try:
            if name == "ledger":
                code = _run_ledger(rest)
            elif name in MODULES:
                code = _run_module(f"bench.{name}", rest)
            else:
                code = _run_evaluator()
        except Exception:  # one failing bench must not hide the others' figures
            traceback.print_exc()
            code = 1
        if code:
            print(f"{name} bench exited with status {code}")
        status = status or code
    return status


if __name__ == "__main__":
    sys.exit(main())
