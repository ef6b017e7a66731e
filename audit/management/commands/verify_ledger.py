import sys

from django.core.management.base import BaseCommand
from tqdm import tqdm

from audit.ledger import head_position
from audit.verify import verify


class Command(BaseCommand):
    help = "Recompute every stream's hash chain; exit 1 naming the first broken event of each."

    def add_arguments(self, parser):
        parser.add_argument("--no-progress", action="store_true", help="no progress bar")

    def handle(self, *args, no_progress=False, **options):
        with tqdm(
            total=head_position(), unit="ev", disable=no_progress or None, desc="verifying"
        ) as bar:
            report = verify(progress=bar.update)
        for problem in report.breaks:
            self.stdout.write(self.style.ERROR(f"BROKEN {problem}"))
        for problem in report.position_problems:
            self.stdout.write(self.style.ERROR(f"BROKEN global order: {problem}"))
        summary = f"{report.events} events in {report.streams} streams checked"
        if report.ok:
            self.stdout.write(self.style.SUCCESS(f"OK: {summary}; every hash chain intact"))
            return
        self.stdout.write(
            self.style.ERROR(
                f"FAILED: {summary}; {len(report.breaks)} broken stream(s)"
                + (", global order broken" if report.position_problems else "")
            )
        )
        sys.exit(1)
