"""Simulated play at configured tables, appended through the ledger's append
service exactly as table devices would (never around it)."""

from __future__ import annotations

import dataclasses
import datetime
import functools
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from audit.ledger import (
    Actor,
    NewEvent,
    StreamBatch,
    append,
    append_many,
    projections_deferred,
)
from audit.projections import run_all
from audit.validation import MAX_BATCH
from tables.rules.blackjack_simulate import open_table
from tables.rules.events import DealerCollected, DealerPaid, Decision, WagerPlaced
from tables.rules.machine import opened_as_left
from tables.rules.parsheet import CrissCrossPays, CrissCrossPlayed
from tables.rules.registry import blackjack, declared
from tables.rules.replay import replay
from tables.rules.rulesets import get_ruleset
from tables.rules.simulate import InjectedError
from tables.rules.simulate_declared import errors_for, irregularities_of, simulator_for
from tables.table_day import slip_stream_id


@dataclass(frozen=True)
class TablePlan:
    table_id: str
    ruleset_id: str
    seats: tuple[int, ...] = (1, 2, 3, 4)
    #: The table's Rules Submission choices its rounds open with (the optional wagers it offers).
    options: tuple[tuple[str, Any], ...] = ()


@dataclass
class DaySummary:
    rounds: int = 0
    events: int = 0
    injected: list[tuple[str, InjectedError]] = field(default_factory=list)
    #: Per table: chips the dealers collected and paid (what the rack gained and lost).
    collected_cents: dict[str, int] = field(default_factory=dict)
    paid_cents: dict[str, int] = field(default_factory=dict)
    #: Per table: the sum of every wager placed.
    handle_cents: dict[str, int] = field(default_factory=dict)


def simulate_gaming_day(
    tables: Sequence[TablePlan],
    gaming_day: datetime.date,
    *,
    rounds_per_table: int,
    seed: int,
    dealer_error_percent: int = 2,
    irregularity_percent: int = 1,
    actor: Actor | None = None,
    rounds_per_commit: int = 1,
    project: bool = True,
    progress: Callable[[int], None] | None = None,
    mistake_percent: int | None = None,
) -> DaySummary:
    """Play ``rounds_per_table`` rounds at every table and append each round.

    With ``mistake_percent``, Criss-Cross players play the par sheet's strategy
    (:class:`tables.rules.parsheet.CrissCrossPlayed`: its optimal decisions,
    never folding at the Across Bet) and err that share of the time, so the
    theoretical win is comparable with the actual; without it, they fold and
    bet as the simple stated strategy says (what earlier seeded days recorded).

    Seats are filled at random from the plan; dealer errors and irregularities
    are injected at the given rates and returned so callers can check that
    replay finds every one. With ``rounds_per_commit`` above 1, rounds are
    appended with ``append_many`` (same validation, rule checks and hash
    chains; one commit per group) to build large days quickly. ``project``
    brings the read models up to date at the end (bulk loads may skip it).
    """
    rng = random.Random(seed)
    actor = actor or Actor.system("simulator", source="simulator")
    summary = DaySummary()
    rounds = _rounds(tables, gaming_day, rounds_per_table, rng, dealer_error_percent,
                     irregularity_percent, mistake_percent)  # fmt: skip
    with projections_deferred():
        pending: list[StreamBatch] = []
        for stream_id, events, injected in rounds:
            new_events = [NewEvent(e.TYPE, e.to_payload()) for e in events]
            if rounds_per_commit <= 1:
                append(stream_id, new_events, expected_version=0, actor=actor,
                       idempotency_key=stream_id)  # fmt: skip
            else:
                pending.append(StreamBatch(stream_id, new_events))
                if len(pending) >= rounds_per_commit:
                    append_many(pending, actor=actor)
                    pending = []
            summary.rounds += 1
            summary.events += len(events)
            _tally_chips(summary, events)
            summary.injected.extend((stream_id, one) for one in injected)
            if progress is not None:
                progress(1)
        if pending:
            append_many(pending, actor=actor)
    if project:
        run_all()
    return summary


def _tally_chips(summary: DaySummary, events: Sequence) -> None:
    table_id = events[0].table_id
    for event in events:
        if isinstance(event, DealerCollected):
            summary.collected_cents[table_id] = (
                summary.collected_cents.get(table_id, 0) + event.amount_cents
            )
        elif isinstance(event, DealerPaid):
            summary.paid_cents[table_id] = summary.paid_cents.get(table_id, 0) + event.amount_cents
        elif isinstance(event, WagerPlaced | Decision) and event.amount_cents:
            # A decision that puts chips down (a Play Wager) is handle too.
            summary.handle_cents[table_id] = (
                summary.handle_cents.get(table_id, 0) + event.amount_cents
            )


@functools.cache
def _player(ruleset_id: str) -> CrissCrossPlayed:
    """One player per rule set for the process: its exact tables are computed once."""
    return CrissCrossPlayed(CrissCrossPays.of(get_ruleset(ruleset_id)))


def _rounds(
    tables: Sequence[TablePlan],
    gaming_day: datetime.date,
    rounds_per_table: int,
    rng: random.Random,
    dealer_error_percent: int,
    irregularity_percent: int,
    mistake_percent: int | None = None,
) -> Iterator[tuple[str, list, tuple[InjectedError, ...]]]:
    """Each table's rounds in turn, as the day goes: (stream id, events, injected). A round
    opens as the table's previous one left it (§ 585.3(j): the seat holding the shaker)."""
    last: dict[str, Any] = {}  # table → its last round's final state, where the game carries
    shoes: dict[str, Any] = {}  # a blackjack table → its shoe, dealt through all day
    for number in range(1, rounds_per_table + 1):
        for plan in tables:
            ruleset = get_ruleset(plan.ruleset_id)
            seats = tuple(sorted(rng.sample(plan.seats, rng.randint(1, len(plan.seats)))))
            errors = []
            if rng.randrange(100) < dealer_error_percent:
                errors.append(rng.choice(errors_for(ruleset.game)))
            irregularity = None
            if rng.randrange(100) < irregularity_percent:
                staged = irregularities_of(ruleset.game)  # none for a game without cards
                irregularity = rng.choice(staged) if staged else None
            simulate = simulator_for(ruleset.game)
            strategy: dict[str, Any] = {}
            family = blackjack(ruleset.game)
            if family is not None:
                if plan.table_id not in shoes:
                    shoes[plan.table_id] = open_table(rng, family)
                strategy = {"table": shoes[plan.table_id]}
            if mistake_percent is not None and ruleset.game == "criss_cross_poker":
                strategy = {"player": _player(plan.ruleset_id),
                            "mistake_percent": mistake_percent}  # fmt: skip
            if plan.options:
                strategy["options"] = dict(plan.options)
            simulated = simulate(rng, ruleset, seats=seats, gaming_day=gaming_day,
                                 dealer_errors=errors, irregularity=irregularity,
                                 **strategy)  # fmt: skip
            round_id = f"{plan.table_id}-{gaming_day:%Y%m%d}-{number:05d}"
            opened = dataclasses.replace(simulated.events[0], round_id=round_id,
                                         table_id=plan.table_id)  # fmt: skip
            if plan.table_id in last:
                opened = opened_as_left(last[plan.table_id], opened)
            events = [opened, *simulated.events[1:]]
            game = declared(ruleset.game)
            if game is not None and game.opens_with is not None:
                last[plan.table_id] = replay(events).final_state
            yield f"round:{round_id}", events, simulated.injected


# --- whole table days: opening, buy-ins, play, closing, count ----------------------------


@dataclass(frozen=True)
class Crew:
    """Who signs a simulated day (the demo's usernames by default)."""

    dealer: str = "dealer"
    floorperson: str = "floor"
    cage: str = "cage"
    counter: str = "finance"
    verifier: str = "supervisor"


#: $62,000 in the tray: $100 ×400, $25 ×800, $5 ×400.
OPENER = {"10000": 400, "2500": 800, "500": 400}
#: Chips handed over for one $500 buy-in.
BUY_IN_CHIPS = {"2500": 16, "500": 20}
BUY_IN_CENTS = 50_000
#: Simulated fill slips are numbered SLIP_BASE + day of year × 1,000 + table.
SLIP_BASE = 600_000
#: Fill the tray with $100 chips when a close would leave it below this.
LOW_TRAY_CENTS = 500_000
#: Cash bought in: at least this share of the handle, and at least five times
#: what the players lost, so holds come out around the 15 to 20 % of a real
#: floor (players who stray from the par sheets' strategy lose more than its edge).
DROP_PER_HANDLE = Fraction(3, 20)
DROP_PER_LOSS = 5


def chips_for(amount_cents: int, denominations: Sequence[int] = (100_000, 10_000, 2_500, 500,
                                                                  100)) -> dict[str, int]:
    """Chips that make ``amount_cents`` exactly (a $2.50 chip covers the half
    dollars of 3 to 2 payouts, a 25-cent one the quarters of Pai Gow's vigorish).

    >>> chips_for(3_750)
    {'2500': 1, '500': 2, '250': 1}
    >>> chips_for(3_775)
    {'2500': 1, '500': 2, '250': 1, '25': 1}
    """
    if amount_cents < 0 or amount_cents % 25:
        raise ValueError(f"{amount_cents} cents cannot be made of chips")
    counts: dict[str, int] = {}
    rest = amount_cents
    if rest % 50:
        counts["25"] = 1
        rest -= 25
    if rest % 100:
        counts["250"] = 1
        rest -= 250
    for value in denominations:
        number, rest = divmod(rest, value)
        if number:
            counts[str(value)] = number
    return {key: counts[key] for key in sorted(counts, key=int, reverse=True)}


def bills_for(amount_cents: int) -> dict[str, int]:
    """$100 bills and then smaller ones for a drop (whole dollars)."""
    counts: dict[str, int] = {}
    rest = amount_cents
    for value in (10_000, 2_000, 500, 100):
        number, rest = divmod(rest, value)
        if number:
            counts[str(value)] = number
    return counts


@dataclass
class TableDayPlan:
    """What a simulated table day should contain besides its rounds."""

    #: Chips taken from the tray before the closer is counted (an inventory variance).
    inventory_short_cents: dict[str, int] = field(default_factory=dict)
    #: Cash missing from the drop at the count (a drop variance).
    drop_short_cents: dict[str, int] = field(default_factory=dict)
    #: Tables left open at the end of the day (no closer, no count).
    left_open: frozenset[str] = frozenset()
    #: Tables closed but whose count is entered and not verified.
    unverified: frozenset[str] = frozenset()


def record_buy_ins(table: TablePlan, stream: str, summary: DaySummary, actor: Actor,
                   version: int) -> int:  # fmt: skip
    """The $500 buy-ins of a table's play so far (sized by ``DROP_PER_HANDLE``
    and ``DROP_PER_LOSS``), appended to its day's stream at ``version``; how many."""
    handle = summary.handle_cents.get(table.table_id, 0)
    lost = (summary.collected_cents.get(table.table_id, 0)
            - summary.paid_cents.get(table.table_id, 0))  # fmt: skip
    drop = max(handle * DROP_PER_HANDLE, lost * DROP_PER_LOSS)
    buy_ins = max(1, round(drop / BUY_IN_CENTS))
    # The ledger takes at most MAX_BATCH events per append.
    for first in range(0, buy_ins, MAX_BATCH):
        append(stream, [NewEvent("table.buy_in", {
            "seat": 1 + n % len(table.seats), "cash_cents": BUY_IN_CENTS,
            "chips": BUY_IN_CHIPS})
            for n in range(first, min(buy_ins, first + MAX_BATCH))],
            expected_version=version + first, actor=actor)  # fmt: skip
    return buy_ins


def simulate_table_days(
    tables: Sequence[TablePlan],
    gaming_day: datetime.date,
    *,
    rounds_per_table: int,
    seed: int,
    crew: Crew = Crew(),
    plan: TableDayPlan | None = None,
    **play,
) -> DaySummary:
    """Whole table days as the floor records them: each table opened with
    ``OPENER``, the rounds (``simulate_gaming_day``), buy-ins of $500 sized
    from the play (``DROP_PER_HANDLE``, ``DROP_PER_LOSS``; so recorded after
    the rounds), a fill if the tray runs
    low, the table closed with exactly what the rounds left in the tray
    (less any planned shortage), and the drop counted and verified by two
    people. The ledger's figures then reconcile to the cent unless the plan
    says otherwise."""
    plan = plan or TableDayPlan()
    project = play.pop("project", True)
    actor = Actor.system("simulator", source="simulator")
    with projections_deferred():
        for table in tables:
            append(f"table:{table.table_id}:{gaming_day}", [NewEvent("table.opened", {
                "opener": OPENER, "dealer": crew.dealer, "floorperson": crew.floorperson})],
                expected_version=0, actor=actor)  # fmt: skip
    summary = simulate_gaming_day(tables, gaming_day, rounds_per_table=rounds_per_table,
                                  seed=seed, actor=actor, project=False, **play)  # fmt: skip
    opener = sum(int(k) * v for k, v in OPENER.items())
    with projections_deferred():
        for number, table in enumerate(tables, start=1):
            stream = f"table:{table.table_id}:{gaming_day}"
            buy_ins = record_buy_ins(table, stream, summary, actor, version=1)
            if table.table_id in plan.left_open:
                continue
            tray = (opener - buy_ins * BUY_IN_CENTS + summary.collected_cents.get(table.table_id, 0)
                    - summary.paid_cents.get(table.table_id, 0))  # fmt: skip
            if tray < LOW_TRAY_CENTS:
                fill = -(-(LOW_TRAY_CENTS - tray) // 10_000) * 10_000
                # Slip numbers are unique per calendar year: one block of 1,000 a day.
                slip = slip_stream_id(gaming_day.year, SLIP_BASE + gaming_day.timetuple().tm_yday
                                      * 1_000 + number)  # fmt: skip
                append(slip, [
                    NewEvent("slip.fill_requested", {
                        "table_id": table.table_id, "gaming_day": str(gaming_day),
                        "amounts": {"10000": fill // 10_000}, "requested_by": crew.cage}),
                    NewEvent("slip.approved", {"approved_by": crew.floorperson}),
                ], expected_version=0, actor=actor)  # fmt: skip
                tray += fill
            tray -= plan.inventory_short_cents.get(table.table_id, 0)
            append(stream, [NewEvent("table.closed", {
                "closer": chips_for(tray), "dealer": crew.dealer,
                "floorperson": crew.floorperson})],
                expected_version=1 + buy_ins, actor=actor)  # fmt: skip
            drop = buy_ins * BUY_IN_CENTS - plan.drop_short_cents.get(table.table_id, 0)
            count = [NewEvent("count.entered", {"currency": bills_for(drop), "chips": {},
                                                "counted_by": crew.counter})]  # fmt: skip
            if table.table_id not in plan.unverified:
                count.append(NewEvent("count.verified", {"verified_by": crew.verifier}))
            append(f"count:{table.table_id}:{gaming_day}", count, expected_version=0,
                   actor=actor)  # fmt: skip
    if project:
        run_all()
    return summary
