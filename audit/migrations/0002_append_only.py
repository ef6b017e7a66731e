"""The database itself refuses UPDATE, DELETE and TRUNCATE on the append-only
tables, on PostgreSQL and on the embedded SQLite alike.

Written as plain SQL rather than with django-pgtrigger: the SQLite default
needs hand-written triggers anyway, and pgtrigger's per-session "ignore"
switch would be an escape hatch any connection could turn on. Only a
PostgreSQL superuser can bypass these (session_replication_role = replica);
the hash chain makes even that evident.
"""

from django.core.exceptions import ImproperlyConfigured
from django.db import migrations

APPEND_ONLY_TABLES = ["ledger_event", "ledger_idempotency", "ledger_rejected"]

PG_FUNCTION = """
CREATE OR REPLACE FUNCTION ledger_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'append-only: % on % is refused; record a correction event instead',
        TG_OP, TG_TABLE_NAME USING ERRCODE = 'restrict_violation';
END
$$;
"""


def install(apps, schema_editor):
    connection = schema_editor.connection
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(PG_FUNCTION)
            for table in APPEND_ONLY_TABLES:
                cursor.execute(
                    f"CREATE TRIGGER {table}_no_change BEFORE UPDATE OR DELETE ON {table} "
                    "FOR EACH ROW EXECUTE FUNCTION ledger_refuse_change()"
                )
                cursor.execute(
                    f"CREATE TRIGGER {table}_no_truncate BEFORE TRUNCATE ON {table} "
                    "FOR EACH STATEMENT EXECUTE FUNCTION ledger_refuse_change()"
                )
        elif connection.vendor == "sqlite":
            # SQLite has no TRUNCATE; a DELETE without WHERE fires the trigger.
            for table in APPEND_ONLY_TABLES:
                for operation in ("UPDATE", "DELETE"):
                    cursor.execute(
                        f"CREATE TRIGGER {table}_no_{operation.lower()} BEFORE {operation} "
                        f"ON {table} BEGIN SELECT RAISE(ABORT, 'append-only: {operation} on "
                        f"{table} is refused; record a correction event instead'); END"
                    )
        else:
            raise ImproperlyConfigured(
                f"the ledger runs on PostgreSQL or SQLite, not {connection.vendor}: no "
                "append-only triggers for it"
            )
        cursor.execute("INSERT INTO ledger_head (id, position) VALUES (1, 0)")


def uninstall(apps, schema_editor):
    connection = schema_editor.connection
    with connection.cursor() as cursor:
        for table in APPEND_ONLY_TABLES:
            if connection.vendor == "postgresql":
                cursor.execute(f"DROP TRIGGER IF EXISTS {table}_no_change ON {table}")
                cursor.execute(f"DROP TRIGGER IF EXISTS {table}_no_truncate ON {table}")
            else:
                cursor.execute(f"DROP TRIGGER IF EXISTS {table}_no_update")
                cursor.execute(f"DROP TRIGGER IF EXISTS {table}_no_delete")


class Migration(migrations.Migration):
    dependencies = [("audit", "0001_initial")]
    operations = [migrations.RunPython(install, uninstall)]
