"""Simulated play at configured tables, appended through the ledger's append
service exactly as table devices would (never around it)."""

from __future__ import annotations

import dataclasses
import datetime
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

from audit.ledger import (
    Actor,
    NewEvent,
    StreamBatch,
    append,
    append_many,
    projections_deferred,
)
from audit.projections import run_all
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
    rounds_per_commit: int = 1,
    project: bool = True,
    progress: Callable[[int], None] | None = None,
) -> DaySummary:
    """Play ``rounds_per_table`` rounds at every table and append each round.

    Seats are filled at random from the plan; dealer errors and irregularities
    are injected at the given rates and returned so callers can check that
    replay finds every one. With ``rounds_per_commit`` above 1, rounds are
    appended with ``append_many`` (same validation, rule checks and hash
    chains; one commit per group) to build large days quickly. ``project``
    brings the read models up to date at the end (bulk loads may skip it).
    """
    rng = random.Random(seed)
    actor = actor or Actor.system("simulator", source="simulator")
    summary = DaySummary()
    rounds = _rounds(tables, gaming_day, rounds_per_table, rng, dealer_error_percent,
                     irregularity_percent)  # fmt: skip
    with projections_deferred():
        pending: list[StreamBatch] = []
        for stream_id, events, injected in rounds:
            new_events = [NewEvent(e.TYPE, e.to_payload()) for e in events]
            if rounds_per_commit <= 1:
                append(stream_id, new_events, expected_version=0, actor=actor,
                       idempotency_key=stream_id)  # fmt: skip
            else:
                pending.append(StreamBatch(stream_id, new_events))
                if len(pending) >= rounds_per_commit:
                    append_many(pending, actor=actor)
                    pending = []
            summary.rounds += 1
            summary.events += len(events)
            summary.injected.extend((stream_id, one) for one in injected)
            if progress is not None:
                progress(1)
        if pending:
            append_many(pending, actor=actor)
    if project:
        run_all()
    return summary


def _rounds(
    tables: Sequence[TablePlan],
    gaming_day: datetime.date,
    rounds_per_table: int,
    rng: random.Random,
    dealer_error_percent: int,
    irregularity_percent: int,
) -> Iterator[tuple[str, list, tuple[InjectedError, ...]]]:
    """Each table's rounds in turn, as the day goes: (stream id, events, injected)."""
    for number in range(1, rounds_per_table + 1):
        for plan in tables:
            ruleset = get_ruleset(plan.ruleset_id)
            seats = tuple(sorted(rng.sample(plan.seats, rng.randint(1, len(plan.seats)))))
            errors = []
            if rng.randrange(100) < dealer_error_percent:
                errors.append(rng.choice(list(DealerError)))
            irregularity = None
            if rng.randrange(100) < irregularity_percent:
                irregularity = rng.choice(list(Irregularity))
            simulate = (simulate_double_cross if ruleset.game == "double_cross_poker"
                        else simulate_criss_cross)  # fmt: skip
            simulated = simulate(rng, ruleset, seats=seats, gaming_day=gaming_day,
                                 dealer_errors=errors, irregularity=irregularity)  # fmt: skip
            round_id = f"{plan.table_id}-{gaming_day:%Y%m%d}-{number:05d}"
            opened = dataclasses.replace(simulated.events[0], round_id=round_id,
                                         table_id=plan.table_id)  # fmt: skip
            yield f"round:{round_id}", [opened, *simulated.events[1:]], simulated.injected
