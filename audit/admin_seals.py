"""The day seals in the admin: read-only, with the public key to hand."""

from django.contrib import admin

from audit.admin import ReadOnlyAdmin
from audit.models import DaySeal


@admin.register(DaySeal)
class DaySealAdmin(ReadOnlyAdmin):
    list_display = ["gaming_day", "merkle_root", "event_count", "stream_count",
                    "development_key", "sealed_at"]  # fmt: skip
    readonly_fields = [f.name for f in DaySeal._meta.fields]
    fields = readonly_fields
    ordering = ["-gaming_day"]
