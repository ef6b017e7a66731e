"""A variance's page: the variance, its life (acknowledge, resolve, accept) and
the ledger events that explain it.

What explains a variance depends on its kind: the buy-ins and the count sheet
for a drop (the count found in the box against the cash the table took); the
opener and closer inventories, the fills and the credits for an inventory
(the chips on the table against what the ledger moved); the table's earlier
days for a hold; the table's day for a table left open or not counted. Each
event is listed as the ledger holds it, with who recorded it, from which
device and when (casino time), its amounts in dollars and its chips as a
chip table.
"""

from __future__ import annotations

import dataclasses
import datetime
from dataclasses import dataclass, field
from typing import Any

from django.contrib.admin.views.decorators import staff_member_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from audit.downloads import parse_day
from audit.ledger import RecordedEvent, read_stream, read_streams
from tables.actions import actions_allowed
from tables.count import count_stream_id
from tables.finance import (
    VARIANCE_KINDS,
    _context,
    _missing,
    _require_finance,
    percent_text,
    variance_lines,
)
from tables.formatting import denominations, dollars
from tables.models import Slip, TableDayFigures, Variance
from tables.reconciliation import basis_points
from tables.table_day import slip_streams_of, table_stream_id, total_cents

#: Per kind of variance, which events of the table's day explain it.
EXPLAINED_BY = {
    "drop": ("table.buy_in", "count."),
    "inventory": ("table.opened", "table.closed", "slip."),
    "left_open": ("table.",),
    "not_opened": ("table.",),
    "no_count": ("count.", "table.closed"),
}
#: The payload fields that name a person (besides ``…_by``).
_PEOPLE = ("dealer", "floorperson", "signer")
#: The payload fields that hold chips or bills by denomination.
_CHIP_FIELDS = ("opener", "closer", "chips", "amounts", "currency")


@dataclass
class Evidence:
    """One ledger event as the drill-down lists it."""

    event: RecordedEvent
    what: str
    amount_cents: int | None = None
    chips: list[tuple[str, list[tuple[str, int, str]]]] = field(default_factory=list)
    people: str = ""

    @property
    def recorded_by(self) -> str:
        return self.event.metadata.get("actor") or "—"

    @property
    def device(self) -> str:
        return self.event.metadata.get("device") or "—"


def evidence_of(event: RecordedEvent) -> Evidence:
    payload = event.payload
    chips = [(name, denominations(payload[name])) for name in _CHIP_FIELDS
             if isinstance(payload.get(name), dict) and payload[name]]  # fmt: skip
    amount = payload.get("cash_cents")
    if amount is None and chips:
        amount = sum(total_cents(payload[name]) for name in _CHIP_FIELDS
                     if isinstance(payload.get(name), dict))  # fmt: skip
    people = ", ".join(f"{key.replace('_', ' ')} {value}" for key, value in payload.items()
                       if isinstance(value, str) and key in _PEOPLE or key.endswith("_by"))
    what = event.event_type.replace("_", " ")
    if payload.get("reason"):
        what += f": {payload['reason']}"
    return Evidence(event, what, amount, chips, people)


def explaining_events(variance: Variance) -> list[Evidence]:
    """The events of the variance's table day that explain it, in ledger order."""
    day, table_id = variance.gaming_day, variance.table_id
    if variance.kind.startswith("bad_beat_"):  # the fund's events of the day (§ 553.20)
        from tables.bad_beat import BAD_BEAT_STREAM_KIND

        return [dataclasses.replace(evidence_of(e), amount_cents=e.payload.get(
                    "amount_cents", e.payload.get("finance_cents")))
                for e in read_stream(f"{BAD_BEAT_STREAM_KIND}:{table_id}")
                if e.payload.get("gaming_day") == day.isoformat()]  # fmt: skip
    prefixes = EXPLAINED_BY.get(variance.kind)
    if not prefixes:
        return []
    events = [*read_stream(table_stream_id(table_id, day)),
              *read_stream(count_stream_id(table_id, day)),
              *read_streams(slip_streams_of(table_id, day))]  # fmt: skip
    chosen = [e for e in events if e.event_type.startswith(prefixes)]
    return [evidence_of(e) for e in sorted(chosen, key=lambda e: e.position)]


@dataclass(frozen=True)
class HistoryDay:
    gaming_day: datetime.date
    drop_cents: int
    win_cents: int
    hold: str
    variances: int


def hold_history(variance: Variance) -> list[HistoryDay]:
    """The table's reconciled days of this month and the previous one: what a
    hold variance compares (its month to date, the month before, its interval)."""
    start = (variance.gaming_day.replace(day=1) - datetime.timedelta(days=1)).replace(day=1)
    rows = TableDayFigures.objects.filter(table_id=variance.table_id, gaming_day__gte=start,
                                          gaming_day__lte=variance.gaming_day).order_by(
                                              "-gaming_day")  # fmt: skip
    return [HistoryDay(r.gaming_day, r.drop_cents, r.win_cents,
                       percent_text(basis_points(_ratio(r.win_cents, r.drop_cents))), r.variances)
            for r in rows]  # fmt: skip


def _ratio(win: int, drop: int) -> Any:
    from fractions import Fraction

    return Fraction(win, drop) if drop else None


@staff_member_required
def finance_variance(request: HttpRequest, day: str, table_id: str, kind: str) -> HttpResponse:
    """One variance: what the close found, its life, and the events that explain it."""
    _require_finance(request)
    try:
        gaming_day = parse_day(day)
    except ValueError as error:
        return _missing(request, str(error), 400)
    variance = Variance.objects.filter(gaming_day=gaming_day, table_id=table_id,
                                       kind=kind).first()  # fmt: skip
    if variance is None:
        return _missing(request, f"the close of gaming day {gaming_day} found no {kind} "
                                 f"variance at {table_id}", 404)  # fmt: skip
    line = variance_lines([variance])[0]
    evidence = explaining_events(variance)
    slips = Slip.objects.filter(table_id=table_id, gaming_day=gaming_day).order_by("number")
    figures = TableDayFigures.objects.filter(gaming_day=gaming_day, table_id=table_id).first()
    label = VARIANCE_KINDS.get(kind, kind)
    context = _context(
        request, f"Variance: {label}, {table_id}, {gaming_day:%A %d %B %Y}", line=line,
        variance=variance, gaming_day=gaming_day, evidence=evidence, figures=figures,
        buy_ins=[e for e in evidence if e.event.event_type == "table.buy_in"],
        counts=[e for e in evidence if e.event.event_type.startswith("count.")],
        others=[e for e in evidence if e.event.event_type != "table.buy_in"
                and not e.event.event_type.startswith("count.")],
        slips=slips, history=hold_history(variance) if kind.startswith("hold") else [],
        buy_ins_total=dollars(sum(e.amount_cents or 0 for e in evidence
                                  if e.event.event_type == "table.buy_in")),
        can=actions_allowed(request.user), kind_label=label,
    )  # fmt: skip
    return render(request, "tables/finance_variance.html", context)
