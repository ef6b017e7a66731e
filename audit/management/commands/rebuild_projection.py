import getpass

from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm

from audit import consistency, projections
from audit.ledger import head_position


class Command(BaseCommand):
    help = ("Rebuild read models from scratch by replaying the ledger (all, or those named). "
            "First the same comparison as verify_projections: every row about to change is "
            "named, and recorded in the ledger with who ran the rebuild, before it is replaced.")

    def add_arguments(self, parser):
        parser.add_argument("names", nargs="*", help="projection names (default: all)")
        parser.add_argument("--by", default="", help="who runs it (default: the login name)")
        parser.add_argument("--no-progress", action="store_true")

    def handle(self, *args, names, by="", no_progress=False, **options):
        known = consistency.known_names()
        unknown = set(names) - set(known)
        if unknown:
            raise CommandError(f"unknown projection(s) {sorted(unknown)}; known: {known}")
        chosen = names or known
        with tqdm(unit="ev", desc="comparing", disable=no_progress or None) as bar:

            def progress(done: int, total: int) -> None:
                bar.total = total
                bar.update(done)

            found = consistency.verify(chosen, progress=progress)
        for difference in found.differences:
            self.stdout.write(self.style.WARNING(f"REPLACING {difference}"))
        if found.differences:
            # The evidence goes into the ledger before the rows are replaced.
            stream_id = consistency.record_rebuild(found, run_by=by or getpass.getuser())
            self.stdout.write(f"{len(found.differences)} difference(s) recorded in {stream_id} "
                              "before the rebuild")  # fmt: skip
        else:
            self.stdout.write("no difference from the ledger: the rebuild changes nothing")
        differing = {d.projection for d in found.differences}
        for name in chosen:
            if name not in projections.PROJECTIONS:
                # Rows beside the ledger (the admin's history) are rewritten
                # only where they differ: their ids are the admin's to keep.
                if name in differing:
                    consistency.rebuild_check(name)
                    self.stdout.write(f"{name}: rewritten from the ledger's events")
                continue
            with tqdm(
                total=head_position(), unit="ev", desc=name, disable=no_progress or None
            ) as bar:
                count = projections.rebuild(projections.PROJECTIONS[name], progress=bar.update)
            self.stdout.write(f"{name}: rebuilt from {count} events")
