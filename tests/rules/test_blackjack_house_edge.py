"""The blackjack family in finance: each wager's edge from the family's par sheet, handle
without Free Bet lammers, and the simulator in the product's signature."""

from __future__ import annotations

import datetime
import random

import pytest

from tables.rules import registry
from tables.rules.blackjack import (
    DOUBLE_ATTACK_581,
    FREE_BET_590,
    FREE_DOUBLE_LAMMER,
    FREE_SPLIT_LAMMER,
)
from tables.rules.blackjack_parsheet import bust_it_sheet, insurance_sheet, push_22_sheet
from tables.rules.blackjack_simulate import open_table, simulate_round
from tables.rules.blackjack_strategy import house_edge
from tables.rules.house_edge import house_edges, theoretical_win
from tables.rules.parsheets._blackjack import MAIN_GAME, simulate_main_game
from tables.rules.replay import FindingKind, replay
from tables.rules.rulesets import get_ruleset, ruleset_for
from tables.rules.shoe_stream import replay_shoe
from tables.rules.simulate import DealerError as AnyGameError

BLACKJACK = {"PA-581-2014": "double_attack_blackjack", "PA-590-2014": "free_bet_blackjack",
             "PA-591-2014": "double_back_jack"}  # fmt: skip


@pytest.mark.parametrize("ruleset_id", BLACKJACK)
def test_581_590_591_rule_sets_are_the_products_by_the_declaration_alone(ruleset_id):
    ruleset = get_ruleset(ruleset_id)
    assert ruleset.game == BLACKJACK[ruleset_id]
    assert ruleset_for(ruleset.game, "PA", ruleset.effective_from) is ruleset
    assert registry.blackjack(ruleset.game) is not None
    assert registry.declared(ruleset.game) is None  # its own round machine


def test_581_12_c_and_8_finance_uses_the_exact_bust_it_and_insurance_edges():
    """§ 581.12(b)-(c): per unit of each wager; the Bet carries the main game's edge and
    the Double Attack Wager, doubles and splits are decisions inside it."""
    edges = {frozenset(edge.handle): edge for edge in house_edges("PA-581-2014")}
    assert edges[frozenset({"BUST_IT"})].edge == bust_it_sheet().house_edge
    assert edges[frozenset({"INSURANCE"})].edge == insurance_sheet(DOUBLE_ATTACK_581).house_edge
    assert edges[frozenset({"BET"})].edge == house_edge(DOUBLE_ATTACK_581).house_edge
    assert edges[frozenset({"DOUBLE_ATTACK", "DOUBLE_DOWN", "SPLIT"})].edge == 0


def test_590_12_c_push_22_edge_follows_the_rounds_table_and_deck_count():
    """§ 590.3(a), § 590.12(c): the options a settlement records (as text) pick the sheet."""
    recorded = {"decks": "8", "push_22_table": "B", "push_22_offered": "True"}
    edges = {frozenset(edge.handle): edge.edge
             for edge in house_edges("PA-590-2014", options=recorded)}  # fmt: skip
    assert edges[frozenset({"PUSH_22"})] == push_22_sheet(8, "B").house_edge
    assert edges[frozenset({"INSURANCE"})] == insurance_sheet(FREE_BET_590, 8).house_edge
    default = {frozenset(e.handle): e.edge for e in house_edges("PA-590-2014")}
    assert default[frozenset({"PUSH_22"})] == push_22_sheet(6, "A").house_edge


def test_590_7_n_lammers_are_no_handle_and_add_no_theoretical_win():
    """§ 590.7(n)-(q), § 590.10(a)(1), § 590.11(b)(2): a lammer is a marker, not a wager."""
    handled = {name for edge in house_edges("PA-590-2014") for name in edge.handle}
    assert not handled & {FREE_DOUBLE_LAMMER, FREE_SPLIT_LAMMER}
    assert FREE_DOUBLE_LAMMER not in registry.blackjack("free_bet_blackjack").handle_wagers
    main = house_edge(FREE_BET_590).house_edge
    wagers = {"BLACKJACK": 1_000, FREE_DOUBLE_LAMMER: 1_000}
    assert theoretical_win("PA-590-2014", wagers) == 1_000 * main


@pytest.mark.parametrize("ruleset_id", sorted(BLACKJACK))
def test_the_exact_main_game_edge_agrees_with_the_simulations_of_the_same_strategy(ruleset_id):
    """The figure finance uses is the exact one (§ 581.12, § 590.12, § 591.12); the typed
    simulation of the same strategy holds it within its 95 % interval, and a short fresh
    run (another seed) within a wide tolerance."""
    ruleset = get_ruleset(ruleset_id)
    exact = house_edge(ruleset.rules).house_edge
    edges = {frozenset(edge.handle): edge for edge in house_edges(ruleset_id)}
    assert edges[frozenset({ruleset.rules.main_wager})].edge == exact
    typed = MAIN_GAME[ruleset.game]
    assert typed.rounds >= 40_000 and typed.half_width > 0
    assert abs(typed.edge - exact) <= typed.half_width
    fresh = simulate_main_game(registry.blackjack(ruleset.game), 400, seed=11)
    assert abs(fresh.edge - exact) <= 2 * fresh.half_width


def test_decks_option_moves_the_exact_main_game_edge():
    """§ 590.3(a): the round's deck count (recorded as text) picks the exact calculation."""
    edges = {frozenset(edge.handle): edge.edge
             for edge in house_edges("PA-590-2014", options={"decks": "2"})}  # fmt: skip
    assert edges[frozenset({"BLACKJACK"})] == house_edge(FREE_BET_590, 2).house_edge
    assert house_edge(FREE_BET_590, 2).house_edge != house_edge(FREE_BET_590).house_edge


def test_the_product_simulator_deals_rounds_at_one_table_through_one_shoe():
    """§ 581.5, § 581.7(c)-(d): the demo's rounds at a table come out of its shoe, which
    is reshuffled at the cover card; every round replays clean."""
    ruleset = get_ruleset("PA-581-2014")
    rng = random.Random(4)
    table = open_table(rng, registry.blackjack(ruleset.game))
    for _ in range(60):
        sim = simulate_round(rng, ruleset, seats=(1, 2, 3, 4, 5), gaming_day=ruleset.effective_from,
                             table=table)  # fmt: skip
        result = replay(sim.events)
        assert result.final_state.phase == "closed" and result.findings == ()
    assert replay_shoe(table.out.merged).findings == ()
    assert sum(1 for event in table.out.shoe_events if event.TYPE == "shoe.shuffled") >= 2


def test_a_mispaid_first_win_is_found_at_a_blackjack_table():
    """The any-game error the product's days draw: the first payment a dollar over."""
    ruleset = get_ruleset("PA-591-2014")
    for seed in range(20):
        sim = simulate_round(random.Random(seed), ruleset, seats=(1, 2, 3),
                             gaming_day=datetime.date(2015, 1, 2),
                             dealer_errors=[AnyGameError.MISPAY_FIRST_WIN])  # fmt: skip
        if sim.injected:
            (injected,) = sim.injected
            (finding,) = replay(sim.events).findings
            assert (finding.kind, finding.seat, finding.wager) == (
                injected.expected_finding, injected.seat, injected.wager)
            assert finding.kind is FindingKind.MISPAID_AMOUNT
            return
    raise AssertionError("no round of 20 had a win to mispay")

