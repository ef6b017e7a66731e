"""A day's poker hands are among its own streams (``tables.day_streams``) and the
close replays them (``operations.day_read``): both find them by the gaming day in
their ``poker.hand_opened``, which this partial index serves as 0002 and 0009
serve the rounds' and slips' (PostgreSQL only)."""

from django.db import migrations

NAME = "ledger_poker_hand_opened_day"
DEFINITION = ("((payload ->> 'gaming_day'), stream_id) WHERE version = 1 "
              "AND event_type = 'poker.hand_opened'")  # fmt: skip


def create(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(f"CREATE INDEX IF NOT EXISTS {NAME} ON ledger_event {DEFINITION}")


def drop(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(f"DROP INDEX IF EXISTS {NAME}")


class Migration(migrations.Migration):
    dependencies = [("tables", "0012_poker_hand_permissions")]
    operations = [migrations.RunPython(create, drop)]
