"""Fill and credit slips in the ledger: one stream per slip number and
calendar year, requested for a table open that day, approved by a second
person, voided by two people as a new event — and the ``Slip`` and
``TableDay`` projections that count only approved, unvoided slips.

The fill and credit slip procedures are internal controls (Pennsylvania
Chapter 465a), not in our sources, so these rules cite no section.
"""

from __future__ import annotations

import pytest

from audit.models import Event, RejectedSubmission
from audit.projections import PROJECTIONS, rebuild, run
from casino.roles import Role
from tables.models import Slip, SlipStatus, TableDay
from tests.tables.test_table_day import TABLE, closed, make_floor, refusal

pytestmark = pytest.mark.django_db

SLIP = "slip:2024-000123"
AMOUNTS = {"2500": 40, "10000": 10}  # $1,000 + $1,000


@pytest.fixture
def floor(role_users):
    floor = make_floor(role_users)
    floor.open_table()
    return floor


def fill(amounts=None, table_id="T1", gaming_day="2024-05-01", requested_by="cage_cashier",
         kind="fill"):  # fmt: skip
    return (f"slip.{kind}_requested", {"table_id": table_id, "gaming_day": gaming_day,
                                       "amounts": amounts or AMOUNTS,
                                       "requested_by": requested_by})  # fmt: skip


def approved(by="floorperson"):
    return ("slip.approved", {"approved_by": by})


def voided(by="floorperson", witness="shift_supervisor", reason="wrong table"):
    return ("slip.voided", {"reason": reason, "voided_by": by, "witnessed_by": witness})


def test_a_cage_cashier_issues_a_fill_and_a_floorperson_approves_it(floor):
    assert floor.post(Role.CAGE_CASHIER, SLIP, [fill()]).status_code == 201
    assert floor.post(Role.FLOORPERSON, SLIP, [approved()], 1).status_code == 201
    run(PROJECTIONS["tables.slips"])
    slip = Slip.objects.get(stream_id=SLIP)
    assert (slip.year, slip.number, slip.kind, slip.status) == (2024, 123, "fill", "approved")
    assert (slip.amounts, slip.amount_cents) == (AMOUNTS, 200000)
    assert (slip.requested_by, slip.approved_by) == ("cage_cashier", "floorperson")


def test_a_slip_number_already_used_this_year_is_refused_with_400(floor):
    assert floor.post(Role.CAGE_CASHIER, SLIP, [fill()]).status_code == 201
    body = refusal(floor.post(Role.FLOORPERSON, SLIP, [fill(requested_by="floorperson")], 1))
    assert body["message"].startswith("slip number 2024-000123 already used")
    assert body["field"] == "stream_id"
    assert Event.objects.filter(stream_id=SLIP).count() == 1
    assert RejectedSubmission.objects.get(stream_id=SLIP).status_code == 400


def test_a_second_issue_at_version_0_is_refused_with_400_not_409(floor):
    assert floor.post(Role.CAGE_CASHIER, SLIP, [fill()]).status_code == 201
    response = floor.post(Role.FLOORPERSON, SLIP, [fill(requested_by="floorperson")], 0)
    assert response.status_code == 400


def test_the_same_number_is_free_in_another_year(floor):
    assert floor.post(Role.CAGE_CASHIER, SLIP, [fill()]).status_code == 201
    assert floor.post(Role.CAGE_CASHIER, "slip:2025-000123", [fill()]).status_code == 201


@pytest.mark.parametrize("stream_id", ["slip:2024-123", "slip:2024-000000", "slip:24-000123"])
def test_a_malformed_slip_number_is_refused(floor, stream_id):
    body = refusal(floor.post(Role.CAGE_CASHIER, stream_id, [fill()]))
    assert body["field"] == "stream_id"
    assert "slip:<year>-<number of 6 digits from 000001>" in body["message"]


def test_a_fill_on_a_table_never_opened_that_day_is_refused(floor):
    body = refusal(floor.post(Role.CAGE_CASHIER, SLIP, [fill(gaming_day="2024-05-02")]))
    assert body["message"] == (
        "a fill on a closed table: table T1 is not open on gaming day 2024-05-02"
    )
    assert body["field"] == "events[0].payload.table_id"
    assert not Event.objects.filter(stream_id=SLIP).exists()


def test_a_fill_or_credit_on_a_closed_table_is_refused(floor):
    assert floor.post(Role.FLOORPERSON, TABLE, [closed()], 2).status_code == 201
    floor.countersign(TABLE, 3)
    body = refusal(floor.post(Role.CAGE_CASHIER, SLIP, [fill()]))
    assert body["message"].startswith("a fill on a closed table: table T1")
    body = refusal(floor.post(Role.CAGE_CASHIER, SLIP, [fill(kind="credit")]))
    assert body["message"].startswith("a credit on a closed table: table T1")


def test_a_slip_for_an_unknown_table_is_refused(floor):
    body = refusal(floor.post(Role.CAGE_CASHIER, SLIP, [fill(table_id="T9")]))
    assert body["message"] == "events[0].payload.table_id: no table T9 is configured"


@pytest.mark.parametrize(
    ("amounts", "field", "error"),
    [
        ({"300": 1}, "events[0].payload.amounts.300", "rule_violation"),
        ({"2500": -4}, "events[0].payload.amounts.2500", "schema_violation"),
        ({"2500": 2.5}, "events[0].payload.amounts.2500", "schema_violation"),
        ({"25.00": 4}, "events[0].payload.amounts.25.00", "schema_violation"),
    ],
)
def test_unknown_denominations_and_negative_or_fractional_amounts_are_refused(
    floor, amounts, field, error
):
    body = refusal(floor.post(Role.CAGE_CASHIER, SLIP, [fill(amounts)]))
    assert (body["error"], body["field"]) == (error, field)
    assert not Event.objects.filter(stream_id=SLIP).exists()
    assert RejectedSubmission.objects.get(stream_id=SLIP).field == field


def test_an_impossible_gaming_day_is_refused(floor):
    body = refusal(floor.post(Role.CAGE_CASHIER, SLIP, [fill(gaming_day="2024-02-30")]))
    assert body["field"] == "events[0].payload.gaming_day"


def test_a_person_requests_only_in_their_own_name(floor):
    body = refusal(floor.post(Role.CAGE_CASHIER, SLIP, [fill(requested_by="floorperson")]))
    assert body["field"] == "events[0].payload.requested_by"
    body = refusal(floor.post(Role.CAGE_CASHIER, SLIP, [fill(requested_by="dealer")]))
    assert "must hold the role cage cashier or floorperson or shift supervisor" in body["message"]


def test_the_requester_does_not_approve_their_own_slip(floor):
    assert floor.post(Role.FLOORPERSON, SLIP, [fill(requested_by="floorperson")]).status_code == 201
    body = refusal(floor.post(Role.FLOORPERSON, SLIP, [approved("floorperson")], 1))
    assert body["field"] == "events[0].payload.approved_by"
    assert "a second person approves" in body["message"]
    assert floor.post(Role.CAGE_CASHIER, SLIP, [approved("cage_cashier")], 1).status_code == 201
    assert (
        "already approved"
        in refusal(floor.post(Role.SHIFT_SUPERVISOR, SLIP, [approved("shift_supervisor")], 2))[
            "message"
        ]
    )


def test_the_approver_holds_a_pit_or_cage_role(floor):
    assert floor.post(Role.CAGE_CASHIER, SLIP, [fill()]).status_code == 201
    body = refusal(floor.post(Role.FLOORPERSON, SLIP, [approved("dealer")], 1))
    assert body["field"] == "events[0].payload.approved_by"


def test_a_slip_starts_with_its_request(floor):
    body = refusal(floor.post(Role.FLOORPERSON, SLIP, [approved()]))
    assert body["message"].startswith("slip 2024-000123 was never issued")


def test_a_void_is_signed_by_two_different_people(floor):
    assert floor.post(Role.CAGE_CASHIER, SLIP, [fill()]).status_code == 201
    alone = voided(by="floorperson", witness="floorperson")
    body = refusal(floor.post(Role.FLOORPERSON, SLIP, [alone], 1))
    assert body["field"] == "events[0].payload.witnessed_by"
    body = refusal(floor.post(Role.FLOORPERSON, SLIP, [voided(witness="dealer")], 1))
    assert body["field"] == "events[0].payload.witnessed_by"


def test_a_void_is_a_new_event_and_nothing_follows_it(floor):
    assert floor.post(Role.CAGE_CASHIER, SLIP, [fill()]).status_code == 201
    assert floor.post(Role.FLOORPERSON, SLIP, [approved()], 1).status_code == 201
    assert floor.post(Role.SHIFT_SUPERVISOR, SLIP, [voided()], 2).status_code == 201
    # The witness countersigns the void in person; nothing else follows it.
    floor.countersign(SLIP, 3, who=Role.FLOORPERSON, signer="floorperson")
    body = refusal(floor.post(Role.FLOORPERSON, SLIP, [voided()], 4))
    assert "nothing follows a void" in body["message"]
    types = list(Event.objects.filter(stream_id=SLIP).order_by("version").values_list(
        "event_type", flat=True))  # fmt: skip
    assert types == ["slip.fill_requested", "slip.approved", "slip.voided", "slip.countersigned"]
    run(PROJECTIONS["tables.slips"])
    slip = Slip.objects.get(stream_id=SLIP)
    assert (slip.status, slip.void_reason, slip.amount_cents) == (
        SlipStatus.VOIDED, "wrong table", 200000)  # fmt: skip


def test_a_cage_cashier_may_not_void_a_slip(floor):
    assert floor.post(Role.CAGE_CASHIER, SLIP, [fill()]).status_code == 201
    response = floor.post(Role.CAGE_CASHIER, SLIP, [voided("floorperson", "cage_cashier")], 1)
    assert response.status_code == 403


def test_the_table_day_counts_only_approved_unvoided_slips_and_rebuilds_identically(floor):
    slips = {
        "slip:2024-000001": [fill({"2500": 40})],  # requested only: not counted
        "slip:2024-000002": [fill({"10000": 10})],  # approved below
        "slip:2024-000003": [fill({"500": 20})],  # approved then voided
        "slip:2024-000004": [fill({"2500": 8}, kind="credit")],  # approved credit
    }
    for stream_id, events in slips.items():
        assert floor.post(Role.CAGE_CASHIER, stream_id, events).status_code == 201
    for stream_id in ("slip:2024-000002", "slip:2024-000003", "slip:2024-000004"):
        assert floor.post(Role.FLOORPERSON, stream_id, [approved()], 1).status_code == 201
    run(PROJECTIONS["tables.table_days"])
    assert TableDay.objects.get(stream_id=TABLE).fills_cents == 100000 + 10000
    assert floor.post(Role.FLOORPERSON, "slip:2024-000003", [voided()], 2).status_code == 201
    floor.countersign("slip:2024-000003", 3, who=Role.SHIFT_SUPERVISOR, signer="shift_supervisor")
    run(PROJECTIONS["tables.table_days"])
    run(PROJECTIONS["tables.slips"])
    day = TableDay.objects.get(stream_id=TABLE)
    assert (day.fills_cents, day.credits_cents) == (100000, 20000)
    assert day.computed_at_position == Event.objects.latest("position").position
    statuses = dict(Slip.objects.values_list("stream_id", "status"))
    assert statuses == {"slip:2024-000001": "requested", "slip:2024-000002": "approved",
                        "slip:2024-000003": "voided", "slip:2024-000004": "approved"}  # fmt: skip
    days = list(TableDay.objects.values())
    rows = list(Slip.objects.order_by("stream_id").values())
    rebuild(PROJECTIONS["tables.table_days"], batch_size=2)
    rebuild(PROJECTIONS["tables.slips"], batch_size=1)
    assert list(TableDay.objects.values()) == days
    assert list(Slip.objects.order_by("stream_id").values()) == rows
