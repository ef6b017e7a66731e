"""Buttons that append events: approve a fill, verify a deck inspection,
acknowledge a finding. The ledger checks the role; the streams' policies the
two-person rules; refusals come back as messages."""

from __future__ import annotations

import pytest
from django.contrib.messages import get_messages

from audit.models import Event
from casino.roles import Role
from tables.models import Deck, Slip
from tests.tables.test_slips import SLIP, fill
from tests.tables.test_table_day import make_floor

pytestmark = pytest.mark.django_db
BACK = "/admin/floor/T1/2024-05-01/"


@pytest.fixture
def floor(role_users):
    floor = make_floor(role_users)
    floor.open_table()
    for user in role_users.values():
        user.is_staff = True
        user.save()
    return floor


def _press(client, user, action: str, stream_id: str, **data):
    client.force_login(user)
    response = client.post(f"/admin/act/{action}/{stream_id}", {"next": BACK, **data})
    assert response.status_code == 302 and response.url == BACK
    return [str(m) for m in get_messages(response.wsgi_request)]


def test_a_floorperson_approves_a_requested_fill_with_one_button(client, floor, role_users):
    assert floor.post(Role.CAGE_CASHIER, SLIP, [fill()]).status_code == 201
    messages = _press(client, role_users[Role.FLOORPERSON], "approve-slip", SLIP)
    assert messages == ["2024-000123 approved by floorperson."]
    slip = Slip.objects.get(stream_id=SLIP)
    assert (slip.status, slip.approved_by) == ("approved", "floorperson")
    assert Event.objects.get(stream_id=SLIP, version=2).metadata["source"] == "admin"


def test_the_requester_cannot_approve_their_own_fill(client, floor, role_users):
    assert floor.post(Role.FLOORPERSON, SLIP, [fill(requested_by="floorperson")]).status_code == 201
    messages = _press(client, role_users[Role.FLOORPERSON], "approve-slip", SLIP)
    assert messages[0].startswith("Not approved: ")
    assert "may not" in messages[0]
    assert not Event.objects.filter(stream_id=SLIP, version=2).exists()


def test_a_regulator_cannot_approve_anything(client, floor, role_users):
    assert floor.post(Role.CAGE_CASHIER, SLIP, [fill()]).status_code == 201
    messages = _press(client, role_users[Role.REGULATOR], "approve-slip", SLIP)
    assert messages[0].startswith("Not approved: role(s) ['regulator'] may not append")


def test_a_floorperson_verifies_a_deck_the_dealer_inspected(client, floor, role_users):
    deck = "deck:T1-RED"
    events = [("deck.received", {"table_id": "T1", "back_colour": "red",
                                 "received_by": "floorperson"}),
              ("deck.inspected", {"dealer": "dealer"})]  # fmt: skip
    assert floor.post(Role.SYSTEM, deck, events).status_code == 201
    assert _press(client, role_users[Role.FLOORPERSON], "verify-deck", deck) == [
        "T1-RED verified by floorperson."
    ]
    assert Deck.objects.get(stream_id=deck).verified_by == "floorperson"


def test_buttons_only_answer_post_from_staff(client, floor, role_users):
    assert client.get(f"/admin/act/approve-slip/{SLIP}").status_code == 405
    response = client.post(f"/admin/act/approve-slip/{SLIP}", {"next": BACK})
    assert response.status_code == 302 and "/admin/login/" in response.url


def test_an_unknown_action_or_a_foreign_stream_is_refused(client, floor, role_users):
    assert _press(client, role_users[Role.FLOORPERSON], "approve-slip", "deck:T1-RED")[
        0
    ].startswith("Unknown action")
    assert _press(client, role_users[Role.FLOORPERSON], "delete-everything", SLIP)[0].startswith(
        "Unknown action"
    )
