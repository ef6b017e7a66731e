"""A meter's share of its tables' rounds: each round's accepted progressive
wagers and hits, derived from the round as replay reads it, appended to the
meter's stream in the order the rounds opened (issue 11).

It sits above ``tables`` and ``progressives`` because it reads the one and
writes the other. A round is recorded once (its idempotency key), so running
it again for a day adds nothing. What the dealer then paid is a fact of the
floor, not derived: :func:`pay_hits` records it for the simulator and the
demo, paying what the meter owes at each player's turn (§ 555.13(f)) unless
told to get one wrong (an injected meter error the close must find).
"""

from __future__ import annotations

import datetime
from collections.abc import Iterator
from dataclasses import dataclass

from audit.ledger import Actor, read_stream
from progressives import service
from progressives.streams import folded, meter_stream
from tables.rules.progressives.events import MeterPaid, ReadingOccasion
from tables.rules.progressives.meter import MeterState, Payment, apply
from tables.rules.registry import game_modules
from tables.verification import RoundSelection, iter_round_events, rounds_of, verify_round

PROGRESSIVE_WAGER = "PROGRESSIVE"


@dataclass(frozen=True, slots=True)
class MeterRound:
    """What one round owes its meter: the accepted wagers and the hands it pays."""

    position: int
    round_id: str
    table: str
    wagers_cents: tuple[int, ...]
    #: ``(seat, hand, wager_cents)`` in payment order.
    hits: tuple[tuple[int, str, int], ...]


def meter_rounds(day: datetime.date, tables: tuple[str, ...]) -> Iterator[MeterRound]:
    """The rounds of ``tables`` on ``day`` with a progressive wager, in the order they opened.

    A void round returns its wagers (§ 555.14): it contributes nothing.
    """
    found: list[MeterRound] = []
    for table in tables:
        selection = RoundSelection(gaming_day=day, table_id=table)
        for stream_id, events in rounds_of(iter_round_events(selection)):
            result = verify_round(stream_id, events).result
            if result is None:
                continue
            state = result.final_state
            wagers = tuple(seat.wagers[PROGRESSIVE_WAGER] for _, seat in sorted(state.seats.items())
                           if PROGRESSIVE_WAGER in seat.wagers)  # fmt: skip
            if not wagers or state.void_section is not None:
                continue
            hits_of = getattr(game_modules()[state.game.id], "progressive_hits", None)
            hits = () if hits_of is None else tuple(
                (seat, hand, state.seats[seat].wagers[PROGRESSIVE_WAGER])
                for seat, hand in hits_of(state))  # fmt: skip
            found.append(MeterRound(events[0].position, result.events[0].round_id, table,
                                    wagers, hits))  # fmt: skip
    return iter(sorted(found, key=lambda item: item.position))


@dataclass(frozen=True, slots=True)
class MeterDayRecorded:
    """The meter after its day, and whether the wrong payment asked for was made."""

    state: MeterState
    wrong_payment_made: bool


def record_day(meter_id: str, day: datetime.date, *, actor: Actor, validated_by: str,
               wrong_payment_cents: int = 0, displayed_error_cents: int = 0) -> MeterDayRecorded:
    """The day of ``meter_id``'s tables on its stream: the opening readings, each
    round's contribution and hits with the dealer's payments, the closing readings.

    ``wrong_payment_cents`` is added to the first progressive payment (the dealer
    read a wrong meter value, or a wrong line); ``displayed_error_cents`` to the last
    closing reading (a controller that drifted). Both stand for injected errors;
    a day with no progressive payout makes no wrong one.
    """
    state = folded(read_stream(meter_stream(meter_id)))
    assert state is not None, f"meter {meter_id} is not configured"
    tables = state.history[-1].tables
    for table in tables:
        service.record_reading(meter_id, table=table, gaming_day=day,
                               occasion=ReadingOccasion.OPENING,
                               displayed_cents=state.amount_cents, actor=actor)  # fmt: skip
    error = wrong_payment_cents
    for played in meter_rounds(day, tables):
        service.record_round(meter_id, round_id=played.round_id, table=played.table,
                             gaming_day=day, wagers_cents=played.wagers_cents, hits=played.hits,
                             actor=actor)  # fmt: skip
        if not played.hits:
            continue
        # The amount owed is the meter's now, at this player's turn (§ 555.13(f)).
        state = folded(read_stream(meter_stream(meter_id)))
        assert state is not None
        for seat, _, _ in played.hits:
            owed = _owed(state, played, seat, validated_by)
            paid = owed.required_cents
            if error:
                paid, error = paid + error, 0
            service.record_payment(meter_id, round_id=played.round_id, table=played.table,
                                   seat=seat, amount_cents=paid, validated_by=validated_by,
                                   actor=actor)  # fmt: skip
            state = folded(read_stream(meter_stream(meter_id)))
            assert state is not None
            if state.reset_due is not None:
                service.record_reset(meter_id, amount_cents=state.reset_due[0], actor=actor)
                state = folded(read_stream(meter_stream(meter_id)))
                assert state is not None
    state = folded(read_stream(meter_stream(meter_id)))
    assert state is not None
    for index, table in enumerate(tables):
        shown = state.amount_cents + (displayed_error_cents if index == len(tables) - 1 else 0)
        service.record_reading(meter_id, table=table, gaming_day=day,
                               occasion=ReadingOccasion.CLOSING, displayed_cents=shown,
                               actor=actor)  # fmt: skip
    return MeterDayRecorded(state, wrong_payment_made=bool(wrong_payment_cents) and not error)


def _owed(state: MeterState, played: MeterRound, seat: int, validated_by: str) -> Payment:
    """What the meter owes ``seat`` now: the engine's payment of it, paid exactly."""
    probe = MeterPaid(round_id=played.round_id, table=played.table, seat=seat, amount_cents=0,
                      validated_by=validated_by)  # fmt: skip
    effect = apply(state, probe).effect
    assert isinstance(effect, Payment)
    return effect
