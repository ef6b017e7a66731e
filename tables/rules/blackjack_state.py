"""A blackjack round's state: its seats, the dealer's cards, its phase, what replay found.

:mod:`tables.rules.blackjack_round` runs it; :mod:`tables.rules.blackjack_irregularities`
applies the chapters' irregularity remedies to it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from tables.rules.blackjack import BlackjackRules
from tables.rules.blackjack_declaration import BlackjackGame, BlackjackRuleSet
from tables.rules.blackjack_hands import SeatHands
from tables.rules.cards import Card
from tables.rules.engine import Refusal, evolve
from tables.rules.events import Event, Recipient, RoundOpened
from tables.rules.money import RoundingPolicy

__all__ = [
    "WAGERING", "DEALING", "PLAY", "DEALER", "SETTLEMENT", "VOIDED", "CLOSED",
    "Breach", "BlackjackSeat", "BlackjackState", "chapter_refusal", "refuse_card",
    "composition", "with_seat", "left_after",
]  # fmt: skip

WAGERING, DEALING, PLAY, DEALER, SETTLEMENT = (
    "wagering", "dealing", "decisions", "dealer", "settlement")  # fmt: skip
VOIDED, CLOSED = "voided", "closed"


class Breach(NamedTuple):
    """Something the dealer did that the rules forbid, found by replay (no money moved by it)."""

    seat: int
    subject: str
    section: str
    reason: str


class BlackjackSeat(NamedTuple):
    """A betting position: its wagers before the hands form, its first cards, then its hands."""

    seat: int
    player: str
    wagers: Mapping[str, int] = {}
    cards: tuple[Card, ...] = ()
    hands: SeatHands | None = None
    #: No card reached the hand in the deal: it is dead, its wagers returned (§ 581.13(f)).
    dead: bool = False
    #: Hands (numbered from 1) called dead when a card they asked for was not dealt
    #: (§ 581.13(g), § 5xx.13(h)): their wagers are returned.
    dead_hands: tuple[int, ...] = ()


class BlackjackState(NamedTuple):
    """One blackjack round: the seats, the dealer's cards, the phase and what replay found."""

    game: BlackjackGame
    ruleset: BlackjackRuleSet
    rules: BlackjackRules
    opened: RoundOpened
    rounding: RoundingPolicy
    options: Mapping[str, Any]
    phase: str
    seats: Mapping[int, BlackjackSeat]
    #: The initial deal's cards in order: (recipient, seat, spot), fixed at "no more bets".
    slots: tuple[tuple[Recipient, int | None, str], ...] = ()
    dealt: int = 0
    #: The seat deciding or taking a card (kept, not searched for on every event).
    acting: int | None = None
    dealer: tuple[Card, ...] = ()
    hole_exposed: bool = False
    insurance_closed: bool = False
    #: Cards taken from the shoe that are in no hand (§ 5xx.13(a), (d)).
    discarded: tuple[Card, ...] = ()
    #: How many of each card (by index) the batch holds that the round has not taken.
    left: tuple[int, ...] = (0,) * 52
    #: Seats whose requested card comes after every other player's (§ 581.13(g)).
    deferred: tuple[int, ...] = ()
    #: A card drawn in error, not yet used: the next card dealt, whoever takes it
    #: (§ 5xx.13(b); exposed to the players, § 5xx.13(c)).
    in_error: Card | None = None
    in_error_exposed: bool = False
    #: Seats that refused the exposed card drawn in error: no more cards this round
    #: (§ 5xx.13(c)).
    refused: tuple[int, ...] = ()
    breaches: tuple[Breach, ...] = ()
    dealer_actions: tuple[Event, ...] = ()
    void_section: str | None = None
    void_reason: str | None = None

    def section(self, number: str) -> str:
        """Cite ``number`` in this round's chapter."""
        return self.ruleset.section(number)

    def cite(self, key: str) -> str:
        """Cite the section the game names for the check ``key``."""
        return self.section(self.game.sections[key])

    @property
    def chosen_wagers(self) -> dict[str, int]:
        """Money put on the hands by decisions (doubles, splits, Second Chance): handle
        beside the seats' wagers. A Free Bet lammer is a marker, not handle (§ 590.7(n))."""
        chosen = {spec.name for spec in self.game.wagers if spec.by_choice and spec.handle}
        found: dict[str, int] = {}
        for seat in self.seats.values():
            for hand in seat.hands.hands if seat.hands is not None else ():
                for name, amount in hand.stakes:
                    if name in chosen:
                        found[name] = found.get(name, 0) + amount
        return found

    @property
    def up_card(self) -> Card | None:
        """The dealer's first card, once dealt."""
        return self.dealer[0] if self.dealer else None


def chapter_refusal(
    state: BlackjackState, key: str, reason: str, field: str | None = None
) -> Refusal:
    """A refusal citing the section the game names for ``key``."""
    return Refusal(state.cite(key), reason, field)


def refuse_card(state: BlackjackState, card: Card) -> Refusal | None:
    """§ 5xx.3(a): no round holds more of a card than the batch (a 10 of a Spanish batch)."""
    if state.left[card.index]:
        return None
    held = composition(state.rules)[card.index]
    why = "a Spanish batch holds no 10s (§ 581.4(b))" if held == 0 else (
        f"the batch holds {held} and all are in this round")  # fmt: skip
    return Refusal(state.section("3(a)"), f"{card} cannot come out of this shoe: {why}", "card")


_COMPOSITIONS: dict[tuple[str, int, bool], tuple[int, ...]] = {}


def composition(rules: BlackjackRules) -> tuple[int, ...]:
    key = (rules.chapter, rules.decks, rules.two_batches)
    found = _COMPOSITIONS.get(key)
    if found is None:
        found = _COMPOSITIONS[key] = rules.shoe().composition
    return found


def with_seat(state: BlackjackState, seat: BlackjackSeat) -> BlackjackState:
    return evolve(state, seats={**state.seats, seat.seat: seat})


def left_after(state: BlackjackState, card: Card) -> tuple[int, ...]:
    left = list(state.left)  # cheaper than joining two slices around the changed count
    left[card.index] -= 1
    return tuple(left)
