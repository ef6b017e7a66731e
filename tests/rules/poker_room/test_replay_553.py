"""A poker hand's events replayed: refusals and the dealer's money judged, citing sections."""

from __future__ import annotations

import dataclasses
import datetime

import pytest

from tables.rules.cards import Card
from tables.rules.events import event_to_record
from tables.rules.poker_room.events import (
    POKER_EVENT_TYPES,
    Acted,
    Action,
    BadBeatContributed,
    CardDealt,
    HandOpened,
    PotPushed,
    RakeTaken,
    poker_event_from_record,
)
from tables.rules.poker_room.record import Recorder
from tables.rules.poker_room.replay import FindingKind, replay_hand
from tests.rules.poker_room.table import holdem_deck

DAY = datetime.date(2026, 11, 24)


def _opened(**changes) -> HandOpened:
    opened = HandOpened(
        hand_id="P1-1", table_id="P1", gaming_day=DAY, ruleset_id="PA-553-HOLDEM-NL-1-2-BB",
        seats=(1, 2, 3), players=("ann", "bob", "cy"), stacks_cents=(1_000, 5_000, 5_000),
        button=3,
    )  # fmt: skip
    return dataclasses.replace(opened, **changes)


def _side_pot_hand() -> Recorder:
    """Seat 1 all-in for $10 preflop; seats 2 and 3 build a $20 side pot; seat 1 has the best hand.

    Main pot $30 (seats 1-3), side pot $20 (seats 2, 3). Rake 10 % capped at $5
    (§ 553.15(b)(1)): $3 + $2. Bad Beat $1 from the main pot (§ 553.20(c)).
    """
    deck = holdem_deck(["AhAd", "KcKd", "QcQd"], "As 7h 2s 9c 3d", burns="4c 4d 4h")
    hand = Recorder(_opened(), deck)
    hand.act(3, Action.RAISE, 600).act(1, Action.RAISE, 1_000)
    hand.act(2, Action.CALL).act(3, Action.CALL)
    hand.act(2, Action.BET, 1_000).act(3, Action.CALL)
    for _ in range(2):
        hand.act(2, Action.CHECK).act(3, Action.CHECK)
    return hand.show_all()


def test_553_8_b_4_a_correct_hand_with_a_side_pot_replays_without_findings():
    hand = _side_pot_hand()
    result = replay_hand(hand.settled())
    assert result.complete and result.findings == ()
    pots = result.settlement.pots
    assert [(pot.amount_cents, pot.eligible) for pot in pots] == [
        (3_000, (1, 2, 3)), (2_000, (2, 3))]
    pushes = [(e.pot, e.seat, e.amount_cents) for e in hand.settled() if isinstance(e, PotPushed)]
    # Seat 1's aces win the main pot; kings beat queens for the side pot.
    assert pushes == [(0, 1, 2_600), (1, 2, 1_800)]


def test_553_8_b_4_i_a_side_pot_pushed_to_the_all_in_player_is_a_finding():
    right, wrong = (PotPushed(pot=1, seat=seat, amount_cents=1_800) for seat in (2, 1))
    events = [wrong if e == right else e for e in _side_pot_hand().settled()]
    findings = {(f.kind, f.seat, f.section) for f in replay_hand(events).findings}
    assert findings == {
        (FindingKind.MISPUSHED_POT, 1, "553.8(b)(4)(i)"),
        (FindingKind.MISPUSHED_POT, 2, "553.8(b)(4)(iii)"),
    }


@pytest.mark.parametrize(("taken", "kind"), [(600, "OVER_RAKED"), (400, "UNDER_RAKED")])
def test_553_15_b_1_over_and_under_raking_are_findings(taken, kind):
    events = _side_pot_hand().settled()
    events = [RakeTaken(pot=0, amount_cents=taken - 200) if e == RakeTaken(pot=0, amount_cents=300)
              else e for e in events]  # fmt: skip
    (finding,) = replay_hand(events).findings
    assert (finding.kind, finding.section) == (FindingKind(kind), "553.15(b)(1)")
    assert (finding.expected_cents, finding.recorded_cents) == (500, taken)


def test_553_15_e_no_rake_after_the_pot_is_pushed():
    events = _side_pot_hand().settled()
    late = RakeTaken(pot=1, amount_cents=200)
    events = [e for e in events if e != late]
    events.insert(-1, late)
    (finding,) = replay_hand(events).findings
    assert (finding.kind, finding.section, finding.pot) == (
        FindingKind.RAKE_AFTER_PUSH, "553.15(e)", 1)  # fmt: skip


def test_553_20_c_a_missed_bad_beat_contribution_is_a_finding():
    events = [e for e in _side_pot_hand().settled() if not isinstance(e, BadBeatContributed)]
    (finding,) = replay_hand(events).findings
    assert (finding.kind, finding.section) == (
        FindingKind.MISSED_BAD_BEAT_CONTRIBUTION, "553.20(c)")  # fmt: skip
    assert (finding.expected_cents, finding.recorded_cents) == (100, 0)


def test_553_20_c_the_contribution_is_taken_after_the_rake():
    events = _side_pot_hand().settled()
    contribution = next(e for e in events if isinstance(e, BadBeatContributed))
    events.remove(contribution)
    events.insert(events.index(RakeTaken(pot=0, amount_cents=300)), contribution)
    (finding,) = replay_hand(events).findings
    assert (finding.kind, finding.section) == (FindingKind.BAD_BEAT_OUT_OF_ORDER, "553.20(c)")


def test_553_15_d_the_uncalled_bet_is_returned_and_never_raked():
    deck = holdem_deck(["AhAd", "KcKd", "QcQd"], "As 7h 2s 9c 3d", burns="4c 4d 4h")
    hand = Recorder(_opened(stacks_cents=(5_000, 5_000, 5_000)), deck)
    hand.act(3, Action.CALL).act(1, Action.CALL).act(2, Action.CHECK)
    hand.act(1, Action.BET, 2_000).act(2, Action.FOLD).act(3, Action.FOLD)
    events = hand.settled()
    assert replay_hand(events).findings == ()
    # $6 in the pot rakes nothing in whole dollars; the dealer keeps the $20 bet
    # in the pot and rakes $2 of the $26: both are findings.
    raked = [e for e in events if e.TYPE != "poker.bet_returned"]
    raked.insert(-2, RakeTaken(pot=0, amount_cents=200))
    findings = {(f.kind, f.section): f for f in replay_hand(raked).findings}
    assert findings.keys() == {
        (FindingKind.WRONG_RETURN, "553.15(d)"), (FindingKind.OVER_RAKED, "553.15(b)(1)")}
    assert "553.15(d)" in findings[FindingKind.OVER_RAKED, "553.15(b)(1)"].detail


def test_553_11_f_acting_out_of_turn_is_found_and_the_fold_stops():
    hand = Recorder(_opened(), holdem_deck(["AhAd", "KcKd", "QcQd"], "As 7h 2s 9c 3d"))
    events = [*hand.events, Acted(seat=1, action=Action.CALL)]
    result = replay_hand(events)
    (finding,) = result.findings
    assert (finding.kind, finding.section, finding.seat) == (
        FindingKind.REFUSED_EVENT, "553.11(f)", 1)  # fmt: skip
    assert finding.event_index == len(events) - 1 and not result.complete


def test_553_18_a_raise_below_the_minimum_is_found():
    hand = Recorder(_opened(), holdem_deck(["AhAd", "KcKd", "QcQd"], "As 7h 2s 9c 3d"))
    short = Acted(seat=3, action=Action.RAISE, to_cents=300)
    (finding,) = replay_hand([*hand.events, short]).findings
    assert (finding.section, "smallest raise is to 400" in finding.detail) == ("553.18", True)


def test_553_1_a_check_facing_a_bet_is_found():
    hand = Recorder(_opened(), holdem_deck(["AhAd", "KcKd", "QcQd"], "As 7h 2s 9c 3d"))
    (finding,) = replay_hand([*hand.events, Acted(seat=3, action=Action.CHECK)]).findings
    assert finding.section == "553.1"


def test_553_16_g_a_card_dealt_twice_is_found():
    events = _side_pot_hand().events
    board = next(i for i, e in enumerate(events) if isinstance(e, CardDealt) and e.seat is None)
    events[board] = CardDealt(card=Card.parse("Ah"), seat=None, face_up=True)
    (finding,) = replay_hand(events).findings
    assert (finding.kind, finding.section, finding.event_index) == (
        FindingKind.REFUSED_EVENT, "553.16(g)", board)  # fmt: skip


def test_553_11_d_a_blind_of_the_wrong_amount_is_found():
    events = _side_pot_hand().events
    events[1] = dataclasses.replace(events[1], amount_cents=200)
    (finding,) = replay_hand(events).findings
    assert (finding.section, finding.event_index) == ("553.11(d)", 1)


def test_553_15_a_an_unknown_rule_set_is_found():
    (finding,) = replay_hand([_opened(ruleset_id="PA-553-NONE")]).findings
    assert finding.section == "553.15(a)"


def test_every_poker_event_round_trips_through_its_record():
    events = _side_pot_hand().settled()
    others = {"poker.discarded", "poker.mucked", "poker.bet_returned", "poker.irregularity"}
    assert {e.TYPE for e in events} | others == set(POKER_EVENT_TYPES)
    assert [poker_event_from_record(event_to_record(e)) for e in events] == events
    with pytest.raises(ValueError, match="to_cents"):
        Acted.from_payload({"seat": 1, "action": "raise"})
