"""The poker room's rule sets by id: what a hand's ``ruleset_id`` names.

Each is one table's Rules Submission (§ 521.2, § 553.15(a), § 553.18,
§ 553.20(b)) as a :class:`~tables.rules.poker_room.rules.PokerRuleSet`. A
hand's events name the rule set, so a stream replays on its own.

>>> POKER_RULESETS["PA-553-HOLDEM-NL-1-2-BB"].rake.cap_cents
500
>>> poker_ruleset("nope")
Traceback (most recent call last):
...
tables.rules.engine.RuleViolation: 553.15(a): no poker rule set 'nope' (field: ruleset_id)
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from tables.rules.cards import parse_cards
from tables.rules.engine import RuleViolation
from tables.rules.hands import evaluate_five
from tables.rules.poker_room.charges import BadBeatRules, ChargeBasis, PercentageRake
from tables.rules.poker_room.rules import (
    FIVE_CARD_DRAW_HIGH,
    HOLDEM,
    OMAHA_HI_LO_8,
    SEVEN_CARD_STUD_HI_LO_8,
    PokerRuleSet,
    Structure,
)
from tables.rules.poker_room.time_charges import TimeChargeRate, TimeChargeRules

__all__ = [
    "BAD_BEAT_ACES_FULL",
    "POKER_RULESETS",
    "TIME_CHARGE_RULESETS",
    "poker_ruleset",
    "time_charge_ruleset",
]

_TEN_PERCENT_CAP_5 = PercentageRake(
    rate=Fraction(1, 10), cap_cents=500, unit_cents=100, no_flop_no_drop=True
)
_TEN_PERCENT_CAP_4 = PercentageRake(rate=Fraction(1, 10), cap_cents=400, unit_cents=100)

BAD_BEAT_ACES_FULL = BadBeatRules(
    rate=Fraction(1, 20), maximum_cents=100, unit_cents=100, minimum_pot_cents=2_000,
    qualifying_hand=evaluate_five(parse_cards("Ah Ac Ad Kh Kc")), payout_share=Fraction(9, 10),
    losing_share=Fraction(1, 2), winning_share=Fraction(1, 4), table_share=Fraction(1, 4),
)  # fmt: skip
"""A posted Bad Beat rule (§ 553.20(b)): $1 a pot of $20 or more; aces full of kings beaten."""

POKER_RULESETS: Mapping[str, PokerRuleSet] = {
    "PA-553-HOLDEM-NL-1-2-BB": PokerRuleSet(
        variant=HOLDEM, structure=Structure.NO_LIMIT, small_bet_cents=200, big_bet_cents=200,
        blinds_cents=(100, 200), max_raises=None, rake=_TEN_PERCENT_CAP_5,
        bad_beat=BAD_BEAT_ACES_FULL,
    ),
    "PA-553-OMAHA-HL8-4-8": PokerRuleSet(
        variant=OMAHA_HI_LO_8, structure=Structure.LIMIT, small_bet_cents=400, big_bet_cents=800,
        blinds_cents=(200, 400), rake=_TEN_PERCENT_CAP_4,
    ),
    "PA-553-STUD-HL8-2-4": PokerRuleSet(
        variant=SEVEN_CARD_STUD_HI_LO_8, structure=Structure.LIMIT, small_bet_cents=200,
        big_bet_cents=400, ante_cents=25, forced_bet_cents=100, chip_cents=25,
        rake=_TEN_PERCENT_CAP_4,
    ),
    "PA-553-DRAW-HIGH-2-4": PokerRuleSet(
        variant=FIVE_CARD_DRAW_HIGH, structure=Structure.LIMIT, small_bet_cents=200,
        big_bet_cents=400, blinds_cents=(100, 200), rake=_TEN_PERCENT_CAP_4,
    ),
}  # fmt: skip
"""The poker room's posted rule sets (the demo's four tables use one each)."""


def poker_ruleset(ruleset_id: str) -> PokerRuleSet:
    """The rule set ``ruleset_id`` names.

    :raises RuleViolation: for an id no rule set has (§ 553.15(a): the rake,
        like the rest of the Rules Submission, must be the posted one).
    """
    try:
        return POKER_RULESETS[ruleset_id]
    except KeyError:
        raise RuleViolation(
            "553.15(a)", f"no poker rule set {ruleset_id!r}", "ruleset_id"
        ) from None


TIME_CHARGE_RULESETS: Mapping[str, TimeChargeRules] = {
    # $6 an hour a player at $2-$4, $8 at $5-$10, every 30 minutes.
    "PA-553-TIME-PLAYER-30": TimeChargeRules(
        basis=ChargeBasis.PER_PLAYER, period_minutes=30, rates=(
            TimeChargeRate(min_wager_cents=200, max_wager_cents=400, hourly_cents=600),
            TimeChargeRate(min_wager_cents=500, max_wager_cents=1_000, hourly_cents=800),
        )),
    # $30 an hour a table at $5-$10, every 20 minutes.
    "PA-553-TIME-TABLE-20": TimeChargeRules(
        basis=ChargeBasis.PER_TABLE, period_minutes=20, rates=(
            TimeChargeRate(min_wager_cents=500, max_wager_cents=1_000, hourly_cents=3_000),
        )),
}  # fmt: skip
"""Posted time charges (§ 553.15(a), (b)(3)) a table's ``timecharge.assessed`` names."""


def time_charge_ruleset(ruleset_id: str) -> TimeChargeRules:
    """The time charges ``ruleset_id`` names.

    :raises RuleViolation: for an id none has (§ 553.15(a)).
    """
    try:
        return TIME_CHARGE_RULESETS[ruleset_id]
    except KeyError:
        raise RuleViolation(
            "553.15(a)", f"no time-charge rule set {ruleset_id!r}", "ruleset_id"
        ) from None
