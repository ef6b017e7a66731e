"""Version-1 round events: how they were written, and how they read today.

Devices stored these shapes before the vocabulary opened up (Criss-Cross's
wager enum, the cross's five boxes, hole cards 1–2, Criss-Cross options on
``round.opened``). Stored rows are never rewritten: each upcaster here first
validates a payload exactly as version 1 did (so a record version 1 refused is
refused today, with the same field named), then lifts it to version 2.

>>> UPCASTERS[("round.card_dealt", 1)](
...     {"card": "Ah", "recipient": "PLAYER", "seat": 3, "hole": 2, "position": None})
{'card': 'Ah', 'recipient': 'PLAYER', 'spot': '2', 'seat': 3, 'hand': 1, 'face_up': False}
"""

from __future__ import annotations

import dataclasses
import datetime
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from tables.rules.cards import Card
from tables.rules.events import (
    CardDealt,
    CardExposed,
    DealerCollected,
    DealerPaid,
    DealingMethod,
    Event,
    IrregularityKind,
    IrregularityReported,
    Options,
    Position,
    Recipient,
    RoundOpened,
    StubCounted,
    Wager,
    WagerPlaced,
    WagerReturned,
    _require,
)

__all__ = ["UPCASTERS", "Upcaster"]

Upcaster = Callable[[dict[str, Any]], dict[str, Any]]


def _check_address(
    recipient: Recipient, seat: int | None, hole: int | None, position: Position | None
) -> None:
    # Written out rather than through _require: it runs for every card event.
    if recipient is Recipient.PLAYER:
        if not (seat is not None and seat >= 1):
            raise ValueError("field 'seat' is required for a player card")
        if hole not in (1, 2):
            raise ValueError("field 'hole' must be 1 or 2 for a player card")
        if position is not None:
            raise ValueError("field 'position' must be null for a player card")
    elif recipient is Recipient.COMMUNITY:
        if position is None:
            raise ValueError("field 'position' is required for a community card")
        if not (seat is None and hole is None):
            raise ValueError("field 'seat' must be null for a community card")
    else:
        if hole not in (1, 2):
            raise ValueError("field 'hole' must be 1 or 2 for a dealer card")
        if not (seat is None and position is None):
            raise ValueError("field 'seat' must be null for a dealer card")


def _check_amount(amount_cents: int) -> None:
    if not amount_cents > 0:  # the message is built only when it is needed
        raise ValueError(f"field 'amount_cents' must be positive, got {amount_cents}")


@dataclass(frozen=True, slots=True, kw_only=True)
class _RoundOpened(Event):
    TYPE: ClassVar[str] = "round.opened"
    round_id: str
    game: str
    ruleset_id: str
    table_id: str
    gaming_day: datetime.date
    seats: tuple[int, ...]
    players: tuple[str, ...]
    dealing_method: DealingMethod
    rounding: str = "round_down_to_cent"
    five_card_bonus_offered: bool = False
    pair_of_tens_middle_bets: str | None = None
    payout_limit_cents: int | None = None
    positions_per_player: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class _Wager(Event):
    TYPE: ClassVar[str] = "round.wager_placed"
    seat: int
    wager: Wager
    amount_cents: int

    def __post_init__(self) -> None:
        _check_amount(self.amount_cents)


@dataclass(frozen=True, slots=True, kw_only=True)
class _Card(Event):
    TYPE: ClassVar[str] = "round.card_dealt"
    card: Card
    recipient: Recipient
    seat: int | None = None
    hole: int | None = None
    position: Position | None = None

    def __post_init__(self) -> None:
        _check_address(self.recipient, self.seat, self.hole, self.position)


@dataclass(frozen=True, slots=True, kw_only=True)
class _Exposed(Event):
    TYPE: ClassVar[str] = "round.card_exposed"
    recipient: Recipient
    seat: int | None = None
    hole: int | None = None
    position: Position | None = None
    card: Card | None = None

    def __post_init__(self) -> None:
        _check_address(self.recipient, self.seat, self.hole, self.position)


@dataclass(frozen=True, slots=True, kw_only=True)
class _Stub(Event):
    TYPE: ClassVar[str] = "round.stub_counted"
    stub_count: int
    misdeal_found: bool = False

    def __post_init__(self) -> None:
        _require(0 <= self.stub_count <= 52, "field 'stub_count' must be 0..52")


@dataclass(frozen=True, slots=True, kw_only=True)
class _Irregularity(Event):
    TYPE: ClassVar[str] = "round.irregularity"
    kind: IrregularityKind
    card: Card | None = None
    seat: int | None = None
    position: Position | None = None
    note: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class _Paid(_Wager):
    TYPE: ClassVar[str] = "round.dealer_paid"


@dataclass(frozen=True, slots=True, kw_only=True)
class _Collected(_Wager):
    TYPE: ClassVar[str] = "round.dealer_collected"


@dataclass(frozen=True, slots=True, kw_only=True)
class _Returned(_Wager):
    TYPE: ClassVar[str] = "round.wager_returned"


def _opened(old: Any) -> Event:
    options: dict[str, Any] = {}
    if old.five_card_bonus_offered:
        options["five_card_bonus_offered"] = True
    if old.pair_of_tens_middle_bets is not None:
        options["pair_of_tens_middle_bets"] = old.pair_of_tens_middle_bets
    if old.positions_per_player is not None:
        options["positions_per_player"] = old.positions_per_player
    return RoundOpened(
        round_id=old.round_id,
        game=old.game,
        ruleset_id=old.ruleset_id,
        table_id=old.table_id,
        gaming_day=old.gaming_day,
        seats=old.seats,
        players=old.players,
        dealing_method=old.dealing_method,
        rounding=old.rounding,
        payout_limit_cents=old.payout_limit_cents,
        options=Options(options),
    )


def _spot(old: Any) -> str:
    return str(old.position) if old.recipient is Recipient.COMMUNITY else str(old.hole)


def _lift(v1: type[Event], build: Callable[[Any], Event]) -> Upcaster:
    def upcast(payload: dict[str, Any]) -> dict[str, Any]:
        return build(v1.from_payload(payload)).to_payload()

    return upcast


def _dealer_action(v2: Callable[..., Event]) -> Callable[[Any], Event]:
    return lambda old: v2(seat=old.seat, wager=str(old.wager), amount_cents=old.amount_cents)


V1_FIELDS: Mapping[str, tuple[str, ...]] = {
    cls.TYPE: tuple(field.name for field in dataclasses.fields(cls))
    for cls in (
        _RoundOpened,
        _Wager,
        _Card,
        _Exposed,
        _Stub,
        _Irregularity,
        _Paid,
        _Collected,
        _Returned,
    )
}
"""The payload fields, in order, of each type version 1 shaped differently."""

UPCASTERS: Mapping[tuple[str, int], Upcaster] = {
    ("round.opened", 1): _lift(_RoundOpened, _opened),
    ("round.wager_placed", 1): _lift(
        _Wager,
        lambda old: WagerPlaced(seat=old.seat, wager=str(old.wager), amount_cents=old.amount_cents),
    ),
    ("round.card_dealt", 1): _lift(
        _Card,
        lambda old: CardDealt(
            card=old.card, recipient=old.recipient, seat=old.seat, spot=_spot(old)
        ),
    ),
    ("round.card_exposed", 1): _lift(
        _Exposed,
        lambda old: CardExposed(
            recipient=old.recipient, seat=old.seat, spot=_spot(old), card=old.card
        ),
    ),
    ("round.stub_counted", 1): _lift(
        _Stub, lambda old: StubCounted(stub_count=old.stub_count, misdeal_found=old.misdeal_found)
    ),
    ("round.irregularity", 1): _lift(
        _Irregularity,
        lambda old: IrregularityReported(
            kind=str(old.kind),
            card=old.card,
            seat=old.seat,
            spot=None if old.position is None else str(old.position),
            note=old.note,
        ),
    ),
    ("round.dealer_paid", 1): _lift(_Paid, _dealer_action(DealerPaid)),
    ("round.dealer_collected", 1): _lift(_Collected, _dealer_action(DealerCollected)),
    ("round.wager_returned", 1): _lift(_Returned, _dealer_action(WagerReturned)),
}
"""Pure upcasters keyed by ``(type, from_version)``: version-1 payload in, version 2 out."""
