"""The nightly ledger check: ``audit.verify.verify`` in full, and on any
failure a finding recorded in the ledger itself (``ledger.check_failed`` on
``ledger-check:<when>``, appended by the system), logged as an error.

The finding is written even when the tampering hides in the tables beside
the ledger: its own stream is hash-chained like every other, and a seal
signs the day it falls in.
"""

from __future__ import annotations

import logging
from typing import Any

from django.utils import timezone

from audit.ledger import Actor, NewEvent, append
from audit.registry import (
    TEXT,
    EventType,
    StreamKind,
    object_schema,
    register_event_type,
    register_stream_kind,
)
from audit.verify import Report, verify

logger = logging.getLogger(__name__)

CHECK_FAILED = "ledger.check_failed"
#: The most problems one finding lists (it says how many there were).
MAX_LISTED = 200

register_event_type(
    EventType(
        name=CHECK_FAILED,
        version=1,
        description="The nightly ledger check found the ledger, a seal or a table beside it "
        "inconsistent: each problem names the stream, version and position, or the seal, row "
        "or permission.",
        schema=object_schema(
            {
                "problems": {"type": "array", "items": TEXT, "maxItems": MAX_LISTED},
                "count": {"type": "integer", "minimum": 1},
                "events": {"type": "integer", "minimum": 0},
                "seals": {"type": "integer", "minimum": 0},
            }
        ),
    )
)


def _job_only(stream_id: str, recorded: Any, new: Any, actor: Actor) -> None:
    from audit import errors, providers

    if providers.roles().system not in actor.roles:
        raise errors.Forbidden(
            f"{stream_id} is written by the ledger check only", field="stream_id"
        )


register_stream_kind(
    StreamKind(
        name="ledger-check",
        description="A finding of the nightly ledger check: what it found inconsistent.",
        accepts=frozenset({CHECK_FAILED}),
        policy=_job_only,
    )
)


def problems_of(report: Report) -> list[str]:
    listed = [str(problem) for problem in report.breaks]
    listed += [f"global order: {problem}" for problem in report.position_problems]
    listed += [f"{what}: {problem}" for what, found in report.problems.items() for problem in found]
    return listed


def check_ledger() -> dict[str, Any]:
    """Run the check; on failure append the finding and log it."""
    report = verify()
    if report.ok:
        return {"ok": True, "events": report.events, "seals": report.seals}
    problems = problems_of(report)
    stream_id = f"ledger-check:{timezone.now():%Y%m%dT%H%M%SZ}"
    append(stream_id, [NewEvent(CHECK_FAILED, {
        "problems": [problem[:500] for problem in problems[:MAX_LISTED]],
        "count": len(problems), "events": report.events, "seals": report.seals,
    })], expected_version=0, actor=Actor.system("ledger-check", source="job"))  # fmt: skip
    logger.error("the ledger check found %d problem(s), recorded in %s: %s",
                 len(problems), stream_id, "; ".join(problems[:5]))  # fmt: skip
    return {"ok": False, "finding": stream_id, "problems": len(problems)}
