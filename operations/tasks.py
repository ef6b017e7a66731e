"""Celery wrappers of the gaming-day close (``operations.close``).

``close_due_day`` is what Celery beat runs at the gaming-day boundary (the
PeriodicTask from migration ``casino.0004``, kept on the casino's boundary
and time zone by ``operations.schedule``): it closes the day that just ended. A
day that cannot close yet (tables open, drops not counted) is retried every
15 minutes until it can; a shift supervisor may force it from the command.
``close_gaming_day_task`` closes a given day and reports its progress as
task state (``PROGRESS`` with the stage and counts).
"""

from __future__ import annotations

import datetime
import logging

from celery import shared_task
from django.utils import timezone

from casino.models import Casino
from operations.close import CloseRefused, close_gaming_day

logger = logging.getLogger(__name__)
RETRY_SECONDS = 15 * 60


# The task names predate this app and are kept: beat's PeriodicTask rows
# (migration casino.0004) and running workers know them by name.
@shared_task(bind=True, name="casino.close_gaming_day")
def close_gaming_day_task(self, day: str, requested_by: str, force: bool = False) -> str:
    def progress(stage: str, done: int, total: int) -> None:
        if not self.request.is_eager and self.request.id:
            self.update_state(state="PROGRESS",
                              meta={"stage": stage, "done": done, "total": total})  # fmt: skip

    report = close_gaming_day(datetime.date.fromisoformat(day), requested_by=requested_by,
                              force=force, progress=progress)  # fmt: skip
    return report.summary()


@shared_task(bind=True, name="casino.close_due_day", max_retries=None)
def close_due_day(self, day: str | None = None) -> str:
    """Close the gaming day that ended most recently (or ``day``: a retry keeps
    the day it started with, even once another day has ended)."""
    now = timezone.now()
    gaming_day = (datetime.date.fromisoformat(day) if day
                  else Casino.current().gaming_day(now) - datetime.timedelta(days=1))  # fmt: skip
    try:
        return close_gaming_day(gaming_day, requested_by="celery-beat", now=now).summary()
    except CloseRefused as refused:
        logger.warning("close of %s waits: %s", gaming_day, refused)
        if self.request.is_eager:
            return str(refused)
        raise self.retry(kwargs={"day": gaming_day.isoformat()},
                         countdown=RETRY_SECONDS) from refused  # fmt: skip
