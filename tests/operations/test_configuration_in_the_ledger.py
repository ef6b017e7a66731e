"""Issue 21's insider attack on the configuration, and issue 14's segregation
of duties for the variance thresholds, on a closed and sealed day.

Before: the rule set in force at a table on a sealed day, edited in the
history table (what the admin shows), was noticed by nothing, and rebuilding
left it so; the close read the variance thresholds from rows anyone with
database rights can edit; finance could both count the drop and change the
thresholds it is judged by. Now the configuration is ledger events
(``casino.configuration``, ``tables.configuration``): replay and the close
read them, ``verify_ledger`` names every history row they do not give."""

from __future__ import annotations

import datetime

import pytest
from django.core.management import call_command
from django.test import Client

from audit import errors
from audit.ledger import Actor, read_stream
from casino import configuration as config
from casino.models import Jurisdiction, VariancePolicy
from casino.roles import Role
from operations.close import close_gaming_day, close_stream_id
from tables import configuration
from tables.models import Round, Table
from tests.audit.test_verify_ledger import _bypass_triggers, _verify
from tests.operations.test_close import DAY, IN_DAY

pytestmark = pytest.mark.django_db
BEFORE = IN_DAY - datetime.timedelta(days=30)


@pytest.fixture
def imported(casino):
    """The tables' history dated a month before the day, imported into the
    ledger as ``migrate`` does once."""
    Table.history.update(history_date=BEFORE)
    assert configuration.import_history() == 2
    return casino


def _settlements() -> dict[str, tuple]:
    rows = Round.objects.filter(gaming_day=DAY)
    return {r.stream_id: (r.ruleset_id, r.required_paid_cents, r.required_collected_cents,
                          r.finding_count) for r in rows}  # fmt: skip


def test_21_the_rule_set_of_a_sealed_day_edited_in_the_history_changes_nothing_and_is_named(
    imported, play
):
    play()
    close_gaming_day(DAY, requested_by="finance")
    assert _verify()[0] == 0
    assert configuration.round_differences(DAY) == []
    before = _settlements()
    assert {r for r, *_ in before.values()} >= {"PA-674a-2019"}
    # The insider: the rule set T1 used that day, edited in the admin's history.
    _bypass_triggers("UPDATE tables_historicaltable SET ruleset_id = 'PA-674a-2016' "
                     "WHERE table_id = 'T1'", [])  # fmt: skip
    # Replay reads the events: every round settles as before.
    call_command("rebuild_projection", "tables.rounds", "--no-progress")
    assert _settlements() == before
    moment = IN_DAY
    assert configuration.configuration_at("T1", moment).get("ruleset_id") == "PA-674a-2019"
    # … and the check names the row, the field, both values and the events.
    (difference,) = configuration.differences()
    assert (difference.table, difference.field, difference.stored, difference.ledger) == (
        "tables_historicaltable", "ruleset_id", "PA-674a-2016", "PA-674a-2019")  # fmt: skip
    code, out = _verify()
    assert code == 1
    assert ("BROKEN configuration: tables_historicaltable T1 history " in out
            and "ruleset_id is 'PA-674a-2016', the ledger's configuration gives 'PA-674a-2019' "
            "(table-config:T1 version 1 (position " in out), out  # fmt: skip
    # Rebuilding the admin's view from the events reports what it replaces, then repairs it.
    assert configuration.rebuild_history() == [difference]
    assert configuration.differences() == [] and _verify()[0] == 0
    assert Table.history.get(table_id="T1").ruleset_id == "PA-674a-2019"


def test_21_a_round_recorded_under_another_rule_set_than_its_tables_is_named(casino, play):
    """Whoever recorded it (the system's jobs record rounds as given), a round
    whose rule set is not its table's configuration then is named."""
    Table.history.filter(table_id="T1").update(history_date=BEFORE, ruleset_id="PA-674a-2016")
    Table.history.filter(table_id="D1").update(history_date=BEFORE)
    configuration.import_history()
    play()
    named = configuration.round_differences(DAY)
    t1 = Round.objects.filter(gaming_day=DAY, table_id="T1")
    assert {d.table for d in named} == set(t1.values_list("stream_id", flat=True))
    assert {(d.field, d.stored, d.ledger) for d in named} == {
        ("ruleset_id", "PA-674a-2019", "PA-674a-2016")}  # fmt: skip


def _thresholds(ledger_clock, proposer, confirmer, **settings):
    """Thresholds changed a week before the day, proposed and confirmed."""
    ledger_clock.at = IN_DAY - datetime.timedelta(days=7)
    version = config.propose(config.CASINO_STREAM, settings, effective_from=ledger_clock.at,
                             reason="tighter drop", actor=Actor.from_user(proposer))  # fmt: skip
    config.confirm(config.CASINO_STREAM, version, actor=Actor.from_user(confirmer))


def test_21_the_close_judges_the_day_by_the_thresholds_in_the_ledger_not_the_policy_row(
    imported, play, ledger_clock
):
    users = imported
    _thresholds(ledger_clock, users[Role.ADMINISTRATOR], users[Role.SHIFT_SUPERVISOR],
                drop_tolerance_cents=0)  # fmt: skip
    # The admin's policy row, edited by an insider: the close does not read it.
    VariancePolicy.objects.create(jurisdiction=Jurisdiction.objects.get(code="PA"),
                                  effective_from=DAY, drop_tolerance_cents=10_000_000)  # fmt: skip
    play()
    close_gaming_day(DAY, requested_by="finance")
    started = read_stream(close_stream_id(DAY))[0].payload
    assert started["thresholds"]["drop_tolerance_cents"] == 0
    assert started["thresholds"]["inventory_tolerance_cents"] == 2500  # the default
    named = [str(d) for d in configuration.differences()]
    assert any("casino_variancepolicy PA from 2024-05-01: drop_tolerance_cents is 10000000, "
               "the ledger's configuration gives 0" in line for line in named), named


def test_14_who_set_the_thresholds_in_force_on_a_day_may_not_enter_its_count(
    imported, play, ledger_clock
):
    users = imported
    # The close's crew counts as "finance"; finance set that day's thresholds.
    _thresholds(ledger_clock, users[Role.FINANCE], users[Role.ADMINISTRATOR],
                drop_tolerance_cents=100)  # fmt: skip
    with pytest.raises(errors.RuleViolation) as refused:
        play()
    assert refused.value.field.endswith(".counted_by")
    assert ("finance set the variance thresholds in force on gaming day 2024-05-01, which "
            "judge this count") in refused.value.message


def test_14_who_entered_a_count_may_not_change_or_confirm_the_thresholds_it_is_judged_by(
    imported, play, ledger_clock
):
    users = imported
    play()  # finance counted the day's drop
    ledger_clock.at = IN_DAY + datetime.timedelta(hours=1)  # still gaming day DAY
    finance = Actor.from_user(users[Role.FINANCE])
    with pytest.raises(errors.RuleViolation) as refused:
        config.propose(config.CASINO_STREAM, {"drop_tolerance_cents": 10_000},
                       effective_from=ledger_clock.at, reason="looser", actor=finance)  # fmt: skip
    assert ("finance entered the count of gaming day 2024-05-01, which these variance "
            "thresholds would judge") in refused.value.message
    version = config.propose(config.CASINO_STREAM, {"drop_tolerance_cents": 10_000},
                             effective_from=ledger_clock.at, reason="looser",
                             actor=Actor.from_user(users[Role.ADMINISTRATOR]))  # fmt: skip
    with pytest.raises(errors.RuleViolation):
        config.confirm(config.CASINO_STREAM, version, actor=finance)
    assert config.waiting_changes(config.CASINO_STREAM)[0].version == version  # still waits


def _staff(user) -> Client:
    user.is_staff = user.is_superuser = True  # the admin's model permissions
    user.save()
    client = Client()
    client.force_login(user)
    return client


POLICY_FORM = {"jurisdiction": "PA", "effective_from": "2024-05-01",
               "inventory_tolerance_cents": 2500, "drop_tolerance_cents": 500,
               "hold_confidence_percent": 95, "hold_history_days": 90,
               "hold_min_history_days": 7, "month_over_month_basis_points": 300,
               "meter_tolerance_cents": 100}  # fmt: skip


def test_14_the_admins_variance_policy_is_a_proposal_a_second_person_confirms(
    imported, play, ledger_clock
):
    users = imported
    play()  # finance counted 2024-05-01
    ledger_clock.at = IN_DAY + datetime.timedelta(hours=1)
    finance = _staff(users[Role.FINANCE])
    response = finance.post("/admin/casino/variancepolicy/add/", POLICY_FORM, follow=True)
    assert b"finance entered the count of gaming day 2024-05-01" in response.content
    assert not VariancePolicy.objects.exists() and not read_stream(config.CASINO_STREAM)
    admin = _staff(users[Role.ADMINISTRATOR])
    admin.post("/admin/casino/variancepolicy/add/", POLICY_FORM)
    assert not VariancePolicy.objects.exists()  # waits for a second person
    (change,) = config.waiting_changes(config.CASINO_STREAM)
    confirm = {"stream_id": config.CASINO_STREAM, "version": change.version}
    finance.post("/admin/tables/table/configuration/", confirm)  # who counted may not confirm
    assert config.waiting_changes(config.CASINO_STREAM)
    _staff(users[Role.SHIFT_SUPERVISOR]).post("/admin/tables/table/configuration/", confirm)
    assert VariancePolicy.objects.get().drop_tolerance_cents == 500
    assert config.thresholds_in_force(DAY)["drop_tolerance_cents"] == 500
    assert configuration.differences() == []
