"""A Bad Beat award (§ 553.20(f)-(h)): verified by the poker shift supervisor, the display
pending adjustment until finance pays and adjusts it, and finance's amount against the
display and the fund, once a day and after every award."""

from __future__ import annotations

import datetime

import pytest

from audit import errors
from audit.ledger import Actor, NewEvent, append
from casino.roles import Role
from tables.bad_beat import fund_history
from tables.rules.poker_room.bad_beat_fund import AWARD, DISPLAY, UNVERIFIED
from tables.rules.poker_room.events import Action, HandOpened
from tables.rules.poker_room.record import Recorder
from tests.rules.poker_room.table import holdem_deck
from tests.tables.test_bad_beat_fund import _rules

pytestmark = pytest.mark.django_db
DAY = datetime.date(2026, 11, 24)
FUND = "badbeat:BB1"
HAND = "P1-BB"
#: The fund after the hand: its one contribution, $1 (5 % of the $27 main pot, at most $1).
FUND_CENTS = 100
#: The posted shares of 9/10 of $1: the losing hand half, the winning hand a quarter, the
#: quarter left to the one other player dealt in; 11 cents stay in the fund.
SHARES = {1: 45, 2: 22, 3: 22}


def _post(*events: tuple[str, dict], stream: str = FUND, actor: Actor | None = None) -> None:
    append(stream, [NewEvent(kind, payload) for kind, payload in events], expected_version=None,
           actor=actor or Actor.system("test"))  # fmt: skip


def _bad_beat_hand(hand_id: str = HAND, board: str = "Ac Kh Ks 2d 9c", *, table_id: str = "P1",
                   fund: str = "BB1", day: datetime.date = DAY) -> None:  # fmt: skip
    """Seat 1's aces full of kings lose to seat 2's four kings: a Bad Beat (§ 553.1)."""
    opened = HandOpened(
        hand_id=hand_id, table_id=table_id, gaming_day=day,
        ruleset_id="PA-553-HOLDEM-NL-1-2-BB", seats=(1, 2, 3), players=("ann", "bob", "cy"),
        stacks_cents=(1_000, 5_000, 5_000), button=3, bad_beat_fund=fund,
    )  # fmt: skip
    deck = holdem_deck(["AhAd", "KcKd", "QcQd"], board, burns="4c 4d 4h")
    hand = Recorder(opened, deck)
    hand.act(3, Action.RAISE, 600).act(1, Action.RAISE, 1_000)
    hand.act(2, Action.CALL).act(3, Action.CALL)
    for _ in range(3):
        hand.act(2, Action.CHECK).act(3, Action.CHECK)
    _post(*[(e.TYPE, e.to_payload()) for e in hand.show_all().settled()],
          stream=f"poker-hand:{hand_id}")  # fmt: skip


def _verified(by: str = "shift_supervisor", hand_id: str = HAND) -> tuple[str, dict]:
    return "badbeat.award_verified", {"gaming_day": DAY.isoformat(), "hand_id": hand_id,
                                      "verified_by": by}  # fmt: skip


def _paid(shares: dict[int, int] = SHARES, hand_id: str = HAND) -> tuple[str, dict]:
    return "badbeat.award_paid", {
        "gaming_day": DAY.isoformat(), "hand_id": hand_id, "location": "table",
        "shares": [{"seat": s, "amount_cents": c} for s, c in shares.items()],
        "paid_by": "finance",
    }  # fmt: skip


def _adjusted(finance: int, displayed: int | None = None, **changes) -> tuple[str, dict]:
    return "badbeat.display_adjusted", {
        "gaming_day": DAY.isoformat(), "finance_cents": finance,
        "displayed_cents": finance if displayed is None else displayed,
        "adjusted_by": "finance", "witnessed_by": "floorperson", **changes,
    }  # fmt: skip


def _day(**qualifying):
    (day,) = fund_history("BB1", DAY, DAY, qualifying=qualifying or None)
    return day, {v.kind: v for v in day.variances}


@pytest.fixture
def hand(role_users):
    _post(("badbeat.rules_posted", _rules("2026-01-01")))
    _bad_beat_hand()


def test_553_20_f_only_the_poker_shift_supervisor_verifies_a_bad_beat_hand(hand):
    with pytest.raises(errors.RuleViolation) as refused:
        _post(_verified(by="floorperson"))
    assert (refused.value.section, refused.value.field) == (
        "553.20(f)", "events[0].payload.verified_by")  # fmt: skip
    with pytest.raises(errors.RuleViolation) as refused:
        _post(_verified(hand_id="P1-nothing"))
    assert (refused.value.section, refused.value.field) == (
        "553.20(f)", "events[0].payload.hand_id")  # fmt: skip
    with pytest.raises(errors.RuleViolation) as refused:
        _post(_paid())
    assert refused.value.section == "553.20(f)"  # verified before it is paid
    _post(_verified())
    with pytest.raises(errors.RuleViolation, match="already verified"):
        _post(_verified())


def test_553_20_f_1_the_display_is_pending_adjustment_until_finance_pays_and_adjusts(hand):
    _post(_verified())
    day, _ = _day()
    assert (day.closing_cents, day.pending) == (FUND_CENTS, (HAND,))
    _post(_paid())
    day, variances = _day()
    assert day.pending == (HAND,) and day.closing_cents == FUND_CENTS - sum(SHARES.values())
    assert "not followed by an adjustment" in variances[DISPLAY].details[-1]
    _post(_adjusted(day.closing_cents))
    day, variances = _day()
    assert (day.pending, day.awards, day.awards_cents) == ((), 1, 89)
    assert (day.opening_cents, day.contributions_cents, day.closing_cents) == (0, 100, 11)
    assert variances == {}


def test_553_20_g_a_verified_award_not_paid_is_a_variance(hand):
    _post(_verified(), _adjusted(FUND_CENTS))
    _, variances = _day()
    assert set(variances) == {AWARD}
    assert variances[AWARD].details == (f"§ 553.20(g): hand {HAND} was verified and not paid",)


def test_553_20_b_3_an_award_other_than_the_posted_shares_is_a_variance(hand):
    _post(_verified(), _paid({1: 50, 2: 22, 3: 22}), _adjusted(FUND_CENTS - 94))
    _, variances = _day()
    assert set(variances) == {AWARD}
    assert (variances[AWARD].section, variances[AWARD].amount_cents) == ("553.20(b)(3)", 5)
    assert "seat 1 $0.45, seat 2 $0.22, seat 3 $0.22" in variances[AWARD].details[0]


def test_553_20_b_3_paying_a_hand_that_is_no_bad_beat_is_a_variance(hand):
    """A hand verified although the replay finds no Bad Beat in it: its payment is found."""
    _bad_beat_hand("P1-plain", board="2c 7h 9s Td 3c")  # seat 1's aces win
    _post(_verified(hand_id="P1-plain"), _paid({1: 10}, hand_id="P1-plain"))
    _, variances = _day()
    assert variances[AWARD].amount_cents == 10
    assert "no Bad Beat under the posted rules" in variances[AWARD].details[0]


def test_553_20_h_the_display_is_adjusted_at_least_once_a_day(hand):
    _, variances = _day()
    assert variances[DISPLAY].section == "553.20(h)"
    assert "not adjusted on 2026-11-24" in variances[DISPLAY].details[0]


def test_553_20_h_2_finance_s_amount_must_equal_the_display_and_the_fund(hand):
    _post(_adjusted(FUND_CENTS, displayed=FUND_CENTS + 500))
    day, variances = _day()
    assert day.displayed_cents == FUND_CENTS + 500
    assert (variances[DISPLAY].section, variances[DISPLAY].amount_cents) == ("553.20(h)(2)", 500)
    with pytest.raises(errors.RuleViolation) as refused:
        _post(_adjusted(FUND_CENTS, witnessed_by="finance"))
    assert refused.value.section == "553.20(h)(1)"
    with pytest.raises(errors.RuleViolation) as refused:
        _post(_adjusted(FUND_CENTS, adjusted_by="floorperson", witnessed_by="shift_supervisor"))
    assert (refused.value.section, refused.value.field) == (
        "553.20(h)(1)", "events[0].payload.adjusted_by")  # fmt: skip


def test_553_20_f_a_bad_beat_the_replay_found_and_nobody_verified_is_a_variance(hand):
    _post(_adjusted(FUND_CENTS))
    _, variances = _day()
    assert variances == {}
    (day,) = fund_history("BB1", DAY, DAY, qualifying={DAY: [HAND]})
    (variance,) = day.variances
    assert (variance.kind, variance.section) == (UNVERIFIED, "553.20(f)")


def test_553_20_h_the_next_day_opens_with_the_fund_as_it_closed(hand):
    _post(_verified(), _paid(), _adjusted(11))
    first, second = fund_history("BB1", DAY, DAY + datetime.timedelta(days=1))
    assert (second.opening_cents, second.closing_cents, second.displayed_cents) == (11, 11, 11)
    assert (second.contributions_cents, second.awards) == (0, 0)
    assert [v.kind for v in second.variances] == [DISPLAY]  # not adjusted that day
    assert (first.closing_cents, first.variances) == (11, ())


def test_553_20_f_1_the_fund_page_shows_the_balance_and_the_pending_adjustment(
    hand, client, role_users
):
    _post(_verified())
    role_users[Role.FINANCE].is_staff = True
    role_users[Role.FINANCE].save()
    client.force_login(role_users[Role.FINANCE])
    html = client.get("/admin/bad-beat-funds/BB1/?day=2026-11-24").content.decode()
    assert "the fund holds <strong>$1.00</strong>" in html
    assert 'id="pending-adjustment"' in html and "/admin/poker-hands/P1-BB/" in html
    _post(_paid(), _adjusted(11))
    html = client.get("/admin/bad-beat-funds/BB1/?day=2026-11-24").content.decode()
    assert 'id="pending-adjustment"' not in html and "the display shows <strong>$0.11" in html
    assert client.get("/admin/bad-beat-funds/BB9/").status_code == 404
    assert client.get("/admin/bad-beat-funds/BB1/?day=24.11.").status_code == 400
    client.force_login(role_users[None])
    assert client.get("/admin/bad-beat-funds/BB1/").status_code == 302  # not staff
