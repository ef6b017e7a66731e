"""Caribbean Stud Poker, Chapter 555, run by the declared engine (tables.rules.machine)."""

from __future__ import annotations

import datetime
import random
from fractions import Fraction

import pytest

from tables.rules.cards import parse_cards
from tables.rules.engine import Automation, Outcome
from tables.rules.events import (
    CardDealt,
    DealerCollected,
    DealingMethod,
    Decision,
    IrregularityKind,
    IrregularityReported,
    NoMoreBets,
    Recipient,
    RoundOpened,
    StubCounted,
    WagerPlaced,
)
from tables.rules.games import caribbean_stud_555 as game
from tables.rules.machine import apply, open_round, verify
from tables.rules.parsheets import caribbean_stud_poker as sheet
from tables.rules.replay import FindingKind, replay

DAY = datetime.date(2024, 5, 1)
BET, FOLD = "bet", "fold"


def opened(seats=(1, 2), method=DealingMethod.MANUAL_SHOE, **options):
    return RoundOpened.build(
        round_id="R-C", game="caribbean_stud_poker", ruleset_id="PA-555-2010", table_id="CSP-1",
        gaming_day=DAY, seats=seats, players=tuple(f"P{seat}" for seat in seats),
        dealing_method=method, **options,
    )  # fmt: skip


def dealt(hands: dict[int, str], dealer: str) -> list:
    """§ 555.8(d): a card to each player, the dealer's first (face up), a second round,
    the dealer's second, then the third, fourth and fifth to each player and the dealer."""
    cards = {seat: parse_cards(text) for seat, text in hands.items()}
    events = []
    for index, card in enumerate(parse_cards(dealer)):
        events += [CardDealt(card=cards[seat][index], recipient=Recipient.PLAYER, seat=seat,
                             spot=str(index + 1)) for seat in sorted(cards)]  # fmt: skip
        events.append(CardDealt(card=card, recipient=Recipient.DEALER, spot=str(index + 1)))
    return events


def a_round(hands, dealer, decisions=(), ante=1000, progressive=(), **options):
    events = [opened(seats=tuple(sorted(hands)), **options)]
    for seat in sorted(hands):
        events.append(WagerPlaced(seat=seat, wager="ANTE", amount_cents=ante))
        if seat in progressive:
            events.append(WagerPlaced(seat=seat, wager="PROGRESSIVE", amount_cents=100))
    events += [NoMoreBets(), *dealt(hands, dealer)]
    events += [Decision(seat=seat, choice=choice, amount_cents=2 * ante if choice == BET else None)
               for seat, choice in decisions]  # fmt: skip
    return events


def settled(events):
    return replay(events, tuple(Automation)).settlement


def line(settlement, seat, wager):
    found = [item for item in settlement.lines if item.seat == seat and item.wager == wager]
    return found[0] if found else None


def test_555_1_the_dealer_qualifies_with_ace_king_four_three_two_or_better():
    assert game.qualifies(parse_cards("Ah Kd 4c 3s 2h"))
    assert game.qualifies(parse_cards("2h 2d 3c 4s 5h"))  # any pair
    assert not game.qualifies(parse_cards("Ah Qd Jc 9s 8h"))  # ace high without a king
    assert not game.qualifies(parse_cards("Kh Qd Jc 9s 7h"))


def test_555_11_f_a_dealer_without_a_qualifying_hand_pays_the_ante_and_returns_the_bet():
    events = a_round({1: "2s 5d 7c 9h Jd"}, "Ah Qd Jc 9s 8h", [(1, BET)])
    settlement = settled(events)
    assert settlement.complete
    ante, bet = line(settlement, 1, "ANTE"), line(settlement, 1, "BET")
    assert (ante.outcome, ante.amount_cents, ante.section) == (Outcome.WIN, 1000, "555.11(f)(2)")
    assert (bet.outcome, bet.amount_cents, bet.section) == (Outcome.RETURNED, 2000, "555.11(f)(3)")


@pytest.mark.parametrize(("hand", "odds"), [
    ("As Ks Qs Js Ts", 100), ("9h Th Jh Qh Kh", 50), ("7s 7d 7c 7h 2d", 20),
    ("7s 7d 7c 2h 2d", 7), ("2c 5c 9c Jc Kc", 5), ("5s 6d 7c 8h 9d", 4),
    ("7s 7d 7c 2h 3d", 3), ("7s 7d 2c 2h 3d", 2), ("Qs Qd 2c 4h 3d", 1), ("As Kh Qc 9h 3d", 1),
])  # fmt: skip
def test_555_13_c_the_bet_pays_the_players_hand_and_555_13_b_the_ante_1_to_1(hand, odds):
    dealer = "Ah Kd 4s 3s 2s"  # the lowest qualifying hand
    settlement = settled(a_round({1: hand}, dealer, [(1, BET)], ante=500))
    ante, bet = line(settlement, 1, "ANTE"), line(settlement, 1, "BET")
    assert (ante.outcome, ante.amount_cents, ante.section) == (Outcome.WIN, 500, "555.13(b)")
    assert (bet.outcome, bet.amount_cents, bet.section) == (Outcome.WIN, 1000 * odds, "555.13(c)")


def test_555_11_e_1_and_2_a_higher_qualifying_dealer_takes_both_a_tie_returns_both():
    lost = settled(a_round({1: "Qs Qd 2c 4h 3d"}, "Kh Kd 4c 3s 2h", [(1, BET)]))
    assert {(item.outcome, item.section) for item in lost.lines} == {
        (Outcome.LOSE, "555.11(e)(1)")}
    tie = settled(a_round({1: "Qs Qd 5c 4h 3d"}, "Qh Qc 5d 4s 3h", [(1, BET)]))
    assert {(item.outcome, item.section) for item in tie.lines} == {(Outcome.PUSH, "555.11(e)(2)")}


def test_555_6_c_read_literally_the_highest_card_not_in_the_other_hand_decides():
    # Two 2s with A-K-Q against two kings with 5-4-3: the ace is the highest unshared card.
    events = a_round({1: "2s 2d Ac Kh Qd"}, "Kc Kd 5c 4s 3h", [(1, BET)], tie_rule="literal")
    assert line(settled(events), 1, "ANTE").outcome is Outcome.WIN
    conventional = a_round({1: "2s 2d Ac Kh Qd"}, "Kc Kd 5c 4s 3h", [(1, BET)])
    assert line(settled(conventional), 1, "ANTE").outcome is Outcome.LOSE


def test_555_11_a_a_fold_forfeits_the_ante_and_555_1_the_bet_is_double_the_ante():
    events = a_round({1: "2s 5d 7c 9h Jd", 2: "Qs Qd 2c 4h 3d"}, "Kh Kd 4c 3s 2h")
    state = replay(events, tuple(Automation)).final_state
    for amount in (1000, 3000):
        refused = verify(state, Decision(seat=1, choice=BET, amount_cents=amount))
        assert refused is not None and refused.field == "amount_cents"
    settlement = settled([*events, Decision(seat=1, choice=FOLD),
                          Decision(seat=2, choice=BET, amount_cents=2000)])  # fmt: skip
    ante = line(settlement, 1, "ANTE")
    assert (ante.outcome, ante.section) == (Outcome.FORFEITED, "555.11(a)")
    assert line(settlement, 1, "BET") is None


def test_555_7_c_the_progressive_is_one_dollar_and_only_upon_an_ante():
    state = open_round(game.GAME, opened(), frozenset())
    alone = verify(state, WagerPlaced(seat=1, wager="PROGRESSIVE", amount_cents=100))
    assert alone is not None and alone.section == "555.7(c)"
    state = apply(state, WagerPlaced(seat=1, wager="ANTE", amount_cents=500))
    five = verify(state, WagerPlaced(seat=1, wager="PROGRESSIVE", amount_cents=500))
    assert five is not None and five.section == "555.7(c)"
    assert verify(state, WagerPlaced(seat=1, wager="PROGRESSIVE", amount_cents=100)) is None


def test_555_2_f_2_the_lock_out_refuses_a_progressive_after_no_more_bets():
    state = open_round(game.GAME, opened(), frozenset())
    state = apply(apply(state, WagerPlaced(seat=1, wager="ANTE", amount_cents=500)), NoMoreBets())
    refused = verify(state, WagerPlaced(seat=1, wager="PROGRESSIVE", amount_cents=100))
    assert refused is not None and refused.section == "555.2(f)(2)"


def test_555_8_b_the_progressive_chip_is_taken_at_no_more_bets_whatever_the_hand():
    events = a_round({1: "2s 5d 7c 9h Jd"}, "Ah Qd Jc 9s 8h", [(1, BET)], progressive=(1,))
    chip = line(settled(events), 1, "PROGRESSIVE")
    assert (chip.outcome, chip.amount_cents, chip.section) == (Outcome.LOSE, 100, "555.8(b)")
    void = replay([*events[:5], DealerCollected(seat=1, wager="PROGRESSIVE", amount_cents=100),
                   IrregularityReported(kind=IrregularityKind.SHOE_MALFUNCTION)])  # fmt: skip
    assert [(f.kind, f.wager) for f in void.findings] == [
        (FindingKind.WRONGFUL_COLLECTION, "PROGRESSIVE")]  # § 555.14(f): returned on a void


def test_555_12_c_a_progressive_hand_wins_whatever_the_dealer_holds_in_payment_order():
    hands = {1: "2c 5c 8c Jc Kc", 2: "7s 7d 2d 4h 3d", 3: "As Ks Qs Js Ts", 4: "9h 9d 9c 9s 2h"}
    events = a_round(hands, "Ah Qd Jd 8s 6h", [(1, BET), (2, BET), (3, BET), (4, FOLD)],
                     progressive=(1, 2, 3, 4))  # fmt: skip
    state = replay(events, tuple(Automation)).final_state
    # § 555.11(e)(3): from the dealer's right, counterclockwise; seat 4 folded (§ 555.11(a)).
    assert game.progressive_hits(state) == ((3, "ROYAL_FLUSH"), (1, "FLUSH"))


def test_555_1_progressive_payout_hands_are_flush_or_better():
    assert game.progressive_hand(parse_cards("5s 6d 7c 8h 9d")) is None  # a straight
    assert game.progressive_hand(parse_cards("7s 7d 7c 2h 2d")) == "FULL_HOUSE"
    assert game.progressive_hand(parse_cards("Ah 2h 3h 4h 5h")) == "STRAIGHT_FLUSH"


@pytest.mark.parametrize(("kind", "section"), [
    (IrregularityKind.DEALER_CARD_EXPOSED_EARLY, "555.14(a)"),
    (IrregularityKind.SHOE_MALFUNCTION, "555.14(f)"),
])  # fmt: skip
def test_555_14_a_f_void_the_round_and_return_every_wager(kind, section):
    events = a_round({1: "2s 5d 7c 9h Jd"}, "Ah Qd Jc 9s 8h")
    settlement = settled([*events, IrregularityReported(kind=kind)])
    assert settlement.voided and settlement.void_section == section
    assert {item.outcome for item in settlement.lines} == {Outcome.RETURNED}


def test_555_14_d_a_wrong_card_count_is_referred_not_a_whole_round_void():
    events = a_round({1: "2s 5d 7c 9h Jd"}, "Ah Qd Jc 9s 8h")
    state = replay([*events, IrregularityReported(
        kind=IrregularityKind.INCORRECT_CARD_COUNT)]).final_state
    assert state.void_section is None
    assert any("555.14(d)" in note for note in state.notes)


def test_555_8_h_a_wrong_stub_count_voids_the_round():
    events = a_round({1: "2s 5d 7c 9h Jd"}, "Ah Qd Jc 9s 8h")
    assert replay([*events, StubCounted(stub_count=42)]).final_state.void_section is None
    assert replay([*events, StubCounted(stub_count=41)]).final_state.void_section == "555.8(h)"


def test_555_13_d_the_progressive_par_sheet_is_exact_and_breaks_even_at_its_meter():
    ten = sheet.progressive_sheet(straight_flush_at_ten_percent=True)
    fixed = sheet.progressive_sheet(straight_flush_at_ten_percent=False)
    assert [row.combinations for row in ten.rows] == [4, 36, 624, 3744, 5108]
    # 941,800 dollars of fixed lines a deck's worth of hands, the royal's 4 and the
    # straight flush's 36 tenths of the meter: break even at 1,657,160 / 7.6 dollars.
    assert ten.break_even_cents == 21_804_737
    assert ten.expected_result(21_804_737) >= 0 > ten.expected_result(21_804_736)
    assert fixed.break_even_cents == 36_929_000 and fixed.expected_result(36_929_000) == 0
    # At the chapter's least rate (70 %) the fixed lines alone cost the house more than it keeps.
    assert ten.house_hold(Fraction(7, 10)) == Fraction(3, 10) - Fraction(69250, 1911 * 100)


def test_the_stated_strategy_bets_a_pair_or_ace_king():
    from tables.rules.hands import evaluate_five

    def bets(text):
        cards = parse_cards(text)
        return sheet.bets(evaluate_five(cards).strength, frozenset(c.rank for c in cards))

    assert bets("2s 2d 5c 7h 9d") and bets("As Kd 5c 7h 9d")
    assert not bets("As Qd 5c 7h 9d")


def test_the_simulated_house_edge_agrees_with_a_fresh_shorter_run():
    edge, half = sheet.SIMULATED["conventional"]
    fresh = sheet.simulate(20_000, seed=7)
    assert abs(fresh.house_edge - edge) <= fresh.house_edge_half_width + half


def test_the_simulator_plays_the_stated_strategy_and_replay_finds_every_injected_error():
    from tables.rules.registry import ruleset
    from tables.rules.simulate_declared import (
        ANY_GAME_ERRORS,
        irregularities_of,
        simulate_declared,
    )

    found, folds = 0, 0
    staged = [None, *irregularities_of("caribbean_stud_poker")]
    for seed in range(40):
        errors = [ANY_GAME_ERRORS[seed % len(ANY_GAME_ERRORS)]] if seed % 2 else []
        sim = simulate_declared(random.Random(seed), ruleset("PA-555-2010"), seats=(1, 2, 3),
                                dealer_errors=errors, count_stub=True,
                                irregularity=staged[seed % len(staged)])  # fmt: skip
        result = replay(sim.events)
        assert sorted((f.kind, f.seat, f.wager) for f in result.findings) == sorted(
            (i.expected_finding, i.seat, i.wager) for i in sim.injected)
        found += len(result.findings)
        folds += sum(1 for e in sim.events if isinstance(e, Decision) and e.choice == FOLD)
    assert found >= 5 and folds >= 10
