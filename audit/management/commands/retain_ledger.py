from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from audit.retention import RetentionRefused, retain


class Command(BaseCommand):
    help = (
        "Archive the gaming days older than the years kept to the write-once export store, "
        "verify the archive, record it in the ledger and only then detach their partitions "
        "(PostgreSQL); refuse, saying why, otherwise."
    )

    def add_arguments(self, parser):
        parser.add_argument("--older-than-years", type=int, default=None,
                            help="years kept (default LEDGER_RETENTION_YEARS, "
                            f"{settings.LEDGER_RETENTION_YEARS})")  # fmt: skip
        parser.add_argument("--drop", action="store_true",
                            help="drop the detached partitions too (the archive is then the "
                            "only copy)")  # fmt: skip

    def handle(self, *args, older_than_years=None, drop=False, **options):
        try:
            done = retain(older_than_years, drop=drop)
        except RetentionRefused as refusal:
            raise CommandError(f"retention refused: {refusal}") from None
        self.stdout.write(self.style.SUCCESS(
            f"Archived gaming days {done.first_day}..{done.last_day}: {done.events} events in "
            f"{done.streams} streams to {done.archive}, verified; partitions "
            f"{', '.join(done.partitions)} {'dropped' if drop else 'detached'}"))  # fmt: skip
