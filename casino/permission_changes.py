"""Changes to the append permissions: proposed by one administrator,
confirmed by another, each step a ledger event (segregation of duties).

Who may append which event type is data (``audit.models.AppendPermission``),
checked on every append. Nobody edits those rows in the admin any more, a
superuser included: an administrator *proposes* a grant or a revocation with
a reason (``permission.change_proposed``, a new ``permission-change:`` stream),
and a *second* administrator confirms it (``permission.change_confirmed``),
which applies it in the same transaction, or rejects it
(``permission.change_rejected``; the proposer may withdraw their own). The
stream's policy refuses a confirmation by the proposer, a second answer, and
any step from outside the admin or the command (the API cannot append them:
a confirmation appended there would apply nothing).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

from django import forms
from django.contrib.auth.models import Group
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.utils import timezone

from audit import errors
from audit.ledger import Actor, NewEvent, append, read_stream, record_rejection
from audit.models import AppendPermission, Event
from audit.records import roles_of
from audit.registry import (
    REGISTRY,
    TEXT,
    EventType,
    StreamKind,
    object_schema,
    register_event_type,
    register_stream_kind,
)
from casino.roles import Role

SECTION = "issue 14: segregation of duties"
NAME = {"type": "string", "minLength": 1, "maxLength": 150}
PROPOSED = register_event_type(EventType(
    name="permission.change_proposed", version=1,
    description="An administrator proposes to grant or revoke a role's right to append an "
    "event type; nothing changes until a second administrator confirms.",
    schema=object_schema({"role": NAME, "event_type": {**NAME, "maxLength": 100},
                          "change": {"enum": ["grant", "revoke"]}, "reason": TEXT,
                          "proposed_by": NAME}),
)).name  # fmt: skip
CONFIRMED = register_event_type(EventType(
    name="permission.change_confirmed", version=1,
    description="A second administrator confirmed the proposed change; it applied with this event.",
    schema=object_schema({"confirmed_by": NAME}),
)).name  # fmt: skip
REJECTED = register_event_type(EventType(
    name="permission.change_rejected", version=1,
    description="The proposed change was rejected (or withdrawn by its proposer): nothing changed.",
    schema=object_schema({"rejected_by": NAME, "reason": TEXT}),
)).name  # fmt: skip
SOURCES = frozenset({"admin", "command"})
#: The grant that lets administrators make these changes: never revoked through them.
OWN_GRANT = "permission.*"


def _policy(stream_id: str, so_far: Any, new: Any, actor: Actor) -> None:
    if actor.source not in SOURCES:
        raise errors.Forbidden(
            "append permissions change in the admin (Append permissions → Propose a change), "
            "where a confirmation applies them; not through the API", field="stream_id",
            section=SECTION)  # fmt: skip
    if Role.ADMINISTRATOR.value not in actor.roles:
        raise errors.Forbidden("only administrators propose or answer changes of append "
                               "permissions", field="events[0].type", section=SECTION)  # fmt: skip
    if len(new) != 1:
        raise errors.RuleViolation("one step at a time: a proposal, then one answer",
                                   field="events", section=SECTION)  # fmt: skip
    event = new[0]
    named = {PROPOSED: "proposed_by", CONFIRMED: "confirmed_by", REJECTED: "rejected_by"}
    if event.payload[named[event.event_type]] != actor.username:
        raise errors.Forbidden(f"{named[event.event_type]} must name who appends it "
                               f"({actor.username})", field=f"events[0].payload."
                               f"{named[event.event_type]}", section=SECTION)  # fmt: skip
    if so_far.version == 0:
        if event.event_type != PROPOSED:
            raise errors.RuleViolation("a change starts with its proposal", field="events[0].type",
                                       section=SECTION)  # fmt: skip
        return
    if so_far.version > 1 or event.event_type == PROPOSED:
        raise errors.RuleViolation(f"{stream_id} is already answered; propose the change again",
                                   field="stream_id", section=SECTION)  # fmt: skip
    proposer = list(so_far)[0].payload["proposed_by"]
    if event.event_type == CONFIRMED and proposer == actor.username:
        raise errors.Forbidden(
            f"{actor.username} proposed this change: a second administrator confirms it",
            field="events[0].payload.confirmed_by", section=SECTION)  # fmt: skip


register_stream_kind(StreamKind(
    name="permission-change",
    description="One proposed change of the append permissions and its answer (a second "
    "administrator's confirmation, which applies it, or a rejection).",
    accepts=frozenset({PROPOSED, CONFIRMED, REJECTED}),
    policy=_policy,
))  # fmt: skip


@dataclass(frozen=True)
class Proposal:
    stream_id: str
    role: str
    event_type: str
    change: str
    reason: str
    proposed_by: str
    proposed_at: Any
    answer: str = ""
    answered_by: str = ""


def _check_change(role: str, event_type: str, change: str) -> None:
    if not Group.objects.filter(name=role).exists():
        raise errors.SchemaViolation(f"no role {role!r}", field="role", section=SECTION)
    family = event_type[:-1] if event_type.endswith("*") else None
    known = (event_type in REGISTRY.event_types or event_type == "*" or (
        family is not None and any(name.startswith(family) for name in REGISTRY.event_types)))
    if not known:
        raise errors.SchemaViolation(f"no event type or family {event_type!r}",
                                     field="event_type", section=SECTION)  # fmt: skip
    held = AppendPermission.objects.filter(role__name=role, event_type=event_type).exists()
    if change == "grant" and held:
        raise errors.RuleViolation(f"{role} already may append {event_type}", field="event_type",
                                   section=SECTION)  # fmt: skip
    if change == "revoke" and not held:
        raise errors.RuleViolation(f"{role} holds no grant {event_type!r} to revoke",
                                   field="event_type", section=SECTION)  # fmt: skip
    if change == "revoke" and role == Role.ADMINISTRATOR.value and event_type == OWN_GRANT:
        raise errors.RuleViolation("administrators' right to change append permissions is not "
                                   "revoked this way (no one could change them after)",
                                   field="event_type", section=SECTION)  # fmt: skip


def propose(user, *, role: str, event_type: str, change: str, reason: str,
            source: str = "admin") -> str:  # fmt: skip
    """Append the proposal; returns its stream id. Nothing changes yet."""
    _check_change(role, event_type, change)
    stream_id = f"permission-change:{timezone.now():%Y%m%dT%H%M%S}-{secrets.token_hex(3)}"
    append(stream_id, [NewEvent(PROPOSED, {
        "role": role, "event_type": event_type, "change": change, "reason": reason,
        "proposed_by": user.get_username()})],
        expected_version=0, actor=Actor.from_user(user, source=source))  # fmt: skip
    return stream_id


def answer(user, stream_id: str, *, confirm: bool, reason: str = "", source: str = "admin"):
    """Confirm (and apply) or reject the proposal of ``stream_id``."""
    actor = Actor.from_user(user, source=source)
    events = read_stream(stream_id) if stream_id.startswith("permission-change:") else []
    if not events or events[0].event_type != PROPOSED:
        raise errors.UnknownStream(f"no proposed change {stream_id!r}", field="stream_id")
    if len(events) > 1:
        refused = errors.RuleViolation(f"{stream_id} is already answered; propose the change "
                                       "again", field="stream_id", section=SECTION)  # fmt: skip
        record_rejection(refused, stream_id=stream_id, actor=actor)
        raise refused
    if confirm:
        step = NewEvent(CONFIRMED, {"confirmed_by": user.get_username()})
    else:
        step = NewEvent(REJECTED, {"rejected_by": user.get_username(),
                                   "reason": reason or "rejected"})  # fmt: skip
    try:
        with transaction.atomic():  # the confirmation and the change, or neither
            append(stream_id, [step], expected_version=1, actor=actor)
            if confirm:
                _apply(events[0].payload)
    except errors.LedgerError as refused:
        # The refusal's record went with the rolled-back block: keep it.
        record_rejection(refused, stream_id=stream_id, actor=actor)
        raise


def _apply(proposal: dict[str, Any]) -> None:
    role = Group.objects.get(name=proposal["role"])
    if proposal["change"] == "grant":
        AppendPermission.objects.get_or_create(role=role, event_type=proposal["event_type"])
    else:
        for permission in AppendPermission.objects.filter(role=role,
                                                          event_type=proposal["event_type"]):
            permission.delete()  # one by one: each deletion in the permission's history


def proposals() -> list[Proposal]:
    """Every proposal, newest first, with its answer (the ledger is the record)."""
    rows = (Event.objects.filter(stream_id__startswith="permission-change:")
            .order_by("stream_id", "version"))  # fmt: skip
    found: dict[str, Proposal] = {}
    for row in rows:
        if row.event_type == PROPOSED:
            found[row.stream_id] = Proposal(row.stream_id, proposed_at=row.occurred_at,
                                            **row.payload)  # fmt: skip
        elif row.stream_id in found:
            who = row.payload.get("confirmed_by") or row.payload.get("rejected_by", "")
            done = "confirmed" if row.event_type == CONFIRMED else "rejected"
            found[row.stream_id] = Proposal(**{**found[row.stream_id].__dict__,
                                               "answer": done, "answered_by": who})  # fmt: skip
    return sorted(found.values(), key=lambda p: p.proposed_at, reverse=True)


# --- the admin page ------------------------------------------------------------------


class ProposeForm(forms.Form):
    role = forms.ChoiceField()
    change = forms.ChoiceField(choices=[("grant", "grant"), ("revoke", "revoke")])
    event_type = forms.CharField(max_length=100, help_text="an event type, or a family "
                                 "(round.*)")  # fmt: skip
    reason = forms.CharField(max_length=500, widget=forms.Textarea(attrs={"rows": 2}))

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["role"].choices = [(r.value, r.value) for r in Role]


def page(request):
    """Propose a change, and confirm or reject the pending ones (administrators)."""
    from django.contrib import admin as django_admin

    if not (request.user.is_active and request.user.is_staff
            and Role.ADMINISTRATOR.value in roles_of(request.user)):  # fmt: skip
        raise PermissionDenied
    form = ProposeForm(request.POST if request.POST.get("action") == "propose" else None)
    error = ""
    if request.method == "POST":
        try:
            if request.POST.get("action") == "propose":
                if form.is_valid():
                    propose(request.user, **form.cleaned_data)
                    return redirect("permission-changes")
            else:
                answer(request.user, request.POST.get("stream_id", ""),
                       confirm=request.POST.get("action") == "confirm",
                       reason=request.POST.get("reason", ""))  # fmt: skip
                return redirect("permission-changes")
        except errors.LedgerError as refused:
            error = refused.message
    context = {**django_admin.site.each_context(request), "title": "Changes of append permissions",
               "form": form, "error": error, "proposals": proposals(),
               "me": request.user.get_username()}  # fmt: skip
    return TemplateResponse(request, "admin/permission_changes.html", context)
