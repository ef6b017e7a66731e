from django.contrib import admin
from django.urls import include, path
from django.views.generic import RedirectView

from casino import permission_changes, second_factor
from progressives import views as progressives_views
from tables import (
    actions,
    api,
    bad_beat_views,
    drift,
    finance,
    finance_drill,
    floor,
    poker_viewer,
)

admin.site.site_header = "Pitboss"
admin.site.site_title = "Pitboss"
admin.site.index_title = "Back office"
admin.site.login_form = second_factor.LoginForm  # the one-time code beside the password

urlpatterns = [
    # The site's address opens the back office (its login, then the index), not a 404.
    path("", RedirectView.as_view(url="/admin/", permanent=False)),
    path("admin/floor/", floor.floor_board, name="floor-board"),
    path("admin/floor/board.json", floor.floor_board_data, name="floor-board-data"),
    path("admin/floor/<slug:table_id>/<str:day>/", floor.table_day, name="table-day"),
    path("admin/act/<slug:action>/<str:stream_id>", actions.act, name="floor-action"),
    path("admin/finance/", finance.finance_index, name="finance-index"),
    path("admin/finance/today/", finance.finance_today, name="finance-today"),
    path("admin/finance/variances/", finance.finance_variances, name="finance-variances"),
    path("admin/finance/<str:day>/", finance.finance_day, name="finance-day"),
    path("admin/finance/<str:day>/win-report.csv", finance.finance_csv, name="finance-csv"),
    path("admin/finance/<str:day>/win-report.pdf", finance.finance_pdf, name="finance-pdf"),
    path("admin/finance/<str:day>/progressive-liability.csv", progressives_views.meters_csv,
         name="finance-meters-csv"),
    path("admin/finance/<str:day>/bad-beat-funds.csv", bad_beat_views.bad_beat_csv,
         name="finance-bad-beat-csv"),
    path("admin/finance/<str:day>/<slug:table_id>/variance/<slug:kind>/",
         finance_drill.finance_variance, name="finance-variance"),
    path("admin/finance/<str:day>/<slug:table_id>/", finance.finance_table_day,
         name="finance-table-day"),
    path("admin/poker-hands/<str:hand_id>/", poker_viewer.poker_hand, name="poker-hand"),
    path("admin/bad-beat-funds/<slug:fund_id>/", bad_beat_views.bad_beat_fund,
         name="bad-beat-fund"),
    path("admin/read-model-check/<int:position>/", drift.differences,
         name="projection-differences"),
    path("admin/second-factor/", second_factor.enrol, name="second-factor-enrol"),
    path("admin/permission-changes/", admin.site.admin_view(permission_changes.page),
         name="permission-changes"),
    path("admin/", admin.site.urls),
    path("api/<str:version>/games", api.GamesView.as_view(), name="games"),
    path("api/", include("audit.api.urls")),
]

# The API's JSON error shape (and a 503 for an outage) for what escapes a view.
handler500 = "audit.api.errors.server_error"
