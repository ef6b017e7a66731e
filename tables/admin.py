"""Rounds and findings in the admin: read models, read-only, with the cards drawn."""

from __future__ import annotations

from django.contrib import admin
from django.contrib.admin.utils import quote
from django.http import HttpResponseRedirect
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe

from audit.admin import HistoryAdmin, ReadOnlyAdmin
from audit.ledger import read_stream
from tables.admin_configuration import TableConfigurationAdmin
from tables.cards_svg import layout_html
from tables.formatting import cite, denominations, dollars, moment
from tables.models import (
    ComplianceFinding,
    DealerCertification,
    Deck,
    DiceSet,
    Finding,
    Round,
    Slip,
    Table,
    TableDay,
)
from tables.rounds import SERVICE as ROUND_STATES

_money = dollars


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
        "round_id",
        "table_day_link",
        "people",
        "game_name",
        "ruleset_name",
        "status",
        "options",
        "table_view",
        "settlement_view",
        "round_history",
    ]
    readonly_fields = fields

    @admin.display(description="table day")
    def table_day_link(self, obj: Round) -> str:
        url = reverse("table-day", args=[obj.table_id, obj.gaming_day.isoformat()])
        return format_html('<a href="{}">{} on {}</a>', url, obj.table_id,
                           obj.gaming_day.isoformat())  # fmt: skip

    @admin.display(description="dealer and floorperson")
    def people(self, obj: Round) -> str:
        dealer, floorperson = _people_at(obj)
        return format_html("dealer <strong>{}</strong> · floorperson <strong>{}</strong>",
                           dealer or "not recorded", floorperson or "not recorded")  # fmt: skip

    @admin.display(description="game")
    def game_name(self, obj: Round) -> str:
        from tables.rules.registry import game_name

        try:
            return game_name(obj.game)
        except KeyError:
            return obj.game

    @admin.display(description="rule set")
    def ruleset_name(self, obj: Round) -> str:
        from tables.rules.rulesets import get_ruleset

        try:
            chapter = getattr(get_ruleset(obj.ruleset_id), "chapter", "")
        except KeyError:
            chapter = ""
        return format_html("{} <small>({})</small>", chapter, obj.ruleset_id) if chapter \
            else obj.ruleset_id  # fmt: skip

    @admin.display(description="opening options applied")
    def options(self, obj: Round) -> str:
        if not obj.options_applied:
            return "none"
        return format_html_join(
            "", "<div>{}: <strong>{}</strong></div>",
            ((name.replace("_", " "), _option_value(value))
             for name, value in sorted(obj.options_applied.items())),
        )  # fmt: skip

    @admin.display(description="history: the round's events")
    def round_history(self, obj: Round) -> str:
        rows = [
            (event.version, event.event_type.removeprefix("round."), _observed(event),
             moment(event.occurred_at), event.metadata.get("actor") or "—",
             event.metadata.get("device") or "—", event.metadata.get("source") or "—",
             event.position)
            for event in read_stream(obj.stream_id)
        ]  # fmt: skip
        body = format_html_join(
            "", "<tr><td class=\"num\">{}</td><td>{}{}</td><td class=\"nowrap\">{}</td><td>{}</td>"
            "<td>{}</td><td>{}</td><td class=\"num\">{}</td></tr>", rows)  # fmt: skip
        return format_html(
            '<table id="round-history" class="round-history"><thead><tr><th>#</th><th>event</th>'
            "<th>occurred (casino time)</th><th>recorded by</th><th>device</th><th>via</th>"
            "<th>ledger position</th></tr></thead><tbody>{}</tbody></table>",
            body,
        )

    def history_view(self, request, object_id, extra_context=None):
        """A round's history is its events (on its page), not admin edits (there are none)."""
        url = reverse("admin:tables_round_change", args=[quote(object_id)])
        return HttpResponseRedirect(url + "#round-history")

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
        return layout_html(obj.game, entry.events, entry.state)

    @admin.display(description="required settlement vs recorded")
    def settlement_view(self, obj: Round) -> str:
        entry = self._round(obj)
        if entry.state is None:
            return str(entry.violation)
        recorded = _dealer_actions(entry.events)
        wrong = {(f.seat, str(f.wager)) for f in entry.findings}
        rows = []
        for line in entry.settlement.lines:
            done = recorded.get((line.seat, str(line.wager)), {})
            mispaid = (line.seat, str(line.wager)) in wrong
            actions = [
                f"{kind} {_money(sum(amounts))}"
                + (f" ({' + '.join(_money(a) for a in amounts)})" if len(amounts) > 1 else "")
                for kind, amounts in done.items()
            ]
            rows.append(
                (
                    ' class="mispaid"' if mispaid else "",
                    line.seat,
                    str(line.wager),
                    line.hand or "",
                    line.outcome.value,
                    _money(line.amount_cents),
                    ", ".join(actions) or "nothing",
                    cite(line.section),
                )
            )
        body = format_html_join(
            "",
            "<tr{}><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>"
            "<td>{}</td><td>{}</td></tr>",
            ((mark_safe(row[0]), *row[1:]) for row in rows),
        )
        return format_html(
            "<table><thead><tr><th>seat</th><th>wager</th><th>hand</th><th>outcome</th>"
            "<th>required</th><th>dealer did</th><th>section</th></tr></thead>"
            "<tbody>{}</tbody></table>",
            body,
        )


def _observed(event) -> str:
    """After an irregularity's type, what was reported (its kind, card and seat): the
    remedy replay applied follows from it."""
    if event.event_type != "round.irregularity":
        return ""
    payload = event.payload
    parts = (payload.get("kind"), payload.get("card"),
             f"seat {payload['seat']}" if payload.get("seat") else None)  # fmt: skip
    return format_html(' <small class="observed">{}</small>',
                       " ".join(str(part) for part in parts if part))


def _option_value(value) -> str:
    if isinstance(value, bool) or value is None:
        return {True: "yes", False: "no", None: "not set"}[value]
    return str(value).replace("_", " ").lower()


def _people_at(obj: Round) -> tuple[str, str]:
    """The dealer at the table when the round opened and the floorperson who
    opened the table's day, from the table's stream."""
    from tables.table_day import DEALER_ASSIGNED, DEALER_RELIEVED, OPENED, table_stream_id

    dealer = floorperson = ""
    for event in read_stream(table_stream_id(obj.table_id, obj.gaming_day)):
        if event.occurred_at > obj.opened_at:
            break
        if event.event_type == OPENED:
            dealer, floorperson = event.payload["dealer"], event.payload["floorperson"]
        elif event.event_type == DEALER_ASSIGNED:
            dealer = event.payload["dealer"]
        elif event.event_type == DEALER_RELIEVED and event.payload["dealer"] == dealer:
            dealer = ""
    return dealer, floorperson


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
        "citation",
    ]
    list_filter = ["gaming_day", "kind", "table_id", "section"]

    @admin.display(description="section", ordering="section")
    def citation(self, obj: Finding) -> str:
        return cite(obj.section)
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
class TableAdmin(TableConfigurationAdmin, HistoryAdmin):
    """Table configuration: a save is a change in the ledger (in force once a
    second person confirms it where required); the History button shows the
    changes as applied."""

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


def _dollars_column(field: str, label: str):
    @admin.display(description=label, ordering=field)
    def column(self, obj) -> str:
        return dollars(getattr(obj, field))

    return column


def _chips_column(field: str, label: str):
    """An inventory (``{"<cents>": count}``) as a small chip table."""

    @admin.display(description=label)
    def column(self, obj) -> str:
        rows = denominations(getattr(obj, field))
        if not rows:
            return "—"
        body = format_html_join("", '<tr><td class="num">{}</td><td class="num">× {}</td>'
                                '<td class="num">{}</td></tr>', rows)  # fmt: skip
        return format_html('<table class="chips">{}</table>', body)

    return column


@admin.register(TableDay)
class TableDayAdmin(ReadOnlyAdmin):
    list_display = ["table_id", "gaming_day", "status", "dealer", "opener", "buy_ins", "fills",
                    "credits", "closer"]  # fmt: skip
    list_filter = ["gaming_day", "status", "table_id"]
    fields = ["table_id", "gaming_day", "status", "opened_at", "closed_at", "dealer", "opener",
              "opener_chips", "buy_ins", "fills", "credits", "closer", "closer_chips",
              "drop_box"]  # fmt: skip
    readonly_fields = fields
    opener = _dollars_column("opener_cents", "opener")
    closer = _dollars_column("closer_cents", "closer")
    buy_ins = _dollars_column("buy_ins_cents", "buy-ins")
    fills = _dollars_column("fills_cents", "fills")
    credits = _dollars_column("credits_cents", "credits")
    opener_chips = _chips_column("opener_inventory", "opener inventory")
    closer_chips = _chips_column("closer_inventory", "closer inventory")


@admin.register(Slip)
class SlipAdmin(ReadOnlyAdmin):
    list_display = ["__str__", "table_id", "gaming_day", "amount", "status", "requested_by",
                    "approved_by"]  # fmt: skip
    list_filter = ["kind", "status", "gaming_day", "table_id"]
    fields = ["year", "number", "kind", "table_id", "gaming_day", "amount", "chips", "status",
              "requested_by", "approved_by", "void_reason"]  # fmt: skip
    readonly_fields = fields
    amount = _dollars_column("amount_cents", "amount")
    chips = _chips_column("amounts", "chips")


@admin.register(DealerCertification)
class DealerCertificationAdmin(ReadOnlyAdmin):
    """Each dealer's table tests passed (§ 527.5(a)), from their ``training:`` stream."""

    list_display = ["dealer", "game", "certified_on", "certified_by", "section"]
    list_filter = ["game", "certified_by"]
    search_fields = ["dealer"]
    fields = ["dealer", "game", "certified_on", "certified_by", "recorded_at", "event"]
    readonly_fields = fields

    @admin.display(description="section")
    def section(self, obj: DealerCertification) -> str:
        return "§ 527.5(a)"


@admin.register(Deck)
class DeckAdmin(ReadOnlyAdmin):
    list_display = ["deck_id", "table_id", "status", "in_use_since", "inspected_by",
                    "verified_by"]  # fmt: skip
    list_filter = ["status", "table_id"]


@admin.register(DiceSet)
class DiceSetAdmin(ReadOnlyAdmin):
    list_display = ["dice_id", "table_id", "status", "count", "in_shaker_since", "placed_by",
                    "removed_at", "cancelled"]  # fmt: skip
    list_filter = ["status", "table_id"]


@admin.register(ComplianceFinding)
class ComplianceFindingAdmin(ReadOnlyAdmin):
    list_display = ["kind", "table_id", "deck_id", "gaming_day", "citation", "raised",
                    "status", "acknowledged_by", "closed_by"]  # fmt: skip
    list_filter = ["status", "kind", "gaming_day", "table_id"]

    @admin.display(description="section", ordering="section")
    def citation(self, obj: ComplianceFinding) -> str:
        return cite(obj.section)

    @admin.display(description="raised", ordering="raised_at")
    def raised(self, obj: ComplianceFinding) -> str:
        return moment(obj.raised_at)
