"""The progressive wager count at "no more bets".

After locking out further progressive wagers the dealer collects the chips and,
"on the layout in front of the table inventory container, verif[ies] that the
number of [chips] wagered equals the number of progressive payout wagers
accepted by the [progressive] system" (§ 555.8(b), § 587.8(b), § 587.9(a)(3),
§ 587.10(a)(2), § 588.8(b)(2), § 588.9(a)(3)(ii), § 588.10(a)(2)(ii)).
Contributions to the meter come from the accepted count, never the chips. The
dealer's count is a round event (``round.progressive_counted``); the declared
games' engine (:mod:`tables.rules.machine`) keeps its finding for replay.

Chapter 555 states the count for a manual dealing shoe only: dealing from the
hand (§ 555.9(a)(3)) or from an automated shoe (§ 555.10(a)(2)) states the
lock-out alone. A difference there is still reported, marked as not required
by the section it cites.

>>> from tables.rules.progressives.chapters import RAISE_IT_UP_587
>>> finding = check_wager_count(RAISE_IT_UP_587, DealingMethod.HAND, collected_chips=4,
...                             accepted_wagers=5)
>>> finding.section, finding.difference, finding.count_required
('587.9(a)(3)', -1, True)
>>> check_wager_count(RAISE_IT_UP_587, DealingMethod.HAND, collected_chips=5,
...                   accepted_wagers=5) is None
True
"""

from __future__ import annotations

from dataclasses import dataclass

from tables.rules.events import DealingMethod
from tables.rules.progressives.chapters import ChapterRules

__all__ = ["WagerCountFinding", "check_wager_count"]


@dataclass(frozen=True, slots=True, kw_only=True)
class WagerCountFinding:
    """The chips collected differ from the progressive wagers the system accepted."""

    section: str
    collected_chips: int
    accepted_wagers: int
    #: Whether :attr:`section` requires the count (Chapter 555 only for a manual shoe).
    count_required: bool
    reason: str

    @property
    def difference(self) -> int:
        """Chips collected less wagers accepted."""
        return self.collected_chips - self.accepted_wagers


def check_wager_count(
    rules: ChapterRules,
    method: DealingMethod,
    *,
    collected_chips: int,
    accepted_wagers: int,
) -> WagerCountFinding | None:
    """Compare the chips the dealer collected with the wagers the system accepted.

    :raises ValueError: for a negative count.
    """
    if collected_chips < 0 or accepted_wagers < 0:
        raise ValueError("counts are never negative")
    if collected_chips == accepted_wagers:
        return None
    section, required = rules.count_sections[method]
    if collected_chips > accepted_wagers:
        what = (
            f"{collected_chips - accepted_wagers} chip(s) collected for wagers the system "
            "did not accept (no contribution, no payout)"
        )
    else:
        what = (
            f"{accepted_wagers - collected_chips} wager(s) accepted by the system without "
            "a chip collected (each contributes to the meter and may win it)"
        )
    if not required:
        what += f"; § {section} does not require this count"
    return WagerCountFinding(
        section=section,
        collected_chips=collected_chips,
        accepted_wagers=accepted_wagers,
        count_required=required,
        reason=what,
    )
