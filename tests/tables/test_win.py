"""A table's win for a gaming day — closing inventory + credits + drop −
opening inventory − fills, as the issue cites Pennsylvania § 601a.9(c),
Mississippi 13-7-3.3 and Maryland COMAR 36.05.03.15(D) (texts not among our
sources) — and the hold, checked against days computed by hand.
"""

from __future__ import annotations

import datetime
from fractions import Fraction

import pytest

from casino.roles import Role
from tables.models import Game, Table
from tables.win import (
    TableWin,
    WinNotAvailable,
    by_day,
    by_game,
    day_win,
    hold,
    roll_up,
    table_win,
)
from tests.tables.test_count import COUNT, entered, recount, verified
from tests.tables.test_slips import approved, fill, voided
from tests.tables.test_table_day import TABLE, closed, make_floor

pytestmark = pytest.mark.django_db

DAY = datetime.date(2024, 5, 1)
# Opener 72,000 (OPENER in test_table_day). Closer: $10 + $100 + $1,000 = 111,000.
CLOSER = {"100": 10, "500": 20, "2500": 40}


@pytest.fixture
def floor(role_users):
    floor = make_floor(role_users)
    floor.open_table()
    return floor


def post_ok(floor, role, stream_id, events, version=0):
    response = floor.post(role, stream_id, events, version)
    assert response.status_code == 201, response.json()


def play_the_day(floor):
    """A fill of 200,000 and a credit of 50,000, both approved; a fill of
    50,000 approved then voided (it must not count); the table closes."""
    post_ok(floor, Role.CAGE_CASHIER, "slip:2024-000001", [fill()])
    post_ok(floor, Role.FLOORPERSON, "slip:2024-000001", [approved()], 1)
    post_ok(floor, Role.CAGE_CASHIER, "slip:2024-000002", [fill({"2500": 20}, kind="credit")])
    post_ok(floor, Role.FLOORPERSON, "slip:2024-000002", [approved()], 1)
    post_ok(floor, Role.CAGE_CASHIER, "slip:2024-000003", [fill({"500": 100})])
    post_ok(floor, Role.FLOORPERSON, "slip:2024-000003", [approved()], 1)
    post_ok(floor, Role.FLOORPERSON, "slip:2024-000003", [voided()], 2)
    floor.countersign("slip:2024-000003", 3, who=Role.SHIFT_SUPERVISOR, signer="shift_supervisor")
    post_ok(floor, Role.FLOORPERSON, TABLE, [closed(CLOSER)], 2)
    floor.countersign(TABLE, 3)


# --- the pure formula -----------------------------------------------------------------


def test_the_win_is_closer_plus_credits_plus_drop_less_opener_and_fills():
    assert table_win(72_000, 111_000, 200_000, 50_000, 210_000) == 99_000
    assert table_win(opener_cents=100_000, closer_cents=100_000, fills_cents=0,
                     credits_cents=0, drop_cents=0) == 0  # fmt: skip
    # A table that needed more fills than its drop covered lost money.
    assert table_win(72_000, 60_000, 300_000, 0, 150_000) == -162_000


def test_the_hold_is_the_win_over_the_drop_and_none_without_a_drop():
    assert hold(99_000, 210_000) == Fraction(33, 70)
    assert hold(-5_000, 100_000) == Fraction(-1, 20)
    assert hold(0, 0) is None
    assert hold(-12_000, 0) is None


# --- a day read from the ledger ------------------------------------------------------------


def test_the_win_of_a_day_with_fills_credits_and_a_voided_slip(floor):
    play_the_day(floor)
    post_ok(floor, Role.FINANCE, COUNT, [entered()])  # 200,000 currency + 10,000 chips
    post_ok(floor, Role.SHIFT_SUPERVISOR, COUNT, [verified()], 1)
    win = day_win("T1", "2024-05-01")
    assert (win.opener_cents, win.closer_cents) == (72_000, 111_000)
    assert (win.fills_cents, win.credits_cents) == (200_000, 50_000)  # the void is left out
    assert (win.currency_cents, win.chips_cents, win.drop_cents) == (200_000, 10_000, 210_000)
    # 111,000 + 50,000 + 210,000 − 72,000 − 200,000
    assert win.win_cents == 99_000
    assert win.hold == Fraction(33, 70)
    assert (win.table_id, win.game, win.gaming_day) == ("T1", Game.CRISS_CROSS_POKER, DAY)


def test_a_verified_recount_replaces_the_drop(floor):
    play_the_day(floor)
    post_ok(floor, Role.FINANCE, COUNT, [entered()])
    post_ok(floor, Role.SHIFT_SUPERVISOR, COUNT, [verified()], 1)
    post_ok(floor, Role.FINANCE, COUNT, [recount(currency={"2000": 45, "10000": 10})], 2)
    with pytest.raises(WinNotAvailable, match="has no verified count"):
        day_win("T1", DAY)
    post_ok(floor, Role.SHIFT_SUPERVISOR, COUNT, [verified()], 3)
    win = day_win("T1", DAY)
    assert win.drop_cents == 200_000  # 90,000 + 100,000 + 10,000 chips
    assert win.win_cents == 89_000
    assert win.hold == Fraction(89, 200)


def test_a_day_without_a_drop_has_no_hold(floor):
    post_ok(floor, Role.FLOORPERSON, TABLE, [closed(CLOSER)], 2)
    floor.countersign(TABLE, 3)
    post_ok(floor, Role.FINANCE, COUNT, [entered(currency={}, chips={})])
    post_ok(floor, Role.SHIFT_SUPERVISOR, COUNT, [verified()], 1)
    win = day_win("T1", DAY)
    assert (win.drop_cents, win.win_cents, win.hold) == (0, 39_000, None)


def test_there_is_no_win_before_the_close_or_without_a_verified_count(floor):
    post_ok(floor, Role.FINANCE, COUNT, [entered()])
    post_ok(floor, Role.SHIFT_SUPERVISOR, COUNT, [verified()], 1)
    with pytest.raises(WinNotAvailable, match="T1 is not closed on gaming day 2024-05-01"):
        day_win("T1", DAY)
    with pytest.raises(WinNotAvailable, match="was not opened on gaming day 2024-05-02"):
        day_win("T1", "2024-05-02")
    with pytest.raises(WinNotAvailable, match="no table T9"):
        day_win("T9", DAY)


def test_a_closed_day_with_an_unverified_count_has_no_win(floor):
    post_ok(floor, Role.FLOORPERSON, TABLE, [closed(CLOSER)], 2)
    floor.countersign(TABLE, 3)
    with pytest.raises(WinNotAvailable, match="has no verified count"):
        day_win("T1", DAY)
    post_ok(floor, Role.FINANCE, COUNT, [entered()])
    with pytest.raises(WinNotAvailable, match="has no verified count"):
        day_win("T1", DAY)


# --- roll-ups ----------------------------------------------------------------------------------


def a_win(table_id, game, day, win_cents, drop_cents):
    return TableWin(table_id=table_id, game=game, gaming_day=day, opener_cents=0,
                    closer_cents=0, fills_cents=0, credits_cents=0, currency_cents=drop_cents,
                    chips_cents=0, drop_cents=drop_cents, win_cents=win_cents,
                    hold=hold(win_cents, drop_cents), computed_at_position=1)  # fmt: skip


def test_totals_add_the_components_and_take_the_hold_of_the_totals():
    next_day = DAY + datetime.timedelta(days=1)
    wins = [
        a_win("T1", "criss_cross_poker", DAY, 30_000, 100_000),
        a_win("T2", "double_cross_poker", DAY, -10_000, 0),
        a_win("T1", "criss_cross_poker", next_day, 20_000, 100_000),
    ]
    total = roll_up(wins)
    assert (total.tables, total.win_cents, total.drop_cents) == (3, 40_000, 200_000)
    assert total.hold == Fraction(1, 5)
    games = by_game(wins)
    assert list(games) == ["criss_cross_poker", "double_cross_poker"]
    assert (games["criss_cross_poker"].win_cents, games["criss_cross_poker"].hold) == (
        50_000, Fraction(1, 4))  # fmt: skip
    assert games["double_cross_poker"].hold is None
    days = by_day(wins)
    assert list(days) == [DAY, next_day]
    assert (days[DAY].tables, days[DAY].win_cents, days[DAY].hold) == (2, 20_000, Fraction(1, 5))
    assert roll_up([]).hold is None


def test_the_day_figures_roll_up_by_game(floor):
    play_the_day(floor)
    post_ok(floor, Role.FINANCE, COUNT, [entered()])
    post_ok(floor, Role.SHIFT_SUPERVISOR, COUNT, [verified()], 1)
    assert Table.objects.get(table_id="T1").game == Game.CRISS_CROSS_POKER
    games = by_game([day_win("T1", DAY)])
    assert games[Game.CRISS_CROSS_POKER].win_cents == 99_000
