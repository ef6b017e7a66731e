"""Compliance findings outside a round, as ledger events, and the job that
raises them.

Each finding is its own stream, named by what it is about:

- ``compliance:deck-change-due:<deck_id>:<in use since>`` — the deck's change
  falls due within the lead time (``DECK_CHANGE_LEAD_MINUTES``);
- ``compliance:deck-overdue:<deck_id>:<in use since>`` — the deck is still in
  play past its interval (§ 592.3(c): four hours dealt by hand, eight from a
  shoe; § 553.3(b): six hours at a poker-room table);
- ``compliance:stub-count-missing:<deck_id>:<last count>`` — more rounds than
  the rule set allows since the stub was last counted (§ 592.8(f)), at a table
  without a shuffler that counts the cards; at a poker table, more than five hands
  since the deck (or in Hold'em and Omaha its stub) was counted (§ 553.7(e)(4));
- ``compliance:dice-change-due:<dice_id>:<in shaker since>`` and
  ``compliance:dice-overdue:<dice_id>:<in shaker since>`` — the same for dice
  placed in a shaker, which may not remain on a table for more than 24 hours
  (§ 585.3(b)(1), § 593.3(b)(1)). Their id is kept in the finding's
  ``deck_id`` column: the column names the equipment the finding is about.
- ``compliance:dealer-untrained:<table_id>:<gaming day>:<dealer>`` — a dealer a
  job recorded at a table without the table test in its game by that day
  (§ 527.5(a), ``tables.training``); people and devices are refused instead.
- ``compliance:reader-not-inspected:<table_id>:<gaming day>`` — rounds dealt at a
  table with a card reader before that day's inspection (§ 581.2(d), § 590.2(d),
  § 591.2(d)); ``compliance:dealt-while-reader-stopped:<table_id>:<gaming
  day>:<version>`` — rounds a job recorded while the reader that the table's
  stream version reported broken was not yet repaired (§ 581.13(i), § 590.13(j),
  § 591.13(j)); people and devices are refused instead (``tables.floor_duties``).
- ``compliance:deck-not-replaced:<deck_id>:<hand_id>`` — hands dealt at a poker table
  with the deck in use when hand ``<hand_id>`` was voided for missing or extra cards,
  before that deck was removed (§ 553.16(g): "the deck shall be replaced").

The job appends each with ``expected_version=0``: a stream that exists is a
finding already raised, so running the job twice raises nothing new, and two
jobs racing collide on the (stream, version) constraint; the loser skips.
A floorperson or shift supervisor acknowledges a finding with
``compliance.acknowledged`` in the same stream.

``tables.compliance`` projects the streams into ``ComplianceFinding`` rows.
"""

from __future__ import annotations

import datetime
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db.models import Max, Q

from audit import errors
from audit.ledger import (
    Actor,
    NewEvent,
    RecordedEvent,
    append,
    projections_deferred,
    read_streams,
    schedule_projections,
    stream_version,
    streams_touched,
)
from audit.projections import Projection, ReadModel, emptying, register, upsert
from audit.projections import run as run_projection
from audit.registry import (
    TEXT,
    EventType,
    StreamKind,
    object_schema,
    register_event_type,
    register_stream_kind,
)
from casino.models import current_gaming_day
from casino.roles import Role
from tables.formatting import cite, moment
from tables.models import (
    ComplianceFinding,
    Deck,
    DeckStatus,
    DiceSet,
    DiceStatus,
    Round,
    Shuffler,
    Table,
    TableStatus,
)
from tables.reviews import (
    ACCEPTED_PROPERTIES,
    RESOLVED_PROPERTIES,
    check_step,
    review_fields,
    step_of,
)

logger = logging.getLogger(__name__)

COMPLIANCE_STREAM_KIND = "compliance"

DECK_CHANGE_DUE = "compliance.deck_change_due"
DECK_OVERDUE = "compliance.deck_overdue"
STUB_COUNT_MISSING = "compliance.stub_count_missing"
DICE_CHANGE_DUE = "compliance.dice_change_due"
DICE_OVERDUE = "compliance.dice_overdue"
DEALER_UNTRAINED = "compliance.dealer_untrained"
READER_NOT_INSPECTED = "compliance.reader_not_inspected"
DEALT_WHILE_READER_STOPPED = "compliance.dealt_while_reader_stopped"
DECK_NOT_REPLACED = "compliance.deck_not_replaced"
ACKNOWLEDGED = "compliance.acknowledged"
RESOLVED = "compliance.resolved"
ACCEPTED = "compliance.accepted"

FINDING_TYPES = (DECK_CHANGE_DUE, DECK_OVERDUE, STUB_COUNT_MISSING, DICE_CHANGE_DUE, DICE_OVERDUE,
                 DEALER_UNTRAINED, READER_NOT_INSPECTED, DEALT_WHILE_READER_STOPPED,
                 DECK_NOT_REPLACED)  # fmt: skip
STEP_TYPES = (ACKNOWLEDGED, RESOLVED, ACCEPTED)
COMPLIANCE_EVENT_TYPES = (*FINDING_TYPES, *STEP_TYPES)

_ID = {"type": "string", "minLength": 1, "maxLength": 100}
_MOMENT = {"type": "string", "format": "date-time"}
_DAY = {"type": "string", "format": "date"}
_SECTION = {"type": "string", "minLength": 1, "maxLength": 50}
_COUNT = {"type": "integer", "minimum": 0}

_SCHEMAS: dict[str, tuple[str, dict[str, Any]]] = {
    DECK_CHANGE_DUE: (
        "A deck's change falls due soon (§ 592.3(c)); a notice, not yet a breach.",
        object_schema(
            {
                "table_id": _ID,
                "deck_id": _ID,
                "due_at": _MOMENT,
                "lead_minutes": _COUNT,
                "section": _SECTION,
                "gaming_day": _DAY,
            }  # fmt: skip
        ),
    ),
    DECK_OVERDUE: (
        "A deck is still in play past its change interval (§ 592.3(c)).",
        object_schema(
            {
                "table_id": _ID,
                "deck_id": _ID,
                "due_at": _MOMENT,
                "minutes_over": _COUNT,
                "section": _SECTION,
                "gaming_day": _DAY,
            }  # fmt: skip
        ),
    ),
    STUB_COUNT_MISSING: (
        "More rounds than allowed were played without counting the stub (§ 592.8(f)).",
        object_schema(
            {
                "table_id": _ID,
                "deck_id": _ID,
                "rounds_without_count": _COUNT,
                "section": _SECTION,
                "gaming_day": _DAY,
            }  # fmt: skip
        ),
    ),
    DICE_CHANGE_DUE: (
        "Dice in a shaker fall due for removal soon (§ 585.3(b)(1), § 593.3(b)(1)).",
        object_schema(
            {
                "table_id": _ID,
                "dice_id": _ID,
                "due_at": _MOMENT,
                "lead_minutes": _COUNT,
                "section": _SECTION,
                "gaming_day": _DAY,
            }  # fmt: skip
        ),
    ),
    DICE_OVERDUE: (
        "Dice have remained on a table more than 24 hours (§ 585.3(b)(1), § 593.3(b)(1)).",
        object_schema(
            {
                "table_id": _ID,
                "dice_id": _ID,
                "due_at": _MOMENT,
                "minutes_over": _COUNT,
                "section": _SECTION,
                "gaming_day": _DAY,
            }  # fmt: skip
        ),
    ),
    DEALER_UNTRAINED: (
        "A dealer was named at a table whose game they had not passed the table test in by "
        "that gaming day (§ 527.5(a)), recorded by a job as given.",
        object_schema(
            {
                "table_id": _ID,
                "dealer": {"type": "string", "minLength": 1, "maxLength": 150},
                "game": _ID,
                "table_event": {"type": "string", "minLength": 1, "maxLength": 220},
                "why": {"type": "string", "minLength": 1, "maxLength": 500},
                "section": _SECTION,
                "gaming_day": _DAY,
            }  # fmt: skip
        ),
    ),
    READER_NOT_INSPECTED: (
        "Rounds were dealt at a table before its card reader's inspection that gaming day "
        "(§ 581.2(d), § 590.2(d), § 591.2(d)).",
        object_schema({"table_id": _ID, "rounds": _COUNT, "first_round": _ID,
                       "section": _SECTION, "gaming_day": _DAY}),  # fmt: skip
    ),
    DEALT_WHILE_READER_STOPPED: (
        "Rounds were dealt at a table while its card reader was out of order (§ 581.13(i), "
        "§ 590.13(j), § 591.13(j)), recorded by a job as given.",
        object_schema({"table_id": _ID, "rounds": _COUNT, "first_round": _ID,
                       "malfunction_event": {"type": "string", "minLength": 1, "maxLength": 220},
                       "section": _SECTION, "gaming_day": _DAY}),  # fmt: skip
    ),
    DECK_NOT_REPLACED: (
        "Hands were dealt at a poker table with the deck in use when a hand there was voided "
        "for missing or extra cards, before the deck was replaced (§ 553.16(g)).",
        object_schema({"table_id": _ID, "deck_id": _ID, "void_hand": _ID, "hands": _COUNT,
                       "first_hand": _ID, "section": _SECTION, "gaming_day": _DAY}),  # fmt: skip
    ),
    ACKNOWLEDGED: (
        "A floorperson or shift supervisor acknowledged the finding.",
        object_schema(
            {
                "acknowledged_by": {"type": "string", "minLength": 1, "maxLength": 150},
                "note": {**TEXT, "minLength": 0},
            },  # fmt: skip
            required=["acknowledged_by"],
        ),
    ),
    RESOLVED: (
        "The finding was resolved by a correcting event (e.g. the deck changed).",
        object_schema(RESOLVED_PROPERTIES, required=["resolved_by", "correcting_event"]),
    ),
    ACCEPTED: (
        "A shift supervisor accepted the finding as it stands, with a reason.",
        object_schema(ACCEPTED_PROPERTIES),
    ),
}

for _name, (_description, _schema) in _SCHEMAS.items():
    register_event_type(EventType(name=_name, version=1, schema=_schema, description=_description))

#: The stream id's kind segment for each finding type (stream keys allow no "_").
STREAM_SEGMENT = {
    DECK_CHANGE_DUE: "deck-change-due",
    DECK_OVERDUE: "deck-overdue",
    STUB_COUNT_MISSING: "stub-count-missing",
    DICE_CHANGE_DUE: "dice-change-due",
    DICE_OVERDUE: "dice-overdue",
    DEALER_UNTRAINED: "dealer-untrained",
    READER_NOT_INSPECTED: "reader-not-inspected",
    DEALT_WHILE_READER_STOPPED: "dealt-while-reader-stopped",
    DECK_NOT_REPLACED: "deck-not-replaced",
}


def compliance_policy(
    stream_id: str, recorded: Sequence[RecordedEvent], new: Sequence[NewEvent], actor: Actor
) -> None:
    """A finding stream holds one finding, of the type its id names, then its
    steps (``tables.reviews``): acknowledged with a note, then resolved or
    accepted, each signed by the person who appends it."""
    events = [e.event_type for e in recorded]
    for index, event in enumerate(new):
        kind = event.event_type
        if kind in FINDING_TYPES:
            if actor is None or Role.SYSTEM.value not in actor.roles:
                raise errors.Forbidden(
                    f"a finding is raised by the compliance job only, not by "
                    f"{getattr(actor, 'username', '') or 'anyone'}",
                    field=f"events[{index}].type",
                )
            if events:
                raise errors.RuleViolation(
                    "a finding stream holds one finding", field=f"events[{index}].type"
                )
        elif kind in STEP_TYPES:
            if not events or events[0] not in FINDING_TYPES:
                raise errors.RuleViolation(
                    "there is no finding to acknowledge", field=f"events[{index}].type"
                )
            check_step([step_of(e) for e in events[1:]], step_of(kind), event.payload, actor,
                       f"events[{index}]")  # fmt: skip
        events.append(kind)


register_stream_kind(
    StreamKind(
        name=COMPLIANCE_STREAM_KIND,
        description="One compliance finding outside a round (deck or dice change due or "
        "overdue, stub count missing, an untrained dealer, a card reader not inspected or "
        "dealt through while out of order, a poker deck not replaced after a void) and its "
        "acknowledgement.",
        accepts=frozenset(COMPLIANCE_EVENT_TYPES),
        policy=compliance_policy,
    )
)


# --- the job ------------------------------------------------------------------------


@dataclass(frozen=True)
class Raised:
    """A finding the job appended."""

    stream_id: str
    event_type: str
    table_id: str
    deck_id: str
    payload: dict[str, Any]


def stamp(moment: datetime.datetime) -> str:
    """A moment as a stream-key segment, in UTC to the second: ``20240501T140000Z``."""
    return moment.astimezone(datetime.UTC).strftime("%Y%m%dT%H%M%SZ")


def check_decks(now: datetime.datetime) -> list[Raised]:
    """Raise every deck finding due at ``now`` that is not raised yet.

    1. For each deck in use at an active table: the change falls due at
       ``in_use_since`` + the interval. Within the lead time before that, a
       ``deck_change_due`` notice; past it, ``deck_overdue`` with the minutes
       over and the section.
    2. At a table whose shuffler does not count the cards: more than
       ``stub_count_every_rounds`` rounds opened since the deck went in use or
       since the last stub count (a ``deck.stub_counted`` event or a round that
       counted the stub) → ``stub_count_missing``; at a poker table more than five
       hands since the deck was counted, entire or, in Hold'em and Omaha, its stub
       (§ 553.7(e)(4)).
    3. At a poker table, hands dealt with the deck in use when a hand there was voided for
       missing or extra cards, before it was removed → ``deck_not_replaced`` (§ 553.16(g)).
    4. For each set of dice in a shaker at an active table: the same notice
       and finding against ``in_shaker_since`` + 24 hours (§ 585.3(b)(1),
       § 593.3(b)(1)).
    5. Run the compliance projection.

    Returns what it raised; running it again at the same ``now`` raises nothing.
    """
    from tables.decks import DECKS
    from tables.dice import DICE
    from tables.projections import ROUNDS

    # The job reads the deck, dice and round read models: bring them up to date first.
    run_projection(DECKS)
    run_projection(DICE)
    run_projection(ROUNDS)
    lead = datetime.timedelta(minutes=settings.DECK_CHANGE_LEAD_MINUTES)
    gaming_day = current_gaming_day(now).isoformat()
    from tables.configuration import configured

    # The rule set and dealing method in force now, from the ledger (issue 21).
    tables = {t.table_id: t for t in configured(Table.objects.all(), now)
              if t.status == TableStatus.ACTIVE}  # fmt: skip
    decks = Deck.objects.filter(
        status=DeckStatus.IN_USE, table_id__in=list(tables), in_use_since__lte=now
    ).order_by("table_id", "in_use_since", "deck_id")
    candidates: list[tuple[str, str, Table, str, dict[str, Any]]] = []
    for deck in decks:
        table = tables[deck.table_id]
        ruleset = table.ruleset
        interval = table.deck_change_interval()
        if interval is None:
            # A rule set that states no interval (Double Cross defers to 205 CMR 146):
            # nothing to cite. Criss-Cross's and the blackjack family's do (§ 592/674a.3(c),
            # § 581.3(c), § 590.3(c), § 591.3(c): 24 hours), and the poker room's (§ 553.3(b)).
            continue
        due_at = deck.in_use_since + interval
        base = {"table_id": table.table_id, "deck_id": deck.deck_id, "gaming_day": gaming_day}
        since = stamp(deck.in_use_since)
        if now > due_at:
            minutes_over = int((now - due_at).total_seconds() // 60)
            candidates.append((DECK_OVERDUE, since, table, deck.deck_id, {
                **base, "due_at": due_at.isoformat(), "minutes_over": minutes_over,
                "section": table.deck_change_section()}))  # fmt: skip
        elif now >= due_at - lead:
            candidates.append((DECK_CHANGE_DUE, since, table, deck.deck_id, {
                **base, "due_at": due_at.isoformat(),
                "lead_minutes": settings.DECK_CHANGE_LEAD_MINUTES,
                "section": table.deck_change_section()}))  # fmt: skip
        # A blackjack shoe spans rounds: its chapters have no stub count (§ 581.3, § 590.3).
        every = getattr(ruleset, "stub_count_every_rounds", None)
        if table.shuffler != Shuffler.AUTOMATED_COUNTING and table.game == "poker":
            candidates += _poker_count_candidates(deck, table, now, base)
        elif table.shuffler != Shuffler.AUTOMATED_COUNTING and every is not None:
            counted_since, rounds = _rounds_without_count(deck, now)
            if rounds > every:
                candidates.append((STUB_COUNT_MISSING, stamp(counted_since), table,
                                   deck.deck_id, {**base, "rounds_without_count": rounds,
                                                  "section": ruleset.section("8(f)")}))  # fmt: skip
    candidates += _dice_candidates(now, tables, lead, gaming_day)
    candidates += _void_deck_candidates(now, tables)
    candidates += _untrained_candidates(gaming_day)
    from tables.floor_duties import finding_candidates

    candidates += finding_candidates(gaming_day, READER_NOT_INSPECTED, DEALT_WHILE_READER_STOPPED)
    raised = []
    actor = Actor.system("deck-check")
    with projections_deferred():
        for event_type, discriminator, _table, deck_id, payload in candidates:
            stream_id = f"compliance:{STREAM_SEGMENT[event_type]}:{deck_id}:{discriminator}"
            if _raise(stream_id, event_type, payload, now, actor):
                raised.append(Raised(stream_id, event_type, payload["table_id"], deck_id, payload))
    run_projection(COMPLIANCE)
    if raised and settings.LEDGER_PROJECT_ON_APPEND:
        schedule_projections()
    return raised


def _dice_candidates(
    now: datetime.datetime, tables: dict[str, Table], lead: datetime.timedelta, gaming_day: str
) -> list[tuple[str, str, Table, str, dict[str, Any]]]:
    """Dice due for removal or overdue: placed in the shaker more than the
    rule set's hours ago (§ 585.3(b)(1), § 593.3(b)(1): 24)."""
    candidates: list[tuple[str, str, Table, str, dict[str, Any]]] = []
    sets = DiceSet.objects.filter(
        status=DiceStatus.IN_SHAKER, table_id__in=list(tables), in_shaker_since__lte=now
    ).order_by("table_id", "in_shaker_since", "dice_id")
    for dice in sets:
        table = tables[dice.table_id]
        interval = table.dice_change_interval()
        if interval is None:
            continue
        due_at = dice.in_shaker_since + interval
        base = {"table_id": table.table_id, "dice_id": dice.dice_id, "gaming_day": gaming_day,
                "due_at": due_at.isoformat(), "section": table.dice_change_section()}  # fmt: skip
        since = stamp(dice.in_shaker_since)
        if now > due_at:
            minutes_over = int((now - due_at).total_seconds() // 60)
            candidates.append((DICE_OVERDUE, since, table, dice.dice_id,
                               {**base, "minutes_over": minutes_over}))  # fmt: skip
        elif now >= due_at - lead:
            lead_minutes = settings.DECK_CHANGE_LEAD_MINUTES
            candidates.append((DICE_CHANGE_DUE, since, table, dice.dice_id,
                               {**base, "lead_minutes": lead_minutes}))  # fmt: skip
    return candidates


def _poker_count_candidates(
    deck: Deck, table: Table, now: datetime.datetime, base: dict[str, Any]
) -> list[tuple[str, str, Table, str, dict[str, Any]]]:
    """More than five hands at a poker table since the deck was last counted (§ 553.7(e)(4)):
    the entire deck, or the stub in Hold'em and Omaha."""
    from tables.poker_hands import hands_without_count

    rules = table.ruleset
    since, hands = hands_without_count(deck.stream_id, table.table_id, deck.in_use_since, now,
                                       stub_allowed=rules.stub_count_allowed)  # fmt: skip
    if hands <= rules.deck_count_every_rounds:
        return []
    return [(STUB_COUNT_MISSING, stamp(since), table, deck.deck_id, {
        **base, "rounds_without_count": hands, "section": rules.deck_count_section})]  # fmt: skip


def _void_deck_candidates(
    now: datetime.datetime, tables: dict[str, Table]
) -> list[tuple[str, str, Table, str, dict[str, Any]]]:
    """Per hand voided for missing or extra cards at a poker table, the hands dealt after it
    with the same deck (§ 553.16(g)); the finding's day is the first such hand's."""
    from tables.poker_hands import decks_not_replaced

    poker = [table_id for table_id, table in tables.items() if table.game == "poker"]
    return [(DECK_NOT_REPLACED, found.void_hand, tables[found.table_id], found.deck_id, {
        "table_id": found.table_id, "deck_id": found.deck_id, "void_hand": found.void_hand,
        "hands": len(found.hands), "first_hand": found.hands[0][0], "section": "553.16(g)",
        "gaming_day": found.hands[0][1].isoformat()})
        for found in decks_not_replaced(now, poker)]  # fmt: skip


def _untrained_candidates(gaming_day: str) -> list[tuple[str, str, Table, str, dict[str, Any]]]:
    """Dealers a job recorded at a table of ``gaming_day`` without the table test in
    its game by then (§ 527.5(a)); one finding per table day and dealer."""
    from tables.training import untrained

    return [(DEALER_UNTRAINED, f"{gaming_day}:{found.dealer}", Table(), found.table_id, {
        "table_id": found.table_id, "dealer": found.dealer, "game": found.game,
        "table_event": f"{found.stream_id}@{found.version}", "why": found.why,
        "section": found.section, "gaming_day": gaming_day})
        for found in untrained(gaming_day)]  # fmt: skip


def _raise(
    stream_id: str, event_type: str, payload: dict[str, Any], now: datetime.datetime, actor: Actor
) -> bool:
    if stream_version(stream_id):
        return False  # raised on an earlier run
    try:
        append(stream_id, [NewEvent(event_type, payload, occurred_at=now)],
               expected_version=0, actor=actor)  # fmt: skip
    except errors.StaleVersion:
        return False  # another run raised it between our look and our append
    logger.info("compliance finding %s", stream_id)
    return True


def _rounds_without_count(deck: Deck, now: datetime.datetime) -> tuple[datetime.datetime, int]:
    """Since when the stub has gone uncounted (the last count, or the deck's
    going in use) and how many rounds the table has opened since then."""
    since = deck.in_use_since
    last_event = _last_stub_count_event(deck.stream_id)
    counted_round = Round.objects.filter(
        table_id=deck.table_id, stub_counted=True, opened_at__gte=deck.in_use_since,
        opened_at__lte=now,
    ).aggregate(last=Max("opened_at"))["last"]  # fmt: skip
    for when in (last_event, counted_round):
        if when is not None and when <= now and when > since:
            since = when
    after = Q(opened_at__gt=since) if since != deck.in_use_since else Q(opened_at__gte=since)
    rounds = Round.objects.filter(after, table_id=deck.table_id, opened_at__lte=now).count()
    return since, rounds


def _last_stub_count_event(deck_stream: str) -> datetime.datetime | None:
    from tables.decks import STUB_COUNTED

    events = [e for e in read_streams([deck_stream]) if e.event_type == STUB_COUNTED]
    return events[-1].occurred_at if events else None


# --- the projection -------------------------------------------------------------------

_KIND = {
    DECK_CHANGE_DUE: "deck_change_due",
    DECK_OVERDUE: "deck_overdue",
    STUB_COUNT_MISSING: "stub_count_missing",
    DICE_CHANGE_DUE: "dice_change_due",
    DICE_OVERDUE: "dice_overdue",
    DEALER_UNTRAINED: "dealer_untrained",
    READER_NOT_INSPECTED: "reader_not_inspected",
    DEALT_WHILE_READER_STOPPED: "dealt_while_reader_stopped",
    DECK_NOT_REPLACED: "deck_not_replaced",
}

#: The finding kinds that stay on the board past their gaming day until worked.
STANDING_KINDS = ("deck_overdue", "stub_count_missing", "dice_overdue", "dealer_untrained",
                  "reader_not_inspected", "dealt_while_reader_stopped",
                  "deck_not_replaced")  # fmt: skip


def describe(event_type: str, payload: dict[str, Any]) -> str:
    """What the finding says, its moments in the casino's zone to the second."""
    if event_type == READER_NOT_INSPECTED:
        return (f"{payload['rounds']} round(s) at {payload['table_id']} from "
                f"{payload['first_round']} dealt before the card reader's inspection that "
                f"gaming day ({cite(payload['section'])})")  # fmt: skip
    if event_type == DEALT_WHILE_READER_STOPPED:
        return (f"{payload['rounds']} round(s) at {payload['table_id']} from "
                f"{payload['first_round']} dealt while the card reader was out of order "
                f"({payload['malfunction_event']}) ({cite(payload['section'])})")  # fmt: skip
    if event_type == DECK_NOT_REPLACED:
        return (f"{payload['hands']} hand(s) at {payload['table_id']} from "
                f"{payload['first_hand']} dealt with deck {payload['deck_id']} after hand "
                f"{payload['void_hand']} was voided for missing or extra cards: the deck was "
                f"not replaced ({cite(payload['section'])})")  # fmt: skip
    if event_type == DEALER_UNTRAINED:
        return (f"dealer {payload['dealer']} at {payload['table_id']} "
                f"({payload['table_event']}): {payload['why']} ({cite(payload['section'])})")
    if event_type in (DICE_CHANGE_DUE, DICE_OVERDUE):
        table, dice, section = payload["table_id"], payload["dice_id"], cite(payload["section"])
        if event_type == DICE_CHANGE_DUE:
            return (f"dice {dice} at {table} must be taken off the table by "
                    f"{moment(payload['due_at'])} ({section})")  # fmt: skip
        return (f"dice {dice} at {table} were due off the table at {moment(payload['due_at'])}: "
                f"{payload['minutes_over']} minutes over ({section})")  # fmt: skip
    table, deck, section = payload["table_id"], payload["deck_id"], cite(payload["section"])
    if event_type == DECK_CHANGE_DUE:
        return f"deck {deck} at {table} must be changed by {moment(payload['due_at'])} ({section})"
    if event_type == DECK_OVERDUE:
        return (
            f"deck {deck} at {table} was due for a change at {moment(payload['due_at'])}: "
            f"{payload['minutes_over']} minutes over ({section})"
        )
    return (
        f"deck {deck} at {table}: {payload['rounds_without_count']} rounds without a stub "
        f"count ({section})"
    )


def _apply_compliance(batch: list[RecordedEvent]) -> None:
    grouped = streams_touched(batch, "compliance")
    if not grouped:
        return
    rows = []
    for stream_id, events in grouped.items():
        finding = events[0]
        if finding.event_type not in FINDING_TYPES:
            continue
        payload = finding.payload
        rows.append(
            ComplianceFinding(
                stream_id=stream_id,
                kind=_KIND[finding.event_type],
                table_id=payload["table_id"],
                deck_id=payload.get("deck_id") or payload.get("dice_id") or "",
                gaming_day=datetime.date.fromisoformat(payload["gaming_day"]),
                section=payload["section"],
                detail=describe(finding.event_type, payload),
                raised_at=finding.occurred_at,
                computed_at_position=events[-1].position,
                **review_fields(events[1:]),
            )
        )
    upsert(ComplianceFinding, rows)


def _day_streams(day: datetime.date) -> list[str]:
    from tables import day_streams

    return day_streams.compliance_streams(day)


COMPLIANCE = register(
    Projection(
        name="tables.compliance",
        description="Compliance findings outside rounds (deck and dice changes, stub counts) and "
        "their acknowledgements.",
        event_types=frozenset(COMPLIANCE_EVENT_TYPES),
        apply=_apply_compliance,
        clear=emptying(ComplianceFinding),
        read_models=(ReadModel(ComplianceFinding),),
        day_streams=_day_streams,
    )
)
