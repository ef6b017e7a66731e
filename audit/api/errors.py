"""One error shape for the whole API: ``{"error", "message", "field"?, "section"?}``.

Faults keep the shape too. A database or broker that cannot be reached (or
drops the connection) is a 503 with ``Retry-After``: the device retries with
the same ``Idempotency-Key`` and gets the original answer if the first try was
in fact stored. Any other unexpected error is a 500 whose ``error_id`` is in
the log line with the traceback. ``server_error`` (Django's ``handler500``)
gives the same answers for what escapes the API views.
"""

from __future__ import annotations

import logging
import sys
import uuid
from typing import Any

from django.conf import settings
from django.db import InterfaceError as DjangoInterfaceError
from django.db import OperationalError as DjangoOperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views import defaults
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from audit.errors import LedgerError

logger = logging.getLogger(__name__)


def _outage_types() -> tuple[type[BaseException], ...]:
    import kombu.exceptions
    import psycopg
    import redis.exceptions

    return (
        DjangoOperationalError,
        DjangoInterfaceError,
        psycopg.OperationalError,
        psycopg.InterfaceError,
        kombu.exceptions.OperationalError,
        redis.exceptions.ConnectionError,
        redis.exceptions.TimeoutError,
        ConnectionError,
    )


def is_outage(exc: BaseException) -> bool:
    """A lost or refused connection to the database or the broker (or a
    transient server state such as a deadlock): worth retrying, never the
    caller's fault. Looks through the chain of causes."""
    types = _outage_types()
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        if isinstance(current, types):
            return True
        seen.add(id(current))
        current = current.__cause__ or current.__context__
    return False


def fault_body(exc: BaseException, path: str) -> tuple[dict[str, Any], int, dict[str, str]]:
    """The answer to an unexpected exception, logged with its error id."""
    error_id = uuid.uuid4().hex
    if is_outage(exc):
        retry_after = settings.API_RETRY_AFTER_SECONDS
        logger.warning("503 %s on %s: %s: %s", error_id, path, type(exc).__name__, exc)
        body = {
            "error": "unavailable",
            "message": "the database or the job broker is unavailable; retry after "
            f"{retry_after} s with the same Idempotency-Key",
            "retry_after": retry_after,
            "error_id": error_id,
        }
        return body, status.HTTP_503_SERVICE_UNAVAILABLE, {"Retry-After": str(retry_after)}
    logger.error("500 %s on %s", error_id, path, exc_info=(type(exc), exc, exc.__traceback__))
    body = {
        "error": "internal_error",
        "message": f"unexpected error, logged as {error_id}",
        "error_id": error_id,
    }
    return body, status.HTTP_500_INTERNAL_SERVER_ERROR, {}


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, LedgerError):
        return Response(exc.as_dict(), status=exc.status_code)
    response = drf_exception_handler(exc, context)
    if response is None:
        request = context.get("request")
        body, code, headers = fault_body(exc, request.path if request is not None else "")
        return Response(body, status=code, headers=headers)
    if isinstance(exc, exceptions.ValidationError):
        field, message = _first_error(exc.detail)
        body = {"error": "schema_violation", "message": message}
        if field:
            body["field"] = field
        response.data = body
        return response
    code = {
        status.HTTP_401_UNAUTHORIZED: "not_authenticated",
        status.HTTP_403_FORBIDDEN: "forbidden",
        status.HTTP_404_NOT_FOUND: "not_found",
        status.HTTP_405_METHOD_NOT_ALLOWED: "method_not_allowed",
        status.HTTP_406_NOT_ACCEPTABLE: "not_acceptable",
        status.HTTP_413_REQUEST_ENTITY_TOO_LARGE: "too_large",
        status.HTTP_415_UNSUPPORTED_MEDIA_TYPE: "unsupported_media_type",
        status.HTTP_429_TOO_MANY_REQUESTS: "throttled",
        status.HTTP_400_BAD_REQUEST: "malformed",
    }.get(response.status_code, "error")
    detail = response.data.get("detail", "") if isinstance(response.data, dict) else ""
    response.data = {"error": code, "message": str(detail)}
    return response


def _first_error(detail: Any, prefix: str = "") -> tuple[str, str]:
    if isinstance(detail, dict):
        for key, value in detail.items():
            if isinstance(key, int):  # a list serializer's errors, keyed by index
                return _first_error(value, f"{prefix}[{key}]")
            name = key if key != "non_field_errors" else ""
            path = f"{prefix}.{name}" if prefix and name else (name or prefix)
            return _first_error(value, path)
    if isinstance(detail, list) and detail:
        if all(not isinstance(item, (dict, list)) for item in detail):
            return prefix, f"{prefix}: {detail[0]}" if prefix else str(detail[0])
        for index, item in enumerate(detail):
            if item:
                return _first_error(item, f"{prefix}[{index}]")
    return prefix, f"{prefix}: {detail}" if prefix else str(detail)


def server_error(request: HttpRequest) -> HttpResponse:
    """``handler500``: called with the exception being handled. The API answers
    in its JSON shape; pages keep Django's, with a 503 for an outage."""
    exc = sys.exc_info()[1]
    if request.path.startswith("/api/"):
        if exc is None:
            exc = RuntimeError("unknown server error")
        body, code, headers = fault_body(exc, request.path)
        return JsonResponse(body, status=code, headers=headers)
    if exc is not None and is_outage(exc):
        retry_after = str(settings.API_RETRY_AFTER_SECONDS)
        return HttpResponse(
            "The service is unavailable for a moment; try again shortly.\n",
            status=503,
            content_type="text/plain",
            headers={"Retry-After": retry_after},
        )
    return defaults.server_error(request)


#: What any operation may answer whoever calls it: no or bad credentials, a role
#: without access, a client past its rate (``audit.api.throttling``).
_ANY_CALL = {
    "401": "Not authenticated (no or invalid credentials)",
    "403": "The role may not do this",
    "429": "Too many requests: per address without valid credentials, per token with "
    "them; retry after Retry-After seconds",
}


def document_faults(result: dict[str, Any], generator: Any, request: Any, public: bool) -> dict:
    """drf-spectacular post-processing hook: every operation may answer 401,
    403 and 429 in the error shape, 500 (with an error id) and 503 (with
    ``Retry-After``)."""
    components = result.setdefault("components", {}).setdefault("schemas", {})
    components.setdefault(
        "Fault",
        {
            "type": "object",
            "properties": {
                "error": {"type": "string", "enum": ["unavailable", "internal_error"]},
                "message": {"type": "string"},
                "error_id": {"type": "string", "description": "Also in the server's log"},
                "retry_after": {"type": "integer", "description": "Seconds; 503 only"},
            },
            "required": ["error", "message", "error_id"],
        },
    )
    fault = {"application/json": {"schema": {"$ref": "#/components/schemas/Fault"}}}
    refusal = {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
    for operations in result.get("paths", {}).values():
        for operation in operations.values():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            if "Error" in components:
                for code, text in _ANY_CALL.items():
                    operation["responses"].setdefault(code, {"description": text,
                                                             "content": refusal})  # fmt: skip
            if "429" in operation["responses"]:
                operation["responses"]["429"].setdefault("headers", {"Retry-After": {
                    "schema": {"type": "integer"},
                    "description": "Seconds to wait before the next request"}})  # fmt: skip
            operation["responses"].setdefault("500", {
                "description": "Unexpected error: the body's error_id is in the server's log",
                "content": fault,
            })  # fmt: skip
            operation["responses"].setdefault("503", {
                "description": "The database or the job broker is unavailable: retry after "
                "Retry-After seconds (an append with the same Idempotency-Key gets the "
                "original answer if the first try was stored)",
                "headers": {"Retry-After": {"schema": {"type": "integer"},
                                            "description": "Seconds to wait before retrying"}},
                "content": fault,
            })  # fmt: skip
    return result
