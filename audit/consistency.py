"""Every read model checked against the ledger (issue 21): ``verify_projections``.

Each projection is recomputed from the ledger into *shadows* of its tables
and compared with the live rows, naming every difference: table, key,
field, the stored value, the value the events give, and the events it came
from. A shadow is a temporary table of the same name as the live one
(PostgreSQL puts ``pg_temp`` first on the search path, SQLite its ``temp``
schema), so a projection's own ``apply`` fills it unchanged, and it all
happens in one transaction that is rolled back: the live rows are never
written. On PostgreSQL that transaction is REPEATABLE READ, so the
checkpoints, the ledger and the live rows are read as of one moment.

Each projection is recomputed up to its own checkpoint (the position its
live rows reflect), so a projection that lags behind the ledger is not a
difference. With a gaming day only the streams whose events make that day's
rows are replayed (``Projection.day_streams``) and only that day's rows are
compared; projections whose rows have no day (decks, dice) are then left to
the whole-ledger check, and said so. A day can be checked in parts by table,
each in a process of its own, all in one snapshot (``verify(workers=N)``,
"a day in parts" below); the nightly job checks every day so, and what has
no day whole (``audit.nightly_projections``).

Checks of what the apps keep beside the ledger that is not a projection
(the admin's configuration history, ``register_check``) run with them. The
result is recorded in the ledger (``projections.verified`` on
``projection-check:<when>``), which the finance pages and the floor board
read; ``rebuild_projection`` records what it replaced the same way
(``projections.rebuilt``) before it replaces it.
"""

from __future__ import annotations

import contextlib
import datetime
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db import connection, transaction
from django.utils import timezone

from audit.ledger import Actor, NewEvent, append
from audit.models import ProjectionCheckpoint
from audit.projections import PROJECTIONS, Projection, ReadModel, batch_gc
from audit.registry import (
    TEXT,
    EventType,
    StreamKind,
    object_schema,
    register_event_type,
    register_stream_kind,
)
from audit.storage import read_columns, select_events

CHECK_KIND = "projection-check"
VERIFIED = "projections.verified"
REBUILT = "projections.rebuilt"
#: The most differences one event lists (it counts them all, by day).
MAX_LISTED = 200
_VALUE = 300
_BATCH = 2000


@dataclass(frozen=True)
class Difference:
    """A read-model row that is not what the ledger's events give."""

    projection: str
    table: str
    key: str
    #: A column, or ``*`` for a whole row missing or not given by any event.
    field: str
    stored: Any
    ledger: Any
    events: str
    gaming_day: datetime.date | None = None

    def __str__(self) -> str:
        where = f"{self.projection}: {self.table} {self.key}"
        if self.field != "*":
            return (f"{where}: {self.field} is {self.stored!r}, the events give "
                    f"{self.ledger!r} ({self.events})")  # fmt: skip
        if self.stored is None:
            return f"{where}: the row is missing, the events give it ({self.events})"
        return f"{where}: the row is stored, no event gives it ({self.events})"

    def as_payload(self) -> dict[str, Any]:
        return {"projection": self.projection, "table": self.table, "key": self.key[:_VALUE],
                "field": self.field, "stored": _text(self.stored), "ledger": _text(self.ledger),
                "events": self.events[:_VALUE],
                "gaming_day": self.gaming_day.isoformat() if self.gaming_day else None,
                "text": str(self)[:500]}  # fmt: skip


def _text(value: Any) -> str:
    return repr(value)[:_VALUE]


@dataclass
class Result:
    gaming_day: datetime.date | None
    projections: list[str]
    #: Chosen, but with no rows of a gaming day (checked with the whole ledger).
    skipped: list[str] = field(default_factory=list)
    events: int = 0
    differences: list[Difference] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.differences

    def by_day(self) -> dict[str, int]:
        days: dict[str, int] = {}
        for difference in self.differences:
            key = difference.gaming_day.isoformat() if difference.gaming_day else "undated"
            days[key] = days.get(key, 0) + 1
        return dict(sorted(days.items()))


@dataclass(frozen=True)
class Check:
    """Rows beside the ledger that are not a projection's (the admin's
    configuration history): ``differences(gaming day or None)`` and
    ``rebuild()``, which rewrites them from the events."""

    differences: Callable[[datetime.date | None], list[Difference]]
    rebuild: Callable[[], object]


_CHECKS: dict[str, Check] = {}


def register_check(name: str, check: Check) -> None:
    _CHECKS[name] = check


def rebuild_check(name: str) -> None:
    _CHECKS[name].rebuild()


def known_names() -> list[str]:
    return sorted({*PROJECTIONS, *_CHECKS})


# --- the shadows -----------------------------------------------------------------------


def _quote(name: str) -> str:
    return connection.ops.quote_name(name)


def _live_schema(table: str) -> str:
    if connection.vendor != "postgresql":
        return "main"
    with connection.cursor() as cursor:
        cursor.execute("SELECT n.nspname FROM pg_class c JOIN pg_namespace n ON "
                       "n.oid = c.relnamespace WHERE c.oid = %s::regclass", [table])  # fmt: skip
        return cursor.fetchone()[0]


def _shadow(table: str, live: str) -> None:
    """An empty table named ``table`` in the temporary schema, with the live
    one's columns, defaults, keys and unique indexes (a projection's upserts
    need them)."""
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(f"CREATE TEMPORARY TABLE {_quote(table)} "
                           f"(LIKE {_quote(live)}.{_quote(table)} INCLUDING ALL)")  # fmt: skip
            return
        cursor.execute("SELECT type, sql FROM main.sqlite_master WHERE tbl_name = %s AND "
                       "sql IS NOT NULL ORDER BY type DESC", [table])  # fmt: skip
        for kind, sql in cursor.fetchall():
            if kind == "table":
                cursor.execute(sql.replace("CREATE TABLE", "CREATE TEMPORARY TABLE", 1))
            elif kind == "index":
                head, _, rest = sql.partition(" INDEX ")
                cursor.execute(f"{head} INDEX temp.{rest}")


@contextlib.contextmanager
def _sandbox(snapshot: str | None = None) -> Iterator[None]:
    """One transaction, rolled back whatever happens: nothing written inside
    it (the shadows included) outlives the check. With ``snapshot`` (another
    session's ``pg_export_snapshot``), it sees the database as that one does."""
    outermost = not connection.in_atomic_block
    with transaction.atomic():
        if outermost and connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
                if snapshot is not None:
                    cursor.execute("SET TRANSACTION SNAPSHOT %s", [snapshot])
        try:
            yield
        finally:
            transaction.set_rollback(True)


# --- recomputing -----------------------------------------------------------------------


def _temp(name: str) -> str:
    return f"pg_temp.{_quote(name)}" if connection.vendor == "postgresql" else f"temp.{name}"


def _stream_table(name: str, streams: Sequence[str]) -> str:
    """A temporary table ``name`` of stream ids (dropped first if there), in
    one statement on PostgreSQL; a query of its ids."""
    with connection.cursor() as cursor:
        cursor.execute(f"DROP TABLE IF EXISTS {_temp(name)}")
        cursor.execute(f"CREATE TEMPORARY TABLE {_quote(name)} "
                       "(stream_id varchar(200) PRIMARY KEY)")  # fmt: skip
        if connection.vendor == "postgresql":
            cursor.execute(f"INSERT INTO {_temp(name)} SELECT unnest(%s::varchar[])",
                           [sorted(streams)])  # fmt: skip
            cursor.execute(f"ANALYZE {_temp(name)}")
        else:
            cursor.executemany(f"INSERT INTO {_temp(name)} VALUES (%s)",
                               [(s,) for s in sorted(streams)])  # fmt: skip
    return f"SELECT stream_id FROM {_temp(name)}"


def _feed(chosen: list[Projection], upto: dict[str, int],
          streams: dict[str, frozenset[str] | None], day: datetime.date | None,
          tick: Callable[[int], None]) -> int:  # fmt: skip
    """Every event the chosen projections fold, in ledger order, each
    projection given its own (its types, its streams, up to its checkpoint);
    ``tick`` told how many events each batch read."""
    if not chosen:
        return 0
    last = max(upto[p.name] for p in chosen)
    where, start, params = "", 0, []
    if all(p.event_types is not None for p in chosen):
        types = sorted(set().union(*(p.event_types or () for p in chosen)))
        where, params = f" AND event_type IN ({', '.join(['%s'] * len(types))})", types
    if day is not None:
        chosen_streams = _stream_table("verify_streams",
                                       list(set().union(*(s for s in streams.values() if s))))
        with connection.cursor() as cursor:
            cursor.execute(f"SELECT min(position) FROM ledger_event WHERE stream_id "
                           f"IN ({chosen_streams}) AND position <= %s", [last])  # fmt: skip
            start = (cursor.fetchone()[0] or 1) - 1
        where += f" AND stream_id IN ({chosen_streams})"
    kinds = {p.name: p.event_types for p in chosen}
    fed, after = 0, start
    while after < last:
        batch = select_events(
            f"SELECT {read_columns()} FROM ledger_event WHERE position > %s AND position <= %s"
            f"{where} ORDER BY position LIMIT %s", [after, last, *params, _BATCH])  # fmt: skip
        if not batch:
            break
        after = batch[-1].position
        for projection in chosen:
            types, own, until = kinds[projection.name], streams[projection.name], \
                upto[projection.name]  # fmt: skip
            given = [e for e in batch if e.position <= until
                     and (types is None or e.event_type in types)
                     and (own is None or e.stream_id in own)]  # fmt: skip
            if given:
                projection.apply(given)
        fed += len(batch)
        tick(len(batch))
    return fed


# --- comparing -------------------------------------------------------------------------


def _columns(read_model: ReadModel) -> tuple[list[str], list[str]]:
    """The key columns and the compared columns (every concrete column but
    an automatic id, which no event gives)."""
    meta = read_model.model._meta
    auto = meta.pk.get_internal_type() in ("AutoField", "BigAutoField")
    columns = [f.column for f in meta.concrete_fields if not (auto and f.primary_key)]
    key = list(read_model.key) or [meta.pk.column]
    return key, columns


def _own_streams(streams: frozenset[str]) -> str:
    """A temporary table of a projection's streams of the day (its rows that
    name no day are those of these streams; a recompute covers these)."""
    return _stream_table("verify_own", list(streams))


def _compare(
    projection: Projection,
    read_model: ReadModel,
    live: str,
    day: datetime.date | None,
    streams: frozenset[str] | None,
    part: _Part | None = None,
) -> list[Difference]:
    table = read_model.model._meta.db_table
    key, columns = _columns(read_model)
    same = "IS NOT DISTINCT FROM" if connection.vendor == "postgresql" else "IS"
    restrict, params = "", []
    if day is not None and read_model.day_field:
        restrict, params = f" WHERE {_quote(read_model.day_field)} = %s", [day]
        if part is not None and projection.name not in part.whole:
            restrict, params = part.rows(restrict, params)
    elif day is not None:
        # Rows of no day: those of the projection's streams of the day.
        restrict = f" WHERE {_quote(key[0])} IN ({_own_streams(streams or frozenset())})"
    listed = ", ".join(_quote(c) for c in columns)
    order = ", ".join(_quote(c) for c in columns if c not in key)
    partition = ", ".join(_quote(k) for k in key)

    def side(source: str) -> str:
        return (f"(SELECT {listed}, row_number() OVER (PARTITION BY {partition} ORDER BY "
                f"{order or partition}) AS verify_n FROM {source}{restrict})")  # fmt: skip

    shadow, stored = side(_temp(table)), side(f"{_quote(live)}.{_quote(table)}")
    join = " AND ".join(f"s.{_quote(k)} = l.{_quote(k)}" for k in [*key, "verify_n"])
    equal = " AND ".join(f"s.{_quote(c)} {same} l.{_quote(c)}" for c in columns)
    both = ", ".join(f"s.{_quote(c)}" for c in columns) + ", " + ", ".join(
        f"l.{_quote(c)}" for c in columns)  # fmt: skip
    first = _quote(key[0])
    sql = (f"SELECT 1, {both} FROM {shadow} s LEFT JOIN {stored} l ON {join} "
           f"WHERE l.{first} IS NULL OR NOT ({equal}) "
           f"UNION ALL SELECT 2, {both} FROM {stored} l LEFT JOIN {shadow} s ON {join} "
           f"WHERE s.{first} IS NULL")  # fmt: skip
    with connection.cursor() as cursor:
        cursor.execute(sql, params * 4)
        rows = cursor.fetchall()
    if not rows:
        return []
    fields = {f.column: f for f in read_model.model._meta.concrete_fields}
    width = len(columns)
    at = columns.index(read_model.position_field)
    where = _events_at({row[1 + at] if row[1 + at] is not None else row[1 + width + at]
                        for row in rows})  # fmt: skip
    found = []
    for row in rows:
        ledger = dict(zip(columns, row[1 : 1 + width], strict=True))
        stored_row = dict(zip(columns, row[1 + width :], strict=True))
        given = ledger if ledger[key[0]] is not None else None
        kept = stored_row if stored_row[key[0]] is not None else None
        some = given or kept or {}
        label = " ".join(str(some[k]) for k in key)
        gaming_day = _day(some.get(read_model.day_field)) if read_model.day_field else None
        position = (given or kept or {}).get(read_model.position_field)
        events = _source(where, position, given is not None)
        if given is None or kept is None:
            found.append(Difference(projection.name, table, label, "*",
                                    None if kept is None else "present",
                                    None if given is None else "present", events,
                                    gaming_day))  # fmt: skip
            continue
        for column in columns:
            a, b = _value(fields[column], kept[column]), _value(fields[column], given[column])
            if a != b:
                found.append(Difference(projection.name, table, label, column, a, b, events,
                                        gaming_day))  # fmt: skip
    if read_model.day_field is None and found:
        found = _dated(found, day)
    return found


def _dated(found: list[Difference], day: datetime.date | None) -> list[Difference]:
    """Rows that name no day but are keyed by a stream (the stream index):
    the gaming day of their stream, so the pages of that day warn too."""
    import dataclasses

    from audit import providers

    if day is not None:  # only the day's streams were compared
        return [dataclasses.replace(d, gaming_day=day) for d in found]
    registered = providers.day_streams()
    days = registered.days_of(sorted({d.key for d in found})) if registered else {}
    return [dataclasses.replace(d, gaming_day=days.get(d.key)) for d in found]


def _value(model_field: Any, value: Any) -> Any:
    """A column's value as Python (JSON decoded, dates as dates)."""
    if isinstance(value, str) and model_field.get_internal_type() == "JSONField":
        import json

        with contextlib.suppress(ValueError):
            return json.loads(value)
    with contextlib.suppress(Exception):
        return model_field.to_python(value)
    return value


def _day(value: Any) -> datetime.date | None:
    if isinstance(value, datetime.date):
        return value
    if isinstance(value, str):
        with contextlib.suppress(ValueError):
            return datetime.date.fromisoformat(value[:10])
    return None


def _events_at(positions: set[Any]) -> dict[int, tuple[str, int]]:
    """The stream and version of the event at each position (one query)."""
    wanted = sorted(p for p in positions if isinstance(p, int))
    if not wanted:
        return {}
    with connection.cursor() as cursor:
        cursor.execute("SELECT position, stream_id, version FROM ledger_event WHERE position IN "
                       f"({', '.join(['%s'] * len(wanted))})", wanted)  # fmt: skip
        return {position: (stream, version) for position, stream, version in cursor.fetchall()}


def _source(where: dict[int, tuple[str, int]], position: Any, given: bool) -> str:
    """The event a row was computed up to: ``<stream> version V (position P)``."""
    if position is None:
        return "no position recorded"
    found = where.get(position)
    at = (f"{found[0]} up to version {found[1]} (position {position})" if found
          else f"position {position}, which the ledger does not hold")
    return at if given else f"the stored row says {at}"


# --- the check -------------------------------------------------------------------------


def verify(names: Sequence[str] | None = None, *, gaming_day: datetime.date | None = None,
           progress: Callable[[int, int], None] | None = None,
           workers: int = 1) -> Result:  # fmt: skip
    """Recompute the named projections (default all) and run the registered
    checks, into shadows; every difference from the live rows. A gaming day
    with ``workers`` above 1 is checked in parts by table (see below); the
    differences are the same, in the same order."""
    names = list(names or known_names())
    unknown = sorted(set(names) - set(known_names()))
    if unknown:
        raise ValueError(f"unknown projection(s) {unknown}; known: {known_names()}")
    result = Result(gaming_day=gaming_day, projections=names)
    chosen = [PROJECTIONS[n] for n in names if n in PROJECTIONS]
    if gaming_day is not None:
        result.skipped = [p.name for p in chosen if p.day_streams is None]
        chosen = [p for p in chosen if p.day_streams is not None]
    fork = gaming_day is not None and _can_fork(workers)
    with _exported_snapshot() if fork else contextlib.nullcontext() as snapshot:
        parts: list[_Part] = []
        with _sandbox(snapshot):
            upto = dict(ProjectionCheckpoint.objects.filter(name__in=[p.name for p in chosen])
                        .values_list("name", "position"))  # fmt: skip
            upto = {p.name: upto.get(p.name, 0) for p in chosen}
            streams: dict[str, frozenset[str] | None] = {
                p.name: (frozenset(p.day_streams(gaming_day))
                         if gaming_day is not None and p.day_streams else None)
                for p in chosen}  # fmt: skip
            if gaming_day is not None and workers > 1:
                parts = _plan(chosen, streams, workers)
            if len(parts) < 2:
                outcomes = [_recompute(chosen, upto, streams, gaming_day, None, progress)]
            elif not fork:
                # One process (SQLite, a daemon, a caller's transaction): each
                # part in a savepoint of its own, rolled back before the next.
                outcomes = []
                for part in parts:
                    with _sandbox():
                        outcomes.append(_recompute(chosen, upto, streams, gaming_day, part))
                    if progress is not None:
                        progress(1, len(parts))
        if len(parts) >= 2 and fork:
            jobs = [(snapshot, [p.name for p in chosen], upto, streams, gaming_day, part)
                    for part in parts]  # fmt: skip
            outcomes = _forked(workers, jobs, progress)
    result.events = sum(events for events, _ in outcomes)
    order = {p.name: i for i, p in enumerate(chosen)}
    tables = {p.name: [m.model._meta.db_table for m in p.read_models] for p in chosen}
    # Sorted by row (stable: a row's fields stay in column order), so the
    # parts' differences come out as one process's do.
    result.differences = sorted(
        (d for _, found in outcomes for d in found),
        key=lambda d: (order[d.projection], tables[d.projection].index(d.table), d.key))
    for name in names:
        if name in _CHECKS:
            result.differences += _CHECKS[name].differences(gaming_day)
    return result


def _ticker(chosen: list[Projection], upto: dict[str, int],
            streams: dict[str, frozenset[str] | None], day: datetime.date | None,
            progress: Callable[[int, int], None] | None) -> Callable[[int], None]:  # fmt: skip
    """``progress`` told of the events read out of about how many: a day's
    streams' events, or the ledger's positions."""
    if progress is None:
        return lambda done: None
    last = max((upto[p.name] for p in chosen), default=0)
    total = last
    if day is not None:
        every = _stream_table("verify_all", list(set().union(*(s for s in streams.values()
                                                                 if s))))  # fmt: skip
        with connection.cursor() as cursor:
            cursor.execute(f"SELECT count(*) FROM ledger_event WHERE stream_id IN ({every}) "
                           "AND position <= %s", [last])  # fmt: skip
            total = cursor.fetchone()[0]
    progress(0, total)
    return lambda done: progress(done, total)


def _recompute(chosen: list[Projection], upto: dict[str, int],
               streams: dict[str, frozenset[str] | None], day: datetime.date | None,
               part: _Part | None, progress: Callable[[int, int], None] | None = None,
               ) -> tuple[int, list[Difference]]:  # fmt: skip
    """Inside a sandbox: the chosen projections recomputed into shadows (from
    a part's streams only, with one) and compared; the events fed and the
    differences."""
    if part is not None:  # a projection checked whole is in one part only
        chosen = [p for p in chosen if p.name in part.streams]
        streams = {p.name: part.streams[p.name] for p in chosen}
    tables = {m.model._meta.db_table for p in PROJECTIONS.values() for m in p.read_models}
    live = {table: _live_schema(table) for table in sorted(tables)}
    # Every projection's tables are shadowed, whichever are checked, so no
    # apply can reach a live row.
    for table in sorted(tables):
        _shadow(table, live[table])
    tick = _ticker(chosen, upto, streams, day, progress)
    folded = [p for p in chosen if p.recompute is None]
    with batch_gc():
        events = _feed(folded, upto, streams, day, tick)
        for projection in chosen:
            if projection.recompute is not None:
                own = streams[projection.name]
                events += projection.recompute(None if own is None else _own_streams(own),
                                               upto[projection.name], tick, day)  # fmt: skip
    found: list[Difference] = []
    for projection in chosen:
        for read_model in projection.read_models:
            found += _compare(projection, read_model, live[read_model.model._meta.db_table],
                              day, streams[projection.name], part)  # fmt: skip
    return events, found


# --- a day in parts, by table ----------------------------------------------------------------
#
# Like the close's read (operations.day_read): each projection's streams of
# the day split by table, every stream of a table in the same part (a table
# day's fills come from its slips), the streams of no table in the lightest
# part. Each part is recomputed and compared on a connection of its own, in a
# process of its own, all in one snapshot the parent exports; the rows each
# part compares are those of its tables. A projection whose rows are not all
# a table's or a stream's (casino.closes: the DayClose of the day) is checked
# whole, in one part.

_TABLE_COLUMN = "table_id"


@dataclass(frozen=True)
class _Part:
    """One part: each projection's streams in it, and the tables whose rows
    it compares (``outside``: every table but those, and rows of none)."""

    streams: dict[str, frozenset[str]]
    tables: frozenset[str]
    outside: bool = False
    #: Projections checked whole here (every stream, every row of the day).
    whole: frozenset[str] = frozenset()

    def rows(self, restrict: str, params: list[Any]) -> tuple[str, list[Any]]:
        """``restrict`` narrowed to this part's rows."""
        if not self.tables:
            return (restrict, params) if self.outside else (f"{restrict} AND 1 = 0", params)
        listed = ", ".join(["%s"] * len(self.tables))
        column = _quote(_TABLE_COLUMN)
        if self.outside:
            return (f"{restrict} AND ({column} IS NULL OR {column} NOT IN ({listed}))",
                    [*params, *sorted(self.tables)])  # fmt: skip
        return f"{restrict} AND {column} IN ({listed})", [*params, *sorted(self.tables)]


def _by_table(projection: Projection) -> bool:
    """Whether each of its rows is a table's (a dated row with a table) or a
    stream's (the stream index, compared by stream)."""
    return all(m.day_field is None or any(f.column == _TABLE_COLUMN
                                          for f in m.model._meta.concrete_fields)
               for m in projection.read_models)  # fmt: skip


def _plan(chosen: list[Projection], streams: dict[str, frozenset[str] | None],
          count: int) -> list[_Part]:  # fmt: skip
    """At most ``count`` parts of about equal streams (heaviest table first
    into the lightest part); none when the day cannot be split."""
    from audit import providers

    registered = providers.day_streams()
    if registered is None or registered.tables_of is None:
        return []
    split = [p for p in chosen if _by_table(p)]
    whole = [p for p in chosen if not _by_table(p)]
    every = sorted(set().union(*(streams[p.name] or () for p in split)))
    table_of = registered.tables_of(every)
    weights: dict[str, int] = {}
    for stream_id in every:
        if stream_id in table_of:
            weights[table_of[stream_id]] = weights.get(table_of[stream_id], 0) + 1
    if len(weights) < 2:
        return []
    bins: list[tuple[int, list[str]]] = [(0, []) for _ in range(min(count, len(weights)))]
    for table in sorted(weights, key=lambda t: (-weights[t], t)):
        bins.sort(key=lambda b: b[0])
        bins[0] = (bins[0][0] + weights[table], [*bins[0][1], table])
    bins.sort(key=lambda b: b[0])
    owner = {table: i for i, (_, tables) in enumerate(bins) for table in tables}
    parts = []
    for index, (_, tables) in enumerate(bins):
        rest = index == 0  # the lightest: streams and rows of no table, whole projections
        own = {p.name: frozenset(s for s in streams[p.name] or ()
                                 if owner.get(table_of.get(s, ""), 0 if rest else -1) == index)
               for p in split}  # fmt: skip
        if rest:
            own.update({p.name: streams[p.name] or frozenset() for p in whole})
            others = frozenset(t for t, i in owner.items() if i != 0)
            parts.append(_Part(own, others, outside=True,
                               whole=frozenset(p.name for p in whole)))  # fmt: skip
        else:
            parts.append(_Part(own, frozenset(tables)))
    return parts


def _can_fork(workers: int) -> bool:
    # As the close's read: a Celery prefork worker's processes are daemons and
    # may not fork; a caller's own transaction (a test's) is not the children's.
    import multiprocessing

    return (workers > 1 and connection.vendor == "postgresql" and not connection.in_atomic_block
            and not multiprocessing.current_process().daemon)  # fmt: skip


@contextlib.contextmanager
def _exported_snapshot() -> Iterator[str]:
    """A REPEATABLE READ transaction held open on a connection of its own
    while the parts run: its snapshot, which each part's transaction takes."""
    from django.db import connections

    holder = connections.create_connection("default")
    try:
        with holder.cursor() as cursor:
            cursor.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
            cursor.execute("SELECT pg_export_snapshot()")
            yield cursor.fetchone()[0]
    finally:
        holder.close()


_Job = tuple[str | None, list[str], dict[str, int], dict[str, frozenset[str] | None],
             datetime.date | None, _Part]  # fmt: skip


def _run_part(job: _Job) -> tuple[int, list[Difference]]:
    """One part, in a child process on a connection of its own."""
    snapshot, names, upto, streams, day, part = job
    chosen = [PROJECTIONS[n] for n in names]
    with _sandbox(snapshot):
        return _recompute(chosen, upto, streams, day, part)


def _forked(workers: int, jobs: list[_Job], progress: Callable[[int, int], None] | None,
            ) -> list[tuple[int, list[Difference]]]:  # fmt: skip
    import multiprocessing

    from django.db import connections

    connections.close_all()  # a child never shares its parent's connection
    outcomes = []
    with multiprocessing.get_context("fork").Pool(min(workers, len(jobs))) as pool:
        for outcome in pool.imap_unordered(_run_part, jobs):
            outcomes.append(outcome)
            if progress is not None:
                progress(1, len(jobs))
    return outcomes


# --- in the ledger -----------------------------------------------------------------------


_DIFFERENCE = object_schema({
    "projection": TEXT, "table": TEXT, "key": TEXT, "field": TEXT,
    "stored": {"type": "string", "maxLength": _VALUE},
    "ledger": {"type": "string", "maxLength": _VALUE},
    "events": {"type": "string", "maxLength": _VALUE},
    "gaming_day": {"type": ["string", "null"], "format": "date"},
    "text": {"type": "string", "maxLength": 500},
})  # fmt: skip
_OUTCOME = {
    "gaming_day": {"type": ["string", "null"], "description": "the day checked; null: all"},
    "projections": {"type": "array", "items": TEXT},
    "count": {"type": "integer", "minimum": 0},
    "days": {"type": "object", "additionalProperties": {"type": "integer", "minimum": 1},
             "description": "differences by gaming day (or 'undated')"},
    "differences": {"type": "array", "items": _DIFFERENCE, "maxItems": MAX_LISTED},
    "run_by": TEXT,
}
register_event_type(EventType(
    name=VERIFIED, version=1,
    description="verify_projections recomputed the read models from the ledger and compared "
    "them with the stored rows: every difference (table, key, field, stored value, the value "
    "the events give and the events), counted by gaming day; none when count is 0.",
    schema=object_schema({**_OUTCOME, "skipped": {"type": "array", "items": TEXT},
                          "events": {"type": "integer", "minimum": 0}}),
))  # fmt: skip
register_event_type(EventType(
    name=REBUILT, version=1,
    description="rebuild_projection replaced read-model rows with what the ledger gives: who "
    "ran it and every row it found different, recorded before they were replaced.",
    schema=object_schema(_OUTCOME),
))  # fmt: skip


def _job_only(stream_id: str, recorded: Any, new: Any, actor: Actor) -> None:
    from audit import errors, providers

    if providers.roles().system not in actor.roles:
        raise errors.Forbidden(
            f"{stream_id} is written by verify_projections and rebuild_projection only",
            field="stream_id",
        )


register_stream_kind(StreamKind(
    name=CHECK_KIND,
    description="What verify_projections found comparing the read models with the ledger, and "
    "what rebuild_projection replaced (with who ran it).",
    accepts=frozenset({VERIFIED, REBUILT}),
    policy=_job_only,
))  # fmt: skip


def _outcome(result: Result, run_by: str) -> dict[str, Any]:
    return {
        "gaming_day": result.gaming_day.isoformat() if result.gaming_day else None,
        "projections": result.projections, "count": len(result.differences),
        "days": result.by_day(), "run_by": run_by[:500],
        "differences": [d.as_payload() for d in result.differences[:MAX_LISTED]],
    }  # fmt: skip


def _record(event: NewEvent, tool: str) -> str:
    stream_id = f"{CHECK_KIND}:{timezone.now():%Y%m%dT%H%M%S%fZ}"
    append(stream_id, [event], expected_version=0, actor=Actor.system(tool, source="job"))
    return stream_id


def record_verification(result: Result, *, run_by: str) -> str:
    """Append the check's outcome to the ledger; returns its stream."""
    payload = {**_outcome(result, run_by), "skipped": result.skipped, "events": result.events}
    return _record(NewEvent(VERIFIED, payload), "verify-projections")


def record_rebuild(result: Result, *, run_by: str) -> str:
    """Append what a rebuild is about to replace, and who ran it."""
    return _record(NewEvent(REBUILT, _outcome(result, run_by)), "rebuild-projection")


# --- what the pages read ------------------------------------------------------------------


@dataclass(frozen=True)
class Outcome:
    """A recorded check (or rebuild) as the pages show it."""

    position: int
    stream_id: str
    kind: str
    recorded_at: datetime.datetime
    payload: dict[str, Any]

    @property
    def rebuilt(self) -> bool:
        return self.kind == REBUILT

    @property
    def count(self) -> int:
        return int(self.payload["count"])

    @property
    def run_by(self) -> str:
        return str(self.payload["run_by"])

    def on(self, day: datetime.date | None) -> int:
        """Its differences on ``day`` (all of them for None)."""
        if day is None:
            return self.count
        return int(self.payload["days"].get(day.isoformat(), 0))

    def differences(self) -> list[dict[str, Any]]:
        """The differences it listed (read from the ledger if not at hand)."""
        if "differences" in self.payload:
            return list(self.payload["differences"])
        whole = outcome_at(self.position)
        return whole.differences() if whole is not None else []


def recent_outcomes(scan: int = 100) -> list[Outcome]:
    """The latest recorded checks and rebuilds, newest first (one read of
    the ledger's index by event type), without their lists of differences
    (read when asked for: a page needs only the counts)."""
    from audit.storage import loads_json, parse_time

    summary = ("(payload - 'differences')::text" if connection.vendor == "postgresql"
               else "json_remove(payload, '$.differences')")  # fmt: skip
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT position, stream_id, event_type, recorded_at, {summary} FROM "
                       "ledger_event WHERE event_type IN (%s, %s) ORDER BY position DESC "
                       "LIMIT %s", [VERIFIED, REBUILT, scan])  # fmt: skip
        rows = cursor.fetchall()
    return [Outcome(position, stream_id, kind, parse_time(recorded_at), loads_json(payload))
            for position, stream_id, kind, recorded_at, payload in rows]


def covering(outcomes: Sequence[Outcome], day: datetime.date | None) -> Outcome | None:
    """The first of ``outcomes`` that covered ``day`` (a check of the whole
    ledger, or of that day); the first of all for None."""
    for outcome in outcomes:
        checked = outcome.payload.get("gaming_day")
        if day is None or checked is None or checked == day.isoformat():
            return outcome
    return None


def last_outcome(day: datetime.date | None = None) -> Outcome | None:
    """The latest recorded check or rebuild that covered ``day``."""
    return covering(recent_outcomes(), day)


def outcome_at(position: int) -> Outcome | None:
    found = select_events(f"SELECT {read_columns()} FROM ledger_event WHERE position = %s AND "
                          "event_type IN (%s, %s)", [position, VERIFIED, REBUILT])  # fmt: skip
    if not found:
        return None
    event = found[0]
    return Outcome(event.position, event.stream_id, event.event_type, event.recorded_at,
                   event.payload)  # fmt: skip


def default_workers() -> int:
    """Processes a day's check is shared by: the close's (``CLOSE_WORKERS``) on
    PostgreSQL; one on the embedded SQLite default."""
    from django.conf import settings

    if connection.vendor != "postgresql":
        return 1
    return max(1, int(getattr(settings, "CLOSE_WORKERS", 2)))
