"""The progressive meters in the gaming-day close (issue 11): for each meter,
opening + contributions − payouts ± signed adjustments (+ resets) = closing,
against the amount its controller displayed; and what the tables' rounds
accepted against what the meter was credited with.

A meter stream spans days. An event names its gaming day where it has one
(a contribution, a hit, a reading); a payment, a reset or an adjustment
belongs to the day of the dated event before it in the stream (its hit's
day, for a payment). The stream is read up to the close's cutoff, so a re-run
reconciles exactly what the first run did. A close folds each meter from the
checkpoint the latest earlier day's close left (``MeterCheckpoint``: the fold's
state after the last event it took, that event's version and hash), so it reads
the days since, not the meter's years; where none matches the stream, from the
first event. Both give the same figures: every event before the checkpoint
belongs to an earlier day.

Variances, each a finding of the day:

* ``meter_display``: a reading differs from the book amount at that moment by
  more than the ``meter_tolerance_cents`` threshold (data, like the tables');
* ``meter_payout``: a progressive paid other than the meter owed "when it is
  the player's turn to be paid" (§ 555.13(f)), or other than its line;
* ``meter_contributions``: the progressive wagers the linked tables' rounds
  accepted that day (the replay's handle, less what void rounds returned: § 555.14,
  § 587.13) against those credited to the meter.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, NamedTuple

from django.db.models import Max

from audit.ledger import RecordedEvent, read_stream, read_streams
from progressives.streams import METER_KIND, to_engine
from tables.rules.progressives.checkpoint import restore, snapshot
from tables.rules.progressives.events import METER_EVENT_TYPES, MeterConfigured, MeterContributed
from tables.rules.progressives.meter import Effect, MeterState, apply
from tables.rules.progressives.reconcile import reconcile_day

#: The wager name a game gives its progressive (``caribbean_stud_555.PROGRESSIVE``).
PROGRESSIVE_WAGER = "PROGRESSIVE"
#: A meter's threshold where the day's thresholds name none (a close recorded before it).
DEFAULT_TOLERANCE_CENTS = 100


def meter_stream_ids(cutoff: int) -> list[str]:
    """Every meter stream begun at or before the cutoff (from the ledger's stream index)."""
    from audit.models import StreamIndex
    from audit.projections import STREAM_INDEX, run

    run(STREAM_INDEX)
    return list(StreamIndex.objects.filter(kind=METER_KIND, first_position__lte=cutoff)
                .order_by("stream_id").values_list("stream_id", flat=True))  # fmt: skip


def _day_of(event: RecordedEvent, current: datetime.date | None) -> datetime.date | None:
    day = event.payload.get("gaming_day")
    return datetime.date.fromisoformat(day) if isinstance(day, str) else current


class Resume(NamedTuple):
    """Where a fold of a meter stream starts: after ``version``, from ``state``;
    :data:`FROM_FIRST` for the whole stream.

    Every event folded before it belongs to an earlier day than the one reconciled,
    so an undated event just after it (a payment, a reset) belongs to an earlier
    day whichever: the fold resumes with no current day."""

    version: int
    state: MeterState | None


FROM_FIRST = Resume(0, None)


class Reached(NamedTuple):
    """Where a fold of a day stopped: the last event folded, its hash and the state after it."""

    version: int
    event_hash: str
    state: MeterState


def meter_day(stream_id: str, events: list[RecordedEvent], day: datetime.date,
              tolerance_cents: int, accepted_cents: int | None,
              start: Resume = FROM_FIRST) -> dict[str, Any] | None:  # fmt: skip
    """One meter's gaming day, reconciled; ``None`` for a meter with nothing that day
    and not yet configured. ``events``: the stream after ``start.version``."""
    return _meter_day(stream_id, events, day, tolerance_cents, accepted_cents, start)[0]


def _meter_day(stream_id: str, events: list[RecordedEvent], day: datetime.date,
               tolerance_cents: int, accepted_cents: int | None,
               start: Resume) -> tuple[dict[str, Any] | None, Reached | None]:  # fmt: skip
    state = start.state
    current: datetime.date | None = None
    opening: int | None = None
    effects: list[Effect] = []
    credited = 0
    reached: Reached | None = None
    for event in events:
        if event.event_type not in METER_EVENT_TYPES:
            continue
        current = _day_of(event, current)
        if current is not None and current > day:
            break
        engine = to_engine(event.event_type, event.payload)
        step = apply(state, engine)
        if current == day:
            if opening is None:
                opening = state.amount_cents if state is not None else 0
            effects.append(step.effect)
            if isinstance(engine, MeterContributed):
                credited += sum(engine.wagers_cents)
        state = step.state
        reached = Reached(event.version, event.hash, state)
    if state is None:
        return None, None
    closing = state.amount_cents
    result = reconcile_day(closing if opening is None else opening, effects,
                           closing_cents=closing)  # fmt: skip
    variances = []
    shown = result.variances(tolerance_cents)
    if shown:
        variances.append(_variance(
            "meter_display", sum(abs(r.difference_cents) for r in shown), tolerance_cents,
            "; ".join(f"{r.table} {r.occasion} reading displayed {_dollars(r.displayed_cents)}, "
                      f"book {_dollars(r.book_cents)}" for r in shown)))  # fmt: skip
    if result.wrong_payments:
        variances.append(_variance(
            "meter_payout", sum(abs(p.difference_cents) for p in result.wrong_payments), 0,
            "; ".join(f"{p.table} round {p.round_id} seat {p.seat} {p.hand}: paid "
                      f"{_dollars(p.paid_cents)}, owed {_dollars(p.required_cents)} (§ {p.section})"
                      for p in result.wrong_payments)))  # fmt: skip
    if accepted_cents is not None and accepted_cents != credited:
        variances.append(_variance(
            "meter_contributions", abs(credited - accepted_cents), 0,
            f"the linked tables' rounds accepted {_dollars(accepted_cents)} of progressive "
            f"wagers; the meter was credited with {_dollars(credited)}"))  # fmt: skip
    closing_reading = result.closing_reading
    configuration = state.history[-1]
    return {
        "meter_id": stream_id.partition(":")[2],
        "chapter": configuration.chapter,
        "tables": list(configuration.tables),
        "opening_cents": result.opening_cents,
        "contributions_cents": result.contributions_cents,
        "reserve_contributions_cents": result.reserve_contributions_cents,
        "payouts_cents": result.payouts_cents,
        "house_payouts_cents": result.house_payouts_cents,
        "adjustments_cents": result.adjustments_cents,
        "resets_cents": result.resets_cents,
        "closing_cents": result.closing_cents,
        "reserve_cents": state.reserve_cents,
        "displayed_cents": closing_reading.displayed_cents if closing_reading else None,
        "balances": result.balances,
        "variances": variances,
    }, reached


def _dollars(cents: int) -> str:
    return f"${cents / 100:,.2f}"


def _variance(kind: str, amount: int, threshold: int, detail: str) -> dict[str, Any]:
    """In the shape of the tables' variances (``tables.reconciliation``)."""
    return {"kind": kind, "amount": amount, "threshold": threshold, "unit": "cents",
            "detail": detail[:2000]}  # fmt: skip


def reconcile_meters(day: datetime.date, cutoff: int, thresholds: Mapping[str, Any],
                     accepted: Mapping[str, int], *,
                     checkpoints: bool = True) -> list[dict[str, Any]]:  # fmt: skip
    """Every meter's day; ``accepted``: each table's progressive wagers kept that day (cents).

    Each meter is folded from the checkpoint an earlier day's close left
    (:class:`~progressives.models.MeterCheckpoint`), so a close reads the days
    since the last close, not the meter's whole history; from its first event
    where there is none that still matches the stream (``checkpoints=False``: always).
    The fold's end is left as this day's checkpoint."""
    tolerance = int(thresholds.get("meter_tolerance_cents", DEFAULT_TOLERANCE_CENTS))
    stream_ids = meter_stream_ids(cutoff)
    starts, grouped = _read_meters(stream_ids, day, cutoff, checkpoints=checkpoints)
    results = []
    reached: dict[str, Reached] = {}
    for stream_id in stream_ids:
        start, events = starts.get(stream_id, FROM_FIRST), grouped[stream_id]
        linked = _linked_tables(start, events, day)
        progressive = sum(accepted.get(table, 0) for table in linked)
        found, end = _meter_day(stream_id, events, day, tolerance, progressive, start)
        if found is not None:
            results.append(found)
        if end is not None and end.version > start.version:
            reached[stream_id] = end
    _save_checkpoints(day, reached)
    return results


Grouped = dict[str, list[RecordedEvent]]


def _read_meters(stream_ids: list[str], day: datetime.date, cutoff: int, *,
                 checkpoints: bool) -> tuple[dict[str, Resume], Grouped]:  # fmt: skip
    """Each meter's start and its events after it, up to the cutoff."""
    from progressives.models import MeterCheckpoint

    starts: dict[str, Resume] = {}
    grouped: Grouped = {stream_id: [] for stream_id in stream_ids}
    if checkpoints:
        # The latest checkpoint of each meter from an earlier day's close: every event
        # it folded belongs to a day before this one, so none is in this day's figures.
        earlier = MeterCheckpoint.objects.filter(
            meter_id__in=[stream_id.partition(":")[2] for stream_id in stream_ids],
            gaming_day__lt=day)  # fmt: skip
        last = dict(earlier.values_list("meter_id").annotate(Max("gaming_day")))
        latest = [checkpoint for checkpoint in earlier.filter(gaming_day__in=set(last.values()))
                  if checkpoint.gaming_day == last[checkpoint.meter_id]]  # fmt: skip
        for checkpoint in latest:
            stream_id = f"{METER_KIND}:{checkpoint.meter_id}"
            events = read_stream(stream_id, after_version=checkpoint.version - 1)
            # The event it stopped at, unchanged (its hash chains every one before it).
            if (not events or events[0].version != checkpoint.version
                    or events[0].hash != checkpoint.event_hash
                    or events[0].position > cutoff):  # fmt: skip
                continue
            try:
                state = restore(checkpoint.state)
            except ValueError:  # another format: fold from the first event
                continue
            starts[stream_id] = Resume(checkpoint.version, state)
            grouped[stream_id] = [event for event in events[1:] if event.position <= cutoff]
    whole = [stream_id for stream_id in stream_ids if stream_id not in starts]
    for event in read_streams(whole):
        if event.position <= cutoff:
            grouped[event.stream_id].append(event)
    return starts, grouped


def _save_checkpoints(day: datetime.date, reached: Mapping[str, Reached]) -> None:
    from progressives.models import MeterCheckpoint

    MeterCheckpoint.objects.bulk_create(
        [MeterCheckpoint(meter_id=stream_id.partition(":")[2], gaming_day=day,
                         version=end.version, event_hash=end.event_hash,
                         state=snapshot(end.state))
         for stream_id, end in reached.items()],
        update_conflicts=True, unique_fields=["meter_id", "gaming_day"],
        update_fields=["version", "event_hash", "state"])  # fmt: skip


def _linked_tables(start: Resume, events: list[RecordedEvent],
                   day: datetime.date) -> tuple[str, ...]:  # fmt: skip
    """The tables linked to the meter by the configuration in force on ``day``."""
    configurations = [*(start.state.history if start.state is not None else ()),
                      *(MeterConfigured.from_payload(event.payload) for event in events
                        if event.event_type == MeterConfigured.TYPE)]  # fmt: skip
    linked: tuple[str, ...] = ()
    for configuration in configurations:
        if configuration.effective_from <= day:
            linked = configuration.tables
    return linked
