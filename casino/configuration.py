"""The configuration that decides money, as facts in the ledger (issue 21).

A configuration stream holds changes (``config.changed``: the settings that
change, from when, why and by whom) and their confirmations by a second
person (``config.confirmed``), where the casino's segregation of duties
requires one (its ``two_person_configuration`` setting, itself on the
casino's stream; on unless a confirmed change turns it off). Replay, the
close and the deck job read the configuration in force at a moment from
here; the models' history (django-simple-history) stays the admin's view
and is checked against these events (``tables.configuration``).

* ``casino-config:casino``: the casino's settings: the variance thresholds
  the close judges a day by, ``two_person_configuration`` and its Pai Gow
  house way (``house_way``, § 561.13(d); ``tables.house_way_config``);
* ``table-config:<table_id>``: a table's rule set, limits, pay-table options
  and payout limit, dealing method (the deck-change interval), status
  (``tables.configuration`` registers it with its own checks).

A change takes effect at ``effective_from`` or, when it needs a second
person, at its confirmation if that is later; it may not reach into the
past (the system's import of the admin's history excepted), so a sealed
day is always judged by what was in force then. Settings merge: the
configuration at a moment is every change in force by then, in the order
they took effect.

Segregation of duties for the variance thresholds (issue 14): the person
who enters a count may not change (propose or confirm) the thresholds it is
judged by, and the person who set the thresholds in force on a day may not
enter that day's count (``tables.count``).
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db import connection

from audit import clock, errors, two_person
from audit.ledger import read_stream
from audit.registry import (
    TEXT,
    EventType,
    StreamKind,
    object_schema,
    register_event_type,
    register_stream_kind,
)
from casino.roles import Role

CHANGED = "config.changed"
CONFIRMED = "config.confirmed"
CASINO_CONFIG_KIND = "casino-config"
CASINO_STREAM = f"{CASINO_CONFIG_KIND}:casino"

USERNAME = {"type": "string", "minLength": 1, "maxLength": 150}
_COUNT = {"type": "integer", "minimum": 0, "maximum": 10**12}

#: Every setting a configuration stream may carry, with its JSON Schema.
SETTINGS: dict[str, dict[str, Any]] = {
    # the casino's
    "two_person_configuration": {"type": "boolean"},
    "inventory_tolerance_cents": _COUNT,
    "drop_tolerance_cents": _COUNT,
    "hold_confidence_percent": {"type": "integer", "enum": [90, 95, 99]},
    "hold_history_days": {"type": "integer", "minimum": 1, "maximum": 3650},
    "hold_min_history_days": {"type": "integer", "minimum": 0, "maximum": 3650},
    "month_over_month_basis_points": _COUNT,
    "meter_tolerance_cents": _COUNT,
    # the casino's Pai Gow house way (§ 561.13(d)), as its Rules Submission file gives it
    # (``tables.rules.games._house_way``; its ``effective_from`` is the change's)
    "house_way": {
        "type": "object",
        "required": ["format", "id", "version", "casino", "source", "dealer"],
        "additionalProperties": False,
        "properties": {
            "format": {"const": "pitboss.house-way/1"},
            "id": {"type": "string", "pattern": "^[A-Z0-9][A-Z0-9_-]{0,39}$"},
            "version": {"type": "integer", "minimum": 1, "maximum": 999_999},
            "casino": {"type": "string", "minLength": 1, "maxLength": 500},
            "source": {"type": "string", "minLength": 1, "maxLength": 500},
            "dealer": {
                "type": "object",
                "additionalProperties": False,
                "required": ["split_quads_from", "split_trip_aces", "split_two_pair_from",
                             "two_pair_together_with_ace", "play_straights"],
                "properties": {
                    "split_quads_from": {"type": "integer", "minimum": 2, "maximum": 15},
                    "split_trip_aces": {"type": "boolean"},
                    "split_two_pair_from": {"type": "integer", "minimum": 2, "maximum": 15},
                    "two_pair_together_with_ace": {"type": "boolean"},
                    "play_straights": {"type": "boolean"},
                },
            },
        },
    },
    # a table's
    "game": {"type": "string", "minLength": 1, "maxLength": 30},
    "ruleset_id": {"type": "string", "minLength": 1, "maxLength": 50},
    "pit": {"type": "string", "minLength": 1, "maxLength": 20},
    "min_wager_cents": _COUNT,
    "max_wager_cents": _COUNT,
    "positions": {"type": "integer", "minimum": 1, "maximum": 20},
    "dealing_method": {"type": "string", "minLength": 1, "maxLength": 20},
    "shuffler": {"type": "string", "minLength": 1, "maxLength": 20},
    "status": {"type": "string", "minLength": 1, "maxLength": 10},
    "payout_limit_cents": {"anyOf": [_COUNT, {"type": "null"}]},
    "options": {
        "type": "object",
        "additionalProperties": {"type": ["string", "integer", "boolean", "null"]},
    },
}
#: The thresholds the close judges a day by (``VariancePolicy``'s fields).
THRESHOLDS = (
    "inventory_tolerance_cents",
    "drop_tolerance_cents",
    "hold_confidence_percent",
    "hold_history_days",
    "hold_min_history_days",
    "month_over_month_basis_points",
    "meter_tolerance_cents",
)
CASINO_SETTINGS = frozenset({"two_person_configuration", "house_way", *THRESHOLDS})

register_event_type(EventType(
    name=CHANGED,
    version=1,
    description="A change of configuration that decides money, from a moment on.",
    schema=object_schema({
        "settings": {"type": "object", "properties": SETTINGS, "additionalProperties": False,
                     "minProperties": 1},
        "effective_from": {"type": "string", "format": "date-time",
                           "description": "from when (with its zone)"},
        "reason": TEXT,
        "changed_by": USERNAME,
        "confirmation_required": {"type": "boolean",
                                  "description": "whether it waits for a second person"},
    }, description="A change of configuration that decides money, from a moment on."),
))  # fmt: skip
register_event_type(EventType(
    name=CONFIRMED,
    version=1,
    description="A second person confirmed a configuration change.",
    schema=object_schema({"confirms_version": {"type": "integer", "minimum": 1},
                          "confirmed_by": USERNAME},
                         description="A second person confirmed a configuration change."),
))  # fmt: skip


# --- the configuration in force ------------------------------------------------------


def _moment(text: str) -> datetime.datetime:
    moment = datetime.datetime.fromisoformat(text)
    if moment.tzinfo is None:
        raise ValueError("a time with its zone")
    return moment


@dataclass
class Change:
    """One ``config.changed`` and, where it needed one, its confirmation."""

    version: int
    position: int
    settings: dict[str, Any]
    effective_from: datetime.datetime
    changed_by: str
    confirmation_required: bool
    reason: str = ""
    confirmed_by: str = ""
    confirmed_version: int = 0
    confirmed_at: datetime.datetime | None = None

    @property
    def in_force(self) -> bool:
        return not self.confirmation_required or bool(self.confirmed_by)

    @property
    def effective(self) -> datetime.datetime:
        """When it took effect: its moment, or its confirmation if later."""
        if self.confirmed_at is not None and self.confirmed_at > self.effective_from:
            return self.confirmed_at
        return self.effective_from

    @property
    def events(self) -> str:
        """The events it comes from, for a report."""
        text = f"version {self.version} (position {self.position}, by {self.changed_by})"
        if self.confirmed_by:
            text += f", confirmed by {self.confirmed_by} in version {self.confirmed_version}"
        return text


def changes(events: Iterable[Any]) -> list[Change]:
    """Every change of a configuration stream, confirmed or not, in order."""
    found: dict[int, Change] = {}
    for event in events:
        payload = event.payload
        if event.event_type == CHANGED:
            found[event.version] = Change(
                version=event.version,
                position=event.position,
                settings=dict(payload["settings"]),
                effective_from=_moment(payload["effective_from"]),
                changed_by=payload["changed_by"],
                confirmation_required=payload["confirmation_required"],
                reason=payload["reason"],
            )
        elif event.event_type == CONFIRMED and payload["confirms_version"] in found:
            change = found[payload["confirms_version"]]
            change.confirmed_by = payload["confirmed_by"]
            change.confirmed_version = event.version
            change.confirmed_at = event.recorded_at  # the ledger's clock, not a claim
    return list(found.values())


@dataclass
class Configuration:
    """The settings in force at a moment, and the change each came from."""

    stream_id: str
    moment: datetime.datetime
    settings: dict[str, Any] = field(default_factory=dict)
    sources: dict[str, Change] = field(default_factory=dict)

    def __bool__(self) -> bool:
        return bool(self.settings)

    def get(self, key: str, default: Any = None) -> Any:
        return self.settings.get(key, default)


def in_force(stream_id: str, found: Sequence[Change], moment: datetime.datetime) -> Configuration:
    """The configuration ``found`` gives at ``moment``."""
    configuration = Configuration(stream_id, moment)
    effective = sorted((c for c in found if c.in_force and c.effective <= moment),
                       key=lambda c: (c.effective, c.version))  # fmt: skip
    for change in effective:
        for key, value in change.settings.items():
            configuration.settings[key] = value
            configuration.sources[key] = change
    return configuration


def configuration_at(stream_id: str, moment: datetime.datetime) -> Configuration:
    """The configuration of ``stream_id`` in force at ``moment``, from the
    ledger (empty where the stream holds nothing in force by then)."""
    return in_force(stream_id, changes(read_stream(stream_id)), moment)


def two_persons_required(moment: datetime.datetime | None = None) -> bool:
    """The casino's segregation of duties: whether a configuration change
    waits for a second person (yes unless a confirmed change said no)."""
    settings = configuration_at(CASINO_STREAM, moment or clock.now()).settings
    return bool(settings.get("two_person_configuration", True))


def judged_at(casino: Any, day: datetime.date) -> datetime.datetime:
    """The moment whose thresholds judge gaming ``day``: its last instant (a
    day is judged at its close, after it ended; changes never reach back)."""
    return casino.gaming_day_bounds(day)[1] - datetime.timedelta(microseconds=1)


def thresholds_in_force(day: datetime.date) -> dict[str, int] | None:
    """The variance thresholds the casino's stream holds for gaming ``day``,
    or ``None`` where it holds none."""
    from casino.models import Casino, VariancePolicy

    settings = configuration_at(CASINO_STREAM, judged_at(Casino.current(), day)).settings
    if not any(key in settings for key in THRESHOLDS):
        return None
    defaults = VariancePolicy().thresholds()
    return {key: settings.get(key, defaults[key]) for key in THRESHOLDS}


def threshold_setters(day: datetime.date) -> set[str]:
    """Who proposed or confirmed the thresholds in force on gaming ``day``."""
    from casino.models import Casino

    casino = Casino.objects.first()
    if casino is None:
        return set()
    sources = configuration_at(CASINO_STREAM, judged_at(casino, day)).sources
    return {
        name
        for key in THRESHOLDS
        if key in sources
        for name in (sources[key].changed_by, sources[key].confirmed_by)
        if name
    }


def counted_days(username: str) -> list[datetime.date]:
    """The gaming days whose drop ``username`` counted (``count.entered`` or
    ``count.recount`` naming them as counter), from the ledger."""
    expression = {"postgresql": "payload->>'counted_by'",
                  "sqlite": "json_extract(payload, '$.counted_by')"}[connection.vendor]  # fmt: skip
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT DISTINCT stream_id FROM ledger_event WHERE event_type IN "
            f"('count.entered', 'count.recount') AND {expression} = %s",
            [username],
        )
        streams = [row[0] for row in cursor.fetchall()]
    return sorted({datetime.date.fromisoformat(s.rsplit(":", 1)[1]) for s in streams})


# --- the policy of a configuration stream ------------------------------------------------

#: Checks a kind adds: (stream id, the settings in force with the change
#: applied, the change's payload, who appends, where) → raises RuleViolation.
SettingsCheck = Callable[[str, Mapping[str, Any], Mapping[str, Any], Any, str], None]


def refuse(message: str, field: str) -> None:
    raise errors.RuleViolation(message, field=field)


def configuration_policy(
    allowed: frozenset[str], roles: frozenset[str], check: SettingsCheck | None = None
) -> Callable[..., None]:
    """The policy of a configuration stream: settings of its kind, changed
    and confirmed in person by holders of ``roles``, confirmed by a second
    person where the casino requires it, never reaching into the past."""

    def policy(stream_id: str, recorded: Sequence[Any], new: Sequence[Any], actor: Any) -> None:
        events = list(recorded)
        found = changes(events)
        waiting = two_person.awaiting(events, proposed=CHANGED, confirmed=CONFIRMED,
                                      proposer_field="changed_by",
                                      needs_confirmation="confirmation_required")  # fmt: skip
        system = actor is not None and Role.SYSTEM.value in actor.roles
        now = clock.now()
        for index, event in enumerate(new):
            where = f"events[{index}]"
            version = len(events) + index + 1
            payload = event.payload
            if not system and not (actor is not None and actor.roles & roles):
                refuse(f"{where}.type: {stream_id} is configured by "
                       f"{' or '.join(sorted(roles))}", f"{where}.type")  # fmt: skip
            if event.event_type == CHANGED:
                field = f"{where}.payload"
                unknown = sorted(set(payload["settings"]) - allowed)
                if unknown:
                    refuse(f"{field}.settings.{unknown[0]}: not a setting of {stream_id} "
                           f"(its settings: {', '.join(sorted(allowed))})",
                           f"{field}.settings.{unknown[0]}")  # fmt: skip
                try:
                    effective = _moment(payload["effective_from"])
                except ValueError:
                    refuse(f"{field}.effective_from: a date and time with its zone",
                           f"{field}.effective_from")  # fmt: skip
                if not system:
                    if not two_person.is_person(actor) or actor.username != payload["changed_by"]:
                        refuse(f"{field}.changed_by: {payload['changed_by']} changes the "
                               "configuration in person, authenticated as themselves",
                               f"{field}.changed_by")  # fmt: skip
                    required = two_persons_required(now)
                    if payload["confirmation_required"] != required:
                        refuse(f"{field}.confirmation_required: must be {str(required).lower()}:"
                               " the casino's segregation of duties "
                               + ("requires" if required else "does not require")
                               + " a second person's confirmation",
                               f"{field}.confirmation_required")  # fmt: skip
                    if effective < now - datetime.timedelta(minutes=5):
                        refuse(f"{field}.effective_from: {payload['effective_from']} is in the "
                               "past; a change takes effect from now on (what was in force "
                               "then judged what happened then)", f"{field}.effective_from")
                merged = {**in_force(stream_id, found, effective).settings, **payload["settings"]}
                if check is not None:
                    check(stream_id, merged, payload, actor, field)
                found.append(Change(version, 0, dict(payload["settings"]), effective,
                                    payload["changed_by"], payload["confirmation_required"]))
                if payload["confirmation_required"]:
                    waiting[version] = payload["changed_by"]
            elif event.event_type == CONFIRMED:
                field = f"{where}.payload"
                confirms = payload["confirms_version"]
                two_person.check_confirmation(waiting, confirms, payload["confirmed_by"], actor,
                                              where)  # fmt: skip
                change = next(c for c in found if c.version == confirms)
                if check is not None:
                    check(stream_id, change.settings, {"settings": change.settings,
                          "effective_from": change.effective_from.isoformat(),
                          "changed_by": payload["confirmed_by"]}, actor, field)  # fmt: skip
                waiting.pop(confirms)
                change.confirmed_by = payload["confirmed_by"]
                change.confirmed_at = now

    return policy


def _check_casino(stream_id: str, merged: Mapping[str, Any], payload: Mapping[str, Any],
                  actor: Any, field: str) -> None:  # fmt: skip
    """Issue 14: whoever entered a count may not change the thresholds it is
    judged by (those in force on its gaming day)."""
    from casino.models import Casino

    if not any(key in payload["settings"] for key in THRESHOLDS):
        return
    person = payload["changed_by"]
    if actor is not None and Role.SYSTEM.value in actor.roles:
        return
    start_day = Casino.current().gaming_day(_moment(payload["effective_from"]))
    judged = [day for day in counted_days(person) if day >= start_day]
    if judged:
        refuse(f"{field}.settings: {person} entered the count of gaming day {judged[0]}, which "
               "these variance thresholds would judge; the person who enters a count may not "
               "change its thresholds (segregation of duties)", f"{field}.settings")  # fmt: skip


register_stream_kind(StreamKind(
    name=CASINO_CONFIG_KIND,
    description="The casino's configuration that decides money: the variance thresholds, its "
    "Pai Gow house way (§ 561.13(d)) and "
    "whether a configuration change needs a second person's confirmation.",
    accepts=frozenset({CHANGED, CONFIRMED}),
    policy=configuration_policy(
        CASINO_SETTINGS,
        frozenset({Role.ADMINISTRATOR.value, Role.FINANCE.value, Role.SHIFT_SUPERVISOR.value}),
        _check_casino,
    ),
    lasting=True,
))  # fmt: skip


# --- appending ------------------------------------------------------------------------


def propose(stream_id: str, settings: Mapping[str, Any], *, effective_from: datetime.datetime,
            reason: str, actor: Any) -> int:  # fmt: skip
    """Append a change in ``actor``'s name (waiting for a second person where
    the casino requires it); returns its version."""
    from audit.ledger import NewEvent, append

    system = Role.SYSTEM.value in actor.roles
    payload = {
        "settings": dict(settings),
        "effective_from": effective_from.isoformat(),
        "reason": reason,
        "changed_by": actor.username,
        "confirmation_required": False if system else two_persons_required(),
    }
    return append(stream_id, [NewEvent(CHANGED, payload)], expected_version=None,
                  actor=actor).last_version  # fmt: skip


def confirm(stream_id: str, version: int, *, actor: Any) -> int:
    """Append ``actor``'s confirmation of the change at ``version``."""
    from audit.ledger import NewEvent, append

    payload = {"confirms_version": version, "confirmed_by": actor.username}
    return append(stream_id, [NewEvent(CONFIRMED, payload)], expected_version=None,
                  actor=actor).last_version  # fmt: skip


def apply_thresholds(moment: datetime.datetime | None = None) -> None:
    """Write the thresholds in force from ``moment`` (now) onto the casino's
    ``VariancePolicy`` row of that gaming day: the admin's view of them."""
    from casino.models import Casino, VariancePolicy

    casino = Casino.current()
    day = casino.gaming_day(moment or clock.now())
    thresholds = thresholds_in_force(day)
    if thresholds is None:
        return
    current = VariancePolicy.in_force(casino.jurisdiction_id, day)
    if current.pk and current.thresholds() == thresholds:
        return
    policy, _ = VariancePolicy.objects.get_or_create(jurisdiction_id=casino.jurisdiction_id,
                                                     effective_from=day)  # fmt: skip
    for key, value in thresholds.items():
        setattr(policy, key, value)
    policy.save()


def waiting_changes(stream_id: str) -> list[Change]:
    """The changes of ``stream_id`` waiting for a second person."""
    return [c for c in changes(read_stream(stream_id)) if not c.in_force]
