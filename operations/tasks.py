"""Celery wrappers of the gaming-day close (``operations.close``).

``close_due_day`` is what Celery beat runs at the gaming-day boundary (the
PeriodicTask from migration ``casino.0004``, kept on the casino's boundary
and time zone by ``operations.schedule``): it closes the day that just ended. A
day that cannot close yet (tables open, drops not counted) is retried every
15 minutes until it can; a shift supervisor may force it from the command.
``close_gaming_day_task`` closes a given day and reports its progress as
task state (``PROGRESS`` with the stage and counts). Both read the day in
``CLOSE_WORKERS`` processes: ``read_close_part`` is one part of that read.

Both are acknowledged late and are safe to deliver again: a run whose worker
died is handed out again by the broker after its visibility timeout, and
resumes at the first missing stage; a run delivered while another is alive
finds the day's lock taken (``CloseBusy``) and looks again a little later,
then finds the day closed. Waits are short countdowns chained until the
time is due: a countdown longer than the visibility timeout would be
delivered again, and run twice, before it is due.
"""

from __future__ import annotations

import datetime
import logging

from celery import shared_task
from django.conf import settings
from django.utils import timezone

from casino.models import Casino
from operations.close import CloseBusy, CloseRefused, close_gaming_day
from operations.day_read import run_part

logger = logging.getLogger(__name__)
RETRY_SECONDS = 15 * 60
CLOSE_LIMITS = {"time_limit": settings.CELERY_CLOSE_TIME_LIMIT,
                "soft_time_limit": settings.CELERY_CLOSE_TIME_LIMIT - 60}  # fmt: skip


def countdown(seconds: float) -> float:
    """At most half the broker's visibility timeout (see the module docstring)."""
    return max(1.0, min(seconds, settings.CELERY_VISIBILITY_TIMEOUT / 2))


# The task names predate this app and are kept: beat's PeriodicTask rows
# (migration casino.0004) and running workers know them by name.
@shared_task(bind=True, name="casino.close_gaming_day", max_retries=None, **CLOSE_LIMITS)
def close_gaming_day_task(self, day: str, requested_by: str, force: bool = False) -> str:
    def progress(stage: str, done: int, total: int) -> None:
        if not self.request.is_eager and self.request.id:
            self.update_state(state="PROGRESS",
                              meta={"stage": stage, "done": done, "total": total})  # fmt: skip

    try:
        report = close_gaming_day(datetime.date.fromisoformat(day), requested_by=requested_by,
                                  force=force, progress=progress,
                                  workers=settings.CLOSE_WORKERS)  # fmt: skip
    except CloseBusy as busy:
        if self.request.is_eager:
            raise
        logger.info("%s; looking again in %s s", busy, settings.CLOSE_BUSY_RETRY_SECONDS)
        raise self.retry(countdown=countdown(settings.CLOSE_BUSY_RETRY_SECONDS)) from busy
    return report.summary()


@shared_task(bind=True, name="casino.close_due_day", max_retries=None, **CLOSE_LIMITS)
def close_due_day(self, day: str | None = None, not_before: str | None = None) -> str:
    """Close the gaming day that ended most recently (or ``day``: a retry keeps
    the day it started with, even once another day has ended); a retry waits
    until ``not_before``."""
    now = timezone.now()
    if not_before is not None and not self.request.is_eager:
        remaining = (datetime.datetime.fromisoformat(not_before) - now).total_seconds()
        if remaining > 0:
            raise self.retry(kwargs={"day": day, "not_before": not_before},
                             countdown=countdown(remaining))  # fmt: skip
    gaming_day = (datetime.date.fromisoformat(day) if day
                  else Casino.current().gaming_day(now) - datetime.timedelta(days=1))  # fmt: skip
    try:
        return close_gaming_day(gaming_day, requested_by="celery-beat", now=now,
                                workers=settings.CLOSE_WORKERS).summary()
    except CloseRefused as refused:
        busy = isinstance(refused, CloseBusy)
        wait = settings.CLOSE_BUSY_RETRY_SECONDS if busy else RETRY_SECONDS
        logger.warning("close of %s waits %s s: %s", gaming_day, wait, refused)
        if self.request.is_eager:
            return str(refused)
        due = now + datetime.timedelta(seconds=wait)
        raise self.retry(kwargs={"day": gaming_day.isoformat(), "not_before": due.isoformat()},
                         countdown=countdown(wait)) from refused  # fmt: skip


@shared_task(name="operations.read_close_part", **CLOSE_LIMITS)
def read_close_part(directory: str, index: int) -> str:
    """One part of a close's read of the day (``operations.day_read``): read
    here unless the close's own process, or another worker, holds it. Safe to
    deliver again: a part read already, or of a close that has ended, is left."""
    return run_part(directory, index)
