from django.contrib import admin
from django.urls import include, path

from tables import actions, floor

admin.site.site_header = "Pitboss"
admin.site.site_title = "Pitboss"
admin.site.index_title = "Back office"

urlpatterns = [
    path("admin/floor/", floor.floor_board, name="floor-board"),
    path("admin/floor/board.json", floor.floor_board_data, name="floor-board-data"),
    path("admin/floor/<slug:table_id>/<str:day>/", floor.table_day, name="table-day"),
    path("admin/act/<slug:action>/<str:stream_id>", actions.act, name="floor-action"),
    path("admin/", admin.site.urls),
    path("api/", include("audit.api.urls")),
]
