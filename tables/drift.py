"""Whether the figures a page shows are the ledger's (issue 21): the last
recorded ``verify_projections`` of their gaming days, read from the ledger
(``audit.consistency``), never from a table beside it; and, for a closed
day's win report, its figures checked against the close's events on every
view (``close_differences``).

Where the last check covering a day shown found a difference on that day,
the finance pages and the floor board say so at the top, in red, with a
link to the differences; where ``rebuild_projection`` has since replaced the
rows, they say who rebuilt them and what differed.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Any

from django.contrib import admin
from django.contrib.admin.views.decorators import staff_member_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse

from audit import consistency
from audit.records import roles_of
from casino.roles import Role

#: Who reads the differences: finance's readers and the floor's supervisors.
READERS = frozenset({Role.FINANCE, Role.SHIFT_SUPERVISOR, Role.FLOORPERSON, Role.REGULATOR,
                     Role.ADMINISTRATOR})  # fmt: skip


@dataclass(frozen=True)
class Notice:
    """What a page says about its figures' last check."""

    outcome: consistency.Outcome
    #: Differences on the days the page shows.
    count: int
    scope: str

    @property
    def warning(self) -> bool:
        """Red: the figures shown are not what the ledger gives."""
        return not self.outcome.rebuilt and self.count > 0

    @property
    def url(self) -> str:
        return reverse("projection-differences", args=[self.outcome.position])


def notice(first: datetime.date | None = None, last: datetime.date | None = None) -> Notice | None:
    """The notice for the gaming days ``first``..``last`` (one day if
    ``last`` is None; every day if both are None): a warning if the last
    check covering one of them found a difference there, else a note of a
    rebuild that replaced some; None when there is nothing to say."""
    recent = consistency.recent_outcomes()
    if first is None:
        outcome = consistency.covering(recent, None)
        if outcome is None or not outcome.count:
            return None
        return Notice(outcome, outcome.count, "the read models")
    last = last or first
    days = [first + datetime.timedelta(days=n) for n in range((last - first).days + 1)]
    found: list[tuple[consistency.Outcome, int]] = []
    for day in days:
        outcome = consistency.covering(recent, day)
        if outcome is not None and outcome.on(day):
            found.append((outcome, outcome.on(day)))
    if not found:
        return None
    scope = f"gaming day {first}" if first == last else f"gaming days {first} to {last}"
    warnings = [(o, n) for o, n in found if not o.rebuilt]
    chosen = warnings or found
    latest = max((o for o, _ in chosen), key=lambda o: o.position)
    return Notice(latest, sum(n for _, n in chosen), scope)


def close_differences(day: datetime.date) -> list[consistency.Difference]:
    """The day's close figures (the win report's rows and totals, its
    variances) recomputed from the close's events now, into shadows: a few
    events, so a page can afford it on every view (the rounds and the table
    days are the nightly check's)."""
    return consistency.verify(["casino.closes"], gaming_day=day).differences


@staff_member_required
def differences(request: HttpRequest, position: int) -> HttpResponse:
    """One recorded check's (or rebuild's) differences, as the ledger holds them."""
    if not roles_of(request.user) & READERS:
        raise PermissionDenied
    outcome = consistency.outcome_at(position)
    if outcome is None:
        raise Http404("no check of the read models at that ledger position")
    day = request.GET.get("day", "")
    listed: list[dict[str, Any]] = outcome.differences()
    rows = listed
    if day:
        rows = [r for r in rows if r["gaming_day"] == day]
    title = ("Read models rebuilt from the ledger" if outcome.rebuilt
             else "Read models checked against the ledger")  # fmt: skip
    context = {**admin.site.each_context(request), "title": title, "outcome": outcome,
               "rows": rows, "day": day, "listed": len(listed),
               "days": outcome.payload["days"]}  # fmt: skip
    return render(request, "tables/drift_differences.html", context)
