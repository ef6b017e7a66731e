"""Ledger endpoints: append to a stream, read a stream, follow the global log.

The views only translate HTTP to ``audit.ledger`` calls; every refusal of an
append, whether the body, the credentials or the ledger refused it, is
recorded in RejectedSubmission.
"""

from __future__ import annotations

from django.conf import settings
from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import exceptions, status
from rest_framework.permissions import BasePermission
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from audit import errors, ledger
from audit.api import serializers
from audit.records import roles_of
from audit.registry import REGISTRY

ERROR_RESPONSES = {
    code: OpenApiResponse(serializers.ErrorSerializer, description=text)
    for code, text in {
        400: "Malformed body, schema or rule violation (names the field and the rule)",
        401: "Not authenticated",
        403: "The role may not do this",
        404: "Unknown stream",
        409: "Stale expected_version (body carries current_version)",
        422: "Idempotency-Key reused with another body",
    }.items()
}


class HasRole(BasePermission):
    """Any casino role may read the ledger; an account with no role may not."""

    message = "your account has no casino role"

    def has_permission(self, request, view) -> bool:
        return bool(roles_of(request.user))


def _actor(request: Request) -> ledger.Actor:
    return ledger.Actor.from_user(request.user, device=request.headers.get("X-Device", "")[:150])


def _as_ledger_error(exc: Exception) -> errors.LedgerError:
    if isinstance(exc, errors.LedgerError):
        return exc
    if isinstance(exc, exceptions.NotAuthenticated | exceptions.AuthenticationFailed):
        return errors.NotAuthenticated(str(exc.detail))
    if isinstance(exc, exceptions.PermissionDenied):
        return errors.Forbidden(str(exc.detail))
    if isinstance(exc, exceptions.ValidationError):
        from audit.api.errors import _first_error

        field, message = _first_error(exc.detail)
        return errors.SchemaViolation(message, field=field)
    if isinstance(exc, exceptions.APIException):
        return errors.MalformedSubmission(str(exc.detail))
    return errors.MalformedSubmission(str(exc))


class StreamEventsView(APIView):
    permission_classes = [HasRole]

    def dispatch(self, request, *args, **kwargs):
        # Keep the raw body for the refusal record before any parser reads it.
        self.raw_body = (
            request.body.decode("utf-8", errors="replace") if request.method == "POST" else ""
        )
        return super().dispatch(request, *args, **kwargs)

    def handle_exception(self, exc):
        request = self.request
        # Refusals (4xx) are kept; a fault is no refusal: it is logged with an
        # error id, and with the database gone it could not be recorded anyway.
        refusal = isinstance(exc, errors.LedgerError | exceptions.APIException)
        if request.method == "POST" and refusal and not getattr(exc, "recorded", False):
            user = getattr(request, "user", None)
            ledger.record_rejection(
                _as_ledger_error(exc),
                stream_id=self.kwargs.get("stream_id", ""),
                actor=ledger.Actor.from_user(user) if user is not None else None,
                idempotency_key=request.headers.get("Idempotency-Key", ""),
                raw_body=self.raw_body,
            )
        return super().handle_exception(exc)

    @extend_schema(
        summary="Read one stream",
        parameters=[OpenApiParameter("after_version", OpenApiTypes.INT, default=0)],
        responses={200: serializers.StreamReadSerializer, 404: ERROR_RESPONSES[404]},
    )
    def get(self, request: Request, stream_id: str, version: str = "v1") -> Response:
        after_version = _int_param(request, "after_version", 0)
        events = ledger.read_stream(stream_id, after_version=after_version)
        current = events[-1].version if events else ledger.stream_version(stream_id)
        if current == 0:
            raise errors.UnknownStream(f"stream {stream_id} has no events", field="stream_id")
        return Response(
            {
                "stream_id": stream_id,
                "version": current,
                "events": [event.as_dict() for event in events],
            }
        )

    @extend_schema(
        summary="Append events to a stream",
        description="All events are appended atomically or none is. Retrying is safe: "
        "send an `Idempotency-Key` header, or none and the ledger derives one from you, "
        "your device, the stream, `expected_version` and the events, so the same request "
        "sent again gets the original answer (200, `Idempotent-Replayed: true`) and is "
        "never stored twice. After a 503 or a lost connection, send the same request again.",
        parameters=[OpenApiParameter("Idempotency-Key", OpenApiTypes.STR, OpenApiParameter.HEADER)],
        request=serializers.AppendRequestSerializer,
        responses={
            201: serializers.AppendResultSerializer,
            200: OpenApiResponse(
                serializers.AppendResultSerializer,
                description="Idempotent replay of an earlier append",
            ),
            **ERROR_RESPONSES,
        },
    )
    def post(self, request: Request, stream_id: str, version: str = "v1") -> Response:
        if not isinstance(request.data, dict):
            raise errors.MalformedSubmission("the body must be a JSON object", field="body")
        body = serializers.AppendRequestSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        new_events = [
            ledger.NewEvent(
                event_type=item["type"],
                payload=item["payload"],
                occurred_at=item.get("occurred_at"),
                metadata=item.get("metadata") or {},
            )
            for item in body.validated_data["events"]
        ]
        key = request.headers.get("Idempotency-Key") or None
        if key is not None and len(key) > 200:
            raise errors.MalformedSubmission("at most 200 characters", field="Idempotency-Key")
        actor = _actor(request)
        expected_version = body.validated_data["expected_version"]
        if key is None:
            key = ledger.derived_idempotency_key(stream_id, expected_version, new_events, actor)
        result = ledger.append(
            stream_id,
            new_events,
            expected_version=expected_version,
            actor=actor,
            idempotency_key=key,
            raw_body=self.raw_body,
        )
        if result.replayed:
            return Response(
                result.as_dict(), status=status.HTTP_200_OK, headers={"Idempotent-Replayed": "true"}
            )
        return Response(result.as_dict(), status=status.HTTP_201_CREATED)


class GlobalEventsView(APIView):
    permission_classes = [HasRole]

    @extend_schema(
        summary="Follow the global log",
        description="Events after a global position, in commit order with no gaps: "
        "keep the last position you saw and ask again.",
        parameters=[
            OpenApiParameter("after", OpenApiTypes.INT, default=0),
            OpenApiParameter("limit", OpenApiTypes.INT, default=100),
        ],
        responses={200: serializers.GlobalReadSerializer},
    )
    def get(self, request: Request, version: str = "v1") -> Response:
        after = _int_param(request, "after", 0)
        limit = min(_int_param(request, "limit", 100, minimum=1), settings.LEDGER_READ_PAGE_MAX)
        events = ledger.read_all(after=after, limit=limit)
        last = events[-1].position if events else after
        next_url = None
        if len(events) == limit:
            next_url = request.build_absolute_uri(
                reverse("ledger-events", kwargs={"version": version})
                + f"?after={last}&limit={limit}"
            )
        return Response(
            {
                "events": [event.as_dict() for event in events],
                "last_position": last,
                "head": ledger.head_position(),
                "next": next_url,
            }
        )


class EventTypesView(APIView):
    permission_classes = [HasRole]

    @extend_schema(
        summary="Registered event types and their payload schemas",
        responses={200: OpenApiTypes.OBJECT},
    )
    def get(self, request: Request, version: str = "v1") -> Response:
        return Response(
            {
                "event_types": [
                    {
                        "type": t.name,
                        "schema_version": t.version,
                        "description": t.description,
                        "schema": t.schema,
                    }
                    for t in REGISTRY.describe()
                ],
                "stream_kinds": [
                    {
                        "kind": k.name,
                        "description": k.description,
                        "accepts": sorted(k.accepts),
                        "corrections": None
                        if k.corrections is None
                        else {
                            "meaning": k.corrections.meaning,
                            "roles": sorted(k.corrections.roles),
                        },
                    }
                    for k in sorted(REGISTRY.stream_kinds.values(), key=lambda k: k.name)
                ],
            }
        )


def _int_param(request: Request, name: str, default: int, minimum: int = 0) -> int:
    raw = request.query_params.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        raise errors.MalformedSubmission(f"{name} must be an integer", field=name) from None
    if value < minimum:
        raise errors.MalformedSubmission(f"{name} must be at least {minimum}", field=name)
    return value
