"""A poker hand recorded through the API on ``poker-hand:<id>``: an action the chapter
forbids is refused with a 4xx naming the field and citing the section, nothing of the
batch is written; the dealer's money events are accepted and the replay finds them."""

from __future__ import annotations

import dataclasses
import datetime
import random

import pytest

from audit.ledger import read_stream
from audit.models import Event, RejectedSubmission
from casino.roles import Role
from tables.poker_hands import to_poker_event
from tables.rules.cards import Card
from tables.rules.poker_room.events import (
    Acted,
    Action,
    CardDealt,
    HandOpened,
    Irregularity,
    IrregularityFound,
    RakeTaken,
)
from tables.rules.poker_room.record import Recorder
from tables.rules.poker_room.replay import FindingKind, replay_hand
from tests.rules.poker_room.table import holdem_deck
from tests.tables.helpers import payload_body

pytestmark = pytest.mark.django_db
URL = "/api/v1/streams/poker-hand:P1-1/events"


@pytest.fixture
def floor(role_users):
    from tables.models import DealingMethod, Table
    from tests.tables.test_table_day import make_floor

    floor = make_floor(role_users)
    Table.objects.create(table_id="P1", game="poker", ruleset_id="PA-553-HOLDEM-NL-1-2-BB",
                         min_wager_cents=100, max_wager_cents=20000,
                         dealing_method=DealingMethod.HAND)  # fmt: skip
    return floor


@pytest.fixture
def device(api_client, role_users, floor):
    """A table device at table P1, opened for gaming on the hand's day (§ 553.5)."""
    floor.open_table("table:P1:2026-11-24")
    api_client.force_authenticate(role_users[Role.TABLE_DEVICE])
    return api_client


def _hand() -> Recorder:
    opened = HandOpened(
        hand_id="P1-1", table_id="P1", gaming_day=datetime.date(2026, 11, 24),
        ruleset_id="PA-553-HOLDEM-NL-1-2-BB", seats=(1, 2, 3), players=("a", "b", "c"),
        stacks_cents=(5_000, 5_000, 5_000), button=3,
    )  # fmt: skip
    return Recorder(opened, holdem_deck(["AhAd", "KcKd", "QcQd"], "As 7h 2s 9c 3d"))


@pytest.mark.parametrize(
    ("bad", "section", "field"),
    [
        (Acted(seat=1, action=Action.CALL), "553.11(f)", "events[0].payload.seat"),
        (Acted(seat=3, action=Action.RAISE, to_cents=300), "553.18",
         "events[0].payload.amount_cents"),
        (Acted(seat=3, action=Action.CHECK), "553.1", "events[0].payload.action"),
        (IrregularityFound(kind=Irregularity.HOLE_CARD_EXPOSED, seat=1, cards=(Card.parse("Kc"),)),
         "553.16(n)", "events[0].payload.cards"),
    ],
)  # fmt: skip
def test_553_an_illegal_action_is_refused_citing_the_section(device, bad, section, field):
    hand = _hand()
    assert device.post(URL, payload_body(hand.events), format="json").status_code == 201
    response = device.post(URL, payload_body([bad], len(hand.events)), format="json")
    assert response.status_code == 400
    refused = response.json()
    assert (refused["error"], refused["section"], refused["field"]) == (
        "rule_violation", section, field)  # fmt: skip
    assert refused["message"].startswith(f"§ {section}: ")
    assert RejectedSubmission.objects.get(stream_id="poker-hand:P1-1").section == section
    assert Event.objects.filter(stream_id="poker-hand:P1-1").count() == len(hand.events)


def test_553_16_g_a_card_dealt_twice_is_refused_and_nothing_of_the_batch_is_written(device):
    hand = _hand()
    events = list(hand.events)
    events[-1] = dataclasses.replace(events[-1], card=Card.parse("Ah"))
    assert isinstance(events[-1], CardDealt)
    response = device.post(URL, payload_body(events), format="json")
    assert (response.status_code, response.json()["section"]) == (400, "553.16(g)")
    assert response.json()["field"] == f"events[{len(events) - 1}].payload.card"
    assert not Event.objects.filter(stream_id="poker-hand:P1-1").exists()


def test_553_15_an_over_rake_is_accepted_as_a_fact_and_found_by_the_replay(device):
    hand = _hand()
    hand.act(3, Action.CALL).act(1, Action.CALL).act(2, Action.CHECK)
    for _ in range(3):
        hand.act(1, Action.CHECK).act(2, Action.CHECK).act(3, Action.CHECK)
    events = hand.show_all().settled()
    events.insert(-2, RakeTaken(pot=0, amount_cents=100))
    assert device.post(URL, payload_body(events), format="json").status_code == 201
    stored = [to_poker_event(e.event_type, e.payload) for e in read_stream("poker-hand:P1-1")]
    assert stored == events
    (finding,) = replay_hand(stored).findings
    assert (finding.kind, finding.section) == (FindingKind.OVER_RAKED, "553.15(b)(1)")


def test_a_hand_is_recorded_on_its_own_stream(device):
    hand = _hand()
    response = device.post("/api/v1/streams/poker-hand:P1-2/events", payload_body(hand.events),
                           format="json")  # fmt: skip
    assert response.status_code == 400
    assert response.json()["field"] == "events[0].payload.hand_id"


def test_553_15_a_the_poker_room_s_revenue_is_the_rake_never_the_pots():
    from audit.ledger import Actor, NewEvent, append
    from tables.poker_hands import rake_by_table
    from tables.rules.poker_room.events import PotPushed
    from tables.rules.poker_room.rulesets import POKER_RULESETS
    from tables.rules.poker_room.simulate import random_hand

    rng = random.Random(5)
    raked = pushed = 0
    for number, (ruleset_id, rules) in enumerate(sorted(POKER_RULESETS.items()) * 5):
        table = f"P{number % 4 + 1}"
        events = random_hand(rules, rng, hand_id=f"{table}-{number}", table_id=table,
                             gaming_day=datetime.date(2026, 11, 24), ruleset_id=ruleset_id,
                             bad_beat_fund=None).settled()  # fmt: skip
        append(f"poker-hand:{table}-{number}", [NewEvent(e.TYPE, e.to_payload()) for e in events],
               expected_version=0, actor=Actor.system("test"))  # fmt: skip
        raked += sum(e.amount_cents for e in events if isinstance(e, RakeTaken))
        pushed += sum(e.amount_cents for e in events if isinstance(e, PotPushed))
    revenue = rake_by_table(datetime.date(2026, 11, 24))
    assert set(revenue) <= {"P1", "P2", "P3", "P4"}
    assert sum(revenue.values()) == raked > 0 and pushed > raked
    assert rake_by_table(datetime.date(2026, 11, 25)) == {}


@pytest.mark.parametrize(("open_it", "table_id", "message"), [
    (False, "P1", "§ 553.5: table P1 is not open on gaming day 2026-11-24"),
    (True, "P9", "§ 553.5: no table 'P9' is configured"),
])  # fmt: skip
def test_553_5_a_hand_is_dealt_only_at_a_configured_table_opened_for_gaming(
    api_client, role_users, floor, open_it, table_id, message
):
    if open_it:
        floor.open_table("table:P1:2026-11-24")
    api_client.force_authenticate(role_users[Role.TABLE_DEVICE])
    hand = _hand()
    events = [dataclasses.replace(hand.events[0], table_id=table_id), *hand.events[1:]]
    response = api_client.post(URL, payload_body(events), format="json")
    assert response.status_code == 400
    refused = response.json()
    assert (refused["section"], refused["field"]) == ("553.5", "events[0].payload.table_id")
    assert refused["message"].startswith(message)
    assert not Event.objects.filter(stream_id="poker-hand:P1-1").exists()
