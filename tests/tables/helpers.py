from __future__ import annotations

import dataclasses
import datetime
import random

from tables.rules.events import Wager, WagerPlaced
from tables.rules.rulesets import get_ruleset
from tables.rules.simulate import DealerError, simulate_criss_cross


def criss_cross_round(
    *,
    ruleset_id: str = "PA-674a-2019",
    seed: int = 7,
    day: datetime.date = datetime.date(2024, 5, 1),
    round_id: str = "T1-1",
    dealer_errors=(),
):
    rng = random.Random(seed)
    simulated = simulate_criss_cross(
        rng,
        get_ruleset(ruleset_id),
        seats=(1, 2),
        gaming_day=day,
        dealer_errors=list(dealer_errors),
        strategy=_never_fold(),
    )
    opened = dataclasses.replace(simulated.events[0], round_id=round_id, table_id="T1")
    return [opened, *simulated.events[1:]], simulated.injected


def _never_fold():
    from tables.rules.simulate import Strategy

    return Strategy(fold_percent=0)


def payload_body(events, expected_version=0):
    return {
        "expected_version": expected_version,
        "events": [{"type": e.TYPE, "payload": e.to_payload()} for e in events],
    }


def index_of_wager(events, wager: Wager) -> int:
    return next(i for i, e in enumerate(events) if isinstance(e, WagerPlaced) and e.wager == wager)


__all__ = ["DealerError", "criss_cross_round", "index_of_wager", "payload_body"]
