"""Blackjack side-wager par-sheet bench: every exact sheet, cold.

``python -m bench.blackjack_parsheet`` (or ``python -m bench --only blackjack_parsheet``)
times, with the caches emptied before each repetition (best of ``--repeats``), the
Bust It sheet (every ordered triple of eight Spanish decks), Push 22 under paytables A
and B for one to eight decks (the dealer's hand by a memoised recursion over the
values drawn) and Insurance for each game and deck count, and prints them. No
database is used. Target: < 10 s.
"""

from __future__ import annotations

import argparse
import sys
import time

TARGET_SECONDS = 10.0


def _all_sheets() -> list[tuple[str, object]]:
    from tables.rules import blackjack_parsheet as sheets
    from tables.rules.blackjack import DOUBLE_ATTACK_581, DOUBLE_BACK_JACK_591, FREE_BET_590

    sheets.bust_it_sheet.cache_clear()
    sheets._push_22_chances.cache_clear()
    found: list[tuple[str, object]] = [
        ("Bust It (581, 8 Spanish decks)", sheets.bust_it_sheet()),
        ("Insurance (581)", sheets.insurance_sheet(DOUBLE_ATTACK_581)),
    ]
    for decks in sheets.DECK_COUNTS:
        for table in ("A", "B"):
            found.append((f"Push 22 (590) {decks} deck(s), paytable {table}",
                          sheets.push_22_sheet(decks, table)))
        found.append((f"Insurance (590, 591) {decks} deck(s)",
                      sheets.insurance_sheet(FREE_BET_590, decks)))
        sheets.insurance_sheet(DOUBLE_BACK_JACK_591, decks)
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.blackjack_parsheet", description=__doc__)
    parser.add_argument("--repeats", type=int, default=3)
    options = parser.parse_args(argv)
    best, found = float("inf"), []
    for _ in range(options.repeats):
        started = time.perf_counter()
        found = _all_sheets()
        best = min(best, time.perf_counter() - started)
    for name, sheet in found:
        edge = float(sheet.house_edge)  # type: ignore[attr-defined]
        hit = float(sheet.hit_frequency)  # type: ignore[attr-defined]
        print(f"{name:<45} house edge {edge:8.4%}  hit frequency {hit:8.4%}")
    verdict = "ok" if best < TARGET_SECONDS else "OVER TARGET"
    print(f"blackjack side-wager par sheets: {len(found)} sheets, best of {options.repeats}: "
          f"{best:.3f} s (target < {TARGET_SECONDS:.0f} s) {verdict}")  # fmt: skip
    return 0 if best < TARGET_SECONDS else 1


if __name__ == "__main__":
    sys.exit(main())
