import datetime

from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm

from tables.rules.rulesets import RULESETS, get_ruleset
from tables.simulation import TablePlan, simulate_gaming_day


class Command(BaseCommand):
    help = "Simulate a gaming day of play at tables, appending every round to the ledger."

    def add_arguments(self, parser):
        parser.add_argument("--day", type=datetime.date.fromisoformat, required=True)
        parser.add_argument(
            "--table",
            action="append",
            required=True,
            metavar="ID=RULESET",
            help="e.g. CC-1=PA-674a-2019 (repeatable)",
        )
        parser.add_argument("--rounds", type=int, default=100, help="rounds per table")
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--dealer-error-percent", type=int, default=2)
        parser.add_argument("--irregularity-percent", type=int, default=1)
        parser.add_argument(
            "--rounds-per-commit",
            type=int,
            default=1,
            help="append this many rounds per transaction (bulk loads)",
        )
        parser.add_argument("--no-progress", action="store_true")

    def handle(
        self,
        *args,
        day,
        table,
        rounds,
        seed,
        dealer_error_percent,
        irregularity_percent,
        rounds_per_commit=1,
        no_progress=False,
        **options,
    ):
        plans = []
        for spec in table:
            table_id, _, ruleset_id = spec.partition("=")
            if ruleset_id not in RULESETS:
                raise CommandError(
                    f"--table {spec}: unknown rule set {ruleset_id!r}; known: "
                    + ", ".join(sorted(RULESETS))
                )
            ruleset = get_ruleset(ruleset_id)
            if not ruleset.in_force(day) and ruleset.effective_from is not None:
                raise CommandError(
                    f"--table {spec}: rule set {ruleset_id} is not in force on "
                    f"{day} (from {ruleset.effective_from} "
                    f"to {ruleset.effective_to or 'now'})"
                )
            plans.append(TablePlan(table_id=table_id, ruleset_id=ruleset_id))
        with tqdm(
            total=rounds * len(plans),
            unit="round",
            desc=f"simulating {day}",
            disable=no_progress or None,
        ) as bar:
            summary = simulate_gaming_day(
                plans,
                day,
                rounds_per_table=rounds,
                seed=seed,
                dealer_error_percent=dealer_error_percent,
                irregularity_percent=irregularity_percent,
                rounds_per_commit=rounds_per_commit,
                progress=bar.update,
            )
        self.stdout.write(
            f"Appended {summary.rounds:,} rounds ({summary.events:,} events); "
            f"{len(summary.injected)} dealer errors injected."
        )
