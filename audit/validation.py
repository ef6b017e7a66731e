"""Checks every submission passes before it touches the database: the
append permissions (data, cached briefly), the registered schemas, the stream
kind, and values the ledger will not store."""

from __future__ import annotations

import datetime
import hashlib
import time
from collections.abc import Sequence
from typing import Any

import fastjsonschema
from django.db.models.signals import post_delete, post_save

from audit import errors
from audit.hashing import canonical_json
from audit.models import AppendPermission
from audit.records import Actor, NewEvent
from audit.registry import MAX_REPLACEMENT_BYTES, REGISTRY, STREAM_ID, StreamKind

MAX_BATCH = 500
CLIENT_METADATA_KEYS = frozenset({"correlation_id", "causation_id"})


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
SURROGATE_REFUSED = (
    "text may not contain a lone surrogate (U+D800 to U+DFFF): it is not Unicode, and the "
    "hash chain's canonical JSON (UTF-8) cannot encode it"
)
INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1
RANGE_REFUSED = (
    f"integers must lie within the signed 64-bit range [{INT64_MIN}, {INT64_MAX}]: "
    "beyond it a reader cannot hold the value exactly"
)


def _unstorable(value: Any, path: str) -> tuple[str, str] | None:
    """The first value the ledger will not store, with the reason: a float
    (money is exact), an integer beyond 64 bits (what every reader, orjson,
    the read models' BigIntegerField columns and the export's readers hold
    exactly) or a NUL character (PostgreSQL's jsonb cannot hold it)."""
    if isinstance(value, float):
        return path, FLOAT_REFUSED
    if isinstance(value, int) and not isinstance(value, bool):
        return None if INT64_MIN <= value <= INT64_MAX else (path, RANGE_REFUSED)
    if isinstance(value, str):
        refused = text_problem(value)
        return (path, refused) if refused else None
    if isinstance(value, dict):
        for key, item in value.items():
            refused = text_problem(key) if isinstance(key, str) else None
            if refused:
                return f"{path}.{key!r}", refused
            found = _unstorable(item, f"{path}.{key}")
            if found:
                return found
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found = _unstorable(item, f"{path}[{index}]")
            if found:
                return found
    return None


def text_problem(text: str) -> str | None:
    """Why the ledger cannot store ``text`` (a NUL, a lone surrogate), or None."""
    if "\x00" in text:
        return NUL_REFUSED
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return SURROGATE_REFUSED
    return None


def validate(stream_id: str, events: Sequence[NewEvent], actor: Actor) -> None:
    if not STREAM_ID.fullmatch(stream_id):
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
    allowed: dict[str, bool] = {}  # per event type: the stream kind and the role
    for index, event in enumerate(events):
        event_type = REGISTRY.event_types.get(event.event_type)
        if event_type is None:
            raise errors.SchemaViolation(
                f"unknown event type {event.event_type!r}", field=f"events[{index}].type"
            )
        if event.event_type not in allowed and not kind.accepts_type(event.event_type):
            raise errors.SchemaViolation(
                f"a {kind.name} stream does not accept {event.event_type} events",
                field=f"events[{index}].type",
            )
        refused = _unstorable(event.payload, f"events[{index}].payload")
        if refused is None and event.metadata:
            refused = _unstorable(dict(event.metadata), f"events[{index}].metadata")
        if refused:
            raise errors.SchemaViolation(refused[1], field=refused[0])
        try:
            event_type.validate(event.payload)
            if event_type.check is not None:
                event_type.check(event.payload)
        except fastjsonschema.JsonSchemaValueException as error:
            field_path = error.name.replace("data", f"events[{index}].payload", 1)
            raise errors.SchemaViolation(
                f"{field_path}: {error.message.removeprefix(error.name + ' ')} "
                f"(schema rule: {error.rule})",
                field=field_path,
            ) from error
        except ValueError as error:
            message = str(error)
            field_name = message.split(":", 1)[0] if ":" in message else ""
            where = f"events[{index}].payload"
            raise errors.SchemaViolation(
                f"{where}.{message}", field=f"{where}.{field_name}" if field_name else where
            ) from error
        if event.metadata:
            unknown = set(event.metadata) - CLIENT_METADATA_KEYS
            if unknown:
                allowed_keys = sorted(CLIENT_METADATA_KEYS)
                raise errors.SchemaViolation(
                    f"metadata may only carry {allowed_keys}; got {sorted(unknown)}",
                    field=f"events[{index}].metadata",
                )
        if event.occurred_at is not None:
            _check_occurred_at(event.occurred_at, actor, f"events[{index}].occurred_at")
        if event.event_type not in allowed:
            allowed[event.event_type] = may_append(actor, event.event_type)
        if not allowed[event.event_type]:
            raise errors.Forbidden(
                f"role(s) {sorted(actor.roles) or ['none']} may not append {event.event_type}",
                field=f"events[{index}].type",
            )
        if event.event_type == "ledger.correction":
            _check_correction(kind, event, actor, f"events[{index}]")


def _check_occurred_at(moment: datetime.datetime, actor: Actor, where: str) -> None:
    """With a zone, never ahead of the server's clock by more than drift, and
    (but for the system role: imports, the simulator) never further behind it
    than a device's buffer replayed after an outage: a deck put in use "in
    2030" would never fall due, one "in 2019" would be overdue at once."""
    from django.conf import settings
    from django.utils import timezone

    from audit import providers

    if moment.tzinfo is None or moment.utcoffset() is None:
        raise errors.SchemaViolation(
            f"{where}: a time must carry its zone (Z or ±hh:mm); a naive time is never "
            "read as the server's local time",
            field=where,
        )
    now = timezone.now()
    ahead = settings.LEDGER_OCCURRED_AT_FUTURE_SECONDS
    if moment > now + datetime.timedelta(seconds=ahead):
        raise errors.SchemaViolation(
            f"{where}: {moment.isoformat()} is ahead of the server's clock "
            f"({now.isoformat(timespec='seconds')}) by more than the {ahead} s tolerated "
            "(LEDGER_OCCURRED_AT_FUTURE_SECONDS)",
            field=where,
        )
    behind = settings.LEDGER_OCCURRED_AT_PAST_SECONDS
    if providers.roles().system not in actor.roles and moment < now - datetime.timedelta(
        seconds=behind
    ):
        raise errors.SchemaViolation(
            f"{where}: {moment.isoformat()} is more than {behind} s before the server's clock "
            f"({now.isoformat(timespec='seconds')}; LEDGER_OCCURRED_AT_PAST_SECONDS): a person "
            "or a device records what happens now; history is imported by the system",
            field=where,
        )


def _check_correction(kind: StreamKind, event: NewEvent, actor: Actor, where: str) -> None:
    """Who may correct this kind of stream, and how much a correction may say.
    The version it names is checked against the stream (``audit.ledger``)."""
    from audit import providers

    corrections = kind.corrections
    assert corrections is not None  # accepts_type refused the kind otherwise
    if not actor.roles & (corrections.roles | {providers.roles().system}):
        raise errors.Forbidden(
            f"a correction of a {kind.name} stream is appended by "
            f"{' or '.join(sorted(corrections.roles))}, not by {sorted(actor.roles) or ['none']}",
            field=f"{where}.type",
        )
    replacement = event.payload.get("replacement")
    if replacement is not None and len(canonical_json(replacement)) > MAX_REPLACEMENT_BYTES:
        raise errors.SchemaViolation(
            f"{where}.payload.replacement: at most {MAX_REPLACEMENT_BYTES} bytes of JSON",
            field=f"{where}.payload.replacement",
        )


def request_hash(stream_id: str, expected_version: int | None, events: Sequence[NewEvent]) -> str:
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
