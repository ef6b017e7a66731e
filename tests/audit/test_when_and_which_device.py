"""When an event happened and which device recorded it are the ledger's to
check, not the client's to assert (issue 13): ``occurred_at`` carries its
zone and lies within a tolerance of the server's clock; a device's events
name the device its token belongs to, and a person cannot claim one."""

from __future__ import annotations

import datetime

import pytest
from rest_framework.test import APIClient

from audit import errors
from audit.ledger import Actor, NewEvent, append, read_stream
from audit.models import Event, RejectedSubmission
from casino.roles import Role
from tests.audit.helpers import device_token
from tests.tables.helpers import payload_body
from tests.tables.test_decks import post, ready_deck, table  # noqa: F401  (fixtures)
from tests.tables.test_table_day import make_floor
from tests.tables.test_write_checks import _round

pytestmark = pytest.mark.django_db


def now() -> datetime.datetime:
    return datetime.datetime.now(datetime.UTC)


# --- occurred_at ------------------------------------------------------------------------


def test_a_deck_put_in_use_in_2030_is_refused_naming_the_field(post, table):  # noqa: F811
    ready_deck(post, "D1", at=now())
    in_2030 = datetime.datetime(2030, 1, 1, 12, tzinfo=datetime.UTC)
    response = post(Role.FLOORPERSON, "D1", [("deck.put_in_use", {})], 3, at=in_2030)
    assert response.status_code == 400, response.content
    assert response.json()["field"] == "events[0].occurred_at"
    assert "ahead of the server's clock" in response.json()["message"]
    assert len(read_stream("deck:D1")) == 3


def test_a_few_seconds_of_clock_drift_are_tolerated(post, table):  # noqa: F811
    ready_deck(post, "D1", at=now())
    drift = now() + datetime.timedelta(seconds=30)
    assert post(Role.FLOORPERSON, "D1", [("deck.put_in_use", {})], 3, at=drift).status_code == 201


def test_a_naive_timestamp_is_a_400_naming_the_field_never_local_time(api_client, role_users,
                                                                      table):  # noqa: F811  # fmt: skip
    api_client.force_authenticate(role_users[Role.FLOORPERSON])
    naive = now().replace(tzinfo=None).isoformat()
    body = {"expected_version": 0, "events": [{
        "type": "deck.received", "occurred_at": naive,
        "payload": {"table_id": "CC-01", "back_colour": "red", "received_by": "floorperson"}}]}
    response = api_client.post("/api/v1/streams/deck:D1/events", body, format="json")
    assert response.status_code == 400, response.content
    assert response.json()["field"] == "events[0].occurred_at"
    assert "zone" in response.json()["message"]
    assert read_stream("deck:D1") == []
    assert RejectedSubmission.objects.filter(field="events[0].occurred_at").exists()


def test_a_naive_time_is_refused_by_the_ledger_itself():
    naive = NewEvent("test.counted", {"writer": 1, "seq": 1},
                     occurred_at=datetime.datetime(2024, 5, 1, 10))  # fmt: skip
    with pytest.raises(errors.SchemaViolation, match="zone"):
        append("test:naive", [naive], expected_version=0, actor=Actor.system("test"))


def test_a_person_cannot_backdate_beyond_a_day_but_an_import_may(post, table):  # noqa: F811
    two_days_ago = now() - datetime.timedelta(days=2)
    response = post(Role.FLOORPERSON, "D1", [("deck.received", {
        "table_id": "CC-01", "back_colour": "red", "received_by": "floorperson"})], 0,
        at=two_days_ago)  # fmt: skip
    assert response.status_code == 400
    assert response.json()["field"] == "events[0].occurred_at"
    assert "before the server's clock" in response.json()["message"]
    # History (the demo's 2016, a casino's import) is recorded by the system role.
    in_2016 = datetime.datetime(2016, 8, 1, 14, tzinfo=datetime.UTC)
    append("deck:D2", [NewEvent("deck.received", {"table_id": "CC-01", "back_colour": "red",
                                                  "received_by": "floorperson"},
                                occurred_at=in_2016)],
           expected_version=0, actor=Actor.system("import"))  # fmt: skip
    assert read_stream("deck:D2")[0].occurred_at == in_2016


def test_even_the_system_cannot_record_the_future(table):  # noqa: F811
    later = now() + datetime.timedelta(hours=1)
    event = NewEvent("test.counted", {"writer": 1, "seq": 1}, occurred_at=later)
    with pytest.raises(errors.SchemaViolation, match="ahead of the server's clock"):
        append("test:future", [event], expected_version=0, actor=Actor.system("import"))


# --- devices ----------------------------------------------------------------------------


@pytest.fixture
def floor(role_users):
    floor = make_floor(role_users)
    floor.open_table()
    return floor


def _client(user, *, token=False, device=None) -> APIClient:
    client = APIClient()
    headers = {"HTTP_X_DEVICE": device} if device is not None else {}
    if token:
        key = device_token(user, table_id="T1")
        client.credentials(HTTP_AUTHORIZATION=f"Token {key}", **headers)
    else:
        client.force_authenticate(user)
        client.credentials(**headers)
    return client


def test_a_dealer_cannot_claim_to_be_the_card_reader(floor):
    client = _client(floor.user(Role.DEALER), device="Card reader CC-01")
    response = client.post("/api/v1/streams/round:T1-1/events", payload_body(_round()),
                           format="json")  # fmt: skip
    assert response.status_code == 403, response.content
    assert response.json()["field"] == "X-Device"
    assert "a person cannot claim a device" in response.json()["message"]
    assert read_stream("round:T1-1") == []
    refused = RejectedSubmission.objects.get(stream_id="round:T1-1")
    assert refused.field == "X-Device" and refused.actor == "dealer"
    # Without the claim the dealer's round is stored, naming no device.
    response = _client(floor.user(Role.DEALER)).post(
        "/api/v1/streams/round:T1-1/events", payload_body(_round()), format="json")
    assert response.status_code == 201
    assert "device" not in Event.objects.get(stream_id="round:T1-1", version=1).metadata


def test_a_table_devices_events_carry_the_device_its_token_belongs_to(floor):
    reader = floor.user(Role.TABLE_DEVICE)
    response = _client(reader, token=True).post(
        "/api/v1/streams/round:T1-1/events", payload_body(_round()), format="json")
    assert response.status_code == 201, response.content
    stored = Event.objects.get(stream_id="round:T1-1", version=1)
    assert stored.metadata["device"] == reader.get_username()


def test_a_table_device_cannot_speak_for_another_device(floor):
    reader = floor.user(Role.TABLE_DEVICE)
    response = _client(reader, token=True, device="Card reader CC-02").post(
        "/api/v1/streams/round:T1-1/events", payload_body(_round()), format="json")
    assert response.status_code == 403
    assert response.json()["field"] == "X-Device"
    assert read_stream("round:T1-1") == []
    same = _client(reader, token=True, device=reader.get_username()).post(
        "/api/v1/streams/round:T1-1/events", payload_body(_round()), format="json")
    assert same.status_code == 201
