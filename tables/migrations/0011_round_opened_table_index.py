"""A round opening at a table whose game carries something from round to round
(§ 585.3(j): the seat holding the shaker) reads the table's last round from the
ledger: a partial expression index on round.opened's table serves it (PostgreSQL;
the embedded SQLite default scans, which is fine at its size)."""

from django.db import migrations


def create(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(
            "CREATE INDEX IF NOT EXISTS ledger_round_opened_table ON ledger_event "
            "((payload ->> 'table_id'), position) WHERE event_type = 'round.opened'"
        )


def drop(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("DROP INDEX IF EXISTS ledger_round_opened_table")


class Migration(migrations.Migration):
    dependencies = [("tables", "0010_variance_reviews")]
    operations = [migrations.RunPython(create, drop)]
