"""A simulated blackjack table: its shoe stream and its rounds, with dealer errors planted.

:func:`simulate_table` deals rounds of a blackjack game from one shoe that spans
them (shuffled, cut, burned, collected at the cover card, as
:mod:`tables.rules.shoe_stream` records it), seats players who follow the game's optimal
total-dependent strategy (:func:`choose`), and has the dealer settle each round
as :func:`tables.rules.blackjack_round.required_settlement` says, except where an
error of :class:`DealerError` is asked for: the first round that gives it a
chance gets it, and :class:`Injected` says what replay must find. The engine
never invents a fact: the generator comes from outside, seeded.

>>> import random
>>> from tables.rules.blackjack_games.double_attack_blackjack_581 import GAME
>>> table = simulate_table(random.Random(7), GAME, rounds=3)
>>> [len(round_events) > 8 for round_events in table.rounds]
[True, True, True]
"""

from __future__ import annotations

import dataclasses
import datetime
import enum
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from tables.rules.blackjack import (
    BUST_IT,
    DOUBLE_ATTACK,
    MARKERS,
    PUSH_22,
    SECOND_CHANCE,
    SPLIT,
    BlackjackRules,
    card_value,
    hand_value,
    same_value,
)
from tables.rules.blackjack_declaration import BlackjackGame
from tables.rules.blackjack_hands import SeatHands
from tables.rules.blackjack_round import (
    apply,
    open_round,
    required_settlement,
    to_act,
)
from tables.rules.blackjack_state import BlackjackState
from tables.rules.blackjack_strategy import BUST, FIRST, MORE, ONE_CARD, RESPLIT, strategy
from tables.rules.blackjack_strategy import SPLIT as SPLIT_HAND
from tables.rules.cards import STANDARD_DECK, Card
from tables.rules.engine import Outcome, SettlementLine
from tables.rules.events import (
    CardDealt,
    CardExposed,
    DealerCollected,
    DealerPaid,
    DealingMethod,
    Decision,
    Event,
    NoMoreBets,
    Recipient,
    RoundClosed,
    RoundOpened,
    WagerPlaced,
)
from tables.rules.registry import blackjack
from tables.rules.replay import FindingKind
from tables.rules.shoe import Shoe, ShoePhase, shoe_spec
from tables.rules.shoe_stream import CardBurned, ShoeCollected, ShoeCut, ShoeOpened, ShoeShuffled
from tables.rules.simulate import DealerError as AnyGameError
from tables.rules.simulate import InjectedError, SimulatedRound

__all__ = ["DealerError", "Injected", "SimulatedTable", "choose", "raises", "simulate_table",
           "errors_of", "open_table", "simulate_round"]


class DealerError(enum.StrEnum):
    """A dealer's mistake the simulator can plant, and replay must find."""

    BLACKJACK_PAID_3_TO_2 = "blackjack_paid_3_to_2"
    """§ 581.12(a): a Blackjack paid 3 to 2 where it pays even money."""
    BUST_IT_ON_FOURTH_CARD = "bust_it_on_fourth_card"
    """§ 581.7(m)(2): Bust It paid when the dealer busted on his fourth card or later."""
    SPLIT_WRONG_DOUBLE_ATTACK_SHARE = "split_wrong_double_attack_share"
    """§ 581.11(a): a split hand settled for the Bet's share only, not the Double Attack's."""
    LAMMER_PAID_ON_DEALER_22 = "lammer_paid_on_dealer_22"
    """§ 590.7(n)(1): a Free Bet lammer paid when the dealer made 22."""
    DEALER_HITS_SOFT_17 = "dealer_hits_soft_17"
    """§ 5xx.7(n)/(l)/(o), 13(d): the dealer drew to a soft 17."""
    SECOND_CHANCE_NOT_SUBTRACTED = "second_chance_not_subtracted"
    """§ 591.7(l): the Second Chance card added to the busted total, not subtracted."""


@dataclass(frozen=True, slots=True)
class Injected:
    """A planted error: the round and what replay must find for it."""

    error: DealerError
    round_id: str
    findings: tuple[tuple[FindingKind, int, str], ...]


@dataclass(slots=True)
class SimulatedTable:
    """A table's shoe stream and rounds, in the order they happened, and the planted errors."""

    shoe_events: list[Event] = field(default_factory=list)
    rounds: list[list[Event]] = field(default_factory=list)
    #: Every event of the table in ledger order: the shoe's and the rounds', interleaved.
    merged: list[Event] = field(default_factory=list)
    injected: list[Injected] = field(default_factory=list)


def choose(seat: SeatHands, up: Card) -> tuple[str, int]:
    """The game's optimal total-dependent strategy (:mod:`tables.rules.blackjack_strategy`):
    the choice and the money it adds.

    The chart ranks every action at the hand's stage; the first the seat may take is
    taken (a pair past the split limit plays its total). Doubles are for the full
    original wagers (§ 581.10(a), § 590.10(a)(2), § 591.10(a)).
    """
    hand, rules = seat.hand, seat.rules
    cards = hand.cards
    hard = sum(card_value(card) for card in cards)
    ace = any(card_value(card) == 1 for card in cards)
    pair = 0
    if hand.value.busted:
        stage, ace = BUST, False  # a busted total counts every ace 1
    elif hand.doubled or (hand.aces_split and rules.split_aces_one_card):
        stage = ONE_CARD
    elif len(cards) == 2 and not hand.split:
        stage = FIRST
        pair = card_value(cards[0]) if same_value(*cards) else 0
    else:
        stage = SPLIT_HAND if len(cards) == 2 else MORE
    chart = strategy(rules)
    if stage == SPLIT_HAND and same_value(*cards):  # dealt its pair again (§ 5xx.11)
        again = chart.ranks.get((RESPLIT, hard, ace, card_value(cards[0]), card_value(up)))
        picked = _taken(seat, "P") if again and again[0] == "P" else None
        if picked is not None:
            return picked
    for letter in chart.ranking(stage, hard, ace, pair, card_value(up)):
        picked = _taken(seat, letter)
        if picked is not None:
            return picked
    return "stand", 0


def _taken(seat: SeatHands, letter: str) -> tuple[str, int] | None:
    """The decision ``letter`` names and its money, when the seat may take it."""
    hand = seat.hand
    if letter == "H":
        return ("hit", 0) if seat.can_hit() else None
    if letter == "S":
        return ("stand", 0) if seat.can_stand() else None
    if letter == "R":
        return ("surrender", 0) if seat.can_surrender() else None
    if letter == "C":
        amount = hand.money_cents
        return ("second_chance", amount) if seat.can_second_chance(amount) else None
    if letter == "D":
        amount = 0 if seat.free_double(hand) else seat.original_cents + seat.double_attack_cents
        return ("double", amount) if seat.can_double(amount) else None
    wager, amount = seat.split_wager(hand)
    amount = 0 if wager in MARKERS else amount
    return ("split", amount) if seat.can_split(amount) else None


def raises(rules: BlackjackRules, up: Card) -> bool:
    """§ 581.6(e), § 581.7(e): whether the strategy places the Double Attack Wager on ``up``."""
    return card_value(up) in strategy(rules).raise_on


class _Table:
    """One simulated table's shoe and its errors still to plant."""

    def __init__(self, rng: random.Random, game: BlackjackGame, errors: list[DealerError]) -> None:
        self.rng, self.game, self.pending = rng, game, list(errors)
        self.ruleset = game.rulesets[0]
        self.options: dict[str, Any] = {"decks": 6} if "decks" in {o.name for o in game.options} \
            else {}  # fmt: skip
        rules = self.ruleset.rules
        decks = self.options.get("decks", rules.decks)
        self.out = SimulatedTable()
        self.emit_shoe(ShoeOpened(ruleset_id=self.ruleset.id, decks=self.options.get("decks")))
        self.shoe = Shoe.opened(shoe_spec(rules.chapter, decks, two_batches=rules.two_batches))
        self.reshuffle()

    def emit_shoe(self, event: Event) -> None:
        self.out.shoe_events.append(event)
        self.out.merged.append(event)

    def reshuffle(self) -> None:
        if self.shoe.phase is not ShoePhase.COLLECTED:
            self.emit_shoe(ShoeCollected())
            self.shoe = self.shoe.collect()
        order = _cards(self.shoe.unaccounted)
        self.rng.shuffle(order)
        size = len(order)
        cut_at = self.rng.randrange(10, size - 9)
        cover_at = self.rng.randrange(size // 2, size - size // 4 + 1)
        self.emit_shoe(ShoeShuffled(order=tuple(order)))
        self.emit_shoe(ShoeCut(cut_at=cut_at, cover_at=cover_at))
        self.emit_shoe(CardBurned())
        self.shoe = self.shoe.shuffle(order).cut(cut_at, cover_at).burn()

    def card(self) -> Card:
        card = self.shoe.next_card
        assert card is not None, "the simulated shoe ran out mid-round"
        self.shoe = self.shoe.draw(card)
        return card


def _cards(counts: tuple[int, ...]) -> list[Card]:
    return [card for card in STANDARD_DECK for _ in range(counts[card.index])]


def simulate_table(
    rng: random.Random,
    game: BlackjackGame,
    *,
    rounds: int,
    seats: tuple[int, ...] = (1, 2, 3, 4, 5),
    errors: tuple[DealerError, ...] = (),
    table_id: str = "BJ-01",
    gaming_day: datetime.date = datetime.date(2016, 8, 1),
) -> SimulatedTable:
    """``rounds`` rounds of ``game`` at one table from one shoe, ``errors`` planted once each."""
    table = _Table(rng, game, list(errors))
    for number in range(1, rounds + 1):
        _round(table, f"{table_id}-{gaming_day:%Y%m%d}-{number}", seats, table_id, gaming_day)
    return table.out


def _round(table: _Table, round_id: str, seats: tuple[int, ...], table_id: str,
           gaming_day: datetime.date) -> list[Event]:  # fmt: skip
    """One round at ``table``: reshuffled first if the cover card came out last round."""
    if table.shoe.phase is ShoePhase.RESHUFFLE_DUE:
        table.reshuffle()
    opened = RoundOpened.build(
        round_id=round_id, game=table.game.id, ruleset_id=table.ruleset.id, table_id=table_id,
        gaming_day=gaming_day, seats=seats, players=tuple(f"player-{seat}" for seat in seats),
        dealing_method=DealingMethod.AUTOMATED_SHOE, **table.options,
    )  # fmt: skip
    events = _play(table, opened)
    table.out.rounds.append(events)
    table.out.merged.extend(events)
    table.shoe = table.shoe.end_round()
    return events


def _play(table: _Table, opened: RoundOpened) -> list[Event]:
    rng, game = table.rng, table.game
    events: list[Event] = [opened]
    state = open_round(game, opened)

    def emit(event: Event) -> None:
        nonlocal state
        state = apply(state, event)
        events.append(event)

    main = state.rules.main_wager
    for seat in opened.seats:
        stake = rng.choice((500, 1_000, 2_500))
        emit(WagerPlaced(seat=seat, wager=main, amount_cents=stake))
        for side in (BUST_IT, PUSH_22):
            if game.wager(side) is not None and rng.random() < 0.5:
                emit(WagerPlaced(seat=seat, wager=side, amount_cents=min(stake, 500)))
    emit(NoMoreBets())
    table.shoe = table.shoe.begin_round()
    for recipient, seat_number, spot in state.slots:
        card = table.card()
        emit(CardDealt(card=card, recipient=recipient, seat=seat_number, spot=spot,
                       face_up=not (recipient is Recipient.DEALER and spot == "2")))  # fmt: skip
        if recipient is Recipient.DEALER and spot == "1" and game.wager(DOUBLE_ATTACK):
            for number in opened.seats:  # § 581.7(e): seen the up card, raise where it pays
                if raises(state.rules, card):
                    stake = state.seats[number].wagers[main]
                    emit(WagerPlaced(seat=number, wager=DOUBLE_ATTACK, amount_cents=stake))
    while state.phase == "decisions":
        acting = to_act(state)
        assert acting is not None and acting.hands is not None
        hands = acting.hands
        if hands.can_card():
            hand = hands.hand
            spot = str(len(hand.cards) + 1)
            emit(CardDealt(card=table.card(), recipient=Recipient.PLAYER, seat=acting.seat,
                           spot=spot, hand=hands.active + 1, face_up=True))  # fmt: skip
            continue
        assert state.up_card is not None
        choice, amount = choose(hands, state.up_card)
        emit(Decision(seat=acting.seat, hand=hands.active + 1, choice=choice,
                      amount_cents=amount or None))  # fmt: skip
    if state.phase in ("dealer", "settlement"):
        emit(CardExposed(recipient=Recipient.DEALER, spot="2"))
    while state.phase == "dealer" and not required_settlement(state).complete:
        emit(CardDealt(card=table.card(), recipient=Recipient.DEALER,
                       spot=str(len(state.dealer) + 1), face_up=True))  # fmt: skip
    injected: list[Injected] = []
    if DealerError.DEALER_HITS_SOFT_17 in table.pending and state.phase == "dealer":
        value = hand_value(state.dealer)
        if value.soft and value.total == 17:
            emit(CardDealt(card=table.card(), recipient=Recipient.DEALER,
                           spot=str(len(state.dealer) + 1), face_up=True))  # fmt: skip
            table.pending.remove(DealerError.DEALER_HITS_SOFT_17)
            finding = (FindingKind.DEALER_PROCEDURE, 0, "dealer")
            injected.append(Injected(DealerError.DEALER_HITS_SOFT_17, opened.round_id, (finding,)))
    settlement = required_settlement(state)
    assert settlement.complete
    for line in settlement.lines:
        actions, planted = _settle(table, state, line)
        for action in actions:
            emit(action)
        if planted is not None:
            injected.append(Injected(planted[0], opened.round_id, planted[1]))
    emit(RoundClosed())
    table.out.injected.extend(injected)
    return events


def _correct(line: SettlementLine) -> list[Event]:
    if line.outcome is Outcome.WIN:
        return [DealerPaid(seat=line.seat, hand=line.hand_index, wager=line.wager,
                           amount_cents=line.amount_cents)]  # fmt: skip
    if line.outcome in (Outcome.LOSE, Outcome.FORFEITED) and line.amount_cents:
        return [DealerCollected(seat=line.seat, hand=line.hand_index, wager=line.wager,
                                amount_cents=line.amount_cents)]  # fmt: skip
    return []


Planted = tuple[DealerError, tuple[tuple[FindingKind, int, str], ...]]


def _settle(
    table: _Table, state: BlackjackState, line: SettlementLine
) -> tuple[list[Event], Planted | None]:
    """The dealer's actions for ``line``, with the first pending error it gives a chance to."""
    pending, seat = table.pending, state.seats[line.seat]

    def planted(error: DealerError, actions: list[Event],
                kind: FindingKind) -> tuple[list[Event], Planted]:  # fmt: skip
        pending.remove(error)
        return actions, (error, ((kind, line.seat, line.wager),))

    def paid(amount: int) -> list[Event]:
        return [DealerPaid(seat=line.seat, hand=line.hand_index, wager=line.wager,
                           amount_cents=amount)]  # fmt: skip

    error = DealerError.BLACKJACK_PAID_3_TO_2
    if error in pending and line.outcome is Outcome.WIN and line.odds == "1 to 1" and (
            line.section == state.rules.section("player_blackjack")):  # fmt: skip
        return planted(error, paid(int(Fraction(3, 2) * line.stake_cents)),
                       FindingKind.MISPAID_AMOUNT)  # fmt: skip
    error = DealerError.BUST_IT_ON_FOURTH_CARD
    dealer = state.dealer
    if error in pending and line.wager == BUST_IT and len(dealer) >= 4 and (
            hand_value(dealer).busted and hand_value(dealer[:3]).total <= 21):  # fmt: skip
        return planted(error, paid(3 * line.stake_cents), FindingKind.UNEXPECTED_PAYMENT)
    error = DealerError.SPLIT_WRONG_DOUBLE_ATTACK_SHARE
    if error in pending and line.wager == SPLIT and line.outcome is Outcome.WIN and (
            seat.wagers.get(DOUBLE_ATTACK)):  # fmt: skip
        return planted(error, paid(seat.wagers[state.rules.main_wager]),
                       FindingKind.MISPAID_AMOUNT)  # fmt: skip
    error = DealerError.LAMMER_PAID_ON_DEALER_22
    if error in pending and line.wager in MARKERS and hand_value(dealer).total == 22:
        return planted(error, paid(line.stake_cents), FindingKind.UNEXPECTED_PAYMENT)
    error = DealerError.SECOND_CHANCE_NOT_SUBTRACTED
    hands = seat.hands
    if error in pending and line.wager == SECOND_CHANCE and hands is not None and (
            line.outcome is not Outcome.LOSE):  # fmt: skip
        # The dealer counted the card onto the busted total: he takes both wagers of the hand.
        pending.remove(error)
        hand = hands.hands[line.hand_index - 1]
        actions: list[Event] = [
            DealerCollected(seat=line.seat, hand=line.hand_index, wager=name, amount_cents=amount)
            for name, amount in hand.stakes
        ]
        # The hand's Blackjack Wager line came first and pushed (no action): both are wrong now.
        findings = tuple((FindingKind.WRONGFUL_COLLECTION, line.seat, name)
                         for name, _ in hand.stakes)  # fmt: skip
        return actions, (error, findings)
    return _correct(line), None


def open_table(rng: random.Random, game: BlackjackGame) -> _Table:
    """A simulated table with its shoe shuffled, cut and burned, for :func:`simulate_round`."""
    return _Table(rng, game, [])


def errors_of(game: BlackjackGame) -> tuple[AnyGameError | DealerError, ...]:
    """The errors worth drawing for ``game``: a mispaid win, and those of its own rules."""
    own = [DealerError.DEALER_HITS_SOFT_17]
    if game.wager(DOUBLE_ATTACK) is not None:
        own += [DealerError.BLACKJACK_PAID_3_TO_2, DealerError.SPLIT_WRONG_DOUBLE_ATTACK_SHARE]
    if game.wager(BUST_IT) is not None:
        own.append(DealerError.BUST_IT_ON_FOURTH_CARD)
    if any(spec.name in MARKERS for spec in game.wagers):
        own.append(DealerError.LAMMER_PAID_ON_DEALER_22)
    if game.wager(SECOND_CHANCE) is not None:
        own.append(DealerError.SECOND_CHANCE_NOT_SUBTRACTED)
    return (AnyGameError.MISPAY_FIRST_WIN, *own)


def simulate_round(
    rng: random.Random,
    ruleset: Any,
    *,
    seats: tuple[int, ...],
    gaming_day: datetime.date,
    dealer_errors: Sequence[Any] = (),
    irregularity: Any = None,
    table: _Table | None = None,
) -> SimulatedRound:
    """One round of ``ruleset``'s game in the product's simulator signature
    (:func:`tables.rules.simulate_declared.simulator_for`): at ``table`` (from
    :func:`open_table`, its shoe carried from round to round) or from a fresh shoe.

    ``dealer_errors``: this family's :class:`DealerError` values, and the any-game
    ``MISPAY_FIRST_WIN`` (the first payment a dollar over). ``irregularity`` is not
    staged here: the family's irregularities are replayed from their own events.
    """
    own = [error for error in dealer_errors if isinstance(error, DealerError)]
    if table is None:
        game = blackjack(ruleset.game)
        assert game is not None, f"{ruleset.game} is not a blackjack game"
        table = _Table(rng, game, [])
    table.rng, table.pending = rng, own
    already = len(table.out.injected)
    events = _round(table, f"SIM-{gaming_day:%Y%m%d}-{len(table.out.rounds) + 1}", seats, "SIM",
                    gaming_day)  # fmt: skip
    injected = [InjectedError(error=one.error, seat=seat, wager=wager, expected_finding=kind)
                for one in table.out.injected[already:]
                for kind, seat, wager in one.findings]  # fmt: skip
    if AnyGameError.MISPAY_FIRST_WIN in dealer_errors:
        planted = {(one.seat, one.wager) for one in injected}
        for index, event in enumerate(events):
            if isinstance(event, DealerPaid) and (event.seat, event.wager) not in planted:
                events[index] = dataclasses.replace(event, amount_cents=event.amount_cents + 100)
                injected.append(InjectedError(
                    error=AnyGameError.MISPAY_FIRST_WIN, seat=event.seat, wager=event.wager,
                    expected_finding=FindingKind.MISPAID_AMOUNT))  # fmt: skip
                break
    return SimulatedRound(events=tuple(events), injected=tuple(injected))
