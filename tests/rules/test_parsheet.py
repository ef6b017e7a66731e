"""Par sheets (tables.rules.parsheet): exact side wagers, strategies, simulation, settlement.

Pay-table figures below are copied from the regulations so that each exact
result is checked against an independent computation, not against the module.
"""

from __future__ import annotations

import random
from collections import Counter
from decimal import Decimal
from fractions import Fraction
from itertools import combinations

import pytest

from tables.rules import parsheet
from tables.rules.cards import STANDARD_DECK, parse_cards
from tables.rules.engine import Outcome, lookup
from tables.rules.events import (
    Alignment,
    CardDealt,
    PlayDeclared,
    PlayerFolded,
    Position,
    Recipient,
    Wager,
    WagerPlaced,
)
from tables.rules.hands import FiveCardCategory as C
from tables.rules.hands import evaluate_five, five_card_strength
from tables.rules.replay import replay
from tables.rules.rulesets import MA_DCP, PA_592_2014, PA_674A_2019, PairOfTensMiddleBets
from tables.rules.simulate import Strategy, simulate_criss_cross, simulate_double_cross

TOTAL_FIVE = 2_598_960

# Published five-card counts (STYLE "For this project" 7).
FIVE_CARD_COUNTS = {
    C.ROYAL_FLUSH: 4,
    C.STRAIGHT_FLUSH: 36,
    C.FOUR_OF_A_KIND: 624,
    C.FULL_HOUSE: 3_744,
    C.FLUSH: 5_108,
    C.STRAIGHT: 10_200,
    C.THREE_OF_A_KIND: 54_912,
    C.TWO_PAIR: 123_552,
    C.PAIR: 1_098_240,
    C.HIGH_CARD: 1_302_540,
}


def test_592_12_c_five_card_category_counts_match_the_combinatorics():
    counts = Counter()
    for (category, _), number in parsheet.five_card_category_counts().items():
        counts[category] += number
    assert dict(counts) == FIVE_CARD_COUNTS
    pairs = {rank: number for (category, rank), number
             in parsheet.five_card_category_counts().items() if category == C.PAIR}
    assert pairs == {rank: 84_480 for rank in range(2, 15)}


def test_592_12_c_five_card_bonus_house_edge_is_exact():
    sheet = parsheet.five_card_bonus_sheet(PA_592_2014)
    # § 592.12(c): winnings per unit, and the result is the stake back plus winnings.
    returned = (4 * 251 + 36 * 101 + 624 * 41 + 3_744 * 16 + 5_108 * 11 + 10_200 * 7
                + 54_912 * 5 + 123_552 * 4 + 9 * 84_480 * 2)
    expected_edge = 1 - Fraction(returned, TOTAL_FIVE)
    assert sheet.house_edge == expected_edge == Fraction(7_653, 216_580)
    assert parsheet.percent(sheet.house_edge) == Decimal("3.5336")
    assert sum(row.probability for row in sheet.rows) == 1
    assert sum(row.combinations for row in sheet.rows) == TOTAL_FIVE
    assert [row.label for row in sheet.rows[:-1]] == [
        line.label for line in PA_592_2014.five_card_bonus_table]
    assert sheet.rows[-2].combinations == 9 * 84_480  # pair of 6s through aces
    assert sheet.hit_frequency == Fraction(TOTAL_FIVE - 1_640_460, TOTAL_FIVE)


def test_674a_12_c_five_card_bonus_is_the_same_as_592():
    assert parsheet.five_card_bonus_sheet(PA_674A_2019).house_edge == (
        parsheet.five_card_bonus_sheet(PA_592_2014).house_edge)


@pytest.mark.slow
def test_592_12_c_five_card_bonus_counts_match_every_hand_enumerated():
    table = PA_674A_2019.five_card_bonus_table
    line_of_strength = {}
    counts = Counter()
    for cards in combinations(STANDARD_DECK, 5):
        strength = five_card_strength(cards)
        if strength not in line_of_strength:
            hand = evaluate_five(cards)
            pair = int(hand.pair_rank) if hand.pair_rank is not None else None
            line_of_strength[strength] = lookup(table, hand.category, pair).line
        counts[line_of_strength[strength]] += 1
    sheet = parsheet.five_card_bonus_sheet(PA_674A_2019)
    by_label = {row.label: row.combinations for row in sheet.rows}
    for line in table:
        assert counts[line] == by_label[line.label], line.label
    assert counts[None] == sheet.rows[-1].combinations


def test_section_11_c_three_card_wager_house_edge_is_exact():
    sheet = parsheet.three_card_sheet(MA_DCP)
    assert [row.combinations for row in sheet.rows] == [48, 52, 720, 1_096, 3_744, 16_440]
    # Section 11(c): 40, 30, 6, 4, 1 to 1; the stake comes back with the winnings.
    returned = 48 * 41 + 52 * 31 + 720 * 7 + 1_096 * 5 + 3_744 * 2
    assert sheet.house_edge == 1 - Fraction(returned, 22_100) == Fraction(128, 5_525)
    assert parsheet.percent(sheet.house_edge) == Decimal("2.3167")
    assert sum(row.probability for row in sheet.rows) == 1
    assert sheet.hit_frequency == Fraction(5_660, 22_100)


def _middle_by_hand(ruleset, hole, row_1, row_3, top, bottom, across, down):
    """Independent enumeration of the CENTER with the engine's lookup (no parsheet code)."""

    def result(table, hand):
        pair = int(hand.pair_rank) if hand.category == C.PAIR else None
        match = lookup(table, hand.category, pair)
        line = match.conflict[-1] if match.conflict else match.line  # 592 push reading
        if line is None:
            return Fraction(-1)
        return Fraction(0) if line.odds is None else line.odds.ratio

    known = {*hole, row_1, row_3, top, bottom}
    totals = {1: Fraction(0), 3: Fraction(0)}
    centers = [card for card in STANDARD_DECK if card not in known]
    for center in centers:
        a_hand = evaluate_five([*hole, row_1, center, row_3])
        d_hand = evaluate_five([*hole, top, center, bottom])
        base = (result(ruleset.ante_table, a_hand) + result(ruleset.ante_table, d_hand)
                + across * result(ruleset.bet_table, a_hand)
                + down * result(ruleset.bet_table, d_hand))
        best = max(a_hand, d_hand)
        for multiple in totals:
            totals[multiple] += base + multiple * result(ruleset.bet_table, best)
    return {multiple: total / len(centers) for multiple, total in totals.items()}


@pytest.mark.parametrize("cards, multiples, best", [
    ("AhAd 2c9s 3cTd", (3, 3), 3),
    ("7h2d 8c9s 3cJd", (1, 1), 1),
    ("3h2d 8cKs 4cQd", (1, 1), 0),
])
def test_592_11_f_middle_decision_is_exact(cards, multiples, best):
    hole_1, hole_2, row_1, row_3, top, bottom = parse_cards(cards)
    pays = parsheet.CrissCrossPays.of(PA_592_2014)
    decision = parsheet.middle_decision(pays, (hole_1, hole_2), row_1, row_3, top, bottom,
                                        *multiples)
    expected = _middle_by_hand(PA_592_2014, (hole_1, hole_2), row_1, row_3, top, bottom,
                               *multiples)
    assert decision.continue_1x == expected[1]
    assert decision.continue_3x == expected[3]
    assert decision.fold == -(2 + sum(multiples))
    assert decision.best == best


def test_674a_11_b_across_expectation_of_aces_is_exact():
    strategy = parsheet.CrissCrossOptimal(parsheet.CrissCrossPays.of(PA_674A_2019))
    _, bet = strategy.across_expectations(parse_cards("AhAd"))
    # Aces plus three random cards: every hand is at least a pair of aces.
    assert bet > 1
    assert strategy.across(parse_cards("AhAd")) == 3


def _net_by_seat(settlement, excluded):
    nets = Counter()
    for line in settlement.lines:
        if line.wager in excluded:
            continue
        if line.outcome is Outcome.WIN:
            nets[line.seat] += line.amount_cents
        elif line.outcome in (Outcome.LOSE, Outcome.FORFEITED):
            nets[line.seat] -= line.amount_cents
    return nets


def test_criss_cross_settlement_matches_the_engines_required_settlement():
    rng = random.Random(11)
    pays = {ruleset.id: parsheet.CrissCrossPays.of(ruleset)
            for ruleset in (PA_592_2014, PA_674A_2019)}
    for number in range(60):
        ruleset = (PA_592_2014, PA_674A_2019)[number % 2]
        round_ = simulate_criss_cross(rng, ruleset, seats=(1, 2, 3),
                                      strategy=Strategy(fold_percent=15, bet_multiple=2))
        events = round_.events
        community = {e.position: e.card for e in events
                     if isinstance(e, CardDealt) and e.recipient is Recipient.COMMUNITY}
        holes, antes, multiples, folded = {}, {}, {}, set()
        for event in events:
            if isinstance(event, CardDealt) and event.recipient is Recipient.PLAYER:
                holes.setdefault(event.seat, []).append(event.card)
            elif isinstance(event, WagerPlaced) and event.wager is Wager.ANTE_ACROSS:
                antes[event.seat] = event.amount_cents
            elif isinstance(event, WagerPlaced) and event.wager in (
                    Wager.ACROSS_BET, Wager.DOWN_BET, Wager.MIDDLE_BET):
                multiples.setdefault(event.seat, []).append(
                    event.amount_cents // antes[event.seat])
            elif isinstance(event, PlayerFolded):
                folded.add(event.seat)
        required = _net_by_seat(replay(events).settlement, {Wager.FIVE_CARD_BONUS})
        across = (community[Position.ROW_1], community[Position.CENTER],
                  community[Position.ROW_3])
        down = (community[Position.TOP], community[Position.CENTER], community[Position.BOTTOM])
        for seat, hole in holes.items():
            placed = multiples.get(seat, [])
            assert (len(placed) < 3) == (seat in folded)
            net = parsheet.criss_cross_net(pays[ruleset.id], hole, across, down, placed)
            assert net * antes[seat] == required[seat], (number, seat)


def test_double_cross_settlement_matches_the_engines_required_settlement():
    rng = random.Random(12)
    pays = parsheet.DoubleCrossPays.of(MA_DCP)
    for number in range(60):
        events = simulate_double_cross(rng, MA_DCP, seats=(1, 2, 3),
                                       strategy=Strategy(fold_percent=20)).events
        community, holes, dealer, antes, alignment = {}, {}, [], {}, {}
        for event in events:
            if isinstance(event, CardDealt):
                if event.recipient is Recipient.COMMUNITY:
                    community[event.position] = event.card
                elif event.recipient is Recipient.PLAYER:
                    holes.setdefault(event.seat, []).append(event.card)
                else:
                    dealer.append(event.card)
            elif isinstance(event, WagerPlaced) and event.wager is Wager.ANTE:
                antes[event.seat] = event.amount_cents
            elif isinstance(event, PlayDeclared):
                alignment[event.seat] = (parsheet.VERTICAL if event.alignment
                                         is Alignment.VERTICAL else parsheet.HORIZONTAL)
        required = _net_by_seat(replay(events).settlement, {Wager.THREE_CARD})
        horizontal = (community[Position.ROW_1], community[Position.CENTER],
                      community[Position.ROW_3])
        vertical = (community[Position.TOP], community[Position.CENTER],
                    community[Position.BOTTOM])
        for seat, hole in holes.items():
            net = parsheet.double_cross_net(pays, hole, dealer, horizontal, vertical,
                                            alignment.get(seat))
            assert Fraction(net * antes[seat], pays.scale) == required[seat], (number, seat)


def test_592_12_b_paying_a_pair_of_10s_lowers_the_game_edge():
    def edge(ruleset, pair_of_tens=None):
        pays = parsheet.CrissCrossPays.of(ruleset, pair_of_tens)
        return parsheet.simulate_criss_cross_game(
            random.Random(3), parsheet.CrissCrossBasic(pays), 4_000).house_edge

    push = edge(PA_592_2014, PairOfTensMiddleBets.PUSH)
    assert push == edge(PA_674A_2019)  # the push reading is the 674a table
    paid = edge(PA_592_2014, PairOfTensMiddleBets.PAY_1_TO_1)
    assert paid < push
    assert push - paid > Fraction(1, 100)


@pytest.mark.slow
def test_criss_cross_optimal_estimate_agrees_across_seeds_and_beats_basic():
    pays = parsheet.CrissCrossPays.of(PA_674A_2019)
    strategy = parsheet.CrissCrossOptimal(pays)
    first = parsheet.simulate_criss_cross_game(random.Random(21), strategy, 3_000)
    second = parsheet.simulate_criss_cross_game(random.Random(22), strategy, 3_000)
    assert abs(first.house_edge - second.house_edge) <= (
        first.house_edge_half_width + second.house_edge_half_width)
    basic = parsheet.simulate_criss_cross_game(
        random.Random(21), parsheet.CrissCrossBasic(pays), 3_000)
    assert first.house_edge + first.house_edge_half_width < (
        basic.house_edge - basic.house_edge_half_width)
    assert 0 < first.element_of_risk < first.house_edge


def test_double_cross_basic_simulation_reports_a_confidence_interval():
    pays = parsheet.DoubleCrossPays.of(MA_DCP)
    assert pays.scale == 2  # two pair pays 3 to 2 (Section 11(b))
    result = parsheet.simulate_double_cross_game(
        random.Random(4), parsheet.DoubleCrossBasic(pays), 3_000)
    assert result.rounds == 3_000
    assert 0 < result.house_edge_half_width < Fraction(1, 5)
    assert result.average_wagered == 3  # never folds: ante and two raises
    assert result.element_of_risk == result.house_edge / 3


def test_double_cross_optimal_folds_some_hands_and_is_deterministic_for_a_seed():
    pays = parsheet.DoubleCrossPays.of(MA_DCP)

    def run():
        strategy = parsheet.DoubleCrossOptimal(pays, random.Random(8), samples=16)
        return parsheet.simulate_double_cross_game(random.Random(9), strategy, 400)

    first = run()
    assert first == run()
    assert dict(first.multiples).get("fold", 0) > 0
