"""The floor board: every active table as a tile, decks with their required
change (§ 592.3(c)/674a.3(c)), refreshed from a JSON endpoint."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from tables.floor import board_state
from tables.models import Deck, Table

pytestmark = pytest.mark.django_db


@pytest.fixture
def tables():
    hand = Table.objects.create(
        table_id="CC-01",
        game="criss_cross_poker",
        ruleset_id="PA-674a-2019",
        min_wager_cents=1000,
        max_wager_cents=50000,
        dealing_method="HAND",
    )
    shoe = Table.objects.create(
        table_id="CC-02",
        game="criss_cross_poker",
        ruleset_id="PA-674a-2019",
        min_wager_cents=1000,
        max_wager_cents=50000,
        dealing_method="MANUAL_SHOE",
    )
    return hand, shoe


def _deck_in_use(table: Table, since: datetime.datetime) -> Deck:
    # The board reads the decks projection; a row stands in for deck events here.
    return Deck.objects.create(
        stream_id=f"deck:{table.table_id}-1",
        deck_id=f"{table.table_id}-1",
        table_id=table.table_id,
        status="in_use",
        received_at=since,
        in_use_since=since,
        computed_at_position=1,
    )


def test_674a_3_c_a_hand_dealt_deck_is_due_four_hours_after_it_went_in_use(tables):
    hand, shoe = tables
    now = timezone.now()
    _deck_in_use(hand, now - datetime.timedelta(hours=4, minutes=10))
    _deck_in_use(shoe, now - datetime.timedelta(hours=4, minutes=10))
    tiles = {t["table_id"]: t for t in board_state(now)["tables"]}
    (hand_deck,) = tiles["CC-01"]["decks"]
    (shoe_deck,) = tiles["CC-02"]["decks"]
    assert hand_deck["seconds_left"] == -600
    assert hand_deck["section"] == "§ 674a.3(c)"
    assert shoe_deck["seconds_left"] == 3 * 3600 + 50 * 60


def test_inactive_tables_are_not_on_the_board(tables):
    hand, _ = tables
    hand.status = "inactive"
    hand.save()
    assert [t["table_id"] for t in board_state(timezone.now())["tables"]] == ["CC-02"]


def test_the_board_and_its_data_need_a_staff_login(client, tables):
    assert client.get("/admin/floor/").status_code == 302
    assert client.get("/admin/floor/board.json").status_code == 302
    User.objects.create_user("boss", password="pw", is_staff=True)
    client.force_login(User.objects.get(username="boss"))
    page = client.get("/admin/floor/")
    assert page.status_code == 200 and b"Floor board" in page.content
    data = client.get("/admin/floor/board.json").json()
    assert {t["table_id"] for t in data["tables"]} == {"CC-01", "CC-02"}


def test_a_table_day_page_lists_the_day(client, tables):
    User.objects.create_user("boss", password="pw", is_staff=True)
    client.force_login(User.objects.get(username="boss"))
    page = client.get("/admin/floor/CC-01/2024-05-01/")
    assert page.status_code == 200
    assert b"The table was not opened on this gaming day." in page.content
    assert client.get("/admin/floor/CC-01/not-a-day/").status_code == 404
    assert client.get("/admin/floor/NOPE/2024-05-01/").status_code == 404


def test_a_rule_set_may_change_only_between_gaming_days(tables):
    from django.core.exceptions import ValidationError

    from tables.models import TableDay

    hand, _ = tables
    TableDay.objects.create(
        stream_id="table:CC-01:2024-05-01",
        table_id="CC-01",
        gaming_day=datetime.date(2024, 5, 1),
        status="open",
        opened_at=timezone.now(),
        computed_at_position=1,
    )
    hand.ruleset_id = "PA-674a-2016"
    with pytest.raises(ValidationError, match="only between gaming days"):
        hand.full_clean()
    TableDay.objects.filter(table_id="CC-01").update(status="closed")
    hand.full_clean()


def test_a_rule_set_must_belong_to_the_tables_game(tables):
    from django.core.exceptions import ValidationError

    hand, _ = tables
    hand.ruleset_id = "MA-DCP-UNDATED"
    with pytest.raises(ValidationError, match="is for double_cross_poker"):
        hand.full_clean()
