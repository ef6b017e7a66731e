"""Simulated blackjack tables: a shoe spanning rounds, dealer errors planted and found by replay."""

from __future__ import annotations

import random

import pytest

from tables.rules.blackjack import DOUBLE_ATTACK_581, DOUBLE_BACK_JACK_591, FREE_BET_590
from tables.rules.blackjack_games import double_attack_blackjack_581 as dab
from tables.rules.blackjack_games import double_back_jack_591 as dbj
from tables.rules.blackjack_games import free_bet_blackjack_590 as fbb
from tables.rules.blackjack_hands import SeatHands
from tables.rules.blackjack_simulate import DealerError, choose, raises, simulate_table
from tables.rules.cards import Card, parse_cards
from tables.rules.replay import replay
from tables.rules.shoe_stream import replay_shoe

GAMES = {game.id: game for game in (dab.GAME, fbb.GAME, dbj.GAME)}
ERRORS = {
    dab.GAME.id: (DealerError.BLACKJACK_PAID_3_TO_2, DealerError.BUST_IT_ON_FOURTH_CARD,
               DealerError.SPLIT_WRONG_DOUBLE_ATTACK_SHARE, DealerError.DEALER_HITS_SOFT_17),
    fbb.GAME.id: (DealerError.LAMMER_PAID_ON_DEALER_22, DealerError.DEALER_HITS_SOFT_17),
    dbj.GAME.id: (DealerError.SECOND_CHANCE_NOT_SUBTRACTED, DealerError.DEALER_HITS_SOFT_17),
}  # fmt: skip


@pytest.mark.parametrize("game", list(ERRORS))
def test_replay_finds_exactly_the_planted_dealer_errors(game):
    """§ 581.12(a), § 581.7(m)(2), § 581.11(a), § 590.7(n)(1), § 591.7(l), § 5xx.13(d): each
    planted error is found, in its round, and nothing else is."""
    table = simulate_table(random.Random(19), GAMES[game], rounds=400, errors=ERRORS[game])
    assert sorted(injected.error for injected in table.injected) == sorted(ERRORS[game])
    expected: dict[str, list] = {}
    for injected in table.injected:  # one round may get several
        expected[injected.round_id] = sorted([*expected.get(injected.round_id, []),
                                              *injected.findings])  # fmt: skip
    for events in table.rounds:
        result = replay(events)
        assert result.final_state.phase == "closed"
        found = sorted((f.kind, f.seat, f.wager) for f in result.findings)
        assert found == expected.get(events[0].round_id, []), events[0].round_id


@pytest.mark.parametrize("game", list(ERRORS))
def test_a_simulated_shoe_spans_the_rounds_and_replays_clean(game):
    """§ 5xx.5, § 5xx.7(c)-(d): shuffled, cut, burned, reshuffled at the cover card."""
    table = simulate_table(random.Random(5), GAMES[game], rounds=150)
    result = replay_shoe(table.merged)
    assert result.findings == ()
    assert sum(1 for event in table.shoe_events if event.TYPE == "shoe.shuffled") >= 2


def test_590_11_b_2_and_590_10_a_1_the_simulated_player_splits_and_doubles_free_by_the_chart():
    """§ 590.11(b)(2): 8-8 against a 10 splits for a lammer (no money); § 590.10(a)(1):
    a hard 11 doubles free; the chart (:mod:`tables.rules.blackjack_strategy`) says so."""
    ten = Card.parse("Kd")
    seat = SeatHands.dealt(FREE_BET_590, ten, parse_cards("8c 8d"), 1_000)
    assert choose(seat, ten) == ("split", 0)
    seat = SeatHands.dealt(FREE_BET_590, ten, parse_cards("6c 5d"), 1_000)
    assert choose(seat, ten) == ("double", 0)
    seat = SeatHands.dealt(FREE_BET_590, ten, parse_cards("Tc Jd"), 1_000)
    assert choose(seat, ten) == ("stand", 0)  # § 590.11(b)(1): 10-values split for money


def test_591_7_l_the_simulated_player_buys_the_second_chance_on_a_22():
    """§ 591.7(l): a busted 22 buys a Second Chance as large as the hand's wager."""
    up = Card.parse("9h")
    seat = SeatHands.dealt(DOUBLE_BACK_JACK_591, up, parse_cards("Tc 2d"), 500).hit()
    seat = seat.card(Card.parse("Ks"))
    assert choose(seat, up) == ("second_chance", 500)


def test_581_6_e_the_simulated_player_raises_on_a_small_up_card_only():
    """§ 581.6(e), § 581.7(e): the Double Attack Wager where the strategy finds it pays."""
    assert raises(DOUBLE_ATTACK_581, Card.parse("5s"))
    assert not raises(DOUBLE_ATTACK_581, Card.parse("As"))
    assert not raises(DOUBLE_ATTACK_581, Card.parse("Qs"))
