"""Issue 11: the Pai Gow house way is the casino's Rules Submission (§ 561.13(d)),
loaded as a versioned, effective-dated change of ``casino-config:casino``,
confirmed by a second person, and carried by every round opened under it."""

from __future__ import annotations

import datetime
import json

import pytest
from django.core.management import CommandError, call_command

from audit import errors
from audit.ledger import Actor
from casino import configuration as config
from casino.roles import Role
from tables import house_way_config
from tables.rules.games._house_way import parse_submission
from tests.rules.test_house_way_561 import SAMPLE_FILE

pytestmark = pytest.mark.django_db


def now():
    return datetime.datetime.now(datetime.UTC)


def submission(version=2, at=None, **dealer):
    data = json.loads(SAMPLE_FILE.read_text())
    data["dealer"].update(dealer)
    data["version"] = version
    data["effective_from"] = (at or now()).isoformat()
    return data


def refusals(payload, moment):
    found = []
    house_way_config.check_opening(payload, moment, lambda message, field: found.append(
        (field, message)))  # fmt: skip
    return found


def test_561_13_d_a_house_way_waits_for_a_second_person_then_rounds_carry_it(role_users):
    admin = Actor.from_user(role_users[Role.ADMINISTRATOR])
    supervisor = Actor.from_user(role_users[Role.SHIFT_SUPERVISOR])
    start = now()
    version = house_way_config.load(submission(split_two_pair_from=15, at=start), actor=admin)
    assert house_way_config.submission_at(now()) is None  # not in force until confirmed
    with pytest.raises(errors.LedgerError):
        house_way_config.confirm(version, actor=admin)  # the proposer is not a second person
    house_way_config.confirm(version, actor=supervisor)
    loaded, change = house_way_config.submission_at(now())
    assert (loaded.way.split_two_pair_from, change.changed_by, change.confirmed_by) == (
        15, "administrator", "shift_supervisor")
    payload = {"game": "pai_gow_poker", "options": {"house_way": "SAMPLE-2010"}}
    ((field, message),) = refusals(payload, now())
    assert field == "events[0].payload.options.house_way"
    assert "§ 561.13(d)" in message and loaded.token in message
    assert refusals({**payload, "options": {"house_way": loaded.token}}, now()) == []
    # a round opened before the change took effect names the way then in force
    assert refusals(payload, start - datetime.timedelta(seconds=1)) == []
    # § 588.11(d): Six-Card Fortune's dealer sets by the chapter, whatever was loaded
    assert refusals({"game": "six_card_fortune_pai_gow_poker", "options": {}}, now()) == []


def test_561_13_d_a_revision_raises_the_version(role_users):
    finance = Actor.from_user(role_users[Role.FINANCE])
    supervisor = Actor.from_user(role_users[Role.SHIFT_SUPERVISOR])
    house_way_config.confirm(house_way_config.load(submission(version=2), actor=finance),
                             actor=supervisor)  # fmt: skip
    with pytest.raises(errors.LedgerError) as refused:
        house_way_config.load(submission(version=2, split_quads_from=8), actor=finance)
    assert refused.value.field == "version"
    assert refused.value.section == "561.13(d)"
    later = house_way_config.load(submission(version=3, split_quads_from=8), actor=finance)
    house_way_config.confirm(later, actor=supervisor)
    assert house_way_config.submission_at(now())[0].way.split_quads_from == 8


def test_561_13_d_a_bad_file_is_refused_naming_the_field(role_users):
    admin = Actor.from_user(role_users[Role.ADMINISTRATOR])
    with pytest.raises(errors.LedgerError) as refused:
        house_way_config.load(submission(play_straights="yes"), actor=admin)
    assert (refused.value.field, refused.value.section) == ("dealer.play_straights", "561.13(d)")
    assert config.waiting_changes(config.CASINO_STREAM) == []


def test_the_command_loads_the_file_and_a_second_person_confirms_it(role_users, tmp_path):
    path = tmp_path / "house-way.json"
    path.write_text(json.dumps(submission()))
    call_command("load_house_way", str(path), "--by", "administrator")
    (waiting,) = config.waiting_changes(config.CASINO_STREAM)
    with pytest.raises(CommandError, match="no house way waiting"):
        call_command("load_house_way", "--confirm", str(waiting.version + 1), "--by",
                     "shift_supervisor")  # fmt: skip
    with pytest.raises(CommandError, match="may not append config.confirmed"):
        call_command("load_house_way", "--confirm", str(waiting.version), "--by", "dealer")
    call_command("load_house_way", "--confirm", str(waiting.version), "--by",
                 "shift_supervisor")  # fmt: skip
    loaded, _ = house_way_config.submission_at(now())
    assert loaded.token == parse_submission(submission()).token
    path.write_text(json.dumps({**submission(version=3), "id": "bad id"}))
    with pytest.raises(CommandError, match=r"§ 561\.13\(d\): id: "):
        call_command("load_house_way", str(path), "--by", "administrator")


def test_561_13_d_the_demo_loads_its_house_way_and_its_pai_gow_rounds_carry_it(db):
    """The demo's Pai Gow days before HOUSE_WAY_FROM name SAMPLE-2010; from it on,
    the version loaded from the sample file (the same parameters: same settlements)."""
    from operations.management.commands.demo import HOUSE_WAY_FROM, Command

    demo = Command()
    demo._users()
    demo._configure()
    demo._configure()  # once

    def house_way(day):
        (plan,) = [p for p in demo._declared_plans(day) if p.table_id == "PGP-01"]
        return dict(plan.options).get("house_way")

    assert house_way(HOUSE_WAY_FROM - datetime.timedelta(days=1)) is None
    loaded = parse_submission(json.loads(SAMPLE_FILE.read_text()))
    assert house_way(HOUSE_WAY_FROM) == loaded.token
    (change,) = [c for c in config.changes(config.read_stream(config.CASINO_STREAM))
                 if "house_way" in c.settings]  # fmt: skip
    assert (change.changed_by, change.confirmed_by) == ("admin", "supervisor")


def test_561_13_d_rounds_in_the_ledger_replay_under_the_version_they_carry():
    """A simulated Pai Gow day under a loaded version (two pair always kept
    together) goes through the ledger and its projection: each round keeps the
    version it opened with, and replay settles it as the dealer did (no finding).
    (That the version changes a settlement: ``tests/rules/test_house_way_561``.)"""
    from tables.models import Finding, Round
    from tables.simulation import TablePlan, simulate_gaming_day

    keeps = parse_submission(submission(split_two_pair_from=15)).token
    plan = TablePlan("PGP-01", "PA-561-2010", options=(("house_way", keeps),))
    summary = simulate_gaming_day([plan], datetime.date(2024, 5, 1), rounds_per_table=12,
                                  seed=3, dealer_error_percent=0)  # fmt: skip
    rows = Round.objects.filter(table_id="PGP-01")
    assert rows.count() == summary.rounds == 12
    assert {row.options_applied.get("house_way") for row in rows} == {keeps}
    assert not Finding.objects.exists()


def test_561_13_d_a_round_recorded_under_another_house_way_is_named(role_users):
    """Whoever recorded it (the system's jobs record rounds as given), a Pai Gow
    round opened after a house way was loaded that names another is named."""
    from tables import configuration
    from tables.simulation import TablePlan, simulate_gaming_day

    finance = Actor.from_user(role_users[Role.FINANCE])
    supervisor = Actor.from_user(role_users[Role.SHIFT_SUPERVISOR])
    day = datetime.date(2024, 5, 1)
    simulate_gaming_day([TablePlan("PGP-01", "PA-561-2010")], day, rounds_per_table=2, seed=3)
    assert configuration.round_differences(day) == []  # no house way loaded then
    house_way_config.confirm(house_way_config.load(submission(), actor=finance),
                             actor=supervisor)  # fmt: skip
    simulate_gaming_day([TablePlan("PGP-02", "PA-561-2010")], day, rounds_per_table=2, seed=4)
    token = parse_submission(submission()).token
    named = configuration.round_differences(day)
    assert {(d.field, d.stored, d.ledger) for d in named} == {
        ("options.house_way", "SAMPLE-2010", token)}
    assert {d.table.partition(":")[2][:6] for d in named} == {"PGP-02"}


def test_561_13_d_a_device_opening_a_round_under_another_house_way_gets_a_400(role_users):
    """The casino's house way in force is the one a Pai Gow round opens with: a
    device naming another is refused, naming the field and the section."""
    from rest_framework.test import APIClient

    from tables.models import DealingMethod, Table
    from tests.rules.test_pai_gow_poker_561 import opened
    from tests.tables.helpers import payload_body
    from tests.tables.test_table_day import make_floor

    floor = make_floor(role_users)
    Table.objects.create(table_id="PGP-1", game="pai_gow_poker", ruleset_id="PA-561-2010",
                         min_wager_cents=500, max_wager_cents=50000,
                         dealing_method=DealingMethod.MANUAL_SHOE)  # fmt: skip
    floor.open_table("table:PGP-1:2012-06-01")
    house_way_config.confirm(house_way_config.load(submission(), actor=Actor.from_user(
        role_users[Role.FINANCE])), actor=Actor.from_user(role_users[Role.SHIFT_SUPERVISOR]))
    device = APIClient()
    device.force_authenticate(role_users[Role.TABLE_DEVICE])
    url = "/api/v1/streams/round:R-PG/events"
    response = device.post(url, payload_body([opened()]), format="json")
    assert response.status_code == 400, response.json()
    body = response.json()
    assert body["field"] == "events[0].payload.options.house_way"
    assert "'SAMPLE-2010' is not the casino's house way" in body["message"]
    assert "§ 561.13(d)" in body["message"]
    token = parse_submission(submission()).token
    response = device.post(url, payload_body([opened(house_way=token)]), format="json")
    assert response.status_code == 201, response.json()
