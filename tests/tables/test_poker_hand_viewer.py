"""The round viewer of a poker hand (§ 553): cards drawn, pots and side pots with who won
them beside what the dealer pushed, rake and Bad Beat contribution, and the findings."""

from __future__ import annotations

import datetime

import pytest

from casino.roles import Role
from tables.poker_room import play_poker_day

pytestmark = pytest.mark.django_db
DAY = datetime.date(2026, 11, 24)


@pytest.fixture
def planted(role_users):
    return play_poker_day(DAY, hands_per_table=25, seed=3,
                          supervisor="shift_supervisor").planted  # fmt: skip


def _page(client, role_users, role, stream_id):
    role_users[role].is_staff = True  # every role may open the admin; the page decides
    role_users[role].save()
    client.force_login(role_users[role])
    return client.get(f"/admin/poker-hands/{stream_id.partition(':')[2]}/")


def test_553_8_b_4_the_viewer_draws_the_cards_and_marks_the_wrong_side_pot(
    client, role_users, planted
):
    page = _page(client, role_users, Role.FINANCE, planted["wrong_side_pot"])
    html = page.content.decode()
    assert page.status_code == 200
    assert html.count('<svg class="card"') >= 4  # two players' cards at least
    assert 'id="pot-1" class="mispaid"' in html and "side pot 1" in html
    assert "MISPUSHED_POT" in html and "§ 553.8(b)(4)(i)" in html


def test_553_15_and_553_20_c_the_viewer_shows_rake_and_bad_beat_required_and_taken(
    client, role_users, planted
):
    html = _page(client, role_users, Role.SHIFT_SUPERVISOR, planted["over_rake"]).content.decode()
    assert "OVER_RAKED" in html and "§ 553.15(b)(1)" in html and 'id="rake-taken"' in html
    html = _page(client, role_users, Role.FLOORPERSON,
                 planted["missed_bad_beat"]).content.decode()  # fmt: skip
    assert "MISSED_BAD_BEAT_CONTRIBUTION" in html and "§ 553.20(c)" in html
    assert 'id="board-cards"' in html  # Hold'em: the board


def test_the_viewer_refuses_a_role_that_does_not_read_hands_and_an_unknown_hand(
    client, role_users, planted
):
    assert _page(client, role_users, Role.ADMINISTRATOR,
                 planted["over_rake"]).status_code == 403  # fmt: skip
    assert _page(client, role_users, Role.FINANCE, "poker-hand:nope").status_code == 404
