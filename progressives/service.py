"""Writing a meter's stream: a round's accepted progressive wagers and hits, payments,
readings and the two steps of an adjustment.

A round's contribution is derived from the round, never typed in: the caller
(the rounds' own wiring above both apps, the simulator, the demo) passes the
progressive wagers the system accepted at "no more bets" and the seats holding a
progressive payout hand, as the game module computes them
(``caribbean_stud_555.progressive_hits``). Each round's contribution carries an
idempotency key derived from the round, so recording a round twice adds nothing.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence

from audit.ledger import Actor, NewEvent, append
from audit.records import AppendResult
from progressives.streams import ADJUSTMENT_PROPOSED, meter_stream
from tables.rules.progressives.events import (
    MeterAdjusted,
    MeterConfigured,
    MeterContributed,
    MeterHit,
    MeterPaid,
    MeterRead,
    MeterReset,
    ReadingOccasion,
)


def _event(event: MeterConfigured | MeterContributed | MeterHit | MeterPaid | MeterRead,
           at: datetime.datetime | None) -> NewEvent:  # fmt: skip
    return NewEvent(event.TYPE, event.to_payload(), occurred_at=at)


def configure(configuration: MeterConfigured, *, actor: Actor,
              at: datetime.datetime | None = None) -> AppendResult:  # fmt: skip
    """Append a configuration (the first opens the meter at its initial amount)."""
    return append(meter_stream(configuration.meter_id), [_event(configuration, at)],
                  expected_version=None, actor=actor)  # fmt: skip


def record_round(meter_id: str, *, round_id: str, table: str, gaming_day: datetime.date,
                 wagers_cents: Sequence[int], hits: Sequence[tuple[int, str, int]] = (),
                 actor: Actor,
                 at: datetime.datetime | None = None) -> AppendResult | None:  # fmt: skip
    """A round's accepted progressive wagers (their contribution) and its hits
    (``(seat, hand, wager_cents)``, in payment order), in one batch; nothing for a
    round without a progressive wager."""
    if not wagers_cents:
        return None
    events = [_event(MeterContributed(round_id=round_id, table=table, gaming_day=gaming_day,
                                      wagers_cents=tuple(wagers_cents)), at)]  # fmt: skip
    events += [_event(MeterHit(round_id=round_id, table=table, gaming_day=gaming_day, seat=seat,
                               hand=hand, wager_cents=wager), at)
               for seat, hand, wager in hits]  # fmt: skip
    return append(meter_stream(meter_id), events, expected_version=None, actor=actor,
                  idempotency_key=f"meter:{meter_id}:round:{round_id}")  # fmt: skip


def record_payment(meter_id: str, *, round_id: str, table: str, seat: int, amount_cents: int,
                   validated_by: str, actor: Actor,
                   at: datetime.datetime | None = None) -> AppendResult:  # fmt: skip
    """What the dealer paid a seat on its progressive hand (§ 555.12(b)(3): validated)."""
    paid = MeterPaid(round_id=round_id, table=table, seat=seat, amount_cents=amount_cents,
                     validated_by=validated_by)  # fmt: skip
    return append(meter_stream(meter_id), [_event(paid, at)], expected_version=None, actor=actor)


def record_reading(meter_id: str, *, table: str, gaming_day: datetime.date,
                   occasion: ReadingOccasion, displayed_cents: int, actor: Actor,
                   at: datetime.datetime | None = None) -> AppendResult:  # fmt: skip
    """The amount the table's controller displayed."""
    read = MeterRead(table=table, gaming_day=gaming_day, occasion=occasion,
                     displayed_cents=displayed_cents)  # fmt: skip
    return append(meter_stream(meter_id), [_event(read, at)], expected_version=None, actor=actor)


def propose_adjustment(meter_id: str, *, amount_cents: int, reason: str,
                       actor: Actor) -> AppendResult:  # fmt: skip
    """The first person's half of an adjustment: it changes nothing yet."""
    payload = {"amount_cents": amount_cents, "reason": reason, "proposed_by": actor.username}
    return append(meter_stream(meter_id), [NewEvent(ADJUSTMENT_PROPOSED, payload)],
                  expected_version=None, actor=actor)  # fmt: skip


def confirm_adjustment(meter_id: str, *, proposal_version: int, amount_cents: int, reason: str,
                       proposed_by: str, actor: Actor) -> AppendResult:  # fmt: skip
    """The second person's half: the meter moves by the amount proposed."""
    adjusted = MeterAdjusted(amount_cents=amount_cents, reason=reason, proposed_by=proposed_by,
                             confirmed_by=actor.username)  # fmt: skip
    payload = {**adjusted.to_payload(), "confirms_version": proposal_version}
    return append(meter_stream(meter_id), [NewEvent(MeterAdjusted.TYPE, payload)],
                  expected_version=None, actor=actor)  # fmt: skip


def record_reset(meter_id: str, *, amount_cents: int, actor: Actor,
                 at: datetime.datetime | None = None) -> AppendResult:  # fmt: skip
    """The controller set back to its reset amount after a payout of the whole meter."""
    reset = MeterReset(amount_cents=amount_cents)
    event = NewEvent(reset.TYPE, reset.to_payload(), occurred_at=at)
    return append(meter_stream(meter_id), [event], expected_version=None, actor=actor)
