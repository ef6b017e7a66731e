"""Let It Ride Poker, Chapter 559, run by the declared engine (tables.rules.machine)."""

from __future__ import annotations

import datetime
import random
from fractions import Fraction

import pytest

from tables.rules.cards import parse_cards
from tables.rules.engine import Automation, Outcome, RuleViolation
from tables.rules.events import (
    CardDealt,
    DealerCollected,
    DealingMethod,
    Decision,
    IrregularityKind,
    IrregularityReported,
    NoMoreBets,
    Recipient,
    RoundOpened,
    StubCounted,
    WagerPlaced,
    WagerReturned,
)
from tables.rules.games import let_it_ride_559 as game
from tables.rules.machine import apply, open_round, verify
from tables.rules.replay import FindingKind, replay

DAY = datetime.date(2024, 5, 1)
RIDE, BACK = "let_it_ride", "withdraw"
LIR_PAYOUT = "LET_IT_RIDE_BONUS_PAYOUT"


def opened(seats=(1, 2), method=DealingMethod.MANUAL_SHOE, payout_limit_cents=None, **options):
    return RoundOpened.build(
        round_id="R-L", game="let_it_ride", ruleset_id="PA-559-2010", table_id="LIR-1",
        gaming_day=DAY, seats=seats, players=tuple(f"P{seat}" for seat in seats),
        dealing_method=method, payout_limit_cents=payout_limit_cents, **options,
    )  # fmt: skip


def dealt(hands: dict[int, str], community: str) -> list:
    """§ 559.10(d): a card to each player, one to the community, a second round, the
    second community card, a third card to each player."""
    cards = {seat: parse_cards(text) for seat, text in hands.items()}
    board = parse_cards(community)
    events = []
    for index in range(3):
        events += [CardDealt(card=cards[seat][index], recipient=Recipient.PLAYER, seat=seat,
                             spot=str(index + 1)) for seat in sorted(cards)]  # fmt: skip
        if index < 2:
            events.append(CardDealt(card=board[index], recipient=Recipient.COMMUNITY,
                                    spot=str(index + 1)))  # fmt: skip
    return events


def bets(seat, cents):
    return [WagerPlaced(seat=seat, wager=wager, amount_cents=cents) for wager in game.BETS]


def a_round(hands, community, first=(), second=(), extra=(), cents=1000, **options):
    events = [opened(seats=tuple(sorted(hands)), **options)]
    for seat in sorted(hands):
        events += bets(seat, cents)
    events += [*extra, NoMoreBets(), *dealt(hands, community)]
    events += [Decision(seat=seat, choice=choice) for seat, choice in first]
    events += [Decision(seat=seat, choice=choice) for seat, choice in second]
    return events


def settled(events):
    return replay(events, tuple(Automation)).settlement


def line(settlement, seat, wager):
    found = [item for item in settlement.lines if item.seat == seat and item.wager == wager]
    return found[0] if found else None


def test_559_7_d_the_three_wagers_are_equal():
    state = open_round(game.GAME, opened(), frozenset())
    state = apply(state, WagerPlaced(seat=1, wager="BET_1", amount_cents=1000))
    refused = verify(state, WagerPlaced(seat=1, wager="BET_2", amount_cents=500))
    assert refused is not None and refused.section == "559.7(d)"


def test_559_13_b_and_d_bets_1_and_2_taken_back_are_returned_bet_3_stays():
    events = a_round({1: "Th Tc 4s"}, "8d 2c", first=[(1, BACK)], second=[(1, BACK)])
    settlement = settled(events)
    assert settlement.complete
    one, two, three = (line(settlement, 1, bet) for bet in game.BETS)
    assert (one.outcome, one.section) == (Outcome.RETURNED, "559.13(b)")
    assert (two.outcome, two.section) == (Outcome.RETURNED, "559.13(d)")
    assert (three.outcome, three.amount_cents, three.section) == (Outcome.WIN, 1000, "559.14(b)")


def test_559_13_b_a_withdrawn_bet_is_returned_at_once_before_the_showdown():
    events = a_round({1: "2h 7c 9s", 2: "Ah Kh Qh"}, "8d 2c", first=[(1, BACK), (2, RIDE)])
    state = replay(events).final_state
    assert state.phase == "first_community_card"
    early = replay(events).settlement
    assert [(item.seat, item.wager, item.outcome) for item in early.lines] == [
        (1, "BET_1", Outcome.RETURNED)]
    back = replay([*events, WagerReturned(seat=1, wager="BET_1", amount_cents=1000)])
    assert back.findings == ()


def test_559_13_d_the_second_decision_does_not_depend_on_the_first():
    events = a_round({1: "2h 7c 9s"}, "8d 3c", first=[(1, RIDE)], second=[(1, BACK)])
    settlement = settled(events)
    assert line(settlement, 1, "BET_1").outcome is Outcome.LOSE
    assert line(settlement, 1, "BET_2").outcome is Outcome.RETURNED


def test_559_13_f_2_below_a_pair_of_tens_every_bet_left_loses():
    settlement = settled(a_round({1: "9h 9c 4s"}, "8d 2c", first=[(1, RIDE)], second=[(1, RIDE)]))
    assert {line(settlement, 1, bet).outcome for bet in game.BETS} == {Outcome.LOSE}
    assert line(settlement, 1, "BET_3").section == "559.13(f)(3)"


@pytest.mark.parametrize(("hand", "community", "odds"), [
    ("Ah Kh Qh", "Jh Th", 1000), ("9h Kh Qh", "Jh Th", 200), ("9h 9c 9s", "9d 2c", 50),
    ("9h 9c 9s", "2d 2c", 11), ("2h 5h 9h", "Jh Kh", 8), ("9h Tc Js", "Qd Kc", 5),
    ("9h 9c 9s", "3d 2c", 3), ("9h 9c 3s", "3d 2c", 2), ("Jh Jc 3s", "7d 2c", 1),
])  # fmt: skip
def test_559_14_b_each_line_of_the_pay_table(hand, community, odds):
    settlement = settled(a_round({1: hand}, community, first=[(1, RIDE)], second=[(1, RIDE)],
                                 cents=100))  # fmt: skip
    assert [line(settlement, 1, bet).amount_cents for bet in game.BETS] == [100 * odds] * 3


def test_559_14_c_the_payout_limit_caps_bets_1_to_3_only():
    extra = [WagerPlaced(seat=1, wager="THREE_CARD_BONUS", amount_cents=10_000)]
    events = a_round({1: "Ah Kh Qh"}, "Jh Th", first=[(1, RIDE)], second=[(1, RIDE)],
                     extra=extra, cents=10_000, payout_limit_cents=5_000_000,
                     three_card_bonus_table="D")  # fmt: skip
    settlement = settled(events)
    main = sum(line(settlement, 1, bet).amount_cents for bet in game.BETS)
    assert main == 5_000_000
    assert "559.14(c)" in line(settlement, 1, "BET_1").section
    assert line(settlement, 1, "THREE_CARD_BONUS").amount_cents == 50 * 10_000


def test_559_14_c_a_payout_limit_is_at_least_50000_dollars():
    with pytest.raises(RuleViolation) as refused:
        open_round(game.GAME, opened(payout_limit_cents=4_999_999), frozenset())
    assert refused.value.section == "559.14(c)"


@pytest.mark.parametrize(("table", "reading", "cents"), [
    ("D", None, 5000), ("A", "straight_flush", 4000), ("A", "straight", 600),
    ("B", "straight", 500),
])  # fmt: skip
def test_559_14_e_the_three_card_bonus_and_the_mini_royal_readings(table, reading, cents):
    extra = [WagerPlaced(seat=1, wager="THREE_CARD_BONUS", amount_cents=100)]
    settlement = settled(a_round({1: "Ah Kh Qh"}, "2c 7d", extra=extra, first=[(1, RIDE)],
                                 second=[(1, RIDE)], three_card_bonus_table=table,
                                 mini_royal_reading=reading))  # fmt: skip
    bonus = line(settlement, 1, "THREE_CARD_BONUS")
    assert (bonus.outcome, bonus.amount_cents, bonus.section) == (Outcome.WIN, cents, "559.14(e)")


def test_559_14_e_tables_a_to_c_print_the_mini_royal_na_so_a_reading_is_required():
    with pytest.raises(RuleViolation) as refused:
        open_round(game.GAME, opened(three_card_bonus_table="B"), frozenset())
    assert (refused.value.section, refused.value.field) == ("559.14(e)",
                                                             "options.mini_royal_reading")


def test_559_9_a_the_three_card_bonus_only_where_offered_559_9_b_after_the_three_wagers():
    state = open_round(game.GAME, opened(), frozenset())
    refused = verify(state, WagerPlaced(seat=1, wager="THREE_CARD_BONUS", amount_cents=500))
    assert refused is not None and refused.section == "559.9(a)"
    state = open_round(game.GAME, opened(three_card_bonus_table="D"), frozenset())
    refused = verify(state, WagerPlaced(seat=1, wager="THREE_CARD_BONUS", amount_cents=500))
    assert refused is not None and refused.section == "559.9(b)"


def test_559_8_b_the_let_it_ride_bonus_is_one_dollar_and_pays_559_14_d_amounts():
    state = open_round(game.GAME, opened(let_it_ride_bonus=True), frozenset())
    for event in bets(1, 500):
        state = apply(state, event)
    refused = verify(state, WagerPlaced(seat=1, wager="LET_IT_RIDE_BONUS", amount_cents=500))
    assert refused is not None and refused.section == "559.8(b)"
    extra = [WagerPlaced(seat=1, wager="LET_IT_RIDE_BONUS", amount_cents=100)]
    settlement = settled(a_round({1: "9h 9c 9s"}, "2d 2c", extra=extra, first=[(1, RIDE)],
                                 second=[(1, RIDE)], let_it_ride_bonus=True))  # fmt: skip
    # § 559.14(d) pays $200 for a full house; the $1 chip was taken at no more bets (§ 559.10(b)).
    chip, paid = line(settlement, 1, "LET_IT_RIDE_BONUS"), line(settlement, 1, LIR_PAYOUT)
    assert (chip.outcome, chip.amount_cents, chip.section) == (Outcome.LOSE, 100, "559.10(b)")
    assert (paid.outcome, paid.amount_cents, paid.section) == (Outcome.WIN, 20_000, "559.14(d)")


def test_559_10_b_the_bonus_chip_is_collected_at_no_more_bets_and_returned_if_void():
    events = [opened(let_it_ride_bonus=True), *bets(1, 500),
              WagerPlaced(seat=1, wager="LET_IT_RIDE_BONUS", amount_cents=100)]  # fmt: skip
    early = DealerCollected(seat=1, wager="LET_IT_RIDE_BONUS", amount_cents=100)
    refused = verify(replay(events).final_state, early)
    assert refused is not None and refused.section == "559.13(f)(3)"  # not before no more bets
    events += [NoMoreBets(), early]
    assert replay(events).findings == ()
    void = replay([*events, IrregularityReported(kind=IrregularityKind.SHOE_MALFUNCTION)])
    assert [(f.kind, f.wager) for f in void.findings] == [
        (FindingKind.WRONGFUL_COLLECTION, "LET_IT_RIDE_BONUS")]  # until it is handed back


def test_559_2_f_2_no_let_it_ride_bonus_after_no_more_bets():
    state = open_round(game.GAME, opened(let_it_ride_bonus=True), frozenset())
    for event in bets(1, 500):
        state = apply(state, event)
    state = apply(state, NoMoreBets())
    refused = verify(state, WagerPlaced(seat=1, wager="LET_IT_RIDE_BONUS", amount_cents=100))
    assert refused is not None and refused.section == "559.2(f)(2)"


def test_559_7_d_a_seat_without_the_three_wagers_is_not_dealt_in_and_is_returned():
    events = [opened(seats=(1, 2)), *bets(1, 500),
              WagerPlaced(seat=2, wager="BET_1", amount_cents=500), NoMoreBets()]  # fmt: skip
    state = replay(events).final_state
    assert not state.seats[2].participating
    returned = line(replay(events).settlement, 2, "BET_1")
    assert (returned.outcome, returned.section) == (Outcome.RETURNED, "559.7(d)")


def test_559_13_b_a_withdrawal_of_a_bet_not_placed_is_refused_and_the_order_is_clockwise():
    events = a_round({1: "2h 7c 9s", 2: "3h 8c Ts"}, "8d 2c")
    state = replay(events).final_state
    refused = verify(state, Decision(seat=2, choice=BACK))
    assert refused is not None and refused.section == "559.13(b)"


def test_559_12_f_an_automated_shoes_stub_leaves_out_the_discarded_community_card():
    events = a_round({1: "2h 7c 9s"}, "8d 2c", method=DealingMethod.AUTOMATED_SHOE)
    assert replay([*events, StubCounted(stub_count=52 - 5 - 1)]).final_state.void_section is None
    wrong = replay([*events, StubCounted(stub_count=52 - 5)]).final_state
    assert wrong.void_section == "559.12(f)"


@pytest.mark.parametrize(("kind", "section"), [
    (IrregularityKind.INCORRECT_CARD_COUNT, "559.15(c)"),
    (IrregularityKind.SHOE_MALFUNCTION, "559.15(e)"),
])  # fmt: skip
def test_559_15_c_e_void_the_round_and_return_every_wager(kind, section):
    events = a_round({1: "2h 7c 9s"}, "8d 2c", first=[(1, BACK)])
    settlement = settled([*events, IrregularityReported(kind=kind)])
    assert settlement.voided and settlement.void_section == section
    assert {item.outcome for item in settlement.lines} == {Outcome.RETURNED}


def test_559_15_the_chapter_has_no_remedy_for_a_community_card_shown_early():
    events = a_round({1: "2h 7c 9s"}, "8d 2c")
    state = replay([*events, IrregularityReported(
        kind=IrregularityKind.COMMUNITY_CARD_EXPOSED_EARLY)]).final_state
    assert state.void_section is None


def test_the_par_sheet_strategy_rides_exactly_when_the_cards_are_worth_it():
    from tables.rules.parsheets import let_it_ride as sheet

    game_ = sheet.main_game()
    assert game_.house_edge == Fraction(37963, 1082900)
    assert sheet.three_card_sum((tuple(sorted(c.rank for c in parse_cards("Th Tc 2s"))), False)) > 0
    assert sheet.three_card_sum((tuple(sorted(c.rank for c in parse_cards("9h 9c 2s"))), False)) < 0


def test_the_simulator_plays_optimally_and_replay_finds_every_injected_error():
    from tables.rules.registry import ruleset
    from tables.rules.simulate_declared import (
        ANY_GAME_ERRORS,
        irregularities_of,
        simulate_declared,
    )

    found, withdrawals, taken = 0, 0, 0
    staged = [None, *irregularities_of("let_it_ride")]
    for seed in range(60):
        errors = [ANY_GAME_ERRORS[seed % len(ANY_GAME_ERRORS)]] if seed % 2 else []
        sim = simulate_declared(random.Random(seed), ruleset("PA-559-2010"), seats=(1, 2, 3),
                                dealer_errors=errors, count_stub=True,
                                irregularity=staged[seed % len(staged)],
                                options={"three_card_bonus_table": "E",
                                         "let_it_ride_bonus": True})  # fmt: skip
        result = replay(sim.events)
        assert sorted((f.kind, f.seat, f.wager) for f in result.findings) == sorted(
            (i.expected_finding, i.seat, i.wager) for i in sim.injected)
        found += len(result.findings)
        withdrawals += sum(1 for e in sim.events if isinstance(e, WagerReturned))
        after = sim.events[[type(e) for e in sim.events].index(NoMoreBets) + 1]
        taken += isinstance(after, DealerCollected)  # § 559.10(b): the $1 chips at once
    assert found >= 10 and withdrawals >= 40 and taken >= 30



def test_559_14_c_the_payout_limit_is_per_hand_for_a_player_at_two_positions_559_7_e():
    events = [RoundOpened.build(
        round_id="R-L2", game="let_it_ride", ruleset_id="PA-559-2010", table_id="LIR-1",
        gaming_day=DAY, seats=(1, 2), players=("P1", "P1"),
        dealing_method=DealingMethod.MANUAL_SHOE, payout_limit_cents=5_000_000)]  # fmt: skip
    events += [*bets(1, 10_000), *bets(2, 10_000), NoMoreBets(),
               *dealt({1: "Ah Kh Qh", 2: "Js Jd 4c"}, "Jh Th"),
               *(Decision(seat=s, choice=RIDE) for s in (1, 2, 1, 2))]  # fmt: skip
    settlement = settled(events)
    # Seat 2 (settled first, counterclockwise) is paid its three jacks; the royal at seat 1
    # is capped at the whole limit, not at what seat 2 left of it.
    assert sum(line(settlement, 2, bet).amount_cents for bet in game.BETS) == 90_000
    assert sum(line(settlement, 1, bet).amount_cents for bet in game.BETS) == 5_000_000
