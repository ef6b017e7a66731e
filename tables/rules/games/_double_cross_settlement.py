"""Double Cross Poker settlement (Sections 10(a), 10(e)-(g), 11, 12).

The three-card wagers are settled first, at the first reveal (Section 10(a));
then each remaining seat counterclockwise, its hand the alignment of its
raises against the dealer's better alignment (Sections 10(e)-(g)).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any, cast

from tables.rules.cards import Card
from tables.rules.engine import (
    Outcome,
    Settlement,
    SettlementLine,
    apply_payout_limit,
    lookup,
    plain_line,
    win_line,
)
from tables.rules.events import Alignment, Position
from tables.rules.events import Wager as W
from tables.rules.hands import FiveCardHand, evaluate_five, evaluate_three
from tables.rules.machine import RoundState, Seat, complete
from tables.rules.rulesets import HandComparison
from tables.rules.settlement import describe_cards, settlement_header

__all__ = ["COMMUNITY_DEAL_ORDER", "LINES", "dealer_hand", "player_hand", "settlement"]

S = "Section "
# Sections 7(c)(3), 8(c)(3), 9(c): the order the five community cards are dealt.
COMMUNITY_DEAL_ORDER = (Position.ROW_1, Position.CENTER, Position.ROW_3, Position.TOP,
                        Position.BOTTOM)  # fmt: skip
_INDEX = {position: index for index, position in enumerate(COMMUNITY_DEAL_ORDER)}
LINES: Mapping[Alignment, tuple[Position, ...]] = {
    Alignment.VERTICAL: (Position.TOP, Position.CENTER, Position.BOTTOM),
    Alignment.HORIZONTAL: (Position.ROW_1, Position.CENTER, Position.ROW_3),
}
_MAIN_WAGERS = (W.ANTE, W.RAISE_1, W.RAISE_2)


def _line_hand(
    state: RoundState, two: tuple[Card | None, ...], alignment: Alignment
) -> tuple[FiveCardHand, str]:
    cards = [*two, *(state.community[_INDEX[position]] for position in LINES[alignment])]
    hand = evaluate_five(cast(list[Card], cards))
    return hand, describe_cards(cards, hand.category.name)


def dealer_hand(state: RoundState) -> tuple[Alignment, FiveCardHand, str]:
    """Section 10(e): the dealer's two cards with the higher-ranking alignment."""
    vertical = _line_hand(state, state.dealer, Alignment.VERTICAL)
    horizontal = _line_hand(state, state.dealer, Alignment.HORIZONTAL)
    if horizontal[0].strength > vertical[0].strength:
        return Alignment.HORIZONTAL, *horizontal
    return Alignment.VERTICAL, *vertical


def player_hand(state: RoundState, seat: int) -> tuple[FiveCardHand, str]:
    """Section 10(g)(1): the hand designated by the alignment of the player's raises."""
    player = state.seats[seat]
    return _line_hand(state, player.cards, player.params["alignment"])


def _compare(state: RoundState, player: FiveCardHand, dealer: FiveCardHand) -> int:
    if state.ruleset.hand_comparison is HandComparison.CATEGORY_ONLY:
        mine, theirs = int(player.category), int(dealer.category)
        return (mine > theirs) - (mine < theirs)
    return (player.strength > dealer.strength) - (player.strength < dealer.strength)


def _three_card_line(state: RoundState, seat: Seat) -> SettlementLine:
    lose = S + "10(a)"
    if seat.choices["three_card"] != "expose":
        return plain_line(seat, W.THREE_CARD, Outcome.LOSE, lose, notes=("cards not exposed",))
    cards = [*seat.cards, state.community[_INDEX[Position.TOP]]]
    hand = evaluate_three(cast(list[Card], cards))
    text = describe_cards(cards, hand.category.name)
    match = lookup(state.ruleset.three_card_table, hand.category, None)
    if match.line is None or match.line.odds is None:
        return plain_line(seat, W.THREE_CARD, Outcome.LOSE, lose, text)
    return win_line(seat=seat.seat, player=seat.player, wager=W.THREE_CARD,
                    stake_cents=seat.wagers[W.THREE_CARD], odds=match.line.odds,
                    rounding=state.rounding, section=S + "10(a); " + S + "11(c)", hand=text,
                    pay_line=match.line.label)  # fmt: skip


def _main_lines(state: RoundState, seat: Seat, dealer: list[Any]) -> list[SettlementLine]:
    if seat.folded_at is not None:
        return [plain_line(seat, W.ANTE, Outcome.FORFEITED, S + "10(c)(1)")]
    mine, mine_text = player_hand(state, seat.seat)
    if not dealer:  # the dealer's hand is the same for every seat: evaluate it once
        dealer.append(dealer_hand(state)[1:])
    theirs, theirs_text = dealer[0]
    described = f"{mine_text} vs dealer {theirs_text}"
    notes: tuple[str, ...] = ()
    placed, said = seat.params["alignment"], seat.params.get("spoken")
    if said is not None and said != placed:
        notes = (f"{S}10(g)(1): raises placed {placed} but player said {said}; "
                 "the placement governs",)  # fmt: skip
    result = _compare(state, mine, theirs)
    if result <= 0:
        outcome, section = (Outcome.LOSE, "10(g)(2)") if result else (Outcome.PUSH, "10(g)(3)")
        return [plain_line(seat, wager, outcome, S + section, described, notes)
                for wager in _MAIN_WAGERS]  # fmt: skip
    match = lookup(state.ruleset.raise_table, mine.category, None)
    assert match.line is not None and match.line.odds is not None
    ante = win_line(seat=seat.seat, player=seat.player, wager=W.ANTE,
                    stake_cents=seat.wagers[W.ANTE], odds=state.ruleset.ante_odds,
                    rounding=state.rounding, section=S + "10(g)(3)", hand=described,
                    pay_line="Ante", notes=notes)  # fmt: skip
    raises = [win_line(seat=seat.seat, player=seat.player, wager=wager,
                       stake_cents=seat.wagers[wager], odds=match.line.odds,
                       rounding=state.rounding, section=S + "10(g)(3); " + S + "11(b)",
                       hand=described, pay_line=match.line.label, notes=notes)
              for wager in (W.RAISE_1, W.RAISE_2)]  # fmt: skip
    return [ante, *raises]


def settlement(state: RoundState) -> Settlement:
    """What the Double Cross rules require for every wager of the round so far.

    Three-card wagers are listed first (Section 10(a) settles them before any
    decision), then each remaining seat counterclockwise from the dealer's
    right (Section 10(f)). On a void every wager is returned except three-card
    wagers already resolved under Section 10(a), which stand and are noted
    for the supervisor (Section 12 does not say what happens to them).
    """
    options = [("rounding", state.rounding.name),
               ("hand_comparison", str(state.ruleset.hand_comparison))]  # fmt: skip
    if state.opened.payout_limit_cents is not None:
        options.append(("payout_limit_cents", str(state.opened.payout_limit_cents)))
    common = settlement_header(state, options)
    ascending = [seat for _, seat in sorted(state.seats.items())]
    three_card = [_three_card_line(state, seat) for seat in ascending
                  if W.THREE_CARD in seat.wagers and "three_card" in seat.choices]  # fmt: skip
    if state.void_section is not None:
        resolved = {line.seat for line in three_card}
        note = "settled before the void; refer to a supervisor (Section 12 is silent)"
        stand = tuple(dataclasses.replace(line, notes=(*line.notes, note)) for line in three_card)
        returned = tuple(
            plain_line(seat, wager, Outcome.RETURNED, state.void_section,
                       notes=(state.void_reason or "",))
            for seat in reversed(ascending) for wager in (*_MAIN_WAGERS, W.THREE_CARD)
            if wager in seat.wagers and not (wager == W.THREE_CARD and seat.seat in resolved)
        )  # fmt: skip
        return Settlement(lines=stand + returned, voided=True, void_section=state.void_section,
                          complete=True, **common)  # fmt: skip
    done = complete(state)
    main: list[SettlementLine] = []
    dealer: list[Any] = []
    for seat in reversed(ascending):
        if seat.participating and (seat.folded_at is not None or done):
            main.extend(_main_lines(state, seat, dealer))
    limited = apply_payout_limit(tuple(three_card + main),
                                 limit_cents=state.opened.payout_limit_cents,
                                 wagers=state.ruleset.payout_limit_wagers, section=S + "11(d)",
                                 group=lambda line: line.seat)  # fmt: skip
    return Settlement(lines=limited, complete=done, **common)
