"""A card drawn in error, its face unseen (§ 581.13(b), § 590.13(b), § 591.13(b)) or exposed to
the players (§ 581.13(c), § 590.13(c), § 591.13(c)): the next card dealt, the exposed one
offered in turn, a refusing player dealt no more, a card nobody uses to the discard rack."""

from __future__ import annotations

import pytest

from tables.rules import engine
from tables.rules.blackjack_round import to_act
from tables.rules.cards import Card
from tables.rules.engine import RuleViolation
from tables.rules.events import (
    Decision,
    Event,
    IrregularityKind,
    IrregularityReported,
    NoMoreBets,
    RoundClosed,
)
from tables.rules.replay import replay
from tables.rules.shoe_stream import replay_shoe
from tests.rules import test_free_bet_and_double_back_jack as fb
from tests.rules.test_double_attack_blackjack import (
    bet,
    deal,
    dealer,
    lines,
    opened,
    player,
    shoe_start,
    state_after,
)

EXPOSED, REFUSED = "CARD_DRAWN_IN_ERROR_EXPOSED", "EXPOSED_CARD_REFUSED"


def drawn(card: str, exposed: bool = False) -> IrregularityReported:
    kind = EXPOSED if exposed else IrregularityKind.CARD_DRAWN_IN_ERROR
    return IrregularityReported(kind=kind, card=Card.parse(card))


def refused(events: list[Event], event: Event) -> tuple[str, str | None]:
    with pytest.raises(RuleViolation) as refusal:
        engine.apply(state_after(events), event)
    return refusal.value.section, refusal.value.field


def two_seats(up: str = "6h", hole: str = "9c") -> list[Event]:
    """Seat 1 holds 9-2, seat 2 K-8 (§ 581.7(e)-(f)'s deal complete)."""
    return [opened(), bet(1, 1_000), bet(2, 1_000), *deal(up, hole, {1: "9d 2d", 2: "Kc 8c"})]


def test_581_13_b_a_card_drawn_face_down_is_the_next_card_of_the_deal():
    """§ 581.13(b): used as though it were the next card from the shoe."""
    events = [opened(seats=(1,)), bet(1, 1_000), NoMoreBets(), dealer("6h", "1"), drawn("9c")]
    assert refused(events, player(1, "8c", "1")) == ("581.13(b)", "card")
    state = engine.apply(state_after(events), player(1, "9c", "1"))
    assert state.seats[1].cards == (Card.parse("9c"),) and state.in_error is None


@pytest.mark.parametrize("chapter", ["590", "591"])
def test_590_13_b_591_13_b_a_card_drawn_face_down_is_the_next_card_a_hit_takes(chapter):
    """§ 590.13(b), § 591.13(b): the hand that next takes a card takes it."""
    events = [fb.opened(chapter), fb.bet(1, 1_000), *fb.deal("6h", "9c", {1: "9d 2d"}),
              Decision(seat=1, choice="hit"), drawn("4s")]  # fmt: skip
    assert fb.refusal([*events, fb.card("Ks", 1, "3")]) == (f"{chapter}.13(b)", "card")
    assert fb.lines([*events, fb.card("4s", 1, "3"), Decision(seat=1, choice="stand"),
                     fb.card("Kc", None, "3")])[0][3] == "win"  # 15; the dealer busts on 25


def test_581_13_c_an_exposed_card_is_the_next_card_for_the_hand_that_takes_it():
    """§ 581.13(c): after the initial two cards, dealt as though the next card."""
    events = [*two_seats(), drawn("Qs", exposed=True), Decision(seat=1, choice="hit")]
    assert refused(events, player(1, "5s", "3")) == ("581.13(c)", "card")
    state = engine.apply(state_after(events), player(1, "Qs", "3"))
    assert state.in_error is None and state.refused == ()


def test_581_13_c_a_player_refusing_the_exposed_card_is_dealt_no_more():
    """§ 581.13(c): a refusing player may not have additional cards during the round; the
    card is offered to the next hand."""
    events = [*two_seats(), drawn("Qs", exposed=True), IrregularityReported(kind=REFUSED, seat=1)]
    state = state_after(events)
    assert to_act(state).seat == 2 and state.refused == (1,)  # type: ignore[union-attr]
    assert refused(events, player(1, "Qs", "3")) == ("581.13(c)", "seat")
    events += [Decision(seat=2, choice="hit"), player(2, "Qs", "3"), dealer("5d", "3")]
    # Seat 1 stands on its 11 against the dealer's 20; seat 2 took the queen and busted.
    assert [(seat, wager, outcome) for seat, _, wager, outcome, _, _ in lines(events)] == [
        (2, "BET", "lose"), (1, "BET", "lose")]


def test_581_13_c_a_refused_card_the_dealer_must_draw_is_his_next_card():
    """§ 581.13(c): refused by the players, dealt to the dealer as the next card."""
    events = [*two_seats(), Decision(seat=1, choice="stand"), drawn("3s", exposed=True),
              IrregularityReported(kind=REFUSED, seat=2)]  # fmt: skip
    assert state_after(events).phase == "dealer"
    assert refused(events, dealer("5d", "3")) == ("581.13(c)", "card")
    state = engine.apply(state_after(events), dealer("3s", "3"))
    assert state.dealer[-1] == Card.parse("3s") and state.discarded == ()


@pytest.mark.parametrize("chapter", ["590", "591"])
def test_590_13_c_591_13_c_refused_by_all_and_unused_by_the_dealer_it_goes_to_the_rack(chapter):
    """§ 590.13(c), § 591.13(c): refused by the players, the dealer standing on 19: the
    card goes to the discard rack, the round's count of the shoe keeping it."""
    events = [fb.opened(chapter), fb.bet(1, 1_000), *fb.deal("9h", "Kd", {1: "Tc 2d"}),
              drawn("Qs", exposed=True), IrregularityReported(kind=REFUSED, seat=1)]  # fmt: skip
    before = state_after(events)
    assert before.phase == "dealer" and before.in_error == Card.parse("Qs")
    result = replay([*events, RoundClosed()])
    final = result.final_state
    queen = Card.parse("Qs").index
    assert final.discarded == (Card.parse("Qs"),) and final.in_error is None
    assert final.left[queen] == before.left[queen] - 1
    assert [line.outcome.value for line in result.settlement.lines] == ["lose"]  # 12 to 19


def test_581_13_c_an_exposed_card_in_the_initial_deal_is_not_this_remedy():
    """§ 581.13(c) begins after the initial two cards to each player and the dealer."""
    events = [opened(seats=(1,)), bet(1, 1_000), NoMoreBets(), dealer("6h", "1")]
    assert refused(events, drawn("Qs", exposed=True)) == ("581.13(c)", "kind")


def test_581_13_c_only_the_hand_playing_refuses_and_only_an_exposed_card():
    events = [*two_seats(), drawn("Qs", exposed=True)]
    assert refused(events, IrregularityReported(kind=REFUSED, seat=2)) == ("581.13(c)", "seat")
    assert refused(two_seats(), IrregularityReported(kind=REFUSED, seat=1)) == (
        "581.13(c)", "kind")
    assert refused(events, drawn("4h")) == ("581.13(b)", "kind")  # the queen comes first


def test_581_13_b_c_the_shoe_draws_a_card_drawn_in_error_once():
    """§ 581.13(b)-(c): drawn at the irregularity, not again when dealt; a card nobody used
    goes to the rack with the round's cards."""
    events = [*two_seats(up="9h", hole="Kd"), drawn("Qs", exposed=True),
              IrregularityReported(kind=REFUSED, seat=1), Decision(seat=2, choice="stand"),
              RoundClosed()]  # fmt: skip
    result = replay_shoe([*shoe_start(), *events])
    assert result.findings == () and result.shoe is not None
    assert sum(result.shoe.discard) == 6 + 1  # the deal's six cards and the queen
    dealt = [*shoe_start(), *two_seats(), Decision(seat=1, choice="hit"), drawn("4s"),
             player(1, "4s", "3"), RoundClosed()]  # fmt: skip
    shoe = replay_shoe(dealt).shoe
    assert shoe is not None and sum(shoe.discard) == 6 + 1
