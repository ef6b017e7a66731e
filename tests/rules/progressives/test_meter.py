"""A progressive meter folded from its stream: each rule with the section that states it."""

from __future__ import annotations

import datetime
from fractions import Fraction

import pytest

from tables.rules.engine import RuleViolation
from tables.rules.money import Fixed, MeterShare
from tables.rules.progressives.chapters import CHAPTERS, ScheduleLine, caribbean_stud_schedule
from tables.rules.progressives.events import (
    METER_EVENT_TYPES,
    MeterAdjusted,
    MeterConfigured,
    MeterRead,
    MeterReset,
    OddCents,
    RateBase,
    ReadingOccasion,
)
from tables.rules.progressives.meter import (
    Contribution,
    Payment,
    PaymentSource,
    Reading,
    Reset,
    apply,
    fold,
    verify,
)

from .meters import DAY, configured, contributed, hit, paid


def refused(events, section):
    with pytest.raises(RuleViolation) as caught:
        fold(events)
    assert caught.value.section == section, caught.value
    return caught.value


# --- configuration -------------------------------------------------------------------


def test_a_meter_opens_at_its_initial_amount():
    folded = fold([configured(initial_cents=1_234_500)])
    assert folded.state.amount_cents == 1_234_500
    assert folded.effects[0].opened


def test_a_meter_stream_starts_with_its_configuration():
    refused([contributed(1)], "meter.contributed")


def test_555_13_e_refuses_a_rate_of_progression_below_70_percent():
    error = refused([configured(rate_numerator=69)], "555.13(e)")
    assert error.field == "rate_numerator"
    fold([configured(rate_numerator=70)])


def test_587_12_e_3_refuses_a_rate_below_14_percent():
    refused([configured("587", rate_numerator=13)], "587.12(e)(3)")
    fold([configured("587", rate_numerator=14)])


def test_587_12_e_3_refuses_an_initial_or_reset_amount_below_1000_dollars():
    refused([configured("587", initial_cents=99_999)], "587.12(e)(3)")
    refused([configured("587", reset_cents=99_999)], "587.12(e)(3)")
    fold([configured("587", initial_cents=100_000, reset_cents=100_000)])


def test_588_12_d_2_refuses_an_initial_or_reset_amount_below_5000_dollars():
    refused([configured("588", reset_cents=499_999)], "588.12(d)(2)")
    fold([configured("588", initial_cents=500_000, reset_cents=500_000)])


def test_588_states_no_rate_so_the_configuration_must_give_one():
    payload = configured("588").to_payload()
    del payload["rate_numerator"]
    with pytest.raises(ValueError, match="'rate_numerator' is required"):
        MeterConfigured.from_payload(payload)
    # Any rate is allowed: § 588.12 states none.
    fold([configured("588", rate_numerator=1)])


def test_555_7_c_the_progressive_wager_is_a_one_dollar_chip():
    refused([configured(wager_amounts_cents=(100, 500))], "555.7(c)")
    refused([configured(), contributed(1, amount=500)], "555.7(c)")


def test_a_wager_amount_the_configuration_does_not_offer_is_refused():
    refused(
        [configured("587", wager_amounts_cents=(100,)), contributed(1, amount=500)],
        "meter.contributed",
    )


def test_555_13_d_the_schedule_is_at_least_the_chapters():
    fold([configured(schedule=caribbean_stud_schedule(straight_flush_at_ten_percent=False))])
    low = tuple(
        ScheduleLine(hand=line.hand, label=line.label, pays=Fixed(4_000))
        if line.hand == "FLUSH"
        else line
        for line in CHAPTERS["555"].schedule
    )
    refused([configured(schedule=low)], "555.13(d)")


def test_no_line_pays_more_than_the_meter_holds():
    greedy = tuple(
        ScheduleLine(hand=line.hand, label=line.label, pays=MeterShare(Fraction(2)))
        if line.hand == "ROYAL_FLUSH"
        else line
        for line in CHAPTERS["555"].schedule
    )
    refused([configured(schedule=greedy)], "meter.configured")


def test_587_12_e_1_and_588_12_d_1_the_schedule_is_the_chapters():
    refused([configured("587", schedule=CHAPTERS["588"].schedule)], "587.12(e)(1)")
    refused([configured("588", schedule=CHAPTERS["587"].schedule)], "588.12(d)(1)")


def test_555_13_f_a_shared_meter_needs_a_rule_for_odd_cents():
    refused([configured(odd_cents=None)], "555.13(f)")
    fold([configured("587", odd_cents=None)])  # no sharing rule in Chapter 587


def test_configuration_is_effective_dated_and_keeps_its_history():
    later = DAY + datetime.timedelta(days=10)
    folded = fold(
        [
            configured(),
            contributed(10, day=DAY),
            configured(effective_from=later, rate_numerator=80),
            contributed(10, day=later),
            contributed(10, day=later - datetime.timedelta(days=1)),
        ]
    )
    assert [
        effect.meter_cents for effect in folded.effects if isinstance(effect, Contribution)
    ] == [700, 800, 700]
    assert [c.rate_numerator for c in folded.state.history] == [70, 80]
    assert folded.state.configuration_on(later).rate_numerator == 80


def test_a_configuration_may_not_change_contributions_already_made():
    refused(
        [
            configured(),
            contributed(1, day=DAY + datetime.timedelta(days=3)),
            configured(effective_from=DAY + datetime.timedelta(days=2)),
        ],
        "meter.configured",
    )


def test_a_reconfiguration_keeps_the_initial_amount_and_the_game():
    later = DAY + datetime.timedelta(days=1)
    refused([configured(), configured(effective_from=later, initial_cents=5)], "meter.configured")
    refused(
        [configured(), configured("587", meter_id="M-555", effective_from=later)],
        "meter.configured",
    )


def test_a_table_not_linked_to_the_meter_is_refused():
    refused([configured(), contributed(1, table="T-09")], "meter.contributed")


# --- contributions -------------------------------------------------------------------


def test_555_13_e_each_accepted_wager_adds_the_rate_of_progression():
    folded = fold([configured(), contributed(5), contributed(2, table="T-02", round_id="r2")])
    assert folded.state.amount_cents == 1_000_000 + 7 * 70
    assert folded.effects[1].section == "555.13(e)"


def test_fractions_of_a_cent_are_carried_not_lost():
    # 14 1/3 % of a dollar: 14.333… cents a wager.
    events = [configured("587", rate_numerator=43, rate_denominator=300)]
    events += [contributed(1, round_id=f"r{n}") for n in range(3)]
    folded = fold(events)
    assert [effect.meter_cents for effect in folded.effects[1:]] == [14, 14, 15]
    assert folded.state.amount_cents == 1_000_000 + 43


def test_a_rate_per_wager_applies_to_its_base_whatever_the_wager():
    events = [
        configured("587", rate_base=RateBase.PER_WAGER, rate_base_cents=100),
        contributed(2, amount=500),
    ]
    assert fold(events).state.amount_cents == 1_000_000 + 2 * 20
    refused([configured("587", rate_base=RateBase.PER_WAGER)], "meter.configured")


def test_a_reserve_share_goes_to_the_reserve_and_funds_the_next_reset():
    events = [
        configured(reserve_numerator=1, reserve_denominator=7, reset_cents=500),
        contributed(10),
        hit(3, "ROYAL_FLUSH"),
        paid(3, 1_000_600),
        MeterReset(amount_cents=500),
    ]
    folded = fold(events)
    assert folded.effects[1].meter_cents == 600
    assert folded.effects[1].reserve_cents == 100
    reset = folded.effects[-1]
    assert (reset.from_reserve_cents, reset.seeded_by_house_cents) == (100, 400)
    assert folded.state.reserve_cents == 0
    assert folded.state.amount_cents == 500


# --- payments ------------------------------------------------------------------------


def test_555_13_f_the_amount_paid_is_the_meter_when_it_is_the_players_turn():
    # The hit at T-01; T-02, linked, contributes before the player is paid.
    folded = fold(
        [
            configured(),
            hit(4, "STRAIGHT_FLUSH"),
            contributed(100, table="T-02", round_id="x"),
            paid(4, 100_700),
        ]
    )
    payment = folded.effects[-1]
    assert (payment.meter_before_cents, payment.required_cents) == (1_007_000, 100_700)
    assert payment.section == "555.13(f)"
    assert payment.difference_cents == 0
    assert folded.state.amount_cents == 1_007_000 - 100_700


def test_588_12_d_3_paid_irrespective_of_the_meter_when_the_wager_was_placed():
    folded = fold(
        [
            configured("588"),
            contributed(1, amount=500),
            hit(2, "ROYAL_FLUSH", wager=500),
            contributed(50, table="T-02", round_id="x", amount=500),
            paid(2, 100_010),  # 10 % of the meter as it stood at the deal
        ]
    )
    payment = folded.effects[-1]
    assert payment.section == "588.12(d)(3)"
    assert payment.required_cents == (1_000_000 + 51 * 100) // 10
    assert payment.difference_cents == 100_010 - 100_510


def test_555_11_e_3_payouts_go_counterclockwise_from_the_dealers_right():
    events = [configured(), hit(2, "FLUSH"), hit(5, "FLUSH")]
    refused([*events, paid(2, 5_000)], "555.11(e)(3)")
    fold([*events, paid(5, 5_000), paid(2, 5_000)])


def test_555_11_e_3_a_hit_after_a_later_seat_was_paid_is_out_of_order():
    refused(
        [configured(), hit(5, "FLUSH"), hit(2, "FLUSH"), paid(5, 5_000), hit(6, "FLUSH")],
        "555.11(e)(3)",
    )


def test_percentage_payouts_follow_the_payment_order_each_at_its_turn():
    folded = fold(
        [
            configured(),
            hit(3, "STRAIGHT_FLUSH"),
            hit(6, "STRAIGHT_FLUSH"),
            paid(6, 100_000),
            paid(3, 90_000),
        ]
    )
    assert [e.required_cents for e in folded.effects if isinstance(e, Payment)] == [100_000, 90_000]
    assert folded.state.amount_cents == 810_000


def test_a_percentage_is_rounded_by_the_named_policy_and_the_rest_stays_on_the_meter():
    events = [contributed(1), hit(1, "STRAIGHT_FLUSH"), paid(1, 0)]
    down = fold([configured(initial_cents=1_000_005), *events])
    up = fold(
        [configured(initial_cents=1_000_005, share_rounding="round_half_up_to_cent"), *events]
    )
    assert down.effects[-1].required_cents == 100_007  # 100,007.5
    assert up.effects[-1].required_cents == 100_008
    assert down.state.amount_cents == 1_000_075 - 100_007
    refused([configured(share_rounding="to_taste")], "meter.configured")


def test_555_13_f_royal_flushes_at_one_table_share_the_meter_and_are_paid_with_the_first():
    base = [
        configured(initial_cents=1_000_001),
        hit(2, "ROYAL_FLUSH"),
        hit(6, "ROYAL_FLUSH"),
        hit(4, "ROYAL_FLUSH"),
        hit(5, "FLUSH"),
    ]
    # The reset comes before the next payment, which might be a share of the meter.
    folded = fold(
        [
            *base,
            paid(6, 333_334),
            paid(4, 333_334),
            paid(2, 333_333),
            MeterReset(amount_cents=1_000_000),
            paid(5, 5_000),
        ]
    )
    shares = [e for e in folded.effects if isinstance(e, Payment) and e.hand == "ROYAL_FLUSH"]
    assert [(s.seat, s.required_cents, s.shared_among) for s in shares] == [
        (6, 333_334, 3),
        (4, 333_334, 3),
        (2, 333_333, 3),
    ]
    assert {s.section for s in shares} == {"555.13(f)"}
    assert sum(s.required_cents for s in shares) == 1_000_001
    assert folded.state.amount_cents == 1_000_000
    # Nothing comes between the first royal flush paid and the others.
    refused([*base, paid(6, 333_334), paid(5, 5_000)], "555.13(f)")
    refused([*base, paid(6, 333_334), contributed(1, table="T-02")], "555.13(f)")


def test_555_13_f_odd_cents_may_stay_on_the_meter_above_the_reset_amount():
    folded = fold(
        [
            configured(initial_cents=1_000_002, odd_cents=OddCents.CARRIED_ON_METER),
            hit(2, "ROYAL_FLUSH"),
            hit(3, "ROYAL_FLUSH"),
            hit(4, "ROYAL_FLUSH"),
            paid(4, 333_334),
            paid(3, 333_334),
            paid(2, 333_334),
            MeterReset(amount_cents=1_000_000),
        ]
    )
    assert [e.required_cents for e in folded.effects if isinstance(e, Payment)] == [333_334] * 3
    reset = folded.effects[-1]
    assert isinstance(reset, Reset) and reset.carried_cents == 0
    folded = fold(
        [
            configured(initial_cents=1_000_001, odd_cents=OddCents.CARRIED_ON_METER),
            hit(2, "ROYAL_FLUSH"),
            hit(3, "ROYAL_FLUSH"),
            paid(3, 500_000),
            paid(2, 500_000),
            MeterReset(amount_cents=1_000_000),
        ]
    )
    assert folded.effects[-1].carried_cents == 1
    assert folded.state.amount_cents == 1_000_001


def test_587_no_sharing_the_second_whole_meter_hand_is_paid_the_meter_at_its_turn():
    folded = fold(
        [
            configured("587"),
            hit(5, "AKQ_SPADES"),
            hit(2, "AKQ_SPADES"),
            paid(5, 1_000_000),
            MeterReset(amount_cents=1_000_000),
            paid(2, 1_000_000),
            MeterReset(amount_cents=1_000_000),
        ]
    )
    payments = [e for e in folded.effects if isinstance(e, Payment)]
    assert [(p.seat, p.required_cents, p.section) for p in payments] == [
        (5, 1_000_000, "587.12(e)(4)"),
        (2, 1_000_000, "587.12(e)(4)"),
    ]


def test_after_a_100_percent_hit_the_meter_resets_to_its_reset_amount():
    events = [
        configured(reset_cents=800_000),
        contributed(10),
        hit(1, "ROYAL_FLUSH"),
        paid(1, 1_000_700),
    ]
    refused([*events, contributed(1)], "555.13(e)")
    refused([*events, MeterReset(amount_cents=1_000_000)], "555.13(e)")
    folded = fold(
        [
            *events,
            MeterRead(
                table="T-01", gaming_day=DAY, occasion=ReadingOccasion.HIT, displayed_cents=0
            ),
            MeterReset(amount_cents=800_000),
            contributed(1),
        ]
    )
    assert folded.state.amount_cents == 800_070


def test_a_reset_without_a_100_percent_payout_is_refused():
    error = refused(
        [configured(), contributed(10), MeterReset(amount_cents=1_000_000)], "555.13(e)"
    )
    assert "only after a payout of 100 %" in error.reason
    refused([configured("588"), MeterReset(amount_cents=1_000_000)], "588.12(d)(2)")


def test_a_wrong_payment_is_recorded_and_the_book_follows_the_regulation():
    folded = fold([configured(), hit(1, "STRAIGHT_FLUSH"), paid(1, 150_000)])
    payment = folded.effects[-1]
    assert (payment.required_cents, payment.paid_cents, payment.difference_cents) == (
        100_000,
        150_000,
        50_000,
    )
    assert folded.state.amount_cents == 900_000


def test_fixed_and_for_one_lines_are_house_payouts_and_leave_the_meter():
    folded = fold([configured(), hit(1, "FOUR_OF_A_KIND"), paid(1, 50_000)])
    assert folded.effects[-1].source is PaymentSource.HOUSE
    assert folded.effects[-1].section == "555.13(d)"
    assert folded.state.amount_cents == 1_000_000
    folded = fold(
        [configured("587"), hit(1, "AKQ_HEARTS_DIAMONDS_CLUBS", wager=500), paid(1, 250_000)]
    )
    assert folded.effects[-1].required_cents == 250_000  # 500 for 1 on $5
    assert folded.state.amount_cents == 1_000_000


def test_555_12_b_1_only_a_recorded_winning_hand_is_paid():
    refused([configured(), paid(1, 5_000)], "555.12(b)(1)")
    refused([configured(), hit(1, "FLUSH"), paid(1, 5_000), paid(1, 5_000)], "555.12(b)(1)")


def test_555_12_b_3_a_floorperson_validates_the_payout():
    refused([configured(), hit(1, "FLUSH"), paid(1, 5_000, validated_by=" ")], "555.12(b)(3)")
    refused(
        [configured("588"), hit(1, "FLUSH"), paid(1, 600, validated_by="")], "588.11(h)(3)(i)(B)(3)"
    )


def test_a_hand_off_the_schedule_or_paid_twice_is_refused():
    refused([configured(), hit(1, "STRAIGHT")], "555.13(d)")
    refused([configured(), hit(1, "FLUSH"), hit(1, "FULL_HOUSE")], "555.13(d)")


# --- readings and adjustments --------------------------------------------------------


def test_a_reading_compares_the_displayed_amount_with_the_book():
    folded = fold(
        [
            configured(),
            contributed(3),
            MeterRead(
                table="T-02",
                gaming_day=DAY,
                occasion=ReadingOccasion.CLOSING,
                displayed_cents=1_000_200,
            ),
        ]
    )
    reading = folded.effects[-1]
    assert isinstance(reading, Reading)
    assert (reading.book_cents, reading.difference_cents) == (1_000_210, -10)
    assert folded.state.amount_cents == 1_000_210


def test_an_adjustment_is_signed_by_two_different_people():
    def adjusted(amount, proposed="finance-1", confirmed="super-2"):
        return MeterAdjusted(
            amount_cents=amount,
            reason="controller fault",
            proposed_by=proposed,
            confirmed_by=confirmed,
        )

    assert fold([configured(), adjusted(-5_000)]).state.amount_cents == 995_000
    assert fold([configured(), adjusted(5_000)]).state.amount_cents == 1_005_000
    refused([configured(), adjusted(-5_000, confirmed="finance-1")], "meter.adjusted")
    refused([configured(), adjusted(-5_000, confirmed="")], "meter.adjusted")
    refused([configured(), adjusted(-1_000_001)], "meter.adjusted")


def test_verify_and_apply_agree():
    state = apply(None, configured()).state
    event = MeterReset(amount_cents=1_000_000)
    assert verify(state, event).section == "555.13(e)"
    assert verify(state, contributed(1)) is None


# --- payloads ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "event",
    [
        configured(reserve_numerator=1, reserve_denominator=10),
        configured("588", odd_cents=None, rate_base=RateBase.PER_WAGER, rate_base_cents=100),
        contributed(3),
        hit(2, "ROYAL_FLUSH"),
        paid(2, 123),
        MeterReset(amount_cents=5),
        MeterRead(
            table="T-01", gaming_day=DAY, occasion=ReadingOccasion.OPENING, displayed_cents=9
        ),
        MeterAdjusted(amount_cents=-3, reason="r", proposed_by="a", confirmed_by="b"),
    ],
    ids=lambda event: event.TYPE,
)
def test_every_meter_event_round_trips_through_its_payload(event):
    assert METER_EVENT_TYPES[event.TYPE] is type(event)
    payload = event.to_payload()
    assert type(event).from_payload(payload) == event


def test_a_malformed_schedule_is_refused_naming_the_field():
    payload = configured().to_payload()
    payload["schedule"][0]["kind"] = "vibes"
    with pytest.raises(ValueError, match="'schedule' is malformed"):
        MeterConfigured.from_payload(payload)


def test_the_configuration_payload_writes_the_schedule_line_by_line():
    payload = configured("587").to_payload()
    assert payload["schedule"][0] == {
        "hand": "AKQ_SPADES",
        "label": "Ace, king and queen of spades",
        "kind": "meter_share",
        "numerator": 1,
        "denominator": 1,
    }
    assert payload["schedule"][1]["kind"] == "for_one"
    assert configured().rate == Fraction(7, 10)


def test_fractions_of_a_cent_carry_across_a_change_of_rate():
    later = DAY + datetime.timedelta(days=1)
    folded = fold(
        [
            configured("587", rate_numerator=43, rate_denominator=300),
            contributed(1),
            configured("587", effective_from=later, rate_numerator=71, rate_denominator=500),
            contributed(1, day=later),
        ]
    )
    # 14 1/3 + 14 1/5 = 28 8/15 cents.
    assert [e.meter_cents for e in folded.effects if isinstance(e, Contribution)] == [14, 14]
    assert folded.state.carry.meter_cents == Fraction(8, 15)
