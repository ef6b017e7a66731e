"""Poker-room replay bench: the hand machine's replay-verify of random hands, in memory.

``python -m bench.poker`` (or ``python -m bench --only poker``) plays
``--hands`` random hands of each of the demo's four tables (Hold'em with a
Bad Beat fund, Omaha Eight or Better, Seven-card Stud Eight or Better, Five-card
Draw) with a correct dealer's money events, then times
:func:`tables.rules.poker_room.replay.replay_hand` over them (best of
``--repeats``): hands/s and events/s. No database: the ledger's share is
``bench.replay``'s. The machine is shared; timings are noisy.
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from tables.rules.poker_room.replay import replay_hand
from tables.rules.poker_room.rulesets import POKER_RULESETS
from tables.rules.poker_room.simulate import random_hand


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.poker", description=__doc__)
    parser.add_argument("--hands", type=int, default=500, help="hands per table")
    parser.add_argument("--repeats", type=int, default=3)
    options = parser.parse_args(argv)
    rng = random.Random(553)
    for ruleset_id, rules in POKER_RULESETS.items():
        hands = [
            random_hand(rules, rng, ruleset_id=ruleset_id).settled()
            for _ in range(options.hands)
        ]
        events = sum(len(hand) for hand in hands)
        best = float("inf")
        for _ in range(options.repeats):
            started = time.perf_counter()
            findings = sum(len(replay_hand(hand).findings) for hand in hands)
            best = min(best, time.perf_counter() - started)
        assert findings == 0, f"{ruleset_id}: a correct dealer's hands gave {findings} findings"
        print(f"{ruleset_id:28} {len(hands):6} hands {events:8} events  "
              f"{len(hands) / best:9.0f} hands/s {events / best:10.0f} events/s")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
