"""The ledger in the admin: read-only, and cheap on the biggest table."""

from __future__ import annotations

import json

from django.contrib import admin
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
    search_fields = ["=stream_id"]
    show_full_result_count = False
    paginator = FixedCountPaginator
    list_per_page = 100
    ordering = ["-position"]
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
class AppendPermissionAdmin(SimpleHistoryAdmin):
    list_display = ["role", "event_type"]
    list_filter = ["role"]
    list_select_related = ["role"]
from audit import admin_seals  # noqa: E402, F401  (the day seals' admin)
