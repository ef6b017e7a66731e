"""Roles shape the pages: a regulator is offered no write action anywhere
(the ledger would refuse it anyway), and the ledger's internal models
(projection checkpoints, stream indexes) are listed to administrators only."""

from __future__ import annotations

import pytest

from audit.projections import run_all
from casino.roles import Role
from tests.tables.test_slips import SLIP, fill
from tests.tables.test_table_day import make_floor

pytestmark = pytest.mark.django_db
DAY_PAGE = "/admin/floor/T1/2024-05-01/"


@pytest.fixture
def staff(role_users):
    for user in role_users.values():
        user.is_staff = True
        user.save()
    return role_users


@pytest.mark.parametrize("role", [Role.REGULATOR, Role.FINANCE, Role.SHIFT_SUPERVISOR,
                                  Role.FLOORPERSON])  # fmt: skip
def test_internal_models_are_listed_to_administrators_only(client, staff, role):
    client.force_login(staff[role])
    index = client.get("/admin/").content.decode()
    assert "Ledger events" in index or "Events" in index  # the ledger itself stays readable
    assert "/admin/audit/projectioncheckpoint/" not in index
    assert "/admin/audit/streamindex/" not in index
    assert client.get("/admin/audit/projectioncheckpoint/").status_code == 403
    client.force_login(staff[Role.ADMINISTRATOR])
    index = client.get("/admin/").content.decode()
    assert "/admin/audit/projectioncheckpoint/" in index
    assert "/admin/audit/streamindex/" in index


def test_a_regulator_is_offered_no_write_action(client, staff):
    floor = make_floor(staff)
    floor.open_table()
    assert floor.post(Role.CAGE_CASHIER, SLIP, [fill()]).status_code == 201
    run_all()
    client.force_login(staff[Role.REGULATOR])
    assert "2024-000123" in client.get(DAY_PAGE).content.decode()  # the regulator reads it
    # (The floor board draws its buttons from its data's "can"; the browser test looks.)
    for page in (DAY_PAGE, "/admin/casino/dayclose/"):
        html = client.get(page).content.decode()
        assert "/admin/act/" not in html and "Close a gaming day" not in html, page
    assert not any(client.get("/admin/floor/board.json").json()["can"].values())
    assert client.get("/admin/casino/dayclose/close/").status_code == 403
    # Those who may act see the buttons.
    client.force_login(staff[Role.SHIFT_SUPERVISOR])
    assert "Close a gaming day" in client.get("/admin/casino/dayclose/").content.decode()
    assert f"/admin/act/approve-slip/{SLIP}" in client.get(DAY_PAGE).content.decode()
    assert client.get("/admin/floor/board.json").json()["can"]["approve_slip"] is True
