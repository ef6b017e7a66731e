"""Who may write what, checked against the stream's state and not only the
role (issue 13): each attack of the issue, refused."""

from __future__ import annotations

import dataclasses
import datetime

import pytest

from audit import errors
from audit.ledger import Actor, NewEvent, append, read_stream
from audit.models import DaySeal
from casino.roles import Role
from tests.tables.helpers import criss_cross_round, payload_body
from tests.tables.test_slips import SLIP, approved, fill, voided
from tests.tables.test_table_day import TABLE, closed, make_floor, opened

pytestmark = pytest.mark.django_db


@pytest.fixture
def floor(role_users):
    return make_floor(role_users)


def correction(version, replacement=None):
    return ("ledger.correction", {"corrects_version": version, "reason": "typo",
                                  "replacement": replacement})  # fmt: skip


# --- corrections ------------------------------------------------------------------------


def test_a_floorpersons_correction_cannot_block_the_close_of_a_day(floor):
    response = floor.post(Role.FLOORPERSON, "close:2024-05-01", [correction(1)])
    assert response.status_code == 400
    assert "close stream does not accept ledger.correction" in response.json()["message"]
    assert read_stream("close:2024-05-01") == []


def test_a_correction_cannot_take_a_compliance_findings_stream(floor):
    stream = "compliance:deck-overdue:T1-RED:2024-05-01T10.00"
    response = floor.post(Role.FLOORPERSON, stream, [correction(1)])
    assert response.status_code == 400
    assert read_stream(stream) == []


def test_only_the_compliance_job_raises_a_finding_even_with_a_permission_granted(floor):
    from django.contrib.auth.models import Group

    from audit.models import AppendPermission

    # An insider grants the floorperson every compliance event type.
    AppendPermission.objects.create(role=Group.objects.get(name=Role.FLOORPERSON.value),
                                    event_type="compliance.*")  # fmt: skip
    stream = "compliance:deck-overdue:T1-RED:2024-05-01T10.00"
    finding = NewEvent("compliance.deck_overdue", {"deck_id": "T1-RED", "table_id": "T1",
                                                   "due_at": "2024-05-01T14:00:00Z",
                                                   "minutes_over": 5, "section": "592.3(c)",
                                                   "gaming_day": "2024-05-01"})  # fmt: skip
    with pytest.raises(errors.Forbidden, match="compliance job only"):
        append(stream, [finding], expected_version=0,
               actor=Actor.from_user(floor.user(Role.FLOORPERSON)))  # fmt: skip


def test_only_the_close_job_writes_the_close_stream(floor):
    started = NewEvent("close.started", {"gaming_day": "2024-05-01", "requested_by": "x",
                                         "forced": False, "cutoff_position": 0, "tables": [],
                                         "left_open": [], "uncounted": [], "jurisdiction": "PA",
                                         "thresholds": {}})  # fmt: skip
    with pytest.raises(errors.Forbidden, match="written by the close job only"):
        append("close:2024-05-01", [started], expected_version=0, actor=Actor.system("other"))


def test_a_correction_of_a_round_that_does_not_exist_is_a_400_not_a_500(floor):
    response = floor.post(Role.FLOORPERSON, "round:NOPE-1", [correction(1)])
    assert response.status_code == 400, response.content
    assert response.json()["field"] == "events[0].payload.corrects_version"


@pytest.mark.parametrize("version", [999, 2**31 - 1])
def test_a_correction_names_a_version_the_stream_holds(floor, version):
    floor.open_table()
    response = floor.post(Role.FLOORPERSON, TABLE, [correction(version)], 2)
    assert response.status_code == 400
    assert response.json()["field"] == "events[0].payload.corrects_version"


def test_a_correction_beyond_the_version_column_is_refused(floor):
    floor.open_table()
    response = floor.post(Role.FLOORPERSON, TABLE, [correction(2**70)], 2)
    assert response.status_code == 400


def test_a_replacement_is_bounded_and_a_valid_payload_of_the_corrected_type(floor):
    floor.open_table()
    # Past MAX_REPLACEMENT_BYTES (16 KiB), well within the API's body limit (1 MiB) …
    large = {"opener": {"500": 1}, "dealer": "d" * (32 * 1024), "floorperson": "f"}
    response = floor.post(Role.FLOORPERSON, TABLE, [correction(1, large)], 2)
    assert response.status_code == 400
    assert response.json()["field"] == "events[0].payload.replacement"
    # … and past the body limit the API refuses it unread (issue 14).
    huge = {"opener": {"500": 1}, "dealer": "d" * (2 * 1024 * 1024), "floorperson": "f"}
    response = floor.post(Role.FLOORPERSON, TABLE, [correction(1, huge)], 2)
    assert response.status_code == 413
    assert response.json()["field"] == "body"
    response = floor.post(Role.FLOORPERSON, TABLE, [correction(1, {"nonsense": 1})], 2)
    assert response.status_code == 400
    assert response.json()["field"] == "events[0].payload.replacement"
    good = {"opener": {"500": 1}, "dealer": "dealer", "floorperson": "floorperson"}
    assert floor.post(Role.FLOORPERSON, TABLE, [correction(1, good)], 2).status_code == 201


def test_a_dealer_may_not_correct(floor):
    floor.open_table()
    response = floor.post(Role.DEALER, TABLE, [correction(1)], 2)
    assert response.status_code == 403


# --- rounds -----------------------------------------------------------------------------


def _round(round_id="T1-1", table_id="T1", day=datetime.date(2024, 5, 1)):
    events, _ = criss_cross_round(round_id=round_id, day=day)
    return [dataclasses.replace(events[0], table_id=table_id, gaming_day=day)]


def _device_post(floor, stream, events):
    from rest_framework.test import APIClient

    client = APIClient()
    client.force_authenticate(floor.user(Role.DEALER))
    return client.post(f"/api/v1/streams/{stream}/events", payload_body(events), format="json")


def test_a_round_at_a_table_that_does_not_exist_is_refused(floor):
    response = _device_post(floor, "round:X9-1", _round("X9-1", table_id="X9"))
    assert response.status_code == 400
    assert "no table 'X9'" in response.json()["message"]


def test_a_round_on_a_table_day_not_opened_is_refused(floor):
    response = _device_post(floor, "round:T1-1", _round())
    assert response.status_code == 400
    assert "not open on gaming day 2024-05-01" in response.json()["message"]


def test_a_round_whose_id_differs_from_its_stream_is_refused(floor):
    floor.open_table()
    response = _device_post(floor, "round:T1-2", _round("T1-1"))
    assert response.status_code == 400
    assert response.json()["field"] == "events[0].payload.round_id"


def test_a_round_on_a_closed_and_sealed_day_is_refused(floor):
    floor.open_table()
    assert floor.post(Role.FLOORPERSON, TABLE, [closed()], 2).status_code == 201
    floor.countersign(TABLE, 3)
    response = _device_post(floor, "round:T1-1", _round())
    assert response.status_code == 400
    assert "closed" in response.json()["message"]
    DaySeal.objects.create(gaming_day=datetime.date(2024, 5, 1), body={}, seal_hash="a" * 64,
                           merkle_root="b" * 64, previous_seal_hash="c" * 64, signature="",
                           public_key="", sealed_at=datetime.datetime.now(datetime.UTC),
                           event_count=0, stream_count=0)  # fmt: skip
    with pytest.raises(errors.RuleViolation, match="closed and sealed"):
        opened_round = _round()[0]
        append("round:T1-1", [NewEvent(opened_round.TYPE, opened_round.to_payload())],
               expected_version=0, actor=Actor.system("import"))  # fmt: skip


# --- two people ----------------------------------------------------------------------------


def test_an_opener_naming_a_dealer_who_never_confirms_leaves_the_table_unopened(floor):
    assert floor.post(Role.FLOORPERSON, TABLE, [opened()]).status_code == 201
    response = _device_post(floor, "round:T1-1", _round())
    assert response.status_code == 400
    assert "awaits dealer's countersignature" in response.json()["message"]
    # Nobody else may confirm for the dealer, not even the floorperson who opened.
    countersign = ("table.countersigned", {"countersigns_version": 1, "signer": "dealer"})
    assert floor.post(Role.FLOORPERSON, TABLE, [countersign], 1).status_code == 400
    assert floor.post(floor.dealer_2, TABLE, [countersign], 1).status_code == 400
    assert floor.post(Role.DEALER, TABLE, [countersign], 1).status_code == 201
    assert _device_post(floor, "round:T1-1", _round()).status_code == 201


def test_a_void_naming_a_witness_who_never_signs_does_not_void_the_slip(floor):
    from audit.projections import PROJECTIONS, run
    from tables.models import Slip, SlipStatus

    floor.open_table()
    assert floor.post(Role.CAGE_CASHIER, SLIP, [fill()]).status_code == 201
    assert floor.post(Role.FLOORPERSON, SLIP, [approved()], 1).status_code == 201
    assert floor.post(Role.SHIFT_SUPERVISOR, SLIP, [voided()], 2).status_code == 201
    run(PROJECTIONS["tables.slips"])
    assert Slip.objects.get(stream_id=SLIP).status == SlipStatus.APPROVED
    countersign = ("slip.countersigned", {"countersigns_version": 3, "signer": "floorperson"})
    assert floor.post(Role.SHIFT_SUPERVISOR, SLIP, [countersign], 3).status_code == 400
    assert floor.post(Role.FLOORPERSON, SLIP, [countersign], 3).status_code == 201
    run(PROJECTIONS["tables.slips"])
    assert Slip.objects.get(stream_id=SLIP).status == SlipStatus.VOIDED
