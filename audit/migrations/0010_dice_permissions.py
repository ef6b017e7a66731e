"""Append permissions for the dice's streams (§ 585.3, § 593.3), as for decks:
the dealer inspects; the floorperson and the shift supervisor record the whole
life. Who must sign which step is the dice stream's policy."""

from django.db import migrations
from django.utils import timezone

GRANTS = {
    "dealer": ["dice.inspected"],
    "floorperson": ["dice.*"],
    "shift supervisor": ["dice.*"],
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
    dependencies = [("audit", "0009_nightly_ledger_check")]
    operations = [migrations.RunPython(grant, migrations.RunPython.noop)]
