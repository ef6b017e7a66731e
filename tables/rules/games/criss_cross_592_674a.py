"""Criss-Cross Poker, Pennsylvania Chapter 592 (2014) and Chapter 674a (2016, 2019).

The two chapters share their numbering (§ 592.n is § 674a.n), so one state
machine serves both; the rule set supplies the chapter prefix, the pay tables
and the options that differ (pair of 10s, positions per player, payout limit).

Phases, in order (each ``_end_`` names the next)::

    WAGERING --no more bets--> DEALING --5 community + 2 per anted seat-->
    ACROSS_DECISION --> REVEAL_ACROSS (ROW_1, ROW_3) --> DOWN_DECISION -->
    REVEAL_DOWN (TOP, BOTTOM) --> MIDDLE_DECISION --> REVEAL_CENTER -->
    SETTLEMENT --round.closed--> CLOSED
    (any phase before SETTLEMENT) --void--> VOIDED --round.closed--> CLOSED

>>> from tables.rules.games.criss_cross_592_674a import Phase
>>> [phase.value for phase in Phase][:3]
['wagering', 'dealing', 'across_decision']
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from typing import NamedTuple

from tables.rules.cards import Card
from tables.rules.engine import (
    Automation,
    Refusal,
    RuleViolation,
    Settlement,
    apply_payout_limit,
    evolve,
    register_game,
)
from tables.rules.events import (
    CardDealt,
    CardExposed,
    DealerCollected,
    DealerPaid,
    DealingMethod,
    Event,
    IrregularityKind,
    IrregularityReported,
    NoMoreBets,
    PlayerFolded,
    Position,
    Recipient,
    RoundClosed,
    RoundOpened,
    RoundVoided,
    StubCounted,
    Wager,
    WagerPlaced,
    WagerReturned,
)
from tables.rules.games._criss_cross_settlement import (  # noqa: F401 (layout re-exported)
    ACROSS_LINE,
    DOWN_LINE,
    INDEX,
    POSITIONS,
    SETTLEMENT_ORDER,
    across_hand,
    down_hand,
    seat_lines,
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
from tables.rules.irregularities import Remedies, StubRemedy, count_stub, report_irregularity
from tables.rules.money import RoundingPolicy
from tables.rules.rulesets import (
    CRISS_CROSS_POKER,
    CrissCrossRuleSet,
    PairOfTensMiddleBets,
    get_ruleset,
)
from tables.rules.settlement import (
    counterclockwise,
    returned_lines,
    settlement_header,
)

__all__ = [
    "GAME",
    "Phase",
    "SeatState",
    "CrissCrossState",
    "open_round",
    "verify",
    "can_apply",
    "apply",
    "required_settlement",
    "across_hand",
    "down_hand",
]

GAME = CRISS_CROSS_POKER
NAME = "Criss-Cross Poker"


class Phase(enum.StrEnum):
    """The phases of a Criss-Cross round."""

    WAGERING = "wagering"
    DEALING = "dealing"
    ACROSS_DECISION = "across_decision"
    REVEAL_ACROSS = "reveal_across"
    DOWN_DECISION = "down_decision"
    REVEAL_DOWN = "reveal_down"
    MIDDLE_DECISION = "middle_decision"
    REVEAL_CENTER = "reveal_center"
    SETTLEMENT = "settlement"
    VOIDED = "voided"
    CLOSED = "closed"


# What each decision phase asks for, the section, and what a fold forfeits.
_DECISIONS: Mapping[Phase, tuple[Wager, Wager, str, tuple[Wager, ...]]] = {
    Phase.ACROSS_DECISION: (
        Wager.ACROSS_BET,
        Wager.ANTE_ACROSS,
        "11(b)",
        (Wager.ANTE_ACROSS, Wager.ANTE_DOWN),
    ),
    Phase.DOWN_DECISION: (
        Wager.DOWN_BET,
        Wager.ANTE_DOWN,
        "11(d)",
        (Wager.ANTE_ACROSS, Wager.ANTE_DOWN, Wager.ACROSS_BET),
    ),
    Phase.MIDDLE_DECISION: (
        Wager.MIDDLE_BET,
        Wager.ANTE_ACROSS,
        "11(f)",
        (Wager.ANTE_ACROSS, Wager.ANTE_DOWN, Wager.ACROSS_BET, Wager.DOWN_BET),
    ),
}
# The reveal that ends each decision phase, its section, and the phase after it.
_REVEALS: Mapping[Phase, tuple[tuple[Position, ...], str, Phase]] = {
    Phase.REVEAL_ACROSS: ((Position.ROW_1, Position.ROW_3), "11(c)", Phase.DOWN_DECISION),
    Phase.REVEAL_DOWN: ((Position.TOP, Position.BOTTOM), "11(e)", Phase.MIDDLE_DECISION),
    Phase.REVEAL_CENTER: ((Position.CENTER,), "11(g)", Phase.SETTLEMENT),
}
_NEXT_AFTER_DECISION = {
    Phase.ACROSS_DECISION: Phase.REVEAL_ACROSS,
    Phase.DOWN_DECISION: Phase.REVEAL_DOWN,
    Phase.MIDDLE_DECISION: Phase.REVEAL_CENTER,
}
_PRE_NO_MORE_BETS = (Wager.ANTE_ACROSS, Wager.ANTE_DOWN, Wager.FIVE_CARD_BONUS)
_DECISION_WAGERS = (Wager.ACROSS_BET, Wager.DOWN_BET, Wager.MIDDLE_BET)
_TERMINAL = (Phase.CLOSED,)
_OPTIONS = frozenset(
    {"five_card_bonus_offered", "pair_of_tens_middle_bets", "positions_per_player"}
)
# Section numbers of the dealing rules by dealing method:
# (no more bets, deal, stub count wrong, when the stub is handled).
_DEALING_SECTIONS = {
    DealingMethod.MANUAL_SHOE: ("8(b)", "8(d)", "8(h)", "8(e)"),
    DealingMethod.HAND: ("9(a)(3)", "9(b)", "9(f)", "9(c)"),
    DealingMethod.AUTOMATED_SHOE: ("10(a)(2)", "10(b)", "10(f)", "10(c)"),
}


class SeatState(NamedTuple):
    """One betting position: its player, wagers, cards and decisions."""

    seat: int
    player: str
    wagers: Mapping[Wager, int]
    hole: tuple[Card | None, Card | None] = (None, None)
    exposed: tuple[bool, bool] = (False, False)
    participating: bool = False
    folded_at: Phase | None = None
    abandoned: bool = False

    @property
    def active(self) -> bool:
        """Dealt in, and neither folded nor gone."""
        return self.participating and self.folded_at is None and not self.abandoned


class CrissCrossState(NamedTuple):
    """The state of one Criss-Cross round (never mutated; apply returns a new one).

    Mappings held here are copied on write and never changed in place.
    """

    ruleset: CrissCrossRuleSet
    opened: RoundOpened
    automations: frozenset[Automation]
    rounding: RoundingPolicy
    pair_of_tens: PairOfTensMiddleBets | None
    positions_per_player: int | None
    phase: Phase
    seats: Mapping[int, SeatState]
    community: tuple[Card | None, ...] = (None,) * 5
    community_exposed: tuple[bool, ...] = (False,) * 5
    used_cards: int = 0
    cards_dealt: int = 0
    face_up_found: tuple[Card, ...] = ()
    pending: tuple[int, ...] = ()
    decisions_made: int = 0
    stub_counted: bool = False
    void_section: str | None = None
    void_reason: str | None = None
    deck_removal_required: bool = False
    reshuffle_required: bool = False
    dealer_actions: tuple[Event, ...] = ()
    notes: tuple[str, ...] = ()

    def section(self, number: str) -> str:
        """Cite ``number`` in this round's chapter."""
        return self.ruleset.section(number)

    @property
    def to_act(self) -> int | None:
        """The seat whose decision is awaited, if any."""
        return self.pending[0] if self.pending else None


# ---------------------------------------------------------------- opening


def open_round(
    event: RoundOpened, automations: frozenset[Automation] = frozenset()
) -> CrissCrossState:
    """Build the initial state from ``round.opened``.

    :raises RuleViolation: for a wrong game, a rule set not in force on the
        gaming day, too many seats or an option the rule set does not allow.
    """
    try:
        ruleset = get_ruleset(event.ruleset_id)
    except KeyError:
        raise RuleViolation("round.opened", "unknown rule set", "ruleset_id") from None
    if not isinstance(ruleset, CrissCrossRuleSet) or event.game != GAME:
        raise RuleViolation("round.opened", "rule set is not for Criss-Cross Poker", "ruleset_id")
    section = ruleset.section
    if not ruleset.in_force(event.gaming_day):
        raise RuleViolation(
            ruleset.chapter, f"{ruleset.id} is not in force on {event.gaming_day}", "gaming_day"
        )
    if len(event.seats) > ruleset.max_seats or max(event.seats, default=1) > ruleset.max_seats:
        raise RuleViolation(section("2(a)"), "no more than six betting positions", "seats")
    rounding = opening_rounding(event)
    pair_of_tens = ruleset.pair_of_tens_middle_bets
    chosen_tens = event.option("pair_of_tens_middle_bets")
    if chosen_tens is not None:
        if pair_of_tens is None:
            raise RuleViolation(
                section("12(b)"),
                "the pay table has no pair-of-10s conflict to resolve",
                "options.pair_of_tens_middle_bets",
            )
        try:
            pair_of_tens = PairOfTensMiddleBets(chosen_tens)
        except ValueError:
            raise RuleViolation(
                section("12(b)"),
                "must be 'push' or 'pay_1_to_1'",
                "options.pair_of_tens_middle_bets",
            ) from None
    positions = ruleset.positions_per_player
    chosen_positions = event.option("positions_per_player")
    if chosen_positions is not None:
        if type(chosen_positions) is not int or chosen_positions < 1:
            raise RuleViolation(
                section("7(g)"),
                "must be a whole number of positions",
                "options.positions_per_player",
            )
        if not ruleset.positions_per_player_configurable and chosen_positions != 1:
            raise RuleViolation(
                section("7(g)"),
                "a player may not wager on more than one position",
                "options.positions_per_player",
            )
        positions = chosen_positions
    if event.payout_limit_cents is not None:
        if not ruleset.payout_limit_permitted:
            raise RuleViolation(
                section("12"), "no payout limit is authorized", "payout_limit_cents"
            )
        if event.payout_limit_cents < ruleset.payout_limit_floor_cents:
            raise RuleViolation(
                section("12(d)"),
                "the payout limit may not be less than $50,000",
                "payout_limit_cents",
            )
    if type(event.option("five_card_bonus_offered", False)) is not bool:
        raise RuleViolation(
            section("7(e)"), "must be true or false", "options.five_card_bonus_offered"
        )
    unknown = set(dict(event.options)) - _OPTIONS
    if unknown:
        raise RuleViolation(
            "round.opened", "not an option of Criss-Cross Poker", f"options.{min(unknown)}"
        )
    seats = opening_seats(event, SeatState)
    return CrissCrossState(
        ruleset=ruleset,
        opened=event,
        automations=automations,
        rounding=rounding,
        pair_of_tens=pair_of_tens,
        positions_per_player=positions,
        phase=Phase.WAGERING,
        seats=seats,
    )


# ------------------------------------------------------------- verification


def _dealing_sections(state: CrissCrossState) -> tuple[str, str, str, str]:
    return _DEALING_SECTIONS[state.opened.dealing_method]


def _verify_wager(state: CrissCrossState, event: WagerPlaced) -> Refusal | None:
    section = state.section
    seat = state.seats.get(event.seat)
    if seat is None:
        return Refusal(section("7(b)"), "only seated players may wager", "seat")
    if state.phase is Phase.WAGERING:
        if event.wager not in _PRE_NO_MORE_BETS:
            return Refusal(section("7(f)"), f"{event.wager} is made only at its decision", "wager")
        if event.wager in seat.wagers:
            return Refusal(section("7(d)"), f"{event.wager} already placed", "wager")
        if event.wager == Wager.FIVE_CARD_BONUS:
            if not state.opened.option("five_card_bonus_offered", False):
                return Refusal(section("7(e)"), "the Five Card Bonus Wager is not offered", "wager")
            if Wager.ANTE_ACROSS not in seat.wagers or Wager.ANTE_DOWN not in seat.wagers:
                return Refusal(section("7(e)"), "the Five Card Bonus follows the Antes", "wager")
        else:
            other = Wager.ANTE_DOWN if event.wager == Wager.ANTE_ACROSS else Wager.ANTE_ACROSS
            if other in seat.wagers and seat.wagers[other] != event.amount_cents:
                return Refusal(
                    section("7(d)"), "Ante Across and Ante Down must be equal", "amount_cents"
                )
        limit = state.positions_per_player
        if limit is not None:
            own = [
                other.seat
                for other in state.seats.values()
                if other.player == seat.player and (other.wagers or other.seat == seat.seat)
            ]
            if len(own) > limit:
                return Refusal(
                    section("7(g)"),
                    f"player {seat.player} may wager on at most {limit} position(s)",
                    "seat",
                )
            if limit > 1 and max(own) - min(own) + 1 != len(own):
                return Refusal(section("7(g)"), "a player's boxes must be adjacent", "seat")
        return None
    decision = _DECISIONS.get(state.phase)
    if decision is None:
        return Refusal(section("7(c)"), 'no wager may be made after "no more bets"', "wager")
    wager, base, number, _ = decision
    if event.wager != wager:
        return Refusal(section(number), f"only the {wager} may be placed now", "wager")
    if state.to_act != event.seat:
        return Refusal(
            section(number),
            f"out of turn: seat {state.to_act} decides first (clockwise from the dealer's left)",
            "seat",
        )
    return _verify_bet_amount(state, seat, base, number, event.amount_cents)


def _verify_bet_amount(
    state: CrissCrossState, seat: SeatState, base: Wager, number: str, amount: int
) -> Refusal | None:
    ruleset = state.ruleset
    ante = seat.wagers[base]
    low, high = ruleset.bet_multiple_min * ante, ruleset.bet_multiple_max * ante
    if not low <= amount <= high:
        return Refusal(
            state.section(number),
            f"must be one to three times the Ante ({low}..{high} cents), got {amount}",
            "amount_cents",
        )
    if ruleset.bet_whole_multiples_only and amount % ante:
        return Refusal(
            state.section(number), "must be a whole multiple of the Ante", "amount_cents"
        )
    return None


def _verify_fold(state: CrissCrossState, event: PlayerFolded) -> Refusal | None:
    decision = _DECISIONS.get(state.phase)
    if decision is None:
        return Refusal(state.section("11(b)"), "a player folds only at a decision", "seat")
    if state.to_act != event.seat:
        return Refusal(
            state.section(decision[2]), f"out of turn: seat {state.to_act} decides first", "seat"
        )
    return None


def _verify_no_more_bets(state: CrissCrossState, event: NoMoreBets) -> Refusal | None:
    if state.phase is not Phase.WAGERING:
        return Refusal(state.section(_dealing_sections(state)[0]), "already announced", None)
    return None


def _verify_deal(state: CrissCrossState, event: CardDealt) -> Refusal | None:
    section = state.section
    deal = _dealing_sections(state)[1]
    if state.phase is Phase.WAGERING:
        return Refusal(section(_dealing_sections(state)[0]), 'deal only after "no more bets"', None)
    if state.phase is not Phase.DEALING:
        return Refusal(section(deal), "dealing is complete", None)
    if state.used_cards & card_bit(event.card):
        return Refusal(section("3(a)"), f"{event.card} is already in play this round", "card")
    if event.recipient is Recipient.DEALER:
        return Refusal(
            section(deal), "the dealer receives no cards in Criss-Cross Poker", "recipient"
        )
    if event.recipient is Recipient.COMMUNITY:
        assert event.position is not None
        if state.community[INDEX[event.position]] is not None:
            return Refusal(
                section("13(c)"),
                f"{event.position} already holds a card; report the count",
                "position",
            )
        return None
    seat = state.seats.get(event.seat or 0)
    if seat is None or not seat.participating:
        return Refusal(section(deal), "cards go only to seats with both Antes", "seat")
    if any(card is None for card in state.community):
        return Refusal(section(deal), "the five community cards are dealt first", "recipient")
    hole = event.hole or 1
    if seat.hole[hole - 1] is not None:
        return Refusal(section("13(c)"), f"hole {hole} already dealt; report the count", "hole")
    if hole == 2 and seat.hole[0] is None:
        return Refusal(section(deal), "one card at a time: hole 1 first", "hole")
    return None


def _verify_expose(state: CrissCrossState, event: CardExposed) -> Refusal | None:
    section = state.section
    if event.recipient is Recipient.COMMUNITY:
        assert event.position is not None
        reveal = _REVEALS.get(state.phase)
        if reveal is None or event.position not in reveal[0]:
            return Refusal(
                section("11(c)"),
                f"{event.position} is not due to be turned now; report an irregularity",
                "position",
            )
        index = INDEX[event.position]
        if state.community_exposed[index]:
            return Refusal(section(reveal[1]), f"{event.position} is already face up", "position")
        dealt = state.community[index]
    elif event.recipient is Recipient.PLAYER:
        if state.phase is not Phase.SETTLEMENT:
            return Refusal(section("11(g)"), "players' cards are turned at settlement", "seat")
        seat = state.seats.get(event.seat or 0)
        if seat is None or not seat.active:
            return Refusal(section("11(g)"), "only remaining players' cards are turned", "seat")
        later = later_unexposed_seats(state, seat.seat)
        if later:
            return Refusal(
                section("11(g)"),
                f"counterclockwise from the dealer's right: seat {max(later)} first",
                "seat",
            )
        hole = event.hole or 1
        if seat.exposed[hole - 1]:
            return Refusal(section("11(g)"), "already face up", "hole")
        dealt = seat.hole[hole - 1]
    else:
        return Refusal(section("11"), "the dealer has no cards", "recipient")
    if event.card is not None and event.card != dealt:
        return Refusal(section("11(i)"), f"the card there is {dealt}, not {event.card}", "card")
    return None


def _verify_stub(state: CrissCrossState, event: StubCounted) -> Refusal | None:
    if state.phase is not Phase.ACROSS_DECISION or state.decisions_made or state.stub_counted:
        return Refusal(
            state.section(_dealing_sections(state)[3]),
            "the stub is counted after the deal and before the first decision",
            None,
        )
    return None


def _verify_dealer_action(state: CrissCrossState, event: Event) -> Refusal | None:
    seat = getattr(event, "seat", 0)
    if seat not in state.seats:
        return Refusal(state.section("11(h)"), f"seat {seat} is not in this round", "seat")
    if isinstance(event, DealerPaid) and state.phase not in (Phase.SETTLEMENT, Phase.VOIDED):
        return Refusal(state.section("11(h)"), "wagers are paid at settlement", None)
    if isinstance(event, DealerCollected) and state.phase in (Phase.WAGERING, Phase.DEALING):
        return Refusal(state.section("11(b)"), "nothing is lost before the first decision", None)
    return None


def _verify_irregularity(state: CrissCrossState, event: IrregularityReported) -> Refusal | None:
    if event.kind == IrregularityKind.DEALER_CARD_EXPOSED_EARLY:
        return Refusal(state.section("13"), "the dealer has no cards in Criss-Cross Poker", "kind")
    if event.kind == IrregularityKind.CARD_FACE_UP_IN_DECK and event.card is None:
        return Refusal(state.section("13(a)"), "name the card found face up", "card")
    if event.kind == IrregularityKind.CARD_FACE_UP_IN_DECK and (
        state.used_cards & card_bit(event.card)  # type: ignore[arg-type]
    ):
        return Refusal(state.section("3(a)"), f"{event.card} is already in play", "card")
    if event.kind == IrregularityKind.PLAYER_LEFT_TABLE and event.seat not in state.seats:
        return Refusal(state.section("7(b)"), "name the seat the player left", "seat")
    return None


def _verify_close(state: CrissCrossState, event: RoundClosed) -> Refusal | None:
    if state.phase is Phase.VOIDED:
        return None
    if state.phase is not Phase.SETTLEMENT:
        return Refusal(state.section("11(i)"), "the round is not yet settled", None)
    if Automation.EXPOSE_PLAYER_CARDS not in state.automations:
        hidden = first_hidden_seat(state)
        if hidden is not None:
            return Refusal(state.section("11(g)"), f"seat {hidden}'s cards were not turned", None)
    return None


def verify(state: CrissCrossState, event: Event) -> Refusal | None:
    """Return why ``event`` may not follow ``state``, or ``None`` if it may.

    >>> verify.__name__
    'verify'
    """
    return _MACHINE.verify(state, event)


def can_apply(state: CrissCrossState, event: Event) -> bool:
    """Whether ``event`` may follow ``state``."""
    return verify(state, event) is None


# ------------------------------------------------------------------- apply


def _place_wager(state: CrissCrossState, event: WagerPlaced) -> CrissCrossState:
    seat = state.seats[event.seat]
    wagers = dict(seat.wagers)
    wagers[event.wager] = event.amount_cents
    seat = evolve(seat, wagers=wagers)
    if state.phase is Phase.WAGERING:
        return with_seat(state, seat)
    return _after_decision(state, seat)


def _fold(state: CrissCrossState, event: PlayerFolded) -> CrissCrossState:
    return _after_decision(state, evolve(state.seats[event.seat], folded_at=state.phase))


def _after_decision(state: CrissCrossState, seat: SeatState) -> CrissCrossState:
    state = with_seat(
        state, seat, pending=state.pending[1:], decisions_made=state.decisions_made + 1
    )
    if state.pending:
        return state
    return _end_decision(state)


def _no_more_bets(state: CrissCrossState, event: NoMoreBets) -> CrissCrossState:
    seats = {
        number: evolve(
            seat,
            participating=Wager.ANTE_ACROSS in seat.wagers and Wager.ANTE_DOWN in seat.wagers,
        )
        for number, seat in state.seats.items()
    }
    return evolve(state, seats=seats, phase=Phase.DEALING)


def _deal(state: CrissCrossState, event: CardDealt) -> CrissCrossState:
    bit = card_bit(event.card)
    if event.recipient is Recipient.COMMUNITY:
        assert event.position is not None
        index = INDEX[event.position]
        community = state.community[:index] + (event.card,) + state.community[index + 1 :]
        state = evolve(
            state,
            community=community,
            used_cards=state.used_cards | bit,
            cards_dealt=state.cards_dealt + 1,
        )
    else:
        seat = state.seats[event.seat or 0]
        hole = (event.card, seat.hole[1]) if event.hole == 1 else (seat.hole[0], event.card)
        state = with_seat(
            state,
            evolve(seat, hole=hole),
            used_cards=state.used_cards | bit,
            cards_dealt=state.cards_dealt + 1,
        )
    expected = 5 + 2 * sum(1 for seat in state.seats.values() if seat.participating)
    if state.cards_dealt == expected:
        return _end_dealing(state)
    return state


def _end_dealing(state: CrissCrossState) -> CrissCrossState:
    return _begin_decision(state, Phase.ACROSS_DECISION)


def _begin_decision(state: CrissCrossState, phase: Phase) -> CrissCrossState:
    pending = tuple(number for number, seat in sorted(state.seats.items()) if seat.active)
    state = evolve(state, phase=phase, pending=pending)
    if pending:
        return state
    return _end_decision(state)


def _end_decision(state: CrissCrossState) -> CrissCrossState:
    return _begin_reveal(state, _NEXT_AFTER_DECISION[state.phase])


def _begin_reveal(state: CrissCrossState, phase: Phase) -> CrissCrossState:
    state = evolve(state, phase=phase, pending=())
    if Automation.REVEAL_COMMUNITY_CARDS in state.automations:
        exposed = list(state.community_exposed)
        for position in _REVEALS[phase][0]:
            exposed[INDEX[position]] = True
        return _end_reveal(evolve(state, community_exposed=tuple(exposed)))
    return state


def _end_reveal(state: CrissCrossState) -> CrissCrossState:
    following = _REVEALS[state.phase][2]
    if following is Phase.SETTLEMENT:
        return evolve(state, phase=Phase.SETTLEMENT)
    return _begin_decision(state, following)


def _expose(state: CrissCrossState, event: CardExposed) -> CrissCrossState:
    if event.recipient is Recipient.COMMUNITY:
        assert event.position is not None
        index = INDEX[event.position]
        exposed = state.community_exposed
        exposed = exposed[:index] + (True,) + exposed[index + 1 :]
        state = evolve(state, community_exposed=exposed)
        if all(exposed[INDEX[position]] for position in _REVEALS[state.phase][0]):
            return _end_reveal(state)
        return state
    seat = state.seats[event.seat or 0]
    flags = (True, seat.exposed[1]) if event.hole == 1 else (seat.exposed[0], True)
    return with_seat(state, evolve(seat, exposed=flags))


def _void(state: CrissCrossState, section: str, reason: str) -> CrissCrossState:
    return void(state, Phase.VOIDED, section, reason)  # type: ignore[no-any-return]


def _count_stub(state: CrissCrossState, event: StubCounted) -> CrissCrossState:
    section = state.section(_dealing_sections(state)[2])
    return count_stub(state, event, section=section, remedy=_STUB_REMEDY, void=_void)  # type: ignore[no-any-return]


def _irregularity(state: CrissCrossState, event: IrregularityReported) -> CrissCrossState:
    state = report_irregularity(state, event, remedies=_REMEDIES, void=_void)
    if event.kind == IrregularityKind.PLAYER_LEFT_TABLE:
        seat = evolve(state.seats[event.seat or 0], abandoned=True)
        state = with_seat(state, seat, pending=tuple(s for s in state.pending if s != seat.seat))
        if state.phase in _DECISIONS and not state.pending:
            return _end_decision(state)
    return state


_STUB_REMEDY = StubRemedy(
    misdeal="stub count: cards misdealt but 52 remain in the deck",
    mismatch="stub count {counted}, expected {expected}, no misdeal: deck removed",
)
# § .13: CARD_DRAWN_IN_ERROR (13(b)) is used as the next card and DEVICE_OUT_OF_ORDER
# (13(g)) is a table fact for the floor; neither changes the round.
_REMEDIES = Remedies(
    face_up="13(a)",
    voids={
        IrregularityKind.INCORRECT_CARD_COUNT: (
            "13(c)",
            "a player or the community area had a wrong count",
        ),
        IrregularityKind.COMMUNITY_CARD_EXPOSED_EARLY: (
            "13(d)",
            "a community card was exposed before its reveal",
        ),
        IrregularityKind.SHOE_MALFUNCTION: (
            "13(f)",
            "the automated dealing shoe failed during the round",
        ),
    },
)


def apply(state: CrissCrossState, event: Event) -> CrissCrossState:
    """Return the state after ``event``.

    :raises RuleViolation: naming the section when the regulation forbids it.
    """
    return _MACHINE.apply(state, event)  # type: ignore[no-any-return]


# -------------------------------------------------------------- settlement


def required_settlement(state: CrissCrossState) -> Settlement:
    """What Chapter 592/674a requires for every wager of the round so far.

    Seats are settled counterclockwise from the dealer's right (§ .11(g)), each
    seat's wagers in the order of § .11(h)(1)-(5). Before SETTLEMENT only the
    wagers already decided (forfeits) are listed and ``complete`` is false.
    """
    opened = state.opened
    options: list[tuple[str, str]] = [("rounding", state.rounding.name)]
    if state.pair_of_tens is not None:
        options.append(("pair_of_tens_middle_bets", str(state.pair_of_tens)))
    if opened.payout_limit_cents is not None:
        options.append(("payout_limit_cents", str(opened.payout_limit_cents)))
    common = settlement_header(state, options)
    common["notes"] = state.ruleset.notes if state.ruleset.unverified_sections else ()
    seats = counterclockwise(state.seats)
    if state.void_section is not None:
        reason = state.void_reason or ""
        notes = (reason,) if reason else ()
        lines = returned_lines(seats, SETTLEMENT_ORDER, state.void_section, notes)
        return Settlement(
            lines=lines, voided=True, void_section=state.void_section, complete=True, **common
        )  # type: ignore[arg-type]
    complete = state.phase in (Phase.SETTLEMENT, Phase.CLOSED)
    dealt = state.phase is not Phase.WAGERING
    collected = [
        line
        for seat in seats
        for line in seat_lines(state, seat, complete=complete, dealt=dealt, folds=_DECISIONS)
    ]
    limited = apply_payout_limit(
        tuple(collected),
        limit_cents=opened.payout_limit_cents,
        wagers=state.ruleset.payout_limit_wagers,
        section=state.section("12(d)"),
        group=lambda line: line.player,
    )
    return Settlement(lines=limited, complete=complete, **common)  # type: ignore[arg-type]


_MACHINE = GameMachine(
    name="Criss-Cross",
    open=open_round,
    required_settlement=required_settlement,
    steps={
        WagerPlaced: (_verify_wager, _place_wager),
        NoMoreBets: (_verify_no_more_bets, _no_more_bets),
        CardDealt: (_verify_deal, _deal),
        CardExposed: (_verify_expose, _expose),
        StubCounted: (_verify_stub, _count_stub),
        PlayerFolded: (_verify_fold, _fold),
        IrregularityReported: (_verify_irregularity, _irregularity),
        RoundVoided: (None, lambda state, event: _void(state, "floor", event.reason)),
        DealerPaid: (_verify_dealer_action, record_dealer_action),
        DealerCollected: (_verify_dealer_action, record_dealer_action),
        WagerReturned: (_verify_dealer_action, record_dealer_action),
        RoundClosed: (_verify_close, lambda state, event: evolve(state, phase=Phase.CLOSED)),
    },
    closed=Phase.CLOSED,
    voided=Phase.VOIDED,
    closed_section="11(i)",
    void_section="13",
    after_void=(*AFTER_VOID, IrregularityReported),
)
register_game(GAME, CrissCrossState, _MACHINE)
