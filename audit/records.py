"""The ledger's value types: what is submitted, what is stored, who appends."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any


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


def roles_of(user: Any) -> frozenset[str]:
    """A user's casino roles (group names), read once per request and kept on
    the user object: the permission check and the actor both need them."""
    if not getattr(user, "is_authenticated", False):
        return frozenset()
    roles = getattr(user, "_casino_roles", None)
    if roles is None:
        roles = frozenset(user.groups.values_list("name", flat=True))
        user._casino_roles = roles
    return roles


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
        return cls(
            username=user.get_username() if user.is_authenticated else "",
            roles=roles_of(user),
            user_id=user.pk if user.is_authenticated else None,
            device=device,
            source=source,
        )

    @classmethod
    def system(cls, name: str, *, source: str = "job") -> Actor:
        from audit import providers

        return cls(username=name, roles=frozenset({providers.roles().system}), source=source)


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


@dataclass(frozen=True)
class StreamBatch:
    """One stream's share of an ``append_many``."""

    stream_id: str
    events: Sequence[NewEvent]
    expected_version: int | None = 0
