"""Envy bonuses of Raise It Up Stud Poker (§ 587) and Six-Card Fortune Pai Gow Poker (§ 588)."""

from __future__ import annotations

import itertools

import pytest

from tables.rules.cards import Card
from tables.rules.engine import RuleViolation
from tables.rules.progressives.envy import (
    ENVY_588,
    EnvyKind,
    EnvyReadings588,
    EnvyRecipients,
    EnvySeat587,
    EnvySeat588,
    UnscheduledAmounts,
    envy_hand_587,
    settle_envy_587,
    settle_envy_588,
)

DECK = [Card.from_index(index) for index in range(52)]


def paid(settlement):
    return [
        (line.seat, line.kind.value, line.for_seat, line.amount_cents) for line in settlement.lines
    ]


# --- § 587 ---------------------------------------------------------------------------


def test_587_1_the_envy_qualifying_hand_is_ace_king_queen_of_one_suit_by_enumeration():
    counts = {}
    for cards in itertools.combinations(DECK, 3):
        hand = envy_hand_587(cards)
        counts[hand] = counts.get(hand, 0) + 1
    assert counts["AKQ_SPADES"] == 1
    assert counts["AKQ_HEARTS_DIAMONDS_CLUBS"] == 3
    assert counts[None] == 22_100 - 4


def test_587_12_e_5_pays_by_the_receivers_wager_of_1_or_5_dollars():
    seats = [
        EnvySeat587(seat=1, progressive_cents=100),
        EnvySeat587(seat=2, progressive_cents=500),
        EnvySeat587(seat=3, hand="AKQ_SPADES"),  # no wager: receives nothing, still counts
        EnvySeat587(seat=5, progressive_cents=100, hand="AKQ_HEARTS_DIAMONDS_CLUBS"),
    ]
    assert paid(settle_envy_587(seats)) == [
        (5, "progressive", 3, 10_000),
        (2, "progressive", 5, 12_500),
        (2, "progressive", 3, 50_000),
        (1, "progressive", 5, 2_500),
        (1, "progressive", 3, 10_000),
    ]
    assert {line.section for line in settle_envy_587(seats).lines} == {"587.12(e)(5)"}


def test_587_11_i_3_i_E_never_for_ones_own_hand_and_once_for_each_other_hand():
    seats = [
        EnvySeat587(seat=1, progressive_cents=100, hand="AKQ_SPADES"),
        EnvySeat587(seat=4, progressive_cents=100, hand="AKQ_SPADES"),
        EnvySeat587(seat=6, progressive_cents=100, hand="AKQ_HEARTS_DIAMONDS_CLUBS"),
    ]
    lines = settle_envy_587(seats).lines
    assert all(line.seat != line.for_seat for line in lines)
    assert len(lines) == 6
    assert settle_envy_587(seats).total_cents == 2 * 10_000 + 2 * 10_000 + 2 * 2_500


def test_587_11_g_a_player_who_folded_keeps_his_envy_bonus():
    # The engine passes every Progressive Payout Wager, forfeited or not (§ 587.11(g)).
    folded = EnvySeat587(seat=2, progressive_cents=500)
    settlement = settle_envy_587([folded, EnvySeat587(seat=6, hand="AKQ_SPADES")])
    assert paid(settlement) == [(2, "progressive", 6, 50_000)]


def test_587_12_e_5_states_no_envy_bonus_for_other_wagers():
    seats = [EnvySeat587(seat=1, progressive_cents=200), EnvySeat587(seat=2, hand="AKQ_SPADES")]
    with pytest.raises(RuleViolation) as caught:
        settle_envy_587(seats)
    assert caught.value.section == "587.12(e)(5)"
    # Nothing to pay, nothing to refuse.
    assert settle_envy_587([EnvySeat587(seat=1, progressive_cents=200)]).lines == ()


def test_587_1_refuses_a_hand_that_does_not_qualify():
    with pytest.raises(RuleViolation, match="587.1"):
        settle_envy_587([EnvySeat587(seat=1, hand="STRAIGHT_FLUSH")])


# --- § 588 ---------------------------------------------------------------------------

EVERY_READING = [
    EnvyReadings588(recipients=recipients, unscheduled=unscheduled)
    for recipients in EnvyRecipients
    for unscheduled in UnscheduledAmounts
]


def test_588_12_transcribes_both_envy_schedules():
    assert ENVY_588[EnvyKind.FORTUNE_BONUS][100]["FIVE_ACES"] == 100_000
    assert ENVY_588[EnvyKind.FORTUNE_BONUS][500]["FULL_HOUSE"] == 2_500
    assert ENVY_588[EnvyKind.PROGRESSIVE][100]["FOUR_OF_A_KIND"] == 500
    assert "FOUR_OF_A_KIND" not in ENVY_588[EnvyKind.PROGRESSIVE][500]


@pytest.mark.parametrize("readings", EVERY_READING, ids=lambda r: f"{r.recipients}-{r.unscheduled}")
def test_588_11_h_qualifying_wagers_of_5_dollars_are_paid_alike_under_every_reading(readings):
    seats = [
        EnvySeat588(seat=1, fortune_bonus_cents=500, progressive_cents=500),
        EnvySeat588(seat=3, hand="ROYAL_FLUSH"),
        EnvySeat588(seat=4, fortune_bonus_cents=500, hand="FULL_HOUSE"),
    ]
    settlement = settle_envy_588(seats, readings)
    assert paid(settlement) == [
        # Fortune Bonus Envy bonuses first (§ 588.11(h)(1)(ii)), then the Progressive's.
        (4, "fortune_bonus", 3, 100_000),
        (1, "fortune_bonus", 4, 2_500),
        (1, "fortune_bonus", 3, 100_000),
        (1, "progressive", 3, 25_000),  # a full house is no Progressive qualifying hand
    ]
    assert settlement.readings == readings


def test_588_11_h_never_for_ones_own_hand_or_the_dealers():
    seats = [EnvySeat588(seat=2, fortune_bonus_cents=500, hand="FIVE_ACES")]
    assert settle_envy_588(seats).lines == ()  # the dealer holds no seat


def test_588_7_f_a_player_on_two_adjacent_areas_is_not_paid_for_either_of_his_hands():
    seats = [
        EnvySeat588(seat=2, fortune_bonus_cents=500, player="p"),
        EnvySeat588(seat=3, hand="STRAIGHT_FLUSH", player="p"),
        EnvySeat588(seat=5, hand="FULL_HOUSE"),
    ]
    assert paid(settle_envy_588(seats)) == [(2, "fortune_bonus", 5, 2_500)]


def test_588_no_reading_is_asked_for_where_the_readings_agree():
    assert settle_envy_588([EnvySeat588(seat=1, progressive_cents=100)]).lines == ()


def test_588_a_one_dollar_wager_needs_the_rule_sets_reading_of_who_is_paid():
    seats = [EnvySeat588(seat=1, fortune_bonus_cents=100), EnvySeat588(seat=2, hand="FULL_HOUSE")]
    with pytest.raises(RuleViolation) as caught:
        settle_envy_588(seats)
    assert (caught.value.section, caught.value.field) == ("588.11(h)(1)(ii)", "recipients")
    by_reading = {
        recipients: paid(settle_envy_588(seats, EnvyReadings588(recipients=recipients)))
        for recipients in EnvyRecipients
    }
    assert by_reading == {
        EnvyRecipients.LAMMER_HOLDERS: [],  # no lammer for a $1 wager (§ 588.8(b)(1))
        EnvyRecipients.QUALIFYING_WAGER_OF_THE_KIND: [],
        EnvyRecipients.SCHEDULED_WAGER_OF_THE_KIND: [(1, "fortune_bonus", 2, 500)],
    }


def test_588_one_lammer_for_two_bonuses_pays_the_other_kind_by_its_own_wager():
    # A $5 Progressive Payout Wager earns the lammer; the Fortune Bonus Wager is $1.
    seats = [
        EnvySeat588(seat=1, fortune_bonus_cents=100, progressive_cents=500),
        EnvySeat588(seat=6, hand="FOUR_OF_A_KIND"),
    ]
    lammer = settle_envy_588(seats, EnvyReadings588(recipients=EnvyRecipients.LAMMER_HOLDERS))
    own = settle_envy_588(
        seats, EnvyReadings588(recipients=EnvyRecipients.QUALIFYING_WAGER_OF_THE_KIND)
    )
    assert paid(lammer) == [(1, "fortune_bonus", 6, 1_500)]  # the $1 schedule
    assert paid(own) == []
    # § 588.12(d)(4): the $5 Progressive schedule has no four-of-a-kind row.
    assert lammer.notes == own.notes
    assert "states no amount for a FOUR_OF_A_KIND" in own.notes[0]


def test_588_a_wager_above_5_dollars_needs_the_reading_for_unscheduled_amounts():
    seats = [EnvySeat588(seat=1, fortune_bonus_cents=2_500), EnvySeat588(seat=2, hand="FULL_HOUSE")]
    readings = EnvyReadings588(recipients=EnvyRecipients.QUALIFYING_WAGER_OF_THE_KIND)
    with pytest.raises(RuleViolation) as caught:
        settle_envy_588(seats, readings)
    assert (caught.value.section, caught.value.field) == ("588.12(b)(ii)", "unscheduled")
    five = EnvyReadings588(
        recipients=EnvyRecipients.QUALIFYING_WAGER_OF_THE_KIND,
        unscheduled=UnscheduledAmounts.FIVE_DOLLAR_SCHEDULE,
    )
    assert paid(settle_envy_588(seats, five)) == [(1, "fortune_bonus", 2, 2_500)]
    nothing = EnvyReadings588(
        recipients=EnvyRecipients.QUALIFYING_WAGER_OF_THE_KIND,
        unscheduled=UnscheduledAmounts.NOTHING,
    )
    settlement = settle_envy_588(seats, nothing)
    assert settlement.lines == () and settlement.readings == nothing


def test_588_1_refuses_a_hand_that_qualifies_for_no_envy_bonus():
    with pytest.raises(RuleViolation, match="588.1"):
        settle_envy_588([EnvySeat588(seat=1, hand="FLUSH")])
