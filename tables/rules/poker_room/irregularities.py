"""The chapter's irregularities in a hand of poker and the remedies the replay applies (§ 553.16).

An irregularity arrives as a fact (:class:`~.events.IrregularityFound`); the
chapter says what follows, and :func:`irregularity` applies it to the hand:

* misdeals (§ 553.16(e)): "all the cards ... returned to the dealer for a
  reshuffle". The section says nothing of the chips; the round of play is
  void here and every chip returned to the player who put it in, as
  § 553.16(g) says for a void round. A wrong starting position ((e)(2)) or an
  eligible player not dealt in ((e)(4)) is a misdeal only when found before
  two players voluntarily wagered (more than their Ante, Blind or Forced
  Bet): later it is refused, and the round continues;
* a card found face up in the deck: not used, to the discards (§ 553.16(h));
  a second one is a misdeal (§ 553.16(e)(3));
* cards dealt to an ineligible player (§ 553.16(f)) or off the table
  (§ 553.16(m)): to the discards, the round continues;
* missing or extra cards (§ 553.16(g)): the round void, the pot returned;
* a protected hand collected or fouled by the dealer (§ 553.16(i)(3)): its
  player out of the hand, every chip he put in refunded;
* a hole card exposed in the dealing process: in Hold'em and Omaha exchanged
  for the top card of the deck, the exposed card to the discards
  (§ 553.16(n)); in Seven-card Stud the third card dealt face down, and both
  hole cards exposed void the player's hand, his Ante returned
  (§ 553.16(k)); in Five-card Stud the second card dealt face down
  (§ 553.16(l)). The exposed card then shows as an up card. A Seven-card
  Stud seventh card exposed leaves the player the choice of § 553.16(k)(1),
  ending his wagering to contend only for the pot formed before (as an All-in
  player is, § 553.8(b)(4)), or (2), contending for the entire pot: the
  event's kind records it. Five-card Draw has no such remedy in the chapter
  (§ 553.16(q)).

A dealer who applies another remedy is found by the replay: the next card,
action or push the machine refuses cites the remedy's section.
"""

from __future__ import annotations

from collections.abc import Mapping

from tables.rules.cards import Card
from tables.rules.engine import Refusal, RuleViolation, evolve
from tables.rules.poker_room.events import Irregularity, IrregularityFound
from tables.rules.poker_room.hand import HandState, Phase, Slot, _acted, _blinds, _end_street

__all__ = ["irregularity", "refuse_irregularity", "voluntary_wagers"]

_MISDEALS: Mapping[Irregularity, str] = {
    Irregularity.NOT_SHUFFLED_OR_CUT: "553.16(e)(1)",
    Irregularity.WRONG_STARTING_POSITION: "553.16(e)(2)",
    Irregularity.SEAT_NOT_DEALT: "553.16(e)(4)",
    Irregularity.CARDS_MISSING: "553.16(g)",
    Irregularity.CARDS_EXTRA: "553.16(g)",
}
_UNUSED: Mapping[Irregularity, str] = {
    Irregularity.CARD_FACE_UP_IN_DECK: "553.16(h)",
    Irregularity.INELIGIBLE_PLAYER_DEALT: "553.16(f)",
    Irregularity.CARD_OFF_TABLE: "553.16(m)",
}
_ENDED = Irregularity.SEVENTH_CARD_EXPOSED_WAGERING_ENDED
_EXPOSURE: Mapping[str, str] = {
    "553.10": "553.16(k)", "553.11": "553.16(n)", "553.12": "553.16(n)", "553.14": "553.16(l)",
}  # fmt: skip


def voluntary_wagers(state: HandState) -> int:
    """How many players put in more than their Ante, Blind Bet and Forced Bet (§ 553.16(e)(2))."""
    rules = state.rules
    blinds = {post.seat: post.amount_cents for post in _blinds(state)}
    forced = {
        seat: rules.ante_cents + blinds.get(seat, 0)
        + (rules.forced_bet_cents if seat == state.forced_bet_seat else 0)
        for seat in state.seats
    }  # fmt: skip
    return sum(1 for seat in state.seats if state.contributed[seat] > forced[seat])


def refuse_irregularity(state: HandState, event: IrregularityFound) -> Refusal | None:
    """Refusal naming the section when the chapter's remedy cannot apply to this hand now."""
    kind = event.kind
    if state.phase is Phase.COMPLETE:
        return Refusal("553.7(e)(6)", "the round of play is over", "kind")
    if kind in _MISDEALS:
        late = kind in (Irregularity.WRONG_STARTING_POSITION, Irregularity.SEAT_NOT_DEALT)
        if late and voluntary_wagers(state) >= 2:
            return Refusal(_MISDEALS[kind], "found after two players voluntarily wagered: "
                           "no misdeal, the round of play continues", "kind")  # fmt: skip
        return None
    for card in event.cards:
        if kind not in (Irregularity.HOLE_CARD_EXPOSED, _ENDED) and card in state.seen:
            return Refusal("553.16(g)", f"{card} was already dealt in this round of play", "cards")
    if kind in _UNUSED:
        if kind is Irregularity.CARD_FACE_UP_IN_DECK and len(event.cards) != 1:
            return Refusal("553.16(h)", "each card found face up is reported alone", "cards")
        return None
    seat = event.seat
    if seat not in state.live:
        return Refusal("553.16(i)", f"seat {seat} has no hand in play", "seat")
    if kind is Irregularity.PROTECTED_HAND_KILLED:
        return None
    return _refuse_exposure(state, seat, event.cards, ended=kind is _ENDED)


def _last_street_undealt(state: HandState) -> bool:
    """The last card is being dealt, or was, with no wager on it yet."""
    last = state.street_index == len(state.rules.variant.streets) - 1
    return last and (state.phase is Phase.DEALING or not (state.acted or any(state.bets.values())))


def _refuse_exposure(
    state: HandState, seat: int, cards: tuple[Card, ...], *, ended: bool = False
) -> Refusal | None:
    section = _EXPOSURE.get(state.rules.variant.section)
    if section is None:
        return Refusal("553.16(q)", f"the chapter gives {state.rules.variant.name} no remedy for "
                       "an exposed card: the Rules Submission's applies", "kind")  # fmt: skip
    down = {card for card, face_up in state.cards.get(seat, ()) if not face_up}
    if len(cards) != 1 or cards[0] not in down:
        return Refusal(section, f"seat {seat} holds no such card face down", "cards")
    if ended and (section != "553.16(k)" or not _last_street_undealt(state)):
        return Refusal("553.16(k)(1)", "only a Seven-card Stud player whose seventh card is "
                       "exposed in the dealing may end his wagering", "kind")  # fmt: skip
    if section == "553.16(n)" and (state.street_index or state.acted or state.folded
                                   or state.last_aggressor is not None):  # fmt: skip
        return Refusal(section, "only a card exposed in the dealing process is exchanged", "kind")
    if section != "553.16(n)" and state.street_index == 0 and _pending_up(state, seat) is None:
        return Refusal(section, f"seat {seat}'s up card is already dealt", "kind")
    return None


def _pending_up(state: HandState, seat: int) -> int | None:
    """Where in the plan seat's up card of the deal is (or, turned down already, was)."""
    return next((index for index, slot in enumerate(state.deals)
                 if slot.seat == seat and (slot.face_up or slot.section)), None)  # fmt: skip


def irregularity(state: HandState, event: IrregularityFound) -> HandState:
    """The hand after the irregularity, the chapter's remedy applied.

    :raises RuleViolation: naming the section when the remedy cannot apply.
    """
    refusal = refuse_irregularity(state, event)
    if refusal is not None:
        raise RuleViolation.from_refusal(refusal)
    kind = event.kind
    if kind in _MISDEALS:
        return void(state, _MISDEALS[kind])
    if kind in _UNUSED:
        state = evolve(state, discarded=(*state.discarded, *event.cards))
        if kind is Irregularity.CARD_FACE_UP_IN_DECK:
            state = evolve(state, face_up_found=state.face_up_found + 1)
            if state.face_up_found > 1:
                return void(state, "553.16(e)(3)")
        return state
    assert event.seat is not None  # IrregularityFound requires it for the other kinds
    if kind is Irregularity.PROTECTED_HAND_KILLED:
        return withdraw(state, event.seat, "553.16(i)(3)")
    state = _exposed(state, event.seat, event.cards[0])
    if kind is _ENDED:
        # § 553.16(k)(1): no more wagers from him, as from an All-in player (§ 553.8(b)(4)).
        seat = event.seat
        state = evolve(state, stacks={**state.stacks, seat: 0},
                       to_act=tuple(other for other in state.to_act if other != seat))  # fmt: skip
        return _acted(state) if state.phase is Phase.BETTING else state
    return state


def void(state: HandState, section: str) -> HandState:
    """The round of play void under ``section``: no more cards or bets, every chip returned."""
    return evolve(state, phase=Phase.VOID, void_section=section, deals=(), to_act=())


def withdraw(state: HandState, seat: int, section: str) -> HandState:
    """``seat``'s hand collected and out of the round, all it put in refunded under ``section``."""
    cents = state.contributed[seat]
    held = tuple(card for card, _ in state.cards.get(seat, ()))
    refunds = (*state.refunds, (seat, cents, section)) if cents else state.refunds
    state = evolve(
        state, folded=state.folded | {seat},
        stacks={**state.stacks, seat: state.stacks[seat] + cents},
        contributed={**state.contributed, seat: 0}, refunds=refunds,
        bets={other: bet for other, bet in state.bets.items() if other != seat},
        cards={other: hand for other, hand in state.cards.items() if other != seat},
        discarded=(*state.discarded, *held),
        posts=tuple(post for post in state.posts if post.seat != seat),
        deals=tuple(slot for slot in state.deals if slot.seat != seat),
        to_act=tuple(other for other in state.to_act if other != seat),
        showdown_order=tuple(other for other in state.showdown_order if other != seat),
    )  # fmt: skip
    if state.phase is Phase.BETTING:
        return _acted(state)
    if state.phase is Phase.SHOWDOWN and len(state.shown) == len(state.showdown_order):
        return evolve(state, phase=Phase.COMPLETE)
    if len(state.live) == 1:
        return _end_street(state)
    return state


def _exposed(state: HandState, seat: int, card: Card) -> HandState:
    section = _EXPOSURE[state.rules.variant.section]
    hand = state.cards[seat]
    if section == "553.16(n)":
        # Exchanged for the top card of the deck; the exposed card to the discards.
        kept = tuple(pair for pair in hand if pair[0] != card)
        deals = (Slot(seat, False, section=section), *state.deals)
        return evolve(state, cards={**state.cards, seat: kept}, phase=Phase.DEALING,
                      discarded=(*state.discarded, card), deals=deals)  # fmt: skip
    exposed = (*state.exposed, card)
    if section == "553.16(k)" and state.street_index == 0 and sum(
        1 for held, _ in hand if held in exposed
    ) == 2:  # fmt: skip
        return withdraw(evolve(state, exposed=exposed), seat, section)
    shown = tuple((held, face_up or held == card) for held, face_up in hand)
    state = evolve(state, exposed=exposed, cards={**state.cards, seat: shown})
    index = _pending_up(state, seat) if state.street_index == 0 else None
    if index is None:  # the seventh card (§ 553.16(k)(2)): play continues for the entire pot
        return state
    deals = (*state.deals[:index], Slot(seat, False, section=section), *state.deals[index + 1 :])
    return evolve(state, deals=deals)
