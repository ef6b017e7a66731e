"""One error shape for the whole API: ``{"error", "message", "field"?, "section"?}``."""

from __future__ import annotations

from typing import Any

from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from audit.errors import LedgerError


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, LedgerError):
        return Response(exc.as_dict(), status=exc.status_code)
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
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
