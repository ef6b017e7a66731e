"""Random hands of our machine, replayed in pokerkit (a test dependency) to compare results.

:func:`random_hand` plays one hand of a variant with random legal actions,
short stacks (so all-ins and side pots are common) and no rake, recorded as
events (:class:`~tables.rules.poker_room.record.Recorder`). :func:`in_pokerkit`
feeds the same cards and actions to a pokerkit ``State`` built for the same
game and returns each seat's result there. Seats map to pokerkit's player
indices clockwise from the left of the button (pokerkit's button is its last
player), or from the dealer's left in stud.
"""

from __future__ import annotations

import datetime
import random
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

from tables.rules.cards import STANDARD_DECK
from tables.rules.poker_room.events import (
    Acted,
    Action,
    CardBurnt,
    CardDealt,
    Discarded,
    HandOpened,
    Posted,
)
from tables.rules.poker_room.hand import Phase, PostKind, raise_bounds, verify_bet_or_raise_to
from tables.rules.poker_room.record import Recorder
from tables.rules.poker_room.rules import (
    LowRule,
    OddChipHighOnly,
    Opener,
    PokerRuleSet,
    Structure,
    Variant,
)

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


def random_hand(rules: PokerRuleSet, rng: random.Random) -> Recorder:
    """One hand of random legal actions, played to its end with every hand shown."""
    variant = rules.variant
    # Heads-up, pokerkit follows the common heads-up rule (the button posts the small blind
    # and acts last after the flop); the chapter has no such exception (§ 553.11(d), (g)).
    players = rng.randint(3 if variant.button else 2, min(variant.max_players, 7))
    seats = tuple(range(1, players + 1))
    deck = list(STANDARD_DECK)
    rng.shuffle(deck)
    opened = HandOpened(
        hand_id="d", table_id="d", gaming_day=datetime.date(2026, 1, 1), ruleset_id="-",
        seats=seats, players=tuple(f"p{seat}" for seat in seats),
        stacks_cents=tuple(rng.randint(200, 2_000) for _ in seats),
        button=rng.choice(seats) if variant.button else None,
    )  # fmt: skip
    hand = Recorder(opened, iter(deck), rules)
    while hand.state.phase in (Phase.BETTING, Phase.DRAWING):
        state = hand.state
        if state.phase is Phase.DRAWING:
            seat = state.drawing[0]
            held = [card for card, _ in state.cards[seat]]
            hand.discard(seat, tuple(rng.sample(held, rng.randint(0, 3))))
            continue
        seat = state.to_act[0]
        choice = rng.choice(("fold", "call", "call", "call", "raise", "raise", "all-in"))
        if choice in ("raise", "all-in"):
            smallest, largest = raise_bounds(state, seat)
            stakes = state.stacks[seat] + state.bets.get(seat, 0)
            amount = stakes if choice == "all-in" else rng.randint(
                smallest, max(smallest, min(largest, stakes)))  # fmt: skip
            if verify_bet_or_raise_to(state, seat, amount) is None:
                hand.act(seat, Action.RAISE, amount)
                continue
        owed = state.current_bet - state.bets.get(seat, 0)
        if choice == "fold" and owed > 0:
            hand.act(seat, Action.FOLD)
        else:
            hand.act(seat, Action.CALL if owed else Action.CHECK)
    return hand.show_all()


def _card(card: object) -> PkCard:
    (parsed,) = PkCard.parse(str(card))
    return parsed


def _pokerkit_state(rules: PokerRuleSet, opened: HandOpened) -> tuple[State, dict[int, int]]:
    variant = rules.variant
    order = list(opened.seats)
    if variant.button:
        start = order.index(opened.button) + 1
        order = order[start:] + order[:start]  # pokerkit's button is its last player
    index = {seat: i for i, seat in enumerate(order)}
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
            raise Refused(str(error)) from None
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
                raise Refused(f"pokerkit's bring-in is player {state.actor_index}: {event}")
            state.post_bring_in()
        elif isinstance(event, Acted):
            if state.actor_index != index[event.seat]:
                raise Refused(f"pokerkit's turn is player {state.actor_index}: {event}")
            if event.action is Action.FOLD:
                state.fold()
            elif event.action in (Action.CHECK, Action.CALL):
                state.check_or_call()
            elif state.can_complete_bet_or_raise_to(event.to_cents):
                state.complete_bet_or_raise_to(event.to_cents)
            else:
                raise Refused(f"pokerkit refuses {event}")
    flush()


class Refused(Exception):
    """pokerkit refused an action our machine allowed: the two apply different rules."""


def ours(hand: Recorder) -> dict[int, int]:
    """Each seat's result in our settlement."""
    settlement = hand.settlement()
    return {
        seat: settlement.received(seat) - hand.state.contributed[seat] for seat in hand.state.seats
    }


def odd_chips(hand: Recorder) -> dict[int, int]:
    """Per seat, the largest amount an odd-chip rule can move: for every split share the
    seat was in, one chip fewer than the players sharing it (a remainder is below that)."""
    shares: dict[tuple[int | None, str], list[int]] = {}
    for line in hand.settlement().lines:
        if line.seat is not None and line.pot is not None:
            shares.setdefault((line.pot, line.kind), []).append(line.seat)
    slack = dict.fromkeys(hand.state.seats, 0)
    for seats in shares.values():
        for seat in seats:
            slack[seat] += len(seats) - 1
    return slack
