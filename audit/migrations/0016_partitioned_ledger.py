"""PostgreSQL: ``ledger_event`` becomes a table partitioned by the gaming day
each stream began on (``audit.partitions`` says why and how). The embedded
SQLite default keeps its plain table; ``ledger_stream`` exists there, unused.

An existing ledger is converted in place, in the migration's transaction:
the old table is renamed, the partitioned one made like it plus ``day_key``,
each stream's day key worked out from its first event (the gaming day of its
``recorded_at`` by the casino's calendar, or the lasting key for a lasting
kind), the rows copied in position order, every index the old table had made
again on the new one (a unique index gains ``day_key``: PostgreSQL enforces
uniqueness per partition), the append-only triggers installed, and the old
table dropped once the counts agree. Hashes and positions are copied as they
are: ``verify_ledger`` passes before and after.
"""

import datetime

from django.db import migrations, models

from audit import partitions

COLUMN_LIST = "USING btree ("


def _with_day_key(definition: str) -> str:
    """A unique index's definition with ``day_key`` as its last column."""
    start = definition.index(COLUMN_LIST) + len(COLUMN_LIST)
    depth = 1
    for at in range(start, len(definition)):
        depth += {"(": 1, ")": -1}.get(definition[at], 0)
        if depth == 0:
            return definition[:at] + ", day_key" + definition[at:]
    raise ValueError(f"no column list in {definition}")


def _gaming_day_sql(column: str) -> tuple[str, list]:
    calendar = partitions._calendar()
    if calendar is None:
        return f"({column} AT TIME ZONE 'UTC')::date", []
    starts = calendar.gaming_day_starts_at
    return (f"(({column} AT TIME ZONE %s) - %s::interval)::date",
            [calendar.time_zone, f"{starts.hour}:{starts.minute}:{starts.second}"])  # fmt: skip


def partition(apps, schema_editor):
    connection = schema_editor.connection
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute("ALTER TABLE ledger_event RENAME TO ledger_event_unpartitioned")
        cursor.execute("SELECT indexname, indexdef FROM pg_indexes "
                       "WHERE tablename = 'ledger_event_unpartitioned'")  # fmt: skip
        indexes = cursor.fetchall()
        cursor.execute("ALTER TABLE ledger_event_unpartitioned DROP CONSTRAINT ledger_event_pkey")
        for name, _ in indexes:
            if name != "ledger_event_pkey":
                cursor.execute(f"ALTER INDEX {name} RENAME TO {name}_unpartitioned")
        cursor.execute(
            "CREATE TABLE ledger_event (LIKE ledger_event_unpartitioned INCLUDING DEFAULTS, "
            f"day_key date NOT NULL DEFAULT '{partitions.LASTING_KEY.isoformat()}', "
            "CONSTRAINT ledger_event_pkey PRIMARY KEY (position, day_key)) "
            "PARTITION BY RANGE (day_key)"
        )
        cursor.execute(f"CREATE TABLE {partitions.LASTING_PARTITION} PARTITION OF ledger_event "
                       f"FOR VALUES FROM (MINVALUE) TO ('{partitions.LASTING_BELOW}')")  # fmt: skip
        cursor.execute(f"CREATE TABLE {partitions.DEFAULT_PARTITION} PARTITION OF ledger_event "
                       "DEFAULT")  # fmt: skip
        for name, definition in indexes:
            if name == "ledger_event_pkey":
                continue
            definition = definition.replace("ledger_event_unpartitioned", "ledger_event")
            if definition.startswith("CREATE UNIQUE"):
                definition = _with_day_key(definition)
            cursor.execute(definition)

        # Each stream's day key, from its first event (the casino's calendar
        # is asked only if there are events: on a new database its table may
        # not exist yet).
        cursor.execute("SELECT EXISTS (SELECT 1 FROM ledger_event_unpartitioned)")
        day, params = (_gaming_day_sql("recorded_at") if cursor.fetchone()[0]
                       else ("recorded_at::date", []))  # fmt: skip
        cursor.execute(
            "INSERT INTO ledger_stream (stream_id, day_key) "
            "SELECT DISTINCT ON (stream_id) stream_id, CASE WHEN split_part(stream_id, ':', 1) "
            f"= ANY(%s) THEN %s ELSE {day} END FROM ledger_event_unpartitioned "
            "ORDER BY stream_id, version",
            [partitions.lasting_kinds(), partitions.LASTING_KEY, *params],
        )
        # A partition for each period holding streams, and this one and the
        # next (beat's audit.prepare_partitions keeps ahead from then on);
        # none for the empty periods between, as each partition costs the
        # reads that cannot name a day key (bench/partitions.py).
        cursor.execute("SELECT DISTINCT day_key FROM ledger_stream WHERE day_key >= %s",
                       [partitions.LASTING_BELOW])  # fmt: skip
        today = datetime.date.today()
        days = [row[0] for row in cursor.fetchall()] + [today, today + datetime.timedelta(days=31)]
        for start in sorted({partitions.period(day)[0] for day in days}):
            partitions.ensure_partitions(start, start, cursor)
        cursor.execute(
            "INSERT INTO ledger_event SELECT o.*, s.day_key FROM ledger_event_unpartitioned o "
            "JOIN ledger_stream s ON s.stream_id = o.stream_id ORDER BY o.position"
        )
        copied = cursor.rowcount
        cursor.execute("SELECT count(*) FROM ledger_event_unpartitioned")
        if cursor.fetchone()[0] != copied:
            raise RuntimeError("the partitioned ledger did not receive every event")
        cursor.execute("DROP TABLE ledger_event_unpartitioned")

        # Append-only, as migration 0002 made the plain table.
        for table in ("ledger_event", "ledger_stream"):
            cursor.execute(
                f"CREATE TRIGGER {table}_no_change BEFORE UPDATE OR DELETE ON {table} "
                "FOR EACH ROW EXECUTE FUNCTION ledger_refuse_change()"
            )
        for table in ("ledger_event", "ledger_stream", partitions.LASTING_PARTITION,
                      partitions.DEFAULT_PARTITION):  # fmt: skip
            partitions.append_only(cursor, table)
        cursor.execute("ANALYZE ledger_event")


class Migration(migrations.Migration):
    dependencies = [("audit", "0015_nightly_projection_check")]

    operations = [
        migrations.CreateModel(
            name="StreamStart",
            fields=[
                ("stream_id", models.CharField(max_length=200, primary_key=True, serialize=False)),
                ("day_key", models.DateField()),
            ],
            options={"db_table": "ledger_stream"},
        ),
        # One way: going back would need the archived partitions back too.
        migrations.RunPython(partition, elidable=False),
    ]
