"""Builders of meter streams for the progressive tests (one function per event)."""

from __future__ import annotations

import datetime
from typing import Any

from tables.rules.progressives.chapters import CHAPTERS
from tables.rules.progressives.events import (
    MeterConfigured,
    MeterContributed,
    MeterHit,
    MeterPaid,
    OddCents,
    RateBase,
)

DAY = datetime.date(2016, 8, 1)
TABLES = ("T-01", "T-02")


def configured(chapter: str = "555", **overrides: Any) -> MeterConfigured:
    """A meter of ``chapter`` linked to T-01 and T-02, at the chapter's least terms."""
    rules = CHAPTERS[chapter]
    terms: dict[str, Any] = dict(
        meter_id=f"M-{chapter}",
        effective_from=DAY,
        chapter=chapter,
        tables=TABLES,
        wager_amounts_cents=rules.wager_amounts_cents or (100, 500),
        rate_numerator=70 if chapter == "555" else 20,
        rate_denominator=100,
        rate_base=RateBase.AMOUNT_WAGERED,
        initial_cents=max(rules.minimum_reset_cents, 1_000_000),
        reset_cents=max(rules.minimum_reset_cents, 1_000_000),
        schedule=rules.schedule,
        share_rounding="round_down_to_cent",
        odd_cents=OddCents.FIRST_IN_PAYMENT_ORDER,
    )
    terms.update(overrides)
    return MeterConfigured(**terms)


def contributed(
    wagers: int,
    *,
    table: str = "T-01",
    round_id: str = "r1",
    amount: int = 100,
    day: datetime.date = DAY,
) -> MeterContributed:
    return MeterContributed(
        round_id=round_id, table=table, gaming_day=day, wagers_cents=(amount,) * wagers
    )


def hit(
    seat: int,
    hand: str,
    *,
    table: str = "T-01",
    round_id: str = "r1",
    wager: int = 100,
    day: datetime.date = DAY,
) -> MeterHit:
    return MeterHit(
        round_id=round_id, table=table, gaming_day=day, seat=seat, hand=hand, wager_cents=wager
    )


def paid(
    seat: int,
    amount: int,
    *,
    table: str = "T-01",
    round_id: str = "r1",
    validated_by: str = "floor-1",
) -> MeterPaid:
    return MeterPaid(
        round_id=round_id, table=table, seat=seat, amount_cents=amount, validated_by=validated_by
    )
