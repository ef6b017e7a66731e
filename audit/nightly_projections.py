"""The nightly check of the read models, fanned out like the close's read.

Every night every day is checked again, not only the days the ledger added
to: forging a read model adds nothing to the ledger. The check is split
into parts, each a Celery task (``audit.verify_projections_part``):

* each gaming day that the ledger's streams name or a read model's rows
  carry (a row forged onto a day of no events is on a day too), checked as
  ``verify_projections --gaming-day`` checks it, in parts by table
  (``consistency._plan``);
* one part for what has no day: the projections whose rows name none (the
  stream index, decks, dice) over the whole ledger, and the registered
  checks (the configuration history).

As in the close (``operations.day_read``), the plan of each part is a file
in a directory under the export root, which every worker must share; the
parts are sent as a group of tasks, and whichever process claims a part (an
advisory lock, ``audit.claims``) checks it and leaves its differences there;
the job's own process claims parts too while it waits, so the check ends
without workers, and with eager Celery the tasks run here, one after the
other. On PostgreSQL every part reads the database in the snapshot the job
exported. The differences are merged in the order one process gives them.
"""

from __future__ import annotations

import contextlib
import datetime
import decimal
import logging
import shutil
import time
import uuid
from pathlib import Path
from typing import Any

import orjson
from django.db import connection, connections

from audit import consistency
from audit.claims import claim
from audit.models import ProjectionCheckpoint
from audit.projections import PROJECTIONS, Projection

logger = logging.getLogger(__name__)

#: Parts per worker process, per day (as the close's read).
PARTS_PER_WORKER = 4
POLL_SECONDS = 0.2


def _by_day(projection: Projection) -> bool:
    """Whether its rows are all a day's, and it knows each day's streams."""
    return projection.day_streams is not None and all(
        m.day_field is not None for m in projection.read_models)  # fmt: skip


def every_day(dated: list[Projection]) -> list[datetime.date]:
    """Each gaming day a stream's first event names, and each day a dated
    read model's rows carry."""
    field = ("payload ->> 'gaming_day'" if connection.vendor == "postgresql"
             else "json_extract(payload, '$.gaming_day')")  # fmt: skip
    days: set[datetime.date] = set()
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT DISTINCT {field} FROM ledger_event WHERE version = 1 "
                       f"AND {field} IS NOT NULL")  # fmt: skip
        for (named,) in cursor.fetchall():
            with contextlib.suppress(TypeError, ValueError):
                days.add(datetime.date.fromisoformat(str(named)[:10]))
        for projection in dated:
            for model in projection.read_models:
                cursor.execute(f"SELECT DISTINCT {connection.ops.quote_name(model.day_field or '')}"
                               f" FROM {connection.ops.quote_name(model.model._meta.db_table)}")
                days.update(row[0] for row in cursor.fetchall() if row[0] is not None)
    return sorted(days)


# --- the plan, and one part ------------------------------------------------------------------


def plan(workers: int) -> list[dict[str, Any]]:
    """The parts (inside the job's snapshot): the undated one first, then
    each day's, each a JSON-able job."""
    every = [PROJECTIONS[name] for name in sorted(PROJECTIONS)]
    dated = [p for p in every if _by_day(p)]
    upto = dict(ProjectionCheckpoint.objects.values_list("name", "position"))
    upto = {p.name: upto.get(p.name, 0) for p in every}
    jobs: list[dict[str, Any]] = [{"day": None, "names": [p.name for p in every if p not in dated],
                                   "upto": upto, "streams": None, "part": None}]  # fmt: skip
    for day in every_day(dated):
        streams: dict[str, frozenset[str] | None] = {
            p.name: frozenset(p.day_streams(day)) for p in dated if p.day_streams}  # fmt: skip
        parts = consistency._plan(dated, streams, workers * PARTS_PER_WORKER)
        base = {"day": day.isoformat(), "names": [p.name for p in dated], "upto": upto}
        if len(parts) < 2:
            jobs.append({**base, "streams": {n: sorted(s or ()) for n, s in streams.items()},
                         "part": None})  # fmt: skip
            continue
        jobs += [{**base, "streams": None, "part": {
            "streams": {n: sorted(s) for n, s in part.streams.items()},
            "tables": sorted(part.tables), "outside": part.outside, "whole": sorted(part.whole),
        }} for part in parts]  # fmt: skip
    return jobs


def check(job: dict[str, Any], snapshot: str | None = None) -> tuple[int, list[Any]]:
    """One part: its projections recomputed and compared in a sandbox (in
    ``snapshot``), and for the undated part the registered checks too."""
    day = datetime.date.fromisoformat(job["day"]) if job["day"] else None
    chosen = [PROJECTIONS[name] for name in job["names"]]
    part = None
    if job["part"] is not None:
        found = job["part"]
        part = consistency._Part({n: frozenset(s) for n, s in found["streams"].items()},
                                 frozenset(found["tables"]), found["outside"],
                                 frozenset(found["whole"]))  # fmt: skip
    streams: dict[str, frozenset[str] | None] = {
        p.name: (None if day is None or job["streams"] is None
                 else frozenset(job["streams"][p.name]))
        for p in chosen}  # fmt: skip
    with consistency._sandbox(snapshot):
        events, differences = consistency._recompute(chosen, job["upto"], streams, day, part)
    if day is None:
        for name in sorted(consistency._CHECKS):
            differences += consistency._CHECKS[name].differences(None)
    return events, differences


def run_part(directory: str | Path, index: int, holder: Any = None) -> str:
    """Check part ``index`` of the run in ``directory`` unless it is checked
    already, being checked, or its run is over (its directory gone)."""
    directory = Path(directory)
    planned, result = directory / f"part-{index}.plan.json", directory / f"part-{index}.json"
    if not planned.exists():
        return "its check is over"
    with claim(directory, index, holder) as claimed:
        if not claimed:
            return "being checked elsewhere"
        if result.exists():
            return "checked already"
        job = orjson.loads(planned.read_bytes())
        events, differences = check(job, job.get("snapshot"))
        written = result.with_suffix(".partial")
        written.write_bytes(orjson.dumps({"events": events, "differences": [
            [d.projection, d.table, d.key, d.field, _dump(d.stored), _dump(d.ledger), d.events,
             d.gaming_day.isoformat() if d.gaming_day else None] for d in differences]}))
        written.replace(result)  # the result appears whole, or not at all
    return "checked"


# Values as they were compared (dates, times, decimals kept apart from text),
# so that the merged differences read as one process's.
def _dump(value: Any) -> Any:
    if isinstance(value, datetime.datetime):
        return {"$datetime": value.isoformat()}
    if isinstance(value, datetime.date):
        return {"$date": value.isoformat()}
    if isinstance(value, decimal.Decimal):
        return {"$decimal": str(value)}
    if isinstance(value, dict):
        return {"$dict": {k: _dump(v) for k, v in value.items()}}
    if isinstance(value, list | tuple):
        return [_dump(v) for v in value]
    return value


def _load(value: Any) -> Any:
    if isinstance(value, list):
        return [_load(v) for v in value]
    if not isinstance(value, dict):
        return value
    ((tag, inner),) = value.items()
    if tag == "$datetime":
        return datetime.datetime.fromisoformat(inner)
    if tag == "$date":
        return datetime.date.fromisoformat(inner)
    if tag == "$decimal":
        return decimal.Decimal(inner)
    return {k: _load(v) for k, v in inner.items()}


def _differences(found: dict[str, Any]) -> list[Any]:
    return [consistency.Difference(projection, table, key, field, _load(stored), _load(ledger),
                                   events, datetime.date.fromisoformat(day) if day else None)
            for projection, table, key, field, stored, ledger, events, day
            in found["differences"]]  # fmt: skip


# --- the job -------------------------------------------------------------------------------


def verify_in_parts(workers: int) -> consistency.Result:
    """Every projection and check over every day, in parts (see the module
    docstring); the differences in the order ``consistency.verify()`` gives."""
    from celery import group
    from django.conf import settings

    from audit.tasks import verify_projections_part

    exported = connection.vendor == "postgresql" and not connection.in_atomic_block
    with consistency._exported_snapshot() if exported else contextlib.nullcontext() as snapshot:
        with consistency._sandbox(snapshot):
            jobs = plan(workers)
        directory = Path(settings.EXPORT_ROOT) / f".projection-check-{uuid.uuid4().hex[:12]}"
        directory.mkdir(parents=True)
        with contextlib.ExitStack() as cleanup:
            cleanup.callback(shutil.rmtree, directory, ignore_errors=True)
            for index, job in enumerate(jobs):
                (directory / f"part-{index}.plan.json").write_bytes(
                    orjson.dumps({**job, "snapshot": snapshot}))
            # To the workers; eager (no broker), here, one after the other.
            group(verify_projections_part.s(str(directory), index)
                  for index in range(len(jobs))).apply_async()  # fmt: skip
            holder = None
            if connection.vendor == "postgresql":
                holder = connections.create_connection("default")
                cleanup.callback(holder.close)
            results: dict[int, dict[str, Any]] = {}
            while len(results) < len(jobs):
                for index in range(len(jobs)):
                    found = directory / f"part-{index}.json"
                    if index not in results and not found.exists():
                        run_part(directory, index, holder)  # unless another process holds it
                    if index not in results and found.exists():
                        results[index] = orjson.loads(found.read_bytes())
                if len(results) < len(jobs):
                    time.sleep(POLL_SECONDS)
    names = consistency.known_names()
    every = sorted(PROJECTIONS)
    order = {name: i for i, name in enumerate(every)}
    tables = {name: [m.model._meta.db_table for m in PROJECTIONS[name].read_models]
              for name in every}  # fmt: skip
    found_all = [d for i in sorted(results) for d in _differences(results[i])]
    compared = [d for d in found_all if d.projection in PROJECTIONS]
    checked = [d for d in found_all if d.projection not in PROJECTIONS]
    result = consistency.Result(gaming_day=None, projections=names,
                                events=sum(r["events"] for r in results.values()))  # fmt: skip
    # As verify(): sorted by row, stable (a row's fields stay in column order).
    result.differences = sorted(compared, key=lambda d: (
        order[d.projection], tables[d.projection].index(d.table), d.key)) + checked
    return result


def check_projections(workers: int | None = None) -> dict[str, Any]:
    """The nightly job: ``verify_in_parts``, its outcome recorded in the
    ledger (differences or none), which the finance pages and the floor
    board read."""
    from django.conf import settings

    result = verify_in_parts(workers or max(1, int(getattr(settings, "CLOSE_WORKERS", 2))))
    stream_id = consistency.record_verification(result, run_by="nightly job")
    if result.differences:
        logger.error("verify_projections found %d difference(s), recorded in %s: %s",
                     len(result.differences), stream_id,
                     "; ".join(map(str, result.differences[:5])))  # fmt: skip
    return {"ok": result.ok, "recorded": stream_id, "differences": len(result.differences),
            "events": result.events}  # fmt: skip
