"""A meter's folded state as JSON, so a fold can resume where an earlier one stopped.

The close reconciles a meter's day by folding its stream; a stream spans years.
:func:`snapshot` writes the state a fold reached as plain data and
:func:`restore` rebuilds an equal :class:`~tables.rules.progressives.meter.MeterState`,
so folding the rest of the stream from it gives what folding the whole
stream gives. ``FORMAT`` names the shape and the fold it was taken with:
a snapshot of another format is not restored (the caller folds from the start).

>>> import datetime
>>> from tables.rules.progressives.chapters import CARIBBEAN_STUD_555
>>> from tables.rules.progressives.events import (MeterConfigured, MeterContributed, MeterHit,
...     OddCents, RateBase)
>>> from tables.rules.progressives.meter import fold
>>> day = datetime.date(2016, 8, 1)
>>> configured = MeterConfigured(meter_id="CSP-1", effective_from=day, chapter="555",
...     tables=("CSP-01",), wager_amounts_cents=(100,), rate_numerator=70,
...     rate_denominator=100, rate_base=RateBase.AMOUNT_WAGERED, initial_cents=1_000_000,
...     reset_cents=1_000_000, schedule=CARIBBEAN_STUD_555.schedule,
...     share_rounding="round_down_to_cent", odd_cents=OddCents.FIRST_IN_PAYMENT_ORDER)
>>> state = fold([configured,
...     MeterContributed(round_id="r1", table="CSP-01", gaming_day=day, wagers_cents=(100,)),
...     MeterHit(round_id="r1", table="CSP-01", gaming_day=day, seat=4, hand="ROYAL_FLUSH",
...              wager_cents=100)]).state
>>> restore(snapshot(state)) == state
True
"""

from __future__ import annotations

import datetime
from typing import Any

from tables.rules.progressives.events import MeterConfigured

# The pending hits and shares are the meter's own bookkeeping; only this module
# writes them out beside it.
from tables.rules.progressives.meter import Carry, MeterState, _PendingHit, _Share

__all__ = ["FORMAT", "snapshot", "restore"]

#: Bump when :class:`MeterState` or the fold changes: older snapshots are then ignored.
FORMAT = 1


def snapshot(state: MeterState) -> dict[str, Any]:
    """``state`` as JSON-ready data."""
    history = list(state.history)
    pending = list(state.pending)
    return {
        "format": FORMAT,
        "meter_id": state.meter_id,
        "history": [configuration.to_payload() for configuration in history],
        "amount_cents": state.amount_cents,
        "reserve_cents": state.reserve_cents,
        "carry": list(state.carry),
        "pending": [
            {
                "table": hit.table,
                "round_id": hit.round_id,
                "seat": hit.seat,
                "hand": hit.line.hand,
                "wager_cents": hit.wager_cents,
                "configuration": history.index(hit.configuration),
            }
            for hit in pending
        ],
        "paying": [list(entry) for entry in state.paying],
        # A sharer is one of the pending hits (the fold settles it by identity).
        "sharing": [
            {
                "hit": next(i for i, hit in enumerate(pending) if hit is share.hit),
                "required_cents": share.required_cents,
                "meter_before_cents": share.meter_before_cents,
                "shared_among": share.shared_among,
            }
            for share in state.sharing
        ],
        "reset_due": list(state.reset_due) if state.reset_due is not None else None,
        "last_contribution_day": (
            state.last_contribution_day.isoformat() if state.last_contribution_day else None
        ),
    }


def restore(data: dict[str, Any]) -> MeterState:
    """The state :func:`snapshot` wrote.

    :raises ValueError: for a snapshot of another :data:`FORMAT`.
    """
    if data.get("format") != FORMAT:
        raise ValueError(f"a meter snapshot of format {data.get('format')!r}, not {FORMAT}")
    history = tuple(MeterConfigured.from_payload(payload) for payload in data["history"])
    pending = []
    for hit in data["pending"]:
        configuration = history[hit["configuration"]]
        line = configuration.line(hit["hand"])
        if line is None:
            raise ValueError(f"{hit['hand']} is not on the schedule its hit was recorded under")
        pending.append(_PendingHit(table=hit["table"], round_id=hit["round_id"], seat=hit["seat"],
                                   line=line, wager_cents=hit["wager_cents"],
                                   configuration=configuration))  # fmt: skip
    due = data["reset_due"]
    last = data["last_contribution_day"]
    return MeterState(
        meter_id=data["meter_id"],
        history=history,
        amount_cents=data["amount_cents"],
        reserve_cents=data["reserve_cents"],
        carry=Carry(*data["carry"]),
        pending=tuple(pending),
        paying=tuple((table, round_id, seat) for table, round_id, seat in data["paying"]),
        sharing=tuple(
            _Share(
                hit=pending[share["hit"]],
                required_cents=share["required_cents"],
                meter_before_cents=share["meter_before_cents"],
                shared_among=share["shared_among"],
            )  # fmt: skip
            for share in data["sharing"]
        ),
        reset_due=(due[0], due[1]) if due is not None else None,
        last_contribution_day=datetime.date.fromisoformat(last) if last else None,
    )
