"""Par-sheet bench: the Three Card Poker exact par sheet, cold, against dealing every pair.

``python -m bench.parsheet`` (or ``python -m bench --only parsheet``) times,
in this interpreter with every cache emptied before each repetition (best of
``--repeats``):

* **deck**: the 22,100 hands, their strengths and the groups the counting uses;
* **Ante/Play**: the game under optimal play with the § 565.12(e) bonus
  (``ante_play()``), the figure finance's house edge reads;
* **whole sheet**: everything ``manage.py parsheet three_card_poker`` prints
  (three Pair Plus tables, thirteen Ante bonuses, thirteen Ante/Play games).

Against it, **dealt**: every dealer hand of the 49 cards left dealt against a
sample of ``--sample`` player hands through the game module's ``qualifies``
and ``compare``, extrapolated to the 22,100 player hands (what the solver
avoids). No database is used. Target: the whole sheet in ≤ 5 s; the exact
house edge printed must be 686689/20358520.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections.abc import Callable
from fractions import Fraction
from itertools import combinations
from typing import TypeVar

TARGET_SECONDS = 5.0
EXPECTED_EDGE = Fraction(686_689, 20_358_520)
T = TypeVar("T")


def _clear() -> None:
    from tables.rules.parsheets import three_card_poker as sheet

    for function in (sheet._deck, sheet._play_values, sheet._literal_changes, sheet.ante_play,
                     sheet.pair_plus_sheet, sheet.ante_bonus_sheet):  # fmt: skip
        function.cache_clear()


def _timed(function: Callable[[], T]) -> tuple[float, T]:
    _clear()
    started = time.perf_counter()
    result = function()
    return time.perf_counter() - started, result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.parsheet", description=__doc__)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--sample", type=int, default=40, help="player hands dealt out")
    options = parser.parse_args(argv)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")
    started = time.perf_counter()
    from tables.rules.cards import STANDARD_DECK
    from tables.rules.games import three_card_poker_565 as tcp
    from tables.rules.parsheets import three_card_poker as sheet
    from tables.rules.registry import ruleset

    imported = time.perf_counter() - started
    rules = ruleset("PA-565-2010")
    defaults = {"version": "base", "pair_plus_table": "565.12(d) minimum",
                "ante_bonus_table": "base", "ante_bonus_reading": None,
                "fold_pair_plus": "settled", "tie_rule": "conventional"}  # fmt: skip
    figures: dict[str, list[float]] = {"deck": [], "Ante/Play": [], "whole sheet": []}
    edge = None
    for _ in range(options.repeats):
        figures["deck"].append(_timed(sheet._deck)[0])
        seconds, game = _timed(sheet.ante_play)
        figures["Ante/Play"].append(seconds)
        edge = game.house_edge
        figures["whole sheet"].append(_timed(lambda: sheet.parsheet(rules, defaults))[0])
    generator = random.Random(565)
    sample = [generator.sample(STANDARD_DECK, 3) for _ in range(options.sample)]
    started = time.perf_counter()
    for cards in sample:
        rest = [card for card in STANDARD_DECK if card not in cards]
        for dealer in combinations(rest, 3):
            if tcp.qualifies(dealer):
                tcp.compare(cards, dealer)
    dealt = (time.perf_counter() - started) / options.sample * 22_100
    whole = min(figures["whole sheet"])
    load = os.getloadavg()[0]
    print(f"Three Card Poker exact par sheet (PA-565-2010), best of {options.repeats}, "
          f"cold caches; import {imported:.2f} s; load average {load:.1f}")  # fmt: skip
    for name, times in figures.items():
        print(f"  {name:<12} {min(times):7.3f} s   (all: {', '.join(f'{t:.3f}' for t in times)})")
    print(f"  dealt out    {dealt:7.1f} s   (extrapolated from {options.sample} player hands x "
          f"18,424 dealer hands; {dealt / min(figures['Ante/Play']):,.0f} x the Ante/Play "
          "figure)")  # fmt: skip
    print(f"  house edge {edge} = {float(edge or 0):.4%}")
    verdict = "PASS" if whole <= TARGET_SECONDS else "SHORT"
    print(f"  whole sheet {whole:.2f} s against target <= {TARGET_SECONDS:.0f} s: {verdict}")
    return 0 if edge == EXPECTED_EDGE else 1


if __name__ == "__main__":
    sys.exit(main())
