"""A Bad Beat fund's posted rules with their history, and its daily count (§ 553.20).

The rules a fund posts (§ 553.20(b): the most contributed from a pot and how,
the minimum pot, the qualifying hands and the shares of a payout) change by
amendment (§ 553.20(c)); each version is in force from its effective day
until the next. A hand's contribution follows the version in force on its
gaming day (:meth:`RulesHistory.on`).

The daily count (§ 553.20(d)-(e)) is compared with what the ledger says the
dealers put in the box that day: :func:`count_variance`.

>>> import datetime
>>> from tables.rules.poker_room.rulesets import BAD_BEAT_ACES_FULL
>>> history = RulesHistory(((datetime.date(2026, 1, 1), BAD_BEAT_ACES_FULL),))
>>> history.on(datetime.date(2026, 11, 24)) is BAD_BEAT_ACES_FULL
True
>>> history.on(datetime.date(2025, 1, 1)) is None
True
>>> count_variance(contributed_cents=12_300, counted_cents=12_000).difference_cents
-300
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from tables.rules.cards import parse_cards
from tables.rules.hands import evaluate_five
from tables.rules.poker_room.charges import BadBeatRules

__all__ = ["CountVariance", "RulesHistory", "count_variance", "rules_from_payload"]


@dataclass(frozen=True, slots=True)
class RulesHistory:
    """Each posted version of a fund's rules with the day it takes effect, oldest first."""

    versions: tuple[tuple[datetime.date, BadBeatRules], ...] = ()

    def on(self, day: datetime.date) -> BadBeatRules | None:
        """The rules in force on ``day``, or None before the first."""
        found = None
        for effective, rules in self.versions:
            if effective <= day:
                found = rules
        return found

    def posted(self, effective: datetime.date, rules: BadBeatRules) -> RulesHistory:
        """The history with a new version.

        :raises ValueError: for a version not after the last one (§ 553.20(c): an
            amendment applies from when it is made, never back in time).
        """
        if self.versions and effective <= self.versions[-1][0]:
            raise ValueError(
                f"effective_from: rules take effect after the version of {self.versions[-1][0]}"
            )
        return RulesHistory((*self.versions, (effective, rules)))


def rules_from_payload(payload: dict[str, Any]) -> BadBeatRules:
    """A ``badbeat.rules_posted`` payload's rules (fractions as ``"1/20"``, the hand as cards).

    >>> rules = rules_from_payload({"rate": "1/20", "maximum_cents": 100, "unit_cents": 100,
    ...     "minimum_pot_cents": 2000, "qualifying_hand": "Ah Ac Ad Kh Kc", "payout_share": "9/10",
    ...     "losing_share": "1/2", "winning_share": "1/4", "table_share": "1/4"})
    >>> rules.contribution_cents(pot_before_rake_cents=3_000, pot_after_rake_cents=2_700)
    100

    :raises ValueError: naming the field that does not make sense.
    """
    try:
        hand = evaluate_five(parse_cards(payload["qualifying_hand"]))
    except (ValueError, KeyError) as error:
        raise ValueError(
            f"qualifying_hand: five cards such as 'Ah Ac Ad Kh Kc' ({error})"
        ) from None
    try:
        return BadBeatRules(
            rate=Fraction(payload["rate"]), maximum_cents=payload["maximum_cents"],
            unit_cents=payload["unit_cents"], minimum_pot_cents=payload["minimum_pot_cents"],
            qualifying_hand=hand, payout_share=Fraction(payload["payout_share"]),
            losing_share=Fraction(payload["losing_share"]),
            winning_share=Fraction(payload["winning_share"]),
            table_share=Fraction(payload["table_share"]),
        )  # fmt: skip
    except (ValueError, ZeroDivisionError) as error:
        raise ValueError(f"rules: {error}") from None


@dataclass(frozen=True, slots=True)
class CountVariance:
    """The day's count of a fund's box against the ledger's contributions."""

    contributed_cents: int
    counted_cents: int
    difference_cents: int
    section: str


def count_variance(*, contributed_cents: int, counted_cents: int) -> CountVariance | None:
    """None when the count equals the contributions; otherwise the variance (counted minus
    contributed), citing § 553.20(d) (the count) whose official record is finance's (e)."""
    difference = counted_cents - contributed_cents
    if difference == 0:
        return None
    return CountVariance(contributed_cents, counted_cents, difference, "553.20(d)")
