"""Round events: one explicit frozen class per fact recorded at a table.

Events are facts, never conclusions: "card Ah dealt to seat 3 hole 1", "seat 3
placed ACROSS_BET 2500", "dealer paid seat 3 ANTE_ACROSS 2500". What the
regulation requires is computed by replaying them (:mod:`tables.rules.replay`).

Each class has a stable ``TYPE`` (the name stored in the ledger; no Python
import path is ever stored) and ``SCHEMA_VERSION``. ``to_payload()`` gives a
JSON-compatible ``dict`` (str/int/bool/list/None only) and ``from_payload()``
validates and rebuilds the event, raising ``ValueError`` that names the field.

Conventions:

* Seats are numbered clockwise starting from the player farthest to the
  dealer's left (seat 1 is "first base"), so "clockwise from the dealer's left"
  is ascending seat order and "counterclockwise from the dealer's right" is
  descending seat order.
* Wagers, card spots, decision choices and irregularity kinds are names the
  game's declaration gives meaning to (:mod:`tables.rules.declaration`); the
  events only check their shape, and the engine checks them against the game.
  The cross's community boxes are :class:`Position` names (TOP is the box
  furthest from the dealer, ROW_1 the left box of the middle row as the dealer
  sees it, ROW_3 the right one, BOTTOM the box closest to the dealer), never
  the order they were dealt in.

>>> event = WagerPlaced(seat=3, wager=Wager.ACROSS_BET, amount_cents=2500)
>>> event.TYPE
'round.wager_placed'
>>> event.to_payload()
{'seat': 3, 'wager': 'ACROSS_BET', 'amount_cents': 2500, 'hand': 1}
>>> WagerPlaced.from_payload(event.to_payload()) == event
True
>>> WagerPlaced.from_payload({'seat': 3, 'wager': 'ACROSS_BET', 'amount_cents': 2.5})
Traceback (most recent call last):
...
ValueError: round.wager_placed: field 'amount_cents' must be an int, got 2.5
"""

from __future__ import annotations

import dataclasses
import datetime
import enum
import re
import types
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from tables.rules.cards import Card

__all__ = [
    "SCHEMA_VERSION",
    "Wager",
    "Position",
    "Recipient",
    "Alignment",
    "DealingMethod",
    "IrregularityKind",
    "Event",
    "RoundOpened",
    "WagerPlaced",
    "NoMoreBets",
    "CardDealt",
    "CardExposed",
    "StubCounted",
    "ProgressiveCounted",
    "Decision",
    "Options",
    "PlayerFolded",
    "ThreeCardElection",
    "PlayDeclared",
    "IrregularityReported",
    "RoundVoided",
    "DiceThrown",
    "DealerPaid",
    "DealerCollected",
    "WagerReturned",
    "RoundClosed",
    "ROUND_EVENT_TYPES",
    "event_from_record",
    "event_to_record",
]

SCHEMA_VERSION = 1
"""Schema version of an event type that has not changed shape since it was introduced.

The types whose payload the open vocabulary reshaped (wagers and dealer actions
on a named wager of a seat's hand, cards on a named spot, opening options,
irregularities of a declared kind, stub counts of any deck) are at version 2;
:mod:`tables.rules.events_v1` reads every version-1 record stored before.
"""


class Wager(enum.StrEnum):
    """Every betting area of the Criss-Cross family, by its stored name."""

    ANTE_ACROSS = "ANTE_ACROSS"
    ANTE_DOWN = "ANTE_DOWN"
    FIVE_CARD_BONUS = "FIVE_CARD_BONUS"
    ACROSS_BET = "ACROSS_BET"
    DOWN_BET = "DOWN_BET"
    MIDDLE_BET = "MIDDLE_BET"
    ANTE = "ANTE"
    THREE_CARD = "THREE_CARD"
    RAISE_1 = "RAISE_1"
    RAISE_2 = "RAISE_2"


class Position(enum.StrEnum):
    """A community-card box of the cross (labels from the game digests)."""

    TOP = "TOP"
    ROW_1 = "ROW_1"
    CENTER = "CENTER"
    ROW_3 = "ROW_3"
    BOTTOM = "BOTTOM"


class Recipient(enum.StrEnum):
    """Who a card is dealt to."""

    PLAYER = "PLAYER"
    COMMUNITY = "COMMUNITY"
    DEALER = "DEALER"


class Alignment(enum.StrEnum):
    """A line of the cross: VERTICAL (TOP, CENTER, BOTTOM) or HORIZONTAL."""

    VERTICAL = "VERTICAL"
    HORIZONTAL = "HORIZONTAL"


class DealingMethod(enum.StrEnum):
    """How the cards are dealt; the section numbers of several rules depend on it."""

    MANUAL_SHOE = "MANUAL_SHOE"
    HAND = "HAND"
    AUTOMATED_SHOE = "AUTOMATED_SHOE"


class IrregularityKind(enum.StrEnum):
    """Irregularities a dealer or floorperson reports (the fact, not the remedy)."""

    CARD_FACE_UP_IN_DECK = "CARD_FACE_UP_IN_DECK"
    CARD_DRAWN_IN_ERROR = "CARD_DRAWN_IN_ERROR"
    INCORRECT_CARD_COUNT = "INCORRECT_CARD_COUNT"
    COMMUNITY_CARD_EXPOSED_EARLY = "COMMUNITY_CARD_EXPOSED_EARLY"
    DEALER_CARD_EXPOSED_EARLY = "DEALER_CARD_EXPOSED_EARLY"
    SHUFFLER_MALFUNCTION = "SHUFFLER_MALFUNCTION"
    SHOE_MALFUNCTION = "SHOE_MALFUNCTION"
    DEVICE_OUT_OF_ORDER = "DEVICE_OUT_OF_ORDER"
    PLAYER_LEFT_TABLE = "PLAYER_LEFT_TABLE"


class Options(tuple[tuple[str, Any], ...]):
    """Named opening options, stored as a JSON object of scalars, held sorted.

    A tuple of ``(name, value)`` pairs so that events stay hashable values.

    >>> Options({"b": 1, "a": True}).get("a"), Options().get("x", 3)
    (True, 3)
    """

    __slots__ = ()

    def __new__(cls, items: Mapping[str, Any] | None = None) -> Options:
        return super().__new__(cls, sorted((items or {}).items()))

    def get(self, name: str, default: Any = None) -> Any:
        for key, value in self:
            if key == name:
                return value
        return default

    def as_dict(self) -> dict[str, Any]:
        return dict(self)


class Event:
    """Base of every round event: a stable ``TYPE`` and payload round-trip."""

    __slots__ = ()
    TYPE: ClassVar[str] = ""
    SCHEMA_VERSION: ClassVar[int] = SCHEMA_VERSION

    def to_payload(self) -> dict[str, Any]:
        """Return the JSON-compatible payload (no type, no schema version)."""
        return {name: _encode(getattr(self, name)) for name in _field_names(type(self))}

    @classmethod
    def from_payload(cls, payload: Mapping[str, Any]) -> Event:
        """Validate ``payload`` and build the event.

        :raises ValueError: naming the first missing, unknown or malformed field.
        """
        if type(payload) is not dict and not isinstance(payload, Mapping):
            raise ValueError(f"{cls.TYPE}: payload must be a mapping")
        spec = _SPEC_CACHE.get(cls) or _spec(cls)
        if not payload.keys() <= spec.names:
            unknown = set(payload) - spec.names
            raise ValueError(f"{cls.TYPE}: unknown field {sorted(unknown)[0]!r}")
        values: dict[str, Any] = {}
        get = payload.get
        # Fast paths for the values a well-formed payload holds; anything else
        # goes to the field's full decoder, which accepts or explains it.
        for name, exact_type, table, optional, required, decode in spec.fields:
            value = get(name, _ABSENT)
            if value is _ABSENT:
                if required:
                    raise ValueError(f"{cls.TYPE}: field {name!r} is required")
                continue
            if table is not None:
                if type(value) is str:
                    member = table.get(value)
                    if member is not None:
                        values[name] = member
                        continue
            elif type(value) is exact_type:
                values[name] = value
                continue
            if value is None and optional:
                values[name] = None
                continue
            try:
                values[name] = decode(value)
            except ValueError as error:
                raise ValueError(f"{cls.TYPE}: field {name!r} {error}") from None
        try:
            return cls(**values)
        except ValueError as error:
            raise ValueError(f"{cls.TYPE}: {error}") from None


def _encode(value: Any) -> Any:
    if isinstance(value, Options):
        return value.as_dict()
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, datetime.date):
        return value.isoformat()
    if isinstance(value, tuple):
        return [_encode(item) for item in value]
    return value


def _check_int(value: Any) -> int:
    if type(value) is not int:
        raise ValueError(f"must be an int, got {value!r}")
    return value


def _check_str(value: Any) -> str:
    if type(value) is not str:
        raise ValueError(f"must be a str, got {value!r}")
    return value


def _check_bool(value: Any) -> bool:
    if type(value) is not bool:
        raise ValueError(f"must be a bool, got {value!r}")
    return value


def _check_card(value: Any) -> Card:
    text = _check_str(value)
    try:
        return Card.parse(text)
    except (ValueError, KeyError) as error:
        raise ValueError(f"must be a card such as 'Ah', got {value!r} ({error})") from None


def _check_date(value: Any) -> datetime.date:
    text = _check_str(value)
    try:
        return datetime.date.fromisoformat(text)
    except ValueError:
        raise ValueError(f"must be an ISO date, got {value!r}") from None


def _enum_decoder(enum_type: type[enum.Enum]) -> Callable[[Any], Any]:
    def decode(value: Any) -> Any:
        try:
            return enum_type(_check_str(value))
        except ValueError:
            allowed = ", ".join(str(member.value) for member in enum_type)
            raise ValueError(f"must be one of {allowed}, got {value!r}") from None

    return decode


_NAME = re.compile(r"[a-z][a-z0-9_]{0,39}")


def _check_options(value: Any) -> Options:
    if type(value) is not dict:
        raise ValueError(f"must be an object, got {value!r}")
    for name, item in value.items():
        if not _NAME.fullmatch(name):
            raise ValueError(f"has a badly formed option name {name!r}")
        if item is not None and type(item) not in (str, int, bool):
            raise ValueError(f"option {name!r} must be a string, integer, boolean or null")
    return Options(value)


# fullmatch, not ^…$: a "$" also matches before a trailing newline ("ANTE\n").
_DECLARED_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_]{0,39}")


#: Names already matched: a day's events repeat a few dozen wager and spot names, and a
#: set lookup costs a fraction of the match (bounded, in case a caller invents names).
_DECLARED_SEEN: set[str] = set()


def _check_declared_name(field: str, value: str) -> None:
    """A name the game's declaration gives meaning to (a wager, spot, choice, kind)."""
    if type(value) is str and value in _DECLARED_SEEN:
        return
    if not _DECLARED_NAME.fullmatch(value):
        raise ValueError(f"field {field!r} must be a declared name such as 'ANTE', got {value!r}")
    if type(value) is str and len(_DECLARED_SEEN) < 4096:
        _DECLARED_SEEN.add(value)


_SCALARS: dict[Any, Callable[[Any], Any]] = {
    Options: _check_options,
    int: _check_int,
    str: _check_str,
    bool: _check_bool,
    Card: _check_card,
    datetime.date: _check_date,
}


def _decoder_for(annotation: Any) -> Callable[[Any], Any]:
    origin = typing.get_origin(annotation)
    if origin in (types.UnionType, typing.Union):
        (inner,) = (arg for arg in typing.get_args(annotation) if arg is not type(None))
        decode_inner = _decoder_for(inner)
        return lambda value: None if value is None else decode_inner(value)
    if origin is tuple:
        decode_item = _decoder_for(typing.get_args(annotation)[0])

        def decode_tuple(value: Any) -> tuple[Any, ...]:
            if not isinstance(value, list | tuple):
                raise ValueError(f"must be a list, got {value!r}")
            return tuple(decode_item(item) for item in value)

        return decode_tuple
    if isinstance(annotation, type) and issubclass(annotation, enum.Enum):
        return _enum_decoder(annotation)
    return _SCALARS[annotation]


_DECODER_CACHE: dict[type, dict[str, tuple[Callable[[Any], Any], bool]]] = {}
_FIELD_NAME_CACHE: dict[type, tuple[str, ...]] = {}


def _field_names(cls: type) -> tuple[str, ...]:
    names = _FIELD_NAME_CACHE.get(cls)
    if names is None:
        names = tuple(field.name for field in dataclasses.fields(cls))
        _FIELD_NAME_CACHE[cls] = names
    return names


def _decoders(cls: type) -> dict[str, tuple[Callable[[Any], Any], bool]]:
    cached = _DECODER_CACHE.get(cls)
    if cached is None:
        hints = typing.get_type_hints(cls)
        cached = {
            field.name: (
                _decoder_for(hints[field.name]),
                field.default is dataclasses.MISSING,
            )
            for field in dataclasses.fields(cls)
        }
        _DECODER_CACHE[cls] = cached
    return cached


_ABSENT = object()


@dataclass(frozen=True, slots=True)
class _EventSpec:
    """How :meth:`Event.from_payload` reads one event class.

    ``fields`` holds, per field in declaration order, ``(name, exact_type,
    table, optional, required, decode)``: a value whose type is exactly
    ``exact_type`` (int, str, bool) is taken as it is; a ``str`` found in
    ``table`` (enum values, card texts) becomes the table's entry; ``None`` is
    taken for an ``optional`` field. Every other value goes to ``decode``, the
    field's full decoder, which accepts it or says why not.
    """

    names: frozenset[str]
    fields: tuple[tuple[Any, ...], ...]


_SPEC_CACHE: dict[type, _EventSpec] = {}


def _card_table() -> dict[str, Card]:
    """Every card by each short spelling :meth:`Card.parse` accepts (no whitespace)."""
    ranks = "23456789TJQKA"
    texts = [
        rank + suit
        for rank in (*ranks, *ranks.lower(), "10")
        for suit in ("c", "d", "h", "s", "C", "D", "H", "S")
    ] + ["Jk", "JK", "jk", "jK"]
    table: dict[str, Card] = {}
    for text in texts:
        try:
            table[text] = Card.parse(text)
        except (ValueError, KeyError):
            continue
    return table


_CARD_TABLE = _card_table()


def _fast_path(annotation: Any) -> tuple[type | None, Mapping[str, Any] | None, bool]:
    """``(exact_type, table, optional)`` of a field annotated ``annotation``."""
    optional = False
    if typing.get_origin(annotation) in (types.UnionType, typing.Union):
        (annotation,) = (arg for arg in typing.get_args(annotation) if arg is not type(None))
        optional = True
    if annotation in (int, str, bool):
        return annotation, None, optional
    if annotation is Card:
        return None, _CARD_TABLE, optional
    if isinstance(annotation, type) and issubclass(annotation, enum.Enum):
        return None, {member.value: member for member in annotation}, optional
    return None, None, optional  # ``type(value) is None`` never holds: full decoder


def _spec(cls: type) -> _EventSpec:
    hints = typing.get_type_hints(cls)
    fields = []
    for name, (decode, required) in _decoders(cls).items():
        exact_type, table, optional = _fast_path(hints[name])
        fields.append((name, exact_type, table, optional, required, decode))
    spec = _EventSpec(names=frozenset(_decoders(cls)), fields=tuple(fields))
    _SPEC_CACHE[cls] = spec
    return spec


def _require(condition: bool, message: str) -> None:
    if not condition:
        raise ValueError(message)


def _check_spot(recipient: Recipient, seat: int | None, spot: str) -> None:
    # Written out rather than through _require: it runs for every card event.
    if recipient is Recipient.PLAYER:
        if not (seat is not None and seat >= 1):
            raise ValueError("field 'seat' is required for a player card")
    elif seat is not None:
        raise ValueError(f"field 'seat' must be null for a {recipient.value.lower()} card")
    _check_declared_name("spot", spot)


def _check_amount(amount_cents: int) -> None:
    if not amount_cents > 0:  # the message is built only when it is needed
        raise ValueError(f"field 'amount_cents' must be positive, got {amount_cents}")


def _check_hand(hand: int) -> None:
    if not hand >= 1:
        raise ValueError(f"field 'hand' must be 1 or more, got {hand}")


class _SpotAccessors:
    """Readings of a card event's ``spot`` for game modules that name spots by number or box.

    ``hole`` is the spot as a card number (player's or dealer's), ``position``
    the community box of the cross.
    """

    __slots__ = ()
    recipient: Recipient
    spot: str

    @property
    def hole(self) -> int | None:
        if self.recipient is Recipient.COMMUNITY or not self.spot.isdigit():
            return None
        return int(self.spot)

    @property
    def position(self) -> Position | None:
        if self.recipient is not Recipient.COMMUNITY:
            return None
        return _POSITIONS.get(self.spot)


_POSITIONS = {member.value: member for member in Position}


@dataclass(frozen=True, slots=True, kw_only=True)
class RoundOpened(Event):
    """A round opened: everything needed to replay the stream on its own.

    ``seats`` are the occupied betting positions and ``players`` the player
    seated at each (same length; one player may appear at several seats where
    the rule set allows it). ``options`` carry the choices the regulation
    leaves to the licensee's Rules Submission that the game declares (e.g.
    ``five_card_bonus_offered``), so the stream is self-describing.

    >>> import datetime
    >>> opened = RoundOpened(round_id="r1", game="criss_cross_poker",
    ...     ruleset_id="PA-674a-2019", table_id="T7", gaming_day=datetime.date(2024, 5, 1),
    ...     seats=(1, 2), players=("p1", "p2"), dealing_method=DealingMethod.MANUAL_SHOE,
    ...     options=Options({"five_card_bonus_offered": True}))
    >>> opened.to_payload()["options"], opened.option("five_card_bonus_offered")
    ({'five_card_bonus_offered': True}, True)
    """

    TYPE: ClassVar[str] = "round.opened"
    SCHEMA_VERSION: ClassVar[int] = 2
    round_id: str
    game: str
    ruleset_id: str
    table_id: str
    gaming_day: datetime.date
    seats: tuple[int, ...]
    players: tuple[str, ...]
    dealing_method: DealingMethod
    rounding: str = "round_down_to_cent"
    payout_limit_cents: int | None = None
    options: Options = Options()

    def __post_init__(self) -> None:
        _require(
            len(self.seats) == len(self.players), "fields 'seats' and 'players' differ in length"
        )
        _require(len(set(self.seats)) == len(self.seats), "field 'seats' repeats a seat")
        _require(all(seat >= 1 for seat in self.seats), "field 'seats' must be positive")
        _require(all(self.players), "field 'players' must not contain an empty id")

    def option(self, name: str, default: Any = None) -> Any:
        """The opening option ``name``, or ``default`` when the opening does not set it."""
        return self.options.get(name, default)

    @classmethod
    def build(cls, **values: Any) -> RoundOpened:
        """``round.opened`` from keyword values; those that are no field are options.

        >>> RoundOpened.build(round_id="r", game="g", ruleset_id="x", table_id="t",
        ...     gaming_day=datetime.date(2024, 1, 1), seats=(1,), players=("p",),
        ...     dealing_method=DealingMethod.HAND, five_card_bonus_offered=True).options
        (('five_card_bonus_offered', True),)
        """
        names = _field_names(cls)
        options = {name: value for name, value in values.items() if name not in names}
        fields = {name: value for name, value in values.items() if name in names}
        return cls(**fields, options=Options({**dict(fields.pop("options", ())), **options}))


@dataclass(frozen=True, slots=True, kw_only=True)
class WagerPlaced(Event):
    """Chips were placed on one betting area (a wager the game declares) of a seat's hand."""

    TYPE: ClassVar[str] = "round.wager_placed"
    SCHEMA_VERSION: ClassVar[int] = 2
    seat: int
    wager: str
    amount_cents: int
    hand: int = 1

    def __post_init__(self) -> None:
        _check_amount(self.amount_cents)
        _check_declared_name("wager", self.wager)
        _check_hand(self.hand)


@dataclass(frozen=True, slots=True, kw_only=True)
class NoMoreBets(Event):
    """The dealer announced "no more bets"."""

    TYPE: ClassVar[str] = "round.no_more_bets"


@dataclass(frozen=True, slots=True, kw_only=True)
class CardDealt(_SpotAccessors, Event):
    """A card was placed on a spot of the layout: a seat's hand, the dealer's or the community's.

    ``spot`` is a name the game's layout declares (``"1"`` for a player's first
    card, ``"TOP"`` for the top box of the cross). ``face_up`` says it was dealt
    face up.

    >>> payload = CardDealt(card=Card.parse("Kd"), recipient=Recipient.COMMUNITY,
    ...                     spot="TOP").to_payload()
    >>> payload["spot"], payload["seat"], payload["face_up"]
    ('TOP', None, False)
    """

    TYPE: ClassVar[str] = "round.card_dealt"
    SCHEMA_VERSION: ClassVar[int] = 2
    card: Card
    recipient: Recipient
    spot: str
    seat: int | None = None
    hand: int = 1
    face_up: bool = False

    def __post_init__(self) -> None:
        _check_spot(self.recipient, self.seat, self.spot)
        _check_hand(self.hand)


@dataclass(frozen=True, slots=True, kw_only=True)
class CardExposed(_SpotAccessors, Event):
    """A card already dealt was turned face up in the course of play.

    ``card`` is what was seen; when given it must match the card dealt there.
    An exposure outside the schedule must be reported as an irregularity.
    """

    TYPE: ClassVar[str] = "round.card_exposed"
    SCHEMA_VERSION: ClassVar[int] = 2
    recipient: Recipient
    spot: str
    seat: int | None = None
    hand: int = 1
    card: Card | None = None

    def __post_init__(self) -> None:
        _check_spot(self.recipient, self.seat, self.spot)
        _check_hand(self.hand)


@dataclass(frozen=True, slots=True, kw_only=True)
class StubCounted(Event):
    """The dealer counted the stub face down, and said whether cards were misdealt.

    Any count of zero or more is a fact; the game knows how many cards its deck
    holds and judges the count.
    """

    TYPE: ClassVar[str] = "round.stub_counted"
    SCHEMA_VERSION: ClassVar[int] = 2
    stub_count: int
    misdeal_found: bool = False

    def __post_init__(self) -> None:
        _require(self.stub_count >= 0, "field 'stub_count' must be 0 or more")


@dataclass(frozen=True, slots=True, kw_only=True)
class ProgressiveCounted(Event):
    """The dealer counted the progressive payout wager chips collected at "no more bets".

    The count is a fact; the engine compares it with the progressive wagers the
    system accepted (§ 555.8(b), § 587.8(b), § 588.8(b)(2)).
    """

    TYPE: ClassVar[str] = "round.progressive_counted"
    collected_chips: int

    def __post_init__(self) -> None:
        _require(self.collected_chips >= 0, "field 'collected_chips' must be 0 or more")


@dataclass(frozen=True, slots=True, kw_only=True)
class Decision(Event):
    """A player's decision on a hand: a choice the game's current step offers.

    ``amount_cents`` is the wager the choice puts down, where it puts one down
    (a Play Wager, a raise); ``params`` carry what else the choice names (the
    alignment a Double Cross raise is placed in).

    >>> Decision(seat=2, choice="fold").to_payload()
    {'seat': 2, 'choice': 'fold', 'hand': 1, 'amount_cents': None, 'params': {}}
    """

    TYPE: ClassVar[str] = "round.decision"
    seat: int
    choice: str
    hand: int = 1
    amount_cents: int | None = None
    params: Options = Options()

    def __post_init__(self) -> None:
        _check_declared_name("choice", self.choice)
        _check_hand(self.hand)
        if self.amount_cents is not None:
            _check_amount(self.amount_cents)


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayerFolded(Event):
    """The player at ``seat`` declined the next wager and gave up the hand.

    Kept for the devices that record it; a ``round.decision`` with the choice
    ``fold`` says the same.
    """

    TYPE: ClassVar[str] = "round.player_folded"
    seat: int


@dataclass(frozen=True, slots=True, kw_only=True)
class ThreeCardElection(Event):
    """Double Cross Section 10(a): the player exposed (or kept hidden) both cards."""

    TYPE: ClassVar[str] = "round.three_card_election"
    seat: int
    expose: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayDeclared(Event):
    """Double Cross Section 10(c)(2): play, with two raises placed in an alignment.

    ``alignment`` is where the raise chips were placed (it governs the hand);
    ``spoken_alignment`` is what the player said, when recorded.
    """

    TYPE: ClassVar[str] = "round.play_declared"
    seat: int
    alignment: Alignment
    raise_1_cents: int
    raise_2_cents: int
    spoken_alignment: Alignment | None = None

    def __post_init__(self) -> None:
        _require(self.raise_1_cents > 0, "field 'raise_1_cents' must be positive")
        _require(self.raise_2_cents > 0, "field 'raise_2_cents' must be positive")


@dataclass(frozen=True, slots=True, kw_only=True)
class IrregularityReported(Event):
    """An irregularity as observed (the engine applies the regulation's remedy).

    ``kind`` is one the game declares (see :class:`IrregularityKind` for the
    common ones); ``spot`` names a card's place on the layout where it matters.
    """

    TYPE: ClassVar[str] = "round.irregularity"
    SCHEMA_VERSION: ClassVar[int] = 2
    kind: str
    card: Card | None = None
    seat: int | None = None
    spot: str | None = None
    note: str = ""

    def __post_init__(self) -> None:
        _check_declared_name("kind", self.kind)
        if self.spot is not None:
            _check_declared_name("spot", self.spot)

    @property
    def position(self) -> Position | None:
        """The community box named by ``spot``, for the games of the cross."""
        return None if self.spot is None else _POSITIONS.get(self.spot)


@dataclass(frozen=True, slots=True, kw_only=True)
class RoundVoided(Event):
    """A floorperson declared the round void (all wagers to be returned)."""

    TYPE: ClassVar[str] = "round.voided"
    reason: str


@dataclass(frozen=True, slots=True, kw_only=True)
class DiceThrown(Event):
    """The dice as uncovered: the face of every die, or why the throw does not count.

    ``faces`` lists every die's uppermost face as seen; ``no_roll`` (a kind the
    game declares) says the throw does not count (a die out of the shaker, one
    die on another), with whatever faces could be read. ``called`` is what the
    dealer announced; the game judges both.

    >>> DiceThrown(faces=(3, 4), called="3-4").to_payload()
    {'faces': [3, 4], 'no_roll': None, 'called': '3-4'}
    """

    TYPE: ClassVar[str] = "round.roll"
    faces: tuple[int, ...] = ()
    no_roll: str | None = None
    called: str | None = None

    def __post_init__(self) -> None:
        if self.no_roll is not None:
            _check_declared_name("no_roll", self.no_roll)
        elif not self.faces:
            raise ValueError("field 'faces' must list every die of a throw that counts")


@dataclass(frozen=True, slots=True, kw_only=True)
class _DealerAction(Event):
    seat: int
    wager: str
    amount_cents: int
    hand: int = 1

    def __post_init__(self) -> None:
        _check_amount(self.amount_cents)
        _check_declared_name("wager", self.wager)
        _check_hand(self.hand)


@dataclass(frozen=True, slots=True, kw_only=True)
class DealerPaid(_DealerAction):
    """The dealer paid winnings on one wager of a seat's hand (the stake is not included)."""

    TYPE: ClassVar[str] = "round.dealer_paid"
    SCHEMA_VERSION: ClassVar[int] = 2


@dataclass(frozen=True, slots=True, kw_only=True)
class DealerCollected(_DealerAction):
    """The dealer took chips of one wager of a seat's hand into the table inventory."""

    TYPE: ClassVar[str] = "round.dealer_collected"
    SCHEMA_VERSION: ClassVar[int] = 2


@dataclass(frozen=True, slots=True, kw_only=True)
class WagerReturned(_DealerAction):
    """The dealer handed a stake back (push, void, or a wager not in play)."""

    TYPE: ClassVar[str] = "round.wager_returned"
    SCHEMA_VERSION: ClassVar[int] = 2


@dataclass(frozen=True, slots=True, kw_only=True)
class RoundClosed(Event):
    """The dealer cleared the layout; the round is over."""

    TYPE: ClassVar[str] = "round.closed"


ROUND_EVENT_TYPES: Mapping[str, type[Event]] = {
    cls.TYPE: cls
    for cls in (
        RoundOpened,
        WagerPlaced,
        NoMoreBets,
        CardDealt,
        CardExposed,
        StubCounted,
        ProgressiveCounted,
        Decision,
        PlayerFolded,
        ThreeCardElection,
        PlayDeclared,
        IrregularityReported,
        RoundVoided,
        DiceThrown,
        DealerPaid,
        DealerCollected,
        WagerReturned,
        RoundClosed,
    )
}
"""Every round event class by its stored type name."""


def event_to_record(event: Event) -> dict[str, Any]:
    """Wrap an event as ``{"type", "schema_version", "payload"}`` for storage.

    >>> event_to_record(NoMoreBets())
    {'type': 'round.no_more_bets', 'schema_version': 1, 'payload': {}}
    """
    return {
        "type": event.TYPE,
        "schema_version": event.SCHEMA_VERSION,
        "payload": event.to_payload(),
    }


def event_from_record(record: Mapping[str, Any]) -> Event:
    """Rebuild an event from a stored record, upcasting old payloads first.

    >>> event_from_record({"type": "round.closed", "schema_version": 1, "payload": {}})
    RoundClosed()
    >>> event_from_record({"type": "round.wager_placed", "schema_version": 1,
    ...     "payload": {"seat": 2, "wager": "ANTE", "amount_cents": 500}})
    WagerPlaced(seat=2, wager='ANTE', amount_cents=500, hand=1)

    :raises ValueError: for an unknown type, a future version or a bad payload.
    """
    from tables.rules.events_v1 import UPCASTERS

    type_name = record.get("type")
    cls = ROUND_EVENT_TYPES.get(type_name) if isinstance(type_name, str) else None
    if cls is None:
        raise ValueError(f"field 'type': unknown event type {type_name!r}")
    version = record.get("schema_version", 1)
    if type(version) is not int or version < 1 or version > cls.SCHEMA_VERSION:
        raise ValueError(f"{type_name}: field 'schema_version' unsupported: {version!r}")
    payload = dict(record.get("payload") or {})
    while version < cls.SCHEMA_VERSION:
        payload = UPCASTERS[(cls.TYPE, version)](payload)
        version += 1
    return cls.from_payload(payload)
