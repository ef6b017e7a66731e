#!/usr/bin/env python3
"""Verify a Pitboss regulator export offline, with Python's standard library.

Usage::

    python3 verify_export.py [EXPORT_DIRECTORY] [--public-key KEY_OR_FILE]
                             [--require-signature]

With no directory, the directory this script is in. ``--public-key`` pins the
casino's seal-signing key: the Ed25519 public key published with its
fingerprint on the regulator's pages (base64 of the raw 32 bytes, or a file
holding that or a PEM "PUBLIC KEY"). Without it the signature can only be
checked with the key inside seal.json, which whoever rewrote a day would have
replaced with their own: the script says so. Checks, in order, and stops at
the first inconsistency, naming it (exit status 1):

1. every file listed in manifest.json: present, its size and SHA-256, and
   no file present that the manifest does not list; manifest.json and
   seal.json must be in their canonical layout;
2. the seal: its body hashes to seal_hash; it was signed by the pinned key;
   the Ed25519 signature over the body's canonical JSON (only if the
   ``cryptography`` package is installed; otherwise the script says the
   signature was NOT checked); every CSV is the one the seal signed
   (``contents.files``: a CSV changed and manifest.json re-hashed is caught
   here);
3. events.jsonl: every event's hash recomputed from its fields, every
   stream's chain (versions consecutive, each prev_hash the previous
   event's hash, from genesis or from the stream's head before the day in
   prior_heads.jsonl, whose own hash is recomputed too), global positions
   increasing, every recorded_at inside the seal's window unless the event
   is at or before the seal's ``cutoff_position`` (a day's own streams are
   sealed up to the close's cutoff, whenever recorded);
4. every round, table day, slip and count the CSVs list (rounds.csv,
   table_days.csv, slips.csv, win_report.csv's reconciled tables) has its
   events in events.jsonl (seals with ``cutoff_position``), named if not;
5. the Merkle root of the streams' last events equals the seal's, and the
   event and stream counts match;
6. close_events.jsonl (the day's close, when present): every hash and link
   from genesis, the stream is the day's ``close:<day>``, it holds the close
   up to the head the seal signed (``contents.close``: the cutoff, replay,
   reconciliation and variances), and its ``close.sealed`` event names this
   export's seal;
7. the seal's ``amendments`` (present only when the day's seal carries
   events appended to an earlier sealed day's streams after that day's
   cutoff, a correction): each names an earlier day, the streams and the
   number of this day's events that amend it, and the Merkle root over those
   streams' heads here, recomputed from events.jsonl.

For an export of a range of days, each day's directory is verified, and
each day's seal must name the seal of the day listed before it: a day
removed from the middle is a gap in the chain; an amendment of a day the
range holds must name that day's seal (``amends_seal_hash``).

Exit status: 0 all checked, 1 an inconsistency, 2 not an export (or an
unreadable --public-key), 3 --require-signature and the signature could not
be checked or no key was pinned.
See README.md for the formats.
"""

from __future__ import annotations

import base64
import hashlib
import json
import sys
from pathlib import Path

GENESIS_HASH = "0" * 64
SEAL_FORMATS = ("pitboss-day-seal/1", "pitboss-day-seal/2")
#: DER prefix of an Ed25519 SubjectPublicKeyInfo (RFC 8410): the raw key follows.
SPKI_PREFIX = bytes.fromhex("302a300506032b6570032100")


class Inconsistent(Exception):
    """The first inconsistency found; its message names the file or event."""


def canonical_json(value):
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def pretty_json(value):
    return (json.dumps(value, indent=2, sort_keys=True, ensure_ascii=False) + "\n").encode()


def say(message):
    print(message, flush=True)


def sha256_file(path):
    digest, size = hashlib.sha256(), 0
    with open(path, "rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            digest.update(chunk)
            size += len(chunk)
    return digest.hexdigest(), size


def load_json_file(path, name):
    try:
        raw = path.read_bytes()
        value = json.loads(raw.decode("utf-8"))
    except (OSError, ValueError) as error:
        raise Inconsistent(f"{name}: cannot be read as JSON ({error})") from None
    if raw != pretty_json(value):
        raise Inconsistent(f"{name}: not in its canonical layout (bytes were changed)")
    return value


def check_files(directory, manifest, label):
    listed = manifest.get("files")
    if not isinstance(listed, dict) or not listed:
        raise Inconsistent(f"{label}manifest.json: no file list")
    for name, entry in listed.items():
        if (
            not isinstance(entry, dict)
            or sorted(entry) != ["bytes", "sha256"]
            or type(entry["bytes"]) is not int
            or not isinstance(entry["sha256"], str)
            or len(entry["sha256"]) != 64
            or entry["sha256"].strip("0123456789abcdef")
            or name.startswith("/")
            or ".." in name.split("/")
        ):
            raise Inconsistent(f"{label}manifest.json: the entry for {name!r} is malformed")
    for name in sorted(listed):
        entry = listed[name]
        path = directory / name
        if not path.is_file():
            raise Inconsistent(f"{label}{name}: listed in manifest.json but missing")
        digest, size = sha256_file(path)
        if size != entry.get("bytes"):
            raise Inconsistent(
                f"{label}{name}: {size} bytes, manifest.json says {entry.get('bytes')}"
            )
        if digest != entry.get("sha256"):
            raise Inconsistent(
                f"{label}{name}: SHA-256 {digest} differs from manifest.json "
                f"(the file or manifest.json was changed)"
            )
    present = {p.relative_to(directory).as_posix() for p in directory.rglob("*") if p.is_file()}
    unlisted = sorted(present - set(listed) - {"manifest.json"})
    if unlisted:
        raise Inconsistent(f"{label}{unlisted[0]}: present but not listed in manifest.json")
    say(f"ok   {label}{len(listed)} files match manifest.json (size and SHA-256)")


def event_hash(event):
    document = {
        "stream_id": event["stream_id"],
        "version": event["version"],
        "event_type": event["type"],
        "schema_version": event["schema_version"],
        "payload": event["payload"],
        "metadata": event["metadata"],
        "occurred_at": event["occurred_at"],
        "recorded_at": event["recorded_at"],
        "prev_hash": event["prev_hash"],
    }
    return hashlib.sha256(canonical_json(document)).hexdigest()


def merkle_root(leaves):
    """RFC 6962 section 2.1 Merkle Tree Hash over raw leaf digests."""
    if not leaves:
        return hashlib.sha256(b"").digest()
    if len(leaves) == 1:
        return leaves[0]
    split = 1
    while split * 2 < len(leaves):
        split *= 2
    left, right = merkle_root(leaves[:split]), merkle_root(leaves[split:])
    return hashlib.sha256(b"\x01" + left + right).digest()


def leaf_hash(stream_id, version, head_hash):
    document = {"hash": head_hash, "stream_id": stream_id, "version": version}
    return hashlib.sha256(b"\x00" + canonical_json(document)).digest()


def fingerprint(public_key):
    """SHA-256 of the raw public key, hex in groups of eight (as published)."""
    digest = hashlib.sha256(base64.b64decode(public_key)).hexdigest()
    return " ".join(digest[i : i + 8] for i in range(0, 64, 8))


def read_public_key(value):
    """The pinned key (base64 of the raw 32 bytes) from the argument: the key
    itself or a file holding it or a PEM public key; None if unreadable."""
    path = Path(value)
    text = path.read_text() if path.is_file() else value
    lines = [line.strip() for line in text.strip().splitlines()]
    if lines and lines[0].startswith("-----BEGIN"):
        lines = [line for line in lines if not line.startswith("-----")]
    try:
        raw = base64.b64decode("".join(lines), validate=True)
    except ValueError:
        return None
    if len(raw) == 44 and raw.startswith(SPKI_PREFIX):
        raw = raw[len(SPKI_PREFIX):]
    return base64.b64encode(raw).decode() if len(raw) == 32 else None


def check_pinned(public_key, pinned, label, require_signature):
    if pinned is None:
        say(f"NOTE {label}no public key pinned (--public-key): the signature was checked "
            f"with the key inside seal.json (fingerprint {fingerprint(public_key)}), which "
            "whoever rewrote the day would have replaced with their own; pass the casino's "
            "key published on the regulator's pages")
        if require_signature:
            raise SystemExit(3)
        return
    if public_key != pinned:
        raise Inconsistent(
            f"{label}seal.json: signed by key {public_key} (fingerprint "
            f"{fingerprint(public_key)}), not by the pinned key {pinned} (fingerprint "
            f"{fingerprint(pinned)}): this day was not sealed by the holder of the pinned key"
        )
    say(f"ok   {label}seal.json: signed by the pinned key (fingerprint {fingerprint(pinned)})")


def check_contents(manifest, body, label):
    """Every CSV is the one the seal signed (format 2)."""
    contents = body.get("contents")
    if body["format"] == "pitboss-day-seal/1":
        say(f"NOTE {label}seal format 1: the CSVs and the close's figures are NOT signed")
        return
    signed = contents["files"]
    files = manifest["files"]
    csvs = sorted(name for name in files if name.endswith(".csv"))
    for name in sorted(set(csvs) | set(signed)):
        if name not in files:
            raise Inconsistent(f"{label}{name}: signed by the seal but missing from the export")
        if name not in signed:
            raise Inconsistent(f"{label}{name}: present but not signed by the seal")
        if files[name] != signed[name]:
            raise Inconsistent(
                f"{label}{name}: SHA-256 {files[name]['sha256']} ({files[name]['bytes']} bytes), "
                f"the seal signed {signed[name]['sha256']} ({signed[name]['bytes']} bytes): "
                "the file was changed after the day was sealed"
            )
    say(f"ok   {label}{len(signed)} CSV files are the ones the seal signed")


def check_seal(directory, manifest, label, require_signature, pinned=None):
    seal = load_json_file(directory / "seal.json", f"{label}seal.json")
    body = seal.get("body") or {}
    if body.get("format") not in SEAL_FORMATS:
        raise Inconsistent(f"{label}seal.json: unknown seal format {body.get('format')!r}")
    seal_hash = hashlib.sha256(canonical_json(body)).hexdigest()
    if seal_hash != seal.get("seal_hash"):
        raise Inconsistent(f"{label}seal.json: the body hashes to {seal_hash}, not seal_hash")
    for key, expected in (
        ("seal_hash", seal_hash),
        ("gaming_day", body.get("gaming_day")),
        ("merkle_root", body.get("merkle_root")),
    ):
        if manifest.get(key) != expected:
            raise Inconsistent(f"{label}manifest.json: {key} differs from seal.json")
    public_key = body.get("signing_key", {}).get("public_key")
    if seal.get("public_key") != public_key:
        raise Inconsistent(f"{label}seal.json: public_key differs from the signed one")
    development = bool(body.get("signing_key", {}).get("development"))
    if seal.get("development_key") != development or manifest.get("development_key") != (
        development
    ):
        raise Inconsistent(f"{label}seal.json: the development-key label was changed")
    say(f"ok   {label}seal.json: body hashes to seal_hash {seal_hash}")
    check_pinned(public_key, pinned, label, require_signature)
    try:
        from cryptography.exceptions import InvalidSignature
        from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
    except ImportError:
        say(
            f"NOTE {label}the Ed25519 signature was NOT checked: the 'cryptography' "
            "package is not installed (pip install cryptography)"
        )
        if require_signature:
            raise SystemExit(3) from None
    else:
        try:
            key = Ed25519PublicKey.from_public_bytes(base64.b64decode(public_key))
            key.verify(base64.b64decode(seal.get("signature", "")), canonical_json(body))
        except (InvalidSignature, ValueError):
            raise Inconsistent(f"{label}seal.json: the Ed25519 signature does not verify") from None
        say(f"ok   {label}seal.json: Ed25519 signature verifies with public key {public_key}")
    if development:
        say(f"NOTE {label}signed with a DEVELOPMENT key: not valid for regulatory use")
    check_contents(manifest, body, label)
    return body


def read_events(path, name):
    with open(path, "rb") as handle:
        for number, raw in enumerate(handle, start=1):
            try:
                event = json.loads(raw.decode("utf-8"))
            except ValueError as error:
                raise Inconsistent(f"{name} line {number}: not JSON ({error})") from None
            if canonical_json(event) + b"\n" != raw:
                raise Inconsistent(f"{name} line {number}: not canonical JSON")
            yield number, event


def check_events(directory, body, label):
    prior = {}
    for number, event in read_events(directory / "prior_heads.jsonl", "prior_heads.jsonl"):
        where = f"stream {event['stream_id']} version {event['version']}"
        if event_hash(event) != event["hash"]:
            raise Inconsistent(
                f"{label}{where} (prior_heads.jsonl line {number}): content altered, "
                "the recomputed hash differs"
            )
        prior[event["stream_id"]] = (event["version"], event["hash"])
    window = body["window"]
    heads, last_position, count, counts = {}, 0, 0, {}
    for number, event in read_events(directory / "events.jsonl", "events.jsonl"):
        count += 1
        stream_id, version = event["stream_id"], event["version"]
        where = f"{label}stream {stream_id} version {version} (events.jsonl line {number})"
        if event["position"] <= last_position:
            raise Inconsistent(f"{where}: global position {event['position']} out of order")
        last_position = event["position"]
        # A day's own streams are sealed up to the close's cutoff whenever
        # they were recorded (an import, a device's buffer): only an event
        # past the cutoff must have been recorded inside the window.
        if (not window["start"] <= event["recorded_at"] < window["end"]
                and event["position"] > body.get("cutoff_position", 0)):
            raise Inconsistent(f"{where}: recorded_at outside the gaming day's window "
                               "and position past the seal's cutoff_position")
        if stream_id in heads:
            before = heads[stream_id]
        elif version == 1:
            before = (0, GENESIS_HASH)
        elif stream_id in prior:
            before = prior[stream_id]
        else:
            raise Inconsistent(f"{where}: no head before the day in prior_heads.jsonl")
        if version != before[0] + 1:
            raise Inconsistent(f"{where}: expected version {before[0] + 1}; an event is missing")
        if event["prev_hash"] != before[1]:
            raise Inconsistent(f"{where}: prev_hash does not match the previous event's hash")
        if event_hash(event) != event["hash"]:
            raise Inconsistent(f"{where}: content altered, the recomputed hash differs")
        heads[stream_id] = (version, event["hash"])
        counts[stream_id] = counts.get(stream_id, 0) + 1
    say(f"ok   {label}events.jsonl: {count} event hashes and {len(heads)} stream chains intact")
    return heads, count, counts


def check_amendments(heads, counts, body, label):
    for amendment in body.get("amendments", []):
        day, streams = amendment["gaming_day"], amendment["streams"]
        where = f"{label}seal.json amendment of {day}"
        if not day < body["gaming_day"]:
            raise Inconsistent(f"{where}: amends a day that is not earlier")
        absent = [s for s in streams if s not in heads]
        if absent:
            raise Inconsistent(f"{where}: stream {absent[0]} has no events in events.jsonl")
        events = sum(counts[s] for s in streams)
        if events != amendment["events"]:
            raise Inconsistent(f"{where}: events.jsonl holds {events} events of its streams; "
                               f"the amendment says {amendment['events']}")
        root = merkle_root([leaf_hash(s, *heads[s]) for s in sorted(streams)]).hex()
        if root != amendment["merkle_root"]:
            raise Inconsistent(f"{where}: its streams' heads give Merkle root {root}, "
                               f"the amendment says {amendment['merkle_root']}")
        say(f"ok   {where}: {events} events in {len(streams)} streams, chained to seal "
            f"{amendment['amends_seal_hash']}")


def check_root(heads, count, body, label):
    if (count, len(heads)) != (body["events"], body["streams"]):
        raise Inconsistent(
            f"{label}events.jsonl: {count} events in {len(heads)} streams; the seal says "
            f"{body['events']} in {body['streams']}"
        )
    leaves = [leaf_hash(s, heads[s][0], heads[s][1]) for s in sorted(heads)]
    root = merkle_root(leaves).hex()
    if root != body["merkle_root"]:
        raise Inconsistent(
            f"{label}events.jsonl: the stream heads give Merkle root {root}, "
            f"the seal says {body['merkle_root']}"
        )
    say(f"ok   {label}Merkle root of {len(leaves)} stream heads equals the seal's {root}")


#: The CSVs that list a day's own streams, and how a row names its stream.
LISTED = {
    "rounds.csv": ("round", lambda row, day: row["stream_id"]),
    "table_days.csv": ("table day", lambda row, day: row["stream_id"]),
    "slips.csv": ("slip", lambda row, day: row["stream_id"]),
    # A reconciled table day has a verified count, in its own stream.
    "win_report.csv": ("count", lambda row, day: (f"count:{row['table_id']}:{day}"
                                                  if row["status"] == "reconciled" else None)),
}


def check_listed(directory, manifest, body, streams, label):
    """Every round, table day, slip and count the export lists has its events
    in events.jsonl (a seal over the day's streams: ``cutoff_position``)."""
    if "cutoff_position" not in body:
        say(f"--   {label}seal by recorded_at window: listed streams not checked")
        return
    import csv

    checked = 0
    for name, (what, stream_of) in LISTED.items():
        if name not in manifest["files"]:
            continue
        with open(directory / name, encoding="utf-8", newline="") as handle:
            for number, row in enumerate(csv.DictReader(handle), start=2):
                stream_id = stream_of(row, manifest["gaming_day"])
                if stream_id is None:
                    continue
                checked += 1
                if stream_id not in streams:
                    raise Inconsistent(
                        f"{label}{name} line {number}: the {what} {stream_id} is listed but "
                        "its events are absent from events.jsonl"
                    )
    say(f"ok   {label}the {checked} rounds, table days, slips and counts listed have their "
        "events in events.jsonl")


def check_close_events(directory, manifest, body, label):
    path = directory / "close_events.jsonl"
    signed = (body.get("contents") or {}).get("close")
    listed = "close_events.jsonl" in manifest["files"]
    if signed is None and (not listed or path.stat().st_size == 0):
        say(f"--   {label}close_events.jsonl: the day was exported before its close")
        return
    if not listed:
        raise Inconsistent(f"{label}close_events.jsonl: the seal signed the close, "
                           "the export holds none")
    stream_id = f"close:{manifest['gaming_day']}"
    previous, sealed = (0, GENESIS_HASH), None
    for number, event in read_events(path, "close_events.jsonl"):
        where = f"{label}close_events.jsonl line {number}"
        if event["stream_id"] != stream_id:
            raise Inconsistent(f"{where}: stream {event['stream_id']}, not {stream_id}")
        if event["version"] != previous[0] + 1 or event["prev_hash"] != previous[1]:
            raise Inconsistent(f"{where}: version {event['version']} does not follow the "
                               "previous event (an event is missing or out of order)")
        if event_hash(event) != event["hash"]:
            raise Inconsistent(f"{where}: content altered, the recomputed hash differs")
        if event["type"] == "close.sealed":
            sealed = event["payload"]["seal_hash"]
        if (signed is not None and event["version"] == signed["version"]
                and event["hash"] != signed["hash"]):
            raise Inconsistent(f"{where}: version {event['version']} hashes to "
                               f"{event['hash']}, the seal signed {signed['hash']}")
        previous = (event["version"], event["hash"])
    if signed is not None and previous[0] < signed["version"]:
        raise Inconsistent(
            f"{label}close_events.jsonl: holds {previous[0]} events of {stream_id}; the seal "
            f"signed the close up to version {signed['version']} (hash {signed['hash']}): "
            "the close's events were removed"
        )
    if sealed != manifest["seal_hash"]:
        raise Inconsistent(f"{label}close_events.jsonl: close.sealed names seal {sealed}, "
                           f"the manifest {manifest['seal_hash']}")
    say(f"ok   {label}close_events.jsonl: {previous[0]} events of {stream_id} intact, "
        "ending with this export's seal")


DAY_KEYS = ["development_key", "files", "format", "gaming_day", "merkle_root", "seal_hash"]
RANGE_KEYS = ["days", "files", "first_day", "format", "last_day"]


def check_keys(manifest, expected, label):
    if sorted(manifest) != expected:
        raise Inconsistent(f"{label}manifest.json: unexpected fields {sorted(manifest)}")


def verify_day(directory, label, require_signature, pinned=None):
    manifest = load_json_file(directory / "manifest.json", f"{label}manifest.json")
    if manifest.get("format") != "pitboss-day-export/1":
        raise Inconsistent(f"{label}manifest.json: unknown export format")
    check_keys(manifest, DAY_KEYS, label)
    check_files(directory, manifest, label)
    body = check_seal(directory, manifest, label, require_signature, pinned)
    heads, count, counts = check_events(directory, body, label)
    check_listed(directory, manifest, body, heads, label)
    check_root(heads, count, body, label)
    check_close_events(directory, manifest, body, label)
    check_amendments(heads, counts, body, label)
    return body


def verify(directory, require_signature=False, pinned=None):
    manifest = load_json_file(directory / "manifest.json", "manifest.json")
    if manifest.get("format") == "pitboss-day-export/1":
        body = verify_day(directory, "", require_signature, pinned)
        say(f"OK: the export of gaming day {body['gaming_day']} is consistent")
        return
    if manifest.get("format") != "pitboss-range-export/1":
        raise Inconsistent(f"manifest.json: unknown export format {manifest.get('format')!r}")
    check_keys(manifest, RANGE_KEYS, "")
    check_files(directory, manifest, "")
    previous, seals = None, {}
    for name in manifest["days"]:
        body = verify_day(directory / name, f"{name}/", require_signature, pinned)
        for amendment in body.get("amendments", []):
            amended = seals.get(amendment["gaming_day"])
            if amended is not None and amendment["amends_seal_hash"] != amended:
                raise Inconsistent(f"{name}/seal.json: its amendment of "
                                   f"{amendment['gaming_day']} does not name that day's seal")
        seals[body["gaming_day"]] = hashlib.sha256(canonical_json(body)).hexdigest()
        if previous is not None:
            if body["previous_gaming_day"] != previous["gaming_day"]:
                raise Inconsistent(
                    f"{name}/seal.json: its seal follows the seal of "
                    f"{body['previous_gaming_day']}, which this export does not hold after "
                    f"{previous['gaming_day']}: a gap in the chain of seals (a day removed)"
                )
            link = hashlib.sha256(canonical_json(previous)).hexdigest()
            if body["previous_seal_hash"] != link:
                raise Inconsistent(f"{name}/seal.json: does not name the previous day's seal")
            say(f"ok   {name}/seal.json names the seal of {previous['gaming_day']}")
        previous = body
    say(f"OK: the export of {manifest['first_day']} to {manifest['last_day']} is consistent")


def main(argv):
    require_signature = "--require-signature" in argv
    arguments = [a for a in argv if a != "--require-signature"]
    pinned = None
    if "--public-key" in arguments:
        at = arguments.index("--public-key")
        if at + 1 >= len(arguments):
            say("FAILED: --public-key needs the key (base64) or a file holding it")
            return 2
        pinned = read_public_key(arguments[at + 1])
        if pinned is None:
            say(f"FAILED: --public-key {arguments[at + 1]!r} is not an Ed25519 public key "
                "(base64 of 32 bytes, or a PEM PUBLIC KEY, or a file holding either)")
            return 2
        del arguments[at : at + 2]
    directory = Path(arguments[0]) if arguments else Path(__file__).resolve().parent
    if not (directory / "manifest.json").is_file():
        say(f"FAILED: {directory} holds no manifest.json; is it an export directory?")
        return 2
    try:
        verify(directory, require_signature, pinned)
    except Inconsistent as problem:
        say(f"FAILED: {problem}")
        return 1
    except (KeyError, TypeError) as error:
        say(f"FAILED: a required field is missing or malformed ({error!r})")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
