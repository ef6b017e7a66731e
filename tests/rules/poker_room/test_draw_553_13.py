"""Five-card Draw (§ 553.13): Blind Bets after the deal, the draw one player at a time."""

from __future__ import annotations

from tables.rules.cards import Card, parse_cards
from tables.rules.poker_room.hand import (
    Phase,
    check_or_call,
    discard,
    open_hand,
    show,
    verify_check_or_call,
    verify_discard,
)
from tables.rules.poker_room.rules import (
    FIVE_CARD_DRAW_HIGH,
    FIVE_CARD_DRAW_LOW,
    PokerRuleSet,
    Structure,
    Variant,
)
from tables.rules.poker_room.settlement import LineKind, settle
from tests.rules.poker_room.table import deal_all, stacked


def _rules(variant: Variant = FIVE_CARD_DRAW_HIGH) -> PokerRuleSet:
    return PokerRuleSet(
        variant=variant, structure=Structure.LIMIT, small_bet_cents=200, big_bet_cents=400,
        blinds_cents=(100, 200),
    )  # fmt: skip


# Seat 1 is dealt Ah Kh Qh Jh 2c, seat 2 9s 9d 5c 4d 3s (dealt alternately from seat 1).
_DEAL = "Ah 9s Kh 9d Qh 5c Jh 4d 2c 3s"


def _after_first_round(variant: Variant = FIVE_CARD_DRAW_HIGH):
    state = deal_all(open_hand(_rules(variant), {1: 5_000, 2: 5_000}, button=2), stacked(_DEAL))
    return check_or_call(check_or_call(state, 1), 2)


def test_553_13_e_the_blind_bets_come_after_the_five_cards_are_dealt():
    state = open_hand(_rules(), {1: 5_000, 2: 5_000}, button=2)
    state = deal_all(state, stacked(_DEAL[:-3]))  # nine cards: the blinds are not yet due
    assert state.phase is Phase.DEALING and state.bets == {}
    state = deal_all(state, stacked("3s"))
    assert state.bets == {1: 100, 2: 200} and state.to_act == (1, 2)


def test_553_13_g_players_draw_one_at_a_time_from_the_left_of_the_button():
    state = _after_first_round()
    assert state.phase is Phase.DRAWING and state.drawing == (1, 2)
    assert verify_discard(state, 2, ()).reason == "seat 1 draws first"
    assert verify_discard(state, 1, parse_cards("9s")).field == "cards"


def test_553_13_g_1_a_card_is_burnt_before_the_first_new_card_only():
    state = discard(_after_first_round(), 1, parse_cards("2c"))
    assert [slot.burn for slot in state.deals] == [True, False]
    state = deal_all(state, stacked("7c Th"))  # burn 7c; seat 1 draws the 10 of hearts
    state = discard(state, 2, parse_cards("5c 4d 3s"))
    assert [slot.burn for slot in state.deals] == [False, False, False]
    state = deal_all(state, stacked("9c 6d 6h"))
    # The final betting round opens left of the button (§ 553.13(h)).
    assert state.phase is Phase.BETTING and state.to_act == (1, 2)
    assert verify_check_or_call(state, 2).section == "553.13(h)"
    state = check_or_call(check_or_call(state, 1), 2)
    state = show(show(state, 1), 2)
    result = settle(state)
    assert result.received(1) == 400  # a royal flush beats a full house


def test_553_13_i_2_in_low_hand_draw_the_best_low_takes_the_pot():
    state = discard(_after_first_round(FIVE_CARD_DRAW_LOW), 1, parse_cards("Kh Qh Jh"))
    state = deal_all(state, stacked("7c 3h 4h 5h"))  # seat 1: Ah 2c 3h 4h 5h, the wheel
    state = deal_all(discard(state, 2, parse_cards("9s 9d")), stacked("6c 7d"))
    state = check_or_call(check_or_call(state, 1), 2)
    result = settle(show(show(state, 1), 2))
    assert [(line.kind, line.seat, line.amount_cents) for line in result.lines] == [
        (LineKind.LOW, 1, 400)
    ]


def test_553_13_g_2_short_of_cards_the_discard_pile_is_reshuffled():
    rules = _rules()
    seats = dict.fromkeys(range(1, 9), 5_000)
    state = deal_all(open_hand(rules, seats, button=8), iter(Card.from_index(i) for i in range(52)))
    while state.phase is Phase.BETTING:
        state = check_or_call(state, state.to_act[0])
    # 40 cards dealt, 12 left: five players draw five each, 25 cards plus a burn.
    for seat in range(1, 6):
        held = tuple(card for card, _ in state.cards[seat])
        state = discard(state, seat, held)
        state = deal_all(state, iter(card for card in map(Card.from_index, range(52))
                                     if card not in state.seen))  # fmt: skip
    assert state.reshuffled and all(len(state.cards[seat]) == 5 for seat in range(1, 6))
