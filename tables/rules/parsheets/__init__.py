"""Par sheets by game, found by convention: a game adds its own, nothing else is edited.

A game offers a par sheet by providing ``parsheet(ruleset, options)``, either
in its module under :mod:`tables.rules.games` or, to keep that module short,
in a module of this package named after the game's id
(``tables/rules/parsheets/three_card_poker.py``). ``options`` holds a value
for every option the game declares (its :class:`~tables.rules.declaration.OptionSpec`
list, the rule set's defaults filling what the caller leaves out); the result
is a dict of plain data, :class:`fractions.Fraction` and
:class:`tables.rules.parsheet.WagerSheet` values that ``manage.py parsheet``
prints. A game's house edges for finance are read from the same functions
(:mod:`tables.rules.house_edge`).

>>> "three_card_poker" in games()
True
>>> options("three_card_poker", {})["pair_plus_table"]
'565.12(d) minimum'
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from types import ModuleType
from typing import Any

from tables.rules import registry

__all__ = ["games", "module", "options", "provider"]

ParSheet = Callable[[Any, Mapping[str, Any]], dict[str, Any]]


def module(game_id: str) -> ModuleType | None:
    """The module holding ``game_id``'s par sheet: its game module, or this package's."""
    game = registry.game_modules()[game_id]
    if hasattr(game, "parsheet"):
        return game
    try:
        return importlib.import_module(f"{__name__}.{game_id}")
    except ModuleNotFoundError as error:
        if error.name != f"{__name__}.{game_id}":
            raise
        return None


def provider(game_id: str) -> ParSheet | None:
    """The par-sheet function of ``game_id``, or ``None`` when it offers none."""
    found: ParSheet | None = getattr(module(game_id), "parsheet", None)
    return found


def games() -> tuple[str, ...]:
    """The registered games that offer a par sheet, sorted."""
    return tuple(game_id for game_id in registry.game_ids() if provider(game_id) is not None)


def options(game_id: str, chosen: Mapping[str, Any], ruleset: Any = None) -> dict[str, Any]:
    """Every declared option of ``game_id``: ``chosen`` (a value or its text, as a
    settlement's ``options_applied`` records it), else the rule set's default, else
    the declaration's.

    :raises ValueError: naming an option the game does not declare or a value it
        does not allow, with the option's section.
    """
    specs = {spec.name: spec for spec in registry.options_of(game_id)}
    unknown = sorted(set(chosen) - set(specs))
    if unknown:
        raise ValueError(f"unknown option(s) {', '.join(unknown)}; known: {', '.join(specs)}")
    defaults = getattr(ruleset, "defaults", {}) if ruleset is not None else {}
    values = {}
    for name, spec in specs.items():
        value = chosen.get(name, defaults.get(name, spec.default))
        # A settlement records each option as text ("False"): read it back as its choice.
        value = next((choice for choice in spec.choices if str(choice) == value), value)
        if value not in spec.choices:
            section = ruleset.section(spec.section) if ruleset is not None else spec.section
            allowed = ", ".join("none" if c is None else str(c) for c in spec.choices)
            raise ValueError(f"option {name}={value} is not one of {allowed} ({section})")
        values[name] = value
    return values
