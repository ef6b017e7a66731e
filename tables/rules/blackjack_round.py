"""The blackjack family's round machine: one state machine, each game a :class:`BlackjackGame`.

Why not :mod:`tables.rules.machine`: the declared engine deals a fixed set of
card spots per seat, decides once per step and settles each seat's wagers by
name. A blackjack round needs none of that and much it lacks: hands that split
and grow (a hand index on every card, wager and decision), a decision step that
repeats until each hand is done, the dealer drawing "until" a total, wagers
placed mid-deal (Double Attack after the up card, Insurance after the deal) and
a peek whose result follows from the hole card. Bending the declared machine to
that would touch every check it has; instead the family's machine lives once
here, beside it, behind the same entry points: :func:`declare` registers a game
with :func:`tables.rules.engine.register_game`, so :func:`tables.rules.replay.replay`,
:func:`tables.rules.engine.open_round` and :func:`tables.rules.engine.apply` run
a blackjack round like any other, and the findings come out of the same
:func:`tables.rules.replay.findings_for`. A game module declares its wagers, its
deal order, its side wagers' windows and settlements and its rule sets
(:mod:`tables.rules.blackjack_games`); what it does with a hand comes from
:class:`tables.rules.blackjack.BlackjackRules`, :mod:`tables.rules.blackjack_hands`
and :mod:`tables.rules.blackjack_settlement`.

Events (the round stream's usual ones, with ``hand`` numbering a seat's hands
from its left, as they lie on the layout at that moment):

* ``round.wager_placed``: the main wager and the side wagers, each in its window;
  Insurance after the deal, before any decision (§ 5xx.8);
* ``round.no_more_bets`` closes the first window; ``round.card_dealt`` for the
  initial deal in the game's order (dealer spot ``1`` the up card, ``2`` the hole
  card), then each card a decision calls for (``hand`` and spot: the card's
  number in the hand), then the dealer's draws (spots ``3``, ``4`` ...);
* ``round.decision`` with ``hit``, ``stand``, ``double``, ``split``, ``surrender``
  or ``second_chance`` (and ``amount_cents`` where money is added);
* ``round.card_exposed`` for the hole card turned; the dealer's actions; ``round.closed``.

The peek is no event: the hole card is recorded as dealt (face down), so the
engine knows what the reader reported. Facts the table already made happen are
accepted with a finding instead of refused (:class:`Breach`): a card the dealer
drew on 17 or more goes to the discard rack (§ 5xx.13(d)) and the dealer who
stood short of the rule's total is noted when he starts settling.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from tables.rules.blackjack import (
    INSURANCE,
    SurrenderTiming,
    dealer_must_draw,
    described,
    insurance_offered,
    is_blackjack_pair,
    peek_required,
    verify_dealer_draw,
    verify_dealer_stand,
    verify_insurance,
)
from tables.rules.blackjack_declaration import (
    DEALER_HOLE,
    DEALER_UP,
    BlackjackGame,
    Window,
)
from tables.rules.blackjack_hands import SeatHands
from tables.rules.blackjack_irregularities import (
    irregularity,
    refuse_in_error_deal,
    refuse_irregularity,
    unused_to_rack,
)
from tables.rules.blackjack_options import lookups, opening, options_applied
from tables.rules.blackjack_settlement import (
    WagerResult,
    settle_hand,
    settle_insurance,
    settle_seat,
)
from tables.rules.blackjack_state import (
    CLOSED,
    DEALER,
    DEALING,
    PLAY,
    SETTLEMENT,
    VOIDED,
    WAGERING,
    BlackjackSeat,
    BlackjackState,
    Breach,
    chapter_refusal,
    composition,
    left_after,
    refuse_card,
    with_seat,
)
from tables.rules.cards import Card
from tables.rules.engine import (
    Automation,
    Outcome,
    Refusal,
    RuleViolation,
    Settlement,
    SettlementLine,
    evolve,
    register_game,
)
from tables.rules.events import (
    CardDealt,
    CardExposed,
    DealerCollected,
    DealerPaid,
    DealingMethod,
    Decision,
    Event,
    IrregularityReported,
    NoMoreBets,
    Recipient,
    RoundClosed,
    RoundOpened,
    RoundVoided,
    WagerPlaced,
    WagerReturned,
)
from tables.rules.games._shared import opening_rounding

__all__ = [
    "declare",
    "open_round",
    "verify",
    "can_apply",
    "apply",
    "required_settlement",
    "to_act",
]

# ------------------------------------------------------------------ opening

def open_round(
    game: BlackjackGame, event: RoundOpened, automations: frozenset[Automation] = frozenset()
) -> BlackjackState:
    """The state of a round of ``game`` just opened.

    :raises RuleViolation: for another game's rule set, one not in force, a hand-dealt
        round (every card comes from a dealing shoe, § 5xx.7(a)), too many seats or an
        option the game does not declare.
    """
    ruleset = next((item for item in game.rulesets if item.id == event.ruleset_id), None)
    if ruleset is None:
        raise RuleViolation("round.opened", f"not a {game.name} rule set", "ruleset_id")
    if not ruleset.in_force(event.gaming_day):
        raise RuleViolation(ruleset.chapter, f"{ruleset.id} is not in force on "
                            f"{event.gaming_day}", "gaming_day")  # fmt: skip
    if event.dealing_method is DealingMethod.HAND:
        section = ruleset.section(game.sections["dealing_shoe"])
        raise RuleViolation(section, "every card is dealt from a dealing shoe", "dealing_method")
    if len(event.seats) > game.max_seats or max(event.seats, default=1) > game.max_seats:
        section = ruleset.section(game.sections["seated"])
        raise RuleViolation(section, f"no more than {game.max_seats} betting positions", "seats")
    rules, options = opening(game, ruleset, event)
    pairs = sorted(zip(event.seats, event.players, strict=True))
    seats = {number: BlackjackSeat(number, player) for number, player in pairs}
    return BlackjackState(
        game=game, ruleset=ruleset, rules=rules, opened=event, rounding=opening_rounding(event),
        options=options, phase=WAGERING, seats=seats, left=composition(rules),
    )  # fmt: skip


# ------------------------------------------------------------- verification


def _window_open(state: BlackjackState, window: Window) -> bool:
    if window is Window.BEFORE_DEAL:
        return state.phase == WAGERING
    if window is Window.AFTER_UP_CARD:
        players_dealt = any(seat.cards for seat in state.seats.values())
        return state.phase == DEALING and bool(state.dealer) and not players_dealt
    up = state.up_card
    return (state.phase not in (WAGERING, DEALING) and up is not None
            and insurance_offered(up) and not state.insurance_closed)  # fmt: skip


def _window_of(state: BlackjackState, name: str) -> Window:
    if name == INSURANCE:
        return Window.INSURANCE
    side = lookups(state.game).sides.get(name)
    return Window.BEFORE_DEAL if side is None else side.window


def _refuse_wager(state: BlackjackState, event: WagerPlaced) -> Refusal | None:
    seat = state.seats.get(event.seat)
    if seat is None:
        return chapter_refusal(state, "seated", "only seated players may wager", "seat")
    found = lookups(state.game)
    spec = found.specs.get(event.wager)
    if spec is None or spec.by_choice:
        return chapter_refusal(state, "wagers",
                               f"{event.wager} is not a wager placed on the layout", "wager")
    side = found.sides.get(event.wager)
    if side is not None and side.offered_option and not state.options.get(side.offered_option):
        return Refusal(state.section(spec.section), f"the {spec.label} is not offered at this "
                       "table (its Rules Submission)", "wager")  # fmt: skip
    if event.wager in seat.wagers:
        return Refusal(state.section(spec.section), f"{event.wager} is already placed", "wager")
    if event.hand != 1:
        return Refusal(state.section(spec.section), "wagers are placed on the seat's first hand",
                       "hand")  # fmt: skip
    window = _window_of(state, event.wager)
    main = state.rules.main_wager
    if window is Window.INSURANCE and state.up_card is not None and state.phase != DEALING:
        if main not in seat.wagers:
            return Refusal(state.section(spec.section), f"needs a {main} first", "wager")
        # § 5xx.8(a)-(b): offered on an ace, before the reader is used and play goes on.
        return verify_insurance(state.rules, state.up_card, seat.wagers[main], event.amount_cents,
                                chip_unit_cents=state.ruleset.chip_unit_cents,
                                peeked=state.insurance_closed)  # fmt: skip
    if not _window_open(state, window):
        key = "after_no_more_bets" if window is Window.BEFORE_DEAL else "wager_window"
        return Refusal(state.section(spec.section) if key == "wager_window" else state.cite(key),
                       f"the {spec.label} is placed {window.value.replace('_', ' ')}, not now "
                       f"({state.phase})", "wager")  # fmt: skip
    if event.wager != main and main not in seat.wagers:
        return Refusal(state.section(spec.section), f"needs a {main} first", "wager")
    if side is not None and side.at_most is not None:
        cap = seat.wagers.get(side.at_most, 0)
        if event.amount_cents > cap:
            return Refusal(state.section(spec.section), f"may not be more than the {side.at_most} "
                           f"({cap} cents), got {event.amount_cents}", "amount_cents")  # fmt: skip
    return None


def _refuse_no_more_bets(state: BlackjackState, event: NoMoreBets) -> Refusal | None:
    if state.phase != WAGERING:
        return chapter_refusal(state, "after_no_more_bets", "no more bets was already called")
    if not any(state.rules.main_wager in seat.wagers for seat in state.seats.values()):
        return chapter_refusal(state, "wagers", f"no seat placed a {state.rules.main_wager}")
    return None


def to_act(state: BlackjackState) -> BlackjackSeat | None:
    """The seat whose hand decides or takes a card now (clockwise from the dealer's left)."""
    return None if state.acting is None else state.seats[state.acting]


def _next_acting(
    seats: Mapping[int, BlackjackSeat], start: int, deferred: tuple[int, ...]
) -> int | None:
    """The first seat from ``start``, clockwise, with a hand still to play."""
    for number in sorted(seats):
        seat = seats[number]
        if number >= start and number not in deferred and seat.hands is not None and (
                not seat.hands.finished):  # fmt: skip
            return number
    return None


def _refuse_deal(state: BlackjackState, event: CardDealt) -> Refusal | None:
    refusal = refuse_card(state, event.card) or refuse_in_error_deal(state, event)
    if refusal is not None:
        return refusal
    if state.phase == DEALING:
        expected = state.slots[state.dealt]
        if (event.recipient, event.seat, event.spot) != expected:
            recipient, seat, spot = expected
            whom = "the dealer" if seat is None else f"seat {seat}"
            return chapter_refusal(state, "deal",
                                   f"the next card of the deal is {whom}'s card {spot}", "spot")
        return None
    if state.phase == PLAY:
        acting = to_act(state)
        assert acting is not None and acting.hands is not None
        if event.recipient is not Recipient.PLAYER or event.seat != acting.seat:
            return chapter_refusal(state, "deal", f"seat {acting.seat} is being dealt to", "seat")
        hands = acting.hands
        refusal = hands.verify_card()
        if refusal is not None:
            return refusal
        if event.hand != hands.active + 1:
            return Refusal(state.rules.section("decisions"),
                           f"hand {hands.active + 1} is being completed", "hand")  # fmt: skip
        if event.spot != str(len(hands.hand.cards) + 1):
            return chapter_refusal(state, "deal", f"the hand's next card is card "
                            f"{len(hands.hand.cards) + 1}", "spot")  # fmt: skip
        return None
    if state.phase == DEALER:
        if event.recipient is not Recipient.DEALER:
            return chapter_refusal(state, "deal",
                                   "every player's hand is complete: the dealer draws", "recipient")
        if event.spot != str(len(state.dealer) + 1):
            return chapter_refusal(state, "deal",
                            f"the dealer's next card is card {len(state.dealer) + 1}", "spot")
        return None
    return chapter_refusal(state, "deal", f"no card is dealt during {state.phase}")


def _before_peek(state: BlackjackState) -> bool:
    """Whether a surrender now is § 590.9(a)(2)'s (§ 591.9(a)(2)'s, § 581.9(b)(2)'s): the
    ``before_peek`` reading, an ace or 10-value up card, the reader not yet used (nothing
    has closed the Insurance Wagers)."""
    return (state.rules.surrender_timing is SurrenderTiming.BEFORE_PEEK
            and state.phase in (PLAY, SETTLEMENT) and not state.insurance_closed
            and peek_required(state.rules, state.dealer[0]))  # fmt: skip


def _refuse_early_surrender(state: BlackjackState, event: Decision) -> Refusal | None:
    """A surrender before the reader: any seat, out of turn, on its first two cards."""
    seat = state.seats.get(event.seat)
    if seat is None or seat.hands is None:
        return chapter_refusal(state, "seated", "no hand at this seat", "seat")
    hands = seat.hands
    if event.hand != 1 or len(hands.hands) != 1:
        return Refusal(state.rules.section("surrender"), "surrender is on the first two cards",
                       "hand")  # fmt: skip
    if hands.hands[0].surrendered or hands.is_blackjack(hands.hands[0]):
        return Refusal(state.rules.section("surrender"), "the hand has surrendered or is a "
                       "Blackjack", "choice")  # fmt: skip
    return None


def _refuse_decision(state: BlackjackState, event: Decision) -> Refusal | None:
    if event.choice == "surrender" and state.rules.surrender_timing is SurrenderTiming.BEFORE_PEEK:
        if _before_peek(state):
            return _refuse_early_surrender(state, event)
        # § 581.7(k) lets a Double Attack hand surrender after the peek whatever the reading.
        late = state.rules.late_surrender
        if state.phase == PLAY and not late and peek_required(state.rules, state.dealer[0]):
            return Refusal(state.rules.section("surrender_before_peek"), "against an ace or "
                           "10-value up card a surrender comes before the card reader is used "
                           "(reading surrender_timing=before_peek)", "choice")  # fmt: skip
    if state.phase != PLAY:
        return Refusal(state.rules.section("decisions"), f"no decision during {state.phase}",
                       "choice")  # fmt: skip
    seat = to_act(state)
    assert seat is not None and seat.hands is not None
    if event.seat != seat.seat:
        return Refusal(state.rules.section("decisions"), f"seat {seat.seat} decides first", "seat")
    hands = seat.hands
    if event.hand != hands.active + 1:
        return Refusal(state.rules.section("decisions"), f"hand {hands.active + 1} decides now",
                       "hand")  # fmt: skip
    verify = _DECISIONS.get(event.choice)
    if verify is None:
        return Refusal(state.rules.section("decisions"), f"{event.choice!r} is not a blackjack "
                       f"decision ({', '.join(_DECISIONS)})", "choice")  # fmt: skip
    return verify[0](hands, event.amount_cents or 0)


_DECISIONS: dict[str, tuple[Callable[[SeatHands, int], Refusal | None],
                            Callable[[SeatHands, int], SeatHands]]] = {
    "hit": (lambda hands, amount: hands.verify_hit(),
            lambda hands, amount: hands.hit(verified=True)),
    "stand": (lambda hands, amount: hands.verify_stand(),
              lambda hands, amount: hands.stand(verified=True)),
    "double": (SeatHands.verify_double,
               lambda hands, amount: hands.double(amount, verified=True)),
    "split": (SeatHands.verify_split, lambda hands, amount: hands.split(amount, verified=True)),
    "surrender": (lambda hands, amount: hands.verify_surrender(),
                  lambda hands, amount: hands.surrender(verified=True)),
    "second_chance": (SeatHands.verify_second_chance,
                      lambda hands, amount: hands.second_chance(amount, verified=True)),
}  # fmt: skip


def _refuse_expose(state: BlackjackState, event: CardExposed) -> Refusal | None:
    if event.recipient is not Recipient.DEALER or event.spot != "2":
        return chapter_refusal(state, "deal", "only the dealer's hole card is turned; the rest "
                               "are dealt face up", "spot")  # fmt: skip
    if state.phase not in (DEALER, SETTLEMENT) or state.hole_exposed:
        return chapter_refusal(state, "deal", "the hole card is turned once, after the players' "
                        "decisions", "spot")  # fmt: skip
    if event.card is not None and event.card != state.dealer[1]:
        return chapter_refusal(state, "deal", f"the hole card is {state.dealer[1]}", "card")
    return None


def _refuse_dealer_action(state: BlackjackState, event: Any) -> Refusal | None:
    if state.phase in (WAGERING, DEALING):
        return chapter_refusal(state, "settle", "wagers are settled once the cards are dealt")
    return None


def _refuse_close(state: BlackjackState, event: RoundClosed) -> Refusal | None:
    if state.phase in (WAGERING, DEALING, PLAY):
        return chapter_refusal(state, "close", f"the round is still in {state.phase}")
    return None


_CHECKS: dict[type[Event], Callable[[BlackjackState, Any], Refusal | None]] = {
    WagerPlaced: _refuse_wager,
    NoMoreBets: _refuse_no_more_bets,
    CardDealt: _refuse_deal,
    Decision: _refuse_decision,
    CardExposed: _refuse_expose,
    IrregularityReported: refuse_irregularity,
    RoundVoided: lambda state, event: None,
    DealerPaid: _refuse_dealer_action,
    DealerCollected: _refuse_dealer_action,
    WagerReturned: _refuse_dealer_action,
    RoundClosed: _refuse_close,
}


def verify(state: BlackjackState, event: Event) -> Refusal | None:
    """Why ``event`` may not be applied to ``state``, or ``None``."""
    if state.phase == CLOSED:
        return chapter_refusal(state, "close", "the round is closed")
    check = _CHECKS.get(type(event))
    if check is None:
        return Refusal("round", f"{event.TYPE} is not an event of {state.game.name}", "type")
    if state.phase == VOIDED and type(event) not in (WagerReturned, RoundClosed):
        return chapter_refusal(state, "void", "the round is void: its wagers are returned")
    return check(state, event)


def can_apply(state: BlackjackState, event: Event) -> bool:
    """Whether :func:`apply` would accept ``event``."""
    return verify(state, event) is None


# ------------------------------------------------------------------ steps


def _place(state: BlackjackState, event: WagerPlaced) -> BlackjackState:
    seat = state.seats[event.seat]
    return with_seat(state, evolve(seat, wagers={**seat.wagers, event.wager: event.amount_cents}))


def _no_more_bets(state: BlackjackState, event: NoMoreBets) -> BlackjackState:
    main = state.rules.main_wager
    playing = [number for number in sorted(state.seats) if main in state.seats[number].wagers]
    slots: list[tuple[Recipient, int | None, str]] = []
    seat_cards = 0
    for part in state.game.deal:
        if part == DEALER_UP:
            slots.append((Recipient.DEALER, None, "1"))
        elif part == DEALER_HOLE:
            slots.append((Recipient.DEALER, None, "2"))
        else:
            seat_cards += 1
            slots.extend((Recipient.PLAYER, number, str(seat_cards)) for number in playing)
    return evolve(state, phase=DEALING, slots=tuple(slots))


def _deal(state: BlackjackState, event: CardDealt) -> BlackjackState:
    card = event.card
    if state.in_error is not None:  # it is this card (_refuse_deal): used
        state = evolve(state, in_error=None, in_error_exposed=False)
    left = left_after(state, card)
    if state.phase == DEALING:
        dealt = state.dealt + 1
        if event.recipient is Recipient.DEALER:
            state = evolve(state, left=left, dealt=dealt, dealer=(*state.dealer, card))
        else:
            assert event.seat is not None
            seat = state.seats[event.seat]
            seats = {**state.seats, seat.seat: evolve(seat, cards=(*seat.cards, card))}
            state = evolve(state, left=left, dealt=dealt, seats=seats)
        return _after_deal(state) if dealt == len(state.slots) else state
    if state.phase == PLAY:
        acting = to_act(state)
        assert acting is not None and acting.hands is not None
        hands = acting.hands.card(card, verified=True)  # _refuse_deal verified it
        seats = {**state.seats, acting.seat: evolve(acting, hands=hands)}
        return _after_play(state, left=left, seats=seats)
    return _dealer_draw(state, card, left)


def _after_deal(state: BlackjackState) -> BlackjackState:
    """The deal is complete: the hands form, the reader peeks where the chapter says."""
    up = state.dealer[0]
    seats = dict(state.seats)
    for number, seat in seats.items():
        if seat.cards:
            main = seat.wagers[state.rules.main_wager]
            attack = seat.wagers.get("DOUBLE_ATTACK", 0)
            seats[number] = evolve(seat, hands=SeatHands.dealt(state.rules, up, seat.cards,
                                                                main, attack))  # fmt: skip
    if peek_required(state.rules, up) and is_blackjack_pair(state.dealer):
        # § 5xx.7(g): the reader reports a Blackjack; no more cards are dealt, and every
        # hand is settled as it lies (its decisions never come).
        for number, seat in seats.items():
            if seat.hands is not None:
                hands = seat.hands
                over = tuple(hand._replace(stood=True) for hand in hands.hands)
                seats[number] = seat._replace(hands=hands._replace(hands=over, active=len(over)))
        return evolve(state, seats=seats, phase=SETTLEMENT)
    return _after_play(state, seats=seats, phase=PLAY)


def _after_play(state: BlackjackState, **changes: Any) -> BlackjackState:
    """``state`` with ``changes``, the turn passed on once the acting seat's hands are done
    (one copy of the state: replay comes here on most events)."""
    seats = changes.get("seats", state.seats)
    acting, deferred = state.acting, state.deferred
    if acting is not None and acting not in deferred and (
            not seats[acting].hands.finished):  # fmt: skip
        return evolve(state, **changes) if changes else state
    acting = _next_acting(seats, acting or 0, deferred)
    if acting is None and deferred:  # § 581.13(g): the deferred cards, before the hole card
        acting, changes["deferred"] = deferred[0], deferred[1:]
    if acting is None:
        changes["phase"] = DEALER
    changes["acting"] = acting
    return evolve(state, **changes)


def _outcome_open(state: BlackjackState) -> bool:
    needs = lookups(state.game).dealer_settles
    return any(
        (seat.hands is not None and seat.hands.awaits_dealer) or not needs.isdisjoint(seat.wagers)
        for seat in state.seats.values() if not seat.dead
    )


def _dealer_draw(state: BlackjackState, card: Card, left: tuple[int, ...]) -> BlackjackState:
    rules = state.rules
    refusal = verify_dealer_draw(rules, state.dealer, outcome_open=_outcome_open(state))
    if refusal is None:
        return evolve(state, left=left, insurance_closed=True, dealer=(*state.dealer, card))
    if dealer_must_draw(rules, state.dealer):
        # § 590.7(m), § 591.7(p): no wager depends on the total, so the card changes nothing.
        breach = Breach(0, "dealer", refusal.section, f"the dealer drew {card}: {refusal.reason}")
        return evolve(state, left=left, insurance_closed=True, dealer=(*state.dealer, card),
                      breaches=(*state.breaches, breach))  # fmt: skip
    breach = Breach(0, "dealer", state.cite("dealer_draw_error"),
                    f"the dealer drew {card} on {described(state.dealer)}: the card goes to the "
                    "discard rack and is not part of the dealer's hand")  # fmt: skip
    return evolve(state, left=left, insurance_closed=True, discarded=(*state.discarded, card),
                  breaches=(*state.breaches, breach))  # fmt: skip


def _dealer_may_stand(state: BlackjackState) -> bool:
    return verify_dealer_stand(state.rules, state.dealer, outcome_open=_outcome_open(state)) is None


def _dealer_done(state: BlackjackState) -> BlackjackState:
    """The dealer started settling: he has stood, rightly or not (§ 5xx.7(n))."""
    if state.phase != DEALER:
        return state
    state = unused_to_rack(state)
    refusal = verify_dealer_stand(state.rules, state.dealer, outcome_open=_outcome_open(state))
    if refusal is not None:
        breach = Breach(0, "dealer", refusal.section, f"the dealer stood: {refusal.reason}")
        state = evolve(state, breaches=(*state.breaches, breach))
    return evolve(state, phase=SETTLEMENT, insurance_closed=True)


def _surrender_before_peek(state: BlackjackState, event: Decision) -> BlackjackState:
    """The wager waits on the cards until the reader is used (§ 590.9(a)(2)); the Insurance
    Wagers stay open (§ 590.9(b) settles both)."""
    seat = state.seats[event.seat]
    assert seat.hands is not None
    hands = seat.hands._replace(hands=(seat.hands.hands[0]._replace(surrendered=True),), active=1)
    state = with_seat(state, seat._replace(hands=hands))
    return _after_play(state) if state.phase == PLAY else state


def _decision(state: BlackjackState, event: Decision) -> BlackjackState:
    if event.choice == "surrender" and _before_peek(state):
        return _surrender_before_peek(state, event)
    seat = to_act(state)
    assert seat is not None and seat.hands is not None
    hands = _DECISIONS[event.choice][1](seat.hands, event.amount_cents or 0)
    seats = {**state.seats, seat.seat: evolve(seat, hands=hands)}
    return _after_play(state, seats=seats, insurance_closed=True)


def _expose(state: BlackjackState, event: CardExposed) -> BlackjackState:
    return evolve(state, hole_exposed=True, insurance_closed=True)


def _closes_insurance(state: BlackjackState, event: Any) -> bool:
    """Whether the dealer's action ends the Insurance Wagers: any but § 591.7(f)'s Blackjack,
    paid before Insurance is offered."""
    seat = state.seats.get(event.seat)
    if not state.rules.blackjack_before_peek or seat is None or seat.hands is None:
        return True
    return not seat.hands.is_blackjack(seat.hands.hands[0])


def _dealer_action(state: BlackjackState, event: Any) -> BlackjackState:
    actions = (*state.dealer_actions, event)
    if state.phase == DEALER:  # once every hand is played, paying means the dealer stood
        return evolve(_dealer_done(state), dealer_actions=actions)
    if _closes_insurance(state, event):
        return evolve(state, insurance_closed=True, dealer_actions=actions)
    return evolve(state, dealer_actions=actions)


def _void(state: BlackjackState, event: RoundVoided) -> BlackjackState:
    return evolve(state, phase=VOIDED, void_section=state.cite("void"), void_reason=event.reason)


def _close(state: BlackjackState, event: RoundClosed) -> BlackjackState:
    return evolve(_dealer_done(state), phase=CLOSED)


_STEPS: dict[type[Event], Callable[[BlackjackState, Any], BlackjackState]] = {
    WagerPlaced: _place,
    NoMoreBets: _no_more_bets,
    CardDealt: _deal,
    Decision: _decision,
    CardExposed: _expose,
    IrregularityReported: lambda state, event: (
        _after_play(irregularity(state, event)) if state.phase == PLAY else (
            irregularity(state, event))),
    RoundVoided: _void,
    DealerPaid: _dealer_action,
    DealerCollected: _dealer_action,
    WagerReturned: _dealer_action,
    RoundClosed: _close,
}


def apply(state: BlackjackState, event: Event) -> BlackjackState:
    """The state after ``event``.

    :raises RuleViolation: naming the section when the rules forbid it.
    """
    refusal = verify(state, event)
    if refusal is not None:
        raise RuleViolation.from_refusal(refusal)
    return _STEPS[type(event)](state, event)


# -------------------------------------------------------------- settlement


_HAND_NAMES = tuple(f"hand {number}" for number in range(8))


def _line(seat: BlackjackSeat, result: WagerResult) -> SettlementLine:
    outcome = result.outcome
    if outcome is Outcome.WIN:
        amount = result.paid_cents
    elif outcome in (Outcome.LOSE, Outcome.FORFEITED):
        amount = result.collected_cents
    else:
        amount = result.stake_cents
    readings = result.readings
    notes = tuple([f"reading {name}={value}" for name, value in readings]) if readings else ()
    if result.marker:
        notes += ("a Free Bet lammer: a marker, no money",)
    number = result.hand
    return SettlementLine(
        seat=seat.seat, player=seat.player, wager=result.wager, stake_cents=result.stake_cents,
        outcome=outcome, amount_cents=amount, section=result.section,
        hand=(_HAND_NAMES[number] if number < 8 else f"hand {number}") if number else None,
        pay_line=result.pay_line,
        odds=None if result.odds is None else str(result.odds),
        uncapped_cents=amount if outcome is Outcome.WIN else None, notes=notes,
        hand_index=max(result.hand, 1),
    )  # fmt: skip


def _seat_results(state: BlackjackState, seat: BlackjackSeat) -> list[WagerResult]:
    rules, dealer, rounding = state.rules, state.dealer, state.rounding
    results: list[WagerResult] = []
    for side in state.game.side_wagers:
        stake = seat.wagers.get(side.name)
        if stake is None or side.settle is None:
            continue
        try:
            results.append(side.settle(rules, stake, dealer, rounding))
        except ValueError as undecided:  # the dealer stood before the card that decides it
            # § 581.7(m)(2): the third card was never drawn; the wager is returned undecided
            # (the chapter names no remedy) and the dealer's stand is a finding.
            key = "dealer_third_card" if "dealer_third_card" in rules.sections else "dealer_draw"
            results.append(WagerResult(hand=0, wager=side.name, stake_cents=stake,
                                       outcome=Outcome.RETURNED, section=rules.section(key),
                                       readings=(("undecided", str(undecided)),)))  # fmt: skip
    if INSURANCE in seat.wagers:
        results.append(settle_insurance(rules, seat.wagers[INSURANCE], dealer[1], rounding))
    if seat.hands is not None:
        if not seat.dead_hands:
            results.extend(settle_seat(seat.hands, dealer, rounding))
        else:  # a hand called dead keeps its stakes (§ 581.13(g), § 5xx.13(h))
            section = state.cite("card_not_given")
            for index, hand in enumerate(seat.hands.hands):
                if index + 1 in seat.dead_hands:
                    results.extend(WagerResult(hand=index + 1, wager=name, stake_cents=amount,
                                               outcome=Outcome.RETURNED, section=section)
                                   for name, amount in hand.stakes)  # fmt: skip
                else:
                    results.extend(settle_hand(seat.hands, index, dealer, rounding))
    return results


def _returned(state: BlackjackState, seat: BlackjackSeat, section: str) -> list[WagerResult]:
    stakes: list[tuple[int, str, int]] = []
    if seat.hands is None:
        stakes = [(0, name, amount) for name, amount in seat.wagers.items()]
    else:
        hand_wagers = {name for hand in seat.hands.hands for name, _ in hand.stakes}
        stakes = [(0, name, amount) for name, amount in seat.wagers.items()
                  if name not in hand_wagers]  # fmt: skip
        stakes += [(number, name, amount) for number, hand in enumerate(seat.hands.hands, 1)
                   for name, amount in hand.stakes]  # fmt: skip
    return [WagerResult(hand=hand, wager=name, stake_cents=amount, outcome=Outcome.RETURNED,
                        section=section) for hand, name, amount in stakes]  # fmt: skip


def _options_applied(state: BlackjackState) -> tuple[tuple[str, str], ...]:
    return (("rounding", state.rounding.name), *options_applied(state.rules, state.options))


def required_settlement(state: BlackjackState) -> Settlement:
    """What the chapter requires for every wager of the round, seats counterclockwise.

    Each seat's side wagers first (Bust It before the Bet, § 581.7(m)(1)), then
    each hand's wagers in hand order. Before the dealer's hand is complete
    nothing is settled and ``complete`` is false; once the dealer's rule lets him
    stand, the settlement is complete.
    """
    voided = state.void_section is not None
    complete = voided or state.phase in (SETTLEMENT, CLOSED) or (
        state.phase == DEALER and _dealer_may_stand(state))
    lines: list[SettlementLine] = []
    if complete:
        for number in sorted(state.seats, reverse=True):
            seat = state.seats[number]
            if voided or seat.dead:
                section = state.void_section if voided else state.cite("card_missed")
                results = _returned(state, seat, section or state.cite("void"))
            else:
                results = _seat_results(state, seat)
            lines.extend(_line(seat, result) for result in results)
    notes = tuple(f"{breach.section}: {breach.reason}" for breach in state.breaches)
    return Settlement(
        round_id=state.opened.round_id, ruleset_id=state.ruleset.id,
        rounding=state.rounding.name, lines=tuple(lines), complete=complete, voided=voided,
        void_section=state.void_section, options_applied=_options_applied(state),
        notes=(*state.ruleset.notes, *notes),
    )  # fmt: skip


# ------------------------------------------------------------ registration


class _Registered:
    """What the engine's registry holds for one blackjack game."""

    def __init__(self, game: BlackjackGame) -> None:
        self.game = game

    def open(self, event: RoundOpened, automations: frozenset[Automation]) -> BlackjackState:
        return open_round(self.game, event, automations)

    apply = staticmethod(apply)
    required_settlement = staticmethod(required_settlement)


def declare(game: BlackjackGame) -> BlackjackGame:
    """Register ``game`` with the engine (called once by its module)."""
    register_game(game.id, BlackjackState, _Registered(game))
    return game

