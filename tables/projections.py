"""The rounds projection: every round's state from the rounds service (which
advances the round it holds by the batch's events, or replays it from the
ledger), its totals and findings stored with the ledger position they were
computed at."""

from __future__ import annotations

import datetime
from collections.abc import Callable
from typing import Any

from audit.ledger import RecordedEvent
from audit.projections import Projection, ReadModel, copy_rows, emptying, register, upsert
from tables import rounds as round_states
from tables.models import Finding, Round
from tables.rules.events import ROUND_EVENT_TYPES
from tables.verification import (
    RoundSelection,
    iter_round_events,
    replayed_row,
    round_row,
    rounds_of,
    verify_round,
)

#: Rounds whose rows ``_recompute_rounds`` holds before writing them.
_WRITE_EVERY = 1000


def _apply_rounds(batch: list[RecordedEvent]) -> None:
    # Each round as of its last event in the batch: later events come in later batches.
    rounds = round_states.SERVICE.following(e for e in batch if e.stream_id.startswith("round:"))
    if not rounds:
        return
    touched = sorted(rounds)
    rows, findings = [], []
    for stream_id in touched:
        entry = rounds[stream_id]
        if entry.state is None:  # not replayable (only for events stored before a rule change)
            continue
        row = round_row(entry)
        rows.append(Round(**row))
        opened = entry.opened
        findings.extend(
            Finding(
                round_id=stream_id,
                table_id=opened.table_id,
                gaming_day=opened.gaming_day,
                kind=f.kind.value,
                seat=f.seat,
                wager=str(f.wager),
                expected_cents=f.expected_cents,
                recorded_cents=f.recorded_cents,
                section=f.section,
                detail=f.detail,
                computed_at_position=row["computed_at_position"],
            )
            for f in entry.findings
        )
    Finding.objects.filter(round_id__in=touched).delete()
    upsert(Round, rows)
    Finding.objects.bulk_create(findings)


def _recompute_rounds(streams: str | None, upto: int, tick: Callable[[int], None],
                      day: datetime.date | None) -> int:
    """``verify_projections``' rounds: replay's own reader and fold
    (``iter_round_events``: the facts only, a round at a time;
    ``verify_round``), each round once up to ``upto``, its rows copied into
    the (shadowed) tables in bulk, instead of the rounds service folding the
    day's events in ledger order and upserting rows batch by batch."""
    rounds: list[dict[str, Any]] = []
    findings: list[dict[str, Any]] = []
    read = told = 0

    def write() -> None:
        nonlocal told
        tick(read - told)
        told = read
        copy_rows(Round, rounds)
        copy_rows(Finding, findings)
        rounds.clear()
        findings.clear()

    for stream_id, events in rounds_of(iter_round_events(
            RoundSelection(gaming_day=day, upto_position=upto, streams=streams))):  # fmt: skip
        read += len(events)
        verified = verify_round(stream_id, events)
        if verified.result is None:  # not replayable: the projection keeps no row either
            continue
        row = replayed_row(verified)
        rounds.append(row)
        opened = verified.opened
        findings.extend(
            {"round_id": stream_id, "table_id": opened.table_id, "gaming_day": opened.gaming_day,
             "kind": f.kind.value, "seat": f.seat, "wager": str(f.wager),
             "expected_cents": f.expected_cents, "recorded_cents": f.recorded_cents,
             "section": f.section, "detail": f.detail,
             "computed_at_position": row["computed_at_position"]}
            for f in verified.result.findings)  # fmt: skip
        if len(rounds) >= _WRITE_EVERY:
            write()
    write()
    return read


def _day_streams(day):
    from tables.day_streams import streams_of_kinds

    return streams_of_kinds(day, "round")


ROUNDS = register(
    Projection(
        name="tables.rounds",
        description="Every round replayed through the rules engine: totals, required "
        "settlement and findings.",
        event_types=frozenset(ROUND_EVENT_TYPES),
        apply=_apply_rounds,
        clear=emptying(Finding, Round),
        # A round's findings have no key of their own (a round may repeat one).
        read_models=(ReadModel(Round), ReadModel(Finding, key=("round_id", "seat", "wager",
                                                               "kind"))),  # fmt: skip
        day_streams=_day_streams,
        recompute=_recompute_rounds,
    )
)
