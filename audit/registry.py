"""Event types and stream kinds, written out explicitly.

Every event type has a stable name (``round.card_dealt``; never a Python
import path), a current schema version, a JSON Schema for the payload of that
version (validated on append) and pure upcasters that lift an older stored
payload one version at a time on read. Stored rows are never rewritten.

A stream id is ``<kind>:<key>``; the kind says which event types the stream
accepts and may carry a policy (the rules engine's check that the event is
legal given the stream so far).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import fastjsonschema

if TYPE_CHECKING:
    from audit.records import Actor, NewEvent, RecordedEvent

Payload = dict[str, Any]
Upcaster = Callable[[Payload], Payload]
#: Called inside the append transaction with the stream id, the stream so far
#: (an ``audit.records.StreamSoFar``: a sequence of its recorded events, read
#: only if iterated, with its head version and hash), the batch and who
#: appends it; raises ``audit.errors.RuleViolation`` (or ``Forbidden``) to
#: refuse the batch.
StreamPolicy = Callable[[str, Sequence["RecordedEvent"], Sequence["NewEvent"], "Actor"], None]

STREAM_ID = re.compile(r"^(?P<kind>[a-z][a-z0-9-]{0,49}):(?P<key>[A-Za-z0-9._:@-]{1,149})$")


@dataclass(frozen=True)
class EventType:
    name: str
    version: int
    schema: Mapping[str, Any]
    description: str
    #: ``upcasters[n]`` turns a version-n payload into version n+1.
    upcasters: Mapping[int, Upcaster] = field(default_factory=dict)
    #: Extra checks a JSON Schema cannot state; raises ValueError("field: rule").
    check: Callable[[Payload], None] | None = None
    validate: Callable[[Any], Any] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        missing = [n for n in range(1, self.version) if n not in self.upcasters]
        if missing:
            raise ValueError(f"{self.name}: no upcaster from version(s) {missing}")
        object.__setattr__(self, "validate", fastjsonschema.compile(dict(self.schema)))

    def upcast(self, schema_version: int, payload: Payload) -> Payload:
        for from_version in range(schema_version, self.version):
            payload = self.upcasters[from_version](payload)
        return payload


@dataclass(frozen=True)
class Corrections:
    """What a ``ledger.correction`` means on a stream kind and who may append
    one. A kind without it refuses corrections: a correction nobody reads is
    no correction, and on a job's stream (the close, the compliance findings)
    an event of someone else's would block the job."""

    #: What the correction does to the kind's readers (published with the kind).
    meaning: str
    #: The roles that may correct (the system role always may).
    roles: frozenset[str]


#: The largest replacement payload a correction may carry (canonical JSON bytes).
MAX_REPLACEMENT_BYTES = 16 * 1024


@dataclass(frozen=True)
class StreamKind:
    name: str
    description: str
    #: Event type names (or ``family.*``) the stream accepts.
    accepts: frozenset[str]
    policy: StreamPolicy | None = None
    corrections: Corrections | None = None
    #: Appended to for as long as the casino runs (a configuration): kept in
    #: the ledger's lasting partition, never archived by retention
    #: (``audit.partitions``). Other streams live in their first gaming day's.
    lasting: bool = False

    def accepts_type(self, event_type: str) -> bool:
        if event_type == "ledger.correction":
            return self.corrections is not None
        if event_type in self.accepts:
            return True
        return any(
            pattern.endswith("*") and event_type.startswith(pattern[:-1])
            for pattern in self.accepts
        )


class Registry:
    def __init__(self) -> None:
        self.event_types: dict[str, EventType] = {}
        self.stream_kinds: dict[str, StreamKind] = {}

    def register_event_type(self, event_type: EventType) -> EventType:
        existing = self.event_types.get(event_type.name)
        if existing is not None and existing != event_type:
            raise ValueError(f"event type {event_type.name} registered twice")
        self.event_types[event_type.name] = event_type
        return event_type

    def register_stream_kind(self, kind: StreamKind) -> StreamKind:
        self.stream_kinds[kind.name] = kind
        return kind

    def stream_kind_of(self, stream_id: str) -> StreamKind | None:
        match = STREAM_ID.match(stream_id)
        if match is None:
            return None
        return self.stream_kinds.get(match["kind"])

    def upcast(self, event_type: str, schema_version: int, payload: Payload) -> tuple[int, Payload]:
        known = self.event_types.get(event_type)
        if known is None or schema_version >= known.version:
            return schema_version, payload
        return known.version, known.upcast(schema_version, payload)

    def describe(self) -> Iterable[EventType]:
        return (self.event_types[name] for name in sorted(self.event_types))


REGISTRY = Registry()
register_event_type = REGISTRY.register_event_type
register_stream_kind = REGISTRY.register_stream_kind


def object_schema(
    properties: Mapping[str, Any], *, required: Sequence[str] | None = None, description: str = ""
) -> dict[str, Any]:
    """A closed JSON Schema object: unknown fields are refused."""
    schema: dict[str, Any] = {
        "type": "object",
        "properties": dict(properties),
        "required": list(properties if required is None else required),
        "additionalProperties": False,
    }
    if description:
        schema["description"] = description
    return schema


#: The largest amount of money one event may carry: $10 billion. The read
#: models' money columns are BigIntegerField (signed 64-bit); a bound this far
#: below 2^63 keeps a sum of up to nine million such amounts (a day's buy-ins,
#: a round's wagers) within the column too.
MAX_CENTS = 10**12
CENTS = {"type": "integer", "minimum": 0, "maximum": MAX_CENTS, "description": "integer cents"}
POSITIVE_CENTS = {
    "type": "integer",
    "minimum": 1,
    "maximum": MAX_CENTS,
    "description": "integer cents",
}
TEXT = {"type": "string", "minLength": 1, "maxLength": 500}
