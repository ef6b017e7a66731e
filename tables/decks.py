"""Decks in the ledger: one stream per deck, ``deck:<deck_id>``, from receipt
at the table to removal, and the ``tables.decks`` projection (``Deck`` rows).

The life of a deck (§ 592.3, § 592.4, § 592.8(f)-(h); § 674a likewise):

1. ``deck.received`` at a table (first event; the table must exist);
2. ``deck.inspected`` by the dealer (§ 592.4(a));
3. ``deck.verified`` by the floorperson or a shift supervisor, never the
   person who inspected it (§ 592.4(a): a second pair of eyes);
4. ``deck.spread`` for the first player (§ 592.4(b)), optional: preinspected
   decks are exempt (§ 592.4(e));
5. ``deck.put_in_use`` once verified. One deck in use per table (§ 592.3(a)),
   or two with an automated shuffler (§ 592.3(b)), of different back colours;
6. ``deck.stub_counted`` while in use (§ 592.8(f)). A wrong count is a fact
   and is accepted; what it means is § 592.8(h);
7. ``deck.removed``: nothing may follow it.

A deck change is the old deck's ``deck.removed`` and the new deck's
``deck.put_in_use``. The deck-change interval (§ 592.3(c)) is checked by the
job in ``tables.compliance``, not here: a late change is a finding, not a
reason to refuse recording the change.

Who signs: ``received_by``, ``dealer`` and ``floorperson`` name users that
must exist and hold the role; a person appending for themselves must be the
one named (only the system and table devices record for someone else).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import connection

from audit import errors
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
from tables.models import Deck, DeckStatus, Shuffler, Table

DECK_STREAM_KIND = "deck"

RECEIVED = "deck.received"
INSPECTED = "deck.inspected"
VERIFIED = "deck.verified"
SPREAD = "deck.spread"
PUT_IN_USE = "deck.put_in_use"
STUB_COUNTED = "deck.stub_counted"
REMOVED = "deck.removed"
#: 10s removed from a Spanish batch (§ 581.4(b)): schema and check in ``tables.floor_duties``.
TENS_REMOVED = "deck.tens_removed"

DECK_EVENT_TYPES = (RECEIVED, INSPECTED, VERIFIED, SPREAD, PUT_IN_USE, STUB_COUNTED, REMOVED,
                    TENS_REMOVED)  # fmt: skip

USERNAME = {"type": "string", "minLength": 1, "maxLength": 150}
CARD_COUNT = {"type": "integer", "minimum": 0, "maximum": 104}

_SCHEMAS: dict[str, tuple[str, dict[str, Any]]] = {
    RECEIVED: (
        "A deck was received at a table (§ 592.4(a)).",
        object_schema(
            {
                "table_id": {"type": "string", "minLength": 1, "maxLength": 50},
                "back_colour": {"type": "string", "minLength": 1, "maxLength": 30},
                "received_by": USERNAME,
            }
        ),
    ),
    INSPECTED: (
        "The dealer inspected the deck for defects (§ 592.4(a)).",
        object_schema({"dealer": USERNAME}),
    ),
    VERIFIED: (
        "The floorperson verified the dealer's inspection (§ 592.4(a)).",
        object_schema({"floorperson": USERNAME}),
    ),
    SPREAD: (
        "The deck was spread face up for the first player (§ 592.4(b)).",
        object_schema({}),
    ),
    PUT_IN_USE: (
        "The deck was put in play at its table; the change interval starts (§ 592.3(c)).",
        object_schema({}),
    ),
    STUB_COUNTED: (
        "The dealer counted the stub (§ 592.8(f)); a wrong count is § 592.8(h).",
        object_schema({"count": CARD_COUNT, "expected": CARD_COUNT}),
    ),
    REMOVED: (
        "The deck was taken out of play for good.",
        object_schema({"reason": TEXT}),
    ),
}

for _name, (_description, _schema) in _SCHEMAS.items():
    register_event_type(EventType(name=_name, version=1, schema=_schema, description=_description))


# --- the policy -------------------------------------------------------------------


@dataclass
class DeckState:
    """A deck's stream folded: what the policy and the projection need."""

    deck_id: str
    table_id: str = ""
    back_colour: str = ""
    status: str = ""
    received_at: datetime | None = None
    inspected_by: str = ""
    verified_by: str = ""
    spread: bool = False
    in_use_since: datetime | None = None
    removed_at: datetime | None = None
    removed_reason: str = ""
    last_stub_count_at: datetime | None = None


def deck_id_of(stream_id: str) -> str:
    return stream_id.split(":", 1)[1]


def _section(table: Table | None, number: str) -> str:
    if table is not None:
        try:
            ruleset = table.ruleset
        except KeyError:
            ruleset = None
        # The numbers below are Criss-Cross's (592 / 674a); other games'
        # rules number them differently, so cite nothing rather than a wrong §.
        if ruleset is not None and hasattr(ruleset, "section_prefix"):
            return ruleset.section(number)
    return ""


def _refuse(message: str, *, index: int, field: str = "", section: str = "") -> None:
    where = f"events[{index}]" + (f".payload.{field}" if field else ".type")
    raise errors.RuleViolation(message, field=where, section=section)


def _holds_role(username: str, roles: Sequence[Role]) -> bool:
    from django.contrib.auth.models import User

    return User.objects.filter(
        username=username, is_active=True, groups__name__in=[r.value for r in roles]
    ).exists()


def _check_signer(
    actor: Actor | None, username: str, roles: Sequence[Role], *, index: int, field: str,
    section: str,
) -> None:  # fmt: skip
    if not _holds_role(username, roles):
        _refuse(
            f"{field} {username!r} is not an active user holding the role "
            + " or ".join(r.value for r in roles),
            index=index,
            field=field,
            section=section,
        )
    recording_for_others = actor is None or bool(
        actor.roles & {Role.SYSTEM.value, Role.TABLE_DEVICE.value}
    )
    if not recording_for_others and actor.username != username:
        _refuse(
            f"{actor.username} may sign only for themselves, not for {username!r}",
            index=index,
            field=field,
            section=section,
        )


def _other_decks_in_use(table_id: str, deck_stream: str) -> list[DeckState]:
    """The table's other decks in use now, from the ledger itself (not the
    projection, which may lag behind)."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT stream_id FROM ledger_event WHERE event_type = %s "
            "AND payload->>'table_id' = %s AND stream_id <> %s",
            [RECEIVED, table_id, deck_stream],
        )
        streams = [row[0] for row in cursor.fetchall()]
    states = fold_streams(read_streams(streams))
    return [s for s in states.values() if s.status == DeckStatus.IN_USE]


def deck_policy(
    stream_id: str, recorded: Sequence[RecordedEvent], new: Sequence[NewEvent], actor: Actor
) -> None:
    """Refuse, with the section it breaks, a deck event that is out of order,
    signed by the wrong person or puts one deck too many in play."""
    state = fold(recorded, deck_id=deck_id_of(stream_id))
    table = Table.objects.filter(table_id=state.table_id).first() if state.table_id else None
    for index, event in enumerate(new):
        kind = event.event_type
        payload = event.payload
        if kind == "ledger.correction":
            continue
        if state.status == DeckStatus.REMOVED:
            _refuse("the deck was removed: nothing may follow deck.removed", index=index)
        if kind == RECEIVED:
            if state.status:
                _refuse("the deck was already received", index=index)
            table = Table.objects.filter(table_id=payload["table_id"]).first()
            if table is None:
                _refuse(f"no table {payload['table_id']!r}", index=index, field="table_id")
            _check_signer(
                actor,
                payload["received_by"],
                (Role.DEALER, Role.FLOORPERSON, Role.SHIFT_SUPERVISOR),
                index=index,
                field="received_by",
                section=_section(table, "4(a)"),
            )
        elif not state.status:
            _refuse("a deck stream starts with deck.received", index=index)
        elif kind == INSPECTED:
            if state.status != DeckStatus.RECEIVED:
                _refuse("only a received deck is inspected", index=index,
                        section=_section(table, "4(a)"))  # fmt: skip
            _check_signer(actor, payload["dealer"], (Role.DEALER,), index=index, field="dealer",
                          section=_section(table, "4(a)"))  # fmt: skip
        elif kind == VERIFIED:
            section = _section(table, "4(a)")
            if state.status != DeckStatus.INSPECTED:
                _refuse("the floorperson verifies the dealer's inspection: inspect first",
                        index=index, section=section)  # fmt: skip
            if payload["floorperson"] == state.inspected_by:
                _refuse(
                    f"{state.inspected_by} inspected the deck and may not also verify it",
                    index=index,
                    field="floorperson",
                    section=section,
                )
            _check_signer(actor, payload["floorperson"],
                          (Role.FLOORPERSON, Role.SHIFT_SUPERVISOR), index=index,
                          field="floorperson", section=section)  # fmt: skip
        elif kind == SPREAD:
            if state.status != DeckStatus.VERIFIED or state.spread:
                _refuse("a deck is spread once, after verification and before play",
                        index=index, section=_section(table, "4(b)"))  # fmt: skip
        elif kind == PUT_IN_USE:
            if state.status != DeckStatus.VERIFIED:
                _refuse("only a verified deck not yet in play may be put in use",
                        index=index, section=_section(table, "4(a)"))  # fmt: skip
            _check_decks_in_play(state, table, index)
        elif kind == STUB_COUNTED and state.status != DeckStatus.IN_USE:
            _refuse("the stub is counted only while the deck is in use",
                    index=index, section=_section(table, "8(f)"))  # fmt: skip
        elif kind == TENS_REMOVED:
            from tables.floor_duties import check_tens_removed

            check_tens_removed(table, payload, actor, f"events[{index}].payload")
        state = apply(state, kind, payload, event.occurred_at)


def _check_decks_in_play(state: DeckState, table: Table | None, index: int) -> None:
    if connection.vendor == "postgresql":
        # Two decks put in use at one table at once are two streams, so the
        # (stream, version) constraint cannot catch them: serialise the
        # table's put-in-use checks until commit (SQLite writers are serial).
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(hashtext(%s))",
                           [f"deck-table:{state.table_id}"])  # fmt: skip
    in_use = _other_decks_in_use(state.table_id, f"{DECK_STREAM_KIND}:{state.deck_id}")
    if not in_use:
        return
    automated = table is not None and table.shuffler in (
        Shuffler.AUTOMATED,
        Shuffler.AUTOMATED_COUNTING,
    )
    if not automated:
        _refuse(
            f"deck {in_use[0].deck_id} is in use at {state.table_id}: remove it first "
            "(one deck per table without an automated shuffler)",
            index=index,
            section=_section(table, "3(a)"),
        )
    if len(in_use) >= 2:
        _refuse(
            f"two decks are already in use at {state.table_id}: remove one first",
            index=index,
            section=_section(table, "3(b)"),
        )
    if in_use[0].back_colour.casefold() == state.back_colour.casefold():
        _refuse(
            f"deck {in_use[0].deck_id} in use at {state.table_id} has the same back colour "
            f"({state.back_colour}); two decks must differ",
            index=index,
            section=_section(table, "3(b)(1)"),
        )


# --- folding ------------------------------------------------------------------------


def apply(
    state: DeckState, kind: str, payload: dict[str, Any], occurred_at: datetime | None
) -> DeckState:
    if kind == RECEIVED:
        state.table_id = payload["table_id"]
        state.back_colour = payload["back_colour"]
        state.status = DeckStatus.RECEIVED
        state.received_at = occurred_at
    elif kind == INSPECTED:
        state.inspected_by = payload["dealer"]
        state.status = DeckStatus.INSPECTED
    elif kind == VERIFIED:
        state.verified_by = payload["floorperson"]
        state.status = DeckStatus.VERIFIED
    elif kind == SPREAD:
        state.spread = True
    elif kind == PUT_IN_USE:
        state.status = DeckStatus.IN_USE
        state.in_use_since = occurred_at
    elif kind == STUB_COUNTED:
        state.last_stub_count_at = occurred_at
    elif kind == REMOVED:
        state.status = DeckStatus.REMOVED
        state.removed_at = occurred_at
        state.removed_reason = payload["reason"]
    return state


def fold(events: Sequence[RecordedEvent], *, deck_id: str) -> DeckState:
    state = DeckState(deck_id=deck_id)
    for event in events:
        state = apply(state, event.event_type, event.payload, event.occurred_at)
    return state


def fold_streams(events: Sequence[RecordedEvent]) -> dict[str, DeckState]:
    """Deck states by stream id, from events ordered by (stream, version)."""
    return {
        stream_id: fold(stream_events, deck_id=deck_id_of(stream_id))
        for stream_id, stream_events in _by_stream(events).items()
    }


register_stream_kind(
    StreamKind(
        name=DECK_STREAM_KIND,
        description="One deck of cards at one table: received, inspected, verified, spread, "
        "in use, stub counts, removed.",
        accepts=frozenset(DECK_EVENT_TYPES),
        policy=deck_policy,
        corrections=TABLE_CORRECTIONS,
    )
)


# --- the projection -------------------------------------------------------------------


def _apply_decks(batch: list[RecordedEvent]) -> None:
    rows = []
    for stream_id, stream_events in streams_touched(batch, "deck").items():
        state = fold(stream_events, deck_id=deck_id_of(stream_id))
        if not state.status:
            continue
        rows.append(
            Deck(
                stream_id=stream_id,
                deck_id=state.deck_id,
                table_id=state.table_id,
                status=state.status,
                back_colour=state.back_colour,
                received_at=state.received_at,
                inspected_by=state.inspected_by,
                verified_by=state.verified_by,
                in_use_since=state.in_use_since,
                removed_at=state.removed_at,
                removed_reason=state.removed_reason,
                computed_at_position=stream_events[-1].position,
            )
        )
    upsert(Deck, rows)


def _by_stream(events: Sequence[RecordedEvent]) -> dict[str, list[RecordedEvent]]:
    grouped: dict[str, list[RecordedEvent]] = {}
    for event in events:
        grouped.setdefault(event.stream_id, []).append(event)
    return grouped


DECKS = register(
    Projection(
        name="tables.decks",
        description="Every deck's life at its table: status, signers, in use since, removal.",
        event_types=frozenset(DECK_EVENT_TYPES),
        apply=_apply_decks,
        clear=emptying(Deck),
        # A deck has no gaming day: checked with the whole ledger only.
        read_models=(ReadModel(Deck, day_field=None),),
    )
)
