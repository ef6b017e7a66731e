"""Poker hands in the ledger: the poker room's events registered with their schemas, and
the ``poker-hand`` stream kind whose policy folds each new event through the hand machine.

A hand is recorded on ``poker-hand:<hand_id>``, not on a ``round`` stream: the
round kind's policy, the rounds service and its projection settle wagers the
house pays or collects (:mod:`tables.rules.engine`), where in the poker room
the money moves between players through pots and the house's revenue is the
rake (§ 553.15). The events, schemas, refusals and replay follow the same
conventions (:mod:`tables.rules.poker_room.events`, ``.replay``).

A player's action the chapter forbids (out of turn, a raise below the minimum,
a card dealt twice) is refused with its section; the dealer's money events are
facts, always accepted, and the replay turns wrong ones into findings.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from typing import Any

from django.db import connection

from audit import errors
from audit.registry import EventType, StreamKind, register_event_type, register_stream_kind
from tables.corrections import TABLE_CORRECTIONS
from tables.round_events import engine_check, schema_of
from tables.rules.engine import RuleViolation
from tables.rules.events import Event
from tables.rules.poker_room.events import POKER_EVENT_TYPES, HandOpened
from tables.rules.poker_room.replay import apply, open_from

POKER_HAND_STREAM_KIND = "poker-hand"


def to_poker_event(event_type: str, payload: dict[str, Any]) -> Event:
    return POKER_EVENT_TYPES[event_type].from_payload(payload)


def poker_hand_policy(stream_id: str, recorded: Any, new: Sequence[Any], actor: Any) -> None:
    """Refuse, citing the section, an event the chapter forbids given the hand so far.

    A hand is a few dozen events: the policy folds them all rather than keep a cache.
    """
    events = [to_poker_event(e.event_type, e.payload) for e in recorded if e.event_type in
              POKER_EVENT_TYPES]  # fmt: skip
    first_new = len(events)
    events += [to_poker_event(e.event_type, e.payload) for e in new]
    if not events or not isinstance(events[0], HandOpened):
        raise errors.RuleViolation(
            "§ 553.7(a): a hand's stream starts with poker.hand_opened", field="events[0].type",
            section="553.7(a)",
        )  # fmt: skip
    key = stream_id.partition(":")[2]
    if first_new == 0 and events[0].hand_id != key:
        raise errors.RuleViolation(
            f"events[0].payload.hand_id: {events[0].hand_id!r} differs from the stream's hand "
            f"{key!r}; a hand is recorded on poker-hand:<hand_id>",
            field="events[0].payload.hand_id",
        )
    index = 0
    try:
        state = open_from(events[0])
        for index in range(1, len(events)):
            if isinstance(events[index], HandOpened):
                raise RuleViolation("553.7(a)", "the hand is already open", "type")
            state = apply(state, events[index])
    except RuleViolation as violation:
        at = max(index - first_new, 0)
        raise errors.RuleViolation(
            f"§ {violation.section}: {violation.reason}",
            field=f"events[{at}].payload" + (f".{violation.field}" if violation.field else ""),
            section=violation.section,
        ) from None


def rake_by_table(day: datetime.date) -> dict[str, int]:
    """The poker room's revenue of ``day`` by table: the rake the dealers took (§ 553.15(a)).

    Never the pots: they are the players' money moving between players.
    """
    sql = (
        "SELECT o.payload ->> 'table_id', SUM((r.payload ->> 'amount_cents')::bigint) "
        "FROM ledger_event r JOIN ledger_event o ON o.stream_id = r.stream_id AND o.version = 1 "
        "WHERE r.event_type = 'poker.rake_taken' AND o.event_type = 'poker.hand_opened' "
        "AND o.stream_id LIKE 'poker-hand:%%' AND o.payload ->> 'gaming_day' = %s "
        "GROUP BY 1 ORDER BY 1"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [day.isoformat()])
        return {table_id: int(total) for table_id, total in cursor.fetchall()}


for _cls in POKER_EVENT_TYPES.values():
    register_event_type(
        EventType(
            name=_cls.TYPE,
            version=_cls.SCHEMA_VERSION,
            description=(_cls.__doc__ or _cls.TYPE).strip().splitlines()[0],
            schema=schema_of(_cls),
            check=engine_check(_cls),
        )
    )

register_stream_kind(
    StreamKind(
        name=POKER_HAND_STREAM_KIND,
        description="One hand of nonbanked poker (§ 553): seats and stakes, forced wagers, "
        "cards, actions, the showdown, and the pots, rake and Bad Beat contribution the "
        "dealer took and pushed.",
        accepts=frozenset({"poker.*"}),
        policy=poker_hand_policy,
        corrections=TABLE_CORRECTIONS,
    )
)
