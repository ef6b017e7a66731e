"""Issue 14, attacked as a hostile client would: every bad input is a 4xx in
the API's JSON shape, recorded once with a bounded prefix of its body (its
length and SHA-256 beside it), and a client without valid credentials is
throttled per address before anything of its request is stored.

Each test is one attack of the issue; on main before the fix each got a 500,
an HTML answer, no record, or an unbounded one.
"""

from __future__ import annotations

import hashlib
import json

import pytest
from django.db import connection

from audit.models import Event, RejectedSubmission
from casino.roles import Role
from tests.audit.helpers import device_token, new_stream

pytestmark = pytest.mark.django_db

PREFIX = 2048


def url(stream: str) -> str:
    return f"/api/v1/streams/{stream}/events"


def valid(**payload) -> dict:
    event = {"type": "test.counted", "payload": {"writer": 1, "seq": 1, **payload}}
    return {"expected_version": 0, "events": [event]}


@pytest.fixture
def token_client(api_client, role_users):
    api_client.credentials(HTTP_AUTHORIZATION=f"Token {device_token(role_users[Role.SYSTEM])}")
    return api_client


@pytest.fixture
def rates(settings):
    """Throttle rates for a test: ``rates(anonymous="3/min", token="5/min")``."""

    def set_rates(**changed: str) -> None:
        current = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
        settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK,
                                   "DEFAULT_THROTTLE_RATES": {**current, **changed}}  # fmt: skip

    return set_rates


def post_raw(client, stream: str, raw: bytes | str, content_type="application/json", **extra):
    return client.generic("POST", url(stream), raw, content_type=content_type, **extra)


def only_rejection(stream: str | None = None) -> RejectedSubmission:
    rows = RejectedSubmission.objects.all()
    if stream is not None:
        rows = rows.filter(stream_id=stream)
    (row,) = rows
    return row


def assert_refused(response, status: int, field: str | None = None) -> dict:
    assert response.status_code == status, response.content[:300]
    assert response["Content-Type"] == "application/json"
    body = response.json()
    assert set(body) >= {"error", "message"}
    if field is not None:
        assert body.get("field") == field, body
    return body


def assert_recorded(row: RejectedSubmission, raw: bytes, status: int) -> None:
    assert row.status_code == status
    assert row.body_length == len(raw)
    assert row.body_sha256 == hashlib.sha256(raw).hexdigest()
    assert bytes(row.body_prefix) == raw[:PREFIX]
    assert len(row.raw_body) <= PREFIX


# --- NUL, surrogates, depth: 400 and recorded (they were 500s) ---------------------------


def test_a_nul_character_in_a_payload_is_a_recorded_400(token_client):
    stream = new_stream()
    raw = json.dumps(valid(note="a\x00b")).encode()
    assert_refused(post_raw(token_client, stream, raw), 400, "events[0].payload.note")
    assert_recorded(only_rejection(stream), raw, 400)
    assert not Event.objects.filter(stream_id=stream).exists()


def test_a_nul_byte_in_the_raw_body_is_a_recorded_400(token_client):
    """Issue 14: the refusal record itself crashed (DataError) on the NUL byte."""
    stream = new_stream()
    raw = b'{"expected_version": 0, "events": [\x00]}'
    assert_refused(post_raw(token_client, stream, raw), 400)
    row = only_rejection(stream)
    assert_recorded(row, raw, 400)
    assert "\x00" not in row.raw_body


def test_a_nul_in_the_stream_id_is_a_recorded_400(token_client):
    """Issue 14: a NUL in the stream id crashed the refusal record (DataError)."""
    response = token_client.post("/api/v1/streams/test:a%00b/events", valid(), format="json")
    assert_refused(response, 400, "stream_id")
    row = only_rejection()
    assert row.stream_id == "test:a\\x00b" and row.status_code == 400
    read = token_client.get("/api/v1/streams/test:a%00b/events")
    assert_refused(read, 400, "stream_id")


def test_a_lone_surrogate_is_a_recorded_400_not_a_unicode_error(token_client):
    """Issue 14: a lone surrogate (valid JSON escape, not Unicode) reached
    ``audit/hashing.py`` and raised UnicodeEncodeError (500)."""
    stream = new_stream()
    raw = b'{"expected_version": 0, "events": [{"type": "test.counted", "payload": ' \
          b'{"writer": 1, "seq": 1, "note": "\\ud800"}}]}'  # fmt: skip
    body = assert_refused(post_raw(token_client, stream, raw), 400, "events[0].payload.note")
    assert "surrogate" in body["message"]
    assert_recorded(only_rejection(stream), raw, 400)


def test_a_lone_surrogate_in_a_key_or_the_event_type_is_a_400(token_client):
    for raw in (b'{"expected_version": 0, "events": [{"type": "t\\udfff", "payload": {}}]}',
                b'{"expected_version": 0, "events": [], "\\ud800": 1}'):  # fmt: skip
        assert_refused(post_raw(token_client, new_stream(), raw), 400)
    assert RejectedSubmission.objects.filter(status_code=400).count() == 2


def test_json_nested_5000_deep_is_a_recorded_400_not_a_recursion_error(token_client):
    """Issue 14: 5,000 levels raised RecursionError (500) while the record said 400."""
    stream = new_stream()
    raw = ('{"expected_version": 0, "events": [{"type": "test.counted", "payload": '
           + '{"a": ' * 5000 + "1" + "}" * 5000 + "}]}").encode()  # fmt: skip
    body = assert_refused(post_raw(token_client, stream, raw), 400)
    assert "nested deeper than 32 levels" in body["message"]
    assert_recorded(only_rejection(stream), raw, 400)


def test_json_one_level_past_the_fixed_limit_is_refused_naming_where(token_client, settings):
    settings.API_MAX_JSON_DEPTH = 6
    # body 1, events 2, event 3, payload 4, a 5, b 6, c 7
    deep = valid(a={"b": {"c": {}}})
    body = assert_refused(post_raw(token_client, new_stream(), json.dumps(deep)), 400)
    assert body["field"] == "events[0].payload.a.b.c"
    assert "nested deeper than 6 levels" in body["message"]


# --- size: a JSON 413, recorded with its length, unread (it was an HTML 400, unrecorded) --


def test_a_10_mb_body_is_a_recorded_json_413(token_client):
    stream = new_stream()
    raw = json.dumps(valid(note="x" * (10 * 1024 * 1024))).encode()
    body = assert_refused(post_raw(token_client, stream, raw), 413, "body")
    assert "at most 1,048,576" in body["message"]
    row = only_rejection(stream)
    assert (row.status_code, row.reason, row.body_length) == (413, "too_large", len(raw))
    assert row.body_sha256 == "" and bytes(row.body_prefix) == b"" and row.raw_body == ""


@pytest.mark.parametrize(
    ("content_type", "status"),
    [("application/json", 413), ("application/x-www-form-urlencoded", 415)],
)
def test_a_sessions_large_body_is_refused_before_its_csrf_check_reads_it(
    role_users, content_type, status
):
    """A session's POST is checked for its CSRF token during authentication,
    which asks for the parsed body before the view: past
    DATA_UPLOAD_MAX_MEMORY_SIZE Django raised RequestDataTooBig (an HTML 400),
    below it the whole body was parsed. Now it is a 413 (or a 415 for a form)
    from the parser, unread, recorded."""
    from rest_framework.test import APIClient

    browser = APIClient(enforce_csrf_checks=True)
    browser.force_login(role_users[Role.SYSTEM])
    browser.cookies["csrftoken"] = "a" * 32  # so the check goes on to read the body
    stream = new_stream()
    raw = "a=" + "x" * (3 * 1024 * 1024)
    assert_refused(post_raw(browser, stream, raw, content_type), status)
    row = only_rejection(stream)
    assert (row.status_code, row.body_length) == (status, len(raw))
    assert len(bytes(row.body_prefix)) == 0 and row.body_sha256 == ""


# --- media types: 415, recorded ---------------------------------------------------------


@pytest.mark.parametrize(
    "content_type",
    ["application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "text/plain",
     "application/xml"],  # fmt: skip
)
def test_a_body_that_is_not_json_is_a_recorded_415(token_client, content_type):
    stream = new_stream()
    raw = b"expected_version=0&events=1"
    body = assert_refused(post_raw(token_client, stream, raw, content_type), 415)
    assert body["error"] == "unsupported_media_type"
    assert_recorded(only_rejection(stream), raw, 415)


def test_headers_a_client_controls_are_checked_before_they_are_stored(token_client):
    response = post_raw(token_client, new_stream(), json.dumps(valid()),
                        HTTP_IDEMPOTENCY_KEY="k\x01y")  # fmt: skip
    assert_refused(response, 400, "Idempotency-Key")
    response = post_raw(token_client, new_stream(), json.dumps(valid()), HTTP_X_DEVICE="r\x00")
    assert_refused(response, 400, "X-Device")
    assert RejectedSubmission.objects.count() == 2


@pytest.mark.parametrize("query", ["after=99999999999999999999999", "after=1e3", "limit=-1",
                                   "after=%00", "after=٣"])  # fmt: skip
def test_out_of_range_positions_are_a_400_not_a_database_error(api_client, role_users, query):
    api_client.force_authenticate(role_users[Role.REGULATOR])
    assert_refused(api_client.get(f"/api/v1/events?{query}"), 400)


# --- storage is bounded: throttled per address before anything is stored ---------------


def _relation_bytes() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_total_relation_size('ledger_rejected')")
        return cursor.fetchone()[0]


def test_anonymous_bodies_cannot_fill_the_disk(api_client, rates):
    """Issue 14: 20 anonymous 2.4 MB POSTs (each a 401) added 51 MB to the
    rejected-submissions table in 1.1 s, and it refuses DELETE. Now each keeps
    at most a 2 KiB prefix, and past the rate nothing is stored at all."""
    rates(anonymous="20/min")
    before = _relation_bytes()
    big = json.dumps(valid(note="x" * (1024 * 1024 - 200))).encode()  # just under 1 MiB
    huge = b"x" * (2_400_000)
    answers = [post_raw(api_client, new_stream(), big if n % 2 else huge).status_code
               for n in range(30)]  # fmt: skip
    assert answers == [401] * 20 + [429] * 10
    rows = RejectedSubmission.objects.all()
    assert rows.count() == 20
    assert all(len(row.raw_body) <= PREFIX and len(bytes(row.body_prefix)) <= PREFIX
               for row in rows)  # fmt: skip
    assert {row.body_length for row in rows} == {len(big), len(huge)}
    assert _relation_bytes() - before < 512 * 1024


def test_a_throttled_answer_is_json_with_retry_after(api_client, rates):
    rates(anonymous="2/min")
    for _ in range(2):
        api_client.get("/api/v1/events")
    response = api_client.get("/api/v1/events")
    body = assert_refused(response, 429)
    assert body["error"] == "throttled"
    assert int(response["Retry-After"]) > 0


def test_a_forged_forwarded_for_does_not_dodge_the_address_throttle(api_client, rates):
    rates(anonymous="3/min")
    answers = [
        post_raw(api_client, new_stream(), b"{}", HTTP_X_FORWARDED_FOR=f"10.0.0.{n}").status_code
        for n in range(5)
    ]
    assert answers == [401, 401, 401, 429, 429]
    assert RejectedSubmission.objects.count() == 3


def test_an_invalid_token_is_counted_as_anonymous_before_its_401_is_stored(api_client, rates):
    rates(anonymous="3/min")
    api_client.credentials(HTTP_AUTHORIZATION="Token not-a-token")
    answers = [post_raw(api_client, new_stream(), b"{}").status_code for _ in range(5)]
    assert answers == [401, 401, 401, 429, 429]
    assert RejectedSubmission.objects.count() == 3


def test_authenticated_clients_are_throttled_per_token(api_client, role_users, rates):
    rates(token="4/min")
    first = device_token(role_users[Role.SYSTEM], device="gateway-1")
    second = device_token(role_users[Role.SYSTEM], device="gateway-2")
    api_client.credentials(HTTP_AUTHORIZATION=f"Token {first}")
    answers = [api_client.get("/api/v1/event-types").status_code for _ in range(6)]
    assert answers == [200] * 4 + [429] * 2
    api_client.credentials(HTTP_AUTHORIZATION=f"Token {second}")
    assert api_client.get("/api/v1/event-types").status_code == 200


# --- the refusal record stays append-only --------------------------------------------------


def test_the_bounded_body_columns_are_append_only_too(token_client):
    post_raw(token_client, new_stream(), b"{not json")
    row = only_rejection()
    for statement in ("UPDATE ledger_rejected SET body_sha256 = '' WHERE id = %s",
                      "UPDATE ledger_rejected SET body_prefix = NULL WHERE id = %s",
                      "DELETE FROM ledger_rejected WHERE id = %s"):  # fmt: skip
        with pytest.raises(Exception, match="append-only"), connection.cursor() as cursor:
            from django.db import transaction

            with transaction.atomic():
                cursor.execute(statement, [row.id])
    assert only_rejection().body_sha256 == hashlib.sha256(b"{not json").hexdigest()


def test_a_seal_digests_a_refusal_from_before_the_bounded_columns_as_before():
    """Rows written before migration 0011 have null length, digest and prefix:
    a day sealed then still verifies (its rows digest without those keys)."""
    from django.utils import timezone

    from audit.hashing import canonical_json, format_timestamp
    from audit.seals import _REJECTED_FIELDS, _rejected_row

    old = RejectedSubmission.objects.create(
        received_at=timezone.now(), stream_id="test:x", status_code=400, reason="malformed",
        message="m", source="api", raw_body="{",
    )  # fmt: skip
    row = RejectedSubmission.objects.filter(pk=old.pk).values_list(*_REJECTED_FIELDS).get()
    before_0011 = dict(zip(_REJECTED_FIELDS[:13], row[:13], strict=True))
    before_0011["received_at"] = format_timestamp(before_0011["received_at"])
    assert _rejected_row(row) == canonical_json(before_0011)
