"""Dice as equipment: a set's stream through the API (§ 585.3(a), (d);
§ 593.3(a), (d)), the ``tables.dice`` projection, the 24 hours dice may remain
on a table (§ 585.3(b)(1), § 593.3(b)(1)) through the deck job, and the
floor board's deck column showing dice beside decks."""

from __future__ import annotations

import datetime

import pytest

from audit import projections
from audit.ledger import Actor, NewEvent, append, stream_version
from audit.models import RejectedSubmission
from casino.roles import Role
from tables.compliance import COMPLIANCE, DICE_CHANGE_DUE, DICE_OVERDUE, check_decks
from tables.dice import DICE
from tables.floor import board_state
from tables.models import ComplianceFinding, DiceSet, DiceStatus, Table

pytestmark = pytest.mark.django_db

NOW = (datetime.datetime.now(datetime.UTC) - datetime.timedelta(hours=2)).replace(microsecond=0)
T0 = datetime.datetime(2024, 5, 1, 14, 0, tzinfo=datetime.UTC)  # 10:00 in Pennsylvania
SYSTEM = Actor.system("test")


def make_table(table_id="PAH-01", game="props_and_hops", ruleset_id="PA-585-2014"):
    return Table.objects.create(table_id=table_id, game=game, ruleset_id=ruleset_id,
                                min_wager_cents=500, max_wager_cents=50000,
                                dealing_method="HAND", shuffler="none")  # fmt: skip


def received(table_id="PAH-01", count=2, by="floorperson"):
    return ("dice.received", {"table_id": table_id, "count": count, "received_by": by})


INSPECTED = ("dice.inspected", {"inspected_by": "floorperson"})
PLACED = ("dice.placed_in_shaker", {"floorperson": "floorperson", "dealer": "dealer"})


@pytest.fixture
def post(api_client, role_users):
    def post(who, dice_id, events, version):
        api_client.force_authenticate(role_users[who])
        body = {"expected_version": version,
                "events": [{"type": kind, "payload": payload, "occurred_at": NOW.isoformat()}
                           for kind, payload in events]}  # fmt: skip
        return api_client.post(f"/api/v1/streams/dice:{dice_id}/events", body, format="json")

    return post


def test_585_3_d_dice_received_inspected_and_placed_in_the_shaker(post, role_users):
    make_table()
    assert post(Role.FLOORPERSON, "P1", [received()], 0).status_code == 201
    dealer_inspects = ("dice.inspected", {"inspected_by": "dealer"})
    assert post(Role.DEALER, "P1", [dealer_inspects], 1).status_code == 201
    # The floorperson places the dice in the presence of the dealer (§ 585.3(d)).
    assert post(Role.FLOORPERSON, "P1", [PLACED], 2).status_code == 201
    projections.run(DICE)
    row = DiceSet.objects.get(dice_id="P1")
    assert (row.table_id, row.count, row.status) == ("PAH-01", 2, DiceStatus.IN_SHAKER)
    assert (row.inspected_by, row.placed_by, row.in_shaker_since) == ("dealer", "floorperson", NOW)
    removed = ("dice.removed", {"reason": "24 hours", "cancelled": True})
    assert post(Role.FLOORPERSON, "P1", [removed], 3).status_code == 201
    projections.run(DICE)
    row.refresh_from_db()
    assert (row.status, row.cancelled, row.removed_at) == (DiceStatus.REMOVED, True, NOW)
    # Nothing follows the removal.
    response = post(Role.FLOORPERSON, "P1", [INSPECTED], 4)
    assert response.status_code == 400
    assert "removed" in response.json()["message"]


@pytest.mark.parametrize(
    ("game", "ruleset_id", "wrong", "section"),
    [("props_and_hops", "PA-585-2014", 3, "585.3(a)"),
     ("high_roll_dice", "PA-593-2014", 2, "593.3(a)")],
)  # fmt: skip
def test_585_3_a_593_3_a_a_set_of_the_wrong_number_of_dice_is_refused(
    post, game, ruleset_id, wrong, section
):
    make_table("D-01", game, ruleset_id)
    response = post(Role.FLOORPERSON, "X1", [received("D-01", count=wrong)], 0)
    assert response.status_code == 400
    body = response.json()
    assert (body["field"], body["section"]) == ("events[0].payload.count", section)
    assert RejectedSubmission.objects.filter(stream_id="dice:X1").count() == 1
    assert stream_version("dice:X1") == 0  # nothing half-written


def test_dice_for_a_card_table_or_no_table_are_refused(post):
    Table.objects.create(table_id="CC-01", game="criss_cross_poker", ruleset_id="PA-592-2014",
                         min_wager_cents=500, max_wager_cents=50000, dealing_method="HAND",
                         shuffler="none")  # fmt: skip
    for table_id in ("CC-01", "NOPE"):
        response = post(Role.FLOORPERSON, "X1", [received(table_id)], 0)
        assert response.status_code == 400
        assert response.json()["field"] == "events[0].payload.table_id"


def test_585_3_d_only_inspected_dice_go_into_the_shaker_placed_by_a_floorperson(post):
    make_table()
    assert post(Role.FLOORPERSON, "P1", [received()], 0).status_code == 201
    response = post(Role.FLOORPERSON, "P1", [PLACED], 1)
    assert response.status_code == 400
    assert response.json()["section"] == "585.3(d)"
    assert post(Role.FLOORPERSON, "P1", [INSPECTED], 1).status_code == 201
    # The dealer may not place them (the floorperson does, § 585.3(d)) ...
    dealer_places = ("dice.placed_in_shaker", {"floorperson": "dealer", "dealer": "dealer"})
    response = post(Role.FLOORPERSON, "P1", [dealer_places], 2)
    assert response.status_code == 400
    assert (response.json()["field"], response.json()["section"]) == (
        "events[0].payload.floorperson", "585.3(d)")  # fmt: skip
    # ... and the dealer present must be a dealer.
    no_dealer = ("dice.placed_in_shaker", {"floorperson": "floorperson", "dealer": "finance"})
    response = post(Role.FLOORPERSON, "P1", [no_dealer], 2)
    assert response.status_code == 400
    assert response.json()["field"] == "events[0].payload.dealer"
    assert stream_version("dice:P1") == 2


def test_593_3_d_one_set_of_dice_in_the_shaker_at_a_table(post):
    make_table("HRD-01", "high_roll_dice", "PA-593-2014")
    for dice_id in ("H1", "H2"):
        events = [received("HRD-01", count=10), INSPECTED]
        assert post(Role.FLOORPERSON, dice_id, events, 0).status_code == 201
    assert post(Role.FLOORPERSON, "H1", [PLACED], 2).status_code == 201
    response = post(Role.FLOORPERSON, "H2", [PLACED], 2)
    assert response.status_code == 400
    assert response.json()["section"] == "593.3(d)"
    assert "H1" in response.json()["message"]
    # Once the first set is off the table, the second goes in.
    removed = ("dice.removed", {"reason": "end of shift", "cancelled": False})
    assert post(Role.FLOORPERSON, "H1", [removed], 3).status_code == 201
    assert post(Role.FLOORPERSON, "H2", [PLACED], 2).status_code == 201


def test_dealer_may_not_receive_or_place_dice_without_the_grant(post):
    make_table()
    assert post(Role.DEALER, "P1", [received(by="dealer")], 0).status_code == 403
    assert post(Role.CAGE_CASHIER, "P1", [received()], 0).status_code == 403


# --- the 24 hours through the deck job (frozen time) -----------------------------------


def dice_in_shaker(table_id, dice_id, count, *, since=T0):
    events = [
        NewEvent("dice.received", {"table_id": table_id, "count": count,
                                   "received_by": "floorperson"}, occurred_at=since),
        NewEvent("dice.inspected", {"inspected_by": "floorperson"}, occurred_at=since),
        NewEvent("dice.placed_in_shaker", {"floorperson": "floorperson", "dealer": "dealer"},
                 occurred_at=since),
    ]  # fmt: skip
    append(f"dice:{dice_id}", events, expected_version=0, actor=SYSTEM)


def at(hours=0, minutes=0):
    return T0 + datetime.timedelta(hours=hours, minutes=minutes)


def test_585_3_b_1_dice_due_then_overdue_after_24_hours_on_the_table(role_users):
    make_table()
    dice_in_shaker("PAH-01", "P1", 2)
    assert check_decks(at(hours=23)) == []
    (due,) = check_decks(at(hours=23, minutes=40))  # within the 30-minute lead
    assert due.event_type == DICE_CHANGE_DUE
    assert due.payload["section"] == "585.3(b)(1)"
    assert due.payload["due_at"] == at(hours=24).isoformat()
    assert check_decks(at(hours=23, minutes=50)) == []  # raised once
    (overdue,) = check_decks(at(hours=24, minutes=5))
    assert overdue.event_type == DICE_OVERDUE
    assert (overdue.payload["dice_id"], overdue.payload["minutes_over"]) == ("P1", 5)
    projections.run(COMPLIANCE)
    finding = ComplianceFinding.objects.get(kind="dice_overdue")
    assert (finding.table_id, finding.deck_id, finding.section) == ("PAH-01", "P1", "585.3(b)(1)")
    assert "dice P1 at PAH-01" in finding.detail and "5 minutes over" in finding.detail


def test_593_3_b_1_removed_dice_raise_nothing_and_the_section_is_593s(role_users):
    make_table("HRD-01", "high_roll_dice", "PA-593-2014")
    dice_in_shaker("HRD-01", "H1", 10)
    (overdue,) = check_decks(at(hours=25))
    assert overdue.payload["section"] == "593.3(b)(1)"
    append("dice:H1", [NewEvent("dice.removed", {"reason": "24 hours", "cancelled": True},
                                occurred_at=at(hours=25))],
           expected_version=3, actor=SYSTEM)  # fmt: skip
    assert check_decks(at(hours=30)) == []


def test_the_floor_board_shows_dice_age_beside_deck_age(role_users):
    make_table()
    make_table("HRD-01", "high_roll_dice", "PA-593-2014")
    dice_in_shaker("PAH-01", "P1", 2)
    dice_in_shaker("HRD-01", "H1", 10, since=at(minutes=-20))
    projections.run(DICE)
    tiles = {t["table_id"]: t for t in board_state(at(hours=23, minutes=50))["tables"]}
    (pah,) = tiles["PAH-01"]["decks"]
    (hrd,) = tiles["HRD-01"]["decks"]
    assert (pah["kind"], pah["label"], pah["seconds_left"]) == ("dice", "Dice P1", 10 * 60)
    assert pah["section"] == "§ 585.3(b)(1)"
    assert hrd["seconds_left"] == -10 * 60  # overdue: red on the board
    assert hrd["section"] == "§ 593.3(b)(1)"
