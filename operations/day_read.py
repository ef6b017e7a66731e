"""The close's one read of the day: every event the day's seal covers, read
once in position order, and from that one pass

* each event's hash and link checked and each stream's head kept (the seal's
  walk, ``audit.seals.ChainCheck``);
* the line of ``events.jsonl`` written (``audit.exports.event_line_of``);
* the day's rounds replayed through the rules engine, and its poker hands
  through the hand machine (``tables.poker_hands``), each as soon as its
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

import concurrent.futures
import contextlib
import datetime
import heapq
import multiprocessing
import os
import shutil
import time
import uuid
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

import orjson
from django.db import connection, connections

from audit import providers
from audit.claims import claim as _claim
from audit.exports import HashingWriter, event_line_of, file_digest
from audit.hashing import canonical_json
from audit.registry import REGISTRY
from audit.seals import (
    PAGE,
    ChainCheck,
    DayWalk,
    Head,
    Members,
    Ranges,
    batches,
    continued_members,
    day_window,
    finish_walk,
    gather_members,
    member_rows,
    placeholders,
)
from audit.storage import EventFacts, each_row, loads_json, pg_cursor, stamp

#: How often (in rounds) the replay's progress is reported.
PROGRESS_EVERY = 500
#: Payloads the read keeps decoded and built (``read_part``): a few thousand recur all
#: day; a round's opening, long and each its own, is not kept.
KNOWN_PAYLOADS = 4096
KNOWN_PAYLOAD_CHARS = 200


@dataclass
class DayTally:
    """The replay's figures: the day's and each table's (``PlayTally``)."""

    rounds: int = 0
    events: int = 0
    findings: dict[str, int] = field(default_factory=dict)
    refused: list[str] = field(default_factory=list)
    tables: dict[str, Any] = field(default_factory=dict)

    #: The day's poker hands (``tables.poker_hands.PokerTally``), None while there are none.
    poker: Any = None

    def add(self, stream_id: str, events: list[Any]) -> None:
        """Replay one round's (or poker hand's) stored events and add it."""
        from tables.poker_hands import POKER_HAND_STREAM_KIND
        from tables.verification import verify_round

        if stream_id.startswith(f"{POKER_HAND_STREAM_KIND}:"):
            self._add_hand(stream_id, events)
            return
        verified = verify_round(stream_id, events)
        self._add_round(stream_id, verified.result, len(events), len(verified.recorded))

    def add_built(self, stream_id: str, events: list[Any]) -> None:
        """Replay one round from its events built already (all of them round
        events, as ``verify_round`` would build them) and add it."""
        from tables.verification import replay_built

        self._add_round(stream_id, replay_built(events), len(events), len(events))

    def _add_round(self, stream_id: str, result: Any, events: int, round_events: int) -> None:
        from tables.reconciliation import PlayTally

        self.rounds += 1
        self.events += events
        if result is None:
            self.refused.append(stream_id)
            return
        for finding in result.findings:
            kind = finding.kind.value
            self.findings[kind] = self.findings.get(kind, 0) + 1
        table_id = result.events[0].table_id
        tally = self.tables.get(table_id)
        if tally is None:
            tally = self.tables[table_id] = PlayTally()
        tally.add_round(result, round_events)

    def _add_hand(self, stream_id: str, events: list[Any]) -> None:
        from tables.poker_hands import PokerTally

        if self.poker is None:
            self.poker = PokerTally()
        self.events += len(events)
        found = self.poker.add(events)
        if found is None:
            self.refused.append(stream_id)
            return
        for key in found:
            self.findings[key] = self.findings.get(key, 0) + 1

    def merge(self, other: DayTally) -> DayTally:
        if other.poker is not None:
            from tables.poker_hands import PokerTally

            if self.poker is None:
                self.poker = PokerTally()
            for table_id, hands in other.poker.tables.items():
                self.poker.tables.setdefault(table_id, type(hands)()).merge(hands)
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

    @classmethod
    def from_payload(cls, payload: dict[str, Any]) -> DayTally:
        from tables.reconciliation import PlayTally

        tables = {t: PlayTally.from_payload(p) for t, p in payload["tables"].items()}
        tally = cls(payload["rounds"], payload["events"], dict(payload["findings"]),
                    list(payload["refused"]), tables)  # fmt: skip
        if "poker" in payload:
            from tables.poker_hands import HandTally, PokerTally

            tally.poker = PokerTally({t: HandTally.from_payload(p)
                                      for t, p in payload["poker"].items()})  # fmt: skip
        return tally

    def payload(self) -> dict[str, Any]:
        """The ``close.replayed`` payload (sorted: the order rounds came in is not in it).

        The poker hands' findings are in ``findings`` (by kind and section), their events
        in ``events``, their tables in ``poker``: a day without hands has no ``poker``, so
        its payload is what it was before the close replayed hands."""
        payload = {
            "rounds": self.rounds,
            "events": self.events,
            "findings": dict(sorted(self.findings.items())),
            "refused": sorted(self.refused),
            "tables": {t: self.tables[t].to_payload() for t in sorted(self.tables)},
        }
        if self.poker is not None and self.poker.tables:
            tables = self.poker.tables
            payload["poker"] = {t: tables[t].to_payload() for t in sorted(tables)}
        return payload


@dataclass
class DayRead:
    """What the one read of the day gives the close's later stages."""

    walk: DayWalk
    #: Where ``events.jsonl`` is written aside (for the export to move in).
    path: Path
    #: Its digest once written: a day read in parts puts it together from the parts'
    #: files in a thread while the close reconciles and seals, which do not need it
    #: (seconds of a busy day's, the CPUs otherwise half idle then).
    digest: concurrent.futures.Future[dict[str, Any]]
    #: The day's replay, or None when the read was not asked to replay.
    tally: DayTally | None = None


def day_rounds(day: datetime.date, cutoff: int) -> set[str]:
    """The rounds the close replays (``RoundSelection``) and the day's poker hands
    (``tables.poker_hands.day_hands_sql``), each opened up to the cutoff."""
    return {stream_id for (stream_id,) in each_row(*_day_rounds_sql(day, cutoff))}


def _day_rounds_sql(day: datetime.date, cutoff: int) -> tuple[str, list[Any]]:
    from tables.poker_hands import day_hands_sql
    from tables.verification import RoundSelection

    where, params = RoundSelection(gaming_day=day, upto_position=cutoff).where()
    hand_day = ("o.payload ->> 'gaming_day'" if connection.vendor == "postgresql"
                else "json_extract(o.payload, '$.gaming_day')")  # fmt: skip
    return (f"SELECT o.stream_id FROM ledger_event o WHERE {where} UNION ALL SELECT "
            f"o.stream_id FROM ledger_event o WHERE o.version = 1 AND "
            f"{day_hands_sql(hand_day)} AND o.position <= %s",
            [*params, day.isoformat(), cutoff])  # fmt: skip


def seal_cutoff(cutoff: int) -> int | None:
    """The cutoff the seal uses: none when no app registered day streams."""
    return cutoff if providers.day_streams() is not None else None


def _read_whole(
    day: datetime.date, cutoff: int, path: Path, members: Ranges,
    amends: dict[str, datetime.date], rounds: set[str], replay: bool,
    on_round: Callable[[int], None] | None,
) -> DayRead:  # fmt: skip
    apart = any(members.get(s, (0,))[0] != 1 for s in rounds)
    rounds = set() if apart else rounds
    writer = HashingWriter(path)
    try:
        check, tally = read_part(members, rounds, member_rows(members), writer.write, on_round)
    finally:
        digest = writer.close()
    if apart:
        tally = replay_apart(day, cutoff)
    written: concurrent.futures.Future[dict[str, Any]] = concurrent.futures.Future()
    written.set_result(digest)
    walk = finish_walk([check], check.head_entries(), continued_members(members, amends), amends)
    return DayRead(walk, path, written, tally if replay else None)


def replay_apart(day: datetime.date, cutoff: int) -> DayTally:
    """The day's rounds read and replayed on their own, by stream."""
    from audit.ledger import read_streams
    from tables.verification import RoundSelection, iter_round_events, rounds_of

    tally = DayTally()
    for stream_id, events in rounds_of(iter_round_events(
            RoundSelection(gaming_day=day, upto_position=cutoff))):  # fmt: skip
        tally.add(stream_id, events)
    hands = sorted(s for s in day_rounds(day, cutoff) if s.startswith("poker-hand:"))
    for stream_id, events in rounds_of(e for e in read_streams(hands) if e.position <= cutoff):
        tally.add(stream_id, events)
    return tally


def read_part(
    members: Ranges, rounds: set[str], rows: Iterable[tuple[Any, ...]],
    write: Callable[[bytes], Any], on_round: Callable[[int], None] | None = None,
    carried: Iterable[str] = (), earlier: Iterable[tuple[Any, ...]] = (),
) -> tuple[ChainCheck, DayTally]:  # fmt: skip
    """One pass over ``rows`` (``member_rows`` of ``members``, in position
    order): each event checked, written as its ``events.jsonl`` line, and the
    streams in ``rounds`` replayed as each completes. A part of a day read in
    parts by position range names the streams begun before it (``carried``,
    see ``ChainCheck``) and gives ``earlier`` the events before it of the
    rounds it replays, which are held for their replay and nothing more."""
    from audit.projections import batch_gc
    from tables.rules.events import ROUND_EVENT_TYPES

    check = ChainCheck(members, carried)
    tally = DayTally()
    upcast = REGISTRY.upcast
    current = {name: t.version for name, t in REGISTRY.event_types.items()}
    round_type = ROUND_EVENT_TYPES.get
    # Each pending round's stored rows, and its events built from their payloads; a round
    # with an event that is not a round event as stored (an old schema version; a poker
    # hand's) is given to the tally as stored facts instead.
    pending: dict[str, list[tuple[Any, ...]]] = {}
    built: dict[str, list[Any]] = {}
    as_facts: set[str] = set()
    add = check.add
    # One append's events share their metadata and timestamps: each is put in the
    # chain's form once and kept for the next event.
    last_metadata: Any = None
    metadata_json = b""
    last_occurred: Any = None
    last_recorded: Any = None
    occurred = recorded = ""
    # Most payloads recur (a card to a seat, a wager of an amount): each is decoded, put
    # in canonical form and built into its round event once, [decoded, canonical, event].
    known: dict[tuple[str, int, str], list[Any]] = {}

    def entry_of(event_type: str, schema_version: int, payload: Any) -> list[Any]:
        key = ((event_type, schema_version, payload) if type(payload) is str
               and len(payload) <= KNOWN_PAYLOAD_CHARS else None)  # fmt: skip
        entry = known.get(key) if key is not None else None
        if entry is None:
            decoded = loads_json(payload)
            entry = [decoded, canonical_json(decoded), None]
            if key is not None:
                if len(known) >= KNOWN_PAYLOADS:
                    known.clear()  # bounded: the memory of the read stays flat
                known[key] = entry
        return entry

    def hold(row: tuple[Any, ...], entry: list[Any]) -> None:
        """Keep a round's event for its replay."""
        stream_id, event_type = row[1], row[3]
        kind = round_type(event_type)
        if kind is None or row[4] != current.get(event_type, row[4]):
            as_facts.add(stream_id)
        elif entry[2] is not None:
            built.setdefault(stream_id, []).append(entry[2])
        else:
            try:
                entry[2] = kind.from_payload(entry[0])
                built.setdefault(stream_id, []).append(entry[2])
            except ValueError:  # changed in the database: verify_round refuses the round
                as_facts.add(stream_id)
        pending.setdefault(stream_id, []).append(row)

    def replay(stream_id: str) -> None:
        rows = pending.pop(stream_id)
        events = built.pop(stream_id, [])
        if stream_id not in as_facts:
            tally.add_built(stream_id, events)
            return
        as_facts.discard(stream_id)
        facts = []
        for row in rows:
            # An upcaster may change the payload it is given: a copy of its own.
            schema_version, decoded = upcast(row[3], row[4], loads_json(row[5]))
            at = datetime.datetime.fromisoformat(stamp(row[7]))
            facts.append(EventFacts(row[0], stream_id, row[2], row[3], schema_version, decoded,
                                    at))
        tally.add(stream_id, facts)

    with batch_gc():
        for row in earlier:
            if row[1] in rounds:
                hold(row, entry_of(row[3], row[4], row[5]))
        for row in rows:
            (position, stream_id, version, event_type, schema_version, payload, metadata,
             occurred_at, recorded_at, prev_hash, digest) = row  # fmt: skip
            entry = entry_of(event_type, schema_version, payload)
            payload_json = entry[1]
            if metadata != last_metadata:
                last_metadata, metadata_json = metadata, canonical_json(loads_json(metadata))
            if occurred_at != last_occurred:
                last_occurred, occurred = occurred_at, stamp(occurred_at)
            if recorded_at != last_recorded:
                last_recorded, recorded = recorded_at, stamp(recorded_at)
            add(position, stream_id, version, event_type, schema_version, payload_json,
                metadata_json, occurred, recorded, prev_hash, digest)  # fmt: skip
            write(event_line_of(position, stream_id, version, event_type, schema_version,
                                payload_json, metadata_json, occurred, recorded, prev_hash,
                                digest))  # fmt: skip
            if stream_id not in rounds:
                continue
            hold(row, entry)
            if version == members[stream_id][1]:  # the round's last event up to the cutoff
                replay(stream_id)
                if on_round is not None and tally.rounds % PROGRESS_EVERY == 0:
                    on_round(tally.rounds)
        for stream_id in sorted(pending):  # none: each round ends inside its range
            replay(stream_id)
    return check, tally


# --- the read in parts, by position range ------------------------------------------------
#
# A day read in parts: the seal's membership is written to a scratch table
# (``MemberTable``), and the day's positions are cut into ranges of about equal
# events, as many as the processes or a multiple of them (no more than about
# ``CLOSE_PART_EVENTS`` each). Each part is one task
# (``operations.tasks.read_close_part``): whichever process claims it (a
# PostgreSQL advisory lock, held by the claimer's own connection, so a killed
# claimer frees it) asks the table for the streams reaching its range, reads
# its events as ``read_part`` does, replays the rounds that end in it (with
# their events before it, read apart: a few hundred rounds are open at any
# point of a day), and leaves three files in the run's directory: its
# ``events.jsonl`` lines, its streams' heads by stream_id, and its result (the
# chain check's counts and problems, and the tally). The close itself claims
# parts too, and once every part has a result puts them together: the
# tallies, the walk (the Merkle root made as the parts' heads are merged, and
# the links of the streams that cross from one part into the next checked
# there), and ``events.jsonl``, the parts' lines one after the other. The
# directory is under the export root, which every process reading parts must
# therefore share. No process holds every stream of the day: before the
# table and the heads' files the close's own process did (the membership and
# every head, about 700 bytes a stream), and the bench's 200-table day took 1.6×
# the memory of its 50-table one (bench/README.md).
#
# By table (stop 27's choice) each part scanned the whole day's positions for
# its tables' events, and its lines had to be merged by position after the
# parts were read: 22 s of a 200-table day's close on one CPU while the other
# idled (bench/README.md). By position range a part scans its own range and
# the lines are already in order.

#: Parts per worker process: about equal in events, so one each (at the least: a
#: part holds at most ``CLOSE_PART_EVENTS``).
PARTS_PER_WORKER = 1
POLL_SECONDS = 0.2
#: Bytes of the parts' lines copied into ``events.jsonl`` at a time.
JOIN_BYTES = 8 << 20


class MemberTable(Members):
    """The seal's membership written to ``audit_close_member`` as it is found
    (``audit.seals.gather_members``), a page of rows at a time, under the
    close's ``run``: each part's reader asks for the members reaching its
    range, and no process holds every stream of a busy day. Its totals kept."""

    def __init__(self, run: str) -> None:
        super().__init__()
        self.run = run
        self.rows: list[tuple[Any, ...]] = []
        self.events = 0

    def add(self, stream_id: str, found: tuple[int, int, int, int]) -> None:
        self.rows.append((self.run, stream_id, *found))
        self.events += found[1] - found[0] + 1
        if len(self.rows) >= PAGE:
            self._write()

    def done(self) -> None:
        self._write()

    def _write(self) -> None:
        if not self.rows:
            return
        columns = "run, stream_id, first_version, last_version, first_position, last_position"
        if connection.vendor == "postgresql":
            with pg_cursor() as cursor, cursor.copy(
                    f"COPY audit_close_member ({columns}) FROM STDIN") as copy:  # fmt: skip
                for row in self.rows:
                    copy.write_row(row)
        else:
            with connection.cursor() as cursor:
                cursor.executemany(f"INSERT INTO audit_close_member ({columns}) "
                                   "VALUES (%s, %s, %s, %s, %s, %s)", self.rows)  # fmt: skip
        self.rows = []

    def known(self, stream_ids: list[str]) -> set[str]:
        self._write()
        return {row[0] for row in _members_among(self.run, "stream_id", stream_ids)}


def _members_among(run: str, columns: str, stream_ids: list[str]) -> Iterator[tuple[Any, ...]]:
    """``columns`` of those of ``stream_ids`` that are members of ``run``: in one
    query on PostgreSQL, in batches of ``IN`` lists on SQLite."""
    sql = f"SELECT {columns} FROM audit_close_member WHERE run = %s AND stream_id "
    if connection.vendor == "postgresql":
        yield from each_row(sql + "= ANY(%s)", [run, stream_ids])
        return
    for batch in batches(stream_ids):
        yield from each_row(sql + f"IN ({placeholders(batch)})", [run, *batch])


def _write_membership(run: str, day: datetime.date, cutoff: int,
                      replay: bool) -> tuple[MemberTable, dict[str, datetime.date]]:  # fmt: skip
    """The seal's members written to ``audit_close_member`` and the rounds to
    replay to ``audit_close_round``, under ``run``: two queries the server
    spends seconds on for a busy day, asked at once on PostgreSQL (the rounds on
    a connection of their own, in a thread: a position up to the cutoff is
    committed, so both see the same events). Inside a transaction (a test's),
    one after the other on its connection."""
    table = MemberTable(run)
    start, end = day_window(day)

    def members() -> dict[str, datetime.date]:
        return gather_members(day, start, end, seal_cutoff(cutoff), table)

    if not replay:
        return table, members()
    sql, params = _day_rounds_sql(day, cutoff)
    insert = f"INSERT INTO audit_close_round (run, stream_id) SELECT %s, r.stream_id FROM ({sql}) r"
    if connection.vendor != "postgresql" or connection.in_atomic_block:
        with connection.cursor() as cursor:
            cursor.execute(insert, [run, *params])
        return table, members()

    def listed() -> None:
        try:
            with connection.cursor() as cursor:
                cursor.execute(insert, [run, *params])
        finally:
            connection.close()  # this thread's own

    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        rounds = pool.submit(listed)
        amends = members()
        rounds.result()
        return table, amends


def _clear_runs(pattern: str) -> None:
    """The scratch rows of the runs whose name matches ``pattern`` (LIKE)."""
    with connection.cursor() as cursor:
        for table in ("audit_close_member", "audit_close_round"):
            cursor.execute(f"DELETE FROM {table} WHERE run LIKE %s", [pattern])


def _rounds_apart(run: str) -> bool:
    """Whether a round to replay is not one of the seal's streams from its first
    event (a seal without day streams registered): the day's rounds are then
    replayed apart (``replay_apart``)."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT 1 FROM audit_close_round r WHERE r.run = %s AND NOT EXISTS (SELECT 1 FROM "
            "audit_close_member m WHERE m.run = r.run AND m.stream_id = r.stream_id AND "
            "m.first_version = 1) LIMIT 1", [run])  # fmt: skip
        return cursor.fetchone() is not None


def run_members(run: str, within: tuple[int, int] | None = None) -> tuple[Ranges, set[str]]:
    """The members of ``run`` (those reaching ``within`` when given) by stream_id,
    and those of them that are rounds to replay."""
    sql = ("SELECT m.stream_id, m.first_version, m.last_version, m.first_position, "
           "m.last_position, EXISTS (SELECT 1 FROM audit_close_round r WHERE r.run = m.run "
           "AND r.stream_id = m.stream_id) FROM audit_close_member m WHERE m.run = %s")  # fmt: skip
    params: list[Any] = [run]
    if within is not None:
        sql += " AND m.last_position >= %s AND m.first_position <= %s"
        params += list(within)
    members: Ranges = {}
    rounds: set[str] = set()
    for stream_id, *found, replayed in each_row(sql, params):
        members[stream_id] = tuple(found)
        if replayed:
            rounds.add(stream_id)
    return members, rounds


def _continued(run: str, amends: dict[str, datetime.date]) -> Ranges:
    """``audit.seals.continued_members`` of ``run``'s members: few of a day's."""
    found: Ranges = {}
    columns = "stream_id, first_version, last_version, first_position, last_position"
    for row in each_row(f"SELECT {columns} FROM audit_close_member WHERE run = %s "
                        "AND first_version > 1", [run]):  # fmt: skip
        found[row[0]] = tuple(row[1:])
    for row in _members_among(run, columns, sorted(s for s in amends if s not in found)):
        found[row[0]] = tuple(row[1:])
    return dict(sorted(found.items()))


def plan_parts(run: str, parts: int, events: int) -> list[dict[str, Any]]:
    """The day's positions cut into ``parts`` ranges, or a multiple of them
    (parts of at most about ``CLOSE_PART_EVENTS``), of about equal events,
    each stream counted where it ends: see ``plans_at``. ``events`` is the
    members' total."""
    from django.conf import settings

    # A multiple of the processes, so that they end together.
    parts *= max(1, -(-events // (parts * settings.CLOSE_PART_EVENTS)))
    cuts: list[int] = []
    running = 0
    for position, count in each_row(
            "SELECT last_position, last_version - first_version + 1 FROM audit_close_member "
            "WHERE run = %s ORDER BY last_position", [run]):  # fmt: skip
        running += count
        if len(cuts) < parts - 1 and running >= events * (len(cuts) + 1) / parts:
            cuts.append(position)
    return plans_at(run, cuts)


def member_span(run: str) -> tuple[int, int]:
    """The first and last position of the members of ``run``."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT min(first_position), max(last_position) FROM audit_close_member "
                       "WHERE run = %s", [run])  # fmt: skip
        first, last = cursor.fetchone()
        return first, last


def plans_at(run: str, cuts: list[int]) -> list[dict[str, Any]]:
    """The parts of the day's positions cut after each of ``cuts``: each
    names its run and its range; its reader asks for the members reaching
    it, those of them begun before it (``carried``) and the rounds it
    replays: those that end in it (``run_part``)."""
    first, last = member_span(run)
    cuts = sorted(cut for cut in set(cuts) if first <= cut < last)
    return [{"run": run, "within": [low, high]}
            for low, high in zip([first, *(cut + 1 for cut in cuts)], [*cuts, last],
                                 strict=True)]  # fmt: skip


def run_part(directory: str | Path, index: int, holder: Any = None) -> str:
    """Read part ``index`` of the run in ``directory`` unless it is read
    already, being read, or its run is over (its directory gone); the claim
    on ``holder`` when given (see ``_claim``). It leaves its result (the
    check's counts and problems, the tally) and its heads, by stream_id, for
    ``finish_walk``."""
    directory = Path(directory)
    plan, result = directory / f"part-{index}.plan.json", directory / f"part-{index}.json"
    if not plan.exists():
        return "its close is over"
    with _claim(directory, index, holder) as claimed:
        if not claimed:
            return "being read elsewhere"
        if result.exists():
            return "read already"
        job = orjson.loads(plan.read_bytes())
        low, high = job["within"]
        members, carried, rounds = part_members(job["run"], (low, high))
        begun = {s: members[s] for s in rounds if members[s][2] < low}
        earlier = member_rows(begun, some=True, within=(
            min((found[2] for found in begun.values()), default=low), low - 1))  # fmt: skip
        with (directory / f"part-{index}.events").open("wb") as sink:
            rows = member_rows(members, within=(low, high))
            check, tally = read_part(members, rounds, rows, sink.write, carried=carried,
                                     earlier=earlier)  # fmt: skip
        del members, rounds, begun
        heads, partial = directory / f"part-{index}.heads", directory / f"part-{index}.heads~"
        with partial.open("wb") as sink:
            for entry in check.head_entries():
                sink.write(orjson.dumps(entry) + b"\n")
        partial.replace(heads)
        written = result.with_suffix(".partial")
        written.write_bytes(orjson.dumps({"check": check.to_payload(),
                                          "tally": tally.payload()}))  # fmt: skip
        written.replace(result)  # the result appears whole, or not at all (after its heads)
    return "read"


def part_members(run: str, within: tuple[int, int]) -> tuple[Ranges, list[str], set[str]]:
    """A part's members: those reaching its range, those of them begun before it
    (``carried``, see ``ChainCheck``) and the rounds it replays: those that end in it."""
    low, high = within
    members, replayed = run_members(run, within)
    carried = sorted(s for s, found in members.items() if found[2] < low)
    return members, carried, {s for s in replayed if members[s][3] <= high}


def _part_heads(path: Path) -> Iterator[Head]:
    with path.open("rb") as lines:
        for line in lines:
            stream_id, version, digest, first = orjson.loads(line)
            yield stream_id, version, digest, tuple(first) if first is not None else None


def part_heads(paths: list[Path]) -> Iterator[Head]:
    """The parts' heads by stream_id, one stream's in the order of the parts
    (``heapq.merge`` keeps the order of its inputs among equal keys): a file
    each, merged as they are read."""
    return heapq.merge(*(_part_heads(path) for path in paths), key=lambda head: head[0])


def join_parts(parts: list[Path], path: Path) -> dict[str, Any]:
    """``events.jsonl`` from the parts' lines, each part's in position order
    and the parts in the order of their ranges: the first part's file becomes
    it and the others are appended (on a 200-table day the first alone is
    2 GB not copied); its digest as the export writes it."""
    shutil.move(parts[0], path)
    with path.open("r+b") as joined:  # not "ab": copy_file_range refuses O_APPEND
        end = joined.seek(0, os.SEEK_END)
        for part in parts[1:]:
            with part.open("rb") as lines:
                end += _append(lines, joined, end)
    return file_digest(path)


def _append(lines: BinaryIO, joined: BinaryIO, at: int) -> int:
    """``lines`` written into ``joined`` from byte ``at``; how many bytes. The
    kernel copies them where it can (``copy_file_range``: a 200-table day's
    2 GB part in about a second instead of five through Python's buffers,
    measured alone); else, or from wherever it stopped, Python does."""
    size = os.fstat(lines.fileno()).st_size
    done = 0
    with contextlib.suppress(AttributeError, OSError):  # not Linux; another file system
        while done < size:
            copied = os.copy_file_range(lines.fileno(), joined.fileno(), size - done,
                                        done, at + done)  # fmt: skip
            if copied == 0:
                break
            done += copied
    if done < size:
        lines.seek(done)
        joined.seek(at + done)
        shutil.copyfileobj(lines, joined, JOIN_BYTES)
    return size


def _can_fork(workers: int) -> bool:
    # A Celery prefork worker's processes are daemons and may not fork; the
    # embedded SQLite default is one process; a child's connection sees only what
    # is committed, so a close inside a transaction (a test's) reads alone.
    return (workers > 1 and connection.vendor == "postgresql"
            and not connection.in_atomic_block
            and not multiprocessing.current_process().daemon)  # fmt: skip


def _run_forked(job: tuple[str, int]) -> str:
    connections.close_all()  # a child never shares its parent's connection
    return run_part(*job)


def read_day_in_parts(
    day: datetime.date, cutoff: int, path: Path, *, replay: bool, workers: int,
    scratch: Path, on_round: Callable[[int], None] | None = None,
) -> DayRead:  # fmt: skip
    """The close's one read of the day (see the module docstring), writing
    ``events.jsonl`` to ``path``; with ``replay``, the rounds replayed too
    (``on_round`` told how many every ``PROGRESS_EVERY``). In parts by position
    range (see above), read by ``workers``
    processes: Celery workers when a broker is configured (the close's own
    process reads parts too), else a pool forked here, or, in a process that
    may not fork, the tasks in this process one after the other. The seal's
    membership is written to a table (``MemberTable``) and each part's heads
    to a file, so that no process holds every stream of the day. A day of fewer
    than ``CLOSE_PARTS_ABOVE_EVENTS`` events is read whole, and so is one whose
    rounds are not all the seal's day streams."""
    from django.conf import settings

    prefix = f"close-{day.isoformat()}-"
    _clear_runs(f"{prefix}%")  # a killed run's
    for leftover in scratch.glob(f".{prefix}*"):
        shutil.rmtree(leftover, ignore_errors=True)  # a killed run's: its parts stop at once
    run = f"{prefix}{uuid.uuid4().hex[:12]}"
    with contextlib.ExitStack() as forked:
        forked.callback(_clear_runs, run)
        pool = None
        if settings.CELERY_TASK_ALWAYS_EAGER and _can_fork(workers):
            # Forked before the membership is asked: a child is a copy of this process.
            connections.close_all()
            pool = multiprocessing.get_context("fork").Pool(workers - 1)
            forked.callback(pool.join)
            forked.callback(pool.terminate)
        table, amends = _write_membership(run, day, cutoff, replay)
        if table.events < settings.CLOSE_PARTS_ABOVE_EVENTS or (replay and _rounds_apart(run)):
            members, rounds = run_members(run)
            return _read_whole(day, cutoff, path, members, amends, rounds, replay, on_round)
        plans = plan_parts(run, workers * PARTS_PER_WORKER, table.events)
        directory = scratch / f".{run}"
        directory.mkdir(parents=True)
        try:
            tally, checks, parts = _read_parts(directory, plans, replay, on_round, pool)
            walk = finish_walk(checks, part_heads([p.with_suffix(".heads") for p in parts]),
                               _continued(run, amends), amends)  # fmt: skip
        except BaseException:
            shutil.rmtree(directory, ignore_errors=True)
            raise
    joining = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="events.jsonl")
    written = joining.submit(_join_and_clear, parts, path, directory)
    joining.shutdown(wait=False)
    return DayRead(walk, path, written, tally if replay else None)


def _join_and_clear(parts: list[Path], path: Path, directory: Path) -> dict[str, Any]:
    try:
        return join_parts(parts, path)
    finally:
        shutil.rmtree(directory, ignore_errors=True)


def _read_parts(
    directory: Path, plans: list[dict[str, Any]], replay: bool,
    on_round: Callable[[int], None] | None, pool: Any,
) -> tuple[DayTally, list[ChainCheck], list[Path]]:  # fmt: skip
    """The parts read (by this process too, and by ``pool`` when given: else by
    Celery) and their results put together."""
    from celery import group

    from operations.tasks import read_close_part

    with contextlib.ExitStack() as cleanup:
        for index, part in enumerate(plans):
            (directory / f"part-{index}.plan.json").write_bytes(orjson.dumps(part))
        jobs = [(str(directory), index) for index in range(len(plans))]
        plans.clear()  # the readers read them from the files: not kept here
        if pool is not None:
            pool.map_async(_run_forked, jobs)
        else:
            # To the workers; eager (no broker), here, one after the other.
            group(read_close_part.s(*job) for job in jobs).apply_async()
        # One connection for this process's claims while it waits: it tries
        # the parts no one has read yet every POLL_SECONDS.
        holder = None
        if connection.vendor == "postgresql":
            holder = connections.create_connection("default")
            cleanup.callback(holder.close)
        # Each part's result as it comes: its tally, and its check (every stream's head
        # it read), made at once so that no part's result is held as read beside them.
        results: dict[int, tuple[DayTally, ChainCheck]] = {}
        while len(results) < len(jobs):
            for index in range(len(jobs)):
                if index in results:
                    continue
                found = directory / f"part-{index}.json"
                if not found.exists():
                    run_part(directory, index, holder)  # unless another process holds it
                if found.exists():
                    result = orjson.loads(found.read_bytes())
                    results[index] = (DayTally.from_payload(result.pop("tally")),
                                      ChainCheck.from_payload(result.pop("check")))  # fmt: skip
                    del result
                    if on_round is not None and replay:
                        on_round(sum(tally.rounds for tally, _ in results.values()))
            if len(results) < len(jobs):
                time.sleep(POLL_SECONDS)
    tally = DayTally()
    for index in sorted(results):
        tally.merge(results[index][0])
    checks = [results[index][1] for index in sorted(results)]
    return tally, checks, [directory / f"part-{i}.events" for i in range(len(jobs))]
