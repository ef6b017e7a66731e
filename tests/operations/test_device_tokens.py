"""Device tokens (issue 14, "People": tokens never expired, were stored in
plain text and were bound to no device). Now hashed, shown once, expiring,
rotated and revoked, each bound to a device and a table, each change a
ledger event."""

from __future__ import annotations

import datetime
import hashlib
import io

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command
from django.db import connection
from django.test import RequestFactory
from django.utils import timezone

from audit.ledger import read_all
from casino.roles import Role
from operations import tokens
from operations.tokens import DeviceToken, DeviceTokenAuthentication
from tables.models import DealingMethod, Table

pytestmark = pytest.mark.django_db
EVENTS = "/api/v1/event-types"


@pytest.fixture
def table(db):
    return Table.objects.create(
        table_id="CC-01", game="criss_cross_poker", ruleset_id="PA-674a-2019",
        min_wager_cents=500, max_wager_cents=50000, dealing_method=DealingMethod.HAND,
    )  # fmt: skip


@pytest.fixture
def reader(role_users):
    return role_users[Role.TABLE_DEVICE]


def get(api_client, token: str, path: str = EVENTS):
    return api_client.get(path, HTTP_AUTHORIZATION=f"Token {token}")


def token_events() -> list[dict]:
    return [e.payload for e in read_all(limit=10_000)
            if e.event_type == "access.device_token_changed"]  # fmt: skip


def test_a_token_is_stored_only_as_its_hash(api_client, reader, table):
    token, plain = tokens.issue(reader, table=table, by="ada")
    secret = plain.split(".", 1)[1]
    assert token.digest == hashlib.sha256(secret.encode()).hexdigest()
    with connection.cursor() as cursor:
        cursor.execute("SELECT * FROM operations_devicetoken")
        stored = " ".join(str(column) for row in cursor.fetchall() for column in row)
    assert secret not in stored
    assert "rest_framework.authtoken" not in settings.INSTALLED_APPS
    assert get(api_client, plain).status_code == 200
    assert get(api_client, plain[:-1] + ("A" if plain[-1] != "A" else "B")).status_code == 401


def test_a_token_is_bound_to_its_device_and_table_and_the_request_carries_it(reader, table):
    _, plain = tokens.issue(reader, table=table, by="ada")
    request = RequestFactory().get(EVENTS, HTTP_AUTHORIZATION=f"Token {plain}")
    user, auth = DeviceTokenAuthentication().authenticate(request)
    assert user == reader
    assert auth.table_id == "CC-01" and auth.device == reader.get_username()


def test_binding_is_required(role_users, reader, table):
    with pytest.raises(tokens.TokenRefused, match="name its table"):
        tokens.issue(reader, by="ada")
    with pytest.raises(tokens.TokenRefused, match="bound to the device its account is"):
        tokens.issue(reader, device="another-reader", table=table, by="ada")
    with pytest.raises(tokens.TokenRefused, match="is a person"):
        tokens.issue(role_users[Role.SHIFT_SUPERVISOR], device="laptop", by="ada")
    gateway, _ = tokens.issue(role_users[Role.SYSTEM], device="relay-east", by="ada")
    assert gateway.table_id is None


def test_an_expired_token_is_refused(api_client, reader, table):
    token, plain = tokens.issue(reader, table=table, by="ada", days=1)
    DeviceToken.objects.filter(pk=token.pk).update(
        expires_at=timezone.now() - datetime.timedelta(seconds=1))
    response = get(api_client, plain)
    assert response.status_code == 401 and "expired" in response.json()["message"]
    assert (token.expires_at - token.created_at).days == 1


def test_the_default_lifetime_is_bounded(reader, table):
    token, _ = tokens.issue(reader, table=table, by="ada")
    assert token.expires_at - token.created_at == datetime.timedelta(
        days=settings.DEVICE_TOKEN_DAYS)
    assert settings.DEVICE_TOKEN_DAYS <= 366


def test_rotation_replaces_and_revocation_stops_a_token(api_client, reader, table):
    old, old_plain = tokens.issue(reader, table=table, by="ada")
    new, new_plain = tokens.rotate(old, by="ada")
    assert get(api_client, old_plain).status_code == 401
    assert get(api_client, new_plain).status_code == 200
    assert new.table_id == "CC-01" and new.device == old.device
    assert DeviceToken.objects.get(pk=old.pk).replaced_by == new
    tokens.revoke(new, by="ada")
    assert get(api_client, new_plain).status_code == 401
    assert [e["action"] for e in token_events()] == ["issued", "rotated", "revoked"]
    assert all(e["by"] == "ada" and e["table_id"] == "CC-01" for e in token_events())
    assert not any(old_plain in str(e) or new_plain in str(e) for e in token_events())


def test_a_disabled_account_s_token_is_refused(api_client, reader, table):
    _, plain = tokens.issue(reader, table=table, by="ada")
    reader.is_active = False
    reader.save()
    assert get(api_client, plain).status_code == 401


def test_the_command_issues_rotates_lists_and_revokes(api_client, reader, table):
    out = io.StringIO()
    call_command("device_token", "issue", reader.username, "--table", "CC-01", "--by", "ada",
                 stdout=out)  # fmt: skip
    plain = out.getvalue().splitlines()[1]
    assert get(api_client, plain).status_code == 200
    token_id = plain.split(".")[0]
    out = io.StringIO()
    call_command("device_token", "rotate", token_id, stdout=out)
    rotated = out.getvalue().splitlines()[1]
    assert get(api_client, plain).status_code == 401
    listing = io.StringIO()
    call_command("device_token", "list", stdout=listing)
    assert token_id in listing.getvalue() and rotated.split(".")[1] not in listing.getvalue()
    call_command("device_token", "revoke", rotated.split(".")[0], stdout=io.StringIO())
    assert get(api_client, rotated).status_code == 401
    with pytest.raises(CommandError, match="name its table"):
        call_command("device_token", "issue", reader.username, stdout=io.StringIO())


def test_an_administrator_issues_a_token_in_the_admin_and_sees_it_once(client, role_users,
                                                                       reader, table):  # fmt: skip
    admin = role_users[Role.ADMINISTRATOR]
    admin.is_staff = True
    admin.save()
    client.force_login(admin)
    page = client.post("/admin/operations/devicetoken/add/",
                       {"user": reader.pk, "table": "CC-01", "device": ""})  # fmt: skip
    assert page.status_code == 200 and "no-store" in page["Cache-Control"]
    plain = page.context["issued"][0][1]
    assert plain in page.content.decode()
    token = DeviceToken.objects.get()
    assert token.issued_by == admin.username and token.table_id == "CC-01"
    detail = client.get(f"/admin/operations/devicetoken/{token.pk}/change/").content.decode()
    assert plain.split(".")[1] not in detail and token.digest not in detail
    client.post("/admin/operations/devicetoken/", {"action": "revoke_tokens",
                                                   "_selected_action": [token.pk]})  # fmt: skip
    assert DeviceToken.objects.get().revoked_at is not None


def test_others_cannot_issue_tokens_in_the_admin(client, role_users, reader, table):
    supervisor = role_users[Role.SHIFT_SUPERVISOR]
    supervisor.is_staff = True
    supervisor.save()
    client.force_login(supervisor)
    response = client.post("/admin/operations/devicetoken/add/",
                           {"user": reader.pk, "table": "CC-01"})  # fmt: skip
    assert response.status_code == 403
    assert not DeviceToken.objects.exists()
