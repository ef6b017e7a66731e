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
from django.db.models import Count, Q
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils import timezone

from audit.ledger import versions_at
from casino.models import current_gaming_day
from tables.models import (
    ComplianceFinding,
    Deck,
    DeckStatus,
    Finding,
    Round,
    Slip,
    Table,
    TableDay,
    TableStatus,
)


def board_state(now: datetime.datetime) -> dict[str, Any]:
    """Every active table as a tile: what the floor board shows."""
    day = current_gaming_day(now)
    tables = list(Table.objects.filter(status=TableStatus.ACTIVE))
    days = {d.table_id: d for d in TableDay.objects.filter(gaming_day=day)}
    rounds = dict(Round.objects.filter(gaming_day=day).values("table_id")
                  .annotate(n=Count("pk")).values_list("table_id", "n"))  # fmt: skip
    findings = dict(Finding.objects.filter(gaming_day=day).values("table_id")
                    .annotate(n=Count("pk")).values_list("table_id", "n"))  # fmt: skip
    compliance = dict(
        ComplianceFinding.objects.filter(acknowledged_at__isnull=True)
        .filter(Q(gaming_day=day) | Q(kind__in=["deck_overdue", "stub_count_missing"]))
        .values("table_id")
        .annotate(n=Count("pk"))
        .values_list("table_id", "n")
    )
    decks: dict[str, list[Deck]] = {}
    for deck in Deck.objects.filter(status=DeckStatus.IN_USE).order_by("in_use_since"):
        decks.setdefault(deck.table_id, []).append(deck)
    tiles = []
    for table in tables:
        table_day = days.get(table.table_id)
        interval = table.deck_change_interval()
        tile_decks = []
        for deck in decks.get(table.table_id, []):
            due_at = deck.in_use_since + interval if interval and deck.in_use_since else None
            tile_decks.append(
                {
                    "deck_id": deck.deck_id,
                    "in_use_since": deck.in_use_since.isoformat() if deck.in_use_since else None,
                    "due_at": due_at.isoformat() if due_at else None,
                    "seconds_left": int((due_at - now).total_seconds()) if due_at else None,
                    "section": table.deck_change_section() if interval else "",
                }
            )
        tiles.append(
            {
                "table_id": table.table_id,
                "pit": table.pit,
                "game": table.get_game_display(),
                "ruleset_id": table.ruleset_id,
                "status": table_day.status if table_day else "not opened",
                "dealer": table_day.dealer if table_day else "",
                "rounds_today": rounds.get(table.table_id, 0),
                "findings_today": findings.get(table.table_id, 0),
                "open_compliance": compliance.get(table.table_id, 0),
                "decks": tile_decks,
                "day_url": f"/admin/floor/{table.table_id}/{day.isoformat()}/",
            }
        )
    return {"gaming_day": day.isoformat(), "now": now.isoformat(), "tables": tiles}


@staff_member_required
def floor_board(request: HttpRequest) -> HttpResponse:
    state = board_state(timezone.now())
    context = {**admin.site.each_context(request), "title": "Floor board", "state": state,
               "lead_seconds": 30 * 60}  # fmt: skip
    return render(request, "tables/floor_board.html", context)


@staff_member_required
def floor_board_data(request: HttpRequest) -> JsonResponse:
    return JsonResponse(board_state(timezone.now()))


@staff_member_required
def table_day(request: HttpRequest, table_id: str, day: str) -> HttpResponse:
    try:
        gaming_day = datetime.date.fromisoformat(day)
        table = Table.objects.get(table_id=table_id)
    except (ValueError, Table.DoesNotExist):
        raise Http404(f"no table {table_id} or no gaming day {day}") from None
    context = {
        **admin.site.each_context(request),
        "title": f"{table.table_id} — {gaming_day:%A %d %B %Y}",
        "table": table,
        "gaming_day": gaming_day,
        "table_day": TableDay.objects.filter(table_id=table_id, gaming_day=gaming_day).first(),
        "slips": _with_versions(
            Slip.objects.filter(table_id=table_id, gaming_day=gaming_day).order_by("number")
        ),
        "rounds": Round.objects.filter(table_id=table_id, gaming_day=gaming_day).order_by(
            "opened_at"
        ),
        "findings": Finding.objects.filter(table_id=table_id, gaming_day=gaming_day).select_related(
            "round"
        ),
        "compliance": _with_versions(
            ComplianceFinding.objects.filter(table_id=table_id, gaming_day=gaming_day)
        ),
        "decks": _with_versions(
            Deck.objects.filter(table_id=table_id).order_by("-received_at")[:10]
        ),
    }
    return render(request, "tables/table_day.html", context)


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
