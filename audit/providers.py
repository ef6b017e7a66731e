"""What the ledger needs from the apps built on it, by registration.

The ledger imports none of the apps built on it (the import contract in
``pyproject.toml`` checks it). As it knows stream kinds and their policies
(``audit.registry``) and projections (``audit.projections``) only because
apps register them, the few things it must know about the property come from
the app that owns them, registered when that app is ready:

* the **gaming-day calendar**: where a gaming day begins and ends, and the
  property a day's seal names (``casino`` registers its ``Casino``);
* the **roles** the ledger names: the role of its own jobs (``Actor.system``)
  and the roles that may download a sealed day's export (``casino``);
* the **export's read models**: each CSV a day's regulator export carries and
  the rows it holds (``tables`` registers ``rounds.csv`` and the others);
* the **read scope**: which stream each reader may read through the API
  (``tables`` registers its matrix of roles and stream kinds).

Asking for a calendar or the roles before an app registered them is a
configuration error, raised with what is missing.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from django.core.exceptions import ImproperlyConfigured


class GamingDayCalendar(Protocol):
    """The property as the seals see it."""

    name: str
    time_zone: str
    gaming_day_starts_at: datetime.time

    def gaming_day_bounds(
        self, day: datetime.date
    ) -> tuple[datetime.datetime, datetime.datetime]: ...


@dataclass(frozen=True)
class LedgerRoles:
    #: The role of the ledger's own jobs and of other system actors.
    system: str
    #: The roles that may download a sealed day's export (admin and API alike).
    export_readers: frozenset[str]
    #: The roles of table devices: such an account *is* its device (the device
    #: named on its events is its own username, never a header's claim).
    devices: frozenset[str] = frozenset()


@dataclass(frozen=True)
class ExportFile:
    """One CSV of a day's export: ``rows(day, start, end)`` is the queryset
    written (every concrete field; see ``audit.exports``), given the day and
    its [start, end) window."""

    name: str
    rows: Callable[[datetime.date, datetime.datetime, datetime.datetime], Any]


_calendar: Callable[[], GamingDayCalendar] | None = None
_roles: LedgerRoles | None = None
_export_files: dict[str, ExportFile] = {}


def register_calendar(current: Callable[[], GamingDayCalendar]) -> None:
    """Register what returns the property's current gaming-day calendar."""
    global _calendar
    _calendar = current


def calendar() -> GamingDayCalendar:
    if _calendar is None:
        raise ImproperlyConfigured("no gaming-day calendar is registered with the ledger")
    return _calendar()


def register_roles(roles: LedgerRoles) -> LedgerRoles:
    global _roles
    _roles = roles
    return roles


def roles() -> LedgerRoles:
    if _roles is None:
        raise ImproperlyConfigured("no roles are registered with the ledger")
    return _roles


def register_export_file(file: ExportFile) -> ExportFile:
    if not file.name.endswith(".csv"):
        raise ValueError(f"export file {file.name}: the read models are exported as .csv")
    existing = _export_files.get(file.name)
    if existing is not None and existing != file:
        raise ValueError(f"export file {file.name} registered twice")
    _export_files[file.name] = file
    return file


def export_files() -> list[ExportFile]:
    """The registered read-model files, by name."""
    return [_export_files[name] for name in sorted(_export_files)]


@dataclass(frozen=True)
class DayStreams:
    """Which streams belong to a gaming day: the app's knowledge (a table
    day, a count, a round, a slip names its gaming day in its stream id or
    its opening event). A day's seal covers these streams up to the close's
    cutoff, whenever their events were recorded (``audit.seals``).

    ``of_day(day)`` gives the stream ids of ``day`` (an iterable, read once);
    ``days_of(stream_ids)``
    maps those of the given ids that belong to a gaming day to that day
    (ids that belong to none are left out); ``tables_of(stream_ids)`` maps
    those that belong to a table to it (``verify_projections --workers``
    splits a day by table with it)."""

    of_day: Callable[[datetime.date], Any]
    days_of: Callable[[list[str]], dict[str, datetime.date]]
    tables_of: Callable[[list[str]], dict[str, str]] | None = None


_day_streams: DayStreams | None = None


def register_day_streams(streams: DayStreams) -> DayStreams:
    global _day_streams
    _day_streams = streams
    return streams


def day_streams() -> DayStreams | None:
    """The registered day streams; None when no app registered any (every
    event then belongs to the day it was recorded in)."""
    return _day_streams


#: Checks of what apps keep beside the ledger against it, by what they concern
#: (``verify_ledger`` runs each and names every problem it returns).
_side_checks: dict[str, Callable[[], list[str]]] = {}


def register_side_check(what: str, check: Callable[[], list[str]]) -> None:
    _side_checks[what] = check


def side_checks() -> dict[str, Callable[[], list[str]]]:
    return dict(_side_checks)


@dataclass(frozen=True)
class ReadScope:
    """Who may read what through the API: the app's matrix of roles, stream
    kinds and what a reader is bound to (``tables.read_scope``).

    ``may_read(user, auth, stream_id)`` decides one stream (``auth`` is what
    the request authenticated with: a device's token names its table);
    ``may_follow_log(user)`` decides the global log, which holds every kind."""

    may_read: Callable[[Any, Any, str], bool]
    may_follow_log: Callable[[Any], bool]


_read_scope: ReadScope | None = None


def register_read_scope(scope: ReadScope) -> ReadScope:
    global _read_scope
    _read_scope = scope
    return scope


def read_scope() -> ReadScope:
    if _read_scope is None:
        raise ImproperlyConfigured("no read scope is registered with the ledger")
    return _read_scope
