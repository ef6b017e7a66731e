"""The idempotency key of a batch, stored in its first event's metadata, is
unique in the ledger itself: a second store of the same batch is refused by
the database even if its ``ledger_idempotency`` record is lost (issue 21)."""

from django.db import migrations

INDEX = "ledger_event_batch_key"
EXPRESSION = {
    "postgresql": "(metadata->'idempotency'->>'key')",
    "sqlite": "json_extract(metadata, '$.idempotency.key')",
}


def install(apps, schema_editor):
    connection = schema_editor.connection
    expression = EXPRESSION[connection.vendor]
    with connection.cursor() as cursor:
        cursor.execute(
            f"CREATE UNIQUE INDEX {INDEX} ON ledger_event (({expression})) "
            f"WHERE {expression} IS NOT NULL"
        )


def remove(apps, schema_editor):
    with schema_editor.connection.cursor() as cursor:
        cursor.execute(f"DROP INDEX IF EXISTS {INDEX}")


class Migration(migrations.Migration):
    dependencies = [("audit", "0010_dice_permissions")]
    operations = [migrations.RunPython(install, remove)]
