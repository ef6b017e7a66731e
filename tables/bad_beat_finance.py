"""The Bad Beat funds finance reports (§ 553.20(e): "The official record of the amount
of daily contributions to the Bad Beat payouts shall be maintained by the finance
department"): each fund's day as the close reconciled it, with its contributions,
awards and counts over the day, the month and the year to date.

Imitates the progressive liability (``progressives.liability``): the figures are the
close's read model, ``BadBeatFundDay``, so a page, its CSV, the PDF and the export
show the same numbers.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.db.models import Count, Sum

from tables.models import BadBeatFundDay


@dataclass(frozen=True, slots=True)
class Totals:
    """A fund's movements over a period of closed days."""

    contributions_cents: int = 0
    awards_cents: int = 0
    awards: int = 0
    counted_cents: int = 0
    days: int = 0


@dataclass(frozen=True, slots=True)
class FundLine:
    """One fund on a closed day: its balance, and its movements to date."""

    fund: BadBeatFundDay
    month: Totals
    year: Totals


def _since(fund_id: str, start: datetime.date, day: datetime.date) -> Totals:
    sums = BadBeatFundDay.objects.filter(
        fund_id=fund_id, gaming_day__gte=start, gaming_day__lte=day
    ).aggregate(contributions=Sum("contributions_cents"), awards_cents=Sum("awards_cents"),
                awards=Sum("awards"), counted=Sum("counted_cents"), days=Count("id"))  # fmt: skip
    return Totals(sums["contributions"] or 0, sums["awards_cents"] or 0, sums["awards"] or 0,
                  sums["counted"] or 0, sums["days"])  # fmt: skip


def fund_lines(day: datetime.date) -> list[FundLine]:
    """Every fund's line for the closed ``day`` (none before its close)."""
    rows = BadBeatFundDay.objects.filter(gaming_day=day).order_by("fund_id")
    return [FundLine(row, _since(row.fund_id, day.replace(day=1), day),
                     _since(row.fund_id, day.replace(month=1, day=1), day))
            for row in rows]  # fmt: skip


CSV_HEADER = [
    "gaming_day", "fund_id", "opening_cents", "contributions_cents", "counted_cents",
    "awards_cents", "awards", "transferred_cents", "closing_cents", "displayed_cents", "pending",
    "month_contributions_cents", "month_awards_cents", "month_awards", "month_counted_cents",
    "year_contributions_cents", "year_awards_cents", "year_awards", "year_counted_cents",
    "variances",
]  # fmt: skip


def _blank(cents: int | None) -> str:
    return "" if cents is None else str(cents)


def csv_rows(day: datetime.date) -> list[list[str]]:
    rows = [CSV_HEADER]
    for line in fund_lines(day):
        f = line.fund
        rows.append([
            str(f.gaming_day), f.fund_id, str(f.opening_cents), str(f.contributions_cents),
            _blank(f.counted_cents), str(f.awards_cents), str(f.awards), str(f.transferred_cents),
            str(f.closing_cents),
            _blank(f.displayed_cents), " ".join(f.pending),
            *(str(v) for t in (line.month, line.year)
              for v in (t.contributions_cents, t.awards_cents, t.awards, t.counted_cents)),
            str(f.variances),
        ])  # fmt: skip
    return rows
