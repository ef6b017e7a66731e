"""Seven-card Stud (§ 553.10) and Five-card Stud (§ 553.14): Forced Bet, openers, split pots."""

from __future__ import annotations

import pytest

from tables.rules.cards import STANDARD_DECK, Card
from tables.rules.engine import RuleViolation
from tables.rules.poker_room.hand import (
    Phase,
    PostKind,
    automate,
    bet_or_raise_to,
    burn,
    check_or_call,
    deal,
    open_hand,
    show,
    verify_bet_or_raise_to,
    verify_deal,
    verify_post,
)
from tables.rules.poker_room.rules import (
    FIVE_CARD_STUD,
    HOLDEM,
    SEVEN_CARD_STUD,
    SEVEN_CARD_STUD_HI_LO,
    SEVEN_CARD_STUD_HI_LO_8,
    PokerRuleSet,
    Structure,
    Variant,
)
from tables.rules.poker_room.settlement import LineKind, settle
from tests.rules.poker_room.table import POSTING, deal_all, stacked


def _rules(variant: Variant = SEVEN_CARD_STUD, **options: object) -> PokerRuleSet:
    values: dict[str, object] = {
        "structure": Structure.LIMIT, "small_bet_cents": 100, "big_bet_cents": 200,
        "ante_cents": 25, "forced_bet_cents": 50, "chip_cents": 25, **options,
    }  # fmt: skip
    return PokerRuleSet(variant=variant, **values)  # type: ignore[arg-type]


def _third_street(variant: Variant, ups: str, seats=(1, 2, 3)):
    downs = " ".join(f"{rank}{suit}" for rank in "JQ" for suit in "cdh"[: len(seats)])
    state = open_hand(_rules(variant), dict.fromkeys(seats, 5_000), button=None)
    return deal_all(state, stacked(f"{downs} {ups}"))


def _play_out(state, deck):
    state = deal_all(state, deck)
    while state.phase is not Phase.SHOWDOWN and state.phase is not Phase.COMPLETE:
        state = deal_all(check_or_call(state, state.to_act[0]), deck)
    return state


def test_553_10_b_the_antes_come_first_from_the_dealers_left():
    state = open_hand(_rules(), {1: 5_000, 4: 5_000}, button=None)
    assert [(owed.seat, owed.kind) for owed in state.posts] == [
        (1, PostKind.ANTE),
        (4, PostKind.ANTE),
    ]
    assert verify_post(state, 4).section == "553.10(b)"


def test_553_10_b_seven_card_stud_seats_at_most_eight():
    with pytest.raises(RuleViolation, match="553.10"):
        open_hand(_rules(), dict.fromkeys(range(1, 10), 5_000), button=None)


def test_553_10_c_two_down_one_up_from_the_dealers_left():
    state = deal_all(open_hand(_rules(), {1: 5_000, 2: 5_000}, button=None), stacked(""))
    assert [(slot.seat, slot.face_up) for slot in state.deals] == [
        (1, False), (2, False), (1, False), (2, False), (1, True), (2, True),
    ]  # fmt: skip
    assert verify_deal(state, Card.parse("Ah"), 1, face_up=True).section == "553.10(c)"


def test_553_10_d_1_the_lowest_up_card_makes_the_forced_bet_suits_breaking_ties():
    state = _third_street(SEVEN_CARD_STUD, "5h 2d 2s")
    assert state.forced_bet_seat == 2  # the two of diamonds is below the two of spades
    assert state.bets == {2: 50}


def test_553_10_d_2_high_low_split_the_highest_up_card_with_the_ace_below_the_two():
    state = _third_street(SEVEN_CARD_STUD_HI_LO, "Kh Ks Ac")
    assert state.forced_bet_seat == 2


def test_553_10_d_3_eight_or_better_the_lowest_up_card_with_the_ace_highest():
    state = _third_street(SEVEN_CARD_STUD_HI_LO_8, "Ac 2h 2c")
    assert state.forced_bet_seat == 3


def test_553_10_e_play_goes_on_clockwise_from_the_forced_bet_which_may_be_completed():
    state = _third_street(SEVEN_CARD_STUD, "5h 2d 2s")
    assert state.to_act == (3, 1) and state.current_bet == 50
    # In limit, a raise of the Forced Bet completes it to the small bet.
    assert verify_bet_or_raise_to(state, 3, 75).reason == "the smallest raise is to 100"
    state = bet_or_raise_to(state, 3, 100)
    assert state.raises == 0  # the completion is the bet, not a raise
    assert state.to_act == (1, 2)


def test_553_10_f_the_highest_hand_showing_opens_ties_to_the_dealers_left():
    state = _third_street(SEVEN_CARD_STUD, "9h 2d 9s")
    state = deal_all(_call_around(state), stacked("3c Th Kh Ts"))  # burn, fourth street
    assert state.to_act[0] == 2  # K-2 showing beats 10-9 twice
    state = _third_street(SEVEN_CARD_STUD, "9h 2d 9s")
    state = deal_all(_call_around(state), stacked("3c Th 4h Ts"))
    assert state.to_act[0] == 1  # 10-9 showing twice: the seat closest to the dealer's left


def _call_around(state):
    state = automate(state, POSTING)
    while state.phase is Phase.BETTING and state.street_index == 0:
        state = check_or_call(state, state.to_act[0])
    return state


def _hi_lo_8_deck():
    # Seat 1: Ah 2h | 3c 4c 8d Kd | Qs: ace high, low 8-4-3-2-A.
    # Seat 2: As 2s | 3d 4d 8h Ks | Kh: a pair of kings, low 8-4-3-2-A.
    return stacked("Ah As 2h 2s 3c 3d  5c 4c 4d  5d 8d 8h  5h Kd Ks  5s Qs Kh")


def test_553_10_i_2_the_pot_is_split_high_and_low_with_the_odd_chip_by_suit():
    state = open_hand(_rules(SEVEN_CARD_STUD_HI_LO_8), {1: 5_000, 2: 5_000}, button=None)
    deck = _hi_lo_8_deck()
    state = _play_out(state, deck)
    assert state.forced_bet_seat == 1  # 3c below 3d
    state = show(show(state, state.showdown_order[0]), state.showdown_order[1])
    result = settle(state)
    # Pot 150: 75 low, 75 high. The low is tied: 75 is three 25c chips, the odd one
    # to the player with the lowest low card by suit (Ah below As) (§ 553.10(i)(2)(iii)).
    lows = {line.seat: line.amount_cents for line in result.lines if line.kind is LineKind.LOW}
    highs = {line.seat: line.amount_cents for line in result.lines if line.kind is LineKind.HIGH}
    assert lows == {1: 50, 2: 25} and highs == {2: 75}
    assert {line.section for line in result.lines} == {"553.10(i)(2)"}


def test_553_10_j_without_a_qualifying_low_the_high_hand_takes_the_pot():
    state = open_hand(_rules(SEVEN_CARD_STUD_HI_LO_8), {1: 5_000, 2: 5_000}, button=None)
    # Seat 1 holds nine-low at best; seat 2 a pair of kings and no low.
    deck = stacked("Ah As 2h Ks 3c 3d  5c 4c Qd  5d 9d 8h  5h Kd Jd  5s Qs Kh")
    state = _play_out(state, deck)
    state = show(show(state, state.showdown_order[0]), state.showdown_order[1])
    result = settle(state)
    assert result.total(LineKind.LOW) == 0
    assert result.received(2) == 150


def test_553_10_i_2_high_low_split_without_qualifier_always_has_a_low():
    state = open_hand(_rules(SEVEN_CARD_STUD_HI_LO), {1: 5_000, 2: 5_000}, button=None)
    deck = stacked("Ah As 2h Ks 3c 3d  5c 4c Qd  5d 9d 8h  5h Kd Jd  5s Qs Kh")
    state = _play_out(state, deck)
    state = show(show(state, state.showdown_order[0]), state.showdown_order[1])
    result = settle(state)
    assert {line.seat: line.amount_cents for line in result.lines if line.kind is LineKind.LOW} == {
        1: 75
    }


def test_553_14_five_card_stud_one_down_one_up_then_four_betting_rounds():
    state = open_hand(_rules(FIVE_CARD_STUD), {1: 5_000, 2: 5_000}, button=None)
    state = deal_all(state, stacked("Ah As 7h 7s"))
    assert state.forced_bet_seat == 1  # 7h below 7s (§ 553.14(d))
    deck = stacked("2c Kh Kd 2d Qh Qd 2h Jh Jd")
    state = _play_out(state, deck)
    assert state.phase is Phase.SHOWDOWN and len(state.board) == 0
    assert [len(state.cards[seat]) for seat in (1, 2)] == [5, 5]


def test_553_11_d_a_stud_game_takes_no_blinds_and_holdem_no_forced_bet():
    with pytest.raises(ValueError, match="553.11"):
        _rules(blinds_cents=(100, 200))
    with pytest.raises(ValueError, match="553.11"):
        PokerRuleSet(
            variant=HOLDEM, structure=Structure.NO_LIMIT, small_bet_cents=200, big_bet_cents=200
        )


def test_553_10_h_too_few_cards_for_a_seventh_each_the_burn_cards_are_shuffled_for_a_common_card():
    state = open_hand(_rules(), dict.fromkeys(range(1, 9), 5_000), button=None)
    deck = iter(STANDARD_DECK)
    while state.phase is not Phase.SHOWDOWN and state.street_index < 4:
        state = deal_all(state, deck)
        if state.phase is Phase.BETTING and state.street_index < 4:
            state = check_or_call(state, state.to_act[0])
    # Eight players have taken 48 cards and 3 are burnt: one card is left for seventh street.
    assert state.street_index == 4 and [slot.burn for slot in state.deals] == [True, False]
    burnt = state.reshuffled
    assert len(burnt) == 3 and state.burnt == ()
    state = burn(state, burnt[0])  # a burn card shuffled back may be burnt again ...
    state = deal(state, burnt[1], None, face_up=True)  # ... or dealt as the common card
    assert state.board == (burnt[1],) and state.phase is Phase.BETTING
    assert burnt[0] in state.seen and burnt[2] not in state.seen
