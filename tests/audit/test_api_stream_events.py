"""POST/GET /api/v1/streams/<stream>/events."""

from __future__ import annotations

import json

import pytest

from audit.models import Event, RejectedSubmission
from casino.roles import Role
from tests.audit.helpers import device_token, new_stream

pytestmark = pytest.mark.django_db


def url(stream: str) -> str:
    return f"/api/v1/streams/{stream}/events"


def body(*seqs: int, expected_version: int = 0) -> dict:
    return {
        "expected_version": expected_version,
        "events": [{"type": "test.counted", "payload": {"writer": 1, "seq": s}} for s in seqs],
    }


@pytest.fixture
def system_client(api_client, role_users):
    """A table-device style client: token authentication."""
    token = device_token(role_users[Role.SYSTEM])
    api_client.credentials(HTTP_AUTHORIZATION=f"Token {token}", HTTP_X_DEVICE="reader-3")
    return api_client


def test_it_appends_with_a_token_and_answers_201(system_client):
    stream = new_stream()
    response = system_client.post(url(stream), body(1, 2), format="json")
    assert response.status_code == 201, response.content
    assert response.json()["first_version"] == 1 and response.json()["last_version"] == 2
    event = Event.objects.get(stream_id=stream, version=1)
    assert event.metadata["device"] == "reader-3" and event.metadata["actor"] == "system"


def test_an_idempotent_retry_answers_200_with_the_original_result(system_client):
    stream = new_stream()
    first = system_client.post(url(stream), body(1), format="json", HTTP_IDEMPOTENCY_KEY="abc")
    again = system_client.post(url(stream), body(1), format="json", HTTP_IDEMPOTENCY_KEY="abc")
    assert (first.status_code, again.status_code) == (201, 200)
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.json() == first.json()


def test_a_reused_key_with_another_body_answers_422(system_client):
    stream = new_stream()
    system_client.post(url(stream), body(1), format="json", HTTP_IDEMPOTENCY_KEY="xyz")
    response = system_client.post(url(stream), body(2), format="json", HTTP_IDEMPOTENCY_KEY="xyz")
    assert response.status_code == 422
    assert response.json()["error"] == "idempotency_key_reused"


def test_a_stale_version_answers_409_with_the_current_version(system_client):
    stream = new_stream()
    system_client.post(url(stream), body(1, 2), format="json")
    response = system_client.post(url(stream), body(3, expected_version=1), format="json")
    assert response.status_code == 409
    assert response.json()["current_version"] == 2


def test_a_schema_violation_answers_400_naming_the_field(system_client):
    payload = body(1)
    payload["events"][0]["payload"]["seq"] = "one"
    response = system_client.post(url(new_stream()), payload, format="json")
    assert response.status_code == 400
    assert response.json()["field"] == "events[0].payload.seq"


@pytest.mark.parametrize(
    ("raw", "field"),
    [
        ("{not json", ""),
        ("[1, 2]", "body"),
        (json.dumps({"events": []}), "expected_version"),
        (
            json.dumps({"expected_version": -1, "events": [{"type": "test.counted"}]}),
            "expected_version",
        ),
        (json.dumps({"expected_version": 0, "events": [{"payload": {}}]}), "events[0].type"),
    ],
)
def test_malformed_bodies_answer_400_and_are_recorded(system_client, raw, field):
    stream = new_stream()
    response = system_client.post(url(stream), raw, content_type="application/json")
    assert response.status_code == 400, response.content
    assert response.json().get("field", "") == field
    rejection = RejectedSubmission.objects.get(stream_id=stream)
    assert rejection.raw_body == raw and rejection.actor == "system"


def test_anonymous_appends_answer_401_and_are_recorded(api_client):
    stream = new_stream()
    response = api_client.post(url(stream), body(1), format="json")
    assert response.status_code == 401
    assert RejectedSubmission.objects.get(stream_id=stream).reason == "not_authenticated"


def test_a_regulator_may_read_but_not_append(api_client, role_users):
    stream = new_stream()
    api_client.force_authenticate(role_users[Role.SYSTEM])
    api_client.post(url(stream), body(1), format="json")
    api_client.force_authenticate(role_users[Role.REGULATOR])
    assert api_client.get(url(stream)).status_code == 200
    response = api_client.post(url(stream), body(2, expected_version=1), format="json")
    assert response.status_code == 403
    assert "may not append test.counted" in response.json()["message"]


def test_an_account_without_a_role_may_not_read(api_client, role_users):
    api_client.force_authenticate(role_users[None])
    assert api_client.get(url(new_stream())).status_code == 403


def test_reading_an_unknown_stream_answers_404(system_client):
    response = system_client.get(url(new_stream()))
    assert response.status_code == 404
    assert response.json()["error"] == "unknown_stream"


def test_reading_a_stream_returns_its_events_after_a_version(system_client):
    stream = new_stream()
    system_client.post(url(stream), body(1, 2, 3), format="json")
    response = system_client.get(url(stream) + "?after_version=1")
    assert response.status_code == 200
    data = response.json()
    assert data["version"] == 3
    assert [e["payload"]["seq"] for e in data["events"]] == [2, 3]
    assert all(len(e["hash"]) == 64 for e in data["events"])


def test_wrong_methods_answer_405(system_client):
    assert system_client.put(url(new_stream()), body(1), format="json").status_code == 405
    assert system_client.delete(url(new_stream())).status_code == 405


@pytest.mark.parametrize(
    ("event", "field"),
    [
        (
            {"type": "test.counted", "payload": {"writer": 1, "seq": 1, "note": "a\u0000b"}},
            "events[0].payload.note",
        ),
        ({"type": "test.counted", "payload": {"writer": 1, "seq": 1e3}}, "events[0].payload.seq"),
        ({"type": "test.counted", "payload": "not an object"}, "events[0].payload"),
        (
            {
                "type": "test.counted",
                "payload": {"writer": 1, "seq": 1},
                "occurred_at": "yesterday",
            },
            "events[0].occurred_at",
        ),
        (
            {
                "type": "test.counted",
                "payload": {"writer": 1, "seq": 1},
                "metadata": {"correlation_id": "x\u0000"},
            },
            "events[0].metadata.correlation_id",
        ),
        ({"type": "round.closed", "payload": {}}, "events[0].type"),
    ],
)
def test_odd_inputs_answer_400_never_500(system_client, event, field):
    response = system_client.post(
        url(new_stream()), {"expected_version": 0, "events": [event]}, format="json"
    )
    assert response.status_code == 400, response.content
    assert response.json()["field"] == field


def test_a_stream_id_without_a_key_answers_400(system_client):
    response = system_client.post("/api/v1/streams/test:/events", body(1), format="json")
    assert response.status_code in (400, 404)
    assert response.json()["error"] in ("malformed", "not_found")
