"""The close's meter reconciliation from the checkpoint an earlier day's close left
(issue 11, speed): every figure and variance of each day as the fold of the whole
stream gives them, over days with a royal flush sharing the meter and its reset
(§ 555.13(f)), a hit pending across midnight paid at the player's turn the next
day (§ 555.13(e)), a signed adjustment, a configuration change effective mid-history
and an event of a closed day recorded after its close; the whole stream folded
where the checkpoint is missing or does not match."""

from __future__ import annotations

import datetime

import pytest

from audit.ledger import Actor, head_position
from operations.meters import _read_meters, reconcile_meters
from progressives import service
from progressives.models import MeterCheckpoint
from tables.rules.progressives.chapters import CARIBBEAN_STUD_555
from tables.rules.progressives.events import MeterConfigured, OddCents, RateBase, ReadingOccasion

pytestmark = pytest.mark.django_db

SYSTEM = Actor.system("meters")
SUPERVISOR = Actor(username="shift_supervisor", roles=frozenset({"shift supervisor"}))
FINANCE = Actor(username="finance", roles=frozenset({"finance"}))
METER = "CSP-CK"
STREAM = f"meter:{METER}"
D1 = datetime.date(2024, 5, 1)
D2, D3, D4 = (D1 + datetime.timedelta(days=n) for n in (1, 2, 3))
#: What the tables' rounds accepted, per table: CSP-03 is linked from D3 only.
ACCEPTED = {"CSP-01": 700, "CSP-02": 300, "CSP-03": 500}


def configure(effective_from, tables, rate_numerator, rate_denominator, reserve=(0, 1)):
    service.configure(MeterConfigured(
        meter_id=METER, effective_from=effective_from, chapter="555", tables=tables,
        wager_amounts_cents=(100,), rate_numerator=rate_numerator,
        rate_denominator=rate_denominator, reserve_numerator=reserve[0],
        reserve_denominator=reserve[1], rate_base=RateBase.AMOUNT_WAGERED,
        initial_cents=1_000_000, reset_cents=1_000_000, schedule=CARIBBEAN_STUD_555.schedule,
        share_rounding="round_down_to_cent", odd_cents=OddCents.FIRST_IN_PAYMENT_ORDER),
        actor=SUPERVISOR)  # fmt: skip


def contribute(round_id, table, day, wagers, hits=()):
    service.record_round(METER, round_id=round_id, table=table, gaming_day=day,
                         wagers_cents=(100,) * wagers, hits=hits, actor=SYSTEM)  # fmt: skip


def pay(round_id, table, seat, amount_cents):
    service.record_payment(METER, round_id=round_id, table=table, seat=seat,
                           amount_cents=amount_cents, validated_by="floorperson",
                           actor=SYSTEM)  # fmt: skip


def read(table, day, occasion, displayed_cents):
    service.record_reading(METER, table=table, gaming_day=day, occasion=occasion,
                           displayed_cents=displayed_cents, actor=SYSTEM)  # fmt: skip


def both_ways(day):
    """The day reconciled from the whole stream and from the checkpoint, and the start used."""
    cutoff = head_position()
    whole = reconcile_meters(day, cutoff, {}, ACCEPTED, checkpoints=False)
    starts, _ = _read_meters([STREAM], day, cutoff, checkpoints=True)
    resumed = reconcile_meters(day, cutoff, {}, ACCEPTED)
    return whole, resumed, starts.get(STREAM)


def test_a_meter_s_days_from_the_checkpoint_are_the_whole_fold_s(ledger_clock):
    configure(D1, ("CSP-01", "CSP-02"), 70, 100)
    read("CSP-01", D1, ReadingOccasion.OPENING, 1_000_000)
    contribute("r1", "CSP-01", D1, 5)
    # § 555.13(f): two royal flushes share the meter, paid together, then the reset.
    contribute("r2", "CSP-01", D1, 2, hits=((5, "ROYAL_FLUSH", 100), (3, "ROYAL_FLUSH", 100)))
    pay("r2", "CSP-01", 5, 500_253)
    pay("r2", "CSP-01", 3, 500_252)
    service.record_reset(METER, amount_cents=1_000_000, actor=SYSTEM)
    # A straight flush at the day's last round, paid after midnight.
    contribute("r3", "CSP-02", D1, 3, hits=((2, "STRAIGHT_FLUSH", 100),))
    read("CSP-02", D1, ReadingOccasion.CLOSING, 1_000_210)
    whole, resumed, start = both_ways(D1)
    assert whole == resumed and start is None  # the first close: no checkpoint yet
    assert whole[0]["resets_cents"] == 1_000_000 and whole[0]["payouts_cents"] > 0

    contribute("r4", "CSP-01", D2, 4)
    pay("r3", "CSP-02", 2, 100_000)  # § 555.13(e): 10 % of the meter at the player's turn
    proposal = service.propose_adjustment(METER, amount_cents=-1_500, reason="controller fault",
                                          actor=SUPERVISOR)  # fmt: skip
    service.confirm_adjustment(METER, proposal_version=proposal.last_version, amount_cents=-1_500,
                               reason="controller fault", proposed_by=SUPERVISOR.username,
                               actor=FINANCE)  # fmt: skip
    read("CSP-01", D2, ReadingOccasion.CLOSING, 900_000)
    whole, resumed, start = both_ways(D2)
    assert whole == resumed and start is not None and start.state.pending  # the hit waited
    assert whole[0]["adjustments_cents"] == -1_500 and whole[0]["variances"]

    # A reading of D2 recorded after its close, and a configuration from D3 linking
    # CSP-03 at a rate that carries fractions of a cent (§ 555.13(e): at least 70 %), a
    # tenth of it to the reserve.
    read("CSP-02", D2, ReadingOccasion.CLOSING, 912_345)
    configure(D3, ("CSP-01", "CSP-02", "CSP-03"), 71, 99, reserve=(1, 10))
    contribute("r5", "CSP-03", D3, 7)
    contribute("r6", "CSP-02", D3, 1)
    whole, resumed, start = both_ways(D3)
    assert whole == resumed and start is not None
    assert whole[0]["tables"] == ["CSP-01", "CSP-02", "CSP-03"]
    assert any(v["kind"] == "meter_contributions" for v in whole[0]["variances"])

    contribute("r7", "CSP-03", D4, 3)
    whole, resumed, start = both_ways(D4)
    assert whole == resumed and start is not None and start.state.carry.meter
    assert start.state.reserve_cents > 0
    assert {c.gaming_day for c in MeterCheckpoint.objects.all()} == {D1, D2, D3, D4}

    # A re-run of an earlier close starts from the checkpoint of the day before it.
    whole, resumed, start = both_ways(D2)
    assert whole == resumed and start is not None
    assert MeterCheckpoint.objects.get(gaming_day=D1).version == start.version


def test_a_checkpoint_that_does_not_match_the_stream_is_not_used(ledger_clock):
    configure(D1, ("CSP-01",), 70, 100)
    first = head_position()
    contribute("r1", "CSP-01", D1, 5)
    reconcile_meters(D1, head_position(), {}, ACCEPTED)
    contribute("r2", "CSP-01", D2, 5)
    cutoff = head_position()
    expected = reconcile_meters(D2, cutoff, {}, ACCEPTED, checkpoints=False)
    checkpoint = MeterCheckpoint.objects.get(gaming_day=D1)
    assert _read_meters([STREAM], D2, cutoff, checkpoints=True)[0][STREAM].state is not None
    # Past the close's cutoff: the close of an earlier moment folds the whole stream.
    assert _read_meters([STREAM], D2, first, checkpoints=True)[0] == {}
    # Not the stream's event at its version: a wrong state is not believed.
    good = (checkpoint.event_hash, checkpoint.state)
    checkpoint.event_hash, checkpoint.state = "0" * 64, {**good[1], "amount_cents": 1}
    checkpoint.save()
    assert _read_meters([STREAM], D2, cutoff, checkpoints=True)[0] == {}
    assert reconcile_meters(D2, cutoff, {}, ACCEPTED) == expected
    # A snapshot of another format (another fold) is not restored.
    checkpoint.event_hash, checkpoint.state = good[0], {**good[1], "format": 0}
    checkpoint.save()
    assert _read_meters([STREAM], D2, cutoff, checkpoints=True)[0] == {}
    assert reconcile_meters(D2, cutoff, {}, ACCEPTED) == expected
