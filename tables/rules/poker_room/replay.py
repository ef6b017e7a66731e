"""Replay a poker hand's events through the hand machine and judge the dealer's money.

The players' actions (posts, cards, bets, the showdown) are folded through
:mod:`.hand`; the first one the chapter forbids (acting out of turn, a raise
below the minimum, a card dealt twice, ...) is a finding citing the section
the machine's refusal names, and the fold stops there: what follows it has no
state to be judged against. A complete hand is settled (:func:`.settlement.settle`)
and the dealer's recorded money compared with it:

* ``MISPUSHED_POT``: a seat received from a pot more or less than the pot
  requires; a side pot cites § 553.8(b)(4)(iii), a pot paid to a player not
  eligible for it (an all-in player's beyond what he contributed to)
  § 553.8(b)(4)(i), the main pot the game's showdown section;
* ``OVER_RAKED`` / ``UNDER_RAKED``: the hand's rake against the posted rule
  (§ 553.15(b)(1) or (2), on the pots without the uncalled bet, (d));
* ``RAKE_AFTER_PUSH``: rake taken from a pot already pushed (§ 553.15(e));
* ``MISSED_BAD_BEAT_CONTRIBUTION`` / ``WRONG_BAD_BEAT_CONTRIBUTION``: against
  the fund's posted rule (§ 553.20(c)); ``BAD_BEAT_OUT_OF_ORDER``: taken
  before the rake or after the pot was pushed (§ 553.20(c));
* ``WRONG_RETURN``: the uncalled bet not returned, or the wrong amount (§ 553.15(d));
  or the money of a void round or a killed hand (the section of the irregularity,
  :mod:`.irregularities`).

An irregularity (``poker.irregularity``) is applied with the chapter's remedy;
a dealer who then deals, bets or pushes otherwise is found citing its section.

Rake and contributions are compared per hand, pushes per pot and seat: a
dealer rakes the round, and a rake taken from the wrong pot shows in that
pot's pushes.

The poker room plugs into the same pieces as the declared games (events with
a stable type and schema version, rule sets by id, a pure fold and findings
that cite sections) but not into :func:`tables.rules.replay.replay`: that one
compares wagers the house paid or collected with a banked settlement, where
here the money moves between players through pots and the house's only share
is the rake.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum

from tables.rules.engine import RuleViolation
from tables.rules.events import Event
from tables.rules.poker_room.charges import IncrementalRake, PercentageRake
from tables.rules.poker_room.events import (
    Acted,
    Action,
    BadBeatContributed,
    BetReturned,
    CardBurnt,
    CardDealt,
    Discarded,
    HandClosed,
    HandOpened,
    IrregularityFound,
    Mucked,
    Posted,
    PotPushed,
    RakeTaken,
    Shown,
)
from tables.rules.poker_room.hand import (
    HandState,
    Phase,
    PostKind,
    bet_or_raise_to,
    burn,
    check_or_call,
    deal,
    discard,
    fold,
    muck,
    open_hand,
    post,
    show,
    verify_check_or_call,
)
from tables.rules.poker_room.irregularities import irregularity
from tables.rules.poker_room.rules import PokerRuleSet
from tables.rules.poker_room.rulesets import poker_ruleset
from tables.rules.poker_room.settlement import HandSettlement, LineKind, settle

__all__ = [
    "FindingKind",
    "HandReplay",
    "PokerFinding",
    "apply",
    "dealer_events",
    "money_findings",
    "open_from",
    "replay_hand",
]

_MONEY = (BetReturned, RakeTaken, BadBeatContributed, PotPushed, HandClosed)


class FindingKind(StrEnum):
    """What kind of difference a poker finding is."""

    REFUSED_EVENT = "REFUSED_EVENT"
    MISPUSHED_POT = "MISPUSHED_POT"
    OVER_RAKED = "OVER_RAKED"
    UNDER_RAKED = "UNDER_RAKED"
    RAKE_AFTER_PUSH = "RAKE_AFTER_PUSH"
    MISSED_BAD_BEAT_CONTRIBUTION = "MISSED_BAD_BEAT_CONTRIBUTION"
    WRONG_BAD_BEAT_CONTRIBUTION = "WRONG_BAD_BEAT_CONTRIBUTION"
    BAD_BEAT_OUT_OF_ORDER = "BAD_BEAT_OUT_OF_ORDER"
    WRONG_RETURN = "WRONG_RETURN"


@dataclass(frozen=True, slots=True, kw_only=True)
class PokerFinding:
    """One difference between the recorded hand and the regulation."""

    kind: FindingKind
    section: str
    seat: int | None = None
    pot: int | None = None
    expected_cents: int = 0
    recorded_cents: int = 0
    event_index: int | None = None
    detail: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class HandReplay:
    """What the replay of one hand learned."""

    events: tuple[Event, ...]
    state: HandState | None
    settlement: HandSettlement | None
    findings: tuple[PokerFinding, ...]

    @property
    def complete(self) -> bool:
        """The hand was played to its end without a refused event."""
        return self.settlement is not None


def open_from(event: HandOpened, rules: PokerRuleSet | None = None) -> HandState:
    """The hand's first state; ``rules`` instead of the rule set the event names.

    :raises RuleViolation: an unknown rule set, or seats and stakes the chapter refuses.
    """
    return open_hand(rules or poker_ruleset(event.ruleset_id), event.stacks, button=event.button)


def apply(state: HandState, event: Event) -> HandState:
    """The state after ``event``; the dealer's money events leave it as it is.

    :raises RuleViolation: naming the section the event breaks.
    """
    if state.phase is Phase.VOID and not isinstance(event, _MONEY):
        raise RuleViolation(state.void_section, "the round of play is void: its cards are "
                            "reshuffled and its chips returned", "type")  # fmt: skip
    if isinstance(event, IrregularityFound):
        return irregularity(state, event)
    if isinstance(event, Acted):
        return _act(state, event)
    if isinstance(event, CardDealt):
        return deal(state, event.card, event.seat, face_up=event.face_up)
    if isinstance(event, CardBurnt):
        return burn(state, event.card)
    if isinstance(event, Posted):
        return _post(state, event)
    if isinstance(event, Discarded):
        return discard(state, event.seat, event.cards)
    if isinstance(event, Shown):
        return show(state, event.seat)
    if isinstance(event, Mucked):
        return muck(state, event.seat)
    if isinstance(event, _MONEY):
        return state
    raise RuleViolation("553.7(a)", f"{event.TYPE} does not belong after the hand opened", "type")


def _post(state: HandState, event: Posted) -> HandState:
    if state.phase is Phase.POSTING and state.posts[0].seat == event.seat:
        owed = state.posts[0]
        where = "b" if owed.kind is PostKind.ANTE else "d"
        section = f"{state.rules.variant.section}({where})"
        if event.kind is not owed.kind:
            raise RuleViolation(section, f"seat {event.seat} owes the {owed.kind}", "kind")
        if event.amount_cents != owed.amount_cents:
            raise RuleViolation(
                section, f"the {owed.kind} is {owed.amount_cents}", "amount_cents"
            )
    return post(state, event.seat)


def _act(state: HandState, event: Acted) -> HandState:
    seat, action = event.seat, event.action
    if action is Action.FOLD:
        return fold(state, seat)
    if action in (Action.CHECK, Action.CALL):
        if verify_check_or_call(state, seat) is None and action is Action.CHECK:
            owed = state.current_bet - state.bets.get(seat, 0)
            if owed > 0:
                raise RuleViolation(
                    "553.1", f"seat {seat} faces a bet of {owed} and may not check", "action"
                )
        return check_or_call(state, seat)
    assert event.to_cents is not None  # Acted requires it for a bet or raise
    return bet_or_raise_to(state, seat, event.to_cents)


def replay_hand(events: Iterable[Event], rules: PokerRuleSet | None = None) -> HandReplay:
    """Fold ``events`` (starting with ``poker.hand_opened``) and judge the dealer's money.

    :param rules: the rule set to use instead of the one the opening names
        (an imported hand history carries its own).
    """
    sequence = tuple(events)
    if not sequence or not isinstance(sequence[0], HandOpened):
        finding = PokerFinding(
            kind=FindingKind.REFUSED_EVENT, section="553.7(a)", event_index=0,
            detail="a hand's stream starts with poker.hand_opened",
        )  # fmt: skip
        return HandReplay(events=sequence, state=None, settlement=None, findings=(finding,))
    try:
        state = open_from(sequence[0], rules)
    except RuleViolation as violation:
        return HandReplay(
            events=sequence, state=None, settlement=None,
            findings=(_refused(violation, 0, sequence[0]),),
        )  # fmt: skip
    for index in range(1, len(sequence)):
        try:
            state = apply(state, sequence[index])
        except RuleViolation as violation:
            return HandReplay(
                events=sequence, state=state, settlement=None,
                findings=(_refused(violation, index, sequence[index]),),
            )  # fmt: skip
    if state.phase not in (Phase.COMPLETE, Phase.VOID):
        return HandReplay(events=sequence, state=state, settlement=None, findings=())
    settlement = settle(state)
    return HandReplay(
        events=sequence, state=state, settlement=settlement,
        findings=money_findings(settlement, sequence, state.rules),
    )  # fmt: skip


def _refused(violation: RuleViolation, index: int, event: Event) -> PokerFinding:
    return PokerFinding(
        kind=FindingKind.REFUSED_EVENT, section=violation.section,
        seat=getattr(event, "seat", None), event_index=index,
        detail=f"{event.TYPE}: {violation.reason}",
    )  # fmt: skip


def money_findings(
    settlement: HandSettlement, events: Sequence[Event], rules: PokerRuleSet
) -> tuple[PokerFinding, ...]:
    """Compare the dealer's money events with the settlement ``rules`` require of the hand."""
    pushed: dict[tuple[int, int], int] = {}
    returned: dict[int, int] = {}
    rake = contributed = 0
    first_push: dict[int, int] = {}
    for index, event in enumerate(events):
        if isinstance(event, PotPushed):
            key = (event.pot, event.seat)
            pushed[key] = pushed.get(key, 0) + event.amount_cents
            first_push.setdefault(event.pot, index)
        elif isinstance(event, BetReturned):
            returned[event.seat] = returned.get(event.seat, 0) + event.amount_cents
        elif isinstance(event, RakeTaken):
            rake += event.amount_cents
        elif isinstance(event, BadBeatContributed):
            contributed += event.amount_cents
    findings = _order_findings(events, first_push)
    findings += _rake_findings(settlement, rake, rules)
    findings += _bad_beat_findings(settlement, contributed)
    required_returns: dict[int, int] = {}
    return_sections: dict[int, str] = {}
    required: dict[tuple[int, int], tuple[int, str]] = {}
    for line in settlement.lines:
        if line.seat is None:
            continue
        if line.kind is LineKind.RETURNED:
            required_returns[line.seat] = required_returns.get(line.seat, 0) + line.amount_cents
            return_sections.setdefault(line.seat, line.section)
        elif line.pot is not None:
            amount, _ = required.get((line.pot, line.seat), (0, line.section))
            required[(line.pot, line.seat)] = (amount + line.amount_cents, line.section)
    for seat in sorted(required_returns.keys() | returned.keys()):
        expected, recorded = required_returns.get(seat, 0), returned.get(seat, 0)
        if expected != recorded:
            findings.append(PokerFinding(
                kind=FindingKind.WRONG_RETURN, section=return_sections.get(seat, "553.15(d)"),
                seat=seat, expected_cents=expected, recorded_cents=recorded,
                detail="money the chapter returns goes back to the player who put it in",
            ))  # fmt: skip
    for pot, seat in sorted(required.keys() | pushed.keys()):
        expected, section = required.get((pot, seat), (0, ""))
        recorded = pushed.get((pot, seat), 0)
        if expected == recorded:
            continue
        eligible = settlement.pots[pot].eligible if pot < len(settlement.pots) else ()
        if settlement.void_section:
            section, detail = settlement.void_section, "the round of play is void: no pot is pushed"
        elif seat not in eligible:
            section, detail = "553.8(b)(4)(i)", f"seat {seat} is not eligible for pot {pot}"
        elif pot > 0:
            section, detail = "553.8(b)(4)(iii)", f"side pot {pot} is wrongly shared"
        else:
            detail = "the main pot is wrongly shared"
        findings.append(PokerFinding(
            kind=FindingKind.MISPUSHED_POT, section=section, seat=seat, pot=pot,
            expected_cents=expected, recorded_cents=recorded, detail=detail,
        ))  # fmt: skip
    return tuple(findings)


def dealer_events(settlement: HandSettlement) -> list[Event]:
    """The money events of a dealer who settles the hand as required, in the chapter's order.

    The uncalled bet back first (§ 553.15(d)), then pot by pot: the rake
    (§ 553.15(b)), the Bad Beat contribution (§ 553.20(c)), the pushes.
    """
    events: list[Event] = []
    for line in settlement.lines:
        if line.amount_cents == 0:
            continue
        if line.kind is LineKind.RETURNED and line.seat is not None:
            events.append(BetReturned(seat=line.seat, amount_cents=line.amount_cents))
        elif line.pot is None:
            continue
        elif line.kind is LineKind.RAKE:
            events.append(RakeTaken(pot=line.pot, amount_cents=line.amount_cents))
        elif line.kind is LineKind.BAD_BEAT:
            events.append(BadBeatContributed(pot=line.pot, amount_cents=line.amount_cents))
        elif line.seat is not None:
            events.append(PotPushed(pot=line.pot, seat=line.seat, amount_cents=line.amount_cents))
    return events


def _order_findings(events: Sequence[Event], first_push: dict[int, int]) -> list[PokerFinding]:
    """Rake after the pot was pushed (§ 553.15(e)); the contribution out of turn (§ 553.20(c))."""
    findings: list[PokerFinding] = []
    raked: set[int] = set()
    for index, event in enumerate(events):
        if isinstance(event, RakeTaken):
            raked.add(event.pot)
            if event.pot in first_push and first_push[event.pot] < index:
                findings.append(PokerFinding(
                    kind=FindingKind.RAKE_AFTER_PUSH, section="553.15(e)", pot=event.pot,
                    recorded_cents=event.amount_cents, event_index=index,
                    detail="no rake may be taken once the pot was collected by its winners",
                ))  # fmt: skip
        elif isinstance(event, BadBeatContributed):
            pushed_before = event.pot in first_push and first_push[event.pot] < index
            later_rake = any(
                isinstance(other, RakeTaken) and other.pot == event.pot
                for other in events[index + 1 :]
            )
            if pushed_before or later_rake:
                findings.append(PokerFinding(
                    kind=FindingKind.BAD_BEAT_OUT_OF_ORDER, section="553.20(c)", pot=event.pot,
                    recorded_cents=event.amount_cents, event_index=index,
                    detail="the contribution is taken after the rake and before the pot is pushed",
                ))  # fmt: skip
    return findings


def _rake_findings(
    settlement: HandSettlement, taken: int, rules: PokerRuleSet
) -> list[PokerFinding]:
    required = settlement.total(LineKind.RAKE)
    if taken == required:
        return []
    section = {
        PercentageRake: "553.15(b)(1)", IncrementalRake: "553.15(b)(2)"
    }.get(type(rules.rake), "553.15(a)")  # no posted rake: none may be taken
    over = taken > required
    returned = settlement.total(LineKind.RETURNED)
    detail = "the rake is computed without the uncalled final bet (§ 553.15(d))" if (
        over and returned) else "the posted rake rule"  # fmt: skip
    return [PokerFinding(
        kind=FindingKind.OVER_RAKED if over else FindingKind.UNDER_RAKED, section=section,
        expected_cents=required, recorded_cents=taken, detail=detail,
    )]  # fmt: skip


def _bad_beat_findings(settlement: HandSettlement, taken: int) -> list[PokerFinding]:
    required = settlement.total(LineKind.BAD_BEAT)
    if taken == required:
        return []
    kind = (
        FindingKind.MISSED_BAD_BEAT_CONTRIBUTION
        if taken == 0
        else FindingKind.WRONG_BAD_BEAT_CONTRIBUTION
    )
    return [PokerFinding(
        kind=kind, section="553.20(c)", expected_cents=required, recorded_cents=taken,
        detail="the posted Bad Beat contribution, after the rake, before the pot is pushed",
    )]  # fmt: skip
