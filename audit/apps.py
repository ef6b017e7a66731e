from django.apps import AppConfig


class AuditConfig(AppConfig):
    name = "audit"
    verbose_name = "Audit ledger"

    def ready(self) -> None:
        from audit import event_types  # noqa: F401  (registers the ledger's own types)
