"""A closed gaming day's figures as a CSV download for finance's readers: the one
response the progressive liability and the Bad Beat funds both give."""

from __future__ import annotations

import csv
import datetime
import io
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse

from audit.records import roles_of
from casino.roles import EXPORT_READERS

Rows = Callable[[datetime.date], Iterable[Sequence[Any]]]


def day_csv(request: HttpRequest, day: str, rows: Rows, name: str) -> HttpResponse:
    """``rows(day)`` as ``pitboss-<name>-<day>.csv``; 403 to anyone but the finance
    pages' readers, 404 for a ``day`` that is not a date."""
    if not roles_of(request.user) & EXPORT_READERS:
        raise PermissionDenied
    try:
        gaming_day = datetime.date.fromisoformat(day)
    except ValueError:
        raise Http404(f"{day!r} is not a gaming day (YYYY-MM-DD)") from None
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows(gaming_day))
    response = HttpResponse(out.getvalue(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="pitboss-{name}-{gaming_day}.csv"'
    response["Cache-Control"] = "no-store"
    return response
