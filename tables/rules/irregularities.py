"""Irregularities and the stub count: the remedies the games' rules prescribe.

An irregularity arrives as a fact (``round.irregularity``: a card found face
up, a wrong card count, a shoe that jammed); the game's rules say what follows.
The remedies that differ between games only by section and wording are data,
one :class:`Remedies` value per game; :func:`report_irregularity` and
:func:`count_stub` apply them. A game handles its own extra kinds (a player
leaving the table) after the shared remedy.

>>> from tables.rules.events import IrregularityKind
>>> remedies = Remedies(
...     face_up="13(a)",
...     voids={IrregularityKind.SHOE_MALFUNCTION: ("13(f)", "the shoe failed")},
... )
>>> remedies.voids[IrregularityKind.SHOE_MALFUNCTION][0]
'13(f)'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from tables.rules.engine import evolve
from tables.rules.events import IrregularityKind, IrregularityReported, StubCounted

__all__ = ["Remedies", "StubRemedy", "Breach", "report_irregularity", "count_stub"]

Void = Callable[[Any, str, str], Any]
"""A game's void step: ``void(state, section, reason)`` returns the void state."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Remedies:
    """What one game's rules do about each reported irregularity.

    ``face_up`` is the section (number only; the rule set cites it) under which
    a second card found face up voids the round. ``voids`` maps the kinds that
    void the round to their section number and reason. ``referred`` kinds have
    no rule in the game: they are noted for the floor with ``referred_note``.
    A shuffler malfunction always requires a reshuffle; every other kind is
    only noted.
    """

    face_up: str
    voids: Mapping[str, tuple[str, str]]
    referred: frozenset[str] = frozenset()
    referred_note: str = "{kind}: referred to the floor"
    #: Kinds of ``voids`` that void only while the condition holds on the round's
    #: state (a dealer card shown before the last decision); otherwise only noted.
    void_if: Mapping[str, Callable[[Any], bool]] = field(default_factory=dict)
    #: Kinds the rules remedy by resetting what the dealer did (section number, what is
    #: reset): settlement already judges the rules' way; replay finds the breach.
    resets: Mapping[str, tuple[str, str]] = field(default_factory=dict)


class Breach(NamedTuple):
    """Something the dealer did that the rules forbid, reported and found by replay."""

    seat: int
    subject: str
    section: str
    reason: str


@dataclass(frozen=True, slots=True, kw_only=True)
class StubRemedy:
    """The wording of the void a stub count orders (the section comes per round).

    ``mismatch`` is formatted with ``counted`` and ``expected``.
    """

    misdeal: str
    mismatch: str


def report_irregularity(
    state: Any, event: IrregularityReported, *, remedies: Remedies, void: Void
) -> Any:
    """Note the irregularity on ``state`` and apply the shared remedy.

    A card found face up is taken out of play; a second one voids the round.
    """
    kind = event.kind
    section = state.ruleset.section
    state = evolve(state, notes=(*state.notes, f"{kind}: {event.note}".rstrip(": ")))
    if kind == IrregularityKind.CARD_FACE_UP_IN_DECK:
        assert event.card is not None
        state = evolve(
            state,
            face_up_found=(*state.face_up_found, event.card),
            used_cards=state.used_cards | 1 << event.card.index,
        )
        if len(state.face_up_found) > 1:
            return void(state, section(remedies.face_up), "more than one card found face up")
        return state
    voiding = remedies.voids.get(kind)
    condition = remedies.void_if.get(kind)
    if voiding is not None and (condition is None or condition(state)):
        return void(state, section(voiding[0]), voiding[1])
    if kind == IrregularityKind.SHUFFLER_MALFUNCTION:
        return evolve(state, reshuffle_required=True)
    reset = remedies.resets.get(kind)
    if reset is not None:
        breach = Breach(event.seat or 0, kind, section(reset[0]), f"{reset[1]}: {event.note}")
        return evolve(state, breaches=(*state.breaches, breach))
    if kind in remedies.referred:
        note = remedies.referred_note.format(kind=kind)
        return evolve(state, notes=(*state.notes, note))
    return state


def count_stub(
    state: Any,
    event: StubCounted,
    *,
    section: str,
    remedy: StubRemedy,
    void: Void,
    discarded: int = 0,
) -> Any:
    """Record the stub count; a misdeal or a wrong count voids the round under ``section``.

    A wrong count without a misdeal also requires the deck to be removed.
    ``discarded``: cards put in the discard rack unseen (by the dealing method, or
    burned before a stage of the board), so not in the stub.
    """
    state = evolve(state, stub_counted=True)
    expected = (state.ruleset.cards_in_deck - state.cards_dealt - len(state.face_up_found)
                - discarded)  # fmt: skip
    if event.misdeal_found:
        return void(state, section, remedy.misdeal)
    if event.stub_count != expected:
        reason = remedy.mismatch.format(counted=event.stub_count, expected=expected)
        state = void(state, section, reason)
        return evolve(state, deck_removal_required=True)
    return state
