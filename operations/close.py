"""The gaming-day close: tables, replay, reconciliation, seal and export, as
one resumable job whose every step is a ledger event.

The close of day D is the stream ``close:<D>``; each stage appends one event
when it finishes, so the stream *is* the job's state:

1. ``close.started`` — the tables are checked: any still open, or closed
   without a verified count, stop the close (the message lists them) unless
   a shift supervisor forces it, in which case those tables are recorded as
   left without a win. The event fixes the **cutoff**: the ledger position
   every later stage reads up to, so a re-run reads exactly what the first
   run read, whatever was appended since (a late recount, say).
2. ``close.replayed`` — every round of the day replayed through the rules
   engine, and every poker hand through the hand machine (its findings
   counted by kind and section, its table's theoretical win the rake the
   rules required); per table, the handle by wager, the chips collected and paid, the
   findings and the exact theoretical win. The replay is the day's one read
   (``operations.day_read``): the same pass checks every hash and link for
   the seal and writes the export's ``events.jsonl``; with several workers,
   in parts by position range, each a Celery task. A run that resumes at the seal
   reads the day then.
3. ``close.reconciled`` — per table, the count's win and hold beside the
   ledger's figures, and the variances (``tables.reconciliation``); per Bad
   Beat fund, its box's count against its hands' contributions; under the
   variance thresholds in force that day on the casino's configuration
   stream (``casino.configuration``; recorded with them).
4. ``close.sealed`` — the day's seal (``audit.seals``).
5. ``close.exported`` — the regulator export (``audit.exports``), its zip's
   SHA-256.
6. ``close.completed``.

Running it again after ``close.completed`` changes nothing and reports
"already closed". A run killed between stages resumes at the first missing
one; one killed inside a stage redoes that stage from the same cutoff, so
the results are identical. Only one run of a day works at a time: a run holds
a PostgreSQL advisory lock on the day for its whole length, on a connection of
its own (the lock dies with the process that held it, killed or not); a
second run while the first is alive raises ``CloseBusy`` at once, and the
Celery task looks again a little later (a job delivered twice, or delivered
again because its broker thought it lost). Appends are by the system actor
``close`` and name the person who asked (``requested_by``).
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import datetime
import shutil
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import connections, transaction
from django.utils import timezone

from audit import errors
from audit.ledger import (
    Actor,
    NewEvent,
    RecordedEvent,
    append,
    head_position,
    read_stream,
    read_streams,
)
from audit.projections import Projection, ReadModel, register
from audit.projections import run as run_projection
from audit.registry import (
    EventType,
    StreamKind,
    object_schema,
    register_event_type,
    register_stream_kind,
)
from audit.seals import Ranges
from casino.configuration import thresholds_in_force
from casino.models import Casino, DayClose, DayCloseStatus, VariancePolicy
from casino.roles import Role
from operations.day_read import DayRead, read_day_in_parts
from operations.meters import PROGRESSIVE_WAGER, reconcile_meters
from progressives.models import MeterDay

CLOSE_STREAM_KIND = "close"
STARTED = "close.started"
REPLAYED = "close.replayed"
RECONCILED = "close.reconciled"
SEALED = "close.sealed"
EXPORTED = "close.exported"
COMPLETED = "close.completed"
STAGES = (STARTED, REPLAYED, RECONCILED, SEALED, EXPORTED, COMPLETED)
#: The progress callback's stage names, in order.
STAGE_NAMES = {event_type: event_type.partition(".")[2] for event_type in STAGES}

_DAY = {"type": "string", "format": "date"}
_USER = {"type": "string", "minLength": 1, "maxLength": 150}
_COUNT = {"type": "integer", "minimum": 0}
_HASH = {"type": "string", "pattern": "^[0-9a-f]{64}$"}
_TABLES = {"type": "array", "items": {"type": "string"}}
_OBJECT = {"type": "object"}
_SCHEMAS: dict[str, tuple[str, dict[str, Any]]] = {
    STARTED: ("The close of a gaming day began: who asked, whether forced, the ledger "
              "position it reads up to, the tables it covers and those left without a win.",
              {"gaming_day": _DAY, "requested_by": _USER, "forced": {"type": "boolean"},
               "cutoff_position": _COUNT, "tables": _TABLES, "left_open": _TABLES,
               "uncounted": _TABLES, "jurisdiction": {"type": "string"},
               "thresholds": _OBJECT}),
    REPLAYED: ("Every round of the day replayed through the rules engine; per table, "
               "the handle by wager, chips collected and paid, findings, theoretical win; "
               "the day's poker hands per table: rake and Bad Beat contributions taken "
               "and required.",
               {"rounds": _COUNT, "events": _COUNT, "findings": _OBJECT, "refused": _TABLES,
                "tables": _OBJECT, "poker": _OBJECT, "time_charges": _OBJECT}),
    RECONCILED: ("Each table's win and hold from the count, beside the ledger's figures and "
                 "the theoretical win, and each progressive meter's day against its "
                 "controller, with the variances above the thresholds; each Bad Beat fund "
                 "whose count differs from its hands' contributions.",
                 {"tables": {"type": "array", "items": _OBJECT},
                  "meters": {"type": "array", "items": _OBJECT}, "totals": _OBJECT,
                  "funds": {"type": "array", "items": _OBJECT}}),
    SEALED: ("The gaming day was sealed (Merkle root over its streams' heads, signed).",
             {"seal_hash": _HASH, "merkle_root": _HASH, "events": _COUNT, "streams": _COUNT}),
    EXPORTED: ("The regulator export of the day was written.",
               {"name": {"type": "string"}, "zip_sha256": _HASH, "bytes": _COUNT}),
    COMPLETED: ("The close of the gaming day is complete.",
                {"tables": _COUNT, "variances": _COUNT, "win_cents": {"type": "integer"}}),
}  # fmt: skip
#: Version 2 of ``close.reconciled`` adds the meters (issue 11); a version-1 close had none.
_UPCASTERS = {RECONCILED: {1: lambda payload: {**payload, "meters": []}}}
#: Optional, and only where there is something to say (a day without is recorded as before
#: they were added, so its version still means what it meant): ``poker`` on a day with
#: poker hands, ``funds`` on a day with a Bad Beat fund (a count variance, before issue 12),
#: ``time_charges`` on a day a poker table took time charges (§ 553.15(b)(3)).
_OPTIONAL = {"poker", "funds", "time_charges"}
for _name, (_description, _properties) in _SCHEMAS.items():
    _schema = object_schema(_properties, description=_description,
                            required=[k for k in _properties if k not in _OPTIONAL])  # fmt: skip
    _upcasters = _UPCASTERS.get(_name, {})
    register_event_type(EventType(name=_name, version=len(_upcasters) + 1,
                                  description=_description, schema=_schema,
                                  upcasters=_upcasters))  # fmt: skip


def close_stream_id(day: datetime.date) -> str:
    return f"{CLOSE_STREAM_KIND}:{day.isoformat()}"


def close_policy(stream_id: str, recorded: Any, new: Any, actor: Any) -> None:
    """The close job's own stream (no correction, no one else's event: either
    would block the close); the stages in order, each once; a forced close
    is a shift supervisor's."""
    from audit.providers import roles
    from tables.table_day import check_person

    if roles().system not in actor.roles or actor.source != "close":
        raise errors.Forbidden(
            f"{stream_id} is written by the close job only, not by {actor.username or 'anyone'}",
            field="stream_id",
        )
    done = [e.event_type for e in recorded]
    for index, event in enumerate(new):
        expected = STAGES[len(done)] if len(done) < len(STAGES) else None
        if event.event_type != expected:
            raise errors.RuleViolation(
                f"the close's next step is {expected or 'nothing (the day is closed)'}, "
                f"not {event.event_type}",
                field=f"events[{index}].type",
            )
        if event.event_type == STARTED and event.payload["forced"]:
            check_person(event.payload["requested_by"], frozenset({Role.SHIFT_SUPERVISOR.value}),
                         f"events[{index}].payload.requested_by")  # fmt: skip
        done.append(event.event_type)


register_stream_kind(
    StreamKind(
        name=CLOSE_STREAM_KIND,
        description="One gaming day's close: each stage's result, in order.",
        accepts=frozenset(STAGES),
        policy=close_policy,
    )
)


class CloseRefused(Exception):
    """The day cannot be closed (yet): the message says why and lists tables."""


class CloseBusy(CloseRefused):
    """Another live run is closing the day; look again in a little while."""


#: The advisory lock's first key (``close`` in ASCII); the second is the day.
_LOCK_CLASS = 0x636C6F73


@contextlib.contextmanager
def _exclusive(day: datetime.date) -> Iterator[None]:
    """Hold the day's close lock, or raise ``CloseBusy``.

    A session-level advisory lock on a connection of its own: the close's
    own connection is closed around each fork of its pool reading the day in parts, which would
    drop a lock held on it. The server releases the lock as soon as the
    holder's connection ends, so a killed run leaves nothing to clean up.
    """
    if connections["default"].vendor != "postgresql":
        yield  # the embedded SQLite default runs one close at a time anyway
        return
    holder = connections.create_connection("default")
    try:
        with holder.cursor() as cursor:
            cursor.execute("SELECT pg_try_advisory_lock(%s, %s)", [_LOCK_CLASS, day.toordinal()])
            acquired = cursor.fetchone()[0]
        if not acquired:
            raise CloseBusy(f"gaming day {day} is being closed by another run right now")
        yield
    finally:
        holder.close()  # ends the session, and with it the lock


@dataclass
class CloseReport:
    gaming_day: datetime.date
    already_closed: bool = False
    stages_run: list[str] = field(default_factory=list)
    tables: int = 0
    rounds: int = 0
    variances: int = 0
    win_cents: int = 0
    export: Path | None = None

    def summary(self) -> str:
        if self.already_closed:
            return f"gaming day {self.gaming_day} is already closed"
        return (f"gaming day {self.gaming_day} closed: {self.tables} tables, {self.rounds} "
                f"rounds, {self.variances} variances; stages run: "
                f"{', '.join(self.stages_run) or 'none'}")  # fmt: skip


Progress = Callable[[str, int, int], None]


def _no_progress(stage: str, done: int, total: int) -> None:
    pass


def export_root() -> Path:
    return Path(getattr(settings, "EXPORT_ROOT", Path(settings.BASE_DIR) / "var" / "exports"))


def close_gaming_day(
    day: datetime.date,
    *,
    requested_by: str,
    force: bool = False,
    now: datetime.datetime | None = None,
    progress: Progress | None = None,
    workers: int = 1,
) -> CloseReport:
    """Close ``day`` (see the module docstring); returns what was done."""
    progress = progress or _no_progress
    report = CloseReport(day)
    stream_id = close_stream_id(day)
    if not _completed(stream_id, report):
        with _exclusive(day):
            # Read again under the lock: a run that just finished is seen here.
            if not _completed(stream_id, report):
                _close(day, report, requested_by, force, now, progress, workers)
    return report


def _completed(stream_id: str, report: CloseReport) -> bool:
    recorded = {e.event_type: e for e in read_stream(stream_id)}
    if COMPLETED not in recorded:
        return False
    report.already_closed = True
    _fill_report(report, recorded)
    return True


def _close(
    day: datetime.date,
    report: CloseReport,
    requested_by: str,
    force: bool,
    now: datetime.datetime | None,
    progress: Progress,
    workers: int,
) -> None:
    stream_id = close_stream_id(day)
    recorded = {e.event_type: e for e in read_stream(stream_id)}
    casino = Casino.current()
    now = now or timezone.now()
    _, end = casino.gaming_day_bounds(day)
    if now < end:
        raise CloseRefused(f"gaming day {day} has not ended (it ends at {end.isoformat()})")
    actor = Actor.system("close", source="close")

    def record(event_type: str, payload: dict[str, Any]) -> RecordedEvent:
        append(stream_id, [NewEvent(event_type, payload)],
               expected_version=len(recorded), actor=actor)  # fmt: skip
        event = read_stream(stream_id, after_version=len(recorded))[0]
        recorded[event_type] = event
        report.stages_run.append(STAGE_NAMES[event_type])
        return event

    if STARTED not in recorded:
        progress("started", 0, 1)
        record(STARTED, _start(day, casino, requested_by, force))
        progress("started", 1, 1)
    cutoff = recorded[STARTED].payload["cutoff_position"]
    # The read models' CSVs as the seal signs them, for the export to move in.
    csvs = export_root() / f".{day.isoformat()}.csv"
    # The day is read once, by the replay (or by the seal when a run resumes
    # there): that read checks the chains for the seal and writes events.jsonl.
    read = None
    try:
        if REPLAYED not in recorded:
            read = _read(day, cutoff, progress, True, workers)
            assert read.tally is not None
            record(REPLAYED, _with_time_charges(read.tally.payload(), day, cutoff))
        if RECONCILED not in recorded:
            record(RECONCILED, _reconcile(day, recorded[STARTED].payload,
                                          recorded[REPLAYED].payload, progress))  # fmt: skip
        if SEALED not in recorded:
            from audit.seals import seal_day

            progress("sealed", 0, 1)
            if read is None:
                read = _read(day, cutoff, progress, False, workers)
            csvs.mkdir(parents=True, exist_ok=True)
            seal = seal_day(day, now=now, cutoff=cutoff, walk=read.walk, csvs=csvs)
            record(SEALED, {"seal_hash": seal.seal_hash, "merkle_root": seal.merkle_root,
                            "events": seal.event_count, "streams": seal.stream_count})  # fmt: skip
            progress("sealed", 1, 1)
        if EXPORTED not in recorded:
            # A seal made by this very run was a full walk of the day a moment ago;
            # a close resumed later checks the day against its seal again.
            check_seal = "sealed" not in report.stages_run
            events = (read.path, read.digest.result()) if read is not None else None
            # The seal's members, as this run sealed them (one run's read has them).
            members = read.walk.ranges if read is not None and not check_seal else None
            record(EXPORTED, _export(day, now, progress, check_seal, events, csvs, members))
    finally:
        if read is not None:
            concurrent.futures.wait([read.digest])  # not unlinked while still being written
            read.path.unlink(missing_ok=True)  # moved into the export, or not wanted
        shutil.rmtree(csvs, ignore_errors=True)
    reconciled = recorded[RECONCILED].payload["totals"]
    record(COMPLETED, {"tables": reconciled["tables"], "variances": reconciled["variances"],
                       "win_cents": reconciled["win_cents"]})  # fmt: skip
    run_projection(CLOSES)
    _fill_report(report, recorded)


def _fill_report(report: CloseReport, recorded: dict[str, RecordedEvent]) -> None:
    totals = recorded[RECONCILED].payload["totals"]
    report.tables, report.variances = totals["tables"], totals["variances"]
    report.win_cents, report.rounds = totals["win_cents"], recorded[REPLAYED].payload["rounds"]
    report.export = export_root() / f"{recorded[EXPORTED].payload['name']}.zip"


# --- 1. the tables ----------------------------------------------------------------------


def _start(day: datetime.date, casino: Casino, requested_by: str, force: bool) -> dict[str, Any]:
    from tables.count import latest_verified_count
    from tables.models import TableDay, TableDayStatus
    from tables.table_day import TABLE_DAYS

    run_projection(TABLE_DAYS)
    days = list(TableDay.objects.filter(gaming_day=day).order_by("table_id"))
    left_open = [d.table_id for d in days if d.status == TableDayStatus.OPEN]
    uncounted = [d.table_id for d in days if d.status == TableDayStatus.CLOSED
                 and latest_verified_count(d.table_id, day) is None]  # fmt: skip
    if (left_open or uncounted) and not force:
        problems = []
        if left_open:
            problems.append(f"still open: {', '.join(left_open)}")
        if uncounted:
            problems.append(f"drop not counted and verified: {', '.join(uncounted)}")
        raise CloseRefused(
            f"gaming day {day} cannot be closed — {'; '.join(problems)}. Close the tables and "
            "verify their counts, or have a shift supervisor force the close (those tables "
            "are then recorded without a win)."
        )
    # The thresholds in force that day as the casino's configuration stream
    # holds them (issue 21); a casino whose stream holds none yet, its policy rows.
    thresholds = thresholds_in_force(day) or VariancePolicy.in_force(
        casino.jurisdiction_id, day).thresholds()
    return {
        "gaming_day": day.isoformat(),
        "requested_by": requested_by,
        "forced": bool(force and (left_open or uncounted)),
        "cutoff_position": head_position(),
        "tables": [d.table_id for d in days],
        "left_open": left_open,
        "uncounted": uncounted,
        "jurisdiction": casino.jurisdiction_id,
        "thresholds": thresholds,
    }


# --- 2. replay --------------------------------------------------------------------------


def _read(day: datetime.date, cutoff: int, progress: Progress, replay: bool,
          workers: int) -> DayRead:
    """The close's one read of the day (``operations.day_read``), its
    ``events.jsonl`` written aside for the export; in parts by position range, read by
    ``workers`` processes (a small day whole)."""
    from audit.exports import export_name

    root = export_root()
    root.mkdir(parents=True, exist_ok=True)
    path = root / f".{export_name(day)}.events.jsonl"
    total = 0
    if replay:
        from tables.verification import RoundSelection, count_rounds

        total = count_rounds(RoundSelection(gaming_day=day, upto_position=cutoff))
        progress("replayed", 0, total)

    def on_round(done: int) -> None:
        progress("replayed", done, total)

    try:
        read = read_day_in_parts(day, cutoff, path, replay=replay, workers=workers,
                                 scratch=root, on_round=on_round)  # fmt: skip
    except BaseException:
        path.unlink(missing_ok=True)
        raise
    if read.tally is not None:
        progress("replayed", read.tally.rounds, total)
    return read


def _with_time_charges(payload: dict[str, Any], day: datetime.date,
                       cutoff: int) -> dict[str, Any]:  # fmt: skip
    """The replay's figures with each poker table's time charges of the day judged against
    its posted schedule (§ 553.15(b)(3)), their findings counted with the hands'."""
    from tables.time_charges import charge_days

    charges = charge_days(day, cutoff)
    if not charges:
        return payload
    findings = dict(payload["findings"])
    for table in charges.values():
        for key, count in table["findings"].items():
            findings[key] = findings.get(key, 0) + count
    return {**payload, "findings": findings, "time_charges": charges}


# --- 3. reconciliation ------------------------------------------------------------------


def _reconcile(
    day: datetime.date, started: dict[str, Any], replayed: dict[str, Any], progress: Progress
) -> dict[str, Any]:
    from tables.count import latest_verified_count
    from tables.models import Table, TableDayFigures, TableDayStatus
    from tables.poker_hands import HandTally
    from tables.reconciliation import (
        LEFT_OPEN,
        NO_COUNT,
        NOT_OPENED,
        RECONCILED,
        DayHistory,
        PlayTally,
        TableInputs,
        reconcile,
    )
    from tables.win import table_day_at

    # The history the hold checks read is earlier closes' figures.
    run_projection(CLOSES)
    cutoff = started["cutoff_position"]
    tallies = {t: PlayTally.from_payload(p) for t, p in replayed["tables"].items()}
    for table_id, hands in replayed.get("poker", {}).items():
        # A poker table's revenue is the rake (§ 553.15), never the pots.
        play = HandTally.from_payload(hands).play()
        tallies[table_id] = tallies[table_id].merge(play) if table_id in tallies else play
    for table_id, charges in replayed.get("time_charges", {}).items():
        # ... and the time charges the posted schedule required (§ 553.15(b)(3)).
        play = PlayTally(findings=sum(charges["findings"].values()),
                         theoretical=Fraction(charges["required_cents"]))  # fmt: skip
        tallies[table_id] = tallies[table_id].merge(play) if table_id in tallies else play
    table_ids = sorted(set(started["tables"]) | set(tallies))
    configured = {t.table_id: t for t in Table.objects.filter(table_id__in=table_ids)}
    history: dict[str, list[DayHistory]] = {}
    earlier = TableDayFigures.objects.filter(
        table_id__in=table_ids, status=RECONCILED, gaming_day__lt=day,
        gaming_day__gte=day - datetime.timedelta(days=400),
    ).order_by("table_id", "gaming_day").values_list("table_id", "gaming_day", "win_cents",
                                                     "drop_cents")  # fmt: skip
    for table_id, gaming_day, win_cents, drop_cents in earlier:
        history.setdefault(table_id, []).append(DayHistory(gaming_day, win_cents, drop_cents))
    results = []
    progress("reconciled", 0, len(table_ids))
    for done, table_id in enumerate(table_ids, start=1):
        table = configured.get(table_id)
        row = table_day_at(table_id, day, upto=cutoff)
        count = latest_verified_count(table_id, day, upto=cutoff) if row is not None else None
        if row is None:
            status = NOT_OPENED
        elif row.status != TableDayStatus.CLOSED:
            status = LEFT_OPEN
        elif count is None:
            status = NO_COUNT
        else:
            status = RECONCILED
        inputs = TableInputs(
            table_id=table_id,
            game=table.game if table else "",
            pit=table.pit if table else "",
            gaming_day=day,
            status=status,
            play=tallies.get(table_id, PlayTally()),
            opener_cents=row.opener_cents if row else 0,
            closer_cents=(row.closer_cents or 0) if row else 0,
            fills_cents=row.fills_cents if row else 0,
            credits_cents=row.credits_cents if row else 0,
            buy_ins_cents=row.buy_ins_cents if row else 0,
            drop_cents=count.drop_cents if count else 0,
            history=tuple(history.get(table_id, ())),
        )
        results.append(reconcile(inputs, started["thresholds"]))
        progress("reconciled", done, len(table_ids))
    figures = [r["figures"] for r in results]
    funds = _bad_beat_funds(day, cutoff, replayed)
    totals = {
        "tables": len(figures),
        "reconciled": sum(f["status"] == RECONCILED for f in figures),
        "variances": sum(len(r["variances"]) for r in [*results, *funds]),
    }
    for name in ("handle_cents", "drop_cents", "win_cents", "theoretical_win_cents",
                 "fills_cents", "credits_cents", "rounds"):  # fmt: skip
        totals[name] = sum(f[name] for f in figures)
    accepted = {table: tally.accepted_cents(PROGRESSIVE_WAGER) for table, tally in tallies.items()}
    meters = reconcile_meters(day, cutoff, started["thresholds"], accepted)
    totals["meter_variances"] = sum(len(meter["variances"]) for meter in meters)
    totals["variances"] += totals["meter_variances"]
    reconciled = {"tables": results, "meters": meters, "totals": totals}
    if funds:
        reconciled["funds"] = funds
    return reconciled


#: A Bad Beat fund's count variance, in the Variance read model beside the tables':
#: the fund's id in the table's place (a fund is no table; no table has this kind).
BAD_BEAT_COUNT = "bad_beat_count"


def _bad_beat_funds(day: datetime.date, cutoff: int,
                    replayed: dict[str, Any]) -> list[dict[str, Any]]:  # fmt: skip
    """Each Bad Beat fund's day (§ 553.20): opening, contributions, awards, closing, the
    box's count and the display, with its variances, none with a threshold: the count
    against the hands' contributions ((d), (e)), the display against finance's amount and
    the fund ((h)), an award against the posted shares ((b)(3), (g)), a Bad Beat hand the
    replay found and nobody verified ((f))."""
    from tables.bad_beat import (
        BAD_BEAT_STREAM_KIND,
        count_variances,
        counted_cents,
        fund_history,
        fund_ids,
    )
    from tables.reconciliation import dollars

    qualifying: dict[str, list[str]] = {}
    for hands in replayed.get("poker", {}).values():
        for fund_id, hand_ids in hands.get("bad_beats", {}).items():
            qualifying.setdefault(fund_id, []).extend(hand_ids)
    counts = count_variances(day, upto=cutoff)
    funds = []
    for fund_id in sorted(set(fund_ids(cutoff)) | set(counts)):
        (found,) = fund_history(fund_id, day, day, upto=cutoff,
                                qualifying={day: sorted(qualifying.get(fund_id, []))})
        variances = []
        count = counts.get(fund_id)
        if count is not None:
            detail = (f"§ {count.section}: the Bad Beat box of fund {fund_id} was counted at "
                      f"{dollars(count.counted_cents)}; the day's hands contributed "
                      f"{dollars(count.contributed_cents)} "
                      f"({dollars(count.difference_cents)})")  # fmt: skip
            variances.append({"kind": BAD_BEAT_COUNT, "amount": count.difference_cents,
                              "threshold": 0, "unit": "cents", "detail": detail})  # fmt: skip
        variances += [{"kind": v.kind, "amount": v.amount_cents, "threshold": 0, "unit": "cents",
                       "detail": "; ".join(v.details)[:2000]} for v in found.variances]  # fmt: skip
        if not variances and not (found.opening_cents or found.closing_cents
                                  or found.contributions_cents or found.awards
                                  or found.transferred_cents):  # fmt: skip
            continue  # a fund with nothing that day, and nothing owed
        counted = counted_cents(read_stream(f"{BAD_BEAT_STREAM_KIND}:{fund_id}"), day, cutoff)
        funds.append({
            "fund_id": fund_id, "opening_cents": found.opening_cents,
            "contributed_cents": found.contributions_cents, "counted_cents": counted,
            "awards_cents": found.awards_cents, "awards": found.awards,
            "transferred_cents": found.transferred_cents, "closing_cents": found.closing_cents,
            "displayed_cents": found.displayed_cents,
            "pending": list(found.pending), "variances": variances,
        })  # fmt: skip
    return funds


# --- 5. the export ----------------------------------------------------------------------


def _export(
    day: datetime.date, now: datetime.datetime, progress: Progress, check_seal: bool,
    events: tuple[Path, dict[str, Any]] | None = None, csvs: Path | None = None,
    members: Ranges | None = None,
) -> dict[str, Any]:  # fmt: skip
    from audit.exports import export_day, file_digest

    progress("exported", 0, 1)
    # The export's CSVs read the read models: bring them all up to date first.
    from audit.projections import run_all

    run_all()
    root = export_root()
    root.mkdir(parents=True, exist_ok=True)
    directory = export_day(day, root, make_zip=True, now=now, check_seal=check_seal,
                           events=events, csvs=csvs, members=members)  # fmt: skip
    digest = file_digest(directory.with_suffix(".zip"))
    progress("exported", 1, 1)
    return {"name": directory.name, "zip_sha256": digest["sha256"], "bytes": digest["bytes"]}


# --- the projection: DayClose, TableDayFigures, Variance --------------------------------


def _apply_closes(batch: list[RecordedEvent]) -> None:
    from tables.models import TableDayFigures, Variance

    streams = sorted({e.stream_id for e in batch})
    upto = batch[-1].position
    by_stream: dict[str, list[RecordedEvent]] = {}
    for event in read_streams(streams):
        if event.position <= upto:
            by_stream.setdefault(event.stream_id, []).append(event)
    for stream_id, events in by_stream.items():
        day = datetime.date.fromisoformat(stream_id.partition(":")[2])
        stages = {e.event_type: e for e in events}
        started = stages[STARTED]
        row = DayClose(
            gaming_day=day, status=DayCloseStatus.IN_PROGRESS,
            stage=STAGE_NAMES[events[-1].event_type],
            requested_by=started.payload["requested_by"], forced=started.payload["forced"],
            cutoff_position=started.payload["cutoff_position"], started_at=started.recorded_at,
            computed_at_position=events[-1].position,
        )  # fmt: skip
        if REPLAYED in stages:
            row.rounds = stages[REPLAYED].payload["rounds"]
            row.findings = sum(stages[REPLAYED].payload["findings"].values())
        if RECONCILED in stages:
            reconciled = stages[RECONCILED]
            totals = reconciled.payload["totals"]
            row.tables, row.variances = totals["tables"], totals["variances"]
            row.drop_cents, row.win_cents = totals["drop_cents"], totals["win_cents"]
            row.theoretical_win_cents = totals["theoretical_win_cents"]
            with transaction.atomic():
                TableDayFigures.objects.filter(gaming_day=day).delete()
                Variance.objects.filter(gaming_day=day).delete()
                TableDayFigures.objects.bulk_create(
                    TableDayFigures(
                        gaming_day=day,
                        computed_at_position=reconciled.position,
                        **result["figures"],
                    )  # fmt: skip
                    for result in reconciled.payload["tables"]
                )
                Variance.objects.bulk_create(
                    Variance(table_id=result["figures"]["table_id"], gaming_day=day,
                             computed_at_position=reconciled.position, **variance)
                    for result in reconciled.payload["tables"]
                    for variance in result["variances"]
                )  # fmt: skip
                Variance.objects.bulk_create(
                    Variance(table_id=fund["fund_id"], gaming_day=day,
                             computed_at_position=reconciled.position, **variance)
                    for fund in reconciled.payload.get("funds", ())
                    for variance in fund["variances"]
                )  # fmt: skip
                _meter_rows(day, reconciled)
                _fund_rows(day, reconciled)
        if SEALED in stages:
            row.seal_hash = stages[SEALED].payload["seal_hash"]
        if EXPORTED in stages:
            row.export_name = stages[EXPORTED].payload["name"]
            row.export_sha256 = stages[EXPORTED].payload["zip_sha256"]
        if COMPLETED in stages:
            row.status, row.completed_at = DayCloseStatus.CLOSED, stages[COMPLETED].recorded_at
        row.save()


def _meter_rows(day: datetime.date, reconciled: RecordedEvent) -> None:
    """The meters' days and their variances, under the meter's id in the table's place (its
    kinds are its own, and the id is a slug, as the variance pages and reviews need)."""
    from tables.models import Variance

    MeterDay.objects.filter(gaming_day=day).delete()
    meters = reconciled.payload["meters"]
    MeterDay.objects.bulk_create(
        MeterDay(gaming_day=day, computed_at_position=reconciled.position,
                 variances=len(meter["variances"]),
                 **{k: v for k, v in meter.items() if k not in ("balances", "variances")})
        for meter in meters
    )  # fmt: skip
    Variance.objects.bulk_create(
        Variance(table_id=meter["meter_id"], gaming_day=day,
                 computed_at_position=reconciled.position, **variance)
        for meter in meters for variance in meter["variances"]
    )  # fmt: skip


def _fund_rows(day: datetime.date, reconciled: RecordedEvent) -> None:
    """The Bad Beat funds' days (their variances are written with the tables')."""
    from tables.models import BadBeatFundDay

    BadBeatFundDay.objects.filter(gaming_day=day).delete()
    BadBeatFundDay.objects.bulk_create(
        BadBeatFundDay(
            fund_id=fund["fund_id"], gaming_day=day, opening_cents=fund["opening_cents"],
            contributions_cents=fund["contributed_cents"], counted_cents=fund["counted_cents"],
            awards_cents=fund["awards_cents"], awards=fund["awards"],
            transferred_cents=fund.get("transferred_cents", 0),
            closing_cents=fund["closing_cents"], displayed_cents=fund["displayed_cents"],
            pending=fund["pending"], variances=len(fund["variances"]),
            computed_at_position=reconciled.position,
        )
        # A close of before issue 12 listed only a fund's count variance, no figures.
        for fund in reconciled.payload.get("funds", ()) if "closing_cents" in fund
    )  # fmt: skip


def _clear_closes() -> None:
    from tables.models import BadBeatFundDay, TableDayFigures, Variance

    BadBeatFundDay.objects.all().delete()
    MeterDay.objects.all().delete()
    DayClose.objects.all().delete()
    TableDayFigures.objects.all().delete()
    Variance.objects.all().delete()


def _read_models() -> tuple[ReadModel, ...]:
    from tables.models import BadBeatFundDay, TableDayFigures, Variance

    return (ReadModel(DayClose), ReadModel(TableDayFigures, key=("table_id", "gaming_day")),
            ReadModel(Variance, key=("table_id", "gaming_day", "kind")),
            ReadModel(MeterDay, key=("meter_id", "gaming_day")),
            ReadModel(BadBeatFundDay, key=("fund_id", "gaming_day")))  # fmt: skip


def _close_streams(day: datetime.date) -> list[str]:
    from tables.day_streams import close_streams

    return close_streams(day)


CLOSES = register(
    Projection(
        name="casino.closes",  # its checkpoint row is kept under this name
        description="Each gaming day's close, and the figures and variances it reconciled.",
        event_types=frozenset(STAGES),
        apply=_apply_closes,
        clear=_clear_closes,
        read_models=_read_models(),
        day_streams=_close_streams,
    )
)


def stage_of(day: datetime.date) -> str | None:
    """The last stage the close of ``day`` completed (None if never started)."""
    events = read_stream(close_stream_id(day))
    return STAGE_NAMES[events[-1].event_type] if events else None
