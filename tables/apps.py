from django.apps import AppConfig
from django.db.models.signals import post_migrate


class TablesConfig(AppConfig):
    name = "tables"
    verbose_name = "Tables and rounds"

    def ready(self) -> None:
        # Register round event types, the round stream kind, projections and
        # the read models the ledger's exports carry.
        from audit import consistency, providers
        from tables import (  # noqa: F401
            bad_beat,
            compliance,
            configuration,
            count,
            day_streams,
            decks,
            dice,
            exports,
            floor_duties,
            poker_hands,
            projections,
            read_scope,
            reviews,
            round_events,
            table_day,
            time_charges,
            training,
            variance_reviews,
        )

        # The admin's configuration history is checked against the ledger's
        # events by verify_ledger; history from before the events is imported once.
        providers.register_side_check(
            "configuration", lambda: [str(d) for d in configuration.differences()]
        )
        # … and by verify_projections, beside the read models.
        consistency.register_check("tables.configuration", consistency.Check(
            differences=configuration.checked, rebuild=configuration.rebuild_history))
        post_migrate.connect(configuration.import_history, sender=self,
                             dispatch_uid="tables.configuration.import_history")  # fmt: skip
        post_migrate.connect(configuration.import_thresholds, sender=self,
                             dispatch_uid="tables.configuration.import_thresholds")  # fmt: skip
