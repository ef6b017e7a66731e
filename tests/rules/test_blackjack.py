"""The blackjack family (tables.rules.blackjack and blackjack_settlement): § 581, § 590, § 591."""

from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tables.rules.blackjack import (
    BET,
    BLACKJACK_WAGER,
    DOUBLE_ATTACK,
    DOUBLE_ATTACK_581,
    DOUBLE_BACK_JACK_591,
    DOUBLE_DOWN,
    FREE_BET_590,
    FREE_DOUBLE_LAMMER,
    FREE_SPLIT_LAMMER,
    SECOND_CHANCE,
    SPLIT,
    BustAgainstBust,
    HandValue,
    Soft17,
    SplitTwentyOne,
    SurrenderAddedMoney,
    card_value,
    dealer_draws,
    dealer_must_draw,
    hand_value,
    insurance_cap,
    peek_required,
    verify_dealer_draw,
    verify_dealer_stand,
    verify_insurance,
    verify_reader_use,
)
from tables.rules.blackjack_hands import SeatHands
from tables.rules.blackjack_settlement import (
    settle_bust_it,
    settle_insurance,
    settle_push_22,
    settle_seat,
)
from tables.rules.cards import STANDARD_DECK, Card, Rank, parse_cards
from tables.rules.engine import Outcome, RuleViolation
from tables.rules.money import ROUND_DOWN_TO_CENT, ROUND_HALF_UP_TO_CENT, Odds
from tables.rules.shoe import Shoe, ShoePhase

DOWN = ROUND_DOWN_TO_CENT
SETTINGS = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def C(text: str) -> Card:
    return Card.parse(text)


def seat(rules, up: str, cards: str, bet=1_000, attack=0) -> SeatHands:
    return SeatHands.dealt(rules, C(up), parse_cards(cards), bet, attack)


def _refused(section: str, action, *args) -> RuleViolation:
    with pytest.raises(RuleViolation) as caught:
        action(*args)
    assert caught.value.section == section
    return caught.value


def results(hands: SeatHands, dealer: str, rounding=DOWN):
    return [(r.hand, r.wager, r.outcome, r.paid_cents, r.collected_cents, r.section)
            for r in settle_seat(hands, parse_cards(dealer), rounding)]  # fmt: skip


W, L, P, R, F = Outcome.WIN, Outcome.LOSE, Outcome.PUSH, Outcome.RETURNED, Outcome.FORFEITED


# ---- values (§ 5xx.3(d), § 5xx.1) -------------------------------------------------------


def test_581_3_d_cards_count_face_value_faces_ten_and_an_ace_eleven_unless_over_21():
    assert [card_value(C(text)) for text in ("2c", "9d", "Jh", "Qs", "Kc", "Ad")] == [
        2, 9, 10, 10, 10, 1]  # fmt: skip
    assert hand_value(parse_cards("Ah 6c")) == HandValue(17, True)
    assert hand_value(parse_cards("Ah Ac 9d")) == HandValue(21, True)
    assert hand_value(parse_cards("Ah 6c 9d")) == HandValue(16, False)
    assert hand_value(parse_cards("Kh 6c 9d")).busted


def test_590_3_d_a_ten_counts_ten():
    assert hand_value(parse_cards("Th Ad")).total == 21


def test_581_1_a_blackjack_is_the_initial_two_cards_not_a_split_hand_by_default():
    hands = seat(DOUBLE_ATTACK_581, "5c", "Ah Kd")
    assert hands.is_blackjack(hands.hands[0]) and hands.finished
    split = seat(FREE_BET_590, "5c", "Ah Ad").split(0).card(C("Kd"))
    assert not split.is_blackjack(split.hands[0])
    reading = dataclasses.replace(FREE_BET_590, split_twenty_one=SplitTwentyOne.BLACKJACK)
    split = seat(reading, "5c", "Ah Ad").split(0).card(C("Kd"))
    assert split.is_blackjack(split.hands[0])


# ---- the dealer (§ 581.7(m)-(n), § 590.7(l)-(m), § 591.7(o)-(p)) ------------------------


def test_581_7_n_the_dealer_draws_to_16_and_stands_on_all_17s():
    assert dealer_must_draw(DOUBLE_ATTACK_581, parse_cards("9h 7c"))
    assert not dealer_must_draw(DOUBLE_ATTACK_581, parse_cards("Ah 6c"))
    refusal = verify_dealer_draw(DOUBLE_ATTACK_581, parse_cards("Ah 6c"))
    assert refusal is not None and refusal.section == "581.7(n)" and "13(d)" in refusal.reason
    assert verify_dealer_stand(DOUBLE_ATTACK_581, parse_cards("9h 7c")).section == "581.7(m)(2)"
    assert verify_dealer_stand(DOUBLE_ATTACK_581, parse_cards("9h 2c 5d")).section == "581.7(n)"


def test_590_7_l_hitting_a_soft_17_is_only_a_rule_set_option():
    hits = dataclasses.replace(FREE_BET_590, soft_17=Soft17.HIT)
    assert dealer_must_draw(hits, parse_cards("Ah 6c"))
    assert not dealer_must_draw(hits, parse_cards("Kh 7c"))
    assert FREE_BET_590.soft_17 is Soft17.STAND


@pytest.mark.parametrize(("rules", "section"), [(FREE_BET_590, "590.7(m)"),
                                                (DOUBLE_BACK_JACK_591, "591.7(p)")])  # fmt: skip
def test_7_m_p_the_dealer_draws_no_card_once_no_wager_depends_on_it(rules, section):
    assert verify_dealer_stand(rules, parse_cards("9h 5c"), outcome_open=False) is None
    assert verify_dealer_draw(rules, parse_cards("9h 5c"), outcome_open=False).section == section
    assert verify_dealer_stand(rules, parse_cards("9h 5c")) is not None  # a Push 22 still open


def test_581_7_m_2_the_double_attack_dealer_always_draws_the_third_card():
    refusal = verify_dealer_stand(DOUBLE_ATTACK_581, parse_cards("9h 5c"), outcome_open=False)
    assert refusal is not None and refusal.section == "581.7(m)(2)"


@SETTINGS
@given(
    cards=st.lists(st.sampled_from(STANDARD_DECK), min_size=14, max_size=14),
    soft_17=st.sampled_from(list(Soft17)),
)
def test_the_dealers_draw_ends_on_17_or_more_within_the_cards_given(cards, soft_17):
    """§ 581.7(n), § 590.7(l), § 591.7(o): every card adds at least one; 14 cards suffice."""
    rules = dataclasses.replace(FREE_BET_590, soft_17=soft_17)
    final = dealer_draws(rules, cards[:2], cards[2:])
    value = hand_value(final)
    assert 17 <= value.total <= 26
    assert not dealer_must_draw(rules, final)
    assert all(dealer_must_draw(rules, final[:n]) for n in range(2, len(final)))


# ---- the peek and insurance (§ 5xx.7(g)/(h), § 5xx.8) -----------------------------------


def test_581_7_g_the_peek_is_for_an_ace_king_queen_or_jack():
    assert all(peek_required(DOUBLE_ATTACK_581, C(text)) for text in ("Ah", "Kh", "Qh", "Jh"))
    assert not peek_required(DOUBLE_ATTACK_581, C("9h"))
    assert peek_required(FREE_BET_590, C("Th"))  # § 590.7(g) names the ten


def test_581_8_b_insurance_is_half_the_bet_or_the_next_chip_unit():
    assert insurance_cap(2_500, 100) == 1_300
    assert verify_insurance(DOUBLE_ATTACK_581, C("Ah"), 2_500, 1_300) is None
    assert verify_insurance(DOUBLE_ATTACK_581, C("Ah"), 2_500, 1_400).section == "581.8(b)"
    assert verify_insurance(DOUBLE_ATTACK_581, C("Ah"), 2_500, 1_000, peeked=True).section == (
        "581.8(b)")  # fmt: skip
    assert verify_insurance(DOUBLE_ATTACK_581, C("Kh"), 2_500, 1_000).section == "581.8(a)"


def test_581_12_b_insurance_pays_5_to_2_on_a_king_queen_or_jack():
    won = settle_insurance(DOUBLE_ATTACK_581, 1_001, C("Qs"), DOWN)
    assert (won.outcome, won.paid_cents, won.odds, won.section) == (W, 2_502, Odds(5, 2),
                                                                     "581.12(b)")  # fmt: skip
    lost = settle_insurance(DOUBLE_ATTACK_581, 1_000, C("9s"), DOWN)
    assert (lost.outcome, lost.collected_cents, lost.section) == (L, 1_000, "581.8(d)")


@pytest.mark.parametrize(("rules", "section"), [(FREE_BET_590, "590.12(b)"),
                                                (DOUBLE_BACK_JACK_591, "591.12(c)")])  # fmt: skip
def test_insurance_pays_2_to_1_on_a_ten_value_hole_card(rules, section):
    won = settle_insurance(rules, 500, C("Td"), DOWN)
    assert (won.paid_cents, won.section) == (1_000, section)


# ---- splits (§ 5xx.11) ------------------------------------------------------------------


def test_581_11_a_c_split_for_bet_and_double_attack_up_to_four_hands():
    hands = seat(DOUBLE_ATTACK_581, "6c", "Kh Qd", bet=1_000, attack=500)
    _refused("581.11(a)", hands.split, 1_000)
    hands = hands.split(1_500).card(C("Ks")).split(1_500).card(C("Kc")).split(1_500)
    assert len(hands.hands) == 4
    assert [hand.stakes for hand in hands.hands][1:] == [((SPLIT, 1_500),)] * 3
    hands = hands.card(C("Kd"))
    _refused("581.11(c)", hands.split, 1_500)


def test_581_11_e_split_aces_take_one_card_each_and_do_not_resplit():
    hands = seat(DOUBLE_ATTACK_581, "6c", "Ah Ad").split(1_000).card(C("As"))
    _refused("581.11(e)", hands.split, 1_000)
    _refused("581.11(e)", hands.hit)
    hands = hands.stand().card(C("9c")).stand()
    assert hands.finished


def test_581_11_b_the_first_hand_is_completed_before_the_second_gets_a_card():
    hands = seat(DOUBLE_ATTACK_581, "6c", "8h 8d").split(1_000)
    assert hands.active == 0 and hands.can_card() and not hands.can_hit()
    hands = hands.card(C("3c")).hit().card(C("Tc"))  # no 10s in 581, but values are values
    assert hands.active == 1 and len(hands.hands[1].cards) == 1


def test_591_11_a_two_hands_at_most():
    hands = seat(DOUBLE_BACK_JACK_591, "6c", "8h 8d").split(1_000).card(C("8c"))
    _refused("591.11(a)", hands.split, 1_000)


def test_590_11_b_2_a_non_ten_pair_splits_free_for_a_lammer():
    hands = seat(FREE_BET_590, "6c", "8h 8d")
    _refused("590.11(b)(2)", hands.split, 1_000)
    hands = hands.split(0)
    assert hands.hands[0].stakes == ((BLACKJACK_WAGER, 1_000),)
    assert hands.hands[1].stakes == ((FREE_SPLIT_LAMMER, 1_000),)


def test_590_11_b_1_a_pair_of_ten_values_splits_for_money():
    hands = seat(FREE_BET_590, "6c", "Kh Td")
    _refused("590.11(b)(1)", hands.split, 0)
    assert hands.split(1_000).hands[1].stakes == ((SPLIT, 1_000),)


def test_590_11_d_resplits_to_four_hands():
    hands = seat(FREE_BET_590, "6c", "8h 8d").split(0).card(C("8c")).split(0).card(C("8s"))
    hands = hands.split(0).card(C("2c"))
    assert len(hands.hands) == 4
    _refused("590.11(d)", seat(FREE_BET_590, "6c", "8h 8d").split(0).card(C("8c")).split(0)
             .card(C("8s")).split(0).card(C("8c")).split, 0)  # fmt: skip


# ---- doubles (§ 5xx.10) -----------------------------------------------------------------


def test_581_10_a_doubles_on_two_or_more_cards_up_to_bet_and_double_attack():
    hands = seat(DOUBLE_ATTACK_581, "6c", "2h 3d", bet=1_000, attack=500).hit().card(C("4c"))
    _refused("581.10(a)", hands.double, 1_501)
    hands = hands.double(1_500).card(C("9s"))
    assert hands.hands[0].stake(DOUBLE_DOWN) == 1_500
    _refused("581.7(j)(2)", hands.hit)  # one card only; the hand may still stand or surrender
    assert hands.can_surrender() and hands.stand().finished


def test_581_10_a_a_blackjack_does_not_double():
    hands = SeatHands(rules=DOUBLE_ATTACK_581, up_card=C("6c"), original_cents=1_000,
                      hands=seat(DOUBLE_ATTACK_581, "6c", "Ah Kd").hands)  # fmt: skip
    _refused("581.10(a)", hands.double, 1_000)


def test_590_10_a_1_a_hard_9_10_or_11_doubles_free():
    hands = seat(FREE_BET_590, "6c", "6h 4d")
    _refused("590.10(a)(1)", hands.double, 1_000)
    hands = hands.double(0).card(C("Kc"))
    assert hands.finished and hands.hands[0].stakes[-1] == (FREE_DOUBLE_LAMMER, 1_000)


def test_590_10_a_2_another_total_doubles_for_money_up_to_the_original_wager():
    hands = seat(FREE_BET_590, "6c", "Ah 6d")  # soft 17
    _refused("590.10(a)(2)", hands.double, 0)
    _refused("590.10(a)(2)", hands.double, 1_001)
    assert hands.double(500).card(C("2c")).hands[0].stake(DOUBLE_DOWN) == 500
    _refused("590.10(a)", seat(FREE_BET_590, "6c", "2h 3d").hit().card(C("4c")).double, 0)


def test_590_10_b_a_free_double_on_a_free_split_hand():
    hands = seat(FREE_BET_590, "6c", "5h 5d").split(0).card(C("6c")).double(0).card(C("Kc"))
    assert hands.hands[0].stake(FREE_DOUBLE_LAMMER) == 1_000


def test_591_10_a_c_doubles_on_the_first_two_cards_of_a_split_hand_up_to_the_original():
    hands = seat(DOUBLE_BACK_JACK_591, "6c", "8h 8d").split(1_000).card(C("3c"))
    _refused("591.10(a)", hands.double, 1_001)
    assert hands.double(1_000).card(C("Kc")).active == 1


# ---- surrender (§ 5xx.9) ----------------------------------------------------------------


def test_581_9_a_surrender_after_more_cards_but_not_after_standing_nor_on_21():
    hands = seat(DOUBLE_ATTACK_581, "6c", "9h 3d").hit().card(C("2c"))
    assert hands.can_surrender()
    assert hands.stand().finished and not hands.stand().can_surrender()
    # § 581.7(k) "less than 21": a 21 ends the hand (§ 581.7(j)(1)), nothing is left to decide.
    _refused("581.7(h)(2)", seat(DOUBLE_ATTACK_581, "6c", "9h 3d").hit().card(C("9c")).surrender)


@pytest.mark.parametrize("rules", [FREE_BET_590, DOUBLE_BACK_JACK_591])
def test_590_591_9_a_surrender_only_before_any_other_decision(rules):
    assert seat(rules, "6c", "9h 7d").surrender().finished
    _refused(f"{rules.chapter}.9(a)", seat(rules, "6c", "9h 3d").hit().card(C("2c")).surrender)
    _refused(f"{rules.chapter}.9(a)", seat(rules, "6c", "8h 8d").split(
        0 if rules.free_bet else 1_000).card(C("2c")).surrender)  # fmt: skip


# ---- Second Chance (§ 591.7(l)) --------------------------------------------------------


def test_591_7_l_a_busted_hand_buys_one_card_for_its_current_wager():
    hands = seat(DOUBLE_BACK_JACK_591, "6c", "Kh 6d").hit().card(C("9c"))  # 25
    assert not hands.finished
    _refused("591.7(l)", hands.second_chance, 500)
    hands = hands.second_chance(1_000)
    _refused("591.7(i)", hands.second_chance, 1_000)  # the card is due first
    hands = hands.card(C("5h"))
    assert hands.finished and hands.hands[0].stake(SECOND_CHANCE) == 1_000
    _refused("591.7(l)", seat(DOUBLE_BACK_JACK_591, "6c", "Kh 6d").second_chance, 1_000)


def test_591_7_l_after_a_double_the_current_wager_includes_the_double():
    hands = seat(DOUBLE_BACK_JACK_591, "6c", "6h 6d").double(1_000).card(C("Kc"))  # 22
    assert hands.can_second_chance(2_000) and not hands.can_second_chance(1_000)
    no = dataclasses.replace(DOUBLE_BACK_JACK_591, second_chance_after_double=False)
    assert SeatHands.dealt(no, C("6c"), parse_cards("6h 6d"), 1_000).double(1_000).card(
        C("Kc")).finished  # fmt: skip


def test_591_7_l_a_soft_ace_never_revives_after_the_subtraction():
    """Busted totals are hard and at least 22; less at most 10 is at least 12: an ace as 11
    would bust again, so the chapter's silence about it changes nothing."""
    for busted in range(22, 31):
        for taken in range(1, 11):
            assert busted - taken + 10 > 21 or busted - taken >= 12


def test_591_7_i_no_card_unless_asked():
    _refused("591.7(i)", seat(DOUBLE_BACK_JACK_591, "6c", "9h 3d").card, C("2c"))


# ---- settlement, Double Attack (§ 581.7(o), 9, 10, 11, 12) ------------------------------


def test_581_7_h_1_a_blackjack_pays_even_money_on_bet_and_double_attack():
    hands = seat(DOUBLE_ATTACK_581, "6c", "Ah Kd", bet=1_000, attack=600)
    assert results(hands, "6c 9d 4s") == [
        (1, BET, W, 1_000, 0, "581.7(h)(1)"), (1, DOUBLE_ATTACK, W, 600, 0, "581.7(h)(1)")]


def test_581_7_o_2_a_dealer_blackjack_takes_the_bet_and_returns_the_double_attack():
    hands = seat(DOUBLE_ATTACK_581, "Kc", "9h 8d", bet=1_000, attack=600)
    assert results(hands.stand(), "Kc Ad") == [
        (1, BET, L, 0, 1_000, "581.7(o)(1)(ii)(A)"), (1, DOUBLE_ATTACK, R, 0, 0, "581.7(o)(2)")]
    both = seat(DOUBLE_ATTACK_581, "Kc", "Ah Kd", bet=1_000, attack=600)
    assert {row[2] for row in results(both, "Kc Ad")} == {P}


def test_581_10_b_11_d_a_dealer_blackjack_after_a_double_or_split_takes_only_the_bet():
    doubled = seat(DOUBLE_ATTACK_581, "Kc", "6h 4d", bet=1_000, attack=500).double(1_500)
    doubled = doubled.card(C("9c")).stand()
    assert results(doubled, "Kc Ad") == [
        (1, BET, L, 0, 1_000, "581.7(o)(1)(ii)(A)"), (1, DOUBLE_ATTACK, R, 0, 0, "581.7(o)(2)"),
        (1, DOUBLE_DOWN, R, 0, 0, "581.10(b)")]  # fmt: skip
    split = seat(DOUBLE_ATTACK_581, "Kc", "8h 8d", bet=1_000).split(1_000).card(C("9c")).stand()
    split = split.card(C("Jc")).stand()
    assert results(split, "Kc Ad") == [(1, BET, L, 0, 1_000, "581.7(o)(1)(ii)(A)"),
                                       (2, SPLIT, R, 0, 0, "581.11(d)")]  # fmt: skip


def test_581_7_o_1_i_c_a_blackjack_beats_a_dealer_21_of_more_cards():
    hands = seat(DOUBLE_ATTACK_581, "6c", "Ah Kd")
    assert results(hands, "6c 5d Kh")[0][2] is W
    twenty_one = seat(DOUBLE_ATTACK_581, "6c", "7h 4d").hit().card(C("Kc"))
    assert results(twenty_one, "6c 5d Kh")[0][2:4] == (P, 0)  # § 581.7(o)(1)(iii)


def test_581_7_o_win_lose_and_tie_at_1_to_1():
    assert results(seat(DOUBLE_ATTACK_581, "6c", "Kh 9d").stand(), "6c Jd")[0][2:6] == (
        W, 1_000, 0, "581.7(o)(1)(i)")  # fmt: skip
    assert results(seat(DOUBLE_ATTACK_581, "6c", "Kh 7d").stand(), "6c Jd 2s")[0][2:6] == (
        L, 0, 1_000, "581.7(o)(1)(ii)")  # fmt: skip
    assert results(seat(DOUBLE_ATTACK_581, "6c", "Kh 8d").stand(), "6c Jd 2s")[0][2] is P


def test_581_7_o_1_ii_b_a_bust_against_a_dealer_bust_is_a_reading():
    busted = seat(DOUBLE_ATTACK_581, "6c", "Kh 6d").hit().card(C("9c"))
    lost = settle_seat(busted, parse_cards("6c Jd 8s"), DOWN)[0]
    assert (lost.outcome, lost.readings) == (L, (("bust_against_bust", "player_loses"),))
    literal = dataclasses.replace(DOUBLE_ATTACK_581, bust_against_bust=BustAgainstBust.PUSH)
    pushed = SeatHands.dealt(literal, C("6c"), parse_cards("Kh 6d"), 1_000).hit().card(C("9c"))
    assert settle_seat(pushed, parse_cards("6c Jd 8s"), DOWN)[0].outcome is P
    assert results(busted, "6c Jd 2s")[0][2] is L  # against 18: no reading needed


def test_581_9_b_1_surrender_gives_up_half_the_bet_and_double_attack():
    hands = seat(DOUBLE_ATTACK_581, "6c", "Kh 6d", bet=1_001, attack=500).surrender()
    assert results(hands, "6c Jd") == [(1, BET, F, 0, 501, "581.9(b)(1)"),
                                       (1, DOUBLE_ATTACK, F, 0, 250, "581.9(b)(1)")]  # fmt: skip
    assert results(hands, "6c Jd", ROUND_HALF_UP_TO_CENT)[0][4] == 500


def test_581_9_b_2_i_a_surrender_against_a_dealer_blackjack_keeps_only_the_double_attack():
    hands = seat(DOUBLE_ATTACK_581, "Kc", "Kh 6d", bet=1_000, attack=500).surrender()
    assert results(hands, "Kc Ad") == [(1, BET, L, 0, 1_000, "581.9(b)(2)(i)"),
                                       (1, DOUBLE_ATTACK, R, 0, 0, "581.9(b)(2)(i)")]  # fmt: skip


def test_581_9_surrender_after_a_double_halves_the_double_by_default():
    hands = seat(DOUBLE_ATTACK_581, "Tc", "6h 5d", bet=1_000).double(1_000).card(C("2c"))
    hands = hands.surrender()
    rows = settle_seat(hands, parse_cards("Tc 9d"), DOWN)
    assert [(r.wager, r.collected_cents, r.readings) for r in rows] == [
        (BET, 500, ()), (DOUBLE_DOWN, 500, (("surrender_added_money", "half"),))]
    for option, collected in ((SurrenderAddedMoney.RETURNED, 0),
                              (SurrenderAddedMoney.FORFEITED, 1_000)):  # fmt: skip
        rules = dataclasses.replace(DOUBLE_ATTACK_581, surrender_added_money=option)
        other = SeatHands.dealt(rules, C("Tc"), parse_cards("6h 5d"), 1_000).double(1_000)
        other = other.card(C("2c")).surrender()
        assert settle_seat(other, parse_cards("Tc 9d"), DOWN)[1].collected_cents == collected


@pytest.mark.parametrize(("dealer", "paid", "line"), [
    ("8h 8h 8h", 20_000, "8, 8, 8 of the same suit"),
    ("8h 8d 8h", 5_000, "8, 8, 8 of the same color"),
    ("8h 8c 8h", 800, "Third card drawn is a 8"),
    ("9c 7d 6s", 1_500, "Third card drawn is a 6"),
    ("6c Jd Kd", 300, "Third card drawn is a King, queen or jack"),
])  # fmt: skip
def test_581_12_c_bust_it_pays_on_the_dealers_third_card(dealer, paid, line):
    result = settle_bust_it(DOUBLE_ATTACK_581, 100, parse_cards(dealer), DOWN)
    assert (result.outcome, result.paid_cents, result.pay_line, result.section) == (
        W, paid, line, "581.12(c)")  # fmt: skip


def test_581_7_m_bust_it_loses_on_17_or_more_or_a_third_card_that_does_not_bust():
    assert settle_bust_it(DOUBLE_ATTACK_581, 100, parse_cards("Kc 7d"), DOWN).section == (
        "581.7(m)(1)")  # fmt: skip
    lost = settle_bust_it(DOUBLE_ATTACK_581, 100, parse_cards("Kc 4d 5s 9h"), DOWN)
    assert (lost.outcome, lost.collected_cents, lost.section) == (L, 100, "581.7(m)(2)(ii)")


# ---- settlement, Free Bet (§ 590.7(g)-(q), § 590.12) -----------------------------------


def test_590_12_a_a_blackjack_pays_3_to_2_and_pushes_a_dealer_blackjack():
    assert results(seat(FREE_BET_590, "6c", "Ah Kd", bet=1_001), "6c Td 5s")[0][3] == 1_501
    assert results(seat(FREE_BET_590, "Ac", "Ah Kd"), "Ac Td")[0][2::3] == (P, "590.7(g)(1)")
    assert results(seat(FREE_BET_590, "Ac", "9h 9d").stand(), "Ac Td")[0][2:6] == (
        L, 0, 1_000, "590.7(g)(2)")  # fmt: skip


def test_590_7_o_a_winning_lammer_is_paid_1_to_1_in_money():
    hands = seat(FREE_BET_590, "6c", "6h 4d").double(0).card(C("Kc"))  # 20
    assert results(hands, "6c Td 2s") == [
        (1, BLACKJACK_WAGER, W, 1_000, 0, "590.7(o)"), (1, FREE_DOUBLE_LAMMER, W, 1_000, 0,
                                                        "590.7(o)")]  # fmt: skip


def test_590_7_n_1_a_dealer_22_pushes_the_wager_and_collects_the_lammers_for_no_money():
    hands = seat(FREE_BET_590, "6c", "8h 8d").split(0).card(C("Tc")).stand().card(C("9s"))
    hands = hands.stand()
    rows = settle_seat(hands, parse_cards("6c 6d Tc"), DOWN)
    assert [(r.wager, r.outcome, r.collected_cents, r.marker) for r in rows] == [
        (BLACKJACK_WAGER, P, 0, False), (FREE_SPLIT_LAMMER, L, 0, True)]
    assert {r.section for r in rows} == {"590.7(n)(1)"}


def test_590_7_p_q_a_tie_collects_the_lammer_and_a_loss_collects_everything():
    hands = seat(FREE_BET_590, "6c", "6h 4d").double(0).card(C("9c"))  # 19
    assert results(hands, "6c 4d 9s") == [(1, BLACKJACK_WAGER, P, 0, 0, "590.7(p)"),
                                          (1, FREE_DOUBLE_LAMMER, L, 0, 0, "590.7(p)")]
    assert results(hands, "6c 4d Ts") == [(1, BLACKJACK_WAGER, L, 0, 1_000, "590.7(q)"),
                                          (1, FREE_DOUBLE_LAMMER, L, 0, 0, "590.7(q)")]


@pytest.mark.parametrize(("table", "dealer", "paid", "line"), [
    ("A", "6h 6h Th", 5_000, "Same suit 22"),
    ("A", "6h 6d Th", 2_000, "Same color 22"),
    ("A", "6h 6c Th", 800, "Other 22"),
    ("B", "6h 6c Th", 700, "Other 22"),
])  # fmt: skip
def test_590_12_c_push_22_paytables(table, dealer, paid, line):
    rules = dataclasses.replace(FREE_BET_590, push_22_table=table)
    result = settle_push_22(rules, 100, parse_cards(dealer), DOWN)
    assert (result.paid_cents, result.pay_line, result.section) == (paid, line, "590.12(c)")


def test_590_7_g_n_2_push_22_loses_to_a_dealer_blackjack_or_any_other_total():
    assert settle_push_22(FREE_BET_590, 100, parse_cards("Ah Kh"), DOWN).section == "590.7(g)(2)"
    assert settle_push_22(FREE_BET_590, 100, parse_cards("Th 6h 7h"), DOWN).section == (
        "590.7(n)(2)")  # fmt: skip


def test_590_9_a_2_a_surrender_against_a_dealer_blackjack_loses_the_whole_wager():
    hands = seat(FREE_BET_590, "Tc", "Th 6d").surrender()
    assert results(hands, "Tc Ad")[0][2:6] == (L, 0, 1_000, "590.9(a)(2)")
    assert results(hands, "Tc 9d")[0][2:6] == (F, 0, 500, "590.9(a)(1)")


# ---- settlement, Double Back Jack (§ 591.7(f)-(s), § 591.12) ----------------------------


def test_591_7_f_a_blackjack_is_paid_2_to_1_before_the_peek():
    assert results(seat(DOUBLE_BACK_JACK_591, "Ac", "Ah Kd"), "Ac Td")[0][2:6] == (
        W, 2_000, 0, "591.7(f)")  # fmt: skip


def test_591_7_h_a_dealer_blackjack_collects_the_other_wagers():
    assert results(seat(DOUBLE_BACK_JACK_591, "Ac", "9h 8d").stand(), "Ac Td")[0][2::3] == (
        L, "591.7(h)")  # fmt: skip


def test_591_7_m_a_21_is_paid_at_once_whatever_the_dealer_makes():
    hands = seat(DOUBLE_BACK_JACK_591, "6c", "7h 4d").hit().card(C("Kc"))
    assert results(hands, "6c 5d Kh")[0][2:6] == (W, 1_000, 0, "591.7(m)")


def test_591_11_b_an_ace_and_ten_on_a_split_hand_is_paid_as_21():
    hands = seat(DOUBLE_BACK_JACK_591, "6c", "Ah Ad").split(1_000).card(C("Kc"))
    hands = hands.card(C("7c")).stand()
    rows = settle_seat(hands, parse_cards("6c Td 5s"), DOWN)
    assert (rows[0].paid_cents, rows[0].section, rows[0].readings) == (
        1_000, "591.11(b)", (("split_twenty_one", "twenty_one"),))  # fmt: skip


@pytest.mark.parametrize(("taken", "dealer", "blackjack_wager", "second_chance", "section"), [
    ("Th", "6c Td", L, L, "591.7(s)(3)"),  # 25 - 10 = 15 against 16
    ("4h", "6c Td", P, W, "591.7(l)(2)"),  # 21, paid at once
    ("5h", "6c Td 3s", P, W, "591.7(s)(1)(i)"),  # 20 against 19
    ("5h", "6c Td 4s", P, P, "591.7(s)(2)"),  # 20 against 20
    ("5h", "6c Td 6s", P, P, "591.7(q)(1)"),  # a dealer 22
    ("5h", "6c Td 7s", P, W, "591.7(s)(1)(i)"),  # a dealer 23
    ("Ah", "6c Td", L, L, "591.7(l)(1)"),  # an ace counts one: 24
])  # fmt: skip
def test_591_7_l_the_second_chance_card_is_subtracted_and_settled(
    taken, dealer, blackjack_wager, second_chance, section
):
    hands = seat(DOUBLE_BACK_JACK_591, "6c", "Kh 6d").hit().card(C("9c"))  # 25
    hands = hands.second_chance(1_000).card(C(taken))
    rows = settle_seat(hands, parse_cards(dealer), DOWN)
    assert [(r.wager, r.outcome) for r in rows] == [
        (BLACKJACK_WAGER, blackjack_wager), (SECOND_CHANCE, second_chance)]
    assert {r.section for r in rows} == {section}
    assert rows[0].paid_cents == 0  # § 591.7(s)(1)(i): the Blackjack Wager is only returned
    assert rows[1].paid_cents == (1_000 if second_chance is W else 0)  # § 591.12(b) 1 to 1


def test_591_7_q_1_a_dealer_22_returns_the_remaining_wagers():
    assert results(seat(DOUBLE_BACK_JACK_591, "6c", "Th 8d").stand(), "6c 6d Ts")[0][2::3] == (
        P, "591.7(q)(1)")  # fmt: skip
    assert results(seat(DOUBLE_BACK_JACK_591, "6c", "Th 8d").stand(), "6c 6d Ks 2c")[0][2:4] == (
        W, 1_000)  # fmt: skip


# ---- properties -------------------------------------------------------------------------


def _play(rules, rng: random.Random, deck: list[Card]) -> SeatHands:
    """Random legal decisions until the seat is finished (each step a legal action)."""
    hands = SeatHands.dealt(rules, deck.pop(), [deck.pop(), deck.pop()], 1_000,
                            500 if rules.chapter == "581" else 0)  # fmt: skip
    for _step in range(60):
        if hands.finished:
            return hands
        if hands.can_card():
            hands = hands.card(deck.pop())
            continue
        options: list[tuple[str, tuple[int, ...]]] = [("stand", ())]
        if hands.can_hit():
            options.append(("hit", ()))
        if hands.can_surrender():
            options.append(("surrender", ()))
        for amount in (0, 1_000, 1_500):
            options += [(name, (amount,)) for name in ("double", "split")
                        if getattr(hands, f"can_{name}")(amount)]  # fmt: skip
        if hands.can_second_chance(hands.hand.money_cents):
            options.append(("second_chance", (hands.hand.money_cents,)))
        name, arguments = rng.choice(options)
        hands = getattr(hands, name)(*arguments)
    raise AssertionError("a seat did not finish within 60 steps")


@SETTINGS
@given(
    seed=st.integers(min_value=0, max_value=2**32 - 1),
    rules=st.sampled_from([DOUBLE_ATTACK_581, FREE_BET_590, DOUBLE_BACK_JACK_591]),
)
def test_every_legal_play_finishes_and_settles_with_markers_moving_no_money_in(seed, rules):
    """§ 590.7(n)-(q): lammers are never collected as money; every wager is settled once."""
    rng = random.Random(seed)
    deck = [card for card in STANDARD_DECK
            if not (rules.chapter == "581" and card.rank is Rank.TEN)] * 2  # fmt: skip
    rng.shuffle(deck)
    hands = _play(rules, rng, deck)
    assert len(hands.hands) <= rules.max_hands
    dealer = dealer_draws(rules, [hands.up_card, deck.pop()], reversed(deck))
    rows = settle_seat(hands, dealer, DOWN)
    assert len(rows) == sum(len(hand.stakes) for hand in hands.hands)
    for row in rows:
        assert row.paid_cents >= 0 and 0 <= row.collected_cents <= row.stake_cents
        assert not (row.paid_cents and row.collected_cents)
        if row.marker:
            assert row.collected_cents == 0
        assert row.section.startswith(rules.chapter + ".")


# ---- more hands and readings ------------------------------------------------------------


def test_581_10_a_a_split_hand_doubles_and_each_hand_settles_on_its_own():
    hands = seat(DOUBLE_ATTACK_581, "6c", "8h 8d", bet=1_000, attack=500).split(1_500)
    hands = hands.card(C("3c")).double(1_500).card(C("9s")).stand()  # 20
    hands = hands.card(C("Kc")).stand()  # 18
    assert results(hands, "6c Jd 3s") == [
        (1, BET, W, 1_000, 0, "581.7(o)(1)(i)"), (1, DOUBLE_ATTACK, W, 500, 0, "581.7(o)(1)(i)"),
        (1, DOUBLE_DOWN, W, 1_500, 0, "581.7(o)(1)(i)"), (2, SPLIT, L, 0, 1_500, "581.7(o)(1)(ii)"),
    ]  # fmt: skip


def test_590_11_b_2_ii_the_lammer_is_the_second_hands_wager_and_is_paid_in_money():
    hands = seat(FREE_BET_590, "6c", "9h 9d").split(0).card(C("Tc")).stand()  # 19
    hands = hands.card(C("Kc")).stand()  # 19
    assert results(hands, "6c Jd 2s") == [(1, BLACKJACK_WAGER, W, 1_000, 0, "590.7(o)"),
                                          (2, FREE_SPLIT_LAMMER, W, 1_000, 0, "590.7(o)")]


def test_590_10_a_2_a_paid_double_is_settled_like_the_wager():
    hands = seat(FREE_BET_590, "6c", "Ah 6d").double(1_000).card(C("3c"))  # soft 20
    assert results(hands, "6c Jd 2s") == [(1, BLACKJACK_WAGER, W, 1_000, 0, "590.7(o)"),
                                          (1, DOUBLE_DOWN, W, 1_000, 0, "590.7(o)")]


def test_590_7_q_1_a_bust_loses_to_a_dealer_21_or_less():
    hands = seat(FREE_BET_590, "6c", "Kh 6d").hit().card(C("9c"))
    assert results(hands, "6c Jd 2s")[0][2::3] == (L, "590.7(q)(1)")


@pytest.mark.parametrize(("option", "outcome"), [(BustAgainstBust.PLAYER_LOSES, L),
                                                 (BustAgainstBust.PUSH, P)])  # fmt: skip
def test_590_7_n_1_a_bust_against_a_dealer_22_is_a_reading(option, outcome):
    rules = dataclasses.replace(FREE_BET_590, bust_against_bust=option)
    hands = SeatHands.dealt(rules, C("6c"), parse_cards("8h 8d"), 1_000).split(0)
    hands = hands.card(C("6s")).hit().card(C("Kd")).card(C("Jd")).stand()  # 24, then 18
    rows = settle_seat(hands, parse_cards("6c 6d Ts"), DOWN)
    assert (rows[0].outcome, rows[0].readings) == (outcome, (("bust_against_bust", option),))
    assert (rows[1].wager, rows[1].outcome, rows[1].collected_cents) == (FREE_SPLIT_LAMMER, L, 0)


def test_591_7_r_3_a_bust_without_second_chance_against_a_dealer_23():
    hands = seat(DOUBLE_BACK_JACK_591, "6c", "Kh 6d").hit().card(C("9c")).stand()
    row = settle_seat(hands, parse_cards("6c Td 7s"), DOWN)[0]
    assert (row.outcome, row.section, row.readings) == (
        L, "591.7(r)(3)(i)", (("bust_against_bust", "player_loses"),))  # fmt: skip


def test_591_7_l_second_chance_on_a_split_hand_is_a_reading():
    hands = seat(DOUBLE_BACK_JACK_591, "6c", "8h 8d").split(1_000).card(C("6s")).hit()
    hands = hands.card(C("Kd"))  # 24
    assert hands.can_second_chance(1_000)
    no = dataclasses.replace(DOUBLE_BACK_JACK_591, second_chance_on_split=False)
    other = SeatHands.dealt(no, C("6c"), parse_cards("8h 8d"), 1_000).split(1_000)
    assert other.card(C("6s")).hit().card(C("Kd")).active == 1


def test_590_11_split_aces_play_on_unless_the_rule_set_says_one_card():
    hands = seat(FREE_BET_590, "6c", "Ah Ad").split(0).card(C("2c"))
    assert hands.can_hit() and hands.can_split(0) is False
    assert seat(FREE_BET_590, "6c", "Ah Ad").split(0).card(C("As")).can_split(0)
    one = dataclasses.replace(FREE_BET_590, split_aces_one_card=True)
    hands = SeatHands.dealt(one, C("6c"), parse_cards("Ah Ad"), 1_000).split(0).card(C("2c"))
    assert hands.active == 1


def test_581_8_b_insurance_needs_an_amount():
    assert verify_insurance(DOUBLE_ATTACK_581, C("Ah"), 2_500, 0).field == "amount_cents"


def test_every_rule_set_records_its_readings():
    assert dict(DOUBLE_ATTACK_581.readings) == {
        "soft_17": "stand", "bust_against_bust": "player_loses",
        "split_twenty_one": "twenty_one", "split_aces_one_card": "true",
        "surrender_added_money": "half", "surrender_timing": "after_peek",
        "second_chance_after_double": "true",
        "second_chance_on_split": "true", "push_22_table": "A",
    }  # fmt: skip


def test_590_7_m_the_dealer_stops_once_every_hand_is_decided():
    busted = seat(FREE_BET_590, "6c", "Kh 6d").hit().card(C("9c"))
    assert not busted.awaits_dealer
    assert verify_dealer_stand(FREE_BET_590, parse_cards("6c Td"),
                               outcome_open=busted.awaits_dealer) is None  # fmt: skip
    assert seat(FREE_BET_590, "6c", "Kh 6d").stand().awaits_dealer
    assert not seat(FREE_BET_590, "6c", "Kh 6d").surrender().awaits_dealer
    literal = dataclasses.replace(FREE_BET_590, bust_against_bust=BustAgainstBust.PUSH)
    assert SeatHands.dealt(literal, C("6c"), parse_cards("Kh 6d"), 1_000).hit().card(
        C("9c")).awaits_dealer  # a dealer bust would push it  # fmt: skip


def test_591_7_p_a_21_or_a_decided_second_chance_no_longer_waits_for_the_dealer():
    assert not seat(DOUBLE_BACK_JACK_591, "6c", "7h 4d").hit().card(C("Kc")).awaits_dealer
    bought = seat(DOUBLE_BACK_JACK_591, "6c", "Kh 6d").hit().card(C("9c")).second_chance(1_000)
    assert not bought.card(C("4h")).awaits_dealer  # 21: paid at once, § 591.7(l)(2)
    assert not bought.card(C("Ah")).awaits_dealer  # 24: lost, § 591.7(l)(1)
    assert bought.card(C("5h")).awaits_dealer  # 20: § 591.7(l)(3)


def test_581_3_a_590_3_a_the_rule_set_names_its_batch():
    assert DOUBLE_ATTACK_581.shoe().size == 384
    assert dataclasses.replace(FREE_BET_590, decks=2, two_batches=True).shoe().two_batches
    with pytest.raises(RuleViolation) as caught:
        dataclasses.replace(DOUBLE_BACK_JACK_591, decks=0).shoe()
    assert caught.value.section == "591.3(a)"


def test_581_13_h_a_needless_peek_voids_the_round_only_if_players_could_learn_the_card():
    refusal = verify_reader_use(DOUBLE_ATTACK_581, C("9c"), players_could_learn=True)
    assert refusal is not None and refusal.section == "581.13(h)(1)"
    assert verify_reader_use(DOUBLE_ATTACK_581, C("9c"), players_could_learn=False) is None
    assert verify_reader_use(DOUBLE_ATTACK_581, C("Kc"), players_could_learn=True) is None
    # § 590.13(i), § 591.13(i): play continues
    assert verify_reader_use(FREE_BET_590, C("9c"), players_could_learn=True) is None


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(min_value=0, max_value=2**32 - 1),
    rules=st.sampled_from([DOUBLE_ATTACK_581, FREE_BET_590, DOUBLE_BACK_JACK_591]),
    decks=st.integers(min_value=1, max_value=2),
)
def test_a_shoe_deals_round_after_round_until_its_cover_card_and_keeps_every_card(
    seed, rules, decks
):
    """§ 5xx.7(c)-(d), § 5xx.13(e)/(f) with whole rounds: every card a seat or the dealer
    holds came out of the shoe, and the shoe ends due a reshuffle with every card found."""
    rng = random.Random(seed)
    rules = dataclasses.replace(rules, decks=decks if rules.chapter != "581" else 8)
    spec = rules.shoe()
    order = [card for card in STANDARD_DECK for _ in range(spec.composition[card.index])]
    rng.shuffle(order)
    shoe = Shoe.opened(spec).shuffle(order).cut(cut_at=10, cover_at=spec.size * 3 // 4).burn()

    def take():
        nonlocal shoe
        if not shoe.cards_left:  # § 581.13(e) and siblings
            shoe = shoe.reshuffle_discards().shuffle().cut(cut_at=10, cover_at=10).burn()
        card = shoe.next_card or next(c for c in STANDARD_DECK if shoe.unaccounted[c.index])
        shoe = shoe.draw(card)
        return card

    rounds = 0
    while shoe.phase is ShoePhase.DEALING:
        shoe = shoe.begin_round()
        up = take()
            # At most three seats: a round short of cards then leaves at least the 20
        # cards in the rack that a cut ten from the top and bottom needs (§ 5xx.5(d)).
        seats = [[take(), take()] for _ in range(rng.randint(1, 3))]
        hole = take()
        played = []
        for cards in seats:
            hands = SeatHands.dealt(rules, up, cards, 1_000)
            while not hands.finished:
                if hands.can_card():
                    hands = hands.card(take())
                elif hands.hand.value.total < 15 and hands.can_hit():
                    hands = hands.hit()
                else:
                    hands = hands.stand()
            played.append(hands)
        dealer = [up, hole]
        while dealer_must_draw(rules, dealer):
            dealer.append(take())
        held = sum(len(hand.cards) for hands in played for hand in hands.hands) + len(dealer)
        assert sum(shoe.on_table) == held
        for hands in played:
            settle_seat(hands, dealer, DOWN)
        shoe = shoe.end_round()
        rounds += 1
    assert shoe.phase is ShoePhase.RESHUFFLE_DUE and rounds >= 1
    found = tuple(a + b for a, b in zip(shoe.unaccounted, shoe.discard, strict=True))
    assert found == spec.composition
