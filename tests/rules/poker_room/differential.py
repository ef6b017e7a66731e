"""Random hands of our machine, replayed in pokerkit (a test dependency) to compare results.

:func:`~tables.rules.poker_room.simulate.random_hand` plays one hand with
random legal actions and short stacks (so all-ins and side pots are common),
here with no rake (:func:`rule_set`). :func:`in_pokerkit`
feeds the same cards and actions to a pokerkit ``State`` built for the same
game and returns each seat's result there. Seats map to pokerkit's player
indices clockwise from the left of the button (pokerkit's button is its last
player), or from the dealer's left in stud.
"""

from __future__ import annotations

import warnings

from pokerkit import (
    Automation,
    BettingStructure,
    Deck,
    EightOrBetterLowHand,
    Mode,
    OmahaEightOrBetterLowHand,
    OmahaHoldemHand,
    Opening,
    RegularLowHand,
    StandardHighHand,
    State,
    Street,
)
from pokerkit import Card as PkCard

from tables.rules.poker_room.events import (
    Acted,
    Action,
    CardBurnt,
    CardDealt,
    Discarded,
    HandOpened,
    Posted,
)
from tables.rules.poker_room.hand import PostKind
from tables.rules.poker_room.record import Recorder
from tables.rules.poker_room.rules import (
    LowRule,
    OddChipHighOnly,
    Opener,
    PokerRuleSet,
    Structure,
    Variant,
)
from tables.rules.poker_room.settlement import LineKind

_AUTOMATIONS = (
    Automation.ANTE_POSTING, Automation.BET_COLLECTION, Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.RUNOUT_COUNT_SELECTION,
    Automation.HOLE_CARDS_SHOWING_OR_MUCKING, Automation.HAND_KILLING, Automation.CHIPS_PUSHING,
    Automation.CHIPS_PULLING,
)  # fmt: skip
_STRUCTURES = {
    Structure.LIMIT: BettingStructure.FIXED_LIMIT,
    Structure.POT_LIMIT: BettingStructure.POT_LIMIT,
    Structure.NO_LIMIT: BettingStructure.NO_LIMIT,
}
_OPENINGS = {
    Opener.BLINDS: Opening.POSITION,
    Opener.LEFT_OF_BUTTON: Opening.POSITION,
    Opener.FORCED_BET: Opening.LOW_CARD,
    Opener.HIGH_SHOWING: Opening.HIGH_HAND,
}


def rule_set(variant: Variant, structure: Structure) -> PokerRuleSet:
    """No rake, no cap on raises, one-cent chips; a tied high-only pot's odd chip to the first
    player left of the button, as pokerkit gives it (the chapter leaves it to the rule set)."""
    forced = {"blinds_cents": (25, 50)} if variant.button else {"forced_bet_cents": 25}
    return PokerRuleSet(
        variant=variant, structure=structure, small_bet_cents=50, big_bet_cents=100,
        ante_cents=0 if variant.button else 10, max_raises=None, chip_cents=1,
        odd_chip_high_only=OddChipHighOnly.FIRST_LEFT_OF_BUTTON, **forced,  # type: ignore[arg-type]
    )  # fmt: skip


def _card(card: object) -> PkCard:
    (parsed,) = PkCard.parse(str(card))
    return parsed


def player_order(rules: PokerRuleSet, opened: HandOpened) -> dict[int, int]:
    """Each seat's pokerkit player index: from the button's left (pokerkit's button is its
    last player), or from the dealer's left in stud."""
    order = list(opened.seats)
    if rules.variant.button:
        start = order.index(opened.button) + 1
        order = order[start:] + order[:start]
    return {seat: i for i, seat in enumerate(order)}


def _pokerkit_state(rules: PokerRuleSet, opened: HandOpened) -> tuple[State, dict[int, int]]:
    variant = rules.variant
    index = player_order(rules, opened)
    order = sorted(index, key=index.__getitem__)
    streets = tuple(
        Street(
            street.burn, street.player_cards, street.board_cards, street.draw,
            _OPENINGS[street.opener], rules.bet_size(street), None,
        )
        for street in variant.streets
    )  # fmt: skip
    if variant.omaha:
        hands: tuple[type, ...] = (OmahaHoldemHand,)
        if variant.low is not LowRule.NONE:
            hands += (OmahaEightOrBetterLowHand,)
    elif not variant.high:
        hands = (RegularLowHand,)
    elif variant.low is LowRule.EIGHT_OR_BETTER:
        hands = (StandardHighHand, EightOrBetterLowHand)
    elif variant.low is LowRule.ANY:
        hands = (StandardHighHand, RegularLowHand)
    else:
        hands = (StandardHighHand,)
    state = State(
        _AUTOMATIONS, Deck.STANDARD, hands, streets, _STRUCTURES[rules.structure], True,
        rules.ante_cents, rules.blinds_cents or (0,), rules.forced_bet_cents,
        tuple(opened.stacks[seat] for seat in order), len(order), mode=Mode.CASH_GAME,
    )  # fmt: skip
    return state, index


def in_pokerkit(rules: PokerRuleSet, hand: Recorder) -> dict[int, int]:
    """Each seat's result (won minus put in) when pokerkit plays the recorded hand.

    Our draw deals each player's new cards right after his discard
    (§ 553.13(g)); pokerkit takes every discard, then deals: the draw's
    events are regrouped so, the cards unchanged.
    """
    opened = hand.events[0]
    assert isinstance(opened, HandOpened)
    state, index = _pokerkit_state(rules, opened)
    board: list[PkCard] = []
    draws: list[tuple[int, tuple[PkCard, ...]]] = []
    new_cards: list[PkCard] = []

    def flush() -> None:
        if board:
            state.deal_board(tuple(board))
            board.clear()
        if draws:
            for player, discarded in draws:
                assert state.stand_patter_or_discarder_index == player
                state.stand_pat_or_discard(discarded)
            for card in new_cards:
                state.deal_hole((card,))
            draws.clear()
            new_cards.clear()

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # pokerkit warns of cards dealt from outside its deck
        try:
            _feed(state, index, hand, board, draws, new_cards, flush)
        except ValueError as error:  # e.g. Stud's common card (§ 553.10(h)), unknown to pokerkit
            raise Refused("common card", str(error)) from None
    assert not state.status, "pokerkit's hand did not end"
    return {seat: state.stacks[i] - opened.stacks[seat] for seat, i in sorted(index.items())}


def _feed(state, index, hand, board, draws, new_cards, flush) -> None:
    """Each recorded event to pokerkit, the board and the draw grouped as pokerkit deals them."""
    for event in hand.events[1:]:
        if isinstance(event, CardDealt) and event.seat is None:
            board.append(_card(event.card))
            continue
        if isinstance(event, CardDealt) and draws:
            new_cards.append(_card(event.card))
            continue
        if isinstance(event, Discarded):
            draws.append((index[event.seat], tuple(_card(card) for card in event.cards)))
            continue
        if isinstance(event, CardBurnt) and draws:
            continue  # pokerkit burnt the draw's card when the draw began
        flush()
        if isinstance(event, CardBurnt):
            state.burn_card(_card(event.card))
        elif isinstance(event, CardDealt):
            assert state.hole_dealee_index == index[event.seat], event
            state.deal_hole((_card(event.card),))
        elif isinstance(event, Posted) and event.kind is PostKind.FORCED_BET:
            if state.actor_index != index[event.seat]:
                raise Refused("first to act", f"pokerkit's bring-in: {state.actor_index}")
            state.post_bring_in()
        elif isinstance(event, Acted):
            if state.actor_index != index[event.seat]:
                raise Refused("first to act", f"pokerkit's player {state.actor_index}: {event}")
            if event.action is Action.FOLD:
                state.fold()
            elif event.action in (Action.CHECK, Action.CALL):
                state.check_or_call()
            elif state.can_complete_bet_or_raise_to(event.to_cents):
                state.complete_bet_or_raise_to(event.to_cents)
            else:
                raise Refused("completion", str(event))
    flush()


class Refused(Exception):
    """pokerkit refused a step our machine allowed: the two apply different rules.

    ``kind`` is one of :data:`REFUSALS`.
    """

    def __init__(self, kind: str, detail: str) -> None:
        super().__init__(f"{kind}: {detail}")
        self.kind = kind


REFUSALS = {
    "completion": "after an all-in bet below the street's bet, the machine lets the next "
    "player complete it to the full bet (or raise from there); pokerkit wants a full bet on "
    "top of the all-in, in limit and no limit alike (§ 553.18 leaves it to the rules)",
    "first to act": "a street opened by the highest hand showing when that hand is all-in: "
    "pokerkit goes on clockwise from it, the machine starts at the highest hand showing "
    "among those who can bet (§ 553.10(g), § 553.14(f))",
    "common card": "too few cards for each player's seventh: the machine deals one common "
    "card (§ 553.10(h)), pokerkit has none",
}
"""Why pokerkit refuses a step, found by reading the refused hands."""


def ours(hand: Recorder) -> dict[int, int]:
    """Each seat's result in our settlement."""
    settlement = hand.settlement()
    return {
        seat: settlement.received(seat) - hand.state.contributed[seat] for seat in hand.state.seats
    }


def as_pokerkit_divides(hand: Recorder) -> tuple[dict[int, int], bool]:
    """Our settlement's winners, with the pots divided as pokerkit divides them, and whether
    pokerkit split off a low half no player of the pot qualified for.

    pokerkit kills the hands that win nothing before it pushes, then forms the
    pots anew from the players left, so pots with the same winners merge into
    one and their odd chips with them; a split's odd chip goes to the first
    tied player in its order. The chapter divides each pot and side pot
    (§ 553.8(b)(4)(iii), § 553.10(i)(2)) and gives a tied half's odd chip to the
    card by suit (§ 553.10(i)(2)(ii)-(iii)). Winners and amounts are ours.

    pokerkit also decides on a low per hand, not per pot: when someone has a
    qualifying low, every pot is halved, and the low half of a pot whose
    players have none goes to all of them alike; the chapter gives such a pot
    to the high (§ 553.10(j), § 553.12(k)).
    """
    opened = hand.events[0]
    assert isinstance(opened, HandOpened)
    order = player_order(hand.state.rules, opened)
    settlement = hand.settlement()
    alive = {line.seat for line in settlement.lines if line.pot is not None and line.seat}
    merged: list[tuple[frozenset[int], int, set[int], set[int]]] = []
    for number, pot in enumerate(settlement.pots):
        eligible = frozenset(pot.eligible) & alive
        high = {line.seat for line in settlement.lines if line.pot == number
                and line.kind in (LineKind.HIGH, LineKind.UNCONTESTED) and line.seat}  # fmt: skip
        low = {line.seat for line in settlement.lines
               if line.pot == number and line.kind is LineKind.LOW and line.seat}  # fmt: skip
        if merged and merged[-1][0] == eligible:
            merged[-1] = (eligible, merged[-1][1] + pot.amount_cents, merged[-1][2], merged[-1][3])
        else:
            merged.append((eligible, pot.amount_cents, high, low))
    variant = hand.state.rules.variant
    split_game = variant.high and variant.low is not LowRule.NONE
    someone_low = split_game and any(low for _, _, _, low in merged)
    received = dict.fromkeys(hand.state.seats, 0)
    for line in settlement.lines:
        if line.kind is LineKind.RETURNED and line.seat is not None:
            received[line.seat] += line.amount_cents
    without_low = False
    for eligible, amount, high, low in merged:
        if someone_low and not low:
            low, without_low = set(eligible), True
        if not variant.high:  # Draw Low-hand: the low takes the pot (§ 553.13(i)(2))
            halves = [(low, amount)]
        elif low:
            halves = [(high, amount - amount // 2), (low, amount // 2)]
        else:
            halves = [(high, amount)]
        for winners, share in halves:
            tied = sorted(winners, key=order.__getitem__)
            for seat in tied:
                received[seat] += share // len(tied)
            received[tied[0]] += share % len(tied)
    result = {seat: received[seat] - hand.state.contributed[seat] for seat in hand.state.seats}
    return result, without_low
