"""Simulated play at configured tables, appended through the ledger's append
service exactly as table devices would (never around it)."""

from __future__ import annotations

import dataclasses
import datetime
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from audit.ledger import Actor, NewEvent, append, projections_deferred
from tables.rules.rulesets import get_ruleset
from tables.rules.simulate import (
    DealerError,
    InjectedError,
    Irregularity,
    simulate_criss_cross,
    simulate_double_cross,
)


@dataclass(frozen=True)
class TablePlan:
    table_id: str
    ruleset_id: str
    seats: tuple[int, ...] = (1, 2, 3, 4)


@dataclass
class DaySummary:
    rounds: int = 0
    events: int = 0
    injected: list[tuple[str, InjectedError]] = field(default_factory=list)


def simulate_gaming_day(
    tables: Sequence[TablePlan],
    gaming_day: datetime.date,
    *,
    rounds_per_table: int,
    seed: int,
    dealer_error_percent: int = 2,
    irregularity_percent: int = 1,
    actor: Actor | None = None,
    progress: Callable[[int], None] | None = None,
) -> DaySummary:
    """Play ``rounds_per_table`` rounds at every table and append each round.

    Seats are filled at random from the plan; dealer errors and irregularities
    are injected at the given rates and returned so callers can check that
    replay finds every one.
    """
    rng = random.Random(seed)
    actor = actor or Actor.system("simulator", source="simulator")
    summary = DaySummary()
    with projections_deferred():
        _play(
            tables,
            gaming_day,
            rounds_per_table,
            rng,
            dealer_error_percent,
            irregularity_percent,
            actor,
            progress,
            summary,
        )
    from audit.projections import run_all

    run_all()
    return summary


def _play(
    tables,
    gaming_day,
    rounds_per_table,
    rng,
    dealer_error_percent,
    irregularity_percent,
    actor,
    progress,
    summary,
) -> None:
    for number in range(1, rounds_per_table + 1):
        for plan in tables:
            ruleset = get_ruleset(plan.ruleset_id)
            seats = tuple(sorted(rng.sample(plan.seats, rng.randint(1, len(plan.seats)))))
            errors = (
                [rng.choice(list(DealerError))] if rng.randrange(100) < dealer_error_percent else []
            )
            irregularity = (
                rng.choice(list(Irregularity))
                if rng.randrange(100) < irregularity_percent
                else None
            )
            common = dict(
                seats=seats, gaming_day=gaming_day, dealer_errors=errors, irregularity=irregularity
            )
            if ruleset.game == "double_cross_poker":
                simulated = simulate_double_cross(rng, ruleset, **common)
            else:
                simulated = simulate_criss_cross(rng, ruleset, **common)
            round_id = f"{plan.table_id}-{gaming_day:%Y%m%d}-{number:05d}"
            opened = dataclasses.replace(
                simulated.events[0], round_id=round_id, table_id=plan.table_id
            )
            events = [opened, *simulated.events[1:]]
            stream_id = f"round:{round_id}"
            append(
                stream_id,
                [NewEvent(e.TYPE, e.to_payload()) for e in events],
                expected_version=0,
                actor=actor,
                idempotency_key=stream_id,
            )
            summary.rounds += 1
            summary.events += len(events)
            summary.injected.extend((stream_id, injected) for injected in simulated.injected)
            if progress is not None:
                progress(1)
