"""Replay and the gaming-day close select a day's rounds by the gaming day in
their round.opened payload: a partial expression index serves that (PostgreSQL;
the embedded SQLite default scans, which is fine at its size)."""

from django.db import migrations


def create(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(
            "CREATE INDEX IF NOT EXISTS ledger_round_opened_day ON ledger_event "
            "((payload ->> 'gaming_day'), stream_id) WHERE event_type = 'round.opened'"
        )


def drop(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("DROP INDEX IF EXISTS ledger_round_opened_day")


class Migration(migrations.Migration):
    dependencies = [("tables", "0001_initial"), ("audit", "0002_append_only")]
    operations = [migrations.RunPython(create, drop)]
