"""A throw posted by a table device: a face outside 1-6 or the wrong number of
dice is refused with a 4xx naming the field and citing the section
(§ 585.3(a): two dice; § 593.3(a): ten), kept with the refused submissions,
and nothing is half-written."""

from __future__ import annotations

import datetime

import pytest

from audit.ledger import Actor, NewEvent, append
from audit.models import Event, RejectedSubmission
from casino.roles import Role
from tables.models import Table
from tables.rules.events import (
    DealerCollected,
    DealingMethod,
    DiceThrown,
    NoMoreBets,
    RoundClosed,
    RoundOpened,
    WagerPlaced,
)
from tests.tables.helpers import payload_body

pytestmark = pytest.mark.django_db
DAY = datetime.date(2024, 5, 1)

GAMES = {
    "props_and_hops": ("PA-585-2014", "FIELD", 2, "585.3(a)"),
    "high_roll_dice": ("PA-593-2014", "PIP_6", 10, "593.3(a)"),
}


@pytest.fixture
def device(api_client, role_users):
    from tests.tables.test_table_day import make_floor

    make_floor(role_users)
    api_client.force_authenticate(role_users[Role.TABLE_DEVICE])
    return api_client


def _open(game: str) -> list:
    ruleset_id, wager, _, _ = GAMES[game]
    Table.objects.create(table_id="D1", game=game, ruleset_id=ruleset_id, min_wager_cents=100,
                         max_wager_cents=50000, dealing_method=DealingMethod.HAND)  # fmt: skip
    append("table:D1:2024-05-01", [NewEvent("table.opened", {
        "opener": {"500": 40}, "dealer": "dealer", "floorperson": "floorperson"})],
        expected_version=0, actor=Actor.system("import"))  # fmt: skip
    opened = RoundOpened.build(
        round_id="D1-1", game=game, ruleset_id=ruleset_id, table_id="D1", gaming_day=DAY,
        seats=(1,), players=("P1",), dealing_method=DealingMethod.HAND,
    )  # fmt: skip
    return [opened, WagerPlaced(seat=1, wager=wager, amount_cents=100), NoMoreBets()]


@pytest.mark.parametrize("game", list(GAMES))
@pytest.mark.parametrize("bad", ["face_seven", "face_zero", "one_die_short", "one_die_over"])
def test_585_3_a_593_3_a_a_throw_of_impossible_faces_or_the_wrong_number_of_dice_is_refused(
    device, game, bad
):
    _, _, dice, section = GAMES[game]
    events = _open(game)
    url = "/api/v1/streams/round:D1-1/events"
    assert device.post(url, payload_body(events), format="json").status_code == 201
    faces = {"face_seven": [7] + [3] * (dice - 1), "face_zero": [0] + [3] * (dice - 1),
             "one_die_short": [3] * (dice - 1), "one_die_over": [3] * (dice + 1)}[bad]  # fmt: skip
    body = payload_body([DiceThrown(faces=(3,) * dice)], len(events))
    body["events"][0]["payload"]["faces"] = faces
    response = device.post(url, body, format="json")
    assert response.status_code == 400
    refused = response.json()
    assert (refused["error"], refused["field"], refused["section"]) == (
        "rule_violation", "events[0].payload.faces", section)  # fmt: skip
    assert refused["message"].startswith(f"§ {section}: ")
    assert RejectedSubmission.objects.get(stream_id="round:D1-1").section == section
    assert Event.objects.filter(stream_id="round:D1-1").count() == len(events)


def _round(game: str, number: int, seats=(1,), **options) -> RoundOpened:
    ruleset_id = GAMES[game][0]
    return RoundOpened.build(
        round_id=f"D1-{number}", game=game, ruleset_id=ruleset_id, table_id="D1", gaming_day=DAY,
        seats=seats, players=tuple(f"P{seat}" for seat in seats),
        dealing_method=DealingMethod.HAND, **options,
    )  # fmt: skip


def _refused(response, field: str, section: str, stream_id: str, kept: int) -> None:
    assert response.status_code == 400
    refused = response.json()
    assert (refused["error"], refused["field"], refused["section"]) == (
        "rule_violation", field, section)  # fmt: skip
    assert refused["message"].startswith(f"§ {section}: ")
    assert RejectedSubmission.objects.filter(stream_id=stream_id, section=section).exists()
    assert Event.objects.filter(stream_id=stream_id).count() == kept


def test_585_3_j_the_next_round_opens_with_the_shooter_the_table_left(device):
    """The table's state is its last round: after seat 2 throws a 7 the shaker is seat 3's
    (the next player to the left, § 585.3(j)); a round offering it to anyone else is refused."""
    _open("props_and_hops")
    first = [_round("props_and_hops", 1, seats=(1, 2, 3), shooter=2),
             WagerPlaced(seat=1, wager="FIELD", amount_cents=500), NoMoreBets(),
             DiceThrown(faces=(3, 4), called="3-4"),
             DealerCollected(seat=1, wager="FIELD", amount_cents=500), RoundClosed()]  # fmt: skip
    url = "/api/v1/streams/round:{}/events"
    assert device.post(url.format("D1-1"), payload_body(first), format="json").status_code == 201
    wrong = [_round("props_and_hops", 2, seats=(1, 2, 3), shooter=2)]
    response = device.post(url.format("D1-2"), payload_body(wrong), format="json")
    _refused(response, "events[0].payload.options.shooter", "585.3(j)", "round:D1-2", 0)
    assert "shooter is 3 after round D1-1" in response.json()["message"]
    right = [_round("props_and_hops", 2, seats=(1, 2, 3), shooter=3)]
    assert device.post(url.format("D1-2"), payload_body(right), format="json").status_code == 201


HRD = "round:D1-1"


def _hrd_round(device, *wagers: WagerPlaced, seats=(1,)) -> None:
    _open("high_roll_dice")
    opened = _round("high_roll_dice", 1, seats=seats)
    body = payload_body([opened, *wagers])
    assert device.post(f"/api/v1/streams/{HRD}/events", body, format="json").status_code == 201


@pytest.mark.parametrize(
    ("wager", "field", "section"),
    [(WagerPlaced(seat=1, wager="PIP_7", amount_cents=100), "wager", "593.1(b)(2)"),
     (WagerPlaced(seat=1, wager="LIKE_9", amount_cents=100), "wager", "593.1(b)(2)"),
     (WagerPlaced(seat=1, wager="LIKE_3", amount_cents=200), "amount_cents", "593.1(b)(2)(iv)"),
     (WagerPlaced(seat=4, wager="PIP_1", amount_cents=100), "seat", "593.2(c)")],
)  # fmt: skip
def test_593_a_wager_the_layout_or_the_table_does_not_allow_is_refused_at_the_api(
    device, wager, field, section
):
    """A Pip Street face or Like Kind circle the layout lacks, a wager of unequal value
    (§ 593.1(b)(2)(iv)), a wager from a seat nobody sits in (§ 593.2(c))."""
    _hrd_round(device, WagerPlaced(seat=1, wager="PIP_6", amount_cents=100))
    response = device.post(f"/api/v1/streams/{HRD}/events", payload_body([wager], 2),
                           format="json")  # fmt: skip
    _refused(response, f"events[0].payload.{field}", section, HRD, 2)


def test_593_1_c_an_extra_roll_of_unequal_value_or_after_the_lock_out_is_refused_at_the_api(
    device,
):
    _hrd_round(device, WagerPlaced(seat=1, wager="PIP_6", amount_cents=100),
               WagerPlaced(seat=1, wager="LIKE_3", amount_cents=100))  # fmt: skip
    url = f"/api/v1/streams/{HRD}/events"
    unequal = [WagerPlaced(seat=1, wager="EXTRA_ROLL", amount_cents=500)]
    response = device.post(url, payload_body(unequal, 3), format="json")
    _refused(response, "events[0].payload.amount_cents", "593.1(b)(2)(iv)", HRD, 3)
    late = [NoMoreBets(), WagerPlaced(seat=1, wager="EXTRA_ROLL", amount_cents=100)]
    response = device.post(url, payload_body(late, 3), format="json")
    _refused(response, "events[1].payload.wager", "593.1(c)(2)", HRD, 3)  # nothing half-written


def test_585_2_c_a_wager_from_a_seat_nobody_sits_in_is_refused_at_the_api(device):
    events = _open("props_and_hops")[:1]
    url = "/api/v1/streams/round:D1-1/events"
    assert device.post(url, payload_body(events), format="json").status_code == 201
    stray = [WagerPlaced(seat=5, wager="FIELD", amount_cents=100)]
    response = device.post(url, payload_body(stray, 1), format="json")
    _refused(response, "events[0].payload.seat", "585.2(c)", "round:D1-1", 1)
    no_such = [WagerPlaced(seat=1, wager="HOP_1_1", amount_cents=100)]
    response = device.post(url, payload_body(no_such, 1), format="json")
    _refused(response, "events[0].payload.wager", "585.2(b)", "round:D1-1", 1)
