"""A Bad Beat fund on ``badbeat:<id>`` (§ 553.20): effective-dated rules, the two-person
count, the cage's verification, and the count against the hands' contributions."""

from __future__ import annotations

import datetime
import random

import pytest

from audit import errors
from audit.ledger import Actor, NewEvent, append
from casino.roles import Role
from tables.bad_beat import count_variances, hand_rules
from tables.rules.poker_room.events import BadBeatContributed
from tables.rules.poker_room.replay import FindingKind, replay_hand
from tables.rules.poker_room.rulesets import poker_ruleset
from tables.rules.poker_room.simulate import random_hand

pytestmark = pytest.mark.django_db
DAY = datetime.date(2026, 11, 24)
FUND = "badbeat:BB1"


def _rules(effective: str, rate: str = "1/20", **changes) -> dict:
    return {
        "effective_from": effective, "rate": rate, "maximum_cents": 100, "unit_cents": 100,
        "minimum_pot_cents": 2_000, "qualifying_hand": "Ah Ac Ad Kh Kc", "payout_share": "9/10",
        "losing_share": "1/2", "winning_share": "1/4", "table_share": "1/4",
        "tables": ["P1"], "posted_by": "shift_supervisor", **changes,
    }  # fmt: skip


def _post(stream: str, *events: tuple[str, dict], actor: Actor | None = None) -> None:
    append(stream, [NewEvent(kind, payload) for kind, payload in events], expected_version=None,
           actor=actor or Actor.system("test"))  # fmt: skip


def _hands(count: int) -> list:
    """Hold'em hands at P1 on DAY contributing to BB1, with a correct dealer."""
    rules = hand_rules_for_day()
    rng = random.Random(20)
    hands = []
    for number in range(count):
        hand = random_hand(rules, rng, hand_id=f"P1-{number}", table_id="P1", gaming_day=DAY,
                           ruleset_id="PA-553-HOLDEM-NL-1-2-BB", bad_beat_fund="BB1")  # fmt: skip
        events = hand.settled()
        _post(f"poker-hand:P1-{number}", *[(e.TYPE, e.to_payload()) for e in events])
        hands.append(events)
    return hands


def hand_rules_for_day():
    opened = random_hand(poker_ruleset("PA-553-HOLDEM-NL-1-2-BB"), random.Random(1),
                         gaming_day=DAY, ruleset_id="PA-553-HOLDEM-NL-1-2-BB",
                         bad_beat_fund="BB1").events[0]  # fmt: skip
    return hand_rules(opened)


@pytest.fixture
def fund(role_users):
    _post(FUND, ("badbeat.rules_posted", _rules("2026-01-01")),
          ("badbeat.rules_posted", _rules("2026-11-01", rate="1/10", maximum_cents=200)))


def test_553_20_b_a_hand_follows_the_rules_in_force_on_its_gaming_day(fund):
    assert hand_rules_for_day().bad_beat.maximum_cents == 200
    with pytest.raises(errors.RuleViolation) as refused:
        _post(FUND, ("badbeat.rules_posted", _rules("2026-10-01")))
    assert refused.value.field == "events[0].payload.effective_from"
    with pytest.raises(errors.RuleViolation, match="553.20"):
        _post(FUND, ("badbeat.rules_posted", _rules("2026-12-01", losing_share="3/4")))


def test_553_20_c_a_contribution_under_the_old_rules_is_a_finding(fund):
    """The November rules take $2 from a big pot; a dealer still taking the old $1 is found."""
    big = [hand for hand in _hands(30)
           if BadBeatContributed(pot=0, amount_cents=200) in hand]  # fmt: skip
    assert big, "the seed must give a pot of $40 or more"
    old = [BadBeatContributed(pot=0, amount_cents=100)
           if e == BadBeatContributed(pot=0, amount_cents=200) else e for e in big[0]]  # fmt: skip
    (finding,) = replay_hand(old, hand_rules(big[0][0])).findings
    assert (finding.kind, finding.section) == (
        FindingKind.WRONG_BAD_BEAT_CONTRIBUTION, "553.20(c)")  # fmt: skip
    assert finding.expected_cents - finding.recorded_cents == 100


def test_553_20_d_the_count_against_the_contributions_is_a_variance(fund, role_users):
    events = _hands(30)
    total = sum(e.amount_cents for hand in events for e in hand
                if isinstance(e, BadBeatContributed))  # fmt: skip
    assert count_variances(DAY)["BB1"].difference_cents == -total  # not counted yet
    count = {"gaming_day": DAY.isoformat(), "amount_cents": total - 100, "location": "table",
             "counted_by": "dealer", "witnessed_by": "floorperson"}  # fmt: skip
    _post(FUND, ("badbeat.counted", count))
    variance = count_variances(DAY)["BB1"]
    assert (variance.difference_cents, variance.section) == (-100, "553.20(d)")
    _post(FUND, ("badbeat.count_verified", {"gaming_day": DAY.isoformat(),
                                            "amount_cents": total, "cashier": "cage_cashier"}))
    assert count_variances(DAY) == {}


def test_553_20_d_1_the_count_is_signed_by_two_people_of_the_right_roles(fund, role_users):
    count = {"gaming_day": DAY.isoformat(), "amount_cents": 500, "location": "table",
             "counted_by": "dealer", "witnessed_by": "dealer"}  # fmt: skip
    with pytest.raises(errors.RuleViolation) as refused:
        _post(FUND, ("badbeat.counted", count))
    assert refused.value.section == "553.20(d)(1)"
    with pytest.raises(errors.RuleViolation, match="floorperson"):
        _post(FUND, ("badbeat.counted", {**count, "witnessed_by": "cage_cashier"}))
    with pytest.raises(errors.RuleViolation) as refused:
        _post(FUND, ("badbeat.count_verified", {"gaming_day": "2026-11-23", "amount_cents": 0,
                                                "cashier": "cage_cashier"}))
    assert refused.value.section == "553.20(e)"


def test_the_dealer_records_a_count_through_the_api(fund, role_users, api_client):
    api_client.force_authenticate(role_users[Role.DEALER])
    body = {"expected_version": 2, "events": [{"type": "badbeat.counted", "payload": {
        "gaming_day": DAY.isoformat(), "amount_cents": 0, "location": "table",
        "counted_by": "dealer", "witnessed_by": "dealer"}}]}  # fmt: skip
    response = api_client.post(f"/api/v1/streams/{FUND}/events", body, format="json")
    assert (response.status_code, response.json()["section"]) == (400, "553.20(d)(1)")
