"""Replay a round's events: every state, the required settlement and the findings.

A *finding* is a difference between what the dealer was recorded doing
(``round.dealer_paid``, ``round.dealer_collected``, ``round.wager_returned``)
and what the regulation requires (:func:`tables.rules.engine.required_settlement`).
Recorded actions are summed per seat and wager and compared once, so the
result does not depend on the order of payments, and one wrong payment gives
exactly one finding.

Finding kinds:

* ``MISPAID_AMOUNT``: a winning wager was paid, but not the required amount;
* ``MISSING_PAYMENT``: a winning wager was not paid at all;
* ``UNEXPECTED_PAYMENT``: a losing, pushed, forfeited or returned wager was paid;
* ``MISSED_COLLECTION``: a losing or forfeited wager was not collected;
* ``WRONG_COLLECTION_AMOUNT``: a losing wager was collected for the wrong amount;
* ``WRONGFUL_COLLECTION``: a winning, pushed or returned wager was collected
  (and not given back);
* ``WRONG_WAGER``: the dealer paid, collected or returned a wager the seat never placed;
* ``WRONG_CALL``: the dealer announced a throw of the dice other than the faces
  show (§ 585.3(g), § 593.4(d)); it is the table's, so ``seat`` is 0 and
  ``wager`` names the throw. The settlement follows the faces, never the call.
* ``DEALER_PROCEDURE``: the dealer broke a rule that moves no money by itself (a
  blackjack dealer standing on 16 or drawing on 17, § 581.7(n), § 581.13(d));
  ``seat`` is 0 and ``wager`` names who broke it; or the progressive chips the
  dealer collected at "no more bets" differ in number from the progressive wagers
  the system accepted (``round.progressive_counted``, § 555.8(b), § 587.8(b),
  § 588.8(b)(2)): the table's, ``wager`` ``PROGRESSIVE``.

A seat may hold several hands (a blackjack split): a wager is judged per seat,
hand and wager name, the hand taken from the dealer's action event; a finding's
``detail`` names the hand.

>>> Finding(kind=FindingKind.MISSING_PAYMENT, seat=3, wager=Wager.ACROSS_BET,
...         expected_cents=2500, recorded_cents=0, section="674a.11(h)(1)(ii)").kind.value
'MISSING_PAYMENT'
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from tables.rules.engine import (
    Automation,
    Outcome,
    RuleViolation,
    Settlement,
    game_rules_for,
)
from tables.rules.events import (
    DealerCollected,
    DealerPaid,
    Event,
    PlayDeclared,
    RoundOpened,
    Wager,
    WagerPlaced,
    WagerReturned,
)

__all__ = ["FindingKind", "Finding", "ReplayResult", "replay", "findings_for"]


class FindingKind(enum.StrEnum):
    """What kind of difference a finding is."""

    MISPAID_AMOUNT = "MISPAID_AMOUNT"
    MISSING_PAYMENT = "MISSING_PAYMENT"
    UNEXPECTED_PAYMENT = "UNEXPECTED_PAYMENT"
    MISSED_COLLECTION = "MISSED_COLLECTION"
    WRONG_COLLECTION_AMOUNT = "WRONG_COLLECTION_AMOUNT"
    WRONGFUL_COLLECTION = "WRONGFUL_COLLECTION"
    WRONG_WAGER = "WRONG_WAGER"
    WRONG_CALL = "WRONG_CALL"
    DEALER_PROCEDURE = "DEALER_PROCEDURE"


@dataclass(frozen=True, slots=True, kw_only=True)
class Finding:
    """One difference between the dealer's recorded actions and the regulation."""

    kind: FindingKind
    seat: int
    wager: str
    expected_cents: int
    recorded_cents: int
    section: str
    detail: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class ReplayResult:
    """Everything replay learned about one round."""

    events: tuple[Event, ...]
    states: tuple[Any, ...]
    settlement: Settlement
    findings: tuple[Finding, ...]

    @property
    def final_state(self) -> Any:
        """The state after the last event."""
        return self.states[-1]


def replay(events: Iterable[Event], automations: Iterable[Automation] = ()) -> ReplayResult:
    """Fold ``events`` (starting with ``round.opened``) through the game's rules.

    ``states[i]`` is the state after ``events[i]``.

    :raises RuleViolation: at the first event the regulation forbids; its
        message names the section, and ``index`` is added as an attribute.
    """
    sequence = tuple(events)
    if not sequence or not isinstance(sequence[0], RoundOpened):
        raise RuleViolation("round.opened", "a round stream starts with round.opened", "type")
    opened = sequence[0]
    rules = game_rules_for(opened.game)
    state = rules.open(opened, frozenset(automations))
    states = [state]
    apply = rules.apply
    for index in range(1, len(sequence)):
        try:
            state = apply(state, sequence[index])
        except RuleViolation as violation:
            violation.index = index  # type: ignore[attr-defined]
            raise
        states.append(state)
    settlement = rules.required_settlement(state)
    return ReplayResult(
        events=sequence,
        states=tuple(states),
        settlement=settlement,
        findings=findings_for(settlement, sequence, state),
    )


def findings_for(
    settlement: Settlement, events: Sequence[Event], state: Any = None
) -> tuple[Finding, ...]:
    """Compare the dealer actions among ``events`` with ``settlement``.

    For an incomplete round only wagers already resolved are judged. The calls
    of the dice a declared game's ``state`` recorded as wrong follow, in order.
    """
    paid: dict[tuple[int, int, str], int] = {}
    collected: dict[tuple[int, int, str], int] = {}
    returned: dict[tuple[int, int, str], int] = {}
    buckets: dict[type[Event], dict[tuple[int, int, str], int]] = {
        DealerPaid: paid,
        DealerCollected: collected,
        WagerReturned: returned,
    }
    placed: set[tuple[int, int, str]] = set()
    order: list[tuple[int, int, str]] = []
    for event in events:
        event_type = type(event)
        bucket = buckets.get(event_type)
        if bucket is None:
            if event_type is WagerPlaced:
                placed.add((event.seat, event.hand, event.wager))  # type: ignore[attr-defined]
            elif event_type is PlayDeclared:
                placed.add((event.seat, 1, Wager.RAISE_1))  # type: ignore[attr-defined]
                placed.add((event.seat, 1, Wager.RAISE_2))  # type: ignore[attr-defined]
            continue
        key = (event.seat, event.hand, event.wager)  # type: ignore[attr-defined]
        if key not in bucket:
            order.append(key)
        bucket[key] = bucket.get(key, 0) + event.amount_cents  # type: ignore[attr-defined]
    findings: list[Finding] = []
    judged: set[tuple[int, int, str]] = set()
    for line in settlement.lines:
        key = (line.seat, line.hand_index, line.wager)
        judged.add(key)
        recorded_paid = paid.get(key, 0)
        recorded_collected = collected.get(key, 0) - returned.get(key, 0)
        finding = _judge(line.outcome, line.amount_cents, recorded_paid, recorded_collected)
        if finding is not None:
            kind, expected, recorded = finding
            findings.append(
                Finding(
                    kind=kind,
                    seat=line.seat,
                    wager=line.wager,
                    expected_cents=expected,
                    recorded_cents=recorded,
                    section=line.section,
                    detail=line.hand or "",
                )
            )
    if settlement.complete:
        for key in dict.fromkeys(order):
            if key in judged or key in placed:
                continue
            recorded = paid.get(key, 0) + collected.get(key, 0) + returned.get(key, 0)
            section, detail = _never_placed(state, key[2])
            findings.append(
                Finding(
                    kind=FindingKind.WRONG_WAGER,
                    seat=key[0],
                    wager=key[2],
                    expected_cents=0,
                    recorded_cents=recorded,
                    section=section,
                    detail=detail if key[1] == 1 else f"hand {key[1]}: {detail}",
                )
            )
    findings.extend(
        Finding(kind=FindingKind.WRONG_CALL, seat=0, wager=miscall.step, expected_cents=0,
                recorded_cents=0, section=miscall.section, detail=str(miscall))
        for miscall in getattr(state, "miscalls", ())
    )  # fmt: skip
    findings.extend(
        Finding(kind=FindingKind.DEALER_PROCEDURE, seat=breach.seat, wager=breach.subject,
                expected_cents=0, recorded_cents=0, section=breach.section, detail=breach.reason)
        for breach in getattr(state, "breaches", ())
    )  # fmt: skip
    count = getattr(state, "progressive_count", None)
    if count is not None:
        findings.append(Finding(
            kind=FindingKind.DEALER_PROCEDURE, seat=0, wager="PROGRESSIVE", expected_cents=0,
            recorded_cents=0, section=count.section,
            detail=f"{count.collected_chips} progressive chip(s) collected, "
                   f"{count.accepted_wagers} wager(s) accepted: {count.reason}"))  # fmt: skip
    return tuple(findings)


def _never_placed(state: Any, wager: str) -> tuple[str, str]:
    """The section and detail of a settled wager the seat never placed: a wager closed by
    a lock-out (§ 593.1(c)(2)) cites it, as one the system refused and the dealer took."""
    game = getattr(state, "game", None)
    spec = game.wager(wager) if game is not None else None
    if spec is not None and spec.closes is not None:
        return (state.section(spec.closes),
                f"the seat never placed this wager: the {spec.label} is not recognised after "
                'the lock-out at "no more bets"')  # fmt: skip
    return "round.wager_placed", "the seat never placed this wager"


def _judge(
    outcome: Outcome, amount: int, recorded_paid: int, recorded_collected: int
) -> tuple[FindingKind, int, int] | None:
    if outcome is Outcome.WIN:
        if recorded_collected > 0:
            return FindingKind.WRONGFUL_COLLECTION, 0, recorded_collected
        if recorded_paid == amount:
            return None
        if recorded_paid == 0:
            return FindingKind.MISSING_PAYMENT, amount, 0
        return FindingKind.MISPAID_AMOUNT, amount, recorded_paid
    if recorded_paid > 0:
        return FindingKind.UNEXPECTED_PAYMENT, 0, recorded_paid
    if outcome in (Outcome.LOSE, Outcome.FORFEITED):
        if recorded_collected == amount:
            return None
        if recorded_collected <= 0:
            return FindingKind.MISSED_COLLECTION, amount, recorded_collected
        return FindingKind.WRONG_COLLECTION_AMOUNT, amount, recorded_collected
    if recorded_collected > 0:
        return FindingKind.WRONGFUL_COLLECTION, 0, recorded_collected
    return None
