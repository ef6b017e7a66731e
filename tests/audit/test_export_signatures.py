"""Everything an export says is signed, with a key the regulator pins
(issue 13): the seal signs the CSVs and the close's figures, the verifier
refuses a seal signed by any key but the pinned one, and a range export
refuses a gap in its chain of seals. Each attack of the issue, caught."""

from __future__ import annotations

import base64
import datetime
import hashlib
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from audit.exports import ExportError, export_day, export_range, pretty_json
from audit.hashing import canonical_json
from tests.audit import test_seals
from tests.audit.test_exports import PACKAGED_VERIFIER, exported  # noqa: F401  (fixture)
from tests.audit.test_seals import AFTER, DAY, PREVIOUS, TEST_KEY

days = test_seals.days
ledger_clock = test_seals.ledger_clock
_signing_key = test_seals._signing_key

pytestmark = pytest.mark.django_db

#: The casino's public key, as published: what a regulator pins.
CASINO_KEY = base64.b64encode(
    Ed25519PrivateKey.from_private_bytes(base64.b64decode(TEST_KEY))
    .public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
).decode()  # fmt: skip


def key_fingerprint(public_key: str) -> str:
    """SHA-256 of the raw key in hex, in groups of eight, as published."""
    digest = hashlib.sha256(base64.b64decode(public_key)).hexdigest()
    return " ".join(digest[i : i + 8] for i in range(0, 64, 8))


def verify(directory: Path, *options: str) -> tuple[int, str]:
    done = subprocess.run([sys.executable, str(PACKAGED_VERIFIER), str(directory), *options],
                          capture_output=True, text=True, timeout=120)  # fmt: skip
    return done.returncode, done.stdout + done.stderr


def rehash(directory: Path, *names: str) -> None:
    """What a forger does after changing a file: re-hash it in manifest.json."""
    manifest = json.loads((directory / "manifest.json").read_text())
    for name in names:
        data = (directory / name).read_bytes()
        manifest["files"][name] = {"sha256": hashlib.sha256(data).hexdigest(),
                                   "bytes": len(data)}  # fmt: skip
    (directory / "manifest.json").write_bytes(pretty_json(manifest))


def resign(directory: Path, change=lambda body: None) -> str:
    """Re-make the seal over the (changed) day with a key of the forger's own."""
    forger = Ed25519PrivateKey.generate()
    raw = forger.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
    public = base64.b64encode(raw).decode()
    seal = json.loads((directory / "seal.json").read_text())
    body = seal["body"]
    change(body)
    body["signing_key"]["public_key"] = public
    seal.update(body=body, public_key=public,
                signature=base64.b64encode(forger.sign(canonical_json(body))).decode(),
                seal_hash=hashlib.sha256(canonical_json(body)).hexdigest())  # fmt: skip
    (directory / "seal.json").write_bytes(pretty_json(seal))
    manifest = json.loads((directory / "manifest.json").read_text())
    manifest["seal_hash"] = seal["seal_hash"]
    (directory / "manifest.json").write_bytes(pretty_json(manifest))
    rehash(directory, "seal.json")
    return public


def test_a_fresh_export_verifies_with_the_pinned_key(exported):  # noqa: F811
    code, out = verify(exported, "--public-key", CASINO_KEY, "--require-signature")
    assert code == 0, out
    assert f"signed by the pinned key (fingerprint {key_fingerprint(CASINO_KEY)})" in out
    assert "CSV files are the ones the seal signed" in out


def test_the_key_may_be_pinned_from_a_pem_file(exported, tmp_path):  # noqa: F811
    pem = (Ed25519PrivateKey.from_private_bytes(base64.b64decode(TEST_KEY)).public_key()
           .public_bytes(Encoding.PEM, PublicFormat.SubjectPublicKeyInfo))  # fmt: skip
    (tmp_path / "casino.pem").write_bytes(pem)
    code, out = verify(exported, "--public-key", str(tmp_path / "casino.pem"))
    assert code == 0, out


def test_without_a_pinned_key_the_verifier_says_so_plainly(exported):  # noqa: F811
    code, out = verify(exported)
    assert code == 0, out
    assert "NOTE no public key pinned (--public-key)" in out
    code, out = verify(exported, "--require-signature")
    assert code == 3, out


def test_a_day_re_signed_with_another_key_is_refused_when_the_key_is_pinned(exported):  # noqa: F811
    forged = resign(exported)
    code, out = verify(exported, "--public-key", CASINO_KEY, "--require-signature")
    assert code == 1, out
    assert (f"FAILED: seal.json: signed by key {forged} (fingerprint {key_fingerprint(forged)})"
            f", not by the pinned key {CASINO_KEY}") in out  # fmt: skip


def test_a_lowered_win_report_with_the_manifest_re_hashed_is_refused(exported):  # noqa: F811
    path = exported / "win_report.csv"
    # The demo's day has rows; this test's day has none: add a forged one either way.
    path.write_text(path.read_text() + "T1,2026-03-10,criss_cross_poker,,-5000000\n")
    rehash(exported, "win_report.csv")
    code, out = verify(exported)
    assert code == 1, out
    assert "FAILED: win_report.csv: SHA-256" in out
    assert "the file was changed after the day was sealed" in out
    # Re-making the seal over the forged file needs another key: refused when pinned.
    signed = json.loads((exported / "manifest.json").read_text())["files"]["win_report.csv"]
    resign(exported, lambda body: body["contents"]["files"].update({"win_report.csv": signed}))
    code, out = verify(exported, "--public-key", CASINO_KEY)
    assert code == 1 and "not by the pinned key" in out, out


def test_an_emptied_variances_csv_with_the_manifest_re_hashed_is_refused(exported):  # noqa: F811
    (exported / "variances.csv").write_bytes(b"")
    rehash(exported, "variances.csv")
    code, out = verify(exported)
    assert code == 1, out
    assert "FAILED: variances.csv: SHA-256 e3b0c442" in out


def test_a_range_export_with_its_middle_day_removed_is_refused(days, tmp_path):
    last = DAY + datetime.timedelta(days=1)
    target = export_range(PREVIOUS, last, tmp_path, now=AFTER)
    assert verify(target, "--public-key", CASINO_KEY)[0] == 0
    middle = f"pitboss-export-{DAY.isoformat()}"
    shutil.rmtree(target / middle)
    manifest = json.loads((target / "manifest.json").read_text())
    manifest["days"].remove(middle)
    manifest["files"] = {name: digest for name, digest in manifest["files"].items()
                         if not name.startswith(middle + "/")}  # fmt: skip
    (target / "manifest.json").write_bytes(pretty_json(manifest))
    code, out = verify(target, "--public-key", CASINO_KEY)
    assert code == 1, out
    assert (f"FAILED: pitboss-export-{last.isoformat()}/seal.json: its seal follows the seal of "
            f"{DAY.isoformat()}, which this export does not hold after "
            f"{PREVIOUS.isoformat()}: a gap in the chain of seals") in out  # fmt: skip


def test_an_export_refuses_a_read_model_changed_since_the_seal(days, tmp_path, monkeypatch):
    from audit import exports

    export_day(DAY, tmp_path / "first", now=AFTER)
    rows = exports._csv_rows

    def lowered(queryset):
        for row in rows(queryset):
            yield [*row[:-1], "0"] if row and row[0] != "table_id" else row

    monkeypatch.setattr(exports, "_csv_rows", lowered)
    with pytest.raises(ExportError, match="is no longer the file its seal signed"):
        export_day(DAY, tmp_path / "again", now=AFTER)


def test_the_casinos_key_and_fingerprint_are_published_to_regulators(
    days, role_users, api_client, tmp_path
):
    from casino.roles import Role

    export_day(DAY, tmp_path, now=AFTER)
    api_client.force_authenticate(role_users[Role.REGULATOR])
    listing = api_client.get("/api/v1/exports/").json()
    fingerprint = key_fingerprint(CASINO_KEY)
    assert listing["signing_key"] == {"algorithm": "Ed25519", "public_key": CASINO_KEY,
                                      "fingerprint": fingerprint, "development": False}  # fmt: skip
    assert listing["exports"][0]["fingerprint"] == fingerprint
    from audit.seals import published_key

    assert published_key()["fingerprint"] == fingerprint
    role_users[Role.REGULATOR].is_staff = True
    role_users[Role.REGULATOR].save()
    from django.test import Client

    client = Client()
    client.force_login(role_users[Role.REGULATOR])
    page = client.get("/admin/audit/dayseal/exports/").content.decode()
    assert CASINO_KEY in page and fingerprint in page
    assert "--public-key" in page
