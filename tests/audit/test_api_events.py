"""GET /api/v1/events (the global log), event types and the API docs."""

from __future__ import annotations

import pytest

from audit.ledger import append, head_position
from casino.roles import Role
from tests.audit.helpers import SYSTEM, counted, new_stream

pytestmark = pytest.mark.django_db


def test_it_pages_through_the_global_log(api_client, role_users):
    start = head_position()
    for writer in range(3):
        append(
            new_stream(), [counted(writer, 0), counted(writer, 1)], expected_version=0, actor=SYSTEM
        )
    api_client.force_authenticate(role_users[Role.REGULATOR])
    first = api_client.get(f"/api/v1/events?after={start}&limit=4").json()
    assert [e["position"] for e in first["events"]] == list(range(start + 1, start + 5))
    assert first["head"] == start + 6
    assert first["next"].endswith(f"/api/v1/events?after={start + 4}&limit=4")
    second = api_client.get(first["next"]).json()
    assert [e["position"] for e in second["events"]] == [start + 5, start + 6]
    assert second["next"] is None


def test_a_non_integer_position_answers_400(api_client, role_users):
    api_client.force_authenticate(role_users[Role.REGULATOR])
    response = api_client.get("/api/v1/events?after=yesterday")
    assert response.status_code == 400
    assert response.json()["field"] == "after"


def test_anonymous_readers_answer_401(api_client):
    assert api_client.get("/api/v1/events").status_code == 401


def test_event_types_are_published_with_their_schemas(api_client, role_users):
    api_client.force_authenticate(role_users[Role.DEALER])
    data = api_client.get("/api/v1/event-types").json()
    types = {t["type"]: t for t in data["event_types"]}
    assert types["ledger.correction"]["schema"]["required"] == ["corrects_version", "reason"]
    assert "test" in {k["kind"] for k in data["stream_kinds"]}


def test_the_openapi_schema_and_docs_page_are_served(api_client, role_users):
    api_client.force_authenticate(role_users[Role.DEALER])
    schema = api_client.get("/api/v1/schema", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert schema.status_code == 200
    assert "/api/v1/streams/{stream_id}/events" in schema.json()["paths"]
    docs = api_client.get("/api/v1/docs")
    assert docs.status_code == 200 and b"swagger" in docs.content.lower()
