"""Finance's pages in the admin: the daily win report of a closed gaming day,
its variances with a drill-down to a table's day and its rounds, theoretical
against actual win as server-drawn SVG charts, and the report as CSV and as a
PDF to sign.

Everything here reads what the close reconciled (``operations.close``:
``DayClose``, ``TableDayFigures``, ``Variance``) and the rounds read model;
nothing is computed twice. Totals are sums of integer cents; a hold is the
exact ``Fraction`` win ÷ drop, rounded half to even to hundredths of a
percent only when it is written out. Only closed days are reported: figures
of a close still in progress may yet change stage, and a day's seal is what
finance signs against.

The pages are for ``FINANCE_ROLES``; other staff get 403.
"""

from __future__ import annotations

import csv
import datetime
import io
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from typing import Any

from django.contrib import admin
from django.contrib.admin.views.decorators import staff_member_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone

from audit.downloads import parse_day
from audit.ledger import versions_at
from audit.records import roles_of
from casino.models import Casino, DayClose, DayCloseStatus, current_gaming_day
from casino.report_sections import ReportSection, report_sections
from casino.roles import Role
from tables.bad_beat_finance import fund_lines
from tables.drift import close_differences, notice
from tables.formatting import dollars
from tables.models import (
    UNRESOLVED,
    Finding,
    Game,
    ReviewStatus,
    Round,
    TableDayFigures,
    Variance,
    VarianceReview,
)
from tables.reconciliation import RECONCILED, basis_points
from tables.variance_reviews import variance_stream_id

#: Who may open the finance pages (regulators only read anyway).
FINANCE_ROLES = frozenset({Role.FINANCE, Role.SHIFT_SUPERVISOR, Role.REGULATOR,
                           Role.ADMINISTRATOR})  # fmt: skip
#: The longest range the variances page lists at once.
MAX_RANGE_DAYS = 400
#: Rounds listed on a table's day; the round list in the admin has them all.
MAX_ROUNDS_SHOWN = 1000
VARIANCE_KINDS = {
    "inventory": "inventory",
    "drop": "drop vs buy-ins",
    "hold_interval": "hold outside its interval",
    "hold_month_over_month": "hold month over month",
    "left_open": "left open",
    "not_opened": "not opened",
    "no_count": "no verified count",
    "bad_beat_count": "Bad Beat count vs contributions",
    "bad_beat_display": "Bad Beat display vs finance",
    "bad_beat_award": "Bad Beat award",
    "bad_beat_unverified": "Bad Beat hand unverified",
}
CSV_COLUMNS = [
    "row", "gaming_day", "table_id", "pit", "game", "status", "rounds",
    "handle_cents", "handle_dollars", "drop_cents", "drop_dollars", "win_cents", "win_dollars",
    "hold_percent", "theoretical_win_cents", "theoretical_win_dollars", "variances",
]  # fmt: skip


def may_see_finance(user: Any) -> bool:
    """Whether ``user`` holds one of ``FINANCE_ROLES``."""
    return bool(roles_of(user) & FINANCE_ROLES)


def _require_finance(request: HttpRequest) -> None:
    if not may_see_finance(request.user):
        raise PermissionDenied


# --- figures ----------------------------------------------------------------------------


def percent_text(points: int | None, minus: str = "−") -> str:
    """Basis points written as a percentage with two decimals.

    >>> percent_text(1234), percent_text(-5), percent_text(None)
    ('12.34 %', '−0.05 %', '—')
    """
    if points is None:
        return "—"
    sign = minus if points < 0 else ""
    return f"{sign}{Decimal(abs(points)).scaleb(-2)} %"


def game_label(game: str) -> str:
    """A game's name as people read it (the registry's), its id if unknown."""
    from tables.rules.registry import game_name

    if game in Game.values:
        return Game(game).label
    try:
        return game_name(game)
    except (KeyError, LookupError):
        return game


@dataclass(frozen=True, kw_only=True)
class Line:
    """One row of the report: a table's day, or a sum of several."""

    label: str
    tables: int = 1
    rounds: int = 0
    handle_cents: int = 0
    drop_cents: int = 0
    win_cents: int = 0
    theoretical_win_cents: int = 0
    variances: int = 0
    #: Variances still to be worked (neither resolved nor accepted).
    open_variances: int = 0
    table_id: str = ""
    pit: str = ""
    game: str = ""
    status: str = RECONCILED
    #: A table's hold as the close recorded it; totals compute theirs.
    recorded_hold_points: int | None = None

    @property
    def hold(self) -> Fraction | None:
        return Fraction(self.win_cents, self.drop_cents) if self.drop_cents else None

    @property
    def hold_points(self) -> int | None:
        if self.table_id:
            return self.recorded_hold_points
        return basis_points(self.hold)

    @property
    def hold_percent(self) -> str:
        return percent_text(self.hold_points)

    @property
    def game_label(self) -> str:
        return game_label(self.game)

    @property
    def status_label(self) -> str:
        return self.status.replace("_", " ")

    @property
    def reconciled(self) -> bool:
        return self.status == RECONCILED

    @property
    def over_theoretical_cents(self) -> int:
        """Actual win less theoretical win."""
        return self.win_cents - self.theoretical_win_cents


def line_of(figures: TableDayFigures, closed_variances: int = 0) -> Line:
    """A table's line; ``closed_variances`` of its variances are resolved or accepted."""
    return Line(label=figures.table_id, table_id=figures.table_id, pit=figures.pit,
                game=figures.game, status=figures.status, rounds=figures.rounds,
                handle_cents=figures.handle_cents, drop_cents=figures.drop_cents,
                win_cents=figures.win_cents,
                theoretical_win_cents=figures.theoretical_win_cents,
                variances=figures.variances,
                open_variances=figures.variances - closed_variances,
                recorded_hold_points=figures.hold_basis_points)  # fmt: skip


def total(label: str, lines: Iterable[Line], **keys: str) -> Line:
    """The sum of ``lines``: integer cents added, the hold recomputed."""
    lines = list(lines)
    return Line(
        label=label,
        tables=sum(line.tables for line in lines),
        rounds=sum(line.rounds for line in lines),
        handle_cents=sum(line.handle_cents for line in lines),
        drop_cents=sum(line.drop_cents for line in lines),
        win_cents=sum(line.win_cents for line in lines),
        theoretical_win_cents=sum(line.theoretical_win_cents for line in lines),
        variances=sum(line.variances for line in lines),
        open_variances=sum(line.open_variances for line in lines),
        **keys,
    )


def _grouped(lines: Sequence[Line], key: str, label: Any) -> list[Line]:
    groups: dict[str, list[Line]] = {}
    for line in lines:
        groups.setdefault(getattr(line, key), []).append(line)
    return [total(label(value), members, **{key: value})
            for value, members in sorted(groups.items())]  # fmt: skip


def by_game(lines: Sequence[Line]) -> list[Line]:
    return _grouped(lines, "game", game_label)


def by_pit(lines: Sequence[Line]) -> list[Line]:
    return _grouped(lines, "pit", lambda pit: f"Pit {pit}")


@dataclass(frozen=True)
class Period:
    """The casino's or one game's totals for the day, the month and the year to date."""

    label: str
    day: Line
    month: Line
    year: Line

    @property
    def lines(self) -> tuple[Line, Line, Line]:
        return self.day, self.month, self.year


def periods(day: datetime.date) -> list[Period]:
    """Day, month-to-date and year-to-date totals over closed days, for the
    casino and each game (calendar month and year)."""
    year_start, month_start = day.replace(month=1, day=1), day.replace(day=1)
    closed = DayClose.objects.filter(status=DayCloseStatus.CLOSED, gaming_day__gte=year_start,
                                     gaming_day__lte=day).values("gaming_day")  # fmt: skip
    done = closed_variance_counts(gaming_day__gte=year_start, gaming_day__lte=day)
    rows = [(f.gaming_day, line_of(f, done.get((f.gaming_day, f.table_id), 0)))
            for f in TableDayFigures.objects.filter(gaming_day__in=closed)]  # fmt: skip
    games = sorted({line.game for _, line in rows})

    def period(label: str, lines: list[tuple[datetime.date, Line]]) -> Period:
        return Period(
            label,
            total(label, (line for d, line in lines if d == day)),
            total(label, (line for d, line in lines if d >= month_start)),
            total(label, (line for _, line in lines)),
        )

    return [period("Casino", rows),
            *(period(game_label(game), [r for r in rows if r[1].game == game])
              for game in games)]  # fmt: skip


def variance_amount(amount: int, unit: str, minus: str = "−") -> str:
    """A variance's amount or threshold as written: dollars, or a percentage."""
    if unit == "basis points":
        return percent_text(amount, minus)
    text = dollars(amount)
    return text.replace("−", minus)


@dataclass(frozen=True)
class VarianceLine:
    variance: Variance
    kind: str
    amount: str
    threshold: str
    url: str
    #: Its review stream, the review (None while nobody acknowledged it) and
    #: the stream version the page shows (0: none yet), which its buttons post.
    stream_id: str = ""
    review: VarianceReview | None = None
    version: int = 0

    @property
    def status(self) -> str:
        return self.review.status if self.review else ReviewStatus.OPEN

    @property
    def is_open(self) -> bool:
        return self.status in UNRESOLVED

    @property
    def detail_url(self) -> str:
        v = self.variance
        return reverse("finance-variance", args=[v.gaming_day.isoformat(), v.table_id, v.kind])


def variance_lines(variances: Iterable[Variance]) -> list[VarianceLine]:
    listed = list(variances)
    streams = {v.pk: variance_stream_id(v.gaming_day, v.table_id, v.kind) for v in listed}
    reviews = {r.stream_id: r for r in
               VarianceReview.objects.filter(stream_id__in=list(streams.values()))}  # fmt: skip
    versions = versions_at(r.computed_at_position for r in reviews.values())
    lines = []
    for v in listed:
        review = reviews.get(streams[v.pk])
        lines.append(VarianceLine(
            v, VARIANCE_KINDS.get(v.kind, v.kind), variance_amount(v.amount, v.unit),
            variance_amount(v.threshold, v.unit),
            _variance_url(v), streams[v.pk], review,
            versions[review.computed_at_position] if review else 0))  # fmt: skip
    return lines


def _variance_url(variance: Variance) -> str:
    """Where a variance's line leads: its table's day; a Bad Beat fund's, which has no
    table day, to the variance itself."""
    if variance.kind.startswith("bad_beat_"):
        return reverse("finance-variance", args=[variance.gaming_day.isoformat(),
                                                 variance.table_id, variance.kind])  # fmt: skip
    return table_day_url(variance.gaming_day, variance.table_id) + "#variances"


def open_variance_count() -> int:
    """Variances of every close still to be worked (neither resolved nor accepted)."""
    done = VarianceReview.objects.exclude(status__in=UNRESOLVED).count()
    return Variance.objects.count() - done


def closed_variance_counts(**filters: Any) -> dict[tuple[datetime.date, str], int]:
    """Per (gaming day, table), how many of its variances are resolved or accepted."""
    counts: dict[tuple[datetime.date, str], int] = {}
    closed = VarianceReview.objects.filter(**filters).exclude(status__in=UNRESOLVED)
    for day, table_id in closed.values_list("gaming_day", "table_id"):
        counts[day, table_id] = counts.get((day, table_id), 0) + 1
    return counts


def table_day_url(day: datetime.date, table_id: str) -> str:
    return reverse("finance-table-day", args=[day.isoformat(), table_id])


@dataclass
class DayReport:
    """Everything the report page, the CSV and the PDF show for one closed day."""

    close: DayClose
    casino: Casino | None
    tables: list[Line]
    games: list[Line]
    pits: list[Line]
    total: Line
    periods: list[Period]
    variances: list[VarianceLine]
    month: list[DayClose] = field(default_factory=list)
    #: The Bad Beat funds' lines (``tables.bad_beat_finance.FundLine``).
    funds: list[Any] = field(default_factory=list)
    #: What other apps add to the PDF (the progressive liability), by registration.
    sections: list[ReportSection] = field(default_factory=list)

    @property
    def day(self) -> datetime.date:
        return self.close.gaming_day


class DayNotClosed(Exception):
    """The gaming day has no completed close (the message says where it is)."""


def closed_day(day: datetime.date) -> DayClose:
    close = DayClose.objects.filter(gaming_day=day).first()
    if close is None:
        raise DayNotClosed(f"gaming day {day} has not been closed: its win report is made by "
                           "the close")  # fmt: skip
    if close.status != DayCloseStatus.CLOSED:
        raise DayNotClosed(
            f"the close of gaming day {day} is in progress (last stage: "
            f"{close.stage}); its win report is shown once it completes"
        )
    return close


def day_report(day: datetime.date) -> DayReport:
    """The report of a closed gaming day; ``DayNotClosed`` otherwise."""
    close = closed_day(day)
    figures = TableDayFigures.objects.filter(gaming_day=day).order_by("pit", "table_id")
    done = closed_variance_counts(gaming_day=day)
    lines = [line_of(f, done.get((day, f.table_id), 0)) for f in figures]
    month = DayClose.objects.filter(
        status=DayCloseStatus.CLOSED, gaming_day__lte=day, gaming_day__gte=day.replace(day=1)
    ).order_by("gaming_day")
    return DayReport(
        close=close,
        casino=Casino.objects.select_related("jurisdiction").first(),
        tables=lines,
        games=by_game(lines),
        pits=by_pit(lines),
        total=total("Casino total", lines),
        periods=periods(day),
        variances=variance_lines(Variance.objects.filter(gaming_day=day)
                                 .order_by("table_id", "kind")),
        month=list(month),
        funds=fund_lines(day),
        sections=report_sections(day),
    )  # fmt: skip


# --- charts: inline SVG, drawn on the server --------------------------------------------


@dataclass(frozen=True)
class Tick:
    y: int
    label: str


@dataclass(frozen=True)
class Bar:
    x: int
    y: int
    width: int
    height: int
    series: str
    negative: bool
    label: str


@dataclass(frozen=True)
class AxisLabel:
    x: int
    label: str


@dataclass(frozen=True)
class LegendItem:
    css: str
    label: str
    x: int


@dataclass(frozen=True)
class Series:
    name: str
    css: str
    points: str
    dots: list[tuple[int, int, str]]


@dataclass(frozen=True)
class Chart:
    """What ``finance_chart.html`` draws: geometry in whole pixels."""

    slug: str
    title: str
    description: str
    width: int
    height: int
    left: int
    right: int
    top: int
    bottom: int
    zero_y: int
    x_title: str
    y_title: str
    ticks: list[Tick]
    x_labels: list[AxisLabel]
    bars: list[Bar] = field(default_factory=list)
    series: list[Series] = field(default_factory=list)
    legend: list[LegendItem] = field(default_factory=list)

    @property
    def middle_x(self) -> int:
        return (self.left + self.right) // 2

    @property
    def y_title_x(self) -> int:
        """The rotated y-axis title's x (it is drawn turned a quarter left)."""
        return -(self.top + self.bottom) // 2


LEGEND = [LegendItem("actual", "actual win", 92), LegendItem("theoretical", "theoretical win", 212)]


def nice_scale(values: Iterable[int], steps: int = 5) -> tuple[int, int, int]:
    """Axis bounds and step (cents) covering ``values`` and zero, the step a
    1, 2 or 5 times a power of ten.

    >>> nice_scale([12_345, -2_000])
    (-5000, 15000, 5000)
    >>> nice_scale([])
    (0, 100, 20)
    """
    values = list(values)
    low, high = min([0, *values]), max([0, *values])
    if low == high:
        high = 100
    magnitude = 1
    while True:
        for factor in (1, 2, 5):
            step = factor * magnitude
            floor, ceiling = (low // step) * step, -(-high // step) * step
            if (ceiling - floor) // step <= steps:
                return floor, ceiling, step
        magnitude *= 10


def _tick_label(cents: int, step: int) -> str:
    if step % 100:
        return dollars(cents)
    sign = "−" if cents < 0 else ""
    return f"{sign}${abs(cents) // 100:,}"


def _frame(values: list[int], *, top: int, bottom: int) -> tuple[Any, list[Tick], int]:
    low, high, step = nice_scale(values)

    def y(value: int) -> int:
        return top + (high - value) * (bottom - top) // (high - low)

    ticks = [Tick(y(v), _tick_label(v, step)) for v in range(low, high + 1, step)]
    return y, ticks, y(0)


def table_chart(lines: Sequence[Line], day: datetime.date) -> Chart:
    """Actual against theoretical win, one pair of bars per table."""
    bar, left, top, height = 22, 92, 34, 300
    width = max(420, left + 12 + 64 * len(lines))
    right, bottom = width - 12, height - 58
    # Each table gets an equal share of the plot, its two bars in the middle.
    group = (right - left) // max(1, len(lines))
    y, ticks, zero = _frame([v for line in lines for v in (line.win_cents,
                                                            line.theoretical_win_cents)],
                            top=top, bottom=bottom)  # fmt: skip
    bars, labels = [], []
    for index, line in enumerate(lines):
        x = left + index * group + (group - 2 * bar) // 2
        for offset, series, value in (
            (0, "actual", line.win_cents),
            (bar, "theoretical", line.theoretical_win_cents),
        ):
            end = y(value)
            bars.append(Bar(x + offset, min(end, zero), bar, abs(zero - end), series, value < 0,
                            f"{line.table_id} {series} win {dollars(value)}"))  # fmt: skip
        labels.append(AxisLabel(x + bar, line.table_id))
    return Chart(
        slug="tables", title=f"Actual and theoretical win by table, gaming day {day}",
        description=(f"Bar chart of {len(lines)} tables: for each, the actual win from the count "
                     "beside the theoretical win (handle times the par sheets' house edge). "
                     "The same figures are in the table below the chart."),
        width=width, height=height, left=left, right=right, top=top, bottom=bottom,
        zero_y=zero, x_title="table", y_title="win (dollars)", ticks=ticks, x_labels=labels,
        bars=bars, legend=LEGEND,
    )  # fmt: skip


def month_chart(days: Sequence[DayClose], day: datetime.date) -> Chart:
    """The casino's daily win and theoretical win over the month to date."""
    left, top, height = 92, 34, 260
    last = day.day
    width = max(420, left + 24 + 22 * last)
    right, bottom = width - 16, height - 58
    y, ticks, zero = _frame([v for d in days for v in (d.win_cents, d.theoretical_win_cents)],
                            top=top, bottom=bottom)  # fmt: skip

    def x(date: datetime.date) -> int:
        return left + 12 + (date.day - 1) * (right - left - 24) // max(1, last - 1)

    series = []
    for name, css, attribute in (
        ("actual win", "actual", "win_cents"),
        ("theoretical win", "theoretical", "theoretical_win_cents"),
    ):
        dots = [
            (
                x(d.gaming_day),
                y(getattr(d, attribute)),
                f"{d.gaming_day} {name} {dollars(getattr(d, attribute))}",
            )
            for d in days
        ]
        series.append(Series(name, css, " ".join(f"{a},{b}" for a, b, _ in dots), dots))
    marks = sorted({1, last, *range(5, last, 5)})
    return Chart(
        slug="month", title=f"Casino daily win and theoretical win, {day:%B %Y} to {day}",
        description=(f"Line chart of the {len(days)} closed gaming days of {day:%B %Y} up to "
                     f"{day}: the casino's actual win and theoretical win per day. The same "
                     "figures are in the table below the chart."),
        width=width, height=height, left=left, right=right, top=top, bottom=bottom,
        zero_y=zero, x_title=f"day of {day:%B}", y_title="win (dollars)", ticks=ticks,
        x_labels=[AxisLabel(x(day.replace(day=n)), str(n)) for n in marks], series=series,
        legend=LEGEND,
    )  # fmt: skip


# --- the CSV and the PDF ----------------------------------------------------------------


def _plain_dollars(cents: int) -> str:
    return str(Decimal(cents).scaleb(-2))


def csv_rows(report: DayReport) -> list[list[str]]:
    """The report as CSV rows, header first: tables, then totals by game, by
    pit and the casino's, in ``CSV_COLUMNS`` order."""

    def row(kind: str, line: Line) -> list[str]:
        points = line.hold_points
        return [kind, report.day.isoformat(), line.table_id, line.pit, line.game,
                line.status if kind == "table" else "", str(line.rounds),
                str(line.handle_cents), _plain_dollars(line.handle_cents),
                str(line.drop_cents), _plain_dollars(line.drop_cents),
                str(line.win_cents), _plain_dollars(line.win_cents),
                "" if points is None else str(Decimal(points).scaleb(-2)),
                str(line.theoretical_win_cents), _plain_dollars(line.theoretical_win_cents),
                str(line.variances)]  # fmt: skip

    return [CSV_COLUMNS,
            *(row("table", line) for line in report.tables),
            *(row("game", line) for line in report.games),
            *(row("pit", line) for line in report.pits),
            row("casino", report.total)]  # fmt: skip


def win_report_csv(report: DayReport) -> str:
    out = io.StringIO()
    csv.writer(out).writerows(csv_rows(report))
    return out.getvalue()




# --- views ------------------------------------------------------------------------------


def _closed_days() -> list[DayClose]:
    return list(DayClose.objects.filter(status=DayCloseStatus.CLOSED).order_by("-gaming_day"))


def _context(request: HttpRequest, title: str, **extra: Any) -> dict[str, Any]:
    return {**admin.site.each_context(request), "title": title, **extra}


def _missing(request: HttpRequest, message: str, status: int) -> HttpResponse:
    context = _context(request, "Daily win report", error=message, closed_days=_closed_days())
    return render(request, "tables/finance_day.html", context, status=status)


def _report_or_error(request: HttpRequest, day: str) -> DayReport | HttpResponse:
    try:
        return day_report(parse_day(day))
    except ValueError as error:
        return _missing(request, str(error), 400)
    except DayNotClosed as error:
        return _missing(request, str(error), 404)


def _live_or(request: HttpRequest, day: datetime.date, missing: HttpResponse) -> HttpResponse:
    """A day not closed yet, as it is played (today, or a day whose close has
    not completed), marked "not closed"; ``missing`` if nothing was played."""
    from tables.live import live_report

    report = live_report(day)
    if not report.tables:
        return missing
    close = DayClose.objects.filter(gaming_day=day).first()
    context = _context(request, f"Gaming day {day:%A %d %B %Y}: live, not closed",
                       live=report, close=close, closed_days=_closed_days(), drift=notice(day),
                       today=current_gaming_day(timezone.now()))  # fmt: skip
    return render(request, "tables/finance_live.html", context)


@staff_member_required
def finance_today(request: HttpRequest) -> HttpResponse:
    """The current gaming day, live until its close."""
    _require_finance(request)
    return redirect("finance-day", day=current_gaming_day(timezone.now()).isoformat())


@staff_member_required
def finance_index(request: HttpRequest) -> HttpResponse:
    """The latest closed day's report (or the day asked for with ``?day=``)."""
    _require_finance(request)
    if request.GET.get("day"):
        return redirect("finance-day", day=request.GET["day"])
    days = _closed_days()
    if days:
        return redirect("finance-day", day=days[0].gaming_day.isoformat())
    message = "No gaming day has been closed yet: the close job makes the win report."
    return render(request, "tables/finance_day.html",
                  _context(request, "Daily win report", closed_days=[], error=message))  # fmt: skip


@staff_member_required
def finance_day(request: HttpRequest, day: str) -> HttpResponse:
    """A closed day's win and hold by table, game and pit, with its charts."""
    _require_finance(request)
    report = _report_or_error(request, day)
    if isinstance(report, HttpResponse):
        if report.status_code == 404:
            return _live_or(request, parse_day(day), report)
        return report
    context = _context(
        request, f"Daily win report — {report.day:%A %d %B %Y}", report=report,
        closed_days=_closed_days(), table_chart=table_chart(report.tables, report.day),
        month_rows=[(close, close.win_cents - close.theoretical_win_cents)
                    for close in report.month],
        month_chart=month_chart(report.month, report.day), drift=notice(report.day),
        forged=close_differences(report.day),
    )  # fmt: skip
    return render(request, "tables/finance_day.html", context)


def _download(content: bytes | str, content_type: str, filename: str) -> HttpResponse:
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    response["Cache-Control"] = "no-store"
    return response


def _forged(request: HttpRequest, report: DayReport) -> HttpResponse | None:
    """A download refused while the day's last check found its figures not
    the ledger's (the page says so and links the differences)."""
    drift, forged = notice(report.day), close_differences(report.day)
    if forged:
        message = (f"the win report of {report.day} is not offered for download: its figures "
                   f"are not what the close's events give ({forged[0]})")
    elif drift is not None and drift.warning:
        message = (f"the win report of {report.day} is not offered for download: the last "
                   f"check of the read models found {drift.count} difference(s) from the ledger "
                   "on that day")
    else:
        return None
    return _missing(request, message, 409)


@staff_member_required
def finance_csv(request: HttpRequest, day: str) -> HttpResponse:
    _require_finance(request)
    report = _report_or_error(request, day)
    if isinstance(report, HttpResponse):
        return report
    refused = _forged(request, report)
    if refused is not None:
        return refused
    return _download(win_report_csv(report), "text/csv; charset=utf-8",
                     f"pitboss-win-report-{report.day.isoformat()}.csv")  # fmt: skip


@staff_member_required
def finance_pdf(request: HttpRequest, day: str) -> HttpResponse:
    _require_finance(request)
    report = _report_or_error(request, day)
    if isinstance(report, HttpResponse):
        return report
    refused = _forged(request, report)
    if refused is not None:
        return refused
    from tables.finance_pdf import win_report_pdf

    return _download(win_report_pdf(report), "application/pdf",
                     f"pitboss-win-report-{report.day.isoformat()}.pdf")  # fmt: skip


@dataclass(frozen=True)
class VarianceGroup:
    """Variances of one kind at one table over the range shown: the same line
    repeated day after day is one group (e.g. hold month over month, CC-01, 12 days)."""

    table_id: str
    kind: str
    label: str
    lines: list[VarianceLine]

    @property
    def days(self) -> int:
        return len(self.lines)

    @property
    def first_day(self) -> datetime.date:
        return min(line.variance.gaming_day for line in self.lines)

    @property
    def last_day(self) -> datetime.date:
        return max(line.variance.gaming_day for line in self.lines)

    @property
    def open(self) -> int:
        return sum(line.is_open for line in self.lines)

    @property
    def summary(self) -> str:
        return f"{self.label}, {self.table_id}, {self.days} day{'s' if self.days != 1 else ''}"


def variance_groups(lines: Iterable[VarianceLine]) -> list[VarianceGroup]:
    """Lines grouped by table and kind, the group with the latest day first."""
    groups: dict[tuple[str, str], list[VarianceLine]] = {}
    for line in lines:
        groups.setdefault((line.variance.table_id, line.variance.kind), []).append(line)
    found = [VarianceGroup(table_id, kind, VARIANCE_KINDS.get(kind, kind),
                           sorted(members, key=lambda m: m.variance.gaming_day, reverse=True))
             for (table_id, kind), members in groups.items()]  # fmt: skip
    return sorted(found, key=lambda g: (-g.last_day.toordinal(), g.table_id, g.kind))


#: The variances page's status filter: what is still to be worked by default.
VARIANCE_STATUSES = {"open": "still to be worked (open or acknowledged)",
                     "closed": "resolved or accepted", "all": "all"}  # fmt: skip
#: How far back the variances page looks by default from the latest closed day.
DEFAULT_RANGE_DAYS = 31


@staff_member_required
def finance_variances(request: HttpRequest) -> HttpResponse:
    """Variances of a range of gaming days (``?from=&to=``, default the month
    up to the latest closed day), of one ``kind`` or ``table``, by ``status``
    (default those still to be worked), grouped by table and kind."""
    _require_finance(request)
    days = _closed_days()
    latest = days[0].gaming_day if days else None
    default_start = (latest - datetime.timedelta(days=DEFAULT_RANGE_DAYS - 1)).isoformat() \
        if latest else ""
    start_text = request.GET.get("from") or default_start
    end_text = request.GET.get("to") or (latest.isoformat() if latest else start_text)
    kind, table = request.GET.get("kind", ""), request.GET.get("table", "")
    status = request.GET.get("status") or "open"
    context = _context(request, "Variances", closed_days=days, kinds=VARIANCE_KINDS,
                       statuses=VARIANCE_STATUSES, status=status, table=table,
                       start=start_text, end=end_text, kind=kind, variances=[],
                       groups=[])  # fmt: skip
    if not start_text:
        context["error"] = "No gaming day has been closed yet: variances come from the close."
        return render(request, "tables/finance_variances.html", context)
    try:
        start, end = parse_day(start_text), parse_day(end_text)
    except ValueError as error:
        context["error"] = str(error)
        return render(request, "tables/finance_variances.html", context, status=400)
    if end < start or (end - start).days >= MAX_RANGE_DAYS:
        context["error"] = (f"choose a range from one day to {MAX_RANGE_DAYS} days, the first "
                            "day before the last")  # fmt: skip
        return render(request, "tables/finance_variances.html", context, status=400)
    if status not in VARIANCE_STATUSES:
        context["error"] = f"status: one of {', '.join(VARIANCE_STATUSES)}, not {status[:20]!r}"
        return render(request, "tables/finance_variances.html", context, status=400)
    variances = Variance.objects.filter(gaming_day__gte=start, gaming_day__lte=end)
    if kind:
        variances = variances.filter(kind=kind)
    if table:
        variances = variances.filter(table_id=table)
    lines = variance_lines(variances.order_by("-gaming_day", "table_id", "kind"))
    if status != "all":
        lines = [line for line in lines if line.is_open == (status == "open")]
    context["variances"] = lines
    context["status_label"] = "" if status == "all" else VARIANCE_STATUSES[status]
    context["groups"] = variance_groups(lines)
    context["single_day"] = start == end
    context["drift"] = notice(start, end)
    return render(request, "tables/finance_variances.html", context)


@staff_member_required
def finance_table_day(request: HttpRequest, day: str, table_id: str) -> HttpResponse:
    """One table's day as the close reconciled it, its variances and its
    rounds (those with findings first)."""
    _require_finance(request)
    try:
        gaming_day = parse_day(day)
    except ValueError as error:
        return _missing(request, str(error), 400)
    figures = TableDayFigures.objects.filter(gaming_day=gaming_day, table_id=table_id).first()
    if figures is None:
        return _missing(request, f"no reconciled figures for table {table_id} on gaming day "
                                 f"{gaming_day}: the day is not closed or the table did not "
                                 "play", 404)  # fmt: skip
    rounds = Round.objects.filter(gaming_day=gaming_day, table_id=table_id)
    kinds: dict[str, list[str]] = {}
    for round_id, kind in (Finding.objects.filter(gaming_day=gaming_day, table_id=table_id)
                           .values_list("round_id", "kind")):  # fmt: skip
        kinds.setdefault(round_id, []).append(kind)
    shown = list(rounds.order_by("-finding_count", "opened_at", "round_id")[:MAX_ROUNDS_SHOWN])
    context = _context(
        request, f"{table_id} — {gaming_day:%A %d %B %Y}", figures=figures,
        line=line_of(figures), gaming_day=gaming_day,
        close=DayClose.objects.filter(gaming_day=gaming_day).first(),
        variances=variance_lines(Variance.objects.filter(gaming_day=gaming_day,
                                                         table_id=table_id)),
        rounds=[(r, sorted(set(kinds.get(r.stream_id, [])))) for r in shown],
        round_count=rounds.count(), max_rounds=MAX_ROUNDS_SHOWN,
        inventory_off_cents=figures.inventory_change_cents
        - figures.expected_inventory_change_cents,
        drop_off_cents=figures.drop_cents - figures.buy_ins_cents,
        rack_cents=figures.collected_cents - figures.paid_cents,
        theoretical_off_cents=figures.win_cents - figures.theoretical_win_cents,
        game=game_label(figures.game), drift=notice(gaming_day),
        forged=[d for d in close_differences(gaming_day)
                if d.key.split(" ")[0] in (table_id, str(gaming_day))],
    )  # fmt: skip
    return render(request, "tables/finance_table_day.html", context)
