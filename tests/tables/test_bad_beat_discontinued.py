"""Discontinuing a Bad Beat fund (§ 553.20(i)): contributions terminated, the balance paid
out or transferred whole to another fund, as signed events on ``badbeat:<id>``."""

from __future__ import annotations

import datetime
import random

import pytest

from audit import errors
from audit.ledger import Actor, NewEvent, append
from tables.bad_beat import fund_history, hand_rules
from tables.rules.poker_room.bad_beat_fund import DISCONTINUED
from tables.rules.poker_room.events import BadBeatContributed
from tables.rules.poker_room.replay import FindingKind, replay_hand
from tables.rules.poker_room.rulesets import poker_ruleset
from tables.rules.poker_room.simulate import random_hand

pytestmark = pytest.mark.django_db
DAY = datetime.date(2026, 11, 24)
NEXT = DAY + datetime.timedelta(days=1)
HOLDEM = "PA-553-HOLDEM-NL-1-2-BB"


def _post(stream: str, *events: tuple[str, dict]) -> None:
    append(stream, [NewEvent(kind, payload) for kind, payload in events], expected_version=None,
           actor=Actor.system("test"))  # fmt: skip


def _rules(effective: str = "2026-01-01") -> dict:
    return {
        "effective_from": effective, "rate": "1/20", "maximum_cents": 100, "unit_cents": 100,
        "minimum_pot_cents": 2_000, "qualifying_hand": "Ah Ac Ad Kh Kc", "payout_share": "9/10",
        "losing_share": "1/2", "winning_share": "1/4", "table_share": "1/4",
        "tables": ["P1"], "posted_by": "shift_supervisor",
    }  # fmt: skip


def _discontinued(day: datetime.date = NEXT, **changes) -> tuple[str, dict]:
    return ("badbeat.discontinued", {
        "effective_from": day.isoformat(), "board_approval": "PGCB approval 2026-17",
        "transfer_to": "", "transferred_cents": 0, "discontinued_by": "shift_supervisor",
        "approved_by": "finance", **changes,
    })  # fmt: skip


def _hands(count: int, day: datetime.date, prefix: str = "P1") -> list[list]:
    """Hold'em hands at P1 on ``day`` naming BB1, their contributions as its rules require."""
    rules = poker_ruleset(HOLDEM)
    rng = random.Random(20)
    hands = []
    for number in range(count):
        hand_id = f"{prefix}-{day:%m%d}-{number}"
        hand = random_hand(rules, rng, hand_id=hand_id, table_id="P1", gaming_day=day,
                           ruleset_id=HOLDEM, bad_beat_fund="BB1")  # fmt: skip
        events = hand.settled()
        _post(f"poker-hand:{hand_id}", *[(e.TYPE, e.to_payload()) for e in events])
        hands.append(events)
    return hands


def _contributed(hands: list[list]) -> int:
    return sum(e.amount_cents for hand in hands for e in hand if isinstance(e, BadBeatContributed))


@pytest.fixture
def funds(role_users):
    _post("badbeat:BB1", ("badbeat.rules_posted", _rules()))
    _post("badbeat:BB2", ("badbeat.rules_posted", _rules()))


def test_553_20_i_the_discontinuation_is_signed_by_the_shift_supervisor_and_finance(funds):
    for changes, field in (({"approved_by": "shift_supervisor"}, "approved_by"),
                           ({"discontinued_by": "dealer"}, "discontinued_by"),
                           ({"approved_by": "floorperson"}, "approved_by")):  # fmt: skip
        with pytest.raises(errors.RuleViolation) as refused:
            _post("badbeat:BB1", _discontinued(**changes))
        assert (refused.value.section, refused.value.field) == (
            "553.20(i)", f"events[0].payload.{field}")
    _post("badbeat:BB1", _discontinued())
    with pytest.raises(errors.RuleViolation, match="discontinued from 2026-11-25") as refused:
        _post("badbeat:BB1", _discontinued())
    assert refused.value.section == "553.20(i)"


def test_553_20_i_after_the_discontinuation_no_hand_contributes_and_no_rules_are_posted(funds):
    contributed = _contributed(_hands(20, DAY))
    assert contributed > 0
    _post("badbeat:BB1", _discontinued())
    with pytest.raises(errors.RuleViolation) as refused:
        _hands(1, NEXT)
    assert refused.value.section == "553.20(i)"
    with pytest.raises(errors.RuleViolation) as refused:
        _post("badbeat:BB1", ("badbeat.rules_posted", _rules("2026-12-01")))
    assert refused.value.section == "553.20(i)"
    # Without a transfer the balance stays, to be paid to players as awards.
    (today,) = fund_history("BB1", NEXT, NEXT)
    assert (today.closing_cents, today.transferred_cents) == (contributed, 0)


def test_553_20_i_a_contribution_taken_after_the_discontinuation_is_found(funds):
    """A hand of the next day recorded before the discontinuation: the replay requires no
    contribution of it, and the fund's day lists the dealer's as a variance."""
    hand = next(events for events in _hands(20, NEXT) if _contributed([events]))
    _post("badbeat:BB1", _discontinued())
    assert hand_rules(hand[0]).bad_beat is None
    findings = replay_hand(hand, hand_rules(hand[0])).findings
    (finding,) = [f for f in findings if f.kind is FindingKind.WRONG_BAD_BEAT_CONTRIBUTION]
    assert (finding.expected_cents, finding.recorded_cents) == (0, _contributed([hand]))
    (today,) = fund_history("BB1", NEXT, NEXT)
    (variance,) = [v for v in today.variances if v.kind == DISCONTINUED]
    # Every contribution of the day came after contributions were terminated.
    assert (variance.section, variance.amount_cents) == ("553.20(i)", today.contributions_cents)


def test_553_20_i_the_whole_balance_is_transferred_to_another_fund(funds):
    balance = _contributed(_hands(20, DAY))
    for changes, field in (({"transfer_to": "BB2", "transferred_cents": balance - 100},
                            "transferred_cents"),
                           ({"transfer_to": "BB9", "transferred_cents": balance}, "transfer_to"),
                           ({"transfer_to": "BB1", "transferred_cents": balance}, "transfer_to"),
                           ({"transferred_cents": balance}, "transferred_cents")):  # fmt: skip
        with pytest.raises(errors.RuleViolation) as refused:
            _post("badbeat:BB1", _discontinued(**changes))
        assert (refused.value.section, refused.value.field) == (
            "553.20(i)", f"events[0].payload.{field}")
    _post("badbeat:BB1", _discontinued(transfer_to="BB2", transferred_cents=balance))
    (source,) = fund_history("BB1", NEXT, NEXT)
    (target,) = fund_history("BB2", NEXT, NEXT)
    assert (source.opening_cents, source.transferred_cents, source.closing_cents) == (
        balance, -balance, 0)
    assert (target.opening_cents, target.transferred_cents, target.closing_cents) == (
        0, balance, balance)


def test_553_20_g_a_fund_is_transferred_only_once_its_verified_awards_are_paid(funds):
    from tests.tables.test_bad_beat_awards import SHARES, _bad_beat_hand, _paid, _verified

    _bad_beat_hand()
    _post("badbeat:BB1", _verified())
    transfer = _discontinued(transfer_to="BB2", transferred_cents=100)
    with pytest.raises(errors.RuleViolation) as refused:
        _post("badbeat:BB1", transfer)
    assert (refused.value.section, refused.value.field) == (
        "553.20(g)", "events[0].payload.transfer_to")
    _post("badbeat:BB1", _paid())
    left = 100 - sum(SHARES.values())
    _post("badbeat:BB1", _discontinued(transfer_to="BB2", transferred_cents=left))
    (target,) = fund_history("BB2", NEXT, NEXT)
    assert target.closing_cents == left == 11
