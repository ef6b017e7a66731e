"""Dealers deal only the games they passed the table test in (§ 527.5(a)):
certifications are ``training.certified`` events in the dealer's personnel
file (``training:<dealer>``, § 527.5(b)); naming an uncertified dealer at a
table is refused citing the section, nothing written, the refusal kept."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth.models import User

from audit.ledger import Actor, NewEvent, append
from audit.models import Event, RejectedSubmission
from audit.projections import PROJECTIONS, run
from casino.models import Casino
from casino.roles import Role
from tables.compliance import DEALER_UNTRAINED, check_decks
from tables.models import ComplianceFinding, DealerCertification
from tables.training import CERTIFIED, training_stream, untrained, why_not_certified
from tests.tables.helpers import criss_cross_round, payload_body
from tests.tables.test_table_day import DAY, TABLE, Floor, make_floor, opened

pytestmark = pytest.mark.django_db

HOUR = datetime.timedelta(hours=1)
ASSIGN_DEALER_2 = ("table.dealer_assigned", {"dealer": "dealer_2"})


@pytest.fixture
def floor(role_users) -> Floor:
    """T1 (Criss-Cross Poker) open on DAY with ``dealer``; ``dealer_2`` has no certification."""
    floor = make_floor(role_users, dealer_2_trained=False)
    floor.open_table()
    return floor


def certify(floor: Floor, game: str, on: str, who=Role.SHIFT_SUPERVISOR, dealer="dealer_2"):
    return floor.post(who, training_stream(dealer), [(CERTIFIED, {
        "game": game, "certified_on": on, "certified_by": floor.users[who].username})],
        Event.objects.filter(stream_id=training_stream(dealer)).count())  # fmt: skip


def test_527_5_a_a_dealer_certified_in_the_tables_game_is_assigned(floor):
    assert certify(floor, "criss_cross_poker", "2024-04-20").status_code == 201
    response = floor.post(Role.FLOORPERSON, TABLE, [ASSIGN_DEALER_2], 2)
    assert response.status_code == 201, response.json()


def test_527_5_a_an_uncertified_dealer_is_refused_citing_the_section_nothing_written(floor):
    # Certified in another game only: not in the table's.
    assert certify(floor, "double_cross_poker", "2024-04-20").status_code == 201
    response = floor.post(Role.FLOORPERSON, TABLE, [ASSIGN_DEALER_2], 2)
    assert response.status_code == 400
    body = response.json()
    assert body["field"] == "events[0].payload.dealer"
    assert body["section"] == "527.5(a)"
    assert "§ 527.5(a)" in body["message"] and "criss_cross_poker" in body["message"]
    assert Event.objects.filter(stream_id=TABLE).count() == 2
    assert RejectedSubmission.objects.get(stream_id=TABLE).section == "527.5(a)"


def test_527_5_a_a_certification_after_the_gaming_day_does_not_cover_it(floor):
    assert certify(floor, "criss_cross_poker", "2024-05-02").status_code == 201
    body = floor.post(Role.FLOORPERSON, TABLE, [ASSIGN_DEALER_2], 2).json()
    assert body["section"] == "527.5(a)"
    assert "certified in criss_cross_poker on 2024-05-02, after gaming day 2024-05-01" in (
        body["message"])
    # Opening an earlier day's table with that dealer is refused the same way.
    opening = floor.post(Role.FLOORPERSON, "table:T1:2024-04-30",
                         [opened(dealer="dealer_2")])  # fmt: skip
    assert (opening.status_code, opening.json()["field"]) == (400, "events[0].payload.dealer")


def test_527_5_a_a_round_at_a_table_whose_dealer_is_not_certified_is_refused(floor, api_client,
                                                                             role_users):
    # An import (the system) recorded dealer_2 at T1: as given; the device's round is refused.
    append(TABLE, [NewEvent(*ASSIGN_DEALER_2)], expected_version=2, actor=Actor.system("import"))
    api_client.force_authenticate(role_users[Role.TABLE_DEVICE])
    events, _ = criss_cross_round()
    response = api_client.post("/api/v1/streams/round:T1-1/events", payload_body(events[:1]),
                               format="json")  # fmt: skip
    assert response.status_code == 400
    assert (response.json()["section"], response.json()["field"]) == (
        "527.5(a)", "events[0].payload.game")
    assert not Event.objects.filter(stream_id="round:T1-1").exists()
    # … and the compliance job raises what the import recorded as a finding, once.
    (found,) = untrained(DAY)
    assert (found.stream_id, found.version, found.dealer, found.section) == (
        TABLE, 3, "dealer_2", "527.5(a)")
    now = Casino.current().gaming_day_bounds(datetime.date(2024, 5, 1))[0] + HOUR
    (raised,) = [r for r in check_decks(now) if r.event_type == DEALER_UNTRAINED]
    assert raised.stream_id == f"compliance:dealer-untrained:T1:{DAY}:dealer_2"
    finding = ComplianceFinding.objects.get(stream_id=raised.stream_id)
    assert (finding.kind, finding.section, finding.table_id) == (
        "dealer_untrained", "527.5(a)", "T1")
    assert "dealer_2" in finding.detail and f"{TABLE}@3" in finding.detail
    assert not [r for r in check_decks(now + HOUR) if r.event_type == DEALER_UNTRAINED]


def test_527_5_a_the_table_test_is_certified_by_a_pit_boss_or_higher_once_per_game(floor):
    refused = certify(floor, "criss_cross_poker", "2024-04-20", who=Role.FLOORPERSON)
    assert refused.status_code == 403  # a floorperson ranks below a pit boss: no grant
    body = floor.post(Role.SHIFT_SUPERVISOR, training_stream("dealer_2"), [(CERTIFIED, {
        "game": "roulette", "certified_on": "2024-04-20",
        "certified_by": "shift_supervisor"})]).json()  # fmt: skip
    assert (body["field"], body["section"]) == ("events[0].payload.game", "527.5(a)")
    assert certify(floor, "criss_cross_poker", "2024-04-20").status_code == 201
    again = certify(floor, "criss_cross_poker", "2024-04-21").json()
    assert again["field"] == "events[0].payload.game"
    future = certify(floor, "three_card_poker", "2999-01-01").json()
    assert future["field"] == "events[0].payload.certified_on"


def test_527_5_b_the_admin_lists_each_dealers_certifications(floor, client):
    assert certify(floor, "criss_cross_poker", "2024-04-20").status_code == 201
    run(PROJECTIONS["tables.training"])
    row = DealerCertification.objects.get(dealer="dealer_2")
    assert (row.game, str(row.certified_on), row.certified_by) == (
        "criss_cross_poker", "2024-04-20", "shift_supervisor")
    User.objects.create_superuser("boss", password="pw")
    client.force_login(User.objects.get(username="boss"))
    page = client.get("/admin/tables/dealercertification/?q=dealer_2")
    assert page.status_code == 200
    assert "dealer_2" in page.content.decode() and "527.5(a)" in page.content.decode()
    assert client.get("/admin/tables/dealercertification/add/").status_code == 403


def test_527_5_a_the_demos_dealers_are_certified_in_every_game_its_tables_deal_before_day_one(
        db, capsys):  # fmt: skip
    from operations.management.commands.demo import DEMO_TABLES, Command, declared_tables

    demo = Command()
    demo._users()
    demo._configure()
    demo._train()
    demo._train()  # once: a second run certifies nobody again
    games = {table[1] for table in [*DEMO_TABLES, *declared_tables()]}
    first_day = datetime.date(2016, 7, 28)
    for dealer in ("dealer", "dealer2"):
        assert all(why_not_certified(dealer, game, first_day) is None for game in games)
        assert why_not_certified(dealer, "criss_cross_poker", datetime.date(2016, 6, 30))
    assert capsys.readouterr().out.count("Certified dealer, dealer2") == 1
