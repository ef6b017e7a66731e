"""The close's one read of the day: every event the day's seal covers, read
once in position order, and from that one pass

* each event's hash and link checked and each stream's head kept (the seal's
  walk, ``audit.seals.ChainCheck``);
* the line of ``events.jsonl`` written (``audit.exports.event_line_of``);
* the day's rounds replayed through the rules engine, each as soon as its
  last event up to the cutoff has gone by (so only the rounds open at that
  point of the day are held), and tallied per table.

Before, the close read the day three times: the replay by round, the seal's
walk, and ``events.jsonl`` beside it (bench/README.md).

The rounds replayed are those ``tables.verification.RoundSelection`` picks
(opened on the gaming day, up to the cutoff); each is one of the day's own
streams in the seal, from its first event to the cutoff. Should one not be
(a seal without day streams registered), the replay reads the rounds apart,
as it did before.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.db import connection

from audit import providers
from audit.exports import HashingWriter, event_line_of
from audit.hashing import canonical_payload
from audit.registry import REGISTRY
from audit.seals import ChainCheck, DayWalk, Ranges, day_membership, finish_walk, member_rows
from audit.storage import EventFacts, loads_json, stamp

#: How often (in rounds) the replay's progress is reported.
PROGRESS_EVERY = 500


@dataclass
class DayTally:
    """The replay's figures: the day's and each table's (``PlayTally``)."""

    rounds: int = 0
    events: int = 0
    findings: dict[str, int] = field(default_factory=dict)
    refused: list[str] = field(default_factory=list)
    tables: dict[str, Any] = field(default_factory=dict)

    def add(self, stream_id: str, events: list[Any]) -> None:
        """Replay one round's stored events and add it."""
        from tables.reconciliation import PlayTally
        from tables.verification import verify_round

        verified = verify_round(stream_id, events)
        self.rounds += 1
        self.events += len(events)
        if verified.result is None:
            self.refused.append(stream_id)
            return
        for finding in verified.result.findings:
            kind = finding.kind.value
            self.findings[kind] = self.findings.get(kind, 0) + 1
        table_id = verified.result.events[0].table_id
        tally = self.tables.get(table_id)
        if tally is None:
            tally = self.tables[table_id] = PlayTally()
        tally.add_round(verified.result, len(verified.recorded))

    def merge(self, other: DayTally) -> DayTally:
        self.rounds += other.rounds
        self.events += other.events
        for kind, count in other.findings.items():
            self.findings[kind] = self.findings.get(kind, 0) + count
        self.refused.extend(other.refused)
        for table_id, tally in other.tables.items():
            if table_id in self.tables:
                self.tables[table_id].merge(tally)
            else:
                self.tables[table_id] = tally
        return self

    def payload(self) -> dict[str, Any]:
        """The ``close.replayed`` payload (sorted: the order rounds came in is not in it)."""
        return {
            "rounds": self.rounds,
            "events": self.events,
            "findings": dict(sorted(self.findings.items())),
            "refused": sorted(self.refused),
            "tables": {t: self.tables[t].to_payload() for t in sorted(self.tables)},
        }


@dataclass
class DayRead:
    """What the one read of the day gives the close's later stages."""

    walk: DayWalk
    #: ``events.jsonl`` written aside, and its digest (moved into the export).
    events: tuple[Path, dict[str, Any]]
    #: The day's replay, or None when the read was not asked to replay.
    tally: DayTally | None = None


def day_rounds(day: datetime.date, cutoff: int) -> list[str]:
    """The stream ids of the rounds the close replays (``RoundSelection``)."""
    from tables.verification import RoundSelection

    where, params = RoundSelection(gaming_day=day, upto_position=cutoff).where()
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT o.stream_id FROM ledger_event o WHERE {where}", params)
        return [row[0] for row in cursor.fetchall()]


def seal_cutoff(cutoff: int) -> int | None:
    """The cutoff the seal uses: none when no app registered day streams."""
    return cutoff if providers.day_streams() is not None else None


def read_day(
    day: datetime.date, cutoff: int, path: Path, *, replay: bool,
    on_round: Callable[[int], None] | None = None,
) -> DayRead:  # fmt: skip
    """Read the day once (see the module docstring), writing ``events.jsonl``
    to ``path``; with ``replay``, the rounds replayed too."""
    members, amends = day_membership(day, seal_cutoff(cutoff))
    rounds: set[str] = set()
    apart = False
    if replay:
        rounds = set(day_rounds(day, cutoff))
        apart = any(members.get(s, (0,))[0] != 1 for s in rounds)
        if apart:
            rounds = set()
    writer = HashingWriter(path)
    try:
        check, tally = read_part(members, rounds, member_rows(members), writer.write, on_round)
    finally:
        digest = writer.close()
    if apart:
        tally = replay_apart(day, cutoff)
    return DayRead(finish_walk([check], members, amends), (path, digest),
                   tally if replay else None)  # fmt: skip


def replay_apart(day: datetime.date, cutoff: int) -> DayTally:
    """The day's rounds read and replayed on their own, by stream."""
    from tables.verification import RoundSelection, iter_round_events, rounds_of

    tally = DayTally()
    for stream_id, events in rounds_of(iter_round_events(
            RoundSelection(gaming_day=day, upto_position=cutoff))):  # fmt: skip
        tally.add(stream_id, events)
    return tally


def read_part(
    members: Ranges, rounds: set[str], rows: Iterable[tuple[Any, ...]],
    write: Callable[[bytes], Any], on_round: Callable[[int], None] | None = None,
    prefix: bool = False,
) -> tuple[ChainCheck, DayTally]:  # fmt: skip
    """One pass over ``rows`` (``member_rows`` of ``members``, in position
    order): each event checked, written as its ``events.jsonl`` line (after
    its position, zero-padded, with ``prefix``: a part merged later), and
    the streams in ``rounds`` replayed as each completes."""
    from tables.verification import batch_gc

    check = ChainCheck(members)
    tally = DayTally()
    upcast = REGISTRY.upcast
    current = {name: t.version for name, t in REGISTRY.event_types.items()}
    pending: dict[str, list[EventFacts]] = {}
    add = check.add
    with batch_gc():
        for row in rows:
            (position, stream_id, version, event_type, schema_version, payload, metadata,
             occurred_at, recorded_at, prev_hash, digest) = row  # fmt: skip
            decoded = loads_json(payload)
            payload_json = canonical_payload(decoded)
            metadata_json = canonical_payload(loads_json(metadata))
            occurred, recorded = stamp(occurred_at), stamp(recorded_at)
            add(position, stream_id, version, event_type, schema_version, payload_json,
                metadata_json, occurred, recorded, prev_hash, digest)  # fmt: skip
            line = event_line_of(position, stream_id, version, event_type, schema_version,
                                 payload_json, metadata_json, occurred, recorded, prev_hash,
                                 digest)  # fmt: skip
            write(b"%020d " % position + line if prefix else line)
            if stream_id not in rounds:
                continue
            if schema_version != current.get(event_type, schema_version):
                schema_version, decoded = upcast(event_type, schema_version, decoded)
            at = datetime.datetime.fromisoformat(occurred)
            pending.setdefault(stream_id, []).append(
                EventFacts(position, stream_id, version, event_type, schema_version, decoded, at))
            if version == members[stream_id][1]:  # the round's last event up to the cutoff
                tally.add(stream_id, pending.pop(stream_id))
                if on_round is not None:
                    on_round(tally.rounds)
        for stream_id in sorted(pending):  # none: each round ends inside its range
            tally.add(stream_id, pending.pop(stream_id))
    return check, tally
