"""Four Card Poker, Chapter 557, run by the declared engine (tables.rules.machine)."""

from __future__ import annotations

import datetime
import random

import pytest

from tables.rules.cards import parse_cards
from tables.rules.engine import Automation, Outcome
from tables.rules.events import (
    CardDealt,
    CardExposed,
    DealingMethod,
    Decision,
    IrregularityKind,
    IrregularityReported,
    NoMoreBets,
    Recipient,
    RoundOpened,
    StubCounted,
    WagerPlaced,
)
from tables.rules.games import four_card_poker_557 as game
from tables.rules.hands import FourCardCategory, best_four_of, evaluate_four
from tables.rules.machine import apply, open_round, verify
from tables.rules.replay import FindingKind, replay

DAY = datetime.date(2024, 5, 1)


def opened(seats=(1, 2), method=DealingMethod.MANUAL_SHOE, **options):
    return RoundOpened.build(
        round_id="R-4", game="four_card_poker", ruleset_id="PA-557-2010", table_id="FCP-1",
        gaming_day=DAY, seats=seats, players=tuple(f"P{seat}" for seat in seats),
        dealing_method=method, **options,
    )  # fmt: skip


def dealt(hands: dict[int, str], dealer: str) -> list:
    """§ 557.8(d): one card at a time clockwise and to the dealer, his 5th and 6th consecutive."""
    cards = {seat: parse_cards(text) for seat, text in hands.items()}
    events = []
    for index, card in enumerate(parse_cards(dealer)):
        for seat in sorted(cards):
            if index < 5:
                events.append(CardDealt(card=cards[seat][index], recipient=Recipient.PLAYER,
                                        seat=seat, spot=str(index + 1)))  # fmt: skip
        events.append(CardDealt(card=card, recipient=Recipient.DEALER, spot=str(index + 1)))
    return events


def a_round(wagers, hands, dealer, decisions=(), **options):
    events = [opened(seats=tuple(sorted(hands)), **options)]
    events += [WagerPlaced(seat=seat, wager=wager, amount_cents=amount)
               for seat, wager, amount in wagers]  # fmt: skip
    events += [NoMoreBets(), *dealt(hands, dealer), *decisions]
    return events


def settled(events):
    return replay(events, tuple(Automation)).settlement


def line(settlement, seat, wager):
    found = [item for item in settlement.lines if item.seat == seat and item.wager == wager]
    return found[0] if found else None


def test_557_6_b_four_card_rankings_four_of_a_kind_over_straight_flush_and_trips_over_flush():
    rank = [evaluate_four(parse_cards(text)).category for text in
            ("9s 9d 9h 9c", "Ks Qs Js Ts", "2s 2d 2h Kc", "As Js 7s 2s", "Ad Ks Qh Jc")]
    assert rank == sorted(rank, reverse=True)
    assert rank[0] is FourCardCategory.FOUR_OF_A_KIND
    assert rank[2] is FourCardCategory.THREE_OF_A_KIND


def test_557_6_a_and_b_5_ace_low_only_in_4_3_2_a_never_around_the_corner():
    assert evaluate_four(parse_cards("Ah 2c 3d 4s")).category is FourCardCategory.STRAIGHT
    assert evaluate_four(parse_cards("Kh Ac 2d 3s")).category is FourCardCategory.HIGH_CARD
    low = evaluate_four(parse_cards("Ah 2h 3h 4h"))
    assert low.category is FourCardCategory.STRAIGHT_FLUSH
    assert low < evaluate_four(parse_cards("2h 3h 4h 5h"))


def test_557_1_hand_is_the_best_four_of_five_or_of_the_dealers_six():
    assert str(best_four_of(parse_cards("9h 9c 9d Kh 2s"))) == "Three of a kind, 9s"
    assert best_four_of(parse_cards("2s 5s 9s Js Kd Ad")).category is FourCardCategory.FLUSH


def test_557_12_a_1_a_tie_wins_for_the_player_on_ante_and_play():
    # Both best hands are A-A-K-Q: equal rank, so the player is paid (no push).
    events = a_round([(1, "ANTE", 1000)], {1: "As Ad Kc Qh 2s"}, "Ah Ac Kd Qs 3c 4d",
                     [Decision(seat=1, choice="play", amount_cents=3000)])  # fmt: skip
    settlement = settled(events)
    assert settlement.complete
    ante, play = line(settlement, 1, "ANTE"), line(settlement, 1, "PLAY")
    assert (ante.outcome, ante.amount_cents, ante.section) == (Outcome.WIN, 1000, "557.12(a)(1)")
    assert (play.outcome, play.amount_cents) == (Outcome.WIN, 3000)


def test_557_11_e_a_lower_hand_loses_ante_and_play_there_is_no_dealer_qualification():
    events = a_round([(1, "ANTE", 500)], {1: "2s 5d 7c 9h Jd"}, "3c 4d 6h 8s Tc Qh",
                     [Decision(seat=1, choice="play", amount_cents=500)])  # fmt: skip
    settlement = settled(events)
    assert line(settlement, 1, "ANTE").outcome is Outcome.LOSE
    assert line(settlement, 1, "PLAY").section == "557.11(e)"


def test_557_12_a_2_the_ante_bonus_is_paid_on_a_losing_hand_too():
    events = a_round([(1, "ANTE", 1000)], {1: "7s 7d 7c 2h 4d"}, "9s 9d 9h 3c 5d Kc",
                     [Decision(seat=1, choice="play", amount_cents=1000)])  # fmt: skip
    settlement = settled(events)
    assert line(settlement, 1, "ANTE").outcome is Outcome.LOSE
    bonus = line(settlement, 1, "ANTE_BONUS")
    assert (bonus.outcome, bonus.amount_cents, bonus.section) == (Outcome.WIN, 2000, "557.12(a)(2)")


def test_557_11_c_the_play_wager_is_one_to_three_times_the_ante():
    events = a_round([(1, "ANTE", 1000)], {1: "2s 5d 7c 9h Jd"}, "3c 4d 6h 8s Tc Qh")
    state = open_round(game.GAME, events[0], frozenset(Automation))
    for event in events[1:]:
        state = apply(state, event)
    refused = verify(state, Decision(seat=1, choice="play", amount_cents=4000))
    assert refused is not None and refused.section == "557.11(c)"
    assert "1 to 3 times" in refused.reason
    assert verify(state, Decision(seat=1, choice="play", amount_cents=2500)) is None


def test_557_11_c_a_fold_forfeits_the_ante_but_not_aces_up():
    events = a_round([(1, "ANTE", 1000), (1, "ACES_UP", 500)], {1: "As Ad 7c 4h 2s"},
                     "Ks Kd Kh 3c 5d 9c", [Decision(seat=1, choice="fold")])  # fmt: skip
    settlement = settled(events)
    ante, aces = line(settlement, 1, "ANTE"), line(settlement, 1, "ACES_UP")
    assert (ante.outcome, ante.section) == (Outcome.FORFEITED, "557.11(c)")
    assert (aces.outcome, aces.amount_cents, aces.pay_line) == (Outcome.WIN, 500, "PAIR_OF_ACES")


@pytest.mark.parametrize(
    ("table", "trips", "straight", "two_pair"),
    [("I", 9, 4, 2), ("II", 7, 5, 2), ("III", 9, 4, 2), ("IV", 7, 5, 2), ("V", 8, 4, 3),
     ("VI", 8, 4, 2), ("VII", 7, 4, 3)],
)  # fmt: skip
def test_557_12_a_3_aces_up_pays_the_preselected_table(table, trips, straight, two_pair):
    hands = {1: "8s 8d 8c 2h 4d", 2: "9s Td Jc Qh 2c", 3: "5s 5d 6c 6h Ac"}
    wagers = [(seat, "ACES_UP", 100) for seat in hands]
    settlement = settled(a_round(wagers, hands, "Ks Kd Kh Kc 3s 7h", aces_up_table=table))
    assert [line(settlement, s, "ACES_UP").amount_cents for s in (1, 2, 3)] == [
        100 * trips, 100 * straight, 100 * two_pair]
    assert ("aces_up_table", table) in settlement.options_applied


def test_557_12_a_3_a_pair_below_aces_loses_aces_up():
    settlement = settled(a_round([(1, "ACES_UP", 500)], {1: "Ks Kd 7c 4h 2s"}, "3s 4d 6h 8c Tc Qd"))
    assert line(settlement, 1, "ACES_UP").outcome is Outcome.LOSE


def test_557_6_c_the_literal_tie_rule_is_an_option():
    mine, theirs = parse_cards("2s 2d Ac Kh 3c"), parse_cards("Ks Kd Qc Jh 4c 5d")
    assert game.compare(mine, theirs) == -1
    assert game.compare(mine, theirs, "literal") == 1


def test_557_7_d_no_wager_after_no_more_bets_and_557_7_c_only_seated_players():
    state = open_round(game.GAME, opened(), frozenset())
    refused = verify(state, WagerPlaced(seat=5, wager="ANTE", amount_cents=500))
    assert refused is not None and refused.section == "557.7(c)"
    state = apply(apply(state, WagerPlaced(seat=1, wager="ANTE", amount_cents=500)), NoMoreBets())
    refused = verify(state, WagerPlaced(seat=1, wager="ACES_UP", amount_cents=500))
    assert refused is not None and refused.section == "557.7(d)"


def test_557_8_d_the_dealers_sixth_card_is_turned_at_the_deal_and_only_it():
    events = a_round([(1, "ANTE", 500)], {1: "2s 5d 7c 9h Jd"}, "3c 4d 6h 8s Tc Qh")
    state = open_round(game.GAME, events[0], frozenset())
    for event in events[1:]:
        state = apply(state, event)
    early = verify(state, CardExposed(recipient=Recipient.DEALER, spot="1"))
    assert early is not None and early.section == "557.13(d)"
    state = apply(state, StubCounted(stub_count=52 - 11))  # § 557.8(f): before the decisions
    state = apply(state, CardExposed(recipient=Recipient.DEALER, spot="6"))
    assert state.phase == "play_decision"


def test_557_10_f_an_automated_shoes_stub_leaves_out_the_four_discarded_cards():
    events = a_round([(1, "ANTE", 500)], {1: "2s 5d 7c 9h Jd"}, "3c 4d 6h 8s Tc Qh",
                     method=DealingMethod.AUTOMATED_SHOE)  # fmt: skip
    counted = replay([*events, StubCounted(stub_count=52 - 11 - 4)]).final_state
    assert counted.void_section is None
    wrong = replay([*events, StubCounted(stub_count=52 - 11)]).final_state
    assert wrong.void_section == "557.10(f)" and wrong.deck_removal_required


@pytest.mark.parametrize(("kind", "section"), [
    (IrregularityKind.INCORRECT_CARD_COUNT, "557.13(c)"),
    (IrregularityKind.DEALER_CARD_EXPOSED_EARLY, "557.13(d)"),
    (IrregularityKind.SHOE_MALFUNCTION, "557.13(f)"),
])  # fmt: skip
def test_557_13_c_d_f_void_the_round_and_return_every_wager(kind, section):
    events = a_round([(1, "ANTE", 500), (1, "ACES_UP", 100)], {1: "2s 5d 7c 9h Jd"},
                     "3c 4d 6h 8s Tc Qh", [IrregularityReported(kind=kind)])  # fmt: skip
    settlement = settled(events)
    assert settlement.voided and settlement.void_section == section
    assert {item.outcome for item in settlement.lines} == {Outcome.RETURNED}


def test_557_7_c_an_abandoned_seats_wagers_are_treated_as_losing():
    events = a_round([(1, "ANTE", 500)], {1: "As Ad 7c 4h 2s"}, "3c 4d 6h 8s Tc Qh",
                     [IrregularityReported(kind=IrregularityKind.PLAYER_LEFT_TABLE, seat=1)])
    settlement = settled(events)
    assert (line(settlement, 1, "ANTE").outcome, line(settlement, 1, "ANTE").section) == (
        Outcome.LOSE, "557.7(c)")  # fmt: skip


def test_replay_finds_a_mispaid_aces_up_and_the_simulator_injects_errors_replay_finds():
    from tables.rules.registry import ruleset
    from tables.rules.simulate import DealerError
    from tables.rules.simulate_declared import simulate_declared

    found = 0
    for seed in range(40):
        sim = simulate_declared(random.Random(seed), ruleset("PA-557-2010"), seats=(1, 2, 3),
                                dealer_errors=[DealerError.MISPAY_FIRST_WIN,
                                               DealerError.PAY_A_LOSER],
                                count_stub=True)  # fmt: skip
        result = replay(sim.events)
        assert sorted((f.kind, f.seat, f.wager) for f in result.findings) == sorted(
            (i.expected_finding, i.seat, i.wager) for i in sim.injected)
        found += len(result.findings)
        kinds = {f.kind for f in result.findings}
        assert kinds <= {FindingKind.MISPAID_AMOUNT, FindingKind.UNEXPECTED_PAYMENT}
    assert found >= 40


def test_557_12_a_3_aces_up_tables_exact_over_every_five_card_hand():
    from fractions import Fraction

    from tables.rules.parsheets import four_card_poker as sheet

    table_i = sheet.aces_up_sheet("I")
    assert table_i.total == 2_598_960 and sum(r.combinations for r in table_i.rows) == 2_598_960
    # 13 x 48 four-of-a-kinds; 3 trips ... as counted: every hand once.
    assert [row.combinations for row in table_i.rows][:2] == [624, 2_072]
    edges = {t: sheet.aces_up_sheet(t).house_edge for t in game.ACES_UP_TABLES}
    assert edges["I"] == Fraction(3214, 162435)
    assert min(edges, key=edges.__getitem__) == "I" and max(edges, key=edges.__getitem__) == "VII"


def test_the_kept_main_game_figure_agrees_with_a_fresh_simulation():
    """The figure finance reads (a 500,000-hand run) lies in a shorter run's interval."""
    from tables.rules.parsheets import four_card_poker as sheet

    fresh = sheet.simulate(rounds=20_000, seed=7)
    edge, _ = sheet.SIMULATED["conventional"]
    assert abs(fresh.house_edge - edge) < fresh.house_edge_half_width
    assert dict(fresh.multiples)["fold"] > 0
