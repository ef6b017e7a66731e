"""The ``surrender_timing`` reading: § 590.7(h)(2) and § 591.7(i) against § 590.9(a)(2) and
§ 591.9(a)(2), on when a surrender against an ace or 10-value up card is made."""

from __future__ import annotations

import pytest

from tables.rules import engine
from tables.rules.engine import RuleViolation
from tables.rules.events import Decision, Event
from tables.rules.replay import replay
from tests.rules import test_double_attack_blackjack as dab
from tests.rules.test_free_bet_and_double_back_jack import (
    bet,
    card,
    deal,
    lines,
    opened,
    refusal,
)

CHAPTERS = ("590", "591")
BEFORE = {"surrender_timing": "before_peek"}


def surrender(seat: int = 1) -> Decision:
    return Decision(seat=seat, choice="surrender")


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_5xx_7_after_peek_is_the_default_and_recorded_in_every_settlement(chapter):
    """§ 590.7(h)(2), § 591.7(i): the reading every settlement records, after_peek unless set."""
    events = [opened(chapter), bet(1, 1_000), *deal("Th", "9c", {1: "Tc 6c"}), surrender()]
    assert ("surrender_timing", "after_peek") in replay(events).settlement.options_applied
    events[0] = opened(chapter, **BEFORE)
    assert ("surrender_timing", "before_peek") in replay(events).settlement.options_applied


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_5xx_7_after_peek_a_surrender_follows_the_reader_in_turn(chapter):
    """§ 590.7(h)(2), § 591.7(i): after the reader reports no Blackjack, half is collected."""
    events = [opened(chapter), bet(1, 1_000), *deal("Th", "9c", {1: "Tc 6c"}), surrender()]
    assert lines(events) == [(1, 1, "BLACKJACK", "forfeited", 500, f"{chapter}.9(a)(1)")]


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_5xx_7_after_peek_no_surrender_once_the_reader_found_a_blackjack(chapter):
    """§ 590.7(g), (h)(2), § 591.7(h)-(i): a dealer Blackjack ends the round before any decision."""
    events = [opened(chapter), bet(1, 1_000), *deal("Th", "Ac", {1: "Tc 6c"}), surrender()]
    decisions = "7(h)(2)" if chapter == "590" else "7(i)"
    assert refusal(events) == (f"{chapter}.{decisions}", "choice")


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_5xx_7_after_peek_a_surrender_waits_for_its_turn_past_the_insurance(chapter):
    """§ 590.7(h)(2), § 591.7(i): seat 2 does not surrender while seat 1 decides."""
    events = [opened(chapter, seats=(1, 2)), bet(1, 1_000), bet(2, 1_000),
              *deal("Ah", "9c", {1: "Tc 6c", 2: "Td 5c"}), surrender(2)]  # fmt: skip
    decisions = "7(h)(2)" if chapter == "590" else "7(i)"
    assert refusal(events) == (f"{chapter}.{decisions}", "seat")


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_5xx_9_a_2_before_peek_a_surrender_against_a_dealer_blackjack_loses_the_wager(chapter):
    """§ 590.9(a)(2), § 591.9(a)(2): surrendered before the reader, collected in full on a
    dealer Blackjack; the Insurance Wager is settled separately (§ 590.9(b), § 591.9(b))."""
    events = [opened(chapter, **BEFORE), bet(1, 1_000), *deal("Ah", "Kc", {1: "Tc 6c"}),
              bet(1, 500, "INSURANCE"), surrender()]  # fmt: skip
    insurance = "12(b)" if chapter == "590" else "12(c)"
    assert lines(events) == [(1, 1, "INSURANCE", "win", 1_000, f"{chapter}.{insurance}"),
                             (1, 1, "BLACKJACK", "lose", 1_000, f"{chapter}.9(a)(2)")]


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_5xx_9_a_2_before_peek_any_seat_surrenders_out_of_turn_before_the_reader(chapter):
    """§ 590.9(a)(2), § 591.9(a)(2): seat 2 surrenders before seat 1's first decision; without
    a dealer Blackjack half is collected, and seat 1 then plays on."""
    events = [opened(chapter, seats=(1, 2), **BEFORE), bet(1, 1_000), bet(2, 1_000),
              *deal("Th", "7c", {1: "Tc 8c", 2: "Td 5c"}), surrender(2),
              Decision(seat=1, choice="stand")]  # fmt: skip
    win = "7(o)" if chapter == "590" else "7(s)(1)(ii)"
    assert lines(events) == [(2, 1, "BLACKJACK", "forfeited", 500, f"{chapter}.9(a)(1)"),
                             (1, 1, "BLACKJACK", "win", 1_000, f"{chapter}.{win}")]


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_5xx_9_a_2_before_peek_no_surrender_after_the_reader_was_used(chapter):
    """§ 590.9(a)(2), § 591.9(a)(2): once the first decision was made behind the reader, a
    surrender against a 10-value up card is refused."""
    events = [opened(chapter, seats=(1, 2), **BEFORE), bet(1, 1_000), bet(2, 1_000),
              *deal("Th", "7c", {1: "Tc 8c", 2: "Td 5c"}), Decision(seat=1, choice="stand"),
              surrender(2)]  # fmt: skip
    assert refusal(events) == (f"{chapter}.9(a)(2)", "choice")


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_5xx_9_a_1_before_peek_a_surrender_against_a_low_up_card_is_made_in_turn(chapter):
    """§ 590.9(a)(1), § 591.9(a)(1): no reader is used, so the reading changes nothing."""
    events = [opened(chapter, **BEFORE), bet(1, 1_000), *deal("6h", "9c", {1: "Tc 6c"}),
              surrender()]  # fmt: skip
    assert lines(events) == [(1, 1, "BLACKJACK", "forfeited", 500, f"{chapter}.9(a)(1)")]


@pytest.mark.parametrize("timing", ["after_peek", "before_peek"])
def test_591_9_a_a_busted_hand_buys_a_second_chance_but_does_not_surrender(timing):
    """§ 591.9(a): every surrender comes before any draw, under either reading."""
    events: list[Event] = [opened("591", surrender_timing=timing), bet(1, 1_000),
                           *deal("6h", "9c", {1: "Tc 6c"}), Decision(seat=1, choice="hit"),
                           card("Kd", 1, "3"), surrender()]  # fmt: skip
    assert refusal(events) == ("591.9(a)", "choice")


@pytest.mark.parametrize("timing", ["after_peek", "before_peek"])
def test_590_9_a_no_surrender_after_a_free_split(timing):
    """§ 590.9(a): surrender comes before any split (a free one included), under either reading."""
    events: list[Event] = [opened("590", surrender_timing=timing), bet(1, 1_000),
                           *deal("6h", "9c", {1: "8c 8d"}), Decision(seat=1, choice="split"),
                           card("3s", 1, "2", 1), surrender()]  # fmt: skip
    assert refusal(events) == ("590.9(a)", "choice")


def test_the_reading_refuses_a_value_it_does_not_know():
    """An option outside the reading's values is refused naming the option."""
    with pytest.raises(RuleViolation) as refused:
        engine.open_round(opened("590", surrender_timing="never"))
    assert refused.value.field == "options.surrender_timing"


def test_581_9_b_2_i_before_peek_the_bet_is_collected_and_the_double_attack_returned():
    """§ 581.9(b)(2)(i): § 581 reads like its siblings (§ 581.7(h)(2) against § 581.9(b)(2));
    surrendered before the reader, the Bet is lost to a dealer Blackjack and the Double
    Attack Wager returned. After the reader the same surrender is refused (§ 581.7(h)(2))."""
    events = [dab.opened(seats=(1,), **BEFORE), bet(1, 1_000, "BET"),
              *dab.deal("Kh", "Ac", {1: "Kc 6d"}, {1: 500}), surrender()]  # fmt: skip
    assert dab.lines(events) == [(1, 1, "BET", "lose", 1_000, "581.9(b)(2)(i)"),
                                 (1, 1, "DOUBLE_ATTACK", "returned", 500, "581.9(b)(2)(i)")]
    events[0] = dab.opened(seats=(1,))
    assert refusal(events) == ("581.7(h)(2)", "choice")


def test_581_7_k_before_peek_a_hand_that_drew_still_surrenders_after_the_reader():
    """§ 581.7(k): "Prior to the dealer exposing his hole card, if player has less than 21
    after drawing additional cards, the player may surrender", whatever the reading."""
    events = [dab.opened(seats=(1,), **BEFORE), bet(1, 1_000, "BET"),
              *dab.deal("Kh", "7c", {1: "Kc 2d"}, {1: 500}), Decision(seat=1, choice="hit"),
              dab.player(1, "3s", "3"), surrender()]  # fmt: skip
    assert dab.lines(events) == [(1, 1, "BET", "forfeited", 500, "581.9(b)(1)"),
                                 (1, 1, "DOUBLE_ATTACK", "forfeited", 250, "581.9(b)(1)")]
