import datetime

from django.core.management.base import BaseCommand, CommandError

from audit.seals import SealError, seal_day


class Command(BaseCommand):
    help = "Seal a gaming day: sign the Merkle root of its stream heads (idempotent)."

    def add_arguments(self, parser):
        parser.add_argument("--day", required=True, type=datetime.date.fromisoformat,
                            help="the gaming day, YYYY-MM-DD")  # fmt: skip

    def handle(self, *args, day, **options):
        try:
            seal = seal_day(day)
        except SealError as error:
            raise CommandError(str(error)) from None
        self.stdout.write(
            f"gaming day {day}: {seal.event_count} events in {seal.stream_count} streams\n"
            f"merkle root {seal.merkle_root}\nseal hash   {seal.seal_hash}\n"
            f"public key  {seal.public_key}"
            + ("  (DEVELOPMENT KEY)" if seal.development_key else "")
        )
