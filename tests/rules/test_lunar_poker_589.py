"""Lunar Poker, Chapter 589, run by the declared engine (draws, fees, the forced dealer)."""

from __future__ import annotations

import datetime
import random
from fractions import Fraction

import pytest

from tables.rules.cards import parse_cards
from tables.rules.engine import FEE, HOUSE, Automation, Outcome, RuleViolation
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
    WagerPlaced,
)
from tables.rules.games import lunar_poker_589 as game
from tables.rules.machine import apply, open_round
from tables.rules.replay import replay

DAY = datetime.date(2015, 6, 1)


def opened(seats=(1,), **options):
    return RoundOpened.build(
        round_id="R-L", game="lunar_poker", ruleset_id="PA-589-2013", table_id="LP-1",
        gaming_day=DAY, seats=seats, players=tuple(f"P{seat}" for seat in seats),
        dealing_method=DealingMethod.MANUAL_SHOE, **options,
    )  # fmt: skip


def dealt(hands: dict[int, str], dealer: str) -> list:
    """§ 589.8(c): one card at a time clockwise to each Ante and the dealer, five each."""
    cards = {seat: parse_cards(text) for seat, text in hands.items()}
    events = []
    for index, card in enumerate(parse_cards(dealer)):
        for seat in sorted(cards):
            events.append(CardDealt(card=cards[seat][index], recipient=Recipient.PLAYER,
                                    seat=seat, spot=str(index + 1)))  # fmt: skip
        events.append(CardDealt(card=card, recipient=Recipient.DEALER, spot=str(index + 1)))
    return events


def drawn(seat, cards, first_spot=6):
    return [CardDealt(card=card, recipient=Recipient.PLAYER, seat=seat, spot=str(first_spot + i))
            for i, card in enumerate(parse_cards(cards))]  # fmt: skip


def a_round(hands, dealer, after=(), ante=1000, extra=(), **options):
    events = [opened(seats=tuple(sorted(hands)), **options)]
    events += [WagerPlaced(seat=seat, wager="ANTE", amount_cents=ante) for seat in sorted(hands)]
    events += [*extra, NoMoreBets(), *dealt(hands, dealer), *after]
    return events


def settled(events):
    result = replay(events, tuple(Automation))
    return result.settlement


def line(settlement, seat, wager):
    return next(item for item in settlement.lines if item.seat == seat and item.wager == wager)


def bet(seat, ante=1000):
    return Decision(seat=seat, choice="bet", amount_cents=2 * ante)


def test_589_11_e_1_ii_a_win_returns_the_ante_and_pays_the_bet_and_a_second_combination():
    # The chapter's own example: two aces, a king, 8 and 9 win on the aces and on ace-king.
    settlement = settled(a_round({1: "Ah Ad Kc 8s 9h"}, "2c 2d 5h 7s Jc", [bet(1)]))
    assert line(settlement, 1, "ANTE").outcome is Outcome.RETURNED
    won = line(settlement, 1, "BET")
    assert (won.outcome, won.amount_cents, won.pay_line) == (Outcome.WIN, 4000, "PAIR + HIGH_CARD")
    assert "589.11(e)(1)(ii)" in won.section and "589.12(c)" in won.section


def test_589_11_e_1_i_and_iii_the_dealer_higher_takes_both_a_tie_returns_both():
    settlement = settled(a_round({1: "Qh Qd 9c 7s 3h", 2: "Ac Kd 9h 6s 4c"}, "As Ks 9d 6h 4d",
                                 [bet(1), bet(2)]))  # fmt: skip
    assert [line(settlement, 1, w).outcome for w in ("ANTE", "BET")] == [Outcome.WIN] * 0 + [
        Outcome.RETURNED, Outcome.WIN]  # fmt: skip
    assert [line(settlement, 2, w).outcome for w in ("ANTE", "BET")] == [Outcome.PUSH] * 2
    lost = settled(a_round({1: "Jh Jd 9c 7s 3h"}, "Qs Qc 9d 6h 4d", [bet(1)]))
    assert [line(lost, 1, w).outcome for w in ("ANTE", "BET")] == [Outcome.LOSE] * 2


def test_589_11_e_2_i_and_12_d_a_dealer_who_does_not_qualify_pays_the_ante_1_to_1():
    settlement = settled(a_round({1: "9h 9d 4c 7s 3h"}, "Qs Jc 8d 6h 2d",
                                 [bet(1), Decision(seat=1, choice="no_force")]))  # fmt: skip
    ante = line(settlement, 1, "ANTE")
    assert (ante.outcome, ante.amount_cents, ante.section) == (Outcome.WIN, 1000, "589.12(d)")
    assert line(settlement, 1, "BET").outcome is Outcome.RETURNED


def test_589_11_e_2_ii_forcing_costs_a_fee_and_the_dealer_swaps_his_highest_card():
    hands, dealer = {1: "9h 9d 9c 7s 3h"}, "Qs Jc 8d 6h 2d"
    force = [bet(1), Decision(seat=1, choice="force", amount_cents=1000)]
    # The queen goes; an 8 pairs the dealer: he qualifies and loses to three nines.
    pairs = settled(a_round(hands, dealer, [*force, CardDealt(
        card=parse_cards("8c")[0], recipient=Recipient.DEALER, spot="6")]))  # fmt: skip
    fee = line(pairs, 1, "FORCE_FEE")
    assert (fee.outcome, fee.amount_cents, fee.counterparty) == (Outcome.FORFEITED, 1000, FEE)
    assert fee.movement.payee == FEE and fee.section == "589.11(e)(2)(ii)"
    assert line(pairs, 1, "BET").amount_cents == 2000 * 3
    # An ace-high replacement without a king is still no ace-king: Ante and Bet returned.
    still = settled(a_round(hands, dealer, [*force, CardDealt(
        card=parse_cards("Ac")[0], recipient=Recipient.DEALER, spot="6")]))  # fmt: skip
    assert [line(still, 1, w).outcome for w in ("ANTE", "BET")] == [Outcome.RETURNED] * 2
    assert line(still, 1, "FORCE_FEE").outcome is Outcome.FORFEITED


def test_589_11_e_2_the_force_decision_is_asked_only_when_the_dealer_does_not_qualify():
    events = a_round({1: "9h 9d 4c 7s 3h"}, "Qs Qc 8d 6h 2d", [bet(1)])
    state = open_round(game.GAME, events[0])
    for event in events[1:]:
        state = apply(state, event)
    with pytest.raises(RuleViolation, match=r"589\.11\(b\)"):  # the round is at its showdown
        apply(state, Decision(seat=1, choice="force", amount_cents=1000))


def test_589_11_d_2_a_sixth_card_is_bought_for_a_fee_and_all_six_cards_play():
    events = a_round({1: "Ah 5h 9h Jh 2c"}, "Ks Kc 8d 6c 3d",
                     [Decision(seat=1, choice="sixth_card", amount_cents=1000),
                      *drawn(1, "Qh"), bet(1)])  # fmt: skip
    settlement = settled(events)
    fee = line(settlement, 1, "OPTIONS_FEE")
    assert (fee.amount_cents, fee.counterparty, fee.section) == (1000, FEE, "589.11(d)(2)(i)")
    assert line(settlement, 1, "BET").amount_cents == 2000 * 5  # a flush with the sixth card


def test_589_11_d_2_an_exchange_replaces_the_discards_and_a_fold_forfeits_the_ante():
    discard = Decision(seat=1, choice="exchange", amount_cents=1000, params={"discard": "2,3,4,5"})
    events = a_round({1: "Ah 5c 9d Jh 2c"}, "Ks Kc 8d 6c 3d",
                     [discard, *drawn(1, "4s 6d 7c 8h"), Decision(seat=1, choice="fold")])
    settlement = settled(events)
    assert line(settlement, 1, "ANTE").outcome is Outcome.FORFEITED
    assert line(settlement, 1, "ANTE").section == "589.11(d)(2)(iv)"
    assert line(settlement, 1, "OPTIONS_FEE").counterparty == FEE
    kept = settled(a_round({1: "Ah 5c 9d Jh 2c"}, "Ks Kc 8d 6c 3d",
                           [discard, *drawn(1, "Ad Ac 7c 8h"), bet(1)]))  # fmt: skip
    assert line(kept, 1, "BET").pay_line.startswith("THREE_OF_A_KIND")


def test_589_11_b_3_an_exchange_names_two_to_five_of_the_five_cards():
    events = a_round({1: "Ah 5c 9d Jh 2c"}, "Ks Kc 8d 6c 3d")
    state = open_round(game.GAME, events[0])
    for event in events[1:]:
        state = apply(state, event)
    for discard in ("3", "1,1", "6,7", ""):
        with pytest.raises(RuleViolation, match=r"589\.11\(b\)\(3\)"):
            apply(state, Decision(seat=1, choice="exchange", amount_cents=1000,
                                  params={"discard": discard}))  # fmt: skip
    with pytest.raises(RuleViolation, match=r"589\.11\(b\)"):  # a fee equals the Ante
        apply(state, Decision(seat=1, choice="sixth_card", amount_cents=500))


def test_589_11_d_2_draw_cards_go_clockwise_from_the_dealers_left():
    events = a_round({1: "Ah 5h 9h Jh 2c", 2: "Kd 5d 9d Jd 2s"}, "Ks Kc 8d 6c 3d",
                     [Decision(seat=1, choice="sixth_card", amount_cents=1000),
                      Decision(seat=2, choice="sixth_card", amount_cents=1000)])  # fmt: skip
    state = open_round(game.GAME, events[0])
    for event in events[1:]:
        state = apply(state, event)
    with pytest.raises(RuleViolation, match=r"589\.11\(d\)\(2\).*seat 1"):
        apply(state, drawn(2, "Qd")[0])
    with pytest.raises(RuleViolation, match=r"589\.11\(d\)\(2\)"):
        apply(state, drawn(1, "Qh", first_spot=7)[0])


def test_589_11_b_2_and_12_a_a_straight_flush_is_declared_and_paid_at_once_never_bet():
    events = a_round({1: "5h 6h 7h 8h 9h"}, "Ks Kc 8d 6c 3d")
    state = open_round(game.GAME, events[0])
    for event in events[1:]:
        state = apply(state, event)
    with pytest.raises(RuleViolation, match=r"589\.11\(b\)\(2\)"):
        apply(state, bet(1))
    settlement = settled([*events, Decision(seat=1, choice="declare")])
    ante = line(settlement, 1, "ANTE")
    assert (ante.outcome, ante.amount_cents, ante.section) == (Outcome.WIN, 500_000, "589.12(a)")
    table_h = settled([opened(instant_table="H"), *events[1:], Decision(seat=1, choice="declare")])
    assert line(table_h, 1, "ANTE").amount_cents == 300_000
    plain = a_round({1: "5h 6h 7h 8h 2c"}, "Ks Kc 8d 6c 3d")
    with pytest.raises(RuleViolation, match=r"589\.11\(b\)\(2\)"):
        replay([*plain, Decision(seat=1, choice="declare")]).final_state  # noqa: B018


def test_589_12_b_the_super_wager_needs_a_reading_of_its_defective_table():
    with pytest.raises(RuleViolation, match=r"589\.12\(b\)"):
        open_round(game.GAME, opened(super_offered=True))
    closed = a_round({1: "Ah Kd 7h 7c 2s"}, "Ks Kc 8d 6c 3d")
    state = open_round(game.GAME, closed[0])
    with pytest.raises(RuleViolation, match=r"589\.7\(c\)\(2\)"):
        apply(state, WagerPlaced(seat=1, wager="SUPER", amount_cents=500))


@pytest.mark.parametrize(("reading", "paid"), [("literal", 3000), ("ace_king_high", None)])
def test_589_11_c_2_and_6_d_7_the_super_wager_on_ace_king_under_each_reading(reading, paid):
    super_bet = [WagerPlaced(seat=1, wager="SUPER", amount_cents=500)]
    settlement = settled(a_round({1: "Ah Kd 7h 7c 2s"}, "Ks Kc 8d 6c 3d", [bet(1)],
                                 extra=super_bet, super_offered=True, super_reading=reading))
    won = line(settlement, 1, "SUPER")
    assert won.amount_cents == (paid or 500)
    assert won.outcome is (Outcome.WIN if paid else Outcome.LOSE)
    assert ("super_reading", reading) in settlement.options_applied


def test_589_13_a_void_returns_the_wagers_and_keeps_a_fee_unless_the_rule_set_says():
    after = [Decision(seat=1, choice="sixth_card", amount_cents=1000),
             IrregularityReported(kind=IrregularityKind.SHOE_MALFUNCTION)]  # fmt: skip
    settlement = settled(a_round({1: "Ah 5h 9h Jh 2c"}, "Ks Kc 8d 6c 3d", after))
    assert settlement.voided and line(settlement, 1, "ANTE").outcome is Outcome.RETURNED
    assert line(settlement, 1, "OPTIONS_FEE").counterparty == FEE
    returned = settled(a_round({1: "Ah 5h 9h Jh 2c"}, "Ks Kc 8d 6c 3d", after,
                               fees_on_void="returned"))  # fmt: skip
    assert line(returned, 1, "OPTIONS_FEE").outcome is Outcome.RETURNED


def test_589_1_options_fees_are_revenue_never_handle():
    from tables.reconciliation import PlayTally

    assert game.GAME.handle_wagers == ("ANTE", "BET", "SUPER")
    events = a_round({1: "Ah 5h 9h Jh 2c"}, "Ks Kc 8d 6c 3d",
                     [Decision(seat=1, choice="sixth_card", amount_cents=1000),
                      *drawn(1, "Qh"), bet(1)])  # fmt: skip
    settlement = settled(events)
    actions = [DealerCollected(seat=1, wager="OPTIONS_FEE", amount_cents=1000)]
    result = replay([*events, *actions], tuple(Automation))
    tally = PlayTally()
    tally.add_round(result, len(result.events))
    assert tally.handle_cents == 3000 and tally.collected_cents == 1000
    assert {m.payee for m in settlement.movements if m.wager == "OPTIONS_FEE"} == {FEE}
    assert all(m.payer == HOUSE for m in settlement.movements if m.wager == "BET")


@pytest.mark.slow
def test_589_12_b_super_edges_are_exact_and_show_the_printed_table_is_defective():
    from tables.rules.parsheets import lunar_poker as sheet

    counts = {reading: sheet.super_sheet("A", reading) for reading in ("literal", "ace_king_high")}
    assert all(s.total == sum(row.combinations for row in s.rows) for s in counts.values())
    # Counted by hand from the category counts: both readings return more than staked.
    assert counts["literal"].house_edge == Fraction(-1_268_388, 2_598_960)
    assert counts["ace_king_high"].house_edge == Fraction(-654_720, 2_598_960)


def test_simulated_rounds_draw_force_and_replay_find_every_injected_error():
    from tables.rules.registry import ruleset
    from tables.rules.simulate import DealerError
    from tables.rules.simulate_declared import simulate_declared

    seen = set()
    for seed in range(40):
        sim = simulate_declared(random.Random(seed), ruleset("PA-589-2013"), seats=(1, 2, 3, 4, 5),
                                dealer_errors=[DealerError.MISPAY_FIRST_WIN] if seed % 2 else [])
        result = replay(sim.events)
        assert result.final_state.phase == "closed"
        assert [(f.kind, f.seat, f.wager) for f in result.findings] == [
            (i.expected_finding, i.seat, i.wager) for i in sim.injected]
        seen |= {c for seat in result.final_state.seats.values() for c in seat.choices.values()}
    assert {"sixth_card", "exchange", "fold", "bet", "force", "no_force"} <= seen


def test_589_finance_edge_is_the_par_sheets_and_agrees_with_a_fresh_simulation():
    from tables.rules.house_edge import house_edges
    from tables.rules.parsheets import lunar_poker as sheet

    ante, bet, super_ = house_edges("PA-589-2013")
    assert ante.edge == sheet.edge("A") and ante.half_width == sheet.MAIN_HALF_WIDTH
    assert (bet.edge, super_.edge) == (0, 0)  # the Bet is a decision; no Super without a reading
    # § 589.12(a): a richer instant table lowers the edge by exactly its extra value.
    assert sheet.edge("H") - sheet.edge("A") == Fraction(4 * 900 + 36 * 200, 2_598_960)
    fresh, half, _ = sheet.main_game(20_000, 7)
    assert abs(fresh - sheet.MAIN_RESULT) <= half + sheet.MAIN_HALF_WIDTH


def test_589_2_a_7_e_and_11_b_2_seats_positions_and_the_bet_of_twice_the_ante():
    with pytest.raises(RuleViolation, match=r"589\.2\(a\)"):
        open_round(game.GAME, opened(seats=(1, 2, 3, 4, 5, 6)))
    twice = RoundOpened.build(
        round_id="R-2", game="lunar_poker", ruleset_id="PA-589-2013", table_id="LP-1",
        gaming_day=DAY, seats=(1, 2), players=("P1", "P1"),
        dealing_method=DealingMethod.MANUAL_SHOE)  # fmt: skip
    state = apply(open_round(game.GAME, twice), WagerPlaced(seat=1, wager="ANTE", amount_cents=500))
    with pytest.raises(RuleViolation, match=r"589\.7\(e\)"):
        apply(state, WagerPlaced(seat=2, wager="ANTE", amount_cents=500))
    events = a_round({1: "Qh Qd 9c 7s 3h"}, "As Ks 9d 6h 4d")
    state = open_round(game.GAME, events[0])
    for event in events[1:]:
        state = apply(state, event)
    with pytest.raises(RuleViolation, match=r"589\.11\(b\)\(2\)"):
        apply(state, Decision(seat=1, choice="bet", amount_cents=1000))


def test_589_gaming_days_after_the_chapter_was_rescinded_are_refused():
    late = RoundOpened.build(
        round_id="R-9", game="lunar_poker", ruleset_id="PA-589-2013", table_id="LP-1",
        gaming_day=datetime.date(2016, 8, 27), seats=(1,), players=("P1",),
        dealing_method=DealingMethod.MANUAL_SHOE)  # fmt: skip
    with pytest.raises(RuleViolation, match="not in force"):
        open_round(game.GAME, late)


def test_589_11_c_the_instant_payout_and_the_super_are_paid_once_decisions_are_locked_in():
    from tables.rules.events import DealerPaid

    super_bet = [WagerPlaced(seat=2, wager="SUPER", amount_cents=500)]
    events = a_round({1: "5h 6h 7h 8h 9h", 2: "Ah Kd 7d 7c 2s"}, "Ks Kc 8d 6c 3d",
                     extra=super_bet, super_offered=True, super_reading="literal")
    state = open_round(game.GAME, events[0])
    for event in events[1:]:
        state = apply(state, event)
    state = apply(state, Decision(seat=1, choice="declare"))
    paid = DealerPaid(seat=1, wager="ANTE", amount_cents=500_000)
    with pytest.raises(RuleViolation, match=r"589\.11\(e\)"):  # seat 2 has yet to decide
        apply(state, paid)
    state = apply(state, bet(2))
    state = apply(apply(state, paid), DealerPaid(seat=2, wager="SUPER", amount_cents=3000))
    with pytest.raises(RuleViolation, match=r"589\.11\(e\)"):  # the Bet waits for the dealer
        apply(state, DealerPaid(seat=2, wager="BET", amount_cents=2000))
