"""Hold'em (§ 553.11): button, blinds, dealing, betting structures, pots and showdown."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tables.rules.cards import Card
from tables.rules.engine import RuleViolation
from tables.rules.poker_room.charges import PercentageRake
from tables.rules.poker_room.hand import (
    Phase,
    bet_or_raise_to,
    check_or_call,
    deal,
    fold,
    muck,
    open_hand,
    show,
    verify_bet_or_raise_to,
    verify_burn,
    verify_check_or_call,
    verify_deal,
    verify_muck,
)
from tables.rules.poker_room.rules import (
    HOLDEM,
    OMAHA_HI_LO_8,
    Kill,
    KillOption,
    PokerRuleSet,
    Structure,
)
from tables.rules.poker_room.settlement import LineKind, settle
from tests.rules.poker_room.table import deal_all, holdem_deck, stacked


def _rules(structure: Structure = Structure.NO_LIMIT, **options: object) -> PokerRuleSet:
    return PokerRuleSet(
        variant=HOLDEM, structure=structure, small_bet_cents=200, big_bet_cents=400,
        blinds_cents=(100, 200), **options,  # type: ignore[arg-type]
    )  # fmt: skip


def _check_down(state, deck):
    """Every remaining street checked (or called) around until the showdown."""
    state = deal_all(state, deck)
    while state.phase is Phase.BETTING:
        state = deal_all(check_or_call(state, state.to_act[0]), deck)
    return state


def test_553_11_d_the_blinds_are_posted_left_of_the_button():
    state = deal_all(open_hand(_rules(), {2: 5_000, 5: 5_000, 7: 5_000}, button=5), stacked(""))
    assert state.bets == {7: 100, 2: 200}
    assert state.contributed == {2: 200, 5: 0, 7: 100}


def test_553_11_e_cards_are_dealt_from_the_left_of_the_button_the_button_last():
    state = open_hand(_rules(), {2: 5_000, 5: 5_000, 7: 5_000}, button=5)
    state = deal_all(state, stacked(""))  # the blinds post; the first card is due
    assert [slot.seat for slot in state.deals] == [7, 2, 5, 7, 2, 5]
    refusal = verify_deal(state, Card.parse("Ah"), 2, face_up=False)
    assert refusal is not None and refusal.section == "553.11(e)"
    refusal = verify_deal(state, Card.parse("Ah"), 7, face_up=True)
    assert refusal is not None and refusal.field == "face_up"


def test_553_16_g_a_card_dealt_twice_is_refused():
    state = deal_all(open_hand(_rules(), {1: 5_000, 2: 5_000}, button=2), stacked(""))
    state = deal(state, Card.parse("Ah"), 1, face_up=False)
    refusal = verify_deal(state, Card.parse("Ah"), 2, face_up=False)
    assert refusal is not None and refusal.section == "553.16(g)"
    with pytest.raises(RuleViolation, match="553.16"):
        deal(state, Card.parse("Ah"), 2, face_up=False)


def test_553_7_e_3_the_flop_is_preceded_by_a_burn_card():
    state = deal_all(open_hand(_rules(), {1: 5_000, 2: 5_000}, button=2), stacked("AhKh AdKd"))
    # Heads-up the chapter still puts the first blind left of the button (§ 553.11(d)).
    state = check_or_call(state, 1)  # the small blind calls
    state = check_or_call(state, 2)  # the big blind checks its option
    assert state.deals[0].burn
    assert verify_deal(state, Card.parse("Qs"), None, face_up=True).section == "553.7(e)(3)"
    assert verify_burn(state, Card.parse("Qs")) is None


def test_553_11_f_acting_out_of_turn_is_refused_and_the_big_blind_keeps_its_option():
    deck = stacked("AhKh QdQc 9s9c")
    state = deal_all(open_hand(_rules(), {1: 5_000, 2: 5_000, 3: 5_000}, button=3), deck)
    assert state.to_act == (3, 1, 2)
    refusal = verify_check_or_call(state, 2)
    assert refusal is not None and refusal.section == "553.11(f)"
    state = check_or_call(check_or_call(state, 3), 1)
    assert state.to_act == (
        2,
    )  # "The option to raise shall also apply to a player who made a Blind Bet."
    assert verify_bet_or_raise_to(state, 2, 600) is None


def test_553_11_g_after_the_flop_the_first_player_left_of_the_button_opens():
    deck = stacked("AhKh QdQc 9s9c 3c 4h5h6h")
    state = deal_all(open_hand(_rules(), {1: 5_000, 2: 5_000, 3: 5_000}, button=3), deck)
    state = fold(state, 3)
    state = deal_all(check_or_call(check_or_call(state, 1), 2), deck)
    assert state.street.name == "flop" and state.to_act == (1, 2)
    assert verify_check_or_call(state, 2).section == "553.11(g)"


def test_553_18_a_raise_below_the_minimum_is_refused_in_no_limit():
    state = deal_all(
        open_hand(_rules(), {1: 5_000, 2: 5_000, 3: 5_000}, button=3), stacked("AhKh QdQc 9s9c")
    )
    assert verify_bet_or_raise_to(state, 3, 300).section == "553.18"
    state = bet_or_raise_to(state, 3, 700)  # a raise of 500
    refusal = verify_bet_or_raise_to(state, 1, 1_100)
    assert refusal is not None and refusal.reason == "the smallest raise is to 1200"
    assert verify_bet_or_raise_to(state, 1, 1_200) is None


def test_553_18_limit_bets_are_the_posted_sizes_and_raises_are_capped():
    deck = stacked("AhKh QdQc 9s9c")
    state = deal_all(
        open_hand(_rules(Structure.LIMIT), {1: 9_000, 2: 9_000, 3: 9_000}, button=3), deck
    )
    assert verify_bet_or_raise_to(state, 3, 600).reason == "the limit is a raise to 400"
    state = bet_or_raise_to(state, 3, 400)  # raise 1
    state = bet_or_raise_to(state, 1, 600)  # raise 2
    state = bet_or_raise_to(state, 2, 800)  # raise 3: the posted cap
    refusal = verify_bet_or_raise_to(state, 3, 1_000)
    assert refusal is not None and refusal.section == "553.18" and "cap of 3" in refusal.reason
    assert verify_check_or_call(state, 3) is None


def test_553_18_pot_limit_raises_at_most_the_pot_after_the_call():
    rules = _rules(Structure.POT_LIMIT)
    state = deal_all(
        open_hand(rules, {1: 9_000, 2: 9_000, 3: 9_000}, button=3), stacked("AhKh QdQc 9s9c")
    )
    # Pot 300; calling 200 makes it 500; the raise may be 500 more: to 700.
    assert verify_bet_or_raise_to(state, 3, 800).reason == "the limit is a raise to 700"
    assert verify_bet_or_raise_to(state, 3, 700) is None


def test_553_8_b_a_player_wagers_only_his_table_stakes():
    state = deal_all(open_hand(_rules(), {1: 5_000, 2: 800}, button=2), stacked("AhKh QdQc"))
    state = check_or_call(state, 1)
    assert verify_bet_or_raise_to(state, 2, 900).section == "553.8(b)"


def test_553_8_b_3_a_player_needs_the_blind_and_a_minimum_bet_to_play():
    with pytest.raises(RuleViolation, match="553.8"):
        open_hand(_rules(), {1: 5_000, 2: 399}, button=2)


def test_553_8_b_4_an_all_in_player_wins_only_the_pot_he_contributed_to():
    # Seat 1 is all-in for 1,000; seats 2 and 3 bet on into a side pot which seat 3 wins.
    deck = holdem_deck(["AhAd", "KsKd", "QhQd"], "As Ac 7s 8c 9d")
    state = deal_all(open_hand(_rules(), {1: 1_000, 2: 5_000, 3: 5_000}, button=3), deck)
    state = bet_or_raise_to(state, 3, 1_000)
    state = check_or_call(state, 1)  # all-in
    state = check_or_call(state, 2)
    state = deal_all(state, deck)
    state = bet_or_raise_to(state, 2, 1_000)
    state = check_or_call(state, 3)
    state = _check_down(state, deck)
    state = show(show(show(state, 2), 3), 1)
    result = settle(state)
    assert [(pot.amount_cents, pot.eligible) for pot in result.pots] == [
        (3_000, (1, 2, 3)),
        (2_000, (2, 3)),
    ]
    assert result.received(1) == 3_000  # four aces win the main pot only
    assert result.received(2) == 2_000  # kings beat queens for the side pot


def test_553_15_d_the_uncalled_final_bet_is_returned_and_not_raked():
    rake = PercentageRake(rate=Fraction(1, 10), cap_cents=500)
    deck = holdem_deck(["AhAd", "KsKd"], "As Ac 7s 8c 9d")
    state = deal_all(open_hand(_rules(rake=rake), {1: 5_000, 2: 5_000}, button=2), deck)
    state = bet_or_raise_to(state, 1, 3_000)
    state = fold(state, 2)
    assert state.phase is Phase.COMPLETE
    result = settle(state)
    returned = [line for line in result.lines if line.kind is LineKind.RETURNED]
    assert [(line.seat, line.amount_cents, line.section) for line in returned] == [
        (1, 2_800, "553.15(d)")
    ]
    # The pot is the two blinds (400): 10 % is 40.
    assert result.total(LineKind.RAKE) == 40 and result.received(1) == 2_800 + 360


def test_553_15_no_flop_no_drop_when_the_rule_set_says_so():
    rake = PercentageRake(rate=Fraction(1, 10), cap_cents=500, no_flop_no_drop=True)
    state = deal_all(
        open_hand(_rules(rake=rake), {1: 5_000, 2: 5_000}, button=2), stacked("AhKh QdQc")
    )
    result = settle(fold(bet_or_raise_to(state, 1, 600), 2))
    assert result.total(LineKind.RAKE) == 0


def test_553_11_j_when_the_board_plays_every_remaining_player_shares():
    deck = holdem_deck(["3h4d", "5s6d", "7c8d"], "As Ks Qs Js Ts")
    state = _check_down(open_hand(_rules(), {1: 5_000, 2: 5_000, 3: 5_000}, button=3), deck)
    state = show(show(show(state, 1), 2), 3)
    result = settle(state)
    assert {seat: result.received(seat) for seat in (1, 2, 3)} == {1: 200, 2: 200, 3: 200}


def test_553_16_d_the_player_who_made_the_final_wager_shows_first_then_clockwise():
    deck = holdem_deck(["AhAd", "KsKd", "QhQd"], "As Ac 7s 8c 9d")
    state = deal_all(open_hand(_rules(), {1: 5_000, 2: 5_000, 3: 5_000}, button=3), deck)
    state = check_or_call(check_or_call(check_or_call(state, 3), 1), 2)
    state = deal_all(state, deck)
    state = check_or_call(state, 1)
    state = bet_or_raise_to(state, 2, 400)
    state = check_or_call(check_or_call(state, 3), 1)
    state = _check_down(state, deck)
    assert state.phase is Phase.SHOWDOWN and state.showdown_order == (2, 3, 1)
    assert verify_muck(state, 2).reason == "the player who made the final wager shows first"
    with pytest.raises(RuleViolation, match="553.16"):
        show(state, 1)
    state = muck(show(state, 2), 3)  # seat 3 concedes unseen
    result = settle(show(state, 1))
    assert result.received(1) == 1_800


def test_553_16_d_every_hand_is_disclosed_when_the_rules_submission_requires_it():
    deck = holdem_deck(["AhAd", "KsKd"], "As Ac 7s 8c 9d")
    state = _check_down(
        open_hand(_rules(disclose_all_hands=True), {1: 5_000, 2: 5_000}, button=2), deck
    )
    state = show(state, state.showdown_order[0])
    assert verify_muck(state, state.showdown_order[1]).reason.startswith("the rules submission")


def test_553_12_j_2_omaha_hi_lo_splits_and_the_odd_chip_goes_high():
    rules = PokerRuleSet(
        variant=OMAHA_HI_LO_8, structure=Structure.LIMIT, small_bet_cents=200, big_bet_cents=400,
        blinds_cents=(100, 200), ante_cents=50,
    )  # fmt: skip
    deck = stacked("Ac Kh 2c Kd 3d Qh 4d Qd  5c 6c 7h 8h Jd Jc 9c Ts")
    state = deal_all(open_hand(rules, {1: 5_000, 2: 5_000}, button=2), deck)
    state = _check_down(state, deck)
    state = show(show(state, state.showdown_order[0]), state.showdown_order[1])
    result = settle(state)
    # Pot 500: 200 low (whole chips), 300 high with the odd chip (§ 553.12(j)(2)(i)).
    lows = [(line.seat, line.amount_cents) for line in result.lines if line.kind is LineKind.LOW]
    highs = [(line.seat, line.amount_cents) for line in result.lines if line.kind is LineKind.HIGH]
    assert lows == [(1, 200)] and highs == [(2, 300)]
    # A pot split between a high and another player's low ends a Kill (§ 553.1).
    assert result.split_high_low and not result.scooped


def test_553_12_m_the_kill_options_raise_the_limits_after_a_scooped_qualifying_pot():
    kill = Kill(option=KillOption.KILL, qualifying_pot_cents=2_000)
    rules = PokerRuleSet(
        variant=OMAHA_HI_LO_8, structure=Structure.LIMIT, small_bet_cents=200, big_bet_cents=400,
        blinds_cents=(100, 200), kill=kill,
    )  # fmt: skip
    assert (rules.killed().small_bet_cents, rules.killed().big_bet_cents) == (400, 800)
    starts = kill.in_force_next(in_force=False, pot_cents=2_000, scooped=True, split_high_low=False)
    small_pot = kill.in_force_next(
        in_force=True, pot_cents=1_999, scooped=True, split_high_low=False
    )
    split = kill.in_force_next(in_force=True, pot_cents=9_000, scooped=False, split_high_low=True)
    tied = kill.in_force_next(in_force=True, pot_cents=9_000, scooped=False, split_high_low=False)
    assert (starts, small_pot, split, tied) == (True, False, False, True)
    with pytest.raises(ValueError, match="553.12"):
        _rules(kill=kill)


def test_553_8_b_4_iii_no_raise_when_no_other_player_can_call_more():
    state = deal_all(
        open_hand(_rules(), {1: 5_000, 2: 5_000, 3: 600}, button=3), stacked("AhKh QdQc 9s9c")
    )
    state = fold(bet_or_raise_to(state, 3, 600), 1)  # seat 3 is all-in; seat 1 folds
    refusal = verify_bet_or_raise_to(state, 2, 1_200)
    assert refusal is not None and refusal.section == "553.8(b)(4)(iii)"
    assert verify_check_or_call(state, 2) is None


def test_553_18_a_short_all_in_raise_does_not_reopen_the_raising():
    deck = stacked("AhKh QdQc 9s9c 3c 4h5h6h")
    state = deal_all(open_hand(_rules(), {1: 5_000, 2: 5_000, 3: 500}, button=3), deck)
    state = check_or_call(check_or_call(check_or_call(state, 3), 1), 2)
    state = deal_all(state, deck)
    state = check_or_call(bet_or_raise_to(state, 1, 200), 2)
    state = bet_or_raise_to(state, 3, 300)  # all-in: a raise of 100, short of the 200 bet
    refusal = verify_bet_or_raise_to(state, 1, 600)
    assert refusal is not None and refusal.section == "553.18"
    assert refusal.reason == "an all-in below a full raise does not reopen the raising"
    assert verify_check_or_call(state, 1) is None


def test_553_18_a_short_all_in_opening_bet_leaves_the_players_who_checked_free_to_raise():
    deck = stacked("AhKh QdQc 9s9c 3c 4h5h6h 3d 7d")
    state = deal_all(open_hand(_rules(), {1: 5_000, 2: 5_000, 3: 400}, button=3), deck)
    state = _check_down_street(_check_down_street(state, deck), deck)  # pre-flop and flop
    state = check_or_call(check_or_call(state, 1), 2)  # the turn is checked to seat 3 ...
    state = bet_or_raise_to(state, 3, 200)  # ... all-in for less than the 400 bet
    assert verify_bet_or_raise_to(state, 1, 400) is None


def _check_down_street(state, deck):
    street = state.street_index
    while state.phase is Phase.BETTING and state.street_index == street:
        state = check_or_call(state, state.to_act[0])
    return deal_all(state, deck)
