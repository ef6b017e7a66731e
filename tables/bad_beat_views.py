"""A Bad Beat fund's page (§ 553.20): its balance and display, "pending adjustment"
while a verified award is unpaid or the display not yet adjusted after it ((f)(1)),
and its days of the month with their awards, counts and variances; finance's CSV of
the funds' closed day."""

from __future__ import annotations

import datetime

from django.contrib.admin.views.decorators import staff_member_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone

from audit.ledger import read_stream
from casino.day_csv import day_csv
from casino.models import current_gaming_day
from tables.bad_beat import BAD_BEAT_STREAM_KIND, fund_history
from tables.bad_beat_finance import csv_rows
from tables.read_scope import may_read


@staff_member_required
def bad_beat_fund(request: HttpRequest, fund_id: str) -> HttpResponse:
    """The fund as of the current gaming day (``?day=`` another)."""
    from django.contrib import admin

    stream_id = f"{BAD_BEAT_STREAM_KIND}:{fund_id}"
    context = {**admin.site.each_context(request), "title": f"Bad Beat fund {fund_id}",
               "stream_id": stream_id}  # fmt: skip
    if not may_read(request.user, None, stream_id):
        return render(request, "tables/bad_beat_fund.html",
                      {**context, "error": "your role does not read Bad Beat funds"}, status=403)
    if not read_stream(stream_id)[:1]:
        return render(request, "tables/bad_beat_fund.html",
                      {**context, "error": f"no Bad Beat fund {fund_id} in the ledger"},
                      status=404)  # fmt: skip
    try:
        today = datetime.date.fromisoformat(request.GET.get("day") or
                                            current_gaming_day(timezone.now()).isoformat())
    except ValueError:
        return render(request, "tables/bad_beat_fund.html",
                      {**context, "error": "day: a gaming day as YYYY-MM-DD"}, status=400)
    first = max(today.replace(day=1), today - datetime.timedelta(days=31))
    days = fund_history(fund_id, first, today)
    return render(request, "tables/bad_beat_fund.html",
                  {**context, "today": days[-1], "days": list(reversed(days))})  # fmt: skip


@staff_member_required
def bad_beat_csv(request: HttpRequest, day: str) -> HttpResponse:
    """Each fund's closed day with its month and year to date (``tables.bad_beat_finance``),
    for finance's readers, as the progressive liability's download is."""
    return day_csv(request, day, csv_rows, "bad-beat-funds")
