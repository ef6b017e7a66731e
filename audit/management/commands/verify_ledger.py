import sys

from django.core.management.base import BaseCommand
from tqdm import tqdm

from audit.ledger import head_position
from audit.verify import verify


class Command(BaseCommand):
    help = ("Recompute every stream's hash chain and check it against the stream index, the "
            "seals and the tables beside the ledger; exit 1 naming each inconsistency.")

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
        for what, problems in report.problems.items():
            for problem in problems:
                self.stdout.write(self.style.ERROR(f"BROKEN {what}: {problem}"))
        summary = (f"{report.events} events in {report.streams} streams and "
                   f"{report.seals} seals checked")  # fmt: skip
        if report.ok:
            self.stdout.write(self.style.SUCCESS(
                f"OK: {summary}; every hash chain intact, every stream head, seal and "
                "side table as recorded"))  # fmt: skip
            return
        self.stdout.write(
            self.style.ERROR(
                f"FAILED: {summary}; {len(report.breaks)} broken stream(s)"
                + (", global order broken" if report.position_problems else "")
                + "".join(f", {what} inconsistent" for what in report.problems)
            )
        )
        sys.exit(1)
