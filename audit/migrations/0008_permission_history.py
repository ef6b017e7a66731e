"""A history record for every append permission granted by a migration.

``verify_ledger`` names any append permission without the history the
application writes with it (one inserted by SQL has none). The grants of
migrations 0003-0007 were made through historical models, which write no
history: they are recorded here once, as granted by a migration. A later
migration that grants a permission records its history the same way.
"""

from django.db import migrations
from django.utils import timezone


def record(apps, schema_editor):
    AppendPermission = apps.get_model("audit", "AppendPermission")
    History = apps.get_model("audit", "HistoricalAppendPermission")
    recorded = set(History.objects.values_list("id", flat=True))
    History.objects.bulk_create(
        History(id=p.id, role_id=p.role_id, event_type=p.event_type, history_type="+",
                history_date=timezone.now(), history_change_reason="granted by a migration")
        for p in AppendPermission.objects.exclude(id__in=recorded)
    )  # fmt: skip


class Migration(migrations.Migration):
    dependencies = [("audit", "0007_countersign_permissions")]
    operations = [migrations.RunPython(record, migrations.RunPython.noop)]
