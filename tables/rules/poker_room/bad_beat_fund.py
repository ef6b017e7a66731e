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
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from typing import Any

from tables.rules.cards import parse_cards
from tables.rules.hands import evaluate_five
from tables.rules.poker_room.charges import BadBeatRules

__all__ = [
    "AWARD",
    "DISCONTINUED",
    "DISPLAY",
    "UNVERIFIED",
    "BeatSeats",
    "CountVariance",
    "EntryKind",
    "FundDay",
    "FundEntry",
    "FundVariance",
    "RulesHistory",
    "count_variance",
    "fund_days",
    "rules_from_payload",
]


@dataclass(frozen=True, slots=True)
class RulesHistory:
    """Each posted version of a fund's rules with the day it takes effect, oldest first."""

    versions: tuple[tuple[datetime.date, BadBeatRules], ...] = ()
    discontinued: datetime.date | None = None
    """The gaming day from which contributions are terminated (§ 553.20(i))."""

    def contributing(self, day: datetime.date) -> bool:
        """Whether the fund takes contributions on ``day``: rules in force, not discontinued."""
        return self.on(day) is not None and (self.discontinued is None or day < self.discontinued)

    def discontinue(self, day: datetime.date) -> RulesHistory:
        """The history with contributions terminated from ``day`` (§ 553.20(i)).

        :raises ValueError: for a fund never posted or already discontinued.
        """
        if not self.versions:
            raise ValueError("effective_from: the fund has no posted rules to discontinue")
        if self.discontinued is not None:
            raise ValueError(f"effective_from: the fund was discontinued from {self.discontinued}")
        return RulesHistory(self.versions, day)

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
        if self.discontinued is not None:
            raise ValueError(f"effective_from: the fund was discontinued from {self.discontinued}")
        if self.versions and effective <= self.versions[-1][0]:
            raise ValueError(
                f"effective_from: rules take effect after the version of {self.versions[-1][0]}"
            )
        return RulesHistory((*self.versions, (effective, rules)), self.discontinued)


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


# --- the fund's days: awards and the display (§ 553.20(f)-(h)) --------------------------


class EntryKind(StrEnum):
    """What moved or marked a fund, in ledger order."""

    CONTRIBUTED = "contributed"  # a hand's contribution (§ 553.20(c))
    VERIFIED = "verified"  # the shift supervisor verified a Bad Beat hand (§ 553.20(f))
    PAID = "paid"  # finance paid its award (§ 553.20(g))
    ADJUSTED = "adjusted"  # finance adjusted the display (§ 553.20(h))
    TRANSFERRED_OUT = "transferred_out"  # the balance moved to another fund (§ 553.20(i))
    TRANSFERRED_IN = "transferred_in"  # a discontinued fund's balance received (§ 553.20(i))


@dataclass(frozen=True, slots=True, kw_only=True)
class FundEntry:
    """One fact about a fund at a ledger position, on a gaming day.

    :ivar amount_cents: a contribution or a transfer; for an adjustment, finance's amount.
    :ivar displayed_cents: for an adjustment, what the display shows after it.
    :ivar shares: for a payment, the cents paid to each seat.
    """

    position: int
    gaming_day: datetime.date
    kind: EntryKind
    amount_cents: int = 0
    displayed_cents: int = 0
    hand_id: str = ""
    shares: Mapping[int, int] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class BeatSeats:
    """A Bad Beat hand's seats, from its replay: the payout's shares follow them."""

    losing_seat: int
    winning_seat: int
    table_seats: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class FundVariance:
    """One kind of difference on a fund's day; ``amount_cents`` sums its parts, each
    detail cites its section (``section`` is the first's)."""

    kind: str
    section: str
    amount_cents: int
    details: tuple[str, ...]


#: The variance kinds, beside the count's ``bad_beat_count`` (:func:`count_variance`).
DISPLAY, AWARD, UNVERIFIED = "bad_beat_display", "bad_beat_award", "bad_beat_unverified"
DISCONTINUED = "bad_beat_discontinued"


@dataclass(frozen=True, slots=True)
class FundDay:
    """A fund's gaming day: opening + contributions − awards + transfers = closing (cents)."""

    gaming_day: datetime.date
    opening_cents: int
    contributions_cents: int
    awards_cents: int
    awards: int
    closing_cents: int
    displayed_cents: int | None
    """The display's amount after the day's last adjustment (the day before's if none)."""
    pending: tuple[str, ...]
    """Hands verified whose display was not yet adjusted after their payment (§ 553.20(f)(1))."""
    variances: tuple[FundVariance, ...]
    transferred_cents: int = 0
    """Received from discontinued funds less transferred to another (§ 553.20(i))."""


def _dollars(cents: int) -> str:
    return f"${cents / 100:,.2f}"


def fund_days(
    entries: Sequence[FundEntry], first: datetime.date, last: datetime.date, *,
    rules: RulesHistory, beats: Mapping[str, BeatSeats | None],
    qualifying: Mapping[datetime.date, Sequence[str]] | None = None,
) -> list[FundDay]:  # fmt: skip
    """Each day from ``first`` to ``last`` of a fund, folding its ``entries`` (ordered by
    position) once.

    ``beats``: each verified hand's seats by its replay, None for a hand that is
    no Bad Beat under the rules in force on its day. ``qualifying``: the hands the
    replay found on a day, each to be verified (§ 553.20(f)).

    The award a verified hand is owed is the posted shares (§ 553.20(b)(3)) of the
    fund as it stood when the shift supervisor verified it: the display is
    "pending adjustment" from then on ((f)(1)), until finance has paid it and
    adjusted the display ((h)(1)). The display is adjusted at least once a day and
    after every award, to finance's amount, which is the fund's balance ((h)(2)).
    """
    balance = 0
    owed: dict[str, int] = {}
    paid: set[str] = set()
    pending: dict[str, bool] = {}  # hand -> paid already
    displayed: int | None = None
    days: list[FundDay] = []
    index = 0
    # Days before ``first`` are folded too, only to open ``first`` as they closed.
    day = min(first, entries[0].gaming_day) if entries else first
    while day <= last:
        opening = balance
        contributed = awarded = count = transferred = 0
        found: _Found = {}
        adjusted = False
        unadjusted: list[str] = []
        while index < len(entries) and entries[index].gaming_day <= day:
            entry = entries[index]
            index += 1
            today = entry.gaming_day == day
            if entry.kind is EntryKind.CONTRIBUTED:
                balance += entry.amount_cents
                contributed += entry.amount_cents if today else 0
                if today and not rules.contributing(day) and rules.discontinued is not None:
                    _note(found, DISCONTINUED, "553.20(i)", entry.amount_cents,
                          f"hand {entry.hand_id} contributed {_dollars(entry.amount_cents)} "
                          f"after contributions were terminated from {rules.discontinued}")
            elif entry.kind in (EntryKind.TRANSFERRED_OUT, EntryKind.TRANSFERRED_IN):
                moved = entry.amount_cents * (1 if entry.kind is EntryKind.TRANSFERRED_IN else -1)
                balance += moved
                transferred += moved if today else 0
            elif entry.kind is EntryKind.VERIFIED:
                owed[entry.hand_id] = balance
                pending[entry.hand_id] = False
            elif entry.kind is EntryKind.PAID:
                total = sum(entry.shares.values())
                balance -= total
                paid.add(entry.hand_id)
                pending[entry.hand_id] = True
                if today:
                    awarded, count = awarded + total, count + 1
                    unadjusted.append(entry.hand_id)
                    wrong = _award_check(entry, owed.get(entry.hand_id, 0),
                                         beats.get(entry.hand_id), rules.on(entry.gaming_day))
                    if wrong is not None:
                        _note(found, *wrong)
            else:
                for hand in [hand for hand, done in pending.items() if done]:
                    del pending[hand]
                unadjusted = []
                displayed = entry.displayed_cents
                if today:
                    adjusted = True
                    if entry.displayed_cents != balance or entry.amount_cents != balance:
                        _note(found, DISPLAY, "553.20(h)(2)", entry.displayed_cents - balance,
                              f"the display was set to {_dollars(entry.displayed_cents)} and "
                              f"finance's amount was {_dollars(entry.amount_cents)}; the fund "
                              f"held {_dollars(balance)}")  # fmt: skip
        closed = rules.discontinued is not None and day >= rules.discontinued and not balance
        if not adjusted and rules.on(day) is not None and not closed:
            _note(found, DISPLAY, "553.20(h)", 0,
                  f"the display was not adjusted on {day} (no less than once a day)")
        for hand in unadjusted:
            _note(found, DISPLAY, "553.20(h)", 0,
                  f"the award of hand {hand} was not followed by an adjustment of the display")
        for hand in sorted(set(owed) - paid):
            _note(found, AWARD, "553.20(g)", 0, f"hand {hand} was verified and not paid")
        for hand in (qualifying or {}).get(day, ()):
            if hand not in owed:
                _note(found, UNVERIFIED, "553.20(f)", 0,
                      f"hand {hand} is a Bad Beat under the posted rules and was not verified")
        variances = tuple(
            FundVariance(kind, section, sum(cents for cents, _ in parts),
                         tuple(detail for _, detail in parts))
            for kind, (section, parts) in sorted(found.items())
        )  # fmt: skip
        if day >= first:
            days.append(FundDay(day, opening, contributed, awarded, count, balance, displayed,
                                tuple(sorted(pending)), variances, transferred))  # fmt: skip
        day += datetime.timedelta(days=1)
    return days


_Found = dict[str, tuple[str, list[tuple[int, str]]]]


def _note(found: _Found, kind: str, section: str, cents: int, detail: str) -> None:
    found.setdefault(kind, (section, []))[1].append((abs(cents), f"§ {section}: {detail}"))


def _award_check(
    entry: FundEntry, fund_cents: int, seats: BeatSeats | None, rules: BadBeatRules | None
) -> tuple[str, str, int, str] | None:
    """The payment against the posted shares of the fund when the hand was verified;
    None when it pays them."""
    paid = sum(entry.shares.values())
    if seats is None or rules is None:
        return (AWARD, "553.20(b)(3)", paid, f"hand {entry.hand_id} was paid "
                f"{_dollars(paid)} and is no Bad Beat under the posted rules")  # fmt: skip
    award = rules.award(fund_cents=fund_cents, losing_seat=seats.losing_seat,
                        winning_seat=seats.winning_seat, table_seats=seats.table_seats)  # fmt: skip
    required = {seats.losing_seat: award.losing_hand_cents,
                seats.winning_seat: award.winning_hand_cents, **award.table_cents}  # fmt: skip
    required = {seat: cents for seat, cents in required.items() if cents}
    given = {seat: cents for seat, cents in entry.shares.items() if cents}
    if given == required:
        return None
    wrong = sum(abs(given.get(s, 0) - required.get(s, 0)) for s in set(given) | set(required))
    owed = ", ".join(f"seat {s} {_dollars(c)}" for s, c in sorted(required.items()))
    return (AWARD, "553.20(b)(3)", wrong, f"hand {entry.hand_id} was paid {_dollars(paid)}; "
            f"the posted shares of {_dollars(fund_cents)} are {owed}")  # fmt: skip
