"""Logins (issue 14, "People"): lockout, password rules, the second factor for
the roles that need it, idle sessions, and every login, failed login, lockout
and logout as a ledger event. Each test is an attack from the issue that
succeeded on main before it."""

from __future__ import annotations

import time

import pytest
from django.contrib.auth.models import Group, User
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django_otp.plugins.otp_totp.models import TOTPDevice

from audit.ledger import read_all
from casino.access import LAST_ACTIVITY, LOGGED_IN_AT
from casino.roles import Role
from tests.browser.conftest import current_code

pytestmark = pytest.mark.django_db

LOGIN = "/admin/login/"
PASSWORD = "a long passphrase for tests"


def person(username: str, role: Role | None, *, superuser: bool = False) -> User:
    user = User.objects.create_user(username, password=PASSWORD, is_staff=True,
                                    is_superuser=superuser)  # fmt: skip
    if role is not None:
        user.groups.add(Group.objects.get(name=role.value))
    return user


def access_events(event_type: str | None = None) -> list[dict]:
    return [e.payload | {"type": e.event_type} for e in read_all(limit=10_000)
            if e.stream_id.startswith("access:")
            and (event_type is None or e.event_type == f"access.{event_type}")]  # fmt: skip


def post_login(client, username: str, password: str, code: str = "", address="10.0.0.7"):
    return client.post(LOGIN, {"username": username, "password": password, "otp_token": code,
                               "next": "/admin/"}, REMOTE_ADDR=address)  # fmt: skip


def test_sixty_wrong_passwords_lock_the_account_after_five_and_are_recorded_once(client):
    """The attack: 60 wrong passwords in 29 s, no lockout. Now the fifth locks
    the username for the cool-off; even the right password is then refused
    (429); the five failures and one lockout are ledger events, and the 55
    refused while locked add nothing to the ledger."""
    person("frankie", Role.FLOORPERSON)
    for attempt in range(60):
        response = post_login(client, "frankie", f"guess-{attempt}")
        assert response.status_code == (200 if attempt < 4 else 429), attempt
    assert post_login(client, "frankie", PASSWORD).status_code == 429
    assert "_auth_user_id" not in client.session
    failed = access_events("login_failed")
    assert len(failed) == 5 and {f["reason"] for f in failed} == {"password"}
    assert [e["username"] for e in access_events("locked_out")] == ["frankie"]
    # Another address: the username stays locked.
    assert post_login(client, "frankie", PASSWORD, address="10.0.0.8").status_code == 429


def test_one_address_spraying_usernames_is_locked_out(client):
    for name in ("ann", "bob", "cat", "dan", "eve"):
        post_login(client, name, "wrong", address="10.9.9.9")
    person("zed", Role.FLOORPERSON)
    assert post_login(client, "zed", PASSWORD, address="10.9.9.9").status_code == 429
    assert post_login(client, "zed", PASSWORD, address="10.9.9.10").status_code == 302


def test_a_failed_login_with_control_characters_is_recorded_printable(client):
    post_login(client, "ro\x07ot\x1b", "x")
    (failed,) = access_events("login_failed")
    assert failed["username"] == "ro\ufffdot\ufffd"


@pytest.mark.parametrize("password", ["a", "short-pass1", "password1234", "123456789012"])
def test_the_password_a_and_other_weak_ones_are_refused(password):
    """The attack: the password "a" was accepted. Django's validators, at
    least 12 characters, not a common password, not all digits."""
    with pytest.raises(ValidationError):
        validate_password(password, User(username="sam"))


def test_a_long_passphrase_is_accepted():
    validate_password("correct horse battery staple", User(username="sam"))


@pytest.mark.parametrize("role", [Role.SHIFT_SUPERVISOR, Role.FINANCE, Role.REGULATOR,
                                  Role.ADMINISTRATOR, None])  # fmt: skip
def test_these_roles_need_the_one_time_code_beside_the_password(client, role):
    """The attack: no second factor for any role. Shift supervisors, finance,
    regulators, administrators (and superusers) now need their TOTP code."""
    user = person("sam", role, superuser=role is None)
    device = TOTPDevice.objects.create(user=user, name="phone", confirmed=True)
    response = post_login(client, "sam", PASSWORD)
    assert response.status_code == 200 and "_auth_user_id" not in client.session
    assert "one-time code" in response.content.decode()
    assert post_login(client, "sam", PASSWORD, "000000").status_code == 200
    assert [f["reason"] for f in access_events("login_failed")] == ["one-time code"] * 2
    response = post_login(client, "sam", PASSWORD, current_code(device))
    assert response.status_code == 302 and response["Location"] == "/admin/"
    assert client.get("/admin/floor/").status_code == 200
    (logged_in,) = access_events("logged_in")
    assert logged_in["username"] == "sam" and logged_in["second_factor"] == "totp"
    assert logged_in["address"] == "10.0.0.7"


def test_wrong_codes_count_towards_the_lockout(client):
    user = person("sam", Role.SHIFT_SUPERVISOR)
    device = TOTPDevice.objects.create(user=user, name="phone", confirmed=True)
    for _ in range(5):
        post_login(client, "sam", PASSWORD, "000000")
    assert post_login(client, "sam", PASSWORD, current_code(device)).status_code == 429


def test_a_floorperson_logs_in_with_the_password_alone(client):
    person("frankie", Role.FLOORPERSON)
    assert post_login(client, "frankie", PASSWORD).status_code == 302
    assert client.get("/admin/floor/").status_code == 200
    assert access_events("logged_in")[0]["second_factor"] == "not required"


def test_without_an_authenticator_a_supervisor_can_only_enrol_one(client):
    """The first login of a supervisor with no authenticator opens a session
    that reaches the enrolment page only (pages redirect, the API refuses);
    the first code the new authenticator shows confirms it."""
    user = person("sam", Role.SHIFT_SUPERVISOR)
    assert post_login(client, "sam", PASSWORD).status_code == 302
    assert access_events("logged_in")[0]["second_factor"] == "to enrol"
    enrol = "/admin/second-factor/"
    assert client.get("/admin/floor/")["Location"] == enrol
    assert client.get("/admin/audit/event/")["Location"] == enrol
    refused = client.get("/api/v1/events")
    assert refused.status_code == 403 and refused.json()["field"] == "otp_token"
    page = client.get(enrol)
    assert page.status_code == 200
    device = TOTPDevice.objects.get(user=user, confirmed=False)
    assert page.context["secret"] and "otpauth://totp/" in page.context["otpauth"]
    assert "not the authenticator" in client.post(enrol, {"otp_token": "12"}).content.decode()
    assert client.post(enrol, {"otp_token": current_code(device)})["Location"] == "/admin/"
    assert TOTPDevice.objects.get(pk=device.pk).confirmed
    assert client.get("/admin/floor/").status_code == 200
    assert access_events("second_factor_enrolled")[0]["username"] == "sam"
    assert access_events("second_factor_changed") == []  # recorded once, as the enrolment


def test_logout_is_recorded(client):
    person("frankie", Role.FLOORPERSON)
    post_login(client, "frankie", PASSWORD)
    client.post("/admin/logout/")
    (out,) = access_events("logged_out")
    assert out["username"] == "frankie" and out["reason"] == "logout"


def test_an_idle_session_ends_and_the_board_refresh_is_no_activity(client, settings):
    """The attack: sessions lasted 14 days with no idle timeout. Now a session
    idle longer than SESSION_IDLE_SECONDS is logged out (recorded as idle);
    the floor board's own refresh does not keep it alive."""
    assert settings.SESSION_COOKIE_AGE <= 12 * 60 * 60
    person("frankie", Role.FLOORPERSON)
    post_login(client, "frankie", PASSWORD)
    session = client.session
    started = session[LAST_ACTIVITY]
    client.get("/admin/floor/board.json")
    assert client.session[LAST_ACTIVITY] == started
    session[LAST_ACTIVITY] = time.time() - settings.SESSION_IDLE_SECONDS - 1
    session.save()
    response = client.get("/admin/floor/")
    assert response.status_code == 302 and response["Location"].startswith(LOGIN)
    assert "_auth_user_id" not in client.session
    assert access_events("logged_out")[0]["reason"] == "idle"


def test_an_active_session_still_ends_a_shift_after_the_login(client, settings):
    person("frankie", Role.FLOORPERSON)
    post_login(client, "frankie", PASSWORD)
    session = client.session
    session[LOGGED_IN_AT] = time.time() - settings.SESSION_COOKIE_AGE - 1
    session.save()
    assert client.get("/admin/floor/")["Location"].startswith(LOGIN)
    assert access_events("logged_out")[0]["reason"] == "expired"


def test_an_authenticator_changed_outside_the_enrolment_is_recorded(client):
    """A superuser re-keying someone's authenticator in the admin (then able to
    pass their second factor) leaves a ledger event; a login does not."""
    user = person("sam", Role.SHIFT_SUPERVISOR)
    device = TOTPDevice.objects.create(user=user, name="phone", confirmed=True)
    post_login(client, "sam", PASSWORD, current_code(device))  # saves its last step used
    device = TOTPDevice.objects.get(pk=device.pk)
    device.key = "00" * 20
    device.save()
    device.delete()
    assert [e["action"] for e in access_events("second_factor_changed")] == [
        "added", "changed", "removed"]


def test_behind_the_proxy_each_client_is_locked_out_by_its_own_address(client):
    """Behind the TLS proxy every request comes from the proxy's address: the
    lockout and the events use the address the proxy adds to X-Forwarded-For,
    so one client's failures do not lock the others out."""
    person("zed", Role.FLOORPERSON)
    for name in ("ann", "bob", "cat", "dan", "eve"):
        client.post(LOGIN, {"username": name, "password": "wrong"}, REMOTE_ADDR="10.0.0.1",
                    HTTP_X_FORWARDED_FOR="1.2.3.4, 203.0.113.9")  # fmt: skip
    assert {e["address"] for e in access_events("login_failed")} == {"203.0.113.9"}
    assert client.post(LOGIN, {"username": "zed", "password": PASSWORD}, REMOTE_ADDR="10.0.0.1",
                       HTTP_X_FORWARDED_FOR="203.0.113.9").status_code == 429  # fmt: skip
    assert client.post(LOGIN, {"username": "zed", "password": PASSWORD}, REMOTE_ADDR="10.0.0.1",
                       HTTP_X_FORWARDED_FOR="198.51.100.7").status_code == 302  # fmt: skip
