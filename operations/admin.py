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
from operations import tokens
from operations.close import CloseRefused
from operations.tokens import DeviceToken
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


# --- device tokens ------------------------------------------------------------------


class IssueTokenForm(forms.Form):
    def __init__(self, *args, **kwargs):
        from django.contrib.auth.models import User

        from tables.models import Table

        super().__init__(*args, **kwargs)
        self.fields["user"] = forms.ModelChoiceField(
            User.objects.filter(groups__name__in=[Role.TABLE_DEVICE.value, Role.SYSTEM.value],
                                is_active=True).distinct().order_by("username"),
            label="Account", help_text="A table device's account, or a system gateway's.",
        )
        self.fields["device"] = forms.CharField(
            max_length=150, required=False,
            help_text="The device the token is installed on (a table device's is its account).")
        self.fields["table"] = forms.ModelChoiceField(
            Table.objects.all(), to_field_name="table_id", required=False,
            help_text="The table the device sits at (required for a table device).")
        self.fields["days"] = forms.IntegerField(min_value=1, max_value=366, required=False,
                                                 help_text="Valid for (days); default "
                                                 "DEVICE_TOKEN_DAYS.")  # fmt: skip


@admin.register(DeviceToken)
class DeviceTokenAdmin(admin.ModelAdmin):
    """Issue, rotate and revoke device tokens; a token is shown once, on the
    page that issued it, and never kept."""

    list_display = ["token_id", "user", "device", "table", "created_at", "expires_at",
                    "revoked_at", "issued_by", "is_active"]  # fmt: skip
    list_filter = ["table", "revoked_at"]
    search_fields = ["token_id", "device", "user__username"]
    readonly_fields = [f.name for f in DeviceToken._meta.fields if f.name != "digest"]
    exclude = ["digest"]
    actions = ["rotate_tokens", "revoke_tokens"]

    @admin.display(boolean=True, description="active")
    def is_active(self, obj: DeviceToken) -> bool:
        return obj.active

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False  # revoked, never deleted: the ledger names them

    def add_view(self, request, form_url="", extra_context=None):
        if not self.has_add_permission(request):
            raise PermissionDenied
        form = IssueTokenForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            data = form.cleaned_data
            try:
                token, plain = tokens.issue(data["user"], device=data["device"],
                                            table=data["table"], days=data["days"],
                                            by=request.user.get_username())  # fmt: skip
            except tokens.TokenRefused as refused:
                form.add_error(None, str(refused))
            else:
                return self._shown_once(request, [(token, plain)])
        context = {**self.admin_site.each_context(request), "title": "Issue a device token",
                   "opts": self.model._meta, "form": form}  # fmt: skip
        return TemplateResponse(request, "admin/operations/devicetoken/issue.html", context)

    def _shown_once(self, request, issued) -> HttpResponse:
        context = {**self.admin_site.each_context(request), "title": "Device token issued",
                   "opts": self.model._meta, "issued": issued}  # fmt: skip
        response = TemplateResponse(request, "admin/operations/devicetoken/shown_once.html",
                                    context)  # fmt: skip
        response["Cache-Control"] = "no-store"
        return response

    @admin.action(description="Rotate the selected tokens (new ones shown once)",
                  permissions=["add"])  # fmt: skip
    def rotate_tokens(self, request, queryset):
        by = request.user.get_username()
        try:
            issued = [tokens.rotate(token, by=by) for token in queryset]
        except tokens.TokenRefused as refused:
            messages.error(request, str(refused))
            return None
        return self._shown_once(request, issued)

    @admin.action(description="Revoke the selected tokens", permissions=["add"])
    def revoke_tokens(self, request, queryset):
        for token in queryset:
            tokens.revoke(token, by=request.user.get_username())
        messages.success(request, f"{queryset.count()} token(s) revoked.")
