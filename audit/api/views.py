"""Ledger endpoints: append to a stream, read a stream, follow the global log.

The views only translate HTTP to ``audit.ledger`` calls; every refusal of an
append, whether the body, the credentials or the ledger refused it, is
recorded in RejectedSubmission, with a bounded prefix of the body, its length
and its SHA-256. A client past its rate is refused (429) before anything is
stored; a body over ``API_MAX_BODY_BYTES`` is refused (413) unread. Reads are
scoped by role and by what the reader is bound to (``tables.read_scope``).
"""

from __future__ import annotations

import contextlib
import re

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
)
from rest_framework import exceptions, status
from rest_framework.permissions import BasePermission
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from audit import errors, ledger, providers
from audit.api import serializers
from audit.api.parsers import StrictJSONParser, too_large
from audit.records import roles_of
from audit.registry import REGISTRY, STREAM_ID
from audit.validation import text_problem

ERROR_RESPONSES = {
    code: OpenApiResponse(serializers.ErrorSerializer, description=text)
    for code, text in {
        400: "Malformed body, schema or rule violation (names the field and the rule)",
        401: "Not authenticated",
        403: "The role may not do this, or the reader is not bound to this stream",
        404: "Unknown stream",
        409: "Stale expected_version (body carries current_version)",
        413: "The body is larger than the server accepts (API_MAX_BODY_BYTES); not read",
        415: "The body is not application/json",
        422: "Idempotency-Key reused with another body",
        429: "Too many requests: per address without valid credentials, per token with "
        "them; retry after Retry-After seconds",
    }.items()
}


class LedgerAPIView(APIView):
    """The API's views: throttled before anything else is decided.

    DRF checks permissions before throttles, so an anonymous flood would be
    refused (and recorded) one request at a time without ever being slowed.
    Here the throttles come first, and a client whose token is invalid is
    counted as anonymous before its 401 is recorded.
    """

    def perform_authentication(self, request):
        try:
            request.user  # noqa: B018 (authenticates)
        except exceptions.AuthenticationFailed:
            super().check_throttles(request)
            raise

    def check_permissions(self, request):
        super().check_throttles(request)
        super().check_permissions(request)

    def check_throttles(self, request):
        """Already done, in ``check_permissions``."""


INT32_MAX, INT64_MAX = 2**31 - 1, 2**63 - 1

#: The path parameter as the schema publishes it (``STREAM_ID``, which the ledger checks).
STREAM_ID_PARAMETER = OpenApiParameter(
    "stream_id",
    # ECMA regular expressions have no named groups.
    {"type": "string", "pattern": re.sub(r"\?P<\w+>", "", STREAM_ID.pattern), "maxLength": 200},
    OpenApiParameter.PATH,
    description="`<kind>:<key>`, e.g. `round:CC-01-20160801-00001`",
    examples=[
        OpenApiExample("a round", value="round:CC-01-20160801-00001"),
        OpenApiExample("a table day", value="table:CC-01:2016-08-01"),
    ],
)


def _integer(minimum: int, maximum: int, default: int) -> dict:
    return {"type": "integer", "minimum": minimum, "maximum": maximum, "default": default}


def check_stream_id(stream_id: str) -> None:
    """A stream id the ledger could hold, before it reaches a query."""
    if len(stream_id) > 200 or not STREAM_ID.fullmatch(stream_id):
        raise errors.MalformedSubmission(
            f"stream id {stream_id[:200]!r} is not of the form <kind>:<key> (a lower-case "
            "kind; letters, digits and . _ : @ - in the key; at most 200 characters)",
            field="stream_id",
        )


class HasRole(BasePermission):
    """Any casino role may read the ledger; an account with no role may not."""

    message = "your account has no casino role"

    def has_permission(self, request, view) -> bool:
        return bool(roles_of(request.user))


def actor_of(request: Request, *, source: str = "api") -> ledger.Actor:
    """Who appends, with the device their credentials are bound to.

    A table device's account *is* its device: its events name its own
    username, and an ``X-Device`` naming another is refused. The system role
    (imports, gateways relaying devices' buffers) names the device it relays
    for. A person holds no device: an ``X-Device`` from a person is refused
    (403, kept with the rejected submissions) rather than ignored, so a client
    that believes it speaks for a device learns at once that it does not.
    """
    from audit import providers

    claimed = request.headers.get("X-Device", "")
    if text_problem(claimed) or not claimed.isprintable():
        raise errors.MalformedSubmission(
            "X-Device: a device name is printable text", field="X-Device"
        )
    roles = roles_of(request.user)
    known = providers.roles()
    if known.system in roles:
        device = claimed[:150]
    elif roles & known.devices:
        device = request.user.get_username()
        if claimed and claimed != device:
            raise errors.Forbidden(
                f"X-Device {claimed[:150]!r}: this token is device {device!r}'s; a device "
                "records under its own name",
                field="X-Device",
            )
    elif claimed:
        raise errors.Forbidden(
            f"X-Device {claimed[:150]!r}: a person cannot claim a device; a table device "
            "authenticates with its own token",
            field="X-Device",
        )
    else:
        device = ""
    return ledger.Actor.from_user(request.user, device=device, source=source)


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
    if isinstance(exc, exceptions.UnsupportedMediaType):
        refusal = errors.MalformedSubmission(str(exc.detail), field="Content-Type")
        refusal.status_code, refusal.reason = 415, "unsupported_media_type"
        return refusal
    if isinstance(exc, exceptions.APIException):
        return errors.MalformedSubmission(str(exc.detail))
    return errors.MalformedSubmission(str(exc))


def _user_of(request: Request):
    """The user the request was authenticated as, or None when authentication
    did not finish (asking now would run it again, and fail again)."""
    return request.__dict__.get("_user")


def _declared_length(request) -> int:
    try:
        return max(0, int(request.META.get("CONTENT_LENGTH") or 0))
    except ValueError:
        return 0




class StreamEventsView(LedgerAPIView):
    permission_classes = [HasRole]
    parser_classes = [StrictJSONParser]

    def dispatch(self, request, *args, **kwargs):
        # Keep the raw body for the refusal record before any parser reads it;
        # a body over the limit is never read (413 in post, after the throttles).
        self.body_length = _declared_length(request) if request.method == "POST" else 0
        self.raw_body = b""
        if request.method == "POST" and self.body_length <= settings.API_MAX_BODY_BYTES:
            with contextlib.suppress(RequestDataTooBig):  # a form's: 413 below
                self.raw_body = request.body
        return super().dispatch(request, *args, **kwargs)

    def handle_exception(self, exc):
        request = self.request
        if isinstance(exc, RequestDataTooBig):  # Django's limit, met reading a form
            exc = too_large(self.body_length)
        # Refusals (4xx) are kept, but for a client past its rate: that is what
        # the throttle is for. A fault is no refusal: it is logged with an error
        # id, and with the database gone it could not be recorded anyway.
        refusal = isinstance(exc, errors.LedgerError | exceptions.APIException)
        throttled = isinstance(exc, exceptions.Throttled)
        if (
            request.method == "POST"
            and refusal
            and not throttled
            and not getattr(exc, "recorded", False)
        ):
            user = _user_of(request)
            ledger.record_rejection(
                _as_ledger_error(exc),
                stream_id=self.kwargs.get("stream_id", ""),
                actor=ledger.Actor.from_user(user) if user is not None else None,
                idempotency_key=request.headers.get("Idempotency-Key", ""),
                raw_body=self.raw_body,
                body_length=self.body_length,
            )
        return super().handle_exception(exc)

    @extend_schema(
        summary="Read one stream",
        description="Who may read which stream is the read-scope matrix (README, "
        "`tables.read_scope`): by role, and for a table device the table its token is "
        "bound to, for a dealer the table days they are assigned to. A stream the caller "
        "may not read is a 403 whether or not it exists.",
        parameters=[
            STREAM_ID_PARAMETER,
            OpenApiParameter("after_version", _integer(0, INT32_MAX, 0)),
        ],
        responses={
            200: serializers.StreamReadSerializer,
            **{code: ERROR_RESPONSES[code] for code in (400, 401, 403, 404, 429)},
        },
    )
    def get(self, request: Request, stream_id: str, version: str = "v1") -> Response:
        check_stream_id(stream_id)
        after_version = _int_param(request, "after_version", 0, maximum=INT32_MAX)
        if not providers.read_scope().may_read(request.user, request.auth, stream_id):
            raise errors.Forbidden(
                f"your role(s) {sorted(roles_of(request.user))} may not read {stream_id} "
                "(the read-scope matrix: by role, and for devices and dealers by the table "
                "and the table day they are bound to)",
                field="stream_id",
            )
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
        parameters=[
            STREAM_ID_PARAMETER,
            OpenApiParameter(
                "Idempotency-Key",
                {"type": "string", "pattern": "^[ -~]{1,200}$", "maxLength": 200},
                OpenApiParameter.HEADER,
                description="At most 200 printable characters",
            ),
            OpenApiParameter(
                "X-Device",
                {"type": "string", "pattern": "^[ -~]{1,150}$", "maxLength": 150},
                OpenApiParameter.HEADER,
                description="The device the system role relays for; a device's own token "
                "names itself (another name is a 403), a person holds none (403)",
            ),
        ],
        request={"application/json": serializers.AppendRequestSerializer},
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
        if self.body_length > settings.API_MAX_BODY_BYTES:
            raise too_large(self.body_length)
        check_stream_id(stream_id)
        key = request.headers.get("Idempotency-Key") or None
        if key is not None and (len(key) > 200 or text_problem(key) or not key.isprintable()):
            raise errors.MalformedSubmission(
                "at most 200 printable characters", field="Idempotency-Key"
            )
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
        actor = actor_of(request)
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


class MayFollowLog(BasePermission):
    """The global log holds every kind of stream: for the roles that may read them all."""

    message = "the global log holds every stream: the regulator and the system role follow it"

    def has_permission(self, request, view) -> bool:
        return providers.read_scope().may_follow_log(request.user)


class GlobalEventsView(LedgerAPIView):
    permission_classes = [HasRole, MayFollowLog]

    @extend_schema(
        summary="Follow the global log",
        description="Events after a global position, in commit order with no gaps: "
        "keep the last position you saw and ask again.",
        parameters=[
            OpenApiParameter("after", _integer(0, INT64_MAX, 0)),
            OpenApiParameter(
                "limit",
                _integer(1, INT64_MAX, 100),
                description="At most LEDGER_READ_PAGE_MAX events are returned",
            ),
        ],
        responses={
            200: serializers.GlobalReadSerializer,
            **{code: ERROR_RESPONSES[code] for code in (400, 401, 403, 429)},
        },
    )
    def get(self, request: Request, version: str = "v1") -> Response:
        after = _int_param(request, "after", 0, maximum=INT64_MAX)
        limit = min(
            _int_param(request, "limit", 100, minimum=1, maximum=INT64_MAX),
            settings.LEDGER_READ_PAGE_MAX,
        )
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


class EventTypesView(LedgerAPIView):
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


def _int_param(
    request: Request, name: str, default: int, minimum: int = 0, maximum: int = INT32_MAX
) -> int:
    given = request.query_params.getlist(name)
    if len(given) > 1:
        raise errors.MalformedSubmission(f"{name} given {len(given)} times", field=name)
    raw = given[0] if given else None
    if raw is None or raw == "":
        return default
    if len(raw) > 20 or not raw.lstrip("-").isdigit() or not raw.isascii():
        raise errors.MalformedSubmission(f"{name} must be an integer", field=name)
    value = int(raw)
    if not minimum <= value <= maximum:
        raise errors.MalformedSubmission(
            f"{name} must lie between {minimum} and {maximum}", field=name
        )
    return value
