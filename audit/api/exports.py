"""Export endpoints: the sealed gaming days, and each day's export as a zip.

The views only translate HTTP to ``audit.downloads``; that module records
every download in the ledger before the file is handed over. A download is a
POST: it has an effect (an ``audit.export_downloaded`` event naming who), so a
GET, which links, prefetchers and crawlers send freely, cannot make one, and
a page of another site cannot make one in a signed-in regulator's name (a
session's POST needs its CSRF token; a device's token is a header no other
site can set).
"""

from __future__ import annotations

from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.permissions import BasePermission
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response

from audit import errors
from audit.api import serializers
from audit.api.views import ERROR_RESPONSES, LedgerAPIView, actor_of
from audit.downloads import (
    SEAL_HEADER,
    ZIP_CONTENT_TYPE,
    DayNotSealed,
    download_response,
    may_download,
    parse_day,
    sealed_days,
)
from audit.exports import ExportError
from audit.seals import key_fingerprint, published_key

JSON = JSONRenderer.media_type


class NotSealed(errors.LedgerError):
    status_code = 404
    reason = "not_sealed"


class ExportRefused(errors.LedgerError):
    """The day no longer matches its seal: no export is made of it."""

    status_code = 409
    reason = "export_refused"


class MayDownloadExports(BasePermission):
    """The regulator, finance, shift supervisors and administrators."""

    message = (
        "exports may be downloaded by the regulator, finance, shift supervisors and administrators"
    )

    def has_permission(self, request, view) -> bool:
        return may_download(request.user)


class ZipRenderer(BaseRenderer):
    """Lets a client ask for ``Accept: application/zip``; the zip itself is a
    FileResponse and never passes through a renderer."""

    media_type = ZIP_CONTENT_TYPE
    format = "zip"
    charset = None
    render_style = "binary"

    def render(self, data, accepted_media_type=None, renderer_context=None):
        return data


def _download_url(request: Request, version: str, day) -> str:
    path = reverse("export-download", kwargs={"version": version, "day": day.isoformat()})
    return request.build_absolute_uri(path)


class ExportListView(LedgerAPIView):
    permission_classes = [MayDownloadExports]

    @extend_schema(
        operation_id="exports_list",
        summary="Sealed gaming days whose exports can be downloaded",
        description="Newest day first. Each export verifies offline against its seal "
        "hash and the public key that signed it. `signing_key` is the casino's current "
        "seal-signing key with its fingerprint: pin it (`verify_export.py --public-key`).",
        responses={
            200: serializers.ExportListSerializer,
            **{code: ERROR_RESPONSES[code] for code in (401, 403, 429)},
        },
    )
    def get(self, request: Request, version: str = "v1") -> Response:
        exports = [
            {
                "gaming_day": seal.gaming_day,
                "seal_hash": seal.seal_hash,
                "merkle_root": seal.merkle_root,
                "public_key": seal.public_key,
                "fingerprint": key_fingerprint(seal.public_key),
                "development_key": seal.development_key,
                "sealed_at": seal.sealed_at,
                "download": _download_url(request, version, seal.gaming_day),
            }
            for seal in sealed_days()
        ]
        listing = {"signing_key": published_key(), "exports": exports}
        return Response(serializers.ExportListSerializer(listing).data)


class ExportDownloadView(LedgerAPIView):
    permission_classes = [MayDownloadExports]
    renderer_classes = [JSONRenderer, ZipRenderer]

    def finalize_response(self, request, response, *args, **kwargs):
        # An error answers in JSON even to a client that asked for the zip.
        if isinstance(response, Response) and isinstance(
            getattr(request, "accepted_renderer", None), ZipRenderer
        ):
            request.accepted_renderer = JSONRenderer()
            request.accepted_media_type = JSON
        return super().finalize_response(request, response, *args, **kwargs)

    @extend_schema(
        operation_id="exports_download",
        summary="Download a sealed gaming day's export (zip)",
        description="A POST with no body: the zip is byte-identical for every download of "
        "a sealed day. Each download is recorded once in the ledger "
        "(`audit.export_downloaded` on `export:<day>`) naming who downloaded it; a GET "
        "downloads nothing (405). With a session, send the CSRF token (`X-CSRFToken`). "
        "A day is downloadable once the close job has sealed it.",
        request=None,
        parameters=[
            OpenApiParameter(
                "day", OpenApiTypes.DATE, OpenApiParameter.PATH, description="YYYY-MM-DD"
            ),
            OpenApiParameter(
                SEAL_HEADER,
                OpenApiTypes.STR,
                OpenApiParameter.HEADER,
                description="The day's seal hash, which the zip's seal.json must carry",
                response=[200],
            ),
            OpenApiParameter("format", exclude=True),
        ],
        responses={
            (200, ZIP_CONTENT_TYPE): OpenApiResponse(
                OpenApiTypes.BINARY, description="pitboss-export-<day>.zip"
            ),
            # Refusals are JSON even to a client that asked for the zip.
            **{
                (code, JSON): response
                for code, response in {
                    400: OpenApiResponse(
                        serializers.ErrorSerializer, description="The day is not YYYY-MM-DD"
                    ),
                    401: ERROR_RESPONSES[401],
                    403: ERROR_RESPONSES[403],
                    429: ERROR_RESPONSES[429],
                    404: OpenApiResponse(
                        serializers.ErrorSerializer, description="The day is not sealed"
                    ),
                    409: OpenApiResponse(
                        serializers.ErrorSerializer,
                        description="The day no longer matches its seal",
                    ),
                }.items()
            },
        },
    )
    def post(self, request: Request, day: str, version: str = "v1"):
        try:
            gaming_day = parse_day(day)
        except ValueError as error:
            raise errors.MalformedSubmission(str(error), field="day") from None
        actor = actor_of(request)
        try:
            return download_response(gaming_day, actor)
        except DayNotSealed as error:
            raise NotSealed(str(error), field="day") from None
        except ExportError as error:
            raise ExportRefused(str(error), field="day") from None
