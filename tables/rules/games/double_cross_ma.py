"""Double Cross Poker, Massachusetts rules of the game (Sections 1-12).

Phases, in order (each ``_end_`` names the next)::

    WAGERING --no more bets--> DEALING (players clockwise, two each; dealer two;
    community ROW_1, CENTER, ROW_3, TOP, BOTTOM) --> FIRST_REVEAL (TOP, ROW_3) -->
    THREE_CARD (every three-card wager: expose or not) --> PLAY_DECISION
    (clockwise: fold, or play with two raises in an alignment) --> FINAL_REVEAL
    (ROW_1, CENTER, BOTTOM) --> DEALER_REVEAL --> SETTLEMENT --> CLOSED
    (any phase before SETTLEMENT) --void--> VOIDED --> CLOSED

>>> from tables.rules.games.double_cross_ma import Phase
>>> Phase.THREE_CARD.value
'three_card'
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Mapping
from typing import NamedTuple

from tables.rules.cards import Card
from tables.rules.engine import (
    Automation,
    Outcome,
    Refusal,
    RuleViolation,
    Settlement,
    SettlementLine,
    apply_payout_limit,
    evolve,
    lookup,
    plain_line,
    register_game,
    win_line,
)
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
    RoundVoided,
    StubCounted,
    ThreeCardElection,
    Wager,
    WagerPlaced,
    WagerReturned,
)
from tables.rules.games._shared import (
    AFTER_VOID,
    GameMachine,
    card_bit,
    first_hidden_seat,
    later_unexposed_seats,
    opening_rounding,
    opening_seats,
    record_dealer_action,
    void,
    with_seat,
)
from tables.rules.hands import FiveCardHand, evaluate_five, evaluate_three
from tables.rules.irregularities import Remedies, StubRemedy, count_stub, report_irregularity
from tables.rules.money import RoundingPolicy
from tables.rules.rulesets import (
    DOUBLE_CROSS_POKER,
    DoubleCrossRuleSet,
    HandComparison,
    get_ruleset,
)
from tables.rules.settlement import describe_cards, settlement_header

__all__ = [
    "GAME",
    "Phase",
    "SeatState",
    "DoubleCrossState",
    "open_round",
    "verify",
    "can_apply",
    "apply",
    "required_settlement",
    "dealer_hand",
    "player_hand",
]

GAME = DOUBLE_CROSS_POKER
NAME = "Double Cross Poker"
S = "Section "

# Sections 7(c)(3), 8(c)(3), 9(c): the order the five community cards are dealt.
COMMUNITY_DEAL_ORDER = (
    Position.ROW_1,
    Position.CENTER,
    Position.ROW_3,
    Position.TOP,
    Position.BOTTOM,
)
_INDEX = {position: index for index, position in enumerate(COMMUNITY_DEAL_ORDER)}
LINES: Mapping[Alignment, tuple[Position, ...]] = {
    Alignment.VERTICAL: (Position.TOP, Position.CENTER, Position.BOTTOM),
    Alignment.HORIZONTAL: (Position.ROW_1, Position.CENTER, Position.ROW_3),
}


class Phase(enum.StrEnum):
    """The phases of a Double Cross round."""

    WAGERING = "wagering"
    DEALING = "dealing"
    FIRST_REVEAL = "first_reveal"
    THREE_CARD = "three_card"
    PLAY_DECISION = "play_decision"
    FINAL_REVEAL = "final_reveal"
    DEALER_REVEAL = "dealer_reveal"
    SETTLEMENT = "settlement"
    VOIDED = "voided"
    CLOSED = "closed"


_REVEALS: Mapping[Phase, tuple[tuple[Position, ...], str]] = {
    Phase.FIRST_REVEAL: ((Position.TOP, Position.ROW_3), "10(a)"),
    Phase.FINAL_REVEAL: ((Position.ROW_1, Position.CENTER, Position.BOTTOM), "10(d)"),
}
_DEALING_SECTIONS = {
    DealingMethod.MANUAL_SHOE: ("7(b)", "7(c)"),
    DealingMethod.HAND: ("8(b)(3)", "8(c)"),
    DealingMethod.AUTOMATED_SHOE: ("9(b)(2)", "9(c)"),
}
_MAIN_WAGERS = (Wager.ANTE, Wager.RAISE_1, Wager.RAISE_2)


class SeatState(NamedTuple):
    """One betting position of a Double Cross round."""

    seat: int
    player: str
    wagers: Mapping[Wager, int]
    hole: tuple[Card | None, Card | None] = (None, None)
    exposed: tuple[bool, bool] = (False, False)
    participating: bool = False
    exposed_for_three_card: bool | None = None
    folded: bool = False
    alignment: Alignment | None = None
    spoken_alignment: Alignment | None = None

    @property
    def active(self) -> bool:
        """Dealt in and not folded."""
        return self.participating and not self.folded


class DoubleCrossState(NamedTuple):
    """The state of one Double Cross round (never mutated)."""

    ruleset: DoubleCrossRuleSet
    opened: RoundOpened
    automations: frozenset[Automation]
    rounding: RoundingPolicy
    phase: Phase
    seats: Mapping[int, SeatState]
    dealer: tuple[Card | None, Card | None] = (None, None)
    dealer_exposed: tuple[bool, bool] = (False, False)
    community: tuple[Card | None, ...] = (None,) * 5
    community_exposed: tuple[bool, ...] = (False,) * 5
    used_cards: int = 0
    cards_dealt: int = 0
    face_up_found: tuple[Card, ...] = ()
    pending: tuple[int, ...] = ()
    stub_counted: bool = False
    void_section: str | None = None
    void_reason: str | None = None
    deck_removal_required: bool = False
    reshuffle_required: bool = False
    dealer_actions: tuple[Event, ...] = ()
    notes: tuple[str, ...] = ()

    @property
    def to_act(self) -> int | None:
        """The seat whose fold-or-play decision is awaited, if any."""
        return self.pending[0] if self.pending and self.phase is Phase.PLAY_DECISION else None


def open_round(
    event: RoundOpened, automations: frozenset[Automation] = frozenset()
) -> DoubleCrossState:
    """Build the initial state from ``round.opened``.

    :raises RuleViolation: for a wrong game or rule set, or a payout limit
        under the Section 11(d) floor.
    """
    try:
        ruleset = get_ruleset(event.ruleset_id)
    except KeyError:
        raise RuleViolation("round.opened", "unknown rule set", "ruleset_id") from None
    if not isinstance(ruleset, DoubleCrossRuleSet) or event.game != GAME:
        raise RuleViolation("round.opened", "rule set is not for Double Cross Poker", "ruleset_id")
    if not ruleset.in_force(event.gaming_day):
        raise RuleViolation(ruleset.chapter, f"{ruleset.id} not in force", "gaming_day")
    if event.options:
        raise RuleViolation(
            S + "6", "Double Cross Poker has no opening options", f"options.{event.options[0][0]}"
        )
    if event.payout_limit_cents is not None and (
        event.payout_limit_cents < ruleset.payout_limit_floor_cents
    ):
        raise RuleViolation(
            S + "11(d)", "the payout limit must be at least $60,000", "payout_limit_cents"
        )
    rounding = opening_rounding(event)
    seats = opening_seats(event, SeatState)
    return DoubleCrossState(
        ruleset=ruleset,
        opened=event,
        automations=automations,
        rounding=rounding,
        phase=Phase.WAGERING,
        seats=seats,
    )


# ------------------------------------------------------------- verification


def _verify_wager(state: DoubleCrossState, event: WagerPlaced) -> Refusal | None:
    seat = state.seats.get(event.seat)
    if seat is None:
        return Refusal(S + "6(b)", "only seated players may wager", "seat")
    if state.phase is not Phase.WAGERING:
        return Refusal(S + "6(c)", 'no wager may be made after "No more bets"', "wager")
    if event.wager not in (Wager.ANTE, Wager.THREE_CARD):
        return Refusal(S + "6(e)", "raise wagers are made at the decision (Section 10)", "wager")
    if event.wager in seat.wagers:
        return Refusal(S + "6(c)", f"{event.wager} already placed", "wager")
    if event.wager == Wager.THREE_CARD:
        if Wager.ANTE not in seat.wagers:
            return Refusal(S + "6(d)", "the three-card wager follows an ante", "wager")
        ruleset = state.ruleset
        if not ruleset.three_card_min_cents <= event.amount_cents <= ruleset.three_card_max_cents:
            return Refusal(S + "6(d)", "the three-card wager is $1.00 to $100.00", "amount_cents")
    return None


def _verify_no_more_bets(state: DoubleCrossState, event: NoMoreBets) -> Refusal | None:
    if state.phase is not Phase.WAGERING:
        return Refusal(S + _DEALING_SECTIONS[state.opened.dealing_method][0], "already announced")
    return None


def _verify_deal(state: DoubleCrossState, event: CardDealt) -> Refusal | None:
    announce, deal = _DEALING_SECTIONS[state.opened.dealing_method]
    if state.phase is Phase.WAGERING:
        return Refusal(S + announce, 'deal only after "No more bets"')
    if state.phase is not Phase.DEALING:
        return Refusal(S + deal, "dealing is complete")
    if state.used_cards & card_bit(event.card):
        return Refusal(S + "2(a)", f"{event.card} is already in play this round", "card")
    players = [seat for _, seat in sorted(state.seats.items()) if seat.participating]
    if event.recipient is Recipient.PLAYER:
        seat = state.seats.get(event.seat or 0)
        if seat is None or not seat.participating:
            return Refusal(S + deal, "cards go only to seats with an ante", "seat")
        hole = event.hole or 1
        if seat.hole[hole - 1] is not None:
            return Refusal(S + "12(c)", f"hole {hole} already dealt; report the count", "hole")
        earlier = [
            other.seat
            for other in players
            if other.seat < seat.seat and (other.hole[0] is None or other.hole[1] is None)
        ]
        if earlier or (hole == 2 and seat.hole[0] is None):
            return Refusal(S + deal, "two consecutive cards to each player, clockwise", "seat")
        return None
    # ``x[0] is None or x[1] is None`` rather than ``None in x``: a card compared
    # with None goes through the dataclass __eq__, on every card dealt.
    if any(seat.hole[0] is None or seat.hole[1] is None for seat in players):
        return Refusal(S + deal, "players are dealt before the dealer and the cross", "recipient")
    if event.recipient is Recipient.DEALER:
        hole = event.hole or 1
        if state.dealer[hole - 1] is not None or (hole == 2 and state.dealer[0] is None):
            return Refusal(S + deal, "the dealer receives two consecutive cards", "hole")
        return None
    assert event.position is not None
    if state.dealer[0] is None or state.dealer[1] is None:
        return Refusal(S + deal, "the dealer's two cards come before the cross", "recipient")
    dealt = sum(card is not None for card in state.community)
    if COMMUNITY_DEAL_ORDER[dealt] is not event.position:
        return Refusal(
            S + deal,
            f"the cross is dealt ROW_1, CENTER, ROW_3, TOP, BOTTOM; next is "
            f"{COMMUNITY_DEAL_ORDER[dealt]}",
            "position",
        )
    return None


def _verify_expose(state: DoubleCrossState, event: CardExposed) -> Refusal | None:
    if event.recipient is Recipient.COMMUNITY:
        assert event.position is not None
        reveal = _REVEALS.get(state.phase)
        if reveal is None or event.position not in reveal[0]:
            return Refusal(S + "10(a)", f"{event.position} is not due now", "position")
        index = _INDEX[event.position]
        if state.community_exposed[index]:
            return Refusal(S + reveal[1], "already face up", "position")
        dealt = state.community[index]
    elif event.recipient is Recipient.DEALER:
        if state.phase is not Phase.DEALER_REVEAL:
            return Refusal(
                S + "10(e)", "the dealer's cards follow the last three community cards", "recipient"
            )
        hole = event.hole or 1
        if state.dealer_exposed[hole - 1]:
            return Refusal(S + "10(e)", "already face up", "hole")
        dealt = state.dealer[hole - 1]
    else:
        seat = state.seats.get(event.seat or 0)
        if state.phase is not Phase.SETTLEMENT or seat is None or not seat.active:
            return Refusal(S + "10(f)", "remaining players' cards are turned at settlement", "seat")
        later = later_unexposed_seats(state, seat.seat)
        if later:
            return Refusal(S + "10(f)", f"counterclockwise: seat {max(later)} first", "seat")
        hole = event.hole or 1
        if seat.exposed[hole - 1]:
            return Refusal(S + "10(f)", "already face up", "hole")
        dealt = seat.hole[hole - 1]
    if event.card is not None and event.card != dealt:
        return Refusal(S + "10(h)", f"the card there is {dealt}, not {event.card}", "card")
    return None


def _verify_election(state: DoubleCrossState, event: ThreeCardElection) -> Refusal | None:
    if state.phase is not Phase.THREE_CARD:
        return Refusal(S + "10(a)", "three-card wagers are resolved after TOP and ROW_3 are turned")
    seat = state.seats.get(event.seat)
    if seat is None or event.seat not in state.pending:
        return Refusal(S + "10(a)", "only an unresolved three-card wager may be exposed", "seat")
    return None


def _verify_decision(state: DoubleCrossState, event: PlayerFolded | PlayDeclared) -> Refusal | None:
    if state.phase is Phase.THREE_CARD:
        return Refusal(S + "10(b)", "decisions follow the resolution of all three-card wagers")
    if state.phase is not Phase.PLAY_DECISION:
        return Refusal(S + "10(c)", "not at the fold-or-play decision")
    if state.to_act != event.seat:
        return Refusal(S + "10(c)", f"out of turn: seat {state.to_act} decides first", "seat")
    if isinstance(event, PlayDeclared):
        ante = state.seats[event.seat].wagers[Wager.ANTE]
        for field in ("raise_1_cents", "raise_2_cents"):
            if getattr(event, field) != ante:
                return Refusal(S + "10(c)(2)", "each raise equals the ante", field)
    return None


def _verify_stub(state: DoubleCrossState, event: StubCounted) -> Refusal | None:
    if state.phase is not Phase.FIRST_REVEAL or any(state.community_exposed) or state.stub_counted:
        return Refusal(S + "7(d)", "the stub is counted after the deal, before play continues")
    return None


def _verify_dealer_action(state: DoubleCrossState, event: Event) -> Refusal | None:
    seat = getattr(event, "seat", 0)
    if seat not in state.seats:
        return Refusal(S + "10(g)", f"seat {seat} is not in this round", "seat")
    early = (Phase.WAGERING, Phase.DEALING, Phase.FIRST_REVEAL)
    if isinstance(event, DealerPaid | DealerCollected) and state.phase in early:
        return Refusal(S + "10(a)", "nothing is settled before the first reveal")
    wager = getattr(event, "wager", None)
    settling = (Phase.SETTLEMENT, Phase.VOIDED)
    if isinstance(event, DealerPaid) and wager != Wager.THREE_CARD and state.phase not in settling:
        return Refusal(S + "10(g)(3)", "five-card wagers are paid at settlement")
    return None


def _verify_irregularity(state: DoubleCrossState, event: IrregularityReported) -> Refusal | None:
    if event.kind == IrregularityKind.CARD_FACE_UP_IN_DECK and (
        event.card is None or state.used_cards & card_bit(event.card)
    ):
        return Refusal(S + "12(a)", "name a card not already in play", "card")
    return None


def _verify_close(state: DoubleCrossState, event: RoundClosed) -> Refusal | None:
    if state.phase is Phase.VOIDED:
        return None
    if state.phase is not Phase.SETTLEMENT:
        return Refusal(S + "10(h)", "the round is not yet settled")
    if Automation.EXPOSE_PLAYER_CARDS not in state.automations:
        hidden = first_hidden_seat(state)
        if hidden is not None:
            return Refusal(S + "10(f)", f"seat {hidden}'s cards were not turned")
    return None


def verify(state: DoubleCrossState, event: Event) -> Refusal | None:
    """Return why ``event`` may not follow ``state``, or ``None``."""
    return _MACHINE.verify(state, event)


def can_apply(state: DoubleCrossState, event: Event) -> bool:
    """Whether ``event`` may follow ``state``."""
    return verify(state, event) is None


# ------------------------------------------------------------------- apply


def _place_wager(state: DoubleCrossState, event: WagerPlaced) -> DoubleCrossState:
    seat = state.seats[event.seat]
    return with_seat(state, evolve(seat, wagers={**seat.wagers, event.wager: event.amount_cents}))


def _no_more_bets(state: DoubleCrossState, event: NoMoreBets) -> DoubleCrossState:
    seats = {n: evolve(s, participating=Wager.ANTE in s.wagers) for n, s in state.seats.items()}
    return evolve(state, seats=seats, phase=Phase.DEALING)


def _deal(state: DoubleCrossState, event: CardDealt) -> DoubleCrossState:
    changes: dict[str, object] = {
        "used_cards": state.used_cards | card_bit(event.card),
        "cards_dealt": state.cards_dealt + 1,
    }
    if event.recipient is Recipient.PLAYER:
        seat = state.seats[event.seat or 0]
        hole = (event.card, seat.hole[1]) if event.hole == 1 else (seat.hole[0], event.card)
        state = with_seat(state, evolve(seat, hole=hole), **changes)
    elif event.recipient is Recipient.DEALER:
        dealer = (event.card, state.dealer[1]) if event.hole == 1 else (state.dealer[0], event.card)
        state = evolve(state, dealer=dealer, **changes)
    else:
        assert event.position is not None
        index = _INDEX[event.position]
        community = state.community[:index] + (event.card,) + state.community[index + 1 :]
        state = evolve(state, community=community, **changes)
    players = sum(1 for seat in state.seats.values() if seat.participating)
    if state.cards_dealt == 7 + 2 * players:
        return _begin_reveal(state, Phase.FIRST_REVEAL)
    return state


def _begin_reveal(state: DoubleCrossState, phase: Phase) -> DoubleCrossState:
    state = evolve(state, phase=phase, pending=())
    positions = _REVEALS[phase][0]
    if Automation.REVEAL_COMMUNITY_CARDS in state.automations:
        exposed = list(state.community_exposed)
        for position in positions:
            exposed[_INDEX[position]] = True
        state = evolve(state, community_exposed=tuple(exposed))
    if all(state.community_exposed[_INDEX[position]] for position in positions):
        return _end_reveal(state)
    return state


def _end_reveal(state: DoubleCrossState) -> DoubleCrossState:
    if state.phase is Phase.FIRST_REVEAL:
        return _begin_three_card(state)
    return _begin_dealer_reveal(state)


def _begin_three_card(state: DoubleCrossState) -> DoubleCrossState:
    pending = tuple(
        n
        for n, s in sorted(state.seats.items())
        if s.participating and Wager.THREE_CARD in s.wagers
    )
    state = evolve(state, phase=Phase.THREE_CARD, pending=pending)
    return state if pending else _begin_play_decision(state)


def _begin_play_decision(state: DoubleCrossState) -> DoubleCrossState:
    pending = tuple(n for n, s in sorted(state.seats.items()) if s.active)
    state = evolve(state, phase=Phase.PLAY_DECISION, pending=pending)
    return state if pending else _begin_reveal(state, Phase.FINAL_REVEAL)


def _begin_dealer_reveal(state: DoubleCrossState) -> DoubleCrossState:
    state = evolve(state, phase=Phase.DEALER_REVEAL)
    if Automation.REVEAL_DEALER_CARDS in state.automations or all(state.dealer_exposed):
        return evolve(state, dealer_exposed=(True, True), phase=Phase.SETTLEMENT)
    return state


def _expose(state: DoubleCrossState, event: CardExposed) -> DoubleCrossState:
    if event.recipient is Recipient.COMMUNITY:
        assert event.position is not None
        index = _INDEX[event.position]
        exposed = state.community_exposed[:index] + (True,) + state.community_exposed[index + 1 :]
        state = evolve(state, community_exposed=exposed)
        if all(exposed[_INDEX[position]] for position in _REVEALS[state.phase][0]):
            return _end_reveal(state)
        return state
    if event.recipient is Recipient.DEALER:
        flags = (
            (True, state.dealer_exposed[1]) if event.hole == 1 else (state.dealer_exposed[0], True)
        )
        state = evolve(state, dealer_exposed=flags)
        return evolve(state, phase=Phase.SETTLEMENT) if all(flags) else state
    seat = state.seats[event.seat or 0]
    flags = (True, seat.exposed[1]) if event.hole == 1 else (seat.exposed[0], True)
    return with_seat(state, evolve(seat, exposed=flags))


def _elect(state: DoubleCrossState, event: ThreeCardElection) -> DoubleCrossState:
    seat = evolve(state.seats[event.seat], exposed_for_three_card=event.expose)
    pending = tuple(number for number in state.pending if number != event.seat)
    state = with_seat(state, seat, pending=pending)
    return state if pending else _begin_play_decision(state)


def _decide(state: DoubleCrossState, event: PlayerFolded | PlayDeclared) -> DoubleCrossState:
    seat = state.seats[event.seat]
    if isinstance(event, PlayerFolded):
        seat = evolve(seat, folded=True)
    else:
        seat = evolve(
            seat,
            wagers={
                **seat.wagers,
                Wager.RAISE_1: event.raise_1_cents,
                Wager.RAISE_2: event.raise_2_cents,
            },
            alignment=event.alignment,
            spoken_alignment=event.spoken_alignment,
        )
    state = with_seat(state, seat, pending=state.pending[1:])
    return state if state.pending else _begin_reveal(state, Phase.FINAL_REVEAL)


def _void(state: DoubleCrossState, section: str, reason: str) -> DoubleCrossState:
    return void(state, Phase.VOIDED, section, reason)  # type: ignore[no-any-return]


def _count_stub(state: DoubleCrossState, event: StubCounted) -> DoubleCrossState:
    return count_stub(state, event, section=S + "7(e)(2)", remedy=_STUB_REMEDY, void=_void)  # type: ignore[no-any-return]


def _irregularity(state: DoubleCrossState, event: IrregularityReported) -> DoubleCrossState:
    return report_irregularity(state, event, remedies=_REMEDIES, void=_void)  # type: ignore[no-any-return]


_STUB_REMEDY = StubRemedy(
    misdeal="cards misdealt but 52 remain in the deck",
    mismatch="stub count {counted}, expected {expected}: deck removed",
)
_REMEDIES = Remedies(
    face_up="12(a)",
    voids={
        IrregularityKind.INCORRECT_CARD_COUNT: (
            "12(c)",
            "a player or a card area had a wrong count",
        ),
        IrregularityKind.SHOE_MALFUNCTION: (
            "12(e)",
            "the automated dealing shoe failed during the round",
        ),
    },
    referred=frozenset(
        {IrregularityKind.COMMUNITY_CARD_EXPOSED_EARLY, IrregularityKind.DEALER_CARD_EXPOSED_EARLY}
    ),
    referred_note="{kind}: no Double Cross rule covers it; referred to the floor",
)


def apply(state: DoubleCrossState, event: Event) -> DoubleCrossState:
    """Return the state after ``event``.

    :raises RuleViolation: naming the section when the rules forbid it.
    """
    return _MACHINE.apply(state, event)  # type: ignore[no-any-return]


# -------------------------------------------------------------- settlement


def _line_hand(
    state: DoubleCrossState, two: tuple[Card | None, Card | None], alignment: Alignment
) -> tuple[FiveCardHand, str]:
    cards = [*two, *(state.community[_INDEX[position]] for position in LINES[alignment])]
    hand = evaluate_five(cards)  # type: ignore[arg-type]
    return hand, describe_cards(cards, hand.category.name)


def dealer_hand(state: DoubleCrossState) -> tuple[Alignment, FiveCardHand, str]:
    """Section 10(e): the dealer's two cards with the higher-ranking alignment."""
    vertical = _line_hand(state, state.dealer, Alignment.VERTICAL)
    horizontal = _line_hand(state, state.dealer, Alignment.HORIZONTAL)
    if horizontal[0].strength > vertical[0].strength:
        return Alignment.HORIZONTAL, *horizontal
    return Alignment.VERTICAL, *vertical


def player_hand(state: DoubleCrossState, seat: int) -> tuple[FiveCardHand, str]:
    """Section 10(g)(1): the hand designated by the alignment of the player's raises."""
    seat_state = state.seats[seat]
    assert seat_state.alignment is not None
    return _line_hand(state, seat_state.hole, seat_state.alignment)


def _compare(state: DoubleCrossState, player: FiveCardHand, dealer: FiveCardHand) -> int:
    if state.ruleset.hand_comparison is HandComparison.CATEGORY_ONLY:
        mine, theirs = int(player.category), int(dealer.category)
        return (mine > theirs) - (mine < theirs)
    return (player.strength > dealer.strength) - (player.strength < dealer.strength)


def _plain(
    seat: SeatState,
    wager: Wager,
    outcome: Outcome,
    section: str,
    hand: str | None = None,
    notes: tuple[str, ...] = (),
) -> SettlementLine:
    return plain_line(seat, wager, outcome, section, hand, notes)


def _three_card_line(state: DoubleCrossState, seat: SeatState) -> SettlementLine:
    if not seat.exposed_for_three_card:
        return _plain(
            seat, Wager.THREE_CARD, Outcome.LOSE, S + "10(a)", notes=("cards not exposed",)
        )
    top = state.community[_INDEX[Position.TOP]]
    cards = [*seat.hole, top]
    hand = evaluate_three(cards)  # type: ignore[arg-type]
    text = describe_cards(cards, hand.category.name)
    match = lookup(state.ruleset.three_card_table, hand.category, None)
    if match.line is None or match.line.odds is None:
        return _plain(seat, Wager.THREE_CARD, Outcome.LOSE, S + "10(a)", text)
    return win_line(
        seat=seat.seat,
        player=seat.player,
        wager=Wager.THREE_CARD,
        stake_cents=seat.wagers[Wager.THREE_CARD],
        odds=match.line.odds,
        rounding=state.rounding,
        section=S + "10(a); " + S + "11(c)",
        hand=text,
        pay_line=match.line.label,
    )


def _main_lines(
    state: DoubleCrossState, seat: SeatState, dealer: list[tuple[FiveCardHand, str]]
) -> list[SettlementLine]:
    if seat.folded:
        return [_plain(seat, Wager.ANTE, Outcome.FORFEITED, S + "10(c)(1)")]
    mine, mine_text = player_hand(state, seat.seat)
    if not dealer:  # the dealer's hand is the same for every seat: evaluate it once
        dealer.append(dealer_hand(state)[1:])
    theirs, theirs_text = dealer[0]
    described = f"{mine_text} vs dealer {theirs_text}"
    notes: tuple[str, ...] = ()
    if seat.spoken_alignment is not None and seat.spoken_alignment is not seat.alignment:
        notes = (
            f"{S}10(g)(1): raises placed {seat.alignment} but player said "
            f"{seat.spoken_alignment}; the placement governs",
        )
    result = _compare(state, mine, theirs)
    if result < 0:
        return [
            _plain(seat, wager, Outcome.LOSE, S + "10(g)(2)", described, notes)
            for wager in _MAIN_WAGERS
        ]
    if result == 0:
        return [
            _plain(seat, wager, Outcome.PUSH, S + "10(g)(3)", described, notes)
            for wager in _MAIN_WAGERS
        ]
    match = lookup(state.ruleset.raise_table, mine.category, None)
    assert match.line is not None and match.line.odds is not None
    lines = [
        win_line(
            seat=seat.seat,
            player=seat.player,
            wager=Wager.ANTE,
            stake_cents=seat.wagers[Wager.ANTE],
            odds=state.ruleset.ante_odds,
            rounding=state.rounding,
            section=S + "10(g)(3)",
            hand=described,
            pay_line="Ante",
            notes=notes,
        )
    ]
    lines.extend(
        win_line(
            seat=seat.seat,
            player=seat.player,
            wager=wager,
            stake_cents=seat.wagers[wager],
            odds=match.line.odds,
            rounding=state.rounding,
            section=S + "10(g)(3); " + S + "11(b)",
            hand=described,
            pay_line=match.line.label,
            notes=notes,
        )
        for wager in (Wager.RAISE_1, Wager.RAISE_2)
    )
    return lines


def required_settlement(state: DoubleCrossState) -> Settlement:
    """What the Double Cross rules require for every wager of the round so far.

    Three-card wagers are listed first (Section 10(a) settles them before any
    decision), then each remaining seat counterclockwise from the dealer's
    right (Section 10(f)). On a void every wager is returned except three-card
    wagers already resolved under Section 10(a), which stand and are noted
    for the supervisor (Section 12 does not say what happens to them).
    """
    opened = state.opened
    options: list[tuple[str, str]] = [
        ("rounding", state.rounding.name),
        ("hand_comparison", str(state.ruleset.hand_comparison)),
    ]
    if opened.payout_limit_cents is not None:
        options.append(("payout_limit_cents", str(opened.payout_limit_cents)))
    common = settlement_header(state, options)
    ascending = [seat for _, seat in sorted(state.seats.items())]
    three_card = [
        _three_card_line(state, seat)
        for seat in ascending
        if Wager.THREE_CARD in seat.wagers and seat.exposed_for_three_card is not None
    ]
    if state.void_section is not None:
        resolved = {line.seat for line in three_card}
        stand = tuple(
            dataclasses.replace(
                line,
                notes=(
                    *line.notes,
                    "settled before the void; refer to a supervisor (Section 12 is silent)",
                ),
            )
            for line in three_card
        )
        returned = tuple(
            _plain(
                seat, wager, Outcome.RETURNED, state.void_section, notes=(state.void_reason or "",)
            )
            for seat in reversed(ascending)
            for wager in (*_MAIN_WAGERS, Wager.THREE_CARD)
            if wager in seat.wagers and not (wager == Wager.THREE_CARD and seat.seat in resolved)
        )
        return Settlement(
            lines=stand + returned,
            voided=True,
            void_section=state.void_section,
            complete=True,
            **common,
        )  # type: ignore[arg-type]
    complete = state.phase in (Phase.SETTLEMENT, Phase.CLOSED)
    main: list[SettlementLine] = []
    dealer: list[tuple[FiveCardHand, str]] = []
    for seat in reversed(ascending):
        if not seat.participating:
            continue
        if seat.folded or complete:
            main.extend(_main_lines(state, seat, dealer))
    limited = apply_payout_limit(
        tuple(three_card + main),
        limit_cents=opened.payout_limit_cents,
        wagers=state.ruleset.payout_limit_wagers,
        section=S + "11(d)",
        group=lambda line: line.seat,
    )
    return Settlement(lines=limited, complete=complete, **common)  # type: ignore[arg-type]


_MACHINE = GameMachine(
    name="Double Cross",
    open=open_round,
    required_settlement=required_settlement,
    steps={
        WagerPlaced: (_verify_wager, _place_wager),
        NoMoreBets: (_verify_no_more_bets, _no_more_bets),
        CardDealt: (_verify_deal, _deal),
        CardExposed: (_verify_expose, _expose),
        StubCounted: (_verify_stub, _count_stub),
        ThreeCardElection: (_verify_election, _elect),
        PlayerFolded: (_verify_decision, _decide),
        PlayDeclared: (_verify_decision, _decide),
        IrregularityReported: (_verify_irregularity, _irregularity),
        RoundVoided: (None, lambda state, event: _void(state, "floor", event.reason)),
        DealerPaid: (_verify_dealer_action, record_dealer_action),
        DealerCollected: (_verify_dealer_action, record_dealer_action),
        WagerReturned: (_verify_dealer_action, record_dealer_action),
        RoundClosed: (_verify_close, lambda state, event: evolve(state, phase=Phase.CLOSED)),
    },
    closed=Phase.CLOSED,
    voided=Phase.VOIDED,
    closed_section="10(h)",
    void_section="12",
    after_void=(*AFTER_VOID, IrregularityReported),
)
register_game(GAME, DoubleCrossState, _MACHINE)
