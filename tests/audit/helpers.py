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
