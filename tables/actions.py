"""What a floorperson does with a button: each action appends one event
through the ledger's append service, signed by the logged-in person. The
ledger checks the role (append permissions) and the stream's policy checks
the two-person rules; a refusal comes back as a message naming the rule.

Each form carries the stream version the page showed (``expected_version``)
and the append expects exactly that version, so a person never approves or
acknowledges something that changed after they loaded the page; a form
without a version is refused, never given the current one."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.admin.views.decorators import staff_member_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from audit import errors
from audit.ledger import Actor, NewEvent, append, read_stream, record_rejection
from audit.projections import run_all

#: action name → (stream kind, event type, payload for the signed-in person, past tense)
ACTIONS: dict[str, tuple[str, str, Callable[[str, HttpRequest], dict[str, Any]], str]] = {
    "approve-slip": ("slip", "slip.approved", lambda user, _: {"approved_by": user}, "approved"),
    "verify-deck": ("deck", "deck.verified", lambda user, _: {"floorperson": user}, "verified"),
    "acknowledge-finding": (
        "compliance",
        "compliance.acknowledged",
        lambda user, request: {
            "acknowledged_by": user,
            "note": request.POST.get("note", "")[:500],
        },  # fmt: skip
        "acknowledged",
    ),
}

#: A stream version as the page renders it: a positive whole number, nothing else.
_VERSION = re.compile(r"[1-9][0-9]{0,17}")


@require_POST
@staff_member_required
def act(request: HttpRequest, action: str, stream_id: str) -> HttpResponse:
    back = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()}):
        back = "/admin/floor/"
    if action not in ACTIONS or not stream_id.startswith(ACTIONS[action][0] + ":"):
        messages.error(request, f"Unknown action {action!r} for {stream_id}.")
        return HttpResponseRedirect(back)
    kind, event_type, payload, done = ACTIONS[action]
    username = request.user.get_username()
    actor = Actor.from_user(request.user, source="admin")
    seen = request.POST.get("expected_version", "")
    if not _VERSION.fullmatch(seen):
        refusal = errors.MalformedSubmission(
            f"the form did not say which version of {stream_id} it showed "
            f"(expected_version {seen[:20]!r}: a positive whole number)",
            field="expected_version",
        )
        record_rejection(refusal, stream_id=stream_id, actor=actor, raw_body=_form(request))
        messages.error(request, f"Not {done}: {refusal.message}; reload the page and try again.")
        return HttpResponseRedirect(back)
    try:
        append(
            stream_id,
            [NewEvent(event_type, payload(username, request))],
            expected_version=int(seen),
            actor=actor,
        )
    except errors.StaleVersion:
        what = f"{'finding' if kind == 'compliance' else kind} {stream_id.split(':', 1)[1]}"
        messages.error(
            request,
            f"Not {done}: {what} changed since you loaded the page "
            f"({_changes_after(stream_id, int(seen))}): reload and check it again.",
        )
    except errors.LedgerError as error:
        section = f" (§ {error.section})" if error.section else ""
        messages.error(request, f"Not {done}: {error.message}{section}")
    else:
        run_all()
        messages.success(request, f"{stream_id.split(':', 1)[1]} {done} by {username}.")
    return HttpResponseRedirect(back)


def _changes_after(stream_id: str, version: int) -> str:
    """What was appended to the stream after ``version``, and by whom."""
    changes = [
        f"{event.event_type} by {event.metadata.get('actor') or 'unknown'}"
        for event in read_stream(stream_id, after_version=version)
    ]
    return "; ".join(changes) or f"the page showed version {version}, which it never reached"


def _form(request: HttpRequest) -> str:
    """The posted fields as kept with a refusal (the CSRF token left out)."""
    return json.dumps(
        {key: value for key, value in request.POST.items() if key != "csrfmiddlewaretoken"}
    )
