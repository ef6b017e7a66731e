"""Double Cross Poker, Massachusetts rules of the game (Sections 1-12).

Steps: wagering; the deal (each player's two cards clockwise, the dealer's
two, the cross); TOP and ROW_3 turned; each three-card wager exposed or not
(Section 10(a)); fold or play with two raises in an alignment (Section 10(c));
ROW_1, CENTER, BOTTOM turned; the dealer's cards; settlement. The chapter's
own rules for the deal, the decisions, the stub and the dealer's actions
replace the engine's generic checks (``Game.checks``).

>>> [phase.value for phase in Phase][3]
'three_card'
"""

from __future__ import annotations

import enum
from typing import Any

from tables.rules.declaration import (
    Choice,
    Deal,
    DealingSections,
    Decide,
    Decided,
    Game,
    Layout,
    Reveal,
    Showdown,
    Wagering,
    WagerSpec,
)
from tables.rules.engine import Refusal, RuleViolation
from tables.rules.events import (
    CardDealt,
    DealerCollected,
    DealerPaid,
    DealingMethod,
    Event,
    IrregularityKind,
    IrregularityReported,
    PlayDeclared,
    PlayerFolded,
    Recipient,
    StubCounted,
    ThreeCardElection,
    WagerPlaced,
    WagerReturned,
)
from tables.rules.events import Wager as W
from tables.rules.games._double_cross_settlement import (
    COMMUNITY_DEAL_ORDER,
    dealer_hand,  # noqa: F401 (for callers)
    settlement,
)
from tables.rules.games._shared import card_bit
from tables.rules.irregularities import Remedies, StubRemedy
from tables.rules.machine import RoundState, Seat, apply, can_apply, declare, required_settlement  # noqa: F401 (for callers)
from tables.rules.rulesets import DOUBLE_CROSS_POKER, MA_DCP

NAME = "Double Cross Poker"
S = "Section "


class Phase(enum.StrEnum):
    """The phases of a Double Cross round (the declared steps, then void and closed)."""

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


# ------------------------------------------------------ the chapter's own checks


def _three_card_rules(state: RoundState, seat: Seat, event: WagerPlaced) -> Refusal | None:
    if event.wager != W.THREE_CARD:
        return None
    if W.ANTE not in seat.wagers:
        return Refusal(S + "6(d)", "the three-card wager follows an ante", "wager")
    low, high = state.ruleset.three_card_min_cents, state.ruleset.three_card_max_cents
    if not low <= event.amount_cents <= high:
        return Refusal(S + "6(d)", "the three-card wager is $1.00 to $100.00", "amount_cents")
    return None


def _verify_deal(state: RoundState, event: CardDealt) -> Refusal | None:
    """Sections 7(c), 8(c), 9(c): each player's two cards clockwise, the dealer's, the cross."""
    sections = _DEALING[state.opened.dealing_method]
    announce, deal = S + sections.no_more_bets, S + sections.deal
    if state.phase == Phase.WAGERING:
        return Refusal(announce, 'deal only after "No more bets"')
    if state.phase != Phase.DEALING:
        return Refusal(deal, "dealing is complete")
    if state.used_cards & card_bit(event.card):
        return Refusal(S + "2(a)", f"{event.card} is already in play this round", "card")
    players = [seat for _, seat in sorted(state.seats.items()) if seat.participating]
    hole = event.hole or 1
    if event.recipient is Recipient.PLAYER:
        seat = state.seats.get(event.seat or 0)
        if seat is None or not seat.participating:
            return Refusal(deal, "cards go only to seats with an ante", "seat")
        if seat.cards[hole - 1] is not None:
            return Refusal(S + "12(c)", f"hole {hole} already dealt; report the count", "spot")
        earlier = [
            other.seat for other in players if other.seat < seat.seat and None in other.cards
        ]
        if earlier or (hole == 2 and seat.cards[0] is None):
            return Refusal(deal, "two consecutive cards to each player, clockwise", "seat")
        return None
    if any(None in seat.cards for seat in players):
        return Refusal(deal, "players are dealt before the dealer and the cross", "recipient")
    if event.recipient is Recipient.DEALER:
        if state.dealer[hole - 1] is not None or (hole == 2 and state.dealer[0] is None):
            return Refusal(deal, "the dealer receives two consecutive cards", "spot")
        return None
    if None in state.dealer:
        return Refusal(deal, "the dealer's two cards come before the cross", "recipient")
    following = COMMUNITY_DEAL_ORDER[sum(card is not None for card in state.community)]
    if following != event.spot:
        return Refusal(deal, f"the cross is dealt ROW_1, CENTER, ROW_3, TOP, BOTTOM; next is "
                       f"{following}", "spot")  # fmt: skip
    return None


def _verify_election(state: RoundState, event: ThreeCardElection) -> Refusal | None:
    if state.phase != Phase.THREE_CARD:
        return Refusal(S + "10(a)", "three-card wagers are resolved after TOP and ROW_3 are turned")
    if event.seat not in state.pending:
        return Refusal(S + "10(a)", "only an unresolved three-card wager may be exposed", "seat")
    return None


def _verify_decision(state: RoundState, event: PlayerFolded | PlayDeclared) -> Refusal | None:
    if state.phase == Phase.THREE_CARD:
        return Refusal(S + "10(b)", "decisions follow the resolution of all three-card wagers")
    if state.phase != Phase.PLAY_DECISION:
        return Refusal(S + "10(c)", "not at the fold-or-play decision")
    if state.to_act != event.seat:
        return Refusal(S + "10(c)", f"out of turn: seat {state.to_act} decides first", "seat")
    if isinstance(event, PlayDeclared):
        ante = state.seats[event.seat].wagers[W.ANTE]
        for name in ("raise_1_cents", "raise_2_cents"):
            if getattr(event, name) != ante:
                return Refusal(S + "10(c)(2)", "each raise equals the ante", name)
    return None


def _verify_stub(state: RoundState, event: StubCounted) -> Refusal | None:
    if state.phase != Phase.FIRST_REVEAL or any(state.community_exposed) or state.stub_counted:
        return Refusal(S + "7(d)", "the stub is counted after the deal, before play continues")
    return None


def _verify_dealer_action(state: RoundState, event: Any) -> Refusal | None:
    if event.seat not in state.seats:
        return Refusal(S + "10(g)", f"seat {event.seat} is not in this round", "seat")
    early = (Phase.WAGERING, Phase.DEALING, Phase.FIRST_REVEAL)
    if isinstance(event, DealerPaid | DealerCollected) and state.phase in early:
        return Refusal(S + "10(a)", "nothing is settled before the first reveal")
    settling = (Phase.SETTLEMENT, Phase.VOIDED)
    if (
        isinstance(event, DealerPaid)
        and event.wager != W.THREE_CARD
        and state.phase not in settling
    ):
        return Refusal(S + "10(g)(3)", "five-card wagers are paid at settlement")
    return None


def _verify_irregularity(state: RoundState, event: IrregularityReported) -> Refusal | None:
    if event.kind == IrregularityKind.CARD_FACE_UP_IN_DECK and (
        event.card is None or state.used_cards & card_bit(event.card)
    ):
        return Refusal(S + "12(a)", "name a card not already in play", "card")
    return None


def _election(event: ThreeCardElection) -> Decided:
    return ("expose" if event.expose else "keep_hidden"), {}, {}


def _play(event: PlayDeclared) -> Decided:
    amounts: dict[str, int] = {W.RAISE_1: event.raise_1_cents, W.RAISE_2: event.raise_2_cents}
    return "play", amounts, {"alignment": event.alignment, "spoken": event.spoken_alignment}


def _opening_check(state: RoundState) -> None:
    limit = state.opened.payout_limit_cents
    if limit is not None and limit < state.ruleset.payout_limit_floor_cents:
        raise RuleViolation(S + "11(d)", "the payout limit must be at least $60,000",
                            "payout_limit_cents")  # fmt: skip


_DEALING = {
    DealingMethod.MANUAL_SHOE: DealingSections("7(b)", "7(c)", "7(e)(2)", "7(d)"),
    DealingMethod.HAND: DealingSections("8(b)(3)", "8(c)", "7(e)(2)", "7(d)"),
    DealingMethod.AUTOMATED_SHOE: DealingSections("9(b)(2)", "9(c)", "7(e)(2)", "7(d)"),
}
_SECTIONS = {  # what the engine cites for its generic checks
    "seated": "6(b)", "wagers": "6(e)", "by_choice": "6(e)", "already_placed": "6(c)",
    "after_no_more_bets": "6(c)", "decision_wager": "6(c)", "decisions": "10(c)",
    "card_in_play": "2(a)", "card_count": "12(c)", "early_exposure": "10(a)",
    "dealer_exposure": "10(e)", "no_spot": "10(f)", "card_mismatch": "10(h)",
    "showdown": "10(f)", "settle": "10(g)", "collect": "10(a)", "close": "10(h)", "void": "12",
    "irregularities": "12", "payout_limit": "11(d)",
}  # fmt: skip
_DEALER_ACTIONS: dict[type[Event], Any] = dict.fromkeys(
    (DealerPaid, DealerCollected, WagerReturned), _verify_dealer_action
)

GAME = declare(
    Game(
        id=DOUBLE_CROSS_POKER,
        name=NAME,
        rulesets=(MA_DCP,),
        layout=Layout(
            seat_spots=("1", "2"),
            dealer_spots=("1", "2"),
            community_spots=COMMUNITY_DEAL_ORDER,
            max_seats=None,
        ),  # fmt: skip
        wagers=(
            WagerSpec(W.ANTE, "Ante", "6(a)"),
            WagerSpec(W.RAISE_1, "Raise", "10(c)(2)", by_choice=True),
            WagerSpec(W.RAISE_2, "Raise", "10(c)(2)", by_choice=True),
            WagerSpec(W.THREE_CARD, "Three-card wager", "6(d)"),
        ),
        steps=(
            Wagering(),
            Deal(order=("seats", "dealer", "community")),
            Reveal(Phase.FIRST_REVEAL, "10(a)", ("TOP", "ROW_3"), dealer=False),
            Decide(
                Phase.THREE_CARD,
                "10(a)",
                (Choice("expose"), Choice("keep_hidden")),
                eligible=lambda seat: W.THREE_CARD in seat.wagers,
                any_order=True,
            ),
            Decide(
                Phase.PLAY_DECISION,
                "10(c)",
                (Choice("play", places=(W.RAISE_1, W.RAISE_2)), Choice("fold", folds=True)),
            ),
            Reveal(Phase.FINAL_REVEAL, "10(d)", ("ROW_1", "CENTER", "BOTTOM"), dealer=False),
            Reveal(Phase.DEALER_REVEAL, "10(e)", ("1", "2")),
            Showdown("10(f)"),
        ),  # fmt: skip
        settle=lambda state, seat: (),
        settlement=settlement,
        participates=lambda seat: W.ANTE in seat.wagers,
        wager_rules=_three_card_rules,
        opening_check=_opening_check,
        checks={
            CardDealt: _verify_deal,
            ThreeCardElection: _verify_election,
            PlayerFolded: _verify_decision,
            PlayDeclared: _verify_decision,
            StubCounted: _verify_stub,
            IrregularityReported: _verify_irregularity,
            **_DEALER_ACTIONS,
        },  # fmt: skip
        decisions={ThreeCardElection: _election, PlayDeclared: _play},
        dealing=_DEALING,
        remedies=Remedies(
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
                {
                    IrregularityKind.COMMUNITY_CARD_EXPOSED_EARLY,
                    IrregularityKind.DEALER_CARD_EXPOSED_EARLY,
                }
            ),
            referred_note="{kind}: no Double Cross rule covers it; referred to the floor",
        ),  # fmt: skip
        stub_remedy=StubRemedy(
            misdeal="cards misdealt but 52 remain in the deck",
            mismatch="stub count {counted}, expected {expected}: deck removed",
        ),
        sections=_SECTIONS,
    )
)
