"""A dealer for the poker-room tests: deals the cards the hand asks for from a stacked deck.

The engine never draws a card itself; these helpers give it the next card of
a deck written out by the test, burning or dealing as the hand's plan says.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from tables.rules.cards import Card, parse_cards
from tables.rules.poker_room.hand import Automation, HandState, Phase, automate, burn, deal

POSTING = frozenset({Automation.POSTING})


def stacked(text: str) -> Iterator[Card]:
    """The cards of ``text`` in order, for :func:`deal_all`."""
    return iter(parse_cards(text))


def deal_all(state: HandState, deck: Iterator[Card]) -> HandState:
    """Deal (and burn) from ``deck`` until the hand needs something other than a card."""
    state = automate(state, POSTING)
    while state.phase is Phase.DEALING:
        slot = state.deals[0]
        # Past the deck's end, the burn cards shuffled back for a common card (§ 553.10(h)).
        card = next(deck, None) or next((c for c in state.reshuffled if c not in state.seen), None)
        if card is None:
            return state
        if slot.burn:
            state = burn(state, card)
        else:
            state = deal(state, card, slot.seat, face_up=slot.face_up)
        state = automate(state, POSTING)
    return state


def holdem_deck(holes: Sequence[str], board: str, burns: str = "2c 2d 2h") -> Iterator[Card]:
    """A Hold'em deck: ``holes`` in dealing order, each first card then each second, burns, board.

    :param holes: each player's two cards, in the order the cards are dealt.
    :param board: the five community cards.
    :param burns: the three burn cards.
    """
    first = [hole[:2] for hole in holes]
    second = [hole[2:] for hole in holes]
    flop, turn, river = board.split()[:3], board.split()[3], board.split()[4]
    burn1, burn2, burn3 = burns.split()
    return stacked(" ".join([*first, *second, burn1, *flop, burn2, turn, burn3, river]))
