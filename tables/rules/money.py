"""Money and odds: integer cents, exact odds, named rounding policies.

Every amount in the rules engine is an ``int`` number of cents. Odds are exact
(:class:`Odds` holds a numerator and a denominator), and the only place a
fraction of a cent can appear is :func:`winnings`, which hands the exact
:class:`fractions.Fraction` to a :class:`RoundingPolicy` chosen by the caller
(pokerkit passes ``divmod`` the same way). No float is ever used.

>>> winnings(1_050, Odds(3, 2), ROUND_DOWN_TO_CENT)
1575
>>> winnings(1_001, Odds(3, 2), ROUND_DOWN_TO_CENT)
1501
>>> winnings(1_001, Odds(3, 2), ROUND_HALF_UP_TO_CENT)
1502
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction

__all__ = [
    "QUOTIENT_RULES",
    "Cents",
    "Odds",
    "RoundingPolicy",
    "ROUND_DOWN_TO_CENT",
    "ROUND_HALF_UP_TO_CENT",
    "ROUND_DOWN_TO_DOLLAR",
    "ROUNDING_POLICIES",
    "rounding_policy",
    "winnings",
    "Fixed",
    "MeterShare",
    "Commission",
    "Payout",
    "payout",
    "format_cents",
]

Cents = int
"""An amount of money in cents (always an ``int``)."""


@dataclass(frozen=True, slots=True, kw_only=False)
class Odds:
    """Exact payout odds "``numerator`` to ``denominator``".

    >>> Odds(3, 2)
    Odds(numerator=3, denominator=2)
    >>> str(Odds(500, 1))
    '500 to 1'
    >>> Odds(3, 2).ratio
    Fraction(3, 2)

    :raises ValueError: when a term is not a positive ``int``.
    """

    numerator: int
    denominator: int = 1

    def __post_init__(self) -> None:
        for name in ("numerator", "denominator"):
            value = getattr(self, name)
            if type(value) is not int or value <= 0:
                raise ValueError(f"Odds.{name} must be a positive int, got {value!r}")

    @property
    def ratio(self) -> Fraction:
        """The odds as an exact fraction (winnings per unit staked)."""
        return Fraction(self.numerator, self.denominator)

    def __str__(self) -> str:
        return f"{self.numerator} to {self.denominator}"


@dataclass(frozen=True, slots=True)
class RoundingPolicy:
    """A named rule that turns an exact amount of cents into whole cents.

    The name is recorded in every settlement so that an auditor can see which
    policy produced an amount.

    >>> ROUND_DOWN_TO_CENT(Fraction(3, 2))
    1
    """

    name: str
    function: Callable[[Fraction], int]

    def __call__(self, exact_cents: Fraction) -> int:
        return self.function(exact_cents)


def _floor(exact: Fraction) -> int:
    return exact.numerator // exact.denominator


def _half_up(exact: Fraction) -> int:
    return _floor(exact + Fraction(1, 2))


def _down_to_dollar(exact: Fraction) -> int:
    return (_floor(exact) // 100) * 100


ROUND_DOWN_TO_CENT = RoundingPolicy("round_down_to_cent", _floor)
"""Drop any fraction of a cent (the house keeps the breakage)."""
ROUND_HALF_UP_TO_CENT = RoundingPolicy("round_half_up_to_cent", _half_up)
"""Round to the nearest cent, halves up (in the player's favour)."""
ROUND_DOWN_TO_DOLLAR = RoundingPolicy("round_down_to_dollar", _down_to_dollar)
"""Pay whole dollars only, dropping any cents (a table without coin)."""


# The same three rules applied to numerator / denominator (denominator > 0) in
# integers, so that :func:`winnings` needs no Fraction: floor(n / d) is n // d,
# and floor(n / d + 1/2) is floor((2n + d) / 2d). Keyed by the policy's own
# function; a policy not listed here is given the exact Fraction.
# ``tests/rules/test_money_quotients.py`` proves each pair equal.
def _floor_quotient(numerator: int, denominator: int) -> int:
    return numerator // denominator


def _half_up_quotient(numerator: int, denominator: int) -> int:
    return (2 * numerator + denominator) // (2 * denominator)


def _down_to_dollar_quotient(numerator: int, denominator: int) -> int:
    return (numerator // denominator // 100) * 100


QUOTIENT_RULES: Mapping[Callable[[Fraction], int], Callable[[int, int], int]] = {
    _floor: _floor_quotient,
    _half_up: _half_up_quotient,
    _down_to_dollar: _down_to_dollar_quotient,
}
"""Integer forms of the built-in policies' functions (same result, no Fraction)."""

ROUNDING_POLICIES: Mapping[str, RoundingPolicy] = {
    policy.name: policy
    for policy in (ROUND_DOWN_TO_CENT, ROUND_HALF_UP_TO_CENT, ROUND_DOWN_TO_DOLLAR)
}
"""Every rounding policy by its stable name."""


def rounding_policy(name: str) -> RoundingPolicy:
    """Return the rounding policy registered under ``name``.

    >>> rounding_policy("round_down_to_cent").name
    'round_down_to_cent'

    :raises ValueError: for an unknown name.
    """
    try:
        return ROUNDING_POLICIES[name]
    except KeyError:
        raise ValueError(f"unknown rounding policy {name!r}") from None


def winnings(stake_cents: Cents, odds: Odds, rounding: RoundingPolicy) -> Cents:
    """The amount won on ``stake_cents`` at ``odds`` (the stake itself excluded).

    >>> winnings(2_500, Odds(500, 1), ROUND_DOWN_TO_CENT)
    1250000
    >>> winnings(5, Odds(3, 2), ROUND_DOWN_TO_DOLLAR)
    0
    """
    numerator = stake_cents * odds.numerator
    of_quotient = QUOTIENT_RULES.get(rounding.function)
    if of_quotient is not None:
        return of_quotient(numerator, odds.denominator)
    return rounding(Fraction(numerator, odds.denominator))


@dataclass(frozen=True, slots=True)
class Fixed:
    """A pay-table line paying a fixed amount whatever the stake ("$1,000 for a royal").

    >>> str(Fixed(100_000))
    '$1,000.00'
    """

    cents: Cents

    def __str__(self) -> str:
        return format_cents(self.cents)


@dataclass(frozen=True, slots=True)
class MeterShare:
    """A pay-table line paying a share of a progressive meter ("10 % of the meter").

    >>> str(MeterShare(Fraction(1, 10)))
    '10% of the meter'
    """

    share: Fraction

    def __str__(self) -> str:
        percent = self.share * 100
        if percent.denominator == 1:
            return f"{percent.numerator}% of the meter"
        return f"{self.share} of the meter"


@dataclass(frozen=True, slots=True)
class Commission:
    """A commission on winnings (Pai Gow's 5 % vigorish), rounded up to ``round_up_to`` cents.

    >>> Commission(Fraction(5, 100), round_up_to=25).on(1_010)
    75
    >>> Commission(Fraction(5, 100)).on(1_010)
    51
    """

    rate: Fraction
    round_up_to: Cents = 1

    def on(self, winnings_cents: Cents) -> Cents:
        """The commission due on ``winnings_cents``, rounded up in the house's favour."""
        exact = winnings_cents * self.rate
        units = -(-exact // self.round_up_to)  # ceiling, in whole units of round_up_to
        return int(units) * self.round_up_to


Payout = Odds | Fixed | MeterShare
"""What a pay-table line pays: odds on the stake, a fixed amount, or a share of a meter."""


def payout(
    stake_cents: Cents, line: Payout, rounding: RoundingPolicy, meter_cents: Cents = 0
) -> Cents:
    """The amount won on ``stake_cents`` by a line paying ``line`` (the stake excluded).

    >>> payout(500, Odds(2), ROUND_DOWN_TO_CENT), payout(500, Fixed(2_500), ROUND_DOWN_TO_CENT)
    (1000, 2500)
    >>> payout(100, MeterShare(Fraction(1, 10)), ROUND_DOWN_TO_CENT, meter_cents=1_234_567)
    123456
    """
    if isinstance(line, Odds):
        return winnings(stake_cents, line, rounding)
    if isinstance(line, Fixed):
        return line.cents
    return rounding(meter_cents * line.share)


def format_cents(amount: Cents) -> str:
    """Format cents for people.

    >>> format_cents(123456)
    '$1,234.56'
    >>> format_cents(-5)
    '-$0.05'
    """
    sign = "-" if amount < 0 else ""
    dollars, cents = divmod(abs(amount), 100)
    return f"{sign}${dollars:,}.{cents:02d}"
