"""Poker hands in the ledger: the poker room's events registered with their schemas, and
the ``poker-hand`` stream kind whose policy folds each new event through the hand machine.

A hand is recorded on ``poker-hand:<hand_id>``, not on a ``round`` stream: the
round kind's policy, the rounds service and its projection settle wagers the
house pays or collects (:mod:`tables.rules.engine`), where in the poker room
the money moves between players through pots and the house's revenue is the
rake (§ 553.15). The events, schemas, refusals and replay follow the same
conventions (:mod:`tables.rules.poker_room.events`, ``.replay``).

A player's action the chapter forbids (out of turn, a raise below the minimum,
a card dealt twice) is refused with its section; the dealer's money events are
facts, always accepted, and the replay turns wrong ones into findings.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from django.db import connection

from audit import errors
from audit.registry import EventType, StreamKind, register_event_type, register_stream_kind
from tables.corrections import TABLE_CORRECTIONS
from tables.round_events import engine_check, schema_of
from tables.rules.engine import RuleViolation
from tables.rules.events import Event
from tables.rules.poker_room.events import POKER_EVENT_TYPES, HandOpened
from tables.rules.poker_room.replay import HandReplay, PokerFinding, apply, open_from, replay_hand
from tables.rules.poker_room.rules import PokerRuleSet
from tables.rules.poker_room.settlement import LineKind

POKER_HAND_STREAM_KIND = "poker-hand"


def to_poker_event(event_type: str, payload: dict[str, Any]) -> Event:
    return POKER_EVENT_TYPES[event_type].from_payload(payload)


def poker_hand_policy(stream_id: str, recorded: Any, new: Sequence[Any], actor: Any) -> None:
    """Refuse, citing the section, an event the chapter forbids given the hand so far.

    A hand is a few dozen events: the policy folds them all rather than keep a cache.
    """
    events = [to_poker_event(e.event_type, e.payload) for e in recorded if e.event_type in
              POKER_EVENT_TYPES]  # fmt: skip
    first_new = len(events)
    events += [to_poker_event(e.event_type, e.payload) for e in new]
    if not events or not isinstance(events[0], HandOpened):
        raise errors.RuleViolation(
            "§ 553.7(a): a hand's stream starts with poker.hand_opened", field="events[0].type",
            section="553.7(a)",
        )  # fmt: skip
    key = stream_id.partition(":")[2]
    if first_new == 0 and events[0].hand_id != key:
        raise errors.RuleViolation(
            f"events[0].payload.hand_id: {events[0].hand_id!r} differs from the stream's hand "
            f"{key!r}; a hand is recorded on poker-hand:<hand_id>",
            field="events[0].payload.hand_id",
        )
    if first_new == 0:
        _check_table_open(events[0], actor)
        _check_fund_contributing(events[0])
    index = 0
    try:
        state = open_from(events[0])
        for index in range(1, len(events)):
            if isinstance(events[index], HandOpened):
                raise RuleViolation("553.7(a)", "the hand is already open", "type")
            state = apply(state, events[index])
    except RuleViolation as violation:
        at = max(index - first_new, 0)
        raise errors.RuleViolation(
            f"§ {violation.section}: {violation.reason}",
            field=f"events[{at}].payload" + (f".{violation.field}" if violation.field else ""),
            section=violation.section,
        ) from None


def _check_fund_contributing(opened: HandOpened) -> None:
    """A hand names no Bad Beat fund whose contributions were terminated (§ 553.20(i))."""
    from audit.ledger import read_stream
    from tables.bad_beat import BAD_BEAT_STREAM_KIND, history

    if opened.bad_beat_fund is None:
        return
    fund = history(read_stream(f"{BAD_BEAT_STREAM_KIND}:{opened.bad_beat_fund}"))
    if fund.discontinued is not None and opened.gaming_day >= fund.discontinued:
        raise errors.RuleViolation(
            f"§ 553.20(i): fund {opened.bad_beat_fund} takes no contributions from "
            f"{fund.discontinued}", field="events[0].payload.bad_beat_fund", section="553.20(i)",
        )  # fmt: skip


def _check_table_open(opened: HandOpened, actor: Any) -> None:
    """A dealer's or a device's hand is dealt at a configured table whose gaming day is
    open, as a round is (``tables.round_events``): a table is opened for gaming before
    play (§ 553.5). The system's jobs (the simulator, an import of hand histories)
    record hands as given."""
    from casino.roles import Role
    from tables.models import Table
    from tables.table_day import table_day_state, table_stream_id

    if actor is None or Role.SYSTEM.value in actor.roles:
        return
    where = "events[0].payload.table_id"
    if not Table.objects.filter(table_id=opened.table_id).exists():
        raise errors.RuleViolation(
            f"§ 553.5: no table {opened.table_id!r} is configured", field=where, section="553.5"
        )
    state = table_day_state(table_stream_id(opened.table_id, opened.gaming_day))
    if not state.open:
        raise errors.RuleViolation(
            f"§ 553.5: table {opened.table_id} is not open on gaming day {opened.gaming_day} "
            f"({state.why_not_open()})", field=where, section="553.5",
        )  # fmt: skip


def rake_by_table(day: datetime.date) -> dict[str, int]:
    """The poker room's revenue of ``day`` by table: the rake the dealers took (§ 553.15(a)).

    Never the pots: they are the players' money moving between players.
    """
    sql = (
        "SELECT o.payload ->> 'table_id', SUM(CAST(r.payload ->> 'amount_cents' AS BIGINT)) "
        "FROM ledger_event r JOIN ledger_event o ON o.stream_id = r.stream_id AND o.version = 1 "
        "WHERE r.event_type = 'poker.rake_taken' AND o.event_type = 'poker.hand_opened' "
        "AND o.stream_id LIKE 'poker-hand:%%' AND o.payload ->> 'gaming_day' = %s "
        "GROUP BY 1 ORDER BY 1"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [day.isoformat()])
        return {table_id: int(total) for table_id, total in cursor.fetchall()}


#: The irregularities that void the round of play and require the deck replaced (§ 553.16(g)).
DECK_REPLACED_KINDS = ("cards_missing", "cards_extra")


@dataclass(frozen=True)
class DeckNotReplaced:
    """Hands dealt at a table with the deck in use when a hand there was voided for missing
    or extra cards, before that deck was removed (§ 553.16(g): "the deck shall be
    replaced"): the deck job's finding."""

    table_id: str
    deck_id: str
    void_hand: str
    hands: tuple[tuple[str, datetime.date], ...]
    """Each hand dealt after the void with the deck still in use, and its gaming day."""


def decks_not_replaced(now: datetime.datetime, table_ids: Iterable[str]) -> list[DeckNotReplaced]:
    """Per hand voided under § 553.16(g) by ``now`` at one of ``table_ids``: the deck in use
    there at the void, and the hands opened there afterwards while it stayed in use (with
    two decks in use, § 553.3(d)(2) deals each every other round, so any hand counts).
    A void at a table with no deck recorded in use is left alone: nothing names the deck."""
    from tables.models import Deck

    tables = list(table_ids)
    if not tables:
        return []
    # IN lists, not = ANY(array): the embedded default (SQLite) runs the deck job too.
    kinds, at = ", ".join(["%s"] * len(DECK_REPLACED_KINDS)), ", ".join(["%s"] * len(tables))
    sql = (
        "SELECT o.stream_id, o.payload ->> 'table_id', i.occurred_at "
        "FROM ledger_event i JOIN ledger_event o ON o.stream_id = i.stream_id AND o.version = 1 "
        f"WHERE i.event_type = 'poker.irregularity' AND i.payload ->> 'kind' IN ({kinds}) "
        f"AND o.event_type = 'poker.hand_opened' AND o.payload ->> 'table_id' IN ({at}) "
        "AND i.occurred_at <= %s ORDER BY i.occurred_at, o.stream_id"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [*DECK_REPLACED_KINDS, *tables, now])
        voids = cursor.fetchall()
    found = []
    for stream_id, table_id, voided_at in voids:
        for deck in Deck.objects.filter(table_id=table_id, in_use_since__lte=voided_at).exclude(
                removed_at__lte=voided_at).order_by("deck_id"):  # fmt: skip
            until = min(now, deck.removed_at) if deck.removed_at is not None else now
            with connection.cursor() as cursor:
                cursor.execute(
                    "SELECT payload ->> 'hand_id', payload ->> 'gaming_day' FROM ledger_event "
                    "WHERE event_type = 'poker.hand_opened' AND payload ->> 'table_id' = %s "
                    "AND occurred_at > %s AND occurred_at < %s ORDER BY occurred_at, stream_id",
                    [table_id, voided_at, until],
                )  # fmt: skip
                hands = tuple((hand, datetime.date.fromisoformat(day))
                              for hand, day in cursor.fetchall())  # fmt: skip
            if hands:
                found.append(DeckNotReplaced(table_id, deck.deck_id,
                                             stream_id.partition(":")[2], hands))  # fmt: skip
    return found


def hands_without_count(
    deck_stream: str, table_id: str, in_use_since: datetime.datetime, now: datetime.datetime,
    *, stub_allowed: bool,
) -> tuple[datetime.datetime, int]:
    """Since when the deck at ``table_id`` has gone uncounted (its last count, or its going in
    use) and how many hands were opened there since, by ``now`` (§ 553.7(e)(4)(i)). Where
    the stub may not be counted, only a count of the entire deck (52 expected) counts."""
    from audit.ledger import read_streams
    from tables.decks import STUB_COUNTED

    counts = [event.occurred_at for event in read_streams([deck_stream])
              if event.event_type == STUB_COUNTED and event.occurred_at <= now
              and (stub_allowed or event.payload["expected"] == 52)]  # fmt: skip
    since = max([in_use_since, *counts])
    after = ">" if since != in_use_since else ">="
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT COUNT(*) FROM ledger_event WHERE event_type = 'poker.hand_opened' "
            f"AND payload ->> 'table_id' = %s AND occurred_at {after} %s AND occurred_at <= %s",
            [table_id, since, now],
        )  # fmt: skip
        (hands,) = cursor.fetchone()
    return since, int(hands)


def day_hands_sql(day_column: str) -> str:
    """SQL over the ``poker.hand_opened`` rows aliased ``o`` of a gaming day (one parameter,
    the day), written as ``tables.verification.RoundSelection`` writes its rounds'."""
    return (f"o.event_type = 'poker.hand_opened' AND o.stream_id LIKE 'poker-hand:%%' "
            f"AND {day_column} = %s")  # fmt: skip


def finding_key(finding: PokerFinding) -> str:
    """How the close counts a poker finding: its kind and the section the replay cites."""
    return f"{finding.kind.value} § {finding.section}"


def verify_hand(
    recorded: Iterable[Any], rules: dict[tuple[str, datetime.date], PokerRuleSet] | None = None
) -> HandReplay | None:
    """Replay one hand's stored events under the rules in force on its day (its fund's
    Bad Beat rules included); None for a hand whose fund had no rules then. ``rules``
    keeps each fund's day's rule set, read once."""
    from tables.bad_beat import hand_rules

    events = [to_poker_event(e.event_type, e.payload) for e in recorded
              if e.event_type in POKER_EVENT_TYPES]  # fmt: skip
    opened = events[0]
    assert isinstance(opened, HandOpened)  # the policy refuses any other first event
    key = (f"{opened.ruleset_id}|{opened.bad_beat_fund or ''}", opened.gaming_day)
    cache = {} if rules is None else rules
    if key not in cache:
        try:
            cache[key] = hand_rules(opened)
        except errors.RuleViolation:
            return None
    return replay_hand(events, cache[key])


@dataclass
class HandTally:
    """One poker table's hands of a day, summed as the close's replay goes: the rake and
    Bad Beat contributions the dealers took beside what the rules required (§ 553.15,
    § 553.20(c)). Never the pots: they are the players' money."""

    hands: int = 0
    events: int = 0
    findings: int = 0
    rake_cents: int = 0
    required_rake_cents: int = 0
    bad_beat_cents: int = 0
    required_bad_beat_cents: int = 0
    ruleset_id: str = ""
    bad_beats: dict[str, list[str]] = field(default_factory=dict)
    """The Bad Beat hands the replay found, by fund: each to be verified (§ 553.20(f))."""

    def add_hand(self, result: HandReplay, event_count: int) -> None:
        from tables.rules.poker_room.events import BadBeatContributed, RakeTaken

        opened = result.events[0]
        assert isinstance(opened, HandOpened)
        for event in result.events:
            if isinstance(event, RakeTaken):
                self.rake_cents += event.amount_cents
            elif isinstance(event, BadBeatContributed):
                self.bad_beat_cents += event.amount_cents
        if result.settlement is not None:
            self.required_rake_cents += result.settlement.total(LineKind.RAKE)
            self.required_bad_beat_cents += result.settlement.total(LineKind.BAD_BEAT)
            if result.settlement.bad_beat is not None and opened.bad_beat_fund is not None:
                self.bad_beats.setdefault(opened.bad_beat_fund, []).append(opened.hand_id)
        self.hands += 1
        self.events += event_count
        self.findings += len(result.findings)
        self.ruleset_id = opened.ruleset_id

    def merge(self, other: HandTally) -> HandTally:
        for name in ("hands", "events", "findings", "rake_cents", "required_rake_cents",
                     "bad_beat_cents", "required_bad_beat_cents"):  # fmt: skip
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.ruleset_id = other.ruleset_id or self.ruleset_id  # add keeps the last
        for fund, hands in other.bad_beats.items():
            self.bad_beats[fund] = sorted([*self.bad_beats.get(fund, []), *hands])
        return self

    def to_payload(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in HandTally.__dataclass_fields__}

    @classmethod
    def from_payload(cls, payload: dict[str, Any]) -> HandTally:
        return cls(**payload)

    def play(self) -> Any:
        """As the reconciliation's ``PlayTally``: the hands as its rounds, no handle and
        nothing collected or paid from the rack (the rake goes to the drop box,
        § 553.2(b)(2)), the theoretical win the rake the rules required."""
        from tables.reconciliation import PlayTally

        return PlayTally(rounds=self.hands, events=self.events, findings=self.findings,
                         theoretical=Fraction(self.required_rake_cents),
                         ruleset_id=self.ruleset_id)  # fmt: skip


@dataclass
class PokerTally:
    """The day's hands by table, and the rule sets they were replayed under."""

    tables: dict[str, HandTally] = field(default_factory=dict)
    rules: dict[tuple[str, datetime.date], PokerRuleSet] = field(default_factory=dict)

    def add(self, recorded: Sequence[Any]) -> list[str] | None:
        """Replay one hand and add it; its findings (``finding_key``), None if it could
        not be replayed (its fund had no rules in force)."""
        result = verify_hand(recorded, self.rules)
        if result is None:
            return None
        opened = result.events[0]
        assert isinstance(opened, HandOpened)
        self.tables.setdefault(opened.table_id, HandTally()).add_hand(result, len(recorded))
        return [finding_key(finding) for finding in result.findings]


def replay_hands(
    gaming_day: datetime.date | None = None, table_id: str | None = None
) -> tuple[int, int, dict[str, int], list[str], list[tuple[str, PokerFinding]]]:
    """The poker hands of a day (every day without one) and table, replayed from the
    ledger (``manage.py replay``): hands, events, findings by ``finding_key``, the
    hands not replayable, and each finding with its hand's stream."""
    from audit.ledger import read_streams
    from tables.verification import rounds_of

    conditions, params = ["o.event_type = 'poker.hand_opened'", "o.version = 1"], []
    if gaming_day is not None:
        conditions.append("o.payload ->> 'gaming_day' = %s")
        params.append(gaming_day.isoformat())
    if table_id is not None:
        conditions.append("o.payload ->> 'table_id' = %s")
        params.append(table_id)
    with connection.cursor() as cursor:
        cursor.execute("SELECT o.stream_id FROM ledger_event o WHERE "
                       f"{' AND '.join(conditions)} ORDER BY o.stream_id", params)  # fmt: skip
        streams = [row[0] for row in cursor.fetchall()]
    events = 0
    rules: dict[tuple[str, datetime.date], PokerRuleSet] = {}
    found: dict[str, int] = {}
    refused: list[str] = []
    listed: list[tuple[str, PokerFinding]] = []
    for at in range(0, len(streams), 500):
        for stream_id, recorded in rounds_of(read_streams(streams[at : at + 500])):
            events += len(recorded)
            result = verify_hand(recorded, rules)
            if result is None:
                refused.append(stream_id)
                continue
            for finding in result.findings:
                found[finding_key(finding)] = found.get(finding_key(finding), 0) + 1
                listed.append((stream_id, finding))
    return len(streams), events, found, refused, listed


for _cls in POKER_EVENT_TYPES.values():
    register_event_type(
        EventType(
            name=_cls.TYPE,
            version=_cls.SCHEMA_VERSION,
            description=(_cls.__doc__ or _cls.TYPE).strip().splitlines()[0],
            schema=schema_of(_cls),
            check=engine_check(_cls),
        )
    )

register_stream_kind(
    StreamKind(
        name=POKER_HAND_STREAM_KIND,
        description="One hand of nonbanked poker (§ 553): seats and stakes, forced wagers, "
        "cards, actions, the showdown, and the pots, rake and Bad Beat contribution the "
        "dealer took and pushed.",
        accepts=frozenset({"poker.*"}),
        policy=poker_hand_policy,
        corrections=TABLE_CORRECTIONS,
    )
)
