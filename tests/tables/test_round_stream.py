"""Table devices post a round event by event; the rules engine refuses at
append time whatever the regulation forbids, citing the section."""

from __future__ import annotations

import dataclasses

import pytest

from audit.models import Event, RejectedSubmission
from casino.roles import Role
from tables.rules.events import Wager
from tests.tables.helpers import criss_cross_round, index_of_wager, payload_body

pytestmark = pytest.mark.django_db
URL = "/api/v1/streams/round:T1-1/events"


@pytest.fixture
def device(api_client, role_users):
    from tests.tables.test_table_day import make_floor

    make_floor(role_users).open_table()  # table T1 open on 2024-05-01
    api_client.force_authenticate(role_users[Role.TABLE_DEVICE])
    return api_client


def test_a_device_records_a_whole_round_step_by_step(device):
    events, _ = criss_cross_round()
    for version, event in enumerate(events):
        response = device.post(URL, payload_body([event], version), format="json")
        assert response.status_code == 201, (event, response.json())
    assert Event.objects.filter(stream_id="round:T1-1").count() == len(events)


def test_674a_7_f_a_down_bet_of_four_times_the_ante_is_refused_naming_the_section(device):
    events, _ = criss_cross_round()
    index = index_of_wager(events, Wager.DOWN_BET)
    ante = events[index_of_wager(events, Wager.ANTE_DOWN)].amount_cents
    assert device.post(URL, payload_body(events[:index]), format="json").status_code == 201
    too_much = dataclasses.replace(events[index], amount_cents=4 * ante)
    response = device.post(URL, payload_body([too_much], index), format="json")
    assert response.status_code == 400
    body = response.json()
    assert body["error"] == "rule_violation"
    assert body["section"].startswith("674a.")
    assert body["message"].startswith(f"§ {body['section']}")
    assert body["field"].startswith("events[0].payload")
    rejection = RejectedSubmission.objects.get(stream_id="round:T1-1")
    assert rejection.section == body["section"]
    assert Event.objects.filter(stream_id="round:T1-1").count() == index


def test_592_7_c_a_wager_after_no_more_bets_is_refused(device):
    from audit.ledger import Actor, NewEvent, append

    events, _ = criss_cross_round(
        ruleset_id="PA-592-2014", day=__import__("datetime").date(2015, 3, 1)
    )
    append("table:T1:2015-03-01", [NewEvent("table.opened", {
        "opener": {"500": 40}, "dealer": "dealer", "floorperson": "floorperson"})],
        expected_version=0, actor=Actor.system("import"))  # fmt: skip
    no_more_bets = next(i for i, e in enumerate(events) if e.TYPE == "round.no_more_bets")
    late = dataclasses.replace(events[1])  # an ante, placed again after "no more bets"
    body = payload_body([*events[: no_more_bets + 1], late])
    response = device.post(URL, body, format="json")
    assert response.status_code == 400
    assert response.json()["section"].startswith("592.7")
    assert response.json()["field"].startswith(f"events[{no_more_bets + 1}]")
    assert not Event.objects.filter(stream_id="round:T1-1").exists()


def test_a_card_dealt_twice_is_refused(device):
    events, _ = criss_cross_round()
    first_card = next(i for i, e in enumerate(events) if e.TYPE == "round.card_dealt")
    body = payload_body([*events[: first_card + 1]])
    assert device.post(URL, body, format="json").status_code == 201
    again = dataclasses.replace(events[first_card + 1], card=events[first_card].card)
    response = device.post(URL, payload_body([again], first_card + 1), format="json")
    assert response.status_code == 400
    assert response.json()["error"] == "rule_violation"


def test_a_malformed_card_names_the_field(device):
    events, _ = criss_cross_round()
    body = payload_body(events[:1])
    body["events"][0]["payload"]["seats"] = ["one"]
    response = device.post(URL, body, format="json")
    assert response.status_code == 400
    assert response.json()["field"] == "events[0].payload.seats[0]"


def test_a_regulator_cannot_post_round_events(api_client, role_users):
    api_client.force_authenticate(role_users[Role.REGULATOR])
    events, _ = criss_cross_round()
    assert api_client.post(URL, payload_body(events[:1]), format="json").status_code == 403
