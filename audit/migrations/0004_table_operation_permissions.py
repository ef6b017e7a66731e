"""Append permissions for table operations, decks, slips and compliance
findings (data, editable in the admin). The role and two-person checks that
depend on who signs (a deck inspected and verified by different people, a
table opened by a dealer and a floorperson) are the streams' policies."""

from django.db import migrations

GRANTS = {
    "dealer": ["deck.inspected", "deck.spread", "deck.stub_counted", "table.buy_in"],
    "table device": ["deck.stub_counted", "table.buy_in"],
    "floorperson": ["table.*", "slip.*", "deck.*", "compliance.acknowledged"],
    "shift supervisor": ["table.*", "slip.*", "deck.*", "compliance.acknowledged"],
    "cage cashier": ["slip.fill_requested", "slip.credit_requested", "slip.approved"],
}


def grant(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    AppendPermission = apps.get_model("audit", "AppendPermission")
    for role, event_types in GRANTS.items():
        group, _ = Group.objects.get_or_create(name=role)
        for event_type in event_types:
            AppendPermission.objects.get_or_create(role=group, event_type=event_type)


class Migration(migrations.Migration):
    dependencies = [("audit", "0003_default_append_permissions")]
    operations = [migrations.RunPython(grant, migrations.RunPython.noop)]
