from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm

from audit import projections
from audit.ledger import head_position


class Command(BaseCommand):
    help = "Rebuild read models from scratch by replaying the ledger (all, or those named)."

    def add_arguments(self, parser):
        parser.add_argument("names", nargs="*", help="projection names (default: all)")
        parser.add_argument("--no-progress", action="store_true")

    def handle(self, *args, names, no_progress=False, **options):
        unknown = set(names) - set(projections.PROJECTIONS)
        if unknown:
            raise CommandError(
                f"unknown projection(s) {sorted(unknown)}; known: {sorted(projections.PROJECTIONS)}"
            )
        for name in names or sorted(projections.PROJECTIONS):
            with tqdm(
                total=head_position(), unit="ev", desc=name, disable=no_progress or None
            ) as bar:
                count = projections.rebuild(projections.PROJECTIONS[name], progress=bar.update)
            self.stdout.write(f"{name}: rebuilt from {count} events")
