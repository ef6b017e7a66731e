"""Celery wrappers: the plain functions live in ``tables.compliance``.

``check_decks_task`` runs every minute from django-celery-beat (the
PeriodicTask row is created by migration ``tables.0004`` and editable in
the admin). With the embedded default nobody runs beat: use
``manage.py check_decks``.
"""

from celery import shared_task
from django.utils import timezone

from tables.compliance import check_decks


@shared_task(name="tables.check_decks")
def check_decks_task() -> list[str]:
    """Raise the deck findings due now; returns the streams of those raised."""
    return [finding.stream_id for finding in check_decks(timezone.now())]


@shared_task(name="tables.replay_tables")
def replay_tables_task(gaming_day: str | None, table_ids: list[str]) -> dict:
    """One part of ``manage.py replay --workers N`` with a broker: these
    tables' rounds of the day (or of every day) replayed, the summary as JSON."""
    import datetime

    from tables.verification import RoundSelection, replay_tables

    day = datetime.date.fromisoformat(gaming_day) if gaming_day else None
    return replay_tables(RoundSelection(gaming_day=day), table_ids).to_payload()
