"""High Roll Dice, Chapter 593, run by the declared engine with two Throw steps."""

from __future__ import annotations

import datetime

import pytest

from tables.rules.engine import Outcome, RuleViolation
from tables.rules.events import (
    DealerCollected,
    DealerPaid,
    DealingMethod,
    DiceThrown,
    NoMoreBets,
    RoundOpened,
    WagerPlaced,
)
from tables.rules.games import high_roll_dice_593 as game
from tables.rules.machine import miscalls
from tables.rules.replay import FindingKind, replay

DAY = datetime.date(2024, 5, 1)
FOUR_FIVES = (5, 5, 5, 5, 6, 6, 6, 1, 1, 4)  # § 593.4(e)'s example


def opened(seats=(1, 2), **options):
    return RoundOpened.build(
        round_id="R-HRD", game="high_roll_dice", ruleset_id="PA-593-2014", table_id="HRD-1",
        gaming_day=DAY, seats=seats, players=tuple(f"P{seat}" for seat in seats),
        dealing_method=DealingMethod.HAND, **options,
    )  # fmt: skip


def a_round(wagers, *throws, seats=(1, 2), **options):
    events = [opened(seats, **options)]
    events += [WagerPlaced(seat=s, wager=w, amount_cents=a) for s, w, a in wagers]
    return [*events, NoMoreBets(), *throws]


def outcomes(events):
    settlement = replay(events).settlement
    return {(line.seat, line.wager): (line.outcome, line.amount_cents) for line in settlement.lines}


@pytest.mark.parametrize(
    ("faces", "expected"),
    [
        ((6, 6, 6, 4, 4, 4, 4, 2, 3, 5), (4, 4)),  # § 593.2(e)(1)(i)
        ((6, 6, 6, 1, 1, 1, 2, 3, 4, 5), (1, 3)),  # § 593.2(e)(1)(ii): the ace outranks the 6
        ((6, 6, 6, 4, 4, 4, 2, 2, 1, 1), (6, 3)),  # § 593.4(g)'s example: 6 outranks 4
        ((2, 2, 2, 2, 2, 1, 1, 1, 3, 4), (2, 5)),  # § 593.2(e)(2)(ii)
    ],
)
def test_593_2_d_e_the_face_occurring_most_ties_broken_by_rank(faces, expected):
    assert game.first_count(faces) == expected


def test_593_4_f_first_roll_wagers_settle_and_may_be_paid_before_the_extra_roll():
    wagers = [(1, "PIP_5", 500), (1, "PIP_2", 500), (1, "LIKE_4", 500), (1, "LIKE_3", 500),
              (2, "PIP_1", 100), (2, "MILLION_9", 100)]  # fmt: skip
    events = a_round(wagers, DiceThrown(faces=FOUR_FIVES, called="4x5"))
    result = outcomes(events)
    assert result[(1, "PIP_5")] == (Outcome.WIN, 2000)  # § 593.5(a): five 4 to 1
    assert result[(1, "PIP_2")] == (Outcome.LOSE, 500)
    assert result[(1, "LIKE_4")] == (Outcome.WIN, 500)  # § 593.5(b): four 1 to 1
    assert result[(1, "LIKE_3")] == (Outcome.LOSE, 500)
    assert result[(2, "MILLION_9")] == (Outcome.LOSE, 100)
    paid = replay([*events, DealerPaid(seat=1, wager="PIP_5", amount_cents=2000),
                   DealerPaid(seat=1, wager="LIKE_4", amount_cents=500)])  # fmt: skip
    # No Extra Roll: the round is complete after one throw; only the uncollected losers remain.
    assert {f.kind for f in paid.findings} == {FindingKind.MISSED_COLLECTION}
    assert "PIP_5" not in {f.wager for f in paid.findings} and len(paid.findings) == 4


def test_593_4_g_h_the_unmatched_dice_are_thrown_again_for_the_extra_roll():
    wagers = [(1, "PIP_5", 500), (1, "LIKE_3", 500), (1, "LIKE_4", 500), (1, "LIKE_5", 500),
              (1, "LIKE_6", 500), (1, EXTRA := "EXTRA_ROLL", 500)]  # fmt: skip
    first = DiceThrown(faces=FOUR_FIVES, called="4x5")
    before = replay(a_round(wagers, first)).settlement
    assert not before.complete and before.line(1, "LIKE_5") is None  # kept for (g)
    assert before.line(1, "LIKE_3").outcome is Outcome.LOSE  # no possibility of winning
    with pytest.raises(RuleViolation) as error:  # six dice are thrown again
        replay(a_round(wagers, first, DiceThrown(faces=(5, 5))))
    assert (error.value.section, error.value.field) == ("593.3(a)", "faces")
    result = outcomes(a_round(wagers, first, DiceThrown(faces=(5, 2, 3, 1, 6, 6), called="+1")))
    assert result[(1, "LIKE_5")] == (Outcome.WIN, 1000)  # final five of a kind, § 593.5(d) 2 to 1
    assert result[(1, "LIKE_6")] == (Outcome.LOSE, 500)
    assert result[(1, EXTRA)] == (Outcome.LOSE, 500)  # collected at no more bets, § 593.4(a)


@pytest.mark.parametrize(
    ("reading", "extra", "circle", "extra_roll"),
    [
        ("circles", (5, 2, 3, 1, 6, 6), (Outcome.WIN, 1000), (Outcome.LOSE, 500)),
        ("circles_stake_returned", (5, 2, 3, 1, 6, 6), (Outcome.WIN, 1000),
         (Outcome.RETURNED, 500)),
        ("final_count", (5, 2, 3, 1, 6, 6), (Outcome.RETURNED, 500), (Outcome.WIN, 1000)),
        # § 593.4(h): a count the Like Kind already won is not paid again on the Extra Roll.
        ("final_count", (2, 2, 3, 1, 6, 6), None, (Outcome.LOSE, 500)),
    ],
)  # fmt: skip
def test_593_4_h_the_extra_roll_readings(reading, extra, circle, extra_roll):
    wagers = [(1, "PIP_5", 500), (1, "LIKE_4", 500), (1, "LIKE_5", 500), (1, "EXTRA_ROLL", 500)]
    events = a_round(wagers, DiceThrown(faces=FOUR_FIVES), DiceThrown(faces=extra),
                     extra_roll=reading)  # fmt: skip
    result = outcomes(events)
    if circle is not None:
        assert result[(1, "LIKE_5")] == circle
    assert result[(1, "EXTRA_ROLL")] == extra_roll
    assert ("extra_roll", reading) in replay(events).settlement.options_applied


def test_593_5_b_the_garbled_lines_are_readings():
    faces = (3, 3, 3, 3, 3, 3, 3, 1, 2, 4)
    wagers = [(1, "PIP_3", 100), (1, "LIKE_7", 100)]
    for reading, won in (("40", 4000), ("400", 40_000), ("4000", 400_000)):
        result = outcomes(a_round(wagers, DiceThrown(faces=faces), seven_of_a_kind=reading))
        assert result[(1, "LIKE_7")] == (Outcome.WIN, won)
    three = (1, 1, 1, 2, 2, 3, 3, 4, 5, 6)
    for reading, won in (("3_to_5", 300), ("5_to_3", 833)):
        result = outcomes(a_round([(1, "PIP_1", 500), (1, "LIKE_3", 500)], DiceThrown(faces=three),
                                  three_of_a_kind=reading))  # fmt: skip
        assert result[(1, "LIKE_3")] == (Outcome.WIN, won)


@pytest.mark.parametrize(
    ("faces", "options", "nine", "ten"),
    [
        ((4,) * 9 + (2,), {}, (Outcome.WIN, 5_000_000), (Outcome.LOSE, 100)),
        ((4,) * 10, {}, (Outcome.LOSE, 100), (Outcome.WIN, 100_000_000)),
        ((4,) * 10, {"nine_wins_on_ten": True}, (Outcome.WIN, 5_000_000),
         (Outcome.WIN, 100_000_000)),
        ((4,) * 9 + (2,), {"millionaire_includes_stake": True}, (Outcome.WIN, 4_999_900),
         (Outcome.LOSE, 100)),
    ],
)  # fmt: skip
def test_593_5_c_millionaire_row_fixed_amounts_and_readings(faces, options, nine, ten):
    wagers = [(1, "PIP_4", 100), (1, "MILLION_9", 100), (1, "MILLION_10", 100)]
    result = outcomes(a_round(wagers, DiceThrown(faces=faces), **options))
    assert (result[(1, "MILLION_9")], result[(1, "MILLION_10")]) == (nine, ten)


@pytest.mark.parametrize(
    ("wagers", "section", "field"),
    [
        ([(1, "LIKE_4", 500)], "593.2(e)(1)", "wager"),
        ([(1, "PIP_5", 500), (1, "EXTRA_ROLL", 500)], "593.2(e)(3)", "wager"),
        ([(1, "PIP_5", 500), (1, "LIKE_4", 400)], "593.1(b)(2)(iv)", "amount_cents"),
        ([(1, "PIP_5", 500), (1, "PIP_6", 600)], "593.1(b)(2)(iv)", "amount_cents"),
        ([(1, "PIP_5", 500), (1, "LIKE_4", 500), (1, "EXTRA_ROLL", 200)], "593.1(b)(2)(iv)",
         "amount_cents"),
        ([(1, "PIP_5", 500), (1, "MILLION_9", 500)], "593.2(e)(4)", "amount_cents"),
        ([(1, "PIP_7", 500)], "593.1(b)(2)", "wager"),
        ([(1, "PIP_5", 500), (1, "LIKE_9", 500)], "593.1(b)(2)", "wager"),
        ([(3, "PIP_5", 500)], "593.2(c)", "seat"),
    ],
)  # fmt: skip
def test_593_bad_wagers_are_refused_naming_section_and_field(wagers, section, field):
    with pytest.raises(RuleViolation) as error:
        replay(a_round(wagers))
    assert (error.value.section, error.value.field) == (section, field)


def test_593_1_c_an_extra_roll_after_the_lock_out_is_not_recognised():
    events = a_round([(1, "PIP_5", 500), (1, "LIKE_4", 500)])
    with pytest.raises(RuleViolation) as error:
        replay([*events, WagerPlaced(seat=1, wager="EXTRA_ROLL", amount_cents=500)])
    assert (error.value.section, error.value.field) == ("593.1(c)(2)", "wager")
    with pytest.raises(RuleViolation, match=r"593\.2\(a\)"):
        replay([*events, WagerPlaced(seat=1, wager="PIP_6", amount_cents=500)])


def test_593_4_b_c_invalid_throws_are_thrown_again_and_wagers_stand():
    events = a_round([(1, "PIP_5", 500)], DiceThrown(no_roll="DIE_OFF_TABLE", faces=(5,) * 9),
                     DiceThrown(no_roll="DIE_ON_OBJECT"), DiceThrown(faces=FOUR_FIVES))  # fmt: skip
    result = replay(events)
    assert len(result.final_state.no_rolls) == 2 and not result.settlement.voided
    assert result.settlement.line(1, "PIP_5").outcome is Outcome.WIN


def test_593_4_d_a_tie_called_by_count_order_is_a_miscall_and_its_payments_findings():
    faces = (6, 6, 6, 1, 1, 1, 2, 3, 4, 5)  # the ace outranks the 6
    events = a_round([(1, "PIP_6", 500), (1, "PIP_1", 500)], DiceThrown(faces=faces, called="3x6"),
                     DealerCollected(seat=1, wager="PIP_1", amount_cents=500),
                     DealerPaid(seat=1, wager="PIP_6", amount_cents=2000))  # fmt: skip
    result = replay(events)
    assert [m.section for m in miscalls(result.final_state)] == ["593.4(d)"]
    kinds = {(f.wager, f.kind) for f in result.findings}
    assert kinds == {("PIP_6", FindingKind.UNEXPECTED_PAYMENT),
                     ("PIP_1", FindingKind.WRONGFUL_COLLECTION),
                     ("first_roll", FindingKind.WRONG_CALL)}  # fmt: skip
    (call,) = [f for f in result.findings if f.kind is FindingKind.WRONG_CALL]
    assert (call.seat, call.section) == (0, "593.4(d)") and "'3x6'" in call.detail


def test_593_5_c_the_nine_circle_paid_on_ten_is_a_finding():
    events = a_round([(1, "PIP_4", 100), (1, "MILLION_9", 100)], DiceThrown(faces=(4,) * 10),
                     DealerPaid(seat=1, wager="MILLION_9", amount_cents=5_000_000))  # fmt: skip
    findings = [f.kind for f in replay(events).findings if f.wager == "MILLION_9"]
    assert findings == [FindingKind.UNEXPECTED_PAYMENT]
