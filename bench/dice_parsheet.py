"""Dice par-sheet bench: every exact dice par sheet, all readings, cold.

``python -m bench.dice_parsheet`` (or ``python -m bench --only dice_parsheet``)
times, with every cache emptied before each repetition (best of ``--repeats``),
the Props & Hops sheet under both Any Doubles readings and the High Roll Dice
sheet under every combination of its options (3 sevens x 2 threes x 3 Extra
Roll readings x 2 x 2 Millionaire Row readings), each sheet also listing every
reading's combinations. Ten dice fall in 3,003 multisets, counted with their
multinomial weights, not 6^10 throws. No database is used. Target: < 10 s.
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time

TARGET_SECONDS = 10.0


def _all_sheets() -> int:
    from tables.rules import registry
    from tables.rules.games import high_roll_dice_593 as hrd
    from tables.rules.parsheets import high_roll_dice, props_and_hops

    high_roll_dice.first_roll.cache_clear()
    high_roll_dice.count_probabilities.cache_clear()
    props_and_hops.wager_sheet.cache_clear()
    sheets = 0
    for reading in ("lose", "returned"):
        props_and_hops.parsheet(registry.ruleset("PA-585-2014"), {"any_doubles_otherwise": reading})
        sheets += 1
    ruleset = registry.ruleset("PA-593-2014")
    for seven, three, extra, nine, stake in itertools.product(
        hrd.SEVENS, hrd.THREES, hrd.EXTRA_READINGS, (False, True), (False, True)
    ):
        high_roll_dice.parsheet(ruleset, {"seven_of_a_kind": seven, "three_of_a_kind": three,
                                          "extra_roll": extra, "nine_wins_on_ten": nine,
                                          "millionaire_includes_stake": stake})  # fmt: skip
        sheets += 1
    return sheets


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.dice_parsheet", description=__doc__)
    parser.add_argument("--repeats", type=int, default=3)
    options = parser.parse_args(argv)
    best, sheets = float("inf"), 0
    for _ in range(options.repeats):
        started = time.perf_counter()
        sheets = _all_sheets()
        best = min(best, time.perf_counter() - started)
    verdict = "ok" if best < TARGET_SECONDS else "OVER TARGET"
    print(f"dice par sheets: {sheets} sheets (every reading), best of {options.repeats}: "
          f"{best:.3f} s (target < {TARGET_SECONDS:.0f} s) {verdict}")  # fmt: skip
    return 0 if best < TARGET_SECONDS else 1


if __name__ == "__main__":
    sys.exit(main())
