import datetime
import getpass
import sys
import time

from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm

from audit import consistency


class Command(BaseCommand):
    help = ("Recompute the read models (all, or those named) from the ledger into shadow tables "
            "and compare them with the stored rows; name every difference (table, key, field, "
            "stored value, the value the events give, the events) and exit 1 on any. The "
            "outcome is recorded in the ledger.")  # fmt: skip

    def add_arguments(self, parser):
        parser.add_argument("names", nargs="*", help="projection names (default: all)")
        parser.add_argument("--gaming-day", type=datetime.date.fromisoformat,
                            help="only the rows of this gaming day, YYYY-MM-DD")  # fmt: skip
        parser.add_argument("--by", default="", help="who runs it (default: the login name)")
        parser.add_argument("--workers", type=int, default=None,
                            help="processes sharing a gaming day's check, by table (default: "
                            "CLOSE_WORKERS on PostgreSQL, 1 on SQLite)")  # fmt: skip
        parser.add_argument("--no-progress", action="store_true", help="no progress bar")

    def handle(self, *args, names, gaming_day=None, by="", workers=None, no_progress=False,
               **options):  # fmt: skip
        with tqdm(unit="ev", desc="recomputing", disable=no_progress or None) as bar:

            def progress(done: int, total: int) -> None:
                if bar.total != total:
                    bar.total = total
                    bar.refresh()
                bar.update(done)

            started = time.perf_counter()
            try:
                result = consistency.verify(names, gaming_day=gaming_day, progress=progress,
                                            workers=workers or consistency.default_workers())
            except ValueError as error:
                raise CommandError(str(error)) from None
            seconds = time.perf_counter() - started
        for difference in result.differences:
            self.stdout.write(self.style.ERROR(f"DIFFERS {difference}"))
        for name in result.skipped:
            self.stdout.write(f"{name}: its rows have no gaming day; checked with the whole "
                              "ledger only")  # fmt: skip
        stream_id = consistency.record_verification(result, run_by=by or getpass.getuser())
        scope = f"gaming day {gaming_day}" if gaming_day else "the whole ledger"
        summary = (f"{len(result.projections) - len(result.skipped)} projection(s) and checks "
                   f"over {scope}, {result.events} events replayed in {seconds:.1f} s; recorded in "
                   f"{stream_id}")
        if result.ok:
            self.stdout.write(self.style.SUCCESS(f"OK: {summary}; every row is what the "
                                                 "events give"))  # fmt: skip
            return
        days = ", ".join(f"{day}: {count}" for day, count in result.by_day().items())
        self.stdout.write(self.style.ERROR(
            f"FAILED: {summary}; {len(result.differences)} difference(s) ({days})"))
        sys.exit(1)
