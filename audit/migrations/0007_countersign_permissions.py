"""Append permissions for countersignatures: the second signer of a
two-person event confirms it in person (``table.countersigned``: the dealer
of an opener or closer; ``slip.countersigned``: the witness of a void, who
may be a cage cashier). Floorpersons and shift supervisors already hold
``table.*`` and ``slip.*``."""

from django.db import migrations

GRANTS = {
    "dealer": ["table.countersigned"],
    "cage cashier": ["slip.countersigned"],
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
    dependencies = [("audit", "0006_count_permissions")]
    operations = [migrations.RunPython(grant, revoke)]
