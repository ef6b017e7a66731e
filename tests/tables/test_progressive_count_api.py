"""A table device posts the dealer's progressive chip count at "no more bets"
(``round.progressive_counted``, § 555.8(b)): accepted after the lock-out, refused
before it naming the section, and a count that differs from the accepted wagers is
the round's finding."""

from __future__ import annotations

import pytest

from audit.ledger import Actor, NewEvent, append
from audit.models import Event
from casino.roles import Role
from tables.models import Finding, Table
from tables.rules.events import DealingMethod, NoMoreBets, ProgressiveCounted
from tests.rules.progressives.test_progressive_count import csp_round
from tests.tables.helpers import payload_body

pytestmark = pytest.mark.django_db
URL = "/api/v1/streams/round:R-C/events"


@pytest.fixture
def device(api_client, role_users):
    from tests.tables.test_table_day import make_floor

    make_floor(role_users)
    Table.objects.create(table_id="CSP-1", game="caribbean_stud_poker", ruleset_id="PA-555-2010",
                         min_wager_cents=500, max_wager_cents=50000,
                         dealing_method=DealingMethod.MANUAL_SHOE)  # fmt: skip
    append("table:CSP-1:2024-05-01", [NewEvent("table.opened", {
        "opener": {"500": 40}, "dealer": "dealer", "floorperson": "floorperson"})],
        expected_version=0, actor=Actor.system("import"))  # fmt: skip
    api_client.force_authenticate(role_users[Role.TABLE_DEVICE])
    return api_client


def _counted_at(events: list) -> int:
    return next(i for i, event in enumerate(events) if isinstance(event, ProgressiveCounted))


def test_555_8_b_a_device_posts_the_count_and_a_short_count_is_the_round_s_finding(device):
    from audit.projections import run
    from tables.projections import ROUNDS

    events = csp_round(1)
    dealt = [e for e in events if e.TYPE != "round.decision"]  # the dealer's cards still down
    response = device.post(URL, payload_body(dealt), format="json")
    assert response.status_code == 201, response.json()
    assert Event.objects.filter(stream_id="round:R-C",
                                event_type="round.progressive_counted").count() == 1  # fmt: skip
    run(ROUNDS)
    finding = Finding.objects.get(round_id="round:R-C", kind="DEALER_PROCEDURE")
    assert (finding.seat, finding.wager, finding.section) == (0, "PROGRESSIVE", "555.8(b)")
    assert finding.detail.startswith("1 progressive chip(s) collected, 2 wager(s) accepted")


def test_555_8_b_a_count_before_no_more_bets_is_refused_naming_the_section(device):
    events = csp_round(2)
    at = _counted_at(events)
    early = [*[e for e in events[:at] if not isinstance(e, NoMoreBets)], events[at]]
    response = device.post(URL, payload_body(early), format="json")
    assert response.status_code == 400
    body = response.json()
    assert (body["error"], body["section"]) == ("rule_violation", "555.8(b)")
    assert body["message"].startswith("§ 555.8(b)")
    assert not Event.objects.filter(stream_id="round:R-C").exists()


def test_a_negative_count_is_refused_naming_the_field(device):
    events = csp_round(2)
    body = payload_body(events[: _counted_at(events) + 1])
    body["events"][-1]["payload"]["collected_chips"] = -1
    response = device.post(URL, body, format="json")
    assert response.status_code == 400
    assert "collected_chips" in response.json()["field"]
