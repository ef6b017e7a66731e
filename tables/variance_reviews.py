"""The life of a variance: open → acknowledged (with a note and an owner) →
resolved (naming the ledger event that corrected it) or accepted (with a
reason), the same steps as a finding's (``tables.reviews``).

A variance is the close's (``Variance``, the projection of its reconciled
stage); what people do about one is its own stream,
``variance:<gaming day>:<table>:<kind>`` (the kind's ``_`` written as ``-``),
whose first event names the variance and is refused unless the close found
it. Who may append which step is data (append permissions: finance and shift
supervisors acknowledge and resolve, finance alone accepts a variance as it
stands). ``tables.variance_reviews`` projects the streams into
``VarianceReview`` rows; the pages count a variance as open until it is
resolved or accepted.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence
from typing import Any

from audit import errors
from audit.ledger import RecordedEvent, streams_touched
from audit.projections import Projection, ReadModel, emptying, register, upsert
from audit.registry import (
    TEXT,
    EventType,
    StreamKind,
    object_schema,
    register_event_type,
    register_stream_kind,
)
from tables.models import Variance, VarianceReview
from tables.reviews import (
    ACCEPTED_PROPERTIES,
    RESOLVED_PROPERTIES,
    USERNAME,
    check_step,
    review_fields,
    step_of,
)
from tables.table_day import GAMING_DAY, TABLE_ID

VARIANCE_STREAM_KIND = "variance"
ACKNOWLEDGED = "variance.acknowledged"
RESOLVED = "variance.resolved"
ACCEPTED = "variance.accepted"
VARIANCE_REVIEW_TYPES = (ACKNOWLEDGED, RESOLVED, ACCEPTED)

_TYPES = [
    (ACKNOWLEDGED, "A person acknowledged a variance of the close (naming it) with a note, and "
     "who owns it until it is resolved or accepted.",
     {"gaming_day": {**GAMING_DAY, "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}$"},
      "table_id": TABLE_ID,
      "kind": {"type": "string", "minLength": 1, "maxLength": 30},
      "acknowledged_by": USERNAME, "owner": USERNAME, "note": TEXT},
     ["gaming_day", "table_id", "kind", "acknowledged_by", "note"]),
    (RESOLVED, "The variance was resolved by a correcting event (a recount, a slip, a "
     "correction).", RESOLVED_PROPERTIES, ["resolved_by", "correcting_event"]),
    (ACCEPTED, "The variance was accepted as it stands, with a reason.", ACCEPTED_PROPERTIES,
     None),
]  # fmt: skip
for _name, _description, _properties, _required in _TYPES:
    register_event_type(EventType(name=_name, version=1, description=_description,
                                  schema=object_schema(_properties, required=_required,
                                                       description=_description)))  # fmt: skip


def variance_stream_id(gaming_day: datetime.date | str, table_id: str, kind: str) -> str:
    """The review stream of one variance.

    >>> variance_stream_id(datetime.date(2016, 8, 26), "CC-01", "hold_month_over_month")
    'variance:2016-08-26:CC-01:hold-month-over-month'
    """
    return f"{VARIANCE_STREAM_KIND}:{gaming_day}:{table_id}:{kind.replace('_', '-')}"


def variance_policy(stream_id: str, recorded: Sequence[RecordedEvent], new: Sequence[Any],
                    actor: Any) -> None:  # fmt: skip
    done = [step_of(e.event_type) for e in recorded]
    for index, event in enumerate(new):
        where = f"events[{index}]"
        step = step_of(event.event_type)
        if step == "acknowledged" and not done:
            _check_names_a_variance(stream_id, event.payload, where)
        check_step(done, step, event.payload, actor, where)
        done.append(step)


def _check_names_a_variance(stream_id: str, payload: Mapping[str, Any], where: str) -> None:
    field = f"{where}.payload"
    day, table_id, kind = payload["gaming_day"], payload["table_id"], payload["kind"]
    try:
        datetime.date.fromisoformat(day)
    except ValueError:
        raise errors.RuleViolation(f"{field}.gaming_day: {day!r} is not a date",
                                   field=f"{field}.gaming_day") from None
    expected = variance_stream_id(day, table_id, kind)
    if stream_id != expected:
        raise errors.RuleViolation(
            f"{field}: this variance is reviewed on {expected}, not {stream_id}",
            field="stream_id",
        )
    if not Variance.objects.filter(gaming_day=day, table_id=table_id, kind=kind).exists():
        raise errors.RuleViolation(
            f"{field}: the close of gaming day {day} found no {kind} variance at {table_id}",
            field=f"{field}.kind",
        )


register_stream_kind(
    StreamKind(
        name=VARIANCE_STREAM_KIND,
        description="What people did about one variance of a close: acknowledged with a note "
        "and an owner, then resolved by a correcting event or accepted with a reason.",
        accepts=frozenset(VARIANCE_REVIEW_TYPES),
        policy=variance_policy,
    )
)


def _apply(batch: list[RecordedEvent]) -> None:
    rows = []
    for stream_id, events in streams_touched(batch, VARIANCE_STREAM_KIND).items():
        named = events[0].payload
        rows.append(VarianceReview(
            stream_id=stream_id, gaming_day=datetime.date.fromisoformat(named["gaming_day"]),
            table_id=named["table_id"], kind=named["kind"],
            owner=named.get("owner") or named["acknowledged_by"],
            computed_at_position=events[-1].position, **review_fields(events)))  # fmt: skip
    upsert(VarianceReview, rows)


def _day_streams(day: datetime.date) -> list[str]:
    from tables import day_streams

    return day_streams.variance_review_streams(day)


VARIANCE_REVIEWS = register(
    Projection(
        name="tables.variance_reviews",
        description="What people did about each variance: acknowledged, resolved, accepted.",
        event_types=frozenset(VARIANCE_REVIEW_TYPES),
        apply=_apply,
        clear=emptying(VarianceReview),
        read_models=(ReadModel(VarianceReview),),
        day_streams=_day_streams,
    )
)
