"""Round events in the ledger: the engine's event classes, registered with
JSON Schemas derived from their fields, and the ``round`` stream kind whose
policy asks the rules engine whether each new event is legal.

The engine (``tables.rules.events``) is the single source of truth for the
payload shapes; the schemas published to devices (``/api/v1/event-types``)
and to regulators' exports are generated from it here.
"""

from __future__ import annotations

import dataclasses
import datetime
import enum
import re
import types
import typing
from collections.abc import Sequence
from typing import Any

from audit import clock, errors
from audit.registry import (
    MAX_CENTS,
    EventType,
    StreamKind,
    register_event_type,
    register_stream_kind,
)
from casino.roles import Role
from tables.corrections import TABLE_CORRECTIONS
from tables.rules.cards import Card
from tables.rules.engine import RuleViolation
from tables.rules.events import ROUND_EVENT_TYPES, Event, Options, RoundOpened
from tables.rules.events_v1 import UPCASTERS

ROUND_STREAM_KIND = "round"
_FIELD = re.compile(r"field '(?P<field>[a-z_0-9]+)'")


def _schema_for(annotation: Any) -> dict[str, Any]:
    origin = typing.get_origin(annotation)
    if origin in (types.UnionType, typing.Union):
        (inner,) = (arg for arg in typing.get_args(annotation) if arg is not type(None))
        schema = _schema_for(inner)
        return {"anyOf": [schema, {"type": "null"}]}
    if origin is tuple:
        return {"type": "array", "items": _schema_for(typing.get_args(annotation)[0])}
    if isinstance(annotation, type) and issubclass(annotation, enum.Enum):
        return {"type": "string", "enum": [member.value for member in annotation]}
    if annotation is bool:
        return {"type": "boolean"}
    if annotation is int:
        return {"type": "integer"}
    if annotation is Card:
        return {"type": "string", "pattern": "^((10|[2-9TJQKA])[cdhs]|Jk)$",
                "description": "e.g. Ah; Jk is Pai Gow's joker (§ 561.3(a))"}
    if annotation is datetime.date:
        return {"type": "string", "format": "date"}
    if annotation is Options:
        return {
            "type": "object",
            "description": "named options the game declares",
            "additionalProperties": {"type": ["string", "integer", "boolean", "null"]},
        }
    return {"type": "string"}


def _money(schema: dict[str, Any]) -> dict[str, Any]:
    """A ``*_cents`` field: integer cents up to ``MAX_CENTS`` (the read models'
    money columns are 64-bit; the engine checks the lower bound and says why)."""
    if schema.get("type") == "integer":
        return {**schema, "maximum": MAX_CENTS, "description": "integer cents"}
    if "anyOf" in schema:
        return {"anyOf": [_money(option) for option in schema["anyOf"]]}
    return schema


def _field_schema(name: str, annotation: Any) -> dict[str, Any]:
    schema = _schema_for(annotation)
    return _money(schema) if name.endswith("_cents") else schema


def schema_of(cls: type[Event]) -> dict[str, Any]:
    hints = typing.get_type_hints(cls)
    fields = dataclasses.fields(cls)
    return {
        "type": "object",
        "description": (cls.__doc__ or "").strip().splitlines()[0] if cls.__doc__ else "",
        "properties": {
            field.name: _field_schema(field.name, hints[field.name]) for field in fields
        },  # fmt: skip
        "required": [f.name for f in fields if f.default is dataclasses.MISSING],
        "additionalProperties": False,
    }


def engine_check(cls: type[Event]):
    """The engine's own validation (card text, seat/position addressing…),
    re-raised as ``field: reason`` so the ledger names the field."""

    def check(payload: dict[str, Any]) -> None:
        try:
            cls.from_payload(payload)
        except ValueError as error:
            message = str(error).removeprefix(f"{cls.TYPE}: ")
            match = _FIELD.search(message)
            raise ValueError(f"{match['field'] if match else 'payload'}: {message}") from None

    return check


def to_engine(event_type: str, payload: dict[str, Any]) -> Event:
    return ROUND_EVENT_TYPES[event_type].from_payload(payload)


def round_policy(stream_id: str, recorded: Any, new: Sequence[Any], actor: Any) -> None:
    """Refuse, with the section it breaks, any event the regulation forbids
    given the round so far. Dealer actions (pays, collections) are facts and
    always accepted; replay turns wrong ones into findings.

    The rounds service holds the round's state at the stream's head, so this
    costs one engine step per new event, not a replay of the round."""
    from tables.rounds import SERVICE, NotARound

    if len(recorded) == 0 and new and new[0].event_type == RoundOpened.TYPE:
        _check_round_opens(stream_id, new[0].payload, actor, new[0].occurred_at)
    try:
        SERVICE.check(recorded, new)
    except NotARound:
        raise errors.RuleViolation(
            "a round stream starts with round.opened", field="events[0].type"
        ) from None
    except RuleViolation as violation:
        index = getattr(violation, "index", 0)
        raise errors.RuleViolation(
            f"§ {violation.section}: {violation.reason}",
            field=f"events[{index}].payload" + (f".{violation.field}" if violation.field else ""),
            section=violation.section,
        ) from None


def _check_round_opens(
    stream_id: str, payload: dict[str, Any], actor: Any, occurred_at: Any = None
) -> None:
    """A round is the round its stream names, of a day not sealed; a dealer's
    or a device's round is at a configured table whose gaming day is open
    (opened, its opener countersigned, not closed). The system's jobs (the
    simulator, an import of history) record rounds as given."""
    from audit.models import DaySeal
    from tables.models import Table
    from tables.table_day import table_day_state, table_stream_id

    def refuse(message: str, field: str) -> None:
        raise errors.RuleViolation(message, field=field)

    key = stream_id.partition(":")[2]
    if payload["round_id"] != key:
        refuse(f"events[0].payload.round_id: {payload['round_id']!r} differs from the stream's "
               f"round {key!r}; a round is recorded on round:<round_id>",
               "events[0].payload.round_id")  # fmt: skip
    table_id, day = payload["table_id"], payload["gaming_day"]
    if DaySeal.objects.filter(gaming_day=day).exists():
        refuse(f"events[0].payload.gaming_day: gaming day {day} is closed and sealed",
               "events[0].payload.gaming_day")  # fmt: skip
    if actor is not None and Role.SYSTEM.value in actor.roles:
        return
    if not Table.objects.filter(table_id=table_id).exists():
        refuse(f"events[0].payload.table_id: no table {table_id!r} is configured",
               "events[0].payload.table_id")  # fmt: skip
    state = table_day_state(table_stream_id(table_id, day))
    if not state.open:
        refuse(f"events[0].payload.table_id: table {table_id} is not open on gaming day {day} "
               f"({state.why_not_open()})", "events[0].payload.table_id")  # fmt: skip
    _check_configured(table_id, payload, occurred_at or clock.now(), refuse)
    from tables.house_way_config import check_opening

    check_opening(payload, occurred_at or clock.now(), refuse)
    from tables.floor_duties import check_reader_working

    check_reader_working(table_id, day, payload["game"])
    if state.dealer:  # § 527.5(a): the table's dealer is trained in the round's game
        from tables.training import check_certified

        check_certified(state.dealer, payload["game"], day, "events[0].payload.game")
    _check_as_left(stream_id, payload)


def _check_as_left(stream_id: str, payload: dict[str, Any]) -> None:
    """A round opens as the table's previous round of the day left it, for a game that
    carries something from round to round (§ 585.3(j): the seat holding the shaker): the
    table's state is its last round, read from the ledger (the index of migration
    tables 0011) and replayed by the rounds service."""
    from django.db import connection

    from tables.rounds import SERVICE
    from tables.rules.machine import refuse_next_opening
    from tables.rules.registry import declared, game_ids

    if payload["game"] not in game_ids():
        return  # a blackjack game (its own machine carries nothing) or none: the engine says
    game = declared(payload["game"])
    if game is None or game.opens_with is None:
        return
    table = "payload ->> 'table_id'" if connection.vendor == "postgresql" else (
        "json_extract(payload, '$.table_id')")  # fmt: skip
    sql = (f"SELECT stream_id FROM ledger_event WHERE event_type = 'round.opened' "
           f"AND {table} = %s AND stream_id <> %s ORDER BY position DESC LIMIT 1")  # fmt: skip
    with connection.cursor() as cursor:
        cursor.execute(sql, [payload["table_id"], stream_id])
        row = cursor.fetchone()
    if row is None:
        return
    previous = SERVICE.current(row[0]).state
    if previous is None or str(previous.opened.gaming_day) != str(payload["gaming_day"]):
        return
    refusal = refuse_next_opening(previous, to_engine(RoundOpened.TYPE, payload))
    if refusal is not None:
        raise errors.RuleViolation(
            f"§ {refusal.section}: {refusal.reason}",
            field=f"events[0].payload.{refusal.field}",
            section=refusal.section,
        )


def _check_configured(table_id: str, payload: dict[str, Any], moment: Any, refuse: Any) -> None:
    """The round uses the rule set, payout limit and options in force at its
    table when it opens: the table's configuration in the ledger (issue 21),
    not a row anyone with database rights can edit."""
    from tables.configuration import configuration_at

    configuration = configuration_at(table_id, moment)
    if not configuration:
        return  # a table never configured through the ledger (verify_ledger names it)
    expected = {"ruleset_id": configuration.get("ruleset_id")}
    if configuration.get("payout_limit_cents") is not None:
        expected["payout_limit_cents"] = configuration.get("payout_limit_cents")
    for name, value in (configuration.get("options") or {}).items():
        expected[f"options.{name}"] = value
    for name, value in expected.items():
        group, _, key = name.partition(".")
        given = payload.get("options", {}).get(key) if key else payload.get(name)
        if given != value:
            source = configuration.sources[group]
            refuse(f"events[0].payload.{name}: {given!r} is not the table's configuration: "
                   f"{table_id} uses {value!r} at {moment.isoformat()} "
                   f"({configuration.stream_id} {source.events})",
                   f"events[0].payload.{name}")  # fmt: skip


for _cls in ROUND_EVENT_TYPES.values():
    register_event_type(
        EventType(
            name=_cls.TYPE,
            version=_cls.SCHEMA_VERSION,
            description=(_cls.__doc__ or _cls.TYPE).strip().splitlines()[0],
            schema=schema_of(_cls),
            upcasters={
                version: UPCASTERS[(_cls.TYPE, version)]
                for version in range(1, _cls.SCHEMA_VERSION)
            },
            check=engine_check(_cls),
        )
    )

register_stream_kind(
    StreamKind(
        name=ROUND_STREAM_KIND,
        description="One round of play at one table: wagers, cards, decisions, irregularities "
        "and what the dealer paid or collected.",
        accepts=frozenset({"round.*"}),
        policy=round_policy,
        corrections=TABLE_CORRECTIONS,
    )
)
