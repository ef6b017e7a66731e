from django.apps import AppConfig


class TablesConfig(AppConfig):
    name = "tables"
    verbose_name = "Tables and rounds"

    def ready(self) -> None:
        # Register round event types, the round stream kind and projections.
        from tables import compliance, count, decks, projections, round_events, table_day  # noqa: F401
