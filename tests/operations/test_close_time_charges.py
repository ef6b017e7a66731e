"""Time charges (§ 553.15(b)(3)) on ``timecharge:<table>:<day>``: the floorperson's
verification, the close's findings, and poker revenue as the rake and the time charges,
never the pots; the day's seal covers the stream."""

from __future__ import annotations

import datetime

import pytest

from audit import errors
from audit.ledger import Actor, NewEvent, append, read_stream
from operations.close import REPLAYED, close_gaming_day, close_stream_id
from tables.day_streams import streams_of_day
from tables.models import TableDayFigures
from tables.poker_room import play_poker_day
from tables.time_charges import time_charge_stream_id
from tests.operations.test_close import DAY, IN_DAY, NEXT_MORNING

pytestmark = pytest.mark.django_db
STREAM = time_charge_stream_id("PK-HE-01", DAY)
START = datetime.datetime(2024, 5, 1, 14, 0, tzinfo=datetime.UTC)


def _assessed(period: int, amount: int, seats=(1, 2, 3, 4), **changes):
    start = START + period * datetime.timedelta(minutes=30)
    return "timecharge.assessed", {
        "ruleset_id": "PA-553-TIME-PLAYER-30", "period_start": start.isoformat(),
        "min_wager_cents": 200, "max_wager_cents": 400, "seats": list(seats),
        "amount_cents": amount, "dealer": "dealer", **changes,
    }  # fmt: skip


def _verified(period: int, amount: int, by: str = "floorperson"):
    start = START + period * datetime.timedelta(minutes=30)
    return "timecharge.verified", {"period_start": start.isoformat(), "amount_cents": amount,
                                   "verified_by": by}  # fmt: skip


def _post(*events, stream: str = STREAM) -> None:
    append(stream, [NewEvent(kind, payload) for kind, payload in events],
           expected_version=None, actor=Actor.system("test"))  # fmt: skip


def test_553_15_b_3_v_only_a_floorperson_or_above_verifies_an_assessed_charge(role_users):
    _post(_assessed(0, 1_200))
    with pytest.raises(errors.RuleViolation) as refused:
        _post(_verified(0, 1_200, by="dealer"))
    assert (refused.value.section, refused.value.field) == (
        "553.15(b)(3)(v)", "events[0].payload.verified_by")  # fmt: skip
    with pytest.raises(errors.RuleViolation) as refused:
        _post(_verified(1, 1_200))
    assert (refused.value.section, refused.value.field) == (
        "553.15(b)(3)(v)", "events[0].payload.period_start")  # fmt: skip
    with pytest.raises(errors.RuleViolation) as refused:
        _post(_assessed(1, 1_200, ruleset_id="PA-553-TIME-NONE"))
    assert refused.value.section == "553.15(a)"
    with pytest.raises(errors.RuleViolation, match="already assessed"):
        _post(_assessed(0, 1_200))
    _post(_verified(0, 1_200, by="shift_supervisor"))


@pytest.fixture
def charged_day(casino, play, ledger_clock):
    """The poker room's day; at its Hold'em table four half hours of time charges ($3 a
    player, four seated): one short, one never verified. A table with time charges only."""
    play(rounds=5)
    ledger_clock.at = IN_DAY
    play_poker_day(DAY, hands_per_table=10, seed=3, supervisor="shift_supervisor")
    _post(_assessed(0, 1_200), _verified(0, 1_200), _assessed(1, 1_200), _verified(1, 1_200),
          _assessed(2, 900), _verified(2, 900), _assessed(3, 1_200))  # fmt: skip
    _post(_assessed(0, 600, seats=(1, 2)), _verified(0, 600),
          stream=time_charge_stream_id("PK-TC-01", DAY))  # fmt: skip
    ledger_clock.at = NEXT_MORNING
    close_gaming_day(DAY, requested_by="finance", force=True)
    return next(e for e in read_stream(close_stream_id(DAY)) if e.event_type == REPLAYED)


def test_553_15_b_3_the_close_finds_a_wrong_and_an_unverified_time_charge(charged_day):
    findings = charged_day.payload["findings"]
    assert findings["WRONG_TIME_CHARGE § 553.15(b)(3)(i)"] == 1
    assert findings["UNVERIFIED_TIME_CHARGE § 553.15(b)(3)(v)"] == 1
    charges = charged_day.payload["time_charges"]["PK-HE-01"]
    assert (charges["periods"], charges["required_cents"], charges["collected_cents"],
            charges["verified_cents"]) == (4, 4_800, 4_500, 3_300)  # fmt: skip


def test_553_15_a_poker_revenue_is_the_rake_and_the_time_charges_never_the_pots(charged_day):
    hands = charged_day.payload["poker"]["PK-HE-01"]
    row = TableDayFigures.objects.get(table_id="PK-HE-01", gaming_day=DAY)
    assert row.theoretical_win_cents == hands["required_rake_cents"] + 4_800
    assert row.handle_cents == row.collected_cents == row.paid_cents == 0
    charges_only = TableDayFigures.objects.get(table_id="PK-TC-01", gaming_day=DAY)
    assert (charges_only.theoretical_win_cents, charges_only.rounds) == (600, 0)


def test_the_day_s_seal_covers_its_time_charge_streams(charged_day):
    assert {STREAM, time_charge_stream_id("PK-TC-01", DAY)} <= set(streams_of_day(DAY))


def test_553_15_b_3_manage_py_replay_judges_the_day_s_time_charges(role_users):
    import io

    from django.core.management import call_command

    _post(_assessed(0, 1_200), _verified(0, 1_200), _assessed(1, 900))
    out = io.StringIO()
    call_command("replay", "--gaming-day", DAY.isoformat(), "--no-progress", stdout=out)
    text = out.getvalue()
    assert "Time charges at PK-HE-01: 2 periods, 21.00 collected, 24.00 required" in text
    assert "WRONG_TIME_CHARGE § 553.15(b)(3)(i)" in text
    assert "UNVERIFIED_TIME_CHARGE § 553.15(b)(3)(v)" in text
