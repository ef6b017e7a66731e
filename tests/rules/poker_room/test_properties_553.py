"""Random hands of every variant built so far, played to the end by random legal actions.

Whatever is played: chips are conserved (pots + rake + Bad Beat contributions
+ returned bets == everything put in, § 553.1 "Pot", § 553.15, § 553.20(c));
a player never wins more than the pots he was eligible for (§ 553.8(b)(4)(i));
a folded player only gets his uncalled bet back; no stakes go negative.
"""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from tables.rules.cards import STANDARD_DECK, parse_cards
from tables.rules.hands import evaluate_five
from tables.rules.poker_room.charges import BadBeatRules, PercentageRake
from tables.rules.poker_room.hand import (
    Phase,
    bet_or_raise_to,
    check_or_call,
    discard,
    fold,
    muck,
    open_hand,
    raise_bounds,
    show,
    verify_bet_or_raise_to,
    verify_muck,
)
from tables.rules.poker_room.rules import VARIANTS, PokerRuleSet, Structure
from tables.rules.poker_room.settlement import LineKind, settle
from tests.rules.poker_room.table import deal_all

_BAD_BEAT = BadBeatRules(
    rate=Fraction(1, 20), maximum_cents=100, unit_cents=25, minimum_pot_cents=1_000,
    qualifying_hand=evaluate_five(parse_cards("Ah Ac Ad Jh Jc")), payout_share=Fraction(1),
    losing_share=Fraction(1, 2), winning_share=Fraction(1, 4), table_share=Fraction(1, 4),
)  # fmt: skip


@st.composite
def _rules(draw):
    variant = draw(st.sampled_from(VARIANTS))
    structure = draw(st.sampled_from(list(Structure)))
    rake = draw(
        st.none() | st.builds(
            PercentageRake, rate=st.sampled_from([Fraction(1, 10), Fraction(1, 20)]),
            cap_cents=st.sampled_from([None, 300, 500]), unit_cents=st.sampled_from([1, 25, 100]),
            no_flop_no_drop=st.booleans(),
        )
    )  # fmt: skip
    options = {"blinds_cents": (25, 50)} if variant.button else {"forced_bet_cents": 25}
    return PokerRuleSet(
        variant=variant, structure=structure, small_bet_cents=50, big_bet_cents=100,
        ante_cents=draw(st.sampled_from([0, 10])), max_raises=draw(st.sampled_from([None, 3])),
        chip_cents=draw(st.sampled_from([5, 25])), rake=rake,
        bad_beat=draw(st.sampled_from([None, _BAD_BEAT])), **options,
    )  # fmt: skip


def _act(state, data):
    seat = state.to_act[0]
    choice = data.draw(st.sampled_from(["fold", "call", "call", "raise", "all-in"]))
    if choice in ("raise", "all-in"):
        smallest, largest = raise_bounds(state, seat)
        stakes = state.stacks[seat] + state.bets.get(seat, 0)
        amount = (
            stakes
            if choice == "all-in"
            else data.draw(st.integers(smallest, max(smallest, min(largest, stakes))))
        )
        if verify_bet_or_raise_to(state, seat, amount) is None:
            return bet_or_raise_to(state, seat, amount)
    if choice == "fold":
        return fold(state, seat)
    return check_or_call(state, seat)


@settings(max_examples=300, deadline=None)
@given(_rules(), st.permutations(STANDARD_DECK), st.data())
def test_553_chips_are_conserved_and_pots_go_only_to_eligible_players(rules, deck, data):
    players = data.draw(st.integers(2, rules.variant.max_players))
    stacks = {seat: data.draw(st.integers(400, 3_000)) for seat in range(1, players + 1)}
    button = data.draw(st.integers(1, players)) if rules.variant.button else None
    cards = iter(deck)
    state = deal_all(open_hand(rules, stacks, button=button), cards)
    while state.phase in (Phase.BETTING, Phase.DRAWING):
        if state.phase is Phase.DRAWING:
            seat = state.drawing[0]
            held = [card for card, _ in state.cards[seat]]
            state = discard(
                state, seat, tuple(data.draw(st.lists(st.sampled_from(held), unique=True)))
            )
        else:
            state = _act(state, data)
        state = deal_all(state, cards)
    while state.phase is Phase.SHOWDOWN:
        seat = state.showdown_order[len(state.shown) + len(state.mucked)]
        concede = data.draw(st.booleans()) and verify_muck(state, seat) is None
        state = muck(state, seat) if concede else show(state, seat)
    assert state.phase is Phase.COMPLETE
    result = settle(state)

    put_in = sum(state.contributed.values())
    house = result.total(LineKind.RAKE) + result.total(LineKind.BAD_BEAT)
    assert sum(result.received(seat) for seat in state.seats) + house == put_in
    assert sum(pot.amount_cents for pot in result.pots) + result.total(LineKind.RETURNED) == put_in
    for seat in state.seats:
        assert state.stacks[seat] >= 0
        assert state.stacks[seat] + state.contributed[seat] == stacks[seat]
        won = sum(line.amount_cents for line in result.lines
                  if line.seat == seat and line.kind is not LineKind.RETURNED)  # fmt: skip
        assert won <= sum(pot.amount_cents for pot in result.pots if seat in pot.eligible)
        if seat in state.folded:
            assert won == 0
    if rules.rake is not None:
        assert all(line.amount_cents * 10 <= result.pots[line.pot].amount_cents
                   for line in result.lines if line.kind is LineKind.RAKE)  # fmt: skip
