"""Finance's download of the progressive liability of a closed day."""

from __future__ import annotations

from django.contrib.admin.views.decorators import staff_member_required
from django.http import HttpRequest, HttpResponse

from casino.day_csv import day_csv
from progressives.liability import csv_rows


@staff_member_required
def meters_csv(request: HttpRequest, day: str) -> HttpResponse:
    """Each meter's day (opening, contributions, payouts, adjustments, resets, closing,
    the movement over the day, month and year to date), as the close reconciled it."""
    return day_csv(request, day, csv_rows, "progressive-liability")
