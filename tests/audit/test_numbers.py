"""Numbers keep their value once stored: every integer of a payload or
metadata within the signed 64-bit range, money within its column (issue 13)."""

from __future__ import annotations

import pytest

from audit import errors
from audit.ledger import NewEvent, append, read_stream
from audit.models import RejectedSubmission
from audit.registry import MAX_CENTS
from audit.verify import verify
from casino.roles import Role
from tests.audit.helpers import SYSTEM, device_token, new_stream

pytestmark = pytest.mark.django_db

INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1


@pytest.fixture
def client(api_client, role_users):
    token = device_token(role_users[Role.SYSTEM])
    api_client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return api_client


def post(client, stream, payload, metadata=None):
    event = {"type": "test.counted", "payload": payload}
    if metadata is not None:
        event["metadata"] = metadata
    return client.post(f"/api/v1/streams/{stream}/events",
                       {"expected_version": 0, "events": [event]}, format="json")  # fmt: skip


@pytest.mark.parametrize(
    ("payload", "metadata", "field"),
    [
        ({"writer": 1, "seq": 1}, {"correlation_id": 2**64}, "events[0].metadata.correlation_id"),
        ({"writer": 2**63, "seq": 1}, None, "events[0].payload.writer"),
        ({"writer": 1, "seq": INT64_MIN - 1}, None, "events[0].payload.seq"),
        ({"writer": 1, "seq": 2**70}, None, "events[0].payload.seq"),
    ],
)
def test_an_integer_beyond_64_bits_is_refused_with_400_naming_the_field(
    client, payload, metadata, field
):
    stream = new_stream()
    response = post(client, stream, payload, metadata)
    assert response.status_code == 400, response.content
    assert response.json()["field"] == field
    assert "64-bit" in response.json()["message"]
    assert read_stream(stream) == []
    assert RejectedSubmission.objects.filter(stream_id=stream, field=field).exists()


def test_the_extremes_are_stored_and_read_back_exactly(client):
    stream = new_stream()
    response = post(client, stream, {"writer": INT64_MAX, "seq": INT64_MIN, "amount": MAX_CENTS},
                    {"correlation_id": INT64_MIN, "causation_id": INT64_MAX})  # fmt: skip
    assert response.status_code == 201, response.content
    read = client.get(f"/api/v1/streams/{stream}/events").json()["events"][0]
    assert read["payload"] == {"writer": INT64_MAX, "seq": INT64_MIN, "amount": MAX_CENTS}
    assert type(read["payload"]["writer"]) is int and type(read["payload"]["seq"]) is int
    assert read["metadata"]["correlation_id"] == INT64_MIN
    assert read["metadata"]["causation_id"] == INT64_MAX
    (stored,) = read_stream(stream)
    assert stored.payload["writer"] == INT64_MAX and stored.payload["seq"] == INT64_MIN
    assert verify().ok


def test_money_above_its_bound_is_refused():
    with pytest.raises(errors.SchemaViolation) as refused:
        append(new_stream(), [NewEvent("test.counted", {"writer": 1, "seq": 1,
                                                        "amount": MAX_CENTS + 1})],
               expected_version=0, actor=SYSTEM)  # fmt: skip
    assert refused.value.field == "events[0].payload.amount"


def test_a_wager_above_the_money_bound_is_refused():
    from tables.round_events import schema_of
    from tables.rules.events import WagerPlaced

    schema = schema_of(WagerPlaced)["properties"]["amount_cents"]
    assert schema["maximum"] == MAX_CENTS
    stream = "round:NUMBERS-1"
    with pytest.raises(errors.SchemaViolation) as refused:
        append(stream, [NewEvent("round.wager_placed",
                                 {"seat": 1, "wager": "ANTE", "amount_cents": MAX_CENTS + 1,
                                  "hand": 1})],
               expected_version=0, actor=SYSTEM)  # fmt: skip
    assert refused.value.field == "events[0].payload.amount_cents"
