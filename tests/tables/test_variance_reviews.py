"""A variance's life (``tables.variance_reviews``): acknowledged with a note
and an owner, then resolved naming a correcting event or accepted with a
reason, as ledger events; refused out of order, for a variance the close did
not find, in another's name or by a role without the grant. The variance
policy's thresholds are the jurisdiction's (``casino.VariancePolicy``), not a
section of the regulations; the steps are the findings' (``tables.reviews``)."""

from __future__ import annotations

import pytest

from audit import errors
from audit.ledger import Actor, NewEvent, append
from audit.projections import run_all
from casino.roles import Role
from tables.finance import day_report
from tables.models import VarianceReview
from tables.variance_reviews import variance_stream_id
from tests.tables.test_finance_views import DAY, casino, clock, closed  # noqa: F401

pytestmark = pytest.mark.django_db

STREAM = variance_stream_id(DAY, "D1", "drop")


def as_(users, role) -> Actor:
    return Actor.from_user(users[role], source="test")


def acknowledge(users, role=Role.FINANCE, stream=STREAM, **changes):
    payload = {"gaming_day": DAY.isoformat(), "table_id": "D1", "kind": "drop",
               "acknowledged_by": users[role].username, "note": "short at the count",
               **changes}  # fmt: skip
    return append(stream, [NewEvent("variance.acknowledged", payload)], expected_version=0,
                  actor=as_(users, role))  # fmt: skip


def test_a_variance_acknowledged_then_accepted_is_no_longer_counted_open(casino, closed):  # noqa: F811
    assert day_report(DAY).total.open_variances == 2
    acknowledge(casino, owner="shift_supervisor")
    append(STREAM, [NewEvent("variance.accepted", {"accepted_by": "finance",
                                                   "reason": "reported to the cage"})],
           expected_version=1, actor=as_(casino, Role.FINANCE))  # fmt: skip
    run_all()
    review = VarianceReview.objects.get(stream_id=STREAM)
    assert (review.status, review.owner, review.acknowledged_by) == (
        "accepted", "shift_supervisor", "finance")
    assert day_report(DAY).total.open_variances == 1


def test_a_variance_the_close_did_not_find_cannot_be_acknowledged(casino, closed):  # noqa: F811
    with pytest.raises(errors.RuleViolation, match="found no hold_interval variance"):
        acknowledge(casino, kind="hold_interval",
                    stream=variance_stream_id(DAY, "D1", "hold_interval"))


def test_a_variance_is_accepted_only_once_acknowledged_and_only_by_finance(casino, closed):  # noqa: F811
    with pytest.raises(errors.RuleViolation, match="only once acknowledged"):
        append(STREAM, [NewEvent("variance.accepted", {"accepted_by": "finance",
                                                       "reason": "x"})],
               expected_version=0, actor=as_(casino, Role.FINANCE))  # fmt: skip
    acknowledge(casino, role=Role.SHIFT_SUPERVISOR)
    with pytest.raises(errors.LedgerError):
        append(STREAM, [NewEvent("variance.accepted", {"accepted_by": "shift_supervisor",
                                                       "reason": "x"})],
               expected_version=1, actor=as_(casino, Role.SHIFT_SUPERVISOR))  # fmt: skip


def test_a_step_is_signed_only_in_ones_own_name(casino, closed):  # noqa: F811
    with pytest.raises(errors.RuleViolation, match="only in their own name"):
        acknowledge(casino, acknowledged_by="shift_supervisor")


#: Who may append a variance's steps (acknowledged, resolved, accepted), beside
#: the main matrix (tests/tables/test_permission_matrix.py) whose rows are full.
VARIANCE_MATRIX = {
    Role.DEALER: (0, 0, 0), Role.TABLE_DEVICE: (0, 0, 0), Role.FLOORPERSON: (0, 0, 0),
    Role.SHIFT_SUPERVISOR: (1, 1, 0), Role.CAGE_CASHIER: (0, 0, 0), Role.FINANCE: (1, 1, 1),
    Role.REGULATOR: (0, 0, 0), Role.ADMINISTRATOR: (0, 0, 0), Role.SYSTEM: (1, 1, 1),
}


@pytest.mark.parametrize("role", list(VARIANCE_MATRIX), ids=str)
def test_each_role_may_append_exactly_the_variance_steps_of_the_matrix(role):
    from audit.validation import may_append

    actor = Actor(username="someone", roles=frozenset({role.value}))
    steps = ("variance.acknowledged", "variance.resolved", "variance.accepted")
    assert tuple(int(may_append(actor, step)) for step in steps) == VARIANCE_MATRIX[role]
