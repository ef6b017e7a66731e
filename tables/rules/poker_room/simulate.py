"""Random hands: the differential test's, the bench's and the demo's players.

:func:`random_hand` plays one hand with random legal actions from a shuffled
deck the caller's ``random.Random`` orders (the engine itself never
shuffles), recorded as events by a :class:`~.record.Recorder`. Stacks of a few
times the blinds make all-ins and side pots common.

>>> import datetime, random
>>> from tables.rules.poker_room.rulesets import poker_ruleset
>>> hand = random_hand(poker_ruleset("PA-553-HOLDEM-NL-1-2-BB"), random.Random(1),
...     hand_id="h", table_id="P1", gaming_day=datetime.date(2026, 11, 24))
>>> hand.state.phase
<Phase.COMPLETE: 'complete'>
"""

from __future__ import annotations

import datetime
import random

from tables.rules.cards import STANDARD_DECK
from tables.rules.poker_room.events import Action, HandOpened
from tables.rules.poker_room.hand import Phase, raise_bounds, verify_bet_or_raise_to
from tables.rules.poker_room.record import Recorder
from tables.rules.poker_room.rules import PokerRuleSet

__all__ = ["random_hand"]

_CHOICES = ("fold", "call", "call", "call", "raise", "raise", "all-in")


def random_hand(
    rules: PokerRuleSet, rng: random.Random, *, hand_id: str = "h", table_id: str = "T",
    gaming_day: datetime.date = datetime.date(2026, 1, 1), ruleset_id: str = "-",
    players: int | None = None, bad_beat_fund: str | None = None,
) -> Recorder:  # fmt: skip
    """One hand of random legal actions, played to its end with every hand shown.

    :param players: how many; by default 3 to 7 in the button games (pokerkit's
        heads-up blinds differ from the chapter's, § 553.11(d)), 2 to 7 in stud.
    """
    variant = rules.variant
    count = players or rng.randint(3 if variant.button else 2, min(variant.max_players, 7))
    seats = tuple(range(1, count + 1))
    deck = list(STANDARD_DECK)
    rng.shuffle(deck)
    least = rules.ante_cents + max(rules.blinds_cents, default=rules.forced_bet_cents)
    least += rules.small_bet_cents
    opened = HandOpened(
        hand_id=hand_id, table_id=table_id, gaming_day=gaming_day, ruleset_id=ruleset_id,
        seats=seats, players=tuple(f"p{seat}" for seat in seats),
        stacks_cents=tuple(rng.randint(2, 20) * least for _ in seats),
        button=rng.choice(seats) if variant.button else None, bad_beat_fund=bad_beat_fund,
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
        choice = rng.choice(_CHOICES)
        if choice in ("raise", "all-in"):
            smallest, largest = raise_bounds(state, seat)
            stakes = state.stacks[seat] + state.bets.get(seat, 0)
            amount = stakes if choice == "all-in" else rng.randint(
                smallest, max(smallest, min(largest, stakes)))  # fmt: skip
            if verify_bet_or_raise_to(state, seat, amount) is None:
                hand.act(seat, Action.RAISE if state.current_bet else Action.BET, amount)
                continue
        owed = state.current_bet - state.bets.get(seat, 0)
        if choice == "fold" and owed > 0:
            hand.act(seat, Action.FOLD)
        else:
            hand.act(seat, Action.CALL if owed else Action.CHECK)
    return hand.show_all()
