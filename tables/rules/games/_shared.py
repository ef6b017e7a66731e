"""What the game state machines share: dispatch, voids, dealer actions, seat order.

A game module declares its phases, its state and one ``verify`` / apply pair
per event type, and hands them to a :class:`GameMachine`. The machine does the
checks every game makes before any handler runs (the round is closed, the
event does not belong to the game, the round is void) and is what the game
registers with :func:`tables.rules.engine.register_game`.

The states of every game are ``NamedTuple`` values with at least the fields
``ruleset``, ``phase``, ``seats``, ``pending``, ``used_cards``,
``void_section``, ``void_reason``, ``reshuffle_required`` and
``dealer_actions``; the helpers here rely on nothing else.

>>> from tables.rules.cards import Card
>>> card_bit(Card.parse("2s"))
8
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from tables.rules.cards import Card
from tables.rules.engine import Automation, Refusal, RuleViolation, Settlement, evolve
from tables.rules.events import (
    DealerCollected,
    DealerPaid,
    Event,
    RoundClosed,
    RoundOpened,
    RoundVoided,
    WagerReturned,
)
from tables.rules.money import RoundingPolicy, rounding_policy

__all__ = [
    "AFTER_VOID",
    "GameMachine",
    "card_bit",
    "with_seat",
    "void",
    "record_dealer_action",
    "first_hidden_seat",
    "later_unexposed_seats",
    "opening_rounding",
    "opening_seats",
]

Verifier = Callable[[Any, Any], Refusal | None]
Applier = Callable[[Any, Any], Any]

# Events a void round still accepts: the dealer returns the wagers and closes it.
AFTER_VOID: frozenset[type[Event]] = frozenset(
    {DealerPaid, DealerCollected, WagerReturned, RoundClosed, RoundVoided}
)
"""Event types accepted after a void (irregularities are added per game)."""


def _accept(state: Any, event: Event) -> None:
    return None


class GameMachine:
    """One game's state machine: the shared checks, then the game's own step.

    ``steps`` maps each event type the game accepts to its (verify, apply)
    pair. ``closed_section`` is cited when an event follows ``round.closed``,
    ``void_section`` when an event the void forbids follows a void.
    """

    __slots__ = (
        "name",
        "open",
        "required_settlement",
        "_steps",
        "_closed",
        "_voided",
        "_closed_section",
        "_void_section",
        "_after_void",
    )

    def __init__(
        self,
        *,
        name: str,
        open: Callable[[RoundOpened, frozenset[Automation]], Any],
        required_settlement: Callable[[Any], Settlement],
        steps: Mapping[type[Event], tuple[Verifier | None, Applier]],
        closed: Any,
        voided: Any,
        closed_section: str,
        void_section: str,
        after_void: Iterable[type[Event]] = AFTER_VOID,
    ) -> None:
        self.name = name
        self.open = open
        self.required_settlement = required_settlement
        self._steps = {kind: (check or _accept, step) for kind, (check, step) in steps.items()}
        self._closed = closed
        self._voided = voided
        self._closed_section = closed_section
        self._void_section = void_section
        self._after_void = frozenset(after_void)

    def _refuse_early(self, state: Any, event: Event) -> Refusal | None:
        """The checks made before the game's own: closed, foreign event, void."""
        phase = state.phase
        if phase is self._closed:
            return Refusal(state.ruleset.section(self._closed_section), "the round is closed", None)
        if type(event) not in self._steps:
            return Refusal("round", f"{event.TYPE} does not belong in a {self.name} round", None)
        if phase is self._voided and type(event) not in self._after_void:
            return Refusal(
                state.void_section or state.ruleset.section(self._void_section),
                "the round is void",
                None,
            )
        return None

    def verify(self, state: Any, event: Event) -> Refusal | None:
        """Return why ``event`` may not follow ``state``, or ``None`` if it may."""
        refusal = self._refuse_early(state, event)
        if refusal is not None:
            return refusal
        return self._steps[type(event)][0](state, event)

    def apply(self, state: Any, event: Event) -> Any:
        """Return the state after ``event``.

        :raises RuleViolation: naming the section when the rules forbid it.
        """
        step = self._steps.get(type(event))
        phase = state.phase
        if step is None or phase is self._closed or phase is self._voided:
            refusal = self._refuse_early(state, event)
            if refusal is not None:
                raise RuleViolation.from_refusal(refusal)
            step = self._steps[type(event)]
        refusal = step[0](state, event)
        if refusal is not None:
            raise RuleViolation.from_refusal(refusal)
        return step[1](state, event)


# ------------------------------------------------------------------ opening


def opening_rounding(event: RoundOpened) -> RoundingPolicy:
    """The rounding policy named by ``round.opened``.

    :raises RuleViolation: for a policy name that does not exist.
    """
    try:
        return rounding_policy(event.rounding)
    except ValueError as error:
        raise RuleViolation("round.opened", str(error), "rounding") from None


def opening_seats(event: RoundOpened, seat_type: Callable[..., Any]) -> dict[int, Any]:
    """One empty ``seat_type`` per occupied betting position, in seat order."""
    return {
        seat: seat_type(seat=seat, player=player, wagers={})
        for seat, player in sorted(zip(event.seats, event.players, strict=True))
    }


# ------------------------------------------------------------- state steps


def card_bit(card: Card) -> int:
    """The bit of ``card`` in a state's ``used_cards`` set."""
    return 1 << card.index


def with_seat(state: Any, seat: Any, **changes: object) -> Any:
    """``state`` with ``seat`` replaced (the seat mapping is copied, never changed)."""
    seats = dict(state.seats)
    seats[seat.seat] = seat
    return evolve(state, seats=seats, **changes)


def void(state: Any, voided: Any, section: str, reason: str) -> Any:
    """The round void under ``section``: every wager goes back, the deck is reshuffled.

    A second void keeps the first one's section and reason.
    """
    if state.phase is voided:
        return state
    return evolve(
        state,
        phase=voided,
        pending=(),
        void_section=section,
        void_reason=reason,
        reshuffle_required=True,
    )


def record_dealer_action(state: Any, event: Event) -> Any:
    """Keep a payment, collection or return; replay compares them with the settlement."""
    return evolve(state, dealer_actions=(*state.dealer_actions, event))


# ------------------------------------------------------------ seat order


def first_hidden_seat(state: Any) -> int | None:
    """The first remaining seat whose cards were not both turned, if any."""
    for seat in state.seats.values():
        if seat.active and not all(seat.exposed):
            return int(seat.seat)
    return None


def later_unexposed_seats(state: Any, seat: int) -> list[int]:
    """Remaining seats to the dealer's right of ``seat`` not yet turned.

    Players' cards are turned counterclockwise from the dealer's right, that is
    in descending seat order, so these must be turned before ``seat``.
    """
    return [
        other.seat
        for other in state.seats.values()
        if other.active and other.seat > seat and not all(other.exposed)
    ]


def other_position(state: Any, seat: Any) -> int | None:
    """Another betting position ``seat``'s player already wagers on, if any (a chapter
    that allows one position per player refuses a wager there)."""
    for other in state.seats.values():
        if other.player == seat.player and other.seat != seat.seat and other.wagers:
            return int(other.seat)
    return None
