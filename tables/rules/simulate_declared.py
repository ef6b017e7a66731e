"""Simulate a round of any declared game by walking its declared steps.

For a seeded ``random.Random`` the simulator writes down what a table would
record for one round of a :class:`~tables.rules.declaration.Game`, keeping the
engine's state as it goes (:mod:`tables.rules.machine`), so every event it
writes is one the engine accepts:

* the wagers the declaration offers before "no more bets" (the first one at
  every seat, each other one at ``side_wager_percent`` %), each amount chosen
  among chip amounts and the multiples the wager's declared relation allows,
  the first the engine accepts (the game's ``wager_rules`` included);
* the deal: the groups ``Deal.order`` names complete in that order, the other
  spots one card at a time round the table (seats clockwise, then the dealer,
  then the community), each hand's spots in layout order;
* every decision by the game's strategy, the wagers a fold loses collected at
  once; the reveals; at the showdown each remaining seat's cards turned
  counterclockwise and that seat settled as :func:`machine.required_settlement`
  says (losing and forfeited wagers collected, winners paid, pushes and
  returned wagers handed back); then ``round.closed``;
* each throw of the dice (a ``Throw`` step): random faces, at ``no_roll_percent``
  % first a throw that does not count, of a kind the step declares (its remedy
  voids the round or has the dice thrown again); the dealer's call is the one
  the step declares correct. The wagers a throw decides are settled at once;
  where the game declares ``losers_first`` every losing wager of the table is
  collected before any winner is paid.

A game's strategy is, in order: the module's ``STRATEGY`` (a module under
:mod:`tables.rules.games` may declare one), its par-sheet module's ``STRATEGY``
(:mod:`tables.rules.parsheets`), or :func:`first_wagering_choice`. Dealer
errors (:class:`DealerError` kinds that read any settlement, and every
:class:`SettlementError`) and irregularities (those the game's remedies void
or take a card out for) are injected as in
:mod:`tables.rules.simulate`, and :class:`CallError` (a throw announced as other
faces than it shows) and :class:`DiceError` (a no-roll settled, a wager taken after
its lock-out, and a game's own misreadings of a throw, :func:`misreadings_for`: the
throw that shows the mistake is made, and the lines it touches settled the wrong
way); each injected error names the one finding replay must make.

>>> import random
>>> from tables.rules.registry import ruleset
>>> round_ = simulate_declared(random.Random(7), ruleset("PA-565-2010"), seats=(1, 2))
>>> round_.events[0].TYPE, round_.events[-1].TYPE
('round.opened', 'round.closed')
"""

from __future__ import annotations

import datetime
import enum
import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tables.rules.blackjack_simulate import errors_of, simulate_round
from tables.rules.cards import JOKER_DECK, STANDARD_DECK, Card
from tables.rules.declaration import (
    AtMost,
    Choice,
    Deal,
    Decide,
    Draw,
    EqualTo,
    Exactly,
    Game,
    Misreading,
    MultipleOf,
    Reveal,
    Showdown,
    Throw,
    WagerSpec,
)
from tables.rules.engine import Outcome, SettlementLine
from tables.rules.events import (
    CardDealt,
    CardExposed,
    DealerCollected,
    DealerPaid,
    DealingMethod,
    Decision,
    DiceThrown,
    Event,
    IrregularityKind,
    IrregularityReported,
    NoMoreBets,
    Options,
    Recipient,
    RoundClosed,
    RoundOpened,
    StubCounted,
    WagerPlaced,
    WagerReturned,
)
from tables.rules.machine import (
    RoundState,
    Seat,
    apply,
    can_apply,
    draws_due,
    open_round,
    required_settlement,
    turned_at_showdown,
)
from tables.rules.registry import blackjack, declared, game_modules
from tables.rules.replay import FindingKind
from tables.rules.simulate import (
    CallError,
    DealerError,
    DiceError,
    InjectedError,
    Irregularity,
    SettlementError,
    SimulatedRound,
    _inject,
    _settle_actions,
    simulate_criss_cross,
    simulate_double_cross,
)

__all__ = [
    "Play",
    "Strategy",
    "ANY_GAME_ERRORS",
    "first_wagering_choice",
    "strategy_for",
    "irregularities_for",
    "simulate_declared",
    "simulator_for",
    "errors_for",
    "misreadings_for",
    "irregularities_of",
]

Strategy = Callable[[RoundState, Seat, Decide, random.Random], Any]
"""A playing strategy: the name of the choice ``seat`` makes at the decision ``step``,
or (name, params) where the choice names more (the cards an exchange discards)."""

#: The dealer errors that read any game's settlement (the others are Criss-Cross's own).
ANY_GAME_ERRORS: tuple[DealerError | SettlementError, ...] = (
    DealerError.MISPAY_FIRST_WIN,
    DealerError.PAY_A_LOSER,
    DealerError.MISS_FOLD_COLLECTION,
    *SettlementError,
)


@dataclass(frozen=True, slots=True, kw_only=True)
class Play:
    """How simulated players bet (percentages are whole numbers, amounts cents)."""

    side_wager_percent: int = 50
    first_wagers_cents: tuple[int, ...] = (500, 1000, 2500)
    side_wagers_cents: tuple[int, ...] = (100, 500, 2500)
    #: How often a throw of the dice first does not count (a no-roll of a declared kind).
    no_roll_percent: int = 5


def first_wagering_choice(state: RoundState, seat: Seat, step: Decide, rng: random.Random) -> str:
    """The default strategy: the first choice that places one wager, else the first choice."""
    for choice in step.choices:
        if len(choice.wagers) == 1:
            return choice.name
    return step.choices[0].name


def strategy_for(game: Game) -> Strategy:
    """The game module's ``STRATEGY``, else its par sheet's (the strategy the par sheet
    proves optimal), else :func:`first_wagering_choice`."""
    from tables.rules import parsheets

    for module in (game_modules().get(game.id), parsheets.module(game.id)):
        own: Strategy | None = getattr(module, "STRATEGY", None)
        if own is not None:
            return own
    return first_wagering_choice


def _early_exposure(game: Game) -> tuple[IrregularityKind, Recipient, str] | None:
    """The kind and spot of a card shown early, where the game's remedies void for it."""
    layout, voids = game.layout, game.remedies.voids
    if layout.community_spots and IrregularityKind.COMMUNITY_CARD_EXPOSED_EARLY in voids:
        return (IrregularityKind.COMMUNITY_CARD_EXPOSED_EARLY, Recipient.COMMUNITY,
                layout.community_spots[len(layout.community_spots) // 2])  # fmt: skip
    if layout.dealer_spots and IrregularityKind.DEALER_CARD_EXPOSED_EARLY in voids:
        return IrregularityKind.DEALER_CARD_EXPOSED_EARLY, Recipient.DEALER, layout.dealer_spots[0]
    return None


def irregularities_for(game: Game) -> tuple[Irregularity, ...]:
    """The staged irregularities the game's remedies give a meaning to.

    ``COMMUNITY_EXPOSED_EARLY`` stands for a community card or, in a game with
    none, a dealer card shown before its reveal.
    """
    if not any(isinstance(step, Deal) for step in game.steps):
        return ()  # dice: no deck, no card to show
    found = [Irregularity.ONE_CARD_FACE_UP, Irregularity.TWO_CARDS_FACE_UP]
    if _early_exposure(game) is not None:
        found.append(Irregularity.COMMUNITY_EXPOSED_EARLY)
    if IrregularityKind.SHOE_MALFUNCTION in game.remedies.voids:
        found.append(Irregularity.SHOE_JAM)
    return tuple(found)


class _Table:
    """One round being recorded: the events so far and the engine's state after them."""

    def __init__(self, game: Game, opened: RoundOpened) -> None:
        self.events: list[Event] = [opened]
        self.state = open_round(game, opened)
        #: A throw that does not count is to be staged (``DiceError.NO_ROLL_SETTLED``);
        #: then whether it was.
        self.stage_no_roll = False
        self.no_roll_staged = False
        #: Misreadings to stage at their throw (a game's ``MISREADINGS``); then those staged.
        self.misreadings: dict[DiceError, Misreading] = {}
        self.misread: dict[DiceError, Misreading] = {}
        self.settled: dict[tuple[int, str], Outcome] = {}
        #: The cards not yet dealt, the next one last.
        self.deck: list[Card] = []

    def record(self, event: Event) -> None:
        self.state = apply(self.state, event)
        self.events.append(event)

    def settle(self, seats: Sequence[int] | None = None, forfeited_only: bool = False,
               wagers: Sequence[str] = ()) -> None:  # fmt: skip
        """The dealer's actions for the required lines not yet acted on.

        ``forfeited_only``: what a fold gives up is taken at once; the rest waits
        for the showdown, where a payment is allowed. ``wagers``: only these
        (those the game settles early; a wager taken back is handed back at once).
        """
        lines = [line for line in required_settlement(self.state).lines
                 if (seats is None or line.seat in seats)
                 and (not forfeited_only or line.outcome is Outcome.FORFEITED)
                 and (not wagers or line.wager in wagers)]  # fmt: skip
        # A wager taken at "no more bets" and then returned by a void is handed back.
        again = [line for line in lines if line.outcome is Outcome.RETURNED
                 and self.settled.get((line.seat, line.wager)) is Outcome.LOSE]  # fmt: skip
        actions = _settle_actions(lines, set(self.settled)) + _settle_actions(again, set())
        if "losers_first" in self.state.game.sections:
            actions.sort(key=lambda action: not isinstance(action, DealerCollected))
        for action in actions:
            self.record(action)
        self.settled.update(((line.seat, line.wager), line.outcome) for line in lines)


def _amounts(spec: WagerSpec, seat: Seat, ruleset: Any, cents: Sequence[int],
             rng: random.Random) -> Iterator[int]:  # fmt: skip
    """Amounts to try for ``spec`` at ``seat``: its declared relation's, else chip amounts
    (under a cap, the cap when none is), then the seat's own stakes (where the rules
    want wagers of equal value)."""
    relation = spec.amount
    if isinstance(relation, Exactly):
        yield relation.cents
        return
    if isinstance(relation, AtMost):
        under = [amount for amount in cents if amount <= relation.cents] or [relation.cents]
        yield from rng.sample(under, len(under))
        return
    if not isinstance(relation, EqualTo | MultipleOf):
        yield from rng.sample(list(cents), len(cents))
        yield from sorted(set(seat.wagers.values()))
        return
    base = seat.wagers.get(relation.wager)
    if base is None:
        return
    if isinstance(relation, EqualTo):
        yield base
        return
    low, high = (getattr(ruleset, term) if isinstance(term, str) else term
                 for term in (relation.low, relation.high))  # fmt: skip
    multiples = list(range(max(1, int(low)), int(high) + 1))
    yield from (multiple * base for multiple in rng.sample(multiples, len(multiples)))


def _wagers(table: _Table, play: Play, rng: random.Random) -> None:
    state = table.state
    placeable = [spec for spec in state.game.wagers if not spec.by_choice]
    for number in sorted(state.seats):
        for index, spec in enumerate(placeable):
            if index and not spec.required and rng.randrange(100) >= play.side_wager_percent:
                continue
            if spec.offered is not None and not spec.offered(table.state):
                continue
            cents = play.side_wagers_cents if index else play.first_wagers_cents
            seat = table.state.seats[number]
            for amount in _amounts(spec, seat, state.ruleset, cents, rng):
                event = WagerPlaced(seat=number, wager=spec.name, amount_cents=amount)
                if can_apply(table.state, event):
                    table.record(event)
                    break


def _deal_order(state: RoundState, step: Deal) -> Iterator[tuple[Recipient, int | None, str]]:
    """(recipient, seat, spot) in the order the cards go out."""
    layout = state.game.layout
    if step.spots:  # a stage of the board, dealt between decisions
        yield from ((Recipient.COMMUNITY, None, spot) for spot in step.spots)
        return
    staged = {spot for other in state.game.steps if isinstance(other, Deal) for spot in other.spots}
    seats = [n for n, seat in sorted(state.seats.items()) if seat.participating]
    groups: dict[str, list[list[tuple[Recipient, int | None, str]]]] = {
        "seats": [[(Recipient.PLAYER, n, spot) for n in seats] for spot in layout.seat_spots],
        "dealer": [[(Recipient.DEALER, None, spot)] for spot in layout.dealer_spots],
        "community": [
            [(Recipient.COMMUNITY, None, spot)]
            for spot in layout.community_spots
            if spot not in staged
        ],
    }
    for name in step.order:
        for turn in groups.pop(name):
            yield from turn
    longest = max((len(turns) for turns in groups.values()), default=0)
    for index in range(longest):
        for name in ("seats", "dealer", "community"):
            if name in groups and index < len(groups[name]):
                yield from groups[name][index]


def _stage(table: _Table, deck: list[Card], irregularity: Irregularity | None,
           when: str) -> None:  # fmt: skip
    """Report ``irregularity`` if it happens ``when`` (``before_deal`` or ``after_deal``)."""
    game = table.state.game
    if irregularity is None or irregularity not in irregularities_for(game):
        return
    if when == "before_deal" and irregularity in (Irregularity.ONE_CARD_FACE_UP,
                                                  Irregularity.TWO_CARDS_FACE_UP):  # fmt: skip
        for _ in range(1 if irregularity is Irregularity.ONE_CARD_FACE_UP else 2):
            table.record(IrregularityReported(kind=IrregularityKind.CARD_FACE_UP_IN_DECK,
                                              card=deck.pop()))  # fmt: skip
    elif when == "before_deal" and irregularity is Irregularity.SHOE_JAM:
        table.record(IrregularityReported(kind=IrregularityKind.SHOE_MALFUNCTION))
    elif when == "after_deal" and irregularity is Irregularity.COMMUNITY_EXPOSED_EARLY:
        exposure = _early_exposure(game)
        assert exposure is not None
        table.record(IrregularityReported(kind=exposure[0], spot=exposure[2]))


def _cards_of(state: RoundState, recipient: Recipient, seat: int | None) -> Sequence[Card | None]:
    if recipient is Recipient.PLAYER:
        return state.seats[seat or 0].cards
    return state.dealer if recipient is Recipient.DEALER else state.community


def _choose(table: _Table, strategy: Strategy, rng: random.Random) -> None:
    state = table.state
    step: Decide = state.current
    number = state.pending[0]
    seat = state.seats[number]
    picked = strategy(state, seat, step, rng)
    picked, params = (picked, {}) if isinstance(picked, str) else picked
    choice: Choice = next(c for c in step.choices if c.name == picked)
    amount = None
    if choice.wagers:
        spec = state.game.wager(choice.wagers[0])
        assert spec is not None
        amount = next(_amounts(spec, seat, state.ruleset, (min(seat.wagers.values()),), rng))
    table.record(Decision(seat=number, choice=choice.name, amount_cents=amount,
                          params=Options(params)))  # fmt: skip
    if choice.folds:
        table.settle((number,), forfeited_only=True)
    if choice.withdraws:
        table.settle((number,), wagers=choice.withdraws)
    early = table.state.game.settled_early
    if early is not None:  # paid or taken at once, as the chapter orders (§ 589.11(c))
        for other, seat in sorted(table.state.seats.items()):
            wagers = tuple(early(table.state, seat))
            if wagers:
                table.settle((other,), wagers=wagers)


def _wrong_call(state: RoundState, step: Throw, faces: tuple[int, ...],
                rng: random.Random) -> str | None:  # fmt: skip
    """A call the step's ``call`` gives for other faces, and not for ``faces``."""
    assert step.call is not None
    right = step.call(state, faces)
    for _ in range(50):
        other = step.call(state, tuple(rng.randint(1, 6) for _ in faces))
        if other.casefold() != right.casefold():
            return other
    return None


def _throw(table: _Table, step: Throw, play: Play, rng: random.Random,
           calls: list[InjectedError]) -> None:  # fmt: skip
    """One throw that counts (after, sometimes, one that does not), called by the dealer."""
    voiding = sorted(kind for kind, remedy in step.no_rolls.items() if not remedy.rethrow)
    if table.stage_no_roll and voiding:
        table.stage_no_roll, table.no_roll_staged = False, True
        table.record(DiceThrown(no_roll=voiding[0]))
        return
    if step.no_rolls and rng.randrange(100) < play.no_roll_percent:
        table.record(DiceThrown(no_roll=rng.choice(sorted(step.no_rolls))))
        if table.state.phase == "voided" or table.state.current is not step:
            return
    state = table.state
    due = state.game.layout.dice if step.dice is None else step.dice(state)
    faces = tuple(rng.randint(1, 6) for _ in range(due))
    for error, misreading in table.misreadings.items():
        shown = misreading.faces(state, rng) if misreading.throw == step.name else None
        if shown is not None:  # one misreading per throw
            faces, table.misread[error] = shown, misreading
            del table.misreadings[error]
            break
    called = None
    if step.call is not None:
        thrown = state._replace(rolls={**state.rolls, step.name: faces})
        called = step.call(thrown, faces)
        if calls and calls[0].wager == "":
            wrong = _wrong_call(thrown, step, faces, rng)
            if wrong is not None:
                called = wrong
                calls[0] = InjectedError(error=CallError.WRONG_CALL, seat=0, wager=step.name,
                                         expected_finding=FindingKind.WRONG_CALL)  # fmt: skip
    table.record(DiceThrown(faces=faces, called=called))
    if table.state.settling and not isinstance(table.state.current, Showdown):
        table.settle()


def _play_out(table: _Table, strategy: Strategy, rng: random.Random, play: Play,
              calls: list[InjectedError], deck: list[Card]) -> None:  # fmt: skip
    """Decisions, reveals and throws up to the showdown, then each seat turned and settled."""
    while not isinstance(table.state.current, Showdown):
        step = table.state.current
        if table.state.phase == "voided":
            table.settle()
            return
        if isinstance(step, Throw):
            _throw(table, step, play, rng, calls)
        elif isinstance(step, Decide):
            _choose(table, strategy, rng)
        elif isinstance(step, Draw):
            for recipient, number, spot in draws_due(table.state):
                table.record(CardDealt(card=table.deck.pop(), recipient=recipient, seat=number,
                                       spot=spot, face_up=step.dealer))  # fmt: skip
        elif isinstance(step, Deal):  # a stage of the board: burn, then its cards
            if table.state.opened.dealing_method not in step.no_burn:
                del deck[len(deck) - step.burn :]
            for recipient, to_seat, spot in _deal_order(table.state, step):
                table.record(CardDealt(card=deck.pop(), recipient=recipient, seat=to_seat,
                                       spot=spot, face_up=step.face_up))  # fmt: skip
        elif isinstance(step, Reveal):
            recipient = Recipient.DEALER if step.dealer else Recipient.COMMUNITY
            layout = table.state.game.layout
            spots = layout.dealer_spots if step.dealer else layout.community_spots
            cards = _cards_of(table.state, recipient, None)
            for spot in step.spots:
                table.record(CardExposed(recipient=recipient, spot=spot,
                                         card=cards[spots.index(spot)]))  # fmt: skip
        else:
            raise AssertionError(f"the simulator cannot walk {step!r}")
    if "losers_first" in table.state.game.sections:
        table.settle()  # the whole table at once: every loser before any winner
        return
    layout = table.state.game.layout
    spots = layout.seat_spots + layout.seat_draw_spots
    for number in sorted(table.state.seats, reverse=True):
        seat = table.state.seats[number]
        if turned_at_showdown(table.state, seat):
            for spot, card in zip(spots, seat.cards, strict=False):
                if card is not None:
                    table.record(CardExposed(recipient=Recipient.PLAYER, seat=number, spot=spot,
                                             card=card))  # fmt: skip
        table.settle((number,))


def simulate_declared(
    rng: random.Random,
    ruleset: Any,
    *,
    seats: Sequence[int] = (1, 2, 3),
    play: Play = Play(),
    strategy: Strategy | None = None,
    gaming_day: datetime.date | None = None,
    dealing_method: DealingMethod = DealingMethod.MANUAL_SHOE,
    options: Mapping[str, Any] | None = None,
    payout_limit_cents: int | None = None,
    count_stub: bool = False,
    dealer_errors: Sequence[DealerError | SettlementError | CallError | DiceError] = (),
    irregularity: Irregularity | None = None,
) -> SimulatedRound:
    """Simulate one legal round of the declared game ``ruleset`` belongs to.

    An ``irregularity`` the game gives no meaning to (:func:`irregularities_for`)
    and a dealer error no line of the round allows (or the engine would refuse
    to record) are not staged.
    """
    game = declared(ruleset.game)
    assert game is not None, f"{ruleset.game} is not a declared game"
    opened = RoundOpened.build(
        round_id=f"sim-{rng.getrandbits(48):012x}", game=game.id, ruleset_id=ruleset.id,
        table_id="SIM-1", gaming_day=gaming_day or ruleset.effective_from, seats=tuple(seats),
        players=tuple(f"P{seat}" for seat in seats), dealing_method=dealing_method,
        payout_limit_cents=payout_limit_cents, **(options or {}),
    )  # fmt: skip
    table = _Table(game, opened)
    dice_errors = [error for error in dealer_errors if isinstance(error, DiceError)]
    table.stage_no_roll = DiceError.NO_ROLL_SETTLED in dice_errors
    own = misreadings_for(game)
    table.misreadings = {error: own[error.value] for error in dice_errors if error.value in own}
    _wagers(table, play, rng)
    for misreading in table.misreadings.values():
        _hold(table, misreading.wager, rng)
    table.record(NoMoreBets())
    taken = [spec.name for spec in game.wagers if spec.taken is not None]
    if taken:  # into the table inventory container at once
        table.settle(wagers=taken)
    # A Pai Gow deck holds one joker (§ 561.3(a)): the rule set's card count says so.
    deck = table.deck = list(JOKER_DECK if getattr(ruleset, "cards_in_deck", 52) == 53
                             else STANDARD_DECK)  # fmt: skip
    rng.shuffle(deck)
    _stage(table, deck, irregularity, "before_deal")
    step = table.state.current
    if table.state.phase != "voided" and isinstance(step, Deal):
        for recipient, seat, spot in _deal_order(table.state, step):
            table.record(CardDealt(card=deck.pop(), recipient=recipient, seat=seat, spot=spot))
    if table.state.phase != "voided":
        del deck[len(deck) - game.dealing[dealing_method].discarded:]  # into the rack, unseen
        stub = StubCounted(stub_count=len(deck))
        if count_stub and can_apply(table.state, stub):
            table.record(stub)
        _stage(table, deck, irregularity, "after_deal")
    # A placeholder until a throw takes the wrong call (a round may end before any).
    calls = [InjectedError(error=CallError.WRONG_CALL, seat=0, wager="",
                           expected_finding=FindingKind.WRONG_CALL)
             for error in dealer_errors if error is CallError.WRONG_CALL][:1]  # fmt: skip
    if table.state.phase != "voided":
        _play_out(table, strategy or strategy_for(game), rng, play, calls, deck)
    else:
        table.settle()
    table.record(RoundClosed())
    called = tuple(call for call in calls if call.wager)
    events = list(table.events)
    settlement_errors = [error for error in dealer_errors
                         if not isinstance(error, CallError | DiceError)]  # fmt: skip
    injected = _inject(events, required_settlement(table.state), settlement_errors)
    if injected and not _accepted(game, events):
        # The mistake would be one the engine refuses to record (a collection
        # before the first decision of a void round, a winner paid before a
        # loser is collected): the settlement stays clean.
        events, injected = list(table.events), ()
    staging = list(events)
    staged = _dice_errors(table, staging, dice_errors)
    if staged and _accepted(game, staging):
        events = staging
    else:
        staged = ()
    return SimulatedRound(events=tuple(events), injected=(*injected, *staged, *called))


def misreadings_for(game: Game) -> Mapping[str, Misreading]:
    """The dealer's misreadings ``game`` offers: its module's ``MISREADINGS``, else its
    par sheet's (:class:`~tables.rules.declaration.Misreading`)."""
    from tables.rules import parsheets

    for module in (game_modules().get(game.id), parsheets.module(game.id)):
        own: Mapping[str, Misreading] | None = getattr(module, "MISREADINGS", None)
        if own is not None:
            return own
    return {}


def _hold(table: _Table, wager: str | None, rng: random.Random) -> None:
    """``wager`` placed at the first seat that takes it, unless a seat holds it already."""
    spec = table.state.game.wager(wager) if wager is not None else None
    if spec is None or any(wager in seat.wagers for seat in table.state.seats.values()):
        return
    for number, seat in sorted(table.state.seats.items()):
        for amount in _amounts(spec, seat, table.state.ruleset, Play().side_wagers_cents, rng):
            event = WagerPlaced(seat=number, wager=spec.name, amount_cents=amount)
            if can_apply(table.state, event):
                table.record(event)
                return


#: The finding a line settled the other way makes: a winner collected, a loser paid.
_MISREAD_FINDINGS = {
    (Outcome.WIN, Outcome.LOSE): FindingKind.WRONGFUL_COLLECTION,
    (Outcome.LOSE, Outcome.WIN): FindingKind.UNEXPECTED_PAYMENT,
}


def _misread(table: _Table, events: list[Event], error: DiceError,
             misreading: Misreading) -> list[InjectedError]:  # fmt: skip
    """Each line the misreading settles the other way, its dealer actions replaced in place
    (where the right ones were), in the order of the required settlement."""
    required = {(line.seat, line.wager): line for line in required_settlement(table.state).lines}
    wrong: dict[tuple[int, str], SettlementLine] = {}
    for line in misreading.lines(table.state):
        key = (line.seat, line.wager)
        if (required[key].outcome, line.outcome) in _MISREAD_FINDINGS:
            wrong[key] = line
    acted = (DealerPaid, DealerCollected, WagerReturned)
    for key, line in wrong.items():
        at = [i for i, event in enumerate(events)
              if isinstance(event, acted) and (event.seat, event.wager) == key]  # fmt: skip
        for index in reversed(at):
            del events[index]
        events[at[0]:at[0]] = _settle_actions([line], set())
    return [InjectedError(error=error, seat=key[0], wager=key[1],
                          expected_finding=_MISREAD_FINDINGS[line.outcome, wrong[key].outcome])
            for key, line in required.items() if key in wrong]  # fmt: skip


def _dice_errors(table: _Table, events: list[Event],
                 errors: Sequence[DiceError]) -> tuple[InjectedError, ...]:  # fmt: skip
    """Alter ``events`` in place for each of ``errors`` the round allows; what was staged."""
    staged: list[InjectedError] = []
    for error, misreading in table.misread.items():
        if table.state.void_section is None:
            staged.extend(_misread(table, events, error, misreading))
    if DiceError.NO_ROLL_SETTLED in errors and table.no_roll_staged:
        for index, event in enumerate(events):
            if isinstance(event, WagerReturned):
                events[index] = DealerCollected(seat=event.seat, wager=event.wager,
                                                amount_cents=event.amount_cents)  # fmt: skip
                staged.append(InjectedError(error=DiceError.NO_ROLL_SETTLED, seat=event.seat,
                                            wager=event.wager,
                                            expected_finding=FindingKind.WRONGFUL_COLLECTION))
    state = table.state
    late = next((spec.name for spec in state.game.wagers if spec.closes is not None), None)
    if DiceError.LATE_WAGER_TAKEN in errors and late is not None and state.void_section is None:
        seat = next((seat for _, seat in sorted(state.seats.items())
                     if seat.wagers and late not in seat.wagers), None)  # fmt: skip
        if seat is not None:  # taken at the stake of the seat's first wager, as if equal
            taken = DealerCollected(seat=seat.seat, wager=late,
                                    amount_cents=next(iter(seat.wagers.values())))  # fmt: skip
            events.insert(len(events) - 1, taken)  # before round.closed
            staged.append(InjectedError(error=DiceError.LATE_WAGER_TAKEN, seat=seat.seat,
                                        wager=late, expected_finding=FindingKind.WRONG_WAGER))
    return tuple(staged)


def _accepted(game: Game, events: Sequence[Event]) -> bool:
    opened = events[0]
    assert isinstance(opened, RoundOpened)
    state = open_round(game, opened)
    for event in events[1:]:
        if not can_apply(state, event):
            return False
        state = apply(state, event)
    return True


#: The games whose hand-written simulators came before the declarations.
_HAND_WRITTEN: Mapping[str, Callable[..., SimulatedRound]] = {
    "criss_cross_poker": simulate_criss_cross,
    "double_cross_poker": simulate_double_cross,
}


def simulator_for(game_id: str) -> Callable[..., SimulatedRound]:
    """The simulator of ``game_id``: its hand-written one, a blackjack game's round from
    its shoe (:func:`tables.rules.blackjack_simulate.simulate_round`), else
    :func:`simulate_declared`.

    Each takes ``(rng, ruleset, *, seats, gaming_day, dealer_errors, irregularity)``.
    """
    if blackjack(game_id) is not None:
        return simulate_round
    return _HAND_WRITTEN.get(game_id, simulate_declared)


def errors_for(game_id: str) -> Sequence[enum.StrEnum]:
    """The dealer errors worth drawing for ``game_id``'s simulator: a blackjack game's own
    (:func:`tables.rules.blackjack_simulate.errors_of`); at a dice table a wrong
    call where the dice are called, a no-roll settled where a throw can void the round, a
    wager taken after its lock-out where one closes early, and the game's own misreadings
    (those it lets days draw: ``Misreading.drawn``).

    >>> errors_for("criss_cross_poker") == list(DealerError)
    True
    >>> [str(error) for error in errors_for("high_roll_dice")[-3:]]
    ['wrong_call', 'late_wager_taken', 'pip_tie_by_count_order']
    """
    if game_id in _HAND_WRITTEN:
        return list(DealerError)
    family = blackjack(game_id)
    if family is not None:
        return errors_of(family)
    game = declared(game_id)
    if game is None:
        return ANY_GAME_ERRORS
    throws = [step for step in game.steps if isinstance(step, Throw)]
    dice: list[CallError | DiceError] = []
    if any(step.call is not None for step in throws):
        dice.append(CallError.WRONG_CALL)
    if any(not remedy.rethrow for step in throws for remedy in step.no_rolls.values()):
        dice.append(DiceError.NO_ROLL_SETTLED)
    if throws and any(spec.closes is not None for spec in game.wagers):
        dice.append(DiceError.LATE_WAGER_TAKEN)
    own = misreadings_for(game)
    dice.extend(error for error in DiceError if error.value in own and own[error.value].drawn)
    return (*ANY_GAME_ERRORS, *dice)


def irregularities_of(game_id: str) -> Sequence[Irregularity]:
    """The irregularities worth staging for ``game_id``'s simulator."""
    if blackjack(game_id) is not None:
        return []  # the family's irregularities are events of its own (blackjack_irregularities)
    game = declared(game_id)
    if game_id in _HAND_WRITTEN or game is None:
        return list(Irregularity)
    return irregularities_for(game)
