"""Three Card Poker par sheet (§ 565), exact: the counts, the edges, the optimal strategy.

Published figures (Wizard of Odds, Shackleford) agree: Pair Plus 7.28 % on
1-3-6-30-40 and 2.32 % on 1-4-6-30-40; Ante/Play 3.37 % per Ante, element of
risk 2.01 %, play Q-6-4 or better.
"""

from __future__ import annotations

import random
from decimal import Decimal
from fractions import Fraction
from itertools import combinations
from math import comb

import pytest

from tables.rules import parsheets
from tables.rules.cards import STANDARD_DECK, parse_cards
from tables.rules.games import three_card_poker_565 as tcp
from tables.rules.parsheet import percent
from tables.rules.parsheets import three_card_poker as sheet

# Hands by category, from first principles (not by the evaluator).
STRAIGHT_FLUSHES = 12 * 4  # A-2-3 to A-K-Q (§ 565.6(b)(1)), four suits
MINI_ROYALS = 4
TRIPS = 13 * comb(4, 3)
STRAIGHTS = 12 * 4**3 - STRAIGHT_FLUSHES  # § 565.6(b)(3): more than one suit
FLUSHES = 4 * comb(13, 3) - STRAIGHT_FLUSHES
PAIRS = 13 * comb(4, 2) * 48


def rows(wager_sheet):
    return {row.label: row.combinations for row in wager_sheet.rows}


def test_565_12_d_pair_plus_counts_every_hand_once():
    assert (PAIRS, FLUSHES, STRAIGHTS, TRIPS, STRAIGHT_FLUSHES) == (3_744, 1_096, 720, 52, 48)
    minimum = sheet.pair_plus_sheet("565.12(d) minimum")
    assert rows(minimum) == {
        "Mini royal flush (A-K-Q)": MINI_ROYALS,
        "Straight flush": STRAIGHT_FLUSHES - MINI_ROYALS,
        "Three-of-a-kind": TRIPS,
        "Straight": STRAIGHTS,
        "Flush": FLUSHES,
        "Pair": PAIRS,
        "Less than a pair (loses)": comb(52, 3) - 5_660,
    }
    assert minimum.total == 22_100 and minimum.hit_frequency == Fraction(5_660, 22_100)


@pytest.mark.parametrize(
    "table, paid, edge, shown",
    [
        # § 565.12(d) minimum: 1-3-5-25-35, mini royal 35.
        ("565.12(d) minimum", 35 * 48 + 25 * 52 + 5 * 720 + 3 * 1_096 + 3_744, 707, "12.7964"),
        ("1-4-6-30-40", 40 * 48 + 30 * 52 + 6 * 720 + 4 * 1_096 + 3_744, 128, "2.3167"),
        ("1-3-6-30-40", 40 * 48 + 30 * 52 + 6 * 720 + 3 * 1_096 + 3_744, 402, "7.2760"),
    ],
)
def test_565_12_d_pair_plus_house_edge_of_every_pay_table(table, paid, edge, shown):
    pair_plus = sheet.pair_plus_sheet(table)
    expected = Fraction(16_440 - paid, 22_100)
    assert pair_plus.house_edge == expected == Fraction(edge, 5_525)
    assert percent(pair_plus.house_edge) == Decimal(shown)


def test_published_7_28_percent_is_the_1_3_6_30_40_table_not_1_4_6_30_40():
    assert round(float(sheet.pair_plus_sheet("1-3-6-30-40").house_edge) * 100, 2) == 7.28
    assert round(float(sheet.pair_plus_sheet("1-4-6-30-40").house_edge) * 100, 2) == 2.32


def test_565_12_e_base_ante_bonus_returns_straight_1_trips_4_straight_flush_5():
    bonus = sheet.ante_bonus_sheet("base")
    expected = Fraction(1 * STRAIGHTS + 4 * TRIPS + 5 * STRAIGHT_FLUSHES, 22_100)
    assert bonus.expected_result == expected == Fraction(292, 5_525)
    assert rows(bonus)["Less than a straight (no bonus)"] == 22_100 - 720 - 52 - 48


@pytest.mark.parametrize(
    "table, reading, paid",
    [
        # § 565.12(f) column A: mini royal 5, spades 50 in every reading, straight 1.
        ("A", "straight_A_spades_AB", 50 + 3 * 5 + 44 * 4 + 52 * 3 + 720),
        ("A", "straight_ABC_spades_AC", 50 + 3 * 5 + 44 * 4 + 52 * 3 + 720),
        ("B", "straight_A_spades_AB", 4 * 50 + 44 * 8 + 52 * 6),
        ("B", "straight_ABC_spades_AC", 4 * 50 + 44 * 8 + 52 * 6 + 720),
        ("C", "straight_A_spades_AB", 4 * 10 + 44 * 4 + 52 * 3),
        ("C", "straight_A_spades_AC", 50 + 3 * 10 + 44 * 4 + 52 * 3),
        ("C", "straight_ABC_spades_AB", 4 * 10 + 44 * 4 + 52 * 3 + 720),
        ("C", "straight_ABC_spades_AC", 50 + 3 * 10 + 44 * 4 + 52 * 3 + 720),
    ],
)
def test_565_12_f_ante_bonus_of_each_column_under_each_reading(table, reading, paid):
    assert sheet.ante_bonus_sheet(table, reading).expected_result == Fraction(paid, 22_100)


def test_565_11_b_optimal_play_is_q_6_4_or_better_and_the_edge_is_exact():
    game = sheet.ante_play()
    assert game.house_edge == Fraction(686_689, 20_358_520)
    assert game.element_of_risk == Fraction(686_689, 34_084_400)
    assert game.play_hands == 14_900 and game.play_frequency == Fraction(149, 221)
    assert (game.threshold, game.exceptions) == ("Q-6-4", 0)
    assert game.bonus_return == sheet.ante_bonus_sheet("base").expected_result
    # The published 3.37 % and 2.01 %, to their precision.
    assert (percent(game.house_edge, 2), percent(game.element_of_risk, 2)) == (
        Decimal("3.37"),
        Decimal("2.01"),
    )
    assert sheet.value_of_playing(parse_cards("Qs 6d 4c")) > -1
    assert sheet.value_of_playing(parse_cards("Qs 6d 3c")) < -1


def brute_force(cards, tie_rule):
    """Ante + Play over every dealer hand, with the game module's own rules."""
    rest = [card for card in STANDARD_DECK if card not in cards]
    total = 0
    for dealer in combinations(rest, 3):
        if not tcp.qualifies(dealer):
            total += 1  # § 565.12(a)
        else:
            total += 2 * tcp.compare(cards, dealer, tie_rule)  # § 565.12(b), (c)
    return Fraction(total, 18_424)


@pytest.mark.parametrize("tie_rule", ["conventional", "literal"])
def test_565_12_a_to_c_counting_equals_every_dealer_hand_dealt(tie_rule):
    chosen = ["Qs 6d 4c", "Qh 6h 3c", "2s 2h Ad", "Ks Kh 3d", "Ac 2d 3h", "2c 3d 4h",
              "Ks Qs Js", "7c 5d 2h", "Ah Ad Ac", "Js 9s 4s"]  # fmt: skip
    generator = random.Random(565)
    hands = [parse_cards(text) for text in chosen]
    hands += [generator.sample(STANDARD_DECK, 3) for _ in range(20)]
    for cards in hands:
        odds = tcp.pay(tcp.ante_bonus("base", None), tcp.hand_key(cards))  # § 565.12(e)
        bonus = odds.ratio if odds is not None else 0
        expected = brute_force(cards, tie_rule) + bonus
        assert sheet.value_of_playing(cards, tie_rule=tie_rule) == expected, cards


def test_565_6_c_literal_tie_rule_moves_single_hands_but_not_the_edge():
    # 2-2-A beats K-K-3 read literally: the pair of 2s gains, yet the game's
    # total is a sum of antisymmetric changes over hands that are all played.
    deuces = parse_cards("2s 2h Ad")
    assert sheet.value_of_playing(deuces, tie_rule="literal") > sheet.value_of_playing(deuces)
    assert sheet.ante_play(tie_rule="literal").house_edge == sheet.ante_play().house_edge


def test_565_11_b_every_hand_pair_plus_pays_is_played_so_the_forfeit_never_bites():
    for cards in combinations(STANDARD_DECK, 3):
        if tcp.pay(tcp.PAIR_PLUS_MINIMUM, tcp.hand_key(cards)) is None:
            continue
        for table, reading in sheet.bonus_choices():
            assert sheet.value_of_playing(cards, table, reading) > -1


def test_565_12_f_ante_play_edge_of_each_bonus_is_the_base_game_less_the_difference():
    base = sheet.ante_play()
    for table, reading in sheet.bonus_choices():
        game = sheet.ante_play(table, reading)
        assert game.play_hands == base.play_hands  # the bonus pays only hands already played
        difference = sheet.ante_bonus_sheet(table, reading).expected_result - (
            sheet.ante_bonus_sheet("base").expected_result
        )
        assert game.house_edge == base.house_edge - difference


def test_the_registry_finds_the_par_sheet_and_its_options():
    assert "three_card_poker" in parsheets.games()
    assert parsheets.provider("three_card_poker") is sheet.parsheet
    with pytest.raises(ValueError, match=r"565.12\(d\)"):
        parsheets.options("three_card_poker", {"pair_plus_table": "9-9-9"})
    with pytest.raises(ValueError, match="unknown option"):
        parsheets.options("three_card_poker", {"pair_of_tens": "push"})
