from django.urls import path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from audit.api import exports, views

urlpatterns = [
    path(
        "<str:version>/streams/<str:stream_id>/events",
        views.StreamEventsView.as_view(),
        name="ledger-stream-events",
    ),
    path("<str:version>/events", views.GlobalEventsView.as_view(), name="ledger-events"),
    path("<str:version>/event-types", views.EventTypesView.as_view(), name="ledger-event-types"),
    path("<str:version>/exports/", exports.ExportListView.as_view(), name="exports"),
    path(
        "<str:version>/exports/<str:day>/",
        exports.ExportDownloadView.as_view(),
        name="export-download",
    ),
    path("<str:version>/schema", SpectacularAPIView.as_view(), name="api-schema"),
    path(
        "<str:version>/docs",
        # Its script served as a file, not inline: the Content Security Policy allows it.
        SpectacularSwaggerSplitView.as_view(url_name="api-schema"),
        name="api-docs",
    ),
]
