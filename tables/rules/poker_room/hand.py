"""One hand of nonbanked poker as a state machine (§ 553.7-553.14, § 553.16(d), § 553.18).

The design follows pokerkit's: a hand moves through phases (posting the
antes, blinds and Forced Bet; dealing a street; betting it; the showdown), and
each action has a ``verify_`` check that returns a
:class:`~tables.rules.engine.Refusal` naming the section it breaks, a ``can_``
wrapper and the action itself, which returns the new state (states are
values, as in :mod:`tables.rules.machine`). Unlike pokerkit, nothing is
shuffled or dealt by the engine: every card comes from the caller, and the
engine refuses a card that is not the next one the chapter prescribes or that
was already dealt. :func:`automate` performs the steps a table may leave to
the engine (:class:`Automation`).

Betting follows the pokerkit model of a queue of players still to act: a bet
or raise puts every other player who can still bet back in the queue, a check,
call or fold takes the actor out, and the street ends when the queue is
empty. What the chapter leaves to the Rules Submission is read from the
:class:`~tables.rules.poker_room.rules.PokerRuleSet`: the limits and the cap
on raises (§ 553.18). One rule is not in the chapter: an all-in below a full
raise does not reopen the raising to players who already acted (as in
pokerkit and common poker-room rules); it refuses citing § 553.18, the rules
submission's "restrictions with regard to ... raises".

>>> from tables.rules.cards import parse_cards
>>> from tables.rules.poker_room.rules import HOLDEM, PokerRuleSet, Structure
>>> rules = PokerRuleSet(variant=HOLDEM, structure=Structure.NO_LIMIT, small_bet_cents=200,
...     big_bet_cents=200, blinds_cents=(100, 200))
>>> state = automate(open_hand(rules, {1: 10_000, 2: 10_000, 3: 10_000}, button=3))
>>> state.phase, state.bets
(<Phase.DEALING: 'dealing'>, {1: 100, 2: 200})
>>> for card, seat in zip(parse_cards("AhKd 2c3c QsQd"), (1, 2, 3, 1, 2, 3)):
...     state = deal(state, card, seat, face_up=False)
>>> state.to_act
(3, 1, 2)
>>> verify_bet_or_raise_to(state, 3, 300)
Refusal(section='553.18', reason='the smallest raise is to 400', field='amount_cents')
>>> verify_check_or_call(state, 1)
Refusal(section='553.11(f)', reason="it is seat 3's turn to act", field='seat')
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from types import MappingProxyType
from typing import Any, NamedTuple

from tables.rules.cards import Card, Rank, Suit
from tables.rules.engine import Refusal, RuleViolation, evolve
from tables.rules.poker_room.rules import (
    ForcedBetCard,
    Opener,
    PokerRuleSet,
    Street,
    Structure,
)

__all__ = [
    "Automation",
    "HandState",
    "Phase",
    "PostKind",
    "automate",
    "bet_or_raise_to",
    "burn",
    "check_or_call",
    "deal",
    "discard",
    "fold",
    "muck",
    "open_hand",
    "post",
    "raise_bounds",
    "show",
    "verify_bet_or_raise_to",
    "verify_burn",
    "verify_check_or_call",
    "verify_deal",
    "verify_discard",
    "verify_fold",
    "verify_muck",
    "verify_post",
    "verify_show",
]

SUIT_ORDER: Mapping[Suit, int] = {Suit.SPADES: 4, Suit.HEARTS: 3, Suit.DIAMONDS: 2, Suit.CLUBS: 1}
"""§ 553.10(d), (i)(2)(iv): "spades, hearts, diamonds, clubs", highest to lowest."""


class Phase(StrEnum):
    """Where a hand is; each phase's end names the next (see ``_next_phase``)."""

    POSTING = "posting"
    DEALING = "dealing"
    DRAWING = "drawing"
    BETTING = "betting"
    SHOWDOWN = "showdown"
    COMPLETE = "complete"
    VOID = "void"
    """The round of play voided (§ 553.16(e), (g)): every chip back to who put it in."""


class PostKind(StrEnum):
    """A forced wager: Ante, Blind Bet or Forced Bet (§ 553.1)."""

    ANTE = "ante"
    BLIND = "blind"
    FORCED_BET = "forced_bet"


class Automation(StrEnum):
    """Steps a table may leave to the engine; none invents a card."""

    POSTING = "posting"
    """Antes, Blind Bets and the Forced Bet, whose seats and amounts the rules fix."""
    SHOWING = "showing"
    """Every hand shown at the showdown in the order of § 553.16(d)."""


_EMPTY: Mapping[Any, Any] = MappingProxyType({})


class Post(NamedTuple):
    """A forced wager still owed."""

    seat: int
    kind: PostKind
    amount_cents: int


class Slot(NamedTuple):
    """The next card the chapter prescribes: a burn, a seat's card or a board card (seat None)."""

    seat: int | None
    face_up: bool
    burn: bool = False
    section: str = ""
    """The section that put the card here when not the street's (an irregularity's remedy)."""


class HandState(NamedTuple):
    """A hand of poker at one moment; build with :func:`open_hand`.

    A value, like :class:`tables.rules.machine.RoundState`: every action returns
    a new one (through :func:`~tables.rules.engine.evolve`, which copies only
    the changed fields) and none is changed in place.

    Money is integer cents. ``contributed`` is everything a seat put in this
    hand (antes included), ``bets`` what it put in on the current street
    (Blind Bets and the Forced Bet included, antes not). ``reshuffled`` holds
    burn cards shuffled back for a Seven-card Stud common card (§ 553.10(h))
    and discards shuffled back for the draw (§ 553.13(g)(2)).
    """

    rules: PokerRuleSet
    seats: tuple[int, ...]
    button: int | None
    stacks: Mapping[int, int]
    contributed: Mapping[int, int]
    bets: Mapping[int, int] = _EMPTY
    folded: frozenset[int] = frozenset()
    cards: Mapping[int, tuple[tuple[Card, bool], ...]] = _EMPTY
    board: tuple[Card, ...] = ()
    burnt: tuple[Card, ...] = ()
    discarded: tuple[Card, ...] = ()
    reshuffled: tuple[Card, ...] = ()
    drawing: tuple[int, ...] = ()
    draw_burnt: bool = False
    phase: Phase = Phase.POSTING
    street_index: int = 0
    posts: tuple[Post, ...] = ()
    deals: tuple[Slot, ...] = ()
    to_act: tuple[int, ...] = ()
    current_bet: int = 0
    raise_size: int = 0
    raises: int = 0
    short_raises: int = 0
    acted: frozenset[int] = frozenset()
    last_aggressor: int | None = None
    forced_bet_seat: int | None = None
    showdown_order: tuple[int, ...] = ()
    shown: tuple[int, ...] = ()
    mucked: frozenset[int] = frozenset()
    void_section: str = ""
    exposed: tuple[Card, ...] = ()
    face_up_found: int = 0
    refunds: tuple[tuple[int, int, str], ...] = ()
    """(seat, cents, section): a hand killed or called void, its money back (§ 553.16(i)(3))."""

    @property
    def street(self) -> Street:
        """The street being dealt or bet."""
        return self.rules.variant.streets[self.street_index]

    @property
    def live(self) -> tuple[int, ...]:
        """Seats that have not folded, in seat order."""
        return tuple(seat for seat in self.seats if seat not in self.folded)

    @property
    def seen(self) -> frozenset[Card]:
        """Every card dealt or burnt so far in this round of play."""
        held = (card for hand in self.cards.values() for card, _ in hand)
        return frozenset((*held, *self.board, *self.burnt, *self.discarded))

    def up_cards(self, seat: int) -> tuple[Card, ...]:
        """The seat's cards dealt face up."""
        return tuple(card for card, face_up in self.cards.get(seat, ()) if face_up)


def _clockwise_after(seats: tuple[int, ...], start: int | None) -> tuple[int, ...]:
    """``seats`` clockwise from the first after ``start`` (from the dealer's left if None)."""
    if start is None:
        return seats
    return tuple(seat for seat in seats if seat > start) + tuple(
        seat for seat in seats if seat <= start
    )


def _starting_at(seats: tuple[int, ...], first: int) -> tuple[int, ...]:
    """``seats`` clockwise, ``first`` first."""
    return (first, *(seat for seat in _clockwise_after(seats, first) if seat != first))


def _first_in_order(state: HandState) -> int | None:
    """Where dealing starts: left of the button (§ 553.11(e)), else of the dealer (§ 553.10(c))."""
    return state.button if state.rules.variant.button else None


def open_hand(rules: PokerRuleSet, stacks: Mapping[int, int], *, button: int | None) -> HandState:
    """A new round of play with these seats' table stakes (§ 553.8(b)).

    :param rules: the table's rule set.
    :param stacks: each participating seat's table stakes in cents.
    :param button: the seat with the button (button games, § 553.11(c)).
    :return: the hand, owing its antes and Blind Bets.
    :raises RuleViolation: too few or too many players (§ 553.7(b) and the
        variant's maximum), no button, or stakes short of § 553.8(b)(3).
    """
    variant = rules.variant
    seats = tuple(sorted(stacks))
    if not 2 <= len(seats) <= variant.max_players:
        raise RuleViolation(
            f"{variant.section}(b)",
            f"{variant.name} is played by 2 to {variant.max_players} players, not {len(seats)}",
            "seats",
        )
    if variant.button != (button in seats):
        raise RuleViolation(
            f"{variant.section}(c)", "the button must be at a seat in the hand", "button"
        )
    forced = max(rules.blinds_cents, default=rules.forced_bet_cents)
    needed = rules.ante_cents + forced + rules.small_bet_cents
    for seat in seats:
        if stacks[seat] < needed:
            raise RuleViolation(
                "553.8(b)(3)",
                f"seat {seat} needs {needed} for the forced bets and one minimum bet",
                "stacks",
            )
    state = HandState(
        rules=rules, seats=seats, button=button, stacks=dict(stacks),
        contributed=dict.fromkeys(seats, 0),
    )  # fmt: skip
    order = _clockwise_after(seats, _first_in_order(state))
    posts = [Post(seat, PostKind.ANTE, rules.ante_cents) for seat in order if rules.ante_cents]
    if not variant.blinds_after_deal:
        posts += _blinds(state)
    if not posts:
        return _begin_dealing(state)
    return evolve(state, posts=tuple(posts))


# Posting -----------------------------------------------------------------------


def _blinds(state: HandState) -> list[Post]:
    """The Blind Bets from the immediate left of the button (§ 553.11(d), § 553.13(e))."""
    order = _clockwise_after(state.seats, state.button)
    return [
        Post(seat, PostKind.BLIND, amount)
        for seat, amount in zip(order, state.rules.blinds_cents, strict=False)
    ]


def verify_post(state: HandState, seat: int) -> Refusal | None:
    """Refusal unless ``seat`` owes the next Ante, Blind Bet or Forced Bet."""
    section = state.rules.variant.section
    if state.phase is not Phase.POSTING:
        return Refusal(f"{section}(d)", "no forced wager is owed now", "seat")
    owed = state.posts[0]
    if owed.seat != seat:
        where = "b" if owed.kind is PostKind.ANTE else "d"
        return Refusal(
            f"{section}({where})", f"seat {owed.seat} owes the {owed.kind} first", "seat"
        )
    return None


def post(state: HandState, seat: int) -> HandState:
    """Post the forced wager ``seat`` owes; the stakes always cover it (§ 553.8(b)(3))."""
    _check(verify_post(state, seat))
    owed, *rest = state.posts
    state = _pay(state, seat, owed.amount_cents, into_bet=owed.kind is not PostKind.ANTE)
    if owed.kind is PostKind.FORCED_BET:
        # The Forced Bet opens the betting; play goes on clockwise from it, and the
        # round is over once the others have responded to it (§ 553.10(e)): unlike
        # a Blind Bet (§ 553.11(f)), the Forced Bet has no option of its own.
        others = tuple(other for other in _clockwise_after(state.live, seat) if other != seat)
        return _begin_betting(evolve(state, posts=(), current_bet=owed.amount_cents), others)
    state = evolve(state, posts=tuple(rest))
    if rest:
        return state
    if owed.kind is PostKind.BLIND and state.rules.variant.blinds_after_deal:
        return _open_betting(state)
    return _begin_dealing(state)


def _pay(state: HandState, seat: int, amount: int, *, into_bet: bool) -> HandState:
    stacks = {**state.stacks, seat: state.stacks[seat] - amount}
    contributed = {**state.contributed, seat: state.contributed[seat] + amount}
    bets = {**state.bets, seat: state.bets.get(seat, 0) + amount} if into_bet else state.bets
    return evolve(state, stacks=stacks, contributed=contributed, bets=bets)


# Dealing -----------------------------------------------------------------------


def _begin_dealing(state: HandState) -> HandState:
    """Plan the street's cards: its burn, rounds of cards to each live player, board cards."""
    street = state.street
    if street.draw:
        # One player at a time from the immediate left of the button (§ 553.13(g)).
        drawing = _clockwise_after(state.live, state.button)
        return evolve(state, phase=Phase.DRAWING, drawing=drawing, deals=())
    slots = [Slot(None, False, burn=True)] if street.burn else []
    # All-in players go on receiving cards (§ 553.8(b)(4)(ii)).
    order = _clockwise_after(state.live, _first_in_order(state))
    left = DECK_SIZE - len(state.seen)
    if state.rules.variant.forced_bet_card is not None and left - len(slots) < len(order):
        return _common_card(state, left)
    for face_up in street.player_cards:
        slots += [Slot(seat, face_up) for seat in order]
    slots += [Slot(None, True)] * street.board_cards
    return evolve(state, phase=Phase.DEALING, deals=tuple(slots))


DECK_SIZE = 52
"""§ 553.3(a), § 553.7(e)(4)(i): one deck of 52 cards."""


def _common_card(state: HandState, left: int) -> HandState:
    """Too few cards for each player's sixth or seventh: burn, then one common card (§ 553.10(h)).

    "If there is either one or no card remaining in the deck when a common card
    is to be dealt, the dealer shall shuffle the burn cards, burn a card and
    then deal the common card": the burn cards may then be dealt again.
    """
    if left <= 1:
        state = evolve(state, reshuffled=(*state.reshuffled, *state.burnt), burnt=())
    slots = (Slot(None, False, burn=True), Slot(None, True))
    return evolve(state, phase=Phase.DEALING, deals=slots)


def _refuse_card(state: HandState, card: Card, *, burning: bool) -> Refusal | None:
    street = state.street
    if state.phase is not Phase.DEALING:
        return Refusal(street.deal_section, "no card is to be dealt now", "card")
    if card in state.seen:
        return Refusal(
            "553.16(g)", f"{card} was already dealt or burnt in this round of play", "card"
        )
    slot = state.deals[0]
    if slot.burn and not burning:
        return Refusal("553.7(e)(3)", f"the top card is burnt before the {street.name}", "card")
    if burning and not slot.burn:
        return Refusal(
            street.deal_section, f"no card is burnt before this {street.name} card", "card"
        )
    return None


def verify_burn(state: HandState, card: Card) -> Refusal | None:
    """Refusal unless the next card prescribed is a burn card and ``card`` is new."""
    return _refuse_card(state, card, burning=True)


def burn(state: HandState, card: Card) -> HandState:
    """Burn ``card`` face down (§ 553.7(e)(3))."""
    _check(verify_burn(state, card))
    return _dealt(evolve(state, burnt=(*state.burnt, card)))


def verify_deal(state: HandState, card: Card, seat: int | None, *, face_up: bool) -> Refusal | None:
    """Refusal unless ``card`` goes where and how the chapter prescribes next.

    :param seat: the seat, or None for a community card.
    """
    refusal = _refuse_card(state, card, burning=False)
    if refusal is not None:
        return refusal
    slot = state.deals[0]
    section = slot.section or state.street.deal_section
    if slot.seat != seat:
        expected = "the board" if slot.seat is None else f"seat {slot.seat}"
        return Refusal(section, f"the next card goes to {expected}", "seat")
    if slot.face_up != face_up:
        return Refusal(
            section, f"the card is dealt face {'up' if slot.face_up else 'down'}", "face_up"
        )
    return None


def deal(state: HandState, card: Card, seat: int | None, *, face_up: bool) -> HandState:
    """Deal ``card`` to ``seat`` (or the board when None)."""
    _check(verify_deal(state, card, seat, face_up=face_up))
    if seat is None:
        state = evolve(state, board=(*state.board, card))
    else:
        held = state.cards.get(seat, ())
        state = evolve(state, cards={**state.cards, seat: (*held, (card, face_up))})
    return _dealt(state)


def _dealt(state: HandState) -> HandState:
    state = evolve(state, deals=state.deals[1:])
    if state.deals:
        return state
    if state.street.draw:
        return _next_drawer(state)
    if state.rules.variant.blinds_after_deal and state.street_index == 0:
        # Five-card Draw's Blind Bets come after the deal (§ 553.13(e)).
        return evolve(state, phase=Phase.POSTING, posts=tuple(_blinds(state)))
    return _open_betting(state)


def _open_betting(state: HandState) -> HandState:
    """The street's betting, opened as its :class:`Opener` says."""
    street = state.street
    if street.opener is Opener.FORCED_BET:
        seat = _forced_bet_seat(state)
        owed = Post(seat, PostKind.FORCED_BET, state.rules.forced_bet_cents)
        return evolve(state, phase=Phase.POSTING, posts=(owed,), forced_bet_seat=seat)
    if street.opener is Opener.BLINDS:
        last_blind = _blinds(state)[-1].seat
        state = evolve(state, current_bet=max(state.bets.values(), default=0))
        return _begin_betting(state, _clockwise_after(state.live, last_blind))
    if street.opener is Opener.LEFT_OF_BUTTON:
        return _begin_betting(state, _clockwise_after(state.live, state.button))
    return _begin_betting(state, _starting_at(state.live, _high_showing(state)))


# Drawing (Five-card Draw) -----------------------------------------------------


def verify_discard(state: HandState, seat: int, cards: tuple[Card, ...]) -> Refusal | None:
    """Refusal unless it is ``seat``'s turn to draw and it holds ``cards`` (§ 553.13(g))."""
    if state.phase is not Phase.DRAWING:
        return Refusal("553.13(g)", "nobody draws now", "seat")
    if state.drawing[0] != seat:
        return Refusal("553.13(g)", f"seat {state.drawing[0]} draws first", "seat")
    held = {card for card, _ in state.cards[seat]}
    if len(set(cards)) != len(cards) or not set(cards) <= held:
        return Refusal("553.13(g)", f"seat {seat} may discard only cards it holds", "cards")
    return None


def discard(state: HandState, seat: int, cards: tuple[Card, ...]) -> HandState:
    """``seat`` discards ``cards`` (none to stand pat), each replaced from the deck (§ 553.13(g)).

    The first new card of the draw is preceded by a burn (§ 553.13(g)(1)). When
    the deck cannot replace the cards, the discard pile is reshuffled; cards of
    players who have not yet drawn are not in it, having not been discarded
    (§ 553.13(g)(2)).
    """
    _check(verify_discard(state, seat, cards))
    kept = tuple(pair for pair in state.cards[seat] if pair[0] not in cards)
    state = evolve(
        state, cards={**state.cards, seat: kept}, discarded=(*state.discarded, *cards),
        drawing=state.drawing[1:],
    )  # fmt: skip
    if not cards:
        return _next_drawer(state)
    slots = [Slot(seat, False)] * len(cards)
    if not state.draw_burnt:
        slots.insert(0, Slot(None, False, burn=True))
    if DECK_SIZE - len(state.seen) < len(slots):
        state = evolve(state, reshuffled=(*state.reshuffled, *state.discarded), discarded=())
    return evolve(state, phase=Phase.DEALING, deals=tuple(slots), draw_burnt=True)


def _next_drawer(state: HandState) -> HandState:
    if state.drawing:
        return evolve(state, phase=Phase.DRAWING)
    return _open_betting(state)


def _forced_bet_seat(state: HandState) -> int:
    """The Forced Bet by up-card, suits ranking s, h, d, c (§ 553.10(d), § 553.14(d))."""

    def key(seat: int) -> tuple[int, int]:
        card = state.up_cards(seat)[-1]
        if state.rules.variant.forced_bet_card is ForcedBetCard.HIGHEST_ACE_LOW:
            rank = 1 if card.rank is Rank.ACE else int(card.rank)
            return (-rank, -SUIT_ORDER[card.suit])
        return (int(card.rank), SUIT_ORDER[card.suit])

    return min(state.live, key=key)


def showing_strength(cards: tuple[Card, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """How strong the up-cards are for the opening bet: groups, then ranks.

    Fewer than five cards make no straight or flush, so only pairs, two pairs,
    three and four of a kind count, then the ranks (§ 553.10(f)(1)).

    >>> from tables.rules.cards import parse_cards
    >>> showing_strength(parse_cards("9h9c")) > showing_strength(parse_cards("AhKh"))
    True
    """
    counts: dict[int, int] = {}
    for card in cards:
        counts[int(card.rank)] = counts.get(int(card.rank), 0) + 1
    ranks = sorted(counts, key=lambda rank: (counts[rank], rank), reverse=True)
    return tuple(counts[rank] for rank in ranks), tuple(ranks)


def _high_showing(state: HandState) -> int:
    """The highest hand showing among those who can bet, ties to the dealer's left (§ 553.10(f))."""
    able = [seat for seat in state.live if state.stacks[seat] > 0] or list(state.live)
    best = max(showing_strength(state.up_cards(seat)) for seat in able)
    return min(seat for seat in able if showing_strength(state.up_cards(seat)) == best)


# Betting -----------------------------------------------------------------------


def _begin_betting(state: HandState, order: tuple[int, ...]) -> HandState:
    able = tuple(seat for seat in order if state.stacks[seat] > 0)
    state = evolve(
        state, phase=Phase.BETTING, to_act=able, raise_size=state.rules.bet_size(state.street),
        raises=0, acted=frozenset(), short_raises=0,
    )  # fmt: skip
    facing = any(state.bets.get(seat, 0) < state.current_bet for seat in able)
    if len(able) < 2 and not facing:
        return _end_street(evolve(state, to_act=()))
    return state


def _refuse_turn(state: HandState, seat: int) -> Refusal | None:
    if state.phase is not Phase.BETTING:
        return Refusal(state.street.bet_section, "no betting round is open", "seat")
    if state.to_act[0] != seat:
        return Refusal(
            state.street.bet_section, f"it is seat {state.to_act[0]}'s turn to act", "seat"
        )
    return None


def verify_fold(state: HandState, seat: int) -> Refusal | None:
    """Refusal unless it is ``seat``'s turn (§ 553.10(e), § 553.11(f)-(g))."""
    return _refuse_turn(state, seat)


def fold(state: HandState, seat: int) -> HandState:
    """``seat`` folds (§ 553.1 "Fold")."""
    _check(verify_fold(state, seat))
    return _acted(evolve(state, folded=state.folded | {seat}, to_act=state.to_act[1:]))


def verify_check_or_call(state: HandState, seat: int) -> Refusal | None:
    """Refusal unless it is ``seat``'s turn."""
    return _refuse_turn(state, seat)


def check_or_call(state: HandState, seat: int) -> HandState:
    """``seat`` checks, or calls the current bet or the rest of its stakes (all-in, § 553.1)."""
    _check(verify_check_or_call(state, seat))
    amount = min(state.current_bet - state.bets.get(seat, 0), state.stacks[seat])
    state = _pay(state, seat, amount, into_bet=True)
    return _acted(evolve(state, to_act=state.to_act[1:], acted=state.acted | {seat}))


def raise_bounds(state: HandState, seat: int) -> tuple[int, int]:
    """The smallest and largest amounts ``seat`` may bet or raise to (§ 553.18), before its stakes.

    A bet or raise below the current bet's full size is the completion of a
    short Blind or Forced Bet; after that, a raise is at least the previous
    full raise. In limit the one size allowed is the street's bet; in pot
    limit the most is the pot after the call (§ 553.18 posts the limits).
    """
    size = state.rules.bet_size(state.street)
    smallest = size if state.current_bet < size else state.current_bet + state.raise_size
    structure = state.rules.structure
    if structure is Structure.LIMIT:
        return smallest, smallest
    if structure is Structure.POT_LIMIT:
        to_call = state.current_bet - state.bets.get(seat, 0)
        return smallest, max(
            smallest, state.current_bet + sum(state.contributed.values()) + to_call
        )
    return smallest, state.stacks[seat] + state.bets.get(seat, 0)


def verify_bet_or_raise_to(state: HandState, seat: int, amount_cents: int) -> Refusal | None:
    """Refusal unless ``seat`` may bet or raise the street's total to ``amount_cents``."""
    refusal = _refuse_turn(state, seat)
    if refusal is not None:
        return refusal
    rules = state.rules
    opening = state.current_bet < rules.bet_size(state.street)
    if not opening and rules.max_raises is not None and state.raises >= rules.max_raises:
        return Refusal("553.18", f"the cap of {rules.max_raises} raises is reached", "amount_cents")
    stakes = state.stacks[seat] + state.bets.get(seat, 0)
    if amount_cents > stakes:
        return Refusal("553.8(b)", f"seat {seat} has only {stakes} of table stakes", "amount_cents")
    if amount_cents <= state.current_bet:
        return Refusal("553.1", "a raise is greater than the preceding bet", "amount_cents")
    # Betting continues only "among the other players" with stakes left (§ 553.8(b)(4)(iii)):
    # a raise nobody can call more than the current bet of would only be returned.
    others = [
        other for other in state.live
        if other != seat and state.stacks[other] + state.bets.get(other, 0) > state.current_bet
    ]  # fmt: skip
    if not others:
        return Refusal(
            "553.8(b)(4)(iii)", "no other player can call more than the current bet", "amount_cents"
        )
    if seat in state.acted and state.short_raises < state.raise_size:
        return Refusal(
            "553.18", "an all-in below a full raise does not reopen the raising", "amount_cents"
        )
    smallest, largest = raise_bounds(state, seat)
    if amount_cents < smallest and amount_cents != stakes:
        return Refusal("553.18", f"the smallest raise is to {smallest}", "amount_cents")
    if amount_cents > largest:
        return Refusal("553.18", f"the limit is a raise to {largest}", "amount_cents")
    return None


def bet_or_raise_to(state: HandState, seat: int, amount_cents: int) -> HandState:
    """``seat`` bets or raises the street's total to ``amount_cents`` (§ 553.1 "Bet", "Raise")."""
    _check(verify_bet_or_raise_to(state, seat, amount_cents))
    size = state.rules.bet_size(state.street)
    before = state.current_bet
    opening = before < size
    full = amount_cents - before >= state.raise_size or (opening and amount_cents >= size)
    state = _pay(state, seat, amount_cents - state.bets.get(seat, 0), into_bet=True)
    if full:
        raise_size = max(size, amount_cents - before) if opening else amount_cents - before
        state = evolve(state, raise_size=raise_size, acted=frozenset({seat}), short_raises=0,
                        raises=state.raises + (0 if opening else 1))  # fmt: skip
    else:
        # Below a full bet nobody has yet faced a full wager, so everyone may still
        # complete or raise; short all-ins that add up to a full raise reopen the
        # raising, as in pokerkit.
        short = state.short_raises + amount_cents - before
        if opening or short >= state.raise_size:
            state = evolve(state, acted=frozenset({seat}), short_raises=0)
        else:
            state = evolve(state, acted=state.acted | {seat}, short_raises=short)
    again = tuple(
        other for other in _clockwise_after(state.live, seat)
        if other != seat and state.stacks[other] > 0
    )  # fmt: skip
    return _acted(evolve(state, current_bet=amount_cents, to_act=again, last_aggressor=seat))


def _acted(state: HandState) -> HandState:
    if len(state.live) == 1:
        return evolve(state, phase=Phase.COMPLETE, to_act=())
    return state if state.to_act else _end_street(state)


def _end_street(state: HandState) -> HandState:
    """A street's end names the next phase: the next street's dealing, or the showdown."""
    if len(state.live) == 1:
        return evolve(state, phase=Phase.COMPLETE)
    state = evolve(state, bets={}, current_bet=0)
    if state.street_index + 1 < len(state.rules.variant.streets):
        return _begin_dealing(evolve(state, street_index=state.street_index + 1))
    return _begin_showdown(state)


# Showdown ----------------------------------------------------------------------


def _begin_showdown(state: HandState) -> HandState:
    """§ 553.16(d): "The player initiating the final wager shall be the first player to show".

    When no bet was made (every street checked, or only the forced wagers), the
    chapter names no first player; the order then starts from the first live
    player left of the button (or of the dealer in stud), clockwise.
    """
    start = state.last_aggressor
    if start is None:
        order = _clockwise_after(state.live, _first_in_order(state))
    else:
        order = _starting_at(state.live, start)
    return evolve(state, phase=Phase.SHOWDOWN, showdown_order=order)


def _refuse_showdown_turn(state: HandState, seat: int) -> Refusal | None:
    if state.phase is not Phase.SHOWDOWN:
        return Refusal("553.16(d)", "there is no showdown now", "seat")
    waiting = state.showdown_order[len(state.shown) + len(state.mucked)]
    if waiting != seat:
        return Refusal("553.16(d)", f"seat {waiting} shows first", "seat")
    return None


def verify_show(state: HandState, seat: int) -> Refusal | None:
    """Refusal unless it is ``seat``'s turn to show (§ 553.16(d))."""
    return _refuse_showdown_turn(state, seat)


def show(state: HandState, seat: int) -> HandState:
    """``seat`` displays its hand in its entirety (§ 553.16(d))."""
    _check(verify_show(state, seat))
    return _showdown_step(evolve(state, shown=(*state.shown, seat)))


def verify_muck(state: HandState, seat: int) -> Refusal | None:
    """Refusal unless ``seat`` may concede unseen (§ 553.16(d))."""
    refusal = _refuse_showdown_turn(state, seat)
    if refusal is not None:
        return refusal
    if seat == state.showdown_order[0] and state.last_aggressor == seat:
        return Refusal("553.16(d)", "the player who made the final wager shows first", "seat")
    if not state.shown and seat == state.showdown_order[-1]:
        return Refusal(
            "553.16(d)", "a winning hand must be displayed: nobody else has shown", "seat"
        )
    if state.rules.disclose_all_hands:
        return Refusal("553.16(d)", "the rules submission requires every hand disclosed", "seat")
    return None


def muck(state: HandState, seat: int) -> HandState:
    """``seat`` concedes its rights to the pot without showing (§ 553.16(d))."""
    _check(verify_muck(state, seat))
    return _showdown_step(evolve(state, mucked=state.mucked | {seat}))


def _showdown_step(state: HandState) -> HandState:
    if len(state.shown) + len(state.mucked) == len(state.showdown_order):
        return evolve(state, phase=Phase.COMPLETE)
    return state


# Automations -------------------------------------------------------------------


def automate(
    state: HandState, automations: frozenset[Automation] = frozenset(Automation)
) -> HandState:
    """Perform the automated steps while one is due: postings, then showings."""
    while True:
        if state.phase is Phase.POSTING and Automation.POSTING in automations:
            state = post(state, state.posts[0].seat)
        elif state.phase is Phase.SHOWDOWN and Automation.SHOWING in automations:
            state = show(state, state.showdown_order[len(state.shown) + len(state.mucked)])
        else:
            return state


def _check(refusal: Refusal | None) -> None:
    if refusal is not None:
        raise RuleViolation.from_refusal(refusal)
