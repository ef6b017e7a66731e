"""Compliance findings outside a round, as ledger events, and the job that
raises them.

Each finding is its own stream, named by what it is about:

- ``compliance:deck-change-due:<deck_id>:<in use since>`` — the deck's change
  falls due within the lead time (``DECK_CHANGE_LEAD_MINUTES``);
- ``compliance:deck-overdue:<deck_id>:<in use since>`` — the deck is still in
  play past its interval (§ 592.3(c): four hours dealt by hand, eight from a
  shoe);
- ``compliance:stub-count-missing:<deck_id>:<last count>`` — more rounds than
  the rule set allows since the stub was last counted (§ 592.8(f)), at a table
  without a shuffler that counts the cards.

The job appends each with ``expected_version=0``: a stream that exists is a
finding already raised, so running the job twice raises nothing new, and two
jobs racing collide on the (stream, version) constraint; the loser skips.
A floorperson or shift supervisor acknowledges a finding with
``compliance.acknowledged`` in the same stream.

``tables.compliance`` projects the streams into ``ComplianceFinding`` rows.
"""

from __future__ import annotations

import datetime
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import connection
from django.db.models import Max, Q

from audit import errors
from audit.ledger import (
    Actor,
    NewEvent,
    RecordedEvent,
    append,
    projections_deferred,
    read_streams,
    schedule_projections,
    stream_version,
)
from audit.projections import Projection, register, upsert
from audit.projections import run as run_projection
from audit.registry import (
    TEXT,
    EventType,
    StreamKind,
    object_schema,
    register_event_type,
    register_stream_kind,
)
from casino.models import current_gaming_day
from casino.roles import Role
from tables.models import (
    ComplianceFinding,
    Deck,
    DeckStatus,
    Round,
    Shuffler,
    Table,
    TableStatus,
)

logger = logging.getLogger(__name__)

COMPLIANCE_STREAM_KIND = "compliance"

DECK_CHANGE_DUE = "compliance.deck_change_due"
DECK_OVERDUE = "compliance.deck_overdue"
STUB_COUNT_MISSING = "compliance.stub_count_missing"
ACKNOWLEDGED = "compliance.acknowledged"

FINDING_TYPES = (DECK_CHANGE_DUE, DECK_OVERDUE, STUB_COUNT_MISSING)
COMPLIANCE_EVENT_TYPES = (*FINDING_TYPES, ACKNOWLEDGED)

_ID = {"type": "string", "minLength": 1, "maxLength": 100}
_MOMENT = {"type": "string", "format": "date-time"}
_DAY = {"type": "string", "format": "date"}
_SECTION = {"type": "string", "minLength": 1, "maxLength": 50}
_COUNT = {"type": "integer", "minimum": 0}

_SCHEMAS: dict[str, tuple[str, dict[str, Any]]] = {
    DECK_CHANGE_DUE: (
        "A deck's change falls due soon (§ 592.3(c)); a notice, not yet a breach.",
        object_schema(
            {
                "table_id": _ID,
                "deck_id": _ID,
                "due_at": _MOMENT,
                "lead_minutes": _COUNT,
                "section": _SECTION,
                "gaming_day": _DAY,
            }  # fmt: skip
        ),
    ),
    DECK_OVERDUE: (
        "A deck is still in play past its change interval (§ 592.3(c)).",
        object_schema(
            {
                "table_id": _ID,
                "deck_id": _ID,
                "due_at": _MOMENT,
                "minutes_over": _COUNT,
                "section": _SECTION,
                "gaming_day": _DAY,
            }  # fmt: skip
        ),
    ),
    STUB_COUNT_MISSING: (
        "More rounds than allowed were played without counting the stub (§ 592.8(f)).",
        object_schema(
            {
                "table_id": _ID,
                "deck_id": _ID,
                "rounds_without_count": _COUNT,
                "section": _SECTION,
                "gaming_day": _DAY,
            }  # fmt: skip
        ),
    ),
    ACKNOWLEDGED: (
        "A floorperson or shift supervisor acknowledged the finding.",
        object_schema(
            {
                "acknowledged_by": {"type": "string", "minLength": 1, "maxLength": 150},
                "note": {**TEXT, "minLength": 0},
            },  # fmt: skip
            required=["acknowledged_by"],
        ),
    ),
}

for _name, (_description, _schema) in _SCHEMAS.items():
    register_event_type(EventType(name=_name, version=1, schema=_schema, description=_description))

#: The stream id's kind segment for each finding type (stream keys allow no "_").
STREAM_SEGMENT = {
    DECK_CHANGE_DUE: "deck-change-due",
    DECK_OVERDUE: "deck-overdue",
    STUB_COUNT_MISSING: "stub-count-missing",
}


def compliance_policy(
    stream_id: str, recorded: Sequence[RecordedEvent], new: Sequence[NewEvent], actor: Actor
) -> None:
    """A finding stream holds one finding, of the type its id names, then at
    most one acknowledgement, signed by the person who appends it."""
    events = [e.event_type for e in recorded]
    for index, event in enumerate(new):
        kind = event.event_type
        if kind in FINDING_TYPES:
            if actor is None or Role.SYSTEM.value not in actor.roles:
                raise errors.Forbidden(
                    f"a finding is raised by the compliance job only, not by "
                    f"{getattr(actor, 'username', '') or 'anyone'}",
                    field=f"events[{index}].type",
                )
            if events:
                raise errors.RuleViolation(
                    "a finding stream holds one finding", field=f"events[{index}].type"
                )
        elif kind == ACKNOWLEDGED:
            if not events or events[0] not in FINDING_TYPES:
                raise errors.RuleViolation(
                    "there is no finding to acknowledge", field=f"events[{index}].type"
                )
            if ACKNOWLEDGED in events:
                raise errors.RuleViolation(
                    "the finding was already acknowledged", field=f"events[{index}].type"
                )
            signer = event.payload["acknowledged_by"]
            person = actor is not None and not (
                actor.roles & {Role.SYSTEM.value, Role.TABLE_DEVICE.value}
            )
            if person and actor.username != signer:
                raise errors.RuleViolation(
                    f"{actor.username} may acknowledge only in their own name, not {signer!r}",
                    field=f"events[{index}].payload.acknowledged_by",
                )
        events.append(kind)


register_stream_kind(
    StreamKind(
        name=COMPLIANCE_STREAM_KIND,
        description="One compliance finding outside a round (deck change due or overdue, "
        "stub count missing) and its acknowledgement.",
        accepts=frozenset(COMPLIANCE_EVENT_TYPES),
        policy=compliance_policy,
    )
)


# --- the job ------------------------------------------------------------------------


@dataclass(frozen=True)
class Raised:
    """A finding the job appended."""

    stream_id: str
    event_type: str
    table_id: str
    deck_id: str
    payload: dict[str, Any]


def stamp(moment: datetime.datetime) -> str:
    """A moment as a stream-key segment, in UTC to the second: ``20240501T140000Z``."""
    return moment.astimezone(datetime.UTC).strftime("%Y%m%dT%H%M%SZ")


def check_decks(now: datetime.datetime) -> list[Raised]:
    """Raise every deck finding due at ``now`` that is not raised yet.

    1. For each deck in use at an active table: the change falls due at
       ``in_use_since`` + the interval. Within the lead time before that, a
       ``deck_change_due`` notice; past it, ``deck_overdue`` with the minutes
       over and the section.
    2. At a table whose shuffler does not count the cards: more than
       ``stub_count_every_rounds`` rounds opened since the deck went in use or
       since the last stub count (a ``deck.stub_counted`` event or a round that
       counted the stub) → ``stub_count_missing``.
    3. Run the compliance projection.

    Returns what it raised; running it again at the same ``now`` raises nothing.
    """
    from tables.decks import DECKS
    from tables.projections import ROUNDS

    # The job reads the deck and round read models: bring them up to date first.
    run_projection(DECKS)
    run_projection(ROUNDS)
    lead = datetime.timedelta(minutes=settings.DECK_CHANGE_LEAD_MINUTES)
    gaming_day = current_gaming_day(now).isoformat()
    tables = {t.table_id: t for t in Table.objects.filter(status=TableStatus.ACTIVE)}
    decks = Deck.objects.filter(
        status=DeckStatus.IN_USE, table_id__in=list(tables), in_use_since__lte=now
    ).order_by("table_id", "in_use_since", "deck_id")
    candidates: list[tuple[str, str, Table, str, dict[str, Any]]] = []
    for deck in decks:
        table = tables[deck.table_id]
        ruleset = table.ruleset
        interval = table.deck_change_interval()
        if interval is None:
            # Only the Criss-Cross rule sets state the interval and the
            # sections cited here (§ 592/674a.3(c), .8(f)).
            continue
        due_at = deck.in_use_since + interval
        base = {"table_id": table.table_id, "deck_id": deck.deck_id, "gaming_day": gaming_day}
        since = stamp(deck.in_use_since)
        if now > due_at:
            minutes_over = int((now - due_at).total_seconds() // 60)
            candidates.append((DECK_OVERDUE, since, table, deck.deck_id, {
                **base, "due_at": due_at.isoformat(), "minutes_over": minutes_over,
                "section": ruleset.section("3(c)")}))  # fmt: skip
        elif now >= due_at - lead:
            candidates.append((DECK_CHANGE_DUE, since, table, deck.deck_id, {
                **base, "due_at": due_at.isoformat(),
                "lead_minutes": settings.DECK_CHANGE_LEAD_MINUTES,
                "section": ruleset.section("3(c)")}))  # fmt: skip
        if table.shuffler != Shuffler.AUTOMATED_COUNTING:
            counted_since, rounds = _rounds_without_count(deck, now)
            if rounds > ruleset.stub_count_every_rounds:
                candidates.append((STUB_COUNT_MISSING, stamp(counted_since), table,
                                   deck.deck_id, {**base, "rounds_without_count": rounds,
                                                  "section": ruleset.section("8(f)")}))  # fmt: skip
    raised = []
    actor = Actor.system("deck-check")
    with projections_deferred():
        for event_type, discriminator, _table, deck_id, payload in candidates:
            stream_id = f"compliance:{STREAM_SEGMENT[event_type]}:{deck_id}:{discriminator}"
            if _raise(stream_id, event_type, payload, now, actor):
                raised.append(Raised(stream_id, event_type, payload["table_id"], deck_id, payload))
    run_projection(COMPLIANCE)
    if raised and settings.LEDGER_PROJECT_ON_APPEND:
        schedule_projections()
    return raised


def _raise(
    stream_id: str, event_type: str, payload: dict[str, Any], now: datetime.datetime, actor: Actor
) -> bool:
    if stream_version(stream_id):
        return False  # raised on an earlier run
    try:
        append(stream_id, [NewEvent(event_type, payload, occurred_at=now)],
               expected_version=0, actor=actor)  # fmt: skip
    except errors.StaleVersion:
        return False  # another run raised it between our look and our append
    logger.info("compliance finding %s", stream_id)
    return True


def _rounds_without_count(deck: Deck, now: datetime.datetime) -> tuple[datetime.datetime, int]:
    """Since when the stub has gone uncounted (the last count, or the deck's
    going in use) and how many rounds the table has opened since then."""
    since = deck.in_use_since
    last_event = _last_stub_count_event(deck.stream_id)
    counted_round = Round.objects.filter(
        table_id=deck.table_id, stub_counted=True, opened_at__gte=deck.in_use_since,
        opened_at__lte=now,
    ).aggregate(last=Max("opened_at"))["last"]  # fmt: skip
    for moment in (last_event, counted_round):
        if moment is not None and moment <= now and moment > since:
            since = moment
    after = Q(opened_at__gt=since) if since != deck.in_use_since else Q(opened_at__gte=since)
    rounds = Round.objects.filter(after, table_id=deck.table_id, opened_at__lte=now).count()
    return since, rounds


def _last_stub_count_event(deck_stream: str) -> datetime.datetime | None:
    from tables.decks import STUB_COUNTED

    events = [e for e in read_streams([deck_stream]) if e.event_type == STUB_COUNTED]
    return events[-1].occurred_at if events else None


# --- the projection -------------------------------------------------------------------

_KIND = {
    DECK_CHANGE_DUE: "deck_change_due",
    DECK_OVERDUE: "deck_overdue",
    STUB_COUNT_MISSING: "stub_count_missing",
}


def describe(event_type: str, payload: dict[str, Any]) -> str:
    table, deck = payload["table_id"], payload["deck_id"]
    if event_type == DECK_CHANGE_DUE:
        return (
            f"deck {deck} at {table} must be changed by {payload['due_at']} "
            f"(§ {payload['section']})"
        )
    if event_type == DECK_OVERDUE:
        return (
            f"deck {deck} at {table} was due for a change at {payload['due_at']}: "
            f"{payload['minutes_over']} minutes over (§ {payload['section']})"
        )
    return (
        f"deck {deck} at {table}: {payload['rounds_without_count']} rounds without a stub "
        f"count (§ {payload['section']})"
    )


def _apply_compliance(batch: list[RecordedEvent]) -> None:
    touched = sorted({e.stream_id for e in batch if e.stream_id.startswith("compliance:")})
    if not touched:
        return
    upto = batch[-1].position
    grouped: dict[str, list[RecordedEvent]] = {}
    for event in read_streams(touched):
        if event.position <= upto:
            grouped.setdefault(event.stream_id, []).append(event)
    rows = []
    for stream_id, events in grouped.items():
        finding = events[0]
        if finding.event_type not in FINDING_TYPES:
            continue
        payload = finding.payload
        acknowledged = next((e for e in events if e.event_type == ACKNOWLEDGED), None)
        rows.append(
            ComplianceFinding(
                stream_id=stream_id,
                kind=_KIND[finding.event_type],
                table_id=payload["table_id"],
                deck_id=payload["deck_id"],
                gaming_day=datetime.date.fromisoformat(payload["gaming_day"]),
                section=payload["section"],
                detail=describe(finding.event_type, payload),
                raised_at=finding.occurred_at,
                acknowledged_by=acknowledged.payload["acknowledged_by"] if acknowledged else "",
                acknowledged_at=acknowledged.occurred_at if acknowledged else None,
                computed_at_position=events[-1].position,
            )
        )
    upsert(ComplianceFinding, rows)


def _clear() -> None:
    with connection.cursor() as cursor:
        cursor.execute(f"DELETE FROM {ComplianceFinding._meta.db_table}")


COMPLIANCE = register(
    Projection(
        name="tables.compliance",
        description="Compliance findings outside rounds (deck changes, stub counts) and "
        "their acknowledgements.",
        event_types=frozenset(COMPLIANCE_EVENT_TYPES),
        apply=_apply_compliance,
        clear=_clear,
    )
)
