"""A shift supervisor's first login in a real browser, under the Content
Security Policy: the password, then the authenticator enrolled from the page's
secret, then the floor board (issue 14: the second factor and its enrolment)."""

from __future__ import annotations

import base64

import pytest
from django.contrib.auth.models import Group, User
from django_otp.plugins.otp_totp.models import TOTPDevice

from casino.roles import Role
from tests.browser.conftest import current_code

pytestmark = [pytest.mark.django_db(transaction=True, serialized_rollback=True),
              pytest.mark.slow]  # fmt: skip


def test_a_supervisor_enrols_an_authenticator_at_the_first_login(page, live_server):
    sam = User.objects.create_user("sam", password="pw", is_staff=True)
    sam.groups.add(Group.objects.get(name=Role.SHIFT_SUPERVISOR.value))
    page.goto(f"{live_server.url}/admin/login/")
    page.fill("#id_username", "sam")
    page.fill("#id_password", "pw")
    page.click("input[type=submit]")
    page.wait_for_url(f"{live_server.url}/admin/second-factor/")
    secret = page.inner_text("#totp-secret")
    assert "otpauth://totp/" in page.inner_text("#totp-uri")
    device = TOTPDevice.objects.get(user=sam, confirmed=False)
    assert base64.b32decode(secret) == device.bin_key  # what the app is given is the key
    page.goto(f"{live_server.url}/admin/floor/")  # not before the authenticator is confirmed
    page.wait_for_url(f"{live_server.url}/admin/second-factor/")
    page.fill("#id_otp_token", current_code(device))
    page.click("input[type=submit][value=Confirm]")
    page.wait_for_url(f"{live_server.url}/admin/")
    page.goto(f"{live_server.url}/admin/floor/")
    page.wait_for_url(f"{live_server.url}/admin/floor/")
    assert page.locator("#board").count() == 1  # the board, not the enrolment page
    assert TOTPDevice.objects.get(pk=device.pk).confirmed


def test_the_api_docs_render_under_the_content_security_policy(page, log_in, live_server):
    frankie = User.objects.create_user("frankie", password="pw", is_staff=True)
    frankie.groups.add(Group.objects.get(name=Role.FLOORPERSON.value))
    log_in("frankie")
    page.goto(f"{live_server.url}/api/v1/docs")
    page.locator(".swagger-ui .info .title").wait_for()
    assert "Pitboss API" in page.locator(".swagger-ui .info .title").inner_text()
    page.locator(".opblock").first.wait_for()  # the operations, read from the schema
