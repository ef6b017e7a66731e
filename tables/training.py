"""Dealers' training in the ledger (Chapter 527): ``training:<username>``, the
dealer's personnel file (§ 527.5(b)), one ``training.certified`` event for each
game the dealer passed the table test in (§ 527.5(a)), with the day and the
shift supervisor who certified it.

§ 527.5(a): "Prior to conducting any table game on the certificate holder's
gaming floor, a prospective dealer shall pass a table test on the table games
that the dealer will be conducting ... to the satisfaction of an employee of the
certificate holder at the level of pit boss or higher." So a person (or a
device) naming a dealer at a table (``table.opened``, ``table.dealer_assigned``)
or opening a round at a table whose dealer was not certified in that game on
or before the gaming day is refused, citing it. The system's jobs (the
simulator, an import of history) record as given; ``untrained`` names what
they recorded, and the compliance job (``tables.compliance.check_decks``)
raises each as a ``compliance.dealer_untrained`` finding of the day.

``DealerCertification`` rows are the admin's view (projection ``tables.training``).
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from audit import clock, errors
from audit.ledger import RecordedEvent, read_stream, read_streams, streams_touched
from audit.projections import Projection, ReadModel, register, upsert
from audit.registry import (
    EventType,
    StreamKind,
    object_schema,
    register_event_type,
    register_stream_kind,
)
from casino.roles import Role
from tables.models import DealerCertification

TRAINING_KIND = "training"
CERTIFIED = "training.certified"
SECTION = "527.5(a)"
QUOTED = ("§ 527.5(a): prior to conducting any table game a dealer shall pass a table test on "
          "the table games that the dealer will be conducting")  # fmt: skip
#: "At the level of pit boss or higher" (§ 527.5(a)): of our roles, the shift
#: supervisor; a floorperson ranks below a pit boss.
CERTIFIERS = frozenset({Role.SHIFT_SUPERVISOR.value})

_USERNAME = {"type": "string", "minLength": 1, "maxLength": 150}
_DESCRIPTION = ("The dealer passed the table test in a game (§ 527.5(a)), certified on a day by "
                "a shift supervisor (pit boss or higher).")  # fmt: skip
register_event_type(EventType(
    name=CERTIFIED, version=1, description=_DESCRIPTION,
    schema=object_schema({"game": {"type": "string", "minLength": 1, "maxLength": 50},
                          "certified_on": {"type": "string", "format": "date"},
                          "certified_by": _USERNAME}, description=_DESCRIPTION),
))  # fmt: skip


def training_stream(dealer: str) -> str:
    return f"{TRAINING_KIND}:{dealer}"


def certifications(events: Iterable[Any]) -> dict[str, datetime.date]:
    """The day each game was certified, from a personnel file's events."""
    return {e.payload["game"]: datetime.date.fromisoformat(e.payload["certified_on"])
            for e in events if e.event_type == CERTIFIED}  # fmt: skip


def why_not_certified(dealer: str, game: str, day: datetime.date | str,
                      certified: dict[str, datetime.date] | None = None) -> str | None:  # fmt: skip
    """Why ``dealer`` may not deal ``game`` on ``day`` (None when they may), from
    ``certified`` (their certifications) or their personnel file."""
    day = datetime.date.fromisoformat(str(day))
    if certified is None:
        certified = certifications(read_stream(training_stream(dealer)))
    on = certified.get(game)
    if on is None:
        return f"{dealer} has passed no table test in {game}"
    if on > day:
        return f"{dealer} was certified in {game} on {on}, after gaming day {day}"
    return None


def check_certified(dealer: str, game: str, day: datetime.date | str, field: str) -> None:
    """Refuse, naming ``field`` and citing § 527.5(a), a dealer not certified in
    ``game`` on or before ``day``."""
    why = why_not_certified(dealer, game, day)
    if why is not None:
        raise errors.RuleViolation(f"{field}: {QUOTED}; {why}", field=field, section=SECTION)


def check_trained(table: Any, day: datetime.date, dealer: str, actor: Any, field: str) -> None:
    """A person or device names ``dealer`` at ``table``: trained in its game (as
    the ledger's configuration has it now) on or before ``day``. The system's
    jobs record as given; the compliance job raises what they recorded."""
    from tables.configuration import configured

    if actor is not None and Role.SYSTEM.value in actor.roles:
        return
    check_certified(dealer, configured([table], clock.now())[0].game, day, field)


#: The poker room's game (§ 553): one game in § 527.2's list, dealt outside the engine's
#: registry (its hands are a machine of their own).
POKER_ROOM = "poker"


def certifiable_games() -> tuple[str, ...]:
    """The games a dealer passes a table test in: the registry's and the poker room."""
    from tables.rules.engine import registered_games

    return (*registered_games(), POKER_ROOM)


def training_policy(stream_id: str, recorded: Sequence[Any], new: Sequence[Any],
                    actor: Any) -> None:  # fmt: skip
    """A certification is of a dealer (the stream's user), in a game of the
    registry or the poker room, on a day not in the future, by a shift supervisor who appends it
    themselves (or the system importing records); once per game."""
    from tables.table_day import DEALERS, check_person, check_signed_by_actor, refuse

    dealer = stream_id.partition(":")[2]
    check_person(dealer, DEALERS, "stream_id")
    games = set(certifications(recorded))
    for index, event in enumerate(new):
        field = f"events[{index}].payload"
        payload = event.payload
        if payload["game"] not in certifiable_games():
            refuse(f"{field}.game: no game {payload['game']!r} in the engine's registry",
                   f"{field}.game", SECTION)  # fmt: skip
        if payload["game"] in games:
            refuse(f"{field}.game: {dealer} is already certified in {payload['game']}",
                   f"{field}.game", SECTION)  # fmt: skip
        if datetime.date.fromisoformat(payload["certified_on"]) > clock.now().date():
            refuse(f"{field}.certified_on: {payload['certified_on']} is in the future",
                   f"{field}.certified_on", SECTION)  # fmt: skip
        check_person(payload["certified_by"], CERTIFIERS, f"{field}.certified_by")
        if payload["certified_by"] == dealer:
            refuse(f"{field}.certified_by: a dealer does not certify themselves",
                   f"{field}.certified_by", SECTION)  # fmt: skip
        check_signed_by_actor(actor, [payload["certified_by"]], f"{field}.certified_by")
        games.add(payload["game"])


register_stream_kind(StreamKind(
    name=TRAINING_KIND,
    description="A dealer's personnel file (§ 527.5(b)): each game they passed the table test "
    "in (§ 527.5(a)), when and certified by whom.",
    accepts=frozenset({CERTIFIED}),
    policy=training_policy,
    # A personnel file lives as long as the dealer works: retention never archives it.
    lasting=True,
))  # fmt: skip


# --- what the system recorded: named for the close ------------------------------------------


@dataclass(frozen=True)
class Untrained:
    """A dealer named at a table for a game they were not certified in that day."""

    stream_id: str
    version: int
    table_id: str
    dealer: str
    game: str
    why: str
    section: str = SECTION


def untrained(gaming_day: datetime.date | str) -> list[Untrained]:
    """Every dealer the table streams of ``gaming_day`` name (opener, assignments,
    closer) who was not certified in the table's game that day, whoever recorded it."""
    from django.db import connection

    from tables.configuration import configuration_at
    from tables.models import Table
    from tables.table_day import CLOSED, DEALER_ASSIGNED, OPENED, TABLE_STREAM_KIND

    with connection.cursor() as cursor:
        # As ``tables.day_streams`` reads them: the prefix seeks the index (audit 0008).
        cursor.execute("SELECT stream_id FROM ledger_event WHERE version = 1 AND stream_id LIKE %s "
                       "ORDER BY stream_id", [f"{TABLE_STREAM_KIND}:%:{gaming_day}"])  # fmt: skip
        streams = [row[0] for row in cursor.fetchall()]
    rows = {t.table_id: t for t in Table.objects.all()}
    named = [e for e in read_streams(streams) if e.event_type in (OPENED, DEALER_ASSIGNED, CLOSED)]
    files: dict[str, dict[str, datetime.date]] = {}
    for event in read_streams([training_stream(d) for d in {e.payload["dealer"] for e in named}]):
        files.setdefault(event.stream_id.partition(":")[2], {}).update(certifications([event]))
    found = []
    for event in named:
        table_id = event.stream_id.split(":")[1]
        game = configuration_at(table_id, event.occurred_at).get("game") or getattr(
            rows.get(table_id), "game", "")
        dealer = event.payload["dealer"]
        why = why_not_certified(dealer, game, gaming_day, files.get(dealer, {}))
        if why is not None:
            found.append(Untrained(event.stream_id, event.version, table_id, dealer, game, why))
    return found


# --- the admin's view ----------------------------------------------------------------------


def _row(event: RecordedEvent) -> DealerCertification:
    return DealerCertification(
        event=f"{event.stream_id}@{event.version}",
        dealer=event.stream_id.partition(":")[2], game=event.payload["game"],
        certified_on=datetime.date.fromisoformat(event.payload["certified_on"]),
        certified_by=event.payload["certified_by"], recorded_at=event.occurred_at,
        computed_at_position=event.position)  # fmt: skip


def _apply(batch: list[RecordedEvent]) -> None:
    touched = streams_touched(batch, TRAINING_KIND)
    upsert(DealerCertification, [_row(e) for events in touched.values() for e in events
                                 if e.event_type == CERTIFIED])  # fmt: skip


TRAINING = register(Projection(
    name="tables.training",
    description="Each dealer's certifications (§ 527.5): game, day, who certified.",
    event_types=frozenset({CERTIFIED}),
    apply=_apply,
    clear=lambda: DealerCertification.objects.all().delete(),
    read_models=(ReadModel(DealerCertification, day_field=None),),
))  # fmt: skip
