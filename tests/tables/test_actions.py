"""Buttons that append events: approve a fill, verify a deck inspection,
acknowledge a finding. The ledger checks the role; the streams' policies the
two-person rules; refusals come back as messages. Each form carries the
stream version its page showed, and the append expects exactly that one."""

from __future__ import annotations

import re

import pytest
from django.contrib.messages import get_messages

from audit.ledger import Actor, NewEvent, append
from audit.models import Event, RejectedSubmission
from audit.projections import run_all
from casino.roles import Role
from tables.compliance import check_decks
from tables.models import ComplianceFinding, Deck, Slip
from tests.tables.test_deck_checks import at, deck_in_use, make_table
from tests.tables.test_slips import SLIP, approved, fill, voided
from tests.tables.test_table_day import make_floor

pytestmark = pytest.mark.django_db
BACK = "/admin/floor/T1/2024-05-01/"
DECK = "deck:T1-RED"
#: ``_press`` reads the version from the button's form on the page, as a browser posts it.
SHOWN = "shown"


@pytest.fixture
def floor(role_users):
    floor = make_floor(role_users)
    floor.open_table()
    for user in role_users.values():
        user.is_staff = True
        user.save()
    return floor


def _shown_version(client, user, stream_id: str, page: str = BACK) -> str:
    """The ``expected_version`` of the button for ``stream_id`` on the page."""
    run_all()
    client.force_login(user)
    html = client.get(page).content.decode()
    form = re.search(rf'<form [^>]*action="/admin/act/[a-z-]+/{re.escape(stream_id)}">(.*?)</form>',
                     html, re.S)  # fmt: skip
    assert form, f"no button for {stream_id} on {page}"
    return re.search(r'<input type="hidden" name="expected_version" value="([^"]*)">', form[1])[1]


def _press(client, user, action: str, stream_id: str, *, version: str | None = SHOWN, **data):
    if version == SHOWN:
        version = _shown_version(client, user, stream_id)
    client.force_login(user)
    fields = {"next": BACK, **data}
    if version is not None:
        fields["expected_version"] = version
    response = client.post(f"/admin/act/{action}/{stream_id}", fields)
    assert response.status_code == 302 and response.url == BACK
    return [str(m) for m in get_messages(response.wsgi_request)]


def _inspected_deck(floor):
    events = [("deck.received", {"table_id": "T1", "back_colour": "red",
                                 "received_by": "floorperson"}),
              ("deck.inspected", {"dealer": "dealer"})]  # fmt: skip
    assert floor.post(Role.SYSTEM, DECK, events).status_code == 201


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


def test_a_regulator_sees_no_button_and_a_forged_press_is_refused(client, floor, role_users):
    assert floor.post(Role.CAGE_CASHIER, SLIP, [fill()]).status_code == 201
    regulator = role_users[Role.REGULATOR]
    client.force_login(regulator)
    assert "/admin/act/" not in client.get(BACK).content.decode()
    messages = _press(client, regulator, "approve-slip", SLIP, version="1")
    assert messages[0].startswith("Not approved: role(s) ['regulator'] may not append")


def test_a_floorperson_verifies_a_deck_the_dealer_inspected(client, floor, role_users):
    _inspected_deck(floor)
    assert _press(client, role_users[Role.FLOORPERSON], "verify-deck", DECK) == [
        "T1-RED verified by floorperson."
    ]
    assert Deck.objects.get(stream_id=DECK).verified_by == "floorperson"


def test_buttons_only_answer_post_from_staff(client, floor, role_users):
    assert client.get(f"/admin/act/approve-slip/{SLIP}").status_code == 405
    response = client.post(f"/admin/act/approve-slip/{SLIP}", {"next": BACK})
    assert response.status_code == 302 and "/admin/login/" in response.url


def test_an_unknown_action_or_a_foreign_stream_is_refused(client, floor, role_users):
    floorperson = role_users[Role.FLOORPERSON]
    assert _press(client, floorperson, "approve-slip", DECK, version="1")[0].startswith(
        "Unknown action"
    )
    assert _press(client, floorperson, "delete-everything", SLIP, version="1")[0].startswith(
        "Unknown action"
    )


# --- the version the person saw ----------------------------------------------------------


def test_each_button_carries_the_stream_version_its_row_shows(client, floor, role_users):
    assert floor.post(Role.CAGE_CASHIER, SLIP, [fill()]).status_code == 201
    _inspected_deck(floor)
    floorperson = role_users[Role.FLOORPERSON]
    assert _shown_version(client, floorperson, SLIP) == "1"
    assert _shown_version(client, floorperson, DECK) == "2"
    make_table("CC-01", dealing_method="HAND")
    deck_in_use("CC-01", "D1")  # four events, kept past its change interval
    (overdue,) = check_decks(at(4, 10))
    page = "/admin/floor/CC-01/2024-05-01/"
    assert _shown_version(client, floorperson, overdue.stream_id, page) == "1"


def test_the_version_shown_is_the_rows_not_the_streams_head(client, floor, role_users):
    """A page drawn from a read model that has not caught up yet offers the
    version it shows, so pressing its button is refused rather than acting
    on a state the person never saw."""
    assert floor.post(Role.CAGE_CASHIER, SLIP, [fill()]).status_code == 201
    run_all()
    supervisor = Actor.from_user(role_users[Role.SHIFT_SUPERVISOR])
    append(SLIP, [NewEvent(*voided(by="shift_supervisor", witness="floorperson"))],
           expected_version=1, actor=supervisor)  # fmt: skip
    floorperson = role_users[Role.FLOORPERSON]
    client.force_login(floorperson)
    html = client.get(BACK).content.decode()  # the projection has not seen the void yet
    assert f'action="/admin/act/approve-slip/{SLIP}"' in html
    assert '<input type="hidden" name="expected_version" value="1">' in html


def test_a_press_with_the_version_shown_appends_after_it(client, floor, role_users):
    assert floor.post(Role.CAGE_CASHIER, SLIP, [fill()]).status_code == 201
    messages = _press(client, role_users[Role.FLOORPERSON], "approve-slip", SLIP, version="1")
    assert messages == ["2024-000123 approved by floorperson."]
    events = Event.objects.filter(stream_id=SLIP).order_by("version")
    assert list(events.values_list("version", "event_type")) == [
        (1, "slip.fill_requested"),
        (2, "slip.approved"),
    ]


def test_a_press_after_another_persons_event_is_refused_and_appends_nothing(
    client, floor, role_users
):
    assert floor.post(Role.CAGE_CASHIER, SLIP, [fill()]).status_code == 201
    floorperson = role_users[Role.FLOORPERSON]
    shown = _shown_version(client, floorperson, SLIP)
    # While the page is open, a shift supervisor approves the same slip.
    response = floor.post(Role.SHIFT_SUPERVISOR, SLIP, [approved("shift_supervisor")], 1)
    assert response.status_code == 201
    messages = _press(client, floorperson, "approve-slip", SLIP, version=shown)
    assert messages == [
        "Not approved: slip 2024-000123 changed since you loaded the page "
        "(slip.approved by shift_supervisor): reload and check it again."
    ]
    assert Event.objects.filter(stream_id=SLIP).count() == 2
    run_all()
    assert Slip.objects.get(stream_id=SLIP).approved_by == "shift_supervisor"
    refused = RejectedSubmission.objects.get(stream_id=SLIP)
    assert (refused.status_code, refused.field, refused.actor) == (
        409, "expected_version", "floorperson")  # fmt: skip


def test_a_stale_deck_or_finding_button_is_refused_too(client, floor, role_users):
    _inspected_deck(floor)
    floorperson = role_users[Role.FLOORPERSON]
    assert _shown_version(client, floorperson, DECK) == "2"
    supervisor = Actor.from_user(role_users[Role.SHIFT_SUPERVISOR])
    append(DECK, [NewEvent("deck.verified", {"floorperson": "shift_supervisor"})],
           expected_version=2, actor=supervisor)  # fmt: skip
    assert _press(client, floorperson, "verify-deck", DECK, version="2") == [
        "Not verified: deck T1-RED changed since you loaded the page "
        "(deck.verified by shift_supervisor): reload and check it again."
    ]
    make_table("CC-01", dealing_method="HAND")
    deck_in_use("CC-01", "D1")
    (overdue,) = check_decks(at(4, 10))
    append(overdue.stream_id, [NewEvent("compliance.acknowledged",
                                        {"acknowledged_by": "shift_supervisor", "note": "seen"})],
           expected_version=1, actor=supervisor)  # fmt: skip
    # The first message is still in the session: a test client does not follow redirects.
    message = _press(client, floorperson, "acknowledge-finding", overdue.stream_id, version="1")[-1]
    assert message.startswith(f"Not acknowledged: finding {overdue.stream_id.split(':', 1)[1]} ")
    assert message.endswith(
        " changed since you loaded the page (compliance.acknowledged by shift_supervisor): "
        "reload and check it again."
    )
    assert Event.objects.filter(stream_id=DECK).count() == 3
    assert Event.objects.filter(stream_id=overdue.stream_id).count() == 2
    run_all()
    assert ComplianceFinding.objects.get().acknowledged_by == "shift_supervisor"


@pytest.mark.parametrize("version", [None, "", "abc", "0", "-1", "1.0", " 1", "١"])
def test_a_press_without_a_well_formed_version_is_refused_never_given_the_head(
    client, floor, role_users, version
):
    assert floor.post(Role.CAGE_CASHIER, SLIP, [fill()]).status_code == 201
    messages = _press(client, role_users[Role.FLOORPERSON], "approve-slip", SLIP, version=version)
    assert len(messages) == 1 and messages[0].startswith(
        f"Not approved: the form did not say which version of {SLIP} it showed"
    )
    assert messages[0].endswith("; reload the page and try again.")
    assert Event.objects.filter(stream_id=SLIP).count() == 1
    refused = RejectedSubmission.objects.get(stream_id=SLIP)
    assert (refused.status_code, refused.reason, refused.field, refused.source) == (
        400, "malformed", "expected_version", "admin")  # fmt: skip


# --- the floor board's queue ---------------------------------------------------------------


def test_the_board_queues_a_requested_fill_with_its_amount_and_the_version_shown(
    client, floor, role_users
):
    import datetime

    from tables.actions import actions_allowed
    from tables.floor import _pending

    assert floor.post(Role.CAGE_CASHIER, SLIP, [fill()]).status_code == 201
    run_all()
    (item,) = _pending(datetime.date(2024, 5, 1), ["T1"])["T1"]
    assert (item["action"], item["stream_id"], item["version"], item["by"]) == (
        "approve-slip", SLIP, 1, "cage_cashier")  # fmt: skip
    assert item["amount"] == "$2,000.00"
    assert item["confirm"] == "Approve fill 2024-000123 of $2,000.00 for T1?"
    assert actions_allowed(role_users[Role.FLOORPERSON])["approve_slip"] is True
    assert not any(actions_allowed(role_users[Role.REGULATOR]).values())
    # The table's day asks the same question before the button posts.
    client.force_login(role_users[Role.FLOORPERSON])
    html = client.get(BACK).content.decode()
    assert 'data-confirm="Approve fill 2024-000123 of $2,000.00 for T1?"' in html
    assert ">Approve $2,000.00</button>" in html
