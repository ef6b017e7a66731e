"""Criss-Cross Poker under 58 Pa. Code Chapter 674a (2016 as adopted, 2019 as amended).

Each test names the section it proves. Pay tables are checked line by line
against the text of § 674a.12 quoted below.
"""

from __future__ import annotations

import datetime

import pytest

from tables.rules.cards import Card
from tables.rules.engine import Automation, Outcome, RuleViolation
from tables.rules.events import (
    CardDealt,
    CardExposed,
    DealingMethod,
    IrregularityKind,
    IrregularityReported,
    NoMoreBets,
    PlayerFolded,
    Position,
    Recipient,
    RoundClosed,
    StubCounted,
    Wager,
    WagerPlaced,
)
from tables.rules.games import criss_cross_592_674a as game
from tables.rules.replay import replay
from tables.rules.rulesets import PA_674A_2016, PA_674A_2019, get_ruleset, ruleset_for
from tests.rules.conftest import cc_deal, cc_round, opened, reveal

# § 674a.12(b) as printed, one line per row: hand, payout.
REGULATION_674A_12_B = """\
Royal flush 500 to 1
Straight flush 100 to 1
Four-of-a-kind 40 to 1
Full house 12 to 1
Flush 8 to 1
Straight 5 to 1
Three-of-a-kind 3 to 1
Two pair 2 to 1
Pair of jacks, queens, kings or aces 1 to 1
Pair of 6s through 10s Push"""
REGULATION_674A_12_A = """\
Pair of jacks or better 1 to 1
Pair of 6s through 10s Push"""
REGULATION_674A_12_C = """\
Royal flush 250 to 1
Straight flush 100 to 1
Four-of-a-kind 40 to 1
Full house 15 to 1
Flush 10 to 1
Straight 6 to 1
Three-of-a-kind 4 to 1
Two pair 3 to 1
Pair of 6s or better 1 to 1"""


def _render(table: object) -> str:
    rows = []
    for line in table:  # type: ignore[attr-defined]
        payout = "Push" if line.odds is None else str(line.odds)
        rows.append(f"{line.label} {payout}")
    return "\n".join(rows)


def settle(events):
    return replay(events).settlement


def test_674a_12_a_ante_table_matches_the_regulation_line_by_line():
    assert _render(PA_674A_2019.ante_table) == REGULATION_674A_12_A


def test_674a_12_b_bet_table_matches_the_regulation_line_by_line():
    assert _render(PA_674A_2019.bet_table) == REGULATION_674A_12_B


def test_674a_12_c_five_card_bonus_table_matches_the_regulation_line_by_line():
    assert _render(PA_674A_2019.five_card_bonus_table) == REGULATION_674A_12_C


# Across Hand = hole + ROW_1, CENTER, ROW_3 (community given TOP ROW_1 CENTER ROW_3 BOTTOM).
ACROSS_CASES = [
    ("Royal flush", "Ah Kh", "Kc Qh Jh Th 6d", Outcome.WIN, 500),
    ("Straight flush", "9h 8h", "Kc Qh Jh Th 6d", Outcome.WIN, 100),
    ("Four-of-a-kind", "9h 9d", "Kc 9c 9s 2d 6d", Outcome.WIN, 40),
    ("Full house", "9h 9d", "Kc 9c 2s 2d 6d", Outcome.WIN, 12),
    ("Flush", "Ah 3h", "Kc 7h 9h Jh 6d", Outcome.WIN, 8),
    ("Straight", "9h 8d", "Kc Qc Js Th 6d", Outcome.WIN, 5),
    ("Three-of-a-kind", "9h 9d", "Kc 9c 2s 4d 6d", Outcome.WIN, 3),
    ("Two pair", "9h 2d", "Kc 9c 2s 4d 6d", Outcome.WIN, 2),
    ("Pair of aces", "Ah 2d", "Kc Ac 7s 4d 6d", Outcome.WIN, 1),
    ("Pair of jacks", "Jh 2d", "Kc Jc 7s 4d 6d", Outcome.WIN, 1),
    ("Pair of 10s", "Th 2d", "Kc Tc 7s 4d 6d", Outcome.PUSH, 0),
    ("Pair of 6s", "6h 2d", "Kc 6c 7s 4d 8d", Outcome.PUSH, 0),
    ("Pair of 5s", "5h 2d", "Kc 5c 7s 4d 6d", Outcome.LOSE, 1),
    ("High card", "Ah 2d", "Kc 9c 7s 4d 6d", Outcome.LOSE, 1),
]


@pytest.mark.parametrize(("label", "hole", "community", "outcome", "odds"), ACROSS_CASES)
def test_674a_12_b_across_bet_is_paid_at_the_table_odds(label, hole, community, outcome, odds):
    settlement = settle(cc_round(community=community, holes={1: hole}, ante=1000))
    line = settlement.line(1, Wager.ACROSS_BET)
    assert line.outcome is outcome, label
    if outcome is Outcome.WIN:
        assert line.amount_cents == 1000 * odds
        assert line.section == "674a.11(h)(1)(ii); 674a.12(b)"
    elif outcome is Outcome.LOSE:
        assert line.section == "674a.11(h)(1)(i)"


@pytest.mark.parametrize(("label", "hole", "community", "outcome", "odds"), ACROSS_CASES)
def test_674a_12_a_ante_across_pays_jacks_or_better_and_pushes_6s_to_10s(
    label, hole, community, outcome, odds
):
    line = settle(cc_round(community=community, holes={1: hole})).line(1, Wager.ANTE_ACROSS)
    assert line.outcome is outcome, label
    if outcome is Outcome.WIN:
        assert line.amount_cents == 1000, "every winning ante pays 1 to 1"


def test_674a_12_b_pair_of_tens_pushes():
    settlement = settle(cc_round(community="Kc Tc 7s 4d 6d", holes={1: "Th 2d"}))
    for wager in (Wager.ANTE_ACROSS, Wager.ACROSS_BET, Wager.MIDDLE_BET):
        assert settlement.line(1, wager).outcome is Outcome.PUSH
    assert settlement.line(1, Wager.ACROSS_BET).pay_line == "Pair of 6s through 10s"


def test_674a_11_h_2_down_hand_uses_top_center_bottom():
    # Down Hand: Jh 2d + Jc (TOP), 7s (CENTER), 6d (BOTTOM) -> pair of jacks.
    settlement = settle(cc_round(community="Jc Kc 7s 4d 6d", holes={1: "Jh 2d"}))
    assert settlement.line(1, Wager.ANTE_DOWN).outcome is Outcome.WIN
    assert settlement.line(1, Wager.DOWN_BET).amount_cents == 1000
    assert settlement.line(1, Wager.ANTE_ACROSS).outcome is Outcome.LOSE


def test_674a_11_h_4_middle_bet_is_paid_on_the_higher_hand():
    # Across: 9h 9d 9c 2s 4d (trips, 3 to 1); Down: 9h 9d Kc 2s 6d (pair of 9s, push).
    settlement = settle(
        cc_round(community="Kc 9c 2s 4d 6d", holes={1: "9h 9d"}, bets={1: [1000, 1000, 3000]})
    )
    middle = settlement.line(1, Wager.MIDDLE_BET)
    assert middle.outcome is Outcome.WIN
    assert middle.amount_cents == 9000
    assert "THREE_OF_A_KIND" in middle.hand


def test_674a_11_h_3_middle_bet_loses_when_neither_hand_reaches_a_pair_of_6s():
    settlement = settle(cc_round(community="Kc 9c 7s 4d 3d", holes={1: "Ah 2d"}))
    middle = settlement.line(1, Wager.MIDDLE_BET)
    assert (middle.outcome, middle.section) == (Outcome.LOSE, "674a.11(h)(3)")


BONUS_BOARDS = [
    ("Ah Kh Qh Jh Th", 250),
    ("9h Kh Qh Jh Th", 100),
    ("9h 9d 9c 9s 2d", 40),
    ("9h 9d 9c 2s 2d", 15),
    ("Ah 3h 7h 9h Jh", 10),
    ("9h 8d Qc Js Th", 6),
    ("9h 9d 9c 2s 4d", 4),
    ("9h 9d 2c 2s 4d", 3),
    ("6h 6d 9c Js 2d", 1),
    ("5h 5d 9c Js 2d", None),
]


@pytest.mark.parametrize(("board", "odds"), BONUS_BOARDS)
def test_674a_11_h_5_five_card_bonus_is_paid_on_the_community_cards_even_after_a_fold(board, odds):
    events = cc_round(
        community=board, holes={1: "4c 3c"}, bonus={1: 500}, bets={1: [None, None, None]}
    )
    line = settle(events).line(1, Wager.FIVE_CARD_BONUS)
    if odds is None:
        assert line.outcome is Outcome.LOSE
    else:
        assert (line.outcome, line.amount_cents) == (Outcome.WIN, 500 * odds)
        assert line.section == "674a.11(h)(5); 674a.12(c)"


def test_674a_11_b_fold_before_across_bet_forfeits_both_antes_bonus_stays():
    events = cc_round(
        community="Kc 9c 7s 4d 3d", holes={1: "Ah 2d"}, bonus={1: 500}, bets={1: [None, None, None]}
    )
    settlement = settle(events)
    assert {line.wager: line.outcome for line in settlement.lines} == {
        Wager.ANTE_ACROSS: Outcome.FORFEITED,
        Wager.ANTE_DOWN: Outcome.FORFEITED,
        Wager.FIVE_CARD_BONUS: Outcome.LOSE,
    }
    assert settlement.line(1, Wager.ANTE_DOWN).section == "674a.11(b)"


def test_674a_11_d_fold_at_the_down_bet_forfeits_both_antes_and_the_across_bet():
    events = cc_round(community="Kc 9c 7s 4d 3d", holes={1: "Ah Ad"}, bets={1: [2000, None, None]})
    settlement = settle(events)
    forfeited = {line.wager for line in settlement.lines if line.outcome is Outcome.FORFEITED}
    assert forfeited == {Wager.ANTE_ACROSS, Wager.ANTE_DOWN, Wager.ACROSS_BET}
    assert settlement.line(1, Wager.ACROSS_BET).section == "674a.11(d)"
    assert settlement.line(1, Wager.ACROSS_BET).amount_cents == 2000


def test_674a_11_f_fold_at_the_middle_bet_forfeits_four_wagers():
    events = cc_round(community="Kc 9c 7s 4d 3d", holes={1: "Ah Ad"}, bets={1: [1000, 1000, None]})
    settlement = settle(events)
    assert [line.wager for line in settlement.lines if line.outcome is Outcome.FORFEITED] == [
        Wager.ANTE_ACROSS,
        Wager.ACROSS_BET,
        Wager.ANTE_DOWN,
        Wager.DOWN_BET,
    ]
    assert all(line.section == "674a.11(f)" for line in settlement.lines)


def _state_after(events):
    return replay(events).final_state


def _refused(events, event):
    with pytest.raises(RuleViolation) as caught:
        game.apply(_state_after(events), event)
    return caught.value


def _wagering(seats=(1,), **options):
    events = [opened(seats=seats, **options)]
    return events


def test_674a_7_d_ante_across_and_ante_down_must_be_equal():
    events = [*_wagering(), WagerPlaced(seat=1, wager=Wager.ANTE_ACROSS, amount_cents=1000)]
    error = _refused(events, WagerPlaced(seat=1, wager=Wager.ANTE_DOWN, amount_cents=1500))
    assert (error.section, error.field) == ("674a.7(d)", "amount_cents")


def test_674a_7_c_no_wager_after_no_more_bets():
    events = [
        *_wagering(),
        WagerPlaced(seat=1, wager=Wager.ANTE_ACROSS, amount_cents=1000),
        WagerPlaced(seat=1, wager=Wager.ANTE_DOWN, amount_cents=1000),
        NoMoreBets(),
    ]
    error = _refused(events, WagerPlaced(seat=1, wager=Wager.ANTE_ACROSS, amount_cents=500))
    assert error.section == "674a.7(c)"


def test_674a_7_e_bonus_only_when_offered_and_after_both_antes():
    events = [
        *_wagering(five_card_bonus_offered=True),
        WagerPlaced(seat=1, wager=Wager.ANTE_ACROSS, amount_cents=1000),
    ]
    bonus = WagerPlaced(seat=1, wager=Wager.FIVE_CARD_BONUS, amount_cents=500)
    assert _refused(events, bonus).section == "674a.7(e)"
    not_offered = [
        *_wagering(),
        WagerPlaced(seat=1, wager=Wager.ANTE_ACROSS, amount_cents=1000),
        WagerPlaced(seat=1, wager=Wager.ANTE_DOWN, amount_cents=1000),
    ]
    assert "not offered" in _refused(not_offered, bonus).reason


def _through_deal(community="Kc 9c 7s 4d 3d", holes=None, ante=1000):
    holes = holes or {1: "Ah 2d", 2: "Qh Qd"}
    events = [opened(seats=sorted(holes))]
    for seat in sorted(holes):
        events.append(WagerPlaced(seat=seat, wager=Wager.ANTE_ACROSS, amount_cents=ante))
        events.append(WagerPlaced(seat=seat, wager=Wager.ANTE_DOWN, amount_cents=ante))
    events.append(NoMoreBets())
    events.extend(cc_deal(community, holes))
    return events


def test_674a_11_b_across_bet_above_three_times_the_ante_is_refused():
    error = _refused(
        _through_deal(), WagerPlaced(seat=1, wager=Wager.ACROSS_BET, amount_cents=3001)
    )
    assert (error.section, error.field) == ("674a.11(b)", "amount_cents")


def test_674a_11_d_down_bet_of_four_times_the_ante_is_refused():
    events = [
        *_through_deal(),
        WagerPlaced(seat=1, wager=Wager.ACROSS_BET, amount_cents=1000),
        WagerPlaced(seat=2, wager=Wager.ACROSS_BET, amount_cents=1000),
        *reveal(Position.ROW_1, Position.ROW_3),
    ]
    error = _refused(events, WagerPlaced(seat=1, wager=Wager.DOWN_BET, amount_cents=4000))
    assert error.section == "674a.11(d)"


def test_674a_11_b_decisions_go_clockwise_from_the_dealers_left():
    error = _refused(_through_deal(), PlayerFolded(seat=2))
    assert error.section == "674a.11(b)"
    assert "out of turn" in error.reason


def test_674a_3_a_a_card_cannot_be_dealt_twice_in_a_round():
    events = _through_deal()[:-1]  # seat 2's second card not yet dealt
    duplicate = CardDealt(card=Card.parse("Kc"), recipient=Recipient.PLAYER, seat=2, spot="2")
    assert _refused(events, duplicate).section == "674a.3(a)"


def test_674a_8_d_a_seat_without_both_antes_is_dealt_no_cards():
    events = [
        opened(seats=(1, 2)),
        WagerPlaced(seat=1, wager=Wager.ANTE_ACROSS, amount_cents=1000),
        WagerPlaced(seat=1, wager=Wager.ANTE_DOWN, amount_cents=1000),
        WagerPlaced(seat=2, wager=Wager.ANTE_ACROSS, amount_cents=1000),
        NoMoreBets(),
        *cc_deal("Kc 9c 7s 4d 3d", {1: "Ah 2d"})[:5],
    ]
    card = CardDealt(card=Card.parse("2h"), recipient=Recipient.PLAYER, seat=2, spot="1")
    assert _refused(events, card).section == "674a.8(d)"


def test_674a_8_d_community_cards_are_dealt_before_the_players():
    events = [*_through_deal()[:4]]  # opened, antes, no more bets
    events = _through_deal()[: 1 + 4 + 1]
    card = CardDealt(card=Card.parse("2h"), recipient=Recipient.PLAYER, seat=1, spot="1")
    assert _refused(events, card).section == "674a.8(d)"


def test_674a_9_b_sections_follow_the_dealing_method():
    events = [opened(dealing_method=DealingMethod.HAND)]
    card = CardDealt(card=Card.parse("2h"), recipient=Recipient.COMMUNITY, spot=Position.TOP)
    assert _refused(events, card).section == "674a.9(a)(3)"


def test_674a_11_c_a_community_card_not_yet_due_cannot_be_turned():
    events = _through_deal()
    exposed = CardExposed(recipient=Recipient.COMMUNITY, spot=Position.CENTER)
    assert _refused(events, exposed).section == "674a.11(c)"


def test_674a_11_g_players_cards_are_turned_counterclockwise_from_the_dealers_right():
    events = cc_round(
        community="Kc 9c 7s 4d 3d", holes={1: "Ah 2d", 2: "Qh Qd"}, expose_players=False
    )
    error = _refused(events, CardExposed(recipient=Recipient.PLAYER, seat=1, spot="1"))
    assert error.section == "674a.11(g)"
    assert _refused(events, RoundClosed()).section == "674a.11(g)"


def test_674a_11_g_the_engine_may_turn_players_cards_when_automated():
    events = cc_round(community="Kc 9c 7s 4d 3d", holes={1: "Ah 2d"}, expose_players=False)
    result = replay([*events, RoundClosed()], automations=[Automation.EXPOSE_PLAYER_CARDS])
    assert result.final_state.phase == game.Phase.CLOSED


def test_automated_reveals_need_no_exposure_events():
    events = [
        event
        for event in cc_round(community="Kc 9c 7s 4d 3d", holes={1: "Qh Qd"})
        if not (isinstance(event, CardExposed) and event.recipient is Recipient.COMMUNITY)
    ]
    result = replay(events, automations=[Automation.REVEAL_COMMUNITY_CARDS])
    assert result.final_state.phase == game.Phase.SETTLEMENT
    assert result.settlement.line(1, Wager.ANTE_ACROSS).outcome is Outcome.WIN


def test_674a_2_a_no_more_than_six_positions():
    with pytest.raises(RuleViolation) as caught:
        replay([opened(seats=(1, 2, 3, 4, 5, 6, 7))])
    assert caught.value.section == "674a.2(a)"


def test_674a_7_g_positions_per_player_as_filed():
    two = [
        opened(seats=(1, 2, 4), players=("A", "A", "A"), positions_per_player=2),
        WagerPlaced(seat=1, wager=Wager.ANTE_ACROSS, amount_cents=1000),
        WagerPlaced(seat=2, wager=Wager.ANTE_ACROSS, amount_cents=1000),
    ]
    state = replay(two).final_state
    assert state.seats[2].wagers[Wager.ANTE_ACROSS] == 1000
    error = _refused(two, WagerPlaced(seat=4, wager=Wager.ANTE_ACROSS, amount_cents=1000))
    assert error.section == "674a.7(g)"


def test_674a_7_g_boxes_of_one_player_must_be_adjacent():
    events = [
        opened(seats=(1, 3), players=("A", "A"), positions_per_player=2),
        WagerPlaced(seat=1, wager=Wager.ANTE_ACROSS, amount_cents=1000),
    ]
    assert (
        "adjacent"
        in _refused(events, WagerPlaced(seat=3, wager=Wager.ANTE_ACROSS, amount_cents=1000)).reason
    )


def test_674a_12_d_payout_limit_may_not_be_less_than_50000_dollars():
    with pytest.raises(RuleViolation) as caught:
        replay([opened(payout_limit_cents=4_999_999)])
    assert caught.value.section == "674a.12(d)"


def test_674a_12_d_payout_limit_caps_the_aggregate_but_not_the_five_card_bonus():
    # Royal flush on the Across Hand: ante 20,000, bets 3x at 500 to 1 = 30,000,000.
    events = cc_round(
        community="Kc Qh Jh Th 6d",
        holes={1: "Ah Kh"},
        ante=20_000,
        bets={1: [60_000, 60_000, 60_000]},
        bonus={1: 10_000},
        payout_limit_cents=5_000_000,
    )
    settlement = settle(events)
    main = [line for line in settlement.lines if line.wager != Wager.FIVE_CARD_BONUS]
    assert sum(line.paid_cents for line in main) == 5_000_000
    capped = [line for line in main if line.uncapped_cents != line.amount_cents]
    assert capped and all("674a.12(d)" in line.section for line in capped)
    bonus = settlement.line(1, Wager.FIVE_CARD_BONUS)
    assert bonus.outcome is Outcome.LOSE or bonus.uncapped_cents == bonus.amount_cents
    assert ("payout_limit_cents", "5000000") in settlement.options_applied


def test_674a_12_d_payout_limit_is_per_player_across_positions():
    events = cc_round(
        community="Kc Qh Jh Th 6d",
        holes={1: "Ah Kh", 2: "9h 8h"},
        ante=20_000,
        bets={1: [60_000] * 3, 2: [60_000] * 3},
        payout_limit_cents=5_000_000,
        positions_per_player=2,
        players=("A", "A"),
    )
    settlement = settle(events)
    assert settlement.total_paid_cents == 5_000_000


def test_674a_13_a_one_card_found_face_up_is_discarded():
    events = [
        *_through_deal()[:6],
        IrregularityReported(kind=IrregularityKind.CARD_FACE_UP_IN_DECK, card=Card.parse("5h")),
        *_through_deal()[6:],
    ]
    state = replay(events).final_state
    assert state.phase == game.Phase.ACROSS_DECISION
    again = CardDealt(card=Card.parse("5h"), recipient=Recipient.PLAYER, seat=1, spot="1")
    assert not game.can_apply(state, again)


def test_674a_13_a_two_cards_found_face_up_void_the_round_and_return_every_wager():
    events = [*_through_deal()[:6]]
    for card in ("5h", "5d"):
        events.append(
            IrregularityReported(kind=IrregularityKind.CARD_FACE_UP_IN_DECK, card=Card.parse(card))
        )
    settlement = settle(events)
    assert settlement.voided and settlement.void_section == "674a.13(a)"
    assert {line.outcome for line in settlement.lines} == {Outcome.RETURNED}
    assert len(settlement.lines) == 4


def test_674a_13_c_an_incorrect_number_of_cards_voids_the_round():
    events = [
        *_through_deal(),
        IrregularityReported(kind=IrregularityKind.INCORRECT_CARD_COUNT, seat=1),
    ]
    assert settle(events).void_section == "674a.13(c)"


def test_674a_13_d_a_community_card_exposed_early_voids_the_round():
    events = [
        *_through_deal(),
        WagerPlaced(seat=1, wager=Wager.ACROSS_BET, amount_cents=1000),
        IrregularityReported(
            kind=IrregularityKind.COMMUNITY_CARD_EXPOSED_EARLY, spot=Position.CENTER
        ),
    ]
    settlement = settle(events)
    assert settlement.void_section == "674a.13(d)"
    assert settlement.line(1, Wager.ACROSS_BET).outcome is Outcome.RETURNED
    error = _refused(events, PlayerFolded(seat=2))
    assert error.section == "674a.13(d)"


def test_674a_13_e_a_shuffler_jam_requires_a_reshuffle_but_no_void():
    events = [*_wagering(), IrregularityReported(kind=IrregularityKind.SHUFFLER_MALFUNCTION)]
    state = replay(events).final_state
    assert state.reshuffle_required and state.phase == game.Phase.WAGERING


def test_674a_13_f_a_shoe_jam_voids_the_round():
    events = [*_through_deal()[:8], IrregularityReported(kind=IrregularityKind.SHOE_MALFUNCTION)]
    assert settle(events).void_section == "674a.13(f)"


def test_674a_8_h_wrong_stub_count_without_misdeal_voids_and_removes_the_deck():
    events = [*_through_deal(), StubCounted(stub_count=42)]
    result = replay(events)
    assert result.settlement.void_section == "674a.8(h)"
    assert result.final_state.deck_removal_required


def test_674a_8_h_wrong_stub_count_with_misdeal_voids_but_keeps_the_deck():
    result = replay([*_through_deal(), StubCounted(stub_count=42, misdeal_found=True)])
    assert result.settlement.voided and not result.final_state.deck_removal_required


def test_674a_8_g_correct_stub_count_continues_the_round():
    result = replay([*_through_deal(), StubCounted(stub_count=52 - 9)])
    assert result.final_state.phase == game.Phase.ACROSS_DECISION


def test_674a_7_b_wagers_of_a_player_who_left_are_treated_as_losing():
    events = [
        *_through_deal(),
        IrregularityReported(kind=IrregularityKind.PLAYER_LEFT_TABLE, seat=1),
    ]
    state = replay(events).final_state
    assert state.to_act == 2
    settlement = game.required_settlement(state)
    assert settlement.line(1, Wager.ANTE_ACROSS).section == "674a.7(b)"


def test_674a_2016_is_flagged_as_modelled_on_the_2019_text():
    assert ruleset_for("criss_cross_poker", "PA", datetime.date(2018, 1, 1)) is PA_674A_2016
    assert PA_674A_2016.unverified_sections == ("674a.7", "674a.12")
    assert PA_674A_2016.bet_table == PA_674A_2019.bet_table
    events = cc_round(
        community="Kc Tc 7s 4d 6d",
        holes={1: "Th 2d"},
        ruleset_id="PA-674a-2016",
        day=datetime.date(2018, 1, 1),
    )
    assert settle(events).notes == PA_674A_2016.notes


def test_674a_rule_sets_are_registered_with_effective_dates():
    assert get_ruleset("PA-674a-2019").effective_from == datetime.date(2019, 11, 2)
    assert PA_674A_2016.effective_to == datetime.date(2019, 11, 1)
    assert PA_674A_2019.deck_change_hours_hand_dealt == 4
    assert PA_674A_2019.deck_change_hours_shoe == 8


def test_674a_rule_set_is_refused_on_a_day_it_is_not_in_force():
    with pytest.raises(RuleViolation) as caught:
        replay([opened(day=datetime.date(2019, 11, 1))])
    assert caught.value.field == "gaming_day"


def test_674a_12_b_has_no_pair_of_tens_setting():
    with pytest.raises(RuleViolation) as caught:
        replay([opened(pair_of_tens_middle_bets="push")])
    assert caught.value.section == "674a.12(b)"
