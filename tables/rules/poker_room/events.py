"""A hand of nonbanked poker as events: facts recorded at the table, never conclusions.

The same conventions as :mod:`tables.rules.events` (a stable ``TYPE``, a
``SCHEMA_VERSION``, ``to_payload`` / ``from_payload`` that name the bad
field), for a different kind of round: players bet against each other, the
dealer pushes pots, takes the rake (§ 553.15) and the Bad Beat contribution
(§ 553.20(c)). What the regulation requires of the money is computed by
replaying the players' actions through :mod:`.hand`
(:mod:`.replay`); the dealer's money events are compared with it.

* the hand: :class:`HandOpened` (seats, table stakes, button, rule set),
  :class:`Posted` (Ante, Blind Bet, Forced Bet), :class:`CardBurnt`,
  :class:`CardDealt` (a seat's card or, seat None, the board),
  :class:`Discarded` (the draw), :class:`Acted` (fold, check, call, bet,
  raise), :class:`Shown` and :class:`Mucked` (the showdown);
* the dealer's money: :class:`BetReturned` (the uncalled bet),
  :class:`RakeTaken`, :class:`BadBeatContributed`, :class:`PotPushed`, each
  naming the pot (0 the main pot, then the side pots in the order they formed);
* :class:`IrregularityFound`: one of § 553.16(e)-(n)'s irregularities, whose
  remedy the replay applies (:mod:`.irregularities`);
* :class:`HandClosed`.

>>> event = Acted(seat=3, action=Action.RAISE, to_cents=600)
>>> event.TYPE, event.to_payload()
('poker.acted', {'seat': 3, 'action': 'raise', 'to_cents': 600})
>>> Acted.from_payload({"seat": 3, "action": "shove"})
Traceback (most recent call last):
...
ValueError: poker.acted: field 'action' must be one of fold, check, call, bet, raise, got 'shove'
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, ClassVar

from tables.rules.cards import Card
from tables.rules.events import Event, event_to_record
from tables.rules.poker_room.hand import PostKind

__all__ = [
    "POKER_EVENT_TYPES",
    "Acted",
    "Action",
    "BadBeatContributed",
    "BetReturned",
    "CardBurnt",
    "CardDealt",
    "Discarded",
    "HandClosed",
    "HandOpened",
    "Irregularity",
    "IrregularityFound",
    "Mucked",
    "PotPushed",
    "Posted",
    "RakeTaken",
    "Shown",
    "event_to_record",
    "poker_event_from_record",
]


def _require(condition: bool, message: str) -> None:
    if not condition:
        raise ValueError(message)


def _positive(name: str, value: int) -> None:
    _require(value > 0, f"field {name!r} must be positive, got {value}")


@dataclass(frozen=True, slots=True, kw_only=True)
class HandOpened(Event):
    """A hand opened: seats, each seat's table stakes (§ 553.8(b)), the button and rule set.

    ``ruleset_id`` names a rule set of :mod:`.rulesets` (the casino's Rules
    Submission for the table: game, limits, forced wagers, rake, Bad Beat);
    ``bad_beat_fund`` the fund its contributions go to (§ 553.20(a)).
    """

    TYPE: ClassVar[str] = "poker.hand_opened"
    hand_id: str
    table_id: str
    gaming_day: datetime.date
    ruleset_id: str
    seats: tuple[int, ...]
    players: tuple[str, ...]
    stacks_cents: tuple[int, ...]
    button: int | None = None
    bad_beat_fund: str | None = None

    def __post_init__(self) -> None:
        _require(
            len(self.seats) == len(self.players) == len(self.stacks_cents),
            "fields 'seats', 'players' and 'stacks_cents' differ in length",
        )
        _require(len(set(self.seats)) == len(self.seats), "field 'seats' repeats a seat")
        _require(all(seat >= 1 for seat in self.seats), "field 'seats' must be positive")
        _require(all(self.players), "field 'players' must not contain an empty id")
        _require(
            all(s >= 0 for s in self.stacks_cents), "field 'stacks_cents' must not be negative"
        )

    @property
    def stacks(self) -> dict[int, int]:
        """Each seat's table stakes."""
        return dict(zip(self.seats, self.stacks_cents, strict=True))


@dataclass(frozen=True, slots=True, kw_only=True)
class Posted(Event):
    """A seat posted its Ante, Blind Bet or Forced Bet (§ 553.1)."""

    TYPE: ClassVar[str] = "poker.posted"
    seat: int
    kind: PostKind
    amount_cents: int

    def __post_init__(self) -> None:
        _positive("amount_cents", self.amount_cents)


@dataclass(frozen=True, slots=True, kw_only=True)
class CardBurnt(Event):
    """The dealer burnt a card face down (§ 553.7(e)(3))."""

    TYPE: ClassVar[str] = "poker.card_burnt"
    card: Card


@dataclass(frozen=True, slots=True, kw_only=True)
class CardDealt(Event):
    """A card dealt to a seat, or to the board when ``seat`` is None."""

    TYPE: ClassVar[str] = "poker.card_dealt"
    card: Card
    seat: int | None = None
    face_up: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class Discarded(Event):
    """A seat discarded these cards in the draw, none to stand pat (§ 553.13(g))."""

    TYPE: ClassVar[str] = "poker.discarded"
    seat: int
    cards: tuple[Card, ...] = ()


class Action(StrEnum):
    """A player's betting action (§ 553.1 "Bet", "Call", "Check", "Fold", "Raise")."""

    FOLD = "fold"
    CHECK = "check"
    CALL = "call"
    BET = "bet"
    RAISE = "raise"


@dataclass(frozen=True, slots=True, kw_only=True)
class Acted(Event):
    """A seat acted; a bet or raise names the street's total it brings its bet ``to``."""

    TYPE: ClassVar[str] = "poker.acted"
    seat: int
    action: Action
    to_cents: int | None = None

    def __post_init__(self) -> None:
        sized = self.action in (Action.BET, Action.RAISE)
        _require(
            sized == (self.to_cents is not None),
            f"field 'to_cents' is {'required' if sized else 'only'} for a bet or raise",
        )
        if self.to_cents is not None:
            _positive("to_cents", self.to_cents)


@dataclass(frozen=True, slots=True, kw_only=True)
class Shown(Event):
    """A seat displayed its hand at the showdown (§ 553.16(d))."""

    TYPE: ClassVar[str] = "poker.shown"
    seat: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Mucked(Event):
    """A seat conceded at the showdown without showing (§ 553.16(d))."""

    TYPE: ClassVar[str] = "poker.mucked"
    seat: int


@dataclass(frozen=True, slots=True, kw_only=True)
class BetReturned(Event):
    """The dealer returned an uncalled bet to its bettor (§ 553.15(d))."""

    TYPE: ClassVar[str] = "poker.bet_returned"
    seat: int
    amount_cents: int

    def __post_init__(self) -> None:
        _positive("amount_cents", self.amount_cents)


@dataclass(frozen=True, slots=True, kw_only=True)
class RakeTaken(Event):
    """The dealer took rake from pot ``pot`` (0 the main pot) (§ 553.15(b))."""

    TYPE: ClassVar[str] = "poker.rake_taken"
    pot: int
    amount_cents: int

    def __post_init__(self) -> None:
        _positive("amount_cents", self.amount_cents)
        _require(self.pot >= 0, "field 'pot' must not be negative")


@dataclass(frozen=True, slots=True, kw_only=True)
class BadBeatContributed(Event):
    """The dealer put a Bad Beat contribution from pot ``pot`` into the box (§ 553.20(c))."""

    TYPE: ClassVar[str] = "poker.bad_beat_contributed"
    pot: int
    amount_cents: int

    def __post_init__(self) -> None:
        _positive("amount_cents", self.amount_cents)
        _require(self.pot >= 0, "field 'pot' must not be negative")


@dataclass(frozen=True, slots=True, kw_only=True)
class PotPushed(Event):
    """The dealer pushed ``amount_cents`` of pot ``pot`` to ``seat``."""

    TYPE: ClassVar[str] = "poker.pot_pushed"
    pot: int
    seat: int
    amount_cents: int

    def __post_init__(self) -> None:
        _positive("amount_cents", self.amount_cents)
        _require(self.pot >= 0, "field 'pot' must not be negative")


class Irregularity(StrEnum):
    """An irregularity of § 553.16 the dealer or floor reports during a round of play."""

    NOT_SHUFFLED_OR_CUT = "not_shuffled_or_cut"
    """§ 553.16(e)(1): the cards were not shuffled and cut as § 553.6 requires: a misdeal."""
    WRONG_STARTING_POSITION = "wrong_starting_position"
    """§ 553.16(e)(2): dealt from the wrong seat, found before two voluntary wagers: a misdeal."""
    SEAT_NOT_DEALT = "seat_not_dealt"
    """§ 553.16(e)(4): an eligible seated player not dealt in, found in time: a misdeal."""
    CARD_FACE_UP_IN_DECK = "card_face_up_in_deck"
    """§ 553.16(h): not used, to the discards; a second one is a misdeal (§ 553.16(e)(3))."""
    INELIGIBLE_PLAYER_DEALT = "ineligible_player_dealt"
    """§ 553.16(f): the cards dealt to an ineligible player are discarded; play continues."""
    CARDS_MISSING = "cards_missing"
    """§ 553.16(g): the round is void, the pot returned, the deck replaced."""
    CARDS_EXTRA = "cards_extra"
    """§ 553.16(g): as for missing cards."""
    PROTECTED_HAND_KILLED = "protected_hand_killed"
    """§ 553.16(i)(3): a protected hand collected or fouled by the dealer: its money refunded."""
    HOLE_CARD_EXPOSED = "hole_card_exposed"
    """§ 553.16(k), (l), (n): a card to be dealt face down was dealt face up; a Seven-card
    Stud player whose seventh card it is contends for the entire pot ((k)(2))."""
    SEVENTH_CARD_EXPOSED_WAGERING_ENDED = "seventh_card_exposed_wagering_ended"
    """§ 553.16(k)(1): the seventh card exposed, its player ends his obligation to wager and
    contends only for the pot formed before any additional wagering."""
    CARD_OFF_TABLE = "card_off_table"
    """§ 553.16(m): not used in the round, to the discards."""


_ENDED = Irregularity.SEVENTH_CARD_EXPOSED_WAGERING_ENDED
_NEEDS_SEAT = frozenset({Irregularity.PROTECTED_HAND_KILLED, Irregularity.HOLE_CARD_EXPOSED,
                         _ENDED})  # fmt: skip
_NEEDS_CARD = frozenset({
    Irregularity.CARD_FACE_UP_IN_DECK, Irregularity.INELIGIBLE_PLAYER_DEALT,
    Irregularity.HOLE_CARD_EXPOSED, Irregularity.CARD_OFF_TABLE, _ENDED,
})  # fmt: skip


@dataclass(frozen=True, slots=True, kw_only=True)
class IrregularityFound(Event):
    """An irregularity of § 553.16: its ``seat`` and ``cards`` when the kind concerns them."""

    TYPE: ClassVar[str] = "poker.irregularity"
    kind: Irregularity
    seat: int | None = None
    cards: tuple[Card, ...] = ()

    def __post_init__(self) -> None:
        _require(self.kind not in _NEEDS_SEAT or self.seat is not None,
                 f"field 'seat' is required for {self.kind}")  # fmt: skip
        _require(self.kind not in _NEEDS_CARD or bool(self.cards),
                 f"field 'cards' is required for {self.kind}")  # fmt: skip


@dataclass(frozen=True, slots=True, kw_only=True)
class HandClosed(Event):
    """The dealer cleared the table; the hand is over."""

    TYPE: ClassVar[str] = "poker.hand_closed"


POKER_EVENT_TYPES: Mapping[str, type[Event]] = {
    cls.TYPE: cls
    for cls in (
        HandOpened, Posted, CardBurnt, CardDealt, Discarded, Acted, Shown, Mucked,
        BetReturned, RakeTaken, BadBeatContributed, PotPushed, HandClosed, IrregularityFound,
    )
}  # fmt: skip
"""Every poker hand event class by its stored type name (all at schema version 1)."""


def poker_event_from_record(record: Mapping[str, Any]) -> Event:
    """Rebuild a poker event from ``{"type", "schema_version", "payload"}``.

    >>> poker_event_from_record(event_to_record(Shown(seat=2)))
    Shown(seat=2)

    :raises ValueError: for an unknown type, a future version or a bad payload.
    """
    type_name = record.get("type")
    cls = POKER_EVENT_TYPES.get(type_name) if isinstance(type_name, str) else None
    if cls is None:
        raise ValueError(f"field 'type': unknown poker event type {type_name!r}")
    version = record.get("schema_version", 1)
    if version != cls.SCHEMA_VERSION:
        raise ValueError(f"{type_name}: field 'schema_version' unsupported: {version!r}")
    return cls.from_payload(dict(record.get("payload") or {}))
