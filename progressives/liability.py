"""The progressive liability finance reports: each meter's day as the close
reconciled it, with its movement over the day, the month and the year to date
(the finance page, this CSV, and the win report's PDF through
``casino.report_sections``)."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from casino.report_sections import ReportSection, register_report_section
from progressives.models import MeterDay


@dataclass(frozen=True, slots=True)
class LiabilityLine:
    """One meter on a closed day: the liability (its closing amount) and its movements."""

    meter: MeterDay
    month_to_date_cents: int
    year_to_date_cents: int

    @property
    def day_cents(self) -> int:
        return self.meter.movement_cents


def _since(meter_id: str, start: datetime.date, day: datetime.date) -> int:
    """The liability's movement from ``start`` to ``day``: the sum of each closed day's."""
    days = MeterDay.objects.filter(meter_id=meter_id, gaming_day__gte=start, gaming_day__lte=day)
    return sum(row.closing_cents - row.opening_cents
               for row in days.only("opening_cents", "closing_cents"))  # fmt: skip


def liability(day: datetime.date) -> list[LiabilityLine]:
    """Every meter's line for the closed ``day`` (none before its close)."""
    return [LiabilityLine(row, _since(row.meter_id, day.replace(day=1), day),
                          _since(row.meter_id, day.replace(month=1, day=1), day))
            for row in MeterDay.objects.filter(gaming_day=day).order_by("meter_id")]  # fmt: skip


CSV_HEADER = ["gaming_day", "meter_id", "chapter", "tables", "opening_cents",
              "contributions_cents", "payouts_cents", "house_payouts_cents", "adjustments_cents",
              "resets_cents", "closing_cents", "displayed_cents", "movement_cents",
              "month_to_date_cents", "year_to_date_cents", "variances"]  # fmt: skip


def csv_rows(day: datetime.date) -> list[list[str]]:
    rows = [CSV_HEADER]
    for line in liability(day):
        m = line.meter
        rows.append([str(m.gaming_day), m.meter_id, m.chapter, " ".join(m.tables),
                     *(str(v) for v in (m.opening_cents, m.contributions_cents, m.payouts_cents,
                                        m.house_payouts_cents, m.adjustments_cents,
                                        m.resets_cents, m.closing_cents)),
                     "" if m.displayed_cents is None else str(m.displayed_cents),
                     str(line.day_cents), str(line.month_to_date_cents),
                     str(line.year_to_date_cents), str(m.variances)])  # fmt: skip
    return rows


def pdf_section(day: datetime.date) -> ReportSection | None:
    """The liability in the win report's PDF, as the page shows it; none without a meter."""
    lines = liability(day)
    if not lines:
        return None
    rows = tuple((m.meter_id, ", ".join(m.tables), m.opening_cents, m.contributions_cents,
                  m.payouts_cents, m.adjustments_cents, m.resets_cents, m.closing_cents,
                  m.displayed_cents, line.day_cents, line.month_to_date_cents,
                  line.year_to_date_cents, str(m.variances))
                 for line in lines for m in (line.meter,))  # fmt: skip
    return ReportSection(
        "Progressive liability (closing) and its movement: day, month and year to date",
        ("Meter", "Tables", "Opening", "Contrib.", "Payouts", "Adjust.", "Resets", "Closing",
         "Displayed", "Day", "MTD", "YTD", "Variances"),
        rows, (0.9, 1.3, *(0.7,) * 10, 0.6))  # fmt: skip


register_report_section("progressive_liability", pdf_section)
