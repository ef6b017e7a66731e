"""Blackjack main-game bench: each game's optimal strategy and exact house edge, cold.

``python -m bench.blackjack_edge`` (or ``python -m bench --only blackjack_edge``) times,
with the caches emptied, :func:`tables.rules.blackjack_strategy.house_edge` for Double
Attack (eight Spanish decks, § 581.3(a)), Free Bet and Double Back Jack (six decks,
where § 590.3(a) and § 591.3(a) leave the count to the casino; ``--decks`` for
another): the chart from the shoe less each up card, then every up card and pair of
player cards with the dealer by exact recursion over the remaining shoe. It prints the
edges, the player's expectation by up card, Double Attack's raise and the key chart
cells. No database is used. Target: < 600 s for all three on this machine's two cores.
"""

from __future__ import annotations

import argparse
import sys
import time

TARGET_SECONDS = 600.0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.blackjack_edge", description=__doc__)
    parser.add_argument("--decks", type=int, default=None, help="590 and 591: decks (default 6)")
    parser.add_argument("--chart", action="store_true", help="print each game's whole chart")
    options = parser.parse_args(argv)

    from tables.rules import blackjack_strategy as strategy
    from tables.rules.blackjack import DOUBLE_ATTACK_581, DOUBLE_BACK_JACK_591, FREE_BET_590

    total = 0.0
    for rules in (DOUBLE_ATTACK_581, FREE_BET_590, DOUBLE_BACK_JACK_591):
        decks = None if rules.chapter == "581" else options.decks
        started = time.perf_counter()
        edge = strategy.house_edge(rules, decks)
        chart = strategy.strategy(rules, decks)
        seconds = time.perf_counter() - started
        total += seconds
        print(f"Chapter {rules.chapter}, {edge.decks} decks: house edge "
              f"{float(edge.house_edge):.4%} per initial main wager ({seconds:.2f} s)")  # fmt: skip
        ups = "  ".join(f"{'A' if up == 1 else up}:{value:+.4f}" for up, value in edge.by_up)
        print(f"  player's expectation by up card: {ups}")
        if edge.raise_on:
            print(f"  Double Attack raise on: {sorted(edge.raise_on)}")
        cells = [("hard 11 v 10", (strategy.FIRST, 11, False, 0, 10)),
                 ("hard 12 v 4", (strategy.FIRST, 12, False, 0, 4)),
                 ("hard 16 v 10", (strategy.FIRST, 16, False, 0, 10)),
                 ("soft 18 v 9", (strategy.FIRST, 18, True, 0, 9)),
                 ("pair 8,8 v 10", (strategy.FIRST, 16, False, 8, 10)),
                 ("pair 9,9 v 7", (strategy.FIRST, 18, False, 9, 7))]  # fmt: skip
        print("  " + "  ".join(f"{name}: {chart.action(*key)}" for name, key in cells))
        if options.chart:
            print(strategy.chart_text(chart))
    verdict = "ok" if total < TARGET_SECONDS else "OVER TARGET"
    print(f"blackjack exact house edges: 3 games in {total:.2f} s "
          f"(target < {TARGET_SECONDS:.0f} s) {verdict}")  # fmt: skip
    return 0 if total < TARGET_SECONDS else 1


if __name__ == "__main__":
    sys.exit(main())
