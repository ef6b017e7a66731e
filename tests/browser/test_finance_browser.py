"""Finance's daily win report in a real browser: from the nav link to the
report of the latest closed day, its chart of actual against theoretical
win, and on to a table's day."""

from __future__ import annotations

import pytest

from casino.models import Casino, Jurisdiction
from casino.roles import Role
from tables.models import DealingMethod, Game, Table
from tests.browser.conftest import ARTIFACTS
from tests.operations.test_close import TEST_KEY, LedgerClock
from tests.tables.test_finance_views import DAY, SHORTAGES, play_and_close

pytestmark = [pytest.mark.django_db(transaction=True, serialized_rollback=True),
              pytest.mark.slow]  # fmt: skip


@pytest.fixture
def closed_day(role_users, settings, tmp_path, monkeypatch):
    """DAY played at two tables (T1's tray $30 short, D1's drop $100 short)
    and closed; ``finance`` may sign in to the admin."""
    settings.EXPORT_ROOT = tmp_path / "exports"
    settings.LEDGER_SIGNING_KEY = TEST_KEY
    pennsylvania = Jurisdiction.objects.create(code="PA", name="Pennsylvania")
    Casino.objects.create(name="Test casino", jurisdiction=pennsylvania)
    Table.objects.create(table_id="T1", pit="1", game=Game.CRISS_CROSS_POKER,
                         ruleset_id="PA-674a-2019", min_wager_cents=500, max_wager_cents=50000,
                         dealing_method=DealingMethod.HAND)  # fmt: skip
    Table.objects.create(table_id="D1", pit="2", game=Game.DOUBLE_CROSS_POKER,
                         ruleset_id="MA-DCP-UNDATED", min_wager_cents=500,
                         max_wager_cents=50000,
                         dealing_method=DealingMethod.MANUAL_SHOE)  # fmt: skip
    finance = role_users[Role.FINANCE]
    finance.is_staff = True
    finance.save()
    play_and_close(LedgerClock(monkeypatch), DAY, plan=SHORTAGES, dealer_error_percent=10)


def test_finance_sees_the_daily_win_chart_and_drills_into_a_variance(
    closed_day, page, log_in, live_server
):
    log_in("finance")
    page.get_by_role("link", name="Finance").click()
    page.wait_for_url(f"{live_server.url}/admin/finance/2024-05-01/")
    chart = page.locator('svg[data-chart="tables"]')
    chart.wait_for()
    assert chart.get_attribute("role") == "img"
    assert chart.locator("rect.bar.actual").count() == 2
    assert chart.locator("rect.bar.theoretical").count() == 2
    assert all(chart.locator("rect.bar").nth(n).bounding_box()["height"] > 0 for n in range(4))
    assert page.locator('svg[data-chart="month"] circle').count() == 2
    assert page.locator("#win-by-table tbody tr[data-table]").count() == 2
    assert "Casino total" in page.locator("#win-by-table tfoot").inner_text()
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "finance-daily-win.png"), full_page=True)
    variance = page.locator('tr[data-variance="T1 inventory"]')
    assert "−$30.00" in variance.inner_text()
    variance.get_by_role("link", name="table's day").click()
    page.wait_for_url(f"{live_server.url}/admin/finance/2024-05-01/T1/#variances")
    assert page.locator("#round-list tbody tr[data-round]").count() == 30
