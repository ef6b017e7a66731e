"""Gaming-day seals: a signed Merkle root over every stream the day touched.

Which events belong to a day (``day_members``): the close's membership.
The streams that belong to the gaming day (which they are is the apps'
knowledge, registered as ``audit.providers.DayStreams``: table days, counts,
rounds, slips) are sealed with every event up to the seal's
``cutoff_position`` (the ledger position the day's close read up to; the
ledger's head when sealed without a close), whenever recorded: a day
imported later, or replayed from a device's buffer, is sealed over its own
events. Every other event belongs to the day whose [start, end) bounds (the
registered calendar's ``gaming_day_bounds``) contain its ``recorded_at``,
the ledger's own clock: the events of streams of no day, and those appended
to an earlier day's stream after its sealed cutoff (a correction falls into
the day it is *recorded*, not the day it corrects), and that day's seal
lists it in an amendment of the earlier day (``amendments`` below). A later
day's streams wait for that day's seal. So each event is in exactly one seal, and a stream's
events in one seal are consecutive versions. With no day streams registered,
a seal holds the events recorded in its window (``window.membership`` says
which rule a seal used).

The seal body (``pitboss-day-seal/1``) is a JSON object, signed as canonical
JSON (``audit.hashing.canonical_json``: sorted keys, no spaces, UTF-8):

* ``merkle_root``: the Merkle Tree Hash of RFC 6962 § 2.1 over the heads of
  every stream touched that day. A head is the stream's last event of the
  day; its leaf is ``SHA-256(0x00 || canonical_json({"hash", "stream_id",
  "version"}))`` and leaves are ordered by ``stream_id`` (code-point order).
  An inner node is ``SHA-256(0x01 || left || right)`` over the raw 32-byte
  digests; a list of n > 1 leaves splits at the largest power of two below n;
  the root of no leaves is ``SHA-256("")``. Each head's hash commits to its
  whole stream back to genesis through the hash chain.
* ``previous_seal_hash``: SHA-256 of the canonical JSON of the previous
  seal's body (the latest earlier sealed day; sixty-four zeros for the first
  seal), so seals form one chain. The database makes it unique: no fork.
* ``events``, ``streams``, the window, ``cutoff_position``, the casino and
  ``sealed_at``.
* ``contents`` (format 2): what the day's export says beyond its events,
  signed with them: ``files``, the SHA-256 and size of every read-model CSV
  of the day (``audit.providers.export_files``: the win report, the
  variances, the rounds…), as the export writes them; and ``close``, the
  day's close stream (``close:<day>``) at the moment of sealing: its last
  version and that event's hash, which through the stream's hash chain
  commits to every close event before it (the cutoff, the replay's figures,
  the reconciliation and its variances). The close's later events
  (``close.sealed``, which names this seal, and ``close.exported``) cannot be
  inside what they name; they are chained onto the signed head, and the
  verifier checks that ``close.sealed`` names this seal. ``close`` is null
  for a day sealed before its close began.
* ``amendments`` (only when there is one, so other seals are unchanged):
  for each earlier sealed day whose streams gained events in this seal past
  that day's ``cutoff_position`` (a correction appended after the day was
  sealed), its ``gaming_day``, ``amends_seal_hash`` (the SHA-256 of that
  day's seal body: the amendment's link to the seal it amends), the
  ``streams`` and number of ``events`` that amend it, and ``merkle_root``,
  the Merkle root (as above) over those streams' heads in this seal. The
  events are this seal's own, so each event is still in exactly one seal; a
  regulator finds a day's amendments in the exports of the days after it.
* ``signing_key``: the Ed25519 public key (base64 of the raw 32 bytes) and
  whether it is a *development* key (derived from SECRET_KEY with DEBUG on
  and no LEDGER_SIGNING_KEY; never acceptable to a regulator).

The signature is Ed25519 over the canonical JSON bytes of the body.

Sealing is idempotent (a sealed day returns its seal), refuses a day that
has not ended, a day whose chains are broken, and a day earlier than one
already sealed. ``verify_seal`` walks the day again, recomputing every
event's hash and link, and compares the result with the stored seal.
"""

from __future__ import annotations

import base64
import binascii
import datetime
import hashlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
)
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from audit import providers
from audit.hashing import (
    GENESIS_HASH,
    canonical_json,
    canonical_payload,
    document_hash,
    format_timestamp,
)
from audit.models import DaySeal
from audit.providers import GamingDayCalendar
from audit.storage import each_row, json_text, loads_json, stamp, stream_rows

SEAL_FORMAT = "pitboss-day-seal/2"
MERKLE_CONSTRUCTION = "RFC 6962 section 2.1 Merkle Tree Hash, SHA-256, leaves sorted by stream_id"
DEVELOPMENT_KEY_NOTE = "DEVELOPMENT KEY derived from SECRET_KEY: not valid for regulatory use"
EMPTY_ROOT = hashlib.sha256(b"").hexdigest()
PAGE = 5000


class SealError(Exception):
    """A seal that cannot be made (the day is open, broken, or out of order)."""


# --- the key ------------------------------------------------------------------------


def signing_key_problem(raw: str) -> str:
    """What is wrong with a LEDGER_SIGNING_KEY value ("" when it is usable)."""
    if not raw:
        return "is not set"
    try:
        decoded = base64.b64decode(raw, validate=True)
    except (binascii.Error, ValueError):
        return "is not base64"
    if len(decoded) != 32:
        return f"decodes to {len(decoded)} bytes, not the 32 of a raw Ed25519 private key"
    return ""


def signing_key() -> tuple[Ed25519PrivateKey, bool]:
    """The seal-signing key and whether it is a development key."""
    raw = settings.LEDGER_SIGNING_KEY
    if raw:
        problem = signing_key_problem(raw)
        if problem:
            raise ImproperlyConfigured(f"LEDGER_SIGNING_KEY {problem}")
        return Ed25519PrivateKey.from_private_bytes(base64.b64decode(raw)), False
    if not settings.DEBUG:
        raise ImproperlyConfigured(
            "LEDGER_SIGNING_KEY is not set (system check casino.E002); seals are never "
            "signed with a development key while DEBUG is off"
        )
    seed = hashlib.sha256(
        b"pitboss development ledger signing key\x00" + settings.SECRET_KEY.encode()
    )
    return Ed25519PrivateKey.from_private_bytes(seed.digest()), True


def public_key_text(key: Ed25519PrivateKey) -> str:
    raw = key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
    return base64.b64encode(raw).decode()


def key_fingerprint(public_key: str) -> str:
    """The fingerprint a regulator compares with the published one: SHA-256
    of the raw 32-byte public key, in hex, in groups of four.

    >>> key_fingerprint(base64.b64encode(bytes(32)).decode())[:19]
    '66687aad f862bd77 6'
    """
    digest = hashlib.sha256(base64.b64decode(public_key)).hexdigest()
    return " ".join(digest[i : i + 8] for i in range(0, 64, 8))


def published_key() -> dict[str, Any]:
    """The casino's current seal-signing key as published to regulators."""
    key, development = signing_key()
    public = public_key_text(key)
    return {"algorithm": "Ed25519", "public_key": public,
            "fingerprint": key_fingerprint(public), "development": development}  # fmt: skip


def generate_signing_key() -> str:
    """A fresh LEDGER_SIGNING_KEY value (base64 of 32 random bytes)."""
    from cryptography.hazmat.primitives.serialization import NoEncryption, PrivateFormat

    key = Ed25519PrivateKey.generate()
    raw = key.private_bytes(Encoding.Raw, PrivateFormat.Raw, NoEncryption())
    return base64.b64encode(raw).decode()


# --- the Merkle root ----------------------------------------------------------------


def leaf_hash(stream_id: str, version: int, head_hash: str) -> bytes:
    document = {"hash": head_hash, "stream_id": stream_id, "version": version}
    return hashlib.sha256(b"\x00" + canonical_json(document)).digest()


class MerkleRoot:
    """RFC 6962 Merkle Tree Hash computed as leaves arrive, in O(log n) memory.

    The stack holds the roots of complete subtrees, largest first; equal
    sizes merge at once, and the remainder folds right to left at the end,
    which is exactly the split at the largest power of two below n.
    """

    def __init__(self) -> None:
        self._stack: list[tuple[int, bytes]] = []
        self.count = 0

    def add(self, leaf: bytes) -> None:
        self.count += 1
        size, digest = 1, leaf
        while self._stack and self._stack[-1][0] == size:
            _, left = self._stack.pop()
            digest = hashlib.sha256(b"\x01" + left + digest).digest()
            size *= 2
        self._stack.append((size, digest))

    def hexdigest(self) -> str:
        if not self._stack:
            return EMPTY_ROOT
        digest = self._stack[-1][1]
        for _, left in reversed(self._stack[:-1]):
            digest = hashlib.sha256(b"\x01" + left + digest).digest()
        return digest.hex()


# --- walking a day ------------------------------------------------------------------


@dataclass
class DayWalk:
    """What one pass over a day's events found."""

    events: int = 0
    streams: int = 0
    first_position: int | None = None
    last_position: int | None = None
    merkle_root: str = EMPTY_ROOT
    problems: list[str] = field(default_factory=list)
    #: Stream id -> (its last version in the seal, that event's hash), of the streams
    #: that amend an earlier day (``amendments``): the root is made as heads arrive.
    heads: dict[str, tuple[int, str]] = field(default_factory=dict)
    #: Stream id -> the earlier sealed day it amends (events past that day's cutoff).
    amends: dict[str, datetime.date] = field(default_factory=dict)
    #: The members whose first event in the seal is not their stream's first (the
    #: export's prior heads), and the amending streams (``amendments``): few a day.
    ranges: Ranges = field(default_factory=dict)


def day_window(
    day: datetime.date, calendar: GamingDayCalendar | None = None
) -> tuple[datetime.datetime, ...]:
    calendar = calendar or providers.calendar()
    start, end = calendar.gaming_day_bounds(day)
    return start.astimezone(datetime.UTC), end.astimezone(datetime.UTC)


#: Stream heads recorded in the window: (stream_id, first and last version,
#: first and last position) of its events recorded in [start, end).
_IN_WINDOW = (
    "SELECT stream_id, min(version), max(version), min(position), max(position) "
    "FROM ledger_event WHERE recorded_at >= %s AND recorded_at < %s{extra} GROUP BY stream_id"
)
_BATCH = 500
#: What ``window.membership`` says of a day sealed by the day's streams.
MEMBERSHIP = (
    "every event of the streams that belong to the gaming day up to cutoff_position, "
    "whenever recorded; and every event recorded in [start, end) of a stream that belongs "
    "to no gaming day, or to an earlier day after that day's sealed cutoff_position "
    "(or to an earlier day never sealed)"
)
WINDOW_MEMBERSHIP = "recorded_at in [start, end)"

#: stream_id -> (first version, last version, first position, last position)
Ranges = dict[str, tuple[int, int, int, int]]


def batches(items: list[Any]) -> Iterator[list[Any]]:
    """``items`` in batches small enough for an ``IN`` list of SQLite's parameters."""
    for at in range(0, len(items), _BATCH):
        yield items[at : at + _BATCH]


def placeholders(items: list[Any]) -> str:
    return ", ".join(["%s"] * len(items))


def _window_rows(start: datetime.datetime, end: datetime.datetime, extra: str = "",
                 params: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:  # fmt: skip
    # A page at a time: a busy day's 200,000 rows held whole were the close's peak
    # memory (a server-side cursor would plan without parallel workers); ``apart``, as
    # each chunk's days are asked while the rows come.
    return each_row(_IN_WINDOW.format(extra=extra), [start, end, *params], PAGE, apart=True)


def sealed_cutoffs(before: datetime.date) -> dict[datetime.date, int]:
    """The cutoff position of every day sealed before ``before``."""
    cutoffs = {}
    for day, body in DaySeal.objects.filter(gaming_day__lt=before).values_list("gaming_day",
                                                                               "body"):  # fmt: skip
        cutoffs[day] = loads_json(body).get("cutoff_position") or 0
    return cutoffs


class Members:
    """Where the membership is put as it is found: a dict (``Ranges``) here; a
    table in ``operations.day_read`` (``MemberTable``), so that a busy day's
    200,000 streams are never held by one process."""

    def __init__(self) -> None:
        self.ranges: Ranges = {}

    def add(self, stream_id: str, found: tuple[int, int, int, int]) -> None:
        self.ranges[stream_id] = found

    def known(self, stream_ids: list[str]) -> set[str]:
        """Those of ``stream_ids`` added already."""
        return {s for s in stream_ids if s in self.ranges}

    def done(self) -> None:
        """Everything added (a table's last rows written)."""


def day_members(day: datetime.date, start: datetime.datetime, end: datetime.datetime,
                cutoff: int | None) -> Ranges:  # fmt: skip
    """The events a day's seal covers, as one range of versions per stream.

    With day streams registered (``audit.providers.day_streams``) and a
    cutoff: every event of the day's streams up to the cutoff, whenever
    recorded; and of the events recorded in the window, those of a stream of
    no day, or of an earlier day past that day's sealed cutoff (a correction
    appended after its day was sealed) or never sealed (it never can be
    now). Events of a later day's streams wait for that day's seal. So each
    event falls in exactly one seal. Without either: the events recorded in
    the window."""
    return _members(day, start, end, cutoff)[0]


def _members(day: datetime.date, start: datetime.datetime, end: datetime.datetime,
             cutoff: int | None) -> tuple[Ranges, dict[str, datetime.date]]:  # fmt: skip
    """``day_members`` (by stream_id), and for each stream whose events past an
    earlier sealed day's cutoff are members, that day (what the seal amends)."""
    members = Members()
    amends = gather_members(day, start, end, cutoff, members)
    return dict(sorted(members.ranges.items())), amends


#: Streams classified at a time: the window's rows and the day's own streams come a
#: chunk at a time, so the membership holds a chunk, not the day.
CHUNK = 20_000


def _chunks(rows: Iterable[Any]) -> Iterator[list[Any]]:
    chunk: list[Any] = []
    for row in rows:
        chunk.append(row)
        if len(chunk) == CHUNK:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def gather_members(day: datetime.date, start: datetime.datetime, end: datetime.datetime,
                   cutoff: int | None, members: Members) -> dict[str, datetime.date]:  # fmt: skip
    """``day_members`` put into ``members`` a chunk of streams at a time; the
    streams whose events past an earlier sealed day's cutoff are members,
    with that day (what the seal amends: few)."""
    streams = providers.day_streams()
    if streams is None or cutoff is None:
        for row in _window_rows(start, end):
            members.add(row[0], row[1:])
        members.done()
        return {}
    cutoffs = sealed_cutoffs(day)
    tail = _own_tail(start, end, cutoff)
    after_cutoff: dict[int, list[str]] = {}
    amends: dict[str, datetime.date] = {}
    for chunk in _chunks(_window_rows(start, end)):
        days = streams.days_of([row[0] for row in chunk])  # the provider batches its queries
        probed: list[str] = []  # own streams whose range the window does not give
        for stream_id, *found in chunk:
            bound = days.get(stream_id)
            if bound is None or (bound < day and bound not in cutoffs):
                members.add(stream_id, tuple(found))
            elif bound < day:
                after_cutoff.setdefault(cutoffs[bound], []).append(stream_id)
                amends[stream_id] = bound
            elif bound == day:
                own = _own_range(stream_id, found, tail, cutoff)
                if own is None:
                    probed.append(stream_id)
                else:
                    members.add(stream_id, own)
        _add_probed(members, probed, cutoff)
    for earlier_cutoff, stream_ids in after_cutoff.items():
        for batch in batches(stream_ids):
            listed = f" AND position > %s AND stream_id IN ({placeholders(batch)})"
            for row in _window_rows(start, end, listed, (earlier_cutoff, *batch)):
                members.add(row[0], row[1:])
    # The day's own streams with no event in the window (recorded before it, or after):
    # those in it are members already, each chunk's probed as it went.
    for chunk in _chunks(streams.of_day(day)):
        known = members.known(chunk)
        _add_probed(members, [s for s in chunk if s not in known], cutoff)
    members.done()
    # A stream recorded in the window only before the earlier day's cutoff amends nothing.
    found_amends = members.known(sorted(amends))
    return {s: d for s, d in amends.items() if s in found_amends}


def _add_probed(members: Members, stream_ids: list[str], cutoff: int) -> None:
    for stream_id, found in _ranges_upto(sorted(stream_ids), cutoff).items():
        members.add(stream_id, found)


#: Each stream's first and last event up to the cutoff, found by two probes of the
#: (stream, version) index in the stream's own partition (``ledger_stream``), not by
#: reading every event of the stream: a 200-table day has 200,000 streams.
_RANGES_UPTO = (
    "SELECT s.stream_id, f.version, l.version, f.position, l.position FROM ledger_stream s "
    "JOIN LATERAL (SELECT version, position FROM ledger_event e WHERE e.stream_id = "
    "s.stream_id AND e.day_key = s.day_key AND e.position <= %(cutoff)s "
    "ORDER BY e.version LIMIT 1) f ON true "
    "JOIN LATERAL (SELECT version, position FROM ledger_event e WHERE e.stream_id = "
    "s.stream_id AND e.day_key = s.day_key AND e.position <= %(cutoff)s "
    "ORDER BY e.version DESC LIMIT 1) l ON true "
    "WHERE s.stream_id = ANY(%(streams)s)"
)
_RANGES_BATCH = 20_000


def _ranges_upto(stream_ids: list[str], cutoff: int) -> Ranges:
    """(first version, last version, first position, last position) of each
    stream's events up to ``cutoff`` (a stream's positions rise with its versions)."""
    found: Ranges = {}
    if connection.vendor == "postgresql":
        for at in range(0, len(stream_ids), _RANGES_BATCH):
            with connection.cursor() as cursor:
                cursor.execute(_RANGES_UPTO, {"cutoff": cutoff,
                                              "streams": stream_ids[at:at + _RANGES_BATCH]})
                found.update({row[0]: tuple(row[1:]) for row in cursor.fetchall()})
        return found
    for batch in batches(stream_ids):
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT stream_id, min(version), max(version), min(position), max(position) "
                f"FROM ledger_event WHERE position <= %s AND stream_id IN ({placeholders(batch)}) "
                "GROUP BY stream_id",
                [cutoff, *batch],
            )
            found.update({row[0]: tuple(row[1:]) for row in cursor.fetchall()})
    return found


def _own_tail(start: datetime.datetime, end: datetime.datetime, cutoff: int) -> Ranges | None:
    """The ranges of the streams recorded from the window's end up to the cutoff,
    for ``_own_range``; None when the day's own streams are all probed instead:
    off PostgreSQL, and when that tail is long (a day closed long after its end)."""
    if connection.vendor != "postgresql":
        return None
    with connection.cursor() as cursor:
        cursor.execute("SELECT min(position) FROM ledger_event WHERE recorded_at >= %s", [start])
        window_from = cursor.fetchone()[0]
        cursor.execute("SELECT min(position) FROM ledger_event WHERE recorded_at >= %s", [end])
        tail_from = cursor.fetchone()[0]
        if window_from is None or window_from == tail_from:  # nothing in the window
            return None
        if tail_from is None or tail_from > cutoff:
            return {}
        if cutoff - tail_from > (tail_from - window_from) // 10:
            return None
    return {row[0]: row[1:] for row in each_row(
        "SELECT stream_id, min(version), max(version), min(position), max(position) "
        "FROM ledger_event WHERE position >= %s AND position <= %s GROUP BY stream_id",
        [tail_from, cutoff], PAGE)}  # fmt: skip


def _own_range(stream_id: str, inside: list[int], tail: Ranges | None,
               cutoff: int) -> tuple[int, int, int, int] | None:  # fmt: skip
    """An own stream's range up to the cutoff from what is known already (None
    when it must be probed): a stream that began in the window has no event
    before it, and its events after the window are in ``tail`` (every later
    event has a later position)."""
    if tail is None or inside[0] != 1 or inside[3] > cutoff:
        return None
    after = tail.get(stream_id)
    if after is None:
        return (inside[0], inside[1], inside[2], inside[3])
    return (inside[0], after[1], inside[2], after[3])


def member_rows(members: Ranges, *, some: bool = False,
                within: tuple[int, int] | None = None) -> Iterator[tuple[Any, ...]]:  # fmt: skip
    """The members' events in global position order, streamed: a scan of the
    positions they span (or only those ``within``, first to last: a part of a
    day read in parts), keeping those inside their stream's range. ``some``
    says the members are a few of the streams in that span: PostgreSQL then
    sends only theirs.

    The two timestamps come as stored (``stamp`` gives the chain's text): on
    PostgreSQL in binary, which the server sends as it holds them. Formatting
    them there (``to_char``) was a third of the server's time on a day's
    read, and an append's events share their timestamps, so a reader formats
    each once (bench/README.md)."""
    if not members:
        return
    if within is None:
        within = (min(r[2] for r in members.values()), max(r[3] for r in members.values()))
    listed, params = "", list(within)
    if some and connection.vendor == "postgresql":
        listed, params = " AND stream_id = ANY(%s)", [*within, list(members)]
    sql = (
        "SELECT position, stream_id, version, event_type, schema_version, {payload}, "
        "{metadata}, {occurred_at}, {recorded_at}, prev_hash, hash FROM ledger_event "
        "WHERE position >= %s AND position <= %s{listed} ORDER BY position"
    ).format(payload=json_text("payload"), metadata=json_text("metadata"),
             occurred_at="occurred_at", recorded_at="recorded_at", listed=listed)  # fmt: skip
    for row in stream_rows(sql, params, PAGE, own_connection=True, binary=True):
        found = members.get(row[1])
        if found is not None and found[0] <= row[2] <= found[1]:
            yield row


def before_members(members: Ranges, columns: str = "stream_id, hash") -> list[tuple[Any, ...]]:
    """For each stream whose first member is not its first event, the event
    just before (by stream_id in code-point order)."""
    wanted = [(s, r[0] - 1) for s, r in members.items() if r[0] > 1]
    rows: list[tuple[Any, ...]] = []
    for batch in batches(wanted):
        condition = " OR ".join(["(stream_id = %s AND version = %s)"] * len(batch))
        with connection.cursor() as cursor:
            cursor.execute(f"SELECT {columns} FROM ledger_event WHERE {condition}",
                           [value for pair in batch for value in pair])  # fmt: skip
            rows.extend(cursor.fetchall())
    return sorted(rows, key=lambda row: row[1 if columns.startswith("position") else 0])


#: A stream's head in a part of the day read in parts when its events began in an
#: earlier part: its first event's link is checked when the parts are put together.
CARRIED = (-1, "")


def _problem(stream_id: str, version: int, position: int, problem: str) -> str:
    return f"stream {stream_id} version {version} (position {position}): {problem}"


def _link_problem(before: tuple[int, str] | None, version: int, prev_hash: str) -> str:
    if before is None or version != before[0] + 1:
        return f"version {version - 1} is missing: an event was removed"
    if prev_hash != before[1]:
        return "prev_hash does not match the previous event's hash"
    return ""


class ChainCheck:
    """Every hash and link of some of a day's members, checked as their events
    arrive in position order (``member_rows``), and each stream's head kept:
    the seal's walk, fed by ``walk_day`` or by a caller reading the day for
    more than the seal (the close's one read of the day). The payload and
    metadata come as canonical JSON text (``canonical_payload``).

    A part of a day read in parts by position range checks its own events;
    for a ``carried`` stream, begun in an earlier part, it keeps its first
    event's version and link, which ``finish_walk`` checks against the head
    the parts before it left."""

    def __init__(self, members: Ranges | None = None, carried: Iterable[str] = ()) -> None:
        self.heads: dict[str, tuple[int, str]] = {}
        #: stream -> (version, prev_hash, position) of its first event here, when carried.
        self.carried: dict[str, tuple[int, str, int]] = {}
        if members is not None:
            carried = set(carried)
            own = {s: found for s, found in members.items() if s not in carried}
            self.heads = {stream_id: (0, GENESIS_HASH)
                          for stream_id, found in own.items() if found[0] == 1}  # fmt: skip
            self.heads.update({stream_id: (version, h) for stream_id, version, h
                               in before_members(own, "stream_id, version, hash")})  # fmt: skip
            self.heads.update(dict.fromkeys(carried, CARRIED))
        self.events = 0
        self.first_position: int | None = None
        self.last_position: int | None = None
        #: (position, stream, what is wrong), in position order; one a stream.
        self.problems: list[tuple[int, str, str]] = []
        self.seen: set[str] = set()
        self._broken: set[str] = set()

    def add(self, position: int, stream_id: str, version: int, event_type: str,
            schema_version: int, payload_json: str, metadata_json: str, occurred_at: str,
            recorded_at: str, prev_hash: str, stored_hash: str) -> None:  # fmt: skip
        before = self.heads.get(stream_id)
        self.events += 1
        if self.first_position is None:
            self.first_position = position
        self.last_position = position
        self.heads[stream_id] = (version, stored_hash)
        self.seen.add(stream_id)
        if stream_id in self._broken:
            return
        problem = ""
        if before is CARRIED:  # its link is the parts' to check
            self.carried[stream_id] = (version, prev_hash, position)
        elif not (before and version == before[0] + 1 and prev_hash == before[1]):
            problem = _link_problem(before, version, prev_hash)
        if not problem and stored_hash != document_hash(
                stream_id, version, event_type, schema_version, payload_json, metadata_json,
                occurred_at, recorded_at, prev_hash):  # fmt: skip
            problem = "content altered: the recomputed hash differs from the stored one"
        if problem:
            self._broken.add(stream_id)
            self.problems.append((position, stream_id,
                                  _problem(stream_id, version, position, problem)))  # fmt: skip

    def to_payload(self) -> dict[str, Any]:
        """What ``finish_walk`` needs of the check beside its heads, as JSON (a part
        read elsewhere; its heads go to a file of their own, ``heads``)."""
        return {"events": self.events, "first_position": self.first_position,
                "last_position": self.last_position, "problems": self.problems}  # fmt: skip

    @classmethod
    def from_payload(cls, payload: dict[str, Any]) -> ChainCheck:
        check = cls()
        check.events = payload["events"]
        check.first_position = payload["first_position"]
        check.last_position = payload["last_position"]
        check.problems = [(position, stream_id, text)
                          for position, stream_id, text in payload["problems"]]  # fmt: skip
        return check

    def head_entries(self) -> Iterator[Head]:
        """Each stream's head here, by stream_id (``finish_walk``)."""
        for stream_id in sorted(self.seen):
            version, digest = self.heads[stream_id]
            yield stream_id, version, digest, self.carried.get(stream_id)


#: A stream's head in one check: (stream_id, version, hash, and for a carried
#: stream its first event here: (version, prev_hash, position); else None).
Head = tuple[str, int, str, "tuple[int, str, int] | None"]


def finish_walk(checks: list[ChainCheck], heads: Iterable[Head], continued: Ranges,
                amends: dict[str, datetime.date]) -> DayWalk:  # fmt: skip
    """The day's walk from the checks of its parts in position order (one, or
    one per part of a day read in parts) and their heads (``heads``: by
    stream_id, and one stream's in the order of the parts): counts, problems in
    position order (each stream's first, as one check of the whole day finds it:
    a carried stream's link before what its part found at the same event), and
    the Merkle root over every stream's last head, made as they come, so that
    no stream's is held but the amending ones'. ``continued`` are the members
    not begun in the seal (``DayWalk.ranges``)."""
    walk = DayWalk(amends=amends, ranges=continued)
    problems: list[tuple[int, int, str, str]] = []
    for check in checks:
        walk.events += check.events
        if check.first_position is not None:
            walk.first_position = min(check.first_position,
                                      walk.first_position or check.first_position)  # fmt: skip
            walk.last_position = max(check.last_position or 0, walk.last_position or 0)
        problems.extend((position, 1, stream_id, text)
                        for position, stream_id, text in check.problems)  # fmt: skip
    root = MerkleRoot()
    last: tuple[str, int, str] | None = None
    for stream_id, version, digest, first in heads:
        if last is not None and last[0] != stream_id:
            _leaf(walk, root, last)
            last = None
        if first is not None:  # its link to the head the parts before it left
            before = (last[1], last[2]) if last is not None else None
            problem = _link_problem(before, first[0], first[1])
            if problem:
                problems.append((first[2], 0, stream_id,
                                 _problem(stream_id, first[0], first[2], problem)))  # fmt: skip
        last = (stream_id, version, digest)
    if last is not None:
        _leaf(walk, root, last)
    broken: set[str] = set()
    for _, _, stream_id, text in sorted(problems):
        if stream_id not in broken:
            broken.add(stream_id)
            walk.problems.append(text)
    walk.streams = root.count
    walk.merkle_root = root.hexdigest()
    return walk


def _leaf(walk: DayWalk, root: MerkleRoot, head: tuple[str, int, str]) -> None:
    stream_id, version, digest = head
    root.add(leaf_hash(stream_id, version, digest))
    if stream_id in walk.amends:
        walk.heads[stream_id] = (version, digest)


def day_membership(day: datetime.date, cutoff: int | None,
                   calendar: GamingDayCalendar | None = None,
                   ) -> tuple[Ranges, dict[str, datetime.date]]:  # fmt: skip
    """``day_members`` of ``day`` and the earlier sealed days it amends (by stream)."""
    start, end = day_window(day, calendar)
    return _members(day, start, end, cutoff)


def walk_day(day: datetime.date, calendar: GamingDayCalendar | None = None,
             cutoff: int | None = None) -> DayWalk:  # fmt: skip
    """Recompute every hash and link of the day's events (``day_members``)
    and the root of the streams' heads."""
    members, amends = day_membership(day, cutoff, calendar)
    check = ChainCheck(members)
    continued = continued_members(members, amends)
    for row in member_rows(members):
        (position, stream_id, version, event_type, schema_version, payload, metadata,
         occurred_at, recorded_at, prev_hash, stored_hash) = row  # fmt: skip
        check.add(position, stream_id, version, event_type, schema_version,
                  canonical_payload(loads_json(payload)), canonical_payload(loads_json(metadata)),
                  stamp(occurred_at), stamp(recorded_at), prev_hash, stored_hash)  # fmt: skip
    return finish_walk([check], check.head_entries(), continued, amends)


def continued_members(members: Ranges, amends: dict[str, datetime.date]) -> Ranges:
    """``DayWalk.ranges`` of ``members``: those not begun in the seal, and the
    amending ones (a round appended whole after its day's sealed cutoff begins in it)."""
    return {stream_id: found for stream_id, found in members.items()
            if found[0] > 1 or stream_id in amends}  # fmt: skip


def amendments(walk: DayWalk) -> list[dict[str, Any]]:
    """One amendment per earlier sealed day whose streams gained events past
    its cutoff in this seal (a correction): the day, the hash of its seal
    (the amendment's link to it), the streams and events amending it, and the
    Merkle root (as ``merkle_root``) over those streams' heads in this seal.
    The events themselves are this seal's (each event in exactly one seal);
    the amendment names which of them amend which sealed day."""
    by_day: dict[datetime.date, list[str]] = {}
    for stream_id, amended in walk.amends.items():
        if stream_id in walk.heads:
            by_day.setdefault(amended, []).append(stream_id)
    hashes = dict(DaySeal.objects.filter(gaming_day__in=list(by_day))
                  .values_list("gaming_day", "seal_hash"))  # fmt: skip
    found = []
    for amended in sorted(by_day):
        stream_ids = sorted(by_day[amended])
        root = MerkleRoot()
        for stream_id in stream_ids:
            root.add(leaf_hash(stream_id, *walk.heads[stream_id]))
        found.append({
            "gaming_day": amended.isoformat(),
            "amends_seal_hash": hashes[amended],
            "streams": stream_ids,
            "events": sum(walk.ranges[s][1] - walk.ranges[s][0] + 1 for s in stream_ids),
            "merkle_root": root.hexdigest(),
        })  # fmt: skip
    return found


# --- sealing ------------------------------------------------------------------------


def seal_hash(body: dict[str, Any]) -> str:
    return hashlib.sha256(canonical_json(body)).hexdigest()


def seal_day(
    day: datetime.date, *, now: datetime.datetime | None = None, cutoff: int | None = None,
    walk: DayWalk | None = None, csvs: Path | None = None,
) -> DaySeal:
    """Seal ``day`` (or return its existing seal: sealing is idempotent).

    ``cutoff`` is the ledger position the day's streams are sealed up to
    (``day_members``): the close's; by default the ledger's head now.
    ``walk`` is the day's walk at that cutoff when the caller has just made
    it (the close reads the day once for its replay, the seal and the
    export); otherwise the day is walked here.
    The read models are brought up to date first: their CSVs are signed (and
    written to ``csvs``, when given, for the export to move in)."""
    existing = DaySeal.objects.filter(gaming_day=day).first()
    if existing is not None:
        return existing
    casino = providers.calendar()
    now = now or timezone.now()
    start, end = day_window(day, casino)
    if now < end:
        raise SealError(
            f"gaming day {day} is still open until {format_timestamp(end)}; "
            "a day is sealed once it has ended"
        )
    later = DaySeal.objects.filter(gaming_day__gt=day).order_by("gaming_day").first()
    if later is not None:
        raise SealError(
            f"gaming day {later.gaming_day} is already sealed; seals form one chain "
            f"in day order, so {day} can no longer be sealed"
        )
    if providers.day_streams() is None:
        cutoff = None
    elif cutoff is None:
        from audit.ledger import head_position

        cutoff = head_position()
    if walk is None:
        walk = walk_day(day, casino, cutoff)
    if walk.problems:
        raise SealError(f"gaming day {day} has broken hash chains: " + "; ".join(walk.problems))
    from audit.exports import day_contents  # the export's files are written there

    contents = day_contents(day, csvs)
    contents["side_tables"] = side_tables(start, end)
    previous = DaySeal.objects.filter(gaming_day__lt=day).order_by("-gaming_day").first()
    key, development = signing_key()
    signing: dict[str, Any] = {
        "algorithm": "Ed25519",
        "public_key": public_key_text(key),
        "development": development,
    }
    if development:
        signing["note"] = DEVELOPMENT_KEY_NOTE
    body = {
        "format": SEAL_FORMAT,
        "casino": casino.name,
        "gaming_day": day.isoformat(),
        "window": {
            "start": format_timestamp(start),
            "end": format_timestamp(end),
            "time_zone": casino.time_zone,
            "gaming_day_starts_at": casino.gaming_day_starts_at.isoformat(),
            "membership": WINDOW_MEMBERSHIP if cutoff is None else MEMBERSHIP,
        },
        "events": walk.events,
        "streams": walk.streams,
        "first_position": walk.first_position,
        "last_position": walk.last_position,
        "merkle_construction": MERKLE_CONSTRUCTION,
        "merkle_root": walk.merkle_root,
        "contents": contents,
        "previous_gaming_day": previous.gaming_day.isoformat() if previous else None,
        "previous_seal_hash": previous.seal_hash if previous else GENESIS_HASH,
        "signing_key": signing,
        "sealed_at": format_timestamp(now),
    }
    if cutoff is not None:
        body["cutoff_position"] = cutoff
    amended = amendments(walk)
    if amended:  # absent when none: seals and exports without one are unchanged
        body["amendments"] = amended
    signature = base64.b64encode(key.sign(canonical_json(body))).decode()
    try:
        with transaction.atomic():
            seal = DaySeal.objects.create(
                gaming_day=day,
                body=body,
                seal_hash=seal_hash(body),
                merkle_root=walk.merkle_root,
                previous_seal_hash=body["previous_seal_hash"],
                signature=signature,
                public_key=signing["public_key"],
                development_key=development,
                sealed_at=now,
                event_count=walk.events,
                stream_count=walk.streams,
            )
    except IntegrityError:
        # Another sealer won: the same day (return it) or a neighbour (retry).
        existing = DaySeal.objects.filter(gaming_day=day).first()
        if existing is not None:
            return existing
        raise SealError(f"another seal was written while sealing {day}; seal it again") from None
    transaction.on_commit(lambda: archive_seal(seal))
    return seal


# --- what lies beside the ledger ----------------------------------------------------


_REJECTED_FIELDS = ("id", "received_at", "stream_id", "status_code", "reason", "message",
                    "field", "section", "actor", "device", "source", "idempotency_key",
                    "raw_body", "body_prefix", "body_length", "body_sha256")  # fmt: skip


def _rejected_row(row: tuple[Any, ...]) -> bytes:
    document = dict(zip(_REJECTED_FIELDS, row, strict=True))
    document["received_at"] = format_timestamp(document["received_at"])
    # The bounded body's fields (migration 0011) count where they are set, so a
    # row from before them digests as it did when its day was sealed.
    for name in ("body_prefix", "body_length", "body_sha256"):
        if document[name] is None:
            del document[name]
    if "body_prefix" in document:
        document["body_prefix"] = base64.b64encode(bytes(document["body_prefix"])).decode()
    return canonical_json(document)


def rejected_of_day(start: datetime.datetime, end: datetime.datetime) -> dict[str, Any]:
    """The refused submissions received in the window: their ids and the
    SHA-256 over each row's canonical JSON, in id order."""
    from audit.models import RejectedSubmission

    digest, ids = hashlib.sha256(), []
    day = RejectedSubmission.objects.filter(received_at__gte=start, received_at__lt=end)
    rows = day.order_by("id").values_list(*_REJECTED_FIELDS)
    for row in rows.iterator(chunk_size=PAGE):
        ids.append(row[0])
        digest.update(hashlib.sha256(_rejected_row(row)).digest())
    return {"ids": ids, "sha256": digest.hexdigest()}


def append_permissions() -> list[str]:
    """Who may append what, as ``role: event type`` lines in order."""
    from audit.models import AppendPermission

    return sorted(f"{role}: {event_type}" for role, event_type
                  in AppendPermission.objects.values_list("role__name", "event_type"))  # fmt: skip


def side_tables(start: datetime.datetime, end: datetime.datetime) -> dict[str, Any]:
    """What a seal signs of the tables beside the ledger: the day's refused
    submissions (so none can be deleted unseen) and the append permissions
    in force when the day was sealed."""
    return {"rejected": rejected_of_day(start, end), "append_permissions": append_permissions()}


def archive_root() -> Any:
    from pathlib import Path

    return Path(settings.EXPORT_ROOT) / "seals"


def archive_seal(seal: DaySeal) -> None:
    """Write the seal, once, to the append-only archive outside the database
    (``EXPORT_ROOT/seals/<day>.json``, read-only): a seal row deleted or
    rewritten in the database is then found by ``verify_ledger``. An existing
    file is never overwritten."""
    import json
    import os

    root = archive_root()
    root.mkdir(parents=True, exist_ok=True)
    path = root / f"{seal.gaming_day.isoformat()}.json"
    document = {"body": loads_json(seal.body), "seal_hash": seal.seal_hash,
                "signature": seal.signature}  # fmt: skip
    try:
        with path.open("x", encoding="utf-8") as handle:
            handle.write(json.dumps(document, indent=2, sort_keys=True, ensure_ascii=False) + "\n")
    except FileExistsError:
        return
    os.chmod(path, 0o444)


# --- verifying ----------------------------------------------------------------------


@dataclass
class SealReport:
    gaming_day: datetime.date
    problems: list[str] = field(default_factory=list)
    events: int = 0
    streams: int = 0

    @property
    def ok(self) -> bool:
        return not self.problems


def verify_signature(body: dict[str, Any], signature: str, public_key: str) -> bool:
    try:
        key = Ed25519PublicKey.from_public_bytes(base64.b64decode(public_key))
        key.verify(base64.b64decode(signature), canonical_json(body))
    except (InvalidSignature, ValueError, binascii.Error):
        return False
    return True


def verify_seal(day: datetime.date) -> SealReport:
    """Recompute the day and compare it with its seal; every difference named."""
    report = SealReport(day)
    seal = DaySeal.objects.filter(gaming_day=day).first()
    if seal is None:
        report.problems.append(f"gaming day {day} is not sealed")
        return report
    body = loads_json(seal.body)
    if seal_hash(body) != seal.seal_hash:
        report.problems.append("the stored seal body does not hash to its seal_hash")
    if not verify_signature(body, seal.signature, body["signing_key"]["public_key"]):
        report.problems.append("the seal's Ed25519 signature does not verify")
    if body["signing_key"]["public_key"] != seal.public_key:
        report.problems.append("the seal's public key differs from the signed one")
    previous = DaySeal.objects.filter(gaming_day__lt=day).order_by("-gaming_day").first()
    expected_previous = previous.seal_hash if previous else GENESIS_HASH
    if body["previous_seal_hash"] != expected_previous:
        report.problems.append("the previous seal hash does not match the previous sealed day")
    walk = walk_day(day, cutoff=body.get("cutoff_position"))
    report.events, report.streams = walk.events, walk.streams
    report.problems.extend(walk.problems)
    if walk.merkle_root != body["merkle_root"]:
        report.problems.append(
            f"Merkle root of the day's stream heads is {walk.merkle_root[:16]}…, "
            f"the seal says {body['merkle_root'][:16]}…"
        )
    if amendments(walk) != body.get("amendments", []):
        report.problems.append(
            "the day's amendments of earlier sealed days (streams, events, Merkle root, "
            "or the amended day's seal hash) differ from those its seal signed"
        )
    if (walk.events, walk.streams) != (body["events"], body["streams"]):
        report.problems.append(
            f"the day now holds {walk.events} events in {walk.streams} streams; "
            f"the seal says {body['events']} in {body['streams']}"
        )
    return report
