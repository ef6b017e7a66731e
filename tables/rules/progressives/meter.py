"""A progressive meter as a state folded from its stream's events (``meter:<id>``).

A meter linked to several tables is one stream. Its events are facts: the
configuration (effective-dated, its history kept), the wagers the progressive
system accepted in a round, a winning hand, what the dealer paid, the reset,
the amount the controller displayed, and adjustments signed by two people.
Each applied event yields an *effect* (what it did to the meter, with what the
regulation requires beside what happened) for the projections to store.

Invariants, each refused with its section by :func:`verify`:

* the meter never decreases except by a payout of a share of it or a signed
  adjustment; a reset comes only after a payout of 100 % of the meter;
* each accepted progressive wager contributes the rate of progression of its
  base; fractions of a cent are carried, never lost (:func:`contribution_cents`);
* a winner is owed the meter "when it is the player's turn to be paid"
  (§ 555.13(f), § 587.12(e)(4), § 588.12(d)(3)): the book amount at the
  payment event, in the chapter's payment order (counterclockwise from the
  dealer's right: descending seat numbers);
* under § 555.13(f), several royal flushes at one table share the meter equally
  and are all paid when the first is paid; the odd cents go where the
  configuration's :class:`OddCents` says (the chapter is silent);
* a percentage of the meter is rounded by the configuration's named rounding
  policy; what rounding keeps stays on the meter.

The book follows what the regulation requires: a payment of the wrong amount is
recorded as paid and reported in its :class:`Payment` effect (``difference_cents``),
while the meter decreases by the amount owed. The controller's displayed amount
is compared with the book in each :class:`Reading`.

>>> import datetime
>>> from tables.rules.progressives.chapters import CARIBBEAN_STUD_555
>>> from tables.rules.progressives.events import (MeterConfigured, MeterContributed, MeterHit,
...     MeterPaid, OddCents, RateBase)
>>> day = datetime.date(2016, 8, 1)
>>> configured = MeterConfigured(meter_id="CSP-1", effective_from=day, chapter="555",
...     tables=("CSP-01", "CSP-02"), wager_amounts_cents=(100,), rate_numerator=70,
...     rate_denominator=100, rate_base=RateBase.AMOUNT_WAGERED, initial_cents=1_000_000,
...     reset_cents=1_000_000, schedule=CARIBBEAN_STUD_555.schedule,
...     share_rounding="round_down_to_cent", odd_cents=OddCents.FIRST_IN_PAYMENT_ORDER)
>>> folded = fold([configured,
...     MeterContributed(round_id="r1", table="CSP-01", gaming_day=day, wagers_cents=(100,) * 5),
...     MeterHit(round_id="r1", table="CSP-01", gaming_day=day, seat=4, hand="STRAIGHT_FLUSH",
...              wager_cents=100),
...     MeterPaid(round_id="r1", table="CSP-01", seat=4, amount_cents=100_035,
...               validated_by="floor-7")])
>>> folded.state.amount_cents, folded.effects[-1].required_cents
(900315, 100035)
"""

from __future__ import annotations

import datetime
import enum
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import NamedTuple

from tables.rules.engine import Refusal, RuleViolation
from tables.rules.money import ROUNDING_POLICIES, Cents, Fixed, MeterShare, rounding_policy
from tables.rules.progressives.chapters import (
    CHAPTERS,
    ChapterRules,
    LinePays,
    ScheduleLine,
    check_schedule,
)
from tables.rules.progressives.events import (
    MeterAdjusted,
    MeterConfigured,
    MeterContributed,
    MeterEvent,
    MeterHit,
    MeterPaid,
    MeterRead,
    MeterReset,
    OddCents,
    RateBase,
    ReadingOccasion,
)

__all__ = [
    "PaymentSource",
    "Configured",
    "Contribution",
    "HitRecorded",
    "Payment",
    "Reset",
    "Reading",
    "Adjustment",
    "Effect",
    "MeterState",
    "Step",
    "Folded",
    "Carry",
    "NO_CARRY",
    "contribution_cents",
    "split_equally",
    "verify",
    "can_apply",
    "apply",
    "fold",
]


class PaymentSource(enum.StrEnum):
    """Who funds a progressive payout: the meter (a share of it) or the house (a fixed amount)."""

    METER = "meter"
    HOUSE = "house"


# --- effects ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class Configured:
    """A configuration took effect (the first opens the meter at its initial amount)."""

    configuration: MeterConfigured
    opened: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class Contribution:
    """What a round's accepted wagers added to the meter and to the reserve."""

    round_id: str
    table: str
    gaming_day: datetime.date
    wagers: int
    meter_cents: Cents
    reserve_cents: Cents
    section: str | None


@dataclass(frozen=True, slots=True, kw_only=True)
class HitRecorded:
    """A winning progressive hand waits to be paid in turn."""

    round_id: str
    table: str
    seat: int
    line: ScheduleLine


@dataclass(frozen=True, slots=True, kw_only=True)
class Payment:
    """A progressive payout: what was owed at the player's turn beside what was paid."""

    round_id: str
    table: str
    seat: int
    hand: str
    source: PaymentSource
    meter_before_cents: Cents
    required_cents: Cents
    paid_cents: Cents
    #: How many royal flushes shared the meter (§ 555.13(f)); 1 when not shared.
    shared_among: int
    section: str
    validated_by: str

    @property
    def difference_cents(self) -> Cents:
        """Paid less owed: positive when the player was overpaid."""
        return self.paid_cents - self.required_cents


@dataclass(frozen=True, slots=True, kw_only=True)
class Reset:
    """The meter reset after a payout of all of it, and who funded the reset amount."""

    amount_cents: Cents
    from_reserve_cents: Cents
    seeded_by_house_cents: Cents
    #: Cents left on the meter by the payout (:attr:`OddCents.CARRIED_ON_METER`, rounding).
    carried_cents: Cents
    section: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Reading:
    """The controller's displayed amount beside the book amount at that moment."""

    table: str
    gaming_day: datetime.date
    occasion: ReadingOccasion
    book_cents: Cents
    displayed_cents: Cents

    @property
    def difference_cents(self) -> Cents:
        """Displayed less book."""
        return self.displayed_cents - self.book_cents


@dataclass(frozen=True, slots=True, kw_only=True)
class Adjustment:
    """A signed correction of the meter by two people."""

    amount_cents: Cents
    reason: str
    proposed_by: str
    confirmed_by: str


Effect = Configured | Contribution | HitRecorded | Payment | Reset | Reading | Adjustment
"""What one applied event did."""


# --- state -----------------------------------------------------------------------------


class Carry(NamedTuple):
    """Fractions of a cent contributed but not yet on the meter or the reserve.

    Kept exact as numerators over one ``denominator`` (integers, not
    :class:`~fractions.Fraction`: a contribution is the commonest event of all).
    """

    meter: int
    reserve: int
    denominator: int

    @property
    def meter_cents(self) -> Fraction:
        """The meter's carried fraction of a cent."""
        return Fraction(self.meter, self.denominator)


NO_CARRY = Carry(0, 0, 1)
"""Nothing carried (a new meter)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class _PendingHit:
    table: str
    round_id: str
    seat: int
    line: ScheduleLine
    wager_cents: Cents
    configuration: MeterConfigured


@dataclass(frozen=True, slots=True, kw_only=True)
class _Share:
    """A sharer of a whole meter still to be paid (§ 555.13(f))."""

    hit: _PendingHit
    required_cents: Cents
    meter_before_cents: Cents
    shared_among: int


@dataclass(frozen=True, slots=True, kw_only=True)
class MeterState:
    """A meter between events: its book amount, reserve, history and what is pending."""

    meter_id: str
    #: Every configuration, by ascending ``effective_from``.
    history: tuple[MeterConfigured, ...]
    amount_cents: Cents
    reserve_cents: Cents = 0
    carry: Carry = NO_CARRY
    pending: tuple[_PendingHit, ...] = ()
    #: ``(table, round_id, seat)`` of the last seat paid in a round with hits pending.
    paying: tuple[tuple[str, str, int], ...] = ()
    sharing: tuple[_Share, ...] = ()
    #: The reset amount due after a payout of the whole meter, until the reset.
    reset_due: tuple[Cents, str] | None = None
    last_contribution_day: datetime.date | None = None

    @property
    def rules(self) -> ChapterRules:
        """The chapter's progressive rules."""
        return CHAPTERS[self.history[0].chapter]

    def configuration_on(self, day: datetime.date) -> MeterConfigured | None:
        """The configuration in force on gaming day ``day``, if any."""
        found = None
        for configuration in self.history:
            if configuration.effective_from <= day:
                found = configuration
        return found


@dataclass(frozen=True, slots=True)
class Step:
    """The state after one event and the event's effect."""

    state: MeterState
    effect: Effect


@dataclass(frozen=True, slots=True)
class Folded:
    """A whole stream folded: the final state and each event's effect, in order."""

    state: MeterState
    effects: tuple[Effect, ...]


# --- arithmetic ------------------------------------------------------------------------


def contribution_cents(
    configuration: MeterConfigured, wagers_cents: Sequence[Cents], carry: Carry = NO_CARRY
) -> tuple[Cents, Cents, Carry]:
    """Cents added to the meter and the reserve, and the fractions of a cent carried.

    Whole cents only reach the meter; what is left is carried to the next
    contribution, so the total on the meter is the floor of the exact total
    whatever the batches (no cent is made or lost by rounding).

    >>> import datetime
    >>> terms = dict(meter_id="m", effective_from=datetime.date(2016, 1, 1), chapter="587",
    ...     tables=("R",), wager_amounts_cents=(100, 500), rate_numerator=43,
    ...     rate_denominator=300, rate_base=RateBase.AMOUNT_WAGERED, initial_cents=100_000,
    ...     reset_cents=100_000, share_rounding="round_down_to_cent",
    ...     schedule=(ScheduleLine(hand="X", label="X", pays=Fixed(1)),))
    >>> meter, reserve, carry = contribution_cents(MeterConfigured(**terms), [100])
    >>> meter, reserve, carry.meter_cents  # 14 1/3 cents
    (14, 0, Fraction(1, 3))
    >>> contribution_cents(MeterConfigured(**terms), [100, 100], carry)[:2]
    (29, 0)
    """
    if configuration.rate_base is RateBase.AMOUNT_WAGERED:
        base = sum(wagers_cents)
    else:
        base = configuration.rate_base_cents * len(wagers_cents)
    reserve_denominator = configuration.reserve_denominator
    reserve_numerator = configuration.reserve_numerator
    # Exact cents are numerators over ``unit``; the carry may be over another
    # configuration's unit, so both go over their least common multiple.
    unit = configuration.rate_denominator * reserve_denominator
    to_meter = configuration.rate_numerator * (reserve_denominator - reserve_numerator) * base
    to_reserve = configuration.rate_numerator * reserve_numerator * base
    denominator = carry.denominator
    if denominator == unit:
        to_meter += carry.meter
        to_reserve += carry.reserve
    else:
        common = math.lcm(denominator, unit)
        to_meter = to_meter * (common // unit) + carry.meter * (common // denominator)
        to_reserve = to_reserve * (common // unit) + carry.reserve * (common // denominator)
        denominator = common
    meter_cents, meter_rest = divmod(to_meter, denominator)
    reserve_cents, reserve_rest = divmod(to_reserve, denominator)
    return meter_cents, reserve_cents, Carry(meter_rest, reserve_rest, denominator)


def split_equally(amount_cents: Cents, sharers: int, odd_cents: OddCents) -> tuple[Cents, ...]:
    """Equal shares of ``amount_cents``, in payment order (§ 555.13(f)).

    >>> split_equally(1_000_001, 3, OddCents.FIRST_IN_PAYMENT_ORDER)
    (333334, 333334, 333333)
    >>> split_equally(1_000_001, 3, OddCents.CARRIED_ON_METER)
    (333333, 333333, 333333)
    """
    share, remainder = divmod(amount_cents, sharers)
    if odd_cents is OddCents.CARRIED_ON_METER:
        return (share,) * sharers
    return tuple(share + (1 if index < remainder else 0) for index in range(sharers))


def _owed(pays: LinePays, meter_cents: Cents, wager_cents: Cents, rounding: str) -> Cents:
    if isinstance(pays, MeterShare):
        if pays.share == 1:
            return meter_cents
        return rounding_policy(rounding)(meter_cents * pays.share)
    if isinstance(pays, Fixed):
        return pays.cents
    return pays.on(wager_cents)


# --- transitions -----------------------------------------------------------------------


def _configure(state: MeterState | None, event: MeterConfigured) -> Step | Refusal:
    rules = CHAPTERS.get(event.chapter)
    if rules is None:
        return Refusal(event.TYPE, f"Chapter {event.chapter} defines no progressive", "chapter")
    if state is not None:
        first = state.history[0]
        last = state.history[-1]
        if event.meter_id != state.meter_id or event.chapter != first.chapter:
            return Refusal(event.TYPE, "a meter keeps its id and its game", "chapter")
        if event.initial_cents != first.initial_cents:
            return Refusal(
                event.TYPE,
                "the initial amount is fixed by the first configuration",
                "initial_cents",
            )
        if event.effective_from <= last.effective_from or (
            state.last_contribution_day is not None
            and event.effective_from <= state.last_contribution_day
        ):
            return Refusal(
                event.TYPE,
                "a configuration takes effect after the last one and "
                "after every contribution it would otherwise change",
                "effective_from",
            )
    refusal = _check_terms(rules, event)
    if refusal is not None:
        return refusal
    if state is None:
        opened = MeterState(
            meter_id=event.meter_id, history=(event,), amount_cents=event.initial_cents
        )
        return Step(opened, Configured(configuration=event, opened=True))
    return Step(
        replace(state, history=(*state.history, event)),
        Configured(configuration=event, opened=False),
    )


def _check_terms(rules: ChapterRules, event: MeterConfigured) -> Refusal | None:
    if rules.minimum_rate is not None and event.rate < rules.minimum_rate:
        return Refusal(
            str(rules.rate_section),
            f"the rate of progression must be at least "
            f"{rules.minimum_rate * 100}%, got {event.rate * 100}%",
            "rate_numerator",
        )
    if event.rate > 1 or event.reserve_share >= 1:
        return Refusal(event.TYPE, "a rate above 100 % or a reserve of all of it", "rate_numerator")
    if event.rate_base is RateBase.PER_WAGER and event.rate_base_cents <= 0:
        return Refusal(event.TYPE, "a rate per wager needs its base", "rate_base_cents")
    for name in ("initial_cents", "reset_cents"):
        if getattr(event, name) < rules.minimum_reset_cents:
            return Refusal(
                rules.reset_section,
                f"the initial and reset amount must be at least "
                f"{rules.minimum_reset_cents // 100} dollars",
                name,
            )
    if rules.wager_amounts_cents is not None and not set(event.wager_amounts_cents) <= set(
        rules.wager_amounts_cents
    ):
        return Refusal(
            rules.wager_section,
            f"the chapter fixes the progressive wager at {rules.wager_amounts_cents} cents",
            "wager_amounts_cents",
        )
    for line in event.schedule:
        if isinstance(line.pays, MeterShare) and not 0 < line.pays.share <= 1:
            return Refusal(
                event.TYPE, f"{line.label} pays {line.pays}: more than the meter holds", "schedule"
            )
    refusal = check_schedule(rules, event.schedule)
    if refusal is not None:
        return refusal
    if event.share_rounding not in ROUNDING_POLICIES:
        return Refusal(
            event.TYPE, f"unknown rounding policy {event.share_rounding!r}", "share_rounding"
        )
    if rules.shared_whole_meter_section is not None and event.odd_cents is None:
        return Refusal(
            rules.shared_whole_meter_section,
            "royal flushes share the meter equally; the configuration must say where odd cents go",
            "odd_cents",
        )
    return None


def _in_force(
    state: MeterState, table: str, day: datetime.date, type_name: str
) -> MeterConfigured | Refusal:
    configuration = state.configuration_on(day)
    if configuration is None:
        return Refusal(type_name, f"no configuration in force on {day}", "gaming_day")
    if table not in configuration.tables:
        return Refusal(type_name, f"table {table} is not linked to meter {state.meter_id}", "table")
    return configuration


def _blocked(state: MeterState, event: MeterEvent) -> Refusal | None:
    """Refuse what may not come between a whole-meter payout and the reset."""
    rules = state.rules
    if state.sharing and not isinstance(event, MeterPaid | MeterRead):
        return Refusal(
            str(rules.shared_whole_meter_section),
            "the royal flushes sharing the meter are paid when the first is paid",
            None,
        )
    if state.reset_due is not None and not isinstance(event, MeterReset | MeterRead):
        return Refusal(
            rules.reset_section,
            "after a payout of 100 % of the meter it is reset "
            "to its reset amount before anything else",
            None,
        )
    return None


def _contribute(state: MeterState, event: MeterContributed) -> Step | Refusal:
    configuration = _in_force(state, event.table, event.gaming_day, event.TYPE)
    if isinstance(configuration, Refusal):
        return configuration
    rules = state.rules
    for amount in event.wagers_cents:
        if amount not in configuration.wager_amounts_cents:
            section = rules.wager_section if rules.wager_amounts_cents else event.TYPE
            return Refusal(
                section, f"a progressive wager of {amount} cents is not offered", "wagers_cents"
            )
    meter, reserve, carry = contribution_cents(configuration, event.wagers_cents, state.carry)
    last = state.last_contribution_day
    after = replace(
        state,
        amount_cents=state.amount_cents + meter,
        reserve_cents=state.reserve_cents + reserve,
        carry=carry,
        last_contribution_day=event.gaming_day if last is None else max(last, event.gaming_day),
    )
    return Step(
        after,
        Contribution(
            round_id=event.round_id,
            table=event.table,
            gaming_day=event.gaming_day,
            wagers=len(event.wagers_cents),
            meter_cents=meter,
            reserve_cents=reserve,
            section=rules.rate_section,
        ),
    )


def _last_paid(state: MeterState, table: str, round_id: str) -> int | None:
    for paid_table, paid_round, seat in state.paying:
        if (paid_table, paid_round) == (table, round_id):
            return seat
    return None


def _hit(state: MeterState, event: MeterHit) -> Step | Refusal:
    configuration = _in_force(state, event.table, event.gaming_day, event.TYPE)
    if isinstance(configuration, Refusal):
        return configuration
    rules = state.rules
    line = configuration.line(event.hand)
    if line is None:
        return Refusal(rules.schedule_section, f"{event.hand} is not on the schedule", "hand")
    if event.wager_cents not in configuration.wager_amounts_cents:
        return Refusal(rules.wager_section, "no such progressive wager is offered", "wager_cents")
    for hit in state.pending:
        if (hit.table, hit.round_id, hit.seat) == (event.table, event.round_id, event.seat):
            return Refusal(rules.schedule_section, "one progressive payout per hand", "seat")
    last_paid = _last_paid(state, event.table, event.round_id)
    if last_paid is not None and event.seat >= last_paid:
        return Refusal(
            rules.payment_order_section,
            f"seat {event.seat} comes before seat {last_paid}, already paid",
            "seat",
        )
    hit = _PendingHit(
        table=event.table,
        round_id=event.round_id,
        seat=event.seat,
        line=line,
        wager_cents=event.wager_cents,
        configuration=configuration,
    )
    return Step(
        replace(state, pending=(*state.pending, hit)),
        HitRecorded(round_id=event.round_id, table=event.table, seat=event.seat, line=line),
    )


def _pay(state: MeterState, event: MeterPaid) -> Step | Refusal:
    rules = state.rules
    if not event.validated_by.strip():
        return Refusal(
            rules.validation_section,
            "a floorperson or above validates the progressive payout",
            "validated_by",
        )
    key = (event.table, event.round_id)
    if state.sharing:
        share = state.sharing[0]
        if (share.hit.table, share.hit.round_id, share.hit.seat) != (*key, event.seat):
            return Refusal(
                str(rules.shared_whole_meter_section),
                f"seat {share.hit.seat} shares the meter and is paid now",
                "seat",
            )
        return _settle(
            state,
            event,
            share.hit,
            share.meter_before_cents,
            share.required_cents,
            share.shared_among,
            sharing=state.sharing[1:],
        )
    round_hits = [hit for hit in state.pending if (hit.table, hit.round_id) == key]
    hit = next((hit for hit in round_hits if hit.seat == event.seat), None)
    if hit is None:
        return Refusal(
            rules.winning_hand_section,
            f"seat {event.seat} has no winning progressive hand recorded",
            "seat",
        )
    if any(other.seat > hit.seat for other in round_hits):
        return Refusal(
            rules.payment_order_section,
            "players are paid counterclockwise from the dealer's right",
            "seat",
        )
    configuration = hit.configuration
    if hit.line.is_whole_meter and rules.shared_whole_meter_section is not None:
        sharers = sorted(
            (other for other in round_hits if other.line.is_whole_meter),
            key=lambda other: -other.seat,
        )
        if len(sharers) > 1:
            assert configuration.odd_cents is not None  # refused at configuration otherwise
            shares = split_equally(state.amount_cents, len(sharers), configuration.odd_cents)
            queue = tuple(
                _Share(
                    hit=sharer,
                    required_cents=amount,
                    meter_before_cents=state.amount_cents,
                    shared_among=len(sharers),
                )
                for sharer, amount in zip(sharers, shares, strict=True)
            )
            return _settle(
                state, event, hit, state.amount_cents, shares[0], len(sharers), sharing=queue[1:]
            )
    required = _owed(
        hit.line.pays, state.amount_cents, hit.wager_cents, configuration.share_rounding
    )
    return _settle(state, event, hit, state.amount_cents, required, 1, sharing=())


def _settle(
    state: MeterState,
    event: MeterPaid,
    hit: _PendingHit,
    meter_before: Cents,
    required: Cents,
    shared_among: int,
    *,
    sharing: tuple[_Share, ...],
) -> Step:
    rules = state.rules
    from_meter = hit.line.from_meter
    pending = tuple(other for other in state.pending if other is not hit)
    round_open = any(
        (other.table, other.round_id) == (hit.table, hit.round_id) for other in pending
    )
    paying = tuple(entry for entry in state.paying if entry[:2] != (hit.table, hit.round_id))
    if round_open:
        paying = (*paying, (hit.table, hit.round_id, hit.seat))
    reset_due = state.reset_due
    if hit.line.is_whole_meter and not sharing:
        reset_due = (hit.configuration.reset_cents, rules.reset_section)
    after = replace(
        state,
        amount_cents=state.amount_cents - required if from_meter else state.amount_cents,
        pending=pending,
        paying=paying,
        sharing=sharing,
        reset_due=reset_due,
    )
    section = rules.turn_section if shared_among == 1 else str(rules.shared_whole_meter_section)
    return Step(
        after,
        Payment(
            round_id=hit.round_id,
            table=hit.table,
            seat=hit.seat,
            hand=hit.line.hand,
            source=PaymentSource.METER if from_meter else PaymentSource.HOUSE,
            meter_before_cents=meter_before,
            required_cents=required,
            paid_cents=event.amount_cents,
            shared_among=shared_among,
            section=section if from_meter else rules.schedule_section,
            validated_by=event.validated_by,
        ),
    )


def _reset(state: MeterState, event: MeterReset) -> Step | Refusal:
    rules = state.rules
    if state.reset_due is None:
        return Refusal(
            rules.reset_section,
            "a meter is reset only after a payout of 100 % of "
            "it; otherwise a reset would change it by other than a contribution, a "
            "payout or a signed adjustment",
            "amount_cents",
        )
    due, section = state.reset_due
    if event.amount_cents != due:
        return Refusal(section, f"the reset amount is {due} cents", "amount_cents")
    from_reserve = min(state.reserve_cents, due)
    after = replace(
        state,
        amount_cents=state.amount_cents + due,
        reserve_cents=state.reserve_cents - from_reserve,
        reset_due=None,
    )
    return Step(
        after,
        Reset(
            amount_cents=due,
            from_reserve_cents=from_reserve,
            seeded_by_house_cents=due - from_reserve,
            carried_cents=state.amount_cents,
            section=section,
        ),
    )


def _read(state: MeterState, event: MeterRead) -> Step | Refusal:
    configuration = _in_force(state, event.table, event.gaming_day, event.TYPE)
    if isinstance(configuration, Refusal):
        return configuration
    return Step(
        state,
        Reading(
            table=event.table,
            gaming_day=event.gaming_day,
            occasion=event.occasion,
            book_cents=state.amount_cents,
            displayed_cents=event.displayed_cents,
        ),
    )


def _adjust(state: MeterState, event: MeterAdjusted) -> Step | Refusal:
    people = (event.proposed_by.strip(), event.confirmed_by.strip())
    if not all(people) or people[0] == people[1]:
        return Refusal(
            event.TYPE, "an adjustment is signed by two different people", "confirmed_by"
        )
    if state.amount_cents + event.amount_cents < 0:
        return Refusal(
            event.TYPE, "an adjustment may not take the meter below zero", "amount_cents"
        )
    return Step(
        replace(state, amount_cents=state.amount_cents + event.amount_cents),
        Adjustment(
            amount_cents=event.amount_cents,
            reason=event.reason,
            proposed_by=event.proposed_by,
            confirmed_by=event.confirmed_by,
        ),
    )


def _transition(state: MeterState | None, event: MeterEvent) -> Step | Refusal:
    if isinstance(event, MeterConfigured):
        blocked = None if state is None else _blocked(state, event)
        return blocked or _configure(state, event)
    if state is None:
        return Refusal(event.TYPE, "the meter has not been configured", None)
    blocked = _blocked(state, event)
    if blocked is not None:
        return blocked
    if isinstance(event, MeterContributed):
        return _contribute(state, event)
    if isinstance(event, MeterHit):
        return _hit(state, event)
    if isinstance(event, MeterPaid):
        return _pay(state, event)
    if isinstance(event, MeterReset):
        return _reset(state, event)
    if isinstance(event, MeterRead):
        return _read(state, event)
    return _adjust(state, event)


def verify(state: MeterState | None, event: MeterEvent) -> Refusal | None:
    """Why ``event`` may not be applied to ``state``, or ``None`` if it may."""
    result = _transition(state, event)
    return result if isinstance(result, Refusal) else None


def can_apply(state: MeterState | None, event: MeterEvent) -> bool:
    """Whether ``event`` may be applied to ``state``."""
    return verify(state, event) is None


def apply(state: MeterState | None, event: MeterEvent) -> Step:
    """Apply ``event`` to ``state`` (``None`` before the first configuration).

    :raises RuleViolation: naming the section the event breaks.
    """
    result = _transition(state, event)
    if isinstance(result, Refusal):
        raise RuleViolation.from_refusal(result)
    return result


def fold(events: Iterable[MeterEvent]) -> Folded:
    """Fold a meter stream from its first event.

    :raises RuleViolation: at the first event the regulation (or the stream) refuses.
    :raises ValueError: for an empty stream.
    """
    state: MeterState | None = None
    effects: list[Effect] = []
    for event in events:
        step = apply(state, event)
        state = step.state
        effects.append(step.effect)
    if state is None:
        raise ValueError("a meter stream starts with its configuration")
    return Folded(state, tuple(effects))
