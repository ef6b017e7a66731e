"""Raise It Up Stud Poker, Chapter 587, run by the declared engine (tables.rules.machine)."""

from __future__ import annotations

import datetime
import random
from fractions import Fraction

import pytest

from tables.rules.cards import parse_cards
from tables.rules.engine import Automation, Outcome
from tables.rules.events import (
    CardDealt,
    DealingMethod,
    Decision,
    IrregularityKind,
    IrregularityReported,
    NoMoreBets,
    Recipient,
    RoundOpened,
    WagerPlaced,
)
from tables.rules.games import raise_it_up_587 as game
from tables.rules.machine import apply, open_round, verify
from tables.rules.parsheets import raise_it_up_stud_poker as sheet
from tables.rules.replay import replay

DAY = datetime.date(2024, 5, 1)
PLAY, CHECK, FOLD = "play", "check", "fold"
OFFERED = {"progressive_offered": True, "pair_plus_table": "A", "six_card_bonus_table": "A"}


def opened(seats=(1, 2), method=DealingMethod.MANUAL_SHOE, players=None, **options):
    return RoundOpened.build(
        round_id="R-RIU", game="raise_it_up_stud_poker", ruleset_id="PA-587-2014",
        table_id="RIU-1", gaming_day=DAY, seats=seats,
        players=players or tuple(f"P{seat}" for seat in seats), dealing_method=method, **options,
    )  # fmt: skip


def dealt(hands: dict[int, str], board: str) -> list:
    """§ 587.8(d): a card at a time to each player until each has three, then three
    community cards, all face down."""
    cards = {seat: parse_cards(text) for seat, text in hands.items()}
    events = []
    for index in range(3):
        events += [CardDealt(card=cards[seat][index], recipient=Recipient.PLAYER, seat=seat,
                             spot=str(index + 1)) for seat in sorted(cards)]  # fmt: skip
    events += [CardDealt(card=card, recipient=Recipient.COMMUNITY, spot=spot)
               for card, spot in zip(parse_cards(board), game.COMMUNITY, strict=True)]
    return events


def a_round(hands, board, decisions=(), ante=1000, side=None, **options):
    """``decisions``: ``(seat, choice, multiple)`` in the order the dealer asks them;
    ``side``: each seat's optional wagers, by name."""
    events = [opened(seats=tuple(sorted(hands)), **options)]
    for seat in sorted(hands):
        events += [WagerPlaced(seat=seat, wager=game.ANTE, amount_cents=ante),
                   WagerPlaced(seat=seat, wager=game.BLIND, amount_cents=ante)]
        events += [WagerPlaced(seat=seat, wager=wager, amount_cents=cents)
                   for wager, cents in (side or {}).get(seat, {}).items()]  # fmt: skip
    events += [NoMoreBets(), *dealt(hands, board)]
    events += [Decision(seat=seat, choice=choice,
                        amount_cents=multiple * ante if choice == PLAY else None)
               for seat, choice, multiple in decisions]  # fmt: skip
    return events


def settled(events):
    return replay(events, tuple(Automation)).settlement


def line(settlement, seat, wager):
    found = [item for item in settlement.lines if item.seat == seat and item.wager == wager]
    return found[0] if found else None


@pytest.mark.parametrize(("hand", "board", "play", "blind"), [
    ("As Ks Qs", "Js Ts 2d", Fraction(100), Fraction(1000)),  # royal flush
    ("9h 8h 7h", "6h 5h 2c", Fraction(20), Fraction(200)),
    ("7s 7d 7c", "7h 2d 3c", Fraction(10), Fraction(30)),
    ("7s 7d 7c", "2h 2d 3c", Fraction(6), Fraction(4)),
    ("2c 5c 9c", "Jc Kc 3d", Fraction(5), Fraction(3)),
    ("5s 6d 7c", "8h 9d 2c", Fraction(4), Fraction(2)),
    ("7s 7d 7c", "2h 4d Qc", Fraction(3), Fraction(1)),
    ("7s 7d 2c", "2h 4d Qc", Fraction(3, 2), None),  # two pair: the Blind pushes
    ("Ts Td 2c", "5h 4d Qc", Fraction(1), None),  # a pair of 10s
])  # fmt: skip
def test_587_12_b_c_d_the_ante_play_and_blind_pay_from_a_pair_of_tens(hand, board, play, blind):
    settlement = settled(a_round({1: hand}, board, [(1, PLAY, 3)], ante=200))
    ante, played, blinded = (line(settlement, 1, w) for w in (game.ANTE, "PLAY_FIRST", game.BLIND))
    assert (ante.outcome, ante.amount_cents, ante.section) == (Outcome.WIN, 200, "587.12(b)")
    assert (played.outcome, played.amount_cents, played.section) == (
        Outcome.WIN, int(600 * play), "587.12(c)")
    if blind is None:
        assert (blinded.outcome, blinded.section) == (Outcome.PUSH, "587.12(d)")
    else:
        assert (blinded.outcome, blinded.amount_cents) == (Outcome.WIN, int(200 * blind))


def test_587_11_i_2_i_below_a_pair_of_tens_the_ante_blind_and_play_are_collected():
    settlement = settled(a_round({1: "9s 9d 2c"}, "5h 4d Qc", [(1, PLAY, 3)]))
    assert {(item.wager, item.outcome, item.section) for item in settlement.lines} == {
        (wager, Outcome.LOSE, "587.11(i)(2)(i)") for wager in ("ANTE", "BLIND", "PLAY_FIRST")}


def test_587_11_b_d_f_the_play_wager_is_3_then_2_then_1_times_the_ante():
    events = a_round({1: "9s 9d 2c", 2: "Ah Kd 4c"}, "5h 4d Qc")
    state = replay(events, tuple(Automation)).final_state
    refused = verify(state, Decision(seat=1, choice=PLAY, amount_cents=4000))
    assert refused is not None and (refused.section, refused.field) == ("587.11(b)", "amount_cents")
    assert verify(state, Decision(seat=1, choice=PLAY, amount_cents=1500)) is not None  # whole
    # Seat 1 plays before 4th Street and is asked no more ("remaining players", § 587.11(e)).
    state = replay([*events, Decision(seat=1, choice=PLAY, amount_cents=3000),
                    Decision(seat=2, choice=CHECK)], tuple(Automation)).final_state
    assert state.pending == (2,)
    refused = verify(state, Decision(seat=2, choice=PLAY, amount_cents=3000))
    assert refused is not None and refused.section == "587.11(d)"
    state = replay([*events, Decision(seat=1, choice=PLAY, amount_cents=3000),
                    Decision(seat=2, choice=CHECK), Decision(seat=2, choice=CHECK)],
                   tuple(Automation)).final_state  # fmt: skip
    refused = verify(state, Decision(seat=2, choice=PLAY, amount_cents=2000))
    assert refused is not None and refused.section == "587.11(f)"
    checked = verify(state, Decision(seat=2, choice=CHECK))
    assert checked is not None and checked.section == "587.11(f)"  # play or fold only


def test_587_11_f_g_a_fold_forfeits_ante_blind_and_progressive_but_not_six_card_or_envy():
    side = {1: {"PROGRESSIVE": 100, "SIX_CARD_BONUS": 500}, 2: {"PROGRESSIVE": 100}}
    hands = {1: "8s 8d 2c", 2: "Ah Kh Qh"}
    events = a_round(hands, "8h 8c 4d", [(1, CHECK, 0), (2, PLAY, 3), (1, CHECK, 0), (1, FOLD, 0)],
                     side=side, **OFFERED)  # fmt: skip
    settlement = settled(events)
    for wager in (game.ANTE, game.BLIND):
        folded = line(settlement, 1, wager)
        assert (folded.outcome, folded.section) == (Outcome.FORFEITED, "587.11(f)")
    # Four eights: a winning Six Card Bonus (§ 587.12(f) Paytable A, 50 to 1) all the same.
    bonus = line(settlement, 1, "SIX_CARD_BONUS")
    assert (bonus.outcome, bonus.amount_cents) == (Outcome.WIN, 25_000)
    # A pair of eights pays no progressive; the folded seat keeps its Envy for seat 2's hand.
    assert line(settlement, 1, "PROGRESSIVE_PAYOUT") is None
    envy = line(settlement, 1, "PROGRESSIVE_ENVY")
    assert (envy.amount_cents, envy.section) == (2_500, "587.12(e)(5)")
    assert line(settlement, 2, "PROGRESSIVE_ENVY") is None  # not for his own hand
    chip = line(settlement, 1, "PROGRESSIVE")
    assert (chip.outcome, chip.section) == (Outcome.LOSE, "587.8(b)")


def test_587_11_f_a_folded_pair_plus_by_reading_and_a_discarded_hand_envied_by_none():
    """§ 587.11(f) discards a folded hand without a Progressive or Six Card Bonus Wager: its
    Pair Plus is settled (§ 587.11(i)(1), the default reading) or lost; and its ace, king
    and queen of hearts, in the discard rack, pays no Envy Bonus to seat 2 (§ 587.1)."""
    side = {1: {"PAIR_PLUS": 1000}, 2: {"PROGRESSIVE": 100}}
    hands = {1: "Ah Kh Qh", 2: "2s 2d 5c"}
    folds = [(1, CHECK, 0), (2, CHECK, 0), (1, CHECK, 0), (2, CHECK, 0), (1, FOLD, 0),
             (2, PLAY, 1)]  # fmt: skip
    settlement = settled(a_round(hands, "8h 8c 4d", folds, side=side, **OFFERED))
    paid = line(settlement, 1, "PAIR_PLUS")
    assert (paid.outcome, paid.amount_cents, paid.section) == (Outcome.WIN, 40_000, "587.12(a)")
    assert line(settlement, 2, "PROGRESSIVE_ENVY") is None
    lost = settled(a_round(hands, "8h 8c 4d", folds, side=side,
                           **{**OFFERED, "folded_pair_plus": "lost"}))  # fmt: skip
    assert (line(lost, 1, "PAIR_PLUS").outcome, line(lost, 1, "PAIR_PLUS").section) == (
        Outcome.LOSE, "587.11(f)")


def test_587_11_g_a_folded_progressive_hand_wins_nothing():
    side = {1: {"PROGRESSIVE": 100}}
    events = a_round({1: "7s 7d 7c"}, "2h 4d Qc", [(1, CHECK, 0), (1, CHECK, 0), (1, FOLD, 0)],
                     side=side, **OFFERED)  # fmt: skip
    assert line(settled(events), 1, "PROGRESSIVE_PAYOUT") is None
    assert game.progressive_hits(replay(events, tuple(Automation)).final_state) == ()


def test_587_12_e_1_for_1_lines_are_the_dealer_s_and_the_whole_meter_is_the_meter_s():
    side = {seat: {"PROGRESSIVE": 500} for seat in (1, 2, 3)}
    hands = {1: "7s 7d 7c", 2: "As Ks Qs", 3: "Ah Kh Qh"}
    events = a_round(hands, "2h 4d 9c", [(1, PLAY, 3), (2, PLAY, 1), (3, PLAY, 1)], side=side,
                     **OFFERED)  # fmt: skip
    settlement = settled(events)
    trips = line(settlement, 1, "PROGRESSIVE_PAYOUT")
    assert (trips.amount_cents, trips.section, trips.pay_line) == (
        30_000, "587.12(e)(1)", "THREE_OF_A_KIND")  # 60 for 1 on $5
    assert line(settlement, 3, "PROGRESSIVE_PAYOUT").amount_cents == 250_000  # 500 for 1
    # § 587.11(i)(3)(i)(D): 100 % of the meter is not paid from the table inventory.
    assert line(settlement, 2, "PROGRESSIVE_PAYOUT") is None
    state = replay(events, tuple(Automation)).final_state
    assert game.progressive_hits(state) == ((2, "AKQ_SPADES"),)
    # § 587.12(e)(5), $5 wagers: seat 1 envies seats 2 and 3, seat 2 seat 3, seat 3 seat 2.
    envy = {seat: line(settlement, seat, "PROGRESSIVE_ENVY").amount_cents for seat in (1, 2, 3)}
    assert envy == {1: 50_000 + 12_500, 2: 12_500, 3: 50_000}


def test_587_12_a_pair_plus_and_587_6_a_no_ace_low_three_card_straight():
    side = {1: {"PAIR_PLUS": 1000}, 2: {"PAIR_PLUS": 1000}}
    hands = {1: "Ah 2c 3d", 2: "4h 5c 6d"}
    events = a_round(hands, "9s Td Jc", [(1, PLAY, 1), (2, PLAY, 1)], side=side, **OFFERED)
    settlement = settled(events)
    assert line(settlement, 1, "PAIR_PLUS").outcome is Outcome.LOSE
    straight = line(settlement, 2, "PAIR_PLUS")
    assert (straight.amount_cents, straight.section) == (6_000, "587.12(a)")  # Paytable A
    low = settled(a_round(hands, "9s Td Jc", [(1, PLAY, 1), (2, PLAY, 1)], side=side,
                          **{**OFFERED, "ace_low_three_card_straight": True}))  # fmt: skip
    assert line(low, 1, "PAIR_PLUS").amount_cents == 6_000


def test_587_7_d_4_the_progressive_follows_ante_and_blind_and_is_1_or_5_dollars():
    state = open_round(game.GAME, opened(**OFFERED), frozenset())
    state = apply(state, WagerPlaced(seat=1, wager="ANTE", amount_cents=500))
    early = verify(state, WagerPlaced(seat=1, wager="PROGRESSIVE", amount_cents=100))
    assert early is not None and early.section == "587.7(d)(4)"
    state = apply(state, WagerPlaced(seat=1, wager="BLIND", amount_cents=500))
    two = verify(state, WagerPlaced(seat=1, wager="PROGRESSIVE", amount_cents=200))
    assert two is not None and (two.section, two.field) == ("587.12(e)(5)", "amount_cents")
    assert verify(state, WagerPlaced(seat=1, wager="PROGRESSIVE", amount_cents=500)) is None
    blind = verify(state, WagerPlaced(seat=2, wager="BLIND", amount_cents=500))
    assert blind is not None  # § 587.7(d)(1): the Blind equals an Ante placed first
    plain = open_round(game.GAME, opened(), frozenset())
    plain = apply(plain, WagerPlaced(seat=1, wager="ANTE", amount_cents=500))
    refused = verify(plain, WagerPlaced(seat=1, wager="PAIR_PLUS", amount_cents=500))
    assert refused is not None and refused.section == "587.7(d)(3)"


def test_587_7_e_one_player_position_per_player():
    state = open_round(game.GAME, opened(players=("P1", "P1")), frozenset())
    state = apply(state, WagerPlaced(seat=1, wager="ANTE", amount_cents=500))
    refused = verify(state, WagerPlaced(seat=2, wager="ANTE", amount_cents=500))
    assert refused is not None and refused.section == "587.7(e)"


@pytest.mark.parametrize(("kind", "section"), [
    (IrregularityKind.INCORRECT_CARD_COUNT, "587.13(c)"),
    (IrregularityKind.COMMUNITY_CARD_EXPOSED_EARLY, "587.13(d)"),
    (IrregularityKind.SHOE_MALFUNCTION, "587.13(f)"),
])  # fmt: skip
def test_587_13_c_d_f_void_the_round_and_return_every_wager_the_progressive_too(kind, section):
    events = a_round({1: "9s 9d 2c"}, "5h 4d Qc", side={1: {"PROGRESSIVE": 100}}, **OFFERED)
    settlement = settled([*events, IrregularityReported(kind=kind)])
    assert settlement.voided and settlement.void_section == section
    assert {(item.wager, item.outcome) for item in settlement.lines} == {
        (wager, Outcome.RETURNED) for wager in ("ANTE", "BLIND", "PROGRESSIVE")}


def test_587_13_a_one_card_face_up_is_not_used_two_void_the_round():
    from tables.rules.cards import Card

    events = a_round({1: "9s 9d 2c"}, "5h 4d Qc")
    head, deal = events[:4], events[4:]
    face_up = IrregularityReported(kind=IrregularityKind.CARD_FACE_UP_IN_DECK,
                                   card=Card.parse("Kh"))  # fmt: skip
    state = replay([*head, face_up, *deal], tuple(Automation)).final_state
    assert state.void_section is None
    again = CardDealt(card=Card.parse("Kh"), recipient=Recipient.PLAYER, seat=1, spot="1")
    assert verify(state, again) is not None
    second = IrregularityReported(kind=IrregularityKind.CARD_FACE_UP_IN_DECK,
                                  card=Card.parse("Kd"))  # fmt: skip
    settlement = settled([*head, face_up, second])
    assert settlement.voided and settlement.void_section == "587.13(a)"
    assert {item.outcome for item in settlement.lines} == {Outcome.RETURNED}


def test_587_12_f_six_card_bonus_and_587_12_a_pair_plus_are_exact_by_enumeration():
    counts = sheet.six_card_counts()
    assert sum(counts.values()) == 20_358_520
    assert [counts[key] for key in ("ROYAL_FLUSH", "STRAIGHT_FLUSH", "FOUR_OF_A_KIND",
                                    "FULL_HOUSE", "FLUSH", "STRAIGHT", "THREE_OF_A_KIND")] == [
        188, 1_656, 14_664, 165_984, 205_792, 361_620, 732_160]  # fmt: skip
    # Paytable A without A-2-3 (§ 587.6(a)): 44 straight flushes, 52 trips, 660 straights,
    # 1,100 flushes, 3,744 pairs of 22,100 hands.
    paid = 44 * 41 + 52 * 31 + 660 * 7 + 1_100 * 5 + 3_744 * 2
    assert sheet.pair_plus("A").house_edge == 1 - Fraction(paid, 22_100)


def test_587_12_e_3_the_progressive_breaks_even_at_its_meter_and_holds_at_14_percent():
    one = sheet.progressive(100)
    # $5,000 + $2,800 + $3,120 + $3,960 ... in for-1 lines: 11,380 dollars a deck's worth.
    assert one["fixed_return_cents"] == Fraction(11_380 * 100, 22_100)
    assert one["break_even_meter_cents"] == (100 * 22_100 - 11_380 * 100)
    assert one["house_hold_at_minimum_rate"] == Fraction(86, 100) - Fraction(11_380, 22_100)
    assert sheet.progressive(500)["break_even_meter_cents"] == 5 * one["break_even_meter_cents"]


def test_the_simulated_house_edge_agrees_with_a_fresh_shorter_run():
    edge, half = sheet.SIMULATED
    fresh = sheet.simulate(20_000, seed=7)
    assert abs(fresh.house_edge - edge) <= fresh.house_edge_half_width + half


def test_the_simulator_plays_the_stated_strategy_and_replay_finds_every_injected_error():
    from tables.rules.registry import ruleset
    from tables.rules.simulate_declared import (
        ANY_GAME_ERRORS,
        Play,
        irregularities_of,
        simulate_declared,
    )

    found, folds = 0, 0
    staged = [None, *irregularities_of("raise_it_up_stud_poker")]
    for seed in range(30):
        errors = [ANY_GAME_ERRORS[seed % len(ANY_GAME_ERRORS)]] if seed % 2 else []
        sim = simulate_declared(random.Random(seed), ruleset("PA-587-2014"), seats=(1, 2, 3),
                                dealer_errors=errors, options=OFFERED, count_stub=True,
                                play=Play(side_wagers_cents=(100, 500)),
                                irregularity=staged[seed % len(staged)])  # fmt: skip
        result = replay(sim.events)
        assert result.final_state.phase == "closed"
        assert sorted((f.kind, f.seat, f.wager) for f in result.findings) == sorted(
            (i.expected_finding, i.seat, i.wager) for i in sim.injected)
        found += len(result.findings)
        folds += sum(1 for e in sim.events if isinstance(e, Decision) and e.choice == FOLD)
    assert found >= 5 and folds >= 5
