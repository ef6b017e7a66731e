from __future__ import annotations

import datetime
import itertools

from audit import clock as ledger_clock
from audit.ledger import Actor, NewEvent

SYSTEM = Actor.system("tests")
_ids = itertools.count(1)


def new_stream(prefix: str = "s") -> str:
    return f"test:{prefix}-{next(_ids)}"


def counted(writer: int, seq: int, amount: int = 100) -> NewEvent:
    return NewEvent("test.counted", {"writer": writer, "seq": seq, "amount": amount})


class LedgerClock:
    """Sets the ledger's own clock (``recorded_at``) for the test: every
    append is recorded at ``at`` until the test moves it."""

    def __init__(self, monkeypatch, at: datetime.datetime):
        self.at = at
        clock = self

        class Frozen(datetime.datetime):
            @classmethod
            def now(cls, tz=None):
                return clock.at

        monkeypatch.setattr(ledger_clock, "datetime", Frozen)


def device_token(user, *, device: str = "", table_id: str | None = None) -> str:
    """A device token for ``user`` (a table device at ``table_id``, or a system
    gateway), as ``manage.py device_token issue`` makes one."""
    from operations import tokens
    from tables.models import Table

    table = Table.objects.get(table_id=table_id) if table_id else None
    device = device or ("test-gateway" if table is None else "")
    return tokens.issue(user, device=device, table=table, by="tests")[1]
