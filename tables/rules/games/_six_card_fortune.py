"""Six-Card Fortune Pai Gow Poker's table-wide pieces (§ 588.11(h), § 588.12(d)): the
players' set and best hands, the meter hits and the Envy bonuses, apart from its declaration.

:func:`meter_hits` is the link to the progressive meter streams (read through
:func:`progressive_hits`, re-exported by the game module): the hits paid a
share of the meter, off the table (§ 588.11(h)(3)(i)(B)(4)), each at the meter
"when it is the player's turn to be paid" (§ 588.12(d)(3)).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction

from tables.rules.cards import Card
from tables.rules.engine import SettlementLine, win_line
from tables.rules.games._pai_gow_hands import PaiGowHand, Setting, best_of_six
from tables.rules.machine import RoundState, Seat
from tables.rules.money import Fixed, MeterShare
from tables.rules.progressives.chapters import SIX_CARD_FORTUNE_588
from tables.rules.progressives.envy import (
    QUALIFYING_HANDS_588,
    EnvyKind,
    EnvyReadings588,
    EnvyRecipients,
    EnvySeat588,
    UnscheduledAmounts,
    settle_envy_588,
)

FORTUNE, PROGRESSIVE = "FORTUNE_BONUS", "PROGRESSIVE"
ENVY = {EnvyKind.FORTUNE_BONUS: "FORTUNE_ENVY", EnvyKind.PROGRESSIVE: "PROGRESSIVE_ENVY"}
SPOTS = ("1", "2", "3", "4", "5", "6")
SCHEDULE = {line.hand for line in SIX_CARD_FORTUNE_588.schedule}
"""The hands the Progressive Payout Wager pays (§ 588.12(d)(1)): a straight or better."""


@dataclass(frozen=True, slots=True)
class MeterHit:
    """A progressive hit paid a share of the meter, off the table (§ 588.11(h)(3)(i)(B)(4))."""

    seat: int
    player: str
    wager_cents: int
    hand: str
    share: Fraction
    section: str


def cards_of(cards: tuple[Card | None, ...]) -> list[Card]:
    return [card for card in cards if card is not None]


def player_setting(seat: Seat) -> Setting:
    """The player's hands, the low being the spot named in ``params.low``."""
    low = str(seat.params.get("low", "")).strip()
    pairs = [(spot, card) for spot, card in zip(SPOTS, seat.cards, strict=True) if card]
    return Setting(tuple(card for spot, card in pairs if spot != low),
                   tuple(card for spot, card in pairs if spot == low))  # fmt: skip


def best_hands(state: RoundState) -> dict[int, PaiGowHand]:
    return {number: best_of_six(cards_of(seat.cards)) for number, seat in state.seats.items()
            if seat.participating and None not in seat.cards}  # fmt: skip


def meter_hits(state: RoundState) -> tuple[MeterHit, ...]:
    """The round's hits paid a share of the meter, in payment order (§ 588.11(e))."""
    hits = []
    for number, hand in sorted(best_hands(state).items(), reverse=True):
        seat = state.seats[number]
        if PROGRESSIVE not in seat.wagers or hand.category.name not in SCHEDULE:
            continue
        pays = SIX_CARD_FORTUNE_588.schedule_line(hand.category.name).pays
        if isinstance(pays, MeterShare):
            hits.append(MeterHit(number, seat.player, seat.wagers[PROGRESSIVE],
                                 hand.category.name, pays.share, state.section("12(d)(1)")))
    return tuple(hits)


def progressive_hits(state: RoundState) -> tuple[tuple[int, str], ...]:
    """``(seat, hand)`` of each of :func:`meter_hits`, as Caribbean Stud's and Raise It
    Up's ``progressive_hits`` give them to the meter streams; a void round returns the
    wager (§ 588.13) and hits nothing."""
    if state.void_section is not None:
        return ()
    return tuple((hit.seat, hit.hand) for hit in meter_hits(state))


def envy_lines(state: RoundState, seat: Seat) -> Iterator[SettlementLine]:
    best, options = best_hands(state), state.options
    envied = QUALIFYING_HANDS_588[EnvyKind.FORTUNE_BONUS]
    seats = [EnvySeat588(seat=number,
                         fortune_bonus_cents=state.seats[number].wagers.get(FORTUNE, 0),
                         progressive_cents=state.seats[number].wagers.get(PROGRESSIVE, 0),
                         player=state.seats[number].player,
                         hand=hand.category.name if hand.category.name in envied else None)
             for number, hand in best.items()]  # fmt: skip
    readings = EnvyReadings588(recipients=options["envy_recipients"] and EnvyRecipients(
        options["envy_recipients"]), unscheduled=options["envy_unscheduled"] and
        UnscheduledAmounts(options["envy_unscheduled"]))  # fmt: skip
    lines = [line for line in settle_envy_588(seats, readings).lines if line.seat == seat.seat]
    for kind, wager in ENVY.items():
        mine = [line for line in lines if line.kind is kind]
        if mine:
            yield win_line(seat=seat.seat, player=seat.player, wager=wager,
                           stake_cents=mine[0].wager_cents,
                           odds=Fixed(sum(line.amount_cents for line in mine)),
                           rounding=state.rounding, section=state.section(mine[0].section[4:]),
                           hand=", ".join(f"{line.hand} at seat {line.for_seat}" for line in mine),
                           pay_line=None)  # fmt: skip
