"""Property-based tests over simulated rounds (hypothesis draws the seed)."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tables.rules.engine import Outcome, RuleViolation
from tables.rules.events import (
    CardDealt,
    DealerCollected,
    DealerPaid,
    NoMoreBets,
    PlayerFolded,
    Recipient,
    RoundClosed,
    Wager,
    WagerPlaced,
    WagerReturned,
)
from tables.rules.replay import replay
from tables.rules.rulesets import MA_DCP, PA_592_2014, PA_674A_2016, PA_674A_2019
from tables.rules.simulate import Strategy, simulate_criss_cross, simulate_double_cross

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
seeds = st.integers(min_value=0, max_value=2**32 - 1)
seat_sets = st.lists(
    st.integers(min_value=1, max_value=6), min_size=1, max_size=6, unique=True
).map(sorted)
STRATEGY = Strategy(fold_percent=20)


def _simulate(seed: int, seats, game: str):
    rng = random.Random(seed)
    if game == "double_cross":
        return simulate_double_cross(rng, MA_DCP, seats=seats, strategy=STRATEGY)
    ruleset = {"592": PA_592_2014, "2016": PA_674A_2016, "2019": PA_674A_2019}[game]
    return simulate_criss_cross(rng, ruleset, seats=seats, strategy=STRATEGY)


games = st.sampled_from(["592", "2016", "2019", "double_cross"])


@SETTINGS
@given(seed=seeds, seats=seat_sets, game=games)
def test_money_is_conserved_in_every_legal_round(seed, seats, game):
    events = _simulate(seed, seats, game).events
    result = replay(events)
    stakes = {}
    for event in events:
        if isinstance(event, WagerPlaced):
            stakes[(event.seat, event.wager)] = event.amount_cents
        elif type(event).__name__ == "PlayDeclared":
            stakes[(event.seat, Wager.RAISE_1)] = event.raise_1_cents
            stakes[(event.seat, Wager.RAISE_2)] = event.raise_2_cents
    collected = sum(e.amount_cents for e in events if isinstance(e, DealerCollected))
    returned = sum(e.amount_cents for e in events if isinstance(e, WagerReturned))
    paid = sum(e.amount_cents for e in events if isinstance(e, DealerPaid))
    kept_by_winners = sum(
        line.stake_cents for line in result.settlement.lines if line.outcome is Outcome.WIN
    )
    assert sum(stakes.values()) == collected + returned + kept_by_winners
    assert paid == result.settlement.total_paid_cents
    assert collected == result.settlement.total_collected_cents
    assert {(line.seat, line.wager) for line in result.settlement.lines} == set(stakes)


@SETTINGS
@given(seed=seeds, seats=seat_sets, game=games)
def test_replay_is_deterministic(seed, seats, game):
    events = _simulate(seed, seats, game).events
    first, second = replay(events), replay(list(events))
    assert first.settlement == second.settlement
    assert first.findings == second.findings
    assert first.states[-1] == second.states[-1]
    assert _simulate(seed, seats, game).events == events


@SETTINGS
@given(seed=seeds, seats=seat_sets, game=games, data=st.data())
def test_any_single_change_to_one_recorded_payout_gives_exactly_one_finding(
    seed, seats, game, data
):
    events = list(_simulate(seed, seats, game).events)
    payouts = [i for i, e in enumerate(events) if isinstance(e, DealerPaid)]
    if not payouts:
        return
    index = data.draw(st.sampled_from(payouts))
    original = events[index]
    amount = data.draw(
        st.integers(min_value=1, max_value=10**7).filter(
            lambda value: value != original.amount_cents
        )
    )
    events[index] = DealerPaid(seat=original.seat, wager=original.wager, amount_cents=amount)
    (finding,) = replay(events).findings
    assert (finding.seat, finding.wager) == (original.seat, original.wager)
    assert (finding.expected_cents, finding.recorded_cents) == (original.amount_cents, amount)


def _illegal_insertions(events):
    """Events that can never legally follow any prefix after the deal began."""
    opened = events[0]
    seat = opened.seats[0]
    dealt = next(e for e in events if isinstance(e, CardDealt))
    return [
        WagerPlaced(
            seat=seat,
            wager=Wager.ANTE_ACROSS if opened.game == "criss_cross_poker" else Wager.ANTE,
            amount_cents=100,
        ),
        NoMoreBets(),
        CardDealt(
            card=dealt.card,
            recipient=Recipient.COMMUNITY,
            spot=dealt.position or _any_position(),
        )
        if dealt.recipient is Recipient.COMMUNITY
        else CardDealt(
            card=dealt.card, recipient=Recipient.PLAYER, seat=dealt.seat, spot=str(dealt.hole)
        ),
    ]


def _any_position():
    from tables.rules.events import Position

    return Position.TOP


@SETTINGS
@given(seed=seeds, seats=seat_sets, game=games, data=st.data())
def test_an_event_inserted_out_of_place_is_refused_with_a_section(seed, seats, game, data):
    events = list(_simulate(seed, seats, game).events)
    start = next(i for i, e in enumerate(events) if isinstance(e, NoMoreBets)) + 1
    position = data.draw(st.integers(min_value=start + 1, max_value=len(events) - 1))
    intruder = data.draw(st.sampled_from(_illegal_insertions(events)))
    with pytest.raises(RuleViolation) as caught:
        replay([*events[:position], intruder, *events[position:]])
    assert caught.value.section
    assert caught.value.index == position


@SETTINGS
@given(seed=seeds, seats=seat_sets, data=st.data())
def test_a_decision_out_of_turn_is_refused(seed, seats, data):
    events = list(_simulate(seed, seats, "2019").events)
    state = replay(events[:1]).final_state
    from tables.rules.games import criss_cross_592_674a as game

    for index, event in enumerate(events[1:], start=1):
        if state.to_act is not None and len(state.pending) > 1:
            wrong = data.draw(st.sampled_from(state.pending[1:]))
            with pytest.raises(RuleViolation) as caught:
                game.apply(state, PlayerFolded(seat=wrong))
            assert caught.value.section in ("674a.11(b)", "674a.11(d)", "674a.11(f)")
            return
        state = game.apply(state, event)
        del index


def test_a_closed_round_accepts_nothing():
    events = _simulate(1, [1, 2], "2019").events
    with pytest.raises(RuleViolation):
        replay([*events, RoundClosed()])
