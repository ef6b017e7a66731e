"""The gaming-day closes in the admin: the list (a read model of the close
streams) and the page that starts a close."""

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import path

from audit.admin import ReadOnlyAdmin
from audit.errors import LedgerError
from audit.records import roles_of
from casino.models import DayClose
from casino.roles import Role
from operations.close import CloseRefused
from tables.reconciliation import dollars

#: Who may start a close from the admin; forcing one is a shift supervisor's
#: (the close stream's policy refuses anyone else).
CLOSERS = frozenset({Role.SHIFT_SUPERVISOR.value, Role.FINANCE.value, Role.ADMINISTRATOR.value})


class CloseForm(forms.Form):
    day = forms.DateField(label="Gaming day", widget=forms.DateInput(attrs={"type": "date"}))
    force = forms.BooleanField(
        required=False,
        help_text="Close although tables are open or their drop is not counted and verified; "
        "those tables are recorded without a win. Shift supervisors only.",
    )


@admin.register(DayClose)
class DayCloseAdmin(ReadOnlyAdmin):
    list_display = ["gaming_day", "status", "stage", "tables", "rounds", "findings", "variances",
                    "win", "requested_by", "forced", "completed_at"]  # fmt: skip
    list_filter = ["status", "forced"]
    readonly_fields = [f.name for f in DayClose._meta.fields]
    change_list_template = "admin/casino/dayclose/change_list.html"

    @admin.display(description="win", ordering="win_cents")
    def win(self, obj: DayClose) -> str:
        return dollars(obj.win_cents)

    def changelist_view(self, request: HttpRequest, extra_context=None) -> HttpResponse:
        # Only those who may start a close are offered the button.
        can_close = bool(roles_of(request.user) & CLOSERS)
        return super().changelist_view(request, {**(extra_context or {}), "can_close": can_close})

    def get_urls(self):
        return [
            path("close/", self.admin_site.admin_view(self.close_view),
                 name="casino_dayclose_close"),
            *super().get_urls(),
        ]  # fmt: skip

    def close_view(self, request: HttpRequest) -> HttpResponse:
        """Start the close of a gaming day (the same Celery task beat runs)."""
        from operations.tasks import close_gaming_day_task

        if not roles_of(request.user) & CLOSERS:
            raise PermissionDenied
        form = CloseForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            day = form.cleaned_data["day"]
            try:
                result = close_gaming_day_task.delay(day.isoformat(), request.user.username,
                                                     form.cleaned_data["force"])  # fmt: skip
            except (CloseRefused, LedgerError) as refused:
                form.add_error(None, str(refused))
            else:
                if result.ready():  # eager (the embedded default): already done
                    messages.success(request, result.get())
                else:
                    messages.info(request, f"The close of {day} is running (task {result.id}); "
                                  "its stage shows here as it goes.")  # fmt: skip
                return redirect("admin:casino_dayclose_changelist")
        context = {**self.admin_site.each_context(request), "title": "Close a gaming day",
                   "opts": self.model._meta, "form": form}  # fmt: skip
        return TemplateResponse(request, "admin/casino/dayclose/close.html", context)
