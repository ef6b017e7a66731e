"""The table's own money movements in the ledger: its gaming day (opener,
dealers, buy-ins, drop box, closer) and its fill and credit slips.

Two stream kinds, each with a policy that refuses at append time what the
rules forbid given the stream so far:

* ``table:<table_id>:<YYYY-MM-DD>`` — one table's gaming day. It starts with
  ``table.opened`` (the opener inventory, signed by a dealer and a
  floorperson) and ends with ``table.closed`` (the closer, signed the same
  way); a table is opened once a day and is not closed while one of its
  rounds of that day is in progress. The table inventory is what the table
  inventory container holds (§ 521.1).
* ``slip:<year>-<number>`` — one fill or credit slip. The number is the stream,
  so it is unique per calendar year by construction. A slip is requested for
  a table that is open that day, approved by a second person, and may be
  voided by two people; a void is a new event, never an edit.

Refusals here cite no section: opening, closing, fill and credit procedures
are internal controls (Pennsylvania Chapter 465a, not among our sources). The
2010 bulletin's only mention, § 527.3, lists them as topics of dealer
training, which is not a rule a refusal could break. One does: the dealer
named at the opening or assigned later passed the table test in the table's
game (§ 527.5(a), ``tables.training``); and the blackjack chapters' card-reader
and floorperson duties, which ``tables.floor_duties`` checks citing theirs.

Amounts and inventories are ``{"<denomination cents>": count}`` objects; the
denominations are those configured in ``Casino.chip_denominations_cents``.

Two projections fold these streams: ``tables.table_days`` (``TableDay``) and
``tables.slips`` (``Slip``). Each row is recomputed from the ledger up to the
batch's last position and carries the position of the last event it
includes, so a rebuild from 0 gives identical rows whatever the batching.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import connection

from audit import errors
from audit.ledger import RecordedEvent, read_stream, read_streams, streams_touched
from audit.projections import Projection, ReadModel, register, upsert
from audit.registry import (
    POSITIVE_CENTS,
    TEXT,
    EventType,
    StreamKind,
    object_schema,
    register_event_type,
    register_stream_kind,
)
from casino.roles import Role
from tables.corrections import TABLE_CORRECTIONS
from tables.models import (
    Slip,
    SlipKind,
    SlipStatus,
    Table,
    TableDay,
    TableDayStatus,
    TableStatus,
)
from tables.training import check_trained

TABLE_STREAM_KIND = "table"
SLIP_STREAM_KIND = "slip"

OPENED = "table.opened"
DEALER_ASSIGNED = "table.dealer_assigned"
DEALER_RELIEVED = "table.dealer_relieved"
BUY_IN = "table.buy_in"
DROP_BOX_REMOVED = "table.drop_box_removed"
DROP_BOX_REPLACED = "table.drop_box_replaced"
CLOSED = "table.closed"
TABLE_COUNTERSIGNED = "table.countersigned"
TABLE_EVENT_TYPES = (OPENED, DEALER_ASSIGNED, DEALER_RELIEVED, BUY_IN, DROP_BOX_REMOVED,
                     DROP_BOX_REPLACED, CLOSED, TABLE_COUNTERSIGNED)  # fmt: skip

FILL_REQUESTED = "slip.fill_requested"
CREDIT_REQUESTED = "slip.credit_requested"
APPROVED = "slip.approved"
VOIDED = "slip.voided"
SLIP_COUNTERSIGNED = "slip.countersigned"
REQUESTED = {FILL_REQUESTED: SlipKind.FILL, CREDIT_REQUESTED: SlipKind.CREDIT}
SLIP_EVENT_TYPES = (FILL_REQUESTED, CREDIT_REQUESTED, APPROVED, VOIDED, SLIP_COUNTERSIGNED)
CORRECTION = "ledger.correction"

#: Who may sign what. "A floorperson or above" signs for the pit.
PIT = frozenset({Role.FLOORPERSON.value, Role.SHIFT_SUPERVISOR.value})
DEALERS = frozenset({Role.DEALER.value})
SLIP_SIGNERS = PIT | {Role.CAGE_CASHIER.value}
#: Actors that append on someone's behalf; a person appends only what they sign.
NON_PERSON_ROLES = frozenset({Role.TABLE_DEVICE.value, Role.SYSTEM.value})


_TABLE_KEY = re.compile(r"^(?P<table_id>[A-Za-z0-9_-]{1,50}):(?P<day>\d{4}-\d{2}-\d{2})$")
_SLIP_KEY = re.compile(r"^(?P<year>\d{4})-(?P<number>\d{6})$")


# --- payload schemas ---------------------------------------------------------------

USERNAME = {"type": "string", "minLength": 1, "maxLength": 150}
BOX_ID = {"type": "string", "minLength": 1, "maxLength": 20, "pattern": "^[A-Za-z0-9_.-]+$"}
GAMING_DAY = {"type": "string", "format": "date", "description": "YYYY-MM-DD"}
TABLE_ID = {"type": "string", "minLength": 1, "maxLength": 50, "pattern": "^[A-Za-z0-9_-]+$"}


def _inventory(description: str, *, may_be_empty: bool = False) -> dict[str, Any]:
    return {
        "type": "object",
        "description": description + ": count of chips by denomination in cents",
        "minProperties": 0 if may_be_empty else 1,
        # A count is a number of chips: at least one, and a bound that keeps any total
        # within a 64-bit number of cents.
        "additionalProperties": {"type": "integer", "minimum": 1, "maximum": 1_000_000},
    }


def total_cents(counts: Mapping[str, int]) -> int:
    """The value of an inventory in cents.

    >>> total_cents({"500": 4, "2500": 2})
    7000
    """
    return sum(int(denomination) * count for denomination, count in counts.items())


def check_keys(*fields: str):
    """Inventory keys are whole numbers of cents (the configured denominations
    are checked by the policy, which reads the casino's configuration)."""

    def check(payload: dict[str, Any]) -> None:
        for name in fields:
            for key in payload.get(name, {}):
                if not key.isdigit() or key.startswith("0"):
                    raise ValueError(
                        f"{name}.{key}: an inventory is keyed by a denomination in whole "
                        'cents (e.g. "2500" for a $25 chip)'
                    )
        if "gaming_day" in payload:
            try:
                datetime.date.fromisoformat(payload["gaming_day"])
            except ValueError:
                raise ValueError(
                    f"gaming_day: {payload['gaming_day']!r} is not a valid date (YYYY-MM-DD)"
                ) from None

    return check


def _check_buy_in(payload: dict[str, Any]) -> None:
    check_keys("chips")(payload)
    chips = total_cents(payload["chips"])
    if chips != payload["cash_cents"]:
        raise ValueError(
            f"chips: the chips given ({chips} cents) must equal the cash taken "
            f"(cash_cents {payload['cash_cents']})"
        )


_COUNTERSIGN = {"countersigns_version": {"type": "integer", "minimum": 1, "maximum": 2**31 - 1},
                "signer": USERNAME}  # fmt: skip
_COUNTERSIGN_TEXT = (
    "The second signer's own confirmation of a two-person event appended by the "
    "first: until it is recorded the event is pending and takes no effect."
)

_TABLE_TYPES = [
    (OPENED, "The table opened for the gaming day: the opener inventory, signed by a dealer "
     "and a floorperson.",
     {"opener": _inventory("opener"), "dealer": USERNAME, "floorperson": USERNAME}, None,
     check_keys("opener")),
    (DEALER_ASSIGNED, "A dealer took over the table.", {"dealer": USERNAME}, None, None),
    (DEALER_RELIEVED, "The dealer at the table was relieved.", {"dealer": USERNAME}, None, None),
    (BUY_IN, "Cash converted to chips at the table; the cash goes to the drop box.",
     {"seat": {"type": "integer", "minimum": 1, "maximum": 20}, "cash_cents": POSITIVE_CENTS,
      "chips": _inventory("chips")}, ["cash_cents", "chips"], _check_buy_in),
    (DROP_BOX_REMOVED, "The drop box was removed from the table.",
     {"box_id": BOX_ID, "removed_by": USERNAME}, None, None),
    (DROP_BOX_REPLACED, "An empty drop box was put on the table.",
     {"box_id": BOX_ID, "replaced_by": USERNAME}, None, None),
    (CLOSED, "The table closed for the gaming day: the closer inventory, signed by a dealer "
     "and a floorperson.",
     {"closer": _inventory("closer", may_be_empty=True), "dealer": USERNAME,
      "floorperson": USERNAME}, None, check_keys("closer")),
    (TABLE_COUNTERSIGNED, _COUNTERSIGN_TEXT, _COUNTERSIGN, None, None),
]  # fmt: skip

_REQUEST = {"table_id": TABLE_ID, "gaming_day": GAMING_DAY, "amounts": _inventory("amounts"),
            "requested_by": USERNAME}  # fmt: skip
_SLIP_TYPES = [
    (FILL_REQUESTED, "A fill slip: chips requested from the cage for a table.", _REQUEST, None,
     check_keys("amounts")),
    (CREDIT_REQUESTED, "A credit slip: chips returned from a table to the cage.", _REQUEST, None,
     check_keys("amounts")),
    (APPROVED, "The slip was approved by a second person.", {"approved_by": USERNAME}, None,
     None),
    (VOIDED, "The slip was voided by one person in front of a witness.",
     {"reason": TEXT, "voided_by": USERNAME, "witnessed_by": USERNAME}, None, None),
    (SLIP_COUNTERSIGNED, _COUNTERSIGN_TEXT, _COUNTERSIGN, None, None),
]  # fmt: skip

for _name, _description, _properties, _required, _check in [*_TABLE_TYPES, *_SLIP_TYPES]:
    register_event_type(
        EventType(
            name=_name,
            version=1,
            description=_description,
            schema=object_schema(_properties, required=_required, description=_description),
            check=_check,
        )
    )


# --- shared checks -----------------------------------------------------------------


def refuse(message: str, field: str, section: str = "") -> None:
    raise errors.RuleViolation(message, field=field, section=section)


def _denominations() -> frozenset[str]:
    from casino.models import Casino

    try:
        casino = Casino.current()
    except Casino.DoesNotExist:
        refuse("no casino is configured, so no chip denomination is accepted", "payload")
    return frozenset(str(value) for value in casino.chip_denominations_cents)


def check_denominations(counts: Mapping[str, int], field: str) -> None:
    allowed = _denominations()
    for key in counts:
        if key not in allowed:
            refuse(
                f"{field}: {key} cents is not a chip denomination of this casino "
                f"(configured: {', '.join(sorted(allowed, key=int))})",
                f"{field}.{key}",
            )


def _roles_of(username: str) -> frozenset[str]:
    from django.contrib.auth.models import Group

    return frozenset(
        Group.objects.filter(user__username=username, user__is_active=True).values_list(
            "name", flat=True
        )
    )


def check_person(username: str, roles: frozenset[str], field: str) -> None:
    from django.contrib.auth.models import User

    if not User.objects.filter(username=username, is_active=True).exists():
        refuse(f"{field}: no active user {username!r}", field)
    if not _roles_of(username) & roles:
        refuse(
            f"{field}: {username} must hold the role {' or '.join(sorted(roles))}",
            field,
        )


def check_signed_by_actor(actor: Any, signers: Iterable[str], field: str) -> None:
    """A person appends only what they sign themselves; a table device or a
    job appends on behalf of the signers."""
    if actor is None or actor.roles & NON_PERSON_ROLES:
        return
    signers = list(signers)
    if actor.username not in signers:
        refuse(
            f"{field}: {actor.username} appends this, so {actor.username} must be among its "
            f"signers ({', '.join(signers)})",
            field,
        )


def pending_signer(signers: Sequence[str], appended_by: str) -> str | None:
    """Who must still countersign a two-person event: the other signer when
    one of the signers appended it themselves (their word alone does not
    bind the second person); nobody when a job or device recorded it on the
    signers' behalf (the policies allow that only to the system)."""
    if appended_by not in signers:
        return None
    others = [signer for signer in signers if signer != appended_by]
    return others[0] if others else None


def appender(event: Any) -> str:
    """The username that appended a stored event (``RecordedEvent``)."""
    return str(event.metadata.get("actor", ""))


def check_two_person(actor: Any, signers: Sequence[str], field: str) -> None:
    """A two-person event is appended by one of its signers (the other then
    countersigns) or by the system; a device may not sign for people."""
    if actor is not None and Role.SYSTEM.value in actor.roles:
        return
    if actor is not None and Role.TABLE_DEVICE.value in actor.roles:
        refuse(f"{field}: a two-person event is signed by people, not appended by a device",
               field)  # fmt: skip
    check_signed_by_actor(actor, signers, field)


def check_countersign(
    pending: tuple[int, str] | None, payload: Mapping[str, Any], actor: Any, where: str
) -> None:
    """The countersignature is the pending signer's own, naming the pending event."""
    field = f"{where}.payload"
    if pending is None:
        refuse("nothing in this stream awaits a countersignature", f"{where}.type")
    version, signer = pending
    if payload["countersigns_version"] != version:
        refuse(f"{field}.countersigns_version: version {version} awaits a countersignature, not "
               f"{payload['countersigns_version']}", f"{field}.countersigns_version")  # fmt: skip
    if payload["signer"] != signer:
        refuse(f"{field}.signer: version {version} awaits {signer}'s countersignature",
               f"{field}.signer")  # fmt: skip
    person = actor is not None and not actor.roles & NON_PERSON_ROLES
    if not person or actor.username != signer:
        who = getattr(actor, "username", "") or "anyone"
        refuse(f"{field}.signer: {signer} countersigns in person, authenticated as themselves "
               f"(not {who})", f"{field}.signer")  # fmt: skip


# --- the table stream ----------------------------------------------------------------


@dataclass
class _TableState:
    opened: bool = False
    closed: bool = False
    dealer: str = ""
    #: The box id in place, "" when none, None before any drop box event.
    drop_box: str | None = None
    version: int = 0
    #: The opener or closer awaiting its second signature: (version, who signs).
    pending: tuple[int, str] | None = None

    @property
    def open(self) -> bool:
        """Open for play: opened, not closed, nothing awaiting a countersignature."""
        return self.opened and not self.closed and self.pending is None

    def why_not_open(self) -> str:
        if not self.opened:
            return "it was not opened"
        if self.pending is not None:
            return f"version {self.pending[0]} awaits {self.pending[1]}'s countersignature"
        return "it was closed"

    def apply(self, event_type: str, payload: Mapping[str, Any], appended_by: str = "") -> None:
        self.version += 1
        if event_type == TABLE_COUNTERSIGNED:
            self.pending = None
            return
        if event_type in (OPENED, CLOSED):
            signer = pending_signer([payload["dealer"], payload["floorperson"]], appended_by)
            self.pending = (self.version, signer) if signer else None
        if event_type == OPENED:
            self.opened, self.dealer = True, payload["dealer"]
        elif event_type == DEALER_ASSIGNED:
            self.dealer = payload["dealer"]
        elif event_type == DEALER_RELIEVED:
            self.dealer = ""
        elif event_type == DROP_BOX_REMOVED:
            self.drop_box = ""
        elif event_type == DROP_BOX_REPLACED:
            self.drop_box = payload["box_id"]
        elif event_type == CLOSED:
            self.closed = True


def table_day_state(stream_id: str) -> _TableState:
    """A table's day as its stream stands, from the ledger."""
    state = _TableState()
    for event in read_stream(stream_id):
        state.apply(event.event_type, event.payload, appender(event))
    return state


def table_stream_id(table_id: str, gaming_day: datetime.date | str) -> str:
    return f"{TABLE_STREAM_KIND}:{table_id}:{gaming_day}"


def parse_table_day_key(stream_id: str) -> tuple[str, datetime.date]:
    """``<kind>:<table id>:<gaming day>`` → (table id, day), for the table,
    count and other per-table-per-day streams; refused naming the form."""
    kind, _, key = stream_id.partition(":")
    match = _TABLE_KEY.match(key)
    day = None
    if match:
        try:
            day = datetime.date.fromisoformat(match["day"])
        except ValueError:
            day = None
    if match is None or day is None:
        refuse(
            f"a {kind} stream is {kind}:<table id>:<gaming day YYYY-MM-DD>; {stream_id!r} is not",
            "stream_id",
        )
    return match["table_id"], day


def rounds_in_progress(table_id: str, gaming_day: datetime.date | str) -> list[str]:
    """The table's rounds of that day, read from the ledger (the rounds
    projection may lag), that are neither closed nor voided."""
    from tables.verification import RoundSelection

    where, params = RoundSelection(gaming_day=gaming_day, table_id=table_id).where()
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT o.stream_id FROM ledger_event o WHERE {where} "
            "AND o.version = 1 AND NOT EXISTS (SELECT 1 FROM ledger_event c "
            "WHERE c.stream_id = o.stream_id AND c.event_type IN ('round.closed', 'round.voided'))"
            " ORDER BY o.stream_id",
            params,
        )
        return [row[0] for row in cursor.fetchall()]


def table_policy(stream_id: str, recorded: Sequence[Any], new: Sequence[Any], actor: Any) -> None:
    """Refuse what cannot happen at a table given its day so far."""
    from tables.floor_duties import TABLE_DUTY_TYPES, check_table_duty, fold

    table_id, day = parse_table_day_key(stream_id)
    table = Table.objects.filter(table_id=table_id).first()
    if table is None:
        refuse(f"no table {table_id} is configured", "stream_id")
    state = _TableState()
    for event in recorded:
        state.apply(event.event_type, event.payload, appender(event))
    duties = fold(recorded)  # the reader and the floorperson (issue 19)
    for index, event in enumerate(new):
        if event.event_type == CORRECTION:
            continue  # checked by the ledger (the kind's Corrections)
        where = f"events[{index}]"
        if event.event_type == TABLE_COUNTERSIGNED:
            check_countersign(state.pending, event.payload, actor, where)
        elif state.pending is not None:
            refuse(f"version {state.pending[0]} awaits {state.pending[1]}'s countersignature "
                   "(table.countersigned) before anything else", f"{where}.type")  # fmt: skip
        else:
            _check_table_event(table, day, state, event.event_type, event.payload, actor, where)
            if event.event_type in TABLE_DUTY_TYPES:
                check_table_duty(table, duties, event.event_type, event.payload, actor, where)
        state.apply(event.event_type, event.payload, getattr(actor, "username", ""))
        duties.apply(event.event_type, event.payload, event.occurred_at)


def _check_table_event(
    table: Table,
    day: datetime.date,
    state: _TableState,
    event_type: str,
    payload: Mapping[str, Any],
    actor: Any,
    where: str,
) -> None:
    field = f"{where}.payload"
    if event_type == OPENED:
        if state.opened:
            refuse(
                f"table {table.table_id} was already opened on gaming day {day}; a table is "
                "opened once a day",
                f"{where}.type",
            )
        from audit import clock
        from tables.configuration import configured

        # In service as the ledger's configuration says now (issue 21), not the row.
        if configured([table], clock.now())[0].status != TableStatus.ACTIVE:
            refuse(f"table {table.table_id} is out of service", "stream_id")
    elif not state.opened:
        refuse(
            f"table {table.table_id} is not open on gaming day {day}: its day starts with "
            "table.opened",
            f"{where}.type",
        )
    elif state.closed:
        refuse(
            f"table {table.table_id} was closed on gaming day {day}; nothing follows table.closed",
            f"{where}.type",
        )

    if event_type in (OPENED, CLOSED):
        inventory = "opener" if event_type == OPENED else "closer"
        check_denominations(payload[inventory], f"{field}.{inventory}")
        check_person(payload["dealer"], DEALERS, f"{field}.dealer")
        check_person(payload["floorperson"], PIT, f"{field}.floorperson")
        if payload["dealer"] == payload["floorperson"]:
            refuse(
                f"{field}.floorperson: the {inventory} is signed by two different people",
                f"{field}.floorperson",
            )
        check_two_person(actor, [payload["dealer"], payload["floorperson"]], f"{field}.floorperson")
        if event_type == OPENED:
            check_trained(table, day, payload["dealer"], actor, f"{field}.dealer")
        if event_type == CLOSED:
            open_rounds = rounds_in_progress(table.table_id, day)
            if open_rounds:
                refuse(
                    f"table {table.table_id} cannot close on gaming day {day}: round(s) "
                    f"{', '.join(open_rounds)} are still in progress (close or void them first)",
                    f"{where}.type",
                )
    elif event_type == DEALER_ASSIGNED:
        check_person(payload["dealer"], DEALERS, f"{field}.dealer")
        check_trained(table, day, payload["dealer"], actor, f"{field}.dealer")
        if payload["dealer"] == state.dealer:
            refuse(
                f"{field}.dealer: {payload['dealer']} is already the dealer at "
                f"table {table.table_id}",
                f"{field}.dealer",
            )
    elif event_type == DEALER_RELIEVED:
        if payload["dealer"] != state.dealer:
            refuse(
                f"{field}.dealer: {payload['dealer']} is not the dealer at table "
                f"{table.table_id} ({state.dealer or 'no dealer is assigned'})",
                f"{field}.dealer",
            )
    elif event_type == BUY_IN:
        check_denominations(payload["chips"], f"{field}.chips")
        seat = payload.get("seat")
        if seat is not None and seat > table.positions:
            refuse(
                f"{field}.seat: table {table.table_id} has {table.positions} positions",
                f"{field}.seat",
            )
    elif event_type == DROP_BOX_REMOVED:
        check_person(payload["removed_by"], PIT, f"{field}.removed_by")
        check_signed_by_actor(actor, [payload["removed_by"]], f"{field}.removed_by")
        if state.drop_box == "":
            refuse(
                f"{field}.box_id: no drop box is on table {table.table_id} to remove",
                f"{field}.box_id",
            )
        if state.drop_box and state.drop_box != payload["box_id"]:
            refuse(
                f"{field}.box_id: the drop box on table {table.table_id} is {state.drop_box}, "
                f"not {payload['box_id']}",
                f"{field}.box_id",
            )
    elif event_type == DROP_BOX_REPLACED:
        check_person(payload["replaced_by"], PIT, f"{field}.replaced_by")
        check_signed_by_actor(actor, [payload["replaced_by"]], f"{field}.replaced_by")
        if state.drop_box:
            refuse(
                f"{field}.box_id: drop box {state.drop_box} is still on table "
                f"{table.table_id}; remove it first",
                f"{field}.box_id",
            )


# --- the slip stream ------------------------------------------------------------------


def slip_stream_id(year: int, number: int) -> str:
    return f"{SLIP_STREAM_KIND}:{year}-{number:06d}"


def _parse_slip_key(stream_id: str) -> tuple[int, int]:
    match = _SLIP_KEY.match(stream_id.partition(":")[2])
    if match is None or int(match["number"]) == 0 or int(match["year"]) < 2000:
        refuse(
            f"a slip stream is slip:<year>-<number of 6 digits from 000001>; {stream_id!r} is not",
            "stream_id",
        )
    return int(match["year"]), int(match["number"])


def table_is_open(table_id: str, gaming_day: datetime.date | str) -> bool:
    return table_day_state(table_stream_id(table_id, gaming_day)).open


def slip_policy(stream_id: str, recorded: Sequence[Any], new: Sequence[Any], actor: Any) -> None:
    """Refuse what cannot happen to a slip given its history."""
    year, number = _parse_slip_key(stream_id)
    history = [(e.event_type, e.payload) for e in recorded if e.event_type != CORRECTION]
    pending = void_pending(list(recorded))
    version = len(recorded)
    for index, event in enumerate(new):
        version += 1
        if event.event_type == CORRECTION:
            continue  # checked by the ledger (the kind's Corrections)
        if event.event_type == SLIP_COUNTERSIGNED:
            check_countersign(pending, event.payload, actor, f"events[{index}]")
            pending = None
        else:
            _check_slip_event(year, number, history, event.event_type, event.payload, actor,
                              f"events[{index}]")  # fmt: skip
        if event.event_type == VOIDED:
            signer = pending_signer([event.payload["voided_by"], event.payload["witnessed_by"]],
                                    getattr(actor, "username", ""))  # fmt: skip
            pending = (version, signer) if signer else None
        history.append((event.event_type, event.payload))


def void_pending(events: Sequence[Any]) -> tuple[int, str] | None:
    """A stored slip's void awaiting its second signature: (version, who signs)."""
    pending = None
    for event in events:
        if event.event_type == VOIDED:
            signer = pending_signer([event.payload["voided_by"], event.payload["witnessed_by"]],
                                    appender(event))  # fmt: skip
            pending = (event.version, signer) if signer else None
        elif event.event_type == SLIP_COUNTERSIGNED:
            pending = None
    return pending


def _check_slip_event(
    year: int,
    number: int,
    history: list[tuple[str, Mapping[str, Any]]],
    event_type: str,
    payload: Mapping[str, Any],
    actor: Any,
    where: str,
) -> None:
    field = f"{where}.payload"
    label = f"{year}-{number:06d}"
    if event_type in REQUESTED:
        if history:
            first_type, first = history[0]
            refuse(
                f"slip number {label} already used (a {REQUESTED[first_type].value} slip for "
                f"table {first['table_id']} on gaming day {first['gaming_day']}); slip numbers "
                "are unique per calendar year",
                "stream_id",
            )
        kind = REQUESTED[event_type].value
        if not Table.objects.filter(table_id=payload["table_id"]).exists():
            refuse(f"{field}.table_id: no table {payload['table_id']} is configured",
                    f"{field}.table_id")  # fmt: skip
        if not table_is_open(payload["table_id"], payload["gaming_day"]):
            refuse(
                f"a {kind} on a closed table: table {payload['table_id']} is not open on gaming "
                f"day {payload['gaming_day']}",
                f"{field}.table_id",
            )
        check_denominations(payload["amounts"], f"{field}.amounts")
        check_person(payload["requested_by"], SLIP_SIGNERS, f"{field}.requested_by")
        check_signed_by_actor(actor, [payload["requested_by"]], f"{field}.requested_by")
        return
    if not history:
        refuse(
            f"slip {label} was never issued: a slip stream starts with slip.fill_requested or "
            "slip.credit_requested",
            f"{where}.type",
        )
    types = [event for event, _ in history]
    requested_by = history[0][1]["requested_by"]
    if VOIDED in types:
        refuse(f"slip {label} was voided; nothing follows a void but its countersignature",
               f"{where}.type")  # fmt: skip
    if event_type == APPROVED:
        if APPROVED in types:
            refuse(f"slip {label} is already approved", f"{where}.type")
        check_person(payload["approved_by"], SLIP_SIGNERS, f"{field}.approved_by")
        if payload["approved_by"] == requested_by:
            refuse(
                f"{field}.approved_by: {requested_by} requested slip {label} and may not "
                "approve it too; a second person approves",
                f"{field}.approved_by",
            )
        check_signed_by_actor(actor, [payload["approved_by"]], f"{field}.approved_by")
    elif event_type == VOIDED:
        check_person(payload["voided_by"], PIT, f"{field}.voided_by")
        check_person(payload["witnessed_by"], SLIP_SIGNERS, f"{field}.witnessed_by")
        if payload["voided_by"] == payload["witnessed_by"]:
            refuse(
                f"{field}.witnessed_by: a void is witnessed by a second person, not by "
                f"{payload['voided_by']} who voids",
                f"{field}.witnessed_by",
            )
        check_two_person(
            actor, [payload["voided_by"], payload["witnessed_by"]], f"{field}.voided_by"
        )


register_stream_kind(
    StreamKind(
        name=TABLE_STREAM_KIND,
        description="One table's gaming day: opener, dealers, buy-ins, drop box and closer.",
        accepts=frozenset({"table.*"}),
        policy=table_policy,
        corrections=TABLE_CORRECTIONS,
    )
)
register_stream_kind(
    StreamKind(
        name=SLIP_STREAM_KIND,
        description="One fill or credit slip, numbered per calendar year: request, approval "
        "and void.",
        accepts=frozenset({"slip.*"}),
        policy=slip_policy,
        corrections=TABLE_CORRECTIONS,
    )
)


# --- projections ------------------------------------------------------------------------


def _slip_amount(events: Sequence[RecordedEvent]) -> tuple[str, int, bool]:
    """A slip's kind, amount in cents, and whether it counts (approved, not voided)."""
    types = {e.event_type for e in events}
    kind = REQUESTED[events[0].event_type].value
    voided = VOIDED in types and void_pending(events) is None
    counts = APPROVED in types and not voided
    return kind, total_cents(events[0].payload["amounts"]), counts


def slip_streams_of(table_id: str, gaming_day: datetime.date | str) -> list[str]:
    """The slips requested for a table's gaming day, read from the ledger."""
    field = (
        "payload ->> %s"
        if connection.vendor == "postgresql"
        else ("json_extract(payload, '$.' || %s)")
    )
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT stream_id FROM ledger_event WHERE version = 1 AND event_type IN (%s, %s) "
            f"AND {field} = %s AND {field} = %s ORDER BY stream_id",
            [FILL_REQUESTED, CREDIT_REQUESTED, "table_id", table_id, "gaming_day",
             str(gaming_day)],
        )  # fmt: skip
        return [row[0] for row in cursor.fetchall()]


def _upto(events: Iterable[RecordedEvent], position: int) -> list[RecordedEvent]:
    return [e for e in events if e.position <= position]


def _by_stream(events: Iterable[RecordedEvent]) -> dict[str, list[RecordedEvent]]:
    streams: dict[str, list[RecordedEvent]] = {}
    for event in events:
        streams.setdefault(event.stream_id, []).append(event)
    return streams


def table_day_row(
    stream_id: str, events: Sequence[RecordedEvent], slips: Mapping[str, Sequence[RecordedEvent]]
) -> TableDay:
    """A table's day from its stream and its slips' streams."""
    table_id, _, day = stream_id.partition(":")[2].rpartition(":")
    state = _TableState()
    row = TableDay(stream_id=stream_id, table_id=table_id,
                   gaming_day=datetime.date.fromisoformat(day), status=TableDayStatus.OPEN,
                   opened_at=events[0].occurred_at)  # fmt: skip
    for event in events:
        state.apply(event.event_type, event.payload, appender(event))
        if event.event_type == OPENED:
            row.opener_inventory = event.payload["opener"]
            row.opener_cents = total_cents(event.payload["opener"])
        elif event.event_type == BUY_IN:
            row.buy_ins_cents += event.payload["cash_cents"]
        elif event.event_type == CLOSED:
            row.status, row.closed_at = TableDayStatus.CLOSED, event.occurred_at
            row.closer_inventory = event.payload["closer"]
            row.closer_cents = total_cents(event.payload["closer"])
    if state.closed and state.pending is not None:  # the closer awaits its countersignature
        row.status, row.closed_at = TableDayStatus.OPEN, None
    row.dealer = state.dealer
    row.drop_box = state.drop_box or ""
    last = events[-1].position
    for slip_events in slips.values():
        kind, amount, counts = _slip_amount(slip_events)
        last = max(last, slip_events[-1].position)
        if counts and kind == SlipKind.FILL:
            row.fills_cents += amount
        elif counts:
            row.credits_cents += amount
    row.computed_at_position = last
    return row


def _apply_table_days(batch: list[RecordedEvent]) -> None:
    upto = batch[-1].position
    days = {e.stream_id for e in batch if e.stream_id.startswith(TABLE_STREAM_KIND + ":")}
    slip_ids = sorted(
        {e.stream_id for e in batch if e.stream_id.startswith(SLIP_STREAM_KIND + ":")}
    )
    for events in _by_stream(read_streams(slip_ids)).values():
        first = events[0].payload
        days.add(table_stream_id(first["table_id"], first["gaming_day"]))
    rows = []
    for stream_id in sorted(days):
        events = _upto(read_stream(stream_id), upto)
        if not events:
            continue
        table_id, _, day = stream_id.partition(":")[2].rpartition(":")
        slips = _by_stream(_upto(read_streams(slip_streams_of(table_id, day)), upto))
        rows.append(table_day_row(stream_id, events, slips))
    upsert(TableDay, rows)


def _recompute_table_days(streams: str | None, upto: int, tick: Callable[[int], None],
                          day: datetime.date | None) -> int:
    """``verify_projections``' table days: every table day and slip stream
    of ``streams`` read once up to ``upto`` (one query), each row built once
    from them, instead of each batch reading its table days again."""
    from audit.storage import read_columns, select_events

    within = f" AND stream_id IN ({streams})" if streams else ""
    events = _by_stream(select_events(
        f"SELECT {read_columns()} FROM ledger_event WHERE position <= %s AND (stream_id LIKE %s "
        f"OR stream_id LIKE %s){within} ORDER BY stream_id, version",
        [upto, f"{TABLE_STREAM_KIND}:%", f"{SLIP_STREAM_KIND}:%"]))  # fmt: skip
    slips: dict[str, dict[str, list[RecordedEvent]]] = {}
    for stream_id, found in events.items():
        if stream_id.startswith(SLIP_STREAM_KIND + ":"):
            first = found[0].payload
            table_day = table_stream_id(first["table_id"], first["gaming_day"])
            slips.setdefault(table_day, {})[stream_id] = found
    TableDay.objects.bulk_create([
        table_day_row(stream_id, found, slips.get(stream_id, {}))
        for stream_id, found in events.items() if stream_id.startswith(TABLE_STREAM_KIND + ":")])
    read = sum(map(len, events.values()))
    tick(read)
    return read


def slip_row(stream_id: str, events: Sequence[RecordedEvent]) -> Slip:
    year, _, number = stream_id.partition(":")[2].partition("-")
    requested = events[0].payload
    row = Slip(stream_id=stream_id, year=int(year), number=int(number),
               kind=REQUESTED[events[0].event_type].value, table_id=requested["table_id"],
               gaming_day=datetime.date.fromisoformat(requested["gaming_day"]),
               amounts=requested["amounts"], amount_cents=total_cents(requested["amounts"]),
               status=SlipStatus.REQUESTED, requested_by=requested["requested_by"],
               computed_at_position=events[-1].position)  # fmt: skip
    for event in events[1:]:
        if event.event_type == APPROVED:
            row.status, row.approved_by = SlipStatus.APPROVED, event.payload["approved_by"]
        elif event.event_type == VOIDED and void_pending(events) is None:
            row.status, row.void_reason = SlipStatus.VOIDED, event.payload["reason"]
    return row


def _apply_slips(batch: list[RecordedEvent]) -> None:
    touched = streams_touched(batch, SLIP_STREAM_KIND)
    upsert(Slip, [slip_row(stream_id, events) for stream_id, events in touched.items()])


def _day_streams(*kinds: str):
    def streams(day: datetime.date) -> list[str]:
        from tables.day_streams import streams_of_kinds

        return streams_of_kinds(day, *kinds)

    return streams


TABLE_DAYS = register(
    Projection(
        name="tables.table_days",
        description="Each table's gaming day: opener and closer, dealer, drop box, buy-ins, and "
        "the fills and credits of its approved, unvoided slips.",
        event_types=frozenset(TABLE_EVENT_TYPES + SLIP_EVENT_TYPES),
        apply=_apply_table_days,
        clear=lambda: TableDay.objects.all().delete(),
        read_models=(ReadModel(TableDay),),
        day_streams=_day_streams(TABLE_STREAM_KIND, SLIP_STREAM_KIND),
        recompute=_recompute_table_days,
    )
)
SLIPS = register(
    Projection(
        name="tables.slips",
        description="Every fill and credit slip: amounts, who requested and approved it, voids.",
        event_types=frozenset(SLIP_EVENT_TYPES),
        apply=_apply_slips,
        clear=lambda: Slip.objects.all().delete(),
        read_models=(ReadModel(Slip),),
        day_streams=_day_streams(SLIP_STREAM_KIND),
    )
)
