"""Recompute every hash chain, and check it against every record of the
ledger kept elsewhere; name each tampering by stream, version and position.

Walks the ledger in (stream_id, version) order with keyset pagination, so
memory stays flat however large the ledger is. Reports the first broken
event of each stream: a recomputed hash that differs from the stored one
(content altered), a ``prev_hash`` that does not match the previous event's
hash, a version that skips (an event removed), or a global position that
does not follow the previous version's (positions swapped). Then:

* **the stream heads**: the stream index (``ledger_stream_index``, a
  projection: each stream's last version, its hash and its first and last
  positions) against the ledger, for every stream it holds: a head deleted
  (and ``ledger_head`` moved back to hide it), a stream deleted and the
  positions renumbered, a chain re-hashed after a payload was rewritten, two
  positions swapped; and ``ledger_head`` against the positions every
  projection has read;
* **global positions**: 1..head without gap or duplicate, each gap named by
  the stream the idempotency records put there;
* **the seals**: each seal's hash, its signature by a trusted key
  (``LEDGER_SIGNING_KEY``'s and ``LEDGER_TRUSTED_PUBLIC_KEYS``), its link to
  the previous seal, each sealed day's Merkle root recomputed from the
  ledger, and the seal archive outside the database
  (``EXPORT_ROOT/seals``) against the seal rows;
* **beside the ledger**: each sealed day's refused submissions against the
  ids and digest its seal signed, every append permission against its
  history (one added by SQL has none), and what the apps register
  (``audit.providers.register_side_check``: the configuration history the
  admin shows against the configuration events).
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from django.db import connection

from audit.hashing import GENESIS_HASH, event_hash


@dataclass(frozen=True)
class Break:
    stream_id: str
    version: int
    position: int
    problem: str

    def __str__(self) -> str:
        return (
            f"stream {self.stream_id}: first broken event is version {self.version} "
            f"(position {self.position}): {self.problem}"
        )


@dataclass
class Report:
    events: int = 0
    streams: int = 0
    breaks: list[Break] = field(default_factory=list)
    position_problems: list[str] = field(default_factory=list)
    #: Every other inconsistency, by what it concerns: "stream heads",
    #: "seals", "rejected submissions", "append permissions".
    problems: dict[str, list[str]] = field(default_factory=dict)
    seals: int = 0

    @property
    def ok(self) -> bool:
        return not self.breaks and not self.position_problems and not self.problems

    def add(self, what: str, problem: str) -> None:
        self.problems.setdefault(what, []).append(problem)


def _time(value: Any) -> datetime:
    if isinstance(value, datetime):
        return value if value.tzinfo else value.replace(tzinfo=UTC)
    return datetime.fromisoformat(value).replace(tzinfo=UTC)


def _rows(page: int) -> Iterator[tuple[Any, ...]]:
    sql = (
        "SELECT stream_id, version, position, event_type, schema_version, payload, metadata, "
        "occurred_at, recorded_at, prev_hash, hash FROM ledger_event "
    )
    after: tuple[str, int] | None = None
    with connection.cursor() as cursor:
        while True:
            if after is None:
                cursor.execute(sql + "ORDER BY stream_id, version LIMIT %s", [page])
            else:
                cursor.execute(
                    sql + "WHERE stream_id > %s OR (stream_id = %s AND version > %s) "
                    "ORDER BY stream_id, version LIMIT %s",
                    [after[0], after[0], after[1], page],
                )
            rows = cursor.fetchall()
            yield from rows
            if len(rows) < page:
                return
            after = (rows[-1][0], rows[-1][1])


def verify(*, progress: Callable[[int], None] | None = None, page: int = 5000) -> Report:
    report = Report()
    stream_id: str | None = None
    expected_version = 0
    prev_hash = GENESIS_HASH
    broken = False
    loads = json.loads
    for count, row in enumerate(_rows(page), start=1):
        (
            row_stream,
            version,
            position,
            event_type,
            schema_version,
            payload,
            metadata,
            occurred_at,
            recorded_at,
            stored_prev,
            stored_hash,
        ) = row
        if row_stream != stream_id:
            stream_id, expected_version, prev_hash, broken = row_stream, 0, GENESIS_HASH, False
            previous_position = 0
            report.streams += 1
        report.events += 1
        if progress is not None and count % 1000 == 0:
            progress(1000)
        expected_version += 1
        if broken:
            continue
        problem = ""
        if version != expected_version:
            problem = (
                f"version {expected_version} is missing (found {version}): an event was removed"
            )
        elif position <= previous_position:
            problem = (
                f"global position {position} does not follow version {version - 1}'s "
                f"{previous_position}: positions were swapped or renumbered"
            )
        elif stored_prev != prev_hash:
            problem = (
                f"prev_hash {stored_prev[:12]}… does not match the previous hash {prev_hash[:12]}…"
            )
        else:
            recomputed = event_hash(
                stream_id=row_stream,
                version=version,
                event_type=event_type,
                schema_version=schema_version,
                payload=loads(payload) if isinstance(payload, str) else payload,
                metadata=loads(metadata) if isinstance(metadata, str) else metadata,
                occurred_at=_time(occurred_at),
                recorded_at=_time(recorded_at),
                prev_hash=stored_prev,
            )
            if recomputed != stored_hash:
                problem = (
                    f"content altered: stored hash {stored_hash[:12]}…, "
                    f"recomputed {recomputed[:12]}…"
                )
        if problem:
            report.breaks.append(Break(row_stream, version, position, problem))
            broken = True
        prev_hash = stored_hash
        expected_version = version
        previous_position = position
    if progress is not None:
        progress(report.events % 1000)
    report.position_problems = _position_problems()
    _check_heads(report)
    _check_seals(report)
    _check_permissions(report)
    _check_idempotency(report)
    _check_retention(report)
    _check_beside(report)
    return report


def _check_idempotency(report: Report) -> None:
    """Every batch stored with an idempotency key (its first event carries
    it) still has its idempotency record: one deleted is named (a retry is
    still refused a second copy by the events' unique key)."""
    from audit.storage import BATCH_KEY

    key = BATCH_KEY[connection.vendor]
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT e.stream_id, e.version, e.position, {key} FROM ledger_event e "
            f"WHERE {key} IS NOT NULL AND NOT EXISTS (SELECT 1 FROM ledger_idempotency i "
            f"WHERE i.key = {key}) ORDER BY e.position"
        )
        for stream_id, version, position, lost in cursor.fetchall():
            report.add("idempotency records", f"stream {stream_id} version {version} (position "
                       f"{position}) was stored under Idempotency-Key {lost!r}, whose record "
                       "is gone: it was deleted")  # fmt: skip


def _check_retention(report: Report) -> None:
    """Each retention's archive is where its ledger event says, as signed."""
    from audit.retention import check_archives

    for problem in check_archives():
        report.add("retention archives", problem)


def _check_beside(report: Report) -> None:
    """What the apps keep beside the ledger, each against the ledger (the
    configuration history the admin shows, ``audit.providers.side_checks``)."""
    from audit import providers

    for what, check in providers.side_checks().items():
        for problem in check():
            report.add(what, problem)


def _check_heads(report: Report) -> None:
    """The stream index against the ledger, and the ledger head against the
    positions the projections have read."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT s.stream_id, s.version, s.head_hash, s.first_position, s.last_position, "
            "e.version, e.hash, e.position, f.position, (SELECT max(version) FROM ledger_event m "
            "WHERE m.stream_id = s.stream_id) FROM ledger_stream_index s "
            "LEFT JOIN ledger_event e ON e.stream_id = s.stream_id AND e.version = s.version "
            "LEFT JOIN ledger_event f ON f.stream_id = s.stream_id AND f.version = 1 "
            "WHERE e.position IS NULL OR e.hash <> s.head_hash OR e.position <> s.last_position "
            "OR f.position IS NULL OR f.position <> s.first_position ORDER BY s.stream_id"
        )
        rows = cursor.fetchall()
        cursor.execute("SELECT position FROM ledger_head WHERE id = 1")
        head = cursor.fetchone()[0]
        cursor.execute("SELECT name, position FROM ledger_projection_checkpoint "
                       "WHERE position > %s ORDER BY name", [head])  # fmt: skip
        ahead = cursor.fetchall()
    for (stream, version, head_hash, first, last, found, found_hash, position, found_first,
         highest) in rows:  # fmt: skip
        where = f"stream {stream} version {version} (position {last})"
        if found is None:
            holds = f"holds it only to version {highest}" if highest else "holds none of it"
            report.add("stream heads", f"{where}: the stream index recorded this head "
                       f"(hash {head_hash[:12]}…); the ledger {holds}: events were removed")
        elif found_hash != head_hash:
            report.add("stream heads", f"{where}: hash {found_hash[:12]}… in the ledger, "
                       f"{head_hash[:12]}… recorded by the stream index: the chain was re-hashed")
        elif position != last:
            report.add("stream heads", f"{where}: now at position {position}; the stream index "
                       "recorded it at " f"{last}: positions were swapped or renumbered")
        if found is not None and found_first != first:
            report.add("stream heads", f"stream {stream} version 1: at position {found_first}, "
                       f"recorded at {first} by the stream index: positions were swapped or "
                       "renumbered")  # fmt: skip
    for name, position in ahead:
        report.add("stream heads", f"the ledger head is at position {head}, but projection "
                   f"{name} has read up to {position}: events were removed from the end")


def _trusted_keys() -> set[str]:
    from django.conf import settings

    from audit.seals import published_key

    trusted = set(getattr(settings, "LEDGER_TRUSTED_PUBLIC_KEYS", ()) or ())
    # No key configured: every seal's key is then unknown, and said so.
    with contextlib.suppress(Exception):
        trusted.add(published_key()["public_key"])
    return trusted


def _check_seals(report: Report) -> None:
    """Each seal against its body, its key, its predecessor, its day in the
    ledger and its copy in the archive; each sealed day's refused submissions."""
    import json

    from audit.hashing import GENESIS_HASH
    from audit.models import DaySeal
    from audit.retention import retained_runs
    from audit.seals import (
        archive_root,
        key_fingerprint,
        rejected_of_day,
        seal_hash,
        verify_seal,
        verify_signature,
    )
    from audit.storage import loads_json

    trusted = _trusted_keys()
    _, archived_days = retained_runs() if connection.vendor == "postgresql" else ([], set())
    previous = None
    seals = list(DaySeal.objects.order_by("gaming_day"))
    report.seals = len(seals)
    for seal in seals:
        day = seal.gaming_day.isoformat()
        body = loads_json(seal.body)
        name = f"seal of {day}"
        if seal_hash(body) != seal.seal_hash:
            report.add("seals", f"{name}: its body does not hash to its seal_hash")
        if not verify_signature(body, seal.signature, body["signing_key"]["public_key"]):
            report.add("seals", f"{name}: the Ed25519 signature does not verify")
        if body["signing_key"]["public_key"] not in trusted:
            key = body["signing_key"]["public_key"]
            report.add("seals", f"{name}: signed by key {key} (fingerprint "
                       f"{key_fingerprint(key)}), which is not the casino's")  # fmt: skip
        expected = previous.seal_hash if previous else GENESIS_HASH
        if body["previous_seal_hash"] != expected:
            named = body.get("previous_gaming_day") or "none"
            report.add("seals", f"{name}: names the seal of {named} "
                       f"({body['previous_seal_hash'][:12]}…) as its previous; the database's "
                       f"previous seal is {previous.gaming_day if previous else 'none'}: "
                       "a seal was removed or replaced")  # fmt: skip
        previous = seal
        # An archived day's events are in its retention archive (checked by
        # audit.retention.verify_archive), no longer in the ledger.
        walked = [] if seal.gaming_day in archived_days else verify_seal(seal.gaming_day).problems
        for problem in walked:
            if "previous seal hash" not in problem:  # named above
                report.add("seals", f"{name}: {problem}")
        signed = (body.get("contents") or {}).get("side_tables")
        if signed is not None:
            start, end = (datetime.fromisoformat(body["window"][k].replace("Z", "+00:00"))
                          for k in ("start", "end"))  # fmt: skip
            now = rejected_of_day(start, end)
            missing = sorted(set(signed["rejected"]["ids"]) - set(now["ids"]))
            added = sorted(set(now["ids"]) - set(signed["rejected"]["ids"]))
            for ident in missing:
                report.add("rejected submissions", f"refused submission id {ident} of gaming "
                           f"day {day}, signed by its seal, is gone")  # fmt: skip
            for ident in added:
                report.add("rejected submissions", f"refused submission id {ident} of gaming "
                           f"day {day} was added after its seal")  # fmt: skip
            if not missing and not added and now["sha256"] != signed["rejected"]["sha256"]:
                report.add("rejected submissions", f"the refused submissions of gaming day "
                           f"{day} were altered since its seal")  # fmt: skip
    archived = {}
    root = archive_root()
    if root.is_dir():
        for path in sorted(root.glob("*.json")):
            try:
                archived[path.stem] = json.loads(path.read_text())["seal_hash"]
            except (OSError, ValueError, KeyError):
                report.add("seals", f"seal archive {path.name}: unreadable")
    in_database = {seal.gaming_day.isoformat(): seal.seal_hash for seal in seals}
    for day, archived_hash in sorted(archived.items()):
        if day not in in_database:
            report.add("seals", f"seal of {day}: in the seal archive ({archived_hash[:12]}…) "
                       "but not in the database: a seal row was deleted")  # fmt: skip
        elif in_database[day] != archived_hash:
            report.add("seals", f"seal of {day}: {in_database[day][:12]}… in the database, "
                       f"{archived_hash[:12]}… in the seal archive: the seal was replaced")


def _check_permissions(report: Report) -> None:
    """Every append permission has the history the application writes with
    it (the admin, the migrations): one inserted by SQL has none."""
    from audit.models import AppendPermission

    history = AppendPermission.history.model
    recorded = {(h.id, h.role_id, h.event_type) for h in history.objects.filter(
        history_type__in=["+", "~"]).only("id", "role_id", "event_type")}  # fmt: skip
    for permission in AppendPermission.objects.select_related("role").order_by("id"):
        if (permission.id, permission.role_id, permission.event_type) not in recorded:
            report.add("append permissions", f"{permission.role.name} may append "
                       f"{permission.event_type} (id {permission.id}): no history record; "
                       "it was added outside the application")  # fmt: skip


def _position_problems() -> list[str]:
    """Global positions must run 1..head with no gap and no duplicate, but for
    the positions retention archived (``audit.retention``: each run named by
    its ``ledger.retained`` event): those and only those are missing. The
    partitions cannot hold position unique across them, so duplicates are
    counted here."""
    from audit.retention import retained_runs

    runs, _ = retained_runs() if connection.vendor == "postgresql" else ([], set())
    archived = sum(b - a + 1 for a, b in runs)
    with connection.cursor() as cursor:
        cursor.execute("SELECT position FROM ledger_head WHERE id = 1")
        head = cursor.fetchone()[0]
        cursor.execute("SELECT count(*), count(DISTINCT position), coalesce(max(position), 0) "
                       "FROM ledger_event")  # fmt: skip
        count, distinct, highest = cursor.fetchone()
        inside = 0
        for at in range(0, len(runs), 500):
            chunk = runs[at : at + 500]
            cursor.execute(
                "SELECT count(*) FROM ledger_event WHERE "
                + " OR ".join(["position BETWEEN %s AND %s"] * len(chunk)),
                [bound for run in chunk for bound in run],
            )
            inside += cursor.fetchone()[0]
        if count + archived == head and highest <= head and distinct == count and not inside:
            return []
        cursor.execute(
            "SELECT a.position + 1 FROM ledger_event a LEFT JOIN ledger_event b "
            "ON b.position = a.position + 1 WHERE b.position IS NULL AND a.position < %s "
            "ORDER BY 1",
            [head],
        )
        gaps = [row[0] for row in cursor.fetchall()
                if not any(a <= row[0] <= b for a, b in runs)][:10]  # fmt: skip
    problems = [f"the ledger head says {head} events were appended; {count} are stored"
                + (f" and {archived} archived by retention" if archived else "")]  # fmt: skip
    if distinct != count:
        problems.append(f"{count - distinct} global position(s) are held twice")
    if inside:
        problems.append(f"{inside} event(s) stored at positions retention archived")
    if gaps:
        problems.append("missing global positions from: " + ", ".join(map(str, gaps)))
    return problems
