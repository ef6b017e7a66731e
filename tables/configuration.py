"""A table's configuration as ledger facts: ``table-config:<table_id>``
(issue 21; the events and their policy are ``casino.configuration``'s).

The rule set a table uses from a moment, its limits, pay-table options and
payout limit, its dealing method (which sets the deck-change interval) and
its status are ``config.changed`` events, confirmed by a second person where
the casino's segregation of duties requires it. A round opened by a dealer
or a device must use the rule set, payout limit and options in force at its
table then; the deck job reads the intervals from here; the ``Table`` row
and its history (django-simple-history) are the admin's view, written from
these events (``apply``) and checked against them (``differences``, which
``verify_ledger`` runs).

Tables configured before these events existed have their history imported
once, by ``migrate`` (``import_history``, on ``post_migrate``): each history
row becomes a change effective at its date, recorded by the system, so every
stored round replays as before and a later edit of the history is named.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from audit import clock
from audit.ledger import Actor, NewEvent, append, read_stream, read_streams, stream_version
from audit.registry import StreamKind, register_stream_kind
from casino import configuration as config
from casino.roles import Role
from tables.models import DealingMethod, Shuffler, Table, TableStatus

TABLE_CONFIG_KIND = "table-config"
#: The ``Table`` fields the events carry (the row's history is checked on these).
TABLE_FIELDS = ("game", "ruleset_id", "pit", "min_wager_cents", "max_wager_cents", "positions",
                "dealing_method", "shuffler", "status")  # fmt: skip
TABLE_SETTINGS = frozenset({*TABLE_FIELDS, "payout_limit_cents", "options"})
CONFIGURERS = frozenset({Role.ADMINISTRATOR.value, Role.SHIFT_SUPERVISOR.value})


def table_config_stream(table_id: str) -> str:
    return f"{TABLE_CONFIG_KIND}:{table_id}"


def configuration_at(table_id: str, moment: datetime.datetime) -> config.Configuration:
    """The configuration of ``table_id`` in force at ``moment``, from the
    ledger: the function replay, the deck job and the checks read."""
    return config.configuration_at(table_config_stream(table_id), moment)


def configured(tables: Iterable[Table], moment: datetime.datetime) -> list[Table]:
    """``tables`` as configured in the ledger at ``moment`` (one read for all):
    copies of the rows with the settings in force then; a table never
    configured through the ledger is left as its row says."""
    tables = list(tables)
    events: dict[str, list[Any]] = {}
    for event in read_streams([table_config_stream(t.table_id) for t in tables]):
        events.setdefault(event.stream_id, []).append(event)
    out = []
    for table in tables:
        stream_id = table_config_stream(table.table_id)
        settings = config.in_force(stream_id, config.changes(events.get(stream_id, [])),
                                   moment).settings  # fmt: skip
        copy = Table(**{f.attname: getattr(table, f.attname) for f in Table._meta.concrete_fields})
        for key, value in settings.items():
            if key in TABLE_FIELDS:
                setattr(copy, key, value)
        out.append(copy)
    return out


def _check_table(stream_id: str, merged: Mapping[str, Any], payload: Mapping[str, Any],
                 actor: Any, field: str) -> None:  # fmt: skip
    """The settings in force after the change make a table the engine can run."""
    from tables.rules.registry import game_ids
    from tables.rules.rulesets import RULESETS

    def refuse(key: str, message: str) -> None:
        config.refuse(f"{field}.settings.{key}: {message}", f"{field}.settings.{key}")

    changed = payload["settings"]
    game, ruleset_id = merged.get("game"), merged.get("ruleset_id")
    if "game" in changed and game not in game_ids():
        refuse("game", f"no game {game!r} in the engine's registry")
    if "ruleset_id" in changed or "game" in changed:
        ruleset = RULESETS.get(ruleset_id or "")
        if ruleset is None:
            refuse("ruleset_id", f"no rule set {ruleset_id!r}")
        elif game is not None and ruleset.game != game:
            refuse("ruleset_id", f"rule set {ruleset_id} is for {ruleset.game}, not {game}")
    low, high = merged.get("min_wager_cents"), merged.get("max_wager_cents")
    if low is not None and high is not None and low > high:
        refuse("max_wager_cents", "the maximum wager is below the minimum")
    for key, choices in (("dealing_method", DealingMethod), ("shuffler", Shuffler),
                         ("status", TableStatus)):  # fmt: skip
        if key in changed and changed[key] not in choices.values:
            refuse(key, f"one of {', '.join(choices.values)}")


register_stream_kind(StreamKind(
    name=TABLE_CONFIG_KIND,
    description="A table's configuration that decides money: its rule set, limits, pay-table "
    "options and payout limit, dealing method (the deck-change interval) and status, each "
    "change from a moment on, confirmed by a second person where the casino requires it.",
    accepts=frozenset({config.CHANGED, config.CONFIRMED}),
    policy=config.configuration_policy(TABLE_SETTINGS, CONFIGURERS, _check_table),
    lasting=True,
))  # fmt: skip


# --- the admin's view: the Table row and its history --------------------------------------


def settings_of(table: Table) -> dict[str, Any]:
    return {name: getattr(table, name) for name in TABLE_FIELDS}


def apply(table_id: str, moment: datetime.datetime | None = None) -> Table | None:
    """Write the configuration in force at ``moment`` (now) onto the ``Table``
    row, its history dated when it took effect and naming who changed it."""
    from django.contrib.auth.models import User

    now = moment or clock.now()
    configuration = configuration_at(table_id, now)
    if not configuration:
        return None
    table = Table.objects.filter(table_id=table_id).first() or Table(table_id=table_id)
    fields = {k: v for k, v in configuration.settings.items() if k in TABLE_FIELDS}
    if table.pk and all(getattr(table, k) == v for k, v in fields.items()):
        return table
    for key, value in fields.items():
        setattr(table, key, value)
    latest = max(configuration.sources.values(), key=lambda c: (c.effective, c.version))
    table._history_date = latest.effective
    table._history_user = User.objects.filter(username=latest.changed_by).first()
    table._change_reason = latest.reason[:100]
    table.save()
    return table


def configure(table_id: str, settings: Mapping[str, Any], *, effective_from: datetime.datetime,
              reason: str, actor: Actor) -> int:  # fmt: skip
    """Propose a change of ``table_id``'s configuration; applied to the row at
    once where it needs no second person. Returns its version."""
    version = config.propose(table_config_stream(table_id), settings,
                             effective_from=effective_from, reason=reason, actor=actor)  # fmt: skip
    apply(table_id)
    return version


def confirm(table_id: str, version: int, *, actor: Actor) -> None:
    config.confirm(table_config_stream(table_id), version, actor=actor)
    apply(table_id)


def all_waiting() -> list[tuple[str, config.Change]]:
    """Every configuration change waiting for a second person, by stream."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT DISTINCT stream_id FROM ledger_event WHERE event_type = %s "
                       "ORDER BY stream_id", [config.CHANGED])  # fmt: skip
        streams = [row[0] for row in cursor.fetchall()]
    return [(s, c) for s in streams for c in config.waiting_changes(s)]


def import_history(**_: Any) -> int:
    """Once, for every table configured before its configuration was in the
    ledger: each row of its history (the admin's) becomes a change effective
    at its date, recorded by the system. Returns how many tables."""
    from django.db import connection

    if "tables_table" not in connection.introspection.table_names():
        return 0
    actor = Actor.system("configuration-import")
    imported = 0
    for table in Table.objects.order_by("table_id"):
        stream_id = table_config_stream(table.table_id)
        if stream_version(stream_id):
            continue
        rows = table.history.filter(history_type__in=["+", "~"]).order_by("history_date",
                                                                          "history_id")
        events = [_imported(row, row.history_date, row.history_user) for row in rows] or [
            _imported(table, datetime.datetime(2000, 1, 1, tzinfo=datetime.UTC), None)]
        append(stream_id, events, expected_version=0, actor=actor)
        imported += 1
    return imported


def _imported(row: Any, moment: datetime.datetime, user: Any) -> NewEvent:
    who = user.get_username() if user is not None else "system"
    return NewEvent(config.CHANGED, {
        "settings": settings_of(row),
        "effective_from": moment.isoformat(),
        "reason": f"imported from the admin's history ({who}, {moment.isoformat()})",
        "changed_by": who,
        "confirmation_required": False,
    })  # fmt: skip


# --- the check: the admin's history against the events ---------------------------------------


@dataclass(frozen=True)
class Difference:
    """A configuration row beside the ledger that the events do not give."""

    table: str
    key: str
    field: str
    stored: Any
    ledger: Any
    events: str

    def __str__(self) -> str:
        return (f"{self.table} {self.key}: {self.field} is {self.stored!r}, the ledger's "
                f"configuration gives {self.ledger!r} ({self.events})")  # fmt: skip


def differences(table_ids: Iterable[str] | None = None) -> list[Difference]:
    """Every configuration row beside the ledger (each table's history rows
    and its row, the variance policies) against the configuration the events
    give at that moment, naming table, key, field, both values and events."""
    found: list[Difference] = []
    tables = Table.objects.order_by("table_id")
    if table_ids is not None:
        tables = tables.filter(table_id__in=list(table_ids))
    history = Table.history.model
    now = clock.now()
    tables = list(tables)
    # Two reads for every table: its configuration stream, its history rows.
    streams: dict[str, list[Any]] = {table_config_stream(t.table_id): [] for t in tables}
    for event in read_streams(list(streams)):
        streams[event.stream_id].append(event)
    kept: dict[str, list[Any]] = {}
    for row in history.objects.filter(table_id__in=[t.table_id for t in tables],
                                      history_type__in=["+", "~"]).order_by(
            "table_id", "history_date", "history_id"):  # fmt: skip
        kept.setdefault(row.table_id, []).append(row)
    for table in tables:
        stream_id = table_config_stream(table.table_id)
        changes = config.changes(streams[stream_id])
        if not changes:
            found.append(Difference("tables_table", table.table_id, "*", "configured", None,
                                    f"{stream_id} holds no configuration"))  # fmt: skip
            continue
        for row in kept.get(table.table_id, []):
            key = f"{table.table_id} history {row.history_id} ({row.history_date.isoformat()})"
            found += _compare(history._meta.db_table, key, row,
                              config.in_force(stream_id, changes, row.history_date))  # fmt: skip
        found += _compare("tables_table", table.table_id, table,
                          config.in_force(stream_id, changes, now))  # fmt: skip
    if table_ids is None:
        found += _policy_differences()
    return found


def checked(gaming_day: datetime.date | None = None) -> list[Any]:
    """``differences`` as ``verify_projections`` names them (every table's
    history, whatever the day: a row in force on any day may be edited)."""
    from audit.consistency import Difference as Found

    return [Found("tables.configuration", d.table, d.key, d.field, d.stored, d.ledger, d.events)
            for d in differences()]


def _compare(
    name: str, key: str, row: Any, configuration: config.Configuration
) -> list[Difference]:
    out = []
    for field in TABLE_FIELDS:
        stored, ledger = getattr(row, field), configuration.settings.get(field)
        if stored != ledger:
            source = configuration.sources.get(field)
            events = (f"{configuration.stream_id} {source.events}" if source else
                      f"{configuration.stream_id}: nothing in force at {configuration.moment}")
            out.append(Difference(name, key, field, stored, ledger, events))
    return out


def _policy_differences() -> list[Difference]:
    """The casino's variance policy rows against the thresholds its stream
    holds on each row's first day. (A policy row's history is not compared:
    several changes of one day overwrite one row; the close reads the events.)"""
    from casino.models import Casino, VariancePolicy

    try:
        casino = Casino.current()
    except Casino.DoesNotExist:
        return []
    changes = config.changes(read_stream(config.CASINO_STREAM))
    if not any(key in c.settings for c in changes for key in config.THRESHOLDS):
        return []
    out = []
    for row in VariancePolicy.objects.filter(jurisdiction_id=casino.jurisdiction_id):
        judged = config.judged_at(casino, row.effective_from)
        configuration = config.in_force(config.CASINO_STREAM, changes, judged)
        for field in config.THRESHOLDS:
            stored, ledger = getattr(row, field), configuration.settings.get(field)
            if stored != ledger:
                source = configuration.sources.get(field)
                events = (f"{config.CASINO_STREAM} {source.events}" if source
                          else f"{config.CASINO_STREAM}: nothing in force at {judged}")
                out.append(Difference(VariancePolicy._meta.db_table,
                                      f"{row.jurisdiction_id} from {row.effective_from}", field,
                                      stored, ledger, events))  # fmt: skip
    return out


def import_thresholds(**_: Any) -> bool:
    """Once: the casino's variance policies become changes of its stream,
    each effective from the start of its first gaming day."""
    from django.db import connection

    from casino.models import Casino, VariancePolicy

    if "casino_variancepolicy" not in connection.introspection.table_names():
        return False
    casino = Casino.objects.first()
    if casino is None or stream_version(config.CASINO_STREAM):
        return False
    policies = VariancePolicy.objects.filter(jurisdiction_id=casino.jurisdiction_id)
    events = [NewEvent(config.CHANGED, {
        "settings": policy.thresholds(),
        "effective_from": casino.gaming_day_bounds(policy.effective_from)[0].isoformat(),
        "reason": f"imported from the variance policy {policy}",
        "changed_by": "system",
        "confirmation_required": False,
    }) for policy in policies.order_by("effective_from")]  # fmt: skip
    if not events:
        return False
    append(config.CASINO_STREAM, events, expected_version=0,
           actor=Actor.system("configuration-import"))  # fmt: skip
    return True


def round_differences(gaming_day: datetime.date | str) -> list[Difference]:
    """Every round of ``gaming_day`` whose rule set, payout limit or options
    are not its table's configuration in force when it opened (the ledger's),
    or whose Pai Gow house way is not the casino's then (§ 561.13(d)),
    whoever recorded it; tables never configured through the ledger are left
    to ``differences``."""
    from audit.storage import read_columns, select_events
    from tables.verification import RoundSelection

    where, params = RoundSelection(gaming_day=gaming_day).where()
    opened = select_events(f"SELECT {read_columns()} FROM ledger_event o WHERE {where} "
                           "ORDER BY o.stream_id", params)  # fmt: skip
    found: list[Difference] = []
    streams: dict[str, list[config.Change]] = {}
    casino = config.changes(read_stream(config.CASINO_STREAM))
    for event in opened:
        found += _house_way_differences(event, casino)
        table_id = event.payload["table_id"]
        stream_id = table_config_stream(table_id)
        if stream_id not in streams:
            streams[stream_id] = config.changes(read_stream(stream_id))
        if not streams[stream_id]:
            continue
        configuration = config.in_force(stream_id, streams[stream_id], event.occurred_at)
        expected = {"ruleset_id": configuration.get("ruleset_id")}
        if configuration.get("payout_limit_cents") is not None:
            expected["payout_limit_cents"] = configuration.get("payout_limit_cents")
        for name, value in expected.items():
            if event.payload.get(name) != value:
                source = configuration.sources.get(name)
                events = (f"{stream_id} {source.events}" if source
                          else f"{stream_id}: nothing in force at {event.occurred_at}")
                found.append(Difference(event.stream_id, f"version {event.version} (position "
                                        f"{event.position})", name, event.payload.get(name),
                                        value, events))  # fmt: skip
    return found



def _house_way_differences(event: Any, casino: list[config.Change]) -> list[Difference]:
    """A Pai Gow round that does not carry the casino's house way in force when
    it opened (§ 561.13(d)), where one was loaded."""
    from tables.house_way_config import SETTING, carried, submission_at

    given = carried(event.payload)
    loaded = None if given is None else submission_at(event.occurred_at, casino)
    if loaded is None or given == loaded[0].token:
        return []
    return [Difference(event.stream_id, f"version {event.version} (position {event.position})",
                       f"options.{SETTING}", given, loaded[0].token,
                       f"{config.CASINO_STREAM} {loaded[1].events}")]  # fmt: skip


def rebuild_history(table_ids: Iterable[str] | None = None) -> list[Difference]:
    """Rewrite the admin's view (each table's row and history) from the
    ledger's configuration events. Returns the differences found first, for
    the caller to report (and record) before the evidence is replaced."""
    from django.contrib.auth.models import User
    from django.db import transaction

    found = differences(table_ids)
    history = Table.history.model
    users = {u.username: u for u in User.objects.all()}
    with transaction.atomic():
        tables = Table.objects.order_by("table_id")
        if table_ids is not None:
            tables = tables.filter(table_id__in=list(table_ids))
        for table in tables:
            stream_id = table_config_stream(table.table_id)
            changes = sorted((c for c in config.changes(read_stream(stream_id)) if c.in_force),
                             key=lambda c: (c.effective, c.version))  # fmt: skip
            if not changes:
                continue
            history.objects.filter(table_id=table.table_id).delete()
            settings: dict[str, Any] = {}
            for number, change in enumerate(changes):
                settings.update(change.settings)
                history.objects.create(
                    id=table.pk, table_id=table.table_id,
                    **{k: v for k, v in settings.items() if k in TABLE_FIELDS},
                    history_date=change.effective, history_type="+" if number == 0 else "~",
                    history_user=users.get(change.changed_by),
                    history_change_reason=change.reason[:100],
                )  # fmt: skip
            current = config.in_force(stream_id, changes, clock.now()).settings
            Table.objects.filter(pk=table.pk).update(
                **{k: v for k, v in current.items() if k in TABLE_FIELDS})
    return found
