"""A poker table's time charges of a gaming day: ``timecharge:<table>:<day>`` (§ 553.15(b)(3)).

* ``timecharge.assessed``: the dealer took the period's charge into the rake area
  ((b)(3)(iv)): the period's start, the game's limits, the seats occupied (inactive
  players included, (i)), the amount, under a posted time-charge rule set;
* ``timecharge.verified``: a floorperson or above verified the period's charge,
  which then goes into the drop box ((b)(3)(v)).

Amounts are facts, always accepted; :func:`charge_days` judges them against the
posted schedule (:mod:`tables.rules.poker_room.time_charges`) for the close, whose
replay counts the findings and whose reconciliation counts the charges the schedule
required as the table's revenue beside the rake (§ 553.15(a)), never the pots.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from typing import Any

from django.db import connection

from audit.ledger import Actor, NewEvent, RecordedEvent, read_streams
from audit.registry import (
    CENTS,
    EventType,
    StreamKind,
    object_schema,
    register_event_type,
    register_stream_kind,
)
from casino.roles import Role
from tables.corrections import TABLE_CORRECTIONS
from tables.decks import USERNAME, _check_signer, _refuse
from tables.rules.engine import RuleViolation
from tables.rules.poker_room.rulesets import time_charge_ruleset
from tables.rules.poker_room.time_charges import Assessment, ChargeFinding, judge_day

TIME_CHARGE_KIND = "timecharge"
ASSESSED = "timecharge.assessed"
VERIFIED = "timecharge.verified"

_MOMENT = {"type": "string", "format": "date-time", "maxLength": 40}
_SCHEMAS: dict[str, tuple[str, dict[str, Any]]] = {
    ASSESSED: (
        "The dealer took a period's time charge into the rake area (§ 553.15(b)(3)).",
        object_schema({
            "ruleset_id": {"type": "string", "minLength": 1, "maxLength": 50},
            "period_start": _MOMENT, "min_wager_cents": CENTS, "max_wager_cents": CENTS,
            "seats": {"type": "array", "maxItems": 12, "uniqueItems": True,
                      "items": {"type": "integer", "minimum": 1, "maximum": 12}},
            "amount_cents": CENTS, "dealer": USERNAME,
        }),
    ),  # fmt: skip
    VERIFIED: (
        "A floorperson or above verified a period's time charge; into the drop box "
        "(§ 553.15(b)(3)(v)).",
        object_schema({"period_start": _MOMENT, "amount_cents": CENTS, "verified_by": USERNAME}),
    ),
}
_VERIFIERS = (Role.FLOORPERSON, Role.SHIFT_SUPERVISOR)


def time_charge_stream_id(table_id: str, day: datetime.date) -> str:
    return f"{TIME_CHARGE_KIND}:{table_id}:{day.isoformat()}"


def time_charge_policy(
    stream_id: str, recorded: Sequence[RecordedEvent], new: Sequence[NewEvent], actor: Actor
) -> None:
    """Refuse a charge under no posted rule set (§ 553.15(a)) or assessed twice for one
    period, one recorded for another than its dealer, a verification by anyone below a
    floorperson or of a period never assessed (§ 553.15(b)(3)(v))."""
    assessed = {e.payload["period_start"] for e in recorded if e.event_type == ASSESSED}
    for index, event in enumerate(new):
        payload = event.payload
        start = payload["period_start"]
        if event.event_type == ASSESSED:
            try:
                time_charge_ruleset(payload["ruleset_id"])
            except RuleViolation as violation:
                _refuse(f"§ {violation.section}: {violation.reason}", index=index,
                        field="ruleset_id", section=violation.section)  # fmt: skip
            if start in assessed:
                _refuse(f"§ 553.15(b)(3)(iii): the period from {start} is already assessed",
                        index=index, field="period_start", section="553.15(b)(3)(iii)")
            _check_signer(actor, payload["dealer"], (Role.DEALER,), index=index,
                          field="dealer", section="553.15(b)(3)(iv)")  # fmt: skip
            assessed.add(start)
        else:
            if start not in assessed:
                _refuse(f"§ 553.15(b)(3)(v): no time charge assessed for the period from "
                        f"{start}", index=index, field="period_start",
                        section="553.15(b)(3)(v)")  # fmt: skip
            _check_signer(actor, payload["verified_by"], _VERIFIERS, index=index,
                          field="verified_by", section="553.15(b)(3)(v)")  # fmt: skip


def finding_key(finding: ChargeFinding) -> str:
    """As the close counts it, the way a poker hand's are (``tables.poker_hands``)."""
    return f"{finding.kind.value} § {finding.section}"


def charge_days(day: datetime.date, upto: int) -> dict[str, dict[str, Any]]:
    """Each table's time charges of ``day`` as recorded up to ledger position ``upto``:
    periods, required, collected and verified cents, and findings by ``finding_key``."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT DISTINCT stream_id FROM ledger_event WHERE stream_id LIKE %s "
                       "AND version = 1 AND position <= %s ORDER BY stream_id",
                       [f"{TIME_CHARGE_KIND}:%:{day.isoformat()}", upto])  # fmt: skip
        streams = [row[0] for row in cursor.fetchall()]
    grouped: dict[str, list[RecordedEvent]] = {stream_id: [] for stream_id in streams}
    for event in read_streams(streams):
        if event.position <= upto:
            grouped[event.stream_id].append(event)
    found = {}
    for stream_id, events in grouped.items():
        table_id = stream_id.split(":")[1]
        assessed = [e.payload for e in events if e.event_type == ASSESSED]
        if not assessed:
            continue
        verified = {_moment(e.payload["period_start"]): e.payload["amount_cents"]
                    for e in events if e.event_type == VERIFIED}  # fmt: skip
        ruleset_id = assessed[-1]["ruleset_id"]
        judged = judge_day(time_charge_ruleset(ruleset_id), [
            Assessment(period_start=_moment(p["period_start"]),
                       min_wager_cents=p["min_wager_cents"], max_wager_cents=p["max_wager_cents"],
                       seats=tuple(p["seats"]), amount_cents=p["amount_cents"])
            for p in assessed], verified)  # fmt: skip
        findings: dict[str, int] = {}
        for finding in judged.findings:
            findings[finding_key(finding)] = findings.get(finding_key(finding), 0) + 1
        found[table_id] = {"ruleset_id": ruleset_id, "periods": judged.periods,
                           "required_cents": judged.required_cents,
                           "collected_cents": judged.collected_cents,
                           "verified_cents": judged.verified_cents,
                           "findings": findings}  # fmt: skip
    return found


def _moment(text: str) -> datetime.datetime:
    return datetime.datetime.fromisoformat(text)


for _name, (_description, _schema) in _SCHEMAS.items():
    register_event_type(
        EventType(name=_name, version=1, description=_description, schema=_schema)
    )

register_stream_kind(
    StreamKind(
        name=TIME_CHARGE_KIND,
        description="A poker table's time charges of one gaming day (§ 553.15(b)(3)): each "
        "period's assessment and a floorperson's verification.",
        accepts=frozenset(_SCHEMAS),
        policy=time_charge_policy,
        corrections=TABLE_CORRECTIONS,
    )
)
