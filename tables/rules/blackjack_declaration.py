"""What a blackjack game module declares: its rule sets, wagers, side wagers and deal.

:mod:`tables.rules.blackjack_round` runs the declaration; each game module under
:mod:`tables.rules.blackjack_games` is one :class:`BlackjackGame`.

>>> Window.AFTER_UP_CARD.value
'after_up_card'
"""

from __future__ import annotations

import dataclasses
import datetime
import enum
from collections.abc import Callable, Mapping, Sequence

from tables.rules.blackjack import BlackjackRules
from tables.rules.blackjack_settlement import WagerResult
from tables.rules.cards import Card
from tables.rules.declaration import OptionSpec, WagerSpec
from tables.rules.money import RoundingPolicy

__all__ = [
    "DEALER_UP",
    "SEATS",
    "DEALER_HOLE",
    "Window",
    "SideWager",
    "BlackjackRuleSet",
    "BlackjackGame",
]

#: The parts of the initial deal a game lists in order.
DEALER_UP, SEATS, DEALER_HOLE = "dealer_up", "seats", "dealer_hole"


class Window(enum.StrEnum):
    """When a wager may be placed."""

    BEFORE_DEAL = "before_deal"
    """Until "no more bets" (the main wager, Bust It, Push 22)."""
    AFTER_UP_CARD = "after_up_card"
    """Once the dealer's up card is out, before any player's card (§ 581.7(e))."""
    INSURANCE = "insurance"
    """After the deal, before any decision or the dealer's play (§ 5xx.8(a), 7(g))."""


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class SideWager:
    """A wager placed apart from the main one: its window, the wager it may not exceed,
    and its settlement when it is not the hand's.

    ``settle(rules, stake, dealer_cards, rounding)`` decides it on the dealer's
    cards alone (Bust It, Push 22), and the dealer must play on for it; ``None``:
    it rides with the hand (a Double Attack Wager).
    """

    name: str
    window: Window
    at_most: str | None
    settle: Callable[[BlackjackRules, int, Sequence[Card], RoundingPolicy], WagerResult] | None
    #: The opening option that says whether the Rules Submission offers it.
    offered_option: str | None = None


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class BlackjackRuleSet:
    """One version of a blackjack chapter in one jurisdiction: its rules and their readings."""

    id: str
    game: str
    jurisdiction: str
    chapter: str
    effective_from: datetime.date
    effective_to: datetime.date | None = None
    rules: BlackjackRules
    #: The smallest chip the table takes (the Insurance cap's "next unit", § 5xx.8(b)).
    chip_unit_cents: int = 100
    deck_change_hours_shoe: int = 24
    notes: tuple[str, ...] = ()

    def section(self, number: str) -> str:
        """Cite ``number`` in this rule set's chapter."""
        return f"{self.chapter}.{number}"

    def in_force(self, day: datetime.date) -> bool:
        """Whether this version governs a gaming day starting on ``day``."""
        if day < self.effective_from:
            return False
        return self.effective_to is None or day <= self.effective_to


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class BlackjackGame:
    """A blackjack game as its module declares it.

    ``deal`` is the initial deal in order: ``dealer_up``, ``seats`` (one card
    to each seat with a main wager, clockwise), ``dealer_hole``. ``sections``
    names the chapter's numbers for the machine's own checks: ``seated``,
    ``wagers``, ``after_no_more_bets``, ``deal``, ``dealing_shoe``,
    ``dealer_draw_error`` and ``void``; and for the back office's duties
    (``tables.floor_duties``) ``reader_inspection`` and ``reader_malfunction``
    (a game with a card reader), ``tens_removed`` (a Spanish batch).
    """

    id: str
    name: str
    rulesets: tuple[BlackjackRuleSet, ...]
    wagers: tuple[WagerSpec, ...]
    side_wagers: tuple[SideWager, ...]
    deal: tuple[str, ...]
    sections: Mapping[str, str]
    options: tuple[OptionSpec, ...] = ()
    max_seats: int = 6

    def wager(self, name: str) -> WagerSpec | None:
        """The wager called ``name``, if the game has one."""
        return next((spec for spec in self.wagers if spec.name == name), None)

    @property
    def handle_wagers(self) -> tuple[str, ...]:
        """The wagers finance counts as handle (markers are not)."""
        return tuple(spec.name for spec in self.wagers if spec.handle)
