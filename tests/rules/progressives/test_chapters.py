"""Each chapter's progressive rules and pay schedule, as the regulation states them."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tables.rules.money import Fixed, MeterShare
from tables.rules.progressives.chapters import (
    CARIBBEAN_STUD_555,
    RAISE_IT_UP_587,
    SIX_CARD_FORTUNE_588,
    ForOne,
    InventoryRule,
    ScheduleLine,
    caribbean_stud_schedule,
    chapter_rules,
    check_schedule,
)


def schedule(rules):
    return [(line.hand, str(line.pays)) for line in rules.schedule]


def test_555_13_d_the_least_progressive_payouts():
    assert schedule(CARIBBEAN_STUD_555) == [
        ("ROYAL_FLUSH", "100% of the meter"),
        ("STRAIGHT_FLUSH", "10% of the meter"),
        ("FOUR_OF_A_KIND", "$500.00"),
        ("FULL_HOUSE", "$100.00"),
        ("FLUSH", "$50.00"),
    ]


def test_555_13_d_the_straight_flush_pays_10_percent_or_5000_dollars_as_designated():
    for at_ten_percent in (True, False):
        lines = caribbean_stud_schedule(straight_flush_at_ten_percent=at_ten_percent)
        assert check_schedule(CARIBBEAN_STUD_555, lines) is None
    more = tuple(
        ScheduleLine(hand=line.hand, label=line.label, pays=MeterShare(Fraction(15, 100)))
        if line.hand == "STRAIGHT_FLUSH"
        else line
        for line in CARIBBEAN_STUD_555.schedule
    )
    assert check_schedule(CARIBBEAN_STUD_555, more) is None
    less = tuple(
        ScheduleLine(hand=line.hand, label=line.label, pays=Fixed(499_999))
        if line.hand == "STRAIGHT_FLUSH"
        else line
        for line in CARIBBEAN_STUD_555.schedule
    )
    assert check_schedule(CARIBBEAN_STUD_555, less).section == "555.13(d)"


def test_555_13_d_every_hand_of_the_schedule_is_listed():
    refusal = check_schedule(CARIBBEAN_STUD_555, CARIBBEAN_STUD_555.schedule[:-1])
    assert refusal.section == "555.13(d)" and "FLUSH" in refusal.reason


def test_587_12_e_1_the_progressive_payout_odds_are_for_1():
    assert schedule(RAISE_IT_UP_587) == [
        ("AKQ_SPADES", "100% of the meter"),
        ("AKQ_HEARTS_DIAMONDS_CLUBS", "500 for 1"),
        ("STRAIGHT_FLUSH", "70 for 1"),
        ("THREE_OF_A_KIND", "60 for 1"),
        ("STRAIGHT", "6 for 1"),
    ]


def test_588_12_d_1_the_progressive_payout_odds():
    assert schedule(SIX_CARD_FORTUNE_588) == [
        ("FIVE_ACES", "100% of the meter"),
        ("ROYAL_FLUSH", "10% of the meter"),
        ("STRAIGHT_FLUSH", "300 for 1"),
        ("FOUR_OF_A_KIND", "150 for 1"),
        ("FULL_HOUSE", "15 for 1"),
        ("FLUSH", "6 for 1"),
        ("STRAIGHT", "3 for 1"),
    ]


def test_for_one_pays_the_multiple_of_the_wager_and_the_house_keeps_a_fraction_of_a_cent():
    assert ForOne(500).on(100) == 50_000
    assert ForOne(3, 2).on(101) == 151


def test_the_minimums_of_each_chapter():
    assert (CARIBBEAN_STUD_555.minimum_rate, CARIBBEAN_STUD_555.rate_section) == (
        Fraction(7, 10),
        "555.13(e)",
    )
    assert (RAISE_IT_UP_587.minimum_rate, RAISE_IT_UP_587.minimum_reset_cents) == (
        Fraction(14, 100),
        100_000,
    )
    assert (SIX_CARD_FORTUNE_588.minimum_rate, SIX_CARD_FORTUNE_588.minimum_reset_cents) == (
        None,
        500_000,
    )


def test_the_turn_rule_of_555_is_subsection_f():
    # The issue cites § 555.13(e); (e) is the rate of progression, (f) the turn rule.
    assert CARIBBEAN_STUD_555.turn_section == "555.13(f)"
    assert CARIBBEAN_STUD_555.shared_whole_meter_section == "555.13(f)"
    assert RAISE_IT_UP_587.shared_whole_meter_section is None


def test_which_meter_payouts_may_not_come_from_the_table_inventory():
    assert CARIBBEAN_STUD_555.inventory_rule is InventoryRule.NOT_STATED
    assert (RAISE_IT_UP_587.inventory_rule, RAISE_IT_UP_587.inventory_section) == (
        InventoryRule.WHOLE_METER,
        "587.11(i)(3)(i)(D)",
    )
    assert SIX_CARD_FORTUNE_588.inventory_rule is InventoryRule.ANY_METER_SHARE


def test_561_pai_gow_poker_defines_no_progressive():
    with pytest.raises(ValueError, match="561"):
        chapter_rules("561")
