"""The append service and the readers: the only way anything enters the ledger.

Append, in one transaction:

1. validate every event against its registered schema and the stream kind,
   and the actor's role against the append permissions (data);
2. look up the idempotency key: same body → the original result, another
   body → refused (422);
3. read the stream's head and compare the expected version (stale → 409);
4. let the stream kind's policy (the rules engine) refuse illegal events: it
   is given the stream's head and reads the stream's events only if it looks
   at them (``StreamSoFar``), and may ask to hear where the batch landed
   once it commits (the rounds service advances its cached state so);
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
import functools
import hashlib
import json
import logging
import threading
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

import fastjsonschema
import psycopg
from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from audit import errors, partitions
from audit.hashing import GENESIS_HASH
from audit.models import RejectedSubmission
from audit.records import (
    Actor,
    AppendResult,
    CommittedEvent,
    NewEvent,
    RecordedEvent,
    StreamBatch,
    StreamSoFar,
)
from audit.registry import REGISTRY
from audit.storage import (
    COLUMNS,
    chain,
    in_stream,
    keyed_heads,
    pg_cursor,
    read_columns,
    select_events,
    stored_batch,
)
from audit.storage import store as database_store
from audit.validation import may_append, validate
from audit.validation import request_hash as hash_of_request

logger = logging.getLogger(__name__)

__all__ = [
    "Actor",
    "AppendResult",
    "NewEvent",
    "RecordedEvent",
    "StreamBatch",
    "StreamSoFar",
    "append",
    "append_many",
    "derived_idempotency_key",
    "head_position",
    "iter_all",
    "may_append",
    "projections_deferred",
    "read_all",
    "read_columns",
    "read_stream",
    "read_streams",
    "record_rejection",
    "schedule_projections",
    "stream_version",
    "streams_touched",
    "versions_at",
]


def append(
    stream_id: str,
    events: Sequence[NewEvent],
    *,
    expected_version: int | None,
    actor: Actor,
    idempotency_key: str | None = None,
    raw_body: str | bytes | None = None,
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


def derived_idempotency_key(
    stream_id: str, expected_version: int, events: Sequence[NewEvent], actor: Actor
) -> str:
    """The idempotency key of a request sent without one.

    Safe because ``expected_version`` is part of it: the same events sent
    again at the same version either retry an append that was stored (and get
    its answer back) or would have been refused as stale anyway. A device that
    means to append the same events again reads the new version first, which
    makes a new key.
    """
    who = json.dumps([actor.username, actor.device])
    body = hash_of_request(stream_id, expected_version, events)
    return "derived:" + hashlib.sha256(f"{who}\n{body}".encode()).hexdigest()


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
        schedule_projections()


def schedule_projections() -> bool:
    """Bring the read models up to date (a queued task; inline when eager).

    Runs after the events are committed, so nothing here may change what the
    writer is told: the ledger has the events. A failure (the database or the
    broker gone, a projection's bug) is logged and swallowed; each projection
    catches up from its checkpoint on the next run. Returns whether it ran.
    """
    from audit.tasks import run_projections

    try:
        run_projections.delay()
    except Exception:
        logger.exception(
            "projections not brought up to date after a committed append; "
            "they catch up from their checkpoints on the next run"
        )
        return False
    return True


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
            validate(batch.stream_id, batch.events, actor)
        with transaction.atomic():
            results = _append_many(batches, actor)
    except errors.LedgerError as error:
        # _append_many names the stream it refused; validation left it in current.
        stream_id = getattr(error, "stream_id", current)
        failed = next((b for b in batches if b.stream_id == stream_id), None)
        record_rejection(
            error,
            stream_id=stream_id,
            actor=actor,
            raw_body=_describe(failed.events) if failed else "",
        )
        error.recorded = True
        raise
    if not _deferral.active:
        transaction.on_commit(_schedule_projections)
    return results


def _append_many(batches: Sequence[StreamBatch], actor: Actor) -> list[AppendResult]:
    heads = keyed_heads([b.stream_id for b in batches])
    chained, started = [], []
    for batch in batches:
        head_version, head_hash, day_key = heads.get(batch.stream_id, (0, GENESIS_HASH, None))
        try:
            so_far = _admit(batch.stream_id, batch.events, batch.expected_version,
                            head_version, head_hash, actor)  # fmt: skip
        except errors.LedgerError as error:
            error.stream_id = batch.stream_id
            raise
        rows, hashes, recorded_at = chain(
            batch.stream_id, batch.events, head_version, head_hash, actor, None
        )
        if day_key is None and partitions.partitioned():
            day_key = partitions.day_key(batch.stream_id, recorded_at)
            started.append((batch.stream_id, day_key))
        chained.append((batch, head_version, rows, hashes, recorded_at, so_far, day_key))
    total = sum(len(rows) for _, _, rows, _, _, _, _ in chained)
    with connection.cursor() as cursor:
        # The head lock, held to commit (see the module docstring).
        cursor.execute(
            "UPDATE ledger_head SET position = position + %s WHERE id = 1 RETURNING position",
            [total],
        )
        position = cursor.fetchone()[0] - total
    adapt = connection.ops.adapt_datetimefield_value
    records, results = [], []
    for batch, head_version, rows, hashes, recorded_at, so_far, day_key in chained:
        first = position + 1
        _tell_on_commit(so_far, rows, first)
        for row in rows:
            position += 1
            records.append((position, batch.stream_id, row.version, row.event_type,
                            row.schema_version, row.payload, row.metadata,
                            adapt(row.occurred_at), adapt(recorded_at), row.prev_hash,
                            row.hash, day_key))  # fmt: skip
        results.append(AppendResult(batch.stream_id, head_version + 1, head_version + len(rows),
                                    first, position, tuple(hashes)))  # fmt: skip
    if connection.vendor == "postgresql":
        with pg_cursor() as cursor:
            # A stream started twice collides on ledger_stream's key (409).
            with cursor.copy("COPY ledger_stream (stream_id, day_key) FROM STDIN") as copy:
                for start in started:
                    copy.write_row(start)
            with cursor.copy(f"COPY ledger_event ({COLUMNS}, day_key) FROM STDIN") as copy:
                for record in records:
                    copy.write_row(record)
    else:
        with connection.cursor() as cursor:
            cursor.executemany(
                f"INSERT INTO ledger_event ({COLUMNS}) VALUES ({','.join(['%s'] * 11)})",
                [record[:11] for record in records],
            )
    return results


def _describe(events: Sequence[NewEvent]) -> str:
    return json.dumps([{"type": e.event_type, "payload": e.payload} for e in events], default=str)


def record_rejection(
    error: errors.LedgerError,
    *,
    stream_id: str,
    actor: Actor | None,
    idempotency_key: str = "",
    raw_body: str | bytes = "",
    body_length: int | None = None,
) -> None:
    """Keep a refusal: bounded, whatever was sent.

    The body's first ``REJECTED_BODY_PREFIX_BYTES`` are kept as received with
    the whole body's length and SHA-256. ``body_length`` larger than the body
    given is a body refused unread (413): its length is the declared one and
    it has no digest. Every text is made storable first: the NUL character
    and lone surrogates a hostile client sends would otherwise make the
    refusal itself fail to be written.
    """
    body = raw_body if isinstance(raw_body, bytes) else raw_body.encode("utf-8", "surrogatepass")
    unread = body_length is not None and body_length > len(body)
    prefix = body[: settings.REJECTED_BODY_PREFIX_BYTES]
    RejectedSubmission.objects.create(
        received_at=timezone.now(),
        stream_id=storable(stream_id)[:200],
        status_code=error.status_code,
        reason=error.reason,
        message=storable(error.message),
        field=storable(error.field)[:200],
        section=storable(error.section)[:50],
        actor=actor.username if actor else "",
        device=storable(actor.device)[:150] if actor else "",
        source=actor.source if actor else "api",
        idempotency_key=storable(idempotency_key)[:200],
        raw_body=storable(prefix.decode("utf-8", "replace")),
        body_prefix=prefix,
        body_length=body_length if unread else len(body),
        body_sha256="" if unread else hashlib.sha256(body).hexdigest(),
    )


def storable(text: str) -> str:
    """``text`` as PostgreSQL's text columns hold it: NUL and lone surrogates
    written as escapes (``\\x00``, ``\\ud800``) so the record says what came."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = text.encode("utf-8", "backslashreplace").decode("utf-8")
    return text.replace("\x00", "\\x00")


def _append(
    stream_id: str,
    events: Sequence[NewEvent],
    expected_version: int | None,
    actor: Actor,
    idempotency_key: str | None,
) -> AppendResult:
    validate(stream_id, events, actor)
    request_hash = hash_of_request(stream_id, expected_version, events) if idempotency_key else ""
    store = database_store()
    try:
        with transaction.atomic():
            head_version, head_hash, earlier, day_key = store.lookup(stream_id, idempotency_key)
            if earlier is not None:
                return _replay(idempotency_key or "", request_hash, earlier)
            try:
                so_far = _admit(stream_id, events, expected_version, head_version, head_hash,
                                actor)  # fmt: skip
            except (errors.StaleVersion, errors.UnknownStream, errors.RuleViolation):
                # A retry whose idempotency record is gone: its events still say so.
                earlier = stored_batch(idempotency_key) if idempotency_key else None
                if earlier is not None:
                    return _replay(idempotency_key or "", request_hash, earlier)
                raise
            rows, hashes, recorded_at = chain(
                stream_id, events, head_version, head_hash, actor, idempotency_key, request_hash
            )
            first_position = store.write(stream_id, rows, recorded_at, idempotency_key,
                                         request_hash, hashes, head_version, day_key)  # fmt: skip
            _tell_on_commit(so_far, rows, first_position)
    except (IntegrityError, psycopg.IntegrityError):
        # Another writer won the race for this stream version or this key.
        with transaction.atomic():
            head_version, _, earlier, _ = store.lookup(stream_id, idempotency_key)
            if earlier is None and idempotency_key:
                # The events' unique batch key refused a second store.
                earlier = stored_batch(idempotency_key)
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


def _admit(
    stream_id: str,
    events: Sequence[NewEvent],
    expected_version: int | None,
    head_version: int,
    head_hash: str,
    actor: Actor,
) -> StreamSoFar | None:
    """The expected version, then the stream kind's policy (the rules).

    A writer that means to start a stream (expected version 0) that already
    exists hears the policy's reason where it has one (a slip number already
    used is a 400 naming the rule), and a plain 409 otherwise.
    """
    kind = REGISTRY.stream_kind_of(stream_id)
    policy = kind.policy if kind is not None else None
    so_far = StreamSoFar(stream_id, head_version, head_hash, _read_upto) if policy else None
    if expected_version is not None and expected_version != head_version:
        if expected_version == 0 and policy is not None:
            policy(stream_id, so_far, events, actor)
        _refuse_version(stream_id, expected_version, head_version)
    _check_corrections(stream_id, events, head_version)
    if policy is not None:
        policy(stream_id, so_far, events, actor)
    return so_far


def _check_corrections(stream_id: str, events: Sequence[NewEvent], head_version: int) -> None:
    """A correction names an event the stream holds (never another
    correction), and its replacement is a valid payload of that event's type."""
    for index, event in enumerate(events):
        if event.event_type != "ledger.correction":
            continue
        where = f"events[{index}].payload"
        named = event.payload["corrects_version"]
        if named > head_version + index:
            raise errors.RuleViolation(
                f"{where}.corrects_version: stream {stream_id} holds no version {named} "
                f"(it is at version {head_version + index})",
                field=f"{where}.corrects_version",
            )
        if named > head_version:  # an earlier event of the same batch
            corrected_type = events[named - head_version - 1].event_type
        else:
            corrected_type = read_stream(stream_id, after_version=named - 1, limit=1)[0].event_type
        if corrected_type == "ledger.correction":
            raise errors.RuleViolation(
                f"{where}.corrects_version: version {named} is itself a correction; "
                "correct the original event",
                field=f"{where}.corrects_version",
            )
        replacement = event.payload.get("replacement")
        if replacement is not None:
            try:
                REGISTRY.event_types[corrected_type].validate(replacement)
            except fastjsonschema.JsonSchemaValueException as error:
                raise errors.SchemaViolation(
                    f"{where}.replacement: not a valid {corrected_type} payload ({error})",
                    field=f"{where}.replacement",
                ) from None


def _read_upto(stream_id: str, version: int) -> list[RecordedEvent]:
    return read_stream(stream_id, limit=version)


def _tell_on_commit(so_far: StreamSoFar | None, rows: Sequence[Any], first_position: int) -> None:
    """Register the policy's after-commit callbacks on the open transaction
    (dropped with it if it rolls back)."""
    if so_far is None or not so_far.committed_callbacks:
        return
    committed = tuple(
        CommittedEvent(row.version, first_position + offset, row.hash, row.occurred_at)
        for offset, row in enumerate(rows)
    )
    for callback in so_far.committed_callbacks:
        transaction.on_commit(functools.partial(callback, committed))


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


def read_streams(stream_ids: Sequence[str]) -> list[RecordedEvent]:
    """Every event of the given streams, ordered by (stream_id, version)."""
    if not stream_ids:
        return []
    placeholders = ",".join(["%s"] * len(stream_ids))
    return select_events(
        f"SELECT {read_columns()} FROM ledger_event WHERE stream_id IN ({placeholders}) "
        "ORDER BY stream_id, version",
        list(stream_ids),
    )


def streams_touched(batch: Sequence[RecordedEvent], kind: str) -> dict[str, list[RecordedEvent]]:
    """The streams of ``kind`` that ``batch`` touched, each read whole up to the
    batch's last position (a projection sees the ledger as of its batch), in
    stream order."""
    prefix = kind + ":"
    touched = sorted({event.stream_id for event in batch if event.stream_id.startswith(prefix)})
    if not touched:
        return {}
    upto = batch[-1].position
    grouped: dict[str, list[RecordedEvent]] = {}
    for event in read_streams(touched):
        if event.position <= upto:
            grouped.setdefault(event.stream_id, []).append(event)
    return grouped


def read_stream(
    stream_id: str, *, after_version: int = 0, limit: int | None = None
) -> list[RecordedEvent]:
    """The stream's events in version order (empty if it does not exist)."""
    where, params = in_stream(stream_id)
    sql = f"SELECT {read_columns()} FROM ledger_event WHERE {where} AND version > %s "
    sql += "ORDER BY version"
    params.append(after_version)
    if limit is not None:
        sql += " LIMIT %s"
        params.append(limit)
    return select_events(sql, params)


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
    return select_events(sql, params)


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
    where, params = in_stream(stream_id)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT max(version) FROM ledger_event WHERE {where}", params)
        return cursor.fetchone()[0] or 0


def versions_at(positions: Iterable[int]) -> dict[int, int]:
    """The stream version of the event at each global position: the version a
    read model showed, from the ``computed_at_position`` it was folded up to."""
    wanted = sorted(set(positions))
    if not wanted:
        return {}
    placeholders = ",".join(["%s"] * len(wanted))
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT position, version FROM ledger_event WHERE position IN ({placeholders})", wanted
        )
        return dict(cursor.fetchall())
