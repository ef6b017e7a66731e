import datetime
import multiprocessing
import time

from django.core.management.base import BaseCommand, CommandError
from django.db import connections
from tqdm import tqdm

from tables.verification import (
    ReplaySummary,
    RoundSelection,
    count_rounds,
    replay_rounds,
    replay_tables,
    split_tables,
    tables_of,
)


def _replay_part(job: tuple[RoundSelection, list[str]]) -> ReplaySummary:
    """One worker's share (some tables); runs in a child process."""
    connections.close_all()  # never share the parent's connection
    return replay_tables(*job)


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
        parser.add_argument(
            "--workers", type=int, default=1, help="processes sharing the rounds (one per core)"
        )
        parser.add_argument("--list", action="store_true", help="list every finding")
        parser.add_argument("--no-progress", action="store_true")

    def handle(
        self,
        *args,
        gaming_day=None,
        table=None,
        workers=1,
        list=False,
        no_progress=False,
        **options,
    ):
        selection = RoundSelection(gaming_day=gaming_day, table_id=table)
        total = count_rounds(selection)
        hands = self._poker_hands(gaming_day, table, list)
        hands += self._time_charges(gaming_day, table)
        if total == 0 and hands == 0:
            raise CommandError(
                f"no rounds match gaming day {gaming_day or 'any'}, table {table or 'any'}"
            )
        if total == 0:
            return
        if list and workers > 1:
            raise CommandError("--list replays in one process; drop --workers")
        started = time.perf_counter()
        with tqdm(total=total, unit="round", desc="replaying", disable=no_progress or None) as bar:
            if workers > 1:
                summary = self._fan_out(selection, workers, bar)
                listed = []
            else:
                listed = []

                def on_round(verified):
                    bar.update(1)
                    if list and verified.result is not None:
                        listed.extend((verified.stream_id, f) for f in verified.result.findings)

                summary = replay_rounds(selection, on_round=on_round)
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
            f"events/s, {summary.rounds / max(elapsed, 1e-9):,.0f} rounds/s)"
        )
        self.stdout.write(f"Rounds with findings: {summary.rounds_with_findings:,}")
        for kind, count in sorted(summary.findings.items()):
            self.stdout.write(f"  {kind:<26} {count:>8,}")
        if not summary.findings:
            self.stdout.write("  no findings: every recorded settlement matches the regulation")
        for stream_id, reason in summary.refused:
            self.stdout.write(self.style.ERROR(f"  {stream_id}: not replayable: {reason}"))

    def _poker_hands(self, gaming_day, table, listing) -> int:
        """The poker hands (§ 553) replayed through the hand machine; how many there were."""
        from tables.poker_hands import replay_hands

        hands, events, found, refused, listed = replay_hands(gaming_day, table)
        if hands == 0:
            return 0
        for stream_id, finding in listed if listing else ():
            self.stdout.write(f"{stream_id} seat {finding.seat} pot {finding.pot}: "
                              f"{finding.kind} expected {finding.expected_cents / 100:,.2f} "
                              f"recorded {finding.recorded_cents / 100:,.2f} "
                              f"(§ {finding.section})")  # fmt: skip
        self.stdout.write(f"Replayed {hands:,} poker hands, {events:,} events; findings:")
        for key, count in sorted(found.items()):
            self.stdout.write(f"  {key:<48} {count:>8,}")
        if not found:
            self.stdout.write("  no findings: every hand's pots, rake and Bad Beat "
                              "contribution match the rules")  # fmt: skip
        for stream_id in refused:
            self.stdout.write(self.style.ERROR(f"  {stream_id}: not replayable: its Bad Beat "
                                               "fund had no rules in force that day"))  # fmt: skip
        return hands

    def _time_charges(self, gaming_day, table) -> int:
        """A day's time charges (§ 553.15(b)(3)) judged against the posted schedules, by
        table; how many periods there were."""
        from tables.time_charges import charge_days

        if gaming_day is None:
            return 0
        tables = {t: c for t, c in charge_days(gaming_day, 2**62).items()
                  if table is None or t == table}  # fmt: skip
        for table_id, charges in tables.items():
            self.stdout.write(f"Time charges at {table_id}: {charges['periods']} periods, "
                              f"{charges['collected_cents'] / 100:,.2f} collected, "
                              f"{charges['required_cents'] / 100:,.2f} required, "
                              f"{charges['verified_cents'] / 100:,.2f} verified")  # fmt: skip
            for key, count in sorted(charges["findings"].items()):
                self.stdout.write(f"  {key:<48} {count:>8,}")
        return sum(charges["periods"] for charges in tables.values())

    def _fan_out(self, selection, workers, bar) -> ReplaySummary:
        """The rounds split by table into parts, more parts than workers (so
        the bar moves and a slow part doesn't idle the rest): Celery tasks on
        the broker's workers when there is one, else a pool forked here."""
        from django.conf import settings

        parts = split_tables(tables_of(selection), workers * 4)
        summary = ReplaySummary()
        if not settings.CELERY_TASK_ALWAYS_EAGER:
            if not settings.CELERY_RESULT_BACKEND:
                raise CommandError("--workers with a broker collects the parts' summaries "
                                   "through CELERY_RESULT_BACKEND: set it, or drop --workers")
            from celery import group

            from tables.tasks import replay_tables_task

            day = selection.gaming_day.isoformat() if selection.gaming_day else None
            result = group(replay_tables_task.s(day, part) for part in parts).apply_async()
            for payload in result.get():
                part = ReplaySummary.from_payload(payload)
                summary.merge(part)
                bar.update(part.rounds)
            return summary
        connections.close_all()
        context = multiprocessing.get_context("fork")
        with context.Pool(workers) as pool:
            for part in pool.imap_unordered(_replay_part, [(selection, p) for p in parts]):
                summary.merge(part)
                bar.update(part.rounds)
        return summary
