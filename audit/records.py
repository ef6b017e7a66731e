"""The ledger's value types: what is submitted, what is stored, who appends."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, NamedTuple


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


class CommittedEvent(NamedTuple):
    """Where one appended event landed, told to a policy after the commit."""

    version: int
    position: int
    hash: str
    occurred_at: datetime


class StreamSoFar(Sequence[RecordedEvent]):
    """What a stream policy is given of the stream before the batch.

    Its head (``version``, ``head_hash``) is known without reading; its
    events are read from the ledger only when the policy looks at them, so a
    policy that keeps its own state (the rounds service) costs no read of the
    whole stream per append. ``len()`` is the version (versions are
    contiguous), also without reading. ``after_commit`` lets the policy hear
    where its batch landed once it commits (never for a refused batch).
    """

    def __init__(
        self,
        stream_id: str,
        version: int,
        head_hash: str,
        read: Callable[[str, int], list[RecordedEvent]],
    ) -> None:
        self.stream_id, self.version, self.head_hash = stream_id, version, head_hash
        self._read = read
        self._events: list[RecordedEvent] | None = None
        self.committed_callbacks: list[Callable[[tuple[CommittedEvent, ...]], None]] = []

    def _loaded(self) -> list[RecordedEvent]:
        if self._events is None:
            self._events = self._read(self.stream_id, self.version) if self.version else []
        return self._events

    def __len__(self) -> int:
        return self.version

    def __getitem__(self, index: Any) -> Any:
        return self._loaded()[index]

    def __iter__(self) -> Iterator[RecordedEvent]:
        return iter(self._loaded())

    def after_commit(self, callback: Callable[[tuple[CommittedEvent, ...]], None]) -> None:
        """Call ``callback(committed)``, one entry per event of the batch, after commit."""
        self.committed_callbacks.append(callback)


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
