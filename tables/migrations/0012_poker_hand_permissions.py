from django.db import migrations
from django.utils import timezone

#: Who records a poker hand (§ 553): the same roles that record a round; a Bad Beat
#: fund's rules are posted by a shift supervisor, its box counted by a dealer with a
#: floorperson or at the cage, and verified by a cashier (§ 553.20(b), (d), (e)).
GRANTS = {
    "table device": ["poker.*"],
    "dealer": ["poker.*", "badbeat.*"],
    "floorperson": ["poker.*", "badbeat.*"],
    "shift supervisor": ["poker.*", "badbeat.*"],
    "cage cashier": ["badbeat.*"],
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
            if created:  # the history verify_ledger expects of every grant (audit 0008)
                History.objects.create(
                    id=permission.id, role_id=group.id, event_type=event_type,
                    history_type="+", history_date=timezone.now(),
                    history_change_reason="granted by a migration",
                )  # fmt: skip


def revoke(apps, schema_editor):
    AppendPermission = apps.get_model("audit", "AppendPermission")
    for role, event_types in GRANTS.items():
        AppendPermission.objects.filter(role__name=role, event_type__in=event_types).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0011_round_opened_table_index"),
        ("audit", "0010_dice_permissions"),
    ]

    operations = [migrations.RunPython(grant, revoke)]
