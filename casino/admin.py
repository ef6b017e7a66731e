from django.contrib import admin

from audit.admin import HistoryAdmin
from casino.models import Casino, Employee, Jurisdiction, VariancePolicy


@admin.register(Jurisdiction)
class JurisdictionAdmin(HistoryAdmin):
    list_display = ["code", "name"]


@admin.register(Casino)
class CasinoAdmin(HistoryAdmin):
    list_display = ["name", "jurisdiction", "time_zone", "gaming_day_starts_at"]


@admin.register(Employee)
class EmployeeAdmin(HistoryAdmin):
    list_display = ["full_name", "badge", "user", "role_names", "active"]
    list_filter = ["active", "user__groups"]
    search_fields = ["full_name", "badge", "user__username"]
    list_select_related = ["user"]

    @admin.display(description="roles")
    def role_names(self, obj: Employee) -> str:
        return ", ".join(sorted(obj.roles))


@admin.register(VariancePolicy)
class VariancePolicyAdmin(HistoryAdmin):
    """The variance thresholds as the ledger holds them (``casino-config:casino``):
    a save proposes them there, from the policy's first day or from now if
    later; they are written onto the row once in force."""

    list_display = ["jurisdiction", "effective_from", "inventory_tolerance_cents",
                    "drop_tolerance_cents", "hold_confidence_percent",
                    "month_over_month_basis_points"]  # fmt: skip
    list_filter = ["jurisdiction"]

    def save_model(self, request, obj, form, change) -> None:
        from django.contrib import messages

        from audit import clock, errors
        from audit.ledger import Actor
        from casino import configuration as config

        casino = Casino.current()
        start = max(casino.gaming_day_bounds(obj.effective_from)[0], clock.now())
        actor = Actor.from_user(request.user, source="admin")
        try:
            version = config.propose(config.CASINO_STREAM, obj.thresholds(), effective_from=start,
                                     reason="changed in the admin", actor=actor)  # fmt: skip
        except errors.LedgerError as error:
            messages.error(request, f"Not recorded: {error.message}")
            return
        config.apply_thresholds()
        messages.info(request, f"Recorded as {config.CASINO_STREAM} version {version}; in force "
                      "once a second person confirms it where required (Tables › Configuration "
                      "changes).")  # fmt: skip
        saved = VariancePolicy.objects.filter(jurisdiction_id=obj.jurisdiction_id,
                                              effective_from=obj.effective_from).first()
        obj.pk = saved.pk if saved is not None else None

    def response_add(self, request, obj, *args):
        from django.http import HttpResponseRedirect
        from django.urls import reverse

        if obj.pk is None:  # waiting for a second person: no row yet
            return HttpResponseRedirect(reverse("admin:casino_variancepolicy_changelist"))
        return super().response_add(request, obj, *args)
