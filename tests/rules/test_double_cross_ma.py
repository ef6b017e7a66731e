"""Double Cross Poker under the Massachusetts rules of the game (Sections 1-12).

Community cards are given in deal order ROW_1, CENTER, ROW_3, TOP, BOTTOM;
vertical = TOP, CENTER, BOTTOM; horizontal = ROW_1, CENTER, ROW_3.
"""

from __future__ import annotations

import dataclasses

import pytest

from tables.rules.cards import Card
from tables.rules.engine import Outcome, RuleViolation
from tables.rules.events import (
    Alignment,
    CardDealt,
    IrregularityKind,
    IrregularityReported,
    NoMoreBets,
    PlayDeclared,
    PlayerFolded,
    Position,
    Recipient,
    Wager,
    WagerPlaced,
)
from tables.rules.games import double_cross_ma as game
from tables.rules.money import ROUND_HALF_UP_TO_CENT, Odds
from tables.rules.replay import replay
from tables.rules.rulesets import MA_DCP, HandComparison
from tests.rules.conftest import dc_round, opened, reveal

REGULATION_11_B = """\
Royal Flush 300 to 1
Straight Flush 50 to 1
Four-of-a-Kind 15 to 1
Full House 7 to 1
Flush 6 to 1
Straight 5 to 1
Three-of-a-Kind 3 to 1
Two Pair 3 to 2
One Pair 1 to 1
High Card 1 to 1"""
REGULATION_11_C = """\
Three-card Straight Flush 40 to 1
Three-of-a-Kind 30 to 1
Three-card Straight 6 to 1
Three-card Flush 4 to 1
One Pair 1 to 1"""


def _render(table):
    return "\n".join(f"{line.label} {line.odds}" for line in table)


def settle(events):
    return replay(events).settlement


def test_section_11_b_raise_table_matches_the_rules_line_by_line():
    assert _render(MA_DCP.raise_table) == REGULATION_11_B


def test_section_11_c_three_card_table_matches_the_rules_line_by_line():
    assert _render(MA_DCP.three_card_table) == REGULATION_11_C


# Player 1 plays vertical: 9h 9d + TOP Ks, CENTER 4c, BOTTOM 2h -> pair of 9s.
# Dealer: 8c 8d -> vertical pair of 8s, horizontal (ROW_1 7s, CENTER 4c, ROW_3 Jd) pair of 8s.
BASE = {"community": "7s 4c Jd Ks 2h", "dealer": "8c 8d", "holes": {1: "9h 9d"}}


def test_section_10_g_3_a_higher_hand_wins_ante_1_to_1_and_raises_at_11_b():
    settlement = settle(dc_round(**BASE))
    ante, raise_1, raise_2 = (
        settlement.line(1, w) for w in (Wager.ANTE, Wager.RAISE_1, Wager.RAISE_2)
    )
    assert (ante.outcome, ante.amount_cents) == (Outcome.WIN, 1000)
    assert (raise_1.amount_cents, raise_1.pay_line) == (1000, "One Pair")
    assert raise_2.section == "Section 10(g)(3); Section 11(b)"


def test_section_10_g_2_a_lower_hand_loses_all_three_wagers():
    settlement = settle(dc_round(**{**BASE, "dealer": "Kc Kd"}))
    assert [(line.wager, line.outcome) for line in settlement.lines] == [
        (Wager.ANTE, Outcome.LOSE),
        (Wager.RAISE_1, Outcome.LOSE),
        (Wager.RAISE_2, Outcome.LOSE),
    ]


def test_section_10_g_3_a_tie_pushes_all_three_wagers():
    # Dealer 9c 9s vertical: 9c 9s Ks 4c 2h equals the player's 9h 9d Ks 4c 2h.
    settlement = settle(dc_round(**{**BASE, "dealer": "9c 9s"}))
    assert {line.outcome for line in settlement.lines} == {Outcome.PUSH}


def test_section_10_e_the_dealer_uses_the_higher_alignment():
    # Dealer Jc 3d: horizontal has a pair of jacks (ROW_3 Jd), vertical only king high.
    result = replay(dc_round(**{**BASE, "dealer": "Jc 3d"}))
    alignment, hand, _ = game.dealer_hand(result.final_state)
    assert alignment is Alignment.HORIZONTAL
    assert result.settlement.line(1, Wager.ANTE).outcome is Outcome.LOSE


def test_section_10_g_1_the_player_keeps_the_designated_alignment_even_if_worse():
    # Horizontal for the player would be 9h 9d 7s 4c Jd (same pair); use Jh 2c instead:
    # vertical Jh 2c Ks 4c? (4c is the CENTER) -> choose cards without conflict.
    events = dc_round(
        community="7s 4c Jd Ks 2h",
        dealer="8c 8d",
        holes={1: "Jh 3c"},
        plays={1: Alignment.VERTICAL},
    )
    settlement = settle(events)
    assert settlement.line(1, Wager.ANTE).outcome is Outcome.LOSE  # king high vs pair of 8s
    assert "HIGH_CARD" in settlement.line(1, Wager.ANTE).hand


def test_section_11_b_high_card_wins_1_to_1_against_a_lower_high_card():
    events = dc_round(
        community="7s 4c Jd Ks 2h",
        dealer="5c 3d",
        holes={1: "Ah 6c"},
        plays={1: Alignment.VERTICAL},
    )
    line = settle(events).line(1, Wager.RAISE_1)
    assert (line.outcome, line.pay_line, line.amount_cents) == (Outcome.WIN, "High Card", 1000)


def test_section_11_b_two_pair_pays_3_to_2_with_the_named_rounding_policy():
    events = dc_round(
        community="7s 4c Jd Ks 2h",
        dealer="5c 3d",
        holes={1: "Kh 4h"},
        ante=1001,
        rounding="round_half_up_to_cent",
    )
    line = settle(events).line(1, Wager.RAISE_1)
    assert line.pay_line == "Two Pair"
    assert line.amount_cents == ROUND_HALF_UP_TO_CENT(Odds(3, 2).ratio * 1001) == 1502
    down = settle(
        dc_round(community="7s 4c Jd Ks 2h", dealer="5c 3d", holes={1: "Kh 4h"}, ante=1001)
    )
    assert down.line(1, Wager.RAISE_1).amount_cents == 1501
    assert down.rounding == "round_down_to_cent"


def test_section_10_c_1_a_fold_loses_the_ante_only():
    settlement = settle(dc_round(**BASE, plays={1: None}))
    assert [(line.wager, line.outcome, line.section) for line in settlement.lines] == [
        (Wager.ANTE, Outcome.FORFEITED, "Section 10(c)(1)"),
    ]


def test_section_10_a_a_qualifying_three_card_hand_pays_only_if_exposed():
    # 9h 9d + TOP Ks: one pair.
    shown = settle(dc_round(**BASE, three_card={1: 500}))
    hidden = settle(dc_round(**BASE, three_card={1: 500}, expose={1: False}))
    assert shown.line(1, Wager.THREE_CARD).outcome is Outcome.WIN
    assert shown.line(1, Wager.THREE_CARD).amount_cents == 500
    assert hidden.line(1, Wager.THREE_CARD).outcome is Outcome.LOSE


@pytest.mark.parametrize(
    ("hole", "top", "label", "odds"),
    [
        ("Qs Js", "Ks", "Three-card Straight Flush", 40),
        ("Kh Kd", "Ks", "Three-of-a-Kind", 30),
        ("Qh Jc", "Ks", "Three-card Straight", 6),
        ("2s 7s", "Ks", "Three-card Flush", 4),
        ("Kh 3d", "Ks", "One Pair", 1),
        ("Ah 3d", "Ks", None, None),
    ],
)
def test_section_11_c_three_card_wager_is_paid_at_the_table_odds(hole, top, label, odds):
    events = dc_round(
        community=f"7c 4c Jd {top} 2h", dealer="8c 8d", holes={1: hole}, three_card={1: 1000}
    )
    line = settle(events).line(1, Wager.THREE_CARD)
    if odds is None:
        assert line.outcome is Outcome.LOSE
    else:
        assert (line.outcome, line.pay_line, line.amount_cents) == (Outcome.WIN, label, 1000 * odds)


def _through_reveal(three_card=None, seats=(1, 2)):
    holes = {1: "9h 9d", 2: "Ah 3d"}
    events = dc_round(
        community="7s 4c Jd Ks 2h",
        dealer="8c 8d",
        holes={seat: holes[seat] for seat in seats},
        three_card=three_card,
    )
    cut = next(i for i, e in enumerate(events) if isinstance(e, PlayDeclared | PlayerFolded))
    elections = sum(1 for e in events[:cut] if type(e).__name__ == "ThreeCardElection")
    return events[: cut - elections], events


def _refused(events, event):
    with pytest.raises(RuleViolation) as caught:
        game.apply(replay(events).final_state, event)
    return caught.value


def test_section_10_b_decisions_follow_the_resolution_of_three_card_wagers():
    before, _ = _through_reveal(three_card={2: 500})
    error = _refused(before, PlayerFolded(seat=1))
    assert error.section == "Section 10(b)"


def test_section_10_c_decisions_go_clockwise_from_the_dealers_left():
    before, _ = _through_reveal()
    assert _refused(before, PlayerFolded(seat=2)).section == "Section 10(c)"


def test_section_10_c_2_each_raise_equals_the_ante():
    before, _ = _through_reveal()
    play = PlayDeclared(
        seat=1, alignment=Alignment.VERTICAL, raise_1_cents=1000, raise_2_cents=2000
    )
    error = _refused(before, play)
    assert (error.section, error.field) == ("Section 10(c)(2)", "raise_2_cents")


def test_section_10_g_1_the_chip_placement_governs_a_spoken_mismatch():
    before, _ = _through_reveal(seats=(1,))
    events = [
        *before,
        PlayDeclared(
            seat=1,
            alignment=Alignment.VERTICAL,
            raise_1_cents=1000,
            raise_2_cents=1000,
            spoken_alignment=Alignment.HORIZONTAL,
        ),
    ]
    state = replay(events).final_state
    assert state.seats[1].params["alignment"] is Alignment.VERTICAL


def test_section_6_d_three_card_wager_is_1_to_100_dollars_after_an_ante():
    base = [opened(game="double_cross_poker", ruleset_id="MA-DCP-UNDATED")]
    assert (
        _refused(base, WagerPlaced(seat=1, wager=Wager.THREE_CARD, amount_cents=500)).section
        == "Section 6(d)"
    )
    anted = [*base, WagerPlaced(seat=1, wager=Wager.ANTE, amount_cents=1000)]
    for amount in (99, 10_001):
        error = _refused(anted, WagerPlaced(seat=1, wager=Wager.THREE_CARD, amount_cents=amount))
        assert (error.section, error.field) == ("Section 6(d)", "amount_cents")
    for amount in (100, 10_000):
        assert game.can_apply(
            replay(anted).final_state,
            WagerPlaced(seat=1, wager=Wager.THREE_CARD, amount_cents=amount),
        )


def test_section_6_c_no_wager_after_no_more_bets():
    events = [
        opened(game="double_cross_poker", ruleset_id="MA-DCP-UNDATED"),
        WagerPlaced(seat=1, wager=Wager.ANTE, amount_cents=1000),
        NoMoreBets(),
    ]
    error = _refused(events, WagerPlaced(seat=1, wager=Wager.THREE_CARD, amount_cents=500))
    assert error.section == "Section 6(c)"


def test_section_7_c_players_then_dealer_then_the_cross_in_order():
    events = [
        opened(game="double_cross_poker", ruleset_id="MA-DCP-UNDATED"),
        WagerPlaced(seat=1, wager=Wager.ANTE, amount_cents=1000),
        NoMoreBets(),
    ]
    dealer_first = CardDealt(card=Card.parse("2c"), recipient=Recipient.DEALER, spot="1")
    assert _refused(events, dealer_first).section == "Section 7(c)"
    events += [
        CardDealt(card=Card.parse("2c"), recipient=Recipient.PLAYER, seat=1, spot="1"),
        CardDealt(card=Card.parse("3c"), recipient=Recipient.PLAYER, seat=1, spot="2"),
        CardDealt(card=Card.parse("4c"), recipient=Recipient.DEALER, spot="1"),
        CardDealt(card=Card.parse("5c"), recipient=Recipient.DEALER, spot="2"),
    ]
    top_first = CardDealt(card=Card.parse("6c"), recipient=Recipient.COMMUNITY, spot=Position.TOP)
    assert "ROW_1" in _refused(events, top_first).reason


def test_section_10_a_community_cards_are_revealed_on_schedule():
    before, _ = _through_reveal()
    deal_only = [e for e in before if type(e).__name__ != "CardExposed"]
    from tables.rules.events import CardExposed

    error = _refused(deal_only, CardExposed(recipient=Recipient.COMMUNITY, spot=Position.CENTER))
    assert error.section == "Section 10(a)"


def test_section_11_d_payout_limit_is_at_least_60000_dollars():
    with pytest.raises(RuleViolation) as caught:
        replay(
            [
                opened(
                    game="double_cross_poker",
                    ruleset_id="MA-DCP-UNDATED",
                    payout_limit_cents=5_999_999,
                )
            ]
        )
    assert caught.value.section == "Section 11(d)"


def test_section_11_d_payout_limit_caps_the_hand_but_not_the_three_card_wager():
    # Royal flush vertical: Ah Kh + TOP Qh, CENTER Jh, BOTTOM Th; ante $500 -> raises 300 to 1.
    events = dc_round(
        community="2c Jh 3d Qh Th",
        dealer="4s 5s",
        holes={1: "Ah Kh"},
        ante=50_000,
        three_card={1: 10_000},
        payout_limit_cents=6_000_000,
    )
    settlement = settle(events)
    main = [line for line in settlement.lines if line.wager != Wager.THREE_CARD]
    assert sum(line.paid_cents for line in main) == 6_000_000
    three = settlement.line(1, Wager.THREE_CARD)
    assert three.amount_cents == three.uncapped_cents == 400_000


def test_section_12_a_two_face_up_cards_void_and_return_every_wager():
    events = [
        opened(game="double_cross_poker", ruleset_id="MA-DCP-UNDATED"),
        WagerPlaced(seat=1, wager=Wager.ANTE, amount_cents=1000),
        NoMoreBets(),
    ]
    for card in ("2c", "3c"):
        events.append(
            IrregularityReported(kind=IrregularityKind.CARD_FACE_UP_IN_DECK, card=Card.parse(card))
        )
    settlement = settle(events)
    assert settlement.void_section == "Section 12(a)"
    assert [line.outcome for line in settlement.lines] == [Outcome.RETURNED]


def test_section_12_c_a_void_after_three_card_resolution_keeps_those_settlements():
    _, full = _through_reveal(three_card={1: 500})
    cut = next(i for i, e in enumerate(full) if isinstance(e, PlayDeclared))
    events = [*full[:cut], IrregularityReported(kind=IrregularityKind.INCORRECT_CARD_COUNT, seat=2)]
    settlement = settle(events)
    assert settlement.void_section == "Section 12(c)"
    three = settlement.line(1, Wager.THREE_CARD)
    assert three.outcome is Outcome.WIN and "supervisor" in three.notes[-1]
    assert settlement.line(1, Wager.ANTE).outcome is Outcome.RETURNED


def test_section_12_e_a_shoe_jam_voids_the_round():
    before, _ = _through_reveal()
    settlement = settle([*before, IrregularityReported(kind=IrregularityKind.SHOE_MALFUNCTION)])
    assert settlement.void_section == "Section 12(e)"


def test_premature_exposure_is_recorded_for_the_floor_without_a_void():
    before, _ = _through_reveal()
    events = [*before, IrregularityReported(kind=IrregularityKind.DEALER_CARD_EXPOSED_EARLY)]
    state = replay(events).final_state
    assert state.phase == game.Phase.PLAY_DECISION
    assert "referred to the floor" in state.notes[-1]


def test_section_7_e_2_wrong_stub_count_without_misdeal_removes_the_deck():
    from tables.rules.events import StubCounted

    before, _ = _through_reveal()
    deal_only = [e for e in before if type(e).__name__ != "CardExposed"]
    result = replay([*deal_only, StubCounted(stub_count=30)])
    assert result.settlement.void_section == "Section 7(e)(2)"
    assert result.final_state.deck_removal_required
    ok = replay([*deal_only, StubCounted(stub_count=52 - 11)])
    assert ok.final_state.phase == game.Phase.FIRST_REVEAL


def test_section_5_category_only_comparison_is_a_setting():
    # Player pair of 9s against dealer pair of 8s is a tie when only categories count.
    variant = dataclasses.replace(MA_DCP, hand_comparison=HandComparison.CATEGORY_ONLY)
    result = replay(dc_round(**BASE))
    state = result.final_state._replace(ruleset=variant)
    assert game.required_settlement(state).line(1, Wager.ANTE).outcome is Outcome.PUSH


def test_section_10_d_reveals_follow_the_last_decision():
    before, full = _through_reveal(seats=(1,))
    events = [*before, PlayerFolded(seat=1)]
    state = replay(events).final_state
    assert state.phase == game.Phase.FINAL_REVEAL
    events += reveal(Position.ROW_1, Position.CENTER, Position.BOTTOM)
    assert replay(events).final_state.phase == game.Phase.DEALER_REVEAL
