"""Finance's download of the progressive liability of a closed day."""

from __future__ import annotations

import csv
import datetime
import io

from django.contrib.admin.views.decorators import staff_member_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse

from audit.records import roles_of
from casino.roles import EXPORT_READERS
from progressives.liability import csv_rows


@staff_member_required
def meters_csv(request: HttpRequest, day: str) -> HttpResponse:
    """Each meter's day (opening, contributions, payouts, adjustments, resets, closing,
    the movement over the day, month and year to date), as the close reconciled it."""
    # The finance pages' readers (tables.finance.FINANCE_ROLES is the same set).
    if not roles_of(request.user) & EXPORT_READERS:
        raise PermissionDenied
    try:
        gaming_day = datetime.date.fromisoformat(day)
    except ValueError:
        raise Http404(f"{day!r} is not a gaming day (YYYY-MM-DD)") from None
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(csv_rows(gaming_day))
    response = HttpResponse(out.getvalue(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = (
        f'attachment; filename="pitboss-progressive-liability-{gaming_day}.csv"')
    response["Cache-Control"] = "no-store"
    return response
