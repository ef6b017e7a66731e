"""The ledger's clock: the time an append is recorded at (``recorded_at``, and
``occurred_at`` when the event names none).

It is the real clock, except inside ``recording_at(moment)``: there it runs at
real speed from ``moment``, so that a day's history played later (the demo's
past days, the bench's loads, a casino importing its books) is recorded inside
its own gaming day, in order, as if it had happened then. The shift belongs
to the process (forked workers inherit it) and only a ``with`` block sets it:
it is undone on the way out, whatever happens inside, so nothing can leave it
on. Validation of the times people and devices claim (``occurred_at``) keeps
reading the server's real clock.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta

_ZERO = timedelta(0)
_offset = _ZERO
_lock = threading.Lock()


def now() -> datetime:
    """The ledger's time now (UTC): the real clock, shifted inside ``recording_at``."""
    return datetime.now(UTC) + _offset


def offset() -> timedelta:
    """How far the ledger's clock is shifted from the real one (zero outside ``recording_at``)."""
    return _offset


@contextmanager
def recording_at(moment: datetime) -> Iterator[datetime]:
    """Record the block's appends from ``moment`` on (the clock keeps running
    at real speed); yields ``moment``. Blocks do not nest: one history is
    played at a time, and a nested shift would hide which one is in force."""
    global _offset
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise ValueError(f"the ledger's clock needs a time with its zone, not {moment!r}")
    with _lock:
        if _offset != _ZERO:
            raise RuntimeError("the ledger's clock is already shifted (recording_at does not nest)")
        _offset = moment - datetime.now(UTC)
        if _offset == _ZERO:  # vanishingly unlikely; keep "zero" meaning "not shifted"
            _offset = timedelta(microseconds=-1)
    try:
        yield moment
    finally:
        with _lock:
            _offset = _ZERO
