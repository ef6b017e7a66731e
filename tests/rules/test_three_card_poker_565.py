"""Three Card Poker, Chapter 565, run by the declared engine (tables.rules.machine)."""

from __future__ import annotations

import datetime

import pytest

from tables.rules.cards import parse_cards
from tables.rules.engine import Automation, Outcome, RuleViolation
from tables.rules.events import (
    CardDealt,
    CardExposed,
    DealingMethod,
    Decision,
    IrregularityKind,
    IrregularityReported,
    NoMoreBets,
    PlayerFolded,
    Recipient,
    RoundOpened,
    WagerPlaced,
)
from tables.rules.games import three_card_poker_565 as game
from tables.rules.replay import FindingKind, replay

DAY = datetime.date(2024, 5, 1)


def opened(seats=(1, 2), **options):
    return RoundOpened.build(
        round_id="R-3", game="three_card_poker", ruleset_id="PA-565-2010", table_id="TCP-1",
        gaming_day=DAY, seats=seats, players=tuple(f"P{seat}" for seat in seats),
        dealing_method=DealingMethod.MANUAL_SHOE, **options,
    )  # fmt: skip


def dealt(hands: dict[int, str], dealer: str) -> list:
    """§ 565.8(d): one card at a time clockwise, the dealer last in each turn."""
    cards = {seat: parse_cards(text) for seat, text in hands.items()}
    events = []
    for index, card in enumerate(parse_cards(dealer)):
        for seat in sorted(cards):
            events.append(CardDealt(card=cards[seat][index], recipient=Recipient.PLAYER,
                                    seat=seat, spot=str(index + 1)))  # fmt: skip
        events.append(CardDealt(card=card, recipient=Recipient.DEALER, spot=str(index + 1)))
    return events


def a_round(wagers, hands, dealer, decisions=(), **options):
    events = [opened(seats=tuple(sorted(hands)), **options)]
    events += [WagerPlaced(seat=seat, wager=wager, amount_cents=amount)
               for seat, wager, amount in wagers]  # fmt: skip
    events += [NoMoreBets(), *dealt(hands, dealer), *decisions]
    return events


def settled(events):
    return replay(events, tuple(Automation)).settlement


def line(settlement, seat, wager):
    found = [item for item in settlement.lines if item.seat == seat and item.wager == wager]
    return found[0] if found else None


def test_565_12_a_a_dealer_below_queen_high_pays_the_ante_and_returns_the_play():
    events = a_round([(1, "ANTE", 1000)], {1: "2c 5d 9h"}, "Jc 7d 3h",
                     [Decision(seat=1, choice="play", amount_cents=1000)])  # fmt: skip
    settlement = settled(events)
    assert settlement.complete
    assert (line(settlement, 1, "ANTE").outcome, line(settlement, 1, "ANTE").amount_cents) == (
        Outcome.WIN, 1000)  # fmt: skip
    assert line(settlement, 1, "ANTE").section == "565.12(a)"
    assert line(settlement, 1, "PLAY").outcome is Outcome.RETURNED


def test_565_12_b_c_and_11_d_2_a_qualifying_dealer_is_beaten_tied_or_wins():
    plays = [Decision(seat=s, choice="play", amount_cents=500) for s in (1, 2, 3)]
    events = a_round([(s, "ANTE", 500) for s in (1, 2, 3)],
                     {1: "Ks Kd 2h", 2: "Qh 8c 4s", 3: "Jd 9s 3c"}, "Qc 8d 4h", plays)  # fmt: skip
    settlement = settled(events)
    assert [line(settlement, 1, w).outcome for w in ("ANTE", "PLAY")] == [Outcome.WIN] * 2
    assert line(settlement, 1, "PLAY").section == "565.12(b)"
    assert [line(settlement, 2, w).outcome for w in ("ANTE", "PLAY")] == [Outcome.PUSH] * 2
    assert line(settlement, 2, "ANTE").section == "565.12(c)"
    assert [line(settlement, 3, w).outcome for w in ("ANTE", "PLAY")] == [Outcome.LOSE] * 2


def test_565_12_d_pair_plus_pays_on_the_posted_table_regardless_of_the_dealer():
    events = a_round([(1, "PAIR_PLUS", 1000), (2, "PAIR_PLUS", 1000)],
                     {1: "7h 8h 9h", 2: "As Ks Qs"}, "Ac Ad Ah")  # fmt: skip
    settlement = settled(events)
    assert line(settlement, 1, "PAIR_PLUS").amount_cents == 35_000  # straight flush 35 to 1
    assert line(settlement, 2, "PAIR_PLUS").amount_cents == 35_000  # mini royal 35 to 1
    richer = settled([opened(seats=(1, 2), pair_plus_table="1-4-6-30-40"), *events[1:]])
    assert line(richer, 1, "PAIR_PLUS").amount_cents == 40_000


def test_every_pair_plus_table_pays_no_less_than_the_565_12_d_minimum():
    for name, table in game.PAY_TABLES.items():
        for key, minimum in game.PAIR_PLUS_MINIMUM:
            odds = game.pay(table, key)
            assert odds is not None and odds.ratio >= minimum.ratio, (name, key)


def test_565_12_e_the_ante_bonus_is_paid_whether_or_not_the_hand_wins():
    events = a_round([(1, "ANTE", 1000)], {1: "4c 5d 6h"}, "Kc Kd Ks",
                     [Decision(seat=1, choice="play", amount_cents=1000)])  # fmt: skip
    settlement = settled(events)
    assert line(settlement, 1, "ANTE").outcome is Outcome.LOSE
    bonus = line(settlement, 1, "ANTE_BONUS")
    assert (bonus.outcome, bonus.amount_cents, bonus.section) == (Outcome.WIN, 1000, "565.12(e)")


def test_565_11_b_a_fold_forfeits_the_ante_and_in_the_base_game_pair_plus_is_still_settled():
    events = a_round([(1, "ANTE", 1000), (1, "PAIR_PLUS", 500)], {1: "9c 9d 2h"}, "Kc 7d 2s",
                     [PlayerFolded(seat=1)])  # fmt: skip
    settlement = settled(events)
    assert line(settlement, 1, "ANTE").outcome is Outcome.FORFEITED
    assert line(settlement, 1, "ANTE").section == "565.11(b)"
    assert line(settlement, 1, "PAIR_PLUS").amount_cents == 500
    assert ("fold_pair_plus", "settled") in settlement.options_applied


def test_565_11_b_in_a_565_7_f_version_a_fold_forfeits_ante_and_pair_plus():
    options = {
        "version": "f1",
        "ante_bonus_table": "A",
        "ante_bonus_reading": "straight_ABC_spades_AC",
    }
    events = a_round([(1, "ANTE", 1000), (1, "PAIR_PLUS", 500)], {1: "9c 9d 2h"}, "Kc 7d 2s",
                     [Decision(seat=1, choice="fold")], **options)  # fmt: skip
    settlement = settled(events)
    assert line(settlement, 1, "PAIR_PLUS").outcome is Outcome.FORFEITED


def test_565_12_f_is_garbled_so_a_version_needs_an_explicit_reading():
    with pytest.raises(RuleViolation) as error:
        replay([opened(version="f2", ante_bonus_table="B")])
    assert (error.value.section, error.value.field) == ("565.12(f)", "options.ante_bonus_reading")


@pytest.mark.parametrize(
    ("reading", "table", "straight", "spades"),
    [("straight_A_spades_AB", "C", None, 1000), ("straight_ABC_spades_AC", "C", 100, 5000),
     ("straight_ABC_spades_AB", "A", 100, 5000), ("straight_A_spades_AC", "B", None, 5000)],
)  # fmt: skip
def test_each_565_12_f_reading_is_applied_and_recorded(reading, table, straight, spades):
    options = {"version": "f1", "ante_bonus_table": table, "ante_bonus_reading": reading}
    for hand, expected in (("4c 5d 6h", straight), ("As Ks Qs", spades)):
        play = [Decision(seat=1, choice="play", amount_cents=100)]
        events = a_round([(1, "ANTE", 100)], {1: hand}, "2c 3d 7h", play, **options)
        settlement = settled(events)
        bonus = line(settlement, 1, "ANTE_BONUS")
        assert (bonus.amount_cents if bonus else None) == expected, hand
        assert ("ante_bonus_reading", reading) in settlement.options_applied


def test_565_11_b_the_play_wager_equals_the_ante():
    events = a_round([(1, "ANTE", 1000)], {1: "2c 5d 9h"}, "Jc 7d 3h")
    with pytest.raises(RuleViolation) as error:
        replay([*events, Decision(seat=1, choice="play", amount_cents=2000)])
    assert (error.value.section, error.value.field) == ("565.11(b)", "amount_cents")


def test_565_11_b_players_decide_clockwise_from_the_dealers_left():
    events = a_round([(1, "ANTE", 500), (2, "ANTE", 500)], {1: "2c 5d 9h", 2: "3c 6d Th"},
                     "Jc 7d 3h")  # fmt: skip
    with pytest.raises(RuleViolation) as error:
        replay([*events, Decision(seat=2, choice="fold")])
    assert (error.value.section, error.value.field) == ("565.11(b)", "seat")


def test_565_7_d_no_wager_after_no_more_bets_and_565_7_c_only_seated_players():
    events = a_round([(1, "ANTE", 500)], {1: "2c 5d 9h"}, "Jc 7d 3h")
    with pytest.raises(RuleViolation) as error:
        replay([*events[:3], WagerPlaced(seat=1, wager="PAIR_PLUS", amount_cents=500)])
    assert error.value.section == "565.7(d)"
    with pytest.raises(RuleViolation) as error:
        replay([events[0], WagerPlaced(seat=5, wager="ANTE", amount_cents=500)])
    assert (error.value.section, error.value.field) == ("565.7(c)", "seat")


def test_565_7_f_1_the_ante_must_be_at_least_the_pair_plus():
    options = {
        "version": "f1",
        "ante_bonus_table": "A",
        "ante_bonus_reading": "straight_A_spades_AB",
    }
    start = [opened(seats=(1,), **options), WagerPlaced(seat=1, wager="ANTE", amount_cents=500)]
    with pytest.raises(RuleViolation) as error:
        replay([*start, WagerPlaced(seat=1, wager="PAIR_PLUS", amount_cents=1000)])
    assert error.value.section == "565.7(f)(1)"
    replay([*start, WagerPlaced(seat=1, wager="PAIR_PLUS", amount_cents=500)])


def test_565_3_a_a_card_dealt_twice_is_refused():
    events = a_round([(1, "ANTE", 500)], {1: "2c 5d 9h"}, "Jc 7d 3h")
    again = CardDealt(card=parse_cards("2c")[0], recipient=Recipient.DEALER, spot="3")
    with pytest.raises(RuleViolation) as error:
        replay([*events[:5], again])
    assert (error.value.section, error.value.field) == ("565.3(a)", "card")


def test_565_13_d_a_dealer_card_exposed_early_voids_and_returns_every_wager():
    events = a_round([(1, "ANTE", 500), (1, "PAIR_PLUS", 500)], {1: "2c 5d 9h"}, "Jc 7d 3h")
    events.append(IrregularityReported(kind=IrregularityKind.DEALER_CARD_EXPOSED_EARLY))
    settlement = replay(events).settlement
    assert settlement.voided and settlement.void_section == "565.13(d)"
    assert {item.outcome for item in settlement.lines} == {Outcome.RETURNED}
    with pytest.raises(RuleViolation):  # and a dealer card turned outside the reveal is refused
        replay([*events[:-1], CardExposed(recipient=Recipient.DEALER, spot="1")])


def test_replay_finds_a_mispaid_pair_plus():
    from tables.rules.events import DealerPaid

    events = a_round([(1, "PAIR_PLUS", 1000)], {1: "7h 8h 2h"}, "Ac Ad Ah")
    events += [CardExposed(recipient=Recipient.DEALER, spot=s) for s in "123"]
    events += [CardExposed(recipient=Recipient.PLAYER, seat=1, spot=s) for s in "123"]
    events.append(DealerPaid(seat=1, wager="PAIR_PLUS", amount_cents=1000))
    (finding,) = replay(events).findings
    assert (finding.kind, finding.expected_cents, finding.section) == (
        FindingKind.MISPAID_AMOUNT, 3000, "565.12(d)")  # fmt: skip


def test_565_6_c_the_literal_tie_rule_is_an_option():
    assert game.compare(parse_cards("2c 2d Ah"), parse_cards("Kc Kd 3h")) == -1
    assert game.compare(parse_cards("2c 2d Ah"), parse_cards("Kc Kd 3h"), "literal") == 1
    assert game.qualifies(parse_cards("Qc 4d 2h")) and not game.qualifies(parse_cards("Jc 9d 7h"))


def test_565_13_a_one_card_face_up_is_set_aside_and_a_second_voids_the_round():
    events = a_round([(1, "ANTE", 500)], {1: "2c 5d 9h"}, "Jc 7d 3h")
    face_up = IrregularityReported(
        kind=IrregularityKind.CARD_FACE_UP_IN_DECK, card=parse_cards("Ks")[0]
    )
    state = replay([*events[:4], face_up]).final_state
    assert state.phase == "dealing" and not state.void_section
    again = IrregularityReported(
        kind=IrregularityKind.CARD_FACE_UP_IN_DECK, card=parse_cards("Kd")[0]
    )
    settlement = replay([*events[:4], face_up, again]).settlement
    assert settlement.voided and settlement.void_section == "565.13(a)"


@pytest.mark.parametrize(
    ("kind", "section"),
    [(IrregularityKind.INCORRECT_CARD_COUNT, "565.13(c)"),
     (IrregularityKind.SHOE_MALFUNCTION, "565.13(f)")],
)  # fmt: skip
def test_565_13_c_and_f_void_the_round_and_return_every_wager(kind, section):
    events = a_round([(1, "ANTE", 500), (1, "PAIR_PLUS", 100)], {1: "2c 5d 9h"}, "Jc 7d 3h")
    settlement = replay([*events, IrregularityReported(kind=kind)]).settlement
    assert settlement.void_section == section
    assert [(line.wager, line.outcome) for line in settlement.lines] == [
        ("ANTE", Outcome.RETURNED), ("PAIR_PLUS", Outcome.RETURNED)]  # fmt: skip


def test_565_8_h_a_wrong_stub_count_voids_the_round_and_removes_the_deck():
    from tables.rules.events import StubCounted

    events = a_round([(1, "ANTE", 500)], {1: "2c 5d 9h"}, "Jc 7d 3h")
    result = replay([*events, StubCounted(stub_count=45)])  # 52 - 6 dealt = 46
    assert result.settlement.void_section == "565.8(h)"
    assert result.final_state.deck_removal_required
    assert not replay([*events, StubCounted(stub_count=46)]).settlement.voided


def test_565_7_c_an_abandoned_seats_wagers_are_treated_as_losing():
    events = a_round([(1, "ANTE", 500), (1, "PAIR_PLUS", 100)], {1: "As Ks Qs"}, "Jc 7d 3h")
    left = IrregularityReported(kind=IrregularityKind.PLAYER_LEFT_TABLE, seat=1)
    settlement = replay([*events, left]).settlement
    assert {(line.wager, line.outcome, line.section) for line in settlement.lines} == {
        ("ANTE", Outcome.LOSE, "565.7(c)"), ("PAIR_PLUS", Outcome.LOSE, "565.7(c)")}  # fmt: skip
