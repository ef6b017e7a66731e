"""The rounds service: each open round's engine state, kept so that one
append costs one engine step instead of a replay of the round.

The append policy of the ``round`` stream, the rounds projection and the round
viewer all ask this one service for a round's state at a ledger version:

* a ``RoundState`` is an immutable value: the engine state after the stream's
  event at ``version``, the round's engine events so far (findings compare
  the dealer's actions among them with the settlement), the ledger facts the
  rounds projection shows, and ``head_hash``, the hash of the stream's event
  at ``version``. The hash chain makes that one hash name every event up to
  there, so an entry is used only for the exact (version, hash) it was built
  at: an append by another process, a rolled-back transaction or a database
  rebuilt with other content under the same stream ids is never mistaken for
  it (the hash does not cover positions: the same events restored at other
  positions would keep the cached ``last_position`` until the round moves);
* the service keeps the newest state of each round in a bounded LRU in this
  process; a lookup for the head it holds costs nothing, a head a few events
  ahead (another process appended) reads and applies only those events, and
  anything else (a miss, a different chain) is rebuilt from the ledger;
* the round policy applies only the new events to the state at the stream's
  head and, once the append commits, stores the result (the ledger tells it
  where the batch landed). A refused batch raises before anything is stored,
  so the cache keeps the state it had.

Only the engine's public functions are used (``open_round``, ``apply``,
``required_settlement``, ``findings_for``), so the engine's own state types
stay its business.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import cached_property
from typing import Any

from audit.ledger import read_stream, read_streams
from audit.records import CommittedEvent, RecordedEvent
from tables.round_events import to_engine
from tables.rules import engine
from tables.rules import replay as engine_replay
from tables.rules.engine import RuleViolation
from tables.rules.events import ROUND_EVENT_TYPES, Event, RoundOpened

#: Rounds kept per process. A few hundred tables each have one round open at
#: a time; four times that leaves room for rounds just closed (the projection
#: reads them right after) without holding a day's rounds in memory.
CAPACITY = 2048


class NotARound(RuleViolation):
    """A round stream whose first event is not ``round.opened``."""

    def __init__(self) -> None:
        super().__init__("round.opened", "a round stream starts with round.opened", "type")


@dataclass(frozen=True, eq=False)
class RoundState:
    """A round as of one ledger version of its stream (immutable)."""

    stream_id: str
    #: The stream version (every event, corrections included) and its hash.
    version: int
    head_hash: str
    #: The engine state after the last round event; ``None`` before
    #: ``round.opened`` or if the stored events cannot be replayed
    #: (``violation`` says why).
    state: Any
    #: The round's engine events so far.
    events: tuple[Event, ...]
    #: When the first and last round events occurred; the last one's position.
    opened_at: datetime | None
    last_event_at: datetime | None
    last_position: int
    violation: RuleViolation | None = field(default=None)

    @cached_property
    def settlement(self) -> engine.Settlement:
        """What the regulation requires (computed once per state, on demand)."""
        return engine.required_settlement(self.state)

    @cached_property
    def findings(self) -> tuple[engine_replay.Finding, ...]:
        return engine_replay.findings_for(self.settlement, self.events, self.state)

    @property
    def opened(self) -> RoundOpened:
        return self.events[0]  # type: ignore[return-value]

    def extend(self, new: Sequence[Event]) -> tuple[Any, tuple[Event, ...]]:
        """The engine state and events after ``new``: one engine step per event.

        :raises RuleViolation: at the first event the regulation forbids, with
            ``index`` its index in ``new``.
        """
        if self.violation is not None:
            stored = self.violation
            violation = RuleViolation(stored.section, stored.reason, stored.field)
            violation.index = 0  # type: ignore[attr-defined]
            raise violation
        state, start = self.state, 0
        index = 0
        try:
            if state is None and new:
                if not isinstance(new[0], RoundOpened):
                    raise NotARound()
                state, start = engine.open_round(new[0]), 1
            apply = engine.apply
            for index in range(start, len(new)):
                state = apply(state, new[index])
        except RuleViolation as violation:
            violation.index = index  # type: ignore[attr-defined]
            raise
        return state, self.events + tuple(new)

    def advanced(self, head: tuple[int, str], facts: Sequence[Any], state: Any,
                 events: tuple[Event, ...]) -> RoundState:  # fmt: skip
        """This round at ``head`` (version, hash), its new round events having
        led to ``state`` and ``events``; ``facts`` are those events' ledger
        facts (``occurred_at``, ``position``), in order."""
        opened_at = self.opened_at
        if opened_at is None and facts:
            opened_at = facts[0].occurred_at
        return RoundState(
            self.stream_id, head[0], head[1], state, events, opened_at,
            facts[-1].occurred_at if facts else self.last_event_at,
            facts[-1].position if facts else self.last_position,
        )  # fmt: skip

    def read(self, recorded: Sequence[RecordedEvent]) -> RoundState:
        """This round after the stream's next stored events: a rule they
        break (a rule changed since they were stored) is kept, not raised."""
        if not recorded:
            return self
        head = (recorded[-1].version, recorded[-1].hash)
        facts = [e for e in recorded if e.event_type in ROUND_EVENT_TYPES]
        try:
            state, events = self.extend([to_engine(e.event_type, e.payload) for e in facts])
        except RuleViolation as violation:
            return RoundState(self.stream_id, *head, None, self.events, self.opened_at,
                              self.last_event_at, self.last_position, violation)  # fmt: skip
        return self.advanced(head, facts, state, events)


def empty(stream_id: str) -> RoundState:
    """A round stream with no events yet."""
    return RoundState(stream_id, 0, "", None, (), None, None, 0)


class RoundsService:
    """The newest ``RoundState`` of each round, in a bounded LRU (thread-safe)."""

    def __init__(self, capacity: int = CAPACITY) -> None:
        self.capacity = capacity
        self._entries: OrderedDict[str, RoundState] = OrderedDict()
        self._lock = threading.Lock()
        #: How lookups were answered: from the cache, by reading a few events
        #: ahead, by a rebuild from the ledger (for tests and the bench).
        self.counts = {"hit": 0, "caught_up": 0, "rebuilt": 0}

    # --- the cache ------------------------------------------------------------

    def cached(self, stream_id: str) -> RoundState | None:
        with self._lock:
            entry = self._entries.get(stream_id)
            if entry is not None:
                self._entries.move_to_end(stream_id)
            return entry

    def keep(self, entry: RoundState) -> None:
        with self._lock:
            self._entries[entry.stream_id] = entry
            self._entries.move_to_end(entry.stream_id)
            while len(self._entries) > self.capacity:
                self._entries.popitem(last=False)

    def forget(self, stream_id: str | None = None) -> None:
        """Drop one round (or all): the next lookup rebuilds it from the ledger."""
        with self._lock:
            if stream_id is None:
                self._entries.clear()
            else:
                self._entries.pop(stream_id, None)

    # --- lookups --------------------------------------------------------------

    def at(self, stream_id: str, version: int, head_hash: str) -> RoundState:
        """The round after the stream's event ``version``, whose hash is
        ``head_hash`` (the stream's head as the caller read it)."""
        if version == 0:
            return empty(stream_id)
        entry = self.cached(stream_id)
        if entry is not None and entry.version == version and entry.head_hash == head_hash:
            self.counts["hit"] += 1
            return entry
        if entry is not None and entry.version < version:
            ahead = read_stream(stream_id, after_version=entry.version,
                                limit=version - entry.version)  # fmt: skip
            if _continues(entry, ahead, version, head_hash):
                self.counts["caught_up"] += 1
                return self._kept(entry.read(ahead))
        recorded = read_stream(stream_id, limit=version)
        self.counts["rebuilt"] += 1
        entry = empty(stream_id).read(recorded)
        if entry.version != version or entry.head_hash != head_hash:
            raise LookupError(f"{stream_id} is not at version {version} with that hash")
        return self._kept(entry)

    def current(self, stream_id: str) -> RoundState:
        """The round at its stream's head as committed now (the round viewer)."""
        from audit.storage import heads

        version, head_hash = heads([stream_id]).get(stream_id, (0, ""))
        return self.at(stream_id, version, head_hash)

    def following(self, batch: Iterable[RecordedEvent]) -> dict[str, RoundState]:
        """Each round of ``batch`` (stored events in ledger order) as of its
        last event there: the cached state advanced by the batch's events
        where it holds the one just before them, otherwise rebuilt (one read
        for all the misses). For the rounds projection."""
        by_stream: dict[str, list[RecordedEvent]] = {}
        for event in batch:
            by_stream.setdefault(event.stream_id, []).append(event)
        found: dict[str, RoundState] = {}
        misses: dict[str, RecordedEvent] = {}
        for stream_id, events in by_stream.items():
            last = events[-1]
            entry = self.cached(stream_id)
            if entry is not None and entry.version == last.version and entry.head_hash == last.hash:
                self.counts["hit"] += 1
                found[stream_id] = entry
                continue
            if entry is None and events[0].version == 1:
                # The batch holds the round from its first event (a rebuild, a
                # check): it is built from them, not read again.
                entry = empty(stream_id)
            if entry is not None and entry.version < last.version:
                ahead = [e for e in events if e.version > entry.version]
                if _continues(entry, ahead, last.version, last.hash):
                    self.counts["caught_up"] += 1
                    found[stream_id] = self._kept(entry.read(ahead))
                    continue
            misses[stream_id] = last
        if misses:
            recorded: dict[str, list[RecordedEvent]] = {}
            for event in read_streams(sorted(misses)):
                if event.version <= misses[event.stream_id].version:
                    recorded.setdefault(event.stream_id, []).append(event)
            for stream_id, events in recorded.items():
                self.counts["rebuilt"] += 1
                found[stream_id] = self._kept(empty(stream_id).read(events))
        return found

    def _kept(self, entry: RoundState) -> RoundState:
        self.keep(entry)
        return entry

    # --- appending --------------------------------------------------------------

    def check(self, so_far: Any, new: Sequence[Any]) -> None:
        """The round policy's work: the state at the stream's head (``so_far``,
        an ``audit.records.StreamSoFar``), one engine step per new event and,
        once the batch commits, the new state kept.

        :raises RuleViolation: with ``index`` the index of the event in ``new``.
        """
        base = self.at(so_far.stream_id, so_far.version, so_far.head_hash)
        # Only round events go to the engine (a stream may carry corrections).
        kept = [i for i, e in enumerate(new) if e.event_type in ROUND_EVENT_TYPES]
        try:
            state, events = base.extend([to_engine(new[i].event_type, new[i].payload)
                                         for i in kept])  # fmt: skip
        except RuleViolation as violation:
            at = getattr(violation, "index", 0)
            violation.index = kept[at] if at < len(kept) else 0  # type: ignore[attr-defined]
            raise

        def committed(landed: tuple[CommittedEvent, ...]) -> None:
            head = (landed[-1].version, landed[-1].hash)
            self.keep(base.advanced(head, [landed[i] for i in kept], state, events))

        so_far.after_commit(committed)


def _continues(entry: RoundState, ahead: Sequence[RecordedEvent], version: int,
               head_hash: str) -> bool:  # fmt: skip
    """Whether ``ahead`` are exactly the events after ``entry`` up to the head."""
    return (
        len(ahead) == version - entry.version
        and bool(ahead)
        and (entry.version == 0 or ahead[0].prev_hash == entry.head_hash)
        and ahead[-1].hash == head_hash
    )


SERVICE = RoundsService()
