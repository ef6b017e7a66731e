"""The integer forms of the rounding policies agree with the exact Fraction forms.

:func:`tables.rules.money.winnings` rounds ``stake * numerator / denominator``
in integers for the built-in policies; these tests prove that it gives what
rounding the exact :class:`fractions.Fraction` gives, for every stake, every
odds of every rule set and every policy.
"""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from tables.rules.money import (
    QUOTIENT_RULES,
    ROUNDING_POLICIES,
    Odds,
    RoundingPolicy,
    winnings,
)
from tables.rules.rulesets import RULESETS


def _odds_of_every_rule_set() -> list[Odds]:
    found: set[Odds] = set()
    for ruleset in RULESETS.values():
        for name in dir(ruleset):
            value = getattr(ruleset, name)
            if isinstance(value, Odds):
                found.add(value)
            if isinstance(value, tuple):
                found.update(line.odds for line in value if getattr(line, "odds", None))
    return sorted(found, key=lambda odds: (odds.denominator, odds.numerator))


ODDS = _odds_of_every_rule_set()
POLICIES = sorted(ROUNDING_POLICIES.values(), key=lambda policy: policy.name)


def test_the_rule_sets_have_odds_with_a_denominator_other_than_1() -> None:
    assert Odds(3, 2) in ODDS
    assert len(ODDS) > 10


def test_every_built_in_policy_has_an_integer_form() -> None:
    assert {policy.function for policy in POLICIES} <= set(QUOTIENT_RULES)


@given(
    stake=st.integers(min_value=-(10**9), max_value=10**12),
    odds=st.sampled_from(ODDS),
    policy=st.sampled_from(POLICIES),
)
def test_winnings_equal_the_rounded_exact_fraction(
    stake: int, odds: Odds, policy: RoundingPolicy
) -> None:
    assert winnings(stake, odds, policy) == policy(
        Fraction(stake * odds.numerator, odds.denominator)
    )


@given(
    numerator=st.integers(min_value=-(10**15), max_value=10**15),
    denominator=st.integers(min_value=1, max_value=10**4),
    policy=st.sampled_from(POLICIES),
)
def test_the_integer_form_equals_the_policy_for_any_quotient(
    numerator: int, denominator: int, policy: RoundingPolicy
) -> None:
    integer_form = QUOTIENT_RULES[policy.function]
    assert integer_form(numerator, denominator) == policy(Fraction(numerator, denominator))


def test_a_policy_without_an_integer_form_gets_the_exact_fraction() -> None:
    seen: list[Fraction] = []

    def record(exact: Fraction) -> int:
        seen.append(exact)
        return 7

    assert winnings(1_001, Odds(3, 2), RoundingPolicy("recorder", record)) == 7
    assert seen == [Fraction(3003, 2)]


def test_every_stake_in_a_range_matches_at_every_odds_and_policy() -> None:
    for policy in POLICIES:
        for odds in ODDS:
            for stake in range(0, 2_001):
                exact = Fraction(stake * odds.numerator, odds.denominator)
                assert winnings(stake, odds, policy) == policy(exact)
