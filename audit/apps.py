from django.apps import AppConfig


class AuditConfig(AppConfig):
    name = "audit"
    verbose_name = "Audit ledger"

    def ready(self) -> None:
        # Register the ledger's own event types, projections and the export
        # download events, the retention records, and the read models' check
        # against the ledger.
        from audit import (  # noqa: F401
            consistency,
            event_types,
            exports,
            nightly,
            projections,
            retention,
        )
