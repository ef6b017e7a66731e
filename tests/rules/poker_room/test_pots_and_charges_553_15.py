"""Side pots (§ 553.8(b)(4)), the uncalled bet (§ 553.15(d)), rake and time charges
(§ 553.15(b)) and the Bad Beat fund's pure rules (§ 553.20(b)-(c))."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from tables.rules.cards import parse_cards
from tables.rules.hands import evaluate_five
from tables.rules.poker_room.charges import (
    BadBeatRules,
    ChargeBasis,
    IncrementalRake,
    PercentageRake,
    RakeFinding,
    TimeCharge,
    rake_finding,
)
from tables.rules.poker_room.pots import build_pots, split


def test_553_8_b_4_iii_each_all_in_level_forms_a_side_pot_for_the_players_above_it():
    pots, returned = build_pots({1: 100, 2: 300, 3: 600, 4: 600}, live={1, 2, 3, 4})
    assert [(pot.amount_cents, pot.eligible) for pot in pots] == [
        (400, (1, 2, 3, 4)),
        (600, (2, 3, 4)),
        (600, (3, 4)),
    ]
    assert returned is None


def test_553_8_b_4_i_folded_money_stays_in_the_pots_it_reached():
    pots, returned = build_pots({1: 100, 2: 400, 3: 400, 4: 250}, live={1, 2, 3})
    assert [(pot.amount_cents, pot.eligible) for pot in pots] == [(400, (1, 2, 3)), (750, (2, 3))]
    assert returned is None


def test_553_15_d_the_uncalled_part_of_the_largest_bet_is_returned():
    pots, returned = build_pots({1: 200, 2: 1_000, 3: 600}, live={2, 3})
    assert returned == (2, 400)
    assert sum(pot.amount_cents for pot in pots) == 1_400


def test_553_10_i_2_ii_a_split_gives_the_odd_chips_in_order():
    assert split(1_000, (2, 1), chip_cents=100) == {2: 500, 1: 500}
    assert split(500, (9, 4), chip_cents=100) == {9: 300, 4: 200}


@st.composite
def _contributions(draw):
    seats = draw(st.lists(st.integers(1, 10), min_size=2, max_size=10, unique=True))
    amounts = {seat: draw(st.integers(0, 5_000)) for seat in seats}
    live = draw(st.sets(st.sampled_from(seats), min_size=1))
    return amounts, live


@given(_contributions())
def test_553_8_b_4_chips_are_conserved_and_each_pot_goes_only_to_those_who_reached_it(case):
    amounts, live = case
    ordered = sorted(amounts.values(), reverse=True)
    # A hand never ends with folded money above every live player's call (someone matched it).
    assume(max(amounts[seat] for seat in live) >= ordered[1])
    pots, returned = build_pots(amounts, live=live)
    assert sum(pot.amount_cents for pot in pots) + (returned[1] if returned else 0) == sum(
        amounts.values()
    )
    for earlier, later in zip(pots, pots[1:], strict=False):
        assert set(later.eligible) < set(earlier.eligible)
    for seat in live:
        # § 553.8(b)(4)(i): at most what each opponent put in up to his own contribution.
        reachable = sum(min(amount, amounts[seat]) for amount in amounts.values())
        assert sum(pot.amount_cents for pot in pots if seat in pot.eligible) <= reachable
    assert all(pot.eligible and set(pot.eligible) <= live for pot in pots)


def test_553_15_b_1_a_percentage_rake_may_not_exceed_ten_percent():
    with pytest.raises(ValueError, match="553.15"):
        PercentageRake(rate=Fraction(11, 100))


def test_553_15_a_3_the_posted_maximum_caps_the_rake_of_the_round_main_pot_first():
    rake = PercentageRake(rate=Fraction(1, 10), cap_cents=500, unit_cents=100)
    assert rake.required((4_000, 2_999, 900), reached_flop=True) == (400, 100, 0)


@given(st.lists(st.integers(0, 100_000), min_size=1, max_size=6), st.integers(0, 1_000))
def test_553_15_b_1_the_rake_never_exceeds_ten_percent_of_any_pot_nor_the_cap(pots, cap):
    taken = PercentageRake(rate=Fraction(1, 10), cap_cents=cap, unit_cents=25).required(
        pots, reached_flop=True
    )
    assert all(amount * 10 <= pot for amount, pot in zip(taken, pots, strict=True))
    assert sum(taken) <= cap and all(amount % 25 == 0 for amount in taken)


def test_553_15_b_2_an_incremental_rake_takes_its_amounts_at_each_level_reached():
    rake = IncrementalRake(levels=((1_000, 100), (2_000, 100), (5_000, 100)))
    assert rake.required((999,), reached_flop=True) == (0,)
    assert rake.required((1_500, 500), reached_flop=True) == (200, 0)
    assert rake.required((6_000,), reached_flop=True) == (300,)


def test_553_15_b_3_time_charges_every_20_or_30_minutes_per_player_or_per_table():
    with pytest.raises(ValueError, match="553.15"):
        TimeCharge(hourly_cents=600, period_minutes=15, basis=ChargeBasis.PER_TABLE)
    per_player = TimeCharge(hourly_cents=600, period_minutes=30, basis=ChargeBasis.PER_PLAYER)
    # § 553.15(b)(3)(i): inactive seated players are assessed too.
    assert per_player.due_cents(seated=9) == 2_700
    per_table = TimeCharge(hourly_cents=1_000, period_minutes=20, basis=ChargeBasis.PER_TABLE)
    assert (per_table.due_cents(seated=9), per_table.due_cents(seated=0)) == (333, 0)


def test_553_15_the_replay_finds_over_and_under_raking():
    assert rake_finding(300, 300) == (RakeFinding.CORRECT, 0)
    assert rake_finding(300, 400) == (RakeFinding.OVER_RAKED, 100)
    assert rake_finding(300, 200) == (RakeFinding.UNDER_RAKED, -100)


def _bad_beat(**changes) -> BadBeatRules:
    values = {
        "rate": Fraction(1, 10), "maximum_cents": 100, "unit_cents": 100,
        "minimum_pot_cents": 2_000, "payout_share": Fraction(1), "losing_share": Fraction(1, 2),
        "winning_share": Fraction(1, 4), "table_share": Fraction(1, 4),
        "qualifying_hand": evaluate_five(parse_cards("Ah Ac Ad Jh Jc")),
    }  # fmt: skip
    return BadBeatRules(**{**values, **changes})


def test_553_20_b_1_2_the_contribution_has_a_maximum_and_a_minimum_pot():
    rules = _bad_beat()
    assert rules.contribution_cents(pot_before_rake_cents=1_999, pot_after_rake_cents=1_800) == 0
    assert rules.contribution_cents(pot_before_rake_cents=5_000, pot_after_rake_cents=4_600) == 100
    measured_after = _bad_beat(minimum_measured_before_rake=False)
    assert (
        measured_after.contribution_cents(pot_before_rake_cents=2_100, pot_after_rake_cents=1_900)
        == 0
    )


def test_553_20_c_the_contribution_is_taken_after_the_rake():
    rules = _bad_beat(maximum_cents=10_000, unit_cents=1)
    assert rules.contribution_cents(pot_before_rake_cents=3_000, pot_after_rake_cents=2_700) == 270


def test_553_20_b_3_a_losing_hand_qualifies_at_or_above_the_posted_hand():
    rules = _bad_beat()
    assert rules.qualifies(evaluate_five(parse_cards("As Ah Ad Jd Js")))
    assert rules.qualifies(evaluate_five(parse_cards("2s 2h 2d 2c 3s")))
    assert not rules.qualifies(evaluate_five(parse_cards("As Ah Ad Td Ts")))


def test_553_20_b_3_the_shares_must_add_up_to_the_payout():
    with pytest.raises(ValueError, match="553.20"):
        _bad_beat(table_share=Fraction(1, 3))


@given(st.integers(0, 10**9), st.lists(st.integers(1, 10), max_size=10, unique=True))
def test_553_20_i_every_cent_of_the_fund_is_paid_or_kept_in_it(fund, seats):
    award = _bad_beat(payout_share=Fraction(4, 5)).award(
        fund_cents=fund, losing_seat=11, winning_seat=12, table_seats=seats
    )
    paid = award.losing_hand_cents + award.winning_hand_cents + sum(award.table_cents.values())
    assert paid + award.kept_cents == fund and award.kept_cents >= 0
