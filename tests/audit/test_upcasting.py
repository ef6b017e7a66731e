"""Old events are upcast on read; the stored row is never rewritten."""

from __future__ import annotations

import pytest

from audit.ledger import NewEvent, append, read_all, read_stream
from audit.models import Event
from audit.registry import REGISTRY, EventType, object_schema
from tests.audit.helpers import SYSTEM, new_stream

pytestmark = pytest.mark.django_db

# A real version-1 payload as a device wrote it before amounts became cents
# with an explicit currency.
V1_PAYLOAD = {"seat": 3, "dollars": 25}

V1 = EventType(
    name="test.buy_in",
    version=1,
    description="v1",
    schema=object_schema({"seat": {"type": "integer"}, "dollars": {"type": "integer"}}),
)


def v1_to_v2(payload: dict) -> dict:
    return {"seat": payload["seat"], "amount": payload["dollars"] * 100}


def v2_to_v3(payload: dict) -> dict:
    return {**payload, "currency": "USD"}


V3 = EventType(
    name="test.buy_in",
    version=3,
    description="v3",
    schema=object_schema(
        {"seat": {"type": "integer"}, "amount": {"type": "integer"}, "currency": {"type": "string"}}
    ),
    upcasters={1: v1_to_v2, 2: v2_to_v3},
)


@pytest.fixture
def deploy():
    """Swap the registered definition, as a new release would."""
    previous = REGISTRY.event_types.get("test.buy_in")

    def install(event_type: EventType) -> None:
        REGISTRY.event_types["test.buy_in"] = event_type

    yield install
    if previous is None:
        REGISTRY.event_types.pop("test.buy_in", None)
    else:
        REGISTRY.event_types["test.buy_in"] = previous


def test_a_version_1_event_reads_as_version_3_and_stays_stored_as_written(deploy):
    deploy(V1)
    stream = new_stream()
    append(stream, [NewEvent("test.buy_in", V1_PAYLOAD)], expected_version=0, actor=SYSTEM)
    deploy(V3)
    (event,) = read_stream(stream)
    assert event.schema_version == 3
    assert event.payload == {"seat": 3, "amount": 2500, "currency": "USD"}
    assert read_all(after=event.position - 1, limit=1)[0].payload == event.payload
    stored = Event.objects.get(stream_id=stream)
    assert (stored.schema_version, stored.payload) == (1, V1_PAYLOAD)


def test_new_appends_are_validated_against_the_current_version(deploy):
    from audit.errors import SchemaViolation

    deploy(V3)
    with pytest.raises(SchemaViolation):
        append(
            new_stream(), [NewEvent("test.buy_in", V1_PAYLOAD)], expected_version=0, actor=SYSTEM
        )


def test_a_type_cannot_be_registered_without_every_upcaster():
    with pytest.raises(ValueError, match=r"no upcaster from version\(s\) \[2\]"):
        EventType(
            name="test.broken",
            version=3,
            description="",
            schema={"type": "object"},
            upcasters={1: v1_to_v2},
        )
