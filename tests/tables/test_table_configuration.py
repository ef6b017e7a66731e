"""Issue 21, "the configuration that decides money is a fact in the ledger":
a table's rule set, limits, options and payout limit are ``config.changed``
events on ``table-config:<table>``, confirmed by a second person where the
casino's segregation of duties requires it; a round must use what is in
force at its table; the admin's history is imported once and checked."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth.models import Group, User
from django.db import connection
from django.test import Client

from audit import errors
from audit.ledger import Actor, read_stream
from casino import configuration as config
from casino.roles import Role
from tables import configuration
from tables.configuration import configuration_at, table_config_stream
from tables.models import Table
from tests.tables.helpers import criss_cross_round, payload_body

pytestmark = pytest.mark.django_db
URL = "/api/v1/streams/round:T1-1/events"
LATER = datetime.timedelta(minutes=1)


def now():
    return datetime.datetime.now(datetime.UTC)


def person(user) -> Actor:
    return Actor.from_user(user)


@pytest.fixture
def floor(role_users):
    from tests.tables.test_table_day import make_floor

    return make_floor(role_users)


@pytest.fixture
def configured(floor, role_users):
    """T1's history imported into the ledger (as ``migrate`` does once)."""
    assert configuration.import_history() == 1
    return role_users


def test_migrate_imports_each_tables_history_once_as_events_effective_at_its_dates(floor):
    table = Table.objects.get(table_id="T1")
    created = now() - datetime.timedelta(days=10)
    table.history.update(history_date=created)
    table.max_wager_cents = 100000
    table._history_date = created + datetime.timedelta(days=3)
    table.save()
    assert configuration.import_history() == 1
    assert configuration.import_history() == 0  # once
    events = read_stream(table_config_stream("T1"))
    assert [e.payload["effective_from"] for e in events] == [
        created.isoformat(), (created + datetime.timedelta(days=3)).isoformat()]  # fmt: skip
    assert configuration_at("T1", created + LATER).get("max_wager_cents") == 50000
    assert configuration_at("T1", created + datetime.timedelta(days=4)).get(
        "max_wager_cents") == 100000  # fmt: skip
    assert not configuration_at("T1", created - LATER)
    assert configuration.differences() == []


def test_migrate_runs_the_import(floor):
    from django.core.management import call_command

    assert not read_stream(table_config_stream("T1"))
    call_command("migrate", verbosity=0)
    (event,) = read_stream(table_config_stream("T1"))
    assert event.payload["settings"]["ruleset_id"] == "PA-674a-2019"
    assert event.metadata["actor"] == "configuration-import"


def test_a_change_waits_for_a_second_persons_confirmation(configured):
    admin, supervisor = configured[Role.ADMINISTRATOR], configured[Role.SHIFT_SUPERVISOR]
    version = configuration.configure("T1", {"max_wager_cents": 20000}, effective_from=now(),
                                      reason="new limits", actor=person(admin))  # fmt: skip
    assert configuration_at("T1", now() + LATER).get("max_wager_cents") == 50000
    assert Table.objects.get(table_id="T1").max_wager_cents == 50000
    with pytest.raises(errors.RuleViolation) as refused:
        configuration.confirm("T1", version, actor=person(admin))
    assert "a second person confirms it (segregation of duties)" in refused.value.message
    configuration.confirm("T1", version, actor=person(supervisor))
    assert configuration_at("T1", now() + LATER).get("max_wager_cents") == 20000
    table = Table.objects.get(table_id="T1")
    assert table.max_wager_cents == 20000
    assert table.history.first().history_user == admin
    assert configuration.differences() == []


def test_a_change_names_the_second_person_rule_and_may_not_reach_into_the_past(configured):
    admin = person(configured[Role.ADMINISTRATOR])
    stream = table_config_stream("T1")
    with pytest.raises(errors.RuleViolation) as refused:
        config.propose(stream, {"ruleset_id": "PA-674a-2016"},
                       effective_from=now() - datetime.timedelta(days=1), reason="backdated",
                       actor=admin)  # fmt: skip
    assert refused.value.field == "events[0].payload.effective_from"
    with pytest.raises(errors.RuleViolation) as refused:
        config.propose(stream, {"ruleset_id": "MA-DCP-UNDATED"}, effective_from=now(),
                       reason="wrong game", actor=admin)  # fmt: skip
    assert refused.value.field == "events[0].payload.settings.ruleset_id"
    assert "is for double_cross_poker, not criss_cross_poker" in refused.value.message


def test_only_who_may_configure_tables_changes_them(configured):
    dealer = person(configured[Role.DEALER])
    with pytest.raises(errors.LedgerError):
        config.propose(table_config_stream("T1"), {"max_wager_cents": 1}, effective_from=now(),
                       reason="me", actor=dealer)  # fmt: skip
    finance = person(configured[Role.FINANCE])
    with pytest.raises(errors.RuleViolation) as refused:
        config.propose(table_config_stream("T1"), {"max_wager_cents": 1}, effective_from=now(),
                       reason="me", actor=finance)  # fmt: skip
    assert "is configured by administrator or shift supervisor" in refused.value.message


def test_without_the_casinos_segregation_of_duties_a_change_is_in_force_at_once(configured):
    admin = person(configured[Role.ADMINISTRATOR])
    finance = person(configured[Role.FINANCE])
    version = config.propose(config.CASINO_STREAM, {"two_person_configuration": False},
                             effective_from=now(), reason="small casino", actor=admin)  # fmt: skip
    assert config.two_persons_required()  # until a second person confirms
    config.confirm(config.CASINO_STREAM, version, actor=finance)
    assert not config.two_persons_required()
    configuration.configure("T1", {"max_wager_cents": 30000}, effective_from=now(),
                            reason="alone", actor=admin)  # fmt: skip
    assert Table.objects.get(table_id="T1").max_wager_cents == 30000


@pytest.fixture
def device(api_client, floor, configured):
    floor.open_table()  # table T1 open on 2024-05-01
    api_client.force_authenticate(configured[Role.TABLE_DEVICE])
    return api_client


def test_a_round_must_use_the_rule_set_in_force_at_its_table_not_the_row(device):
    """The row edited by SQL (an insider) changes nothing: the round is judged
    by the ledger's configuration."""
    with connection.cursor() as cursor:
        cursor.execute("UPDATE tables_table SET ruleset_id = 'PA-674a-2016' WHERE table_id = 'T1'")
    events, _ = criss_cross_round()
    tampered = payload_body(events[:1])
    tampered["events"][0]["payload"]["ruleset_id"] = "PA-674a-2016"
    response = device.post(URL, tampered, format="json")
    assert response.status_code == 400
    body = response.json()
    assert body["field"] == "events[0].payload.ruleset_id"
    assert "'PA-674a-2016' is not the table's configuration: T1 uses 'PA-674a-2019'" in (
        body["message"])  # fmt: skip
    assert "table-config:T1 version 1" in body["message"]
    assert device.post(URL, payload_body(events[:1]), format="json").status_code == 201
    (difference,) = configuration.differences()
    assert (difference.table, difference.key, difference.field, difference.stored,
            difference.ledger) == ("tables_table", "T1", "ruleset_id", "PA-674a-2016",
                                   "PA-674a-2019")  # fmt: skip


def test_a_round_must_use_the_configured_payout_limit_and_options(device, configured):
    admin, supervisor = configured[Role.ADMINISTRATOR], configured[Role.SHIFT_SUPERVISOR]
    version = configuration.configure("T1", {"payout_limit_cents": 5_000_000},
                                      effective_from=now(), reason="limit",
                                      actor=person(admin))  # fmt: skip
    configuration.confirm("T1", version, actor=person(supervisor))
    events, _ = criss_cross_round()
    response = device.post(URL, payload_body(events[:1]), format="json")
    assert response.status_code == 400
    assert response.json()["field"] == "events[0].payload.payout_limit_cents"


def test_a_second_person_is_a_person_holding_a_configuring_role(configured):
    admin = person(configured[Role.ADMINISTRATOR])
    other = User.objects.create_user(username="admin_2", password="pw")
    other.groups.add(Group.objects.get(name=Role.ADMINISTRATOR.value))
    version = configuration.configure("T1", {"pit": "2"}, effective_from=now(), reason="move",
                                      actor=admin)  # fmt: skip
    with pytest.raises(errors.RuleViolation) as refused:
        config.confirm(table_config_stream("T1"), version, actor=Actor.system("job"))
    assert "confirms in person" in refused.value.message
    configuration.confirm("T1", version, actor=person(other))
    assert Table.objects.get(table_id="T1").pit == "2"


def _staff(user):
    user.is_staff = True
    user.is_superuser = True  # the admin's model permissions; the ledger checks the roles
    user.save()
    client = Client()
    client.force_login(user)
    return client


def test_the_admin_records_a_table_change_in_the_ledger_and_a_second_person_confirms_it(
    configured,
):
    """Issue 21: the admin's save is a proposed change; it is written onto
    the row (and its history) only once a second person confirms it."""
    admin_client = _staff(configured[Role.ADMINISTRATOR])
    table = Table.objects.get(table_id="T1")
    form = {"table_id": "T1", "pit": "1", "game": table.game, "ruleset_id": table.ruleset_id,
            "min_wager_cents": 500, "max_wager_cents": 25000, "positions": 6,
            "dealing_method": table.dealing_method, "shuffler": table.shuffler,
            "status": table.status}  # fmt: skip
    response = admin_client.post(f"/admin/tables/table/{table.pk}/change/", form)
    assert response.status_code == 302
    assert Table.objects.get(table_id="T1").max_wager_cents == 50000  # waits
    (change,) = config.waiting_changes(table_config_stream("T1"))
    assert change.settings == {"max_wager_cents": 25000} and change.changed_by == "administrator"
    page = admin_client.get("/admin/tables/table/configuration/")
    assert b"max_wager_cents = 25000" in page.content
    # The proposer may not confirm it …
    admin_client.post("/admin/tables/table/configuration/",
                      {"stream_id": table_config_stream("T1"), "version": change.version})
    assert Table.objects.get(table_id="T1").max_wager_cents == 50000
    # … a second person does.
    supervisor_client = _staff(configured[Role.SHIFT_SUPERVISOR])
    supervisor_client.post("/admin/tables/table/configuration/",
                           {"stream_id": table_config_stream("T1"), "version": change.version})
    assert Table.objects.get(table_id="T1").max_wager_cents == 25000
    assert configuration.differences() == []
