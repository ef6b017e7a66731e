"""A blackjack round's opening options and a game's wagers by name, each resolved once.

:mod:`tables.rules.blackjack_round` opens every round and checks every wager
through these: a table opens round after round with the same rule set and
options, and replay would otherwise check the options and search the game's
wagers again on every round and every event.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from tables.rules.blackjack import (
    BlackjackRules,
    BustAgainstBust,
    SplitTwentyOne,
    SurrenderAddedMoney,
    SurrenderTiming,
)
from tables.rules.blackjack_declaration import BlackjackGame, BlackjackRuleSet
from tables.rules.declaration import OptionSpec
from tables.rules.engine import RuleViolation
from tables.rules.events import Options, RoundOpened

__all__ = ["RULE_FIELDS", "reading_options", "opening", "options_applied", "Lookups", "lookups"]

_READINGS: dict[str, tuple[Any, ...]] = {
    "bust_against_bust": tuple(BustAgainstBust),
    "split_twenty_one": tuple(SplitTwentyOne),
    "surrender_added_money": tuple(SurrenderAddedMoney),
    "surrender_timing": tuple(SurrenderTiming),
}


RULE_FIELDS = frozenset(field.name for field in dataclasses.fields(BlackjackRules))


def _rules_with(ruleset: BlackjackRuleSet, options: Mapping[str, Any]) -> BlackjackRules:
    """The rule set's rules with the round's readings and Rules Submission choices
    (built once per rule set and choices: a table opens the same round after round)."""
    rules = ruleset.rules
    changes = tuple((name, type(getattr(rules, name))(value)) for name, value in options.items()
                    if name in RULE_FIELDS)  # fmt: skip
    key = (ruleset.id, changes)
    found = _RULES.get(key)
    if found is None:
        found = _RULES[key] = dataclasses.replace(rules, **dict(changes)) if changes else rules
    return found


_RULES: dict[tuple[str, tuple[tuple[str, Any], ...]], BlackjackRules] = {}


def reading_options(rules: BlackjackRules) -> tuple[OptionSpec, ...]:
    """The readings a round may set on ``round.opened``, defaulting to the rule set's."""
    return tuple(
        OptionSpec(name, "1", tuple(str(choice) for choice in choices), str(getattr(rules, name)))
        for name, choices in _READINGS.items()
    )


_Opening = tuple[BlackjackRules, Mapping[str, Any]]


def _opening_options(
    game: BlackjackGame, ruleset: BlackjackRuleSet, event: RoundOpened
) -> _Opening:
    """The round's rules and options (each declared option, defaulted), checked."""
    specs = (*game.options, *reading_options(ruleset.rules))
    declared = {spec.name: spec for spec in specs}
    options: dict[str, Any] = {}
    for name, spec in declared.items():
        value = event.option(name, spec.default)
        if value not in spec.choices:
            allowed = ", ".join(repr(choice) for choice in spec.choices)
            raise RuleViolation(ruleset.section(spec.section), f"must be one of {allowed}",
                                f"options.{name}")  # fmt: skip
        options[name] = value
    for name in dict(event.options):
        if name not in declared:
            raise RuleViolation("round.opened", f"not an option of {game.name}", f"options.{name}")
    return _rules_with(ruleset, options), MappingProxyType(options)


_OPENINGS: dict[tuple[str, Options, tuple[type, ...]], _Opening] = {}


def opening(game: BlackjackGame, ruleset: BlackjackRuleSet, event: RoundOpened) -> _Opening:
    """The rules and options of a round of ``game`` opened by ``event`` under ``ruleset``.

    :raises RuleViolation: for an option the game does not declare or a value it does
        not allow.
    """
    # The option values' types are in the key so that ``True`` and ``1`` stay apart.
    key = (ruleset.id, event.options, tuple(type(value) for _, value in event.options))
    found = _OPENINGS.get(key)
    if found is None:
        found = _OPENINGS[key] = _opening_options(game, ruleset, event)
    return found


_APPLIED: dict[tuple[int, int], tuple[BlackjackRules, Mapping[str, Any], tuple[Any, ...]]] = {}


def options_applied(
    rules: BlackjackRules, options: Mapping[str, Any]
) -> tuple[tuple[str, str], ...]:
    """Every reading of ``rules`` and every other option, as a settlement records them.

    Made once per rules and options (by identity: the entry keeps both alive, so an
    identity is never reused while it is a key).
    """
    key = (id(rules), id(options))
    found = _APPLIED.get(key)
    if found is None or found[0] is not rules or found[1] is not options:
        if len(_APPLIED) >= 256:  # options built outside :func:`opening` must not pile up
            _APPLIED.clear()
        others = tuple((name, str(value)) for name, value in options.items()
                       if name not in RULE_FIELDS)  # fmt: skip
        found = _APPLIED[key] = (rules, options, (*rules.readings, *others))
    return found[2]


class Lookups:
    """A game's wagers by name and the side wagers the dealer's cards settle, found once per
    game rather than searched for on every event."""

    def __init__(self, game: BlackjackGame) -> None:
        self.specs = {spec.name: spec for spec in game.wagers}
        self.sides = {side.name: side for side in game.side_wagers}
        self.dealer_settles = frozenset(side.name for side in game.side_wagers
                                        if side.settle is not None)  # fmt: skip


_LOOKUPS: dict[str, Lookups] = {}


def lookups(game: BlackjackGame) -> Lookups:
    """``game``'s :class:`Lookups`, made on first use."""
    found = _LOOKUPS.get(game.id)
    if found is None:
        found = _LOOKUPS[game.id] = Lookups(game)
    return found
