"""A meter's gaming day reconciled: its movement, and the controller's readings against it.

The issue states the identity as "opening amount + contributions − payouts ±
signed adjustments = closing amount". A reset after a payout of the whole meter
also moves it (up, by the reset amount, funded from the reserve and by the
house), so the identity here carries that term too. Payouts are what the
regulation required; what was paid instead is listed beside them.

Which effects belong to a gaming day is the ledger's business (their events'
gaming day); this module only adds them up. The variance threshold is data
passed in, like the tables' variance policies.

>>> import datetime
>>> from tables.rules.progressives.meter import Contribution
>>> effects = [Contribution(round_id="r1", table="T", gaming_day=datetime.date(2016, 8, 1),
...     wagers=5, meter_cents=350, reserve_cents=0, section=None)]
>>> reconcile_day(1_000_000, effects, closing_cents=1_000_350).balances
True
>>> reconcile_day(1_000_000, effects, closing_cents=1_000_000).unexplained_cents
-350
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from tables.rules.money import Cents
from tables.rules.progressives.events import ReadingOccasion
from tables.rules.progressives.meter import (
    Adjustment,
    Contribution,
    Effect,
    Payment,
    PaymentSource,
    Reading,
    Reset,
)

__all__ = ["MeterDay", "reconcile_day"]


@dataclass(frozen=True, slots=True, kw_only=True)
class MeterDay:
    """One meter's movement over a gaming day, with what the controller displayed."""

    opening_cents: Cents
    contributions_cents: Cents
    reserve_contributions_cents: Cents
    #: Shares of the meter owed to winners (the meter's payouts).
    payouts_cents: Cents
    #: Fixed and "for 1" progressive payouts, which the house pays.
    house_payouts_cents: Cents
    adjustments_cents: Cents
    resets_cents: Cents
    reset_from_reserve_cents: Cents
    closing_cents: Cents
    #: Payments that differ from what was owed (wrong meter value, wrong line).
    wrong_payments: tuple[Payment, ...]
    readings: tuple[Reading, ...]

    @property
    def unexplained_cents(self) -> Cents:
        """Closing less (opening + contributions − payouts + adjustments + resets)."""
        return self.closing_cents - (
            self.opening_cents
            + self.contributions_cents
            - self.payouts_cents
            + self.adjustments_cents
            + self.resets_cents
        )

    @property
    def balances(self) -> bool:
        """Whether the day's effects explain the closing amount exactly."""
        return self.unexplained_cents == 0

    @property
    def closing_reading(self) -> Reading | None:
        """The last reading taken at closing, if any."""
        closing = [r for r in self.readings if r.occasion is ReadingOccasion.CLOSING]
        return closing[-1] if closing else None

    def variances(self, threshold_cents: Cents) -> tuple[Reading, ...]:
        """Readings whose displayed amount differs from the book by more than the threshold."""
        return tuple(r for r in self.readings if abs(r.difference_cents) > threshold_cents)


def reconcile_day(
    opening_cents: Cents, effects: Iterable[Effect], *, closing_cents: Cents
) -> MeterDay:
    """Add up one gaming day's effects of a meter, opened and closed at the book amounts given.

    The closing amount is the folded state's after the day's last event: a day
    whose effects were chosen by another rule than its events does not balance.
    """
    contributions = reserve = payouts = house = adjustments = resets = from_reserve = 0
    wrong: list[Payment] = []
    readings: list[Reading] = []
    for effect in effects:
        if isinstance(effect, Contribution):
            contributions += effect.meter_cents
            reserve += effect.reserve_cents
        elif isinstance(effect, Payment):
            if effect.source is PaymentSource.METER:
                payouts += effect.required_cents
            else:
                house += effect.required_cents
            if effect.difference_cents:
                wrong.append(effect)
        elif isinstance(effect, Adjustment):
            adjustments += effect.amount_cents
        elif isinstance(effect, Reset):
            resets += effect.amount_cents
            from_reserve += effect.from_reserve_cents
        elif isinstance(effect, Reading):
            readings.append(effect)
    return MeterDay(
        opening_cents=opening_cents,
        contributions_cents=contributions,
        reserve_contributions_cents=reserve,
        payouts_cents=payouts,
        house_payouts_cents=house,
        adjustments_cents=adjustments,
        resets_cents=resets,
        reset_from_reserve_cents=from_reserve,
        closing_cents=closing_cents,
        wrong_payments=tuple(wrong),
        readings=tuple(readings),
    )
