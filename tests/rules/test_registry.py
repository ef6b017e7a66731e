"""Games register themselves by being modules under tables/rules/games/."""

from __future__ import annotations

from tables.rules import engine, registry
from tables.rules.declaration import Game
from tables.rules.rulesets import RULESETS, get_ruleset


def test_every_game_module_is_a_registered_game_with_rule_sets():
    assert set(registry.game_ids()) >= {
        "criss_cross_poker",
        "double_cross_poker",
        "three_card_poker",
        "double_attack_blackjack",  # § 581
        "free_bet_blackjack",  # § 590
        "double_back_jack",  # § 591
    }
    for game_id in registry.game_ids():
        assert engine.game_rules_for(game_id) is not None
        assert registry.game_name(game_id)
        own = [ruleset for ruleset in RULESETS.values() if ruleset.game == game_id]
        assert own, f"{game_id} has no rule set"
        for ruleset in own:
            assert get_ruleset(ruleset.id) is ruleset


def test_a_declared_game_declares_what_the_engine_needs():
    for game_id in registry.game_ids():
        game = registry.declared(game_id)
        if game is None:  # a game with its own state machine
            continue
        assert isinstance(game, Game)
        assert game.steps[0].name == "wagering" and game.steps[-1].name == "settlement"
        assert game.handle_wagers, f"{game_id} declares no handle"
        for key in ("seated", "after_no_more_bets", "card_in_play", "settle", "close", "void"):
            assert key in game.sections, f"{game_id} cites no section for {key}"
        assert set(game.dealing) == set(type(next(iter(game.dealing))))


def test_the_tables_admin_offers_every_registered_game():
    from tables.models import Table

    offered = {value for value, _ in Table._meta.get_field("game").choices}
    assert offered == set(registry.game_ids())


def test_every_registered_game_can_be_simulated_and_its_rounds_replay():
    import random

    from tables.rules import blackjack_simulate, simulate_declared
    from tables.rules.replay import replay
    from tables.rules.simulate import DealerError, SettlementError

    hand_written = {"criss_cross_poker", "double_cross_poker"}
    for game_id in registry.game_ids():
        simulate = simulate_declared.simulator_for(game_id)
        if registry.blackjack(game_id) is not None:
            assert simulate is blackjack_simulate.simulate_round
        elif game_id not in hand_written:
            assert simulate is simulate_declared.simulate_declared
            game = registry.declared(game_id)
            assert game is not None, f"{game_id} is neither declared nor hand-simulated"
        for ruleset in [r for r in RULESETS.values() if r.game == game_id]:
            found = 0
            for seed in range(10):
                errors: list[DealerError | SettlementError] = (
                    [DealerError.MISPAY_FIRST_WIN] if seed % 2 else [])  # fmt: skip
                sim = simulate(random.Random(seed), ruleset, seats=(1, 2, 3),
                               gaming_day=ruleset.effective_from, dealer_errors=errors)  # fmt: skip
                result = replay(sim.events)
                assert result.final_state.phase == "closed", (ruleset.id, seed)
                expected = [(i.expected_finding, i.seat, i.wager) for i in sim.injected]
                assert [(f.kind, f.seat, f.wager) for f in result.findings] == expected
                found += len(result.findings)
            assert found, f"{ruleset.id}: no injected error was found in 5 rounds"


def test_every_registered_game_has_each_piece_the_product_reads():
    """A game module alone puts a game in the product: each piece is found by its id."""
    import random

    from operations.management.commands.demo import DEMO_TABLES, declared_tables
    from tables.cards_svg import layout_html
    from tables.management.commands.parsheet import _games as with_par_sheets
    from tables.rules import simulate_declared
    from tables.rules.house_edge import house_edges

    on_the_demo_floor = {game for _, game, *_ in (*DEMO_TABLES, *declared_tables())}
    for game_id in registry.game_ids():
        assert game_id in with_par_sheets(), f"{game_id} has no par sheet"
        assert game_id in on_the_demo_floor, f"{game_id} has no table in the demo"
        own = [ruleset for ruleset in RULESETS.values() if ruleset.game == game_id]
        for ruleset in own:
            assert house_edges(ruleset.id), f"{ruleset.id} has no house edge for finance"
        ruleset = own[0]
        simulate = simulate_declared.simulator_for(game_id)
        sim = simulate(random.Random(1), ruleset, seats=(1, 2), gaming_day=ruleset.effective_from)
        drawn = layout_html(game_id, sim.events)
        assert drawn.count("<svg") >= 2, f"{game_id}'s round viewer draws no cards"
