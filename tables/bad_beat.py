"""A Bad Beat fund in the ledger: one stream per fund, ``badbeat:<fund_id>`` (§ 553.20).

* ``badbeat.rules_posted``: the fund's posted rules (§ 553.20(b)), effective
  from a gaming day until the next version (:mod:`tables.rules.poker_room.bad_beat_fund`),
  and the tables that contribute;
* ``badbeat.counted``: the box's daily count (§ 553.20(d)), at a closed table
  by a dealer in the presence of a floorperson or higher (both sign, (d)(1)),
  or at the cage by a cashier ((d)(2));
* ``badbeat.count_verified``: the cage's verification of the count (§ 553.20(e));
* ``badbeat.award_verified``: the poker shift supervisor verified a Bad Beat hand
  (§ 553.20(f)); the display is "pending adjustment" from then on;
* ``badbeat.award_paid``: finance paid the award's shares, seat by seat (§ 553.20(g));
* ``badbeat.display_adjusted``: finance, with a floorperson or above, set the display
  to its amount (§ 553.20(h)): at least once a day and after every award;
* ``badbeat.discontinued``: contributions terminated from a gaming day under the
  Board-approved procedures, the balance left to be awarded or transferred whole to
  another fund (§ 553.20(i)), signed by the shift supervisor and finance.

Contributions are not recorded here: each is a ``poker.bad_beat_contributed``
of a hand whose ``poker.hand_opened`` names the fund (:mod:`tables.poker_hands`),
so the fund's day is the sum of its hands' (:func:`contributions_cents`), and
the count against it a variance (:func:`count_variances`). A hand's required
contribution follows the rules in force on its gaming day (:func:`hand_rules`).
The fund's days, its balance, awards and display (:func:`fund_days`), fold the
hands' contributions and the fund's own events in ledger order.
"""

from __future__ import annotations

import dataclasses
import datetime
from collections.abc import Sequence
from typing import Any

from django.db import connection

from audit import errors
from audit.ledger import Actor, NewEvent, RecordedEvent, read_stream
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
from tables.rules.poker_room.bad_beat_fund import (
    BeatSeats,
    CountVariance,
    EntryKind,
    FundDay,
    FundEntry,
    RulesHistory,
    count_variance,
    fund_days,
    rules_from_payload,
)
from tables.rules.poker_room.events import HandOpened
from tables.rules.poker_room.rules import PokerRuleSet
from tables.rules.poker_room.rulesets import poker_ruleset

BAD_BEAT_STREAM_KIND = "badbeat"
RULES_POSTED = "badbeat.rules_posted"
COUNTED = "badbeat.counted"
COUNT_VERIFIED = "badbeat.count_verified"
AWARD_VERIFIED = "badbeat.award_verified"
AWARD_PAID = "badbeat.award_paid"
DISPLAY_ADJUSTED = "badbeat.display_adjusted"
DISCONTINUED = "badbeat.discontinued"

_FRACTION = {"type": "string", "pattern": "^[0-9]{1,9}/[1-9][0-9]{0,8}$"}
_DAY = {"type": "string", "format": "date", "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}$"}
_SUPERVISING = (Role.FLOORPERSON, Role.SHIFT_SUPERVISOR)
_HAND = {"type": "string", "minLength": 1, "maxLength": 100}
_SHARE = object_schema({"seat": {"type": "integer", "minimum": 1, "maximum": 12},
                        "amount_cents": CENTS})  # fmt: skip

_SCHEMAS: dict[str, tuple[str, dict[str, Any]]] = {
    RULES_POSTED: (
        "A Bad Beat fund's posted rules, in force from a gaming day (§ 553.20(b), (c)).",
        object_schema({
            "effective_from": _DAY, "rate": _FRACTION, "maximum_cents": CENTS,
            "unit_cents": {**CENTS, "minimum": 1}, "minimum_pot_cents": CENTS,
            "qualifying_hand": {"type": "string", "minLength": 10, "maxLength": 20},
            "payout_share": _FRACTION, "losing_share": _FRACTION, "winning_share": _FRACTION,
            "table_share": _FRACTION,
            "tables": {"type": "array", "items": {"type": "string", "minLength": 1,
                                                  "maxLength": 50}},
            "posted_by": USERNAME,
        }),
    ),  # fmt: skip
    COUNTED: (
        "The Bad Beat box's count for a gaming day (§ 553.20(d)).",
        object_schema({
            "gaming_day": _DAY, "amount_cents": CENTS, "location": {"enum": ["table", "cage"]},
            "counted_by": USERNAME, "witnessed_by": USERNAME,
        }),
    ),  # fmt: skip
    COUNT_VERIFIED: (
        "A cashier verified the Bad Beat count at the cage (§ 553.20(e)).",
        object_schema({"gaming_day": _DAY, "amount_cents": CENTS, "cashier": USERNAME}),
    ),
    AWARD_VERIFIED: (
        "The poker shift supervisor verified a Bad Beat hand; the display is pending "
        "adjustment (§ 553.20(f)).",
        object_schema({"gaming_day": _DAY, "hand_id": _HAND, "verified_by": USERNAME}),
    ),
    AWARD_PAID: (
        "Finance paid a verified Bad Beat hand's award, seat by seat (§ 553.20(g)).",
        object_schema({
            "gaming_day": _DAY, "hand_id": _HAND, "location": {"enum": ["table", "cage"]},
            "shares": {"type": "array", "minItems": 1, "maxItems": 12, "items": _SHARE},
            "paid_by": USERNAME,
        }),
    ),  # fmt: skip
    DISPLAY_ADJUSTED: (
        "Finance set the Bad Beat display to its amount, with a floorperson or above "
        "present (§ 553.20(h)).",
        object_schema({
            "gaming_day": _DAY, "finance_cents": CENTS, "displayed_cents": CENTS,
            "adjusted_by": USERNAME, "witnessed_by": USERNAME,
        }),
    ),  # fmt: skip
    DISCONTINUED: (
        "Contributions terminated from a gaming day under the Board-approved procedures; the "
        "balance awarded or transferred whole to another Bad Beat payout (§ 553.20(i)).",
        object_schema({
            "effective_from": _DAY, "board_approval": {"type": "string", "minLength": 1,
                                                       "maxLength": 200},
            "transfer_to": {"type": "string", "maxLength": 50}, "transferred_cents": CENTS,
            "discontinued_by": USERNAME, "approved_by": USERNAME,
        }),
    ),  # fmt: skip
}


def history(events: Sequence[RecordedEvent]) -> RulesHistory:
    """The fund's rules, version by version."""
    rules = RulesHistory()
    for event in events:
        if event.event_type == RULES_POSTED:
            effective = datetime.date.fromisoformat(event.payload["effective_from"])
            rules = rules.posted(effective, rules_from_payload(event.payload))
        elif event.event_type == DISCONTINUED:
            rules = rules.discontinue(datetime.date.fromisoformat(event.payload["effective_from"]))
    return rules


def bad_beat_policy(
    stream_id: str, recorded: Sequence[RecordedEvent], new: Sequence[NewEvent], actor: Actor
) -> None:
    """Refuse rules that do not hold together or go back in time, a count not signed by
    two people of the roles § 553.20(d) names, a verification of a day never counted;
    an award verified by anyone but a shift supervisor, of a hand not at the fund's
    tables, twice, or paid before it was verified or twice (§ 553.20(f)-(g)); a
    display adjusted by anyone but finance, or without a witness (§ 553.20(h)(1))."""
    rules = history(recorded)
    counted = {e.payload["gaming_day"] for e in recorded if e.event_type == COUNTED}
    verified = {e.payload["hand_id"] for e in recorded if e.event_type == AWARD_VERIFIED}
    paid = {e.payload["hand_id"] for e in recorded if e.event_type == AWARD_PAID}
    fund_id = stream_id.partition(":")[2]
    for index, event in enumerate(new):
        kind, payload = event.event_type, event.payload
        if kind in (AWARD_VERIFIED, AWARD_PAID, DISPLAY_ADJUSTED):
            _check_award(fund_id, kind, payload, actor, index, verified, paid)
        elif kind == DISCONTINUED:
            try:
                rules = rules.discontinue(datetime.date.fromisoformat(payload["effective_from"]))
            except ValueError as error:
                _refuse(f"§ 553.20(i): {str(error).partition(': ')[2]}", index=index,
                        field="effective_from", section="553.20(i)")  # fmt: skip
            _check_discontinued(fund_id, recorded, payload, actor, index, verified - paid)
        elif kind == RULES_POSTED:
            try:
                rules = rules.posted(datetime.date.fromisoformat(payload["effective_from"]),
                                     rules_from_payload(payload))  # fmt: skip
            except ValueError as error:
                field, _, reason = str(error).partition(": ")
                section = "553.20(i)" if rules.discontinued else "553.20(b)"
                _refuse(f"§ {section}: {reason}", index=index, section=section,
                        field=field if field in payload else "")  # fmt: skip
            _check_signer(actor, payload["posted_by"], (Role.SHIFT_SUPERVISOR,), index=index,
                          field="posted_by", section="553.20(b)")  # fmt: skip
        elif kind == COUNTED:
            if payload["counted_by"] == payload["witnessed_by"]:
                _refuse("§ 553.20(d)(1): the count is signed by two people", index=index,
                        field="witnessed_by", section="553.20(d)(1)")  # fmt: skip
            at_table = payload["location"] == "table"
            _check_signer(actor, payload["counted_by"],
                          (Role.DEALER,) if at_table else (Role.CAGE_CASHIER,), index=index,
                          field="counted_by", section="553.20(d)")  # fmt: skip
            _check_signer(actor, payload["witnessed_by"], _SUPERVISING, index=index,
                          field="witnessed_by", section="553.20(d)")  # fmt: skip
            counted.add(payload["gaming_day"])
        elif kind == COUNT_VERIFIED:
            if payload["gaming_day"] not in counted:
                _refuse(f"§ 553.20(e): no count of {payload['gaming_day']} to verify",
                        index=index, field="gaming_day", section="553.20(e)")  # fmt: skip
            _check_signer(actor, payload["cashier"], (Role.CAGE_CASHIER,), index=index,
                          field="cashier", section="553.20(e)")  # fmt: skip


def _check_discontinued(fund_id: str, recorded: Sequence[RecordedEvent], payload: dict[str, Any],
                        actor: Actor, index: int, unpaid: set[str]) -> None:  # fmt: skip
    """Signed by two people, the shift supervisor and finance (the section names none: those
    who post the fund's rules and keep its official record, § 553.20(b), (e)); a transfer
    moves the whole balance to another fund that takes contributions, once every verified
    award is paid, so that "all payout amounts are paid to Poker patrons" (§ 553.20(i))."""
    if payload["discontinued_by"] == payload["approved_by"]:
        _refuse("§ 553.20(i): the discontinuation is signed by two people", index=index,
                field="approved_by", section="553.20(i)")  # fmt: skip
    _check_signer(actor, payload["discontinued_by"], (Role.SHIFT_SUPERVISOR,), index=index,
                  field="discontinued_by", section="553.20(i)")  # fmt: skip
    _check_signer(actor, payload["approved_by"], (Role.FINANCE,), index=index,
                  field="approved_by", section="553.20(i)")  # fmt: skip
    target, cents = payload["transfer_to"], payload["transferred_cents"]
    if not target:
        if cents:
            _refuse("§ 553.20(i): nothing is transferred without a fund to transfer to",
                    index=index, field="transferred_cents", section="553.20(i)")  # fmt: skip
        return
    effective = datetime.date.fromisoformat(payload["effective_from"])
    if target == fund_id or not history(read_stream(f"{BAD_BEAT_STREAM_KIND}:{target}")
                                        ).contributing(effective):  # fmt: skip
        _refuse(f"§ 553.20(i): fund {target!r} is no other Bad Beat payout taking "
                f"contributions on {effective}", index=index, field="transfer_to",
                section="553.20(i)")  # fmt: skip
    if unpaid:
        _refuse(f"§ 553.20(g): hands {', '.join(sorted(unpaid))} are verified and not paid: "
                "pay them before transferring the fund", index=index, field="transfer_to",
                section="553.20(g)")  # fmt: skip
    balance = balance_cents(fund_id, recorded)
    if cents != balance:
        _refuse(f"§ 553.20(i): the fund holds {balance} cents, all of which is transferred",
                index=index, field="transferred_cents", section="553.20(i)")  # fmt: skip


def _check_award(fund_id: str, kind: str, payload: dict[str, Any], actor: Actor,
                 index: int, verified: set[str], paid: set[str]) -> None:  # fmt: skip
    if kind == DISPLAY_ADJUSTED:
        if payload["adjusted_by"] == payload["witnessed_by"]:
            _refuse("§ 553.20(h)(1): finance adjusts the display in the presence of a "
                    "floorperson or above", index=index, field="witnessed_by",
                    section="553.20(h)(1)")  # fmt: skip
        _check_signer(actor, payload["adjusted_by"], (Role.FINANCE,), index=index,
                      field="adjusted_by", section="553.20(h)(1)")  # fmt: skip
        _check_signer(actor, payload["witnessed_by"], _SUPERVISING, index=index,
                      field="witnessed_by", section="553.20(h)(1)")  # fmt: skip
        return
    hand = payload["hand_id"]
    if kind == AWARD_VERIFIED:
        opened = read_stream(f"poker-hand:{hand}")[:1]
        if not opened or opened[0].payload.get("bad_beat_fund") != fund_id:
            _refuse(f"§ 553.20(f): no hand {hand!r} contributing to fund {fund_id}",
                    index=index, field="hand_id", section="553.20(f)")  # fmt: skip
        if hand in verified:
            _refuse(f"§ 553.20(f): hand {hand} is already verified", index=index,
                    field="hand_id", section="553.20(f)")  # fmt: skip
        _check_signer(actor, payload["verified_by"], (Role.SHIFT_SUPERVISOR,), index=index,
                      field="verified_by", section="553.20(f)")  # fmt: skip
        verified.add(hand)
        return
    if hand not in verified:
        _refuse(f"§ 553.20(f): hand {hand} is verified by the poker shift supervisor before "
                "its award is paid", index=index, field="hand_id", section="553.20(f)")
    if hand in paid:
        _refuse(f"§ 553.20(g): hand {hand}'s award is already paid", index=index,
                field="hand_id", section="553.20(g)")  # fmt: skip
    _check_signer(actor, payload["paid_by"], (Role.FINANCE,), index=index, field="paid_by",
                  section="553.20(g)")  # fmt: skip
    paid.add(hand)


def hand_rules(opened: HandOpened) -> PokerRuleSet:
    """The hand's rule set, its Bad Beat rules those its fund had in force that day.

    :raises errors.RuleViolation: for a fund with no rules in force on the hand's day.
    """
    rules = poker_ruleset(opened.ruleset_id)
    if opened.bad_beat_fund is None:
        return rules
    fund = history(read_stream(f"{BAD_BEAT_STREAM_KIND}:{opened.bad_beat_fund}"))
    if fund.discontinued is not None and opened.gaming_day >= fund.discontinued:
        # Contributions terminated (§ 553.20(i)): none is required of the hand.
        return dataclasses.replace(rules, bad_beat=None)
    in_force = fund.on(opened.gaming_day)
    if in_force is None:
        raise errors.RuleViolation(
            f"§ 553.20(b): fund {opened.bad_beat_fund!r} has no rules in force on "
            f"{opened.gaming_day}", field="events[0].payload.bad_beat_fund", section="553.20(b)",
        )  # fmt: skip
    return dataclasses.replace(rules, bad_beat=in_force)


#: No ledger position limit: everything recorded so far.
_ALL = 2**62


def contributions_cents(fund_id: str, day: datetime.date, upto: int | None = None) -> int:
    """What the dealers put in the fund's box on ``day``: its hands' contributions
    (recorded up to ledger position ``upto``, the close's cutoff)."""
    sql = (
        "SELECT COALESCE(SUM(CAST(c.payload ->> 'amount_cents' AS BIGINT)), 0) FROM ledger_event c "
        "JOIN ledger_event o ON o.stream_id = c.stream_id AND o.version = 1 "
        "WHERE c.event_type = 'poker.bad_beat_contributed' "
        "AND o.event_type = 'poker.hand_opened' AND o.stream_id LIKE 'poker-hand:%%' "
        "AND o.payload ->> 'bad_beat_fund' = %s AND o.payload ->> 'gaming_day' = %s "
        "AND c.position <= %s"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [fund_id, day.isoformat(), _ALL if upto is None else upto])
        return int(cursor.fetchone()[0])


def counted_cents(events: Sequence[RecordedEvent], day: datetime.date, upto: int) -> int | None:
    """The fund's box on ``day``: the cage's verified amount where there is one, else the
    counts' sum, None if never counted (§ 553.20(d), (e))."""
    counted = verified = None
    for event in events:
        if event.payload.get("gaming_day") != day.isoformat() or event.position > upto:
            continue
        if event.event_type == COUNTED:
            counted = (counted or 0) + event.payload["amount_cents"]
        elif event.event_type == COUNT_VERIFIED:
            verified = event.payload["amount_cents"]
    return verified if verified is not None else counted


def count_variances(day: datetime.date, upto: int | None = None) -> dict[str, CountVariance]:
    """Each fund whose count of ``day`` differs from its hands' contributions (the cage's
    verified amount where there is one, else the count; no count counts as zero), as the
    ledger stood at position ``upto`` (the close's cutoff: a re-run finds the same)."""
    limit = _ALL if upto is None else upto
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT DISTINCT payload ->> 'bad_beat_fund' FROM ledger_event "
            "WHERE event_type = 'poker.hand_opened' AND payload ->> 'gaming_day' = %s "
            "AND payload ->> 'bad_beat_fund' IS NOT NULL AND position <= %s "
            "UNION SELECT DISTINCT substr(stream_id, 9) FROM ledger_event "
            "WHERE event_type IN (%s, %s) AND payload ->> 'gaming_day' = %s AND position <= %s",
            [day.isoformat(), limit, COUNTED, COUNT_VERIFIED, day.isoformat(), limit],
        )
        funds = sorted(row[0] for row in cursor.fetchall())
    found = {}
    for fund_id in funds:
        amount = counted_cents(read_stream(f"{BAD_BEAT_STREAM_KIND}:{fund_id}"), day, limit)
        variance = count_variance(
            contributed_cents=contributions_cents(fund_id, day, upto), counted_cents=amount or 0
        )
        if variance is not None:
            found[fund_id] = variance
    return found


def fund_ids(upto: int | None = None) -> list[str]:
    """Every fund begun at or before ledger position ``upto`` (the stream index's)."""
    from audit.models import StreamIndex
    from audit.projections import STREAM_INDEX, run

    run(STREAM_INDEX)
    rows = StreamIndex.objects.filter(kind=BAD_BEAT_STREAM_KIND,
                                      first_position__lte=_ALL if upto is None else upto)
    return [stream_id.partition(":")[2] for stream_id in
            rows.order_by("stream_id").values_list("stream_id", flat=True)]  # fmt: skip


def _entries(fund_id: str, events: Sequence[RecordedEvent], upto: int) -> list[FundEntry]:
    """The fund's hands' contributions, its own awards and adjustments and its transfers,
    in ledger order."""
    sql = (
        "SELECT c.position, o.payload ->> 'gaming_day', CAST(c.payload ->> 'amount_cents' "
        "AS BIGINT), o.payload ->> 'hand_id' FROM ledger_event c JOIN ledger_event o "
        "ON o.stream_id = c.stream_id AND o.version = 1 "
        "WHERE c.event_type = 'poker.bad_beat_contributed' "
        "AND o.event_type = 'poker.hand_opened' AND o.stream_id LIKE 'poker-hand:%%' "
        "AND o.payload ->> 'bad_beat_fund' = %s AND c.position <= %s"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [fund_id, upto])
        entries = [FundEntry(position=position, gaming_day=datetime.date.fromisoformat(day),
                             kind=EntryKind.CONTRIBUTED, amount_cents=int(amount), hand_id=hand)
                   for position, day, amount, hand in cursor.fetchall()]  # fmt: skip
    for event in events:
        if event.position > upto or event.event_type not in _ENTRY_KINDS:
            continue
        payload = event.payload
        entries.append(FundEntry(
            position=event.position, gaming_day=datetime.date.fromisoformat(payload["gaming_day"]),
            kind=_ENTRY_KINDS[event.event_type], hand_id=payload.get("hand_id", ""),
            amount_cents=payload.get("finance_cents", 0),
            displayed_cents=payload.get("displayed_cents", 0),
            shares={share["seat"]: share["amount_cents"] for share in payload.get("shares", ())},
        ))  # fmt: skip
    entries += _transfers(fund_id, events, upto)
    return sorted(entries, key=lambda entry: entry.position)


_ENTRY_KINDS = {AWARD_VERIFIED: EntryKind.VERIFIED, AWARD_PAID: EntryKind.PAID,
                DISPLAY_ADJUSTED: EntryKind.ADJUSTED}  # fmt: skip


def _transfers(fund_id: str, events: Sequence[RecordedEvent], upto: int) -> list[FundEntry]:
    """The fund's balance transferred to another fund, and the balances it received from
    discontinued funds (§ 553.20(i)), each on its discontinuation's effective day."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT position, payload ->> 'effective_from', payload ->> 'transferred_cents' "
            "FROM ledger_event WHERE event_type = %s AND payload ->> 'transfer_to' = %s "
            "AND position <= %s",
            [DISCONTINUED, fund_id, upto],
        )
        received = [(position, {"effective_from": day, "transferred_cents": int(cents)},
                     EntryKind.TRANSFERRED_IN) for position, day, cents in cursor.fetchall()]
    sent = [(e.position, e.payload, EntryKind.TRANSFERRED_OUT) for e in events
            if e.event_type == DISCONTINUED and e.position <= upto]  # fmt: skip
    return [FundEntry(position=position, kind=kind, amount_cents=payload["transferred_cents"],
                      gaming_day=datetime.date.fromisoformat(payload["effective_from"]))
            for position, payload, kind in (*received, *sent)
            if payload["transferred_cents"]]  # fmt: skip


def balance_cents(fund_id: str, events: Sequence[RecordedEvent]) -> int:
    """What the fund holds now: contributions and transfers in, less awards paid and
    transfers out."""
    signs = {EntryKind.CONTRIBUTED: 1, EntryKind.TRANSFERRED_IN: 1,
             EntryKind.TRANSFERRED_OUT: -1}  # fmt: skip
    return sum(
        sum(entry.shares.values()) * -1 if entry.kind is EntryKind.PAID
        else entry.amount_cents * signs.get(entry.kind, 0)
        for entry in _entries(fund_id, events, _ALL)
    )  # fmt: skip


def beat_seats(hand_id: str) -> BeatSeats | None:
    """A verified hand's seats, by its replay under its day's rules; None when it is no
    Bad Beat under them (or cannot be replayed)."""
    from tables.poker_hands import verify_hand

    recorded = read_stream(f"poker-hand:{hand_id}")
    result = verify_hand(recorded) if recorded else None
    if result is None or result.settlement is None or result.state is None:
        return None
    beat = result.settlement.bad_beat
    if beat is None:
        return None
    return BeatSeats(beat.losing_seat, beat.winning_seat, tuple(result.state.seats))


def fund_history(
    fund_id: str, first: datetime.date, last: datetime.date, upto: int | None = None,
    qualifying: dict[datetime.date, list[str]] | None = None,
) -> list[FundDay]:  # fmt: skip
    """The fund's days from ``first`` to ``last`` as the ledger stood at ``upto`` (the
    close's cutoff); ``qualifying``: the Bad Beat hands the replay found, by day."""
    limit = _ALL if upto is None else upto
    events = [e for e in read_stream(f"{BAD_BEAT_STREAM_KIND}:{fund_id}") if e.position <= limit]
    beats = {e.payload["hand_id"]: beat_seats(e.payload["hand_id"])
             for e in events if e.event_type == AWARD_VERIFIED}  # fmt: skip
    return fund_days(_entries(fund_id, events, limit), first, last, rules=history(events),
                     beats=beats, qualifying=qualifying)  # fmt: skip


for _name, (_description, _schema) in _SCHEMAS.items():
    register_event_type(
        EventType(name=_name, version=1, description=_description, schema=_schema)
    )

register_stream_kind(
    StreamKind(
        name=BAD_BEAT_STREAM_KIND,
        description="One Bad Beat fund (§ 553.20): its posted rules with their history and "
        "its box's daily counts, awards, display and discontinuation; the contributions are "
        "its hands'.",
        accepts=frozenset(_SCHEMAS),
        policy=bad_beat_policy,
        corrections=TABLE_CORRECTIONS,
        # A fund lives for years (a count each day): retention never archives it.
        lasting=True,
    )
)
