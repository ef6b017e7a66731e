"""Determinism guard for the engine rebuild: what replay *says* never moves.

The seeded simulated rounds of :mod:`tests.rules.test_replay_equivalence`
(every rule set, dealer errors and irregularities injected, damaged streams
and payloads) are stored as version-1 records, read back through
:func:`tables.rules.events.event_from_record` (so every upcaster runs), and
replayed. What a person or a finding can see is written out canonically and
hashed: the phase after every event, every settlement line (seat, wager,
outcome, stake, amount, section, pay line, odds, notes), the options applied,
the findings, and for a refused stream the event index, section and field.
Damaged payloads are judged accepted or refused.

The digest was computed on the engine as it stood before games became
declarations; the rebuilt core must reproduce it exactly.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterator
from typing import Any

from tables.rules.engine import Automation, RuleViolation
from tables.rules.events import Event, event_from_record
from tables.rules.events_v1 import V1_FIELDS
from tables.rules.replay import replay
from tests.rules.test_replay_equivalence import damaged_payloads, simulated_rounds

OBSERVABLE_DIGEST = "1f020ffd5e8170baf8dc1f7b97d6023952c1d922a8b8727fbe7d203a4a6506e6"

# Version 2 renamed these fields; a refusal naming one names it by its new name.
_FIELDS = {
    "position": "spot",
    "hole": "spot",
    **{
        name: f"options.{name}"
        for name in ("five_card_bonus_offered", "pair_of_tens_middle_bets", "positions_per_player")
    },
}


def v1_record(event: Event) -> dict[str, Any]:
    """The record a device stored before the vocabulary went to version 2."""
    payload = event.to_payload()
    if event.SCHEMA_VERSION == 1:
        return {"type": event.TYPE, "schema_version": 1, "payload": payload}
    payload.pop("hand", None)
    payload.pop("face_up", None)
    if "options" in payload:
        options = payload.pop("options")
        payload["five_card_bonus_offered"] = options.get("five_card_bonus_offered", False)
        payload["pair_of_tens_middle_bets"] = options.get("pair_of_tens_middle_bets")
        payload["positions_per_player"] = options.get("positions_per_player")
    if "spot" in payload:
        spot = payload.pop("spot")
        community = payload.get("recipient") == "COMMUNITY" or "kind" in payload
        payload["position"] = spot if community else None
        if "recipient" in payload:
            payload["hole"] = None if community else int(spot)
    payload = {name: payload[name] for name in V1_FIELDS[event.TYPE]}
    return {"type": event.TYPE, "schema_version": 1, "payload": payload}


def _text(value: Any) -> str:
    return getattr(value, "value", value) if value is not None else "-"


def observe(events: tuple[Event, ...], automations: tuple[Automation, ...] = ()) -> str:
    """Everything replay tells a person about ``events``, as canonical text."""
    try:
        result = replay(events, automations)
    except RuleViolation as violation:
        return (
            f"refused at {getattr(violation, 'index', None)}: "
            f"{violation.section} field={_FIELDS.get(violation.field, violation.field)}"
        )
    settlement = result.settlement
    lines = [
        "phases " + " ".join(str(_text(state.phase)) for state in result.states),
        f"settlement complete={settlement.complete} voided={settlement.voided} "
        f"void_section={settlement.void_section} ruleset={settlement.ruleset_id} "
        f"rounding={settlement.rounding} notes={list(settlement.notes)}",
        "options " + repr([tuple(option) for option in settlement.options_applied]),
    ]
    for line in settlement.lines:
        lines.append(
            f"line seat={line.seat} wager={_text(line.wager)} outcome={_text(line.outcome)} "
            f"stake={line.stake_cents} amount={line.amount_cents} section={line.section} "
            f"hand={line.hand} pay_line={line.pay_line} odds={line.odds} "
            f"uncapped={line.uncapped_cents} notes={list(line.notes)}"
        )
    for finding in result.findings:
        lines.append(
            f"finding {_text(finding.kind)} seat={finding.seat} wager={_text(finding.wager)} "
            f"expected={finding.expected_cents} recorded={finding.recorded_cents} "
            f"section={finding.section} detail={finding.detail}"
        )
    return "\n".join(lines)


def _decode_verdicts(rng: random.Random, events: tuple[Event, ...]) -> Iterator[str]:
    for event in events:
        record = v1_record(event)
        for payload in damaged_payloads(rng, record["payload"]):
            try:
                event_from_record({**record, "payload": payload})
            except ValueError:
                yield "refused"
            else:
                yield "accepted"


def round_report(name: str, events: tuple[Event, ...]) -> str:
    rng = random.Random(name)
    read = tuple(event_from_record(v1_record(event)) for event in events)
    parts = [observe(read), observe(read, tuple(Automation))]
    for _ in range(3):
        index = rng.randrange(1, len(read))
        parts.append(observe(read[:index] + read[index + 1 :]))
        other = rng.randrange(1, len(read))
        swapped = list(read)
        swapped[index], swapped[other] = swapped[other], swapped[index]
        parts.append(observe(tuple(swapped)))
    parts.append(" ".join(_decode_verdicts(rng, events[: 1 + rng.randrange(8)])))
    return "\n".join(parts)


def observable_digest() -> str:
    whole = hashlib.sha256()
    for name, events in simulated_rounds():
        whole.update(f"{name}\n{round_report(name, events)}\n".encode())
    return whole.hexdigest()


def test_what_replay_tells_is_unchanged_by_the_rebuilt_core() -> None:
    assert observable_digest() == OBSERVABLE_DIGEST
