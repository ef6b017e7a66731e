"""Shared machinery of the game state machines: refusals, automation, settlement.

Each game module (``tables.rules.games.*``) keeps one frozen state class and,
for every event it accepts, a ``verify_<action>(state, event)`` returning a
:class:`Refusal` or ``None``, a ``can_<action>`` bool wrapper and an apply
step that returns a *new* state. This module holds what they share:

* :class:`Refusal` / :class:`RuleViolation`: a refused event names the section
  it breaks, a reason a person can read and the event field at fault;
* :class:`Automation`: the steps a table may leave to the engine;
* :class:`Outcome`, :class:`SettlementLine`, :class:`Settlement`: what the
  regulation requires at the end of the round;
* :func:`lookup`, :func:`apply_payout_limit`: pay-table and limit arithmetic;
* :func:`open_round` / :func:`apply`: dispatch to the game named by the round.

Policy on facts versus refusals: an event the regulation forbids or that
cannot physically be true (a card dealt twice, a wager after "no more bets", a
decision out of turn) is refused. An irregularity for which the regulation
prescribes a remedy (a card found face up, a community card exposed early) is
accepted as an ``round.irregularity`` event and the remedy is applied.

>>> refusal = Refusal(section="592.7(c)", reason="wager after no more bets", field="wager")
>>> str(RuleViolation.from_refusal(refusal))
'592.7(c): wager after no more bets (field: wager)'
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from tables.rules.events import Event, RoundOpened
from tables.rules.money import Payout, RoundingPolicy, payout
from tables.rules.rulesets import PayLine

_T = TypeVar("_T")

__all__ = [
    "Refusal",
    "RuleViolation",
    "Automation",
    "HOUSE",
    "FEE",
    "fee_line",
    "Movement",
    "Outcome",
    "SettlementLine",
    "Settlement",
    "LineMatch",
    "lookup",
    "apply_payout_limit",
    "POT",
    "pot_lines",
    "GameRules",
    "register_game",
    "open_round",
    "apply",
    "game_rules_for",
    "evolve",
]


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why an event may not be applied: the section, a reason and the field."""

    section: str
    reason: str
    field: str | None = None


class RuleViolation(ValueError):
    """Raised by an apply step when the regulation forbids the event.

    >>> error = RuleViolation("592.7(d)", "antes differ", "amount_cents")
    >>> (error.section, error.field)
    ('592.7(d)', 'amount_cents')
    """

    def __init__(self, section: str, reason: str, field: str | None = None) -> None:
        self.section = section
        self.reason = reason
        self.field = field
        suffix = f" (field: {field})" if field else ""
        super().__init__(f"{section}: {reason}{suffix}")

    @classmethod
    def from_refusal(cls, refusal: Refusal) -> RuleViolation:
        """Build the exception for ``refusal``."""
        return cls(refusal.section, refusal.reason, refusal.field)


class Automation(enum.StrEnum):
    """Steps a table may leave to the engine instead of recording them as events.

    Automating a step never invents a card: the identity of every card comes
    from a ``round.card_dealt`` event; automation only skips the record of it
    being turned face up.
    """

    REVEAL_COMMUNITY_CARDS = "Reveal community cards on schedule"
    REVEAL_DEALER_CARDS = "Reveal the dealer's cards on schedule"
    EXPOSE_PLAYER_CARDS = "Turn players' cards face up at settlement"


HOUSE = "house"
"""The house bank: the counterparty of every banked wager."""
FEE = "fee"
"""Fee revenue (an Options fee): collected like a lost wager, never handle, never returned."""


@dataclass(frozen=True, slots=True)
class Movement:
    """Money that changes hands at settlement: ``payer`` pays ``payee`` ``amount_cents``.

    Parties are ``"house"``, a seat's hand (``"seat 3 hand 1"``), a pot, a
    progressive meter (``"meter:<id>"``), a Bad Beat fund, or revenue other
    than the bank's win (``"commission"``, ``"rake"``, ``"fee"``).

    >>> Movement("house", "seat 3 hand 1", 2_500, "ANTE", "565.12(b)").amount_cents
    2500
    """

    payer: str
    payee: str
    amount_cents: int
    wager: str
    section: str


class Outcome(enum.StrEnum):
    """How one wager ends."""

    WIN = "win"
    LOSE = "lose"
    PUSH = "push"
    RETURNED = "returned"
    FORFEITED = "forfeited"


@dataclass(frozen=True, slots=True, kw_only=True)
class SettlementLine:
    """What the regulation requires for one wager of one seat.

    ``amount_cents`` is the winnings to pay for ``WIN`` (the stake stays with
    the player and is not included), the stake to collect for ``LOSE`` and
    ``FORFEITED``, and the stake to leave with or give back to the player for
    ``PUSH`` and ``RETURNED``. ``uncapped_cents`` is the winnings before a
    payout limit (equal to ``amount_cents`` when no limit bit).
    """

    seat: int
    player: str
    wager: str
    stake_cents: int
    outcome: Outcome
    amount_cents: int
    section: str
    hand: str | None = None
    pay_line: str | None = None
    odds: str | None = None
    uncapped_cents: int | None = None
    notes: tuple[str, ...] = ()
    #: Who the wager is won from or lost to: the house bank, a pot, a meter, a fund.
    counterparty: str = HOUSE
    #: Which of the seat's hands (splits, a player's set hands) the wager is on.
    hand_index: int = 1

    @property
    def party(self) -> str:
        """The seat's hand the line settles, as a party to a money movement."""
        return f"seat {self.seat} hand {self.hand_index}"

    @property
    def movement(self) -> Movement | None:
        """The money this line moves: who pays whom and how much (none for a push or return)."""
        if self.outcome is Outcome.WIN:
            return Movement(self.counterparty, self.party, self.amount_cents, self.wager,
                            self.section)  # fmt: skip
        if self.outcome in (Outcome.LOSE, Outcome.FORFEITED):
            return Movement(self.party, self.counterparty, self.amount_cents, self.wager,
                            self.section)  # fmt: skip
        return None

    @property
    def paid_cents(self) -> int:
        """Winnings the dealer must pay on this wager."""
        return self.amount_cents if self.outcome is Outcome.WIN else 0

    @property
    def collected_cents(self) -> int:
        """Chips the dealer must take into the table inventory."""
        return self.amount_cents if self.outcome in (Outcome.LOSE, Outcome.FORFEITED) else 0


@dataclass(frozen=True, slots=True, kw_only=True)
class Settlement:
    """The required settlement of a round, with the choices that produced it."""

    round_id: str
    ruleset_id: str
    rounding: str
    lines: tuple[SettlementLine, ...]
    complete: bool = True
    voided: bool = False
    void_section: str | None = None
    options_applied: tuple[tuple[str, str], ...] = ()
    notes: tuple[str, ...] = ()
    #: Money that moves besides the wagers' own: commissions, fees, rake, fund contributions.
    charges: tuple[Movement, ...] = ()

    @property
    def movements(self) -> tuple[Movement, ...]:
        """Every movement the regulation requires, in settlement order, charges last."""
        moved = (line.movement for line in self.lines)
        return (*(movement for movement in moved if movement is not None), *self.charges)

    def line(self, seat: int, wager: str) -> SettlementLine | None:
        """The line for ``seat``'s ``wager``, if the seat placed it."""
        for line in self.lines:
            if line.seat == seat and line.wager == wager:
                return line
        return None

    @property
    def total_paid_cents(self) -> int:
        """All winnings the dealer must pay."""
        return sum(line.paid_cents for line in self.lines)

    @property
    def total_collected_cents(self) -> int:
        """All chips the dealer must collect."""
        return sum(line.collected_cents for line in self.lines)


@dataclass(frozen=True, slots=True)
class LineMatch:
    """The pay-table line a hand landed on (``None`` line: the hand loses)."""

    line: PayLine | None
    conflict: tuple[PayLine, ...] = ()


def lookup(table: Iterable[PayLine], category: int, pair_rank: int | None) -> LineMatch:
    """Find the line of ``table`` for a hand; report every line when several match.

    >>> from tables.rules.rulesets import CRISS_CROSS_592_BET_TABLE
    >>> from tables.rules.hands import FiveCardCategory
    >>> match = lookup(CRISS_CROSS_592_BET_TABLE, FiveCardCategory.PAIR, 10)
    >>> [line.label for line in match.conflict]
    ['Pair of 10s, jack, queens, kings or aces', 'Pair of 6s through 10s']
    """
    table = tuple(table)
    key = (id(table), int(category), pair_rank)
    cached = _LOOKUPS.get(key)
    if cached is not None and cached[0] is table:
        return cached[1]
    matches = tuple(line for line in table if line.matches(category, pair_rank))
    if not matches:
        result = LineMatch(None)
    else:
        result = LineMatch(matches[0], matches if len(matches) > 1 else ())
    _LOOKUPS[key] = (table, result)
    return result


# Lookups by (table identity, category, pair rank); the table is kept alive by the entry.
_LOOKUPS: dict[tuple[int, int, int | None], tuple[tuple[PayLine, ...], LineMatch]] = {}


def win_line(
    *,
    seat: int,
    player: str,
    wager: str,
    stake_cents: int,
    odds: Payout,
    rounding: RoundingPolicy,
    section: str,
    hand: str | None,
    pay_line: str | None,
    notes: tuple[str, ...] = (),
    counterparty: str = HOUSE,
    meter_cents: int = 0,
) -> SettlementLine:
    """A winning line paid at ``odds``, a fixed amount or a share of a meter."""
    amount = payout(stake_cents, odds, rounding, meter_cents)
    return SettlementLine(
        seat=seat,
        player=player,
        wager=wager,
        stake_cents=stake_cents,
        outcome=Outcome.WIN,
        amount_cents=amount,
        section=section,
        hand=hand,
        pay_line=pay_line,
        odds=str(odds),
        uncapped_cents=amount,
        notes=notes,
        counterparty=counterparty,
    )


def plain_line(
    seat: Any,
    wager: str,
    outcome: Outcome,
    section: str,
    hand: str | None = None,
    notes: tuple[str, ...] = (),
) -> SettlementLine:
    """A line settled for the stake itself (lost, pushed, forfeited or returned).

    ``seat`` is a game's seat state: its ``seat``, ``player`` and ``wagers``.
    """
    stake = seat.wagers[wager]
    return SettlementLine(
        seat=seat.seat,
        player=seat.player,
        wager=wager,
        stake_cents=stake,
        outcome=outcome,
        amount_cents=stake,
        section=section,
        hand=hand,
        notes=notes,
    )


def fee_line(seat: Any, wager: str, section: str, hand: str | None = None) -> SettlementLine:
    """A fee the seat paid (a :class:`~tables.rules.declaration.WagerSpec` with ``fee``):
    collected for its amount, to the ``fee`` counterparty (revenue, not the bank's win).

    >>> from types import SimpleNamespace
    >>> seat = SimpleNamespace(seat=2, player="p", wagers={"OPTIONS_FEE": 500})
    >>> fee_line(seat, "OPTIONS_FEE", "589.11(d)(2)(i)").movement.payee
    'fee'
    """
    line = plain_line(seat, wager, Outcome.FORFEITED, section, hand)
    return SettlementLine(seat=line.seat, player=line.player, wager=wager,
                          stake_cents=line.stake_cents, outcome=Outcome.FORFEITED,
                          amount_cents=line.amount_cents, section=section, hand=hand,
                          counterparty=FEE)  # fmt: skip


POT = "pot"
"""The pool of players' Pot Wagers (§ 583.11(e)): players' money, never the house's."""


def pot_lines(
    seats: Sequence[Any],
    wager: str,
    winners: Sequence[int],
    *,
    section: str,
    hands: Mapping[int, str] | None = None,
    notes: tuple[str, ...] = (),
    counterparty: str = POT,
) -> dict[int, SettlementLine]:
    """Each seat's line of a pool of its stakes on ``wager``, shared among ``winners``.

    The pool (every stake of ``seats``) is split evenly among ``winners``; the odd
    cents go one each to the winners in the order given (the game's rule or option).
    A winner is paid from the pool its share less its own stake (a push when they are
    equal), every other stake is lost to the pool: the movements in and out of the
    pool sum to zero, so none of it is the house's win. No winner: every stake back.

    >>> from types import SimpleNamespace as S
    >>> seats = [S(seat=n, player=f"p{n}", wagers={"POT": 500}) for n in (3, 2, 1)]
    >>> lines = pot_lines(seats, "POT", [3, 1], section="583.11(e)")
    >>> [(n, str(line.outcome), line.amount_cents) for n, line in lines.items()]
    [(3, 'win', 250), (2, 'lose', 500), (1, 'win', 250)]
    """
    staked = [seat for seat in seats if wager in seat.wagers]
    total = sum(seat.wagers[wager] for seat in staked)
    hands = hands or {}
    if not winners:
        return {seat.seat: plain_line(seat, wager, Outcome.RETURNED, section, hands.get(seat.seat),
                                      notes) for seat in staked}  # fmt: skip
    share, odd = divmod(total, len(winners))
    shares = {number: share + (index < odd) for index, number in enumerate(winners)}
    split = f"{section}: pot of {total} cents to {len(winners)} winner(s)"
    lines: dict[int, SettlementLine] = {}
    for seat in staked:
        stake, hand = seat.wagers[wager], hands.get(seat.seat)
        got = shares.get(seat.seat)
        if got is None:
            outcome, amount = Outcome.LOSE, stake
        else:
            outcome = Outcome.WIN if got > stake else Outcome.PUSH if got == stake else Outcome.LOSE
            amount = abs(got - stake) if got != stake else stake
        lines[seat.seat] = SettlementLine(
            seat=seat.seat, player=seat.player, wager=wager, stake_cents=stake, outcome=outcome,
            amount_cents=amount, section=section, hand=hand,
            uncapped_cents=amount if outcome is Outcome.WIN else None,
            notes=(*notes, split) if got is not None else notes, counterparty=counterparty,
        )  # fmt: skip
    return lines


def apply_payout_limit(
    lines: tuple[SettlementLine, ...],
    *,
    limit_cents: int | None,
    wagers: Iterable[str],
    section: str,
    group: Callable[[SettlementLine], Any],
) -> tuple[SettlementLine, ...]:
    """Cap the winnings on ``wagers`` at ``limit_cents`` per ``group`` (player or hand).

    The limit is consumed in settlement order (the order of ``lines``): the
    regulations do not say how a reduced payout is apportioned, so the wagers
    settled first are paid in full and the rest are reduced. Every reduced line
    keeps its uncapped amount and a note naming the section.

    >>> line = SettlementLine(seat=1, player="p", wager="ANTE", stake_cents=100,
    ...     outcome=Outcome.WIN, amount_cents=900, section="x", uncapped_cents=900)
    >>> capped = apply_payout_limit((line, line), limit_cents=1000, wagers=("ANTE",),
    ...     section="Section 11(d)", group=lambda line: line.player)
    >>> [line.amount_cents for line in capped]
    [900, 100]
    """
    if limit_cents is None:
        return lines
    limited = frozenset(wagers)
    remaining: dict[Any, int] = {}
    result = []
    for line in lines:
        if line.outcome is not Outcome.WIN or str(line.wager) not in limited:
            result.append(line)
            continue
        key = group(line)
        left = remaining.get(key, limit_cents)
        paid = min(line.amount_cents, left)
        remaining[key] = left - paid
        if paid == line.amount_cents:
            result.append(line)
            continue
        note = (
            f"{section}: payout limit {limit_cents} cents reached; reduced from {line.amount_cents}"
        )
        result.append(
            SettlementLine(
                seat=line.seat,
                player=line.player,
                wager=line.wager,
                stake_cents=line.stake_cents,
                outcome=Outcome.WIN,
                amount_cents=paid,
                section=f"{line.section}; {section}",
                hand=line.hand,
                pay_line=line.pay_line,
                odds=line.odds,
                uncapped_cents=line.uncapped_cents,
                notes=(*line.notes, note),
            )
        )
    return tuple(result)


class GameRules(Protocol):
    """What a game module registers with the engine."""

    def open(self, event: RoundOpened, automations: frozenset[Automation]) -> Any:
        """Build the initial state from ``round.opened`` (or raise RuleViolation)."""
        ...

    def apply(self, state: Any, event: Event) -> Any:
        """Return the state after ``event`` (or raise RuleViolation)."""
        ...

    def required_settlement(self, state: Any) -> Settlement:
        """What the regulation requires to be paid and collected."""
        ...


_GAMES: dict[str, GameRules] = {}
_STATE_TYPES: dict[type, GameRules] = {}


def register_game(game: str, state_type: type, rules: GameRules) -> None:
    """Register a game module under its game id (called by the game modules)."""
    _GAMES[game] = rules
    _STATE_TYPES[state_type] = rules


def _load_games() -> None:
    # Every game module, not just the first: importing one game (a test, the
    # simulator) must not hide the others from replay.
    from tables.rules import blackjack_games
    from tables.rules.registry import game_modules

    game_modules()
    blackjack_games.modules()  # the blackjack family, registered apart (its package says why)


def registered_games() -> tuple[str, ...]:
    """Every game id a round may name, the blackjack family included."""
    _load_games()
    return tuple(sorted(_GAMES))


def game_rules_for(game: str) -> GameRules:
    """The registered rules of ``game``.

    :raises RuleViolation: for an unknown game id.
    """
    _load_games()
    try:
        return _GAMES[game]
    except KeyError:
        raise RuleViolation("round.opened", f"unknown game {game!r}", "game") from None


def open_round(event: RoundOpened, automations: Iterable[Automation] = ()) -> Any:
    """Start a round's state from its ``round.opened`` event.

    :raises RuleViolation: when the round cannot be opened as described.
    """
    return game_rules_for(event.game).open(event, frozenset(automations))


def apply(state: Any, event: Event) -> Any:
    """Apply ``event`` to ``state`` of any registered game, returning the new state.

    :raises RuleViolation: when the regulation forbids the event.
    """
    rules = _STATE_TYPES.get(type(state))
    if rules is None:
        _load_games()
        rules = _STATE_TYPES[type(state)]
    return rules.apply(state, event)


def required_settlement(state: Any) -> Settlement:
    """The settlement the regulation requires for ``state`` of any registered game."""
    _load_games()
    return _STATE_TYPES[type(state)].required_settlement(state)


_FIELD_POSITIONS: dict[type, dict[str, int]] = {}


def evolve(value: _T, /, **changes: Any) -> _T:
    """``value._replace(**changes)`` for a ``NamedTuple`` state, only faster.

    ``_replace`` visits every field of the state on every change; the states
    have about twenty fields and change one to three per event, so this
    copies the tuple and sets only the changed positions. An unknown field
    name is left to ``_replace``, which raises its usual error.

    >>> from typing import NamedTuple
    >>> class Point(NamedTuple):
    ...     x: int
    ...     y: int = 0
    >>> evolve(Point(1, 2), y=5)
    Point(x=1, y=5)
    """
    cls = type(value)
    try:
        positions = _FIELD_POSITIONS[cls]
    except KeyError:
        fields: tuple[str, ...] = cls._fields  # type: ignore[attr-defined]
        positions = {name: position for position, name in enumerate(fields)}
        _FIELD_POSITIONS[cls] = positions
    items = list(value)  # type: ignore[call-overload]
    try:
        for name, item in changes.items():
            items[positions[name]] = item
    except KeyError:
        return value._replace(**changes)  # type: ignore[attr-defined,no-any-return]
    return tuple.__new__(cls, items)  # type: ignore[type-var]


def seats_mapping(seats: Iterable[Any]) -> Mapping[int, Any]:
    """Build a seat-number mapping from objects with a ``seat`` attribute."""
    return {item.seat: item for item in seats}
