import datetime
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from audit.exports import ExportError, export_day, export_range
from audit.seals import SealError


class Command(BaseCommand):
    help = (
        "Write a gaming day's regulator export (sealing the day first if needed): events, "
        "read-model CSVs, the seal, a manifest and an offline verifier."
    )

    def add_arguments(self, parser):
        day = datetime.date.fromisoformat
        parser.add_argument("--day", required=True, type=day, help="gaming day, YYYY-MM-DD")
        parser.add_argument("--to", type=day, help="last day of a range (inclusive)")
        parser.add_argument("--out", required=True, type=Path, help="directory to write into")
        parser.add_argument("--zip", action="store_true", help="also write a .zip of it")

    def handle(self, *args, day, to=None, out, zip=False, **options):
        try:
            if to is None:
                target = export_day(day, out, make_zip=zip)
            else:
                target = export_range(day, to, out, make_zip=zip)
        except (SealError, ExportError) as error:
            raise CommandError(str(error)) from None
        self.stdout.write(f"wrote {target}")
        if zip:
            self.stdout.write(f"wrote {target.with_suffix('.zip')}")
        self.stdout.write(f"check it with: python3 {target / 'verify_export.py'}")
