"""What a floorperson does with a button: each action appends one event
through the ledger's append service, signed by the logged-in person. The
ledger checks the role (append permissions) and the stream's policy checks
the two-person rules; a refusal comes back as a message naming the rule."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.admin.views.decorators import staff_member_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from audit import errors
from audit.ledger import Actor, NewEvent, append, stream_version
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


@require_POST
@staff_member_required
def act(request: HttpRequest, action: str, stream_id: str) -> HttpResponse:
    back = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()}):
        back = "/admin/floor/"
    if action not in ACTIONS or not stream_id.startswith(ACTIONS[action][0] + ":"):
        messages.error(request, f"Unknown action {action!r} for {stream_id}.")
        return HttpResponseRedirect(back)
    _, event_type, payload, done = ACTIONS[action]
    username = request.user.get_username()
    try:
        append(
            stream_id,
            [NewEvent(event_type, payload(username, request))],
            expected_version=stream_version(stream_id),
            actor=Actor.from_user(request.user, source="admin"),
        )
    except errors.LedgerError as error:
        section = f" (§ {error.section})" if error.section else ""
        messages.error(request, f"Not {done}: {error.message}{section}")
    else:
        run_all()
        messages.success(request, f"{stream_id.split(':', 1)[1]} {done} by {username}.")
    return HttpResponseRedirect(back)
