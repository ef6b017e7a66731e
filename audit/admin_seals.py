"""The day seals in the admin: read-only, with the public key to hand, and
the Exports page from which a sealed day's export is downloaded.

The Exports page and its download buttons are for the export readers'
roles (``audit.downloads.may_download``; others get 403); every download goes
through ``download_export``, which has it recorded in the ledger. A download
is a POST with the page's CSRF token: a link (or another site's page) cannot
record a download in someone's name, and a GET downloads nothing (405).
"""

from __future__ import annotations

from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, HttpResponseNotAllowed
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html

from audit.admin import ReadOnlyAdmin
from audit.downloads import (
    DayNotSealed,
    download_response,
    may_download,
    parse_day,
    sealed_days,
)
from audit.exports import ExportError
from audit.models import DaySeal
from audit.records import Actor
from audit.seals import key_fingerprint, published_key


def _download_url(seal: DaySeal) -> str:
    return reverse("admin:audit_dayseal_export_download", args=[seal.gaming_day.isoformat()])


def _exports_url(seal: DaySeal) -> str:
    return reverse("admin:audit_dayseal_exports") + f"#day-{seal.gaming_day.isoformat()}"


@admin.register(DaySeal)
class DaySealAdmin(ReadOnlyAdmin):
    list_display = ["gaming_day", "merkle_root", "event_count", "stream_count",
                    "development_key", "sealed_at"]  # fmt: skip
    readonly_fields = [f.name for f in DaySeal._meta.fields]
    fields = readonly_fields
    ordering = ["-gaming_day"]
    change_list_template = "admin/audit/dayseal/change_list.html"

    def get_list_display(self, request):
        if may_download(request.user):
            return [*self.list_display, "export"]
        return self.list_display

    @admin.display(description="export")
    def export(self, seal: DaySeal) -> str:
        # The download itself is a button (a POST) on the Exports page.
        return format_html('<a href="{}">Export…</a>', _exports_url(seal))

    def changelist_view(self, request, extra_context=None):
        extra_context = {**(extra_context or {}), "may_download": may_download(request.user)}
        return super().changelist_view(request, extra_context)

    def get_urls(self):
        # Before the model's own URLs: "<path:object_id>/" would swallow these.
        return [
            path(
                "exports/",
                self.admin_site.admin_view(self.exports_view),
                name="audit_dayseal_exports",
            ),
            path(
                "exports/<str:day>/download/",
                self.admin_site.admin_view(self.download_export),
                name="audit_dayseal_export_download",
            ),
            *super().get_urls(),
        ]

    def _exports_page(self, request: HttpRequest, *, error: str = "", status: int = 200):
        seals = list(sealed_days())
        keys: dict[str, dict] = {}
        for seal in reversed(seals):  # oldest first, so each key's first and last day
            key = keys.setdefault(
                seal.public_key,
                {
                    "public_key": seal.public_key,
                    "fingerprint": key_fingerprint(seal.public_key),
                    "development": seal.development_key,
                    "first": seal.gaming_day,
                },
            )
            key["last"] = seal.gaming_day
        context = {
            **self.admin_site.each_context(request),
            "title": "Exports",
            "opts": self.model._meta,
            "seals": [(seal, _download_url(seal)) for seal in seals],
            "public_keys": list(keys.values()),
            "signing_key": published_key(),
            "error": error,
        }
        return TemplateResponse(request, "admin/audit/exports.html", context, status=status)

    def exports_view(self, request: HttpRequest) -> HttpResponse:
        """The sealed days, each with its seal hash and a download link."""
        if not may_download(request.user):
            raise PermissionDenied
        return self._exports_page(request)

    def download_export(self, request: HttpRequest, day: str) -> HttpResponse:
        """One sealed day's zip, recorded in the ledger as downloaded (a POST,
        CSRF-checked by ``admin_view``)."""
        if not may_download(request.user):
            raise PermissionDenied
        if request.method != "POST":
            return HttpResponseNotAllowed(["POST"])
        try:
            gaming_day = parse_day(day)
        except ValueError as error:
            return self._exports_page(request, error=str(error), status=400)
        try:
            return download_response(gaming_day, Actor.from_user(request.user, source="admin"))
        except DayNotSealed as error:
            return self._exports_page(request, error=str(error), status=404)
        except ExportError as error:
            return self._exports_page(request, error=str(error), status=409)
