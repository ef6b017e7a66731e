"""Exact side-wager par sheets of the blackjack family, checked against the settlement code."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from tables.rules.blackjack import DOUBLE_ATTACK_581, DOUBLE_BACK_JACK_591, FREE_BET_590
from tables.rules.blackjack_parsheet import (
    DECK_COUNTS,
    bust_it_sheet,
    insurance_sheet,
    push_22_sheet,
)
from tables.rules.blackjack_settlement import settle_bust_it, settle_push_22
from tables.rules.cards import STANDARD_DECK
from tables.rules.engine import Outcome
from tables.rules.money import ROUND_DOWN_TO_CENT
from tables.rules.shoe import shoe_spec


def _batch(chapter: str, decks: int | None = None) -> list:
    counts = shoe_spec(chapter, decks).composition
    return [card for card in STANDARD_DECK for _ in range(counts[card.index])]


def test_581_8_insurance_at_5_to_2_on_kings_queens_and_jacks_of_eight_spanish_decks():
    """§ 581.8(a), § 581.12(b): 96 of the 383 cards under the ace win."""
    sheet = insurance_sheet(DOUBLE_ATTACK_581)
    assert sheet.rows[0].probability == Fraction(96, 383)
    assert sheet.house_edge == Fraction(47, 383)


@pytest.mark.parametrize("decks", DECK_COUNTS)
def test_590_12_b_591_12_c_insurance_at_2_to_1_has_edge_4n_less_1_over_52n_less_1(decks):
    for rules in (FREE_BET_590, DOUBLE_BACK_JACK_591):
        assert insurance_sheet(rules, decks).house_edge == Fraction(4 * decks - 1, 52 * decks - 1)


def test_581_12_c_bust_it_counts_every_ordered_triple_of_the_batch():
    sheet = bust_it_sheet()
    assert sheet.total == 384 * 383 * 382
    assert sum(row.combinations for row in sheet.rows) == sheet.total
    assert sum(row.probability for row in sheet.rows) == 1
    # Three 8s of one suit: 8 spades x 7 x 6 ordered, four suits.
    assert sheet.rows[0].combinations == 4 * 8 * 7 * 6


def _simulated(rng: random.Random, chapter: str, decks: int | None, settle, rules, hands: int):
    """The dealer's hand drawn to all 17s from a fresh shuffle, settled by the settlement code."""
    from tables.rules.blackjack import dealer_draws

    batch = _batch(chapter, decks)
    won = Fraction(0)
    for _ in range(hands):
        shoe = rng.sample(batch, 12)
        dealer = dealer_draws(rules, shoe[:2], shoe[2:])
        result = settle(rules, 100, dealer, ROUND_DOWN_TO_CENT)
        won += result.paid_cents if result.outcome is Outcome.WIN else -result.collected_cents
    return won / (100 * hands)


def test_581_12_c_the_exact_bust_it_edge_agrees_with_the_settlement_code_on_dealt_hands():
    """A seeded 40,000-hand check of the enumeration against settle_bust_it (4 standard errors)."""
    edge = float(bust_it_sheet().house_edge)
    simulated = float(_simulated(random.Random(581), "581", None, settle_bust_it,
                                 DOUBLE_ATTACK_581, 40_000))  # fmt: skip
    assert abs(-simulated - edge) < 4 * 1.5 / 40_000**0.5


def test_590_12_c_the_exact_push_22_edge_agrees_with_the_settlement_code_on_dealt_hands():
    edge = float(push_22_sheet(6, "A").house_edge)
    simulated = float(_simulated(random.Random(590), "590", 6, settle_push_22, FREE_BET_590,
                                 40_000))  # fmt: skip
    assert abs(-simulated - edge) < 4 * 3.0 / 40_000**0.5


@pytest.mark.parametrize("decks", DECK_COUNTS)
def test_590_12_c_paytable_b_pays_one_less_on_other_22s(decks):
    a, b = push_22_sheet(decks, "A"), push_22_sheet(decks, "B")
    assert [row.probability for row in a.rows] == [row.probability for row in b.rows]
    assert sum(row.probability for row in a.rows) == 1
    assert b.house_edge - a.house_edge == a.rows[2].probability
