"""Rounds and findings in the admin: read models, read-only, with the cards drawn."""

from __future__ import annotations

from django.contrib import admin
from django.utils.html import format_html, format_html_join
from simple_history.admin import SimpleHistoryAdmin

from audit.admin import ReadOnlyAdmin
from tables.cards_svg import layout_html
from tables.models import ComplianceFinding, Deck, Finding, Round, Slip, Table, TableDay
from tables.rounds import SERVICE as ROUND_STATES


def _money(cents: int) -> str:
    return f"${cents / 100:,.2f}"


class FindingInline(admin.TabularInline):
    model = Finding
    fields = ["kind", "seat", "wager", "expected", "recorded", "section", "detail"]
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    @admin.display(description="required")
    def expected(self, obj: Finding) -> str:
        return _money(obj.expected_cents)

    @admin.display(description="recorded")
    def recorded(self, obj: Finding) -> str:
        return _money(obj.recorded_cents)


@admin.register(Round)
class RoundAdmin(ReadOnlyAdmin):
    list_display = [
        "round_id",
        "table_id",
        "gaming_day",
        "ruleset_id",
        "status",
        "seats",
        "wagered",
        "finding_count",
    ]
    list_filter = ["gaming_day", "ruleset_id", "status", "game", "table_id"]
    search_fields = ["round_id", "table_id"]
    show_full_result_count = False
    inlines = [FindingInline]
    fields = [
        "table_view",
        "settlement_view",
        "round_id",
        "table_id",
        "gaming_day",
        "game",
        "ruleset_id",
        "status",
        "options_applied",
        "computed_at_position",
    ]
    readonly_fields = fields

    @admin.display(description="wagered", ordering="wagered_cents")
    def wagered(self, obj: Round) -> str:
        return _money(obj.wagered_cents)

    def _round(self, obj: Round):
        # The rounds service holds the round at its head (or replays it once);
        # its entries are values, so a round that moved on is never shown stale.
        return ROUND_STATES.current(obj.stream_id)

    @admin.display(description="the table")
    def table_view(self, obj: Round) -> str:
        """The game's own layout (its declaration): the community spots (the
        cross for the games of the cross), the dealer's spots, each seat's."""
        entry = self._round(obj)
        if entry.state is None:
            return "not replayable"
        return layout_html(obj.game, entry.events)

    @admin.display(description="required settlement vs recorded")
    def settlement_view(self, obj: Round) -> str:
        entry = self._round(obj)
        if entry.state is None:
            return str(entry.violation)
        recorded = _dealer_actions(entry.events)
        rows = []
        for line in entry.settlement.lines:
            done = recorded.get((line.seat, str(line.wager)), {})
            actions = [
                f"{kind} {_money(sum(amounts))}"
                + (f" ({' + '.join(_money(a) for a in amounts)})" if len(amounts) > 1 else "")
                for kind, amounts in done.items()
            ]
            rows.append(
                (
                    line.seat,
                    str(line.wager),
                    line.hand or "",
                    line.outcome.value,
                    _money(line.amount_cents),
                    ", ".join(actions) or "nothing",
                    line.section,
                )
            )
        body = format_html_join(
            "",
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>"
            "<td>{}</td><td>§ {}</td></tr>",
            rows,
        )
        return format_html(
            "<table><thead><tr><th>seat</th><th>wager</th><th>hand</th><th>outcome</th>"
            "<th>required</th><th>dealer did</th><th>section</th></tr></thead>"
            "<tbody>{}</tbody></table>",
            body,
        )


def _dealer_actions(events) -> dict[tuple[int, str], dict[str, list[int]]]:
    """What the dealer paid, collected and returned on each (seat, wager), one
    amount per event in the order recorded. The viewer shows their sums, as the
    findings judge them (``tables.rules.replay.findings_for`` adds up repeated
    events), with the parts when there are several."""
    from tables.rules.events import DealerCollected, DealerPaid, WagerReturned

    kinds = {DealerPaid: "paid", DealerCollected: "collected", WagerReturned: "returned"}
    recorded: dict[tuple[int, str], dict[str, list[int]]] = {}
    for event in events:
        kind = kinds.get(type(event))
        if kind is not None:
            by_kind = recorded.setdefault((event.seat, str(event.wager)), {})
            by_kind.setdefault(kind, []).append(event.amount_cents)
    return recorded


@admin.register(Finding)
class FindingAdmin(ReadOnlyAdmin):
    list_display = [
        "round_link",
        "table_id",
        "gaming_day",
        "kind",
        "seat",
        "wager",
        "required",
        "recorded",
        "section",
    ]
    list_filter = ["gaming_day", "kind", "table_id", "section"]
    list_select_related = ["round"]
    show_full_result_count = False

    @admin.display(description="round")
    def round_link(self, obj: Finding) -> str:
        return format_html('<a href="../round/{}/change/">{}</a>', obj.round_id, obj.round.round_id)

    @admin.display(description="required")
    def required(self, obj: Finding) -> str:
        return _money(obj.expected_cents)

    @admin.display(description="recorded")
    def recorded(self, obj: Finding) -> str:
        return _money(obj.recorded_cents)


@admin.register(Table)
class TableAdmin(SimpleHistoryAdmin):
    """Table configuration; every change is kept (History button)."""

    list_display = ["table_id", "pit", "game", "ruleset_id", "min_wager", "max_wager",
                    "positions", "dealing_method", "shuffler", "status"]  # fmt: skip
    list_filter = ["pit", "game", "ruleset_id", "status"]
    search_fields = ["table_id"]

    @admin.display(description="min", ordering="min_wager_cents")
    def min_wager(self, obj: Table) -> str:
        return _money(obj.min_wager_cents)

    @admin.display(description="max", ordering="max_wager_cents")
    def max_wager(self, obj: Table) -> str:
        return _money(obj.max_wager_cents)


@admin.register(TableDay)
class TableDayAdmin(ReadOnlyAdmin):
    list_display = ["table_id", "gaming_day", "status", "dealer", "fills_cents", "credits_cents",
                    "buy_ins_cents"]  # fmt: skip
    list_filter = ["gaming_day", "status", "table_id"]


@admin.register(Slip)
class SlipAdmin(ReadOnlyAdmin):
    list_display = ["__str__", "table_id", "gaming_day", "amount_cents", "status", "requested_by",
                    "approved_by"]  # fmt: skip
    list_filter = ["kind", "status", "gaming_day", "table_id"]


@admin.register(Deck)
class DeckAdmin(ReadOnlyAdmin):
    list_display = ["deck_id", "table_id", "status", "in_use_since", "inspected_by",
                    "verified_by"]  # fmt: skip
    list_filter = ["status", "table_id"]


@admin.register(ComplianceFinding)
class ComplianceFindingAdmin(ReadOnlyAdmin):
    list_display = ["kind", "table_id", "deck_id", "gaming_day", "section", "raised_at",
                    "acknowledged_by"]  # fmt: skip
    list_filter = ["kind", "gaming_day", "table_id"]
