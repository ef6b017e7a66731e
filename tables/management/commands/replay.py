import datetime
import time

from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm

from tables.verification import count_rounds, replay_rounds


class Command(BaseCommand):
    help = (
        "Replay rounds from the ledger through the rules engine and report every "
        "difference between what the dealer did and what the regulation requires."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--gaming-day", type=datetime.date.fromisoformat, help="YYYY-MM-DD (default: every day)"
        )
        parser.add_argument("--table", help="table id (default: every table)")
        parser.add_argument("--list", action="store_true", help="list every finding")
        parser.add_argument("--no-progress", action="store_true")

    def handle(self, *args, gaming_day=None, table=None, list=False, no_progress=False, **options):
        total = count_rounds(gaming_day=gaming_day, table_id=table)
        if total == 0:
            raise CommandError(
                f"no rounds match gaming day {gaming_day or 'any'}, table {table or 'any'}"
            )
        listed = []
        started = time.perf_counter()
        with tqdm(total=total, unit="round", desc="replaying", disable=no_progress or None) as bar:

            def on_round(verified):
                bar.update(1)
                if list and verified.result is not None:
                    listed.extend((verified.stream_id, f) for f in verified.result.findings)

            summary = replay_rounds(gaming_day=gaming_day, table_id=table, on_round=on_round)
        elapsed = time.perf_counter() - started
        for stream_id, finding in listed:
            self.stdout.write(
                f"{stream_id} seat {finding.seat} {finding.wager}: {finding.kind} "
                f"expected {finding.expected_cents / 100:,.2f} recorded "
                f"{finding.recorded_cents / 100:,.2f} (§ {finding.section})"
            )
        self.stdout.write(
            f"Replayed {summary.rounds:,} rounds, {summary.events:,} events "
            f"in {elapsed:.1f} s ({summary.events / max(elapsed, 1e-9):,.0f} "
            "events/s)"
        )
        self.stdout.write(f"Rounds with findings: {summary.rounds_with_findings:,}")
        for kind, count in sorted(summary.findings.items()):
            self.stdout.write(f"  {kind:<26} {count:>8,}")
        if not summary.findings:
            self.stdout.write("  no findings: every recorded settlement matches the regulation")
        for stream_id, reason in summary.refused:
            self.stdout.write(self.style.ERROR(f"  {stream_id}: not replayable: {reason}"))
