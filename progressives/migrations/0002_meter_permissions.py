"""Append permissions for the meters' streams (``meter:<id>``): the dealer pays and
reads the controller, the table device reads it and records the round's accepted
wagers and hits, the floorperson validates payments, the shift supervisor and the
administrator configure, finance and supervisors sign adjustments. Who must sign
which step (two people for an adjustment) is the meter stream's policy."""

from django.db import migrations
from django.utils import timezone

GRANTS = {
    "dealer": ["meter.paid", "meter.read"],
    "table device": ["meter.contributed", "meter.hit", "meter.read"],
    "floorperson": ["meter.hit", "meter.paid", "meter.read"],
    "shift supervisor": ["meter.*"],
    "administrator": ["meter.*"],
    "finance": ["meter.adjustment_proposed", "meter.adjusted"],
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
            if created:  # with its history, as verify_ledger expects (audit 0008)
                History.objects.create(
                    id=permission.id, role_id=group.id, event_type=event_type,
                    history_type="+", history_date=timezone.now(),
                    history_change_reason="granted by a migration",
                )  # fmt: skip


class Migration(migrations.Migration):
    dependencies = [("progressives", "0001_meters"), ("audit", "0015_nightly_projection_check")]
    operations = [migrations.RunPython(grant, migrations.RunPython.noop)]
