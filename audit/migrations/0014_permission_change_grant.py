"""Administrators append the steps of a change of append permissions
(``permission.*``: proposed, confirmed, rejected); the stream's policy
(casino.permission_changes) makes the confirmation a second administrator's."""

from django.db import migrations
from django.utils import timezone

GRANTS = {"administrator": ["permission.*"]}


def grant(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    AppendPermission = apps.get_model("audit", "AppendPermission")
    History = apps.get_model("audit", "HistoricalAppendPermission")
    for role, event_types in GRANTS.items():
        group, _ = Group.objects.get_or_create(name=role)
        for event_type in event_types:
            permission, created = AppendPermission.objects.get_or_create(
                role=group, event_type=event_type
            )
            if created:  # with its history, as verify_ledger expects (0008)
                History.objects.create(
                    id=permission.id, role_id=group.id, event_type=event_type,
                    history_type="+", history_date=timezone.now(),
                    history_change_reason="granted by a migration",
                )  # fmt: skip


class Migration(migrations.Migration):
    dependencies = [("audit", "0013_rejected_body_bounded")]
    operations = [migrations.RunPython(grant, migrations.RunPython.noop)]
