#!/usr/bin/env python3
"""Check a Pitboss ledger retention archive offline, with Python 3 alone.

    python3 verify_retained.py [ARCHIVE_DIRECTORY] [--require-signature]

The archive (``pitboss-retained-<first>_<last>/``) holds every event of the
gaming days it names, in global order, one canonical JSON line each
(``events.jsonl``, the format of a day export's), a ``manifest.json`` and its
Ed25519 ``signature.json``. Every stream in it is whole: its first event is
version 1 chained to sixty-four zeros. This script recomputes each event's
hash and each stream's chain, the file's SHA-256, the events' and streams'
counts, the runs of global positions and the Merkle root of the streams'
heads (RFC 6962, leaves as the day seals make them), and checks the manifest's
signature (with the ``cryptography`` package if installed). The ledger's
``ledger.retained`` event on ``retention:<first>_<last>`` names the
manifest's SHA-256 and the positions; the days' seals stay in the database.
Exit status 0 when everything verifies, 1 naming the first inconsistency.
"""

from __future__ import annotations

import base64
import hashlib
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from verify_export import (  # noqa: E402  (ships beside this script)
    GENESIS_HASH,
    Inconsistent,
    canonical_json,
    event_hash,
    leaf_hash,
    merkle_root,
    say,
    sha256_file,
)


def verify(directory: Path, require_signature: bool) -> None:
    body = (directory / "manifest.json").read_bytes().rstrip(b"\n")
    manifest = json.loads(body)
    if canonical_json(manifest) != body:
        raise Inconsistent("manifest.json: not canonical JSON")
    signed = json.loads((directory / "signature.json").read_bytes())
    try:
        from cryptography.exceptions import InvalidSignature
        from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
    except ImportError:
        say("NOTE the Ed25519 signature was NOT checked: 'cryptography' is not installed")
        if require_signature:
            raise SystemExit(3) from None
    else:
        try:
            key = Ed25519PublicKey.from_public_bytes(base64.b64decode(signed["public_key"]))
            key.verify(base64.b64decode(signed["signature"]), body)
        except (InvalidSignature, ValueError):
            raise Inconsistent("signature.json: the Ed25519 signature does not verify") from None
        say(f"ok   manifest.json: Ed25519 signature verifies with {signed['public_key']}")
    if signed.get("development_key"):
        say("NOTE signed with a DEVELOPMENT key: not valid for regulatory use")
    digest, size = sha256_file(directory / "events.jsonl")
    if {"sha256": digest, "bytes": size} != manifest["files"]["events.jsonl"]:
        raise Inconsistent("events.jsonl: its SHA-256 or size differs from the manifest's")
    heads: dict[str, tuple[int, str]] = {}
    runs: list[list[int]] = []
    events = 0
    with (directory / "events.jsonl").open("rb") as handle:
        for number, raw in enumerate(handle, start=1):
            event = json.loads(raw)
            where = f"events.jsonl line {number} ({event['stream_id']} v{event['version']})"
            version, previous = heads.get(event["stream_id"], (0, GENESIS_HASH))
            if event["version"] != version + 1 or event["prev_hash"] != previous:
                raise Inconsistent(f"{where}: does not follow version {version} of its chain")
            if event_hash(event) != event["hash"]:
                raise Inconsistent(f"{where}: its hash does not match its content")
            heads[event["stream_id"]] = (event["version"], event["hash"])
            position = event["position"]
            if runs and position <= runs[-1][1]:
                raise Inconsistent(f"{where}: positions are not in increasing order")
            if runs and runs[-1][1] == position - 1:
                runs[-1][1] = position
            else:
                runs.append([position, position])
            events += 1
    root = merkle_root([leaf_hash(s, *heads[s]) for s in sorted(heads)]).hex()
    for name, found in (("events", events), ("streams", len(heads)),
                        ("positions", runs), ("heads_merkle_root", root)):  # fmt: skip
        if manifest[name] != found:
            raise Inconsistent(f"manifest.json: {name} differs from what events.jsonl holds")
    say(f"ok   {events} events in {len(heads)} streams, every chain from genesis, gaming days "
        f"{manifest['first_day']}..{manifest['last_day']}; manifest SHA-256 "
        f"{hashlib.sha256(body).hexdigest()}")  # fmt: skip


def main(argv: list[str]) -> int:
    require_signature = "--require-signature" in argv
    arguments = [a for a in argv if a != "--require-signature"]
    directory = Path(arguments[0]) if arguments else Path(__file__).resolve().parent
    try:
        verify(directory, require_signature)
    except Inconsistent as problem:
        say(f"FAILED: {problem}")
        return 1
    except (OSError, KeyError, TypeError, ValueError) as error:
        say(f"FAILED: a file or a field is missing or malformed ({error!r})")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
