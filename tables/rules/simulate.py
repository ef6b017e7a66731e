"""Generate realistic, legal round streams from a seeded generator passed in.

The engine itself never draws a card; this module does, with the
``random.Random`` the caller supplies, and writes down what a table would
record: wagers, cards by position, decisions, reveals and the dealer's pays,
collections and returns (correct ones, computed with the engine's own
settlement). Optional :class:`DealerError` values inject one dealer mistake
and report the finding replay must produce; optional irregularities exercise
the remedies of § .13 / Section 12.

Stated strategy (:class:`Strategy`): every decision folds with probability
``fold_percent`` %, otherwise bets ``bet_multiple`` times the Ante (Criss-Cross;
a hole pair bets ``pair_bet_multiple``) or plays the alignment whose revealed
card is higher (Double Cross). Side wagers are made with probability
``side_wager_percent`` %; a qualifying three-card hand is exposed.

>>> import random
>>> from tables.rules.rulesets import PA_674A_2019
>>> round_ = simulate_criss_cross(random.Random(7), PA_674A_2019, seats=(1, 2, 3))
>>> round_.events[0].TYPE, round_.events[-1].TYPE
('round.opened', 'round.closed')
"""

from __future__ import annotations

import datetime
import enum
import random
from collections.abc import Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from typing import Protocol

from tables.rules.cards import STANDARD_DECK, Card
from tables.rules.engine import Outcome, Settlement, SettlementLine
from tables.rules.events import (
    Alignment,
    CardDealt,
    CardExposed,
    DealerCollected,
    DealerPaid,
    DealingMethod,
    Event,
    IrregularityKind,
    IrregularityReported,
    NoMoreBets,
    PlayDeclared,
    PlayerFolded,
    Position,
    Recipient,
    RoundClosed,
    RoundOpened,
    StubCounted,
    ThreeCardElection,
    Wager,
    WagerPlaced,
    WagerReturned,
)
from tables.rules.hands import evaluate_three
from tables.rules.replay import FindingKind, replay
from tables.rules.rulesets import CrissCrossRuleSet, DoubleCrossRuleSet

__all__ = [
    "Strategy",
    "DealerError",
    "SettlementError",
    "CallError",
    "DiceError",
    "Irregularity",
    "InjectedError",
    "SimulatedRound",
    "simulate_criss_cross",
    "simulate_double_cross",
]


@dataclass(frozen=True, slots=True, kw_only=True)
class Strategy:
    """A simple stated playing strategy (percentages are whole numbers)."""

    fold_percent: int = 10
    bet_multiple: int = 1
    pair_bet_multiple: int = 3
    side_wager_percent: int = 50
    antes_cents: tuple[int, ...] = (500, 1000, 2500)
    side_wagers_cents: tuple[int, ...] = (100, 500, 2500)


class DealerError(enum.StrEnum):
    """One dealer mistake to inject into the recorded settlement."""

    MISPAY_FIRST_WIN = "mispay_first_win"
    MISPAY_STRAIGHT = "mispay_straight"
    PAY_PAIR_OF_TENS = "pay_pair_of_tens"
    MISS_FOLD_COLLECTION = "miss_fold_collection"
    PAY_A_LOSER = "pay_a_loser"


class SettlementError(enum.StrEnum):
    """A dealer mistake any game's settlement can show: each gives one finding of its kind.

    Kept apart from :class:`DealerError` (whose members the seeded golden rounds
    enumerate) so that adding one changes no stored digest.
    """

    MISS_A_PAYMENT = "miss_a_payment"
    COLLECT_A_WINNER = "collect_a_winner"
    MISS_A_COLLECTION = "miss_a_collection"
    COLLECT_SHORT = "collect_short"
    COLLECT_A_PUSH = "collect_a_push"
    PAY_A_PUSH = "pay_a_push"


class CallError(enum.StrEnum):
    """A dealer mistake in announcing a throw of the dice: the settlement still follows
    the faces, and replay finds the call (``WRONG_CALL``)."""

    WRONG_CALL = "wrong_call"


class DiceError(enum.StrEnum):
    """A dealer mistake at a dice table, staged where the declaration allows it."""

    #: A throw that does not count and returns every wager (§ 585.3(f)-(g)) settled
    #: anyway: each wager collected instead of returned.
    NO_ROLL_SETTLED = "no_roll_settled"
    #: A wager the electronic system refused after its lock-out (§ 593.1(c)(2)) taken
    #: by the dealer anyway: collected from a seat that never placed it.
    LATE_WAGER_TAKEN = "late_wager_taken"
    #: A High Roll Dice first roll whose top count is tied settled on the face counted
    #: first from the ace up instead of the higher rank (§ 593.2(e)(1)): the Pip Street
    #: Wager on the right face collected, the one on the other face paid (the call and
    #: the face kept for the extra roll stay right).
    PIP_TIE_BY_COUNT_ORDER = "pip_tie_by_count_order"
    #: Ten of a kind paid on Millionaire Row's nine circle where it does not win on ten
    #: (§ 593.2(e)(4), the ``nine_wins_on_ten`` reading).
    NINE_PAID_ON_TEN = "nine_paid_on_ten"


class Irregularity(enum.StrEnum):
    """An irregularity to stage during the deal."""

    ONE_CARD_FACE_UP = "one_card_face_up"
    TWO_CARDS_FACE_UP = "two_cards_face_up"
    COMMUNITY_EXPOSED_EARLY = "community_exposed_early"
    SHOE_JAM = "shoe_jam"


@dataclass(frozen=True, slots=True, kw_only=True)
class InjectedError:
    """A mistake that was injected, and the finding it must produce."""

    #: One of this module's errors, or a game family's own (the blackjack simulator's).
    error: enum.StrEnum
    seat: int
    wager: str
    expected_finding: FindingKind


@dataclass(frozen=True, slots=True, kw_only=True)
class SimulatedRound:
    """The events of one simulated round and any injected mistakes."""

    events: tuple[Event, ...]
    injected: tuple[InjectedError, ...] = ()


def _pct(rng: random.Random, percent: int) -> bool:
    return rng.randrange(100) < percent


def _settle_actions(
    lines: Sequence[SettlementLine], skip: AbstractSet[tuple[int, str]]
) -> list[Event]:
    actions: list[Event] = []
    for line in lines:
        if (line.seat, line.wager) in skip:
            continue
        if line.outcome is Outcome.WIN and line.amount_cents:
            actions.append(
                DealerPaid(seat=line.seat, wager=line.wager, amount_cents=line.amount_cents)
            )
        elif line.outcome in (Outcome.LOSE, Outcome.FORFEITED):
            actions.append(
                DealerCollected(seat=line.seat, wager=line.wager, amount_cents=line.amount_cents)
            )
        elif line.outcome in (Outcome.PUSH, Outcome.RETURNED):
            actions.append(
                WagerReturned(seat=line.seat, wager=line.wager, amount_cents=line.amount_cents)
            )
    return actions


def _inject(
    events: list[Event], settlement: Settlement, errors: Sequence[DealerError | SettlementError]
) -> tuple[InjectedError, ...]:
    """Alter the recorded dealer actions in ``events`` in place; report what changed."""
    injected: list[InjectedError] = []
    for error in errors:
        for index, event in enumerate(events):
            change = _injection(error, event, settlement)
            if change is not None:
                replacement, finding = change
                if replacement is None:
                    del events[index]
                else:
                    events[index] = replacement
                seat, wager = event.seat, event.wager  # type: ignore[attr-defined]
                injected.append(
                    InjectedError(error=error, seat=seat, wager=wager, expected_finding=finding)
                )
                break
    return tuple(injected)


def _injection(
    error: DealerError | SettlementError, event: Event, settlement: Settlement
) -> tuple[Event | None, FindingKind] | None:
    if not isinstance(event, DealerPaid | DealerCollected | WagerReturned):
        return None
    line = settlement.line(event.seat, event.wager)
    if line is None:
        return None
    if isinstance(error, SettlementError):
        return _settlement_error(error, event, line)
    if error is DealerError.MISPAY_FIRST_WIN and isinstance(event, DealerPaid):
        return DealerPaid(
            seat=event.seat, wager=event.wager, amount_cents=event.amount_cents + 100
        ), FindingKind.MISPAID_AMOUNT
    if (
        error is DealerError.MISPAY_STRAIGHT
        and isinstance(event, DealerPaid)
        and line.pay_line == "Straight"
        and line.stake_cents * 4 != event.amount_cents
    ):
        return DealerPaid(
            seat=event.seat, wager=event.wager, amount_cents=line.stake_cents * 4
        ), FindingKind.MISPAID_AMOUNT
    if (
        error is DealerError.PAY_PAIR_OF_TENS
        and isinstance(event, WagerReturned)
        and line.outcome is Outcome.PUSH
        and line.hand is not None
        and line.wager in (Wager.ACROSS_BET, Wager.DOWN_BET, Wager.MIDDLE_BET)
        and line.pay_line == "Pair of 6s through 10s"
        and _pair_of_tens(line.hand)
    ):
        return DealerPaid(
            seat=event.seat, wager=event.wager, amount_cents=line.stake_cents
        ), FindingKind.UNEXPECTED_PAYMENT
    if (
        error is DealerError.MISS_FOLD_COLLECTION
        and isinstance(event, DealerCollected)
        and line.outcome is Outcome.FORFEITED
    ):
        return None, FindingKind.MISSED_COLLECTION
    if (
        error is DealerError.PAY_A_LOSER
        and isinstance(event, DealerCollected)
        and line.outcome is Outcome.LOSE
    ):
        return DealerPaid(
            seat=event.seat, wager=event.wager, amount_cents=line.stake_cents
        ), FindingKind.UNEXPECTED_PAYMENT
    return None


def _settlement_error(
    error: SettlementError,
    event: DealerPaid | DealerCollected | WagerReturned,
    line: SettlementLine,
) -> tuple[Event | None, FindingKind] | None:
    """The recorded action ``error`` turns ``event`` into, and the finding replay must make."""
    seat, wager, amount = event.seat, event.wager, event.amount_cents
    win, push = line.outcome is Outcome.WIN, line.outcome in (Outcome.PUSH, Outcome.RETURNED)
    lost = line.outcome in (Outcome.LOSE, Outcome.FORFEITED)
    paid, collected = isinstance(event, DealerPaid), isinstance(event, DealerCollected)
    returned = isinstance(event, WagerReturned)
    if error is SettlementError.MISS_A_PAYMENT and paid and win:
        return None, FindingKind.MISSING_PAYMENT
    if error is SettlementError.COLLECT_A_WINNER and paid and win:
        collect = DealerCollected(seat=seat, wager=wager, amount_cents=line.stake_cents)
        return collect, FindingKind.WRONGFUL_COLLECTION
    if error is SettlementError.MISS_A_COLLECTION and collected and lost:
        return None, FindingKind.MISSED_COLLECTION
    if error is SettlementError.COLLECT_SHORT and collected and lost and amount > 100:
        short = DealerCollected(seat=seat, wager=wager, amount_cents=amount - 100)
        return short, FindingKind.WRONG_COLLECTION_AMOUNT
    if error is SettlementError.COLLECT_A_PUSH and returned and push:
        return DealerCollected(seat=seat, wager=wager, amount_cents=amount), (
            FindingKind.WRONGFUL_COLLECTION)  # fmt: skip
    if error is SettlementError.PAY_A_PUSH and returned and push:
        return DealerPaid(seat=seat, wager=wager, amount_cents=amount), (
            FindingKind.UNEXPECTED_PAYMENT)  # fmt: skip
    return None


def _pair_of_tens(hand_text: str) -> bool:
    cards = hand_text.split(" (")[0].split()
    return sum(1 for card in cards if card[0] == "T") >= 2


def _opened(
    rng: random.Random,
    ruleset: CrissCrossRuleSet | DoubleCrossRuleSet,
    seats: Sequence[int],
    gaming_day: datetime.date | None,
    dealing_method: DealingMethod,
    **options: object,
) -> RoundOpened:
    day = gaming_day or ruleset.effective_from or datetime.date(2020, 1, 1)
    return RoundOpened.build(
        round_id=f"sim-{rng.getrandbits(48):012x}",
        game=ruleset.game,
        ruleset_id=ruleset.id,
        table_id="SIM-1",
        gaming_day=day,
        seats=tuple(seats),
        players=tuple(f"P{seat}" for seat in seats),
        dealing_method=dealing_method,
        **options,
    )


def _void_tail(events: list[Event]) -> list[Event]:
    result = replay(events)
    return [*_settle_actions(result.settlement.lines, set()), RoundClosed()]


def _deal_irregularity(
    events: list[Event], deck: list[Card], irregularity: Irregularity | None
) -> bool:
    """Stage an irregularity found while dealing; return True when it voids the round."""
    if irregularity in (Irregularity.ONE_CARD_FACE_UP, Irregularity.TWO_CARDS_FACE_UP):
        count = 1 if irregularity is Irregularity.ONE_CARD_FACE_UP else 2
        for _ in range(count):
            events.append(
                IrregularityReported(kind=IrregularityKind.CARD_FACE_UP_IN_DECK, card=deck.pop())
            )
        return count > 1
    if irregularity is Irregularity.SHOE_JAM:
        events.append(IrregularityReported(kind=IrregularityKind.SHOE_MALFUNCTION))
        return True
    return False


def simulate_criss_cross(
    rng: random.Random,
    ruleset: CrissCrossRuleSet,
    *,
    seats: Sequence[int] = (1, 2, 3),
    strategy: Strategy = Strategy(),
    gaming_day: datetime.date | None = None,
    five_card_bonus_offered: bool = True,
    payout_limit_cents: int | None = None,
    count_stub: bool = False,
    dealer_errors: Sequence[DealerError] = (),
    irregularity: Irregularity | None = None,
    player: CrissCrossPlayer | None = None,
    mistake_percent: int = 0,
) -> SimulatedRound:
    """Simulate one legal Criss-Cross round (Chapter 592 or 674a).

    With a ``player`` (the par sheet's :class:`tables.rules.parsheet.CrissCrossOptimal`)
    each seat folds or bets as that strategy says, except that at each decision
    it errs ``mistake_percent`` of the time (``_MISTAKE``); without
    one, it folds and bets as the simple ``strategy`` says.
    """
    events: list[Event] = [
        _opened(
            rng,
            ruleset,
            seats,
            gaming_day,
            DealingMethod.MANUAL_SHOE,
            five_card_bonus_offered=five_card_bonus_offered,
            payout_limit_cents=payout_limit_cents,
        )
    ]
    antes: dict[int, int] = {}
    for seat in seats:
        ante = rng.choice(strategy.antes_cents)
        antes[seat] = ante
        events.append(WagerPlaced(seat=seat, wager=Wager.ANTE_ACROSS, amount_cents=ante))
        events.append(WagerPlaced(seat=seat, wager=Wager.ANTE_DOWN, amount_cents=ante))
        if five_card_bonus_offered and _pct(rng, strategy.side_wager_percent):
            events.append(
                WagerPlaced(
                    seat=seat,
                    wager=Wager.FIVE_CARD_BONUS,
                    amount_cents=rng.choice(strategy.side_wagers_cents),
                )
            )
    events.append(NoMoreBets())
    deck = list(STANDARD_DECK)
    rng.shuffle(deck)
    if _deal_irregularity(events, deck, irregularity):
        return SimulatedRound(events=(*events, *_void_tail(events)))
    community: dict[Position, Card] = {}
    for position in (
        Position.TOP,
        Position.ROW_1,
        Position.CENTER,
        Position.ROW_3,
        Position.BOTTOM,
    ):
        community[position] = deck.pop()
        events.append(
            CardDealt(card=community[position], recipient=Recipient.COMMUNITY, spot=position)
        )
    holes: dict[int, list[Card]] = {seat: [] for seat in seats}
    for hole in (1, 2):
        for seat in sorted(seats):
            holes[seat].append(deck.pop())
            events.append(
                CardDealt(
                    card=holes[seat][-1], recipient=Recipient.PLAYER, seat=seat, spot=str(hole)
                )
            )
    if count_stub:
        events.append(StubCounted(stub_count=len(deck)))
    if irregularity is Irregularity.COMMUNITY_EXPOSED_EARLY:
        events.append(
            IrregularityReported(
                kind=IrregularityKind.COMMUNITY_CARD_EXPOSED_EARLY, spot=Position.CENTER
            )
        )
        return SimulatedRound(events=(*events, *_void_tail(events)))
    active = sorted(seats)
    placed: dict[int, list[Wager]] = {seat: [Wager.ANTE_ACROSS, Wager.ANTE_DOWN] for seat in seats}
    collected: set[tuple[int, Wager]] = set()
    steps = (
        (Wager.ACROSS_BET, (Position.ROW_1, Position.ROW_3)),
        (Wager.DOWN_BET, (Position.TOP, Position.BOTTOM)),
        (Wager.MIDDLE_BET, (Position.CENTER,)),
    )
    chosen: dict[int, list[int]] = {seat: [] for seat in seats}
    for wager, reveal in steps:
        for seat in list(active):
            multiple = None
            if player is not None:
                multiple = _decide(player, wager, holes[seat], community, chosen[seat])
                if _pct(rng, mistake_percent):
                    multiple = _MISTAKE[multiple]
                chosen[seat].append(multiple)
            if multiple == 0 or (multiple is None and _pct(rng, strategy.fold_percent)):
                events.append(PlayerFolded(seat=seat))
                active.remove(seat)
                for lost in placed[seat]:
                    amount = antes[seat] if lost in (Wager.ANTE_ACROSS, Wager.ANTE_DOWN) else None
                    stake = amount or _stake(events, seat, lost)
                    events.append(DealerCollected(seat=seat, wager=lost, amount_cents=stake))
                    collected.add((seat, lost))
                continue
            if multiple is None:
                paired = holes[seat][0].rank == holes[seat][1].rank
                multiple = strategy.pair_bet_multiple if paired else strategy.bet_multiple
            events.append(WagerPlaced(seat=seat, wager=wager, amount_cents=multiple * antes[seat]))
            placed[seat].append(wager)
        for position in reveal:
            events.append(
                CardExposed(recipient=Recipient.COMMUNITY, spot=position, card=community[position])
            )
    settlement = replay(events).settlement
    for seat in sorted(seats, reverse=True):
        if seat in active:
            for hole in (1, 2):
                events.append(
                    CardExposed(
                        recipient=Recipient.PLAYER,
                        seat=seat,
                        spot=str(hole),
                        card=holes[seat][hole - 1],
                    )
                )
        events.extend(
            _settle_actions([line for line in settlement.lines if line.seat == seat], collected)
        )
    events.append(RoundClosed())
    injected = _inject(events, settlement, dealer_errors)
    return SimulatedRound(events=tuple(events), injected=injected)


class CrissCrossPlayer(Protocol):
    """A Criss-Cross playing strategy: each Bet's multiple of the ante, 0 to fold."""

    def across(self, hole: Sequence[Card]) -> int: ...

    def down(self, hole: Sequence[Card], row_1: Card, row_3: Card, across: int) -> int: ...

    def middle(self, hole: Sequence[Card], row_1: Card, row_3: Card, top: Card, bottom: Card,
               across: int, down: int) -> int: ...  # fmt: skip


#: A player's mistake at a Bet: 1x where the strategy says 3x and 3x where it
#: says 1x, playing on where it says fold (a player rarely folds by mistake).
_MISTAKE = {0: 1, 1: 3, 3: 1}


def _decide(player: CrissCrossPlayer, wager: Wager, hole: Sequence[Card],
            community: dict[Position, Card], made: Sequence[int]) -> int:  # fmt: skip
    """The player's multiple at this Bet (§ .11(b), (d), (f)), given the cards it has seen."""
    if wager is Wager.ACROSS_BET:
        return player.across(hole)
    row_1, row_3 = community[Position.ROW_1], community[Position.ROW_3]
    if wager is Wager.DOWN_BET:
        return player.down(hole, row_1, row_3, made[0])
    return player.middle(hole, row_1, row_3, community[Position.TOP],
                         community[Position.BOTTOM], made[0], made[1])  # fmt: skip


def _stake(events: Sequence[Event], seat: int, wager: Wager) -> int:
    for event in reversed(events):
        if isinstance(event, WagerPlaced) and event.seat == seat and event.wager == wager:
            return event.amount_cents
    raise LookupError(f"seat {seat} has no {wager}")


def simulate_double_cross(
    rng: random.Random,
    ruleset: DoubleCrossRuleSet,
    *,
    seats: Sequence[int] = (1, 2, 3),
    strategy: Strategy = Strategy(),
    gaming_day: datetime.date | None = None,
    payout_limit_cents: int | None = None,
    dealer_errors: Sequence[DealerError] = (),
    irregularity: Irregularity | None = None,
) -> SimulatedRound:
    """Simulate one legal Double Cross round."""
    events: list[Event] = [
        _opened(
            rng,
            ruleset,
            seats,
            gaming_day,
            DealingMethod.MANUAL_SHOE,
            payout_limit_cents=payout_limit_cents,
        )
    ]
    antes: dict[int, int] = {}
    for seat in seats:
        antes[seat] = rng.choice(strategy.antes_cents)
        events.append(WagerPlaced(seat=seat, wager=Wager.ANTE, amount_cents=antes[seat]))
        if _pct(rng, strategy.side_wager_percent):
            events.append(
                WagerPlaced(
                    seat=seat,
                    wager=Wager.THREE_CARD,
                    amount_cents=rng.choice(strategy.side_wagers_cents),
                )
            )
    events.append(NoMoreBets())
    deck = list(STANDARD_DECK)
    rng.shuffle(deck)
    if _deal_irregularity(events, deck, irregularity):
        return SimulatedRound(events=(*events, *_void_tail(events)))
    holes: dict[int, tuple[Card, Card]] = {}
    for seat in sorted(seats):
        holes[seat] = (deck.pop(), deck.pop())
        for hole in (1, 2):
            events.append(
                CardDealt(
                    card=holes[seat][hole - 1],
                    recipient=Recipient.PLAYER,
                    seat=seat,
                    spot=str(hole),
                )
            )
    dealer = (deck.pop(), deck.pop())
    for hole in (1, 2):
        events.append(CardDealt(card=dealer[hole - 1], recipient=Recipient.DEALER, spot=str(hole)))
    community: dict[Position, Card] = {}
    for position in (
        Position.ROW_1,
        Position.CENTER,
        Position.ROW_3,
        Position.TOP,
        Position.BOTTOM,
    ):
        community[position] = deck.pop()
        events.append(
            CardDealt(card=community[position], recipient=Recipient.COMMUNITY, spot=position)
        )
    for position in (Position.TOP, Position.ROW_3):
        events.append(
            CardExposed(recipient=Recipient.COMMUNITY, spot=position, card=community[position])
        )
    three_card_seats = [
        event.seat
        for event in events
        if isinstance(event, WagerPlaced) and event.wager == Wager.THREE_CARD
    ]
    for seat in three_card_seats:
        hand = evaluate_three([*holes[seat], community[Position.TOP]])
        qualifies = any(line.matches(hand.category, None) for line in ruleset.three_card_table)
        events.append(ThreeCardElection(seat=seat, expose=qualifies))
    settled: set[tuple[int, Wager]] = set()
    if three_card_seats:
        early = replay(events).settlement
        events.extend(_settle_actions(early.lines, settled))
        settled.update((seat, Wager.THREE_CARD) for seat in three_card_seats)
    active: list[int] = []
    for seat in sorted(seats):
        if _pct(rng, strategy.fold_percent):
            events.append(PlayerFolded(seat=seat))
            events.append(DealerCollected(seat=seat, wager=Wager.ANTE, amount_cents=antes[seat]))
            settled.add((seat, Wager.ANTE))
            continue
        top, right = community[Position.TOP], community[Position.ROW_3]
        alignment = Alignment.VERTICAL if top.rank >= right.rank else Alignment.HORIZONTAL
        events.append(
            PlayDeclared(
                seat=seat,
                alignment=alignment,
                raise_1_cents=antes[seat],
                raise_2_cents=antes[seat],
                spoken_alignment=alignment,
            )
        )
        active.append(seat)
    for position in (Position.ROW_1, Position.CENTER, Position.BOTTOM):
        events.append(
            CardExposed(recipient=Recipient.COMMUNITY, spot=position, card=community[position])
        )
    for hole in (1, 2):
        events.append(
            CardExposed(recipient=Recipient.DEALER, spot=str(hole), card=dealer[hole - 1])
        )
    settlement = replay(events).settlement
    for seat in sorted(active, reverse=True):
        for hole in (1, 2):
            events.append(
                CardExposed(
                    recipient=Recipient.PLAYER,
                    seat=seat,
                    spot=str(hole),
                    card=holes[seat][hole - 1],
                )
            )
        events.extend(
            _settle_actions([line for line in settlement.lines if line.seat == seat], settled)
        )
    events.append(RoundClosed())
    injected = _inject(events, settlement, dealer_errors)
    return SimulatedRound(events=tuple(events), injected=injected)
