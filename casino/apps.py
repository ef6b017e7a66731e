from django.apps import AppConfig
from django.db.models.signals import post_migrate


class CasinoConfig(AppConfig):
    name = "casino"
    verbose_name = "Casino"

    def ready(self) -> None:
        from audit import providers
        from casino import (  # noqa: F401  (system checks, event types, registrations)
            access,
            checks,
            configuration,
            permission_changes,
        )
        from casino.models import Casino
        from casino.permissions import sync_role_permissions
        from casino.roles import EXPORT_READERS, Role

        # What the ledger knows of the casino, by registration (it imports no app).
        providers.register_calendar(Casino.current)
        providers.register_roles(providers.LedgerRoles(
            system=Role.SYSTEM.value,
            export_readers=frozenset(role.value for role in EXPORT_READERS),
            devices=frozenset({Role.TABLE_DEVICE.value}),
        ))  # fmt: skip
        # Logins, failed logins, lockouts and logouts as ledger events.
        access.connect()
        # Every app's post_migrate: permissions of later apps exist only by then.
        post_migrate.connect(sync_role_permissions, dispatch_uid="casino.sync_role_permissions")
