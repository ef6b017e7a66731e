"""Round-append bench: a round appended one event at a time costs one engine
step per event, not a replay of the round per event.

``python -m bench.round_append`` (or ``python -m bench --only round_append``)
creates the database ``pitboss_bench_round_append`` on the server of
``DATABASE_URL`` (dropped at the end; ``--keep`` keeps it) and migrates it.
The round: a realistic Criss-Cross round (``PA-674a-2019``, six seats, from
``tables.rules.simulate.simulate_criss_cross``) of 95 events. Each repetition
appends it to a fresh stream through ``audit.ledger.append``, one event per
call and per commit, as a table device does (``LEDGER_PROJECT_ON_APPEND=0``:
the read models are priced apart), under three stream policies, interleaved:

* **service**: the ``round`` stream kind as it is (the rounds service);
* **old**: the policy as it was before the rounds service (a copy below: it
  reads the whole stream and replays ``recorded + new`` on every append);
* **none**: no policy at all, the ledger's own cost (the floor).

The figure compared with the target is the **round work** of the 95 appends:
the time spent admitting each batch (reading what the policy reads and the
policy itself: ``audit.ledger._admit``) plus the policy's after-commit
callbacks (the service keeping the new state), summed over the round. It is
set against **one replay** of the stored round in memory
(``tables.verification.verify_round``: ``from_payload`` of every event, the
engine's replay, settlement and findings); the replay with the read from
PostgreSQL is printed beside it. Target: round work ≤ 2 × one replay. Wall
times of the 95 appends under each policy are printed too: there the commits
dominate.

The rounds projection, run after every append as the embedded default does,
is priced apart: its engine work per run (the state from the service,
advanced by the batch; the required settlement and the findings, which a
read model kept current must recompute) against the old projection, which
replayed the round's prefix on every run (measured in memory).
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import datetime
import os
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any
from urllib.parse import urlsplit

from bench.ledger import DEFAULT_URL, Line, bench_url, conninfo, recreate_database

BENCH_DATABASE = "pitboss_bench_round_append"
RULESET = "PA-674a-2019"
DAY = datetime.date(2026, 3, 2)
SEATS = (1, 2, 3, 4, 5, 6)
EVENTS = 95
TARGET_RATIO = 2.0


def setup_django(url: str) -> None:
    from bench.replay import setup_django as setup

    setup(url, migrate=True)


def the_round() -> list[Any]:
    """A 95-event six-seat Criss-Cross round (the first seed that gives one)."""
    from tables.rules.rulesets import get_ruleset
    from tables.rules.simulate import simulate_criss_cross

    ruleset = get_ruleset(RULESET)
    for seed in range(10_000):
        simulated = simulate_criss_cross(random.Random(seed), ruleset, seats=SEATS,
                                         gaming_day=DAY, count_stub=seed % 2 == 0)  # fmt: skip
        if len(simulated.events) == EVENTS:
            return list(simulated.events)
    raise SystemExit(f"no simulated six-seat round of {EVENTS} events")


def old_round_policy(stream_id: str, recorded: Any, new: Sequence[Any], actor: Any) -> None:
    """The round policy before the rounds service (commit 4425f75), verbatim
    but for its imports: the whole stream read and replayed on every append."""
    from audit import errors
    from tables.round_events import to_engine
    from tables.rules import replay as engine_replay
    from tables.rules.engine import RuleViolation
    from tables.rules.events import ROUND_EVENT_TYPES, RoundOpened

    events = [
        to_engine(e.event_type, e.payload) for e in recorded if e.event_type in ROUND_EVENT_TYPES
    ]
    offset = len(events)
    events.extend(to_engine(e.event_type, e.payload) for e in new)
    if events and not isinstance(events[0], RoundOpened):
        raise errors.RuleViolation("a round stream starts with round.opened",
                                   field="events[0].type")  # fmt: skip
    try:
        engine_replay.replay(events)
    except RuleViolation as violation:
        index = getattr(violation, "index", offset) - offset
        raise errors.RuleViolation(
            f"§ {violation.section}: {violation.reason}",
            field=f"events[{max(index, 0)}].payload"
            + (f".{violation.field}" if violation.field else ""),
            section=violation.section,
        ) from None


class Clock:
    """Seconds spent in the wrapped calls."""

    def __init__(self) -> None:
        self.seconds = 0.0

    def wrap(self, function: Callable[..., Any]) -> Callable[..., Any]:
        def timed(*args: Any, **kwargs: Any) -> Any:
            started = time.perf_counter()
            try:
                return function(*args, **kwargs)
            finally:
                self.seconds += time.perf_counter() - started

        return timed


@contextlib.contextmanager
def instrumented(policy: str, clock: Clock) -> Iterator[None]:
    """The round stream kind with the given policy, and the round work timed:
    ``_admit`` and the policies' after-commit callbacks."""
    from audit import ledger
    from audit.records import StreamSoFar
    from audit.registry import REGISTRY
    from tables.round_events import ROUND_STREAM_KIND

    kind = REGISTRY.stream_kinds[ROUND_STREAM_KIND]
    chosen = {"service": kind.policy, "old": old_round_policy, "none": None}[policy]
    original_admit, original_after = ledger._admit, StreamSoFar.after_commit

    def after_commit(self: StreamSoFar, callback: Callable[..., None]) -> None:
        original_after(self, clock.wrap(callback))

    REGISTRY.stream_kinds[ROUND_STREAM_KIND] = dataclasses.replace(kind, policy=chosen)
    ledger._admit = clock.wrap(original_admit)
    StreamSoFar.after_commit = after_commit  # type: ignore[method-assign]
    try:
        yield
    finally:
        REGISTRY.stream_kinds[ROUND_STREAM_KIND] = kind
        ledger._admit = original_admit
        StreamSoFar.after_commit = original_after  # type: ignore[method-assign]


def append_round(stream_id: str, events: Sequence[Any], policy: str) -> tuple[float, float]:
    """Append ``events`` one per call; (round work, wall) in seconds."""
    from audit.ledger import Actor, NewEvent, append

    actor = Actor.system("bench", source="device")
    opened = dataclasses.replace(events[0], round_id=stream_id.split(":", 1)[1])
    batches = [[NewEvent(e.TYPE, e.to_payload())] for e in [opened, *events[1:]]]
    clock = Clock()
    with instrumented(policy, clock):
        started = time.perf_counter()
        for version, batch in enumerate(batches):
            append(stream_id, batch, expected_version=version, actor=actor)
        wall = time.perf_counter() - started
    return clock.seconds, wall


def best(function: Callable[[], Any], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        function()
        times.append(time.perf_counter() - started)
    return min(times)


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:,.2f} ms"


def run(options: argparse.Namespace) -> int:
    from django.db import connection

    from audit.ledger import read_stream
    from tables import rounds
    from tables.projections import _apply_rounds
    from tables.verification import verify_round

    with connection.cursor() as cursor:
        cursor.execute("SHOW server_version")
        server = cursor.fetchone()[0]
    print(f"PostgreSQL {server}; Python {sys.version.split()[0]}, {os.cpu_count()} CPUs, "
          "load average " + "/".join(f"{load:.1f}" for load in os.getloadavg()))
    events = the_round()
    print(f"the round: Criss-Cross {RULESET}, {len(SEATS)} seats, {len(events)} events, "
          f"appended one event per append and per commit; {options.repeats} repetitions per "
          "policy, interleaved, best kept\n")

    work: dict[str, list[float]] = {"service": [], "old": [], "none": []}
    wall: dict[str, list[float]] = {"service": [], "old": [], "none": []}
    streams: list[str] = []
    for repetition in range(options.repeats + 1):  # the first is a warm-up
        for policy in work:
            stream_id = f"round:BENCH-{policy}-{repetition}"
            seconds, total = append_round(stream_id, events, policy)
            if repetition:
                work[policy].append(seconds)
                wall[policy].append(total)
            if policy == "service":
                streams.append(stream_id)
    recorded = read_stream(streams[-1])
    assert verify_round(streams[-1], recorded).result is not None
    replay_memory = best(lambda: verify_round(streams[-1], recorded), options.replay_repeats)
    replay_read = best(lambda: verify_round(streams[-1], read_stream(streams[-1])),
                       options.replay_repeats)  # fmt: skip

    # The same round work without the database in between: the service (a
    # fresh one) checking each single-event batch and keeping its state as the
    # commit callback does, and the old policy replaying each prefix.
    from audit.records import CommittedEvent, NewEvent, StreamSoFar

    batches = [[NewEvent(e.event_type, e.payload)] for e in recorded]
    landed = [(CommittedEvent(e.version, e.position, e.hash, e.occurred_at),) for e in recorded]

    def unused(stream_id: str, version: int) -> list[Any]:
        raise AssertionError("the service read the stream")

    def service_in_memory() -> None:
        service = rounds.RoundsService()
        head = ""
        for version, batch in enumerate(batches):
            so_far = StreamSoFar(streams[-1], version, head, unused)
            service.check(so_far, batch)
            for callback in so_far.committed_callbacks:
                callback(landed[version])
            head = landed[version][0].hash

    def old_in_memory() -> None:
        for version, batch in enumerate(batches):
            old_round_policy(streams[-1], recorded[:version], batch, None)

    def select_one() -> None:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")

    memory_service = best(service_in_memory, options.replay_repeats // 10 or 1)
    memory_old = best(old_in_memory, 3)

    # With a round trip between appends (as in the ledger) the round work runs
    # on caches the wait let go cold: timed per append, the trips excluded.
    cold_times = []
    for _ in range(options.repeats):
        service = rounds.RoundsService()
        head, spent = "", 0.0
        for version, batch in enumerate(batches):
            select_one()
            started = time.perf_counter()
            so_far = StreamSoFar(streams[-1], version, head, unused)
            service.check(so_far, batch)
            for callback in so_far.committed_callbacks:
                callback(landed[version])
            spent += time.perf_counter() - started
            head = landed[version][0].hash
        cold_times.append(spent)
    memory_cold = min(cold_times)
    cold_replays = []
    for _ in range(options.repeats):
        select_one()
        started = time.perf_counter()
        verify_round(streams[-1], recorded)
        cold_replays.append(time.perf_counter() - started)
    replay_cold = min(cold_replays)

    # The projection after every append: the engine work of each run (the
    # state from the service, the settlement and the findings), without the
    # row writes; and the old projection's replay of each prefix.
    def project_each_append() -> None:
        rounds.SERVICE.forget()
        service = rounds.SERVICE
        for version in range(1, len(recorded) + 1):
            entry = service.following(recorded[version - 1 : version])[streams[-1]]
            entry.findings  # noqa: B018 (the settlement and the findings, computed)

    def old_projection() -> None:
        for version in range(1, len(recorded) + 1):
            verify_round(streams[-1], recorded[:version])

    projection_new = best(project_each_append, options.replay_repeats // 10 or 1)
    projection_old = best(old_projection, options.replay_repeats // 10 or 1)
    # And the projection through its apply, rows written (one run per append).
    rounds.SERVICE.forget()
    started = time.perf_counter()
    for version in range(1, len(recorded) + 1):
        _apply_rounds(recorded[version - 1 : version])
    projection_rows = time.perf_counter() - started

    service, old, floor = (min(work[p]) for p in ("service", "old", "none"))
    ratio = service / replay_memory
    print("one replay of the round")
    print(f"  in memory (verify_round: from_payload, replay, settlement, findings) "
          f"{_ms(replay_memory)}")
    print(f"  read from PostgreSQL and replayed                                    "
          f"{_ms(replay_read)}")
    print(f"\nappending the round one event at a time ({len(events)} appends), best of "
          f"{options.repeats}")
    print(f"  {'policy':<44} {'round work':>12} {'× replay':>9} {'wall':>12}")
    labels = {"service": "rounds service (now)", "old": "replay recorded + new (before)",
              "none": "no policy (the ledger alone)"}  # fmt: skip
    for policy in ("service", "old", "none"):
        spent = min(work[policy])
        print(f"  {labels[policy]:<44} {_ms(spent):>12} {spent / replay_memory:>8.1f}× "
              f"{_ms(min(wall[policy])):>12}")
    print(f"  median wall: service {_ms(statistics.median(wall['service']))}, old "
          f"{_ms(statistics.median(wall['old']))}, none {_ms(statistics.median(wall['none']))}"
          " (the commits dominate)")
    print("\nthe same round work in memory (no database between the appends)")
    print(f"  rounds service (now)            {_ms(memory_service):>12} "
          f"{memory_service / replay_memory:>6.2f}× one replay")
    print(f"  replay recorded + new (before)  {_ms(memory_old):>12} "
          f"{memory_old / replay_memory:>6.1f}×")
    print(f"  rounds service, a PostgreSQL round trip (SELECT 1) before each append, "
          f"not counted: {_ms(memory_cold)} = {memory_cold / replay_cold:.1f}× one replay "
          f"after one round trip ({_ms(replay_cold)}): each append's step runs on caches "
          "the wait let go cold")
    print("\nthe rounds projection run after every append (in memory, no rows)")
    print(f"  service: state advanced by the batch, settlement and findings  "
          f"{_ms(projection_new)} = {projection_new / replay_memory:.1f}× one replay")
    print(f"  before: the round's prefix replayed on every run              "
          f"{_ms(projection_old)} = {projection_old / replay_memory:.1f}× one replay")
    print(f"  service, through the projection's apply (rows written)        "
          f"{_ms(projection_rows)}")

    memory_ratio = memory_service / replay_memory
    lines = [
        Line("round work, 95 appends", f"{memory_ratio:.2f}× replay", f"≤ {TARGET_RATIO:g}×",
             memory_ratio <= TARGET_RATIO,
             note=f"in memory: {_ms(memory_service)} vs one replay {_ms(replay_memory)}; "
             f"before {memory_old / replay_memory:.0f}×"),
        Line("  through append on PostgreSQL", f"{ratio:.1f}× replay",
             note=f"{_ms(service)}, cold caches after each commit; before "
             f"{old / replay_memory:.0f}× ({_ms(old)}); the ledger alone admits in {_ms(floor)}"),
    ]  # fmt: skip
    print("\nsummary")
    for line in lines:
        print(line.render())
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.round_append",
                                     description=__doc__.splitlines()[0])  # fmt: skip
    parser.add_argument("--repeats", type=int, default=7,
                        help="rounds appended per policy (default 7, plus a warm-up)")
    parser.add_argument("--replay-repeats", type=int, default=200,
                        help="replays timed for the one-replay figure (default 200)")
    parser.add_argument("--database", default=BENCH_DATABASE)
    parser.add_argument("--keep", action="store_true", help="keep the bench database")
    options = parser.parse_args(argv)
    base_url = os.environ.get("DATABASE_URL") or DEFAULT_URL
    if urlsplit(base_url).path.lstrip("/") == options.database:
        parser.error(f"DATABASE_URL already names {options.database}; point it at another one")
    url = bench_url(base_url, options.database)
    info = conninfo(url)
    recreate_database(base_url, options.database)
    print(f"round-append bench on database {options.database!r} at "
          f"{info['host']}:{info['port']} (created for this run)")
    try:
        setup_django(url)
        return run(options)
    finally:
        with contextlib.suppress(Exception):
            from django.db import connections

            connections.close_all()
        if options.keep:
            print(f"kept database {options.database}")
        else:
            recreate_database(base_url, options.database, drop_only=True)


if __name__ == "__main__":
    sys.exit(main())
