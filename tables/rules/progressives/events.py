"""The events of a meter stream (``meter:<id>``): one explicit frozen class per fact.

Each has a stable ``TYPE`` (``meter.configured`` …) and round-trips through a
JSON payload like the round events (:class:`tables.rules.events.Event`); the
configuration's pay schedule is written out line by line.

>>> import datetime
>>> event = MeterRead(table="CSP-01", gaming_day=datetime.date(2016, 8, 1),
...     occasion=ReadingOccasion.OPENING, displayed_cents=1_000_350)
>>> event.to_payload()
{'table': 'CSP-01', 'gaming_day': '2016-08-01', 'occasion': 'opening', 'displayed_cents': 1000350}
>>> MeterRead.from_payload(event.to_payload()) == event
True
"""

from __future__ import annotations

import dataclasses
import datetime
import enum
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, ClassVar

from tables.rules.events import Event
from tables.rules.money import Fixed, MeterShare
from tables.rules.progressives.chapters import ForOne, LinePays, ScheduleLine

__all__ = [
    "RateBase",
    "OddCents",
    "ReadingOccasion",
    "MeterConfigured",
    "MeterContributed",
    "MeterHit",
    "MeterPaid",
    "MeterReset",
    "MeterRead",
    "MeterAdjusted",
    "MeterEvent",
    "METER_EVENT_TYPES",
]


class RateBase(enum.StrEnum):
    """What the rate of progression is a percentage of.

    The chapters state a percentage without its base (§ 555.13(e) "no less
    than 70%", § 587.12(e)(3) "at least 14%"); the configuration says which.
    """

    AMOUNT_WAGERED = "amount_wagered"
    """Of the amount of each accepted progressive wager."""
    PER_WAGER = "per_wager"
    """Of a fixed base (``rate_base_cents``) for each accepted wager, whatever its amount."""


class OddCents(enum.StrEnum):
    """Where the cents go that do not divide equally among royal flushes sharing a meter.

    § 555.13(f) says each player "shall share equally in the amount on the
    progressive meter" and is silent on a remainder, so the configuration chooses.
    """

    FIRST_IN_PAYMENT_ORDER = "first_in_payment_order"
    """One more cent to each of the first sharers paid (§ 555.11(e)(3) order): all is paid."""
    CARRIED_ON_METER = "carried_on_meter"
    """Each is paid the equal share; the remainder stays on the meter, above the reset."""


class ReadingOccasion(enum.StrEnum):
    """When the amount displayed by the table's controller was read."""

    OPENING = "opening"
    CLOSING = "closing"
    HIT = "hit"


def _require(condition: bool, message: str) -> None:
    if not condition:
        raise ValueError(message)


def _check_name(name: str, value: str) -> None:
    _require(bool(value.strip()), f"field {name!r} must not be blank")


def _check_not_negative(name: str, value: int) -> None:
    _require(value >= 0, f"field {name!r} must not be negative, got {value}")


@dataclass(frozen=True, slots=True, kw_only=True)
class _MeterTerms(Event):
    """Every term of a configuration except its pay schedule (read by the base decoder)."""

    TYPE: ClassVar[str] = "meter.configured"
    meter_id: str
    effective_from: datetime.date
    chapter: str
    tables: tuple[str, ...]
    wager_amounts_cents: tuple[int, ...]
    rate_numerator: int
    rate_denominator: int
    rate_base: RateBase
    initial_cents: int
    reset_cents: int
    share_rounding: str
    rate_base_cents: int = 0
    reserve_numerator: int = 0
    reserve_denominator: int = 1
    odd_cents: OddCents | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class MeterConfigured(_MeterTerms):
    """The meter's configuration from ``effective_from`` (the first one opens the meter).

    The rate of progression is ``rate_numerator / rate_denominator`` of its
    base (:class:`RateBase`); ``reserve_numerator / reserve_denominator`` of
    each contribution goes to the reserve that funds the next reset rather than
    to the displayed meter. ``share_rounding`` names the
    :class:`~tables.rules.money.RoundingPolicy` of a percentage of the meter.
    """

    schedule: tuple[ScheduleLine, ...]

    def __post_init__(self) -> None:
        _check_name("meter_id", self.meter_id)
        _require(bool(self.tables), "field 'tables' must name at least one table")
        for table in self.tables:
            _check_name("tables", table)
        _require(bool(self.wager_amounts_cents), "field 'wager_amounts_cents' must not be empty")
        for amount in self.wager_amounts_cents:
            _require(amount > 0, f"field 'wager_amounts_cents' must be positive, got {amount}")
        _require(self.rate_denominator > 0, "field 'rate_denominator' must be positive")
        _require(self.reserve_denominator > 0, "field 'reserve_denominator' must be positive")
        for name in (
            "rate_numerator",
            "reserve_numerator",
            "initial_cents",
            "reset_cents",
            "rate_base_cents",
        ):
            _check_not_negative(name, getattr(self, name))
        _require(bool(self.schedule), "field 'schedule' must not be empty")

    @property
    def rate(self) -> Fraction:
        """The rate of progression, exact."""
        return Fraction(self.rate_numerator, self.rate_denominator)

    @property
    def reserve_share(self) -> Fraction:
        """The share of each contribution that goes to the reserve."""
        return Fraction(self.reserve_numerator, self.reserve_denominator)

    def line(self, hand: str) -> ScheduleLine | None:
        """The schedule line paying ``hand``, if any."""
        for line in self.schedule:
            if line.hand == hand:
                return line
        return None

    def to_payload(self) -> dict[str, Any]:
        payload = Event.to_payload(self)
        payload["schedule"] = [_encode_line(line) for line in self.schedule]
        return payload

    @classmethod
    def from_payload(cls, payload: Mapping[str, Any]) -> MeterConfigured:
        if not isinstance(payload, Mapping):
            raise ValueError(f"{cls.TYPE}: payload must be a mapping")
        terms = dict(payload)
        raw = terms.pop("schedule", None)
        if not isinstance(raw, list):
            raise ValueError(f"{cls.TYPE}: field 'schedule' must be a list")
        try:
            schedule = tuple(_decode_line(item) for item in raw)
        except (KeyError, TypeError, ValueError) as error:
            raise ValueError(f"{cls.TYPE}: field 'schedule' is malformed ({error})") from None
        base = _MeterTerms.from_payload(terms)
        values = {term.name: getattr(base, term.name) for term in dataclasses.fields(_MeterTerms)}
        try:
            return cls(**values, schedule=schedule)
        except ValueError as error:
            raise ValueError(f"{cls.TYPE}: {error}") from None


def _encode_line(line: ScheduleLine) -> dict[str, Any]:
    pays = line.pays
    terms: dict[str, Any]
    if isinstance(pays, MeterShare):
        terms = {
            "kind": "meter_share",
            "numerator": pays.share.numerator,
            "denominator": pays.share.denominator,
        }
    elif isinstance(pays, Fixed):
        terms = {"kind": "fixed", "cents": pays.cents}
    else:
        terms = {"kind": "for_one", "numerator": pays.numerator, "denominator": pays.denominator}
    return {"hand": line.hand, "label": line.label, **terms}


def _decode_line(item: Mapping[str, Any]) -> ScheduleLine:
    def integer(name: str) -> int:
        value = item[name]
        if type(value) is not int:
            raise ValueError(f"{name} must be an int, got {value!r}")
        return value

    kind = item["kind"]
    pays: LinePays
    if kind == "meter_share":
        pays = MeterShare(Fraction(integer("numerator"), integer("denominator")))
    elif kind == "fixed":
        pays = Fixed(integer("cents"))
    elif kind == "for_one":
        pays = ForOne(integer("numerator"), integer("denominator"))
    else:
        raise ValueError(f"unknown kind {kind!r}")
    hand, label = item["hand"], item["label"]
    if type(hand) is not str or type(label) is not str:
        raise ValueError("hand and label must be strings")
    return ScheduleLine(hand=hand, label=label, pays=pays)


@dataclass(frozen=True, slots=True, kw_only=True)
class MeterContributed(Event):
    """The progressive wagers the system accepted in one round at one table, each amount."""

    TYPE: ClassVar[str] = "meter.contributed"
    round_id: str
    table: str
    gaming_day: datetime.date
    wagers_cents: tuple[int, ...]

    def __post_init__(self) -> None:
        _check_name("round_id", self.round_id)
        _require(bool(self.wagers_cents), "field 'wagers_cents' must not be empty")
        for amount in self.wagers_cents:
            _require(amount > 0, f"field 'wagers_cents' must be positive, got {amount}")


@dataclass(frozen=True, slots=True, kw_only=True)
class MeterHit(Event):
    """A seat holds a hand on the progressive schedule (its wager was accepted)."""

    TYPE: ClassVar[str] = "meter.hit"
    round_id: str
    table: str
    gaming_day: datetime.date
    seat: int
    hand: str
    wager_cents: int

    def __post_init__(self) -> None:
        _check_name("round_id", self.round_id)
        _require(self.seat >= 1, f"field 'seat' must be at least 1, got {self.seat}")
        _require(self.wager_cents > 0, "field 'wager_cents' must be positive")


@dataclass(frozen=True, slots=True, kw_only=True)
class MeterPaid(Event):
    """The dealer paid a seat's progressive payout, validated by a floorperson or above."""

    TYPE: ClassVar[str] = "meter.paid"
    round_id: str
    table: str
    seat: int
    amount_cents: int
    validated_by: str

    def __post_init__(self) -> None:
        _check_not_negative("amount_cents", self.amount_cents)


@dataclass(frozen=True, slots=True, kw_only=True)
class MeterReset(Event):
    """The controller set the meter to its reset amount after a payout of all of it."""

    TYPE: ClassVar[str] = "meter.reset"
    amount_cents: int

    def __post_init__(self) -> None:
        _check_not_negative("amount_cents", self.amount_cents)


@dataclass(frozen=True, slots=True, kw_only=True)
class MeterRead(Event):
    """The amount the table's controller displayed (at opening, closing or a hit)."""

    TYPE: ClassVar[str] = "meter.read"
    table: str
    gaming_day: datetime.date
    occasion: ReadingOccasion
    displayed_cents: int

    def __post_init__(self) -> None:
        _check_not_negative("displayed_cents", self.displayed_cents)


@dataclass(frozen=True, slots=True, kw_only=True)
class MeterAdjusted(Event):
    """A correction of the meter, proposed by one person and confirmed by another."""

    TYPE: ClassVar[str] = "meter.adjusted"
    amount_cents: int
    reason: str
    proposed_by: str
    confirmed_by: str

    def __post_init__(self) -> None:
        _require(self.amount_cents != 0, "field 'amount_cents' must not be zero")
        _check_name("reason", self.reason)


MeterEvent = (
    MeterConfigured
    | MeterContributed
    | MeterHit
    | MeterPaid
    | MeterReset
    | MeterRead
    | MeterAdjusted
)
"""Every event of a meter stream."""

METER_EVENT_TYPES: Mapping[str, type[Event]] = {
    cls.TYPE: cls
    for cls in (
        MeterConfigured,
        MeterContributed,
        MeterHit,
        MeterPaid,
        MeterReset,
        MeterRead,
        MeterAdjusted,
    )
}
"""Meter event classes by their stored type name."""
