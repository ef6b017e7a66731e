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
from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.contrib.admin.views.decorators import staff_member_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from audit import errors
from audit.ledger import Actor, NewEvent, append, read_stream, record_rejection
from audit.projections import run_all


def _note(request: HttpRequest) -> str:
    return request.POST.get("note", "")[:500]


def _resolved(user: str, request: HttpRequest) -> dict[str, Any]:
    # A malformed version is the schema's to refuse, naming the field.
    version = request.POST.get("correcting_version", "").strip()
    event = {"stream_id": request.POST.get("correcting_stream", "").strip(),
             "version": int(version) if version.isdigit() else version}  # fmt: skip
    return {"resolved_by": user, "note": _note(request), "correcting_event": event}


def _acknowledged_round_finding(user: str, request: HttpRequest) -> dict[str, Any]:
    seat = request.POST.get("seat", "")
    return {"round_stream": request.POST.get("round_stream", ""),
            "seat": int(seat) if seat.isdigit() else seat, "wager": request.POST.get("wager", ""),
            "kind": request.POST.get("kind", ""), "acknowledged_by": user,
            "note": _note(request)}  # fmt: skip


def _acknowledged_variance(user: str, request: HttpRequest) -> dict[str, Any]:
    return {"gaming_day": request.POST.get("gaming_day", ""),
            "table_id": request.POST.get("table_id", ""), "kind": request.POST.get("kind", ""),
            "acknowledged_by": user,
            "owner": request.POST.get("owner", "").strip()[:150] or user,
            "note": _note(request)}  # fmt: skip


def _accepted(user: str, request: HttpRequest) -> dict[str, Any]:
    return {"accepted_by": user, "reason": request.POST.get("reason", "")[:500]}


@dataclass(frozen=True)
class Action:
    #: stream kind → the event type this action appends there
    event_types: dict[str, str]
    payload: Callable[[str, HttpRequest], dict[str, Any]]
    done: str
    #: Whether the action may start its stream (the page showed no stream: version 0).
    starts_stream: bool = False


ACTIONS: dict[str, Action] = {
    "approve-slip": Action({"slip": "slip.approved"}, lambda user, _: {"approved_by": user},
                           "approved"),
    "verify-deck": Action({"deck": "deck.verified"}, lambda user, _: {"floorperson": user},
                          "verified"),
    "acknowledge-finding": Action(
        {"compliance": "compliance.acknowledged"},
        lambda user, request: {"acknowledged_by": user, "note": _note(request)}, "acknowledged"),
    "acknowledge-round-finding": Action({"finding": "finding.acknowledged"},
                                        _acknowledged_round_finding, "acknowledged",
                                        starts_stream=True),
    "resolve-finding": Action({"compliance": "compliance.resolved",
                               "finding": "finding.resolved"}, _resolved, "resolved"),
    "accept-finding": Action(
        {"compliance": "compliance.accepted", "finding": "finding.accepted"}, _accepted,
        "accepted"),
    # A variance's steps are finance's: their own actions, so that a finance
    # analyst is offered no finding's buttons and a floorperson no variance's.
    "acknowledge-variance": Action({"variance": "variance.acknowledged"},
                                   _acknowledged_variance, "acknowledged", starts_stream=True),
    "resolve-variance": Action({"variance": "variance.resolved"}, _resolved, "resolved"),
    "accept-variance": Action({"variance": "variance.accepted"}, _accepted, "accepted"),
}  # fmt: skip

#: A stream version as the page renders it: a positive whole number, nothing else.
_VERSION = re.compile(r"[1-9][0-9]{0,17}")


@require_POST
@staff_member_required
def act(request: HttpRequest, action: str, stream_id: str) -> HttpResponse:
    back = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()}):
        back = "/admin/floor/"
    kind = stream_id.partition(":")[0]
    if action not in ACTIONS or kind not in ACTIONS[action].event_types:
        messages.error(request, f"Unknown action {action!r} for {stream_id}.")
        return HttpResponseRedirect(back)
    chosen = ACTIONS[action]
    event_type, done = chosen.event_types[kind], chosen.done
    username = request.user.get_username()
    actor = Actor.from_user(request.user, source="admin")
    seen = request.POST.get("expected_version", "")
    if not (_VERSION.fullmatch(seen) or (chosen.starts_stream and seen == "0")):
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
            [NewEvent(event_type, chosen.payload(username, request))],
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


def actions_allowed(user: Any) -> dict[str, bool]:
    """Which buttons the person may press: none for a read-only role (a
    regulator), otherwise those whose event types their role may append.
    Pages draw only these; the ledger still checks every press."""
    from audit.validation import may_append
    from casino.roles import READ_ONLY_ROLES

    actor = Actor.from_user(user)
    if not user.is_authenticated or actor.roles & {role.value for role in READ_ONLY_ROLES}:
        return {name.replace("-", "_"): False for name in ACTIONS}
    # Keyed approve_slip, verify_deck…: names a template can read.
    return {name.replace("-", "_"): any(may_append(actor, t) for t in action.event_types.values())
            for name, action in ACTIONS.items()}  # fmt: skip
