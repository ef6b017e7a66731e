"""Blackjack replay bench: a blackjack round's replay per event, beside Criss-Cross.

``python -m bench.blackjack_replay`` (``python -m bench --only blackjack_replay``)
simulates ``--rounds`` rounds of each blackjack game (five seats, one shoe) and of
Criss-Cross (674a, three seats), decodes each round's stored records and replays it
(:func:`tables.rules.replay.replay`: every engine step, the settlement and the
findings), best of ``--repeats`` taken in turn, in one interpreter, and prints
microseconds per event and the ratio to Criss-Cross's (target: no blackjack game
above 1.0). No database is used; timings on a shared machine are noisy.
"""

from __future__ import annotations

import argparse
import random
import sys
import time

TARGET_RATIO = 1.0


def _rounds(game_id: str, count: int) -> list[list[dict]]:
    from tables.rules.events import event_to_record

    if game_id == "criss_cross_poker":
        from tables.rules.rulesets import get_ruleset
        from tables.rules.simulate import simulate_criss_cross

        rng, ruleset = random.Random(1), get_ruleset("PA-674a-2019")
        rounds = [simulate_criss_cross(rng, ruleset).events for _ in range(count)]
    else:
        from tables.rules import blackjack_games
        from tables.rules.blackjack_simulate import simulate_table

        game = next(m.GAME for m in blackjack_games.modules() if m.GAME.id == game_id)
        rounds = simulate_table(random.Random(1), game, rounds=count).rounds
    return [[event_to_record(event) for event in events] for events in rounds]


def _seconds(records: list[list[dict]]) -> float:
    from tables.rules.events import event_from_record
    from tables.rules.replay import replay

    started = time.perf_counter()
    for round_records in records:
        replay([event_from_record(record) for record in round_records])
    return time.perf_counter() - started


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.blackjack_replay", description=__doc__)
    parser.add_argument("--rounds", type=int, default=500)
    parser.add_argument("--repeats", type=int, default=3)
    options = parser.parse_args(argv)
    games = ("criss_cross_poker", "double_attack_blackjack", "free_bet_blackjack",
             "double_back_jack")  # fmt: skip
    records = {game: _rounds(game, options.rounds) for game in games}
    best = dict.fromkeys(games, float("inf"))
    for _ in range(options.repeats):  # the games in turn, so a busy spell hits them all
        for game in games:
            best[game] = min(best[game], _seconds(records[game]))
    costs = {game: best[game] / sum(map(len, records[game])) * 1e6 for game in games}
    base, worst = costs["criss_cross_poker"], 0.0
    for game, cost in costs.items():
        ratio = cost / base
        worst = max(worst, ratio if game != "criss_cross_poker" else 0.0)
        print(f"{game:<26} {cost:8.1f} µs per event   {ratio:5.2f} × Criss-Cross")
    verdict = "ok" if worst <= TARGET_RATIO else "OVER TARGET"
    print(f"blackjack replay: worst {worst:.2f} × Criss-Cross per event (target ≤ "
          f"{TARGET_RATIO:.1f}) {verdict}")  # fmt: skip
    return 0 if worst <= TARGET_RATIO else 1


if __name__ == "__main__":
    sys.exit(main())
