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
from tables.rules.events import DealingMethod, DiceThrown, NoMoreBets, RoundOpened, WagerPlaced
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
