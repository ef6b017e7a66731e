"""The hash chain's byte-level definition (audit.hashing)."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta, timezone

from hypothesis import given
from hypothesis import strategies as st

from audit.hashing import (
    GENESIS_HASH,
    canonical_json,
    canonical_payload,
    chained_hash,
    document_hash,
    event_hash,
    format_timestamp,
    standard_canonical_json,
)

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(),
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=8), children, max_size=3)
    ),
    max_leaves=10,
)
payloads = st.dictionaries(st.text(max_size=10), json_values, max_size=5)
moments = st.datetimes(
    min_value=datetime(2000, 1, 1), max_value=datetime(2100, 1, 1), timezones=st.just(UTC)
)


@given(
    stream=st.text(min_size=1, max_size=30),
    version=st.integers(1, 10**6),
    event_type=st.text(min_size=1, max_size=20),
    schema_version=st.integers(1, 9),
    payload=payloads,
    metadata=payloads,
    occurred=moments,
    recorded=moments,
    prev=st.sampled_from([GENESIS_HASH, "ab" * 32]),
)
def test_the_fast_path_hashes_exactly_the_canonical_document(
    stream, version, event_type, schema_version, payload, metadata, occurred, recorded, prev
):
    assert chained_hash(
        stream_json=json.dumps(stream, ensure_ascii=False),
        version=version,
        type_json=json.dumps(event_type, ensure_ascii=False),
        schema_version=schema_version,
        payload_json=canonical_payload(payload),
        metadata_json=canonical_payload(metadata),
        occurred_at=format_timestamp(occurred),
        recorded_at=format_timestamp(recorded),
        prev_hash=prev,
    ) == event_hash(
        stream_id=stream,
        version=version,
        event_type=event_type,
        schema_version=schema_version,
        payload=payload,
        metadata=metadata,
        occurred_at=occurred,
        recorded_at=recorded,
        prev_hash=prev,
    )


@given(
    stream=st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=30),
    version=st.integers(1, 10**6),
    event_type=st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=20),
    schema_version=st.integers(1, 9),
    payload=payloads,
    metadata=payloads,
    occurred=moments,
    recorded=moments,
    prev=st.sampled_from([GENESIS_HASH, "ab" * 32]),
    as_bytes=st.booleans(),
)
def test_the_readers_hash_is_the_canonical_documents_and_the_export_line_the_same_bytes(
    stream, version, event_type, schema_version, payload, metadata, occurred, recorded, prev,
    as_bytes,
):
    """The close's one read checks each event with ``document_hash`` and writes its
    ``events.jsonl`` line with ``event_line_of`` (orjson, the canonical parts placed as
    they are): the same hash as the definition, the same line as ``event_line``, for
    any text a stream id or type may hold (quotes, control characters, any plane)."""
    from audit.exports import event_line, event_line_of

    payload_json, metadata_json = canonical_payload(payload), canonical_payload(metadata)
    if as_bytes:
        payload_json, metadata_json = payload_json.encode(), metadata_json.encode()
    occurred_at, recorded_at = format_timestamp(occurred), format_timestamp(recorded)
    digest = event_hash(stream_id=stream, version=version, event_type=event_type,
                        schema_version=schema_version, payload=payload, metadata=metadata,
                        occurred_at=occurred, recorded_at=recorded, prev_hash=prev)  # fmt: skip
    assert document_hash(stream, version, event_type, schema_version, payload_json,
                         metadata_json, occurred_at, recorded_at, prev) == digest  # fmt: skip
    assert event_line_of(7, stream, version, event_type, schema_version, payload_json,
                         metadata_json, occurred_at, recorded_at, prev, digest) == event_line(
        (7, stream, version, event_type, schema_version, payload, metadata, occurred_at,
         recorded_at, prev, digest))  # fmt: skip


# Control characters, quotes, backslashes, every plane of Unicode, integers
# past 64 bits (orjson refuses them: the standard library takes over).
every_text = st.text(st.characters(blacklist_categories=("Cs",)), max_size=12)
any_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.integers(-(2**70), 2**70) | every_text,
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(every_text, children, max_size=4)
    ),
    max_leaves=20,
)


@given(any_json)
def test_the_fast_canonical_json_is_byte_identical_to_the_definition(value):
    assert canonical_json(value) == standard_canonical_json(value)


@given(st.datetimes(timezones=st.just(UTC)))
def test_the_fast_timestamp_is_the_definitions_strftime(moment):
    assert format_timestamp(moment) == moment.strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def test_timestamps_are_written_in_utc_with_microseconds():
    eastern = timezone(timedelta(hours=-5))
    assert format_timestamp(datetime(2026, 1, 2, 3, 4, 5, 6, tzinfo=eastern)) == (
        "2026-01-02T08:04:05.000006Z"
    )


def test_any_change_of_content_changes_the_hash():
    at = datetime(2026, 1, 2, tzinfo=UTC)
    base = dict(
        stream_id="round:1",
        version=1,
        event_type="t",
        schema_version=1,
        payload={"amount": 2500},
        metadata={},
        occurred_at=at,
        recorded_at=at,
        prev_hash=GENESIS_HASH,
    )
    original = event_hash(**base)
    for change in [
        {"payload": {"amount": 2501}},
        {"version": 2},
        {"prev_hash": "1" * 64},
        {"occurred_at": at + timedelta(microseconds=1)},
        {"metadata": {"a": "b"}},
    ]:
        assert event_hash(**{**base, **change}) != original
