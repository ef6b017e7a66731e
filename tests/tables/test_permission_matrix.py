"""Who may append which family of events, written out as a matrix that is
independent of the migration that grants it: every role against a
representative event type of every family. A change to the grants (data,
editable in the admin) that is not also made here fails this test.

The role and two-person rules that depend on who signs (an opener signed by a
dealer and a floorperson, a slip approved by a second person) are the
streams' policies and are tested with them; this matrix is the first gate.
"""

from __future__ import annotations

import pytest

from audit.ledger import Actor
from audit.validation import may_append
from casino.roles import Role
from tests.tables.test_table_day import OPENER, make_floor

pytestmark = pytest.mark.django_db

EVENT_TYPES = [
    "round.wager_placed",
    "round.closed",
    "table.opened",
    "table.buy_in",
    "table.closed",
    "slip.fill_requested",
    "slip.approved",
    "slip.voided",
    "deck.received",
    "deck.inspected",
    "deck.verified",
    "deck.stub_counted",
    "compliance.acknowledged",
    "count.entered",
    "count.verified",
    "finding.acknowledged",
    "finding.resolved",
    "finding.accepted",
    "compliance.resolved",
    "compliance.accepted",
]

# fmt: off
# Columns follow EVENT_TYPES: round.{wager_placed, closed}; table.{opened, buy_in, closed}
# and slip.{fill_requested, approved, voided}; deck.{received, inspected, verified,
# stub_counted}; compliance.acknowledged; count.{entered, verified}; a finding's steps:
# finding.{acknowledged, resolved, accepted}, compliance.{resolved, accepted}.
# 1 = may append, 0 = refused (403).
#                         round  table    slip     deck        compl. count  finding  compl.
EXPECTED = {
    Role.DEALER:           [1, 1,  0, 1, 0, 0, 0, 0,  0, 1, 0, 1,  0,  0, 0,  0, 0, 0,  0, 0],
    Role.TABLE_DEVICE:     [1, 1,  0, 1, 0, 0, 0, 0,  0, 0, 0, 1,  0,  0, 0,  0, 0, 0,  0, 0],
    Role.FLOORPERSON:      [1, 1,  1, 1, 1, 1, 1, 1,  1, 1, 1, 1,  1,  0, 0,  1, 1, 0,  1, 0],
    Role.SHIFT_SUPERVISOR: [1, 1,  1, 1, 1, 1, 1, 1,  1, 1, 1, 1,  1,  1, 1,  1, 1, 1,  1, 1],
    Role.CAGE_CASHIER:     [0, 0,  0, 0, 0, 1, 1, 0,  0, 0, 0, 0,  0,  0, 0,  0, 0, 0,  0, 0],
    Role.FINANCE:          [0, 0,  0, 0, 0, 0, 0, 0,  0, 0, 0, 0,  0,  1, 1,  0, 0, 0,  0, 0],
    Role.REGULATOR:        [0, 0,  0, 0, 0, 0, 0, 0,  0, 0, 0, 0,  0,  0, 0,  0, 0, 0,  0, 0],
    Role.ADMINISTRATOR:    [0, 0,  0, 0, 0, 0, 0, 0,  0, 0, 0, 0,  0,  0, 0,  0, 0, 0,  0, 0],
    Role.SYSTEM:           [1, 1,  1, 1, 1, 1, 1, 1,  1, 1, 1, 1,  1,  1, 1,  1, 1, 1,  1, 1],
    None:                  [0, 0,  0, 0, 0, 0, 0, 0,  0, 0, 0, 0,  0,  0, 0,  0, 0, 0,  0, 0],
}
# fmt: on


def test_the_matrix_names_every_role_and_an_account_without_one():
    assert set(EXPECTED) == {*Role, None}
    assert all(len(row) == len(EVENT_TYPES) for row in EXPECTED.values())


@pytest.mark.parametrize("role", list(EXPECTED), ids=lambda role: str(role or "no role"))
def test_each_role_may_append_exactly_the_event_types_of_the_matrix(role):
    actor = Actor(username="someone", roles=frozenset({role.value} if role else set()))
    granted = [int(may_append(actor, event_type)) for event_type in EVENT_TYPES]
    differences = {
        event_type: ("granted" if got else "refused")
        for event_type, got, expected in zip(EVENT_TYPES, granted, EXPECTED[role], strict=True)
        if got != expected
    }
    assert not differences, f"{role or 'no role'}: unexpected {differences}"


#: The dice's stream (§ 585.3, § 593.3): the dealer inspects, the pit records the rest.
DICE_TYPES = ["dice.received", "dice.inspected", "dice.placed_in_shaker", "dice.removed"]
DICE_EXPECTED = {Role.DEALER: [0, 1, 0, 0], Role.FLOORPERSON: [1, 1, 1, 1],
                 Role.SHIFT_SUPERVISOR: [1, 1, 1, 1], Role.SYSTEM: [1, 1, 1, 1]}  # fmt: skip


@pytest.mark.parametrize("role", list(EXPECTED), ids=lambda role: str(role or "no role"))
def test_each_role_may_append_exactly_the_dice_events_of_the_matrix(role):
    actor = Actor(username="someone", roles=frozenset({role.value} if role else set()))
    granted = [int(may_append(actor, event_type)) for event_type in DICE_TYPES]
    assert granted == DICE_EXPECTED.get(role, [0, 0, 0, 0])


#: The blackjack chapters' floor duties (issue 19): the reader's inspection, malfunction and
#: repair, the floorperson's assignment, the 10s removed from a Spanish batch; the pit only.
FLOOR_DUTY_TYPES = ["table.reader_inspected", "table.reader_malfunctioned",
                    "table.reader_repaired", "table.floorperson_assigned", "deck.tens_removed"]
FLOOR_DUTY_EXPECTED = {Role.FLOORPERSON: [1, 1, 1, 1, 1], Role.SHIFT_SUPERVISOR: [1, 1, 1, 1, 1],
                       Role.SYSTEM: [1, 1, 1, 1, 1]}  # fmt: skip


@pytest.mark.parametrize("role", list(EXPECTED), ids=lambda role: str(role or "no role"))
def test_each_role_may_append_exactly_the_floor_duty_events_of_the_matrix(role):
    actor = Actor(username="someone", roles=frozenset({role.value} if role else set()))
    granted = [int(may_append(actor, event_type)) for event_type in FLOOR_DUTY_TYPES]
    assert granted == FLOOR_DUTY_EXPECTED.get(role, [0, 0, 0, 0, 0])


def test_the_representative_event_types_are_registered():
    from audit.registry import REGISTRY

    assert not [name for name in [*EVENT_TYPES, *DICE_TYPES, *FLOOR_DUTY_TYPES]
                if name not in REGISTRY.event_types]  # fmt: skip


# --- through the API ---------------------------------------------------------------------------

OPENING = ("table.opened", {"opener": OPENER, "dealer": "dealer", "floorperson": "floorperson"})
BUY_IN = ("table.buy_in", {"cash_cents": 2500, "chips": {"500": 5}})
FILL = (
    "slip.fill_requested",
    {"table_id": "T1", "gaming_day": "2024-05-01", "amounts": {"2500": 4},
     "requested_by": "cage_cashier"},
)  # fmt: skip


@pytest.fixture
def floor(role_users):
    return make_floor(role_users)


@pytest.mark.parametrize(
    "role",
    [
        Role.DEALER,
        Role.TABLE_DEVICE,
        Role.CAGE_CASHIER,
        Role.FINANCE,
        Role.REGULATOR,
        Role.ADMINISTRATOR,
        None,
    ],  # fmt: skip
)
def test_only_the_pit_and_jobs_open_a_table(floor, role):
    response = floor.post(role, "table:T1:2024-05-01", [OPENING])
    assert response.status_code == 403
    assert response.json()["error"] == "forbidden"


def test_a_floorperson_opens_the_table_and_a_device_and_a_dealer_record_buy_ins(floor):
    assert floor.post(Role.FLOORPERSON, "table:T1:2024-05-01", [OPENING]).status_code == 201
    floor.countersign("table:T1:2024-05-01", 1)
    assert floor.post(Role.TABLE_DEVICE, "table:T1:2024-05-01", [BUY_IN], 2).status_code == 201
    assert floor.post(Role.DEALER, "table:T1:2024-05-01", [BUY_IN], 3).status_code == 201
    response = floor.post(Role.REGULATOR, "table:T1:2024-05-01", [BUY_IN], 4)
    assert response.status_code == 403
    assert response.json()["field"] == "events[0].type"


def test_a_cage_cashier_issues_a_fill_but_a_dealer_may_not(floor):
    assert floor.post(Role.FLOORPERSON, "table:T1:2024-05-01", [OPENING]).status_code == 201
    floor.countersign("table:T1:2024-05-01", 1)
    assert floor.post(Role.DEALER, "slip:2024-000001", [FILL]).status_code == 403
    assert floor.post(Role.FINANCE, "slip:2024-000001", [FILL]).status_code == 403
    assert floor.post(Role.CAGE_CASHIER, "slip:2024-000001", [FILL]).status_code == 201


def test_an_anonymous_client_is_refused_before_anything_else(floor, api_client):
    response = api_client.post("/api/v1/streams/table:T1:2024-05-01/events",
                               {"expected_version": 0, "events": [
                                   {"type": OPENING[0], "payload": OPENING[1]}]},
                               format="json")  # fmt: skip
    assert response.status_code == 401
