"""Poker-room replay bench: a hand's replay-verify beside a Criss-Cross round's, and memory
over a day of 50 and of 200 tables.

``python -m bench.poker`` (or ``python -m bench --only poker``):

1. plays ``--hands`` random hands of each of the demo's four tables (Hold'em with a
   Bad Beat fund, Omaha Eight or Better, Seven-card Stud Eight or Better, Five-card
   Draw) with a correct dealer's money events, and as many Criss-Cross rounds (674a,
   the simulator's), stores each as the ledger's records, then times decoding the
   records and replaying (:func:`tables.rules.poker_room.replay.replay_hand`,
   :func:`tables.rules.replay.replay`: every step, the settlement and the findings),
   the tables in turn, best of ``--repeats``: hands/s, events/s and the cost per
   event against Criss-Cross's, in one interpreter;
2. replays a day of ``--day-hands`` hands at each of 50 and then of 200 tables, the
   hands made and replayed one at a time as the close reads a day, and prints the
   peak of Python's allocations (``tracemalloc``) for each: flat means a day's size
   does not grow what replay holds.

No database: the ledger's share is ``bench.replay``'s. The machine is shared; timings
are noisy, the ratios the steadier figure.
"""

from __future__ import annotations

import argparse
import itertools
import random
import sys
import time
import tracemalloc
from collections.abc import Callable, Iterator

from tables.rules.events import event_from_record, event_to_record
from tables.rules.poker_room.events import poker_event_from_record
from tables.rules.poker_room.replay import replay_hand
from tables.rules.poker_room.rulesets import POKER_RULESETS
from tables.rules.poker_room.simulate import random_hand

CRISS_CROSS = "PA-674a-2019"
Records = list[list[dict]]


def _poker_hand(ruleset_id: str, rng: random.Random) -> list[dict]:
    hand = random_hand(POKER_RULESETS[ruleset_id], rng, ruleset_id=ruleset_id).settled()
    return [event_to_record(event) for event in hand]


def _criss_cross_rounds(rng: random.Random) -> Iterator[list[dict]]:
    from tables.rules.rulesets import get_ruleset
    from tables.rules.simulate import simulate_criss_cross

    ruleset = get_ruleset(CRISS_CROSS)
    while True:
        yield [event_to_record(event) for event in simulate_criss_cross(rng, ruleset).events]


def _replay_poker(records: list[dict]) -> int:
    return len(replay_hand([poker_event_from_record(r) for r in records]).findings)


def _replay_criss_cross(records: list[dict]) -> int:
    from tables.rules.replay import replay

    return len(replay([event_from_record(r) for r in records]).findings)


def _tables(hands: int) -> dict[str, tuple[Records, Callable[[list[dict]], int]]]:
    rng = random.Random(553)
    tables = {ruleset_id: ([_poker_hand(ruleset_id, rng) for _ in range(hands)], _replay_poker)
              for ruleset_id in POKER_RULESETS}  # fmt: skip
    tables[f"Criss-Cross {CRISS_CROSS}"] = (
        list(itertools.islice(_criss_cross_rounds(random.Random(674)), hands)),
        _replay_criss_cross,
    )
    return tables


def _day_peak(tables: int, hands: int) -> tuple[int, int, int]:
    """Hands, events and the peak of Python's allocations replaying a day of
    ``tables`` poker tables (the demo's four rule sets in turn), each hand made
    and replayed in turn, only its findings' count kept."""
    rng = random.Random(tables)
    ids = list(POKER_RULESETS)
    played = events = findings = 0
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        for _ in range(hands):
            for table in range(tables):
                records = _poker_hand(ids[table % len(ids)], rng)
                findings += _replay_poker(records)
                played, events = played + 1, events + len(records)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert findings == 0, f"a correct dealer's hands gave {findings} findings"
    return played, events, peak


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.poker", description=__doc__)
    parser.add_argument("--hands", type=int, default=500, help="hands per table")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--day-hands", type=int, default=10,
                        help="hands per table in the memory day")  # fmt: skip
    options = parser.parse_args(argv)
    tables = _tables(options.hands)
    best = dict.fromkeys(tables, float("inf"))
    for _ in range(options.repeats):  # the tables in turn, so a busy spell hits them all
        for name, (records, replay) in tables.items():
            started = time.perf_counter()
            findings = sum(replay(hand) for hand in records)
            best[name] = min(best[name], time.perf_counter() - started)
            assert findings == 0, f"{name}: a correct dealer's hands gave {findings} findings"
    base_name = f"Criss-Cross {CRISS_CROSS}"
    base = best[base_name] / sum(map(len, tables[base_name][0]))
    print(f"{'':28} {'hands':>6} {'events':>8} {'hands/s':>9} {'events/s':>10} "
          f"{'µs/event':>9}  × Criss-Cross")  # fmt: skip
    for name, (records, _) in tables.items():
        events = sum(map(len, records))
        per_event = best[name] / events
        rate = len(records) / best[name], events / best[name]
        print(f"{name:28} {len(records):6} {events:8} {rate[0]:9.0f} {rate[1]:10.0f} "
              f"{per_event * 1e6:9.1f}  {per_event / base:5.2f}")  # fmt: skip
    print("\nmemory over a day, each hand made and replayed in turn (tracemalloc peak):")
    peaks = []
    for count in (50, 200):
        hands, events, peak = _day_peak(count, options.day_hands)
        peaks.append(peak)
        print(f"  {count:3} tables × {options.day_hands} hands: {hands:5} hands, "
              f"{events:7} events, peak {peak / 2**20:6.2f} MiB")  # fmt: skip
    print(f"  200 tables ÷ 50 tables: {peaks[1] / peaks[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
