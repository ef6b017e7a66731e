from django.apps import AppConfig


class TablesConfig(AppConfig):
    name = "tables"
    verbose_name = "Tables and rounds"

    def ready(self) -> None:
        # Register round event types, the round stream kind, projections and
        # the read models the ledger's exports carry.
        from tables import (  # noqa: F401
            compliance,
            count,
            day_streams,
            decks,
            dice,
            exports,
            projections,
            reviews,
            round_events,
            table_day,
        )
