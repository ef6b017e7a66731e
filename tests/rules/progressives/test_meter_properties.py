"""Property tests of the meter's invariants over arbitrary streams (hypothesis draws them).

Each drawn event is offered to the fold; the refused ones are left out, as the
ledger would refuse them, and the invariants are checked over what was applied.
"""

from __future__ import annotations

import datetime
import json
from dataclasses import dataclass
from fractions import Fraction

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tables.rules.progressives.chapters import CHAPTERS
from tables.rules.progressives.checkpoint import restore, snapshot
from tables.rules.progressives.events import (
    MeterAdjusted,
    MeterContributed,
    MeterRead,
    MeterReset,
    OddCents,
    RateBase,
    ReadingOccasion,
)
from tables.rules.progressives.meter import (
    Adjustment,
    Contribution,
    Payment,
    PaymentSource,
    Reset,
    apply,
    fold,
    split_equally,
    verify,
)

from .meters import DAY, configured, contributed, hit, paid

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

chapters = st.sampled_from(["555", "587", "588"])
days = st.integers(min_value=0, max_value=4).map(lambda n: DAY + datetime.timedelta(days=n))
tables = st.sampled_from(["T-01", "T-02", "T-09"])
rounds = st.sampled_from(["r1", "r2"])
seats = st.integers(min_value=1, max_value=7)
amounts = st.sampled_from([100, 500])


@dataclass(frozen=True)
class PayNext:
    """Pay the next winner due (the one the regulation's order names) ``paid_cents``."""

    paid_cents: int


@dataclass(frozen=True)
class ResetDue:
    """Reset the meter to the amount due, when a reset is due."""


def resolve(state, candidate):
    """Turn a :class:`PayNext` or :class:`ResetDue` into the event it stands for."""
    if isinstance(candidate, ResetDue):
        due = state.reset_due
        return MeterReset(amount_cents=due[0]) if due else None
    if isinstance(candidate, PayNext):
        if state.sharing:
            winner = state.sharing[0].hit
        elif state.pending:
            first = state.pending[0]
            winner = max(
                (
                    h
                    for h in state.pending
                    if (h.table, h.round_id) == (first.table, first.round_id)
                ),
                key=lambda h: h.seat,
            )
        else:
            return None
        return paid(winner.seat, candidate.paid_cents, table=winner.table, round_id=winner.round_id)
    return candidate


def events_for(chapter: str):
    rules = CHAPTERS[chapter]
    hands = st.sampled_from([line.hand for line in rules.schedule])
    wagers = st.sampled_from(rules.wager_amounts_cents or (100, 500))
    linked = st.sampled_from(["T-01", "T-02"])
    hits = st.builds(
        lambda seat, hand, table, round_id, amount, day: hit(
            seat, hand, table=table, round_id=round_id, wager=amount, day=day
        ),
        seats,
        hands,
        linked,
        rounds,
        wagers,
        days,
    )
    return st.one_of(
        st.builds(
            lambda table, round_id, wagers, amount, day: contributed(
                wagers, table=table, round_id=round_id, amount=amount, day=day
            ),
            tables,
            rounds,
            st.integers(min_value=1, max_value=7),
            amounts,
            days,
        ),
        hits,
        hits,
        st.builds(
            lambda seat, amount, table, round_id: paid(
                seat, amount, table=table, round_id=round_id
            ),
            seats,
            st.integers(min_value=0, max_value=3_000_000),
            tables,
            rounds,
        ),
        st.builds(PayNext, st.integers(min_value=0, max_value=3_000_000)),
        st.builds(PayNext, st.integers(min_value=0, max_value=3_000_000)),
        st.just(ResetDue()),
        st.builds(MeterReset, amount_cents=st.sampled_from([0, 1_000_000, 1_000_001])),
        st.builds(
            MeterAdjusted,
            amount_cents=st.integers(min_value=-2_000_000, max_value=2_000_000).filter(bool),
            reason=st.just("controller fault"),
            proposed_by=st.sampled_from(["finance-1", "super-2"]),
            confirmed_by=st.sampled_from(["finance-1", "super-2"]),
        ),
        st.builds(
            MeterRead,
            table=tables,
            gaming_day=days,
            occasion=st.sampled_from(list(ReadingOccasion)),
            displayed_cents=st.integers(min_value=0, max_value=3_000_000),
        ),
        st.builds(
            lambda day, rate: configured(chapter, effective_from=day, rate_numerator=rate),
            days,
            st.integers(min_value=60, max_value=100),
        ),
    )


@st.composite
def streams(draw):
    chapter = draw(chapters)
    return chapter, draw(st.lists(events_for(chapter), max_size=60))


def applied(chapter, candidates):
    """Offer each event in turn; yield ``(amount before, effect, amount after)`` of the applied."""
    state = apply(None, configured(chapter)).state
    for candidate in candidates:
        event = resolve(state, candidate)
        if event is None:
            continue
        refusal = verify(state, event)
        if refusal is not None:
            assert refusal.section and refusal.reason
            continue
        step = apply(state, event)
        yield state.amount_cents, step.effect, step.state.amount_cents
        state = step.state


@SETTINGS
@given(stream=streams())
def test_a_meter_never_decreases_except_by_a_payout_or_a_signed_adjustment(stream):
    chapter, candidates = stream
    for before, effect, after in applied(chapter, candidates):
        assert after >= 0
        if isinstance(effect, Payment) and effect.source is PaymentSource.METER:
            assert after == before - effect.required_cents
        elif isinstance(effect, Adjustment):
            assert after == before + effect.amount_cents
        else:
            assert after >= before, effect


@SETTINGS
@given(stream=streams())
def test_opening_plus_contributions_less_payouts_plus_adjustments_and_resets_is_the_meter(stream):
    chapter, candidates = stream
    amount = configured(chapter).initial_cents
    final = amount
    for _, effect, after in applied(chapter, candidates):
        if isinstance(effect, Contribution):
            amount += effect.meter_cents
        elif isinstance(effect, Payment) and effect.source is PaymentSource.METER:
            amount -= effect.required_cents
        elif isinstance(effect, Adjustment | Reset):
            amount += effect.amount_cents
        final = after
    assert final == amount


@SETTINGS
@given(
    batches=st.lists(st.lists(amounts, min_size=1, max_size=7), min_size=1, max_size=30),
    rate=st.fractions(min_value=Fraction(14, 100), max_value=1, max_denominator=997),
    reserve=st.fractions(min_value=0, max_value=Fraction(9, 10), max_denominator=13),
    per_wager=st.booleans(),
)
def test_contributions_sum_to_the_rate_of_everything_wagered_whatever_the_batches(
    batches, rate, reserve, per_wager
):
    terms = configured(
        "587",
        rate_numerator=rate.numerator,
        rate_denominator=rate.denominator,
        reserve_numerator=reserve.numerator,
        reserve_denominator=reserve.denominator,
        rate_base=RateBase.PER_WAGER if per_wager else RateBase.AMOUNT_WAGERED,
        rate_base_cents=100 if per_wager else 0,
    )
    events = [terms] + [
        MeterContributed(round_id=f"r{n}", table="T-01", gaming_day=DAY, wagers_cents=tuple(b))
        for n, b in enumerate(batches)
    ]
    folded = fold(events)
    base = sum(100 * len(b) if per_wager else sum(b) for b in batches)
    exact = rate * base
    contributions = [e for e in folded.effects if isinstance(e, Contribution)]
    to_meter = sum(e.meter_cents for e in contributions)
    to_reserve = sum(e.reserve_cents for e in contributions)
    assert to_meter == int(exact * (1 - reserve))  # floor: both are non-negative
    assert to_reserve == int(exact * reserve)
    assert folded.state.amount_cents == terms.initial_cents + to_meter
    assert folded.state.reserve_cents == to_reserve


@SETTINGS
@given(
    amount=st.integers(min_value=0, max_value=10**9),
    sharers=st.integers(min_value=1, max_value=7),
    odd_cents=st.sampled_from(list(OddCents)),
)
def test_555_13_f_equal_shares_sum_to_the_amount_shared(amount, sharers, odd_cents):
    shares = split_equally(amount, sharers, odd_cents)
    assert len(shares) == sharers
    assert max(shares) - min(shares) <= 1
    assert list(shares) == sorted(shares, reverse=True)  # odd cents to the first paid
    if odd_cents is OddCents.FIRST_IN_PAYMENT_ORDER:
        assert sum(shares) == amount
    else:
        assert sum(shares) == amount - amount % sharers


@SETTINGS
@given(
    initial=st.integers(min_value=0, max_value=10**8),
    royal_seats=st.sets(seats, min_size=2, max_size=7),
    odd_cents=st.sampled_from(list(OddCents)),
)
def test_555_13_f_royal_flushes_are_paid_the_whole_meter_between_them(
    initial, royal_seats, odd_cents
):
    events = [configured(initial_cents=initial, odd_cents=odd_cents)]
    events += [hit(seat, "ROYAL_FLUSH") for seat in sorted(royal_seats)]
    state = fold(events).state
    effects = []
    for seat in sorted(royal_seats, reverse=True):
        step = apply(state, paid(seat, 0))
        state, effects = step.state, [*effects, step.effect]
    total = sum(effect.required_cents for effect in effects)
    assert all(effect.meter_before_cents == initial for effect in effects)
    assert all(effect.shared_among == len(royal_seats) for effect in effects)
    assert total + state.amount_cents == initial  # what is not paid is carried to the reset
    reset = apply(state, MeterReset(amount_cents=1_000_000))
    assert reset.state.amount_cents == 1_000_000 + initial - total


@SETTINGS
@given(stream=streams(), reserve=st.sampled_from([(0, 1), (1, 10), (3, 7)]))
def test_a_fold_resumed_from_a_snapshot_of_its_state_is_the_whole_fold(stream, reserve):
    """Issue 11 (speed): the close resumes a meter from the state an earlier close wrote
    as JSON; from every point of any stream, the rest folds to the same effects and state,
    pending hits, shares of a whole meter (§ 555.13(f)), a reset due (§ 555.13(e)), the
    fractions of a cent carried and the reserve among them."""
    chapter, candidates = stream
    first = configured(chapter, reserve_numerator=reserve[0], reserve_denominator=reserve[1])
    state = apply(None, first).state
    events = [first]
    for candidate in candidates:
        event = resolve(state, candidate)
        if event is not None and verify(state, event) is None:
            state = apply(state, event).state
            events.append(event)
    whole = fold(events)
    for cut in range(1, len(events) + 1):
        head = fold(events[:cut])
        resumed = restore(json.loads(json.dumps(snapshot(head.state))))
        assert resumed == head.state
        effects = []
        for event in events[cut:]:
            step = apply(resumed, event)
            resumed, effects = step.state, [*effects, step.effect]
        assert resumed == whole.state
        assert (*head.effects, *effects) == whole.effects
