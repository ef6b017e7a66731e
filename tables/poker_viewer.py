"""The round viewer of a poker hand (§ 553): the board and each player's cards drawn as
cards, the pots and side pots with who won them beside what the dealer pushed, the rake
and the Bad Beat contribution required beside those taken, and the replay's findings.

A hand has no read model: the page replays its stream (a few dozen events) under the
rules in force on its day (``tables.poker_hands.verify_hand``), as the close does.
Who may read the ``poker-hand`` stream (``tables.read_scope``) may see the page.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.contrib.admin.views.decorators import staff_member_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.html import format_html_join

from audit.ledger import read_stream
from tables.cards_svg import card_svg
from tables.formatting import dollars
from tables.poker_hands import POKER_HAND_STREAM_KIND, verify_hand
from tables.read_scope import may_read
from tables.rules.poker_room.events import (
    BadBeatContributed,
    BetReturned,
    CardDealt,
    Discarded,
    HandOpened,
    Mucked,
    PotPushed,
    RakeTaken,
    Shown,
)
from tables.rules.poker_room.replay import HandReplay
from tables.rules.poker_room.settlement import LineKind


def cards_html(cards: list[str]) -> str:
    return format_html_join("", "{}", ((card_svg(card),) for card in cards))


@dataclass
class SeatView:
    seat: int
    player: str
    stack: str
    cards: str
    status: str


@dataclass
class PotView:
    number: int
    label: str
    amount: str
    eligible: str
    required: list[str] = field(default_factory=list)
    pushed: list[str] = field(default_factory=list)
    rake_required: str = ""
    rake_taken: str = ""
    bad_beat_required: str = ""
    bad_beat_taken: str = ""
    wrong: bool = False


def _seats(opened: HandOpened, events: tuple[Any, ...], replay: HandReplay) -> list[SeatView]:
    dealt: dict[int, list[str]] = {seat: [] for seat in opened.seats}
    status = dict.fromkeys(opened.seats, "")
    for event in events:
        if isinstance(event, CardDealt) and event.seat is not None:
            dealt[event.seat].append(str(event.card))
        elif isinstance(event, Discarded):
            for card in event.cards:
                dealt[event.seat].remove(str(card))
        elif isinstance(event, Shown):
            status[event.seat] = "shown"
        elif isinstance(event, Mucked):
            status[event.seat] = "mucked"
    state = replay.state
    folded = getattr(state, "folded", frozenset()) if state is not None else frozenset()
    for seat in folded:
        status[seat] = "folded"
    return [SeatView(seat, player, dollars(stack), cards_html(dealt[seat]), status[seat])
            for seat, player, stack in zip(opened.seats, opened.players, opened.stacks_cents,
                                           strict=True)]  # fmt: skip


def _pots(events: tuple[Any, ...], replay: HandReplay) -> list[PotView]:
    settlement = replay.settlement
    count = len(settlement.pots) if settlement else 0
    count = max([count, *(e.pot + 1 for e in events if isinstance(e, PotPushed | RakeTaken
                                                                    | BadBeatContributed))])
    wrong = {f.pot for f in replay.findings if f.pot is not None}
    views = []
    for number in range(count):
        pot = settlement.pots[number] if settlement and number < len(settlement.pots) else None
        lines = [line for line in settlement.lines if line.pot == number] if settlement else []

        def required(kind: LineKind, lines: list[Any] = lines) -> int:
            return sum(line.amount_cents for line in lines if line.kind is kind)

        def taken(cls: type, number: int = number) -> int:
            return sum(e.amount_cents for e in events if isinstance(e, cls) and e.pot == number)

        views.append(PotView(
            number=number, label="main pot" if number == 0 else f"side pot {number}",
            amount=dollars(pot.amount_cents) if pot else "—",
            eligible=", ".join(f"seat {s}" for s in pot.eligible) if pot else "—",
            required=[f"seat {line.seat} ({line.kind}) {dollars(line.amount_cents)} "
                      f"§ {line.section}" for line in lines
                      if line.kind in (LineKind.HIGH, LineKind.LOW, LineKind.UNCONTESTED)],
            pushed=[f"seat {e.seat} {dollars(e.amount_cents)}" for e in events
                    if isinstance(e, PotPushed) and e.pot == number],
            rake_required=dollars(required(LineKind.RAKE)), rake_taken=dollars(taken(RakeTaken)),
            bad_beat_required=dollars(required(LineKind.BAD_BEAT)),
            bad_beat_taken=dollars(taken(BadBeatContributed)), wrong=number in wrong,
        ))  # fmt: skip
    return views


def hand_context(stream_id: str) -> dict[str, Any] | None:
    """What the page shows of the hand on ``stream_id``; None if there is no such hand."""
    recorded = read_stream(stream_id)
    if not recorded:
        return None
    replay = verify_hand(recorded)
    if replay is None:
        return {"refused": "its Bad Beat fund had no rules in force on its day (§ 553.20(b))"}
    opened = replay.events[0]
    assert isinstance(opened, HandOpened)
    board = [str(e.card) for e in replay.events if isinstance(e, CardDealt) and e.seat is None]
    returned = [f"seat {e.seat} {dollars(e.amount_cents)}" for e in replay.events
                if isinstance(e, BetReturned)]  # fmt: skip
    bad_beat = replay.settlement.bad_beat if replay.settlement else None
    return {
        "opened": opened, "board": cards_html(board) if board else "",
        "seats": _seats(opened, replay.events, replay), "pots": _pots(replay.events, replay),
        "returned": returned, "findings": replay.findings, "complete": replay.complete,
        "bad_beat": bad_beat, "events": len(recorded),
        "rake_required": dollars(replay.settlement.total(LineKind.RAKE))
        if replay.settlement else "—",
        "rake_taken": dollars(sum(e.amount_cents for e in replay.events
                                  if isinstance(e, RakeTaken))),
        "bad_beat_required": dollars(replay.settlement.total(LineKind.BAD_BEAT))
        if replay.settlement else "—",
        "bad_beat_taken": dollars(sum(e.amount_cents for e in replay.events
                                      if isinstance(e, BadBeatContributed))),
    }  # fmt: skip


@staff_member_required
def poker_hand(request: HttpRequest, hand_id: str) -> HttpResponse:
    from django.contrib import admin

    stream_id = f"{POKER_HAND_STREAM_KIND}:{hand_id}"
    context = {**admin.site.each_context(request), "title": f"Poker hand {hand_id}",
               "stream_id": stream_id}  # fmt: skip
    if not may_read(request.user, None, stream_id):
        return render(request, "tables/poker_hand.html",
                      {**context, "error": "your role does not read poker hands"}, status=403)
    shown = hand_context(stream_id)
    if shown is None:
        return render(request, "tables/poker_hand.html",
                      {**context, "error": f"no hand {hand_id} in the ledger"}, status=404)
    return render(request, "tables/poker_hand.html", {**context, **shown})
