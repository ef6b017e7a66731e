"""Reconciling a table's gaming day: the count's win against what the ledger
says happened, and the variances above the jurisdiction's thresholds.

Three views of the same day, each in integer cents:

* **the count** — win = closer + credits + drop − opener − fills
  (:func:`tables.win.table_win`), hold = win ÷ drop;
* **the ledger** — the rounds' chips: what the dealer collected and paid
  (:class:`PlayTally`, from replay), and the buy-ins the table recorded. The
  table inventory should have changed by fills − credits + collected − paid −
  chips given for buy-ins, and the drop box should hold the buy-ins' cash;
* **the par sheets** — theoretical win = Σ handle × house edge
  (:mod:`tables.rules.house_edge`).

Variance rules (:func:`variances`), each with a threshold from
``casino.VariancePolicy`` (defaults from practice, not regulation):

* ``inventory`` — the inventory's change differs from the rounds' by more
  than the tolerance ($25);
* ``drop`` — the counted drop differs from the buy-ins by more than the
  tolerance ($25);
* ``hold_interval`` — the day's hold lies outside the confidence interval
  (95 %: mean ± 1.96 sample standard deviations) of the table's previous
  closed days, once it has enough of them;
* ``hold_month_over_month`` — the month-to-date hold differs from the
  previous calendar month's by more than the threshold (3 percentage points);
* ``left_open`` / ``not_opened`` / ``no_count`` — a forced close left the
  table without the figures its win needs.

All arithmetic is exact (``Fraction``); the interval compares squares, so
no square root (and no float) is ever taken.
"""

from __future__ import annotations

import datetime
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from typing import Any

from tables.rules.engine import HOUSE, Outcome
from tables.rules.events import DealerCollected, DealerPaid, WagerReturned
from tables.rules.house_edge import theoretical_win

#: z² of the two-sided normal interval for each confidence level offered.
Z_SQUARED = {
    90: Fraction(1645, 1000) ** 2,
    95: Fraction(196, 100) ** 2,
    99: Fraction(2576, 1000) ** 2,
}
RECONCILED = "reconciled"
LEFT_OPEN = "left_open"
NOT_OPENED = "not_opened"
NO_COUNT = "no_count"


#: What the dealer's moving a pot's chips does to it (§ 583.11(e)).
_POT_SIGN = {DealerCollected: 1, DealerPaid: -1, WagerReturned: 0}


@dataclass
class PlayTally:
    """One table's rounds of a day, summed as replay goes."""

    rounds: int = 0
    events: int = 0
    findings: int = 0
    wagers: dict[str, int] = field(default_factory=dict)
    collected_cents: int = 0
    paid_cents: int = 0
    returned_cents: int = 0
    theoretical: Fraction = Fraction(0)
    ruleset_id: str = ""
    #: Of ``wagers``, what void rounds gave back (§ 555.14, § 587.13): placed, so handle,
    #: but never accepted by a progressive meter.
    voided: dict[str, int] = field(default_factory=dict)

    @property
    def handle_cents(self) -> int:
        return sum(self.wagers.values())

    def accepted_cents(self, wager: str) -> int:
        """What the rounds accepted of ``wager`` and kept: a void round returned its own."""
        return self.wagers.get(wager, 0) - self.voided.get(wager, 0)

    def add_round(self, result: Any, event_count: int) -> None:
        """Add one replayed round (``tables.rules.replay.ReplayResult``)."""
        opened = result.events[0]
        # Handle is what the declaration marks as handle, as the round placed
        # it: before "no more bets" or by a decision (a Play Wager, raises).
        state = result.final_state
        handle = state.game.handle_wagers
        wagers: dict[Any, int] = {}
        for seat in state.seats.values():
            for wager, amount in seat.wagers.items():
                if wager in handle:
                    wagers[wager] = wagers.get(wager, 0) + amount
        # A blackjack round's doubles and splits sit on its hands, not its seats.
        for wager, amount in getattr(state, "chosen_wagers", {}).items():
            wagers[wager] = wagers.get(wager, 0) + amount
        # A pot is players' money (§ 583.11(e)): what moves in and out of it is neither
        # the rack's nor the house's win. Only what the dealer paid from it beyond what it
        # took in (or took in and never paid out), an error, came from or went to the rack.
        pooled = {(line.seat, line.wager) for line in result.settlement.lines
                  if line.counterparty != HOUSE}  # fmt: skip
        pot_net = 0
        moved = {DealerCollected: 0, DealerPaid: 0, WagerReturned: 0}
        for event in result.events:
            kind = type(event)
            if kind not in moved:  # a class lookup, not three isinstance, for each event
                continue
            if pooled and (event.seat, event.wager) in pooled:
                pot_net += _POT_SIGN[kind] * event.amount_cents
                continue
            moved[kind] += event.amount_cents
        self.collected_cents += moved[DealerCollected] + max(pot_net, 0)
        self.paid_cents += moved[DealerPaid] + max(-pot_net, 0)
        self.returned_cents += moved[WagerReturned]
        for wager, amount in wagers.items():
            self.wagers[str(wager)] = self.wagers.get(str(wager), 0) + amount
        if result.settlement.voided:
            for line in result.settlement.lines:
                if line.outcome is Outcome.RETURNED and line.wager in handle:
                    # By name, as ``wagers``: a part's tally travels as JSON (orjson).
                    name = str(line.wager)
                    self.voided[name] = self.voided.get(name, 0) + line.stake_cents
        options = dict(result.settlement.options_applied)
        self.theoretical += theoretical_win(
            opened.ruleset_id, wagers, options.get("pair_of_tens_middle_bets", ""), options
        )
        self.ruleset_id = opened.ruleset_id
        self.rounds += 1
        self.events += event_count
        self.findings += len(result.findings)

    def merge(self, other: PlayTally) -> PlayTally:
        self.rounds += other.rounds
        self.events += other.events
        self.findings += other.findings
        for wager, amount in other.wagers.items():
            self.wagers[wager] = self.wagers.get(wager, 0) + amount
        for wager, amount in other.voided.items():
            self.voided[wager] = self.voided.get(wager, 0) + amount
        self.collected_cents += other.collected_cents
        self.paid_cents += other.paid_cents
        self.returned_cents += other.returned_cents
        self.theoretical += other.theoretical
        self.ruleset_id = other.ruleset_id or self.ruleset_id  # add keeps the last
        return self

    def to_payload(self) -> dict[str, Any]:
        return {
            "rounds": self.rounds,
            "events": self.events,
            "findings": self.findings,
            "wagers": dict(sorted(self.wagers.items())),
            "collected_cents": self.collected_cents,
            "paid_cents": self.paid_cents,
            "returned_cents": self.returned_cents,
            # Exact, as "numerator/denominator" cents: rounding happens once, per table.
            "theoretical_win": str(self.theoretical),
            "ruleset_id": self.ruleset_id,
            "voided": dict(sorted(self.voided.items())),
        }

    @classmethod
    def from_payload(cls, payload: Mapping[str, Any]) -> PlayTally:
        return cls(
            rounds=payload["rounds"],
            events=payload["events"],
            findings=payload["findings"],
            wagers=dict(payload["wagers"]),
            collected_cents=payload["collected_cents"],
            paid_cents=payload["paid_cents"],
            returned_cents=payload["returned_cents"],
            theoretical=Fraction(payload["theoretical_win"]),
            ruleset_id=payload["ruleset_id"],
            voided=dict(payload.get("voided", {})),
        )


@dataclass(frozen=True)
class DayHistory:
    """A table's earlier reconciled day: what the hold checks need."""

    gaming_day: datetime.date
    win_cents: int
    drop_cents: int


@dataclass(frozen=True)
class TableInputs:
    """Everything a table's reconciliation reads, taken at the close's cutoff."""

    table_id: str
    game: str
    pit: str
    gaming_day: datetime.date
    status: str
    play: PlayTally
    opener_cents: int = 0
    closer_cents: int = 0
    fills_cents: int = 0
    credits_cents: int = 0
    buy_ins_cents: int = 0
    drop_cents: int = 0
    history: tuple[DayHistory, ...] = ()


def round_half_even(value: Fraction) -> int:
    """Exact rounding to the nearest integer, ties to even (``Fraction.__round__``)."""
    return round(value)


def basis_points(value: Fraction | None) -> int | None:
    """A ratio in hundredths of a percent, rounded half to even."""
    return None if value is None else round_half_even(value * 10_000)


def reconcile(inputs: TableInputs, thresholds: Mapping[str, int]) -> dict[str, Any]:
    """The figures and variances of one table's day, as the close records them."""
    play = inputs.play
    reconciled = inputs.status == RECONCILED
    win = (
        inputs.closer_cents + inputs.credits_cents + inputs.drop_cents
        - inputs.opener_cents - inputs.fills_cents
    ) if reconciled else 0  # fmt: skip
    expected_change = (
        inputs.fills_cents - inputs.credits_cents + play.collected_cents - play.paid_cents
        - inputs.buy_ins_cents
    )  # fmt: skip
    figures = {
        "table_id": inputs.table_id,
        "game": inputs.game,
        "pit": inputs.pit,
        "ruleset_id": play.ruleset_id,
        "status": inputs.status,
        "rounds": play.rounds,
        "handle_cents": play.handle_cents,
        "opener_cents": inputs.opener_cents,
        "closer_cents": inputs.closer_cents,
        "fills_cents": inputs.fills_cents,
        "credits_cents": inputs.credits_cents,
        "drop_cents": inputs.drop_cents,
        "buy_ins_cents": inputs.buy_ins_cents,
        "win_cents": win,
        "hold_basis_points": basis_points(
            Fraction(win, inputs.drop_cents) if reconciled and inputs.drop_cents else None
        ),
        "collected_cents": play.collected_cents,
        "paid_cents": play.paid_cents,
        "expected_inventory_change_cents": expected_change,
        "inventory_change_cents": (
            inputs.closer_cents - inputs.opener_cents if reconciled else 0
        ),
        "theoretical_win_cents": round_half_even(play.theoretical),
        "findings": play.findings,
    }
    found = variances(inputs, win, expected_change, thresholds) if reconciled else [
        _not_reconciled(inputs)
    ]
    figures["variances"] = len(found)
    return {"figures": figures, "variances": found}


def _variance(kind: str, amount: int, threshold: int, unit: str, detail: str) -> dict[str, Any]:
    return {"kind": kind, "amount": amount, "threshold": threshold, "unit": unit,
            "detail": detail}  # fmt: skip


def _not_reconciled(inputs: TableInputs) -> dict[str, Any]:
    detail = {
        LEFT_OPEN: "the table was still open when the day was closed (forced): no closer, "
        "so no win",
        NOT_OPENED: "rounds were played but the table was never opened: no opener, so no win",
        NO_COUNT: "the drop has no verified count (forced close): no win",
    }[inputs.status]
    return _variance(inputs.status, 0, 0, "cents", detail)


def dollars(cents: int) -> str:
    sign = "-" if cents < 0 else ""
    whole, rest = divmod(abs(cents), 100)
    return f"{sign}${whole:,}.{rest:02d}"


def percent(value: Fraction) -> str:
    return f"{Decimal(basis_points(value)).scaleb(-2)} %"


def variances(
    inputs: TableInputs, win_cents: int, expected_change_cents: int,
    thresholds: Mapping[str, int],
) -> list[dict[str, Any]]:  # fmt: skip
    """Every variance rule applied to one reconciled table day."""
    found = []
    actual_change = inputs.closer_cents - inputs.opener_cents
    off = actual_change - expected_change_cents
    tolerance = thresholds["inventory_tolerance_cents"]
    if abs(off) > tolerance:
        found.append(_variance(
            "inventory", off, tolerance, "cents",
            f"the inventory changed by {dollars(actual_change)}; fills, credits, buy-ins and "
            f"the rounds' collections and payouts account for {dollars(expected_change_cents)} "
            f"({dollars(off)} unexplained, tolerance {dollars(tolerance)})"))  # fmt: skip
    off = inputs.drop_cents - inputs.buy_ins_cents
    tolerance = thresholds["drop_tolerance_cents"]
    if abs(off) > tolerance:
        found.append(_variance(
            "drop", off, tolerance, "cents",
            f"the count found {dollars(inputs.drop_cents)} in the drop; the table recorded "
            f"{dollars(inputs.buy_ins_cents)} of buy-ins ({dollars(off)}, tolerance "
            f"{dollars(tolerance)})"))  # fmt: skip
    if inputs.drop_cents:
        hold = Fraction(win_cents, inputs.drop_cents)
        found.extend(_hold_interval(inputs, hold, thresholds))
        found.extend(_month_over_month(inputs, win_cents, thresholds))
    return found


def _holds(days: Iterable[DayHistory]) -> list[Fraction]:
    return [Fraction(d.win_cents, d.drop_cents) for d in days if d.drop_cents]


def hold_interval(holds: Sequence[Fraction], confidence: int) -> tuple[Fraction, Fraction]:
    """Mean and z² × sample variance of ``holds``: a hold h lies outside the
    interval when (h − mean)² > the second figure."""
    n = len(holds)
    mean = sum(holds, Fraction(0)) / n
    variance = sum(((h - mean) ** 2 for h in holds), Fraction(0)) / (n - 1)
    return mean, Z_SQUARED[confidence] * variance


def _hold_interval(inputs: TableInputs, hold: Fraction, thresholds: Mapping[str, int]):
    history = sorted(inputs.history, key=lambda d: d.gaming_day)
    holds = _holds(history[-thresholds["hold_history_days"]:])
    if len(holds) < max(2, thresholds["hold_min_history_days"]):
        return
    confidence = thresholds["hold_confidence_percent"]
    mean, bound = hold_interval(holds, confidence)
    if (hold - mean) ** 2 > bound:
        # The half-width in basis points, floored: isqrt keeps it exact.
        half_width = math.isqrt(bound.numerator * 10**8 // bound.denominator)
        yield _variance(
            "hold_interval", basis_points(hold - mean), half_width, "basis points",
            f"hold {percent(hold)} lies outside the {confidence} % interval of the table's "
            f"last {len(holds)} days (mean {percent(mean)})")  # fmt: skip


def _month_over_month(inputs: TableInputs, win_cents: int, thresholds: Mapping[str, int]):
    day = inputs.gaming_day
    month_start = day.replace(day=1)
    previous_start = (month_start - datetime.timedelta(days=1)).replace(day=1)
    this_month = [d for d in inputs.history if month_start <= d.gaming_day < day]
    last_month = [d for d in inputs.history if previous_start <= d.gaming_day < month_start]
    to_date_drop = inputs.drop_cents + sum(d.drop_cents for d in this_month)
    last_drop = sum(d.drop_cents for d in last_month)
    if not to_date_drop or not last_drop:
        return
    to_date = Fraction(win_cents + sum(d.win_cents for d in this_month), to_date_drop)
    last = Fraction(sum(d.win_cents for d in last_month), last_drop)
    threshold = thresholds["month_over_month_basis_points"]
    off = basis_points(to_date - last)
    points = Decimal(threshold).scaleb(-2)
    if abs(to_date - last) * 10_000 > threshold:
        yield _variance(
            "hold_month_over_month", off, threshold, "basis points",
            f"month-to-date hold {percent(to_date)} against {percent(last)} in "
            f"{previous_start:%B %Y} (threshold {points} points)")  # fmt: skip
