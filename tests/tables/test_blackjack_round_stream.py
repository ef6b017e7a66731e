"""A table device records a Double Attack Blackjack round (§ 581) through the API; what the
chapter forbids is refused with its section, kept with the refused submissions, and nothing
of the refused batch is written."""

from __future__ import annotations

import dataclasses
import datetime

import pytest

from audit.models import Event, RejectedSubmission
from casino.roles import Role
from tables.rules.cards import Card
from tables.rules.events import Decision, IrregularityReported, RoundClosed
from tests.rules.test_double_attack_blackjack import bet, deal, dealer, opened, player
from tests.tables.helpers import payload_body

pytestmark = pytest.mark.django_db
URL = "/api/v1/streams/round:T1-1/events"
DAY = datetime.date(2024, 5, 1)


@pytest.fixture
def device(api_client, role_users):
    from tests.tables.test_table_day import make_floor

    make_floor(role_users).open_table()  # table T1 open on 2024-05-01
    api_client.force_authenticate(role_users[Role.TABLE_DEVICE])
    return api_client


def start(seats=(1,)):
    return dataclasses.replace(opened("T1-1", seats=seats), table_id="T1", gaming_day=DAY)


def post(device, events, version):
    return device.post(URL, payload_body(events, version), format="json")


def refused(device, recorded, event, section, field):
    """Post ``event`` after ``recorded``: refused with ``section`` naming ``field``, kept."""
    assert post(device, recorded, 0).status_code == 201
    response = post(device, [event], len(recorded))
    assert response.status_code == 400, response.json()
    body = response.json()
    assert (body["error"], body["section"]) == ("rule_violation", section)
    assert body["field"] == f"events[0].payload.{field}" if field else "events[0].payload"
    assert body["message"].startswith(f"§ {section}")
    assert RejectedSubmission.objects.get(stream_id="round:T1-1").section == section
    assert Event.objects.filter(stream_id="round:T1-1").count() == len(recorded)


def test_a_device_records_a_double_attack_round_step_by_step(device):
    events = [start(), bet(1, 1_000), bet(1, 500, "BUST_IT"),
              *deal("6h", "Jh", {1: "9c 2d"}, attack={1: 1_000}),
              Decision(seat=1, choice="double", amount_cents=2_000), player(1, "Ks", "3"),
              dealer("Qc", "3"), RoundClosed()]  # fmt: skip
    for version, event in enumerate(events):
        response = post(device, [event], version)
        assert response.status_code == 201, (event, response.json())
    assert Event.objects.filter(stream_id="round:T1-1").count() == len(events)


def test_581_3_a_a_ten_is_refused_at_a_spanish_table(device):
    recorded = [start(), bet(1, 1_000), *deal("6h", "Jh", {1: "9c 2d"})[:1]]
    refused(device, recorded, dealer("Th", "1"), "581.3(a)", "card")


def test_581_11_c_a_split_past_four_hands_is_refused(device):
    D = Decision  # noqa: N806
    recorded = [start(), bet(1, 1_000), *deal("6h", "9c", {1: "7c 7d"})]
    for _ in range(3):
        recorded += [D(seat=1, choice="split", amount_cents=1_000), player(1, "7s", "2")]
    refused(device, recorded, D(seat=1, choice="split", amount_cents=1_000), "581.11(c)",
            "choice")


def test_581_8_b_insurance_above_half_the_bet_is_refused(device):
    recorded = [start(), bet(1, 1_000), *deal("Ah", "5c", {1: "9c 9d"})]
    refused(device, recorded, bet(1, 600, "INSURANCE"), "581.8(b)", "amount_cents")


def test_581_6_e_a_double_attack_wager_after_the_players_cards_is_refused(device):
    recorded = [start(), bet(1, 1_000), *deal("6h", "9c", {1: "7c 7d"})[:3]]
    refused(device, recorded, bet(1, 1_000, "DOUBLE_ATTACK"), "581.6(e)", "wager")


def test_581_7_e_a_bust_it_wager_after_no_more_bets_is_refused(device):
    recorded = [start(), bet(1, 1_000), *deal("6h", "9c", {1: "7c 7d"})[:1]]
    refused(device, recorded, bet(1, 500, "BUST_IT"), "581.7(e)", "wager")


def test_581_13_c_a_card_to_a_seat_that_refused_the_exposed_card_is_refused(device):
    """§ 581.13(c): the player refusing the exposed card drawn in error is dealt no more."""
    recorded = [start(seats=(1, 2)), bet(1, 1_000), bet(2, 1_000),
                *deal("6h", "9c", {1: "9d 2d", 2: "Kc 8c"}),
                IrregularityReported(kind="CARD_DRAWN_IN_ERROR_EXPOSED", card=Card.parse("Qs")),
                IrregularityReported(kind="EXPOSED_CARD_REFUSED", seat=1)]  # fmt: skip
    refused(device, recorded, player(1, "Qs", "3"), "581.13(c)", "seat")


def test_581_13_b_c_the_round_viewer_lists_what_each_irregularity_reported(device, admin_client):
    """The history names the kind, card and seat beside ``irregularity`` (§ 581.13(b)-(c))."""
    from django.contrib.admin.utils import quote

    from audit import projections

    events = [start(seats=(1, 2)), bet(1, 1_000), bet(2, 1_000),
              *deal("6h", "9c", {1: "9d 2d", 2: "Kc 8c"}),
              IrregularityReported(kind="CARD_DRAWN_IN_ERROR_EXPOSED", card=Card.parse("Qs")),
              IrregularityReported(kind="EXPOSED_CARD_REFUSED", seat=1),
              Decision(seat=2, choice="hit"), player(2, "Qs", "3")]  # fmt: skip
    assert post(device, events, 0).status_code == 201
    projections.run(projections.PROJECTIONS["tables.rounds"])
    page = admin_client.get(f"/admin/tables/round/{quote('round:T1-1')}/change/")
    history = page.content.decode().split('id="round-history"')[1]
    assert '<td>irregularity <small class="observed">CARD_DRAWN_IN_ERROR_EXPOSED Qs</small>' in (
        history)
    assert '<td>irregularity <small class="observed">EXPOSED_CARD_REFUSED seat 1</small>' in (
        history)
    assert "<td>decision</td>" in history
