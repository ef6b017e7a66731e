"""Benchmark the five-card evaluator of tables.rules.hands against eval7 and treys.

Run from the project root (eval7 and treys come from the ``bench`` extra)::

    .venv/bin/pip install -e '.[bench]'
    .venv/bin/python bench/bench_evaluator.py [--hands 200000] [--seed 592] [--repeats 5]

All evaluators see the same random five-card hands, dealt outside the
evaluators by a seeded ``random.Random`` and converted to each library's card
type before timing. Each is timed through its public API with the same plain
loop (``for hand in hands: evaluate(hand)``); the best of ``--repeats`` runs is
reported. Before timing, the script checks on a sample of hand pairs that all
three order hands the same way (eval7: higher is stronger; treys: lower is
stronger; ours: higher is stronger).
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tables.rules.cards import STANDARD_DECK  # noqa: E402
from tables.rules.hands import evaluate_five, five_card_strength  # noqa: E402

TARGET_RATIO_VS_EVAL7 = 1.5
TARGET_IMPORT_SECONDS = 0.3


def deal(count: int, seed: int) -> list[tuple[int, ...]]:
    """``count`` random five-card hands as card indexes (0-51), from a seeded generator."""
    generator = random.Random(seed)
    return [tuple(generator.sample(range(52), 5)) for _ in range(count)]


def time_once(evaluate: Callable[[Any], object], hands: Sequence[Any]) -> float:
    """Seconds for one plain loop evaluating every hand."""
    started = time.perf_counter()
    for hand in hands:
        evaluate(hand)
    return time.perf_counter() - started


def time_evaluators(
    evaluators: dict[str, tuple[Callable[[Any], object], list[Any]]], repeats: int
) -> dict[str, float]:
    """Best hands per second of each evaluator.

    The evaluators take turns (round-robin, ``repeats`` rounds) so that a change
    in machine load affects all of them alike; the best round of each counts.
    """
    best = dict.fromkeys(evaluators, float("inf"))
    for _ in range(repeats):
        for name, (evaluate, hands) in evaluators.items():
            best[name] = min(best[name], time_once(evaluate, hands))
    return {name: len(evaluators[name][1]) / seconds for name, seconds in best.items()}


def import_seconds() -> float:
    """Seconds to import tables.rules.hands (with cards) in a fresh interpreter, best of 5."""
    code = (
        "import time; started = time.perf_counter(); import tables.rules.hands; "
        "print(time.perf_counter() - started)"
    )
    root = Path(__file__).resolve().parent.parent
    return min(
        float(subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True,
                             text=True, check=True).stdout)
        for _ in range(5)
    )  # fmt: skip


def sign(value: float) -> int:
    """-1, 0 or 1."""
    return (value > 0) - (value < 0)


def main() -> int:
    """Run the benchmark and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=200_000)
    parser.add_argument("--seed", type=int, default=592)
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--pairs", type=int, default=20_000, help="hand pairs for the sanity check")
    arguments = parser.parse_args()

    indexes = deal(arguments.hands, arguments.seed)
    ours = [tuple(STANDARD_DECK[index] for index in hand) for hand in indexes]
    texts = [str(card) for card in STANDARD_DECK]
    evaluators: dict[str, tuple[Callable[[Any], object], list[Any]]] = {
        "ours five_card_strength": (five_card_strength, ours),
        "ours evaluate_five": (evaluate_five, ours),
    }
    # Comparable keys, larger = stronger, for the ordering check.
    strength_of: dict[str, Callable[[tuple[int, ...]], float]] = {
        "ours": lambda hand: five_card_strength([STANDARD_DECK[index] for index in hand]),
    }
    try:
        import eval7

        eval7_deck = [eval7.Card(text) for text in texts]
        evaluators["eval7.evaluate"] = (
            eval7.evaluate,
            [[eval7_deck[index] for index in hand] for hand in indexes],
        )
        strength_of["eval7"] = lambda hand: eval7.evaluate([eval7_deck[i] for i in hand])
    except ImportError as error:
        print(f"eval7 not available ({error}); skipped")
    try:
        import treys

        treys_deck = [treys.Card.new(text) for text in texts]
        treys_evaluate = treys.Evaluator().evaluate
        treys_hands = [[treys_deck[index] for index in hand] for hand in indexes]
        evaluators["treys Evaluator().evaluate"] = (
            lambda hand: treys_evaluate(hand, []),
            treys_hands,
        )
        strength_of["treys"] = lambda hand: -treys_evaluate([treys_deck[i] for i in hand], [])
    except ImportError as error:
        print(f"treys not available ({error}); skipped")

    # Sanity: every library orders every sampled pair the same way.
    pair_generator = random.Random(arguments.seed + 1)
    disagreements = 0
    for _ in range(arguments.pairs):
        first, second = pair_generator.sample(indexes, 2)
        orders = {
            name: sign(strength(first) - strength(second)) for name, strength in strength_of.items()
        }
        if len(set(orders.values())) != 1:
            disagreements += 1
            if disagreements <= 5:
                print(f"disagreement on {first} vs {second}: {orders}")
    libraries = ", ".join(strength_of)
    print(f"ordering check, {arguments.pairs:,} hand pairs, {libraries}: {disagreements} disagree")

    print(
        f"\n{arguments.hands:,} random five-card hands, seed {arguments.seed}, best of "
        f"{arguments.repeats} interleaved rounds, Python {sys.version.split()[0]}, "
        f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}"
    )
    rates = time_evaluators(evaluators, arguments.repeats)
    for name, rate in rates.items():
        print(f"  {name:<28} {rate:>12,.0f} hands/s")
    print()
    for ours_name in ("ours five_card_strength", "ours evaluate_five"):
        for other in ("eval7.evaluate", "treys Evaluator().evaluate"):
            if other in rates:
                print(f"  {ours_name} / {other}: {rates[ours_name] / rates[other]:.2f}x")
    seconds = import_seconds()
    print(f"\nimport tables.rules.hands: {seconds * 1000:.0f} ms (fresh interpreter, best of 5)")

    print("\ntargets (measurements, not tests: SHORT does not fail the command)")
    if "eval7.evaluate" in rates:
        ratio = rates["ours five_card_strength"] / rates["eval7.evaluate"]
        verdict = "PASS" if ratio >= TARGET_RATIO_VS_EVAL7 else "SHORT"
        print(f"  five_card_strength / eval7 >= {TARGET_RATIO_VS_EVAL7}x: {ratio:.2f}x {verdict}")
    verdict = "PASS" if seconds <= TARGET_IMPORT_SECONDS else "SHORT"
    print(f"  import <= {TARGET_IMPORT_SECONDS * 1000:.0f} ms: {seconds * 1000:.0f} ms {verdict}")
    return 1 if disagreements else 0


if __name__ == "__main__":
    sys.exit(main())
