"""Props & Hops, Chapter 585, run by the declared engine with the dice's Throw step."""

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
    RoundClosed,
    RoundOpened,
    WagerPlaced,
    WagerReturned,
)
from tables.rules.games import props_and_hops_585 as game
from tables.rules.machine import carried, miscalls, opened_as_left, refuse_next_opening
from tables.rules.replay import FindingKind, replay

DAY = datetime.date(2024, 5, 1)


def opened(seats=(1, 2, 3), **options):
    return RoundOpened.build(
        round_id="R-PH", game="props_and_hops", ruleset_id="PA-585-2014", table_id="PH-1",
        gaming_day=DAY, seats=seats, players=tuple(f"P{seat}" for seat in seats),
        dealing_method=DealingMethod.HAND, **options,
    )  # fmt: skip


def a_round(wagers, *throws, seats=(1, 2, 3), **options):
    events = [opened(seats, **options)]
    events += [WagerPlaced(seat=s, wager=w, amount_cents=a) for s, w, a in wagers]
    return [*events, NoMoreBets(), *throws]


def test_585_2_and_585_4_every_one_roll_wager_at_its_odds():
    expected = {  # the 21 results of two dice: the wagers each wins (§ 585.2(d)-(f))
        (1, 1): {"HARD_2", "FIELD", "ANY_CRAPS", "ANY_DOUBLES"},
        (1, 2): {"HOP_1_2", "FIELD", "ANY_CRAPS"},
        (2, 2): {"HARD_4", "FIELD", "ANY_DOUBLES"},
        (3, 4): {"HOP_3_4", "ANY_SEVEN"},
        (4, 5): {"HOP_4_5", "FIELD"},
        (6, 6): {"HARD_12", "FIELD", "ANY_CRAPS", "ANY_DOUBLES"},
        (2, 6): {"HOP_2_6"},
    }
    for faces, winners in expected.items():
        assert set(game.winners(faces)) == winners, faces
    assert len(game.DOUBLES) == 6 and len(game.NUMBERS) == 15 and len(game.WAGERS) == 25
    odds = {name: game.pays((6, 6), name) for name in ("HARD_12", "FIELD", "ANY_CRAPS")}
    assert [str(value) for value in odds.values()] == ["30 to 1", "2 to 1", "7 to 1"]
    assert str(game.pays((1, 3), "HOP_1_3")) == "15 to 1"
    assert str(game.pays((3, 3), "ANY_DOUBLES")) == str(game.pays((2, 5), "ANY_SEVEN")) == "4 to 1"


def test_585_3_h_a_round_settles_at_the_odds_and_losers_are_collected_first():
    events = a_round([(1, "HOP_3_4", 500), (2, "FIELD", 1000), (3, "ANY_SEVEN", 200)],
                     DiceThrown(faces=(4, 3), called="3-4"))  # fmt: skip
    # § 585.3(h): paying a winner while the Field is uncollected is refused.
    with pytest.raises(RuleViolation, match=r"585\.3\(h\).*collect seat 2's losing FIELD"):
        replay([*events, DealerPaid(seat=1, wager="HOP_3_4", amount_cents=7500)])
    events += [DealerCollected(seat=2, wager="FIELD", amount_cents=1000),
               DealerPaid(seat=1, wager="HOP_3_4", amount_cents=7500),
               DealerPaid(seat=3, wager="ANY_SEVEN", amount_cents=800), RoundClosed()]  # fmt: skip
    result = replay(events)
    lines = {line.wager: line for line in result.settlement.lines}
    assert (lines["HOP_3_4"].amount_cents, lines["HOP_3_4"].section) == (7500, "585.4")
    assert lines["FIELD"].outcome is Outcome.LOSE and lines["FIELD"].section == "585.2(f)(1)"
    assert result.findings == ()
    assert ("any_doubles_otherwise", "lose") in result.settlement.options_applied
    assert ("shaker_passes", "shooter_left") in result.settlement.options_applied


def test_585_3_h_losers_first_is_judged_on_each_round_s_own_settlement():
    """The losing lines are settled once per settlement and reused for its payments: a
    collection given back, or another round at the same point, is judged on its own."""
    wagers = [(1, "HOP_3_4", 500), (2, "FIELD", 1000)]
    paid = DealerPaid(seat=1, wager="HOP_3_4", amount_cents=7500)
    collected = DealerCollected(seat=2, wager="FIELD", amount_cents=1000)
    settled = replay(a_round(wagers, DiceThrown(faces=(4, 3)), collected, paid))
    assert settled.findings == ()
    given_back = WagerReturned(seat=2, wager="FIELD", amount_cents=1000)
    with pytest.raises(RuleViolation, match=r"585\.3\(h\).*collect seat 2's losing FIELD"):
        replay(a_round(wagers, DiceThrown(faces=(4, 3)), collected, paid, given_back, paid))
    other = a_round([(1, "HOP_3_4", 500), (3, "HARD_4", 300)], DiceThrown(faces=(3, 4)))
    with pytest.raises(RuleViolation, match=r"collect seat 3's losing HARD_4"):
        replay([*other, paid])


@pytest.mark.parametrize("kind", ["DIE_OUT_OF_SHAKER", "DIE_ON_DIE", "NOT_FLAT"])
def test_585_3_f_g_a_no_roll_returns_every_wager(kind):
    events = a_round([(1, "HARD_4", 500), (2, "ANY_CRAPS", 300)],
                     DiceThrown(no_roll=kind, faces=(2,)))  # fmt: skip
    settlement = replay(events).settlement
    assert settlement.voided and settlement.void_section in ("585.3(f)", "585.3(g)")
    assert {line.outcome for line in settlement.lines} == {Outcome.RETURNED}
    # A no roll settled instead of returned is a finding.
    paid = replay([*events, DealerPaid(seat=2, wager="ANY_CRAPS", amount_cents=2100),
                   WagerReturned(seat=1, wager="HARD_4", amount_cents=500)])  # fmt: skip
    assert [finding.kind for finding in paid.findings] == [FindingKind.UNEXPECTED_PAYMENT]


def test_585_3_e_a_lid_lifted_is_shaken_again_and_the_wagers_stand():
    events = a_round([(1, "HARD_4", 500)], DiceThrown(no_roll="LID_REMOVED"),
                     DiceThrown(faces=(2, 2)))  # fmt: skip
    result = replay(events)
    assert result.final_state.no_rolls == (("roll", "LID_REMOVED"),)
    assert result.settlement.line(1, "HARD_4").amount_cents == 15_000


@pytest.mark.parametrize(
    ("throw", "field", "section"),
    [
        (DiceThrown(faces=(3, 7)), "faces", "585.3(a)"),
        (DiceThrown(faces=(0, 2)), "faces", "585.3(a)"),
        (DiceThrown(faces=(3, 4, 5)), "faces", "585.3(a)"),
        (DiceThrown(faces=(3,)), "faces", "585.3(a)"),
        (DiceThrown(no_roll="SPILLED", faces=()), "no_roll", "585.3(g)"),
    ],
)
def test_585_3_a_a_throw_is_two_dice_each_showing_one_to_six(throw, field, section):
    with pytest.raises(RuleViolation) as error:
        replay(a_round([(1, "FIELD", 500)], throw))
    assert (error.value.section, error.value.field) == (section, field)


def test_585_2_a_c_only_seated_players_wager_and_only_before_the_shake():
    with pytest.raises(RuleViolation) as error:
        replay([opened((1, 2)), WagerPlaced(seat=4, wager="FIELD", amount_cents=500)])
    assert (error.value.section, error.value.field) == ("585.2(c)", "seat")
    with pytest.raises(RuleViolation) as error:
        replay([opened((1, 2)), NoMoreBets(), WagerPlaced(seat=1, wager="FIELD", amount_cents=5)])
    assert error.value.section == "585.2(a)"
    with pytest.raises(RuleViolation, match="585.3.e."):
        replay([opened((1, 2)), DiceThrown(faces=(1, 2))])
    with pytest.raises(RuleViolation, match="has no HOP_1_1"):
        replay([opened((1, 2)), WagerPlaced(seat=1, wager="HOP_1_1", amount_cents=5)])


def test_585_3_g_the_dealers_call_is_judged_and_a_wrong_one_recorded():
    result = replay(a_round([(1, "HOP_3_4", 500)], DiceThrown(faces=(4, 3), called="3-5")))
    (miscall,) = miscalls(result.final_state)
    assert (miscall.called, miscall.derived, miscall.section) == ("3-5", "3-4", "585.3(g)")
    assert str(miscall) in result.settlement.notes


def test_585_3_g_a_wrong_call_is_a_finding_of_its_own_and_the_faces_settle():
    wagers = [(1, "HOP_3_4", 500), (2, "FIELD", 500)]
    events = a_round(wagers, DiceThrown(faces=(4, 3), called="3-5"),
                     DealerCollected(seat=2, wager="FIELD", amount_cents=500),
                     DealerPaid(seat=1, wager="HOP_3_4", amount_cents=7500),
                     RoundClosed())  # fmt: skip
    (finding,) = replay(events).findings
    assert (finding.kind, finding.seat, finding.wager) == (FindingKind.WRONG_CALL, 0, "roll")
    assert finding.section == "585.3(g)" and "'3-5'" in finding.detail and "'3-4'" in finding.detail
    right = [*events[:-4], DiceThrown(faces=(4, 3), called="3-4"), *events[-3:]]
    assert replay(right).findings == ()


@pytest.mark.parametrize(
    ("faces", "passes", "shooter", "next_shooter"),
    [((3, 4), "shooter_left", 2, 3), ((3, 4), "dealer_left", 2, 1), ((3, 3), "shooter_left", 2, 2),
     ((1, 6), "shooter_left", 3, 1), ((1, 6), "dealer_left", 1, 3)],
)  # fmt: skip
def test_585_3_j_the_shooter_keeps_the_shaker_until_a_seven(faces, passes, shooter, next_shooter):
    events = a_round([(1, "FIELD", 500)], DiceThrown(faces=faces), RoundClosed(),
                     shaker_passes=passes, shooter=shooter)  # fmt: skip
    result = replay([*events[:-1], DealerCollected(seat=1, wager="FIELD", amount_cents=500)]
                    if game.pays(faces, "FIELD") is None else events[:-1])  # fmt: skip
    assert carried(result.final_state) == {"shooter": next_shooter}
    assert f"next round: shooter={next_shooter}" in result.settlement.notes


def test_585_3_e_the_shaker_goes_to_a_seated_player_first_base_by_default():
    assert carried(replay(a_round([], DiceThrown(faces=(6, 1)), seats=(2, 5))).final_state) == {
        "shooter": 5
    }
    with pytest.raises(RuleViolation) as error:
        replay([opened((1, 2), shooter=4)])
    assert (error.value.section, error.value.field) == ("585.3(e)", "options.shooter")


def test_585_2_f_4_any_doubles_reading_when_not_a_double():
    events = a_round([(1, "ANY_DOUBLES", 500)], DiceThrown(faces=(1, 2)),
                     any_doubles_otherwise="returned")  # fmt: skip
    settlement = replay(events).settlement
    assert settlement.line(1, "ANY_DOUBLES").outcome is Outcome.RETURNED
    assert ("any_doubles_otherwise", "returned") in settlement.options_applied


def _closed_round(faces, seats=(1, 2, 3), **options):
    events = a_round([], DiceThrown(faces=faces), RoundClosed(), seats=seats, **options)
    return replay(events).final_state


@pytest.mark.parametrize(
    ("faces", "passes", "shooter", "next_seats", "next_shooter"),
    [((3, 4), "shooter_left", 2, (1, 2, 3), 3), ((3, 3), "shooter_left", 2, (1, 2, 3), 2),
     ((3, 4), "shooter_left", 2, (1, 2, 5), 5), ((3, 4), "dealer_left", 2, (2, 3), 3),
     ((3, 4), "shooter_left", 3, (1, 2, 3, 4), 4), ((5, 5), "shooter_left", 2, (1, 3), 3),
     ((5, 5), "dealer_left", 2, (1, 3), 1)],
)  # fmt: skip
def test_585_3_j_the_next_round_opens_with_the_shooter_the_table_carries(
    faces, passes, shooter, next_seats, next_shooter
):
    """Seated at the next round: a player sat down to the shooter's left takes the shaker
    after a 7; a shooter gone before a 7 passes it to the left the same way."""
    previous = _closed_round(faces, shaker_passes=passes, shooter=shooter)
    assert game.opens_with(previous, opened(next_seats, shaker_passes=passes)) == {
        "shooter": next_shooter
    }
    right = opened(next_seats, shaker_passes=passes, shooter=next_shooter)
    assert refuse_next_opening(previous, right) is None
    wrong = opened(next_seats, shaker_passes=passes, shooter=None)
    refusal = refuse_next_opening(previous, wrong)
    assert refusal is not None
    assert (refusal.section, refusal.field) == ("585.3(j)", "options.shooter")
    assert f"shooter is {next_shooter} after round R-PH" in refusal.reason


def test_585_3_j_a_round_still_open_leaves_the_next_one_unjudged():
    in_play = replay(a_round([], DiceThrown(faces=(3, 4)))).final_state
    assert refuse_next_opening(in_play, opened((1, 2, 3), shooter=1)) is None


def test_585_3_f_j_after_a_no_roll_the_shooter_keeps_the_shaker():
    events = a_round([(1, "FIELD", 500)], DiceThrown(no_roll="DIE_ON_DIE"),
                     WagerReturned(seat=1, wager="FIELD", amount_cents=500), RoundClosed(),
                     shooter=2)  # fmt: skip
    previous = replay(events).final_state
    assert game.opens_with(previous, opened((1, 2, 3))) == {"shooter": 2}
    assert opened_as_left(previous, opened((1, 2, 3), shooter=1)).options.get("shooter") == 2
