"""Pai Gow Poker, Chapter 561, run by the declared engine: the joker, set hands, the house way."""

from __future__ import annotations

import datetime
import random
from collections import Counter
from itertools import combinations

import pytest

from tables.rules.cards import JOKER, STANDARD_DECK, parse_cards
from tables.rules.engine import Automation, Outcome, RuleViolation
from tables.rules.events import (
    CardDealt,
    DealingMethod,
    Decision,
    DiceThrown,
    NoMoreBets,
    Recipient,
    RoundOpened,
    StubCounted,
    WagerPlaced,
)
from tables.rules.games import pai_gow_poker_561 as game
from tables.rules.games._pai_gow_hands import (
    Category,
    HouseWay,
    Setting,
    commission,
    evaluate,
    fouled,
    house_way_561,
)
from tables.rules.machine import apply, open_round, verify
from tables.rules.replay import FindingKind, replay

DAY = datetime.date(2012, 6, 1)
SPOTS = game.SPOTS


def opened(seats=(1,), **options):
    options.setdefault("start", "rng")
    return RoundOpened.build(
        round_id="R-PG", game="pai_gow_poker", ruleset_id="PA-561-2010", table_id="PGP-1",
        gaming_day=DAY, seats=seats, players=tuple(f"P{seat}" for seat in seats),
        dealing_method=DealingMethod.MANUAL_SHOE, **options,
    )  # fmt: skip


def dealt(hands: dict[int, str], dealer: str) -> list:
    """§ 561.9(c): one card at a time to every position with a wager and the dealer."""
    cards = {seat: parse_cards(text) for seat, text in hands.items()}
    events = []
    for index, card in enumerate(parse_cards(dealer)):
        for seat in sorted(cards):
            events.append(CardDealt(card=cards[seat][index], recipient=Recipient.PLAYER,
                                    seat=seat, spot=SPOTS[index]))  # fmt: skip
        events.append(CardDealt(card=card, recipient=Recipient.DEALER, spot=SPOTS[index]))
    return events


def a_round(hands, dealer, lows, stake=500, before=(), **options):
    """Each seat sets its low hand from the spots in ``lows`` ("6,7")."""
    events = [opened(seats=tuple(sorted(hands)), **options)]
    events += [WagerPlaced(seat=seat, wager=game.WAGER, amount_cents=stake) for seat in hands]
    events += [NoMoreBets(), *before, *dealt(hands, dealer)]
    for seat in sorted(hands):
        choice = "surrender" if lows[seat] is None else "set"
        params = {} if lows[seat] is None else {"low": lows[seat]}
        events.append(Decision(seat=seat, choice=choice, params=params))
    return events


def line(events, seat=1):
    settlement = replay(events, tuple(Automation)).settlement
    return next(item for item in settlement.lines if item.seat == seat)


DEALER = "Kc Kd 9h 7s 5c 3d 2h"  # house way: the kings high, 9-7 low


def test_561_6_a_c_the_joker_is_an_ace_unless_it_completes_a_straight_or_flush():
    assert str(evaluate(parse_cards("Jk Ah"))) == "PAIR"
    assert evaluate(parse_cards("Jk Kh")) > evaluate(parse_cards("Ah Qd"))
    assert str(evaluate(parse_cards("Jk 2c 3d 4s 5h"))) == "STRAIGHT"
    assert str(evaluate(parse_cards("Jk 2h 7h 9h Jh"))) == "FLUSH"
    assert str(evaluate(parse_cards("Jk Kh Qh Jh Th"))) == "ROYAL_FLUSH"
    assert str(evaluate(parse_cards("Jk Ac Ad Ah As"))) == "FIVE_ACES"
    assert str(evaluate(parse_cards("Jk Kc Qd 8s 4h"))) == "HIGH_CARD"


def test_561_6_b_3_and_7_a_2_3_4_5_is_the_second_straight_and_the_highest_straight_flush():
    wheel, broadway, king = (evaluate(parse_cards(text)) for text in
                             ("Ah 2c 3d 4s 5h", "Ah Kc Qd Js Th", "Kh Qc Jd Ts 9h"))  # fmt: skip
    assert broadway > wheel > king
    assert evaluate(parse_cards("Ah 2h 3h 4h 5h")) > evaluate(parse_cards("Kh Qh Jh Th 9h"))
    assert evaluate(parse_cards("Ah Kh Qh Jh Th")) > evaluate(parse_cards("Ah 2h 3h 4h 5h"))


def test_561_6_every_five_card_hand_holding_the_joker_counted_once():
    """All 270,725 hands of the joker and four cards, by category.

    Derived counts: five aces 1; royal flushes 4 suits x 5 = 20; straight flushes
    4 x (41 four-card subsets of a straight window - 5 of the royal's) = 144; four of a
    kind: three aces (4 x 48) + a natural four (12) = 204; full house: two aces and a
    pair (6 x 12 x 6) + three of a kind and an ace (12 x 4 x 4) = 624.
    """
    counts = Counter(evaluate((JOKER, *four)).category for four in combinations(STANDARD_DECK, 4))
    assert sum(counts.values()) == 270_725
    assert counts[Category.FIVE_ACES] == 1
    assert counts[Category.ROYAL_FLUSH] == 20
    assert counts[Category.STRAIGHT_FLUSH] == 144
    assert counts[Category.FOUR_OF_A_KIND] == 204
    assert counts[Category.FULL_HOUSE] == 624


def test_561_13_a_the_high_hand_may_not_rank_below_the_low_hand():
    cards = parse_cards("7h 7d Kc 9s 5h 3d 2c")
    assert fouled(Setting(cards[2:], cards[:2]))  # sevens low, no pair high
    assert not fouled(Setting(parse_cards("7h 7d 9s 5h 3d"), parse_cards("Kc 2c")))


def test_561_13_a_a_set_names_the_two_cards_of_the_low_hand():
    events = a_round({1: "Ah Qd 9c 7d 5h 3c 2s"}, DEALER, {1: None})[:-1]
    state = open_round(game.GAME, events[0])
    for event in events[1:]:
        state = apply(state, event)
    refusal = verify(state, Decision(seat=1, choice="set", params={"low": "6"}))
    assert refusal is not None and refusal.section == "561.13(a)"


def test_561_13_k_m_both_hands_higher_win_1_to_1_less_the_vigorish():
    events = a_round({1: "Ac Ad 4h 6s 8h Ks Qd"}, DEALER, {1: "6,7"}, stake=700)
    won = line(events)
    assert won.outcome is Outcome.WIN and won.amount_cents == 700 - 35
    assert line(a_round({1: "Ac Ad 4h 6s 8h Ks Qd"}, DEALER, {1: "6,7"}, stake=700,
                        vigorish="quarter")).amount_cents == 650  # fmt: skip


def test_561_13_m_the_vigorish_is_5_percent_rounded_up_as_the_rule_set_says():
    assert [commission(cents, False) for cents in (100, 1_010, 2_500)] == [5, 51, 125]
    assert [commission(cents, True) for cents in (100, 1_010, 2_500)] == [25, 75, 125]


def test_561_13_i_one_hand_higher_is_a_tie():
    # Aces high beat the kings; the low 5-4 is below the dealer's 9-7.
    events = a_round({1: "Ac Ad Qh Js 8h 5d 4c"}, DEALER, {1: "6,7"})
    assert (line(events).outcome, line(events).section) == (Outcome.PUSH, "561.13(i)(1)")


def test_561_13_g_2_copies_go_to_the_dealer():
    # K-K-5-3-2 and 9-7 against the same ranks: two copies lose.
    events = a_round({1: "Ks Kh 5h 3c 2d 9c 7d"}, DEALER, {1: "6,7"})
    assert (line(events).outcome, line(events).section) == (Outcome.LOSE, "561.13(g)(2)")


def test_561_13_g_3_a_foul_set_loses_whatever_the_cards():
    events = a_round({1: "Ac Ad 4h 6s 8h Ks Qd"}, DEALER, {1: "1,2"})
    assert (line(events).outcome, line(events).section) == (Outcome.LOSE, "561.13(g)(3)")


def test_561_13_e_a_surrendered_wager_is_collected():
    events = a_round({1: "Ac Ad 4h 6s 8h Ks Qd"}, DEALER, {1: None})
    assert (line(events).outcome, line(events).section) == (Outcome.FORFEITED, "561.13(e)")


def test_561_13_d_the_house_way_is_the_casinos_data():
    way = game.HOUSE_WAYS["SAMPLE-2010"]
    assert house_way_561(parse_cards(DEALER), way).low == parse_cards("9h 7s")
    # Two pair below jacks with an ace to lead the low stay together; jacks up split.
    together = house_way_561(parse_cards("9c 9d 4h 4s Ah Kd 2c"), way)
    assert sorted(map(str, together.low)) == ["Ah", "Kd"]
    split = house_way_561(parse_cards("Jc Jd 4h 4s Ah Kd 2c"), way)
    assert sorted(map(str, split.low)) == ["4h", "4s"]
    keeps = HouseWay(id="X", casino="X", effective_from=DAY, split_two_pair_from=15)
    assert sorted(map(str, house_way_561(parse_cards("Jc Jd 4h 4s Ah Kd 2c"), keeps).low)) == [
        "Ah", "Kd"]  # fmt: skip


def test_561_13_d_a_house_way_not_in_force_on_the_day_is_refused(monkeypatch):
    later = HouseWay(id="SAMPLE-2010", casino="X", effective_from=datetime.date(2013, 1, 1))
    monkeypatch.setitem(game.HOUSE_WAYS, "SAMPLE-2010", later)  # type: ignore[index]
    with pytest.raises(RuleViolation) as refused:
        open_round(game.GAME, opened())
    assert refused.value.section == "561.13(d)"


def test_561_12_b_a_wrong_dice_total_is_found_by_replay():
    events = a_round({1: "Ac Ad 4h 6s 8h Ks Qd"}, DEALER, {1: "6,7"}, start="dice",
                     before=[DiceThrown(faces=(3, 4, 6), called="12")])  # fmt: skip
    findings = replay(events, tuple(Automation)).findings
    calls = [(f.kind, f.section) for f in findings if f.kind is FindingKind.WRONG_CALL]
    assert calls == [(FindingKind.WRONG_CALL, "561.12(b)")]


def test_561_14_a_a_no_roll_is_reshaken():
    events = a_round({1: "Ac Ad 4h 6s 8h Ks Qd"}, DEALER, {1: "6,7"}, start="dice",
                     before=[DiceThrown(no_roll="not_flat"), DiceThrown(faces=(1, 2, 3),
                                                                        called="6")])  # fmt: skip
    assert line(events).outcome is Outcome.WIN


@pytest.mark.parametrize(("counted", "void"), [(39, False), (38, True)])
def test_561_9_d_f_four_cards_remain_besides_the_stacks_of_empty_positions(counted, void):
    # One player and the dealer hold 14 of 53 cards: 4 undealt + 5 empty positions x 7 = 39.
    events = a_round({1: "Ac Ad 4h 6s 8h Ks Qd"}, DEALER, {1: "6,7"})
    events.insert(-1, StubCounted(stub_count=counted))
    result = replay(events[:-1] if void else events, tuple(Automation))
    assert (result.final_state.void_section == "561.9(f)") is void


def test_561_3_a_a_joker_is_refused_in_a_game_without_one():
    from tables.rules.games import three_card_poker_565 as tcp

    state = open_round(tcp.GAME, RoundOpened.build(
        round_id="R-T", game="three_card_poker", ruleset_id="PA-565-2010", table_id="T-1",
        gaming_day=DAY, seats=(1,), players=("P1",), dealing_method=DealingMethod.MANUAL_SHOE))
    for event in (WagerPlaced(seat=1, wager="ANTE", amount_cents=500), NoMoreBets()):
        state = apply(state, event)
    refusal = verify(state, CardDealt(card=JOKER, recipient=Recipient.PLAYER, seat=1, spot="1"))
    assert refusal is not None and refusal.field == "card"


def test_561_simulated_rounds_with_dealer_errors_replay_to_exactly_the_injected_findings():
    from tables.rules.registry import ruleset
    from tables.rules.simulate import DealerError
    from tables.rules.simulate_declared import simulate_declared

    found = 0
    for seed in range(12):
        sim = simulate_declared(random.Random(seed), ruleset("PA-561-2010"), seats=(1, 2, 3, 4),
                                dealer_errors=[DealerError.MISPAY_FIRST_WIN,
                                               DealerError.PAY_A_LOSER])  # fmt: skip
        result = replay(sim.events)
        expected = [(i.expected_finding, i.seat, i.wager) for i in sim.injected]
        assert [(f.kind, f.seat, f.wager) for f in result.findings] == expected
        found += len(expected)
    assert found


def test_561_13_par_sheet_recorded_edge_agrees_with_a_fresh_simulation():
    from tables.rules.parsheets import pai_gow_poker as sheet

    mean, half, outcomes = sheet.main_game("SAMPLE-2010", 2_000, 7)
    assert sum(outcomes.values()) == 2_000
    assert abs(mean - sheet.MAIN_RESULT) <= half + sheet.MAIN_HALF_WIDTH


def test_561_12_d_a_button_marks_the_start_only_with_an_automated_dealing_shoe():
    with pytest.raises(RuleViolation) as refused:
        open_round(game.GAME, opened(start="button"))
    assert refused.value.section == "561.12(d)"
    automated = RoundOpened.build(
        round_id="R-B", game="pai_gow_poker", ruleset_id="PA-561-2010", table_id="PGP-1",
        gaming_day=DAY, seats=(1,), players=("P1",), start="button",
        dealing_method=DealingMethod.AUTOMATED_SHOE)  # fmt: skip
    assert open_round(game.GAME, automated).options["start"] == "button"


@pytest.mark.parametrize(("allowed", "second", "refused"), [
    (False, 2, True), (True, 2, False), (True, 3, True)])  # fmt: skip
def test_561_7_d_a_second_betting_area_only_adjacent_and_where_the_rule_set_allows(
        allowed, second, refused):  # fmt: skip
    event = RoundOpened.build(
        round_id="R-2", game="pai_gow_poker", ruleset_id="PA-561-2010", table_id="PGP-1",
        gaming_day=DAY, seats=(1, second), players=("P1", "P1"), start="rng", two_areas=allowed,
        dealing_method=DealingMethod.MANUAL_SHOE)  # fmt: skip
    state = apply(open_round(game.GAME, event), WagerPlaced(seat=1, wager=game.WAGER,
                                                           amount_cents=500))  # fmt: skip
    refusal = verify(state, WagerPlaced(seat=second, wager=game.WAGER, amount_cents=500))
    assert (refusal is not None and refusal.section == "561.7(d)") is refused


def test_561_13_b_hands_are_set_in_any_order_once_and_never_after_the_dealers_are_exposed():
    events = a_round({1: "Ac Ad 4h 6s 8h Ks Qd", 2: "Ah Jd 9c 7d 5s 3c 2s"}, DEALER,
                     {1: "6,7", 2: "6,7"})  # fmt: skip
    state = open_round(game.GAME, events[0])
    for event in events[1:-2]:
        state = apply(state, event)
    assert verify(state, events[-1]) is None  # seat 2 before seat 1
    state = apply(state, events[-2])
    again = verify(state, Decision(seat=1, choice="set", params={"low": "1,2"}))
    assert again is not None and again.section == "561.13(b)"
    state = apply(state, events[-1])
    late = verify(state, Decision(seat=2, choice="set", params={"low": "1,2"}))
    assert late is not None and late.section == "561.13(b)"
