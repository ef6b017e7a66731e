from django.apps import AppConfig
from django.db.models.signals import post_migrate


class CasinoConfig(AppConfig):
    name = "casino"
    verbose_name = "Casino"

    def ready(self) -> None:
        from casino import checks  # noqa: F401  (registers system checks)
        from casino.permissions import sync_role_permissions

        post_migrate.connect(sync_role_permissions, sender=self)
