"""The floor supervisor's pages: the floor board and a table's day.

Views only gather read models; every rule lives in the engine, the stream
policies or the models.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from typing import Any, TypeVar

from django.contrib import admin
from django.contrib.admin.views.decorators import staff_member_required
from django.db.models import Count, OuterRef, Q, Subquery
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils import timezone

from audit.ledger import read_stream, versions_at
from casino.models import current_gaming_day
from tables.actions import actions_allowed
from tables.compliance import STANDING_KINDS
from tables.drift import notice
from tables.formatting import cite, dollars, people
from tables.models import (
    UNRESOLVED,
    ComplianceFinding,
    Deck,
    DeckStatus,
    DiceSet,
    DiceStatus,
    Finding,
    FindingReview,
    ReviewStatus,
    Round,
    Slip,
    SlipStatus,
    Table,
    TableDay,
    TableStatus,
)
from tables.reviews import finding_stream_id


def round_findings(**filters: Any):
    """Round findings with ``review_status`` (their review stream's status, or
    None while nobody has acknowledged them) and ``review_stream``."""
    reviews = FindingReview.objects.filter(round_stream=OuterRef("round_id"),
                                           seat=OuterRef("seat"), wager=OuterRef("wager"),
                                           kind=OuterRef("kind"))  # fmt: skip
    return Finding.objects.filter(**filters).annotate(
        review_status=Subquery(reviews.values("status")[:1])
    )


def _open_findings(day: datetime.date) -> dict[str, dict[str, int]]:
    """Per table, the findings still to be worked: ``open`` (nobody has
    acknowledged them) and ``acknowledged`` (being worked). Resolved and
    accepted ones are done and not counted."""
    counts: dict[str, dict[str, int]] = {}
    statuses = round_findings(gaming_day=day).values_list("table_id", "review_status")
    for table_id, status in statuses:
        status = status or ReviewStatus.OPEN
        if status in UNRESOLVED:
            by_status = counts.setdefault(table_id, {"open": 0, "acknowledged": 0})
            by_status[str(status)] += 1
    compliance = (
        ComplianceFinding.objects.filter(status__in=UNRESOLVED)
        .filter(Q(gaming_day=day) | Q(kind__in=STANDING_KINDS))
        .values_list("table_id", "status")
    )
    for table_id, status in compliance:
        counts.setdefault(table_id, {"open": 0, "acknowledged": 0})[str(status)] += 1
    return counts


def _pending(day: datetime.date, tables: Iterable[str]) -> dict[str, list[dict[str, Any]]]:
    """What waits for a second person, per table: requested fills and credits
    (with the version the board shows, which its button posts), decks
    inspected and not verified, drop counts not verified."""
    from tables.count import count_state, count_stream_id

    pending: dict[str, list[dict[str, Any]]] = {}
    slips = _with_versions(Slip.objects.filter(status=SlipStatus.REQUESTED, gaming_day=day)
                           .order_by("year", "number"))  # fmt: skip
    for slip in slips:
        number = f"{slip.year}-{slip.number:06d}"
        pending.setdefault(slip.table_id, []).append({
            "what": slip.kind, "action": "approve-slip", "stream_id": slip.stream_id,
            "version": slip.version, "label": f"{slip.get_kind_display().capitalize()} {number}",
            "amount_cents": slip.amount_cents, "amount": dollars(slip.amount_cents),
            "by": slip.requested_by,
            "confirm": f"Approve {slip.kind} {number} of {dollars(slip.amount_cents)} "
                       f"for {slip.table_id}?"})  # fmt: skip
    for deck in _with_versions(Deck.objects.filter(status=DeckStatus.INSPECTED)):
        pending.setdefault(deck.table_id, []).append({
            "what": "deck", "action": "verify-deck", "stream_id": deck.stream_id,
            "version": deck.version, "label": f"Deck {deck.deck_id} inspection",
            "amount_cents": None, "amount": "", "by": deck.inspected_by,
            "confirm": ""})  # fmt: skip
    for table_id in tables:
        for counted_day in (day - datetime.timedelta(days=1), day):
            latest = count_state(read_stream(count_stream_id(table_id, counted_day))).latest
            if latest is not None and not latest.verified_by:
                pending.setdefault(table_id, []).append({
                    "what": "count", "action": "", "stream_id": "", "version": None,
                    "label": f"Drop count of {counted_day.isoformat()} to verify",
                    "amount_cents": latest.drop_cents, "amount": dollars(latest.drop_cents),
                    "by": latest.counted_by, "confirm": ""})  # fmt: skip
    return pending


def board_state(now: datetime.datetime, user: Any = None) -> dict[str, Any]:
    """Every active table as a tile, by pit: what the floor board shows, and
    which of its buttons ``user`` may press."""
    day = current_gaming_day(now)
    from tables.configuration import configured

    # Rule sets, limits and intervals in force now, from the ledger (issue 21).
    tables = [t for t in configured(Table.objects.all(), now) if t.status == TableStatus.ACTIVE]
    days = {d.table_id: d for d in TableDay.objects.filter(gaming_day=day)}
    rounds = dict(Round.objects.filter(gaming_day=day).values("table_id")
                  .annotate(n=Count("pk")).values_list("table_id", "n"))  # fmt: skip
    findings = _open_findings(day)
    pending = _pending(day, [t.table_id for t in tables])
    decks: dict[str, list[Deck]] = {}
    for deck in Deck.objects.filter(status=DeckStatus.IN_USE).order_by("in_use_since"):
        decks.setdefault(deck.table_id, []).append(deck)
    dice: dict[str, list[DiceSet]] = {}
    for dice_set in DiceSet.objects.filter(status=DiceStatus.IN_SHAKER).order_by("in_shaker_since"):
        dice.setdefault(dice_set.table_id, []).append(dice_set)
    live = _live_figures(day)
    from tables.floor_duties import board_duties

    duties = board_duties(day, tables, now)  # the reader, the floorperson (issue 19)
    names = people([*(d.dealer for d in days.values()),
                    *(d["floorperson"] for d in duties.values()),
                    *(d["reader"]["inspected_by"] for d in duties.values() if d["reader"])])
    for duty in duties.values():
        if duty["reader"]:
            duty["reader"]["inspected_by"] = names.get(duty["reader"]["inspected_by"], "")
    tiles = []
    for table in tables:
        table_day = days.get(table.table_id)
        interval = table.deck_change_interval()
        tile_decks = []
        for deck in decks.get(table.table_id, []):
            due_at = deck.in_use_since + interval if interval and deck.in_use_since else None
            tile_decks.append(
                {
                    "kind": "deck",
                    "label": f"Deck {deck.deck_id}",
                    "deck_id": deck.deck_id,
                    "in_use_since": deck.in_use_since.isoformat() if deck.in_use_since else None,
                    "due_at": due_at.isoformat() if due_at else None,
                    "seconds_left": int((due_at - now).total_seconds()) if due_at else None,
                    "section": cite(table.deck_change_section()) if interval else "",
                }
            )
        tile_decks += _dice_tiles(table, dice.get(table.table_id, []), now)
        open_findings = findings.get(table.table_id, {"open": 0, "acknowledged": 0})
        tiles.append(
            {
                "table_id": table.table_id,
                "pit": table.pit,
                "game": table.get_game_display(),
                "ruleset_id": table.ruleset_id,
                "limits": f"{dollars(table.min_wager_cents)}–{dollars(table.max_wager_cents)}",
                "status": table_day.status if table_day else "not opened",
                "dealer": names.get(table_day.dealer, "") if table_day else "",
                "floorperson": names.get(duties[table.table_id]["floorperson"], ""),
                "reader": duties[table.table_id]["reader"],
                "span": duties[table.table_id]["span"],
                "rounds_today": rounds.get(table.table_id, 0),
                "findings_open": open_findings["open"],
                "findings_acknowledged": open_findings["acknowledged"],
                "pending": pending.get(table.table_id, []),
                "decks": tile_decks,
                "day_url": f"/admin/floor/{table.table_id}/{day.isoformat()}/",
                "live": live["tables"].get(table.table_id, NOTHING_YET),
            }
        )
    return {"gaming_day": day.isoformat(), "now": now.isoformat(), "tables": tiles,
            "pits": live["pits"], "total": live["total"],
            "can": actions_allowed(user) if user is not None else {}}  # fmt: skip


#: A table with no play yet today.
NOTHING_YET = {"drop": "$0.00", "win": "$0.00", "hold": "—", "drop_source": "",
               "win_source": "", "rounds": 0}  # fmt: skip


def _live_figures(day: datetime.date) -> dict[str, Any]:
    """Today's drop, win and hold so far per table, per pit and for the floor
    (``tables.live``, not closed; the theoretical win is finance's page's)."""
    from tables.finance import by_pit, total
    from tables.live import live_lines

    def shown(line: Any) -> dict[str, Any]:
        return {"drop": dollars(line.drop_cents), "win": dollars(line.win_cents),
                "hold": line.hold_percent, "negative": line.win_cents < 0,
                "drop_source": getattr(line, "drop_source", ""),
                "win_source": getattr(line, "win_source", ""), "rounds": line.rounds,
                "label": line.label, "pit": line.pit}  # fmt: skip

    lines = live_lines(day, theoretical=False)
    return {"tables": {line.table_id: shown(line) for line in lines},
            "pits": [shown(line) for line in by_pit(lines)],
            "total": shown(total("Floor so far", lines))}  # fmt: skip


def _dice_tiles(table: Table, sets: list[DiceSet], now: datetime.datetime) -> list[dict]:
    """Dice in the shaker, beside the decks in the same column: the time left
    before they may no longer remain on the table (§ 585.3(b)(1), § 593.3(b)(1))."""
    interval = table.dice_change_interval()
    tiles = []
    for dice_set in sets:
        due_at = dice_set.in_shaker_since + interval if interval else None
        tiles.append({
            "kind": "dice", "label": f"Dice {dice_set.dice_id}", "deck_id": dice_set.dice_id,
            "in_use_since": dice_set.in_shaker_since.isoformat(),
            "due_at": due_at.isoformat() if due_at else None,
            "seconds_left": int((due_at - now).total_seconds()) if due_at else None,
            "section": cite(table.dice_change_section()) if interval else "",
        })  # fmt: skip
    return tiles


@staff_member_required
def floor_board(request: HttpRequest) -> HttpResponse:
    state = board_state(timezone.now(), request.user)
    from tables.finance import may_see_finance, open_variance_count

    finance = may_see_finance(request.user)
    context = {**admin.site.each_context(request), "title": "Floor board", "state": state,
               "lead_seconds": 30 * 60, "may_see_finance": finance,
               "open_variances": open_variance_count() if finance else None,
               "drift": notice()}  # fmt: skip
    return render(request, "tables/floor_board.html", context)


@staff_member_required
def floor_board_data(request: HttpRequest) -> JsonResponse:
    return JsonResponse(board_state(timezone.now(), request.user))


@staff_member_required
def table_day(request: HttpRequest, table_id: str, day: str) -> HttpResponse:
    try:
        gaming_day = datetime.date.fromisoformat(day)
        table = Table.objects.get(table_id=table_id)
    except (ValueError, Table.DoesNotExist):
        raise Http404(f"no table {table_id} or no gaming day {day}") from None
    table_day_row = TableDay.objects.filter(table_id=table_id, gaming_day=gaming_day).first()
    context = {
        **admin.site.each_context(request),
        "title": f"{table.table_id} — {gaming_day:%A %d %B %Y}",
        "table": table,
        "gaming_day": gaming_day,
        "table_day": table_day_row,
        "inventories": [("Opener", getattr(table_day_row, "opener_inventory", None)),
                        ("Closer", getattr(table_day_row, "closer_inventory", None))],
        "slips": _with_versions(
            Slip.objects.filter(table_id=table_id, gaming_day=gaming_day).order_by("number")
        ),
        "rounds": Round.objects.filter(table_id=table_id, gaming_day=gaming_day).order_by(
            "opened_at"
        ),
        "findings": _with_reviews(
            round_findings(table_id=table_id, gaming_day=gaming_day).select_related("round")
        ),
        "can": actions_allowed(request.user),
        "compliance": _with_versions(
            ComplianceFinding.objects.filter(table_id=table_id, gaming_day=gaming_day)
        ),
        "decks": _with_versions(
            Deck.objects.filter(table_id=table_id).order_by("-received_at")[:10]
        ),
    }
    return render(request, "tables/table_day.html", context)


def _with_reviews(findings: Iterable[Finding]) -> list[Finding]:
    """Each round finding with its review (``review``, or None while open),
    its review stream and the version of it the page shows (0: none yet)."""
    listed = list(findings)
    streams = {f: finding_stream_id(f.round_id, f.seat, f.wager, f.kind) for f in listed}
    reviews = {r.stream_id: r for r in FindingReview.objects.filter(stream_id__in=streams.values())}
    versions = versions_at(r.computed_at_position for r in reviews.values())
    for finding in listed:
        finding.review_stream = streams[finding]
        finding.review = reviews.get(streams[finding])
        finding.status = finding.review.status if finding.review else ReviewStatus.OPEN
        finding.version = versions[finding.review.computed_at_position] if finding.review else 0
    return listed


_Row = TypeVar("_Row", Slip, Deck, ComplianceFinding)


def _with_versions(rows: Iterable[_Row]) -> list[_Row]:
    """Each row with ``version``: its stream's version as the row shows it
    (the event it was folded up to, not the stream's head now), which the
    page's buttons post back so that a change since is refused."""
    listed = list(rows)
    versions = versions_at(row.computed_at_position for row in listed)
    for row in listed:
        row.version = versions[row.computed_at_position]
    return listed
