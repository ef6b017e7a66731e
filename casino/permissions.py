"""What each role may see and do in the admin, kept in step after every migrate.

Ledger rows are never editable by anyone (the admin classes refuse it and the
database refuses it); this only decides who may *view* which models and who
may edit configuration.
"""

from __future__ import annotations

from casino.roles import Role

#: Apps whose models every casino role may view in the admin.
VIEWABLE_APPS = ("audit", "casino", "tables", "progressives")
#: The ledger's own machinery, not what anyone works with: only administrators see it.
ADMINISTRATORS_ONLY = ("audit.projectioncheckpoint", "audit.streamindex")
#: Configuration a role may change (app_label.model).
EDITABLE = {
    # Append permissions change by proposal and a second administrator's
    # confirmation (casino.permission_changes), never by editing the rows.
    Role.ADMINISTRATOR: ("casino.variancepolicy", "operations.devicetoken"),
    Role.FINANCE: ("casino.variancepolicy",),
}


def sync_role_permissions(sender=None, **kwargs) -> None:
    from django.contrib.auth.models import Group, Permission

    viewable = Permission.objects.filter(
        content_type__app_label__in=VIEWABLE_APPS, codename__startswith="view_"
    )
    internal: set = set()
    for label in ADMINISTRATORS_ONLY:
        app_label, model = label.split(".")
        internal |= set(Permission.objects.filter(content_type__app_label=app_label,
                                                  content_type__model=model))  # fmt: skip
    for role in Role:
        group, _ = Group.objects.get_or_create(name=role.value)
        wanted = set(viewable)
        for label in EDITABLE.get(role, ()):
            app_label, model = label.split(".")
            wanted |= set(
                Permission.objects.filter(
                    content_type__app_label=app_label, content_type__model=model
                )
            )
        if role != Role.ADMINISTRATOR:
            wanted -= internal
            group.permissions.remove(*internal)
        group.permissions.add(*wanted)
