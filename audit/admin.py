"""The ledger in the admin: read-only, and cheap on the biggest table."""

from __future__ import annotations

import datetime
import json

from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.utils.functional import cached_property
from django.utils.html import format_html
from simple_history.admin import SimpleHistoryAdmin

from audit.models import (
    AppendPermission,
    Event,
    ProjectionCheckpoint,
    RejectedSubmission,
    StreamIndex,
)


class FixedCountPaginator(Paginator):
    """Never COUNT(*) the ledger: the head position is the count."""

    @cached_property
    def count(self) -> int:
        from audit.ledger import head_position

        return head_position()


#: A filtered listing counts at most this many events (and says "more" beyond).
FILTERED_COUNT_LIMIT = 10_000


class CappedCountPaginator(Paginator):
    """A filtered or searched listing: its real count, up to
    ``FILTERED_COUNT_LIMIT`` rows (a COUNT over a LIMIT), so the pager offers
    only pages that hold events."""

    @cached_property
    def count(self) -> int:
        return self.object_list[:FILTERED_COUNT_LIMIT].count()


def search_terms(text: str) -> tuple[list[datetime.date], list[str], list[str]]:
    """A ledger search split into gaming days, stream prefixes (``kind:…``) and
    fragments of a stream id (a table, a round number, any part of its key).

    >>> search_terms("CC-01 2016-08-26 00012")
    ([datetime.date(2016, 8, 26)], [], ['CC-01', '00012'])
    >>> search_terms("round:CC-01-2016")
    ([], ['round:CC-01-2016'], [])
    """
    days, prefixes, fragments = [], [], []
    for term in text.split():
        try:
            days.append(datetime.date.fromisoformat(term))
            continue
        except ValueError:
            pass
        (prefixes if ":" in term else fragments).append(term)
    return days, prefixes, fragments


class HistoryAdmin(SimpleHistoryAdmin):
    """django-simple-history's admin, whose history page saves a posted
    revert for anyone who may *view* the history (it checks no change
    permission): here a revert is a change, refused without that permission."""

    def history_form_view(self, request, object_id, version_id, extra_context=None):
        if request.method == "POST" and not self.has_change_permission(request):
            raise PermissionDenied
        return super().history_form_view(request, object_id, version_id, extra_context)


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


def _pretty(value) -> str:
    return format_html("<pre>{}</pre>", json.dumps(value, indent=2, sort_keys=True))


@admin.register(Event)
class EventAdmin(ReadOnlyAdmin):
    list_display = ["position", "stream_id", "version", "event_type", "occurred_at", "short_hash"]
    list_filter = ["event_type"]
    search_fields = ["stream_id"]
    search_help_text = (
        "Any of: a table (CC-01), a gaming day (2016-08-26: the events recorded in it, casino "
        "time), a round number or any part of a stream id (00012), a stream prefix "
        "(round:CC-01-20160826); several narrow the search."
    )
    show_full_result_count = False
    list_per_page = 100
    ordering = ["-position"]

    def get_search_results(self, request, queryset, search_term):
        days, prefixes, fragments = search_terms(search_term)
        for day in days:
            from audit.providers import calendar

            start, end = calendar().gaming_day_bounds(day)
            queryset = queryset.filter(occurred_at__gte=start, occurred_at__lt=end)
        for prefix in prefixes:
            queryset = queryset.filter(stream_id__startswith=prefix)
        for fragment in fragments:
            queryset = queryset.filter(stream_id__contains=fragment)
        return queryset, False

    def get_paginator(self, request, queryset, per_page, orphans=0,
                      allow_empty_first_page=True):  # fmt: skip
        # The whole ledger is counted by its head position; a filtered or
        # searched one by its rows (capped), never promising empty pages.
        filtered = any(key not in ("p", "o") for key in request.GET)
        paginator = CappedCountPaginator if filtered else FixedCountPaginator
        return paginator(queryset, per_page, orphans, allow_empty_first_page)
    readonly_fields = [
        "position",
        "stream_id",
        "version",
        "event_type",
        "schema_version",
        "pretty_payload",
        "pretty_metadata",
        "occurred_at",
        "recorded_at",
        "prev_hash",
        "hash",
    ]
    exclude = ["payload", "metadata"]

    @admin.display(description="hash")
    def short_hash(self, obj: Event) -> str:
        return obj.hash[:12] + "…"

    @admin.display(description="payload")
    def pretty_payload(self, obj: Event) -> str:
        return _pretty(obj.payload)

    @admin.display(description="metadata")
    def pretty_metadata(self, obj: Event) -> str:
        return _pretty(obj.metadata)


@admin.register(RejectedSubmission)
class RejectedSubmissionAdmin(ReadOnlyAdmin):
    list_display = ["received_at", "status_code", "reason", "stream_id", "field", "actor", "source"]
    list_filter = ["reason", "status_code", "source"]
    search_fields = ["=stream_id", "actor", "idempotency_key"]
    show_full_result_count = False
    ordering = ["-received_at"]
    # raw_body shows the same bytes as text.
    exclude = ["body_prefix"]


@admin.register(StreamIndex)
class StreamIndexAdmin(ReadOnlyAdmin):
    list_display = ["stream_id", "kind", "version", "last_event_type", "last_occurred_at"]
    list_filter = ["kind"]
    search_fields = ["stream_id"]
    show_full_result_count = False
    ordering = ["-last_position"]


@admin.register(ProjectionCheckpoint)
class ProjectionCheckpointAdmin(ReadOnlyAdmin):
    list_display = ["name", "position", "updated_at"]


@admin.register(AppendPermission)
class AppendPermissionAdmin(ReadOnlyAdmin, HistoryAdmin):
    """Read-only for everyone, superusers included: a change is proposed and
    confirmed by a second administrator, as ledger events (the page linked
    from the list, ``casino.permission_changes``)."""

    list_display = ["role", "event_type"]
    list_filter = ["role"]
    list_select_related = ["role"]
    change_list_template = "admin/audit/appendpermission/change_list.html"
from audit import admin_seals  # noqa: E402, F401  (the day seals' admin)
