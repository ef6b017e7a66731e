"""Parts of a job claimed by whichever process gets there first: the
close's read of a day (``operations.day_read``) and the nightly check of
the read models (``audit.nightly_projections``). A claim is a PostgreSQL
advisory lock held by the claimer's own connection, so a killed claimer
frees it."""

from __future__ import annotations

import contextlib
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from django.db import connection, connections

#: The part claims' advisory lock class (``part`` in ASCII); the key is a CRC.
PART_LOCK_CLASS = 0x70617274


@contextlib.contextmanager
def claim(directory: Path, index: int, holder: Any = None) -> Iterator[bool]:
    """Whether this process holds part ``index`` of the run in ``directory``:
    on ``holder``, a connection of the caller's own kept for many claims,
    or on one opened for this claim alone."""
    if connection.vendor != "postgresql":
        yield True  # the embedded SQLite default runs its parts in one process
        return
    key = [PART_LOCK_CLASS, zlib.crc32(f"{directory.name}/{index}".encode()) - 2**31]
    own = holder is None
    if own:
        holder = connections.create_connection("default")
    try:
        with holder.cursor() as cursor:
            cursor.execute("SELECT pg_try_advisory_lock(%s, %s)", key)
            claimed = cursor.fetchone()[0]
        yield claimed
        if claimed and not own:
            with holder.cursor() as cursor:
                cursor.execute("SELECT pg_advisory_unlock(%s, %s)", key)
    finally:
        if own:
            holder.close()  # ends the session, and with it the lock
