"""Who may append what, as data (editable in the admin, history kept).

``family.*`` grants every event type of a family. Later migrations add the
table-operation families as those event types arrive.
"""

from django.db import migrations

DEFAULT_GRANTS = {
    "table device": ["round.*"],
    "dealer": ["round.*"],
    "floorperson": ["round.*", "ledger.correction"],
    "shift supervisor": ["round.*", "ledger.correction"],
    "administrator": ["ledger.correction"],
    "system": ["*"],
}


def grant(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    AppendPermission = apps.get_model("audit", "AppendPermission")
    for role, event_types in DEFAULT_GRANTS.items():
        group, _ = Group.objects.get_or_create(name=role)
        for event_type in event_types:
            AppendPermission.objects.get_or_create(role=group, event_type=event_type)


class Migration(migrations.Migration):
    dependencies = [("audit", "0002_append_only"), ("casino", "0001_roles")]
    operations = [migrations.RunPython(grant, migrations.RunPython.noop)]
