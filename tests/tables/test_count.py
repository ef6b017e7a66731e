"""The count of a table's drop in the ledger: entered by one person,
verified by a second, superseded by a recount that must be verified again —
refused at append time, naming the field and the rule, when out of order.

Count procedures are internal controls (Pennsylvania Chapter 465a), not in
our sources, so these rules cite no section.
"""

from __future__ import annotations

import pytest

from audit.models import Event, RejectedSubmission
from casino.roles import Role
from tables.count import latest_verified_count
from tests.tables.test_table_day import make_floor, refusal

pytestmark = pytest.mark.django_db

COUNT = "count:T1:2024-05-01"
CURRENCY = {"2000": 50, "10000": 10}  # $1,000 + $1,000
CHIPS = {"2500": 4}  # $100


@pytest.fixture
def floor(role_users):
    floor = make_floor(role_users)
    floor.open_table()
    return floor


def entered(currency=None, chips=None, counted_by="finance"):
    return ("count.entered", {"currency": CURRENCY if currency is None else currency,
                              "chips": CHIPS if chips is None else chips,
                              "counted_by": counted_by})  # fmt: skip


def verified(by="shift_supervisor"):
    return ("count.verified", {"verified_by": by})


def recount(currency=None, chips=None, counted_by="finance", reason="a strap miscounted"):
    _, payload = entered(currency, chips, counted_by)
    return ("count.recount", {**payload, "reason": reason})


def test_finance_counts_the_drop_and_a_shift_supervisor_verifies_it(floor):
    assert floor.post(Role.FINANCE, COUNT, [entered()]).status_code == 201
    assert latest_verified_count("T1", "2024-05-01") is None
    assert floor.post(Role.SHIFT_SUPERVISOR, COUNT, [verified()], 1).status_code == 201
    count = latest_verified_count("T1", "2024-05-01")
    assert (count.currency_cents, count.chips_cents, count.drop_cents) == (200000, 10000, 210000)
    assert (count.counted_by, count.verified_by) == ("finance", "shift_supervisor")


def test_the_person_who_counted_may_not_verify_the_count(floor):
    assert floor.post(Role.FINANCE, COUNT, [entered()]).status_code == 201
    body = refusal(floor.post(Role.FINANCE, COUNT, [verified(by="finance")], 1))
    assert body["field"] == "events[0].payload.verified_by"
    assert "finance counted the drop and may not verify it too" in body["message"]
    assert Event.objects.filter(stream_id=COUNT).count() == 1
    assert RejectedSubmission.objects.get(stream_id=COUNT).status_code == 400


def test_the_signers_hold_finance_or_shift_supervisor(floor):
    # A job appends on the signers' behalf, so only the policy stands between them.
    body = refusal(floor.post(Role.SYSTEM, COUNT, [entered(counted_by="floorperson")]))
    assert body["field"] == "events[0].payload.counted_by"
    assert "must hold the role finance or shift supervisor" in body["message"]
    assert floor.post(Role.SYSTEM, COUNT, [entered()]).status_code == 201
    body = refusal(floor.post(Role.SYSTEM, COUNT, [verified(by="floorperson")], 1))
    assert body["field"] == "events[0].payload.verified_by"
    body = refusal(floor.post(Role.SYSTEM, COUNT, [verified(by="nobody")], 1))
    assert body["message"] == "events[0].payload.verified_by: no active user 'nobody'"


def test_a_floorperson_may_not_append_a_count(floor):
    response = floor.post(Role.FLOORPERSON, COUNT, [entered(counted_by="floorperson")])
    assert response.status_code == 403


def test_a_person_appends_only_a_count_in_their_own_name(floor):
    body = refusal(floor.post(Role.SHIFT_SUPERVISOR, COUNT, [entered(counted_by="finance")]))
    assert body["field"] == "events[0].payload.counted_by"
    assert "shift_supervisor must be among its signers" in body["message"]
    assert floor.post(Role.FINANCE, COUNT, [entered()]).status_code == 201
    body = refusal(floor.post(Role.FINANCE, COUNT, [verified()], 1))
    assert body["field"] == "events[0].payload.verified_by"


def test_a_role_without_the_grant_may_not_append_a_count(floor):
    response = floor.post(Role.DEALER, COUNT, [entered(counted_by="dealer")])
    assert response.status_code == 403


def test_a_count_stream_starts_with_count_entered(floor):
    for event in (verified(), recount()):
        body = refusal(floor.post(Role.SHIFT_SUPERVISOR, COUNT, [event]))
        assert body["field"] == "events[0].type"
        assert "a count stream starts with count.entered" in body["message"]


def test_a_second_count_is_a_recount(floor):
    assert floor.post(Role.FINANCE, COUNT, [entered()]).status_code == 201
    body = refusal(floor.post(Role.FINANCE, COUNT, [entered()], 1))
    assert body["field"] == "events[0].type"
    assert "a second count is a count.recount" in body["message"]


def test_a_verified_count_is_not_verified_twice(floor):
    assert floor.post(Role.FINANCE, COUNT, [entered()]).status_code == 201
    assert floor.post(Role.SHIFT_SUPERVISOR, COUNT, [verified()], 1).status_code == 201
    body = refusal(floor.post(Role.SHIFT_SUPERVISOR, COUNT, [verified()], 2))
    assert body["field"] == "events[0].type"
    assert "already verified by shift_supervisor" in body["message"]


def test_a_recount_supersedes_the_count_and_must_be_verified_again(floor):
    assert floor.post(Role.FINANCE, COUNT, [entered()]).status_code == 201
    assert floor.post(Role.SHIFT_SUPERVISOR, COUNT, [verified()], 1).status_code == 201
    recounted = recount(currency={"2000": 49, "10000": 10}, counted_by="shift_supervisor")
    assert floor.post(Role.SHIFT_SUPERVISOR, COUNT, [recounted], 2).status_code == 201
    assert latest_verified_count("T1", "2024-05-01") is None
    # The recount was counted by the shift supervisor, so finance verifies it.
    body = refusal(floor.post(Role.SHIFT_SUPERVISOR, COUNT, [verified()], 3))
    assert body["field"] == "events[0].payload.verified_by"
    assert floor.post(Role.FINANCE, COUNT, [verified(by="finance")], 3).status_code == 201
    count = latest_verified_count("T1", "2024-05-01")
    assert (count.event_type, count.drop_cents) == ("count.recount", 208000)


@pytest.mark.parametrize(
    ("event", "field", "rule"),
    [
        (entered(currency={"2500": 1}), "events[0].payload.currency.2500",
         "2500 cents is not a bill denomination"),
        (entered(chips={"2000": 1}), "events[0].payload.chips.2000",
         "2000 cents is not a chip denomination of this casino"),
    ],
)  # fmt: skip
def test_unknown_denominations_are_refused_naming_the_field(floor, event, field, rule):
    body = refusal(floor.post(Role.FINANCE, COUNT, [event]))
    assert body["field"] == field
    assert rule in body["message"]


def test_a_table_not_opened_that_day_has_no_drop_to_count(floor):
    body = refusal(floor.post(Role.FINANCE, "count:T1:2024-05-02", [entered()]))
    assert body["field"] == "stream_id"
    assert "was not opened on gaming day 2024-05-02" in body["message"]
    body = refusal(floor.post(Role.FINANCE, "count:T9:2024-05-01", [entered()]))
    assert body["message"] == "no table T9 is configured"


def test_a_recount_states_its_reason(floor):
    assert floor.post(Role.FINANCE, COUNT, [entered()]).status_code == 201
    _, payload = recount()
    del payload["reason"]
    response = floor.post(Role.FINANCE, COUNT, [("count.recount", payload)], 1)
    assert response.status_code == 400
    assert "reason" in str(response.json())
