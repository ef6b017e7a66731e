"""Progressive meters in the ledger: ``meter:<meter_id>``, one stream per meter
however many tables are linked to it (issue 11).

The events are the rules engine's (:mod:`tables.rules.progressives.events`),
each registered here with its schema written out and a schema version; the
stream's policy folds the stream and asks the engine
(:mod:`tables.rules.progressives.meter`) whether each new event is legal, so a
decrease other than a payout, a reset after a payout of the whole meter or an
adjustment signed by two people is refused with the section it breaks.

An adjustment takes two people (``audit.two_person``): one proposes it
(``meter.adjustment_proposed``, which changes nothing) and a second, in person,
appends the ``meter.adjusted`` that names the proposal's version; only then
does the meter move.

The policy keeps the folded state at each stream's head (keyed by the head's
hash, so a refused or rolled-back batch is never mistaken for the head): an
append costs one engine step per event, not a fold of the day's contributions.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

from audit import errors, two_person
from audit.registry import (
    CENTS,
    MAX_CENTS,
    POSITIVE_CENTS,
    TEXT,
    EventType,
    StreamKind,
    object_schema,
    register_event_type,
    register_stream_kind,
)
from casino.roles import Role
from tables.rules.engine import RuleViolation
from tables.rules.progressives.events import (
    METER_EVENT_TYPES,
    MeterAdjusted,
    MeterConfigured,
    MeterContributed,
    MeterEvent,
    MeterHit,
    MeterPaid,
    MeterRead,
    MeterReset,
    OddCents,
    RateBase,
    ReadingOccasion,
)
from tables.rules.progressives.meter import MeterState, apply, fold

METER_KIND = "meter"
ADJUSTMENT_PROPOSED = "meter.adjustment_proposed"
#: Who configures a meter (the rate, the schedule, the tables linked).
CONFIGURERS = frozenset({Role.ADMINISTRATOR.value, Role.SHIFT_SUPERVISOR.value})
#: Who may propose or sign an adjustment of a meter.
ADJUSTERS = frozenset({Role.SHIFT_SUPERVISOR.value, Role.ADMINISTRATOR.value,
                       Role.FINANCE.value})  # fmt: skip


def meter_stream(meter_id: str) -> str:
    """The stream of ``meter_id``."""
    return f"{METER_KIND}:{meter_id}"


# --- schemas, written out ---------------------------------------------------------------

_NAME = {"type": "string", "minLength": 1, "maxLength": 100}
_DATE = {"type": "string", "format": "date"}
_COUNT = {"type": "integer", "minimum": 0, "maximum": 2**31 - 1}
_POSITIVE = {"type": "integer", "minimum": 1, "maximum": 2**31 - 1}
_SEAT = {"type": "integer", "minimum": 1, "maximum": 99}
_LINE = {
    "type": "object",
    "properties": {
        "hand": _NAME, "label": TEXT,
        "kind": {"type": "string", "enum": ["meter_share", "fixed", "for_one"]},
        "numerator": _POSITIVE, "denominator": _POSITIVE, "cents": CENTS,
    },
    "required": ["hand", "label", "kind"],
    "additionalProperties": False,
}  # fmt: skip


def _enum(members: Any) -> dict[str, Any]:
    return {"type": "string", "enum": [member.value for member in members]}


SCHEMAS: dict[str, dict[str, Any]] = {
    MeterConfigured.TYPE: object_schema({
        "meter_id": _NAME, "effective_from": _DATE, "chapter": _NAME,
        "tables": {"type": "array", "items": _NAME, "minItems": 1},
        "wager_amounts_cents": {"type": "array", "items": POSITIVE_CENTS, "minItems": 1},
        "rate_numerator": _COUNT, "rate_denominator": _POSITIVE, "rate_base": _enum(RateBase),
        "initial_cents": CENTS, "reset_cents": CENTS, "share_rounding": _NAME,
        "rate_base_cents": CENTS, "reserve_numerator": _COUNT, "reserve_denominator": _POSITIVE,
        "odd_cents": {"anyOf": [_enum(OddCents), {"type": "null"}]},
        "schedule": {"type": "array", "items": _LINE, "minItems": 1},
    }, required=["meter_id", "effective_from", "chapter", "tables", "wager_amounts_cents",
                 "rate_numerator", "rate_denominator", "rate_base", "initial_cents",
                 "reset_cents", "share_rounding", "schedule"]),
    MeterContributed.TYPE: object_schema({
        "round_id": _NAME, "table": _NAME, "gaming_day": _DATE,
        "wagers_cents": {"type": "array", "items": POSITIVE_CENTS, "minItems": 1},
    }),
    MeterHit.TYPE: object_schema({
        "round_id": _NAME, "table": _NAME, "gaming_day": _DATE, "seat": _SEAT, "hand": _NAME,
        "wager_cents": POSITIVE_CENTS,
    }),
    MeterPaid.TYPE: object_schema({
        "round_id": _NAME, "table": _NAME, "seat": _SEAT, "amount_cents": CENTS,
        "validated_by": _NAME,
    }),
    MeterReset.TYPE: object_schema({"amount_cents": CENTS}),
    MeterRead.TYPE: object_schema({
        "table": _NAME, "gaming_day": _DATE, "occasion": _enum(ReadingOccasion),
        "displayed_cents": CENTS,
    }),
    MeterAdjusted.TYPE: object_schema({
        "amount_cents": {"type": "integer", "minimum": -MAX_CENTS, "maximum": MAX_CENTS},
        "reason": TEXT, "proposed_by": _NAME, "confirmed_by": _NAME,
        "confirms_version": _POSITIVE,
    }),
    ADJUSTMENT_PROPOSED: object_schema({
        "amount_cents": {"type": "integer", "minimum": -MAX_CENTS, "maximum": MAX_CENTS},
        "reason": TEXT, "proposed_by": _NAME,
    }),
}  # fmt: skip

_DESCRIPTIONS = {
    MeterConfigured.TYPE: "A meter's configuration from a gaming day on: its game, the tables "
    "linked to it, the wager, the rate of progression and its base, the initial and reset "
    "amounts, any reserve share and the pay schedule.",
    MeterContributed.TYPE: "The progressive wagers the system accepted in one round at one table.",
    MeterHit.TYPE: "A seat holds a hand on the progressive schedule.",
    MeterPaid.TYPE: "The dealer paid a seat's progressive payout, validated by a floorperson.",
    MeterReset.TYPE: "The meter was reset to its reset amount after a payout of all of it.",
    MeterRead.TYPE: "The amount the table's controller displayed (opening, closing or a hit).",
    MeterAdjusted.TYPE: "A correction of the meter, confirmed by a second person.",
    ADJUSTMENT_PROPOSED: "A correction of the meter proposed by one person; it changes nothing "
    "until a second person confirms it (meter.adjusted).",
}


def to_engine(event_type: str, payload: dict[str, Any]) -> MeterEvent:
    """The engine's event for a stored payload (a proposal is not one)."""
    if event_type == MeterAdjusted.TYPE:
        payload = {k: v for k, v in payload.items() if k != "confirms_version"}
    event = METER_EVENT_TYPES[event_type].from_payload(payload)
    return event  # type: ignore[return-value]


def _engine_check(event_type: str) -> Any:
    def check(payload: dict[str, Any]) -> None:
        try:
            to_engine(event_type, payload)
        except ValueError as error:
            raise ValueError(f"payload: {str(error).removeprefix(event_type + ': ')}") from None

    return check


for _name, _schema in SCHEMAS.items():
    register_event_type(EventType(
        name=_name, version=1, schema=_schema, description=_DESCRIPTIONS[_name],
        check=_engine_check(_name) if _name in METER_EVENT_TYPES else None,
    ))  # fmt: skip


# --- the stream's policy ----------------------------------------------------------------


class _Heads(threading.local):
    """The folded state at each meter stream's head: ``stream → (head hash, state)``."""

    def __init__(self) -> None:
        self.states: dict[str, tuple[str, MeterState | None]] = {}


_HEADS = _Heads()


def folded(events: Sequence[Any]) -> MeterState | None:
    """A meter stream's recorded events folded (``None`` before its configuration)."""
    engine = [to_engine(e.event_type, e.payload) for e in events
              if e.event_type in METER_EVENT_TYPES]  # fmt: skip
    return fold(engine).state if engine else None


def _state_at_head(stream_id: str, recorded: Any) -> MeterState | None:
    head = getattr(recorded, "head_hash", None)
    cached = _HEADS.states.get(stream_id)
    if head is not None and cached is not None and cached[0] == head:
        return cached[1]
    return folded(recorded)


def _refuse(message: str, field: str, section: str = "") -> None:
    raise errors.RuleViolation(message, field=field, section=section)


def _check_actor(event: Any, actor: Any, where: str, stream_id: str) -> None:
    system = actor is not None and Role.SYSTEM.value in actor.roles
    if system:
        return
    roles = actor.roles if actor is not None else frozenset()
    if event.event_type == MeterConfigured.TYPE and not roles & CONFIGURERS:
        _refuse(f"{where}.type: {stream_id} is configured by "
                f"{' or '.join(sorted(CONFIGURERS))}", f"{where}.type")  # fmt: skip
    if event.event_type in (ADJUSTMENT_PROPOSED, MeterAdjusted.TYPE) and not roles & ADJUSTERS:
        _refuse(f"{where}.type: a meter is adjusted by {' or '.join(sorted(ADJUSTERS))}",
                f"{where}.type")  # fmt: skip


def meter_policy(stream_id: str, recorded: Any, new: Sequence[Any], actor: Any) -> None:
    """Refuse, with its section, any event the chapter forbids given the meter so far."""
    state = _state_at_head(stream_id, recorded)
    waiting: dict[int, str] | None = None
    proposals: dict[int, dict[str, Any]] = {}

    def pending() -> dict[int, str]:
        """Proposals awaiting a second person, the stream's read only if one is confirmed."""
        nonlocal waiting
        if waiting is None:
            history = list(recorded)
            waiting = two_person.awaiting(history, proposed=ADJUSTMENT_PROPOSED,
                                          confirmed=MeterAdjusted.TYPE,
                                          proposer_field="proposed_by",
                                          needs_confirmation="needs_confirmation")  # fmt: skip
            proposals.update((e.version, e.payload) for e in history
                             if e.event_type == ADJUSTMENT_PROPOSED)  # fmt: skip
        return waiting

    for index, event in enumerate(new):
        where = f"events[{index}]"
        _check_actor(event, actor, where, stream_id)
        version = len(recorded) + index + 1
        payload = event.payload
        if event.event_type == ADJUSTMENT_PROPOSED:
            if not two_person.is_person(actor) or actor.username != payload["proposed_by"]:
                _refuse(f"{where}.payload.proposed_by: an adjustment is proposed in person",
                        f"{where}.payload.proposed_by")  # fmt: skip
            pending()[version] = payload["proposed_by"]
            proposals[version] = payload
            continue
        if event.event_type == MeterAdjusted.TYPE:
            confirms = payload["confirms_version"]
            two_person.check_confirmation(pending(), confirms, payload["confirmed_by"], actor,
                                          where)  # fmt: skip
            proposal = proposals[confirms]
            if (proposal["amount_cents"], proposal["reason"], proposal["proposed_by"]) != (
                    payload["amount_cents"], payload["reason"], payload["proposed_by"]):
                _refuse(f"{where}.payload: the adjustment confirmed is not the one proposed "
                        f"(version {confirms})", f"{where}.payload")  # fmt: skip
            pending().pop(confirms)
        try:
            state = apply(state, to_engine(event.event_type, event.payload)).state
        except RuleViolation as violation:
            _refuse(f"§ {violation.section}: {violation.reason}" if _cites(violation.section)
                    else violation.reason,
                    f"{where}.payload" + (f".{violation.field}" if violation.field else ""),
                    violation.section if _cites(violation.section) else "")  # fmt: skip
    after = state

    def remember(committed: Any) -> None:
        _HEADS.states[stream_id] = (committed[-1].hash, after)

    if hasattr(recorded, "after_commit"):
        recorded.after_commit(remember)


def _cites(section: str) -> bool:
    """Whether ``section`` is a regulation's (``555.13(f)``), not an event type's name."""
    return section[:1].isdigit()


register_stream_kind(StreamKind(
    name=METER_KIND,
    description="One progressive meter, however many tables are linked to it: its "
    "configuration (effective-dated), the contributions of rounds' accepted progressive "
    "wagers, hits and payments, resets, the amounts its controller displayed and "
    "adjustments signed by two people.",
    accepts=frozenset({"meter.*"}),
    policy=meter_policy,
    # A meter lives for years: retention never archives it.
    lasting=True,
))  # fmt: skip
