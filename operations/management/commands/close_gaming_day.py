"""``manage.py close_gaming_day --day D``: the close job, here, with a
progress bar per stage (the same code Celery runs)."""

from __future__ import annotations

import datetime

from django.core.management.base import BaseCommand, CommandError
from django.db import connection
from tqdm import tqdm

from casino.models import Casino
from operations.close import CloseRefused, close_gaming_day
from tables.reconciliation import dollars


class Command(BaseCommand):
    help = (
        "Close a gaming day: check the tables and counts, replay every round, reconcile "
        "each table, seal the day and write the regulator export. Idempotent and resumable."
    )

    def add_arguments(self, parser):
        parser.add_argument("--day", type=datetime.date.fromisoformat,
                            help="YYYY-MM-DD (default: the gaming day that ended last)")
        parser.add_argument("--as", dest="requested_by", default="",
                            help="the person closing (a shift supervisor to --force)")
        parser.add_argument("--force", action="store_true",
                            help="close although tables are open or uncounted (those tables "
                            "get no win); shift supervisors only")
        parser.add_argument("--workers", type=int, default=0,
                            help="replay processes (default: 2 on PostgreSQL, 1 on SQLite)")
        parser.add_argument("--no-progress", action="store_true")  # fmt: skip

    def handle(self, *args, day=None, requested_by="", force=False, workers=0,
               no_progress=False, **options):  # fmt: skip
        from django.utils import timezone

        if day is None:
            day = Casino.current().gaming_day(timezone.now()) - datetime.timedelta(days=1)
        if force and not requested_by:
            raise CommandError("--force needs --as <shift supervisor's username>")
        if not workers:
            workers = 2 if connection.vendor == "postgresql" else 1
        bars: dict[str, tqdm] = {}

        def progress(stage: str, done: int, total: int) -> None:
            if no_progress:
                return
            bar = bars.get(stage)
            if bar is None:
                for other in bars.values():
                    other.close()
                bar = bars[stage] = tqdm(total=total, desc=f"{stage:>10}", unit="",
                                         leave=True)  # fmt: skip
            bar.total = total
            bar.n = done
            bar.refresh()

        try:
            report = close_gaming_day(day, requested_by=requested_by or "manage.py",
                                      force=force, progress=progress, workers=workers)  # fmt: skip
        except CloseRefused as refused:
            raise CommandError(str(refused)) from None
        finally:
            for bar in bars.values():
                bar.close()
        self.stdout.write(report.summary())
        if not report.already_closed:
            self.stdout.write(f"Win {dollars(report.win_cents)}; export {report.export}")
