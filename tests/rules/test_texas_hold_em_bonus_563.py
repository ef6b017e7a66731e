"""Texas Hold 'Em Bonus Poker, Chapter 563, run by the declared engine (tables.rules.machine)."""

from __future__ import annotations

import datetime
import random
from fractions import Fraction

import pytest

from tables.rules.cards import parse_cards
from tables.rules.engine import Automation, Outcome, RuleViolation
from tables.rules.events import (
    CardDealt,
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
from tables.rules.games import texas_hold_em_bonus_563 as game
from tables.rules.machine import apply, open_round
from tables.rules.parsheets import texas_hold_em_bonus_poker as sheet
from tables.rules.replay import replay

DAY = datetime.date(2024, 5, 1)
BET = "bet"


def opened(seats=(1, 2), limit=None, **options):
    return RoundOpened.build(
        round_id="R-THB", game="texas_hold_em_bonus_poker", ruleset_id="PA-563-2010",
        table_id="THB-1", gaming_day=DAY, seats=seats, players=tuple(f"P{s}" for s in seats),
        dealing_method=DealingMethod.MANUAL_SHOE, payout_limit_cents=limit, **options,
    )  # fmt: skip


def dealt(hands, dealer):
    """§ 563.8(d): a card to each player clockwise, the dealer's, then the second round."""
    cards = {seat: parse_cards(text) for seat, text in hands.items()}
    events = []
    for index, card in enumerate(parse_cards(dealer)):
        for seat in sorted(cards):
            events.append(CardDealt(card=cards[seat][index], recipient=Recipient.PLAYER,
                                    seat=seat, spot=str(index + 1)))  # fmt: skip
        events.append(CardDealt(card=card, recipient=Recipient.DEALER, spot=str(index + 1)))
    return events


def board(text, spots):
    return [CardDealt(card=card, recipient=Recipient.COMMUNITY, spot=spot, face_up=True)
            for card, spot in zip(parse_cards(text), spots, strict=True)]  # fmt: skip


def a_round(wagers, hands, dealer, community, flop, turn=(), river=(), limit=None, **options):
    """Decisions are (seat, choice) per stage, the bets at the amounts § 563.11 requires."""
    ante = {seat: amount for seat, wager, amount in wagers if wager == "ANTE"}
    events = [opened(seats=tuple(sorted(hands)), limit=limit, **options)]
    events += [WagerPlaced(seat=s, wager=w, amount_cents=a) for s, w, a in wagers]
    events += [NoMoreBets(), *dealt(hands, dealer)]
    for decisions, cards, spots, times in ((flop, community[:8], game.BOARD[:3], 2),
                                           (turn, community[9:11], ("TURN",), 1),
                                           (river, community[12:14], ("RIVER",), 1)):  # fmt: skip
        events += [Decision(seat=s, choice=c, amount_cents=ante[s] * times if c == BET else None)
                   for s, c in decisions]  # fmt: skip
        events += board(cards, spots)
    return events


def settled(events):
    return replay(events, tuple(Automation)).settlement


def line(settlement, seat, wager):
    return next((item for item in settlement.lines if (item.seat, item.wager) == (seat, wager)),
                None)  # fmt: skip


BOARD = "7c 8d Kh 2s 3c"  # flop, then turn, then river


def played(hands, dealer, community=BOARD, bonus=(), flop=None, **options):
    seats = sorted(hands)
    wagers = [(s, "ANTE", 1000) for s in seats] + [(s, "BONUS", 500) for s in bonus]
    flop = [(s, BET) for s in seats] if flop is None else flop
    later = [(s, BET) for s, choice in flop if choice == BET]
    return settled(a_round(wagers, hands, dealer, community, flop, later, later, **options))


def outcomes(settlement, seat):
    return {item.wager: (item.outcome, item.amount_cents) for item in settlement.lines
            if item.seat == seat}  # fmt: skip


def test_563_11_h_2_and_12_b_a_straight_beating_the_dealer_is_paid_on_every_wager():
    settlement = played({1: "4h 5d"}, "Ah Ad", community="7c 8d Kh 6s 3c")
    assert outcomes(settlement, 1) == {
        "ANTE": (Outcome.WIN, 1000),
        "FLOP": (Outcome.WIN, 2000),
        "TURN": (Outcome.WIN, 1000),
        "RIVER": (Outcome.WIN, 1000),
    }
    assert line(settlement, 1, "ANTE").section == "563.12(b)"


def test_563_11_h_2_the_ante_is_not_paid_below_the_preselected_qualifier():
    straight = played({1: "4h 5d"}, "Ah Ad", community="7c 8d Kh 6s 3c", ante_qualifier="flush")
    assert line(straight, 1, "ANTE").outcome is Outcome.PUSH  # a straight is below a flush
    assert line(straight, 1, "ANTE").section == "563.11(h)(2)"
    assert line(straight, 1, "FLOP").outcome is Outcome.WIN
    pair = played({1: "Kd 9s"}, "Qh Jd", unqualified_ante="lose")
    assert outcomes(pair, 1)["ANTE"] == (Outcome.LOSE, 1000)
    assert outcomes(pair, 1)["RIVER"] == (Outcome.WIN, 1000)
    assert ("unqualified_ante", "lose") in pair.options_applied


def test_563_11_h_1_a_lower_hand_loses_every_wager():
    settlement = played({1: "4h 5d"}, "Ah Ad")
    assert {o for o, _ in outcomes(settlement, 1).values()} == {Outcome.LOSE}
    assert line(settlement, 1, "FLOP").section == "563.11(h)(1)"


def test_563_11_h_3_and_6_c_equal_hands_of_seven_cards_return_every_wager():
    settlement = played({1: "4h 5d"}, "4c 5s")  # both K-8-7-5-4
    assert {o for o, _ in outcomes(settlement, 1).values()} == {Outcome.PUSH}
    assert line(settlement, 1, "ANTE").section == "563.11(h)(3)"


def test_563_11_a_2_a_fold_forfeits_the_ante_and_the_bonus_waits_for_the_end():
    events = a_round([(1, "ANTE", 1000), (1, "BONUS", 500), (2, "ANTE", 1000)],
                     {1: "Ah As", 2: "4h 5d"}, "Qh Jd", BOARD, [(1, "fold"), (2, BET)],
                     [(2, "check")], [(2, "check")])  # fmt: skip
    fold = next(i for i, e in enumerate(events) if isinstance(e, Decision))
    early = replay(events[: fold + 1], tuple(Automation)).settlement
    assert outcomes(early, 1) == {"ANTE": (Outcome.FORFEITED, 1000)}
    assert line(early, 1, "ANTE").section == "563.11(a)(2)"
    final = settled(events)
    assert outcomes(final, 1) == {"ANTE": (Outcome.FORFEITED, 1000),
                                  "BONUS": (Outcome.WIN, 15000)}  # fmt: skip


def test_563_12_c_the_bonus_is_paid_on_the_two_cards_whatever_the_hand():
    settlement = played({1: "Ah Ad", 2: "9c 9d", 3: "Kc Qc"}, "2h 2d", bonus=(1, 2, 3))
    assert outcomes(settlement, 1)["BONUS"] == (Outcome.WIN, 15000)  # Ace-ace 30 to 1
    assert outcomes(settlement, 2)["BONUS"] == (Outcome.WIN, 1500)  # 9-9: 3 to 1
    assert outcomes(settlement, 3)["BONUS"] == (Outcome.LOSE, 500)
    assert line(settlement, 1, "BONUS").section == "563.12(c)"


@pytest.mark.parametrize(("supplement", "won"), [(None, 15000), ("replaces", 500_000),
                                                 ("adds", 515_000)])  # fmt: skip
def test_563_12_d_player_and_dealer_aces_pay_the_supplement_as_the_rule_set_reads_it(
    supplement, won
):
    settlement = played({1: "Ah Ad"}, "Ac As", bonus=(1,), aces_supplement=supplement)
    assert outcomes(settlement, 1)["BONUS"] == (Outcome.WIN, won)
    assert line(settlement, 1, "BONUS").section == ("563.12(c)" if supplement is None else
                                                    "563.12(d)")  # fmt: skip


def test_563_12_e_the_aggregate_payout_limit_is_50_000_dollars_where_the_round_names_none():
    events = a_round(
        [(1, "ANTE", 1000), (1, "BONUS", 1_000_000)],
        {1: "Ah Ad"},
        "Ac As",
        BOARD,
        [(1, BET)],
        [(1, BET)],
        [(1, BET)],
        aces_supplement="replaces",
    )
    settlement = settled(events)  # both A-A-K-8-7: the main wagers push, the Bonus is capped
    assert outcomes(settlement, 1)["BONUS"] == (Outcome.WIN, 5_000_000)
    assert "563.12(e)" in line(settlement, 1, "BONUS").section
    with pytest.raises(RuleViolation, match=r"563\.12\(e\)"):
        open_round(game.GAME, opened(limit=4_999_900))


def test_563_7_c_the_bonus_follows_an_ante_with_at_least_a_dollar():
    state = open_round(game.GAME, opened(seats=(1,)))
    with pytest.raises(RuleViolation, match=r"563\.7\(c\)"):
        apply(state, WagerPlaced(seat=1, wager="BONUS", amount_cents=500))
    state = apply(state, WagerPlaced(seat=1, wager="ANTE", amount_cents=500))
    with pytest.raises(RuleViolation, match=r"563\.7\(c\).*\$1"):
        apply(state, WagerPlaced(seat=1, wager="BONUS", amount_cents=50))


def _after_deal(hands=None, wagers=((1, "ANTE", 1000), (1, "BONUS", 500))):
    hands = hands or {1: "Ah Ad"}
    state = open_round(game.GAME, opened(seats=tuple(sorted(hands))))
    for event in [*(WagerPlaced(seat=s, wager=w, amount_cents=a) for s, w, a in wagers),
                  NoMoreBets(), *dealt(hands, "Kc Ks")]:  # fmt: skip
        state = apply(state, event)
    return state


def test_563_11_a_c_e_the_flop_is_twice_the_ante_the_turn_and_river_equal_to_it():
    state = _after_deal()
    with pytest.raises(RuleViolation, match=r"563\.11\(a\)"):
        apply(state, Decision(seat=1, choice=BET, amount_cents=1000))
    state = apply(state, Decision(seat=1, choice=BET, amount_cents=2000))
    for event in board("7c 8d Kh", game.BOARD[:3]):
        state = apply(state, event)
    with pytest.raises(RuleViolation, match=r"563\.11\(c\)"):
        apply(state, Decision(seat=1, choice=BET, amount_cents=2000))
    with pytest.raises(RuleViolation, match=r"563\.11\(c\)"):
        apply(state, Decision(seat=1, choice="fold"))  # no fold after the flop
    state = apply(state, Decision(seat=1, choice="check"))
    assert state.phase == "turn_deal"


def test_563_11_b_d_f_the_board_is_dealt_in_stages_after_the_decisions():
    state = _after_deal()
    with pytest.raises(RuleViolation, match="dealing is complete"):
        apply(state, board("7c", ("F1",))[0])  # before the Flop decisions
    state = apply(state, Decision(seat=1, choice=BET, amount_cents=2000))
    with pytest.raises(RuleViolation, match="F1, F2, F3"):
        apply(state, board("7c", ("TURN",))[0])
    for event in board("7c 8d Kh", game.BOARD[:3]):
        state = apply(state, event)
    assert state.phase == "turn_decision" and all(state.community_exposed[:3])


def test_563_13_a_a_dealer_card_shown_before_the_decisions_voids_all_but_the_bonus():
    state = _after_deal()
    state = apply(state, IrregularityReported(kind=IrregularityKind.DEALER_CARD_EXPOSED_EARLY))
    settlement = replay_state(state)
    assert settlement.voided and settlement.void_section == "563.13(a)"
    assert outcomes(settlement, 1) == {
        "ANTE": (Outcome.RETURNED, 1000),
        "BONUS": (Outcome.WIN, 15000),
    }


def test_563_13_a_after_the_river_decisions_a_dealer_card_shown_voids_nothing():
    events = a_round([(1, "ANTE", 1000)], {1: "Ah Ad"}, "Kc Ks", BOARD, [(1, BET)],
                     [(1, "check")], [(1, "check")])  # fmt: skip
    events.insert(-1, IrregularityReported(kind=IrregularityKind.DEALER_CARD_EXPOSED_EARLY))
    settlement = settled(events)
    assert not settlement.voided and line(settlement, 1, "ANTE").outcome is Outcome.LOSE
    flop_only = events[:]
    flop_only[0] = opened(seats=(1,), dealer_exposure_window="flop")
    cut = next(i for i, e in enumerate(flop_only) if isinstance(e, Decision)) + 4
    flop_only.insert(cut, IrregularityReported(kind=IrregularityKind.DEALER_CARD_EXPOSED_EARLY))
    assert not settled(flop_only).voided  # after the flop decisions, under that reading


def test_563_13_b_two_cards_face_up_after_the_first_two_cards_void_but_settle_the_bonus():
    state = _after_deal()
    for card in ("2c", "3c"):
        state = apply(state, IrregularityReported(kind=IrregularityKind.CARD_FACE_UP_IN_DECK,
                                                  card=parse_cards(card)[0]))  # fmt: skip
    settlement = replay_state(state)
    assert settlement.void_section == "563.13(b)"
    assert outcomes(settlement, 1)["BONUS"] == (Outcome.WIN, 15000)
    before = open_round(game.GAME, opened(seats=(1,)))
    for event in (
        WagerPlaced(seat=1, wager="ANTE", amount_cents=1000),
        WagerPlaced(seat=1, wager="BONUS", amount_cents=500),
        NoMoreBets(),
        *(
            IrregularityReported(kind=IrregularityKind.CARD_FACE_UP_IN_DECK, card=parse_cards(c)[0])
            for c in ("2c", "3c")
        ),
    ):
        before = apply(before, event)
    assert outcomes(replay_state(before), 1)["BONUS"] == (Outcome.RETURNED, 500)


def test_563_13_d_a_wrong_number_of_cards_voids_every_wager_bonus_included():
    state = apply(_after_deal(), IrregularityReported(kind=IrregularityKind.INCORRECT_CARD_COUNT))
    assert outcomes(replay_state(state), 1)["BONUS"] == (Outcome.RETURNED, 500)


def test_563_8_f_h_the_stub_is_counted_after_the_river_with_the_three_burns_out():
    events = a_round([(1, "ANTE", 1000)], {1: "Ah Ad"}, "Kc Ks", BOARD, [(1, BET)],
                     [(1, "check")], [(1, "check")])  # fmt: skip
    state = open_round(game.GAME, events[0])
    for event in events[1:9]:
        state = apply(state, event)
    with pytest.raises(RuleViolation, match=r"563\.8\(f\)"):
        apply(state, StubCounted(stub_count=48))
    for event in events[9:]:
        state = apply(state, event)
    assert not apply(state, StubCounted(stub_count=52 - 9 - 3)).void_section
    wrong = apply(state, StubCounted(stub_count=52 - 9))
    assert wrong.void_section == "563.8(h)" and wrong.deck_removal_required


def test_563_2_a_six_positions():
    with pytest.raises(RuleViolation, match=r"563\.2\(a\)"):
        open_round(game.GAME, opened(seats=(1, 2, 3, 4, 5, 6, 7)))


def replay_state(state):
    from tables.rules.machine import required_settlement

    return required_settlement(state)


def test_563_par_sheet_bonus_exact_and_the_whole_game_recorded_for_finance():
    assert sheet.bonus_sheet("563.12(c) minimum", None).house_edge == Fraction(59, 663)
    small = sheet.simulate(4_000, seed=7)
    for reading, (edge, half) in sheet.SIMULATED_EDGES.items():
        figures = small[reading]
        assert abs(figures["house_edge"] - edge) < figures["half_width_95"] * 2 + half


def test_563_simulated_rounds_replay_with_their_injected_errors():
    from tables.rules.registry import ruleset
    from tables.rules.simulate import DealerError
    from tables.rules.simulate_declared import simulate_declared

    for seed in range(6):
        sim = simulate_declared(
            random.Random(seed),
            ruleset("PA-563-2010"),
            seats=(1, 2, 3),
            count_stub=True,
            dealer_errors=[DealerError.MISPAY_FIRST_WIN],
        )
        result = replay(sim.events)
        assert [(f.kind, f.seat, f.wager) for f in result.findings] == [
            (i.expected_finding, i.seat, i.wager) for i in sim.injected
        ]


def test_563_11_a_2_ii_a_folded_hand_is_collected_not_turned():
    from tables.rules.events import CardExposed

    events = a_round([(1, "ANTE", 1000), (2, "ANTE", 1000)], {1: "Ah As", 2: "4h 5d"}, "Qh Jd",
                     BOARD, [(1, "fold"), (2, BET)], [(2, "check")], [(2, "check")])  # fmt: skip
    state = open_round(game.GAME, events[0])
    for event in events[1:]:
        state = apply(state, event)
    for spot in ("1", "2"):
        state = apply(state, CardExposed(recipient=Recipient.DEALER, spot=spot))
    with pytest.raises(RuleViolation, match=r"563\.11\(h\).*only remaining players"):
        apply(state, CardExposed(recipient=Recipient.PLAYER, seat=1, spot="1"))


def test_563_6_c_the_literal_tie_rule_reads_the_highest_card_not_in_the_other_hand():
    board = "3d 3h Ac Kd 8s"  # player 3s full of aces, dealer kings full of 3s
    conventional = played({1: "3c As"}, "Kh Ks", community=board)
    assert line(conventional, 1, "ANTE").outcome is Outcome.LOSE
    literal = played({1: "3c As"}, "Kh Ks", community=board, tie_rule="literal")
    assert line(literal, 1, "ANTE").outcome is Outcome.WIN  # the aces are the player's alone
    assert ("tie_rule", "literal") in literal.options_applied


def test_563_7_f_one_player_position_per_player():
    event = RoundOpened.build(
        round_id="R-2", game="texas_hold_em_bonus_poker", ruleset_id="PA-563-2010",
        table_id="THB-1", gaming_day=DAY, seats=(1, 2), players=("P1", "P1"),
        dealing_method=DealingMethod.MANUAL_SHOE,
    )  # fmt: skip
    state = apply(open_round(game.GAME, event), WagerPlaced(seat=1, wager="ANTE", amount_cents=500))
    with pytest.raises(RuleViolation, match=r"563\.7\(f\)"):
        apply(state, WagerPlaced(seat=2, wager="ANTE", amount_cents=500))


def test_563_11_a_when_every_player_folds_no_board_is_dealt():
    from tables.rules.events import CardExposed

    state = _after_deal()
    state = apply(state, Decision(seat=1, choice="fold"))
    assert state.phase == "dealer_reveal"  # the flop, turn and river stages pass undealt
    with pytest.raises(RuleViolation, match="dealing is complete"):
        apply(state, board("7c", ("F1",))[0])
    assert not apply(state, StubCounted(stub_count=52 - 4)).void_section  # nothing burned
    for spot in ("1", "2"):
        state = apply(state, CardExposed(recipient=Recipient.DEALER, spot=spot))
    settlement = replay_state(state)
    assert outcomes(settlement, 1) == {"ANTE": (Outcome.FORFEITED, 1000),
                                       "BONUS": (Outcome.WIN, 15000)}  # fmt: skip
