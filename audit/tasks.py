"""Celery wrappers: the plain functions live in audit.projections."""

from celery import shared_task

from audit import projections


@shared_task(name="audit.run_projections")
def run_projections() -> dict[str, int]:
    return projections.run_all()
