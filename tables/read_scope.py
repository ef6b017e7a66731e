"""Who may read which stream through the API: a matrix of roles and stream
kinds, like the append permissions, and what the reader is bound to.

Each cell says how much of a kind a role reads:

* ``ALL``: every stream of the kind;
* ``TABLE``: the streams of the table the reader's token is bound to (a table
  device; the token names its table as ``table_id``: a token bound to no
  table reads nothing);
* ``ASSIGNED``: the streams of the table days the reader was assigned to as
  dealer (``table.opened`` or ``table.dealer_assigned`` naming them), and the
  decks and dice of those tables while such a day is open;
* ``NONE`` (blank): nothing.

A stream's table and gaming day come from the ledger itself, never a read
model: its id for table days and counts (``table:<table>:<day>``), the first
event's ``table_id``/``gaming_day`` for rounds, slips, decks, dice and
compliance findings, and the round's for a finding's review. The global log
holds every kind, so only the roles that read every kind follow it. A kind
the matrix does not name is read by those roles alone. Who downloaded which
export (``export``), what the nightly check found (``ledger-check``), who
logged in (``access``) and who changed the append permissions
(``permission-change``) are the regulator's and the administrators' business;
a table's configuration is read by its device and the floor, the casino's
(the variance thresholds) and the work on variances by finance and the shift;
what the check of the read models found (``projection-check``) by those whose
pages show it (the floor, the shift, finance) and by the regulator and the
administrators.
"""

from __future__ import annotations

import datetime
from enum import StrEnum
from typing import Any

from django.db import connection

from audit import providers
from audit.consistency import CHECK_KIND
from audit.records import roles_of
from casino.configuration import CASINO_CONFIG_KIND
from casino.roles import Role
from tables.bad_beat import BAD_BEAT_STREAM_KIND
from tables.compliance import COMPLIANCE_STREAM_KIND
from tables.configuration import TABLE_CONFIG_KIND
from tables.count import COUNT_STREAM_KIND
from tables.decks import DECK_STREAM_KIND
from tables.dice import DICE_STREAM_KIND
from tables.poker_hands import POKER_HAND_STREAM_KIND
from tables.reviews import FINDING_STREAM_KIND
from tables.round_events import ROUND_STREAM_KIND
from tables.table_day import (
    DEALER_ASSIGNED,
    OPENED,
    SLIP_STREAM_KIND,
    TABLE_STREAM_KIND,
)
from tables.time_charges import TIME_CHARGE_KIND
from tables.training import TRAINING_KIND
from tables.variance_reviews import VARIANCE_STREAM_KIND


class Scope(StrEnum):
    ALL = "all"
    TABLE = "table"
    ASSIGNED = "assigned"
    NONE = ""


A, T, D, _ = Scope.ALL, Scope.TABLE, Scope.ASSIGNED, Scope.NONE

#: The columns of the matrix: every stream kind the apps register.
KINDS = (
    ROUND_STREAM_KIND,
    TABLE_STREAM_KIND,
    SLIP_STREAM_KIND,
    DECK_STREAM_KIND,
    DICE_STREAM_KIND,
    COMPLIANCE_STREAM_KIND,
    FINDING_STREAM_KIND,
    COUNT_STREAM_KIND,
    "close",
    "export",
    "ledger-check",
    VARIANCE_STREAM_KIND,
    TABLE_CONFIG_KIND,
    CASINO_CONFIG_KIND,
    "access",
    "permission-change",
    CHECK_KIND,
    POKER_HAND_STREAM_KIND,
    BAD_BEAT_STREAM_KIND,
    "retention",
    # progressives' meter:<id> (one meter, however many tables are linked to it).
    "meter",
    TRAINING_KIND,
    TIME_CHARGE_KIND,
)

# fmt: off
# Columns follow KINDS: 1 round, 2 table, 3 slip, 4 deck, 5 dice, 6 compliance,
# 7 finding, 8 count, 9 close, 10 export, 11 ledger-check, 12 variance,
# 13 table-config, 14 casino-config, 15 access, 16 permission-change, 17
# projection-check, 18 poker-hand (as a round), 19 badbeat, 20 retention, 21 meter, 22 training
# (the dealers' personnel files, § 527.5(b)), 23 timecharge (as a table day).
#                           1  2  3  4  5  6  7  8  9  10 11 12 13 14 15 16 17 18 19 20 21 22 23
READ_MATRIX: dict[Role, tuple[Scope, ...]] = {
    Role.DEALER:           (D, D, D, D, D, _, _, _, _, _, _, _, _, _, _, _, _, D, _, _, _, _, D),
    Role.TABLE_DEVICE:     (T, T, T, T, T, T, _, _, _, _, _, _, T, _, _, _, _, T, _, _, _, _, T),
    Role.FLOORPERSON:      (A, A, A, A, A, A, A, _, _, _, _, _, A, _, _, _, A, A, A, _, A, A, A),
    Role.SHIFT_SUPERVISOR: (A, A, A, A, A, A, A, A, A, _, _, A, A, A, _, _, A, A, A, _, A, A, A),
    Role.CAGE_CASHIER:     (_, _, A, _, _, _, _, _, _, _, _, _, _, _, _, _, _, _, A, _, _, _, _),
    Role.FINANCE:          (A, A, A, _, _, _, _, A, A, _, _, A, A, A, _, _, A, A, A, _, A, _, A),
    Role.REGULATOR:        (A, A, A, A, A, A, A, A, A, A, A, A, A, A, A, A, A, A, A, A, A, A, A),
    Role.ADMINISTRATOR:    (_, _, _, _, _, _, _, _, A, A, A, _, A, A, A, A, A, _, _, A, A, _, _),
    Role.SYSTEM:           (A, A, A, A, A, A, A, A, A, A, A, A, A, A, A, A, A, A, A, A, A, A, A),
}
# fmt: on
#: The roles that may follow the global log (every kind, the ones to come included).
FOLLOW_LOG = frozenset({Role.REGULATOR, Role.SYSTEM})

#: The kinds whose streams belong to one table day (the others to a table).
_DAY_KINDS = frozenset({ROUND_STREAM_KIND, TABLE_STREAM_KIND, SLIP_STREAM_KIND,
                        COUNT_STREAM_KIND, FINDING_STREAM_KIND,
                        POKER_HAND_STREAM_KIND, TIME_CHARGE_KIND})  # fmt: skip


def scope_of(role: str, kind: str) -> Scope:
    """The cell of the matrix; a kind it does not name is for the log's readers."""
    try:
        row, follows_log = READ_MATRIX[Role(role)], Role(role) in FOLLOW_LOG
    except ValueError:
        return Scope.NONE
    if kind not in KINDS:
        return Scope.ALL if follows_log else Scope.NONE
    return row[KINDS.index(kind)]


def may_follow_log(user: Any) -> bool:
    return any(role in FOLLOW_LOG for role in roles_of(user))


def may_read(user: Any, auth: Any, stream_id: str) -> bool:
    """Whether ``user`` (authenticated with ``auth``) may read ``stream_id``."""
    kind = stream_id.partition(":")[0]
    scopes = {scope_of(role, kind) for role in roles_of(user)}
    if Scope.ALL in scopes:
        return True
    if Scope.TABLE in scopes:
        table_id = getattr(auth, "table_id", "") or ""
        where = stream_table_day(stream_id)
        if table_id and where is not None and where[0] == table_id:
            return True
    if Scope.ASSIGNED in scopes:
        where = stream_table_day(stream_id)
        if where is not None and _assigned(user.get_username(), kind, *where):
            return True
    return False


def stream_table_day(stream_id: str) -> tuple[str, datetime.date | None] | None:
    """The table a stream belongs to, with its gaming day where it has one;
    None for a stream of no table (or none yet)."""
    kind, _, key = stream_id.partition(":")
    if kind in (TABLE_STREAM_KIND, COUNT_STREAM_KIND, TIME_CHARGE_KIND):
        table_id, _, day = key.rpartition(":")
        try:
            return table_id, datetime.date.fromisoformat(day)
        except ValueError:
            return None
    if kind == TABLE_CONFIG_KIND:  # table-config:<table> (tables.configuration)
        return key, None
    if kind == FINDING_STREAM_KIND:
        # finding:<round id>:<seat>:<wager>:<kind> (tables.reviews.finding_stream_id)
        round_id = key.rsplit(":", 3)[0]
        return stream_table_day(f"{ROUND_STREAM_KIND}:{round_id}")
    payload = _first_payload(stream_id)
    if not isinstance(payload, dict) or not isinstance(payload.get("table_id"), str):
        return None
    day = payload.get("gaming_day")
    try:
        gaming_day = datetime.date.fromisoformat(day) if isinstance(day, str) else None
    except ValueError:
        gaming_day = None
    return payload["table_id"], gaming_day


def _first_payload(stream_id: str) -> Any:
    import json

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT payload FROM ledger_event WHERE stream_id = %s AND version = 1", [stream_id]
        )
        row = cursor.fetchone()
    if row is None:
        return None
    return json.loads(row[0]) if isinstance(row[0], str) else row[0]


def _assigned(username: str, kind: str, table_id: str, day: datetime.date | None) -> bool:
    """Whether ``username`` was the dealer of ``table_id`` on ``day`` (a table
    day's kind), or is assigned to ``table_id`` on an open day (a deck's, a
    set of dice's)."""
    from tables.models import TableDay, TableDayStatus

    if kind in _DAY_KINDS:
        if day is None:
            return False
        return _dealt(username, f"{TABLE_STREAM_KIND}:{table_id}:{day.isoformat()}")
    open_days = TableDay.objects.filter(table_id=table_id, status=TableDayStatus.OPEN)
    return any(_dealt(username, stream) for stream in open_days.values_list("stream_id", flat=True))


def _dealt(username: str, table_stream: str) -> bool:
    dealer = ("payload ->> 'dealer'" if connection.vendor == "postgresql"
              else "json_extract(payload, '$.dealer')")  # fmt: skip
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT 1 FROM ledger_event WHERE stream_id = %s AND event_type IN (%s, %s) "
            f"AND {dealer} = %s LIMIT 1",
            [table_stream, OPENED, DEALER_ASSIGNED, username],
        )
        return cursor.fetchone() is not None


providers.register_read_scope(providers.ReadScope(may_read=may_read, may_follow_log=may_follow_log))
