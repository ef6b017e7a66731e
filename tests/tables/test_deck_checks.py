"""The deck job, ``check_decks(now)``, against frozen time: deck-change
notices and overdue decks (§ 592.3(c)), stub counts (§ 592.8(f)), and that
running it twice raises nothing new."""

from __future__ import annotations

import datetime
import io

import pytest
from django.core.management import call_command

from audit import projections
from audit.ledger import Actor, NewEvent, append, read_stream, stream_version
from audit.models import Event, RejectedSubmission
from casino.roles import Role
from tables.compliance import (
    COMPLIANCE,
    DECK_CHANGE_DUE,
    DECK_OVERDUE,
    STUB_COUNT_MISSING,
    check_decks,
)
from tables.formatting import moment
from tables.models import ComplianceFinding, Round, Table

pytestmark = pytest.mark.django_db

T0 = datetime.datetime(2024, 5, 1, 14, 0, tzinfo=datetime.UTC)  # 10:00 in Pennsylvania
SYSTEM = Actor.system("test")


def at(hours=0, minutes=0):
    return T0 + datetime.timedelta(hours=hours, minutes=minutes)


def make_table(table_id, *, dealing_method="HAND", shuffler="none", ruleset_id="PA-592-2014"):
    return Table.objects.create(table_id=table_id, game="criss_cross_poker",
                                ruleset_id=ruleset_id, min_wager_cents=500,
                                max_wager_cents=50000, dealing_method=dealing_method,
                                shuffler=shuffler)  # fmt: skip


def deck_in_use(table_id, deck_id, *, since=T0):
    events = [
        NewEvent(
            "deck.received",
            {"table_id": table_id, "back_colour": "red", "received_by": "floorperson"},
            occurred_at=since,
        ),  # fmt: skip
        NewEvent("deck.inspected", {"dealer": "dealer"}, occurred_at=since),
        NewEvent("deck.verified", {"floorperson": "floorperson"}, occurred_at=since),
        NewEvent("deck.put_in_use", {}, occurred_at=since),
    ]
    append(f"deck:{deck_id}", events, expected_version=0, actor=SYSTEM)


def stub_counted(deck_id, moment):
    append(f"deck:{deck_id}", [NewEvent("deck.stub_counted", {"count": 37, "expected": 37},
                                        occurred_at=moment)],
           expected_version=stream_version(f"deck:{deck_id}"), actor=SYSTEM)  # fmt: skip


def play_rounds(table_id, count, *, start, stub_counted_in=()):
    """``count`` rounds opened a minute apart from ``start`` (read-model rows:
    the job reads the rounds projection). ``stub_counted_in``: 1-based rounds
    in which the dealer counted the stub."""
    existing = Round.objects.filter(table_id=table_id).count()
    for number in range(1, count + 1):
        opened = start + datetime.timedelta(minutes=number)
        round_id = f"{table_id}-{existing + number}"
        Round.objects.create(
            stream_id=f"round:{round_id}", round_id=round_id, table_id=table_id,
            game="criss_cross_poker", ruleset_id="PA-592-2014", gaming_day=T0.date(),
            status="closed", opened_at=opened, last_event_at=opened, seats=1, event_count=10,
            wagered_cents=0, required_paid_cents=0, required_collected_cents=0,
            recorded_paid_cents=0, recorded_collected_cents=0, recorded_returned_cents=0,
            finding_count=0, stub_counted=number in stub_counted_in, computed_at_position=0,
        )  # fmt: skip


@pytest.fixture
def hand_table(role_users):
    make_table("CC-01", dealing_method="HAND")
    deck_in_use("CC-01", "D1")


@pytest.fixture
def shoe_table(role_users):
    make_table("CC-02", dealing_method="MANUAL_SHOE", ruleset_id="PA-674a-2019")
    deck_in_use("CC-02", "D2")


def kinds(raised):
    return [(finding.event_type, finding.deck_id) for finding in raised]


def test_nothing_is_raised_before_the_lead_time(hand_table):
    assert check_decks(at(3, 29)) == []
    assert not ComplianceFinding.objects.exists()


def test_a_hand_dealt_deck_is_due_at_the_lead_time_before_four_hours(hand_table):
    (notice,) = check_decks(at(3, 30))
    assert notice.event_type == DECK_CHANGE_DUE
    assert notice.stream_id == "compliance:deck-change-due:D1:20240501T140000Z"
    assert notice.payload == {"table_id": "CC-01", "deck_id": "D1", "gaming_day": "2024-05-01",
                              "due_at": at(4).isoformat(), "lead_minutes": 30,
                              "section": "592.3(c)"}  # fmt: skip
    finding = ComplianceFinding.objects.get()
    assert (finding.kind, finding.table_id, finding.deck_id, finding.section) == (
        "deck_change_due", "CC-01", "D1", "592.3(c)")  # fmt: skip
    assert finding.raised_at == at(3, 30)


def test_the_lead_time_is_a_setting(hand_table, settings):
    settings.DECK_CHANGE_LEAD_MINUTES = 60
    assert check_decks(at(2, 59)) == []
    (notice,) = check_decks(at(3, 0))
    assert notice.payload["lead_minutes"] == 60


def test_a_hand_dealt_deck_past_four_hours_is_overdue_with_minutes_over(hand_table):
    check_decks(at(3, 45))
    assert check_decks(at(4, 0)) == []  # at the limit, not past it
    (overdue,) = check_decks(at(4, 17))
    assert overdue.event_type == DECK_OVERDUE
    assert overdue.payload["minutes_over"] == 17
    assert overdue.payload["section"] == "592.3(c)"
    finding = ComplianceFinding.objects.get(kind="deck_overdue")
    assert finding.detail == (f"deck D1 at CC-01 was due for a change at {moment(at(4))}: "
                              "17 minutes over (§ 592.3(c))")  # fmt: skip
    assert ComplianceFinding.objects.count() == 2


def test_a_shoe_deck_has_eight_hours_and_its_chapter_section(shoe_table):
    assert check_decks(at(7, 29)) == []
    assert kinds(check_decks(at(7, 30))) == [(DECK_CHANGE_DUE, "D2")]
    (overdue,) = check_decks(at(8, 5))
    assert overdue.payload["minutes_over"] == 5
    assert overdue.payload["section"] == "674a.3(c)"
    assert overdue.payload["due_at"] == at(8).isoformat()


def test_each_table_gets_its_own_interval(hand_table, shoe_table):
    assert kinds(check_decks(at(5))) == [(DECK_OVERDUE, "D1")]
    assert kinds(check_decks(at(9))) == [(DECK_OVERDUE, "D2")]


def test_a_second_run_raises_nothing_new(hand_table):
    play_rounds("CC-01", 6, start=T0)
    first = check_decks(at(4, 30))
    assert kinds(first) == [(DECK_OVERDUE, "D1"), (STUB_COUNT_MISSING, "D1")]
    events, findings = Event.objects.count(), list(ComplianceFinding.objects.values())
    assert check_decks(at(4, 30)) == []
    assert check_decks(at(5, 30)) == []
    assert Event.objects.count() == events
    assert list(ComplianceFinding.objects.values()) == findings
    # Skipped by looking first: no refused appends recorded as noise.
    assert not RejectedSubmission.objects.exists()


def test_a_changed_deck_is_not_overdue(hand_table):
    append("deck:D1", [NewEvent("deck.removed", {"reason": "deck change"},
                                occurred_at=at(3, 50))],
           expected_version=4, actor=SYSTEM)  # fmt: skip
    deck_in_use("CC-01", "D1b", since=at(3, 50))
    assert check_decks(at(4, 30)) == []


def test_an_inactive_table_is_not_checked(hand_table):
    Table.objects.filter(table_id="CC-01").update(status="inactive")
    assert check_decks(at(6)) == []


def test_five_rounds_without_a_stub_count_are_allowed(hand_table):
    play_rounds("CC-01", 5, start=T0)
    assert check_decks(at(1)) == []


def test_a_sixth_round_without_a_stub_count_is_a_finding(hand_table):
    play_rounds("CC-01", 6, start=T0)
    (missing,) = check_decks(at(1))
    assert missing.event_type == STUB_COUNT_MISSING
    assert missing.payload["rounds_without_count"] == 6
    assert missing.payload["section"] == "592.8(f)"
    assert missing.stream_id == "compliance:stub-count-missing:D1:20240501T140000Z"


def test_a_stub_count_event_resets_the_rounds(hand_table):
    play_rounds("CC-01", 5, start=T0)
    stub_counted("D1", at(0, 6))
    play_rounds("CC-01", 5, start=at(0, 6))
    assert check_decks(at(1)) == []
    play_rounds("CC-01", 1, start=at(0, 11))
    (missing,) = check_decks(at(1))
    assert missing.payload["rounds_without_count"] == 6
    assert missing.stream_id.endswith(":20240501T140600Z")  # since the last count


def test_a_round_that_counted_the_stub_resets_the_rounds(hand_table):
    play_rounds("CC-01", 8, start=T0, stub_counted_in=(3,))
    assert check_decks(at(1)) == []  # five rounds after the third
    play_rounds("CC-01", 1, start=at(0, 8))
    (missing,) = check_decks(at(1))
    assert missing.payload["rounds_without_count"] == 6


def test_a_counting_shuffler_is_exempt_from_stub_counts(role_users):
    make_table("CC-03", dealing_method="AUTOMATED_SHOE", shuffler="automated_counting")
    deck_in_use("CC-03", "D3")
    play_rounds("CC-03", 12, start=T0)
    assert check_decks(at(1)) == []


def test_a_floorperson_acknowledges_a_finding(hand_table, role_users):
    (overdue,) = check_decks(at(4, 10))
    floorperson = Actor.from_user(role_users[Role.FLOORPERSON])
    # A person records what happens now: the acknowledgement's time is the server's.
    append(overdue.stream_id, [NewEvent("compliance.acknowledged",
                                        {"acknowledged_by": "floorperson", "note": "changed"})],
           expected_version=1, actor=floorperson)  # fmt: skip
    projections.run(COMPLIANCE)
    finding = ComplianceFinding.objects.get()
    acknowledged = read_stream(overdue.stream_id)[1]
    assert (finding.acknowledged_by, finding.acknowledged_at) == ("floorperson",
                                                                  acknowledged.occurred_at)
    before = list(ComplianceFinding.objects.values())
    projections.rebuild(COMPLIANCE)
    assert list(ComplianceFinding.objects.values()) == before


def test_the_command_runs_the_same_check(hand_table):
    out = io.StringIO()
    call_command("check_decks", "--now", at(4, 1).isoformat(), stdout=out)
    assert "compliance.deck_overdue compliance:deck-overdue:D1:" in out.getvalue()
    call_command("check_decks", "--now", at(4, 1).isoformat(), stdout=out)
    assert out.getvalue().endswith("0 finding(s) raised\n")


def test_a_double_cross_table_is_left_to_its_own_rules(role_users):
    # The Massachusetts rules state no change interval in the rule set: nothing
    # is raised (rather than a Criss-Cross section cited for another game).
    Table.objects.create(table_id="DC-01", game="double_cross_poker",
                         ruleset_id="MA-DCP-UNDATED", min_wager_cents=500,
                         max_wager_cents=50000, dealing_method="HAND")  # fmt: skip
    deck_in_use("DC-01", "D4")
    play_rounds("DC-01", 12, start=T0)
    assert check_decks(at(9)) == []


def test_590_3_c_a_blackjack_shoe_changes_after_24_hours_and_has_no_stub_count(role_users):
    """§ 590.3(c): the cards are changed at least every 24 hours; a blackjack shoe spans
    rounds, so the deck job asks for no stub count however many rounds were dealt."""
    Table.objects.create(table_id="FBB-01", game="free_bet_blackjack", ruleset_id="PA-590-2014",
                         min_wager_cents=500, max_wager_cents=50000,
                         dealing_method="AUTOMATED_SHOE")  # fmt: skip
    deck_in_use("FBB-01", "D9")
    play_rounds("FBB-01", 12, start=T0)
    assert check_decks(at(23, 29)) == []
    (overdue,) = check_decks(at(24, 5))
    assert (overdue.event_type, overdue.payload["section"]) == (DECK_OVERDUE, "590.3(c)")


@pytest.mark.parametrize(("table_id", "game", "ruleset_id", "section"), [
    ("DAB-01", "double_attack_blackjack", "PA-581-2014", "581.3(c)"),
    ("DBJ-01", "double_back_jack", "PA-591-2014", "591.3(c)"),
])  # fmt: skip
def test_581_3_c_591_3_c_the_decks_are_changed_at_least_once_every_24_hours(
        role_users, table_id, game, ruleset_id, section):  # fmt: skip
    """§ 581.3(c), § 591.3(c): "The decks of cards opened for use ... shall be changed at
    least once every 24 hours": a notice within the lead time, a finding past it."""
    Table.objects.create(table_id=table_id, game=game, ruleset_id=ruleset_id,
                         min_wager_cents=500, max_wager_cents=50000,
                         dealing_method="AUTOMATED_SHOE")  # fmt: skip
    deck_in_use(table_id, "D9")
    (due,) = check_decks(at(23, 45))
    assert (due.event_type, due.payload["section"]) == (DECK_CHANGE_DUE, section)
    assert due.payload["due_at"] == at(24).isoformat()
    (overdue,) = check_decks(at(24, 5))
    assert (overdue.event_type, overdue.payload["section"]) == (DECK_OVERDUE, section)


def test_553_3_b_a_poker_room_deck_is_changed_at_least_every_6_hours_whatever_the_dealing(
    role_users,
):
    Table.objects.create(table_id="PK-01", game="poker", ruleset_id="PA-553-HOLDEM-NL-1-2-BB",
                         min_wager_cents=100, max_wager_cents=20_000,
                         dealing_method="AUTOMATED_SHOE", shuffler="automated")  # fmt: skip
    deck_in_use("PK-01", "P1")
    assert check_decks(at(5, 29)) == []
    (notice,) = check_decks(at(5, 30))
    assert (notice.event_type, notice.payload["section"]) == (DECK_CHANGE_DUE, "553.3(b)")
    (overdue,) = check_decks(at(6, 10))
    assert overdue.event_type == DECK_OVERDUE
    assert (overdue.payload["minutes_over"], overdue.payload["section"]) == (10, "553.3(b)")


def test_553_3_b_a_poker_rule_set_may_not_post_a_longer_deck_interval():
    import dataclasses

    from tables.rules.poker_room.rulesets import POKER_RULESETS

    rules = POKER_RULESETS["PA-553-HOLDEM-NL-1-2-BB"]
    assert dataclasses.replace(rules, deck_change_hours=4).deck_change_hours == 4
    with pytest.raises(ValueError, match=r"553\.3\(b\)"):
        dataclasses.replace(rules, deck_change_hours=8)


def _poker_hand(hand_id, when, *, void=None):
    """A Hold'em hand at PK-01 opened at ``when``, its forced wagers and cards dealt;
    ``void``: the irregularity found a minute later that voids it."""
    from tables.rules.poker_room.events import HandOpened, IrregularityFound
    from tables.rules.poker_room.record import Recorder
    from tests.rules.poker_room.table import holdem_deck

    opened = HandOpened(hand_id=hand_id, table_id="PK-01", gaming_day=T0.date(),
                        ruleset_id="PA-553-HOLDEM-NL-1-2-BB", seats=(1, 2, 3),
                        players=("a", "b", "c"), stacks_cents=(5_000, 5_000, 5_000), button=3)
    events = [NewEvent(e.TYPE, e.to_payload(), occurred_at=when) for e in
              Recorder(opened, holdem_deck(["AhAd", "KcKd", "QcQd"], "As 7h 2s 9c 3d")).events]
    if void is not None:
        events.append(NewEvent(IrregularityFound.TYPE, IrregularityFound(kind=void).to_payload(),
                               occurred_at=when + datetime.timedelta(minutes=1)))
    append(f"poker-hand:{hand_id}", events, expected_version=0, actor=SYSTEM)  # fmt: skip


def _poker_table(ruleset_id="PA-553-HOLDEM-NL-1-2-BB", shuffler="none"):
    Table.objects.create(table_id="PK-01", game="poker", ruleset_id=ruleset_id,
                         min_wager_cents=100, max_wager_cents=20_000,
                         dealing_method="HAND", shuffler=shuffler)  # fmt: skip


@pytest.mark.parametrize("kind", ["cards_missing", "cards_extra"])
def test_553_16_g_hands_dealt_with_the_deck_of_a_hand_voided_for_missing_cards_are_a_finding(
    role_users, kind
):
    """§ 553.16(g): missing or additional cards void the round "and the deck shall be
    replaced": hands dealt afterwards with the same deck still in use are a finding."""
    from tables.compliance import DECK_NOT_REPLACED
    from tables.rules.poker_room.events import Irregularity

    _poker_table()
    deck_in_use("PK-01", "P1")
    _poker_hand("PK-01-1", at(1), void=Irregularity(kind))
    assert check_decks(at(1, 5)) == []  # voided, nothing dealt since
    _poker_hand("PK-01-2", at(1, 10))
    _poker_hand("PK-01-3", at(1, 20))
    (finding,) = check_decks(at(1, 30))
    assert (finding.event_type, finding.stream_id) == (
        DECK_NOT_REPLACED, "compliance:deck-not-replaced:P1:PK-01-1")  # fmt: skip
    assert finding.payload == {"table_id": "PK-01", "deck_id": "P1", "void_hand": "PK-01-1",
                               "hands": 2, "first_hand": "PK-01-2", "section": "553.16(g)",
                               "gaming_day": T0.date().isoformat()}  # fmt: skip
    row = ComplianceFinding.objects.get(kind="deck_not_replaced")
    assert (row.section, row.deck_id) == ("553.16(g)", "P1")
    assert "PK-01-1 was voided for missing or extra cards" in row.detail
    assert check_decks(at(1, 40)) == []  # raised once


def test_553_16_g_a_deck_replaced_after_the_void_raises_nothing(role_users):
    """§ 553.16(g): the deck removed and a new one put in use before the next hand: no
    finding; other irregularities (§ 553.16(e)(1), a misdeal reshuffled) ask no new deck."""
    from tables.rules.poker_room.events import Irregularity

    _poker_table()
    deck_in_use("PK-01", "P1")
    _poker_hand("PK-01-1", at(1), void=Irregularity.CARDS_EXTRA)
    append("deck:P1", [NewEvent("deck.removed", {"reason": "§ 553.16(g) extra card"},
                                occurred_at=at(1, 3))],
           expected_version=stream_version("deck:P1"), actor=SYSTEM)  # fmt: skip
    deck_in_use("PK-01", "P2", since=at(1, 4))
    _poker_hand("PK-01-2", at(1, 10), void=Irregularity.NOT_SHUFFLED_OR_CUT)
    _poker_hand("PK-01-3", at(1, 20))
    assert check_decks(at(1, 30)) == []


def _opened_hands(ruleset_id, first, count, start):
    """Hands ``first`` .. at PK-01 opened a minute apart after ``start`` (the deck job counts
    the hands opened; what happens in them does not matter here)."""
    from tables.rules.poker_room.events import HandOpened

    for number in range(first, first + count):
        opened = HandOpened(hand_id=f"PK-01-{number}", table_id="PK-01", gaming_day=T0.date(),
                            ruleset_id=ruleset_id, seats=(1, 2), players=("a", "b"),
                            stacks_cents=(5_000, 5_000),
                            button=2 if "HOLDEM" in ruleset_id else None)  # fmt: skip
        append(f"poker-hand:PK-01-{number}", [NewEvent(opened.TYPE, opened.to_payload(),
               occurred_at=start + datetime.timedelta(minutes=number - first + 1))],
               expected_version=0, actor=SYSTEM)  # fmt: skip


def test_553_7_e_4_a_holdem_stub_is_counted_at_least_once_every_five_rounds(role_users):
    """§ 553.7(e)(4)(i): the deck counted "at least once every five rounds ...; provided,
    however, that the dealer may count the stub in the games of Hold 'Em Poker and Omaha"."""
    holdem = "PA-553-HOLDEM-NL-1-2-BB"
    _poker_table(holdem)
    deck_in_use("PK-01", "P1")
    _opened_hands(holdem, 1, 5, T0)
    assert check_decks(at(0, 10)) == []
    _opened_hands(holdem, 6, 1, at(0, 10))
    (missing,) = check_decks(at(0, 20))
    assert (missing.event_type, missing.stream_id) == (
        STUB_COUNT_MISSING, f"compliance:stub-count-missing:P1:{T0:%Y%m%dT%H%M%SZ}")
    assert (missing.payload["rounds_without_count"], missing.payload["section"]) == (
        6, "553.7(e)(4)")  # fmt: skip
    stub_counted("P1", at(0, 21))  # a Hold'em stub: 37 cards
    _opened_hands(holdem, 7, 5, at(0, 21))
    assert check_decks(at(0, 30)) == []
    _opened_hands(holdem, 12, 1, at(0, 30))
    (again,) = check_decks(at(0, 40))
    assert again.stream_id.endswith(":20240501T142100Z")


def test_553_7_e_4_a_stud_dealer_counts_the_entire_deck_not_the_stub(role_users):
    """§ 553.7(e)(4)(i): outside Hold'em and Omaha the entire deck is counted "to determine
    that 52 cards are present": a stub count does not do."""
    stud = "PA-553-STUD-HL8-2-4"
    _poker_table(stud)
    deck_in_use("PK-01", "P1")
    _opened_hands(stud, 1, 3, T0)
    stub_counted("P1", at(0, 4))  # 37 of 37: a stub count
    _opened_hands(stud, 4, 3, at(0, 4))
    (missing,) = check_decks(at(0, 10))
    assert missing.payload["rounds_without_count"] == 6  # counted since the deck went in use
    assert missing.payload["section"] == "553.7(e)(4)"
    append("deck:P1", [NewEvent("deck.stub_counted", {"count": 52, "expected": 52},
                                occurred_at=at(0, 11))],
           expected_version=stream_version("deck:P1"), actor=SYSTEM)  # fmt: skip
    _opened_hands(stud, 7, 5, at(0, 11))
    assert check_decks(at(0, 20)) == []


def test_553_7_e_4_ii_a_shuffler_that_counts_the_cards_needs_no_count(role_users):
    """§ 553.7(e)(4)(ii): an automated card shuffling device that counts the cards as it
    shuffles them instead of the dealer's count."""
    holdem = "PA-553-HOLDEM-NL-1-2-BB"
    _poker_table(holdem, shuffler="automated_counting")
    deck_in_use("PK-01", "P1")
    _opened_hands(holdem, 1, 12, T0)
    assert check_decks(at(0, 20)) == []
