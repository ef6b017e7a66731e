"""Read models rebuilt by replaying the ledger, each applied exactly once.

A projection folds events into its own tables. ``run`` applies everything
after the projection's checkpoint and moves the checkpoint in the same
transaction as the rows, so a crash never applies an event twice or loses
one. ``rebuild`` clears the rows and replays from position 0; it must give
identical rows (a test checks it for every registered projection).
"""

from __future__ import annotations

import contextlib
import datetime
import gc
import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass

from django.db import connection, models, transaction

from audit.ledger import RecordedEvent, head_position, read_all
from audit.models import ProjectionCheckpoint, StreamIndex


@dataclass(frozen=True)
class ReadModel:
    """A table a projection writes, as ``audit.consistency`` compares it with
    what the ledger gives: its rows by ``key`` (default the primary key; a
    key that is not unique is told apart by the rows' order), each row's
    gaming day (``day_field``, None if it has none) and the ledger position
    it reflects (``position_field``)."""

    model: type[models.Model]
    key: tuple[str, ...] = ()
    day_field: str | None = "gaming_day"
    position_field: str = "computed_at_position"


@dataclass(frozen=True)
class Projection:
    name: str
    description: str
    #: Event types it folds; ``None`` for all.
    event_types: frozenset[str] | None
    apply: Callable[[list[RecordedEvent]], None]
    clear: Callable[[], None]
    #: Every table ``apply`` writes (``verify_projections`` recomputes them
    #: into shadows of these and compares).
    read_models: tuple[ReadModel, ...] = ()
    #: The streams whose events make a gaming day's rows (``verify_projections
    #: --gaming-day``); None for a projection whose rows have no day.
    day_streams: Callable[[datetime.date], Sequence[str]] | None = None
    #: Optional: fill the (shadowed) read models straight from the ledger,
    #: given a query of the streams to cover (None: all), the last position,
    #: a callback told how many events it read as it goes, and the gaming
    #: day those streams are of (None: any; lets a reader use the day's
    #: index); returns how many events it read. What ``verify_projections``
    #: runs instead of folding the events in ledger order: an aggregate in
    #: SQL (the stream index), or a stream at a time as replay reads them
    #: (the rounds).
    recompute: (Callable[[str | None, int, Callable[[int], None], datetime.date | None], int]
                | None) = None


PROJECTIONS: dict[str, Projection] = {}


def register(projection: Projection) -> Projection:
    PROJECTIONS[projection.name] = projection
    return projection


def run(
    projection: Projection, *, batch_size: int = 2000, progress: Callable[[int], None] | None = None
) -> int:
    """Apply every event after the checkpoint; returns how many were applied.

    A projection that follows a few event types also moves its checkpoint
    past the events it skips (up to the head seen when it started: positions
    are commit-ordered, so everything up to there is visible), or every run
    would scan the whole ledger after its last interesting event again.
    """
    applied = 0
    types = sorted(projection.event_types) if projection.event_types is not None else None
    head = head_position()
    while True:
        with transaction.atomic():
            checkpoint, _ = ProjectionCheckpoint.objects.select_for_update().get_or_create(
                name=projection.name
            )
            batch = read_all(after=checkpoint.position, limit=batch_size, event_types=types)
            if batch:
                projection.apply(batch)
            reached = (
                batch[-1].position
                if len(batch) == batch_size
                else max(head, batch[-1].position if batch else 0)
            )
            if reached > checkpoint.position:
                checkpoint.position = reached
                checkpoint.save(update_fields=["position", "updated_at"])
        if not batch:
            return applied
        applied += len(batch)
        if progress is not None:
            progress(len(batch))


def upsert(model: type[models.Model], rows: list[models.Model]) -> None:
    """Write read-model rows keyed by their primary key, replacing any row
    already there: how a projection stores what it recomputed."""
    key = model._meta.pk.name
    fields = [f.name for f in model._meta.fields if f.name != key]
    model.objects.bulk_create(rows, update_conflicts=True, unique_fields=[key],
                              update_fields=fields)  # fmt: skip


def copy_rows(model: type[models.Model], rows: Sequence[dict[str, object]]) -> None:
    """Insert rows (each a dict of column to value, the same columns) into
    ``model``'s table by its unqualified name, in one COPY on PostgreSQL: how
    ``verify_projections`` fills a shadow with what it recomputed. Values are
    Python's (JSON columns as dicts and lists)."""
    if not rows:
        return
    columns = list(rows[0])
    fields = {f.column: f for f in model._meta.concrete_fields}
    table = connection.ops.quote_name(model._meta.db_table)
    listed = ", ".join(connection.ops.quote_name(c) for c in columns)
    if connection.vendor == "postgresql":
        from audit.storage import pg_cursor

        at = [i for i, c in enumerate(columns) if fields[c].get_internal_type() == "JSONField"]
        with pg_cursor() as cursor, cursor.copy(f"COPY {table} ({listed}) FROM STDIN") as copy:
            for row in rows:
                record = list(row.values())
                for i in at:
                    record[i] = json.dumps(record[i])  # as JSONField stores it
                copy.write_row(record)
        return
    prepared = [[fields[c].get_db_prep_save(row[c], connection) for c in columns] for row in rows]
    with connection.cursor() as cursor:
        cursor.executemany(f"INSERT INTO {table} ({listed}) VALUES "
                           f"({', '.join(['%s'] * len(columns))})", prepared)  # fmt: skip


def emptying(*read_models: type[models.Model]) -> Callable[[], None]:
    """A projection's ``clear``: delete every row of its read models (children first)."""

    def clear() -> None:
        with connection.cursor() as cursor:
            for model in read_models:
                cursor.execute(f"DELETE FROM {model._meta.db_table}")

    return clear


def rebuild(projection: Projection, **kwargs) -> int:
    with transaction.atomic():
        projection.clear()
        ProjectionCheckpoint.objects.update_or_create(
            name=projection.name, defaults={"position": 0}
        )
    return run(projection, **kwargs)


def run_all(names: Iterable[str] | None = None) -> dict[str, int]:
    return {name: run(PROJECTIONS[name]) for name in (names or sorted(PROJECTIONS))}


# --- the ledger's own read model: one row per stream ------------------------


def _apply_stream_index(events: list[RecordedEvent]) -> None:
    heads: dict[str, list[RecordedEvent]] = {}
    for event in events:
        heads.setdefault(event.stream_id, []).append(event)
    existing = StreamIndex.objects.in_bulk(list(heads))
    changed, created = [], []
    for stream_id, stream_events in heads.items():
        first, last = stream_events[0], stream_events[-1]
        row = existing.get(stream_id)
        if row is None:
            created.append(
                StreamIndex(
                    stream_id=stream_id,
                    kind=stream_id.split(":", 1)[0],
                    version=last.version,
                    first_position=first.position,
                    last_position=last.position,
                    last_event_type=last.event_type,
                    first_occurred_at=first.occurred_at,
                    last_occurred_at=last.occurred_at,
                    head_hash=last.hash,
                )
            )
        else:
            row.version = last.version
            row.last_position = last.position
            row.last_event_type = last.event_type
            row.last_occurred_at = last.occurred_at
            row.head_hash = last.hash
            changed.append(row)
    StreamIndex.objects.bulk_create(created)
    StreamIndex.objects.bulk_update(
        changed, ["version", "last_position", "last_event_type", "last_occurred_at", "head_hash"]
    )


def _recompute_stream_index(streams: str | None, upto: int, tick: Callable[[int], None],
                            day: datetime.date | None) -> int:
    """Each stream's first and last event up to ``upto``, in one statement
    (no event read in Python: none counted). Unqualified, so inside
    ``audit.consistency``'s check it writes the shadow."""
    kind = ("split_part(g.stream_id, ':', 1)" if connection.vendor == "postgresql"
            else "substr(g.stream_id, 1, instr(g.stream_id, ':') - 1)")  # fmt: skip
    within = f" AND stream_id IN ({streams})" if streams else ""
    with connection.cursor() as cursor:
        cursor.execute(
            "INSERT INTO ledger_stream_index (stream_id, kind, version, first_position, "
            "last_position, last_event_type, first_occurred_at, last_occurred_at, head_hash) "
            f"SELECT g.stream_id, {kind}, l.version, f.position, l.position, l.event_type, "
            "f.occurred_at, l.occurred_at, l.hash FROM (SELECT stream_id, min(version) AS "
            "first_version, max(version) AS last_version FROM ledger_event WHERE position <= %s"
            f"{within} GROUP BY stream_id) g JOIN ledger_event f ON f.stream_id = g.stream_id "
            "AND f.version = g.first_version JOIN ledger_event l ON l.stream_id = g.stream_id "
            "AND l.version = g.last_version", [upto])  # fmt: skip
    return 0


def _day_streams(day: datetime.date) -> list[str]:
    from audit import providers

    registered = providers.day_streams()
    return list(registered.of_day(day)) if registered is not None else []


STREAM_INDEX = register(
    Projection(
        name="audit.stream_index",
        description="One row per stream: its kind, version, head hash and positions.",
        event_types=None,
        apply=_apply_stream_index,
        clear=lambda: StreamIndex.objects.all().delete(),
        read_models=(ReadModel(StreamIndex, day_field=None, position_field="last_position"),),
        day_streams=_day_streams,
        recompute=_recompute_stream_index,
    )
)


@contextlib.contextmanager
def batch_gc() -> Iterator[None]:
    """Folding a day's events (replay, a projection's check, the close's read)
    allocates millions of short-lived, acyclic objects; with the default
    thresholds the cyclic collector spends a fifth of the time scanning them.
    Collect the young generation less often meanwhile."""
    previous = gc.get_threshold()
    gc.set_threshold(50_000, previous[1], previous[2])
    try:
        yield
    finally:
        gc.set_threshold(*previous)
