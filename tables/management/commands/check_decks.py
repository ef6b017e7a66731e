"""``manage.py check_decks``: the deck job once, now (what beat runs every minute)."""

from __future__ import annotations

import datetime

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from tables.compliance import check_decks


class Command(BaseCommand):
    help = (
        "Raise deck-change (§ 592.3(c)) and stub-count (§ 592.8(f)) findings due now; idempotent."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--now",
            help="check as of this ISO 8601 moment with a time zone (default: the clock)",
        )

    def handle(self, *args, now=None, **options):
        moment = timezone.now()
        if now:
            try:
                moment = datetime.datetime.fromisoformat(now)
            except ValueError:
                raise CommandError(f"--now {now!r} is not an ISO 8601 moment") from None
            if moment.tzinfo is None:
                raise CommandError("--now needs a time zone (e.g. 2024-05-01T14:00:00+00:00)")
        raised = check_decks(moment)
        for finding in raised:
            self.stdout.write(f"{finding.event_type} {finding.stream_id}")
        self.stdout.write(f"{len(raised)} finding(s) raised")
