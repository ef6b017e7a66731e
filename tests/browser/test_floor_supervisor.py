"""A floor supervisor's day in a real browser: the floor board, a round's
cards, and a fill approved with a button."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth.models import Group, User
from django.utils import timezone
from playwright.sync_api import expect

from audit.ledger import Actor, NewEvent, append
from audit.projections import run_all
from casino.roles import Role
from tables.models import Table
from tests.tables.helpers import criss_cross_round

pytestmark = [pytest.mark.django_db(transaction=True, serialized_rollback=True),
              pytest.mark.slow]  # fmt: skip
SYSTEM = Actor.system("tests")


def _person(username: str, role: Role, *, staff: bool = False) -> User:
    user = User.objects.create_user(username, password="pw", is_staff=staff)
    user.groups.add(Group.objects.get(name=role.value))
    return user


@pytest.fixture
def floor():
    _person("sam", Role.SHIFT_SUPERVISOR, staff=True)
    _person("dana", Role.DEALER)
    _person("frankie", Role.FLOORPERSON, staff=True)
    Table.objects.create(
        table_id="CC-01",
        game="criss_cross_poker",
        ruleset_id="PA-674a-2019",
        min_wager_cents=1000,
        max_wager_cents=50000,
        dealing_method="HAND",
    )
    Table.objects.create(
        table_id="CC-02",
        game="criss_cross_poker",
        ruleset_id="PA-674a-2019",
        min_wager_cents=1000,
        max_wager_cents=50000,
        dealing_method="MANUAL_SHOE",
    )


def _deck_in_use(deck_id: str, table_id: str, since: datetime.datetime) -> None:
    events = [
        NewEvent(
            "deck.received",
            {"table_id": table_id, "back_colour": "red", "received_by": "frankie"},
            occurred_at=since,
        ),
        NewEvent("deck.inspected", {"dealer": "dana"}, occurred_at=since),
        NewEvent("deck.verified", {"floorperson": "frankie"}, occurred_at=since),
        NewEvent("deck.put_in_use", {}, occurred_at=since),
    ]
    append(f"deck:{deck_id}", events, expected_version=0, actor=SYSTEM)


def test_592_3_c_the_floor_board_shows_an_overdue_deck_in_red(floor, page, log_in, live_server):
    now = timezone.now()
    _deck_in_use("RED-1", "CC-01", now - datetime.timedelta(hours=4, minutes=20))
    _deck_in_use("BLUE-1", "CC-02", now - datetime.timedelta(hours=1))
    run_all()
    log_in("sam")
    page.goto(f"{live_server.url}/admin/floor/")
    overdue = page.locator('.tile[data-table="CC-01"] .deck.overdue')
    overdue.wait_for()
    assert "overdue by" in overdue.inner_text()
    assert "674a.3(c)" in overdue.inner_text()
    assert (
        page.locator('.tile[data-table="CC-01"]').evaluate(
            "tile => getComputedStyle(tile.querySelector('.deck')).backgroundColor"
        )
        == "rgb(253, 226, 225)"
    )
    assert page.locator('.tile[data-table="CC-02"] .deck.overdue').count() == 0
    assert page.locator('.tile[data-table="CC-02"] .deck .countdown').inner_text().startswith("6:")


def test_585_3_b_1_the_floor_board_shows_dice_due_off_the_table_in_amber(
    floor, page, log_in, live_server
):
    Table.objects.create(table_id="PAH-01", game="props_and_hops", ruleset_id="PA-585-2014",
                         min_wager_cents=100, max_wager_cents=50000,
                         dealing_method="HAND")  # fmt: skip
    since = timezone.now() - datetime.timedelta(hours=23, minutes=45)
    append("dice:P1", [
        NewEvent("dice.received", {"table_id": "PAH-01", "count": 2, "received_by": "frankie"},
                 occurred_at=since),
        NewEvent("dice.inspected", {"inspected_by": "frankie"}, occurred_at=since),
        NewEvent("dice.placed_in_shaker", {"floorperson": "frankie", "dealer": "dana"},
                 occurred_at=since),
    ], expected_version=0, actor=SYSTEM)  # fmt: skip
    run_all()
    log_in("sam")
    page.goto(f"{live_server.url}/admin/floor/")
    due = page.locator('.tile[data-table="PAH-01"] .deck.due[data-kind="dice"]')
    due.wait_for()
    assert "Dice P1: off the table in" in due.inner_text()
    assert "585.3(b)(1)" in due.inner_text()
    # The board redraws every second: a retrying assertion, not a read of a node
    # the next redraw may already have replaced.
    expect(due).to_have_css("background-color", "rgb(255, 242, 204)")


def test_a_round_shows_its_cards_drawn_and_the_settlement(floor, page, log_in, live_server):
    events, _ = criss_cross_round(round_id="CC-01-1")
    append(
        "round:CC-01-1",
        [NewEvent(e.TYPE, e.to_payload()) for e in events],
        expected_version=0,
        actor=SYSTEM,
    )
    run_all()
    log_in("sam")
    page.goto(f"{live_server.url}/admin/tables/round/round:CC-01-1/change/")
    cards = page.locator("svg.card")
    cards.first.wait_for()
    # five community cards in the cross plus two for each of the two seats
    assert cards.count() == 9
    assert page.locator('svg.card[aria-label="face-down card"]').count() == 0
    assert page.get_by_text("required settlement vs recorded").count() == 1


def test_a_floorperson_approves_a_fill_with_a_button(floor, page, log_in, live_server):
    from casino.models import Casino, Jurisdiction

    pennsylvania = Jurisdiction.objects.create(code="PA", name="Pennsylvania")
    Casino.objects.create(name="Test casino", jurisdiction=pennsylvania)
    _person("casey", Role.CAGE_CASHIER)
    append("table:CC-01:2024-05-01",
           [NewEvent("table.opened", {"opener": {"2500": 100}, "dealer": "dana",
                                      "floorperson": "frankie"})],
           expected_version=0, actor=SYSTEM)  # fmt: skip
    append("slip:2024-000042",
           [NewEvent("slip.fill_requested", {"table_id": "CC-01", "gaming_day": "2024-05-01",
                                             "amounts": {"2500": 40}, "requested_by": "casey"})],
           expected_version=0, actor=SYSTEM)  # fmt: skip
    run_all()
    log_in("frankie")
    page.goto(f"{live_server.url}/admin/floor/CC-01/2024-05-01/")
    asked = []
    page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.accept()))
    page.get_by_role("button", name="Approve $1,000.00").click()
    page.get_by_text("2024-000042 approved by frankie.").wait_for()
    assert asked == ["Approve fill 2024-000042 of $1,000.00 for CC-01?"]
    row = page.locator("tr", has_text="2024-000042")
    assert "approved" in row.inner_text()
    assert "$1,000.00" in row.inner_text()
    assert page.get_by_role("button", name="Approve").count() == 0


def test_a_three_card_poker_table_shows_on_the_board_and_its_round_on_its_own_layout(
    floor, page, log_in, live_server
):
    import dataclasses
    import random

    from tables.rules.rulesets import get_ruleset
    from tables.rules.simulate_declared import simulate_declared

    Table.objects.create(table_id="TCP-01", game="three_card_poker", ruleset_id="PA-565-2010",
                         min_wager_cents=500, max_wager_cents=50000,
                         dealing_method="MANUAL_SHOE")  # fmt: skip
    sim = simulate_declared(random.Random(4), get_ruleset("PA-565-2010"), seats=(1, 4),
                            gaming_day=datetime.date(2024, 5, 1))  # fmt: skip
    opened = dataclasses.replace(sim.events[0], round_id="TCP-01-1", table_id="TCP-01")
    append("round:TCP-01-1", [NewEvent(e.TYPE, e.to_payload()) for e in [opened, *sim.events[1:]]],
           expected_version=0, actor=SYSTEM)  # fmt: skip
    run_all()
    log_in("sam")
    page.goto(f"{live_server.url}/admin/floor/")
    tile = page.locator('.tile[data-table="TCP-01"]')
    tile.wait_for()
    assert "Three Card Poker" in tile.inner_text()
    page.goto(f"{live_server.url}/admin/tables/round/round:TCP-01-1/change/")
    page.locator("svg.card").first.wait_for()
    assert page.locator(".layout-dealer svg.card").count() == 3
    seats = page.locator(".layout-seat")
    assert seats.count() == 2
    for index in range(2):
        assert seats.nth(index).locator("svg.card").count() == 3
    assert page.locator('svg.card[aria-label="face-down card"]').count() == 0
    assert page.locator("table.cross").count() == 0
