"""Determinism guard: decoding and replay give exactly what they gave before.

A fixed set of seeded simulated rounds (every rule set, with dealer errors and
irregularities injected) goes through ``to_payload`` / ``from_payload`` and
:func:`tables.rules.replay.replay`. Everything replay produces (every state,
the settlement lines, the options applied, the findings) and the refusals and
decode errors of deliberately damaged streams and payloads are written out in
a canonical text form and hashed. The digest was computed before the engine's
hot paths were optimised; an optimisation that changes any result changes it.

The digest covers the engine's own representation (every state field, every
event field), so it moves with the representation: it moved when the
vocabulary went to version 2 (wagers and spots became names a game declares;
options moved into ``options``), when Criss-Cross and Double Cross became
declarations run by ``tables.rules.machine`` (whose state keeps its current
step and the cards its deal places), when settlement lines named their
counterparty (money movements), and when the machine's state kept the progressive
chip count (two fields at their defaults in every round here; with them left out
of the text the digest is the one before), and when it kept the breaches a reset
remedies (``breaches``, the house way's § 561.14(i); empty in every round here, and
with it left out the digest is again the one before).
:mod:`tests.rules.test_observable_digest`, pinned before that change, proves
that nothing replay *tells* moved with it: the version-1 records read through
the upcasters settle, refuse and find exactly as before.

When the digest differs, the per-part digests of the failing round say which
part moved (pair with a unit test of that part before updating the constant).
"""

from __future__ import annotations

import dataclasses
import enum
import hashlib
import random
from collections.abc import Iterator
from typing import Any

from tables.rules.cards import Card
from tables.rules.declaration import Game
from tables.rules.engine import Automation, RuleViolation
from tables.rules.events import ROUND_EVENT_TYPES, Event
from tables.rules.replay import replay
from tables.rules.rulesets import CrissCrossRuleSet, DoubleCrossRuleSet, get_ruleset
from tables.rules.simulate import (
    DealerError,
    Irregularity,
    simulate_criss_cross,
    simulate_double_cross,
)

# The dice fields of the declared engine's RoundState (rolls, no_rolls, miscalls, settling,
# all at their defaults here) lengthen the state texts; every other part is unchanged.
# Then the declaration's new fields (Layout draw spots, WagerSpec fee, Decide when/rules, for
# Lunar Poker; Choice.withdraws, WagerSpec required/taken, for Let It Ride), at their defaults
# here, lengthened the state's ``game`` and Decide step texts the same way; so did the Deal
# step's staged fields (spots, burn, face_up, no_burn, for Texas Hold 'Em Bonus and Flop Poker).
GOLDEN_DIGEST = "7d289452ec13dba29ea1218c709591b7a94e3df4ab16d5316277bddbe394e061"

RULESETS = ("PA-592-2014", "PA-674a-2016", "PA-674a-2019", "MA-DCP-UNDATED")
ROUNDS_PER_RULESET = 30
RULESET_TYPES = (CrissCrossRuleSet, DoubleCrossRuleSet)


def canonical(value: Any) -> str:
    """A text form that depends only on the value (never on hash or set order)."""
    if value is None or isinstance(value, bool | int | str):
        return repr(value)
    if isinstance(value, enum.Enum):
        return f"{type(value).__name__}.{value.name}"
    if isinstance(value, Card):
        return f"Card({value})"
    if isinstance(value, RULESET_TYPES):
        return f"RuleSet({value.id})"  # the rule sets are constants: their id says it all
    if isinstance(value, Game):
        return f"Game({value.id})"  # so is the declaration
    if isinstance(value, tuple) and hasattr(value, "_fields"):
        items = ", ".join(f"{name}={canonical(getattr(value, name))}" for name in value._fields)
        return f"{type(value).__name__}({items})"
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        items = ", ".join(
            f"{field.name}={canonical(getattr(value, field.name))}"
            for field in dataclasses.fields(value)
        )
        return f"{type(value).__name__}({items})"
    if isinstance(value, tuple | list):
        return "[" + ", ".join(canonical(item) for item in value) + "]"
    if isinstance(value, dict):
        items = sorted(f"{canonical(key)}: {canonical(item)}" for key, item in value.items())
        return "{" + ", ".join(items) + "}"
    if isinstance(value, frozenset | set):
        return "set(" + ", ".join(sorted(canonical(item) for item in value)) + ")"
    if callable(value):
        return getattr(value, "__qualname__", repr(value))
    return repr(value)


def simulated_rounds() -> Iterator[tuple[str, tuple[Event, ...]]]:
    """The fixed rounds: seeded, every rule set, errors and irregularities mixed in."""
    errors = list(DealerError)
    irregularities: list[Irregularity | None] = [None, None, None, *Irregularity]
    for ruleset_id in RULESETS:
        ruleset = get_ruleset(ruleset_id)
        for number in range(ROUNDS_PER_RULESET):
            rng = random.Random(f"{ruleset_id}/{number}")
            seats = tuple(sorted(rng.sample(range(1, 7), rng.randint(1, 6))))
            dealer_errors = [errors[number % len(errors)]] if number % 3 == 0 else []
            irregularity = irregularities[number % len(irregularities)]
            payout_limit = 6_000_000 if number % 7 == 0 else None
            if ruleset_id.startswith("MA"):
                simulated = simulate_double_cross(
                    rng,
                    ruleset,  # type: ignore[arg-type]
                    seats=seats,
                    payout_limit_cents=payout_limit,
                    dealer_errors=dealer_errors,
                    irregularity=irregularity,
                )
            else:
                simulated = simulate_criss_cross(
                    rng,
                    ruleset,  # type: ignore[arg-type]
                    seats=seats,
                    five_card_bonus_offered=number % 2 == 0,
                    payout_limit_cents=payout_limit if ruleset.payout_limit_permitted else None,
                    count_stub=number % 4 == 1,
                    dealer_errors=dealer_errors,
                    irregularity=irregularity,
                )
            yield f"{ruleset_id}/{number}", simulated.events


def _decoded(events: tuple[Event, ...]) -> tuple[Event, ...]:
    return tuple(ROUND_EVENT_TYPES[event.TYPE].from_payload(event.to_payload()) for event in events)


def _replayed(events: tuple[Event, ...], automations: tuple[Automation, ...] = ()) -> str:
    try:
        result = replay(events, automations)
    except RuleViolation as violation:
        return f"refused at {getattr(violation, 'index', None)}: {violation}"
    settlement = result.settlement
    return "\n".join(
        (
            "states " + canonical(result.states),
            "lines " + canonical(settlement.lines),
            "options " + canonical(settlement.options_applied),
            "settlement " + canonical(settlement),
            "findings " + canonical(result.findings),
            "final " + canonical(result.final_state),
        )
    )


def damaged_payloads(rng: random.Random, payload: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """``payload`` with a field added, each field removed, and some fields replaced."""
    yield {**payload, "unexpected": 1}
    for name, value in payload.items():
        yield {key: item for key, item in payload.items() if key != name}
        for replacement in (None, 2.5, "", "x", "ah", " 10h ", "Zz", True, [], ["Ah"], 3):
            if rng.randrange(4) == 0 or value is None:
                yield {**payload, name: replacement}


def _decode_errors(rng: random.Random, events: tuple[Event, ...]) -> Iterator[str]:
    for event in events:
        cls = ROUND_EVENT_TYPES[event.TYPE]
        for payload in damaged_payloads(rng, event.to_payload()):
            try:
                yield canonical(cls.from_payload(payload))
            except ValueError as error:
                yield f"ValueError: {error}"


def round_report(name: str, events: tuple[Event, ...]) -> dict[str, str]:
    """The canonical text of every check on one round, by part."""
    rng = random.Random(name)
    decoded = _decoded(events)
    assert decoded == events, name
    parts = {"replay": _replayed(decoded)}
    parts["automated"] = _replayed(decoded, tuple(Automation))
    damaged = []
    for _ in range(3):
        index = rng.randrange(1, len(events))
        damaged.append(_replayed(decoded[:index] + decoded[index + 1 :]))
        other = rng.randrange(1, len(events))
        swapped = list(decoded)
        swapped[index], swapped[other] = swapped[other], swapped[index]
        damaged.append(_replayed(tuple(swapped)))
    parts["damaged"] = "\n".join(damaged)
    parts["decode_errors"] = "\n".join(_decode_errors(rng, events[: 1 + rng.randrange(8)]))
    return parts


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def golden_digest() -> tuple[str, dict[str, dict[str, str]]]:
    """The digest over every round, and each round's per-part digests."""
    whole = hashlib.sha256()
    by_round: dict[str, dict[str, str]] = {}
    for name, events in simulated_rounds():
        parts = round_report(name, events)
        by_round[name] = {part: _sha(text) for part, text in parts.items()}
        for part, text in parts.items():
            whole.update(f"{name} {part}\n{text}\n".encode())
    return whole.hexdigest(), by_round


def test_the_simulated_rounds_cover_every_rule_set_error_and_irregularity() -> None:
    names = [name for name, _ in simulated_rounds()]
    assert len(names) == len(RULESETS) * ROUNDS_PER_RULESET
    types = {event.TYPE for _, events in simulated_rounds() for event in events}
    assert types >= {"round.irregularity", "round.dealer_paid", "round.player_folded"}


def test_replay_and_decoding_match_the_golden_digest() -> None:
    digest, by_round = golden_digest()
    assert digest == GOLDEN_DIGEST, f"replay or decoding changed: {digest}"
