"""Celery wrappers: the plain functions live in audit.projections,
audit.verify and audit.consistency."""

from celery import shared_task
from django.conf import settings

from audit import projections


@shared_task(name="audit.run_projections")
def run_projections() -> dict[str, int]:
    return projections.run_all()


@shared_task(name="audit.verify_ledger")
def verify_ledger() -> dict[str, object]:
    """The nightly check (beat, migration audit.0009): ``verify_ledger`` in
    full, and on any failure a finding in the ledger (``audit.nightly``)."""
    from audit.nightly import check_ledger

    return check_ledger()


# As long as the close: a night checks every day again.
LIMITS = {"time_limit": settings.CELERY_CLOSE_TIME_LIMIT,
          "soft_time_limit": settings.CELERY_CLOSE_TIME_LIMIT - 60}  # fmt: skip


@shared_task(name="audit.verify_projections", **LIMITS)
def verify_projections() -> dict[str, object]:
    """The nightly check of the read models (beat, migration audit.0015):
    every day and what has no day, in parts (``verify_projections_part``),
    its outcome recorded in the ledger, which the floor board and the
    finance pages show."""
    from audit.nightly_projections import check_projections

    return check_projections()


@shared_task(name="audit.verify_projections_part", **LIMITS)
def verify_projections_part(directory: str, index: int) -> str:
    """One part of the nightly check (``audit.nightly_projections``): checked
    here unless the job's own process, or another worker, holds it. Safe to
    deliver again: a part checked already, or of a check that has ended, is
    left."""
    from audit.nightly_projections import run_part

    return run_part(directory, index)


@shared_task(name="audit.prepare_partitions")
def prepare_partitions() -> list[str]:
    """The ledger's partitions for this gaming day and the next 60 (beat,
    migration audit.0017), made ahead so no stream lands in the default
    partition (``audit.partitions``); nothing on SQLite."""
    import datetime

    from audit import clock, partitions

    today = partitions.gaming_day(clock.now())
    return partitions.ensure_partitions(today, today + datetime.timedelta(days=60))
