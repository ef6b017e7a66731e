"""The variance rules of a table's day (``tables.reconciliation``) against
hand-computed days. Thresholds are practice defaults (``VariancePolicy``),
not regulation; the win is closer + credits + drop − opener − fills (as the
issue cites PA § 601a.9(c), not among our sources)."""

from __future__ import annotations

import datetime
from fractions import Fraction

import orjson
import pytest

from tables.reconciliation import (
    LEFT_OPEN,
    RECONCILED,
    DayHistory,
    PlayTally,
    TableInputs,
    hold_interval,
    reconcile,
)

DAY = datetime.date(2024, 5, 20)
THRESHOLDS = {
    "inventory_tolerance_cents": 2_500,
    "drop_tolerance_cents": 2_500,
    "hold_confidence_percent": 95,
    "hold_history_days": 90,
    "hold_min_history_days": 7,
    "month_over_month_basis_points": 300,
}


def day_inputs(**changes) -> TableInputs:
    """A hand-computed day. Opener $10,000; a $2,000 fill, a $500 credit;
    buy-ins $5,000 (all in the drop); the dealer collected $4,000 and paid
    $3,000. The tray: 10,000 + 2,000 − 500 − 5,000 + 4,000 − 3,000 = $7,500.
    Win = 7,500 + 500 + 5,000 − 10,000 − 2,000 = $1,000 = collected − paid."""
    values = dict(
        table_id="T1", game="criss_cross_poker", pit="1", gaming_day=DAY, status=RECONCILED,
        play=PlayTally(rounds=100, collected_cents=400_000, paid_cents=300_000,
                       wagers={"ANTE_ACROSS": 250_000, "ANTE_DOWN": 250_000},
                       theoretical=Fraction(43_285, 2)),
        opener_cents=1_000_000, closer_cents=750_000, fills_cents=200_000, credits_cents=50_000,
        buy_ins_cents=500_000, drop_cents=500_000,
    )  # fmt: skip
    values.update(changes)
    return TableInputs(**values)


def kinds(result) -> list[str]:
    return [v["kind"] for v in result["variances"]]


def test_win_formula_and_a_day_that_reconciles_to_the_cent():
    result = reconcile(day_inputs(), THRESHOLDS)
    figures = result["figures"]
    assert figures["win_cents"] == 100_000
    assert figures["hold_basis_points"] == 2_000  # 1,000 / 5,000 = 20.00 %
    assert figures["expected_inventory_change_cents"] == -250_000
    assert figures["inventory_change_cents"] == -250_000
    assert figures["handle_cents"] == 500_000
    assert figures["theoretical_win_cents"] == 21_642  # 21,642.5 rounds half to even
    assert result["variances"] == []


def test_inventory_variance_only_above_the_tolerance():
    # $25.00 short is within tolerance; $25.01 short is a variance.
    assert kinds(reconcile(day_inputs(closer_cents=747_500), THRESHOLDS)) == []
    result = reconcile(day_inputs(closer_cents=747_499), THRESHOLDS)
    assert kinds(result) == ["inventory"]
    assert result["variances"][0]["amount"] == -2_501
    assert result["figures"]["win_cents"] == 97_499


def test_drop_variance_compares_the_count_with_the_buy_ins():
    result = reconcile(day_inputs(drop_cents=490_000), THRESHOLDS)
    assert kinds(result) == ["drop"]
    assert result["variances"][0]["amount"] == -10_000
    assert "$4,900.00 in the drop" in result["variances"][0]["detail"]


def test_hold_interval_is_mean_plus_minus_1_96_sample_standard_deviations():
    # History holds 18, 19, 20, 20, 20, 21, 22 %: mean 20 %, sample variance
    # (4 + 1 + 0 + 0 + 0 + 1 + 4) / 6 = 10/6 (percent²): sd 1.29 %, half-width
    # 1.96 × 1.29 = 2.53 %. So 22.5 % is inside and 22.6 % outside.
    holds = [18, 19, 20, 20, 20, 21, 22]
    history = tuple(DayHistory(DAY - datetime.timedelta(days=10 - i), hold * 1_000, 100_000)
                    for i, hold in enumerate(holds))  # fmt: skip
    mean, bound = hold_interval([Fraction(h, 100) for h in holds], 95)
    assert mean == Fraction(1, 5)
    assert bound == Fraction(196, 100) ** 2 * Fraction(10, 6) / 10_000
    inside = day_inputs(history=history, closer_cents=750_000 + 12_500)  # win 1,125 / 5,000
    assert reconcile(inside, THRESHOLDS)["figures"]["hold_basis_points"] == 2_250
    assert "hold_interval" not in kinds(reconcile(inside, THRESHOLDS))
    outside = day_inputs(history=history, closer_cents=750_000 + 13_000, drop_cents=500_000,
                         buy_ins_cents=500_000)  # fmt: skip
    result = reconcile(outside, THRESHOLDS)
    assert "hold_interval" in kinds(result)
    variance = next(v for v in result["variances"] if v["kind"] == "hold_interval")
    assert variance["amount"] == 260  # 22.60 % − 20.00 %
    assert variance["threshold"] == 253  # the half-width, floored to a basis point


def test_no_interval_check_before_enough_history():
    history = tuple(DayHistory(DAY - datetime.timedelta(days=i + 1), 1_000, 100_000)
                    for i in range(6))  # fmt: skip
    assert "hold_interval" not in kinds(reconcile(day_inputs(history=history), THRESHOLDS))


def test_month_over_month_beyond_three_points():
    # April: win $1,500 on $10,000 = 15 %. May to date (this day only): 20 %:
    # 5 points apart, above the 3-point threshold.
    april = (DayHistory(datetime.date(2024, 4, 10), 150_000, 1_000_000),)
    result = reconcile(day_inputs(history=april), THRESHOLDS)
    assert kinds(result) == ["hold_month_over_month"]
    assert result["variances"][0]["amount"] == 500
    assert "April 2024" in result["variances"][0]["detail"]
    # With an earlier May day at 10 %, May to date is (1,000 + 100) / (5,000 + 1,000)
    # = 18.33 %: 3.33 points apart, still a variance; at exactly 3 points, none.
    may = DayHistory(datetime.date(2024, 5, 2), 10_000, 100_000)
    result = reconcile(day_inputs(history=(*april, may)), THRESHOLDS)
    assert result["variances"][0]["amount"] == 333
    three_points = (DayHistory(datetime.date(2024, 4, 10), 170_000, 1_000_000),)  # 17 %
    assert kinds(reconcile(day_inputs(history=three_points), THRESHOLDS)) == []
    beyond = (DayHistory(datetime.date(2024, 4, 10), 169_999, 1_000_000),)
    assert kinds(reconcile(day_inputs(history=beyond), THRESHOLDS)) == ["hold_month_over_month"]


@pytest.mark.parametrize("confidence", [90, 95, 99])
def test_a_wider_confidence_level_flags_fewer_days(confidence):
    holds = [18, 19, 20, 20, 20, 21, 22]
    history = tuple(DayHistory(DAY - datetime.timedelta(days=10 - i), hold * 1_000, 100_000)
                    for i, hold in enumerate(holds))  # fmt: skip
    day = day_inputs(history=history, closer_cents=750_000 + 12_000)  # hold 22.40 %
    found = "hold_interval" in kinds(
        reconcile(day, {**THRESHOLDS, "hold_confidence_percent": confidence})
    )
    # Half-widths: 90 % → 2.12 %, 95 % → 2.53 %, 99 % → 3.33 %.
    assert found is (confidence == 90)


def test_a_table_left_open_has_no_win_and_says_why():
    result = reconcile(day_inputs(status=LEFT_OPEN), THRESHOLDS)
    assert result["figures"]["win_cents"] == 0 and result["figures"]["hold_basis_points"] is None
    assert kinds(result) == ["left_open"]


def test_a_play_tally_survives_its_payload():
    tally = day_inputs().play
    assert PlayTally.from_payload(tally.to_payload()) == tally


def test_tallies_of_a_day_s_parts_merged_in_order_keep_the_last_round_s_rule_set():
    """Adding rounds keeps the last round's rule set; a day read in parts by position
    range merges its parts' tallies in order, so the later part's stands."""
    earlier, later = PlayTally(rounds=3, ruleset_id="PA-674a-2019"), PlayTally(
        rounds=2, ruleset_id="PA-674a-2020")
    assert earlier.merge(later).ruleset_id == "PA-674a-2020"
    assert earlier.rounds == 5
    assert PlayTally(rounds=1, ruleset_id="X").merge(PlayTally()).ruleset_id == "X"


def test_handle_is_what_the_declaration_marks_as_handle_however_it_was_placed():
    """A Double Cross player's raises are placed by the play decision (Section 10(c)(2)),
    not by ``round.wager_placed``; they are wagers all the same and count as handle."""
    from tables.rules.replay import replay
    from tests.rules.conftest import dc_round

    events = dc_round(community="7s 4c Jd Ks 2h", dealer="8c 8d", holes={1: "9h 9d"},
                      three_card={1: 500})  # fmt: skip
    result = replay(events)
    tally = PlayTally()
    tally.add_round(result, len(events))
    seat = result.final_state.seats[1]
    assert set(seat.wagers) == {"ANTE", "RAISE_1", "RAISE_2", "THREE_CARD"}
    assert tally.wagers == dict(seat.wagers)
    assert tally.handle_cents == sum(seat.wagers.values())


def test_583_11_e_a_flop_poker_pot_is_neither_handle_nor_the_house_s_chips():
    """The Pot Wagers are the players' money (§ 583.8(b), § 583.11(e)): the dealer moves
    them from the losers to the winner, never through the rack, and the house has no
    edge on them; the Ante, Flop and Three Card Bonus count as usual."""
    from tables.rules.engine import Automation
    from tables.rules.events import DealerPaid, RoundClosed
    from tables.rules.replay import replay
    from tables.rules.simulate import _settle_actions
    from tests.rules.test_flop_poker_583 import a_round

    events = a_round({1: "2c 3d 4h", 2: "Ah Ad 9c", 3: "Kh Kd 5s"}, "7s 8d Tc", folds=(2,))
    settlement = replay(events, tuple(Automation)).settlement
    events += [*_settle_actions(settlement.lines, set()), RoundClosed()]
    result = replay(events, tuple(Automation))
    assert not result.findings
    tally = PlayTally()
    tally.add_round(result, len(events))
    assert "POT" not in tally.wagers
    assert tally.handle_cents == 3 * 1000 + 2 * 1000  # three Antes, two Flop Wagers
    # Seat 2 folded (its Ante collected) but takes the 1,500 pot; seat 1 loses its Ante and
    # Flop, seat 3's kings win theirs. The pot's 1,000 in from seats 1 and 3 and 1,000 out
    # to seat 2 are no chips of the rack.
    assert tally.collected_cents == 1000 + 2000
    assert tally.paid_cents == 2000
    edge = Fraction(3_300_677, 50_896_300)  # the Ante's, exact (parsheets.flop_poker)
    assert tally.theoretical == 3000 * edge
    # A dealer who pays the pot's winner a dollar more than the pot holds pays it from the rack.
    over = [DealerPaid(seat=e.seat, wager=e.wager, amount_cents=e.amount_cents + 100)
            if isinstance(e, DealerPaid) and e.wager == "POT" else e for e in events]  # fmt: skip
    mispaid = PlayTally()
    mispaid.add_round(replay(over, tuple(Automation)), len(over))
    assert (mispaid.collected_cents, mispaid.paid_cents) == (3000, 2100)


def test_555_14_f_a_void_round_s_progressive_wager_is_not_accepted_by_the_meter():
    """§ 555.14(f): a void round returns every wager, the progressive's too; the close's
    accepted progressive wagers (the tally's) must not count it, as the meter's
    contributions do not (``operations.meter_rounds``). Placed, it stays handle."""
    from tables.rules.engine import Automation
    from tables.rules.events import IrregularityKind, IrregularityReported
    from tables.rules.replay import replay
    from tests.rules.test_caribbean_stud_555 import a_round

    played = a_round({1: "2s 5d 7c 9h Jd", 2: "Qs Qc 2c 4h 3d"}, "Ah Qd Jc 9s 8h",
                     progressive=(1, 2))  # fmt: skip
    tally = PlayTally()
    tally.add_round(replay(played, tuple(Automation)), len(played))
    assert tally.accepted_cents("PROGRESSIVE") == 200 and tally.voided == {}
    events = [*played, IrregularityReported(kind=IrregularityKind.SHOE_MALFUNCTION)]
    result = replay(events, tuple(Automation))
    assert result.settlement.voided
    void = PlayTally()
    void.add_round(result, len(events))
    assert void.wagers == {"ANTE": 2000, "PROGRESSIVE": 200}
    assert void.voided == void.wagers and void.accepted_cents("PROGRESSIVE") == 0
    assert PlayTally.from_payload(void.to_payload()) == void
    assert tally.merge(void).accepted_cents("PROGRESSIVE") == 200


def test_674a_13_f_a_void_criss_cross_round_s_tally_travels_as_json():
    """A part of the close read by another process sends its tally as JSON
    (``operations.day_read.run_part``, orjson, whose keys must be ``str``): a
    Criss-Cross round voided by a shoe jam (§ 674a.13(f)) returns wagers that
    the engine names by ``Wager``, an enum; the tally keeps them by name."""
    from tables.rules.events import IrregularityKind, IrregularityReported
    from tables.rules.replay import replay
    from tests.rules.test_criss_cross_674a import _through_deal

    events = [*_through_deal()[:8], IrregularityReported(kind=IrregularityKind.SHOE_MALFUNCTION)]
    result = replay(events)
    assert result.settlement.void_section == "674a.13(f)"
    tally = PlayTally()
    tally.add_round(result, len(events))
    assert tally.voided and all(type(wager) is str for wager in tally.voided)
    assert PlayTally.from_payload(orjson.loads(orjson.dumps(tally.to_payload()))) == tally
