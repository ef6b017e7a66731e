"""Faults never become wrong answers (issue 22), in-process against the real
PostgreSQL: the test's own database connection is terminated with
``pg_terminate_backend`` (only that backend, by its pid) at chosen moments.

- Once an append is committed its answer is the 201, whatever happens after
  (the projections run after the commit, inline on the embedded Celery).
- A database that drops the connection is a 503 with ``Retry-After`` in the
  API's JSON error shape; the device retries with the same key and gets the
  original answer. Any other unexpected error is a JSON 500 whose error id is
  in the log.
- A device that sends no ``Idempotency-Key`` is safe too: the ledger derives
  one, so a retry is never stored twice.
"""

from __future__ import annotations

import logging

import psycopg
import pytest
from django.db import OperationalError, connection
from django.test import Client

from audit import ledger, projections
from audit.models import Event, RejectedSubmission, StreamIndex
from audit.verify import verify
from casino.roles import Role
from tests.audit.helpers import device_token, new_stream
from tests.tables.test_deck_job_celery import test_database_url

transactional = pytest.mark.django_db(transaction=True, serialized_rollback=True)


def url(stream: str) -> str:
    return f"/api/v1/streams/{stream}/events"


def body(*seqs: int, expected_version: int = 0) -> dict:
    return {
        "expected_version": expected_version,
        "events": [{"type": "test.counted", "payload": {"writer": 7, "seq": s}} for s in seqs],
    }


@pytest.fixture
def device(api_client, role_users):
    token = device_token(role_users[Role.SYSTEM])
    api_client.credentials(HTTP_AUTHORIZATION=f"Token {token}", HTTP_X_DEVICE="reader-9")
    return api_client


def terminate_own_backend() -> None:
    """Drop this process's Django connection from the server side, as a
    database restart or a network cut would: only our own backend, by pid."""
    pid = connection.connection.info.backend_pid
    with psycopg.connect(test_database_url(), autocommit=True) as other:
        killed = other.execute("SELECT pg_terminate_backend(%s)", [pid]).fetchone()[0]
    assert killed, f"backend {pid} was not terminated"


def reconnect() -> None:
    # The test client leaves Django's end-of-request clean-up out: do it here.
    connection.close()


@transactional
def test_a_connection_dropped_right_after_the_commit_still_answers_201(
    device, monkeypatch, caplog
):
    stream = new_stream("after-commit")
    projections.run_all()  # the read models are up to date before the append
    run_all = projections.run_all
    dropped = []

    def drop_then_project(*args, **kwargs):
        # Called after the commit (on_commit, eager Celery): the events are in.
        dropped.append(Event.objects.filter(stream_id=stream).count())
        terminate_own_backend()
        return run_all(*args, **kwargs)

    monkeypatch.setattr(projections, "run_all", drop_then_project)
    with caplog.at_level(logging.ERROR, logger="audit.ledger"):
        first = device.post(url(stream), body(1, 2), format="json", HTTP_IDEMPOTENCY_KEY="ac-1")
    reconnect()

    assert dropped == [2], "the connection was not dropped after the commit"
    assert first.status_code == 201, first.content
    assert first.json()["first_version"] == 1 and first.json()["last_version"] == 2
    assert "projections not brought up to date" in caplog.text
    # Stored once, chain intact, no refusal recorded.
    assert list(Event.objects.filter(stream_id=stream).values_list("version", flat=True)) == [1, 2]
    assert verify().ok
    assert not RejectedSubmission.objects.filter(stream_id=stream).exists()
    # The projection lags, and catches up from its checkpoint on the next run.
    assert not StreamIndex.objects.filter(stream_id=stream).exists()
    monkeypatch.setattr(projections, "run_all", run_all)
    projections.run_all()
    assert StreamIndex.objects.get(stream_id=stream).version == 2

    # The device retries (it never saw the answer, say): the original answer.
    again = device.post(url(stream), body(1, 2), format="json", HTTP_IDEMPOTENCY_KEY="ac-1")
    assert again.status_code == 200 and again.json() == first.json()
    assert Event.objects.filter(stream_id=stream).count() == 2


@transactional
def test_a_dropped_connection_is_a_json_503_with_retry_after_and_a_retry_succeeds(
    device, caplog
):
    stream = new_stream("outage")
    Event.objects.exists()  # the connection is open...
    terminate_own_backend()  # ...and the server has dropped it
    with caplog.at_level(logging.WARNING, logger="audit.api.errors"):
        refused = device.post(url(stream), body(1), format="json", HTTP_IDEMPOTENCY_KEY="out-1")
    reconnect()

    assert refused.status_code == 503, refused.content
    assert refused["Content-Type"] == "application/json"
    assert int(refused["Retry-After"]) > 0
    answer = refused.json()
    assert answer["error"] == "unavailable" and answer["retry_after"] == int(refused["Retry-After"])
    assert answer["error_id"] in caplog.text
    # Not a refusal of the submission: nothing stored, nothing recorded as refused.
    assert not Event.objects.filter(stream_id=stream).exists()
    assert not RejectedSubmission.objects.filter(stream_id=stream).exists()

    retried = device.post(url(stream), body(1), format="json", HTTP_IDEMPOTENCY_KEY="out-1")
    assert retried.status_code == 201, retried.content
    assert Event.objects.filter(stream_id=stream).count() == 1


@pytest.mark.django_db
def test_an_unexpected_error_is_a_json_500_whose_id_is_in_the_log(device, monkeypatch, caplog):
    def broken(*args, **kwargs):
        raise ZeroDivisionError("a bug, not the caller's fault")

    monkeypatch.setattr(ledger, "append", broken)
    stream = new_stream("bug")
    with caplog.at_level(logging.ERROR, logger="audit.api.errors"):
        response = device.post(url(stream), body(1), format="json")
    assert response.status_code == 500
    answer = response.json()
    assert answer["error"] == "internal_error" and len(answer["error_id"]) == 32
    assert answer["error_id"] in answer["message"]
    logged = [r for r in caplog.records if answer["error_id"] in r.getMessage()]
    assert logged and logged[0].exc_info[0] is ZeroDivisionError  # with the traceback
    assert "a bug" not in response.content.decode()  # no internals to the device
    assert not RejectedSubmission.objects.filter(stream_id=stream).exists()


@pytest.mark.django_db
def test_an_outage_outside_the_api_views_is_still_the_json_503(role_users, monkeypatch):
    """Django's handler500 answers for what escapes the API's views."""
    from audit.api import views

    def unreachable(self, request, *args, **kwargs):
        raise OperationalError("connection to server at 127.0.0.1 failed: Connection refused")

    monkeypatch.setattr(views.StreamEventsView, "dispatch", unreachable)
    client = Client(raise_request_exception=False)
    response = client.get(url(new_stream()))
    assert response.status_code == 503 and response["Retry-After"]
    assert response.json()["error"] == "unavailable"


@pytest.mark.django_db
def test_the_schema_documents_the_500_and_the_503(device, role_users):
    device.force_authenticate(role_users[Role.SYSTEM])
    response = device.get("/api/v1/schema", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    schema = response.json()
    append = schema["paths"]["/api/v1/streams/{stream_id}/events"]["post"]["responses"]
    assert "Retry-After" in append["503"]["headers"]
    assert append["500"]["content"]["application/json"]["schema"]["$ref"].endswith("/Fault")
    fault = schema["components"]["schemas"]["Fault"]
    assert {"error", "message", "error_id", "retry_after"} <= set(fault["properties"])
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            assert {"500", "503"} <= set(operation["responses"]), (path, method)


@pytest.mark.django_db
def test_without_an_idempotency_key_a_retry_gets_the_original_answer(device):
    """README, "Retries": the ledger derives the key of a request sent without one."""
    stream = new_stream("no-key")
    first = device.post(url(stream), body(1, 2), format="json")
    again = device.post(url(stream), body(1, 2), format="json")
    assert (first.status_code, again.status_code) == (201, 200)
    assert again["Idempotent-Replayed"] == "true" and again.json() == first.json()
    assert Event.objects.filter(stream_id=stream).count() == 2
    # The next batch at the new version is a new request, stored.
    nxt = device.post(url(stream), body(3, expected_version=2), format="json")
    assert nxt.status_code == 201 and nxt.json()["first_version"] == 3
    # Other events at a stale version are still refused as stale.
    stale = device.post(url(stream), body(9, expected_version=2), format="json")
    assert stale.status_code == 409 and stale.json()["current_version"] == 3
    # Another device sending the same events at the same version is not
    # mistaken for a retry: it is stale.
    device.credentials(HTTP_AUTHORIZATION=device._credentials["HTTP_AUTHORIZATION"],
                       HTTP_X_DEVICE="reader-10")
    elsewhere = device.post(url(stream), body(1, 2), format="json")
    assert elsewhere.status_code == 409
    assert Event.objects.filter(stream_id=stream).count() == 3
