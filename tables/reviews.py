"""The life of a finding: open → acknowledged (with a note) → resolved (naming
the ledger event that corrected it) or accepted (with a reason).

A round's findings (a mispay, a wrong collection) are replay's: they live as
long as the round's events make them. What people do about one is its own
stream, ``finding:<round key>:<seat>:<wager>:<kind>`` (the key's ``_`` written
as ``-``, which stream keys require), whose first event names the finding and
is refused unless replay finds it in that round now. A compliance finding
(deck overdue, stub count missing) already has its stream; its steps are
appended there (``tables.compliance``).

Every step is signed by the person who appends it, in their own name; who may
append which step is data (append permissions: floorpersons and shift
supervisors acknowledge and resolve, a shift supervisor alone accepts a
finding as it stands). ``tables.finding_reviews`` projects the finding streams
into ``FindingReview`` rows.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence
from typing import Any

from audit import errors
from audit.ledger import RecordedEvent, read_stream, read_streams, streams_touched
from audit.projections import Projection, ReadModel, emptying, register, upsert
from audit.registry import (
    TEXT,
    EventType,
    StreamKind,
    object_schema,
    register_event_type,
    register_stream_kind,
)
from casino.roles import Role
from tables.models import FindingReview, ReviewStatus

FINDING_STREAM_KIND = "finding"
ACKNOWLEDGED = "finding.acknowledged"
RESOLVED = "finding.resolved"
ACCEPTED = "finding.accepted"
FINDING_REVIEW_TYPES = (ACKNOWLEDGED, RESOLVED, ACCEPTED)

#: The three steps by their last word, shared with the compliance stream.
STEPS = {"acknowledged": ReviewStatus.ACKNOWLEDGED, "resolved": ReviewStatus.RESOLVED,
         "accepted": ReviewStatus.ACCEPTED}  # fmt: skip
#: Streams whose events cannot correct a finding (a finding's own review).
_NOT_CORRECTIONS = ("finding:", "compliance:")

USERNAME = {"type": "string", "minLength": 1, "maxLength": 150}
CORRECTING_EVENT = {
    "type": "object",
    "description": "the ledger event that corrected the finding: its stream and version",
    "properties": {
        "stream_id": {"type": "string", "minLength": 1, "maxLength": 200},
        "version": {"type": "integer", "minimum": 1, "maximum": 2**31 - 1},
    },
    "required": ["stream_id", "version"],
    "additionalProperties": False,
}
RESOLVED_PROPERTIES = {"resolved_by": USERNAME, "correcting_event": CORRECTING_EVENT,
                       "note": {**TEXT, "minLength": 0}}  # fmt: skip
ACCEPTED_PROPERTIES = {"accepted_by": USERNAME, "reason": TEXT}

_TYPES = [
    (ACKNOWLEDGED, "A person acknowledged a round's finding (naming it) with a note.",
     {"round_stream": {"type": "string", "minLength": 1, "maxLength": 200},
      "seat": {"type": "integer", "minimum": 0, "maximum": 20},
      "wager": {"type": "string", "minLength": 1, "maxLength": 30},
      "kind": {"type": "string", "minLength": 1, "maxLength": 40},
      "acknowledged_by": USERNAME, "note": TEXT}, None),
    (RESOLVED, "The finding was resolved by a correcting event (a payment, a correction).",
     RESOLVED_PROPERTIES, ["resolved_by", "correcting_event"]),
    (ACCEPTED, "The finding was accepted as it stands, with a reason.", ACCEPTED_PROPERTIES,
     None),
]  # fmt: skip
for _name, _description, _properties, _required in _TYPES:
    register_event_type(EventType(name=_name, version=1, description=_description,
                                  schema=object_schema(_properties, required=_required,
                                                       description=_description)))  # fmt: skip


def finding_stream_id(round_stream: str, seat: int, wager: str, kind: str) -> str:
    """The review stream of one finding of one round.

    >>> finding_stream_id("round:CC-01-17", 2, "ANTE_ACROSS", "MISPAID_AMOUNT")
    'finding:CC-01-17:2:ANTE-ACROSS:MISPAID-AMOUNT'
    """
    key = f"{round_stream.partition(':')[2]}:{seat}:{wager}:{kind}".replace("_", "-")
    return f"{FINDING_STREAM_KIND}:{key}"


# --- the steps, shared with the compliance stream ---------------------------------------


def step_of(event_type: str) -> str:
    """``finding.resolved`` → ``resolved``."""
    return event_type.rpartition(".")[2]


def check_step(done: Sequence[str], step: str, payload: Mapping[str, Any], actor: Any,
               where: str) -> None:  # fmt: skip
    """Refuse a step out of order, signed by someone else, an acknowledgement
    without a note, or a resolution naming no event the ledger holds."""
    field = f"{where}.payload"
    if step == "acknowledged":
        if "acknowledged" in done:
            raise errors.RuleViolation("the finding was already acknowledged",
                                       field=f"{where}.type")
        if not str(payload.get("note", "")).strip():
            raise errors.RuleViolation(
                f"{field}.note: an acknowledgement says what was found and done (a note)",
                field=f"{field}.note",
            )
    else:
        if "acknowledged" not in done:
            raise errors.RuleViolation(
                f"the finding is {step} only once acknowledged (with a note)",
                field=f"{where}.type",
            )
        closed = [s for s in done if s in ("resolved", "accepted")]
        if closed:
            raise errors.RuleViolation(f"the finding was already {closed[0]}",
                                       field=f"{where}.type")
    signer_field = f"{step}_by"
    signer = payload[signer_field]
    person = actor is not None and not actor.roles & {Role.SYSTEM.value,
                                                      Role.TABLE_DEVICE.value}  # fmt: skip
    if person and actor.username != signer:
        raise errors.RuleViolation(
            f"{actor.username} may sign a finding's step only in their own name, not {signer!r}",
            field=f"{field}.{signer_field}",
        )
    if step == "resolved":
        check_correcting_event(payload["correcting_event"], f"{field}.correcting_event")


def check_correcting_event(ref: Mapping[str, Any], field: str) -> None:
    stream_id, version = ref["stream_id"], ref["version"]
    if stream_id.startswith(_NOT_CORRECTIONS):
        raise errors.RuleViolation(
            f"{field}.stream_id: a finding is corrected by what happened at the table or the "
            f"cage (a payment, a correction), not by a finding's own stream {stream_id}",
            field=f"{field}.stream_id",
        )
    if not read_stream(stream_id, after_version=version - 1, limit=1):
        raise errors.RuleViolation(
            f"{field}: the ledger holds no event {stream_id} version {version}", field=field
        )


def correcting_label(ref: Mapping[str, Any]) -> str:
    return f"{ref['stream_id']} v{ref['version']}"


# --- the finding stream ------------------------------------------------------------------


def finding_policy(stream_id: str, recorded: Sequence[RecordedEvent], new: Sequence[Any],
                   actor: Any) -> None:  # fmt: skip
    done = [step_of(e.event_type) for e in recorded]
    for index, event in enumerate(new):
        where = f"events[{index}]"
        step = step_of(event.event_type)
        if step == "acknowledged" and not done:
            _check_names_a_finding(stream_id, event.payload, where)
        check_step(done, step, event.payload, actor, where)
        done.append(step)


def _check_names_a_finding(stream_id: str, payload: Mapping[str, Any], where: str) -> None:
    from tables.rounds import SERVICE

    field = f"{where}.payload"
    named = (payload["round_stream"], payload["seat"], payload["wager"], payload["kind"])
    expected = finding_stream_id(*named)
    if stream_id != expected:
        raise errors.RuleViolation(
            f"{field}: this finding is reviewed on {expected}, not {stream_id}", field="stream_id"
        )
    if not payload["round_stream"].startswith("round:"):
        raise errors.RuleViolation(f"{field}.round_stream: not a round stream",
                                   field=f"{field}.round_stream")  # fmt: skip
    entry = SERVICE.current(payload["round_stream"])
    found = entry.state is not None and any(
        (f.seat, str(f.wager), f.kind.value) == named[1:] for f in entry.findings
    )
    if not found:
        raise errors.RuleViolation(
            f"{field}: replay finds no {payload['kind']} on seat {payload['seat']} "
            f"{payload['wager']} in {payload['round_stream']}",
            field=f"{field}.kind",
        )


register_stream_kind(
    StreamKind(
        name=FINDING_STREAM_KIND,
        description="What people did about one finding of one round: acknowledged with a note, "
        "then resolved by a correcting event or accepted with a reason.",
        accepts=frozenset(FINDING_REVIEW_TYPES),
        policy=finding_policy,
    )
)


# --- the projection ------------------------------------------------------------------------


def review_fields(events: Sequence[RecordedEvent]) -> dict[str, Any]:
    """Status, who and when of a finding's steps (the compliance stream's
    first event is the finding itself and is skipped)."""
    fields: dict[str, Any] = {
        "status": ReviewStatus.OPEN, "acknowledged_by": "", "acknowledged_at": None, "note": "",
        "closed_by": "", "closed_at": None, "resolution": "", "correcting_event": "",
    }  # fmt: skip
    for event in events:
        step = step_of(event.event_type)
        if step not in STEPS:
            continue
        fields["status"] = STEPS[step]
        payload = event.payload
        if step == "acknowledged":
            fields.update(acknowledged_by=payload["acknowledged_by"],
                          acknowledged_at=event.occurred_at,
                          note=payload.get("note", ""))  # fmt: skip
        else:
            fields.update(closed_by=payload[f"{step}_by"], closed_at=event.occurred_at)
        if step == "resolved":
            fields.update(
                resolution=payload.get("note", ""),
                correcting_event=correcting_label(payload["correcting_event"]),
            )
        elif step == "accepted":
            fields["resolution"] = payload["reason"]
    return fields


def _apply_reviews(batch: list[RecordedEvent]) -> None:
    grouped = streams_touched(batch, "finding")
    rounds = {e.stream_id: e.payload for e in
              read_streams(sorted({g[0].payload["round_stream"] for g in grouped.values()}))
              if e.version == 1}  # fmt: skip
    rows = []
    for stream_id, events in grouped.items():
        named = events[0].payload
        opened = rounds.get(named["round_stream"], {})
        rows.append(FindingReview(
            stream_id=stream_id, round_stream=named["round_stream"],
            table_id=opened.get("table_id", ""),
            gaming_day=datetime.date.fromisoformat(opened.get("gaming_day", "1970-01-01")),
            seat=named["seat"], wager=named["wager"], kind=named["kind"],
            computed_at_position=events[-1].position, **review_fields(events)))  # fmt: skip
    upsert(FindingReview, rows)


def _day_streams(day: datetime.date) -> list[str]:
    from tables import day_streams

    return day_streams.finding_review_streams(day)


FINDING_REVIEWS = register(
    Projection(
        name="tables.finding_reviews",
        description="What people did about each round finding: acknowledged, resolved, accepted.",
        event_types=frozenset(FINDING_REVIEW_TYPES),
        apply=_apply_reviews,
        clear=emptying(FindingReview),
        read_models=(ReadModel(FindingReview),),
        day_streams=_day_streams,
    )
)
