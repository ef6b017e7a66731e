"""The admin shows the ledger read-only: no add, change or delete."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from audit.ledger import append, read_stream
from audit.models import Event
from tests.audit.helpers import SYSTEM, counted, new_stream

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client(client):
    User.objects.create_superuser("boss", password="pw")
    client.force_login(User.objects.get(username="boss"))
    return client


@pytest.fixture
def event():
    stream = new_stream()
    append(stream, [counted(1, 0, amount=2500)], expected_version=0, actor=SYSTEM)
    return read_stream(stream)[0]


def test_the_ledger_is_listed_and_shown(admin_client, event):
    listing = admin_client.get("/admin/audit/event/")
    assert listing.status_code == 200
    assert event.stream_id in listing.content.decode()
    detail = admin_client.get(f"/admin/audit/event/{event.position}/change/")
    assert detail.status_code == 200
    page = detail.content.decode()
    assert "&quot;amount&quot;: 2500" in page
    assert 'name="_save"' not in page


def test_the_admin_refuses_to_add_change_or_delete_events(admin_client, event):
    assert admin_client.get("/admin/audit/event/add/").status_code == 403
    url = f"/admin/audit/event/{event.position}/"
    assert admin_client.post(url + "change/", {"stream_id": "test:forged"}).status_code == 403
    assert admin_client.post(url + "delete/", {"post": "yes"}).status_code == 403
    listing = admin_client.get("/admin/audit/event/").content.decode()
    assert 'value="delete_selected"' not in listing
    assert Event.objects.get(position=event.position).stream_id == event.stream_id


def test_refusals_are_listed_read_only(admin_client):
    assert admin_client.get("/admin/audit/rejectedsubmission/").status_code == 200
    assert admin_client.get("/admin/audit/rejectedsubmission/add/").status_code == 403
