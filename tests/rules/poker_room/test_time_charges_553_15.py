"""A poker table's time charges judged against the posted schedule (§ 553.15(b)(3))."""

from __future__ import annotations

import datetime

import pytest

from tables.rules.engine import RuleViolation
from tables.rules.poker_room.charges import ChargeBasis
from tables.rules.poker_room.rulesets import time_charge_ruleset
from tables.rules.poker_room.time_charges import (
    Assessment,
    ChargeFindingKind,
    TimeChargeRate,
    TimeChargeRules,
    judge_day,
)

START = datetime.datetime(2026, 11, 24, 20, 0)
HALF_HOUR = datetime.timedelta(minutes=30)
PER_PLAYER = time_charge_ruleset("PA-553-TIME-PLAYER-30")  # $6 an hour at $2-$4
PER_TABLE = time_charge_ruleset("PA-553-TIME-TABLE-20")  # $30 an hour at $5-$10


def _at(period: int, amount: int, seats=(1, 2, 3), limits=(200, 400), every=HALF_HOUR):
    return Assessment(period_start=START + period * every, min_wager_cents=limits[0],
                      max_wager_cents=limits[1], seats=seats, amount_cents=amount)  # fmt: skip


def _verified(*assessments):
    return {a.period_start: a.amount_cents for a in assessments}


def test_553_15_b_3_i_per_player_every_seated_player_pays_inactive_ones_too():
    """Three seated, one of them sitting out: $3 a half hour each, $9."""
    charges = [_at(0, 900), _at(1, 600)]
    day = judge_day(PER_PLAYER, charges, _verified(*charges))
    assert (day.periods, day.required_cents, day.collected_cents) == (2, 1_800, 1_500)
    (finding,) = day.findings
    assert (finding.kind, finding.section) == (ChargeFindingKind.WRONG_TIME_CHARGE,
                                               "553.15(b)(3)(i)")  # fmt: skip
    assert (finding.expected_cents, finding.recorded_cents) == (900, 600)


def test_553_15_b_3_i_per_table_one_charge_however_many_are_seated():
    every = datetime.timedelta(minutes=20)
    charges = [_at(0, 1_000, seats=(1,), limits=(500, 1_000), every=every),
               _at(1, 1_000, seats=(1, 2, 3, 4, 5, 6, 7, 8, 9), limits=(500, 1_000),
                   every=every)]  # fmt: skip
    day = judge_day(PER_TABLE, charges, _verified(*charges))
    assert (day.required_cents, day.findings) == (2_000, ())


def test_553_15_b_3_ii_the_fee_follows_the_game_s_limits():
    charges = [_at(0, 1_200, limits=(500, 1_000)), _at(1, 900, limits=(1_000, 2_000))]
    day = judge_day(PER_PLAYER, charges, _verified(*charges))
    assert day.required_cents == 1_200  # $8 an hour at $5-$10: $4 a half hour, three seated
    (finding,) = day.findings
    assert (finding.kind, finding.section) == (ChargeFindingKind.UNPOSTED_LIMITS,
                                               "553.15(b)(3)(ii)")  # fmt: skip


def test_553_15_b_3_iii_every_20_or_30_minutes_never_sooner():
    with pytest.raises(ValueError, match="553.15"):
        TimeChargeRules(basis=ChargeBasis.PER_TABLE, period_minutes=15, rates=(
            TimeChargeRate(min_wager_cents=200, max_wager_cents=400, hourly_cents=600),))
    charges = [_at(0, 900), _at(1, 900), _at(1, 900, every=datetime.timedelta(minutes=40))]
    day = judge_day(PER_PLAYER, charges, _verified(*charges))
    (finding,) = day.findings
    assert (finding.kind, finding.section) == (ChargeFindingKind.TIME_CHARGE_TOO_SOON,
                                               "553.15(b)(3)(iii)")  # fmt: skip


def test_553_15_b_3_v_a_charge_not_verified_by_a_floorperson_is_a_finding():
    charges = [_at(0, 900), _at(1, 900), _at(2, 900)]
    day = judge_day(PER_PLAYER, charges, {charges[0].period_start: 900,
                                          charges[1].period_start: 800})  # fmt: skip
    assert day.verified_cents == 1_700
    assert [(f.kind, f.section, f.recorded_cents) for f in day.findings] == [
        (ChargeFindingKind.UNVERIFIED_TIME_CHARGE, "553.15(b)(3)(v)", 800),
        (ChargeFindingKind.UNVERIFIED_TIME_CHARGE, "553.15(b)(3)(v)", 0),
    ]


def test_553_15_a_an_unposted_time_charge_rule_set_is_refused():
    with pytest.raises(RuleViolation) as refused:
        time_charge_ruleset("PA-553-TIME-NONE")
    assert (refused.value.section, refused.value.field) == ("553.15(a)", "ruleset_id")
