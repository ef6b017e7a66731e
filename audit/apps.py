from django.apps import AppConfig


class AuditConfig(AppConfig):
    name = "audit"
    verbose_name = "Audit ledger"

    def ready(self) -> None:
        # Register the ledger's own event types and projections.
        from audit import event_types, projections  # noqa: F401
