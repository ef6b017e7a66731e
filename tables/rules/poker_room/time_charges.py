"""Time charges at a poker table's day, judged against the posted schedule (§ 553.15(b)(3)).

A rake "based on time charges" (§ 553.15(b)(3)) is charged per player (every
seated player, "inactive players seated at the table" included, (i)) or per
table, "expressed as an hourly fee based on the minimum and maximum wagering
limits at a game" ((ii)), "assessed fractionally every 20 or 30 minutes" ((iii)),
put in the rake area ((iv)) and, "upon verification by a floorperson or above of
the time charges collected", in the drop box ((v)).

The dealer's assessments and the floorperson's verifications are facts;
:func:`judge_day` compares them with the schedule in force and returns what the
rules required, what was collected and verified, and the findings.

>>> import datetime
>>> from tables.rules.poker_room.charges import ChargeBasis
>>> rules = TimeChargeRules(basis=ChargeBasis.PER_PLAYER, period_minutes=30,
...     rates=(TimeChargeRate(min_wager_cents=200, max_wager_cents=400, hourly_cents=600),))
>>> start = datetime.datetime(2026, 11, 24, 20, 0)
>>> day = judge_day(rules, [Assessment(period_start=start, min_wager_cents=200,
...     max_wager_cents=400, seats=(1, 2, 3), amount_cents=900)],
...     {start: 900})
>>> (day.required_cents, day.collected_cents, day.verified_cents, day.findings)
(900, 900, 900, ())
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from tables.rules.poker_room.charges import ChargeBasis, TimeCharge

__all__ = [
    "Assessment",
    "ChargeFinding",
    "ChargeFindingKind",
    "DayCharges",
    "TimeChargeRate",
    "TimeChargeRules",
    "judge_day",
]


@dataclass(frozen=True, slots=True, kw_only=True)
class TimeChargeRate:
    """The hourly fee posted for a game's wagering limits (§ 553.15(b)(3)(ii))."""

    min_wager_cents: int
    max_wager_cents: int
    hourly_cents: int


@dataclass(frozen=True, slots=True, kw_only=True)
class TimeChargeRules:
    """A table's posted time charges (§ 553.15(a): part of the Rules Submission).

    :raises ValueError: for a period other than 20 or 30 minutes ((b)(3)(iii)).
    """

    basis: ChargeBasis
    period_minutes: int
    rates: tuple[TimeChargeRate, ...]

    def __post_init__(self) -> None:
        for rate in self.rates:  # TimeCharge refuses a period the chapter does not allow
            TimeCharge(hourly_cents=rate.hourly_cents, period_minutes=self.period_minutes,
                       basis=self.basis)  # fmt: skip

    def charge(self, min_wager_cents: int, max_wager_cents: int) -> TimeCharge | None:
        """The charge for these limits, None if none is posted for them."""
        for rate in self.rates:
            if (rate.min_wager_cents, rate.max_wager_cents) == (min_wager_cents,
                                                                 max_wager_cents):
                return TimeCharge(hourly_cents=rate.hourly_cents,
                                  period_minutes=self.period_minutes, basis=self.basis)
        return None


@dataclass(frozen=True, slots=True, kw_only=True)
class Assessment:
    """The dealer took ``amount_cents`` for the period from ``period_start`` with ``seats``
    seated (active or not) at a game of these limits."""

    period_start: datetime.datetime
    min_wager_cents: int
    max_wager_cents: int
    seats: tuple[int, ...]
    amount_cents: int


class ChargeFindingKind(StrEnum):
    WRONG_TIME_CHARGE = "WRONG_TIME_CHARGE"
    UNPOSTED_LIMITS = "UNPOSTED_LIMITS"
    TIME_CHARGE_TOO_SOON = "TIME_CHARGE_TOO_SOON"
    UNVERIFIED_TIME_CHARGE = "UNVERIFIED_TIME_CHARGE"


@dataclass(frozen=True, slots=True)
class ChargeFinding:
    """One difference between a period's charge and the posted rules."""

    kind: ChargeFindingKind
    section: str
    period_start: datetime.datetime
    expected_cents: int
    recorded_cents: int
    detail: str


@dataclass(frozen=True, slots=True)
class DayCharges:
    """A table's time charges of a day: what the schedule required, what the dealer
    collected, what a floorperson verified, and the findings."""

    periods: int
    required_cents: int
    collected_cents: int
    verified_cents: int
    findings: tuple[ChargeFinding, ...]


def judge_day(
    rules: TimeChargeRules, assessments: Sequence[Assessment],
    verified: Mapping[datetime.datetime, int],
) -> DayCharges:  # fmt: skip
    """Judge a day's assessments, in order, and their verifications (by period start)."""
    F = ChargeFindingKind
    findings: list[ChargeFinding] = []
    required = collected = 0
    previous: datetime.datetime | None = None
    period = datetime.timedelta(minutes=rules.period_minutes)
    for one in assessments:
        start, taken = one.period_start, one.amount_cents
        collected += taken
        charge = rules.charge(one.min_wager_cents, one.max_wager_cents)
        if charge is None:
            findings.append(ChargeFinding(
                F.UNPOSTED_LIMITS, "553.15(b)(3)(ii)", start, 0, taken,
                f"no hourly fee is posted for limits {one.min_wager_cents}-"
                f"{one.max_wager_cents} cents"))  # fmt: skip
        else:
            due = charge.due_cents(seated=len(one.seats))
            required += due
            if due != taken:
                why = ("every seated player, inactive ones included"
                       if rules.basis is ChargeBasis.PER_PLAYER else "one charge per table")
                findings.append(ChargeFinding(
                    F.WRONG_TIME_CHARGE, "553.15(b)(3)(i)", start, due, taken,
                    f"{len(one.seats)} seated at {charge.per_period_cents} cents a period "
                    f"({why})"))  # fmt: skip
        if previous is not None and start - previous < period:
            findings.append(ChargeFinding(
                F.TIME_CHARGE_TOO_SOON, "553.15(b)(3)(iii)", start, 0, taken,
                f"assessed {start - previous} after the period before; the posted period "
                f"is {rules.period_minutes} minutes"))  # fmt: skip
        previous = start
        if verified.get(start) != taken:
            findings.append(ChargeFinding(
                F.UNVERIFIED_TIME_CHARGE, "553.15(b)(3)(v)", start, taken,
                verified.get(start, 0),
                "no floorperson or above verified the charge collected"
                if start not in verified else "the amount verified differs from the "
                "amount collected"))  # fmt: skip
    return DayCharges(len(assessments), required, collected, sum(verified.values()),
                      tuple(findings))  # fmt: skip
