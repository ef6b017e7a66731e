from django.apps import AppConfig
from django.db.models.signals import post_migrate


class CasinoConfig(AppConfig):
    name = "casino"
    verbose_name = "Casino"

    def ready(self) -> None:
        from casino import checks  # noqa: F401  (registers system checks)
        from casino.permissions import sync_role_permissions

        # Every app's post_migrate: permissions of later apps exist only by then.
        post_migrate.connect(sync_role_permissions, dispatch_uid="casino.sync_role_permissions")
