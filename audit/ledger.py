"""The append service and the readers: the only way anything enters the ledger.

Append, in one transaction:

1. validate every event against its registered schema and the stream kind,
   and the actor's role against the append permissions (data);
2. look up the idempotency key: same body → the original result, another
   body → refused (422);
3. read the stream's head and compare the expected version (stale → 409);
4. let the stream kind's policy (the rules engine) refuse illegal events;
5. hash-chain the batch onto the head;
6. take the ``ledger_head`` row lock and hand out the next global positions,
   insert the rows and the idempotency record, commit.

Step 6 is last on purpose. The row lock is held until commit, so positions
are assigned in commit order and without gaps: a reader that follows the
global position never skips an event that commits late (the failure that
``eventsourcing`` avoids with a table lock; we lock one row, only for the
insert, and leave readers and the validation/hashing above unblocked). A
concurrent writer that read the same head collides on the unique
(stream_id, version) constraint and gets 409; nothing is half-written.

Every refusal is recorded in ``RejectedSubmission`` with the actor, the
reason and the raw body, in its own transaction.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import fastjsonschema
import orjson
import psycopg
from django.db import IntegrityError, connection, transaction
from django.db.models.signals import post_delete, post_save
from django.utils import timezone

from audit import errors
from audit.hashing import (
    GENESIS_HASH,
    canonical_json,
    canonical_payload,
    chained_hash,
    format_timestamp,
)
from audit.models import AppendPermission, RejectedSubmission
from audit.registry import REGISTRY, STREAM_ID

MAX_BATCH = 500
CLIENT_METADATA_KEYS = frozenset({"correlation_id", "causation_id"})

_COLUMNS = (
    "position, stream_id, version, event_type, schema_version, payload, metadata, "
    "occurred_at, recorded_at, prev_hash, hash"
)


@dataclass(frozen=True, slots=True)
class NewEvent:
    """An event as submitted: its type, payload and when it happened."""

    event_type: str
    payload: dict[str, Any]
    occurred_at: datetime | None = None
    metadata: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class RecordedEvent:
    """An event as stored, with its payload upcast to the current schema."""

    position: int
    stream_id: str
    version: int
    event_type: str
    schema_version: int
    payload: dict[str, Any]
    metadata: dict[str, Any]
    occurred_at: datetime
    recorded_at: datetime
    prev_hash: str
    hash: str

    def as_dict(self) -> dict[str, Any]:
        return {
            "position": self.position,
            "stream_id": self.stream_id,
            "version": self.version,
            "type": self.event_type,
            "schema_version": self.schema_version,
            "payload": self.payload,
            "metadata": self.metadata,
            "occurred_at": self.occurred_at.isoformat(),
            "recorded_at": self.recorded_at.isoformat(),
            "prev_hash": self.prev_hash,
            "hash": self.hash,
        }


@dataclass(frozen=True, slots=True)
class Actor:
    """Who appends: a person, a table device or a job, with their roles."""

    username: str
    roles: frozenset[str]
    user_id: int | None = None
    device: str = ""
    source: str = "api"

    @classmethod
    def from_user(cls, user: Any, *, device: str = "", source: str = "api") -> Actor:
        roles = (
            frozenset(user.groups.values_list("name", flat=True))
            if user.is_authenticated
            else frozenset()
        )
        return cls(
            username=user.get_username() if user.is_authenticated else "",
            roles=roles,
            user_id=user.pk if user.is_authenticated else None,
            device=device,
            source=source,
        )

    @classmethod
    def system(cls, name: str, *, source: str = "job") -> Actor:
        from casino.roles import Role

        return cls(username=name, roles=frozenset({Role.SYSTEM.value}), source=source)


@dataclass(frozen=True)
class AppendResult:
    stream_id: str
    first_version: int
    last_version: int
    first_position: int
    last_position: int
    hashes: tuple[str, ...]
    replayed: bool = False

    def as_dict(self) -> dict[str, Any]:
        return {
            "stream_id": self.stream_id,
            "first_version": self.first_version,
            "last_version": self.last_version,
            "first_position": self.first_position,
            "last_position": self.last_position,
            "hashes": list(self.hashes),
        }


# --- permissions -----------------------------------------------------------

_PERMISSION_TTL_SECONDS = 30.0
_permission_cache: dict[str, Any] = {"loaded_at": -1.0, "by_role": {}}


def _invalidate_permissions(**kwargs: Any) -> None:
    _permission_cache["loaded_at"] = -1.0


post_save.connect(_invalidate_permissions, sender=AppendPermission)
post_delete.connect(_invalidate_permissions, sender=AppendPermission)


def _grants_by_role() -> dict[str, frozenset[str]]:
    now = time.monotonic()
    if now - _permission_cache["loaded_at"] > _PERMISSION_TTL_SECONDS:
        by_role: dict[str, set[str]] = {}
        for role, event_type in AppendPermission.objects.values_list("role__name", "event_type"):
            by_role.setdefault(role, set()).add(event_type)
        _permission_cache["by_role"] = {role: frozenset(types) for role, types in by_role.items()}
        _permission_cache["loaded_at"] = now
    return _permission_cache["by_role"]


def _granted(patterns: frozenset[str], event_type: str) -> bool:
    if event_type in patterns or "*" in patterns:
        return True
    family = event_type.split(".", 1)[0] + ".*"
    return family in patterns


def may_append(actor: Actor, event_type: str) -> bool:
    grants = _grants_by_role()
    return any(_granted(grants.get(role, frozenset()), event_type) for role in actor.roles)


# --- validation --------------------------------------------------------------


FLOAT_REFUSED = "numbers must be integers (money is integer cents, odds are fractions)"
NUL_REFUSED = "text may not contain the NUL character (U+0000)"


def _unstorable(value: Any, path: str) -> tuple[str, str] | None:
    """The first value the ledger will not store, with the reason: a float
    (money is exact) or a NUL character (PostgreSQL's jsonb cannot hold it)."""
    if isinstance(value, float):
        return path, FLOAT_REFUSED
    if isinstance(value, str):
        return (path, NUL_REFUSED) if "\x00" in value else None
    if isinstance(value, dict):
        for key, item in value.items():
            if "\x00" in key:
                return f"{path}.{key!r}", NUL_REFUSED
            found = _unstorable(item, f"{path}.{key}")
            if found:
                return found
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found = _unstorable(item, f"{path}[{index}]")
            if found:
                return found
    return None


def _validate(stream_id: str, events: Sequence[NewEvent], actor: Actor) -> None:
    if not STREAM_ID.match(stream_id):
        raise errors.MalformedSubmission(
            f"stream id {stream_id!r} is not of the form <kind>:<key>", field="stream_id"
        )
    kind = REGISTRY.stream_kind_of(stream_id)
    if kind is None:
        raise errors.UnknownStream(
            f"unknown stream kind {stream_id.split(':', 1)[0]!r}; known kinds: "
            + ", ".join(sorted(REGISTRY.stream_kinds)),
            field="stream_id",
        )
    if not events:
        raise errors.MalformedSubmission("at least one event is required", field="events")
    if len(events) > MAX_BATCH:
        raise errors.MalformedSubmission(f"at most {MAX_BATCH} events per append", field="events")
    for index, event in enumerate(events):
        where = f"events[{index}]"
        event_type = REGISTRY.event_types.get(event.event_type)
        if event_type is None:
            raise errors.SchemaViolation(
                f"unknown event type {event.event_type!r}", field=f"{where}.type"
            )
        if not kind.accepts_type(event.event_type):
            raise errors.SchemaViolation(
                f"a {kind.name} stream does not accept {event.event_type} events",
                field=f"{where}.type",
            )
        refused = _unstorable(event.payload, f"{where}.payload") or _unstorable(
            dict(event.metadata), f"{where}.metadata"
        )
        if refused:
            raise errors.SchemaViolation(refused[1], field=refused[0])
        try:
            event_type.validate(event.payload)
            if event_type.check is not None:
                event_type.check(event.payload)
        except fastjsonschema.JsonSchemaValueException as error:
            field_path = error.name.replace("data", f"{where}.payload", 1)
            raise errors.SchemaViolation(
                f"{field_path}: {error.message.removeprefix(error.name + ' ')} "
                f"(schema rule: {error.rule})",
                field=field_path,
            ) from error
        except ValueError as error:
            message = str(error)
            field_name = message.split(":", 1)[0] if ":" in message else ""
            raise errors.SchemaViolation(
                f"{where}.payload.{message}",
                field=f"{where}.payload.{field_name}" if field_name else f"{where}.payload",
            ) from error
        unknown = set(event.metadata) - CLIENT_METADATA_KEYS
        if unknown:
            raise errors.SchemaViolation(
                f"metadata may only carry {sorted(CLIENT_METADATA_KEYS)}; got {sorted(unknown)}",
                field=f"{where}.metadata",
            )
        if event.occurred_at is not None and event.occurred_at.tzinfo is None:
            raise errors.SchemaViolation(
                "occurred_at must carry a time zone", field=f"{where}.occurred_at"
            )
        if not may_append(actor, event.event_type):
            raise errors.Forbidden(
                f"role(s) {sorted(actor.roles) or ['none']} may not append {event.event_type}",
                field=f"{where}.type",
            )


def _request_hash(stream_id: str, expected_version: int | None, events: Sequence[NewEvent]) -> str:
    body = {
        "stream_id": stream_id,
        "expected_version": expected_version,
        "events": [
            {
                "type": e.event_type,
                "payload": e.payload,
                "occurred_at": e.occurred_at.isoformat() if e.occurred_at else None,
                "metadata": dict(e.metadata),
            }
            for e in events
        ],
    }
    return hashlib.sha256(canonical_json(body)).hexdigest()


# --- append --------------------------------------------------------------------


def append(
    stream_id: str,
    events: Sequence[NewEvent],
    *,
    expected_version: int | None,
    actor: Actor,
    idempotency_key: str | None = None,
    raw_body: str | None = None,
) -> AppendResult:
    """Append ``events`` to ``stream_id`` atomically, or refuse them all.

    ``expected_version`` is the number of events the caller believes the
    stream holds (0 starts a new stream); ``None`` skips the check for
    in-process writers that accept whatever head they find (the unique
    constraint still refuses a race).
    """
    try:
        result = _append(stream_id, events, expected_version, actor, idempotency_key)
    except errors.LedgerError as error:
        record_rejection(
            error,
            stream_id=stream_id,
            actor=actor,
            idempotency_key=idempotency_key or "",
            raw_body=raw_body if raw_body is not None else _describe(events),
        )
        error.recorded = True
        raise
    if not result.replayed and not _deferral.active:
        transaction.on_commit(_schedule_projections)
    return result


class _Deferral(threading.local):
    active = False


_deferral = _Deferral()


@contextlib.contextmanager
def projections_deferred() -> Iterator[None]:
    """Append many without scheduling the projections after each append;
    the caller runs them once at the end (bulk jobs, the simulator)."""
    previous, _deferral.active = _deferral.active, True
    try:
        yield
    finally:
        _deferral.active = previous


def _schedule_projections() -> None:
    from django.conf import settings

    if settings.LEDGER_PROJECT_ON_APPEND:
        from audit.tasks import run_projections

        run_projections.delay()


@dataclass(frozen=True)
class StreamBatch:
    """One stream's share of an ``append_many``."""

    stream_id: str
    events: Sequence[NewEvent]
    expected_version: int | None = 0


def append_many(batches: Sequence[StreamBatch], *, actor: Actor) -> list[AppendResult]:
    """Append to many streams in one transaction: all of it or none of it.

    For bulk work (the simulator, imports): the same validation, rule
    policies and hash chains as ``append``, but one head lock, one bulk insert
    (COPY on PostgreSQL) and one commit for the lot, so the per-commit cost
    is paid once. A refusal names the stream and is recorded like any other.
    """
    current = ""
    try:
        for batch in batches:
            current = batch.stream_id
            _validate(batch.stream_id, batch.events, actor)
        current = ""
        with transaction.atomic():
            results = _append_many(batches, actor)
    except errors.LedgerError as error:
        failed = next((b for b in batches if b.stream_id == current), None)
        record_rejection(
            error,
            stream_id=current,
            actor=actor,
            raw_body=_describe(failed.events) if failed else "",
        )
        error.recorded = True
        raise
    if not _deferral.active:
        transaction.on_commit(_schedule_projections)
    return results


def _append_many(batches: Sequence[StreamBatch], actor: Actor) -> list[AppendResult]:
    heads = _heads([b.stream_id for b in batches])
    chained = []
    for batch in batches:
        head_version, head_hash = heads.get(batch.stream_id, (0, GENESIS_HASH))
        if batch.expected_version is not None and batch.expected_version != head_version:
            _refuse_version(batch.stream_id, batch.expected_version, head_version)
        kind = REGISTRY.stream_kind_of(batch.stream_id)
        if kind is not None and kind.policy is not None:
            prior = read_stream(batch.stream_id) if head_version else []
            try:
                kind.policy(prior, batch.events)
            except errors.LedgerError as error:
                error.message = f"{batch.stream_id}: {error.message}"
                raise
        rows, hashes, recorded_at = _chain(
            batch.stream_id, batch.events, head_version, head_hash, actor, None
        )
        chained.append((batch, head_version, rows, hashes, recorded_at))
    total = sum(len(rows) for _, _, rows, _, _ in chained)
    with connection.cursor() as cursor:
        # The head lock, held to commit (see the module docstring).
        cursor.execute(
            "UPDATE ledger_head SET position = position + %s WHERE id = 1 RETURNING position",
            [total],
        )
        position = cursor.fetchone()[0] - total
    adapt = connection.ops.adapt_datetimefield_value
    records, results = [], []
    for batch, head_version, rows, hashes, recorded_at in chained:
        first = position + 1
        for row in rows:
            position += 1
            records.append((position, batch.stream_id, row.version, row.event_type,
                            row.schema_version, row.payload, row.metadata,
                            adapt(row.occurred_at), adapt(recorded_at), row.prev_hash,
                            row.hash))  # fmt: skip
        results.append(AppendResult(batch.stream_id, head_version + 1, head_version + len(rows),
                                    first, position, tuple(hashes)))  # fmt: skip
    if connection.vendor == "postgresql":
        with (
            _pg_cursor() as cursor,
            cursor.copy(f"COPY ledger_event ({_COLUMNS}) FROM STDIN") as copy,
        ):
            for record in records:
                copy.write_row(record)
    else:
        with connection.cursor() as cursor:
            cursor.executemany(
                f"INSERT INTO ledger_event ({_COLUMNS}) VALUES ({','.join(['%s'] * 11)})",
                records,
            )
    return results


def _heads(stream_ids: Sequence[str]) -> dict[str, tuple[int, str]]:
    """Each existing stream's (version, hash) of its last event."""
    heads: dict[str, tuple[int, str]] = {}
    unique = sorted(set(stream_ids))
    with connection.cursor() as cursor:
        for start in range(0, len(unique), 500):
            chunk = unique[start : start + 500]
            placeholders = ",".join(["%s"] * len(chunk))
            cursor.execute(
                "SELECT e.stream_id, e.version, e.hash FROM ledger_event e JOIN ("
                f" SELECT stream_id, max(version) AS version FROM ledger_event"
                f" WHERE stream_id IN ({placeholders}) GROUP BY stream_id"
                ") h ON h.stream_id = e.stream_id AND h.version = e.version",
                chunk,
            )
            for stream_id, version, digest in cursor.fetchall():
                heads[stream_id] = (version, digest)
    return heads


def _describe(events: Sequence[NewEvent]) -> str:
    return json.dumps([{"type": e.event_type, "payload": e.payload} for e in events], default=str)


def record_rejection(
    error: errors.LedgerError,
    *,
    stream_id: str,
    actor: Actor | None,
    idempotency_key: str = "",
    raw_body: str = "",
) -> None:
    RejectedSubmission.objects.create(
        received_at=timezone.now(),
        stream_id=stream_id[:200],
        status_code=error.status_code,
        reason=error.reason,
        message=error.message,
        field=error.field[:200],
        section=error.section[:50],
        actor=actor.username if actor else "",
        device=actor.device if actor else "",
        source=actor.source if actor else "api",
        idempotency_key=idempotency_key[:200],
        raw_body=raw_body,
    )


def _append(
    stream_id: str,
    events: Sequence[NewEvent],
    expected_version: int | None,
    actor: Actor,
    idempotency_key: str | None,
) -> AppendResult:
    _validate(stream_id, events, actor)
    request_hash = _request_hash(stream_id, expected_version, events) if idempotency_key else ""
    store = _store()
    try:
        with transaction.atomic():
            head_version, head_hash, earlier = store.lookup(stream_id, idempotency_key)
            if earlier is not None:
                return _replay(idempotency_key or "", request_hash, earlier)
            if expected_version is not None and expected_version != head_version:
                _refuse_version(stream_id, expected_version, head_version)
            kind = REGISTRY.stream_kind_of(stream_id)
            if kind is not None and kind.policy is not None:
                kind.policy(read_stream(stream_id), events)
            rows, hashes, recorded_at = _chain(
                stream_id, events, head_version, head_hash, actor, idempotency_key
            )
            first_position = store.write(
                stream_id, rows, recorded_at, idempotency_key, request_hash, hashes, head_version
            )
    except (IntegrityError, psycopg.IntegrityError):
        # Another writer won the race for this stream version or this key.
        with transaction.atomic():
            head_version, _, earlier = store.lookup(stream_id, idempotency_key)
        if earlier is not None:
            return _replay(idempotency_key or "", request_hash, earlier)
        raise errors.StaleVersion(
            f"stream {stream_id} moved on to version {head_version} while appending",
            field="expected_version",
            current_version=head_version,
        ) from None
    return AppendResult(
        stream_id=stream_id,
        first_version=head_version + 1,
        last_version=head_version + len(rows),
        first_position=first_position,
        last_position=first_position + len(rows) - 1,
        hashes=tuple(hashes),
    )


def _refuse_version(stream_id: str, expected_version: int, head_version: int) -> None:
    if head_version == 0:
        raise errors.UnknownStream(
            f"stream {stream_id} does not exist; start it with expected_version 0",
            field="stream_id",
        )
    raise errors.StaleVersion(
        f"expected version {expected_version} but stream {stream_id} is at {head_version}",
        field="expected_version",
        current_version=head_version,
    )


def _replay(key: str, request_hash: str, earlier: tuple[str, Any]) -> AppendResult:
    stored_hash, result = earlier
    if stored_hash != request_hash:
        raise errors.IdempotencyConflict(
            f"Idempotency-Key {key!r} was used with a different body",
            field="Idempotency-Key",
        )
    if isinstance(result, str):
        result = json.loads(result)
    return AppendResult(
        stream_id=result["stream_id"],
        first_version=result["first_version"],
        last_version=result["last_version"],
        first_position=result["first_position"],
        last_position=result["last_position"],
        hashes=tuple(result["hashes"]),
        replayed=True,
    )


@dataclass(frozen=True, slots=True)
class _Row:
    version: int
    event_type: str
    schema_version: int
    payload: str
    metadata: str
    occurred_at: datetime
    prev_hash: str
    hash: str
    occurred_text: str


def _rows_json(rows: list[_Row]) -> str:
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


def _chain(
    stream_id: str,
    events: Sequence[NewEvent],
    head_version: int,
    head_hash: str,
    actor: Actor,
    idempotency_key: str | None,
) -> tuple[list[_Row], list[str], datetime]:
    """Hash-chain the batch onto the stream's head.

    The stored payload and metadata are the canonical JSON that was hashed;
    parts shared by the batch are serialised once.
    """
    recorded_at = datetime.now(UTC)
    recorded_text = format_timestamp(recorded_at)
    base_metadata: dict[str, Any] = {"actor": actor.username, "source": actor.source}
    if actor.device:
        base_metadata["device"] = actor.device
    if idempotency_key:
        base_metadata["idempotency_key"] = idempotency_key
    base_metadata_json = canonical_payload(base_metadata)
    stream_json = json.dumps(stream_id, ensure_ascii=False)
    types = REGISTRY.event_types
    rows: list[_Row] = []
    hashes: list[str] = []
    prev_hash = head_hash
    for offset, event in enumerate(events, start=1):
        version = head_version + offset
        metadata_json = (
            canonical_payload({**base_metadata, **event.metadata})
            if event.metadata
            else base_metadata_json
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
            _Row(
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


class _PostgresStore:
    """Two statements per append, both prepared: look up, then write.

    The write is one statement: it moves ``ledger_head`` (taking its row lock
    until commit), inserts the whole batch with ``unnest`` and records the
    idempotency key, so the lock is held for one round trip plus the commit.
    """

    LOOKUP = (
        "SELECT e.version, e.hash, i.request_hash, i.result::text "
        "FROM (SELECT 1) AS one "
        "LEFT JOIN LATERAL (SELECT version, hash FROM ledger_event "
        "WHERE stream_id = %(stream)s::text "
        "ORDER BY version DESC LIMIT 1) AS e ON true "
        "LEFT JOIN ledger_idempotency AS i ON i.key = %(key)s::text"
    )
    WRITE = (
        "WITH head AS ("
        " UPDATE ledger_head SET position = position + %(n)s::int WHERE id = 1"
        " RETURNING position - %(n)s::int AS base"
        "), batch AS ("
        " INSERT INTO ledger_event (" + _COLUMNS + ")"
        # Versions are contiguous, so each row's position follows from its version.
        " SELECT head.base + e.v - %(first_version)s::int + 1, %(stream)s::text, e.v, e.t, e.s,"
        " e.p, e.m, e.o, %(recorded_at)s::timestamptz, e.ph, e.h"
        " FROM head, jsonb_to_recordset(%(rows)s::jsonb)"
        " AS e(v int, t text, s int, p jsonb, m jsonb, o timestamptz, ph text, h text)"
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
        return _pg_cursor()

    def lookup(self, stream_id: str, key: str | None) -> tuple[int, str, tuple[str, Any] | None]:
        with self._cursor() as cursor:
            cursor.execute(self.LOOKUP, {"stream": stream_id, "key": key})
            version, digest, request_hash, result = cursor.fetchone()
        earlier = (request_hash, result) if request_hash is not None else None
        return (version or 0), (digest or GENESIS_HASH), earlier

    def write(
        self,
        stream_id: str,
        rows: list[_Row],
        recorded_at: datetime,
        key: str | None,
        request_hash: str,
        hashes: list[str],
        head_version: int,
    ) -> int:
        with self._cursor() as cursor:
            cursor.execute(
                self.WRITE,
                {
                    "n": len(rows),
                    "stream": stream_id,
                    "recorded_at": recorded_at,
                    "rows": _rows_json(rows),
                    "hashes": json.dumps(hashes),
                    "key": key,
                    "request_hash": request_hash,
                    "first_version": head_version + 1,
                    "last_version": head_version + len(rows),
                },
            )
            return cursor.fetchone()[0]


class _GenericStore:
    """Portable SQL for the embedded SQLite default."""

    def lookup(self, stream_id: str, key: str | None) -> tuple[int, str, tuple[str, Any] | None]:
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
        return version, digest, (tuple(earlier) if earlier else None)

    def write(
        self,
        stream_id: str,
        rows: list[_Row],
        recorded_at: datetime,
        key: str | None,
        request_hash: str,
        hashes: list[str],
        head_version: int,
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
            cursor.execute(f"INSERT INTO ledger_event ({_COLUMNS}) VALUES {placeholders}", params)
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


def _store() -> _PostgresStore | _GenericStore:
    return _PostgresStore() if connection.vendor == "postgresql" else _GenericStore()


def _pg_cursor() -> Any:
    """A psycopg cursor on Django's connection (so inside its transaction)
    with server-side binding, so psycopg prepares our hot statements, and
    psycopg's C timestamp loader instead of Django's Python one."""
    from psycopg.types.datetime import TimestamptzLoader

    connection.ensure_connection()
    cursor = psycopg.Cursor(connection.connection)
    cursor.adapters.register_loader("timestamptz", TimestamptzLoader)
    return cursor


def _loads_json(data: Any) -> Any:
    """Decoding dominates reads: orjson is several times faster than json."""
    try:
        return orjson.loads(data)
    except orjson.JSONDecodeError:
        # orjson refuses integers beyond 64 bits; json reads anything we stored.
        return json.loads(data)


# --- reading -------------------------------------------------------------------


def read_columns(alias: str = "") -> str:
    """The columns a reader selects, in ``RecordedEvent`` order. JSON comes
    back as text on every backend and is decoded once, by orjson."""
    prefix = f"{alias}." if alias else ""
    cast = "::text" if connection.vendor == "postgresql" else ""
    return ", ".join(
        f"{prefix}{column}{cast if column in ('payload', 'metadata') else ''}"
        for column in _COLUMNS.replace(" ", "").split(",")
    )


def _decoder() -> Any:
    """Turn a raw row into a RecordedEvent, upcasting old payloads."""
    upcast = REGISTRY.upcast
    current = {name: t.version for name, t in REGISTRY.event_types.items()}
    loads = _loads_json
    make = RecordedEvent
    typed_times = connection.vendor == "postgresql"

    def parse_time(value: Any) -> datetime:
        if isinstance(value, datetime):
            return value if value.tzinfo else value.replace(tzinfo=UTC)
        return datetime.fromisoformat(value).replace(tzinfo=UTC)

    def decode(row: tuple[Any, ...]) -> RecordedEvent:
        (position, stream_id, version, event_type, schema_version, payload, metadata,
         occurred_at, recorded_at, prev_hash, digest) = row  # fmt: skip
        payload = loads(payload)
        if schema_version != current.get(event_type, schema_version):
            schema_version, payload = upcast(event_type, schema_version, payload)
        if not typed_times:
            occurred_at, recorded_at = parse_time(occurred_at), parse_time(recorded_at)
        return make(position, stream_id, version, event_type, schema_version, payload,
                    loads(metadata), occurred_at, recorded_at, prev_hash, digest)  # fmt: skip

    return decode


def _select(sql: str, params: Sequence[Any]) -> list[RecordedEvent]:
    """Run a SELECT of ``read_columns()`` and decode the rows."""
    if connection.vendor == "postgresql":
        with _pg_cursor() as cursor:
            cursor.execute(sql, params)
            rows = cursor.fetchall()
    else:
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            rows = cursor.fetchall()
    decode = _decoder()
    return [decode(row) for row in rows]


def read_streams(stream_ids: Sequence[str]) -> list[RecordedEvent]:
    """Every event of the given streams, ordered by (stream_id, version)."""
    if not stream_ids:
        return []
    placeholders = ",".join(["%s"] * len(stream_ids))
    return _select(
        f"SELECT {read_columns()} FROM ledger_event WHERE stream_id IN ({placeholders}) "
        "ORDER BY stream_id, version",
        list(stream_ids),
    )


def read_stream(
    stream_id: str, *, after_version: int = 0, limit: int | None = None
) -> list[RecordedEvent]:
    """The stream's events in version order (empty if it does not exist)."""
    sql = (
        f"SELECT {read_columns()} FROM ledger_event WHERE stream_id = %s AND version > %s "
        "ORDER BY version"
    )
    params: list[Any] = [stream_id, after_version]
    if limit is not None:
        sql += " LIMIT %s"
        params.append(limit)
    return _select(sql, params)


def read_all(
    *, after: int = 0, limit: int = 1000, event_types: Sequence[str] | None = None
) -> list[RecordedEvent]:
    """Up to ``limit`` events after global position ``after``, in global order."""
    sql = f"SELECT {read_columns()} FROM ledger_event WHERE position > %s"
    params: list[Any] = [after]
    if event_types:
        sql += " AND event_type IN (" + ",".join(["%s"] * len(event_types)) + ")"
        params.extend(event_types)
    sql += " ORDER BY position LIMIT %s"
    params.append(limit)
    return _select(sql, params)


def iter_all(
    *, after: int = 0, page: int = 5000, until: int | None = None
) -> Iterator[RecordedEvent]:
    """Every event after ``after`` in global order, streamed page by page."""
    while True:
        batch = read_all(after=after, limit=page)
        for event in batch:
            if until is not None and event.position > until:
                return
            yield event
        if len(batch) < page:
            return
        after = batch[-1].position


def head_position() -> int:
    """The last global position handed out (0 for an empty ledger)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT position FROM ledger_head WHERE id = 1")
        row = cursor.fetchone()
    return row[0] if row else 0


def stream_version(stream_id: str) -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT max(version) FROM ledger_event WHERE stream_id = %s", [stream_id])
        return cursor.fetchone()[0] or 0
