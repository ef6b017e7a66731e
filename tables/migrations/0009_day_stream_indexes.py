"""A day's seal lists the day's own streams (``tables.day_streams``): the
slips by the gaming day in their opening event, the table days and counts by
their stream id's prefix. Two partial indexes over the streams' first events
serve that (PostgreSQL; the embedded SQLite default scans, which is fine at
its size); the rounds have theirs (0002)."""

from django.db import migrations

INDEXES = (
    ("ledger_slip_opened_day",
     "((payload ->> 'gaming_day'), stream_id) WHERE version = 1 "
     "AND event_type IN ('slip.fill_requested', 'slip.credit_requested')"),
    ("ledger_first_event_stream", "(stream_id text_pattern_ops) WHERE version = 1"),
)  # fmt: skip


def create(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        for name, definition in INDEXES:
            schema_editor.execute(f"CREATE INDEX IF NOT EXISTS {name} ON ledger_event {definition}")


def drop(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        for name, _ in INDEXES:
            schema_editor.execute(f"DROP INDEX IF EXISTS {name}")


class Migration(migrations.Migration):
    dependencies = [("tables", "0008_dice_sets")]
    operations = [migrations.RunPython(create, drop)]
