"""The API's only parser: JSON the ledger can store, within fixed bounds.

Anything else is refused with a 4xx naming the field, before a serializer,
the hash chain or the database sees it: JSON nested deeper than
``API_MAX_JSON_DEPTH`` (the standard library would recurse into a
``RecursionError``), the NUL character (PostgreSQL's text and jsonb cannot
hold it) and lone surrogates such as ``"\\ud800"`` (valid JSON escapes that
UTF-8, and so the canonical JSON of the hash chain, cannot encode). Other
media types are a 415 (DRF's ``UnsupportedMediaType``); the body's size is
bounded before parsing (``audit.api.views``).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from rest_framework.parsers import JSONParser

from audit import errors
from audit.validation import text_problem


def first_problem(value: Any, max_depth: int) -> tuple[str, str] | None:
    """The first (field, reason) of ``value`` that cannot be stored: nesting
    deeper than ``max_depth`` or a text refused by ``text_problem``. Walks
    with an explicit stack, so no depth makes it recurse."""
    stack: list[tuple[Any, str, int]] = [(value, "", 1)]
    while stack:
        item, path, depth = stack.pop()
        if isinstance(item, str):
            problem = text_problem(item)
            if problem:
                return path or "body", problem
            continue
        if isinstance(item, dict):
            children = []
            for key, child in item.items():
                problem = text_problem(key)
                if problem:
                    return f"{path}.{key!r}" if path else repr(key), f"a key: {problem}"
                children.append((child, f"{path}.{key}" if path else key))
        elif isinstance(item, list):
            children = [(child, f"{path}[{index}]") for index, child in enumerate(item)]
        else:
            continue
        if depth > max_depth:
            return path or "body", f"JSON nested deeper than {max_depth} levels is refused"
        stack.extend((child, where, depth + 1) for child, where in reversed(children))
    return None


def too_large(length: int) -> errors.PayloadTooLarge:
    limit = settings.API_MAX_BODY_BYTES
    return errors.PayloadTooLarge(
        f"the body is {length:,} bytes; the API accepts at most {limit:,} "
        "(API_MAX_BODY_BYTES): send fewer events per append",
        field="body",
    )


class StrictJSONParser(JSONParser):
    """DRF's JSON parser, bounded in size and depth, refusing unstorable text."""

    def parse(self, stream, media_type=None, parser_context=None):
        # The view refuses a large body unread; a session's CSRF check asks for the
        # parsed body earlier, during authentication, and DRF reads it first (at most
        # DATA_UPLOAD_MAX_MEMORY_SIZE: beyond, Django refuses and the view answers 413).
        request = (parser_context or {}).get("request")
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0) if request is not None else 0
        except ValueError:
            length = 0
        if length > settings.API_MAX_BODY_BYTES:
            raise too_large(length)
        limit = settings.API_MAX_JSON_DEPTH
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise errors.MalformedSubmission(
                f"JSON nested deeper than {limit} levels is refused", field="body"
            ) from None
        problem = first_problem(data, limit)
        if problem:
            field, reason = problem
            raise errors.MalformedSubmission(f"{field}: {reason}", field=field)
        return data
