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


@pytest.fixture
def page(request):
    """A Chromium page, started for this test alone.

    Playwright's sync API keeps an event loop running in this thread while it
    is started, and Django then hands out connections keyed to that context,
    which lack the serialized test data a transactional test restores. So it
    starts after the test database is ready and stops before it is flushed.
    """
    if not os.path.exists(CHROMIUM):
        pytest.fail("Chromium is missing: run scripts/ensure-chromium.sh (make test does)")
    # The live server and the test's own ORM calls are ordinary synchronous Django.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1300, "height": 900})
        # Every page runs under the Content Security Policy (casino/settings.py):
        # whatever it refuses (an inline script without the nonce) fails the test.
        violations: list[str] = []
        page.on("console", lambda message: violations.append(message.text)
                if "Content Security Policy" in message.text else None)  # fmt: skip
        yield page
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"{request.node.name}.png"), full_page=True)
        browser.close()
        assert not violations, f"Content Security Policy violations: {violations}"


def current_code(device) -> str:
    """The code an authenticator app shows now for ``device`` (a TOTPDevice)."""
    import time

    from django_otp.oath import TOTP

    totp = TOTP(device.bin_key, device.step, device.t0, device.digits, device.drift)
    totp.time = time.time()
    return f"{totp.token():0{device.digits}d}"


@pytest.fixture
def log_in(page, live_server):
    """Logs in through the login page, with the one-time code of an
    authenticator enrolled for the person where their role requires one."""

    def log_in_as(username: str, password: str = "pw") -> None:
        from django.contrib.auth.models import User
        from django_otp.plugins.otp_totp.models import TOTPDevice

        from casino.second_factor import requires_second_factor

        user = User.objects.get(username=username)
        page.goto(f"{live_server.url}/admin/login/")
        page.fill("#id_username", username)
        page.fill("#id_password", password)
        if requires_second_factor(user):
            device, _ = TOTPDevice.objects.get_or_create(user=user, name="phone",
                                                         defaults={"confirmed": True})  # fmt: skip
            page.fill("#id_otp_token", current_code(device))
        page.click("input[type=submit]")
        page.wait_for_url(f"{live_server.url}/admin/")

    return log_in_as
