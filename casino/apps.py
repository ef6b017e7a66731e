from django.apps import AppConfig
from django.db.models.signals import post_migrate


class CasinoConfig(AppConfig):
    name = "casino"
    verbose_name = "Casino"

    def ready(self) -> None:
        # System checks; the close stream, its events and projection; the close's schedule.
        from casino import checks, close, schedule  # noqa: F401
        from casino.permissions import sync_role_permissions

        # Every app's post_migrate: permissions of later apps exist only by then.
        post_migrate.connect(sync_role_permissions, dispatch_uid="casino.sync_role_permissions")
