"""What each chapter says about its progressive: sections, minimums, pay schedules.

A pay schedule line pays one of three things (§ 555.13(d), § 587.12(e)(1),
§ 588.12(d)(1)):

* a share of the meter (:class:`~tables.rules.money.MeterShare`, "100% of
  meter"), paid from the meter;
* a fixed amount (:class:`~tables.rules.money.Fixed`, Caribbean Stud's "$500"),
  paid by the house;
* "X for 1" (:class:`ForOne`), paid by the house: the progressive chip was
  taken into the table inventory container at "no more bets" (§ 587.8(b),
  § 588.8(b)(2)), so "for" odds pay X times the wager and return nothing more.

>>> line = RAISE_IT_UP_587.schedule_line("AKQ_HEARTS_DIAMONDS_CLUBS")
>>> str(line.pays), line.from_meter
('500 for 1', False)
>>> CARIBBEAN_STUD_555.schedule_line("ROYAL_FLUSH").is_whole_meter
True
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from tables.rules.engine import Refusal
from tables.rules.events import DealingMethod
from tables.rules.money import Cents, Fixed, MeterShare

__all__ = [
    "ForOne",
    "LinePays",
    "ScheduleLine",
    "InventoryRule",
    "ChapterRules",
    "CARIBBEAN_STUD_555",
    "RAISE_IT_UP_587",
    "SIX_CARD_FORTUNE_588",
    "CHAPTERS",
    "chapter_rules",
    "caribbean_stud_schedule",
    "check_schedule",
]


@dataclass(frozen=True, slots=True)
class ForOne:
    """A line paying "``numerator`` for ``denominator``" on the progressive wager.

    >>> ForOne(500).on(500), str(ForOne(70))
    (250000, '70 for 1')

    :raises ValueError: when a term is not a positive ``int``.
    """

    numerator: int
    denominator: int = 1

    def __post_init__(self) -> None:
        for name in ("numerator", "denominator"):
            value = getattr(self, name)
            if type(value) is not int or value <= 0:
                raise ValueError(f"ForOne.{name} must be a positive int, got {value!r}")

    def on(self, wager_cents: Cents) -> Cents:
        """The amount paid on ``wager_cents``: whole cents, the house keeps any fraction."""
        return wager_cents * self.numerator // self.denominator

    def __str__(self) -> str:
        return f"{self.numerator} for {self.denominator}"


LinePays = MeterShare | Fixed | ForOne
"""What a progressive pay-schedule line pays."""


@dataclass(frozen=True, slots=True, kw_only=True)
class ScheduleLine:
    """One line of a progressive pay schedule: the hand's stored name and what it pays."""

    hand: str
    label: str
    pays: LinePays

    @property
    def from_meter(self) -> bool:
        """Whether the line is paid out of the meter (a share of it) rather than by the house."""
        return isinstance(self.pays, MeterShare)

    @property
    def is_whole_meter(self) -> bool:
        """Whether the line pays 100 % of the meter (after which the meter is reset)."""
        return isinstance(self.pays, MeterShare) and self.pays.share == 1


class InventoryRule(enum.StrEnum):
    """Which meter payouts may not be paid from the table inventory container."""

    NOT_STATED = "not_stated"
    """§ 555.11(e)(3) allows for either source and bans neither."""
    WHOLE_METER = "whole_meter"
    """§ 587.11(i)(3)(i)(D): a payout of 100 % of the meter may not be paid from the inventory."""
    ANY_METER_SHARE = "any_meter_share"
    """§ 588.11(h)(3)(i)(B)(4): a payout that is a percentage of the meter may not."""


@dataclass(frozen=True, slots=True, kw_only=True)
class ChapterRules:
    """A chapter's progressive rules, each with the section that states it.

    A ``None`` section or minimum means the chapter does not state the rule;
    each is quoted in the attribute's comment.
    """

    chapter: str
    game: str
    #: How a progressive wager is placed; its amount where the chapter fixes it.
    wager_section: str
    wager_amounts_cents: tuple[Cents, ...] | None
    #: "The rate of progression ... shall be no less than": § 555.13(e) 70 %,
    #: § 587.12(e)(3) 14 %; § 588.12 states none (its heading names one).
    rate_section: str | None
    minimum_rate: Fraction | None
    #: The initial and reset amount, and its minimum: § 587.12(e)(3) $1,000,
    #: § 588.12(d)(2) $5,000; § 555.13(e) states none.
    reset_section: str
    minimum_reset_cents: Cents
    #: "Paid ... the amount on the meter when it is the player's turn to be paid."
    turn_section: str
    #: Several players holding the whole-meter hand at one table share it
    #: equally and are paid when the first is paid: § 555.13(f) only.
    shared_whole_meter_section: str | None
    #: The order players are paid in: counterclockwise from the dealer's right.
    payment_order_section: str
    schedule_section: str
    #: "Verify that the hand is a winning hand", "have a floorperson or above validate".
    winning_hand_section: str
    validation_section: str
    inventory_rule: InventoryRule
    inventory_section: str
    #: By dealing method, the section of the "no more bets" step and whether it
    #: requires the dealer to count the chips collected against the wagers the
    #: system accepted.
    count_sections: Mapping[DealingMethod, tuple[str, bool]]
    schedule: tuple[ScheduleLine, ...]
    #: Whether a configured schedule may exceed :attr:`schedule` ("no less
    #: than", § 555.13(d)) or must equal it ("shall pay ... the following").
    schedule_is_minimum: bool

    def schedule_line(self, hand: str) -> ScheduleLine:
        """The line of the chapter's own schedule for ``hand``.

        :raises KeyError: for a hand the schedule does not list.
        """
        for line in self.schedule:
            if line.hand == hand:
                return line
        raise KeyError(hand)


def _line(hand: str, label: str, pays: LinePays) -> ScheduleLine:
    return ScheduleLine(hand=hand, label=label, pays=pays)


_WHOLE = MeterShare(Fraction(1))
_TENTH = MeterShare(Fraction(1, 10))


def caribbean_stud_schedule(*, straight_flush_at_ten_percent: bool) -> tuple[ScheduleLine, ...]:
    """The least § 555.13(d) allows: the straight flush "either 10% of the progressive
    jackpot or $5,000, as designated in the certificate holder's approved system of
    internal controls".

    >>> [str(line.pays) for line in caribbean_stud_schedule(straight_flush_at_ten_percent=False)]
    ['100% of the meter', '$5,000.00', '$500.00', '$100.00', '$50.00']
    """
    return (
        _line("ROYAL_FLUSH", "Royal Flush", _WHOLE),
        _line(
            "STRAIGHT_FLUSH",
            "Straight Flush",
            _TENTH if straight_flush_at_ten_percent else Fixed(500_000),
        ),
        _line("FOUR_OF_A_KIND", "Four-of-a-kind", Fixed(50_000)),
        _line("FULL_HOUSE", "Full House", Fixed(10_000)),
        _line("FLUSH", "Flush", Fixed(5_000)),
    )


CARIBBEAN_STUD_555 = ChapterRules(
    chapter="555",
    game="caribbean_stud_poker",
    # "placing a $1 gaming chip into the progressive wagering device".
    wager_section="555.7(c)",
    wager_amounts_cents=(100,),
    rate_section="555.13(e)",
    minimum_rate=Fraction(70, 100),
    reset_section="555.13(e)",
    minimum_reset_cents=0,
    turn_section="555.13(f)",
    shared_whole_meter_section="555.13(f)",
    payment_order_section="555.11(e)(3)",
    schedule_section="555.13(d)",
    winning_hand_section="555.12(b)(1)",
    validation_section="555.12(b)(3)",
    inventory_rule=InventoryRule.NOT_STATED,
    inventory_section="555.11(e)(3)",
    count_sections={
        DealingMethod.MANUAL_SHOE: ("555.8(b)", True),
        # §§ 555.9(a)(3) and 555.10(a)(2) state the lock-out but no chip count.
        DealingMethod.HAND: ("555.9(a)(3)", False),
        DealingMethod.AUTOMATED_SHOE: ("555.10(a)(2)", False),
    },
    schedule=caribbean_stud_schedule(straight_flush_at_ten_percent=True),
    schedule_is_minimum=True,
)

RAISE_IT_UP_587 = ChapterRules(
    chapter="587",
    game="raise_it_up_stud_poker",
    # "by placing a value chip into the progressive wagering device"; no amount.
    wager_section="587.7(d)(4)",
    wager_amounts_cents=None,
    rate_section="587.12(e)(3)",
    minimum_rate=Fraction(14, 100),
    reset_section="587.12(e)(3)",
    minimum_reset_cents=100_000,
    turn_section="587.12(e)(4)",
    shared_whole_meter_section=None,
    payment_order_section="587.11(i)",
    schedule_section="587.12(e)(1)",
    winning_hand_section="587.11(i)(3)(i)(A)",
    validation_section="587.11(i)(3)(i)(C)",
    inventory_rule=InventoryRule.WHOLE_METER,
    inventory_section="587.11(i)(3)(i)(D)",
    count_sections={
        DealingMethod.MANUAL_SHOE: ("587.8(b)", True),
        DealingMethod.HAND: ("587.9(a)(3)", True),
        DealingMethod.AUTOMATED_SHOE: ("587.10(a)(2)", True),
    },
    schedule=(
        _line("AKQ_SPADES", "Ace, king and queen of spades", _WHOLE),
        _line(
            "AKQ_HEARTS_DIAMONDS_CLUBS",
            "Ace, king and queen of hearts, diamonds or clubs",
            ForOne(500),
        ),
        _line("STRAIGHT_FLUSH", "straight flush", ForOne(70)),
        _line("THREE_OF_A_KIND", "Three-of-a-kind", ForOne(60)),
        _line("STRAIGHT", "Straight", ForOne(6)),
    ),
    schedule_is_minimum=False,
)

SIX_CARD_FORTUNE_588 = ChapterRules(
    chapter="588",
    game="six_card_fortune_pai_gow_poker",
    wager_section="588.7(e)(4)",
    wager_amounts_cents=None,
    rate_section=None,
    minimum_rate=None,
    reset_section="588.12(d)(2)",
    minimum_reset_cents=500_000,
    turn_section="588.12(d)(3)",
    shared_whole_meter_section=None,
    # § 588.11(h) does not restate the order; hands are revealed and settled
    # from the dealer's right, counterclockwise (§ 588.11(e)).
    payment_order_section="588.11(e)",
    schedule_section="588.12(d)(1)",
    winning_hand_section="588.11(h)(3)(i)(B)(1)",
    validation_section="588.11(h)(3)(i)(B)(3)",
    inventory_rule=InventoryRule.ANY_METER_SHARE,
    inventory_section="588.11(h)(3)(i)(B)(4)",
    count_sections={
        DealingMethod.MANUAL_SHOE: ("588.8(b)(2)", True),
        DealingMethod.HAND: ("588.9(a)(3)(ii)", True),
        DealingMethod.AUTOMATED_SHOE: ("588.10(a)(2)(ii)", True),
    },
    schedule=(
        _line("FIVE_ACES", "Five Aces", _WHOLE),
        _line("ROYAL_FLUSH", "royal flush", _TENTH),
        _line("STRAIGHT_FLUSH", "straight flush", ForOne(300)),
        _line("FOUR_OF_A_KIND", "Four-of-a-kind", ForOne(150)),
        _line("FULL_HOUSE", "Full house", ForOne(15)),
        _line("FLUSH", "Flush", ForOne(6)),
        _line("STRAIGHT", "Straight", ForOne(3)),
    ),
    schedule_is_minimum=False,
)

CHAPTERS: Mapping[str, ChapterRules] = {
    rules.chapter: rules for rules in (CARIBBEAN_STUD_555, RAISE_IT_UP_587, SIX_CARD_FORTUNE_588)
}
"""Every chapter that defines a progressive, by its number."""


def chapter_rules(chapter: str) -> ChapterRules:
    """The progressive rules of ``chapter``.

    >>> chapter_rules("587").minimum_rate
    Fraction(7, 50)

    :raises ValueError: for a chapter that defines no progressive (Pai Gow Poker § 561).
    """
    try:
        return CHAPTERS[chapter]
    except KeyError:
        raise ValueError(f"Chapter {chapter} defines no progressive wager") from None


def _at_least(configured: LinePays, least: LinePays) -> bool:
    if isinstance(configured, MeterShare) and isinstance(least, MeterShare):
        return configured.share >= least.share
    if isinstance(configured, Fixed) and isinstance(least, Fixed):
        return configured.cents >= least.cents
    return False


def check_schedule(rules: ChapterRules, schedule: tuple[ScheduleLine, ...]) -> Refusal | None:
    """Whether ``schedule`` is one the chapter allows; the refusal names the first fault.

    § 555.13(d) sets minimums ("no less than"), the straight flush at 10 % of
    the meter or $5,000; §§ 587.12(e)(1) and 588.12(d)(1) set the schedule itself.

    >>> check_schedule(CARIBBEAN_STUD_555, caribbean_stud_schedule(
    ...     straight_flush_at_ten_percent=False)) is None
    True
    >>> check_schedule(RAISE_IT_UP_587, SIX_CARD_FORTUNE_588.schedule).section
    '587.12(e)(1)'
    """
    hands = [line.hand for line in schedule]
    wanted = [line.hand for line in rules.schedule]
    if sorted(hands) != sorted(wanted):
        return Refusal(
            rules.schedule_section,
            f"the schedule must list exactly {', '.join(wanted)}, not {', '.join(hands)}",
            "schedule",
        )
    for line in schedule:
        least = rules.schedule_line(line.hand).pays
        if not rules.schedule_is_minimum:
            allowed = line.pays == least
        elif line.hand == "STRAIGHT_FLUSH":
            allowed = _at_least(line.pays, _TENTH) or _at_least(line.pays, Fixed(500_000))
        else:
            allowed = _at_least(line.pays, least)
        if not allowed:
            return Refusal(
                rules.schedule_section,
                f"{line.label} pays {line.pays}; the chapter requires "
                f"{'at least ' if rules.schedule_is_minimum else ''}{least}",
                "schedule",
            )
    return None
