"""The blackjack chapters' equipment and staffing duties (``tables.floor_duties``): the card
reader's daily inspection (§ 581.2(d), § 590.2(d), § 591.2(d)), no dealing while it is out
of order (§ 581.13(i), § 590.13(j), § 591.13(j)), a floorperson's span of control
(§ 581.14(c), § 585.5(c)) and the 10s removed from a Spanish batch (§ 581.4(b)): refused
through the API citing the section, raised as findings by the deck job, shown on the floor
board."""

from __future__ import annotations

import dataclasses
import datetime

import pytest
from django.utils import timezone

from audit.ledger import Actor, NewEvent, append
from audit.models import Event, RejectedSubmission
from casino.models import Casino, current_gaming_day
from casino.roles import Role
from tables.compliance import DEALT_WHILE_READER_STOPPED, READER_NOT_INSPECTED, check_decks
from tables.floor import board_state
from tables.floor_duties import duty_section
from tables.models import ComplianceFinding, Table
from tests.rules.test_double_attack_blackjack import opened
from tests.tables.helpers import payload_body
from tests.tables.test_table_day import OPENER, TABLE, Floor, make_floor

pytestmark = pytest.mark.django_db

DAY = datetime.date(2024, 5, 1)
DAB = f"table:DAB-01:{DAY}"
SYSTEM = Actor.system("test")
ASSIGN = ("table.floorperson_assigned", {"floorperson": "floorperson"})
INSPECTED = ("table.reader_inspected", {"inspected_by": "floorperson"})
BROKEN = ("table.reader_malfunctioned", {"reported_by": "floorperson",
                                         "description": "shows no result"})  # fmt: skip
REPAIRED = ("table.reader_repaired", {"repaired_by": "floorperson", "how": "replaced"})


def blackjack_table(table_id: str = "DAB-01", game: str = "double_attack_blackjack",
                    ruleset_id: str = "PA-581-2014") -> Table:  # fmt: skip
    return Table.objects.create(table_id=table_id, game=game, ruleset_id=ruleset_id,
                                min_wager_cents=500, max_wager_cents=50000,
                                dealing_method="MANUAL_SHOE")  # fmt: skip


@pytest.fixture
def floor(role_users) -> Floor:
    """DAB-01 (Double Attack Blackjack) open on DAY: version 2."""
    floor = make_floor(role_users)
    blackjack_table()
    floor.open_table(DAB)
    return floor


def refused(response, section: str, field: str) -> dict:
    assert response.status_code == 400, response.json()
    body = response.json()
    assert (body["section"], body["field"]) == (section, field)
    assert f"§ {section}" in body["message"]
    return body


def open_round(client, round_id: str):
    """A device opens a Double Attack round at DAB-01 on DAY."""
    event = dataclasses.replace(opened(round_id, seats=(1,)), gaming_day=DAY)
    return client.post(f"/api/v1/streams/round:{round_id}/events", payload_body([event]),
                       format="json")  # fmt: skip


@pytest.fixture
def device(api_client, role_users):
    api_client.force_authenticate(role_users[Role.TABLE_DEVICE])
    return api_client


def job_check(day: datetime.date = DAY):
    """The deck job within ``day``'s gaming day."""
    return check_decks(Casino.current().gaming_day_bounds(day)[0] + datetime.timedelta(hours=1))


# --- the reader's inspection ------------------------------------------------------------------


def test_581_2_d_590_2_d_591_2_d_each_chapter_cites_its_own_reader_sections():
    assert [duty_section(game, "reader_inspection") for game in (
        "double_attack_blackjack", "free_bet_blackjack", "double_back_jack")] == [
        "581.2(d)", "590.2(d)", "591.2(d)"]  # fmt: skip
    assert [duty_section(game, "reader_malfunction") for game in (
        "double_attack_blackjack", "free_bet_blackjack", "double_back_jack")] == [
        "581.13(i)", "590.13(j)", "591.13(j)"]  # fmt: skip
    assert duty_section("three_card_poker", "reader_inspection") is None
    assert duty_section("poker", "reader_malfunction") is None


def test_581_2_d_the_floorperson_assigned_to_the_table_inspects_the_reader(floor):
    assert floor.post(Role.SHIFT_SUPERVISOR, DAB, [ASSIGN], 2).status_code == 201
    other = ("table.reader_inspected", {"inspected_by": "shift_supervisor"})
    body = refused(floor.post(Role.SHIFT_SUPERVISOR, DAB, [other], 3), "581.2(d)",
                   "events[0].payload.inspected_by")  # fmt: skip
    assert "the floorperson assigned to the table (floorperson)" in body["message"]
    assert RejectedSubmission.objects.get(stream_id=DAB).section == "581.2(d)"
    # A person records only their own inspection.
    response = floor.post(Role.SHIFT_SUPERVISOR, DAB, [INSPECTED], 3)
    assert (response.status_code, response.json()["field"]) == (
        400, "events[0].payload.inspected_by")
    assert floor.post(Role.FLOORPERSON, DAB, [INSPECTED], 3).status_code == 201


def test_581_2_d_a_table_whose_game_has_no_reader_takes_no_reader_event(floor):
    floor.open_table(TABLE)  # T1 deals Criss-Cross Poker
    for event in (INSPECTED, BROKEN, REPAIRED):
        response = floor.post(Role.FLOORPERSON, TABLE, [event], 2)
        assert (response.status_code, response.json()["field"]) == (400, "events[0].type")
        assert "uses no card reader" in response.json()["message"]
    assert Event.objects.filter(stream_id=TABLE).count() == 2


def test_581_2_d_rounds_dealt_before_the_days_inspection_are_one_finding(floor, device):
    assert open_round(device, "DAB-1").status_code == 201
    assert floor.post(Role.FLOORPERSON, DAB, [INSPECTED], 2).status_code == 201
    assert open_round(device, "DAB-2").status_code == 201
    (raised,) = [r for r in job_check() if r.event_type == READER_NOT_INSPECTED]
    assert raised.stream_id == f"compliance:reader-not-inspected:DAB-01:{DAY}"
    assert (raised.payload["rounds"], raised.payload["first_round"], raised.payload["section"]) == (
        1, "DAB-1", "581.2(d)")
    finding = ComplianceFinding.objects.get(stream_id=raised.stream_id)
    assert (finding.kind, finding.table_id, finding.section) == (
        "reader_not_inspected", "DAB-01", "581.2(d)")
    assert "before the card reader's inspection" in finding.detail and "§ 581.2(d)" in (
        finding.detail)
    assert not [r for r in job_check() if r.event_type == READER_NOT_INSPECTED]


def test_590_2_d_590_13_j_an_inspected_reader_raises_nothing_a_broken_one_stops_dealing(
        role_users, device):  # fmt: skip
    floor = make_floor(role_users)
    blackjack_table("FBB-01", "free_bet_blackjack", "PA-590-2014")
    day = datetime.date(2016, 8, 1)  # PA-590-2014 in force
    stream = f"table:FBB-01:{day}"
    floor.open_table(stream)
    assert floor.post(Role.FLOORPERSON, stream, [INSPECTED], 2).status_code == 201
    event = dataclasses.replace(opened("FBB-1", seats=(1,)), game="free_bet_blackjack",
                                ruleset_id="PA-590-2014", table_id="FBB-01", gaming_day=day)
    response = device.post("/api/v1/streams/round:FBB-1/events", payload_body([event]),
                           format="json")  # fmt: skip
    assert response.status_code == 201, response.json()
    assert not [r for r in job_check(day) if r.event_type == READER_NOT_INSPECTED]
    # Its reader out of order: Free Bet's own section is cited.
    append(f"table:FBB-01:{day}", [NewEvent(*BROKEN)], expected_version=3, actor=SYSTEM)
    refused(device.post("/api/v1/streams/round:FBB-2/events", payload_body(
        [dataclasses.replace(event, round_id="FBB-2")]), format="json"), "590.13(j)",
        "events[0].payload.table_id")  # fmt: skip


# --- the reader out of order --------------------------------------------------------------


def test_581_13_i_no_round_opens_while_the_reader_is_out_of_order(floor, device):
    assert floor.post(Role.FLOORPERSON, DAB, [INSPECTED, BROKEN], 2).status_code == 201
    body = refused(open_round(device, "DAB-1"), "581.13(i)", "events[0].payload.table_id")
    assert "shows no result" in body["message"] and "repaired or replaced" in body["message"]
    assert not Event.objects.filter(stream_id="round:DAB-1").exists()
    assert RejectedSubmission.objects.get(stream_id="round:DAB-1").section == "581.13(i)"
    assert floor.post(Role.FLOORPERSON, DAB, [REPAIRED], 4).status_code == 201
    assert open_round(device, "DAB-1").status_code == 201


def test_581_13_i_the_reader_breaks_once_and_is_repaired_once(floor):
    refused(floor.post(Role.FLOORPERSON, DAB, [REPAIRED], 2), "581.13(i)", "events[0].type")
    assert floor.post(Role.FLOORPERSON, DAB, [BROKEN], 2).status_code == 201
    refused(floor.post(Role.FLOORPERSON, DAB, [BROKEN], 3), "581.13(i)", "events[0].type")
    # An inspection does not put a broken reader back in service: its repair does.
    refused(floor.post(Role.FLOORPERSON, DAB, [INSPECTED], 3), "581.13(i)", "events[0].type")
    response = floor.post(Role.DEALER, DAB, [REPAIRED], 3)
    assert response.status_code == 403  # the pit records the reader's duties
    assert floor.post(Role.FLOORPERSON, DAB, [REPAIRED, INSPECTED], 3).status_code == 201


def test_581_13_i_rounds_a_job_recorded_while_the_reader_was_out_are_a_finding(floor):
    assert floor.post(Role.FLOORPERSON, DAB, [INSPECTED, BROKEN], 2).status_code == 201
    for round_id in ("DAB-1", "DAB-2"):  # an import records what the table did, as given
        event = dataclasses.replace(opened(round_id, seats=(1,)), gaming_day=DAY)
        append(f"round:{round_id}", [NewEvent(event.TYPE, event.to_payload())],
               expected_version=0, actor=SYSTEM)  # fmt: skip
    assert floor.post(Role.FLOORPERSON, DAB, [REPAIRED], 4).status_code == 201
    raised = job_check()
    (dealt,) = [r for r in raised if r.event_type == DEALT_WHILE_READER_STOPPED]
    assert dealt.stream_id == f"compliance:dealt-while-reader-stopped:DAB-01:{DAY}:4"
    assert dealt.payload == {"table_id": "DAB-01", "gaming_day": str(DAY), "rounds": 2,
                             "first_round": "DAB-1", "malfunction_event": f"{DAB}@4",
                             "section": "581.13(i)"}  # fmt: skip
    assert not [r for r in raised if r.event_type == READER_NOT_INSPECTED]
    finding = ComplianceFinding.objects.get(stream_id=dealt.stream_id)
    assert finding.kind == "dealt_while_reader_stopped"
    assert "out of order" in finding.detail and "§ 581.13(i)" in finding.detail
    assert not job_check()


# --- the floor board ------------------------------------------------------------------------


def _open_today(table_id: str, *events: tuple[str, dict]) -> str:
    """``table_id`` opened for today's gaming day by a job, then ``events``."""
    stream = f"table:{table_id}:{current_gaming_day(timezone.now())}"
    opening = ("table.opened", {"opener": OPENER, "dealer": "dealer", "floorperson": "floorperson"})
    append(stream, [NewEvent(t, p) for t, p in (opening, *events)], expected_version=0,
           actor=SYSTEM)  # fmt: skip
    return stream


def _tiles() -> dict[str, dict]:
    return {t["table_id"]: t for t in board_state(timezone.now())["tables"]}


def test_581_13_i_the_floor_board_shows_dealing_stopped_until_the_repair(floor):
    stream = _open_today("DAB-01", ASSIGN, INSPECTED)
    tile = _tiles()["DAB-01"]
    assert tile["floorperson"] == "floorperson"
    assert tile["reader"]["stopped"] is False
    assert (tile["reader"]["inspected_by"], tile["reader"]["inspection_section"]) == (
        "floorperson", "§ 581.2(d)")
    append(stream, [NewEvent(*BROKEN)], expected_version=3, actor=SYSTEM)
    reader = _tiles()["DAB-01"]["reader"]
    assert (reader["stopped"], reader["section"], reader["description"]) == (
        True, "§ 581.13(i)", "shows no result")
    append(stream, [NewEvent(*REPAIRED)], expected_version=4, actor=SYSTEM)
    assert _tiles()["DAB-01"]["reader"]["stopped"] is False
    assert _tiles()["T1"]["reader"] is None  # Criss-Cross Poker has no reader


def test_the_floor_board_page_carries_the_dealing_stopped_notice(floor, client, role_users):
    _open_today("DAB-01", BROKEN)
    role_users[Role.FLOORPERSON].is_staff = True
    role_users[Role.FLOORPERSON].save()
    client.force_login(role_users[Role.FLOORPERSON])
    page = client.get("/admin/floor/").content.decode()
    assert "Dealing stopped" in page and '"stopped": true' in page


def test_581_14_c_the_floor_board_flags_a_floorperson_over_four_banking_tables(floor):
    for number in range(2, 6):
        blackjack_table(f"DAB-0{number}")
    streams = [_open_today(f"DAB-0{n}", ASSIGN) for n in range(1, 6)]
    tiles = _tiles()
    for number in range(1, 6):
        assert tiles[f"DAB-0{number}"]["span"] == (
            "floorperson supervises 5 banking tables (DAB-01, DAB-02, DAB-03, DAB-04, DAB-05): "
            "more than 4 (§ 581.14(c), § 585.5(c))")
    assert tiles["T1"]["span"] == ""
    # Another floorperson takes one table over: four each at most, nothing flagged.
    relief = {"floorperson": "shift_supervisor"}
    append(streams[0], [NewEvent("table.floorperson_assigned", relief)], expected_version=2,
           actor=SYSTEM)  # fmt: skip
    assert not [t for t in _tiles().values() if t["span"]]


def test_a_floorperson_is_assigned_once_and_holds_a_pit_role(floor):
    refused_dealer = floor.post(Role.SHIFT_SUPERVISOR, DAB,
                                [("table.floorperson_assigned", {"floorperson": "dealer"})], 2)
    assert refused_dealer.json()["field"] == "events[0].payload.floorperson"
    assert floor.post(Role.SHIFT_SUPERVISOR, DAB, [ASSIGN], 2).status_code == 201
    again = floor.post(Role.SHIFT_SUPERVISOR, DAB, [ASSIGN], 3)
    assert (again.status_code, again.json()["field"]) == (400, "events[0].payload.floorperson")


# --- 10s removed from a Spanish batch ------------------------------------------------------------


def _received(deck_id: str, table_id: str) -> str:
    stream = f"deck:{deck_id}"
    append(stream, [NewEvent("deck.received", {"table_id": table_id, "back_colour": "red",
                                               "received_by": "floorperson"})],
           expected_version=0, actor=SYSTEM)  # fmt: skip
    return stream


def tens(dealer: str = "dealer", floorperson: str = "floorperson", cards=("Th", "10s")):
    return ("deck.tens_removed", {"cards": list(cards), "dealer": dealer,
                                  "floorperson": floorperson})  # fmt: skip


def test_581_4_b_the_dealer_and_a_floorperson_remove_the_tens(floor):
    stream = _received("DAB-B1", "DAB-01")
    assert floor.post(Role.FLOORPERSON, stream, [tens()], 1).status_code == 201
    stored = Event.objects.get(stream_id=stream, version=2)
    assert stored.payload["cards"] == ["Th", "10s"]


def test_581_4_b_two_different_people_sign_it(floor):
    stream = _received("DAB-B1", "DAB-01")
    body = refused(floor.post(Role.FLOORPERSON, stream, [tens("floorperson")], 1), "581.4(b)",
                   "events[0].payload.floorperson")  # fmt: skip
    assert "two different people" in body["message"]
    assert RejectedSubmission.objects.get(stream_id=stream).section == "581.4(b)"
    # A dealer who is not one of them, or a floorperson appending for others, is refused.
    response = floor.post(Role.FLOORPERSON, stream, [tens("shift_supervisor")], 1)
    assert response.json()["field"] == "events[0].payload.dealer"
    response = floor.post(Role.SHIFT_SUPERVISOR, stream, [tens()], 1)
    assert response.json()["field"] == "events[0].payload.floorperson"
    assert Event.objects.filter(stream_id=stream).count() == 1


def test_581_4_b_only_a_spanish_batch_and_only_tens(floor):
    stream = _received("CC-D1", "T1")  # T1 deals Criss-Cross Poker with full decks
    body = refused(floor.post(Role.FLOORPERSON, stream, [tens()], 1), "581.4(b)",
                   "events[0].payload.cards")  # fmt: skip
    assert "criss_cross_poker" in body["message"]
    batch = _received("DAB-B2", "DAB-01")
    response = floor.post(Role.FLOORPERSON, batch, [tens(cards=("Jh",))], 1)
    assert response.status_code == 400
    assert response.json()["field"].startswith("events[0].payload.cards")


# --- § 581.14(d): trained in the game, through the training gate (§ 527.5(a)) ------------------


def test_581_14_d_a_dealer_deals_double_attack_only_after_its_table_test(role_users):
    from tables.training import CERTIFIED, training_stream

    floor = make_floor(role_users, dealer_2_trained=False)
    blackjack_table()
    floor.open_table(DAB)
    certified = (CERTIFIED, {"game": "free_bet_blackjack", "certified_on": "2024-04-20",
                             "certified_by": "shift_supervisor"})  # fmt: skip
    response = floor.post(Role.SHIFT_SUPERVISOR, training_stream("dealer_2"), [certified])
    assert response.status_code == 201
    assign = ("table.dealer_assigned", {"dealer": "dealer_2"})
    body = floor.post(Role.FLOORPERSON, DAB, [assign], 2).json()
    assert (body["field"], body["section"]) == ("events[0].payload.dealer", "527.5(a)")
    assert "double_attack_blackjack" in body["message"]
    certified[1]["game"] = "double_attack_blackjack"
    assert floor.post(Role.SHIFT_SUPERVISOR, training_stream("dealer_2"), [certified],
                      1).status_code == 201  # fmt: skip
    assert floor.post(Role.FLOORPERSON, DAB, [assign], 2).status_code == 201
