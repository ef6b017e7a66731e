"""Append permissions for the count of a table's drop (data, editable in the
admin). Finance and shift supervisors count and verify; there is no count
team role yet. The two-person check on verification is the count stream's
policy (``tables.count``); ``system`` already holds ``*``."""

from django.db import migrations

GRANTS = {
    "finance": ["count.*"],
    "shift supervisor": ["count.*"],
}


def grant(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    AppendPermission = apps.get_model("audit", "AppendPermission")
    for role, event_types in GRANTS.items():
        group, _ = Group.objects.get_or_create(name=role)
        for event_type in event_types:
            AppendPermission.objects.get_or_create(role=group, event_type=event_type)


def revoke(apps, schema_editor):
    AppendPermission = apps.get_model("audit", "AppendPermission")
    for role, event_types in GRANTS.items():
        AppendPermission.objects.filter(role__name=role, event_type__in=event_types).delete()


class Migration(migrations.Migration):
    dependencies = [("audit", "0005_day_seal")]
    operations = [migrations.RunPython(grant, revoke)]
