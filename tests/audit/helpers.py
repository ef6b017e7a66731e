from __future__ import annotations

import itertools

from audit.ledger import Actor, NewEvent

SYSTEM = Actor.system("tests")
_ids = itertools.count(1)


def new_stream(prefix: str = "s") -> str:
    return f"test:{prefix}-{next(_ids)}"


def counted(writer: int, seq: int, amount: int = 100) -> NewEvent:
    return NewEvent("test.counted", {"writer": writer, "seq": seq, "amount": amount})
