"""Six-Card Fortune Pai Gow Poker, Chapter 588: set hands, the bonuses, Envy and the meter link."""

from __future__ import annotations

import datetime
import random
from collections import Counter
from fractions import Fraction

import pytest

from tables.rules.cards import JOKER_DECK, parse_cards
from tables.rules.engine import Automation, Outcome, RuleViolation
from tables.rules.events import (
    CardDealt,
    DealingMethod,
    Decision,
    NoMoreBets,
    Recipient,
    RoundOpened,
    WagerPlaced,
)
from tables.rules.games import six_card_fortune_588 as game
from tables.rules.games._pai_gow_hands import best_of_six, house_way_588
from tables.rules.games._six_card_fortune import meter_hits
from tables.rules.machine import open_round
from tables.rules.parsheets import six_card_fortune_pai_gow_poker as sheet
from tables.rules.replay import replay

DAY = datetime.date(2015, 6, 1)
SPOTS = game.SPOTS
DEALER = "Kc Kd 9h 7s 5c 3d"  # § 588.11(d)(1): the kings high, the 9 low
READINGS = {"envy_recipients": "lammer_holders", "envy_unscheduled": "nothing"}


def opened(seats, **options):
    options.setdefault("start", "rng")
    return RoundOpened.build(
        round_id="R-6CF", game="six_card_fortune_pai_gow_poker", ruleset_id="PA-588-2014",
        table_id="SCF-1", gaming_day=DAY, seats=seats,
        players=tuple(f"P{seat}" for seat in seats), dealing_method=DealingMethod.MANUAL_SHOE,
        **options,
    )  # fmt: skip


def a_round(hands, lows, dealer=DEALER, side=(), doubles=(), stake=1000, **options):
    """``hands`` by seat; ``lows`` the spot each seat sets low; ``side`` extra wagers."""
    seats = tuple(sorted(hands))
    events = [opened(seats, **options)]
    events += [WagerPlaced(seat=seat, wager=game.MAIN, amount_cents=stake) for seat in seats]
    events += [WagerPlaced(seat=seat, wager=wager, amount_cents=cents)
               for seat, wager, cents in side]  # fmt: skip
    events.append(NoMoreBets())
    cards = {seat: parse_cards(text) for seat, text in hands.items()}
    for index, card in enumerate(parse_cards(dealer)):
        for seat in seats:
            events.append(CardDealt(card=cards[seat][index], recipient=Recipient.PLAYER,
                                    seat=seat, spot=SPOTS[index]))  # fmt: skip
        events.append(CardDealt(card=card, recipient=Recipient.DEALER, spot=SPOTS[index]))
    if options.get("double_down_offered"):
        events += [Decision(seat=seat, choice="double_down" if seat in doubles else
                            "no_double_down", amount_cents=stake if seat in doubles else None)
                   for seat in seats]  # fmt: skip
    events += [Decision(seat=seat, choice="set", params={"low": lows[seat]}) for seat in seats]
    return events


def lines(events):
    result = replay(events, tuple(Automation))
    return {(line.seat, line.wager): line for line in result.settlement.lines}, result


def outcome(hand, low, **kwargs):
    line = lines(a_round({1: hand}, {1: low}, **kwargs))[0][(1, game.MAIN)]
    return line.outcome, line.section


def test_588_11_f_3_both_hands_higher_win_1_to_1_without_commission():
    found = lines(a_round({1: "Ac Ad Qh Js 8h Ts"}, {1: "3"}))[0][(1, game.MAIN)]
    assert (found.outcome, found.amount_cents) == (Outcome.WIN, 1000)


def test_588_11_f_2_i_high_higher_low_lower_is_a_tie():
    assert outcome("Ac Ad Qh Js 8h Ts", "5") == (Outcome.PUSH, "588.11(f)(2)(i)")


def test_588_6_c_copies_go_to_the_dealer():
    assert outcome("Ks Kh 7d 5h 3c 9c", "6") == (Outcome.LOSE, "588.11(f)(1)")


def test_588_6_c_a_players_joker_low_is_the_higher_low_hand():
    assert outcome("Ac Ad Qh Js 8h Jk", "6")[0] is Outcome.WIN


def test_588_11_f_1_v_a_high_hand_below_the_low_hand_loses():
    assert outcome("Qc 9d 7h 5s 3h 2c", "1") == (Outcome.LOSE, "588.11(f)(1)(v)")


def test_588_11_g_double_down_follows_the_main_wager_when_the_dealer_has_eights_or_better():
    options = {"double_down_offered": True, "double_down_hand": "six_cards"}
    won = lines(a_round({1: "Ac Ad Qh Js 8h Ts"}, {1: "3"}, doubles=(1,), **options))[0]
    assert won[(1, game.DOUBLE_DOWN)].outcome is Outcome.WIN
    weak = "Qc Td 8h 6s 4c 2d"
    returned = lines(a_round({1: "Ac Ad Qh Js 7h Ts"}, {1: "3"}, dealer=weak, doubles=(1,),
                             **options))[0]  # fmt: skip
    assert (returned[(1, game.DOUBLE_DOWN)].outcome,
            returned[(1, game.DOUBLE_DOWN)].section) == (Outcome.RETURNED, "588.11(g)(2)")


def test_588_11_d_the_dealer_sets_by_the_chapters_own_house_way():
    def low(text):
        return str(house_way_588(parse_cards(text)).low[0])

    assert low(DEALER) == "9h"  # (1): the set stays high, the highest other card low
    assert low("Kc Kd Kh 4s 4c 4d")[0] == "K"  # (1)(i): the higher three-of-a-kind split
    assert low("Qc Qd 8h 8s 3c 3d")[0] == "Q"  # (1)(ii): a card of the highest pair low
    assert low("4c 5d 6h 7s 8c 9d") == "9d"  # (2): the lowest straight, the highest card low
    assert low("2h 5h 9h Th Jh Kc") == "Kc"  # the flush stays high
    assert low("Ac Jd 9h 6s 4c 2d") == "Jd"  # (6): the second-highest card low


def test_588_12_b_the_fortune_bonus_pays_on_the_best_five_of_six():
    side = [(1, game.FORTUNE, 100)]
    found = lines(a_round({1: "Ac Ad Ah Ks Kh 2c"}, {1: "6"}, side=side,
                          fortune_bonus_offered=True, **READINGS))[0]  # fmt: skip
    assert found[(1, game.FORTUNE)].amount_cents == 1_500  # a full house, 15 to 1


def test_588_12_c_insurance_pays_a_king_high_hand():
    side = [(1, game.INSURANCE, 500)]
    found = lines(a_round({1: "Kh 9d 7h 5s 3h 2c"}, {1: "1"}, side=side,
                          insurance_offered=True))[0]  # fmt: skip
    assert (found[(1, game.INSURANCE)].amount_cents, found[(1, game.INSURANCE)].pay_line) == (
        1_500, "KING_HIGH")  # fmt: skip


def test_588_11_h_1_ii_envy_is_paid_for_another_players_hand_never_ones_own():
    side = [(1, game.FORTUNE, 500), (2, game.FORTUNE, 500)]
    hands = {1: "Qc Td 8h 6s 4c 2d", 2: "Ac Ad Ah Ks Kh 2c"}
    found = lines(a_round(hands, {1: "1", 2: "6"}, side=side, fortune_bonus_offered=True,
                          **READINGS))[0]  # fmt: skip
    assert found[(1, "FORTUNE_ENVY")].amount_cents == 2_500  # $5 wager, a full house
    assert (2, "FORTUNE_ENVY") not in found


def test_588_11_h_envy_readings_must_be_chosen_to_offer_the_bonuses():
    with pytest.raises(RuleViolation) as refused:
        open_round(game.GAME, opened((1,), fortune_bonus_offered=True))
    assert refused.value.section == "588.11(h)(1)(ii)"


def test_588_12_d_1_for_1_lines_are_paid_by_the_house_and_meter_shares_left_to_the_meter():
    side = [(1, game.PROGRESSIVE, 500), (2, game.PROGRESSIVE, 500)]
    hands = {1: "9s Ts Js Qs Ks 2h", 2: "Ac Kc Qc Jc Tc 2s"}
    found, result = lines(a_round(hands, {1: "6", 2: "6"}, dealer="8d 8h 6c 4s 3h 2d", side=side,
                                  progressive_offered=True, **READINGS))  # fmt: skip
    assert found[(1, game.PROGRESSIVE_PAYOUT)].amount_cents == 150_000  # 300 for 1
    assert (2, game.PROGRESSIVE_PAYOUT) not in found
    hits = meter_hits(result.final_state)
    assert [(hit.seat, hit.hand, hit.share) for hit in hits] == [(2, "ROYAL_FLUSH",
                                                                 Fraction(1, 10))]  # fmt: skip


def test_588_12_par_sheet_counts_every_six_card_hand():
    """C(53, 6) hands; five aces: four aces, the joker and any of 48 cards; royal flushes:
    a natural royal and any of 48 cards (192) or the joker with four of one (20 x 47)."""
    counts = {category.name: count for category, count in sheet._by_category().items()}
    assert sum(counts.values()) == 22_957_480
    assert (counts["FIVE_ACES"], counts["ROYAL_FLUSH"]) == (48, 1_132)


def test_588_12_par_sheet_agrees_with_dealt_hands():
    """The class counting agrees with 20,000 random hands within five standard errors."""
    rng, seen = random.Random(588), Counter()
    for _ in range(20_000):
        seen[best_of_six(rng.sample(JOKER_DECK, 6)).category] += 1
    for category, count in sheet._by_category().items():
        p = count / sheet.HANDS
        assert abs(seen[category] / 20_000 - p) <= 5 * (p * (1 - p) / 20_000) ** 0.5 + 1e-9


def test_588_simulated_rounds_with_every_wager_replay_to_exactly_the_injected_findings():
    from tables.rules.registry import ruleset
    from tables.rules.simulate import DealerError
    from tables.rules.simulate_declared import simulate_declared

    options = {"double_down_offered": True, "fortune_bonus_offered": True,
               "insurance_offered": True, "progressive_offered": True,
               "double_down_hand": "six_cards", **READINGS}  # fmt: skip
    found = 0
    for seed in range(10):
        sim = simulate_declared(random.Random(seed), ruleset("PA-588-2014"), seats=(1, 2, 3, 4),
                                options=options, dealer_errors=[DealerError.MISPAY_FIRST_WIN])
        result = replay(sim.events)
        expected = [(i.expected_finding, i.seat, i.wager) for i in sim.injected]
        assert [(f.kind, f.seat, f.wager) for f in result.findings] == expected
        found += len(expected)
    assert found


def test_588_12_a_par_sheet_recorded_edge_agrees_with_a_fresh_simulation():
    mean, half = sheet.main_game("six_cards", 2_000, 7)
    assert abs(mean - sheet.MAIN_RESULT) <= half + sheet.MAIN_HALF_WIDTH


def test_588_11_a_3_a_set_hand_is_not_touched_again():
    from tables.rules.machine import apply, verify

    events = a_round({1: "Ac Ad Qh Js 8h Ts"}, {1: "3"})
    state = open_round(game.GAME, events[0])
    for event in events[1:]:
        state = apply(state, event)
    again = verify(state, Decision(seat=1, choice="set", params={"low": "1"}))
    assert again is not None and again.section == "588.11(a)(3)"
