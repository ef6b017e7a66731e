"""Findings have a life: open → acknowledged (with a note) → resolved (naming
the correcting event) or accepted (with a reason), each step a ledger event
signed by a person whose role may append it; the board counts only what is
still to be worked. A mispay is worked like a deck finding."""

from __future__ import annotations

import dataclasses
import datetime
import re

import pytest
from django.contrib.messages import get_messages

from audit import projections
from audit.ledger import Actor, NewEvent, append
from audit.models import Event
from audit.projections import run_all
from casino.roles import Role
from tables.compliance import check_decks
from tables.floor import _open_findings
from tables.models import ComplianceFinding, FindingReview
from tables.reviews import finding_stream_id
from tables.rules.events import DealerPaid, Wager
from tests.tables.helpers import criss_cross_round
from tests.tables.test_deck_checks import at, deck_in_use, make_table
from tests.tables.test_table_day import make_floor

pytestmark = pytest.mark.django_db
DAY = datetime.date(2024, 5, 1)
PAGE = "/admin/floor/T1/2024-05-01/"
ROUND = "round:T1-1"
REVIEW = finding_stream_id(ROUND, 1, "ANTE_ACROSS", "MISPAID_AMOUNT")


@pytest.fixture
def floor(role_users):
    floor = make_floor(role_users)
    floor.open_table()
    for user in role_users.values():
        user.is_staff = True
        user.save()
    return floor


@pytest.fixture
def mispay(floor):
    """Round T1-1 with seat 1's Ante Across ($25.00 due) paid twice: $50.00."""
    events, _ = criss_cross_round(seed=33)
    at_, paid = next((i, e) for i, e in enumerate(events) if isinstance(e, DealerPaid)
                     and (e.seat, e.wager) == (1, Wager.ANTE_ACROSS))  # fmt: skip
    events[at_ : at_ + 1] = [dataclasses.replace(paid, amount_cents=2_500)] * 2
    append(ROUND, [NewEvent(e.TYPE, e.to_payload()) for e in events], expected_version=0,
           actor=Actor.system("tests"))  # fmt: skip
    run_all()
    return len(events)


def _press(client, user, action, stream_id, **fields):
    client.force_login(user)
    response = client.post(f"/admin/act/{action}/{stream_id}", {"next": PAGE, **fields})
    assert response.status_code == 302
    run_all()
    return [str(m) for m in get_messages(response.wsgi_request)][-1]


def _shown(client, user, stream_id: str) -> str:
    """The version the page's form for ``stream_id`` posts."""
    client.force_login(user)
    html = client.get(PAGE).content.decode()
    form = re.search(rf'action="/admin/act/[a-z-]+/{re.escape(stream_id)}">(.*?)</form>', html,
                     re.S)  # fmt: skip
    assert form, f"no step offered for {stream_id}"
    return re.search(r'name="expected_version" value="(\d+)"', form[1])[1]


def _acknowledge(client, user, note="paid twice; dealer told"):
    return _press(client, user, "acknowledge-round-finding", REVIEW,
                  expected_version=_shown(client, user, REVIEW), round_stream=ROUND, seat="1",
                  wager="ANTE_ACROSS", kind="MISPAID_AMOUNT", note=note)  # fmt: skip


def test_a_mispay_is_acknowledged_then_resolved_and_leaves_the_count(client, mispay, role_users):
    floorperson = role_users[Role.FLOORPERSON]
    assert _open_findings(DAY)["T1"] == {"open": 1, "acknowledged": 0}
    assert _acknowledge(client, floorperson) == (
        "T1-1:1:ANTE-ACROSS:MISPAID-AMOUNT acknowledged by floorperson.")  # fmt: skip
    review = FindingReview.objects.get()
    assert (review.status, review.acknowledged_by, review.note, review.table_id) == (
        "acknowledged", "floorperson", "paid twice; dealer told", "T1")  # fmt: skip
    assert _open_findings(DAY)["T1"] == {"open": 0, "acknowledged": 1}
    # The correcting event: the player's $25.00 taken back, recorded in the round.
    message = _press(client, floorperson, "resolve-finding", REVIEW,
                     expected_version=_shown(client, floorperson, REVIEW),
                     correcting_stream=ROUND, correcting_version=str(mispay),
                     note="overpayment recovered")  # fmt: skip
    assert message == "T1-1:1:ANTE-ACROSS:MISPAID-AMOUNT resolved by floorperson."
    review.refresh_from_db()
    assert (review.status, review.closed_by, review.correcting_event) == (
        "resolved", "floorperson", f"{ROUND} v{mispay}")  # fmt: skip
    assert "T1" not in _open_findings(DAY)
    page = client.get(PAGE).content.decode()
    assert "resolved by floorperson" in page and f"{ROUND} v{mispay}" in page
    before = list(FindingReview.objects.values())
    projections.rebuild(projections.PROJECTIONS["tables.finding_reviews"])
    assert list(FindingReview.objects.values()) == before


def test_an_acknowledgement_without_a_note_is_refused(client, mispay, role_users):
    message = _acknowledge(client, role_users[Role.FLOORPERSON], note="  ")
    assert message.startswith("Not acknowledged: ") and "note" in message
    assert not Event.objects.filter(stream_id=REVIEW).exists()


def test_a_finding_is_resolved_or_accepted_only_once_acknowledged(client, mispay, role_users):
    supervisor = role_users[Role.SHIFT_SUPERVISOR]
    message = _press(client, supervisor, "accept-finding", REVIEW, expected_version="1",
                     reason="customer left")  # fmt: skip
    assert message.startswith("Not accepted: ")
    assert not Event.objects.filter(stream_id=REVIEW).exists()


def test_a_resolution_names_an_event_the_ledger_holds(client, mispay, role_users):
    floorperson = role_users[Role.FLOORPERSON]
    _acknowledge(client, floorperson)
    message = _press(client, floorperson, "resolve-finding", REVIEW, expected_version="1",
                     correcting_stream=ROUND, correcting_version="999")  # fmt: skip
    assert message == (f"Not resolved: events[0].payload.correcting_event: the ledger holds no "
                       f"event {ROUND} version 999")  # fmt: skip
    message = _press(client, floorperson, "resolve-finding", REVIEW, expected_version="1",
                     correcting_stream=REVIEW, correcting_version="1")  # fmt: skip
    assert "not by a finding's own stream" in message
    assert FindingReview.objects.get().status == "acknowledged"


def test_only_a_shift_supervisor_accepts_a_finding_as_it_stands(client, mispay, role_users):
    floorperson, supervisor = role_users[Role.FLOORPERSON], role_users[Role.SHIFT_SUPERVISOR]
    _acknowledge(client, floorperson)
    # The floorperson is offered no Accept button, and a forged press is refused.
    client.force_login(floorperson)
    assert f"/admin/act/accept-finding/{REVIEW}" not in client.get(PAGE).content.decode()
    refused = _press(client, floorperson, "accept-finding", REVIEW, expected_version="1",
                     reason="small")  # fmt: skip
    assert refused.startswith("Not accepted: role(s) ['floorperson'] may not append")
    assert _press(client, supervisor, "accept-finding", REVIEW,
                  expected_version=_shown(client, supervisor, REVIEW),
                  reason="player gone; under the writing-off limit") == (
        "T1-1:1:ANTE-ACROSS:MISPAID-AMOUNT accepted by shift_supervisor.")  # fmt: skip
    review = FindingReview.objects.get()
    assert (review.status, review.closed_by, review.resolution) == (
        "accepted", "shift_supervisor", "player gone; under the writing-off limit")  # fmt: skip


def test_a_finding_replay_does_not_find_cannot_be_acknowledged(client, mispay, role_users):
    other = finding_stream_id(ROUND, 2, "ANTE_ACROSS", "MISPAID_AMOUNT")
    message = _press(client, role_users[Role.FLOORPERSON], "acknowledge-round-finding", other,
                     expected_version="0", round_stream=ROUND, seat="2", wager="ANTE_ACROSS",
                     kind="MISPAID_AMOUNT", note="looks wrong")  # fmt: skip
    assert message.startswith("Not acknowledged: ")
    assert "replay finds no MISPAID_AMOUNT on seat 2 ANTE_ACROSS" in message


def test_a_regulator_is_offered_no_step_and_a_forged_one_is_refused(client, mispay, role_users):
    regulator = role_users[Role.REGULATOR]
    client.force_login(regulator)
    page = client.get(PAGE).content.decode()
    assert "MISPAID_AMOUNT" in page and "/admin/act/" not in page
    message = _press(client, regulator, "acknowledge-round-finding", REVIEW, expected_version="0",
                     round_stream=ROUND, seat="1", wager="ANTE_ACROSS", kind="MISPAID_AMOUNT",
                     note="x")  # fmt: skip
    assert message.startswith("Not acknowledged: role(s) ['regulator'] may not append")


def test_a_deck_finding_is_acknowledged_then_accepted(client, floor, role_users):
    make_table("CC-01", dealing_method="HAND")
    deck_in_use("CC-01", "D1")
    (overdue,) = check_decks(at(4, 10))
    floorperson = Actor.from_user(role_users[Role.FLOORPERSON])
    supervisor = Actor.from_user(role_users[Role.SHIFT_SUPERVISOR])
    append(overdue.stream_id, [NewEvent("compliance.acknowledged",
                                        {"acknowledged_by": "floorperson", "note": "changing"})],
           expected_version=1, actor=floorperson)  # fmt: skip
    append(overdue.stream_id, [NewEvent("compliance.accepted", {"accepted_by": "shift_supervisor",
                                                                 "reason": "shoe jammed"})],
           expected_version=2, actor=supervisor)  # fmt: skip
    projections.run(projections.PROJECTIONS["tables.compliance"])
    finding = ComplianceFinding.objects.get()
    assert (finding.status, finding.acknowledged_by, finding.closed_by, finding.resolution) == (
        "accepted", "floorperson", "shift_supervisor", "shoe jammed")  # fmt: skip
    assert "CC-01" not in _open_findings(finding.gaming_day)
