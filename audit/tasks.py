"""Celery wrappers: the plain functions live in audit.projections and
audit.verify."""

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
