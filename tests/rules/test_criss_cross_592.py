"""Criss-Cross Poker under temporary 58 Pa. Code Chapter 592 (2014)."""

from __future__ import annotations

import dataclasses
import datetime

import pytest

from tables.rules.engine import Outcome, RuleViolation
from tables.rules.events import NoMoreBets, PlayerFolded, Wager, WagerPlaced
from tables.rules.games import criss_cross_592_674a as game
from tables.rules.replay import replay
from tables.rules.rulesets import PA_592_2014, PairOfTensMiddleBets, ruleset_for
from tests.rules.conftest import DAY_592, cc_deal, cc_round, opened

# § 592.12(b) as published (Pa.B. Doc. No. 14-1427): a pair of 10s is on two lines.
REGULATION_592_12_B = """\
Royal flush 500 to 1
Straight flush 100 to 1
Four-of-a-kind 40 to 1
Full house 12 to 1
Flush 8 to 1
Straight 5 to 1
Three-of-a-kind 3 to 1
Two pair 2 to 1
Pair of 10s, jack, queens, kings or aces 1 to 1
Pair of 6s through 10s Push"""
REGULATION_592_12_A = """\
Pair of jacks or better 1 to 1
Pair of 6s through 10s Push"""


def _render(table):
    return "\n".join(f"{line.label} {'Push' if line.odds is None else line.odds}" for line in table)


def test_592_12_a_ante_table_matches_the_regulation_line_by_line():
    assert _render(PA_592_2014.ante_table) == REGULATION_592_12_A


def test_592_12_b_bet_table_matches_the_regulation_line_by_line():
    assert _render(PA_592_2014.bet_table) == REGULATION_592_12_B


def test_592_12_c_five_card_bonus_table_is_the_same_as_674a():
    from tables.rules.rulesets import PA_674A_2019

    assert PA_592_2014.five_card_bonus_table == PA_674A_2019.five_card_bonus_table


TENS = {"community": "Kc Tc 7s 4d 6d", "holes": {1: "Th 2d"}, "ruleset_id": "PA-592-2014"}


def test_592_12_b_pair_of_tens_pushes_by_default_and_the_choice_is_recorded():
    settlement = replay(cc_round(**TENS)).settlement
    for wager in (Wager.ACROSS_BET, Wager.MIDDLE_BET):
        line = settlement.line(1, wager)
        assert line.outcome is Outcome.PUSH
        assert "pair_of_tens_middle_bets=push" in line.notes[0]
    assert ("pair_of_tens_middle_bets", "push") in settlement.options_applied


def test_592_12_b_pair_of_tens_pays_1_to_1_when_the_rules_submission_says_so():
    settlement = replay(cc_round(**TENS, pair_of_tens_middle_bets="pay_1_to_1")).settlement
    across = settlement.line(1, Wager.ACROSS_BET)
    assert (across.outcome, across.amount_cents) == (Outcome.WIN, 1000)
    assert across.pay_line == "Pair of 10s, jack, queens, kings or aces"
    assert ("pair_of_tens_middle_bets", "pay_1_to_1") in settlement.options_applied


def test_592_12_a_pair_of_tens_ante_pushes_whatever_the_bet_setting():
    settlement = replay(cc_round(**TENS, pair_of_tens_middle_bets="pay_1_to_1")).settlement
    assert settlement.line(1, Wager.ANTE_ACROSS).outcome is Outcome.PUSH
    assert settlement.line(1, Wager.ANTE_ACROSS).notes == ()


def test_592_12_b_pair_of_tens_setting_lives_in_the_rule_set():
    variant = dataclasses.replace(PA_592_2014, pair_of_tens_middle_bets=PairOfTensMiddleBets.PUSH)
    assert variant.pair_of_tens_middle_bets is PairOfTensMiddleBets.PUSH
    assert PA_592_2014.pair_of_tens_middle_bets is PairOfTensMiddleBets.PUSH


def test_592_12_b_an_unknown_pair_of_tens_setting_is_refused():
    with pytest.raises(RuleViolation) as caught:
        replay([opened(ruleset_id="PA-592-2014", day=DAY_592, pair_of_tens_middle_bets="half")])
    assert caught.value.section == "592.12(b)"


def test_592_7_g_a_player_may_not_wager_on_more_than_one_position():
    events = [
        opened(ruleset_id="PA-592-2014", day=DAY_592, seats=(1, 2), players=("A", "A")),
        WagerPlaced(seat=1, wager=Wager.ANTE_ACROSS, amount_cents=1000),
    ]
    state = replay(events).final_state
    with pytest.raises(RuleViolation) as caught:
        game.apply(state, WagerPlaced(seat=2, wager=Wager.ANTE_ACROSS, amount_cents=1000))
    assert caught.value.section == "592.7(g)"


def test_592_7_g_positions_per_player_cannot_be_raised():
    with pytest.raises(RuleViolation) as caught:
        replay([opened(ruleset_id="PA-592-2014", day=DAY_592, positions_per_player=2)])
    assert caught.value.section == "592.7(g)"


def test_592_12_chapter_592_authorizes_no_payout_limit():
    with pytest.raises(RuleViolation) as caught:
        replay([opened(ruleset_id="PA-592-2014", day=DAY_592, payout_limit_cents=5_000_000)])
    assert caught.value.section == "592.12"


def test_592_11_b_fold_before_across_bet_forfeits_both_antes():
    events = cc_round(
        community="Kc 9c 7s 4d 3d", holes={1: "Ah 2d"}, ruleset_id="PA-592-2014", bets={1: [None]}
    )
    settlement = replay(events).settlement
    assert [(line.wager, line.outcome, line.section) for line in settlement.lines] == [
        (Wager.ANTE_ACROSS, Outcome.FORFEITED, "592.11(b)"),
        (Wager.ANTE_DOWN, Outcome.FORFEITED, "592.11(b)"),
    ]


def test_592_11_h_5_the_bonus_of_a_folded_player_is_settled_last():
    events = cc_round(
        community="Kc Kd 7s 4d 3d",
        holes={1: "Ah 2d"},
        ruleset_id="PA-592-2014",
        bets={1: [1000, None]},
        bonus={1: 500},
    )
    settlement = replay(events).settlement
    assert settlement.lines[-1].wager == Wager.FIVE_CARD_BONUS
    assert settlement.lines[-1].outcome is Outcome.WIN
    assert settlement.lines[-1].section == "592.11(h)(5); 592.12(c)"


def test_592_11_d_fold_forfeits_the_across_bet():
    events = cc_round(
        community="Kc 9c 7s 4d 3d",
        holes={1: "Ah 2d"},
        ruleset_id="PA-592-2014",
        bets={1: [3000, None]},
    )
    line = replay(events).settlement.line(1, Wager.ACROSS_BET)
    assert (line.outcome, line.amount_cents, line.section) == (Outcome.FORFEITED, 3000, "592.11(d)")


def test_592_11_f_the_middle_bet_may_be_based_on_either_ante():
    events = cc_round(
        community="Kc 9c 7s 4d 3d",
        holes={1: "Ah Ad"},
        ruleset_id="PA-592-2014",
        bets={1: [1000, 1000, 3000]},
    )
    assert replay(events).settlement.line(1, Wager.MIDDLE_BET).outcome is Outcome.WIN


def test_592_11_b_decision_out_of_turn_is_refused():
    events = [opened(ruleset_id="PA-592-2014", day=DAY_592, seats=(1, 2))]
    for seat in (1, 2):
        events += [
            WagerPlaced(seat=seat, wager=Wager.ANTE_ACROSS, amount_cents=500),
            WagerPlaced(seat=seat, wager=Wager.ANTE_DOWN, amount_cents=500),
        ]
    events += [NoMoreBets(), *cc_deal("Kc 9c 7s 4d 3d", {1: "Ah 2d", 2: "Qh Qd"})]
    state = replay(events).final_state
    with pytest.raises(RuleViolation) as caught:
        game.apply(state, PlayerFolded(seat=2))
    assert caught.value.section == "592.11(b)"


def test_592_3_c_deck_change_intervals_are_data():
    assert (PA_592_2014.deck_change_hours_hand_dealt, PA_592_2014.deck_change_hours_shoe) == (4, 8)
    assert PA_592_2014.stub_count_every_rounds == 5


def test_592_is_in_force_from_2014_07_12_until_674a_took_effect():
    assert ruleset_for("criss_cross_poker", "PA", datetime.date(2014, 7, 12)) is PA_592_2014
    assert ruleset_for("criss_cross_poker", "PA", datetime.date(2016, 8, 26)) is PA_592_2014
    assert ruleset_for("criss_cross_poker", "PA", datetime.date(2016, 8, 27)).id == "PA-674a-2016"
    with pytest.raises(LookupError):
        ruleset_for("criss_cross_poker", "PA", datetime.date(2014, 7, 11))
