"""The append service: atomic batches, expected versions, idempotency, refusals."""

from __future__ import annotations

import pytest

from audit import errors
from audit.hashing import GENESIS_HASH
from audit.ledger import Actor, NewEvent, append, head_position, read_all, read_stream
from audit.models import Event, RejectedSubmission
from tests.audit.helpers import SYSTEM, counted, new_stream

pytestmark = pytest.mark.django_db


def test_it_appends_a_batch_with_contiguous_versions_and_positions():
    stream = new_stream()
    before = head_position()
    result = append(stream, [counted(1, i) for i in range(5)], expected_version=0, actor=SYSTEM)
    assert (result.first_version, result.last_version) == (1, 5)
    assert (result.first_position, result.last_position) == (before + 1, before + 5)
    events = read_stream(stream)
    assert [e.version for e in events] == [1, 2, 3, 4, 5]
    assert [e.payload["seq"] for e in events] == [0, 1, 2, 3, 4]
    assert head_position() == before + 5


def test_it_chains_each_event_to_the_previous_hash_of_its_stream():
    stream = new_stream()
    append(stream, [counted(1, 0)], expected_version=0, actor=SYSTEM)
    append(stream, [counted(1, 1), counted(1, 2)], expected_version=1, actor=SYSTEM)
    events = read_stream(stream)
    assert events[0].prev_hash == GENESIS_HASH
    assert [e.prev_hash for e in events[1:]] == [e.hash for e in events[:-1]]
    assert len({e.hash for e in events}) == 3


def test_it_records_actor_source_and_client_metadata():
    stream = new_stream()
    actor = Actor(username="reader-7", roles=frozenset({"system"}), device="BJ-07", source="api")
    append(
        stream,
        [NewEvent("test.counted", {"writer": 1, "seq": 1}, metadata={"correlation_id": "c-1"})],
        expected_version=0,
        actor=actor,
        idempotency_key="k-meta",
    )
    (event,) = read_stream(stream)
    assert event.metadata == {
        "actor": "reader-7",
        "source": "api",
        "device": "BJ-07",
        "idempotency_key": "k-meta",
        "correlation_id": "c-1",
        # The batch's first event carries its key, request hash and size (issue 21).
        "idempotency": {"key": "k-meta", "request_hash": event.metadata["idempotency"][
            "request_hash"], "events": 1},
    }


def test_it_refuses_a_stale_version_and_reports_the_current_one():
    stream = new_stream()
    append(stream, [counted(1, 0), counted(1, 1)], expected_version=0, actor=SYSTEM)
    with pytest.raises(errors.StaleVersion) as refused:
        append(stream, [counted(2, 0)], expected_version=1, actor=SYSTEM)
    assert refused.value.status_code == 409
    assert refused.value.as_dict()["current_version"] == 2
    assert [e.payload["writer"] for e in read_stream(stream)] == [1, 1]


def test_it_refuses_appending_to_a_stream_that_does_not_exist():
    with pytest.raises(errors.UnknownStream):
        append(new_stream(), [counted(1, 0)], expected_version=3, actor=SYSTEM)


def test_it_refuses_an_unknown_stream_kind():
    with pytest.raises(errors.UnknownStream) as refused:
        append("nosuchkind:1", [counted(1, 0)], expected_version=0, actor=SYSTEM)
    assert "unknown stream kind 'nosuchkind'" in refused.value.message


def test_a_schema_violation_names_the_field_and_writes_nothing():
    stream = new_stream()
    batch = [counted(1, 0), NewEvent("test.counted", {"writer": 1, "seq": "two"})]
    with pytest.raises(errors.SchemaViolation) as refused:
        append(stream, batch, expected_version=0, actor=SYSTEM)
    assert refused.value.field == "events[1].payload.seq"
    assert "must be integer" in refused.value.message
    assert read_stream(stream) == []


def test_it_refuses_floats_anywhere_in_a_payload():
    with pytest.raises(errors.SchemaViolation) as refused:
        append(
            new_stream(),
            [NewEvent("test.counted", {"writer": 1, "seq": 1, "amount": 2.5})],
            expected_version=0,
            actor=SYSTEM,
        )
    assert refused.value.field == "events[0].payload.amount"
    assert "integer cents" in refused.value.message


def test_it_refuses_an_unknown_event_type():
    with pytest.raises(errors.SchemaViolation) as refused:
        append(new_stream(), [NewEvent("test.nope", {})], expected_version=0, actor=SYSTEM)
    assert refused.value.field == "events[0].type"


def test_it_refuses_unknown_metadata_keys():
    with pytest.raises(errors.SchemaViolation) as refused:
        append(
            new_stream(),
            [NewEvent("test.counted", {"writer": 1, "seq": 1}, metadata={"actor": "forged"})],
            expected_version=0,
            actor=SYSTEM,
        )
    assert refused.value.field == "events[0].metadata"


def test_a_role_without_a_grant_may_not_append(role_users):
    from casino.roles import Role

    regulator = Actor.from_user(role_users[Role.REGULATOR])
    with pytest.raises(errors.Forbidden) as refused:
        append(new_stream(), [counted(1, 0)], expected_version=0, actor=regulator)
    assert "may not append test.counted" in refused.value.message


def test_an_idempotent_retry_returns_the_original_result_without_a_duplicate():
    stream = new_stream()
    batch = [counted(1, 0), counted(1, 1)]
    first = append(stream, batch, expected_version=0, actor=SYSTEM, idempotency_key="retry-1")
    again = append(stream, batch, expected_version=0, actor=SYSTEM, idempotency_key="retry-1")
    assert again.replayed and not first.replayed
    assert again.as_dict() == first.as_dict()
    assert Event.objects.filter(stream_id=stream).count() == 2


def test_a_key_reused_with_another_body_is_refused():
    stream = new_stream()
    append(stream, [counted(1, 0)], expected_version=0, actor=SYSTEM, idempotency_key="k-2")
    with pytest.raises(errors.IdempotencyConflict) as refused:
        append(stream, [counted(1, 99)], expected_version=0, actor=SYSTEM, idempotency_key="k-2")
    assert refused.value.status_code == 422
    assert Event.objects.filter(stream_id=stream).count() == 1


@pytest.mark.parametrize(
    ("call", "reason"),
    [
        (
            lambda s: append(
                s, [NewEvent("test.counted", {"seq": 1})], expected_version=0, actor=SYSTEM
            ),
            "schema_violation",
        ),
        (lambda s: append(s, [counted(1, 0)], expected_version=5, actor=SYSTEM), "unknown_stream"),
        (
            lambda s: append(
                s, [counted(1, 0)], expected_version=0, actor=Actor("nobody", frozenset())
            ),
            "forbidden",
        ),
    ],
)
def test_every_refusal_is_recorded_with_reason_actor_and_body(call, reason):
    stream = new_stream()
    with pytest.raises(errors.LedgerError):
        call(stream)
    rejection = RejectedSubmission.objects.get(stream_id=stream)
    assert rejection.reason == reason
    assert rejection.actor in {"tests", "nobody"}
    assert '"test.counted"' in rejection.raw_body
    assert not Event.objects.filter(stream_id=stream).exists()


def test_a_stale_version_refusal_is_recorded():
    stream = new_stream()
    append(stream, [counted(1, 0)], expected_version=0, actor=SYSTEM)
    with pytest.raises(errors.StaleVersion):
        append(stream, [counted(1, 1)], expected_version=0, actor=SYSTEM, idempotency_key="late")
    rejection = RejectedSubmission.objects.get(stream_id=stream)
    assert (rejection.status_code, rejection.reason, rejection.idempotency_key) == (
        409,
        "stale_version",
        "late",
    )


def test_readers_get_events_in_global_order_after_a_position():
    a, b = new_stream("a"), new_stream("b")
    start = head_position()
    append(a, [counted(1, 0)], expected_version=0, actor=SYSTEM)
    append(b, [counted(2, 0), counted(2, 1)], expected_version=0, actor=SYSTEM)
    append(a, [counted(1, 1)], expected_version=1, actor=SYSTEM)
    events = read_all(after=start)
    assert [(e.stream_id, e.version) for e in events] == [(a, 1), (b, 1), (b, 2), (a, 2)]
    assert [e.position for e in events] == list(range(start + 1, start + 5))
    assert read_all(after=start + 1, limit=2)[0].position == start + 2


def test_append_many_writes_every_stream_in_one_transaction():
    from audit.ledger import StreamBatch, append_many

    a, b = new_stream("many-a"), new_stream("many-b")
    append(a, [counted(1, 0)], expected_version=0, actor=SYSTEM)
    start = head_position()
    results = append_many(
        [
            StreamBatch(a, [counted(1, 1), counted(1, 2)], expected_version=1),
            StreamBatch(b, [counted(2, 0)]),
        ],
        actor=SYSTEM,
    )
    assert [(r.first_version, r.last_version) for r in results] == [(2, 3), (1, 1)]
    assert [(r.first_position, r.last_position) for r in results] == [
        (start + 1, start + 2),
        (start + 3, start + 3),
    ]
    events = read_stream(a)
    assert [e.version for e in events] == [1, 2, 3]
    assert [e.prev_hash for e in events[1:]] == [e.hash for e in events[:-1]]
    assert read_stream(b)[0].prev_hash == GENESIS_HASH
    from audit.verify import verify

    assert verify().ok


def test_append_many_writes_nothing_when_one_stream_is_refused():
    from audit.ledger import StreamBatch, append_many

    a, b = new_stream("all-a"), new_stream("all-b")
    append(b, [counted(2, 0)], expected_version=0, actor=SYSTEM)
    with pytest.raises(errors.StaleVersion):
        append_many(
            [StreamBatch(a, [counted(1, 0)]), StreamBatch(b, [counted(2, 1)])], actor=SYSTEM
        )
    assert read_stream(a) == []
    assert RejectedSubmission.objects.get(reason="stale_version").stream_id == b
