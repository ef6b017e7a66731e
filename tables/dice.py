"""Dice in the ledger: one stream per set of dice, ``dice:<dice_id>``, from
receipt to removal, and the ``tables.dice`` projection (``DiceSet`` rows).
Decks' counterpart (``tables.decks``) for the games thrown with dice.

The life of a set (§ 585.3(a)-(d), § 593.3(a)-(d)):

1. ``dice.received`` for a table whose game throws dice, as many as its layout
   throws (two for Props & Hops, § 585.3(a); ten for High Roll Dice, § 593.3(a));
2. ``dice.inspected``;
3. ``dice.placed_in_shaker`` by the floorperson in the presence of the dealer
   (§ 585.3(d)); one set in the shaker at a table (§ 585.3(d), § 593.3(d): "a
   shaker and two [ten] dice shall be presented"). The 24 hours of § 585.3(b)(1)
   and § 593.3(b)(1) start here;
4. ``dice.removed``, with ``cancelled`` when the dice are cancelled rather than
   returned to storage: nothing may follow it.

Both chapters send receipt, storage, inspection and removal to § 603a.12-13,
which is not in our sources: who inspects and how dice are cancelled are read
here as the deck's are (a dealer, floorperson or supervisor inspects; the
floorperson places), and no event cites § 603a. Dice left on a table past 24
hours are found by the compliance job (``tables.compliance.check_decks``), not
refused here: a late removal is a finding, never a reason to refuse recording it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import connection

from audit.ledger import Actor, NewEvent, RecordedEvent, read_streams, streams_touched
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
from tables.corrections import TABLE_CORRECTIONS
from tables.decks import USERNAME, _check_signer, _holds_role, _refuse
from tables.models import DiceSet, DiceStatus, Table

DICE_STREAM_KIND = "dice"

RECEIVED = "dice.received"
INSPECTED = "dice.inspected"
PLACED_IN_SHAKER = "dice.placed_in_shaker"
REMOVED = "dice.removed"

DICE_EVENT_TYPES = (RECEIVED, INSPECTED, PLACED_IN_SHAKER, REMOVED)

_SCHEMAS: dict[str, tuple[str, dict[str, Any]]] = {
    RECEIVED: (
        "A set of dice was received for a table (§ 585.3(a), § 593.3(a); § 603a.13).",
        object_schema(
            {
                "table_id": {"type": "string", "minLength": 1, "maxLength": 50},
                "count": {"type": "integer", "minimum": 1, "maximum": 20},
                "received_by": USERNAME,
            }
        ),
    ),
    INSPECTED: (
        "The dice were inspected (§ 603a.13, not in our sources).",
        object_schema({"inspected_by": USERNAME}),
    ),
    PLACED_IN_SHAKER: (
        "The floorperson placed the dice in the shaker in the presence of the dealer "
        "(§ 585.3(d)); their 24 hours on the table start (§ 585.3(b)(1), § 593.3(b)(1)).",
        object_schema({"floorperson": USERNAME, "dealer": USERNAME}),
    ),
    REMOVED: (
        "The dice were taken off the table for good; cancelled, or not.",
        object_schema({"reason": TEXT, "cancelled": {"type": "boolean"}}),
    ),
}

for _name, (_description, _schema) in _SCHEMAS.items():
    register_event_type(EventType(name=_name, version=1, schema=_schema, description=_description))


@dataclass
class DiceState:
    dice_id: str
    table_id: str = ""
    count: int = 0
    status: str = ""
    received_at: datetime | None = None
    inspected_by: str = ""
    placed_by: str = ""
    in_shaker_since: datetime | None = None
    removed_at: datetime | None = None
    removed_reason: str = ""
    cancelled: bool = False


def dice_id_of(stream_id: str) -> str:
    return stream_id.split(":", 1)[1]


def _section(table: Table | None, number: str) -> str:
    return table.ruleset.section(number) if table is not None else ""


_SUPERVISING = (Role.FLOORPERSON, Role.SHIFT_SUPERVISOR)


def dice_policy(
    stream_id: str, recorded: Sequence[RecordedEvent], new: Sequence[NewEvent], actor: Actor
) -> None:
    """Refuse, with the section it breaks, a dice event out of order, for a
    table that throws no dice or not this many, signed by the wrong person, or
    putting a second set in the table's shaker."""
    state = fold(recorded, dice_id=dice_id_of(stream_id))
    table = Table.objects.filter(table_id=state.table_id).first() if state.table_id else None
    for index, event in enumerate(new):
        kind, payload = event.event_type, event.payload
        if kind == "ledger.correction":
            continue
        if state.status == DiceStatus.REMOVED:
            _refuse("the dice were removed: nothing may follow dice.removed", index=index)
        if kind == RECEIVED:
            if state.status:
                _refuse("the dice were already received", index=index)
            table = Table.objects.filter(table_id=payload["table_id"]).first()
            if table is None:
                _refuse(f"no table {payload['table_id']!r}", index=index, field="table_id")
            wanted = table.dice_count()
            if not wanted:
                _refuse(f"{table.table_id} plays {table.game}, which throws no dice",
                        index=index, field="table_id")  # fmt: skip
            if payload["count"] != wanted:
                _refuse(f"{table.game} is played with {wanted} dice, not {payload['count']}",
                        index=index, field="count", section=_section(table, "3(a)"))  # fmt: skip
            _check_signer(actor, payload["received_by"], (Role.DEALER, *_SUPERVISING),
                          index=index, field="received_by", section="")  # fmt: skip
        elif not state.status:
            _refuse("a dice stream starts with dice.received", index=index)
        elif kind == INSPECTED:
            if state.status != DiceStatus.RECEIVED:
                _refuse("only received dice not yet inspected are inspected", index=index)
            _check_signer(actor, payload["inspected_by"], (Role.DEALER, *_SUPERVISING),
                          index=index, field="inspected_by", section="")  # fmt: skip
        elif kind == PLACED_IN_SHAKER:
            section = _section(table, "3(d)")
            if state.status != DiceStatus.INSPECTED:
                _refuse("only inspected dice not yet in use are placed in the shaker",
                        index=index, section=section)  # fmt: skip
            _check_signer(actor, payload["floorperson"], _SUPERVISING, index=index,
                          field="floorperson", section=section)  # fmt: skip
            # The floorperson records the dealer's presence: the dealer's role
            # is checked, not who appends.
            if not _holds_role(payload["dealer"], (Role.DEALER,)):
                _refuse(f"dealer {payload['dealer']!r} is not an active user holding the role "
                        "dealer", index=index, field="dealer", section=section)  # fmt: skip
            _check_one_set(state, table, index)
        state = apply(state, kind, payload, event.occurred_at)


def _check_one_set(state: DiceState, table: Table | None, index: int) -> None:
    if connection.vendor == "postgresql":
        # Two sets placed at once are two streams: serialise the table's
        # placements until commit, as decks do.
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(hashtext(%s))",
                           [f"dice-table:{state.table_id}"])  # fmt: skip
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT stream_id FROM ledger_event WHERE event_type = %s "
            "AND payload->>'table_id' = %s AND stream_id <> %s",
            [RECEIVED, state.table_id, f"{DICE_STREAM_KIND}:{state.dice_id}"],
        )
        streams = [row[0] for row in cursor.fetchall()]
    in_shaker = [s for s in fold_streams(read_streams(streams)).values()
                 if s.status == DiceStatus.IN_SHAKER]  # fmt: skip
    if in_shaker:
        _refuse(
            f"dice {in_shaker[0].dice_id} are in the shaker at {state.table_id}: remove them "
            "first (one shaker and one set of dice per table)",
            index=index,
            section=_section(table, "3(d)"),
        )


def apply(
    state: DiceState, kind: str, payload: dict[str, Any], occurred_at: datetime | None
) -> DiceState:
    if kind == RECEIVED:
        state.table_id, state.count = payload["table_id"], payload["count"]
        state.status, state.received_at = DiceStatus.RECEIVED, occurred_at
    elif kind == INSPECTED:
        state.status, state.inspected_by = DiceStatus.INSPECTED, payload["inspected_by"]
    elif kind == PLACED_IN_SHAKER:
        state.status, state.placed_by = DiceStatus.IN_SHAKER, payload["floorperson"]
        state.in_shaker_since = occurred_at
    elif kind == REMOVED:
        state.status, state.removed_at = DiceStatus.REMOVED, occurred_at
        state.removed_reason, state.cancelled = payload["reason"], payload["cancelled"]
    return state


def fold(events: Sequence[RecordedEvent], *, dice_id: str) -> DiceState:
    state = DiceState(dice_id=dice_id)
    for event in events:
        state = apply(state, event.event_type, event.payload, event.occurred_at)
    return state


def fold_streams(events: Sequence[RecordedEvent]) -> dict[str, DiceState]:
    grouped: dict[str, list[RecordedEvent]] = {}
    for event in events:
        grouped.setdefault(event.stream_id, []).append(event)
    return {sid: fold(evs, dice_id=dice_id_of(sid)) for sid, evs in grouped.items()}


register_stream_kind(
    StreamKind(
        name=DICE_STREAM_KIND,
        description="One set of dice at one table: received, inspected, placed in the "
        "shaker, removed or cancelled.",
        accepts=frozenset(DICE_EVENT_TYPES),
        policy=dice_policy,
        corrections=TABLE_CORRECTIONS,
    )
)


def _apply_dice(batch: list[RecordedEvent]) -> None:
    rows = []
    for stream_id, events in streams_touched(batch, "dice").items():
        state = fold(events, dice_id=dice_id_of(stream_id))
        if not state.status:
            continue
        last = events[-1].position
        rows.append(
            DiceSet(
                stream_id=stream_id,
                dice_id=state.dice_id,
                table_id=state.table_id,
                status=state.status,
                count=state.count,
                received_at=state.received_at,
                inspected_by=state.inspected_by,
                placed_by=state.placed_by,
                in_shaker_since=state.in_shaker_since,
                removed_at=state.removed_at,
                removed_reason=state.removed_reason,
                cancelled=state.cancelled,
                computed_at_position=last,
            )  # fmt: skip
        )
    upsert(DiceSet, rows)


DICE = register(
    Projection(
        name="tables.dice",
        description="Every set of dice's life at its table: status, signers, in the shaker "
        "since, removal.",
        event_types=frozenset(DICE_EVENT_TYPES),
        apply=_apply_dice,
        clear=emptying(DiceSet),
        read_models=(ReadModel(DiceSet, day_field=None),),
    )
)
