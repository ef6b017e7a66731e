"""The blackjack chapters' equipment and staffing duties as back-office checks (issue 19).

Table events, in the table's gaming-day stream (``table:<table_id>:<day>``), checked by
its policy (``tables.table_day``) through :func:`check_table_duty`:

* ``table.reader_inspected``: the floorperson assigned to the table inspects the card
  reader at the beginning of each gaming day for tampering and working order (§ 581.2(d),
  § 590.2(d), § 591.2(d)). A round opened at the table (of a game with a reader) before
  that day's inspection is a ``compliance.reader_not_inspected`` finding.
* ``table.reader_malfunctioned`` / ``table.reader_repaired``: dealing stops at the table
  until the reader is repaired or replaced (§ 581.13(i), § 590.13(j), § 591.13(j)). A round
  opened by a person or a device meanwhile is refused citing the section; one a job
  recorded anyway is a ``compliance.dealt_while_reader_stopped`` finding.
* ``table.floorperson_assigned``: who supervises the table; the floor board flags a
  floorperson supervising more than four banking tables (§ 581.14(c), § 585.5(c);
  ``tables.rules.staffing``).

A deck event, in the deck's stream, checked by its policy (``tables.decks``):

* ``deck.tens_removed``: 10s found in a Spanish batch, removed, torn in half and put back
  in the decks' container by the dealer and a floorperson, two different people
  (§ 581.4(b)).

The findings are raised by the deck-check job (``tables.compliance.check_decks``) from
:func:`finding_candidates`; the floor board reads :func:`board_duties`. Which chapter's
section applies is the game's declaration (``sections``), so a game without a reader
has none of these duties.

Readings: a reader's stop lasts until its repair within the table's gaming day (each day's
stream starts anew, and the new day's inspection, § 5xx.2(d), finds the reader in working
order or not); a second inspection the same day (after a repair) is allowed.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from audit import clock, errors
from audit.ledger import read_stream, read_streams
from audit.registry import TEXT, EventType, object_schema, register_event_type
from tables.decks import TENS_REMOVED
from tables.formatting import cite, moment
from tables.models import Table
from tables.rules import staffing
from tables.table_day import (
    CLOSED,
    DEALERS,
    OPENED,
    PIT,
    USERNAME,
    check_person,
    check_signed_by_actor,
    refuse,
    table_stream_id,
)

READER_INSPECTED = "table.reader_inspected"
READER_MALFUNCTIONED = "table.reader_malfunctioned"
READER_REPAIRED = "table.reader_repaired"
FLOORPERSON_ASSIGNED = "table.floorperson_assigned"
TABLE_DUTY_TYPES = (READER_INSPECTED, READER_MALFUNCTIONED, READER_REPAIRED, FLOORPERSON_ASSIGNED)
#: § 581.4(b) is Double Attack's alone: the only Spanish batch among our games.
TENS_SECTION = "581.4(b)"

_TEN = {"type": "string", "pattern": "^(10|T)[cdhs]$", "description": "a 10, e.g. Th"}
_TYPES = [
    (READER_INSPECTED, "The floorperson assigned to the table inspected the card reader at the "
     "beginning of the gaming day: no tampering, in working order (§ 581.2(d), § 590.2(d), "
     "§ 591.2(d)).", {"inspected_by": USERNAME}),
    (READER_MALFUNCTIONED, "The card reader malfunctioned: no dealing at the table until it is "
     "repaired or replaced (§ 581.13(i), § 590.13(j), § 591.13(j)).",
     {"reported_by": USERNAME, "description": TEXT}),
    (READER_REPAIRED, "The card reader was repaired or replaced; dealing may resume.",
     {"repaired_by": USERNAME, "how": {"type": "string", "enum": ["repaired", "replaced"]}}),
    (FLOORPERSON_ASSIGNED, "A floorperson took over the supervision of the table (§ 581.14(c), "
     "§ 585.5(c): at most four banking tables each).", {"floorperson": USERNAME}),
    (TENS_REMOVED, "10s found in a Spanish batch were removed, torn in half and put in the "
     "decks' container by the dealer and a floorperson (§ 581.4(b)).",
     {"cards": {"type": "array", "items": _TEN, "minItems": 1, "maxItems": 32},
      "dealer": USERNAME, "floorperson": USERNAME}),
]  # fmt: skip
for _name, _description, _properties in _TYPES:
    register_event_type(EventType(name=_name, version=1, description=_description,
                                  schema=object_schema(_properties, description=_description)))


def duty_section(game: str, key: str) -> str | None:
    """The section of ``game``'s chapter its declaration names for the duty ``key``
    (``reader_inspection``, ``reader_malfunction``, ``tens_removed``), None without it."""
    from tables.rules.registry import blackjack, game_ids

    declaration = blackjack(game) if game in game_ids() else None
    if declaration is None or key not in declaration.sections:
        return None
    return declaration.rulesets[0].section(declaration.sections[key])


def _game(table: Table) -> str:
    """The table's game as the ledger's configuration has it now (issue 21)."""
    from tables.configuration import configured

    return configured([table], clock.now())[0].game


# --- a table's day, folded -------------------------------------------------------------


@dataclass
class Stop:
    """The reader out of order: from its malfunction (the stream's version) to its repair."""

    version: int
    since: datetime.datetime
    description: str
    until: datetime.datetime | None = None


@dataclass
class Duties:
    """What the table's day says of its reader and its floorperson."""

    open: bool = False
    floorperson: str = ""
    #: (when, by whom) of each inspection.
    inspections: list[tuple[datetime.datetime, str]] = field(default_factory=list)
    stops: list[Stop] = field(default_factory=list)
    version: int = 0

    @property
    def stopped(self) -> Stop | None:
        return self.stops[-1] if self.stops and self.stops[-1].until is None else None

    def inspected_by(self, when: datetime.datetime) -> str:
        """Who had inspected the reader by ``when`` ("" for nobody)."""
        return next((by for at, by in self.inspections if at <= when), "")

    def apply(self, event_type: str, payload: Mapping[str, Any],
              occurred_at: datetime.datetime | None) -> None:  # fmt: skip
        self.version += 1
        at = occurred_at or clock.now()
        if event_type == OPENED:
            self.open = True
        elif event_type == CLOSED:
            self.open = False
        elif event_type == FLOORPERSON_ASSIGNED:
            self.floorperson = payload["floorperson"]
        elif event_type == READER_INSPECTED:
            self.inspections.append((at, payload["inspected_by"]))
        elif event_type == READER_MALFUNCTIONED:
            self.stops.append(Stop(self.version, at, payload["description"]))
        elif event_type == READER_REPAIRED and self.stopped is not None:
            self.stops[-1].until = at


def fold(events: Iterable[Any]) -> Duties:
    duties = Duties()
    for event in events:
        duties.apply(event.event_type, event.payload, event.occurred_at)
    return duties


def check_table_duty(table: Table, duties: Duties, event_type: str, payload: Mapping[str, Any],
                     actor: Any, where: str) -> None:  # fmt: skip
    """Refuse a duty event the table's day so far does not allow (the table is open:
    ``table_policy`` checked that first)."""
    field_ = f"{where}.payload"
    if event_type == FLOORPERSON_ASSIGNED:
        check_person(payload["floorperson"], PIT, f"{field_}.floorperson")
        if payload["floorperson"] == duties.floorperson:
            refuse(f"{field_}.floorperson: {duties.floorperson} already supervises table "
                   f"{table.table_id}", f"{field_}.floorperson")  # fmt: skip
        return
    game = _game(table)
    inspection = duty_section(game, "reader_inspection")
    malfunction = duty_section(game, "reader_malfunction")
    if inspection is None or malfunction is None:
        refuse(f"{where}.type: table {table.table_id} deals {game}, which uses no card reader",
               f"{where}.type")  # fmt: skip
        return
    stopped = duties.stopped
    if event_type == READER_INSPECTED:
        signer = payload["inspected_by"]
        check_person(signer, PIT, f"{field_}.inspected_by")
        if duties.floorperson and signer != duties.floorperson:
            refuse(f"{field_}.inspected_by: {cite(inspection)}: the floorperson assigned to the "
                   f"table ({duties.floorperson}) inspects the card reader, not {signer}",
                   f"{field_}.inspected_by", inspection)  # fmt: skip
        if stopped is not None:
            refuse(f"{where}.type: {cite(malfunction)}: the card reader at {table.table_id} is "
                   f"out of order since version {stopped.version} ({stopped.description}); "
                   "record its repair first", f"{where}.type", malfunction)  # fmt: skip
    elif event_type == READER_MALFUNCTIONED:
        signer = payload["reported_by"]
        check_person(signer, PIT, f"{field_}.reported_by")
        if stopped is not None:
            refuse(f"{where}.type: {cite(malfunction)}: the card reader at {table.table_id} is "
                   f"already out of order (version {stopped.version})", f"{where}.type",
                   malfunction)  # fmt: skip
    else:
        signer = payload["repaired_by"]
        check_person(signer, PIT, f"{field_}.repaired_by")
        if stopped is None:
            refuse(f"{where}.type: {cite(malfunction)}: the card reader at {table.table_id} is "
                   "not out of order: nothing to repair", f"{where}.type", malfunction)  # fmt: skip
    check_signed_by_actor(actor, [signer], f"{field_}.{_SIGNER[event_type]}")


_SIGNER = {READER_INSPECTED: "inspected_by", READER_MALFUNCTIONED: "reported_by",
           READER_REPAIRED: "repaired_by"}  # fmt: skip


def check_reader_working(table_id: str, day: Any, game: str) -> None:
    """A round opened by a person or a device at a table whose card reader is out of order
    is refused: "the dealer may not continue dealing ... until the card reader device is
    repaired or replaced" (§ 581.13(i), § 590.13(j), § 591.13(j))."""
    section = duty_section(game, "reader_malfunction")
    if section is None:
        return
    stopped = fold(read_stream(table_stream_id(table_id, day))).stopped
    if stopped is not None:
        raise errors.RuleViolation(
            f"§ {section}: the card reader at {table_id} malfunctioned at "
            f"{moment(stopped.since.isoformat())} ({stopped.description}): no dealing until it "
            "is repaired or replaced (table.reader_repaired)",
            field="events[0].payload.table_id", section=section)  # fmt: skip


def check_tens_removed(table: Table | None, payload: Mapping[str, Any], actor: Any,
                       field_: str) -> None:  # fmt: skip
    """§ 581.4(b): "the dealer and a floorperson shall ensure that these cards are removed
    from the decks, torn in half and placed in the box": a batch of a Spanish game, two
    different people, each holding their role, one of them appending (or a job)."""
    section = duty_section(_game(table), "tens_removed") if table is not None else None
    if section is None:
        game = _game(table) if table is not None else "no game"
        refuse(f"{field_}.cards: {cite(TENS_SECTION)}: 10s are removed from a Spanish batch; "
               f"table {getattr(table, 'table_id', '')} deals {game}, whose decks keep them",
               f"{field_}.cards", TENS_SECTION)  # fmt: skip
        return
    dealer, floorperson = payload["dealer"], payload["floorperson"]
    if dealer == floorperson:
        refuse(f"{field_}.floorperson: {cite(section)}: the dealer and a floorperson, two "
               f"different people, remove the 10s; {dealer} is named as both",
               f"{field_}.floorperson", section)  # fmt: skip
    check_person(dealer, DEALERS, f"{field_}.dealer")
    check_person(floorperson, PIT, f"{field_}.floorperson")
    check_signed_by_actor(actor, [dealer, floorperson], f"{field_}.floorperson")


# --- the deck-check job's findings -------------------------------------------------------


Candidate = tuple[str, str, Table, str, dict[str, Any]]


def finding_candidates(gaming_day: str, inspected: str, dealt: str) -> list[Candidate]:
    """The reader findings of ``gaming_day`` in ``check_decks``' form (event type,
    discriminator, table, id, payload): per table, the rounds of a game with a reader
    opened before the day's inspection (``inspected``, one finding a day), and per
    malfunction the rounds opened before its repair (``dealt``)."""
    from tables.models import Round

    rounds: dict[str, list[tuple[str, str, datetime.datetime]]] = {}
    for round_id, table_id, game, opened_at in (
            Round.objects.filter(gaming_day=gaming_day).order_by("opened_at", "round_id")
            .values_list("round_id", "table_id", "game", "opened_at")):  # fmt: skip
        if duty_section(game, "reader_inspection") is not None:
            rounds.setdefault(table_id, []).append((round_id, game, opened_at))
    streams = {table_stream_id(t, gaming_day): t for t in rounds}
    events: dict[str, list[Any]] = {}
    for event in read_streams(sorted(streams)):
        events.setdefault(event.stream_id, []).append(event)
    candidates: list[Candidate] = []
    for stream_id, table_id in sorted(streams.items()):
        duties = fold(events.get(stream_id, []))
        dealt_rounds = rounds[table_id]
        game = dealt_rounds[0][1]
        base = {"table_id": table_id, "gaming_day": gaming_day}
        uninspected = [r for r, _, at in dealt_rounds if not duties.inspected_by(at)]
        if uninspected:
            candidates.append((inspected, gaming_day, Table(), table_id, {
                **base, "rounds": len(uninspected), "first_round": uninspected[0],
                "section": duty_section(game, "reader_inspection")}))  # fmt: skip
        for stop in duties.stops:
            during = [r for r, _, at in dealt_rounds
                      if stop.since <= at and (stop.until is None or at < stop.until)]
            if during:
                candidates.append((dealt, f"{gaming_day}:{stop.version}", Table(), table_id, {
                    **base, "rounds": len(during), "first_round": during[0],
                    "malfunction_event": f"{stream_id}@{stop.version}",
                    "section": duty_section(game, "reader_malfunction")}))  # fmt: skip
    return candidates


# --- the floor board ---------------------------------------------------------------------


def board_duties(day: datetime.date, tables: Sequence[Table],
                 now: datetime.datetime) -> dict[str, dict[str, Any]]:  # fmt: skip
    """Per table: its floorperson, its reader (None for a game without one: stopped since
    when, inspected by whom today) and the span-of-control flag ("" when within it)."""
    events: dict[str, list[Any]] = {}
    for event in read_streams([table_stream_id(t.table_id, day) for t in tables]):
        events.setdefault(event.stream_id, []).append(event)
    folded = {t.table_id: fold(events.get(table_stream_id(t.table_id, day), [])) for t in tables}
    over = staffing.over_the_limit({
        t.table_id: (folded[t.table_id].floorperson, t.game) for t in tables
        if folded[t.table_id].open and folded[t.table_id].floorperson})  # fmt: skip
    flags = {table_id: o for o in over for table_id in o.tables}
    board = {}
    for table in tables:
        duties = folded[table.table_id]
        section = duty_section(table.game, "reader_malfunction")
        reader = None
        if section is not None:
            stopped = duties.stopped
            reader = {
                "stopped": stopped is not None,
                "since": stopped.since.isoformat() if stopped else None,
                "description": stopped.description if stopped else "",
                "section": cite(section),
                "inspected_by": duties.inspected_by(now),
                "inspection_section": cite(duty_section(table.game, "reader_inspection") or ""),
            }  # fmt: skip
        flag = flags.get(table.table_id)
        board[table.table_id] = {
            "floorperson": duties.floorperson, "reader": reader,
            "span": (f"{flag.reason} ({', '.join(cite(s) for s in flag.sections)})"
                     if flag else ""),
        }  # fmt: skip
    return board

