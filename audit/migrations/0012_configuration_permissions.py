"""Append permissions for the configuration that decides money (issue 21):
administrators and shift supervisors configure tables, administrators,
finance and shift supervisors the casino's variance thresholds; which
stream each role may change, the second person's confirmation and the
segregation of duties are the configuration streams' policies
(``casino.configuration``). ``system`` already holds ``*``."""

from django.db import migrations
from django.utils import timezone

GRANTS = {
    "administrator": ["config.*"],
    "shift supervisor": ["config.*"],
    "finance": ["config.*"],
}


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
    dependencies = [("audit", "0011_batch_key_in_events")]
    operations = [migrations.RunPython(grant, migrations.RunPython.noop)]
