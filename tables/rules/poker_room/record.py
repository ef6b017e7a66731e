"""A hand recorded as it is played: each step applied to the machine and kept as an event.

What a table device, the demo's simulated dealers and the tests do: the
forced wagers and cards the machine's plan prescribes are recorded from a
deck the caller supplies (the engine never shuffles), the players' actions as
the caller gives them, and a settling dealer's money events at the end.

>>> import datetime
>>> from tables.rules.cards import parse_cards
>>> from tables.rules.poker_room.events import Action, HandOpened
>>> opened = HandOpened(hand_id="h1", table_id="P1", gaming_day=datetime.date(2026, 11, 24),
...     ruleset_id="PA-553-HOLDEM-NL-1-2-BB", seats=(1, 2), players=("a", "b"),
...     stacks_cents=(5_000, 5_000), button=2)
>>> hand = Recorder(opened, iter(parse_cards("AhAd KcKd 2c 3s4s5s 2d 9h 2h Tc")))
>>> hand.act(1, Action.FOLD).state.phase
<Phase.COMPLETE: 'complete'>
>>> [event.TYPE for event in hand.settled()][-3:]
['poker.bet_returned', 'poker.pot_pushed', 'poker.hand_closed']
"""

from __future__ import annotations

from collections.abc import Iterator

from tables.rules.cards import Card
from tables.rules.events import Event
from tables.rules.poker_room.events import (
    Acted,
    Action,
    CardBurnt,
    CardDealt,
    Discarded,
    HandClosed,
    HandOpened,
    Posted,
    Shown,
)
from tables.rules.poker_room.hand import HandState, Phase
from tables.rules.poker_room.replay import apply, dealer_events, open_from
from tables.rules.poker_room.rules import PokerRuleSet
from tables.rules.poker_room.settlement import HandSettlement, settle

__all__ = ["Recorder"]


class Recorder:
    """A hand being played and recorded; ``events`` is its stream so far."""

    def __init__(
        self, opened: HandOpened, deck: Iterator[Card], rules: PokerRuleSet | None = None
    ) -> None:
        self.events: list[Event] = [opened]
        self.state: HandState = open_from(opened, rules)
        self.deck = deck
        self._forced()

    def record(self, event: Event) -> Recorder:
        """Apply ``event`` and keep it, then record what the plan prescribes next."""
        self.state = apply(self.state, event)
        self.events.append(event)
        self._forced()
        return self

    def _forced(self) -> None:
        """Forced wagers and cards: nothing to choose, so recorded as the machine plans them."""
        while True:
            state = self.state
            if state.phase is Phase.POSTING:
                owed = state.posts[0]
                event: Event = Posted(
                    seat=owed.seat, kind=owed.kind, amount_cents=owed.amount_cents
                )
            elif state.phase is Phase.DEALING:
                slot = state.deals[0]
                # Past the deck's end: the cards shuffled back (§ 553.10(h), § 553.13(g)(2)).
                card = next(self.deck, None) or next(
                    c for c in state.reshuffled if c not in state.seen
                )
                if slot.burn:
                    event = CardBurnt(card=card)
                else:
                    event = CardDealt(card=card, seat=slot.seat, face_up=slot.face_up)
            else:
                return
            self.state = apply(state, event)
            self.events.append(event)

    def act(self, seat: int, action: Action, to_cents: int | None = None) -> Recorder:
        """``seat`` folds, checks, calls, bets or raises (to ``to_cents``)."""
        return self.record(Acted(seat=seat, action=action, to_cents=to_cents))

    def discard(self, seat: int, cards: tuple[Card, ...]) -> Recorder:
        """``seat`` draws, discarding ``cards``."""
        return self.record(Discarded(seat=seat, cards=cards))

    def show_all(self) -> Recorder:
        """Every hand shown in the order of § 553.16(d)."""
        while self.state.phase is Phase.SHOWDOWN:
            state = self.state
            self.record(Shown(seat=state.showdown_order[len(state.shown) + len(state.mucked)]))
        return self

    def settlement(self) -> HandSettlement:
        """What the complete hand requires."""
        return settle(self.state)

    def settled(self) -> list[Event]:
        """The stream with a correct dealer's money events and the close."""
        return [*self.events, *dealer_events(self.settlement()), HandClosed()]
