"""The floor board as a work queue, a mispay worked to closure, the round
viewer, a regulator's read-only view and a floor tablet, in a real browser.
Screenshots land in artifacts/screenshots/ (one per test, named after it)."""

from __future__ import annotations

import dataclasses

import pytest
from django.utils import timezone

from audit.ledger import Actor, NewEvent, append
from audit.projections import run_all
from casino.models import current_gaming_day
from casino.roles import Role
from tables.reviews import finding_stream_id
from tables.rules.events import DealerPaid, Wager
from tests.browser.conftest import ARTIFACTS
from tests.browser.test_floor_supervisor import _person
from tests.tables.helpers import criss_cross_round

pytestmark = [pytest.mark.django_db(transaction=True, serialized_rollback=True),
              pytest.mark.slow]  # fmt: skip
SYSTEM = Actor.system("tests")


def _keep(page, name: str) -> None:
    """A screenshot of the page as it is now (the fixture keeps the last one)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


@pytest.fixture
def floor():
    """CC-01 open today with a $4,000.00 fill requested, and a round whose
    seat 1 Ante Across ($25.00 due) was paid twice."""
    from casino.models import Casino, Jurisdiction
    from tables.models import Table

    pennsylvania = Jurisdiction.objects.create(code="PA", name="Pennsylvania")
    Casino.objects.create(name="Test casino", jurisdiction=pennsylvania)
    _person("sam", Role.SHIFT_SUPERVISOR, staff=True)
    _person("frankie", Role.FLOORPERSON, staff=True)
    _person("rita", Role.REGULATOR, staff=True)
    _person("dana", Role.DEALER)
    _person("casey", Role.CAGE_CASHIER)
    Table.objects.create(table_id="CC-01", game="criss_cross_poker", ruleset_id="PA-674a-2019",
                         min_wager_cents=1000, max_wager_cents=50000,
                         dealing_method="HAND")  # fmt: skip
    day = current_gaming_day(timezone.now()).isoformat()
    append(f"table:CC-01:{day}",
           [NewEvent("table.opened", {"opener": {"2500": 100}, "dealer": "dana",
                                      "floorperson": "frankie"})],
           expected_version=0, actor=SYSTEM)  # fmt: skip
    year = day[:4]
    append(f"slip:{year}-000007",
           [NewEvent("slip.fill_requested", {"table_id": "CC-01", "gaming_day": day,
                                             "amounts": {"100000": 4}, "requested_by": "casey"})],
           expected_version=0, actor=SYSTEM)  # fmt: skip
    events, _ = criss_cross_round(seed=33, round_id="CC-01-1",
                                  day=current_gaming_day(timezone.now()))  # fmt: skip
    events[0] = dataclasses.replace(events[0], table_id="CC-01")
    at, paid = next((i, e) for i, e in enumerate(events) if isinstance(e, DealerPaid)
                    and (e.seat, e.wager) == (1, Wager.ANTE_ACROSS))  # fmt: skip
    events[at : at + 1] = [dataclasses.replace(paid, amount_cents=2_500)] * 2
    append("round:CC-01-1", [NewEvent(e.TYPE, e.to_payload()) for e in events],
           expected_version=0, actor=SYSTEM)  # fmt: skip
    run_all()
    return {"day": day, "slip": f"slip:{year}-000007", "round_events": len(events)}


def test_a_requested_fill_waits_on_the_board_and_asks_before_it_is_approved(
    floor, page, log_in, live_server
):
    log_in("frankie")
    page.goto(f"{live_server.url}/admin/floor/")
    tile = page.locator('.tile[data-table="CC-01"]')
    waiting = tile.locator(".pending li.pending-fill")
    waiting.wait_for()
    assert "$4,000.00" in waiting.inner_text() and "casey" in waiting.inner_text()
    assert "1 open" in tile.locator(".findings").inner_text()
    _keep(page, "floor_board_work_queue")
    asked = []

    def answer(dialog, accept):
        asked.append(dialog.message)
        dialog.accept() if accept else dialog.dismiss()

    page.once("dialog", lambda dialog: answer(dialog, False))
    waiting.get_by_role("button", name="Approve $4,000.00").click()
    assert asked == [f"Approve fill {floor['slip'][5:]} of $4,000.00 for CC-01?"]
    page.wait_for_timeout(300)
    assert page.url.endswith("/admin/floor/")  # dismissed: nothing was posted
    page.once("dialog", lambda dialog: answer(dialog, True))
    waiting.get_by_role("button", name="Approve $4,000.00").click()
    page.get_by_text(f"{floor['slip'][5:]} approved by frankie.").wait_for()
    assert page.locator('.tile[data-table="CC-01"] .pending').count() == 0


def test_a_mispay_is_acknowledged_then_resolved_and_the_board_count_goes_down(
    floor, page, log_in, live_server
):
    log_in("frankie")
    page.goto(f"{live_server.url}/admin/floor/CC-01/{floor['day']}/")
    review = finding_stream_id("round:CC-01-1", 1, "ANTE_ACROSS", "MISPAID_AMOUNT")
    row = page.locator(f'tr.finding[data-finding="{review}"]')
    assert "open" in row.locator(".review-status").inner_text()
    row.get_by_label("note").fill("paid twice; the dealer took $25.00 back")
    row.get_by_role("button", name="Acknowledge").click()
    page.get_by_text("acknowledged by frankie.").first.wait_for()
    row = page.locator(f'tr.finding[data-finding="{review}"]')
    assert row.get_by_role("button", name="Accept").count() == 0  # a shift supervisor's
    row.get_by_label("correcting event stream").fill("round:CC-01-1")
    row.get_by_label("correcting event version").fill(str(floor["round_events"]))
    row.get_by_role("button", name="Resolve").click()
    page.get_by_text("resolved by frankie.").first.wait_for()
    row = page.locator(f'tr.finding[data-finding="{review}"]')
    assert row.locator(".review-status").inner_text() == "resolved"
    page.goto(f"{live_server.url}/admin/floor/")
    findings = page.locator('.tile[data-table="CC-01"] .findings')
    findings.wait_for()
    assert findings.inner_text() == "none open"


def test_the_round_viewer_marks_the_mispay_names_people_and_lists_its_events(
    floor, page, log_in, live_server
):
    log_in("sam")
    page.goto(f"{live_server.url}/admin/tables/round/round:CC-01-1/change/")
    mispaid = page.locator("tr.mispaid")
    mispaid.first.wait_for()
    assert mispaid.count() == 1 and "ANTE_ACROSS" in mispaid.inner_text()
    assert mispaid.evaluate("row => getComputedStyle(row.cells[0]).backgroundColor") == (
        "rgb(253, 226, 225)")  # fmt: skip
    assert "dealer dana · floorperson frankie" in page.locator("body").inner_text()
    assert "Criss-Cross Poker" in page.locator("body").inner_text()
    assert page.locator("#round-history tbody tr").count() == floor["round_events"]
    _keep(page, "round_viewer_mispay_and_history")
    page.get_by_role("link", name=f"CC-01 on {floor['day']}").click()
    page.wait_for_url(f"**/admin/floor/CC-01/{floor['day']}/")


def test_a_regulator_reads_everything_and_is_offered_no_button(floor, page, log_in, live_server):
    log_in("rita")
    page.goto(f"{live_server.url}/admin/floor/")
    tile = page.locator('.tile[data-table="CC-01"]')
    tile.locator(".pending li.pending-fill").wait_for()
    assert "$4,000.00" in tile.inner_text()
    assert page.locator("form[action^='/admin/act/'], button").filter(
        has_text="Approve").count() == 0  # fmt: skip
    page.goto(f"{live_server.url}/admin/floor/CC-01/{floor['day']}/")
    assert page.locator("form[action^='/admin/act/']").count() == 0
    assert "MISPAID_AMOUNT" in page.locator("body").inner_text()
    page.goto(f"{live_server.url}/admin/")
    assert page.get_by_role("link", name="Projection checkpoints").count() == 0
    assert page.get_by_role("link", name="Stream indexs").count() == 0


def test_the_floor_board_fits_a_1024_by_768_tablet(floor, page, log_in, live_server):
    page.set_viewport_size({"width": 1024, "height": 768})
    log_in("frankie")
    page.goto(f"{live_server.url}/admin/floor/")
    page.locator('.tile[data-table="CC-01"]').wait_for()
    assert not page.locator("#nav-sidebar").is_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 1024
    tile_width = page.locator('.tile[data-table="CC-01"]').bounding_box()["width"]
    assert tile_width >= 220
    _keep(page, "floor_board_tablet_1024x768")
    page.goto(f"{live_server.url}/admin/floor/CC-01/{floor['day']}/")
    assert page.evaluate("document.documentElement.scrollWidth") <= 1024
