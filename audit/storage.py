"""How events are written and read, per database.

PostgreSQL: three statements per append (the day key; look up the head and
the idempotency key; then one statement that takes the head lock, inserts the
batch through ``jsonb_to_recordset`` and records the key), COPY for bulk
appends, and a psycopg cursor with C loaders for reads. SQLite (the embedded
default): portable SQL through Django's cursor.
"""

from __future__ import annotations

import contextlib
import itertools
import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any, NamedTuple

import orjson
import psycopg
from django.db import DEFAULT_DB_ALIAS, connection, connections

from audit import clock, errors, partitions
from audit.hashing import GENESIS_HASH, canonical_payload, chained_hash, format_timestamp
from audit.records import Actor, NewEvent, RecordedEvent
from audit.registry import REGISTRY

COLUMNS = (
    "position, stream_id, version, event_type, schema_version, payload, metadata, "
    "occurred_at, recorded_at, prev_hash, hash"
)


class Lookup(NamedTuple):
    """A stream's head as an append finds it, and the idempotency key's record."""

    version: int
    hash: str
    earlier: tuple[str, Any] | None
    #: The stream's partition key (``audit.partitions``); None for a new
    #: stream, and on SQLite.
    day_key: date | None


@dataclass(frozen=True, slots=True)
class Row:
    version: int
    event_type: str
    schema_version: int
    payload: str
    metadata: str
    occurred_at: datetime
    prev_hash: str
    hash: str
    occurred_text: str


def rows_json(rows: list[Row]) -> str:
    """The batch as one JSON array for ``jsonb_to_recordset``, assembled from
    the canonical texts already built for hashing (nothing serialised twice)."""
    return (
        "["
        + ",".join(
            f'{{"v":{r.version},"t":{json.dumps(r.event_type)},"s":{r.schema_version},'
            f'"p":{r.payload},"m":{r.metadata},"o":"{r.occurred_text}","ph":"{r.prev_hash}",'
            f'"h":"{r.hash}"}}'
            for r in rows
        )
        + "]"
    )


def chain(
    stream_id: str,
    events: Sequence[NewEvent],
    head_version: int,
    head_hash: str,
    actor: Actor,
    idempotency_key: str | None,
    request_hash: str = "",
) -> tuple[list[Row], list[str], datetime]:
    """Hash-chain the batch onto the stream's head.

    The stored payload and metadata are the canonical JSON that was hashed;
    parts shared by the batch are serialised once. With an idempotency key,
    the batch's first event also carries ``idempotency`` (the key, the
    request's hash and the batch's size): a unique index on that key makes
    the database refuse a second store of the batch even if its idempotency
    record is lost, and the original answer can be read back from the events.
    """
    recorded_at = clock.now()
    recorded_text = format_timestamp(recorded_at)
    base_metadata: dict[str, Any] = {"actor": actor.username, "source": actor.source}
    if actor.device:
        base_metadata["device"] = actor.device
    if idempotency_key:
        base_metadata["idempotency_key"] = idempotency_key
    base_metadata_json = canonical_payload(base_metadata)
    stream_json = json.dumps(stream_id, ensure_ascii=False)
    types = REGISTRY.event_types
    rows: list[Row] = []
    hashes: list[str] = []
    prev_hash = head_hash
    for offset, event in enumerate(events, start=1):
        version = head_version + offset
        metadata_json = (
            canonical_payload({**base_metadata, **event.metadata})
            if event.metadata
            else base_metadata_json
        )
        if offset == 1 and idempotency_key:
            batch = {"key": idempotency_key, "request_hash": request_hash, "events": len(events)}
            metadata_json = canonical_payload(
                {**base_metadata, **event.metadata, "idempotency": batch}
            )
        occurred_at = event.occurred_at or recorded_at
        occurred_text = (
            recorded_text if occurred_at is recorded_at else format_timestamp(occurred_at)
        )
        schema_version = types[event.event_type].version
        payload_json = canonical_payload(event.payload)
        digest = chained_hash(
            stream_json=stream_json,
            version=version,
            type_json=json.dumps(event.event_type, ensure_ascii=False),
            schema_version=schema_version,
            payload_json=payload_json,
            metadata_json=metadata_json,
            occurred_at=occurred_text,
            recorded_at=recorded_text,
            prev_hash=prev_hash,
        )
        rows.append(
            Row(
                version,
                event.event_type,
                schema_version,
                payload_json,
                metadata_json,
                occurred_at,
                prev_hash,
                digest,
                occurred_text,
            )
        )
        hashes.append(digest)
        prev_hash = digest
    return rows, hashes, recorded_at


STREAM_KEY = "SELECT day_key FROM ledger_stream WHERE stream_id = %s::text"


def stream_key(stream_id: str) -> date | None:
    """The stream's day key (``audit.partitions``), from its start; None for
    a stream never started, and on SQLite."""
    if connection.vendor != "postgresql":
        return None
    with pg_cursor() as cursor:
        cursor.execute(STREAM_KEY, [stream_id])
        row = cursor.fetchone()
    return row[0] if row else None


def in_stream(stream_id: str) -> tuple[str, list[Any]]:
    """A WHERE clause selecting the stream's events, and its parameters.

    On PostgreSQL it names the stream's day key, read first: a query that
    names it reads one partition; one that does not opens every partition's
    indexes, which on a ledger holding a year made reading a stream several
    times slower (bench/partitions.py). A stream with no recorded start
    (rows written past the append service) is looked for everywhere."""
    key = stream_key(stream_id)
    if key is None:
        return "stream_id = %s", [stream_id]
    return "stream_id = %s AND day_key = %s", [stream_id, key]


class _PostgresStore:
    """Three statements per append: the day key, look up, write. (Not prepared:
    Django turns psycopg's prepared statements off, for connection poolers;
    the planning is a fraction of a millisecond of each.)

    The write is one statement: it moves ``ledger_head`` (taking its row lock
    until commit), inserts the whole batch with ``unnest`` and records the
    idempotency key, so the lock is held for one round trip plus the commit.
    The day key (``audit.partitions``) is read first, on its own: the
    lookup that names it reads the stream's partition only (``in_stream``).
    A stream never started has no events (every append records the start)
    and is not looked for; one started whose events are gone was archived by
    retention. The write of a stream's first events records its start.
    """

    LOOKUP = (
        "SELECT e.version, e.hash, i.request_hash, i.result::text "
        "FROM (SELECT 1) AS one "
        "LEFT JOIN LATERAL (SELECT version, hash FROM ledger_event "
        "WHERE stream_id = %(stream)s::text AND day_key = %(day_key)s::date "
        "ORDER BY version DESC LIMIT 1) AS e ON true "
        "LEFT JOIN ledger_idempotency AS i ON i.key = %(key)s::text"
    )
    WRITE = (
        "WITH head AS ("
        " UPDATE ledger_head SET position = position + %(n)s::int WHERE id = 1"
        " RETURNING position - %(n)s::int AS base"
        "), batch AS ("
        " INSERT INTO ledger_event (" + COLUMNS + ", day_key)"
        # Versions are contiguous, so each row's position follows from its version.
        " SELECT head.base + e.v - %(first_version)s::int + 1, %(stream)s::text, e.v, e.t, e.s,"
        " e.p, e.m, e.o, %(recorded_at)s::timestamptz, e.ph, e.h, %(day_key)s::date"
        " FROM head, jsonb_to_recordset(%(rows)s::jsonb)"
        " AS e(v int, t text, s int, p jsonb, m jsonb, o timestamptz, ph text, h text)"
        "), start AS ("
        # A second creation of the stream collides here, whatever its day key.
        " INSERT INTO ledger_stream (stream_id, day_key)"
        " SELECT %(stream)s::text, %(day_key)s::date WHERE %(first_version)s::int = 1"
        "), idempotency AS ("
        " INSERT INTO ledger_idempotency (key, stream_id, request_hash, result, created_at)"
        " SELECT %(key)s::text, %(stream)s::text, %(request_hash)s::text, jsonb_build_object("
        "'stream_id', %(stream)s::text, 'first_version', %(first_version)s::int,"
        " 'last_version', %(last_version)s::int, 'first_position', head.base + 1,"
        " 'last_position', head.base + %(n)s::int, 'hashes', %(hashes)s::jsonb),"
        " %(recorded_at)s::timestamptz FROM head WHERE %(key)s::text IS NOT NULL"
        ") SELECT base + 1 FROM head"
    )

    def _cursor(self) -> Any:
        return pg_cursor()

    def lookup(self, stream_id: str, key: str | None) -> Lookup:
        with self._cursor() as cursor:
            cursor.execute(STREAM_KEY, [stream_id])
            started = cursor.fetchone()
            day_key = started[0] if started else None
            cursor.execute(self.LOOKUP, {"stream": stream_id, "key": key, "day_key": day_key})
            version, digest, request_hash, result = cursor.fetchone()
        earlier = (request_hash, result) if request_hash is not None else None
        if version is None and day_key is not None:
            raise errors.ArchivedStream(
                f"stream {stream_id} was archived by the ledger's retention (its gaming day "
                f"{day_key} is past the retention period) and takes no more events",
                field="stream_id",
            )
        return Lookup(version or 0, digest or GENESIS_HASH, earlier, day_key)

    def write(
        self,
        stream_id: str,
        rows: list[Row],
        recorded_at: datetime,
        key: str | None,
        request_hash: str,
        hashes: list[str],
        head_version: int,
        day_key: date | None,
    ) -> int:
        if day_key is None:
            day_key = partitions.day_key(stream_id, recorded_at)
        with self._cursor() as cursor:
            cursor.execute(
                self.WRITE,
                {
                    "n": len(rows),
                    "stream": stream_id,
                    "recorded_at": recorded_at,
                    "rows": rows_json(rows),
                    "hashes": json.dumps(hashes),
                    "key": key,
                    "request_hash": request_hash,
                    "first_version": head_version + 1,
                    "last_version": head_version + len(rows),
                    "day_key": day_key,
                },
            )
            return cursor.fetchone()[0]


class _GenericStore:
    """Portable SQL for the embedded SQLite default."""

    def lookup(self, stream_id: str, key: str | None) -> Lookup:
        with connection.cursor() as cursor:
            earlier = None
            if key:
                cursor.execute(
                    "SELECT request_hash, result FROM ledger_idempotency WHERE key = %s", [key]
                )
                earlier = cursor.fetchone()
            cursor.execute(
                "SELECT version, hash FROM ledger_event WHERE stream_id = %s "
                "ORDER BY version DESC LIMIT 1",
                [stream_id],
            )
            head = cursor.fetchone()
        version, digest = (0, GENESIS_HASH) if head is None else head
        return Lookup(version, digest, (tuple(earlier) if earlier else None), None)

    def write(
        self,
        stream_id: str,
        rows: list[Row],
        recorded_at: datetime,
        key: str | None,
        request_hash: str,
        hashes: list[str],
        head_version: int,
        day_key: date | None,
    ) -> int:
        adapt = connection.ops.adapt_datetimefield_value
        count = len(rows)
        with connection.cursor() as cursor:
            # From here to commit we hold the write lock: keep it short.
            cursor.execute(
                "UPDATE ledger_head SET position = position + %s WHERE id = 1 RETURNING position",
                [count],
            )
            first_position = cursor.fetchone()[0] - count + 1
            params: list[Any] = []
            for position, row in enumerate(rows, start=first_position):
                params.extend(
                    (
                        position,
                        stream_id,
                        row.version,
                        row.event_type,
                        row.schema_version,
                        row.payload,
                        row.metadata,
                        adapt(row.occurred_at),
                        adapt(recorded_at),
                        row.prev_hash,
                        row.hash,
                    )
                )
            placeholders = ",".join(["(%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s)"] * count)
            cursor.execute(f"INSERT INTO ledger_event ({COLUMNS}) VALUES {placeholders}", params)
            if key:
                result = {
                    "stream_id": stream_id,
                    "first_version": head_version + 1,
                    "last_version": head_version + count,
                    "first_position": first_position,
                    "last_position": first_position + count - 1,
                    "hashes": hashes,
                }
                cursor.execute(
                    "INSERT INTO ledger_idempotency (key, stream_id, request_hash, result, "
                    "created_at) VALUES (%s, %s, %s, %s, %s)",
                    [key, stream_id, request_hash, json.dumps(result), adapt(recorded_at)],
                )
        return first_position


#: The batch key of an event's metadata, as its unique index (migration
#: ``audit.0011``) states it on each database.
BATCH_KEY = {
    "postgresql": "(metadata->'idempotency'->>'key')",
    "sqlite": "json_extract(metadata, '$.idempotency.key')",
}


def stored_batch(key: str) -> tuple[str, Any] | None:
    """The (request hash, result) of the batch stored under ``key``, read
    from the events themselves: the answer to a retry whose idempotency
    record is gone. ``None`` when no batch carries the key."""
    expression = BATCH_KEY[connection.vendor]
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT stream_id, version, metadata FROM ledger_event WHERE {expression} = %s",
            [key],
        )
        first = cursor.fetchone()
        if first is None:
            return None
        stream_id, version, metadata = first
        batch = loads_json(metadata)["idempotency"]
        cursor.execute(
            "SELECT position, hash FROM ledger_event WHERE stream_id = %s AND version >= %s "
            "AND version < %s ORDER BY version",
            [stream_id, version, version + batch["events"]],
        )
        rows = cursor.fetchall()
    result = {
        "stream_id": stream_id,
        "first_version": version,
        "last_version": version + len(rows) - 1,
        "first_position": rows[0][0],
        "last_position": rows[-1][0],
        "hashes": [digest for _, digest in rows],
    }
    return batch["request_hash"], result


def store() -> _PostgresStore | _GenericStore:
    return _PostgresStore() if connection.vendor == "postgresql" else _GenericStore()


def pg_cursor() -> Any:
    """A psycopg cursor on Django's connection (so inside its transaction)
    with server-side binding (parameters sent apart from the text) and
    psycopg's C timestamp loader instead of Django's Python one."""
    from psycopg.types.datetime import TimestamptzLoader

    connection.ensure_connection()
    cursor = psycopg.Cursor(connection.connection)
    cursor.adapters.register_loader("timestamptz", TimestamptzLoader)
    return cursor


_cursor_numbers = itertools.count(1)


def stream_rows(sql: str, params: Sequence[Any], page: int = 5000, *,
                own_connection: bool = False, binary: bool = False,
                ) -> Iterator[tuple[Any, ...]]:  # fmt: skip
    """Rows of one query, a page at a time through a server-side cursor: the
    database sorts once and memory stays flat however many rows. On
    PostgreSQL the cursor is psycopg's own, with its C timestamp loader
    (Django's Python loader costs more than the rest of a row); select JSON
    columns through ``json_text`` and decode them with ``loads_json``.

    Outside a transaction a named cursor must be WITH HOLD to outlive its
    statement, and PostgreSQL then computes and stores every row before
    sending the first. With ``own_connection`` (a read of a whole day, whose
    rows are all committed) the query runs instead in a transaction of a
    connection of its own, so rows are made as they are fetched: 15 % less of
    the server's time on a day's read. Inside a transaction (a test's) the
    query runs in it, as always. ``binary`` asks PostgreSQL for its binary
    format (psycopg's C loaders read it; select text for JSON then)."""
    if connection.vendor != "postgresql":
        with connection.chunked_cursor() as cursor:
            cursor.execute(sql, params)
            while rows := cursor.fetchmany(page):
                yield from rows
        return
    connection.ensure_connection()
    name = f"pitboss_stream_{next(_cursor_numbers)}"
    held = connection.get_autocommit()
    if not (held and own_connection):
        yield from _server_rows(connection.connection, name, sql, params, page, held, binary)
        return
    with _own_connection() as own, own.transaction():
        yield from _server_rows(own, name, sql, params, page, False, binary)


@contextlib.contextmanager
def _own_connection() -> Iterator[Any]:
    """A psycopg connection of its own to the default database, closed after."""
    own = connections.create_connection(DEFAULT_DB_ALIAS)
    try:
        own.ensure_connection()
        yield own.connection
    finally:
        own.close()


def each_row(sql: str, params: Sequence[Any], page: int = 5000, *,
             apart: bool = False) -> Iterator[tuple[Any, ...]]:  # fmt: skip
    """Rows of one query, consumed as they come: on PostgreSQL a plain query
    whose result psycopg streams a page at a time instead of holding it whole
    (a busy day's membership: 200,000 rows). Unlike ``stream_rows``'s cursor,
    the query may still run in parallel workers. Read it to the end.

    While psycopg streams a result its connection takes no other query: a
    caller that asks others as the rows come says ``apart``, and the rows come
    on a connection of their own (inside a transaction, a test's, through a
    server-side cursor in it, which leaves the connection free between pages)."""
    if apart and connection.vendor == "postgresql":
        connection.ensure_connection()
        if not connection.get_autocommit():
            name = f"pitboss_stream_{next(_cursor_numbers)}"
            yield from _server_rows(connection.connection, name, sql, params, page, False, False)
            return
        with _own_connection() as own, own.cursor() as cursor:
            yield from cursor.stream(sql, params, size=page)
        return
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            yield from cursor.cursor.stream(sql, params, size=page)
            return
        cursor.execute(sql, params)
        yield from cursor


def _server_rows(raw: Any, name: str, sql: str, params: Sequence[Any], page: int,
                 withhold: bool, binary: bool) -> Iterator[tuple[Any, ...]]:  # fmt: skip
    from psycopg.types.datetime import TimestamptzLoader

    with psycopg.ServerCursor(raw, name, withhold=withhold) as cursor:
        cursor.adapters.register_loader("timestamptz", TimestamptzLoader)
        cursor.itersize = page
        cursor.execute(sql, params, binary=binary)
        while rows := cursor.fetchmany(page):
            yield from rows


def timestamp_text(column: str) -> str:
    """A timestamp column as the hash chain writes it (RFC 3339 UTC with
    microseconds), formatted by PostgreSQL; SQLite's raw value goes through
    ``stamp``."""
    if connection.vendor == "postgresql":
        return (f"to_char({column} AT TIME ZONE 'UTC', "
                "'YYYY-MM-DD\"T\"HH24:MI:SS.US\"Z\"')")  # fmt: skip
    return column


def stamp(value: Any) -> str:
    """A timestamp as the chain writes it: selected through ``timestamp_text``,
    or as stored (a datetime; SQLite's text)."""
    if isinstance(value, str) and value.endswith("Z"):
        return value
    return format_timestamp(parse_time(value))


def json_text(column: str) -> str:
    """A JSON column as text (decoded once, by orjson, in ``loads_json``)."""
    return f"{column}::text" if connection.vendor == "postgresql" else column


def loads_json(data: Any) -> Any:
    """A JSON value read from the database: text is decoded, anything the
    driver already decoded is returned as is."""
    return _loads_json(data) if isinstance(data, str | bytes) else data


def _loads_json(data: Any) -> Any:
    """Decoding dominates reads: orjson is several times faster than json."""
    try:
        return orjson.loads(data)
    except orjson.JSONDecodeError:
        # orjson refuses integers beyond 64 bits; json reads anything we stored.
        return json.loads(data)


# --- reading -------------------------------------------------------------------


def read_columns() -> str:
    """The columns a reader selects, in ``RecordedEvent`` order. JSON comes
    back as text on every backend and is decoded once, by orjson."""
    cast = "::text" if connection.vendor == "postgresql" else ""
    return ", ".join(
        f"{column}{cast if column in ('payload', 'metadata') else ''}"
        for column in COLUMNS.replace(" ", "").split(",")
    )


def parse_time(value: Any) -> datetime:
    """A timestamp from SQLite: text, or a naive datetime where Django's
    converters already parsed it; stored in UTC either way."""
    if isinstance(value, str):
        return datetime.fromisoformat(value).replace(tzinfo=UTC)
    return value if value.tzinfo else value.replace(tzinfo=UTC)


def _decoder() -> Any:
    """Turn a raw row into a RecordedEvent, upcasting old payloads."""
    upcast = REGISTRY.upcast
    current = {name: t.version for name, t in REGISTRY.event_types.items()}
    loads = _loads_json
    make = RecordedEvent
    typed_times = connection.vendor == "postgresql"
    to_time = parse_time

    def decode(row: tuple[Any, ...]) -> RecordedEvent:
        (position, stream_id, version, event_type, schema_version, payload, metadata,
         occurred_at, recorded_at, prev_hash, digest) = row  # fmt: skip
        payload = loads(payload)
        if schema_version != current.get(event_type, schema_version):
            schema_version, payload = upcast(event_type, schema_version, payload)
        if not typed_times:
            occurred_at, recorded_at = to_time(occurred_at), to_time(recorded_at)
        return make(position, stream_id, version, event_type, schema_version, payload,
                    loads(metadata), occurred_at, recorded_at, prev_hash, digest)  # fmt: skip

    return decode


def select_events(sql: str, params: Sequence[Any]) -> list[RecordedEvent]:
    """Run a SELECT of ``read_columns()`` and decode the rows."""
    if connection.vendor == "postgresql":
        with pg_cursor() as cursor:
            cursor.execute(sql, params)
            rows = cursor.fetchall()
    else:
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            rows = cursor.fetchall()
    decode = _decoder()
    return [decode(row) for row in rows]


class EventFacts(NamedTuple):
    """What replaying a stream needs of a stored event: no metadata and no
    hashes, so a verifier reads and decodes half as much."""

    position: int
    stream_id: str
    version: int
    event_type: str
    schema_version: int
    payload: dict[str, Any]
    occurred_at: datetime


def fact_columns(alias: str = "") -> str:
    """The columns of ``EventFacts``, for ``select_facts``."""
    prefix = f"{alias}." if alias else ""
    cast = "::text" if connection.vendor == "postgresql" else ""
    return (f"{prefix}position, {prefix}stream_id, {prefix}version, {prefix}event_type, "
            f"{prefix}schema_version, {prefix}payload{cast}, {prefix}occurred_at")  # fmt: skip


def select_facts(sql: str, params: Sequence[Any]) -> list[EventFacts]:
    """Run a SELECT of ``fact_columns()``; payloads decoded and upcast."""
    postgres = connection.vendor == "postgresql"
    if postgres:
        with pg_cursor() as cursor:
            cursor.execute(sql, params)
            rows = cursor.fetchall()
    else:
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            rows = cursor.fetchall()
    return decode_facts(rows, typed_times=postgres)


def decode_facts(rows: Sequence[tuple[Any, ...]], *, typed_times: bool) -> list[EventFacts]:
    """Rows of ``fact_columns()`` (payload as JSON text) as ``EventFacts``,
    payloads upcast; ``typed_times`` when the driver already parsed them."""
    upcast = REGISTRY.upcast
    current = {name: t.version for name, t in REGISTRY.event_types.items()}
    loads = _loads_json
    facts = []
    for position, stream_id, version, event_type, schema_version, payload, occurred in rows:
        payload = loads(payload)
        if schema_version != current.get(event_type, schema_version):
            schema_version, payload = upcast(event_type, schema_version, payload)
        if not typed_times:
            occurred = parse_time(occurred)
        facts.append(
            EventFacts(position, stream_id, version, event_type, schema_version, payload, occurred)
        )
    return facts


def heads(stream_ids: Sequence[str]) -> dict[str, tuple[int, str]]:
    """Each existing stream's (version, hash) of its last event."""
    return {stream: (version, digest)
            for stream, (version, digest, _) in keyed_heads(stream_ids).items()}  # fmt: skip


def keyed_heads(stream_ids: Sequence[str]) -> dict[str, tuple[int, str, date | None]]:
    """Each existing stream's (version, hash) of its last event and its day
    key (``audit.partitions``; None on SQLite)."""
    heads: dict[str, tuple[int, str, date | None]] = {}
    unique = sorted(set(stream_ids))
    key = "e.day_key" if partitions.partitioned() else "NULL"
    with connection.cursor() as cursor:
        for start in range(0, len(unique), 500):
            chunk = unique[start : start + 500]
            placeholders = ",".join(["%s"] * len(chunk))
            cursor.execute(
                f"SELECT e.stream_id, e.version, e.hash, {key} FROM ledger_event e JOIN ("
                f" SELECT stream_id, max(version) AS version FROM ledger_event"
                f" WHERE stream_id IN ({placeholders}) GROUP BY stream_id"
                ") h ON h.stream_id = e.stream_id AND h.version = e.version",
                chunk,
            )
            for stream_id, version, digest, day_key in cursor.fetchall():
                heads[stream_id] = (version, digest, day_key)
    return heads
