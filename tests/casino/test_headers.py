"""Headers (issue 14, "People": no CSP; no HSTS and no Secure cookies even
behind TLS). The test settings are the production defaults (DJANGO_DEBUG off)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.auth.models import Group, User
from django.test import Client

from casino.roles import Role
from tests.casino.test_checks import REAL_SIGNING_KEY

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]
TLS = {"HTTP_X_FORWARDED_PROTO": "https"}


def directives(response) -> dict[str, list[str]]:
    policy = response["Content-Security-Policy"]
    return {part.split()[0]: part.split()[1:] for part in policy.split(";") if part.strip()}


@pytest.fixture
def supervisor_client(client):
    user = User.objects.create_user("sam", password="pw", is_staff=True)
    user.groups.add(Group.objects.get(name=Role.SHIFT_SUPERVISOR.value))
    client.force_login(user)
    return client


@pytest.mark.parametrize("path", ["/admin/login/", "/admin/floor/", "/admin/finance/",
                                  "/admin/audit/event/", "/api/v1/docs"])  # fmt: skip
def test_every_page_carries_a_content_security_policy_without_inline_scripts(
    client, supervisor_client, path
):
    if path == "/admin/login/":
        client.logout()
    response = supervisor_client.get(path, **TLS)
    assert response.status_code == 200, path
    policy = directives(response)
    assert policy["default-src"] == ["'self'"]
    assert "'unsafe-inline'" not in policy["script-src"]
    assert "'unsafe-eval'" not in policy["script-src"]
    assert policy["object-src"] == ["'none'"] and policy["frame-ancestors"] == ["'none'"]


def test_the_floor_board_s_inline_script_carries_the_request_s_nonce(supervisor_client):
    response = supervisor_client.get("/admin/floor/", **TLS)
    nonce = next(source for source in directives(response)["script-src"]
                 if source.startswith("'nonce-"))[7:-1]  # fmt: skip
    page = response.content.decode()
    assert f'<script nonce="{nonce}">' in page
    assert "<script>" not in page


def test_behind_tls_hsts_and_secure_httponly_samesite_cookies(client):
    User.objects.create_user("frankie", password="a long passphrase for tests", is_staff=True)
    response = client.post("/admin/login/", {"username": "frankie",
                                             "password": "a long passphrase for tests"},
                           **TLS)  # fmt: skip
    assert response.status_code == 302
    assert response["Strict-Transport-Security"].startswith("max-age=31536000")
    session = response.cookies["sessionid"]
    assert session["secure"] and session["httponly"] and session["samesite"] == "Lax"
    login_page = client.get("/admin/login/", **TLS)
    csrf = login_page.cookies.get("csrftoken") or response.cookies.get("csrftoken")
    assert csrf["secure"] and csrf["httponly"] and csrf["samesite"] == "Lax"


def test_over_plain_http_no_hsts_is_sent_and_production_redirects_to_https(client, settings):
    assert "Strict-Transport-Security" not in client.get("/admin/login/")
    settings.SECURE_SSL_REDIRECT = True  # the production default (DEBUG off)
    production = Client()  # its middleware reads the setting when it starts
    response = production.get("/admin/login/")
    assert response.status_code == 301 and response["Location"].startswith("https://")
    assert production.get("/admin/login/", **TLS).status_code == 200


@pytest.mark.slow
def test_check_deploy_is_clean_with_the_production_settings(tmp_path):
    """``manage.py check --deploy`` with DEBUG off and real keys: no warning."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("DJANGO_")}
    env |= {"SECRET_KEY": "production-like-" + "k3y" * 20, "LEDGER_SIGNING_KEY": REAL_SIGNING_KEY,
            "DJANGO_DEBUG": "0", "ALLOWED_HOSTS": "pitboss.example"}  # fmt: skip
    result = subprocess.run([sys.executable, "manage.py", "check", "--deploy", "--fail-level",
                             "WARNING"], cwd=ROOT, env=env, capture_output=True, text=True,
                            timeout=120, check=False)  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout


def test_the_site_s_address_opens_the_back_office(client):
    response = client.get("/", **TLS)
    assert response.status_code == 302 and response["Location"] == "/admin/"
    login = client.get("/admin/", **TLS)  # not signed in: the login, as for any admin page
    assert login.status_code == 302 and login["Location"].startswith("/admin/login/")
