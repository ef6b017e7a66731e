"""The close's one read builds each recurring payload once (``read_part``'s
cache of decoded, canonical and built events): the rounds it replays come out
as each replayed apart from its own stored events, the events.jsonl lines are
``event_line``'s, and a version-1 payload is lifted by its upcaster each time
it is met (the upcaster may change the payload it is given)."""

from __future__ import annotations

import datetime

import orjson
import pytest

from audit.exports import event_line
from audit.storage import EventFacts
from operations.day_read import DayTally, read_part
from tables.rules.events import CardDealt, Recipient
from tests.rules.conftest import cc_round

pytestmark = pytest.mark.django_db  # the registry's upcasters are the apps'

AT = "2024-05-01T15:00:00.000000Z"


def _rows(stream_id: str, first_position: int, old_cards: bool) -> list[tuple]:
    """A Criss-Cross round as ``member_rows`` sends it; with ``old_cards``, its
    player cards stored as version 1 wrote them (``hole``, not ``spot``)."""
    events = cc_round(community="Kc 9c 7s 4d 3d", holes={1: "Ah 2d", 2: "Qh Qd"})
    rows = []
    for version, event in enumerate(events, start=1):
        payload, schema = event.to_payload(), 2
        if old_cards and isinstance(event, CardDealt) and event.recipient is Recipient.PLAYER:
            payload = {"card": payload["card"], "recipient": "PLAYER", "seat": event.seat,
                       "hole": int(event.spot), "position": None}  # fmt: skip
            schema = 1
        rows.append((first_position + version, stream_id, version, event.TYPE, schema,
                     orjson.dumps(payload).decode(), '{"actor": "dealer"}', AT, AT,
                     "0" * 64, "f" * 64))  # fmt: skip
    return rows


def _apart(rows: list[tuple]) -> DayTally:
    """The round replayed from its own stored events, each payload decoded and
    lifted on its own (``verify_round`` building every event)."""
    from audit.registry import REGISTRY

    tally = DayTally()
    facts = []
    for position, stream_id, version, event_type, schema, payload, *_ in rows:
        schema, decoded = REGISTRY.upcast(event_type, schema, orjson.loads(payload))
        facts.append(EventFacts(position, stream_id, version, event_type, schema, decoded,
                                datetime.datetime.fromisoformat(AT)))  # fmt: skip
    tally.add(rows[0][1], facts)
    return tally


def test_recurring_payloads_are_built_once_and_every_round_replays_as_it_does_apart():
    first = _rows("round:T1-20240501-00001", 0, old_cards=False)
    second = _rows("round:T1-20240501-00002", 100, old_cards=True)
    third = _rows("round:T1-20240501-00003", 200, old_cards=True)
    rows = first + second + third
    members = {r[0][1]: (1, len(r), r[0][0], r[-1][0]) for r in (first, second, third)}
    lines: list[bytes] = []
    _, tally = read_part(members, set(members), rows, lines.append)
    expected = DayTally()
    for one in (first, second, third):
        expected.merge(_apart(one))
    assert tally.rounds == 3 and not tally.refused
    assert tally.payload() == expected.payload()
    assert lines == [event_line(row) for row in rows]
    # The same cards, stored in either version, are the same events.
    assert _apart(second).payload() == _apart(first).payload()
