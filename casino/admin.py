from django.contrib import admin
from simple_history.admin import SimpleHistoryAdmin

from casino.models import Casino, Employee, Jurisdiction, VariancePolicy


@admin.register(Jurisdiction)
class JurisdictionAdmin(SimpleHistoryAdmin):
    list_display = ["code", "name"]


@admin.register(Casino)
class CasinoAdmin(SimpleHistoryAdmin):
    list_display = ["name", "jurisdiction", "time_zone", "gaming_day_starts_at"]


@admin.register(Employee)
class EmployeeAdmin(SimpleHistoryAdmin):
    list_display = ["full_name", "badge", "user", "role_names", "active"]
    list_filter = ["active", "user__groups"]
    search_fields = ["full_name", "badge", "user__username"]
    list_select_related = ["user"]

    @admin.display(description="roles")
    def role_names(self, obj: Employee) -> str:
        return ", ".join(sorted(obj.roles))


@admin.register(VariancePolicy)
class VariancePolicyAdmin(SimpleHistoryAdmin):
    list_display = ["jurisdiction", "effective_from", "inventory_tolerance_cents",
                    "drop_tolerance_cents", "hold_confidence_percent",
                    "month_over_month_basis_points"]  # fmt: skip
    list_filter = ["jurisdiction"]
