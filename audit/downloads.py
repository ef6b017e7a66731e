"""Downloads of sealed gaming days' exports, from the admin and the API.

The zip of a sealed day is kept under ``settings.EXPORT_ROOT`` and built
with ``audit.exports.export_day`` the first time someone asks for it. The
stored zips are only a cache: the ledger and the day's seal are the record
retained under PA § 465a.6, and a missing zip is rebuilt byte-identical from
them. A download never seals a day (that is the close job's business): a day
without a seal is refused.

Every download is recorded in the ledger before the file is handed over
(``audit.exports.record_download``), so there is no unrecorded download.
"""

from __future__ import annotations

import datetime
import json
import os
import tempfile
import zipfile
from pathlib import Path

from django.conf import settings
from django.http import FileResponse

from audit import providers
from audit.exports import export_day, export_name, record_download
from audit.models import DaySeal
from audit.records import Actor, roles_of

ZIP_CONTENT_TYPE = "application/zip"
SEAL_HEADER = "X-Pitboss-Seal"


class DayNotSealed(Exception):
    """The gaming day has no seal, so there is no export to download."""

    def __init__(self, day: datetime.date) -> None:
        super().__init__(
            f"gaming day {day.isoformat()} is not sealed; its export can be downloaded "
            "once the close job has sealed it"
        )
        self.day = day


def may_download(user) -> bool:
    """Whether ``user`` holds one of the roles that may download exports (in
    the admin and through the API alike; registered, ``audit.providers``)."""
    return bool(roles_of(user) & providers.roles().export_readers)


def parse_day(text: str) -> datetime.date:
    """A gaming day written ``YYYY-MM-DD``; ``ValueError`` naming the text otherwise."""
    try:
        if len(text) != 10:
            raise ValueError
        return datetime.date.fromisoformat(text)
    except ValueError:
        raise ValueError(f"{text!r} is not a gaming day: write it as YYYY-MM-DD") from None


def sealed_days():
    """The seals, newest day first (the exports that can be downloaded)."""
    return DaySeal.objects.order_by("-gaming_day")


def _seal_of(day: datetime.date) -> DaySeal:
    seal = DaySeal.objects.filter(gaming_day=day).first()
    if seal is None:
        raise DayNotSealed(day)
    return seal


def _zip_matches_seal(path: Path, day: datetime.date, seal: DaySeal) -> bool:
    """Whether the stored zip is the export of this seal (not one left over
    from another database, or cut short)."""
    try:
        with zipfile.ZipFile(path) as archive:
            manifest = json.loads(archive.read(f"{export_name(day)}/manifest.json"))
    except (OSError, KeyError, ValueError, zipfile.BadZipFile):
        return False
    return manifest.get("seal_hash") == seal.seal_hash


def stored_export(day: datetime.date) -> Path:
    """The zip of sealed ``day`` under ``settings.EXPORT_ROOT``, built if missing.

    Raises ``DayNotSealed`` for a day without a seal and
    ``audit.exports.ExportError`` for a day that no longer matches its seal.
    The zip is built in a private directory and moved into place in one
    step, so concurrent downloads never see half a file (two builders write
    the same bytes: an export of a sealed day is deterministic).
    """
    return _stored_export(day, _seal_of(day))


def _stored_export(day: datetime.date, seal: DaySeal) -> Path:
    root = Path(settings.EXPORT_ROOT)
    target = root / f"{export_name(day)}.zip"
    if target.is_file() and _zip_matches_seal(target, day, seal):
        return target
    root.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=root, prefix=".building-") as building:
        built = export_day(day, Path(building), make_zip=True)
        os.replace(built.with_suffix(".zip"), target)
    return target


def download_response(day: datetime.date, actor: Actor) -> FileResponse:
    """The export of ``day`` as an attachment, once the download is recorded.

    The ``X-Pitboss-Seal`` header carries the seal hash the zip must match;
    ``no-store`` keeps caches from serving a copy whose download nobody records.
    """
    seal = _seal_of(day)
    path = _stored_export(day, seal)
    handle = path.open("rb")
    try:
        record_download(actor, day)
    except BaseException:
        handle.close()
        raise
    response = FileResponse(
        handle,
        as_attachment=True,
        filename=path.name,
        content_type=ZIP_CONTENT_TYPE,
    )
    response[SEAL_HEADER] = seal.seal_hash
    response["Cache-Control"] = "private, no-store"
    return response
