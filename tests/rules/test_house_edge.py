"""The house edges kept as data (``tables.rules.house_edge``) are the par
sheets' own figures: each constant is checked against its source here."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from tables.rules import parsheet
from tables.rules.events import Wager
from tables.rules.house_edge import (
    CRISS_CROSS_GAME,
    CRISS_CROSS_GAME_PAYING_TENS,
    DOUBLE_CROSS_GAME,
    FIVE_CARD_BONUS,
    THREE_CARD,
    house_edges,
    theoretical_win,
)
from tables.rules.rulesets import MA_DCP, PA_592_2014, PA_674A_2016, PA_674A_2019
from tests.rules.test_parsheet import EXACT_592_PAYING_TENS, EXACT_674A


@pytest.mark.parametrize("ruleset", [PA_592_2014, PA_674A_2016, PA_674A_2019],
                         ids=lambda r: r.id)  # fmt: skip
def test_592_674a_12_c_five_card_bonus_edge_is_the_exact_par_sheet(ruleset):
    assert FIVE_CARD_BONUS.edge == parsheet.five_card_bonus_sheet(ruleset).house_edge
    assert FIVE_CARD_BONUS in house_edges(ruleset.id)


def test_section_11_c_three_card_edge_is_the_exact_par_sheet():
    assert THREE_CARD.edge == parsheet.three_card_sheet(MA_DCP).house_edge


def test_criss_cross_whole_game_edges_are_the_exact_solvers():
    # EXACT_674A and EXACT_592_PAYING_TENS are what parsheet_exact.solve_game
    # gives (test_parsheet's slow tests solve them).
    assert CRISS_CROSS_GAME.edge == EXACT_674A[0]
    assert CRISS_CROSS_GAME_PAYING_TENS.edge == EXACT_592_PAYING_TENS[0]
    # § 592.12(b): the default reading (push) and the paying one.
    assert house_edges("PA-592-2014")[0] is CRISS_CROSS_GAME
    assert house_edges("PA-592-2014", "pay_1_to_1")[0] is CRISS_CROSS_GAME_PAYING_TENS


def test_double_cross_base_edge_agrees_with_a_fresh_simulation():
    pays = parsheet.DoubleCrossPays.of(MA_DCP)
    strategy = parsheet.DoubleCrossOptimal(pays, random.Random(3), samples=16)
    fresh = parsheet.simulate_double_cross_game(random.Random(5), strategy, 4_000)
    apart = abs(fresh.house_edge - DOUBLE_CROSS_GAME.edge)
    assert apart <= fresh.house_edge_half_width + DOUBLE_CROSS_GAME.half_width


def test_theoretical_win_counts_only_the_handle_each_edge_names():
    wagers = {Wager.ANTE_ACROSS: 1_000, Wager.ANTE_DOWN: 1_000, Wager.FIVE_CARD_BONUS: 500,
              Wager.MIDDLE_BET: 3_000, Wager.ACROSS_BET: 1_000}  # fmt: skip
    expected = 2_000 * CRISS_CROSS_GAME.edge + 500 * FIVE_CARD_BONUS.edge
    assert theoretical_win("PA-674a-2019", wagers) == expected
    assert theoretical_win("MA-DCP-UNDATED", {Wager.ANTE: 100_000, Wager.RAISE_1: 200_000}) == (
        100_000 * Fraction(6_259, 100_000)
    )


def test_an_unknown_rule_set_has_no_edge():
    with pytest.raises(KeyError, match="no house edge is recorded for rule set XX"):
        house_edges("XX")


@pytest.mark.parametrize("pair_plus", ["565.12(d) minimum", "1-4-6-30-40", "1-3-6-30-40"])
def test_565_12_d_pair_plus_edge_finance_uses_is_the_par_sheet(pair_plus):
    from tables.rules.parsheets import three_card_poker as sheet

    edges = house_edges("PA-565-2010", options={"pair_plus_table": pair_plus})
    (pair_plus_edge,) = [edge for edge in edges if edge.handle == {"PAIR_PLUS"}]
    assert pair_plus_edge.edge == sheet.pair_plus_sheet(pair_plus).house_edge


def test_565_12_e_f_ante_edge_finance_uses_is_the_optimal_game_of_each_bonus():
    from tables.rules.parsheets import three_card_poker as sheet

    for table, reading in sheet.bonus_choices():
        options = {"version": "base" if table == "base" else "f1",
                   "ante_bonus_table": table, "ante_bonus_reading": reading}  # fmt: skip
        ante, play, _ = house_edges("PA-565-2010", options=options)
        assert ante.handle == {"ANTE"} and play.handle == {"PLAY"} and play.edge == 0
        assert ante.edge == sheet.ante_play(table, reading).house_edge
    assert house_edges("PA-565-2010")[0].edge == Fraction(686_689, 20_358_520)  # § 565.12(e)


def test_565_three_card_poker_theoretical_win_is_ante_times_game_edge_plus_pair_plus():
    # Options as a settlement records them: strings, the rounding among them.
    recorded = {"rounding": "ROUND_DOWN_TO_CENT", "version": "base",
                "pair_plus_table": "1-4-6-30-40", "ante_bonus_table": "base",
                "fold_pair_plus": "settled", "tie_rule": "conventional"}  # fmt: skip
    wagers = {"ANTE": 1_000, "PLAY": 1_000, "PAIR_PLUS": 500}
    expected = 1_000 * Fraction(686_689, 20_358_520) + 500 * Fraction(128, 5_525)
    assert theoretical_win("PA-565-2010", wagers, options=recorded) == expected


def test_every_handle_wager_of_a_game_with_generated_edges_has_exactly_one_edge():
    from tables.rules import parsheets, registry

    for game_id in registry.game_ids():
        module = parsheets.module(game_id)
        if module is None or not hasattr(module, "house_edges"):
            continue
        game = registry.declared(game_id) or registry.blackjack(game_id)
        assert game is not None
        for ruleset in game.rulesets:
            named = [name for edge in house_edges(ruleset.id) for name in edge.handle]
            assert sorted(named) == sorted(game.handle_wagers), game_id


def test_593_5_c_finance_reads_an_option_back_from_the_text_a_settlement_records():
    """Settlements record each option as text (``nine_wins_on_ten`` "True"); the
    theoretical win finance computes from them uses the option itself."""
    from tables.rules.house_edge import house_edges

    for value in (False, True):
        as_recorded = house_edges("PA-593-2014", options={"nine_wins_on_ten": str(value)})
        assert as_recorded == house_edges("PA-593-2014", options={"nine_wins_on_ten": value})
    assert house_edges("PA-593-2014", options={"nine_wins_on_ten": "True"}) != house_edges(
        "PA-593-2014", options={"nine_wins_on_ten": "False"}
    )
    with pytest.raises(ValueError, match="593.5"):
        house_edges("PA-593-2014", options={"nine_wins_on_ten": "maybe"})
