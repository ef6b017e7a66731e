"""Retention: archive the gaming days older than the years kept, verify the
archive, then detach their partitions, recorded in the ledger (PostgreSQL).

``retain(years)`` takes the partitions (``audit.partitions``) whose every day
key is older than the first gaming day kept (today's gaming day, ``years``
years back), and:

1. **refuses** if any stream in them was still written to on or after that
   day (a stream of a kind that should be ``lasting``, or a late correction):
   archiving it would cut a live chain; or if nothing is old enough;
2. **archives** them to the write-once export store,
   ``EXPORT_ROOT/retention/pitboss-retained-<first>_<last>/``, each file
   created once and made read-only: ``events.jsonl`` (every event, in global
   order, one line each as a day export writes them), ``manifest.json`` (the
   days, partitions, counts, the positions held, the Merkle root of the
   archived streams' heads as a seal computes one, the file's SHA-256),
   ``signature.json`` (Ed25519 over the manifest's canonical JSON, by the
   seal-signing key) and ``verify_retained.py``, which rechecks all of it
   with Python alone (it imports the day exports' ``verify_export.py``,
   shipped beside it);
3. **verifies** the archive read back from disk: its digest, the signature,
   every event's hash and every stream's chain from genesis (a stream is
   archived whole: it lives in one partition), and each line against the
   database's row, byte for byte;
4. in one transaction, **records** ``ledger.retained`` on the lasting stream
   ``retention:<first>_<last>`` (the archive's name, digest, signature,
   counts, Merkle root and the positions it took), **detaches** the
   partitions and deletes the archived streams' rows from the stream index
   (a read model); ``drop=True`` then drops the detached tables.

``verify_ledger`` accepts exactly the position gaps the ``ledger.retained``
events name and checks the seals of archived days by their hash, signature
and link only; a regulator verifies the archived days with the archive
(``verify_archive``) and the seals, whose Merkle roots the archive's heads
recompute. The streams' starts (``ledger_stream``) are kept: an archived
stream takes no more events (410).
"""

from __future__ import annotations

import base64
import datetime
import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import connection, transaction

from audit import clock, partitions
from audit.hashing import GENESIS_HASH, canonical_json, event_hash
from audit.ledger import Actor, NewEvent, append
from audit.registry import EventType, StreamKind, object_schema, register_event_type
from audit.registry import register_stream_kind as _register_kind

FORMAT = "pitboss-retained/1"
RETAINED = register_event_type(
    EventType(
        name="ledger.retained",
        version=1,
        description="Gaming days past the retention period were archived, the archive "
        "verified, and their partitions detached from the ledger.",
        schema=object_schema(
            {
                "first_day": {"type": "string", "format": "date"},
                "last_day": {"type": "string", "format": "date"},
                "older_than_years": {"type": "integer", "minimum": 1},
                "partitions": {"type": "array", "items": {"type": "string"}},
                "archive": {"type": "string"},
                "manifest_sha256": {"type": "string"},
                "signature": {"type": "string"},
                "events": {"type": "integer", "minimum": 0},
                "streams": {"type": "integer", "minimum": 0},
                "heads_merkle_root": {"type": "string"},
                "positions": {
                    "type": "array",
                    "items": {"type": "array", "items": {"type": "integer"}},
                    "description": "the [first, last] runs of global positions archived",
                },
                "dropped": {"type": "boolean"},
            }
        ),
    )
)
_register_kind(
    StreamKind(
        name="retention",
        description="The ledger's retention: each archive of past gaming days and the "
        "partitions it detached.",
        accepts=frozenset({RETAINED.name}),
        lasting=True,
    )
)
PAGE = 5000


class RetentionRefused(Exception):
    """Retention cannot run now; the message says why and what to do."""


@dataclass(frozen=True)
class Retained:
    first_day: datetime.date
    last_day: datetime.date
    archive: Path
    partitions: tuple[str, ...]
    events: int
    streams: int


def years_before(day: datetime.date, years: int) -> datetime.date:
    try:
        return day.replace(year=day.year - years)
    except ValueError:  # 29 February
        return day.replace(year=day.year - years, day=28)


def _columns() -> str:
    from audit.exports import _event_columns

    return _event_columns()


def _rows(first: datetime.date, end: datetime.date) -> Any:
    from audit.storage import stream_rows

    return stream_rows(
        f"SELECT {_columns()} FROM ledger_event WHERE day_key >= %s AND day_key < %s "
        "ORDER BY position",
        [first, end],
        PAGE,
    )


def _live_streams(first: datetime.date, end: datetime.date, since: datetime.datetime) -> list[str]:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT stream_id FROM ledger_event WHERE day_key >= %s AND day_key < %s "
            "GROUP BY stream_id HAVING max(recorded_at) >= %s ORDER BY stream_id LIMIT 6",
            [first, end, since],
        )
        return [row[0] for row in cursor.fetchall()]


def _runs(positions: list[int]) -> list[list[int]]:
    runs: list[list[int]] = []
    for position in positions:
        if runs and runs[-1][1] == position - 1:
            runs[-1][1] = position
        else:
            runs.append([position, position])
    return runs


def _write_once(path: Path, data: bytes) -> None:
    with path.open("xb") as handle:
        handle.write(data)
    os.chmod(path, 0o444)


def _write_archive(target: Path, first: datetime.date, last: datetime.date, years: int,
                   chosen: list[partitions.Partition]) -> dict[str, Any]:  # fmt: skip
    from audit.exports import event_line, static_file
    from audit.seals import MerkleRoot, leaf_hash, public_key_text, signing_key

    target.mkdir(parents=True)
    sha, size, positions = hashlib.sha256(), 0, []
    heads: dict[str, tuple[int, str]] = {}
    events_path = target / "events.jsonl"
    with events_path.open("xb") as handle:
        for row in _rows(chosen[0].start, chosen[-1].end):
            line = event_line(row)
            handle.write(line)
            sha.update(line)
            size += len(line)
            positions.append(row[0])
            heads[row[1]] = (row[2], row[10])
    os.chmod(events_path, 0o444)
    tree = MerkleRoot()
    for stream_id in sorted(heads):
        tree.add(leaf_hash(stream_id, *heads[stream_id]))
    manifest = {
        "format": FORMAT,
        "first_day": first.isoformat(),
        "last_day": last.isoformat(),
        "older_than_years": years,
        "partitions": [p.name for p in chosen],
        "events": len(positions),
        "streams": len(heads),
        "heads_merkle_root": tree.hexdigest(),
        "positions": _runs(positions),
        "files": {"events.jsonl": {"sha256": sha.hexdigest(), "bytes": size}},
    }
    key, development = signing_key()
    body = canonical_json(manifest)
    _write_once(target / "manifest.json", body + b"\n")
    _write_once(target / "signature.json", canonical_json({
        "signature": base64.b64encode(key.sign(body)).decode(),
        "signature_algorithm": "Ed25519",
        "signed_bytes": "manifest.json without its final newline (canonical JSON)",
        "public_key": public_key_text(key),
        "development_key": development,
    }) + b"\n")  # fmt: skip
    for name in ("verify_retained.py", "verify_export.py"):  # the first imports the second
        _write_once(target / name, static_file(name))
    return manifest


def verify_archive(target: Path, *, against_database: bool = False) -> list[str]:
    """Every problem of an archive read back from disk: digest, signature,
    hashes, chains from genesis (and, before detaching, each line against the
    database's row). Empty when it verifies."""
    from audit.exports import event_line
    from audit.seals import MerkleRoot, leaf_hash, verify_signature

    problems: list[str] = []
    body = (target / "manifest.json").read_bytes().rstrip(b"\n")
    manifest = json.loads(body)
    signed = json.loads((target / "signature.json").read_bytes())
    if not verify_signature(manifest, signed["signature"], signed["public_key"]):
        problems.append("the manifest's Ed25519 signature does not verify")
    sha = hashlib.sha256()
    heads: dict[str, tuple[int, str]] = {}
    positions = []
    database = None
    if against_database:
        first = datetime.date.fromisoformat(manifest["first_day"])
        end = partitions.period(datetime.date.fromisoformat(manifest["last_day"]))[1]
        database = (event_line(row) for row in _rows(first, end))
    with (target / "events.jsonl").open("rb") as handle:
        for number, line in enumerate(handle, start=1):
            sha.update(line)
            event = json.loads(line)
            stream = event["stream_id"]
            version, prev = heads.get(stream, (0, GENESIS_HASH))
            recomputed = event_hash(
                stream_id=stream, version=event["version"], event_type=event["type"],
                schema_version=event["schema_version"], payload=event["payload"],
                metadata=event["metadata"],
                occurred_at=datetime.datetime.fromisoformat(event["occurred_at"]),
                recorded_at=datetime.datetime.fromisoformat(event["recorded_at"]),
                prev_hash=event["prev_hash"],
            )  # fmt: skip
            if event["version"] != version + 1 or event["prev_hash"] != prev:
                problems.append(f"line {number}: {stream} version {event['version']} does not "
                                f"follow version {version} of its chain")  # fmt: skip
            if recomputed != event["hash"]:
                problems.append(f"line {number}: {stream} version {event['version']}'s hash "
                                "does not match its content")  # fmt: skip
            if database is not None and next(database, None) != line:
                problems.append(f"line {number}: differs from the database's event at "
                                f"position {event['position']}")  # fmt: skip
                database = None
            heads[stream] = (event["version"], event["hash"])
            positions.append(event["position"])
    if database is not None and next(database, None) is not None:
        problems.append("the database holds events the archive does not")
    if sha.hexdigest() != manifest["files"]["events.jsonl"]["sha256"]:
        problems.append("events.jsonl's SHA-256 differs from the manifest's")
    tree = MerkleRoot()
    for stream in sorted(heads):
        tree.add(leaf_hash(stream, *heads[stream]))
    if (len(positions), len(heads), tree.hexdigest(), _runs(sorted(positions))) != (
        manifest["events"], manifest["streams"], manifest["heads_merkle_root"],
        manifest["positions"],
    ):  # fmt: skip
        problems.append("the events' count, streams, heads' Merkle root or positions differ "
                        "from the manifest's")  # fmt: skip
    return problems


def retain(years: int | None = None, *, drop: bool = False,
           now: datetime.datetime | None = None) -> Retained:  # fmt: skip
    """Archive, verify and detach the partitions older than ``years`` years
    (``LEDGER_RETENTION_YEARS``); see the module docstring."""
    years = settings.LEDGER_RETENTION_YEARS if years is None else years
    if years < 1:
        raise RetentionRefused(f"--older-than-years must be at least 1, not {years}")
    if not partitions.partitioned():
        raise RetentionRefused("retention detaches PostgreSQL partitions; the embedded SQLite "
                               "ledger is one table and keeps every event")  # fmt: skip
    moment = now or clock.now()
    kept_from = years_before(partitions.gaming_day(moment), years)
    chosen = [p for p in partitions.day_partitions() if p.end <= kept_from]
    if not chosen:
        raise RetentionRefused(f"no partition holds only gaming days before {kept_from} (the "
                               f"first of the {years} years kept): nothing to archive")  # fmt: skip
    first, end = chosen[0].start, chosen[-1].end
    last = end - datetime.timedelta(days=1)
    since = _day_start(kept_from)
    live = _live_streams(first, end, since)
    if live:
        raise RetentionRefused(
            f"the gaming days {first}..{last} hold streams written to on or after {kept_from} "
            f"(within the {years} years kept), e.g. {', '.join(live[:5])}: archiving them would "
            "cut a live hash chain. Declare their kind lasting (audit.registry.StreamKind) or "
            "retain later."
        )
    target = Path(settings.EXPORT_ROOT) / "retention" / f"pitboss-retained-{first}_{last}"
    if not target.exists():
        _write_archive(target, first, last, years, chosen)
    problems = verify_archive(target, against_database=True)
    if problems:
        raise RetentionRefused(f"the archive {target} does not verify, nothing detached: "
                               + "; ".join(problems[:5]))  # fmt: skip
    body = (target / "manifest.json").read_bytes().rstrip(b"\n")
    manifest = json.loads(body)
    signed = json.loads((target / "signature.json").read_bytes())
    with transaction.atomic():
        append(
            f"retention:{first}_{last}",
            [NewEvent(RETAINED.name, {
                "first_day": first.isoformat(), "last_day": last.isoformat(),
                "older_than_years": years, "partitions": manifest["partitions"],
                "archive": target.name, "manifest_sha256": hashlib.sha256(body).hexdigest(),
                "signature": signed["signature"], "events": manifest["events"],
                "streams": manifest["streams"],
                "heads_merkle_root": manifest["heads_merkle_root"],
                "positions": manifest["positions"], "dropped": drop,
            })],
            expected_version=0,
            actor=Actor.system("retention"),
        )  # fmt: skip
        with connection.cursor() as cursor:
            cursor.execute(
                "DELETE FROM ledger_stream_index WHERE stream_id IN (SELECT stream_id FROM "
                "ledger_event WHERE day_key >= %s AND day_key < %s)",
                [first, end],
            )
            for partition in chosen:
                cursor.execute(f"ALTER TABLE ledger_event DETACH PARTITION {partition.name}")
                if drop:
                    cursor.execute(f"DROP TABLE {partition.name}")
    return Retained(first, last, target, tuple(manifest["partitions"]), manifest["events"],
                    manifest["streams"])  # fmt: skip


def _day_start(day: datetime.date) -> datetime.datetime:
    calendar = partitions._calendar()
    if calendar is None:
        return datetime.datetime.combine(day, datetime.time(), tzinfo=datetime.UTC)
    return calendar.gaming_day_bounds(day)[0]


def retained_runs() -> tuple[list[tuple[int, int]], set[datetime.date]]:
    """The global positions every ``ledger.retained`` took, and the gaming
    days archived (``verify_ledger``)."""
    from audit.storage import loads_json

    runs: list[tuple[int, int]] = []
    days: set[datetime.date] = set()
    with connection.cursor() as cursor:
        cursor.execute("SELECT payload FROM ledger_event WHERE event_type = %s", [RETAINED.name])
        for (payload,) in cursor.fetchall():
            payload = loads_json(payload)
            runs.extend((a, b) for a, b in payload["positions"])
            day = datetime.date.fromisoformat(payload["first_day"])
            while day <= datetime.date.fromisoformat(payload["last_day"]):
                days.add(day)
                day += datetime.timedelta(days=1)
    return runs, days


def check_archives() -> list[str]:
    """Each ``ledger.retained`` against its archive in the export store: there,
    its manifest the one the event names, the signature good (``verify_ledger``;
    the events themselves are rechecked by ``verify_archive``, a longer read)."""
    from audit.seals import verify_signature
    from audit.storage import loads_json

    problems = []
    root = Path(settings.EXPORT_ROOT) / "retention"
    with connection.cursor() as cursor:
        cursor.execute("SELECT stream_id, payload FROM ledger_event WHERE event_type = %s "
                       "ORDER BY position", [RETAINED.name])  # fmt: skip
        retained = [(stream, loads_json(payload)) for stream, payload in cursor.fetchall()]
    for stream, payload in retained:
        target = root / payload["archive"]
        try:
            body = (target / "manifest.json").read_bytes().rstrip(b"\n")
            signed = json.loads((target / "signature.json").read_bytes())
        except (OSError, ValueError):
            problems.append(f"{stream}: its archive {target} is missing or unreadable")
            continue
        if hashlib.sha256(body).hexdigest() != payload["manifest_sha256"]:
            problems.append(f"{stream}: the manifest of {target} is not the one it recorded")
        elif not verify_signature(json.loads(body), signed["signature"], signed["public_key"]):
            problems.append(f"{stream}: the signature of {target}'s manifest does not verify")
    return problems
