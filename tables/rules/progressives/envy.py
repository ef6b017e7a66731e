"""Envy bonuses: fixed sums paid by the house for qualifying hands held by *other* players.

Raise It Up Stud Poker (§ 587): every player who placed a Progressive Payout
Wager, folded or not (§ 587.11(g)), receives for each Envy Bonus Qualifying
Hand (ace, king and queen of one suit, § 587.1) held by another player the
amount of § 587.12(e)(5) for his wager of $1 or $5; "a player is not entitled
to an Envy Bonus for his own hand" (§ 587.11(i)(3)(i)(E)). The chapter gives no
amount for another wager, so one is refused.

Six-Card Fortune Pai Gow Poker (§ 588) has two Envy bonuses, one for the
Fortune Bonus Wager (qualifying hand: a full house or better, § 588.1(i); amounts
§ 588.12(b)(ii)) and one for the Progressive Payout Wager (four-of-a-kind or
better, § 588.1(ii); amounts § 588.12(d)(4)), never for one's own hand or the
dealer's (§ 588.11(h)(1)(ii), (h)(3)(ii)). Its provisions contradict each other
(see :class:`EnvyRecipients`, :class:`UnscheduledAmounts`): each reading is an
option with no default, asked for only where the readings disagree on the
round, and recorded in the settlement.

Envy bonuses are house payouts, never paid from the meter.

>>> seats = [EnvySeat587(seat=1, progressive_cents=100),
...          EnvySeat587(seat=4, progressive_cents=500, hand="AKQ_SPADES")]
>>> [(line.seat, line.for_seat, line.amount_cents) for line in settle_envy_587(seats).lines]
[(1, 4, 10000)]
"""

from __future__ import annotations

import enum
import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar

from tables.rules.cards import Card, Rank, Suit
from tables.rules.engine import RuleViolation
from tables.rules.money import Cents

__all__ = [
    "EnvyKind",
    "EnvyLine",
    "EnvySettlement",
    "ENVY_587",
    "EnvySeat587",
    "envy_hand_587",
    "settle_envy_587",
    "ENVY_588",
    "QUALIFYING_HANDS_588",
    "QUALIFYING_WAGER_CENTS_588",
    "EnvyRecipients",
    "UnscheduledAmounts",
    "EnvyReadings588",
    "EnvySeat588",
    "settle_envy_588",
]


class EnvyKind(enum.StrEnum):
    """The wager an Envy bonus belongs to."""

    PROGRESSIVE = "progressive"
    FORTUNE_BONUS = "fortune_bonus"


@dataclass(frozen=True, slots=True, kw_only=True)
class EnvyLine:
    """The house pays ``seat`` ``amount_cents`` for the qualifying ``hand`` at ``for_seat``."""

    seat: int
    kind: EnvyKind
    for_seat: int
    hand: str
    wager_cents: Cents
    amount_cents: Cents
    section: str


@dataclass(frozen=True, slots=True, kw_only=True)
class EnvySettlement:
    """Every Envy bonus of a round, in payment order, and what the settlement assumed."""

    lines: tuple[EnvyLine, ...]
    #: The chapter's readings the settlement was made under (Chapter 588 only).
    readings: EnvyReadings588 | None = None
    #: Qualifying hands that paid nothing because a schedule has no row for them.
    notes: tuple[str, ...] = ()

    @property
    def total_cents(self) -> Cents:
        """What the house pays in Envy bonuses."""
        return sum(line.amount_cents for line in self.lines)


# --- Raise It Up Stud Poker (§ 587) ----------------------------------------------------

ENVY_587: Mapping[Cents, Mapping[str, Cents]] = {
    100: {"AKQ_SPADES": 10_000, "AKQ_HEARTS_DIAMONDS_CLUBS": 2_500},
    500: {"AKQ_SPADES": 50_000, "AKQ_HEARTS_DIAMONDS_CLUBS": 12_500},
}
"""§ 587.12(e)(5): by the receiving player's Progressive Payout Wager, then by the hand."""


@dataclass(frozen=True, slots=True, kw_only=True)
class EnvySeat587:
    """A seat's Progressive Payout Wager (0 for none) and its Envy qualifying hand, if any."""

    seat: int
    progressive_cents: Cents = 0
    hand: str | None = None


def envy_hand_587(cards: Sequence[Card]) -> str | None:
    """The Envy Bonus Qualifying Hand of a player's three cards (§ 587.1), if they are one.

    >>> from tables.rules.cards import parse_cards
    >>> envy_hand_587(parse_cards("Qs As Ks")), envy_hand_587(parse_cards("Ah Kh Qh"))
    ('AKQ_SPADES', 'AKQ_HEARTS_DIAMONDS_CLUBS')
    >>> envy_hand_587(parse_cards("Ah Kh Qd")) is None
    True
    """
    ranks = sorted(card.rank for card in cards)
    suits = {card.suit for card in cards}
    if ranks != [Rank.QUEEN, Rank.KING, Rank.ACE] or len(suits) != 1:
        return None
    return "AKQ_SPADES" if suits == {Suit.SPADES} else "AKQ_HEARTS_DIAMONDS_CLUBS"


def settle_envy_587(seats: Sequence[EnvySeat587]) -> EnvySettlement:
    """Every Envy bonus of a Raise It Up Stud round.

    :raises RuleViolation: (§ 587.12(e)(5)) for a wager with no Envy schedule that
        another player's hand would pay, or (§ 587.1) for an unknown hand.
    """
    holders = [seat for seat in _payment_order(seats) if seat.hand is not None]
    for holder in holders:
        if holder.hand not in ENVY_587[100]:
            raise RuleViolation("587.1", f"{holder.hand} is not an Envy Bonus Qualifying Hand")
    lines = []
    for receiver in _payment_order(seats):
        if receiver.progressive_cents == 0:
            continue
        for holder in holders:
            if holder.seat == receiver.seat:
                continue
            schedule = ENVY_587.get(receiver.progressive_cents)
            if schedule is None:
                raise RuleViolation(
                    "587.12(e)(5)",
                    f"no Envy Bonus is stated for a {receiver.progressive_cents}-cent "
                    "Progressive Payout Wager (only $1 and $5)",
                    "progressive_cents",
                )
            assert holder.hand is not None
            lines.append(
                EnvyLine(
                    seat=receiver.seat,
                    kind=EnvyKind.PROGRESSIVE,
                    for_seat=holder.seat,
                    hand=holder.hand,
                    wager_cents=receiver.progressive_cents,
                    amount_cents=schedule[holder.hand],
                    section="587.12(e)(5)",
                )
            )
    return EnvySettlement(lines=tuple(lines))


# --- Six-Card Fortune Pai Gow Poker (§ 588) --------------------------------------------

QUALIFYING_WAGER_CENTS_588 = 500
"""§ 588.1: "A Fortune Bonus or Progressive Payout Wager of at least $5"."""

QUALIFYING_HANDS_588: Mapping[EnvyKind, frozenset[str]] = {
    EnvyKind.FORTUNE_BONUS: frozenset(
        {"FIVE_ACES", "ROYAL_FLUSH", "STRAIGHT_FLUSH", "FOUR_OF_A_KIND", "FULL_HOUSE"}
    ),
    EnvyKind.PROGRESSIVE: frozenset(
        {"FIVE_ACES", "ROYAL_FLUSH", "STRAIGHT_FLUSH", "FOUR_OF_A_KIND"}
    ),
}
"""§ 588.1 (i) full house or better, (ii) four-of-a-kind or better, formed from six cards."""

ENVY_588: Mapping[EnvyKind, Mapping[Cents, Mapping[str, Cents]]] = {
    EnvyKind.FORTUNE_BONUS: {  # § 588.12(b)(ii)
        100: {
            "FIVE_ACES": 100_000,
            "ROYAL_FLUSH": 20_000,
            "STRAIGHT_FLUSH": 5_000,
            "FOUR_OF_A_KIND": 1_500,
            "FULL_HOUSE": 500,
        },
        500: {
            "FIVE_ACES": 500_000,
            "ROYAL_FLUSH": 100_000,
            "STRAIGHT_FLUSH": 25_000,
            "FOUR_OF_A_KIND": 7_500,
            "FULL_HOUSE": 2_500,
        },
    },
    EnvyKind.PROGRESSIVE: {  # § 588.12(d)(4); the $5 table has no four-of-a-kind row
        100: {
            "FIVE_ACES": 10_000,
            "ROYAL_FLUSH": 5_000,
            "STRAIGHT_FLUSH": 1_000,
            "FOUR_OF_A_KIND": 500,
        },
        500: {"FIVE_ACES": 50_000, "ROYAL_FLUSH": 25_000, "STRAIGHT_FLUSH": 5_000},
    },
}
"""The Envy amounts by kind, by the receiving player's wager of that kind, by hand."""

_ENVY_SECTIONS = {EnvyKind.FORTUNE_BONUS: "588.12(b)(ii)", EnvyKind.PROGRESSIVE: "588.12(d)(4)"}


class EnvyRecipients(enum.StrEnum):
    """Who receives a kind's Envy bonus: the chapter gives three answers.

    § 588.1 pays an Envy Bonus to "a player who placed a Qualifying Wager" (at
    least $5); § 588.11(h)(1)(ii) and (h)(3)(ii) pay "each player who has an
    Envy lammer" (placed for a Qualifying Wager of either kind, § 588.8(b)(1));
    § 588.12(b)(ii) and (d)(4) give amounts for $1 wagers, which neither of
    those would ever pay, keyed to the receiving player's wager of that kind.
    """

    LAMMER_HOLDERS = "lammer_holders"
    """§ 588.11(h)(1)(ii), (h)(3)(ii): each player with a lammer receives both kinds,
    each by the amount of his own wager of that kind (nothing for a kind he did not wager)."""
    QUALIFYING_WAGER_OF_THE_KIND = "qualifying_wager_of_the_kind"
    """§ 588.1 with § 588.12(b)(ii), (d)(4): a kind's bonus to a player whose own wager
    of that kind is at least $5; the $1 schedules never apply."""
    SCHEDULED_WAGER_OF_THE_KIND = "scheduled_wager_of_the_kind"
    """§ 588.12(b)(ii), (d)(4) read alone: a kind's bonus to every player with a wager
    of that kind, the $1 schedules included; no $5 threshold."""


class UnscheduledAmounts(enum.StrEnum):
    """What a wager of an amount with no schedule receives (§ 588.12(b)(ii), (d)(4) state
    $1 and $5 only, while § 588.1 qualifies every wager of at least $5)."""

    NOTHING = "nothing"
    """Only wagers of exactly $1 or $5 receive an Envy bonus."""
    FIVE_DOLLAR_SCHEDULE = "five_dollar_schedule"
    """A wager of more than $5 receives the $5 amounts; any other amount nothing."""


@dataclass(frozen=True, slots=True, kw_only=True)
class EnvyReadings588:
    """The rule set's choice among Chapter 588's contradictory Envy provisions (none by default)."""

    recipients: EnvyRecipients | None = None
    unscheduled: UnscheduledAmounts | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class EnvySeat588:
    """A betting position's optional wagers (0 for none) and its best hand of six cards.

    ``hand`` names the hand when it is on an Envy schedule (``FIVE_ACES``,
    ``ROYAL_FLUSH``, ``STRAIGHT_FLUSH``, ``FOUR_OF_A_KIND``, ``FULL_HOUSE``),
    else ``None``. ``player`` identifies one player wagering on two adjacent
    areas (§ 588.7(f)): neither of his hands pays him an Envy bonus (derived:
    the chapter does not say whose "own hand" that is).
    """

    seat: int
    fortune_bonus_cents: Cents = 0
    progressive_cents: Cents = 0
    hand: str | None = None
    player: str | None = None

    def wager(self, kind: EnvyKind) -> Cents:
        """The seat's wager of ``kind``."""
        if kind is EnvyKind.FORTUNE_BONUS:
            return self.fortune_bonus_cents
        return self.progressive_cents

    @property
    def has_lammer(self) -> bool:
        """Whether the dealer placed an Envy lammer at the seat (§ 588.8(b)(1))."""
        return max(self.fortune_bonus_cents, self.progressive_cents) >= QUALIFYING_WAGER_CENTS_588


_S = TypeVar("_S", EnvySeat587, EnvySeat588)


def _payment_order(seats: Sequence[_S]) -> list[_S]:
    # Counterclockwise from the dealer's right (§ 587.11(i), § 588.11(e)): descending seats.
    return sorted(seats, key=lambda seat: -seat.seat)


def _own(receiver: EnvySeat588, holder: EnvySeat588) -> bool:
    if receiver.seat == holder.seat:
        return True
    return receiver.player is not None and receiver.player == holder.player


def _eligible(receiver: EnvySeat588, kind: EnvyKind, recipients: EnvyRecipients) -> bool:
    if recipients is EnvyRecipients.LAMMER_HOLDERS:
        return receiver.has_lammer
    if recipients is EnvyRecipients.QUALIFYING_WAGER_OF_THE_KIND:
        return receiver.wager(kind) >= QUALIFYING_WAGER_CENTS_588
    return receiver.wager(kind) > 0


def _schedule(
    kind: EnvyKind, wager_cents: Cents, unscheduled: UnscheduledAmounts
) -> Mapping[str, Cents] | None:
    schedules = ENVY_588[kind]
    if wager_cents in schedules:
        return schedules[wager_cents]
    if unscheduled is UnscheduledAmounts.FIVE_DOLLAR_SCHEDULE and wager_cents > 500:
        return schedules[500]
    return None


def _settle_588(
    seats: Sequence[EnvySeat588], recipients: EnvyRecipients, unscheduled: UnscheduledAmounts
) -> tuple[tuple[EnvyLine, ...], tuple[str, ...]]:
    lines: list[EnvyLine] = []
    notes: list[str] = []
    ordered = _payment_order(seats)
    # Fortune Bonus Envy bonuses are paid before the Progressive ones (§ 588.11(h)(1), (3)).
    for kind in (EnvyKind.FORTUNE_BONUS, EnvyKind.PROGRESSIVE):
        holders = [seat for seat in ordered if seat.hand in QUALIFYING_HANDS_588[kind]]
        for receiver in ordered:
            if not _eligible(receiver, kind, recipients):
                continue
            schedule = _schedule(kind, receiver.wager(kind), unscheduled)
            if schedule is None:
                continue
            for holder in holders:
                if _own(receiver, holder):
                    continue
                assert holder.hand is not None
                amount = schedule.get(holder.hand)
                if amount is None:
                    notes.append(
                        f"§ {_ENVY_SECTIONS[kind]} states no amount for a {holder.hand} "
                        f"(seat {holder.seat}) on a {receiver.wager(kind)}-cent wager "
                        f"(seat {receiver.seat})"
                    )
                    continue
                lines.append(
                    EnvyLine(
                        seat=receiver.seat,
                        kind=kind,
                        for_seat=holder.seat,
                        hand=holder.hand,
                        wager_cents=receiver.wager(kind),
                        amount_cents=amount,
                        section=_ENVY_SECTIONS[kind],
                    )
                )
    return tuple(lines), tuple(notes)


def settle_envy_588(
    seats: Sequence[EnvySeat588], readings: EnvyReadings588 = EnvyReadings588()
) -> EnvySettlement:
    """Every Envy bonus of a Six-Card Fortune Pai Gow Poker round.

    The round is settled under every reading the rule set left open; when they
    agree (most rounds: no qualifying hand, or only $5 wagers), that is the
    settlement. When they disagree, an open reading is refused with its section.

    >>> seats = [EnvySeat588(seat=2, fortune_bonus_cents=500),
    ...          EnvySeat588(seat=5, hand="FOUR_OF_A_KIND")]
    >>> [line.amount_cents for line in settle_envy_588(seats).lines]  # $5 Fortune Bonus: $75
    [7500]

    :raises RuleViolation: (§ 588.11(h)) when the open readings settle the round
        differently, or (§ 588.1) for a hand on no Envy schedule.
    """
    for seat in seats:
        if seat.hand is not None and seat.hand not in QUALIFYING_HANDS_588[EnvyKind.FORTUNE_BONUS]:
            raise RuleViolation("588.1", f"{seat.hand} is not an Envy Bonus Qualifying Hand")
    chosen_recipients = [readings.recipients] if readings.recipients else list(EnvyRecipients)
    chosen_unscheduled = (
        [readings.unscheduled] if readings.unscheduled else list(UnscheduledAmounts)
    )
    results = {
        (recipients, unscheduled): _settle_588(seats, recipients, unscheduled)
        for recipients, unscheduled in itertools.product(chosen_recipients, chosen_unscheduled)
    }
    if len(set(results.values())) > 1:
        if any(
            len({results[(recipients, unscheduled)] for recipients in chosen_recipients}) > 1
            for unscheduled in chosen_unscheduled
        ):
            raise RuleViolation(
                "588.11(h)(1)(ii)",
                "Chapter 588 names three different recipients of an Envy Bonus (§ 588.1, "
                "§ 588.11(h), § 588.12) and they settle this round differently: the rule "
                "set must choose (EnvyRecipients)",
                "recipients",
            )
        raise RuleViolation(
            "588.12(b)(ii)",
            "no Envy amount is stated for this wager and the readings settle the round "
            "differently: the rule set must choose (UnscheduledAmounts)",
            "unscheduled",
        )
    lines, notes = next(iter(results.values()))
    return EnvySettlement(lines=lines, readings=readings, notes=notes)
