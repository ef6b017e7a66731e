"""A poker room's day in the ledger: the demo's four tables, planted dealer errors, and
the replay that finds them (§ 553).

:func:`play_poker_day` records random hands (:mod:`tables.rules.poker_room.simulate`)
at Hold'em with a Bad Beat fund, Omaha Eight or Better, Seven-card Stud Eight or
Better and Five-card Draw, each with a correct dealer's money but for the
errors :func:`plant` puts in chosen hands: a side pot pushed to the all-in
player (§ 553.8(b)(4)(i)), an over-rake (§ 553.15(b)), a missed Bad Beat
contribution (§ 553.20(c)). :func:`replay_poker_day` replays every hand of the
day from the ledger and returns the findings; :func:`count_fund` records the
fund's daily count (§ 553.20(d)), short by what the demo plants, and
:func:`adjust_display` finance's daily adjustment of its display (§ 553.20(h)).
"""

from __future__ import annotations

import datetime
import random
from dataclasses import dataclass, field

from audit.ledger import Actor, NewEvent, append, read_stream
from tables.bad_beat import (
    BAD_BEAT_STREAM_KIND,
    COUNTED,
    DISPLAY_ADJUSTED,
    RULES_POSTED,
    contributions_cents,
    fund_history,
    hand_rules,
)
from tables.poker_hands import to_poker_event
from tables.rules.events import Event
from tables.rules.poker_room.events import BadBeatContributed, HandOpened, PotPushed, RakeTaken
from tables.rules.poker_room.replay import PokerFinding, replay_hand
from tables.rules.poker_room.rulesets import POKER_RULESETS
from tables.rules.poker_room.settlement import HandSettlement
from tables.rules.poker_room.simulate import random_hand

#: The demo's poker tables: table id, rule set, Bad Beat fund.
POKER_TABLES = (
    ("PK-HE-01", "PA-553-HOLDEM-NL-1-2-BB", "BB-HOLDEM"),
    ("PK-O8-01", "PA-553-OMAHA-HL8-4-8", None),
    ("PK-S8-01", "PA-553-STUD-HL8-2-4", None),
    ("PK-DR-01", "PA-553-DRAW-HIGH-2-4", None),
)
PLANTED = ("wrong_side_pot", "over_rake", "missed_bad_beat")


@dataclass
class PokerDay:
    hands: int = 0
    events: int = 0
    planted: dict[str, str] = field(default_factory=dict)
    """Each planted error's hand stream."""


def plant(events: list[Event], settlement: HandSettlement, error: str) -> list[Event] | None:
    """``events`` with the dealer's ``error``, or None if this hand cannot carry it."""
    pushes = [e for e in events if isinstance(e, PotPushed)]
    if error == "wrong_side_pot":
        side = [e for e in pushes if e.pot == 1]
        if not side:
            return None
        excluded = [s for s in settlement.pots[0].eligible if s not in settlement.pots[1].eligible]
        if not excluded:
            return None
        wrong = PotPushed(pot=1, seat=excluded[0], amount_cents=side[0].amount_cents)
        return [wrong if e == side[0] else e for e in events]
    if error == "over_rake":
        rakes = [e for e in events if isinstance(e, RakeTaken)]
        main = [e for e in pushes if e.pot == 0 and e.amount_cents > 100]
        if not rakes or not main:
            return None
        more = RakeTaken(pot=0, amount_cents=rakes[0].amount_cents + 100)
        less = PotPushed(pot=0, seat=main[0].seat, amount_cents=main[0].amount_cents - 100)
        return [more if e == rakes[0] else less if e == main[0] else e for e in events]
    contributions = [e for e in events if isinstance(e, BadBeatContributed)]
    main = [e for e in pushes if e.pot == 0]
    if len(contributions) != 1 or not main:  # the hand's only one: missed, not short
        return None
    amount = contributions[0].amount_cents
    more = PotPushed(pot=0, seat=main[0].seat, amount_cents=main[0].amount_cents + amount)
    return [more if e == main[0] else e for e in events if e != contributions[0]]


def post_fund_rules(fund_id: str, effective: datetime.date, actor: Actor, supervisor: str) -> None:
    """The fund's posted rules, the rule set's, once (§ 553.20(b))."""
    stream = f"{BAD_BEAT_STREAM_KIND}:{fund_id}"
    if read_stream(stream):
        return
    rules = POKER_RULESETS["PA-553-HOLDEM-NL-1-2-BB"].bad_beat
    assert rules is not None and rules.qualifying_hand is not None
    payload = {
        "effective_from": effective.isoformat(), "rate": str(rules.rate),
        "maximum_cents": rules.maximum_cents, "unit_cents": rules.unit_cents,
        "minimum_pot_cents": rules.minimum_pot_cents, "qualifying_hand": "Ah Ac Ad Kh Kc",
        "payout_share": str(rules.payout_share), "losing_share": str(rules.losing_share),
        "winning_share": str(rules.winning_share), "table_share": str(rules.table_share),
        "tables": ["PK-HE-01"], "posted_by": supervisor,
    }  # fmt: skip
    append(stream, [NewEvent(RULES_POSTED, payload)], expected_version=0, actor=actor)


def play_poker_day(day: datetime.date, *, hands_per_table: int, seed: int, supervisor: str,
                   planted: tuple[str, ...] = PLANTED) -> PokerDay:  # fmt: skip
    """Record a day of hands at the four tables, the planted errors in the first hands
    that can carry them; ``supervisor`` posted the Bad Beat fund's rules."""
    actor = Actor.system("simulator", source="simulator")
    post_fund_rules("BB-HOLDEM", datetime.date(2016, 1, 1), actor, supervisor)
    rng = random.Random(seed)
    summary = PokerDay()
    waiting = list(planted)
    for table_id, ruleset_id, fund in POKER_TABLES:
        for number in range(1, hands_per_table + 1):
            hand_id = f"{table_id}-{day:%Y%m%d}-{number:04d}"
            opened = HandOpened(
                hand_id=hand_id, table_id=table_id, gaming_day=day, ruleset_id=ruleset_id,
                seats=(1, 2), players=("a", "b"), stacks_cents=(0, 0), bad_beat_fund=fund,
            )  # fmt: skip
            rules = hand_rules(opened)
            hand = random_hand(rules, rng, hand_id=hand_id, table_id=table_id, gaming_day=day,
                               ruleset_id=ruleset_id, bad_beat_fund=fund)  # fmt: skip
            events = hand.settled()
            for error in list(waiting):
                changed = plant(events, hand.settlement(), error)
                if changed is not None:
                    events = changed
                    waiting.remove(error)
                    summary.planted[error] = f"poker-hand:{hand_id}"
                    break
            append(f"poker-hand:{hand_id}", [NewEvent(e.TYPE, e.to_payload()) for e in events],
                   expected_version=0, actor=actor)  # fmt: skip
            summary.hands += 1
            summary.events += len(events)
    return summary


def replay_poker_day(day: datetime.date) -> dict[str, tuple[PokerFinding, ...]]:
    """Every hand of ``day`` replayed from the ledger; the findings of those that have any."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT stream_id FROM ledger_event WHERE event_type = 'poker.hand_opened' "
            "AND payload ->> 'gaming_day' = %s ORDER BY position", [day.isoformat()],
        )  # fmt: skip
        streams = [row[0] for row in cursor.fetchall()]
    found = {}
    for stream in streams:
        events = [to_poker_event(e.event_type, e.payload) for e in read_stream(stream)
                  if e.event_type.startswith("poker.")]  # fmt: skip
        opened = events[0]
        assert isinstance(opened, HandOpened)
        result = replay_hand(events, hand_rules(opened))
        if result.findings:
            found[stream] = result.findings
    return found


def count_fund(fund_id: str, day: datetime.date, *, dealer: str, floorperson: str,
               short_cents: int = 0) -> int:  # fmt: skip
    """Record the fund's box count of ``day`` at a closed table (§ 553.20(d)(1)): the hands'
    contributions less ``short_cents``; returns the amount counted."""
    amount = contributions_cents(fund_id, day) - short_cents
    payload = {"gaming_day": day.isoformat(), "amount_cents": amount, "location": "table",
               "counted_by": dealer, "witnessed_by": floorperson}  # fmt: skip
    append(f"{BAD_BEAT_STREAM_KIND}:{fund_id}", [NewEvent(COUNTED, payload)],
           expected_version=None, actor=Actor.system("simulator", source="simulator"))  # fmt: skip
    return amount


def adjust_display(fund_id: str, day: datetime.date, *, finance: str, floorperson: str) -> int:
    """Finance sets the fund's display to the fund's balance, a floorperson present
    (§ 553.20(h)(1)); returns the amount displayed."""
    (today,) = fund_history(fund_id, day, day)
    payload = {"gaming_day": day.isoformat(), "finance_cents": today.closing_cents,
               "displayed_cents": today.closing_cents, "adjusted_by": finance,
               "witnessed_by": floorperson}  # fmt: skip
    append(f"{BAD_BEAT_STREAM_KIND}:{fund_id}", [NewEvent(DISPLAY_ADJUSTED, payload)],
           expected_version=None, actor=Actor.system("simulator", source="simulator"))  # fmt: skip
    return int(today.closing_cents)


def charge_time(table_id: str, day: datetime.date, start: datetime.datetime, *, periods: int,
                seats: tuple[int, ...], dealer: str, floorperson: str,
                ruleset_id: str = "PA-553-TIME-TABLE-20", limits: tuple[int, int] = (500, 1_000),
                ) -> int:  # fmt: skip
    """Record ``periods`` time charges at ``table_id`` from ``start``, each as the posted
    schedule requires and verified by ``floorperson`` (§ 553.15(b)(3)); returns the cents."""
    from tables.rules.poker_room.rulesets import time_charge_ruleset
    from tables.time_charges import ASSESSED, VERIFIED, time_charge_stream_id

    rules = time_charge_ruleset(ruleset_id)
    charge = rules.charge(*limits)
    assert charge is not None, f"{ruleset_id} posts no fee for {limits}"
    events = []
    for period in range(periods):
        moment = (start + period * datetime.timedelta(minutes=rules.period_minutes)).isoformat()
        amount = charge.due_cents(seated=len(seats))
        events += [NewEvent(ASSESSED, {"ruleset_id": ruleset_id, "period_start": moment,
                                       "min_wager_cents": limits[0], "max_wager_cents": limits[1],
                                       "seats": list(seats), "amount_cents": amount,
                                       "dealer": dealer}),
                   NewEvent(VERIFIED, {"period_start": moment, "amount_cents": amount,
                                       "verified_by": floorperson})]  # fmt: skip
    append(time_charge_stream_id(table_id, day), events, expected_version=None,
           actor=Actor.system("simulator", source="simulator"))  # fmt: skip
    return sum(e.payload["amount_cents"] for e in events if e.event_type == ASSESSED)
