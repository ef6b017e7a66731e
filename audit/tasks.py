"""Celery wrappers: the plain functions live in audit.projections,
audit.verify and audit.consistency."""

from celery import shared_task

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


@shared_task(name="audit.verify_projections")
def verify_projections() -> dict[str, object]:
    """The nightly check of the read models (beat, migration audit.0015):
    ``verify_projections`` over the whole ledger, its outcome recorded in
    the ledger, which the floor board and the finance pages show."""
    from audit.consistency import check_projections

    return check_projections()


@shared_task(name="audit.prepare_partitions")
def prepare_partitions() -> list[str]:
    """The ledger's partitions for this gaming day and the next 60 (beat,
    migration audit.0017), made ahead so no stream lands in the default
    partition (``audit.partitions``); nothing on SQLite."""
    import datetime

    from audit import clock, partitions

    today = partitions.gaming_day(clock.now())
    return partitions.ensure_partitions(today, today + datetime.timedelta(days=60))
