"""Browser tests: Playwright drives Debian's Chromium against a live server.

Screenshots land in ``artifacts/screenshots/`` (kept by CI as test artifacts).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
# Flags that keep a headless Chromium quiet on a machine with no outside network.
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync"]  # fmt: skip


@pytest.fixture(scope="session")
def chromium():
    if not os.path.exists(CHROMIUM):
        pytest.fail("Chromium is missing: run scripts/ensure-chromium.sh (make test does)")
    # Playwright's sync API runs an event loop in this thread; the live server and
    # the test's own ORM calls are ordinary synchronous Django.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def page(chromium, request):
    context = chromium.new_context(viewport={"width": 1300, "height": 900})
    page = context.new_page()
    yield page
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{request.node.name}.png"), full_page=True)
    context.close()


@pytest.fixture
def log_in(page, live_server):
    def log_in_as(username: str, password: str = "pw") -> None:
        page.goto(f"{live_server.url}/admin/login/")
        page.fill("#id_username", username)
        page.fill("#id_password", password)
        page.click("input[type=submit]")
        page.wait_for_url(f"{live_server.url}/admin/")

    return log_in_as
