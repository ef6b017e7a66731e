"""The hash chain: what is hashed, byte for byte.

Each event's hash is SHA-256 over the canonical JSON of::

    {"stream_id", "version", "event_type", "schema_version", "payload",
     "metadata", "occurred_at", "recorded_at", "prev_hash"}

Canonical JSON is ``json.dumps(obj, sort_keys=True, separators=(",", ":"),
ensure_ascii=False)`` encoded as UTF-8; timestamps are RFC 3339 in UTC with
microseconds (``2026-11-21T23:51:09.123456Z``). ``prev_hash`` of a stream's
first event is sixty-four zeros. Payloads hold no floats (money is integer
cents), so the stored JSON round-trips exactly and anyone can recompute the
chain with Python's standard library (the regulator export ships such a
script). The global position is deliberately left out: a stream's chain
depends on that stream alone, so streams can later live on different nodes.

>>> from datetime import datetime, UTC
>>> at = datetime(2026, 1, 2, 3, 4, 5, 6, tzinfo=UTC)
>>> event_hash(stream_id="round:1", version=1, event_type="t", schema_version=1,
...            payload={"a": 1}, metadata={}, occurred_at=at, recorded_at=at,
...            prev_hash=GENESIS_HASH)[:16]
'f6b685964bb654a9'
"""

from __future__ import annotations

import hashlib
import json
import re
from datetime import UTC, datetime
from typing import Any

import orjson

GENESIS_HASH = "0" * 64


def canonical_json(value: Any) -> bytes:
    """The definition above, computed by orjson where it can (several times
    faster; a property test holds the two byte-identical) and by the
    standard library where orjson refuses (integers beyond 64 bits, keys
    that are not strings)."""
    try:
        return orjson.dumps(value, option=orjson.OPT_SORT_KEYS)
    except (TypeError, orjson.JSONEncodeError):
        return standard_canonical_json(value)


#: Strings JSON writes as they are, between quotes (ids, hex digests, timestamps).
_PLAIN = re.compile(r"[\w:.+ -]*", re.ASCII).fullmatch


def json_string(value: str) -> str:
    """A string as canonical JSON text: quoted as it is when JSON escapes
    nothing in it (the common case, several times faster), else encoded.

    >>> json_string("round:T1-00001")
    '"round:T1-00001"'
    >>> json_string('a "b"') == canonical_json('a "b"').decode()
    True
    """
    return f'"{value}"' if _PLAIN(value) else canonical_json(value).decode()


def standard_canonical_json(value: Any) -> bytes:
    """Canonical JSON exactly as the definition reads (what anyone recomputes)."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def format_timestamp(moment: datetime) -> str:
    """RFC 3339 UTC with microseconds; naive datetimes are refused.

    ``isoformat`` is several times faster than ``strftime`` and gives the same
    text for every year from 1000 (``%Y`` does not pad shorter years).
    """
    if moment.tzinfo is None:
        raise ValueError("timestamps in the ledger must be timezone-aware")
    text = moment.isoformat(timespec="microseconds")
    if text.endswith("+00:00") and moment.year >= 1000:  # already UTC: the common case
        return text[:-6] + "Z"
    utc = moment.astimezone(UTC)
    if utc.year < 1000:
        return utc.strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    return utc.replace(tzinfo=None).isoformat(timespec="microseconds") + "Z"


def canonical_payload(value: dict[str, Any]) -> str:
    """A payload or metadata object in canonical form (str, not bytes)."""
    return canonical_json(value).decode()


def chained_hash(
    *,
    stream_json: str,
    version: int,
    type_json: str,
    schema_version: int,
    payload_json: str,
    metadata_json: str,
    occurred_at: str,
    recorded_at: str,
    prev_hash: str,
) -> str:
    """``event_hash`` from pre-serialised parts: the append hot path.

    Writes the canonical document directly, keys in sorted order, so a batch
    serialises its shared parts (stream id, metadata, timestamps) once.
    Every ``*_json`` argument is ``json.dumps(..., ensure_ascii=False)``
    (objects through ``canonical_payload``). A property test checks it byte
    for byte against ``event_hash``.
    """
    document = (
        f'{{"event_type":{type_json},"metadata":{metadata_json},'
        f'"occurred_at":"{occurred_at}","payload":{payload_json},"prev_hash":"{prev_hash}",'
        f'"recorded_at":"{recorded_at}","schema_version":{schema_version},'
        f'"stream_id":{stream_json},"version":{version}}}'
    )
    return hashlib.sha256(document.encode()).hexdigest()


def document_hash(
    stream_id: str,
    version: int,
    event_type: str,
    schema_version: int,
    payload_json: str | bytes,
    metadata_json: str | bytes,
    occurred_at: str,
    recorded_at: str,
    prev_hash: str,
) -> str:
    """``chained_hash`` of an event as a reader has it: the payload and
    metadata in canonical form, the rest as stored. The document is written
    by orjson in one call, keys in sorted order, the canonical parts placed
    as they are (``orjson.Fragment``): the close's read checks every event of
    the day this way. A property test checks it byte for byte against
    ``event_hash``."""
    try:
        document = orjson.dumps({
            "event_type": event_type, "metadata": orjson.Fragment(metadata_json),
            "occurred_at": occurred_at, "payload": orjson.Fragment(payload_json),
            "prev_hash": prev_hash, "recorded_at": recorded_at,
            "schema_version": schema_version, "stream_id": stream_id, "version": version,
        })  # fmt: skip
    except orjson.JSONEncodeError:  # what orjson refuses, the definition still hashes
        return chained_hash(
            stream_json=json_string(stream_id), version=version,
            type_json=json_string(event_type), schema_version=schema_version,
            payload_json=_text(payload_json), metadata_json=_text(metadata_json),
            occurred_at=occurred_at, recorded_at=recorded_at, prev_hash=prev_hash,
        )  # fmt: skip
    return hashlib.sha256(document).hexdigest()


def _text(value: str | bytes) -> str:
    return value.decode() if isinstance(value, bytes) else value


def event_hash(
    *,
    stream_id: str,
    version: int,
    event_type: str,
    schema_version: int,
    payload: dict[str, Any],
    metadata: dict[str, Any],
    occurred_at: datetime,
    recorded_at: datetime,
    prev_hash: str,
) -> str:
    document = {
        "stream_id": stream_id,
        "version": version,
        "event_type": event_type,
        "schema_version": schema_version,
        "payload": payload,
        "metadata": metadata,
        "occurred_at": format_timestamp(occurred_at),
        "recorded_at": format_timestamp(recorded_at),
        "prev_hash": prev_hash,
    }
    return hashlib.sha256(canonical_json(document)).hexdigest()
