"""The blackjack chapters' irregularities a round records, and the remedies replay applies.

* a card found face up in the shoe: not used, to the discard rack (§ 5xx.13(a));
* a hand passed over in the deal (§ 581.13(f), § 590.13(g), § 591.13(g)): no card yet,
  the hand is dead and its wagers returned; its second card, dealt after every
  other player's second card;
* a card a player asked for and the dealer did not deal (§ 581.13(g), § 590.13(h),
  § 591.13(h)): at the player's option, dealt after every other player's cards and
  before the hole card is turned, or the hand called dead and its wagers returned
  (all the hand's stakes: the chapters name only the Bet and Double Attack, or the
  original Blackjack Wager, being silent on money a split or double added);
* the hole card read for an up card that needs no peek (§ 581.13(h), § 590.13(i),
  § 591.13(i)): all hands dead at a § 581 table whose reader let a player learn it,
  else play continues and the dealer's error is a finding;
* a card drawn in error (§ 5xx.13(b), (c), the same letters in all three chapters): face
  down, it is the next card dealt, whoever takes it; exposed once the deal is complete,
  it is the next card too, offered to the hand playing, and a seat that refuses it
  takes no more cards this round; if no player takes it and the dealer does not draw,
  it goes to the discard rack when he stands.
"""

from __future__ import annotations

from tables.rules.blackjack import peek_required, verify_reader_use
from tables.rules.blackjack_state import (
    CLOSED,
    DEALER,
    DEALING,
    PLAY,
    SETTLEMENT,
    VOIDED,
    WAGERING,
    BlackjackState,
    Breach,
    chapter_refusal,
    left_after,
    refuse_card,
    with_seat,
)
from tables.rules.engine import Refusal, evolve
from tables.rules.events import CardDealt, IrregularityKind, IrregularityReported, Recipient

__all__ = [
    "READER_MISUSED", "READER_MISUSED_SEEN", "CARD_NOT_DEALT", "CARD_NOT_GIVEN_LATER",
    "CARD_NOT_GIVEN_DEAD", "DRAWN_IN_ERROR", "DRAWN_IN_ERROR_EXPOSED", "EXPOSED_CARD_REFUSED",
    "refuse_irregularity", "refuse_in_error_deal", "irregularity", "unused_to_rack",
]  # fmt: skip

#: The hole card went into the card reader for an up card that needs no peek, and the
#: reader did (``_SEEN``) or did not let a player learn it (§ 581.13(h), § 590.13(i),
#: § 591.13(i)).
READER_MISUSED, READER_MISUSED_SEEN = "HOLE_CARD_READ_UNASKED", "HOLE_CARD_READ_UNASKED_SEEN"
#: The dealer passed over the next card of the deal to ``seat`` (§ 581.13(f), § 5xx.13(g)).
CARD_NOT_DEALT = "CARD_NOT_DEALT"


#: The dealer did not deal a card the acting hand asked for; the player chose to have it
#: after every other player's cards (``_LATER``) or the hand called dead (``_DEAD``).
CARD_NOT_GIVEN_LATER, CARD_NOT_GIVEN_DEAD = "REQUESTED_CARD_LATER", "REQUESTED_CARD_DEAD"


#: A card drawn in error, its face not seen (§ 5xx.13(b)) or exposed to the players
#: (§ 5xx.13(c)); the acting seat's player refusing the exposed one (§ 5xx.13(c)).
DRAWN_IN_ERROR = IrregularityKind.CARD_DRAWN_IN_ERROR.value
DRAWN_IN_ERROR_EXPOSED, EXPOSED_CARD_REFUSED = "CARD_DRAWN_IN_ERROR_EXPOSED", "EXPOSED_CARD_REFUSED"


def _refuse_drawn(state: BlackjackState, event: IrregularityReported) -> Refusal | None:
    exposed = event.kind == DRAWN_IN_ERROR_EXPOSED
    key = "exposed_in_error" if exposed else "drawn_in_error"
    if event.card is None:
        return chapter_refusal(state, key, "name the card drawn in error", "card")
    if state.phase not in (DEALING, PLAY, DEALER):
        return chapter_refusal(state, key, f"no card is drawn during {state.phase}", "kind")
    if state.in_error is not None:
        return chapter_refusal(state, key, f"{state.in_error}, drawn in error, is not yet used: "
                               "it is the next card", "kind")  # fmt: skip
    if exposed and state.phase == DEALING:
        # § 590.13(c), § 591.13(c) start after the players' two cards, § 581.13(c) after the
        # dealer's too; in all three only the dealer's hole card is left then (reading: the
        # section applies once the initial deal is complete).
        return chapter_refusal(state, key, "an exposed card drawn in error is dealt as the next "
                               "card only after the initial two cards", "kind")  # fmt: skip
    return refuse_card(state, event.card)


def _refuse_refusal(state: BlackjackState, event: IrregularityReported) -> Refusal | None:
    if state.in_error is None or not state.in_error_exposed:
        return chapter_refusal(state, "exposed_in_error", "no exposed card drawn in error "
                               "waits to be dealt", "kind")  # fmt: skip
    if state.phase != PLAY or event.seat != state.acting:
        whom = "no player" if state.phase != PLAY else f"seat {state.acting}"
        return chapter_refusal(state, "exposed_in_error", f"the card is offered to the hand "
                               f"playing now: {whom}", "seat")  # fmt: skip
    return None


def refuse_in_error_deal(state: BlackjackState, event: CardDealt) -> Refusal | None:
    """§ 5xx.13(b)-(c): a card drawn in error is the next card; a seat that refused the
    exposed one is dealt no more."""
    if event.recipient is Recipient.PLAYER and event.seat in state.refused:
        return chapter_refusal(state, "exposed_in_error", f"seat {event.seat} refused the "
                               "exposed card drawn in error: no more cards this round", "seat")
    if state.in_error is not None and event.card != state.in_error:
        key = "exposed_in_error" if state.in_error_exposed else "drawn_in_error"
        return chapter_refusal(state, key, f"{state.in_error}, drawn in error, is dealt as the "
                               "next card", "card")  # fmt: skip
    return None


def refuse_irregularity(state: BlackjackState, event: IrregularityReported) -> Refusal | None:
    if event.kind in (DRAWN_IN_ERROR, DRAWN_IN_ERROR_EXPOSED):
        return _refuse_drawn(state, event)
    if event.kind == EXPOSED_CARD_REFUSED:
        return _refuse_refusal(state, event)
    if event.kind in (CARD_NOT_GIVEN_LATER, CARD_NOT_GIVEN_DEAD):
        seat = state.seats.get(event.seat) if state.acting == event.seat else None  # type: ignore[arg-type]
        hands = None if seat is None else seat.hands
        if hands is None or hands.finished or hands.hand.pending is None:
            return chapter_refusal(state, "card_not_given", "only the hand playing, having "
                                   "asked for a card, can be passed over", "seat")  # fmt: skip
        if event.kind == CARD_NOT_GIVEN_LATER and event.seat in state.deferred:
            return chapter_refusal(state, "card_not_given", "its card already comes last", "seat")
        return None
    if event.kind == CARD_NOT_DEALT:
        slot = state.slots[state.dealt] if state.phase == DEALING else None
        if slot is None or slot[0] is not Recipient.PLAYER or slot[1] != event.seat:
            return chapter_refusal(state, "card_missed", "only the seat whose card of the deal "
                                   "is next can be passed over", "seat")  # fmt: skip
        return None
    if event.kind in (READER_MISUSED, READER_MISUSED_SEEN):
        if len(state.dealer) < 2 or state.phase in (SETTLEMENT, CLOSED):
            return chapter_refusal(state, "irregularities", "the hole card is in the reader only "
                            "between the deal and the dealer's play", "kind")  # fmt: skip
        if peek_required(state.rules, state.dealer[0]):
            return Refusal(state.rules.section("peek"), f"a {state.dealer[0]} up card needs the "
                           "reader: no irregularity", "kind")  # fmt: skip
        return None
    if event.kind != IrregularityKind.CARD_FACE_UP_IN_DECK or event.card is None:
        return chapter_refusal(state, "irregularities",
                               f"{event.kind} is not reported this way here", "kind")
    if state.phase in (WAGERING, CLOSED):
        return chapter_refusal(state, "irregularities", "no card is drawn outside the deal", "kind")
    return refuse_card(state, event.card)


def passed_over(state: BlackjackState, number: int) -> BlackjackState:
    """No card to the hand: dead, in the next deal; its second card: dealt after the others'."""
    done, rest = state.slots[: state.dealt], state.slots[state.dealt :]
    seat = state.seats[number]
    if not seat.cards:
        kept = tuple(slot for slot in rest if slot[1] != number)
        state = evolve(state, slots=done + kept)
        return with_seat(state, evolve(seat, dead=True))
    # At the player's option (the only one the chapter offers): after every other player's
    # second card, before the dealer's hole card.
    missed, later = rest[0], rest[1:]
    last = max((index for index, slot in enumerate(later) if slot[0] is Recipient.PLAYER),
               default=-1)  # fmt: skip
    moved = (*later[: last + 1], missed, *later[last + 1 :])
    return evolve(state, slots=done + moved)


def _called_dead(state: BlackjackState, number: int) -> BlackjackState:
    """The active hand is dead: done, its stakes to be returned; play moves on."""
    seat = state.seats[number]
    hands = seat.hands
    assert hands is not None
    index = hands.active
    over = (*hands.hands[:index], hands.hand._replace(pending=None, stood=True),
            *hands.hands[index + 1 :])  # fmt: skip
    active = index + 1
    while active < len(over) and hands.is_done(over[active]):
        active += 1
    seat = evolve(seat, hands=evolve(hands, hands=over, active=active),
                  dead_hands=(*seat.dead_hands, index + 1))  # fmt: skip
    return with_seat(state, seat)


def _refused(state: BlackjackState, number: int) -> BlackjackState:
    """§ 5xx.13(c): the seat takes no more cards; each of its hands still playing stands."""
    seat = state.seats[number]
    hands = seat.hands
    assert hands is not None
    over = (*hands.hands[: hands.active],
            *(hand._replace(pending=None, stood=True) for hand in hands.hands[hands.active :]))
    seat = evolve(seat, hands=evolve(hands, hands=over, active=len(over)))
    return evolve(with_seat(state, seat), refused=(*state.refused, number))


def unused_to_rack(state: BlackjackState) -> BlackjackState:
    """The dealer stands with the card drawn in error unused: it goes to the discard rack
    (§ 5xx.13(c); a face-down one likewise, the chapters being silent)."""
    card = state.in_error
    if card is None:
        return state
    return evolve(state, in_error=None, in_error_exposed=False, left=left_after(state, card),
                  discarded=(*state.discarded, card))  # fmt: skip


def irregularity(state: BlackjackState, event: IrregularityReported) -> BlackjackState:
    """The state after the irregularity, its remedy applied (``refuse_irregularity`` passed)."""
    if event.kind in (DRAWN_IN_ERROR, DRAWN_IN_ERROR_EXPOSED):
        return evolve(state, in_error=event.card,
                      in_error_exposed=event.kind == DRAWN_IN_ERROR_EXPOSED)  # fmt: skip
    if event.kind == EXPOSED_CARD_REFUSED:
        assert event.seat is not None
        return _refused(state, event.seat)
    if event.kind == CARD_NOT_GIVEN_LATER:
        assert event.seat is not None
        return evolve(state, deferred=(*state.deferred, event.seat))
    if event.kind == CARD_NOT_GIVEN_DEAD:
        assert event.seat is not None
        return _called_dead(state, event.seat)
    if event.kind == CARD_NOT_DEALT:
        assert event.seat is not None
        return passed_over(state, event.seat)
    if event.kind in (READER_MISUSED, READER_MISUSED_SEEN):
        up = state.dealer[0]
        dead = verify_reader_use(state.rules, up, players_could_learn=event.kind == (
            READER_MISUSED_SEEN))  # fmt: skip
        if dead is not None:  # § 581.13(h)(1): all hands dead, every wager returned
            return evolve(state, phase=VOIDED, void_section=dead.section, void_reason=dead.reason)
        number = "13(h)(2)" if state.rules.chapter == "581" else "13(i)"
        breach = Breach(0, "dealer", state.section(number), f"the hole card went into the "
                        f"reader for a {up} up card; play continues")  # fmt: skip
        return evolve(state, breaches=(*state.breaches, breach))
    assert event.card is not None  # § 5xx.13(a): not used in the round, to the discard rack
    left = left_after(state, event.card)
    return evolve(state, left=left, discarded=(*state.discarded, event.card))
