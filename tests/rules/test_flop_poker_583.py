"""Flop Poker, Chapter 583, run by the declared engine (tables.rules.machine)."""

from __future__ import annotations

import datetime
import random
from fractions import Fraction

import pytest

from tables.rules.cards import parse_cards
from tables.rules.engine import HOUSE, POT, Automation, Outcome, RuleViolation
from tables.rules.events import (
    CardDealt,
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
from tables.rules.games import flop_poker_583 as game
from tables.rules.machine import apply, open_round, required_settlement
from tables.rules.parsheets import flop_poker as sheet
from tables.rules.replay import replay

DAY = datetime.date(2024, 5, 1)


def opened(seats=(1, 2), method=DealingMethod.MANUAL_SHOE, **options):
    return RoundOpened.build(
        round_id="R-FLP", game="flop_poker", ruleset_id="PA-583-2014", table_id="FLP-1",
        gaming_day=DAY, seats=seats, players=tuple(f"P{s}" for s in seats),
        dealing_method=method, **options,
    )  # fmt: skip


def dealt(hands):
    """§ 583.8(c): one card at a time clockwise until each player has three."""
    cards = {seat: parse_cards(text) for seat, text in hands.items()}
    return [CardDealt(card=cards[seat][index], recipient=Recipient.PLAYER, seat=seat,
                      spot=str(index + 1))
            for index in range(3) for seat in sorted(cards)]  # fmt: skip


def flop(text):
    return [CardDealt(card=card, recipient=Recipient.COMMUNITY, spot=spot, face_up=True)
            for card, spot in zip(parse_cards(text), game.BOARD, strict=True)]  # fmt: skip


def a_round(hands, board, folds=(), ante=1000, bonus=(), pot=500, **options):
    seats = sorted(hands)
    events = [opened(seats=tuple(seats), **options)]
    for seat in seats:
        events += [WagerPlaced(seat=seat, wager="ANTE", amount_cents=ante),
                   WagerPlaced(seat=seat, wager="POT", amount_cents=pot)]  # fmt: skip
        if seat in bonus:
            events.append(WagerPlaced(seat=seat, wager=game.BONUS, amount_cents=500))
    events += [NoMoreBets(), *dealt(hands)]
    events += [Decision(seat=s, choice="fold") if s in folds else
               Decision(seat=s, choice="bet", amount_cents=ante) for s in seats]  # fmt: skip
    return events + flop(board)


def settled(events):
    return replay(events, tuple(Automation)).settlement


def outcomes(settlement, seat):
    return {item.wager: (item.outcome, item.amount_cents) for item in settlement.lines
            if item.seat == seat}  # fmt: skip


def test_583_11_d_2_three_own_cards_and_exactly_two_community_cards_make_the_hand():
    # Four hearts on the player's side plus three on the board is still no flush of
    # three own + two community? It is: Ah Kh 2h + 9h 5h. A flush pays 20 to 1 (§ 583.12(b)).
    settlement = settled(a_round({1: "Ah Kh 2h"}, "9h 5h 5c"))
    assert outcomes(settlement, 1)["FLOP"] == (Outcome.WIN, 20_000)
    assert outcomes(settlement, 1)["ANTE"] == (Outcome.WIN, 1000)
    # Two pair needs two of the board: 7-7 on the board and a pair of 4s in the hand.
    settlement = settled(a_round({1: "4h 4d 9c"}, "7s 7d 2c"))
    assert outcomes(settlement, 1)["FLOP"] == (Outcome.WIN, 2000)
    # Not five of six: the board's three 8s and the player's 8 would be quads; three own
    # cards + two 8s is only three of a kind.
    settlement = settled(a_round({1: "8h 2d 3c"}, "8s 8d 8c"))
    assert outcomes(settlement, 1)["FLOP"] == (Outcome.WIN, 4000)


def test_583_11_d_2_below_a_pair_of_jacks_the_ante_and_the_flop_lose():
    settlement = settled(a_round({1: "Th Td 4c"}, "9s 7d 2c"))
    assert outcomes(settlement, 1)["ANTE"] == (Outcome.LOSE, 1000)
    assert outcomes(settlement, 1)["FLOP"] == (Outcome.LOSE, 1000)
    assert settlement.line(1, "FLOP").section == "583.11(d)(2)"
    jacks = settled(a_round({1: "Jh Jd 4c"}, "9s 7d 2c"))
    assert outcomes(jacks, 1)["FLOP"] == (Outcome.WIN, 1000)
    assert jacks.line(1, "FLOP").section == "583.12(b)"


def test_583_12_c_the_three_card_bonus_on_the_players_own_three_cards():
    settlement = settled(a_round({1: "Qh Kh Ah", 2: "5c 5d 9s"}, "2s 3d 7c", bonus=(1, 2)))
    assert outcomes(settlement, 1)[game.BONUS] == (Outcome.WIN, 50_000)  # royal 100 to 1
    assert outcomes(settlement, 2)[game.BONUS] == (Outcome.WIN, 500)  # pair 1 to 1


def test_583_6_a_a_2_3_is_no_three_card_straight_unless_the_rule_set_reads_so():
    literal = settled(a_round({1: "Ah 2d 3c"}, "9s 9d 9c", bonus=(1,)))
    assert outcomes(literal, 1)[game.BONUS] == (Outcome.LOSE, 500)
    read = settled(a_round({1: "Ah 2d 3c"}, "9s 9d 9c", bonus=(1,), three_card_ace_low=True))
    assert outcomes(read, 1)[game.BONUS] == (Outcome.WIN, 3000)


def test_583_7_d_3_the_three_card_bonus_only_where_the_rule_set_offers_it():
    state = open_round(game.GAME, opened(seats=(1,), three_card_bonus_offered=False))
    with pytest.raises(RuleViolation, match=r"583\.7\(d\)\(3\)"):
        apply(state, WagerPlaced(seat=1, wager=game.BONUS, amount_cents=500))


def test_583_7_d_1_the_pot_wager_equals_the_table_minimum():
    state = open_round(game.GAME, opened(seats=(1,), table_minimum_cents=1000))
    with pytest.raises(RuleViolation, match=r"583\.7\(d\)\(1\).*table minimum"):
        apply(state, WagerPlaced(seat=1, wager="POT", amount_cents=500))
    apply(state, WagerPlaced(seat=1, wager="POT", amount_cents=1000))


def test_583_7_d_2_and_11_b_the_flop_wager_equals_the_ante():
    state = open_round(game.GAME, opened(seats=(1,)))
    for event in [WagerPlaced(seat=1, wager="ANTE", amount_cents=1000),
                  WagerPlaced(seat=1, wager="POT", amount_cents=500), NoMoreBets(),
                  *dealt({1: "2c 3d 4h"})]:  # fmt: skip
        state = apply(state, event)
    with pytest.raises(RuleViolation, match=r"583\.11\(b\)"):
        apply(state, Decision(seat=1, choice="bet", amount_cents=2000))


def test_583_8_c_cards_only_to_a_player_with_both_the_pot_and_the_ante():
    events = [opened(seats=(1, 2)), WagerPlaced(seat=1, wager="ANTE", amount_cents=1000),
              WagerPlaced(seat=1, wager="POT", amount_cents=500),
              WagerPlaced(seat=2, wager="ANTE", amount_cents=1000), NoMoreBets()]  # fmt: skip
    state = open_round(game.GAME, events[0])
    for event in events[1:]:
        state = apply(state, event)
    with pytest.raises(RuleViolation, match=r"583\.8\(c\)"):
        apply(state, dealt({2: "2c 3d 4h"})[0])
    assert outcomes(required_settlement(state), 2) == {"ANTE": (Outcome.RETURNED, 1000)}


def test_583_11_e_the_highest_hand_takes_the_pot_a_folded_player_included():
    hands = {1: "2c 3d 4h", 2: "Ah Ad 9c", 3: "Kh Kd 5s"}
    settlement = settled(a_round(hands, "7s 8d Tc", folds=(2,)))
    assert outcomes(settlement, 2)["ANTE"] == (Outcome.FORFEITED, 1000)
    assert outcomes(settlement, 2)["POT"] == (Outcome.WIN, 1000)  # 1,500 pot less its own 500
    assert outcomes(settlement, 1)["POT"] == (Outcome.LOSE, 500)
    assert outcomes(settlement, 3)["POT"] == (Outcome.LOSE, 500)
    pot = [item for item in settlement.lines if item.wager == "POT"]
    assert {item.counterparty for item in pot} == {POT}
    assert all(item.counterparty == HOUSE for item in settlement.lines if item.wager != "POT")
    moved = sum(m.amount_cents * (1 if m.payee == POT else -1)
                for m in settlement.movements if POT in (m.payer, m.payee))  # fmt: skip
    assert moved == 0  # the pot pays out exactly what it took in


def test_583_11_e_the_next_highest_card_breaks_a_tie_identical_hands_split_the_pot():
    kicker = settled(a_round({1: "Ah Ad 9c", 2: "As Ac 8c"}, "7s 5d 2c"))
    assert outcomes(kicker, 1)["POT"] == (Outcome.WIN, 500)
    identical = settled(a_round({1: "Ah Ad 9c", 2: "As Ac 9d", 3: "2h 3h 4s"}, "Ks Qd Jc"))
    assert outcomes(identical, 1)["POT"] == (Outcome.WIN, 250)
    assert outcomes(identical, 2)["POT"] == (Outcome.WIN, 250)
    assert outcomes(identical, 3)["POT"] == (Outcome.LOSE, 500)


@pytest.mark.parametrize(("reading", "first"), [("first_settled", 3), ("clockwise", 1)])
def test_583_11_e_a_split_pots_odd_cents_go_as_the_rule_set_reads_it(reading, first):
    hands = {1: "Ah Ad 9c", 2: "2h 3h 4s", 3: "As Ac 9d"}
    settlement = settled(a_round(hands, "Ks Qd Jc", pot_odd_cents=reading))
    assert outcomes(settlement, first)["POT"][1] == 250
    assert ("pot_odd_cents", reading) in settlement.options_applied
    # 3 × 500 = 1,500 split two ways is even: the odd cent itself, through the engine.
    from types import SimpleNamespace as S

    from tables.rules.engine import pot_lines

    seats = [S(seat=n, player=f"p{n}", wagers={"POT": 500}) for n in (3, 2, 1)]
    seats.append(S(seat=4, player="p4", wagers={"POT": 1}))
    lines = pot_lines(seats, "POT", [first, 4 - first], section="583.11(e)")
    assert lines[first].amount_cents == 751 - 500 and lines[4 - first].amount_cents == 250


def test_583_11_e_literal_tie_rule_for_the_pot():
    hands = {1: "Ah Ac 3s", 2: "Kh Kc Ks"}  # 3s full of aces against kings full of 3s
    conventional = settled(a_round(hands, "3d 3h 7c"))
    assert outcomes(conventional, 2)["POT"] == (Outcome.WIN, 500)
    literal = settled(a_round(hands, "3d 3h 7c", tie_rule="literal"))
    assert outcomes(literal, 1)["POT"] == (Outcome.WIN, 500)  # the aces are in one hand only


def test_583_11_b_a_folded_players_three_card_bonus_is_settled_unless_the_rule_set_forfeits():
    settled_bonus = settled(a_round({1: "5c 5d 9s"}, "2s 3d 7c", folds=(1,), bonus=(1,)))
    assert outcomes(settled_bonus, 1)[game.BONUS] == (Outcome.WIN, 500)
    forfeited = settled(a_round({1: "5c 5d 9s"}, "2s 3d 7c", folds=(1,), bonus=(1,),
                                fold_three_card_bonus="forfeited"))  # fmt: skip
    assert outcomes(forfeited, 1)[game.BONUS] == (Outcome.FORFEITED, 500)


def test_583_11_c_the_flop_is_dealt_after_the_decisions_after_a_burn():
    events = a_round({1: "2c 3d 4h"}, "7s 8d Tc")
    state = open_round(game.GAME, events[0])
    for event in events[1:7]:
        state = apply(state, event)
    with pytest.raises(RuleViolation, match="dealing is complete"):
        apply(state, flop("7s 8d Tc")[0])
    for event in events[7:]:
        state = apply(state, event)
    assert state.phase == "settlement" and all(state.community_exposed)
    with pytest.raises(RuleViolation, match=r"583\.7\(c\)"):  # no wager after no more bets
        apply(state, WagerPlaced(seat=1, wager="ANTE", amount_cents=5))
    assert not apply(state, StubCounted(stub_count=52 - 6 - 1)).void_section  # one burn


def test_583_10_the_automated_shoe_burns_no_card_before_the_community_stack():
    events = a_round({1: "2c 3d 4h"}, "7s 8d Tc", method=DealingMethod.AUTOMATED_SHOE)
    state = open_round(game.GAME, events[0])
    for event in events[1:]:
        state = apply(state, event)
    assert not apply(state, StubCounted(stub_count=52 - 6)).void_section
    assert apply(state, StubCounted(stub_count=52 - 7)).void_section == "583.10(f)"


def test_583_13_c_a_wrong_count_voids_every_wager_the_pot_returned():
    events = a_round({1: "2c 3d 4h", 2: "Ah Ad 9c"}, "7s 8d Tc")
    events.insert(9, IrregularityReported(kind=IrregularityKind.INCORRECT_CARD_COUNT))
    settlement = replay(events[:10], tuple(Automation)).settlement
    assert settlement.voided and settlement.void_section == "583.13(c)"
    assert outcomes(settlement, 2) == {"ANTE": (Outcome.RETURNED, 1000),
                                       "POT": (Outcome.RETURNED, 500)}  # fmt: skip


def test_583_7_b_an_abandoned_players_pot_goes_to_the_others():
    events = a_round({1: "Ah Ad 9c", 2: "2h 3h 4s"}, "Ks Qd Jc")
    events.insert(9, IrregularityReported(kind=IrregularityKind.PLAYER_LEFT_TABLE, seat=1))
    settlement = settled([e for e in events if not (isinstance(e, Decision) and e.seat == 1)])
    assert outcomes(settlement, 1)["POT"] == (Outcome.LOSE, 500)
    assert outcomes(settlement, 2)["POT"] == (Outcome.WIN, 500)


def test_583_2_a_six_positions():
    with pytest.raises(RuleViolation, match=r"583\.2\(a\)"):
        open_round(game.GAME, opened(seats=(1, 2, 3, 4, 5, 6, 7)))


def test_583_par_sheet_three_card_bonus_exact_and_a_hand_counted_against_every_board():
    assert sheet.three_card_bonus_sheet(False).house_edge == Fraction(449, 5525)
    assert sheet.three_card_bonus_sheet(True).house_edge == Fraction(297, 5525)
    from collections import Counter
    from itertools import combinations

    from tables.rules.cards import STANDARD_DECK

    hand = parse_cards("Jh Js 4c")
    rest = [card for card in STANDARD_DECK if card not in hand]
    brute = Counter(game.flop_key(game.hand_of(hand, b)) for b in combinations(rest, 3))
    assert sheet._board_levels(hand) == [brute[key] for key in sheet.LEVELS]


def test_583_11_b_the_stated_flop_rule_is_the_counted_best_play_on_every_hand():
    game_sheet = sheet.ante_flop()
    assert game_sheet.off_rule == 0
    assert game_sheet.house_edge == Fraction(3_300_677, 50_896_300)
    assert game_sheet.play_frequency == Fraction(191, 221)


def test_583_simulated_rounds_replay_with_their_injected_errors():
    from tables.rules.registry import ruleset
    from tables.rules.simulate import DealerError, SettlementError
    from tables.rules.simulate_declared import simulate_declared

    errors = [DealerError.MISPAY_FIRST_WIN, DealerError.PAY_A_LOSER, *SettlementError]
    for seed in range(8):
        sim = simulate_declared(
            random.Random(seed),
            ruleset("PA-583-2014"),
            seats=(1, 2, 3),
            count_stub=True,
            dealer_errors=[errors[seed % len(errors)]],
        )
        result = replay(sim.events)
        assert [(f.kind, f.seat, f.wager) for f in result.findings] == [
            (i.expected_finding, i.seat, i.wager) for i in sim.injected
        ]


def test_583_11_b_d_a_folded_hand_stays_on_the_layout_and_is_turned_for_the_pot():
    from tables.rules.events import CardExposed, RoundClosed

    events = a_round({1: "Ah Ad 9c", 2: "2c 3d 4h", 3: "5c 6d 8h"}, "7s 8d Tc", folds=(1, 3))
    state = open_round(game.GAME, events[0])
    for event in events[1:]:
        state = apply(state, event)
    turned = {seat: [CardExposed(recipient=Recipient.PLAYER, seat=seat, spot=str(spot))
                     for spot in (1, 2, 3)] for seat in (1, 2, 3)}  # fmt: skip
    with pytest.raises(RuleViolation, match="seat 3 first"):
        apply(state, turned[2][0])  # counterclockwise: the folded seat 3 before seat 2
    for event in turned[3] + turned[2]:
        state = apply(state, event)
    with pytest.raises(RuleViolation, match=r"583\.11\(d\).*seat 1's cards are hidden"):
        apply(state, RoundClosed())  # the folded seat 1 holds the best hand: it is turned too
    for event in turned[1]:
        state = apply(state, event)
    assert apply(state, RoundClosed()).phase == "closed"


def test_583_7_e_one_player_position_per_player():
    event = RoundOpened.build(
        round_id="R-2", game="flop_poker", ruleset_id="PA-583-2014", table_id="FLP-1",
        gaming_day=DAY, seats=(1, 2), players=("P1", "P1"),
        dealing_method=DealingMethod.MANUAL_SHOE,
    )  # fmt: skip
    state = apply(open_round(game.GAME, event), WagerPlaced(seat=1, wager="ANTE", amount_cents=500))
    with pytest.raises(RuleViolation, match=r"583\.7\(e\)"):
        apply(state, WagerPlaced(seat=2, wager="ANTE", amount_cents=500))


def test_583_11_b_e_when_every_player_folds_the_flop_is_still_dealt_for_the_pot():
    events = a_round({1: "Ah Ad 9c", 2: "2h 3h 4s"}, "Ks Qd Jc", folds=(1, 2))
    state = open_round(game.GAME, events[0])
    for event in events[1:-3]:
        state = apply(state, event)
    assert state.phase == "flop_deal"
    for event in events[-3:]:
        state = apply(state, event)
    assert outcomes(required_settlement(state), 1)["POT"] == (Outcome.WIN, 500)
