"""Starting the close from the admin: the same task beat runs, for finance,
shift supervisors and administrators; forcing it is a shift supervisor's."""

from __future__ import annotations

import pytest
from django.test import Client

from casino.models import DayClose, DayCloseStatus
from casino.roles import Role
from tables.simulation import TableDayPlan
from tests.operations.test_close import DAY

pytestmark = pytest.mark.django_db
URL = "/admin/casino/dayclose/close/"


def client_for(user) -> Client:
    user.is_staff = True  # may use the admin; the role decides the rest
    user.save()
    client = Client()
    client.force_login(user)
    return client


def test_finance_closes_a_day_from_the_admin(casino, play):
    play()
    response = client_for(casino[Role.FINANCE]).post(URL, {"day": str(DAY)}, follow=True)
    assert response.status_code == 200
    shown = [str(message) for message in response.context["messages"]]
    assert shown == ["gaming day 2024-05-01 closed: 2 tables, 60 rounds, 0 variances; stages "
                     "run: started, replayed, reconciled, sealed, exported, completed"]
    close = DayClose.objects.get(gaming_day=DAY)
    assert close.status == DayCloseStatus.CLOSED and close.requested_by == "finance"


def test_open_tables_are_listed_and_only_a_shift_supervisor_may_force(casino, play):
    play(TableDayPlan(left_open=frozenset({"T1"})))
    finance = client_for(casino[Role.FINANCE])
    refused = finance.post(URL, {"day": str(DAY)})
    assert "still open: T1" in refused.content.decode()
    forced = finance.post(URL, {"day": str(DAY), "force": "on"})
    assert "must hold the role shift supervisor" in forced.content.decode()
    assert not DayClose.objects.exists()
    supervisor = client_for(casino[Role.SHIFT_SUPERVISOR])
    supervisor.post(URL, {"day": str(DAY), "force": "on"})
    assert DayClose.objects.get(gaming_day=DAY).forced is True


@pytest.mark.parametrize("role", [Role.DEALER, Role.FLOORPERSON, Role.REGULATOR])
def test_other_roles_may_not_start_a_close(casino, role):
    assert client_for(casino[role]).get(URL).status_code == 403

