"""The admin's configuration pages write ledger events (issue 21): a saved
table or variance policy is a proposed ``config.changed``, in force (and
written onto the row) once a second person confirms it on *Configuration
changes*, where the casino's segregation of duties requires one."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import path, reverse

from audit import clock, errors
from audit.ledger import Actor
from casino import configuration as config
from tables import configuration
from tables.configuration import TABLE_CONFIG_KIND


def _actor(request: HttpRequest) -> Actor:
    return Actor.from_user(request.user, source="admin")


def _said(request: HttpRequest, stream_id: str, version: int) -> None:
    waiting = any(c.version == version for c in config.waiting_changes(stream_id))
    if waiting:
        messages.warning(request, f"Recorded as {stream_id} version {version}: it takes effect "
                         "once a second person confirms it (Configuration changes).")  # fmt: skip
    else:
        messages.success(request, f"Recorded as {stream_id} version {version}, in force.")


class TableConfigurationAdmin:
    """Mixed into the table admin: saving proposes the change in the ledger."""

    def save_model(self, request: HttpRequest, obj: Any, form: Any, change: bool) -> None:
        fields = [f for f in configuration.TABLE_FIELDS if not change or f in form.changed_data]
        if not fields:
            return
        settings = {f: getattr(obj, f) for f in fields}
        try:
            version = configuration.configure(obj.table_id, settings, effective_from=clock.now(),
                                              reason="changed in the admin",
                                              actor=_actor(request))  # fmt: skip
        except errors.LedgerError as error:
            messages.error(request, f"Not recorded: {error.message}")
            return
        _said(request, configuration.table_config_stream(obj.table_id), version)
        saved = type(obj).objects.filter(table_id=obj.table_id).first()
        if saved is not None:
            obj.pk = saved.pk

    def response_add(self, request: HttpRequest, obj: Any, *args: Any) -> HttpResponse:
        if obj.pk is None:  # waiting for a second person: no row yet
            return HttpResponseRedirect(reverse("admin:tables_table_configuration"))
        return super().response_add(request, obj, *args)  # type: ignore[misc]

    def get_urls(self) -> list:
        return [
            path("configuration/", self.admin_site.admin_view(self.configuration_view),  # type: ignore[attr-defined]
                 name="tables_table_configuration"),  # fmt: skip
            *super().get_urls(),  # type: ignore[misc]
        ]

    def configuration_view(self, request: HttpRequest) -> HttpResponse:
        """Every configuration change waiting for a second person; Confirm."""
        if request.method == "POST":
            stream_id, version = request.POST["stream_id"], int(request.POST["version"])
            try:
                config.confirm(stream_id, version, actor=_actor(request))
            except errors.LedgerError as error:
                messages.error(request, f"Not confirmed: {error.message}")
            else:
                if stream_id.startswith(f"{TABLE_CONFIG_KIND}:"):
                    configuration.apply(stream_id.partition(":")[2])
                else:
                    config.apply_thresholds()
                messages.success(request, f"Confirmed {stream_id} version {version}.")
            return HttpResponseRedirect(request.path)
        context = {
            **self.admin_site.each_context(request),  # type: ignore[attr-defined]
            "title": "Configuration changes waiting for a second person",
            "opts": self.model._meta,  # type: ignore[attr-defined]
            "waiting": configuration.all_waiting(),
            "two_persons": config.two_persons_required(),
        }
        return TemplateResponse(request, "admin/tables/configuration.html", context)
