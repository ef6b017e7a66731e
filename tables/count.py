"""The count of a table's drop in the ledger: one stream per table and gaming
day, ``count:<table_id>:<YYYY-MM-DD>``.

* ``count.entered`` — the first count: the currency (bills by denomination)
  and the chips found in the table's drop, and who counted them;
* ``count.verified`` — a second person confirms the latest count;
* ``count.recount`` — a new count that supersedes the previous one (with the
  reason); it must be verified again.

The drop of the day is the currency plus the chips of the latest count, and
it counts only once that count is verified (``latest_verified_count``).

Both signers hold the finance or shift supervisor role (there is no count
team role yet), and a person appends only in their own name. The count
procedures are internal controls (Pennsylvania Chapter 465a, not among our
sources), so refusals here cite no section.

Amounts are ``{"<denomination cents>": count}`` objects: currency is keyed
by the bill denominations below, chips by ``Casino.chip_denominations_cents``.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from audit.ledger import read_stream
from audit.registry import (
    TEXT,
    EventType,
    StreamKind,
    object_schema,
    register_event_type,
    register_stream_kind,
)
from casino.configuration import threshold_setters
from casino.roles import Role
from tables.models import Table
from tables.table_day import (
    OPENED,
    USERNAME,
    check_denominations,
    check_keys,
    check_person,
    check_signed_by_actor,
    parse_table_day_key,
    refuse,
    table_stream_id,
    total_cents,
)

COUNT_STREAM_KIND = "count"

ENTERED = "count.entered"
VERIFIED = "count.verified"
RECOUNT = "count.recount"
COUNT_EVENT_TYPES = (ENTERED, VERIFIED, RECOUNT)
COUNTS = frozenset({ENTERED, RECOUNT})

#: US bills accepted in a drop box, in cents ($1, $2, $5, $10, $20, $50, $100).
CURRENCY_DENOMINATIONS_CENTS = (100, 200, 500, 1000, 2000, 5000, 10000)
#: Who may count and verify a drop.
COUNTERS = frozenset({Role.FINANCE.value, Role.SHIFT_SUPERVISOR.value})


def count_stream_id(table_id: str, gaming_day: datetime.date | str) -> str:
    return f"{COUNT_STREAM_KIND}:{table_id}:{gaming_day}"


# --- payload schemas ---------------------------------------------------------------


def _amounts(description: str) -> dict[str, Any]:
    return {
        "type": "object",
        "description": description + ": count by denomination in cents (may be empty)",
        "additionalProperties": {"type": "integer", "minimum": 1, "maximum": 1_000_000},
    }


_COUNT = {"currency": _amounts("bills"), "chips": _amounts("chips"), "counted_by": USERNAME}
_TYPES = [
    (ENTERED, "The table's drop was counted: bills and chips, by denomination.", _COUNT),
    (VERIFIED, "A second person verified the latest count.", {"verified_by": USERNAME}),
    (RECOUNT, "The drop was counted again; this count supersedes the previous one and must "
     "be verified again.", {**_COUNT, "reason": TEXT}),
]  # fmt: skip

for _name, _description, _properties in _TYPES:
    register_event_type(
        EventType(
            name=_name,
            version=1,
            description=_description,
            schema=object_schema(_properties, description=_description),
            check=check_keys("currency", "chips") if "currency" in _properties else None,
        )
    )


# --- the state of a count stream ------------------------------------------------------


@dataclass(frozen=True)
class Count:
    """One count of the drop (entered or recount) and whether it is verified."""

    event_type: str
    currency: Mapping[str, int]
    chips: Mapping[str, int]
    counted_by: str
    verified_by: str = ""
    position: int = 0

    @property
    def currency_cents(self) -> int:
        return total_cents(self.currency)

    @property
    def chips_cents(self) -> int:
        return total_cents(self.chips)

    @property
    def drop_cents(self) -> int:
        return self.currency_cents + self.chips_cents


@dataclass
class CountState:
    counts: list[Count] = field(default_factory=list)

    @property
    def latest(self) -> Count | None:
        return self.counts[-1] if self.counts else None

    def apply(self, event_type: str, payload: Mapping[str, Any], position: int = 0) -> None:
        if event_type in COUNTS:
            self.counts.append(Count(event_type, dict(payload["currency"]),
                                     dict(payload["chips"]), payload["counted_by"],
                                     position=position))  # fmt: skip
        elif event_type == VERIFIED and self.counts:
            self.counts[-1] = replace(
                self.counts[-1], verified_by=payload["verified_by"], position=position
            )


def count_state(events: Sequence[Any]) -> CountState:
    state = CountState()
    for event in events:
        state.apply(event.event_type, event.payload, getattr(event, "position", 0))
    return state


def latest_verified_count(
    table_id: str, gaming_day: datetime.date | str, upto: int | None = None
) -> Count | None:
    """The latest count of the table's day if it is verified, else None (no
    count, or a count or recount still waiting for its verification); with
    ``upto``, as the ledger stood at that position."""
    events = read_stream(count_stream_id(table_id, gaming_day))
    if upto is not None:
        events = [e for e in events if e.position <= upto]
    latest = count_state(events).latest
    return latest if latest is not None and latest.verified_by else None


# --- the policy -------------------------------------------------------------------------


def _check_currency(currency: Mapping[str, int], field_name: str) -> None:
    allowed = {str(value) for value in CURRENCY_DENOMINATIONS_CENTS}
    for key in currency:
        if key not in allowed:
            refuse(
                f"{field_name}: {key} cents is not a bill denomination (accepted: "
                f"{', '.join(sorted(allowed, key=int))})",
                f"{field_name}.{key}",
            )


def count_policy(stream_id: str, recorded: Sequence[Any], new: Sequence[Any], actor: Any) -> None:
    """Refuse what cannot happen to a count given the stream so far."""
    table_id, day = parse_table_day_key(stream_id)
    if not Table.objects.filter(table_id=table_id).exists():
        refuse(f"no table {table_id} is configured", "stream_id")
    state = count_state(recorded)
    for index, event in enumerate(new):
        _check_count_event(table_id, day, state, event.event_type, event.payload, actor,
                           f"events[{index}]")  # fmt: skip
        state.apply(event.event_type, event.payload)


def _check_count_event(
    table_id: str,
    day: datetime.date,
    state: CountState,
    event_type: str,
    payload: Mapping[str, Any],
    actor: Any,
    where: str,
) -> None:
    payload_field = f"{where}.payload"
    latest = state.latest
    if event_type == ENTERED:
        if latest is not None:
            refuse(
                f"the drop of table {table_id} on gaming day {day} was already counted; a "
                "second count is a count.recount",
                f"{where}.type",
            )
        table_events = read_stream(table_stream_id(table_id, day))
        if not table_events or table_events[0].event_type != OPENED:
            refuse(
                f"table {table_id} was not opened on gaming day {day}, so it has no drop to count",
                "stream_id",
            )
    elif latest is None:
        refuse(
            f"the drop of table {table_id} on gaming day {day} was never counted: a count "
            "stream starts with count.entered",
            f"{where}.type",
        )
    if event_type in COUNTS:
        _check_currency(payload["currency"], f"{payload_field}.currency")
        check_denominations(payload["chips"], f"{payload_field}.chips")
        check_person(payload["counted_by"], COUNTERS, f"{payload_field}.counted_by")
        check_signed_by_actor(actor, [payload["counted_by"]], f"{payload_field}.counted_by")
        if payload["counted_by"] in threshold_setters(day):
            refuse(f"{payload_field}.counted_by: {payload['counted_by']} set the variance "
                   f"thresholds in force on gaming day {day}, which judge this count; the "
                   "person who changes the thresholds may not enter the count (segregation "
                   "of duties)", f"{payload_field}.counted_by")  # fmt: skip
    elif event_type == VERIFIED:
        assert latest is not None
        if latest.verified_by:
            refuse(
                f"the latest count of table {table_id} on gaming day {day} is already "
                f"verified by {latest.verified_by}; a correction is a count.recount",
                f"{where}.type",
            )
        check_person(payload["verified_by"], COUNTERS, f"{payload_field}.verified_by")
        if payload["verified_by"] == latest.counted_by:
            refuse(
                f"{payload_field}.verified_by: {latest.counted_by} counted the drop and may "
                "not verify it too; a second person verifies",
                f"{payload_field}.verified_by",
            )
        check_signed_by_actor(actor, [payload["verified_by"]], f"{payload_field}.verified_by")


register_stream_kind(
    StreamKind(
        name=COUNT_STREAM_KIND,
        description="The count of one table's drop for a gaming day: count, verification "
        "and recounts.",
        accepts=frozenset({"count.*"}),
        policy=count_policy,
    )
)
