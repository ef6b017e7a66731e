"""A change proposed by one person that takes effect only once a second
person confirms it: the segregation of duties of a stream policy.

Streams that use it hold proposals (events naming who proposed them) and
confirmations (events naming the version they confirm and who confirms).
``awaiting`` folds a stream's events into the proposals still waiting;
``check_confirmation`` refuses a confirmation that is not a second person's
own. Nothing here knows what is proposed; the configuration streams
(``casino.configuration``) use it, and any other two-person change can.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from audit import errors, providers


def awaiting(
    events: Iterable[Any],
    *,
    proposed: str,
    confirmed: str,
    proposer_field: str,
    needs_confirmation: str,
) -> dict[int, str]:
    """The proposals of ``events`` still waiting for a second person:
    version → who proposed it. A proposal whose ``needs_confirmation`` field
    is false never waits."""
    waiting: dict[int, str] = {}
    for event in events:
        if event.event_type == proposed and event.payload.get(needs_confirmation, True):
            waiting[event.version] = event.payload[proposer_field]
        elif event.event_type == confirmed:
            waiting.pop(event.payload["confirms_version"], None)
    return waiting


def is_person(actor: Any) -> bool:
    """A person signs in their own name; a device or a job is not a person."""
    roles = providers.roles()
    return actor is not None and not actor.roles & ({roles.system} | roles.devices)


def check_confirmation(
    waiting: Mapping[int, str], version: int, confirmed_by: str, actor: Any, where: str
) -> None:
    """A confirmation names a proposal still waiting, and is signed in person
    by someone other than its proposer."""
    field = f"{where}.payload"
    if version not in waiting:
        pending = ", ".join(str(v) for v in sorted(waiting)) or "none"
        raise errors.RuleViolation(
            f"{field}.confirms_version: version {version} awaits no confirmation "
            f"(waiting: {pending})",
            field=f"{field}.confirms_version",
        )
    if not is_person(actor) or actor.username != confirmed_by:
        who = getattr(actor, "username", "") or "anyone"
        raise errors.RuleViolation(
            f"{field}.confirmed_by: {confirmed_by} confirms in person, authenticated as "
            f"themselves (not {who})",
            field=f"{field}.confirmed_by",
        )
    if confirmed_by == waiting[version]:
        raise errors.RuleViolation(
            f"{field}.confirmed_by: {confirmed_by} proposed version {version}; a second "
            "person confirms it (segregation of duties)",
            field=f"{field}.confirmed_by",
        )
