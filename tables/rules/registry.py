"""Every game the engine knows: a module under :mod:`tables.rules.games` is a game.

A game registers itself by being there: each public module of the package
defines ``GAME`` (a :class:`~tables.rules.declaration.Game` declaration, or the
id of a game whose module registers its own state machine) and is imported
here the first time anything asks. Replay, the simulator, par sheets, finance's
house edges, the round viewer, the demo and the API's choices read this
registry; adding a game touches its module and its rule sets only
(``tests/rules/test_registry.py`` proves every game has each piece).

>>> "three_card_poker" in game_ids()
True
>>> ruleset("PA-565-2010").game
'three_card_poker'
"""

from __future__ import annotations

import functools
import importlib
import pkgutil
from collections.abc import Mapping
from types import ModuleType
from typing import Any

from tables.rules.declaration import Game

__all__ = [
    "game_modules",
    "game_ids",
    "declared",
    "game_name",
    "rulesets",
    "ruleset",
    "describe",
]

_PACKAGE = "tables.rules.games"


@functools.cache
def game_modules() -> Mapping[str, ModuleType]:
    """Every game module by its game id, imported once."""
    package = importlib.import_module(_PACKAGE)
    modules: dict[str, ModuleType] = {}
    for info in sorted(pkgutil.iter_modules(package.__path__), key=lambda item: item.name):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{_PACKAGE}.{info.name}")
        game = module.GAME
        modules[game.id if isinstance(game, Game) else str(game)] = module
    return modules


def game_ids() -> tuple[str, ...]:
    """Every game id, sorted."""
    return tuple(sorted(game_modules()))


def declared(game_id: str) -> Game | None:
    """The declaration of ``game_id``, or ``None`` for a game with its own state machine."""
    game = game_modules()[game_id].GAME
    return game if isinstance(game, Game) else None


def game_name(game_id: str) -> str:
    """The name a person reads (``"Three Card Poker"``)."""
    module = game_modules()[game_id]
    game = module.GAME
    return game.name if isinstance(game, Game) else str(module.NAME)


@functools.cache
def rulesets() -> Mapping[str, Any]:
    """Every declared game's rule sets by id."""
    found: dict[str, Any] = {}
    for module in game_modules().values():
        if isinstance(module.GAME, Game):
            found.update((item.id, item) for item in module.GAME.rulesets)
    return found


def ruleset(ruleset_id: str) -> Any:
    """A declared game's rule set.

    :raises KeyError: for an id no declared game has.
    """
    return rulesets()[ruleset_id]


def describe(game: Game) -> dict[str, Any]:
    """What a table device needs to know of ``game`` to record its rounds, as JSON values.

    The names its events may use (wagers, card spots, decision choices, opening
    options) with the sections they come from, and its rule sets.

    >>> described = describe(declared("three_card_poker"))
    >>> [wager["name"] for wager in described["wagers"]][:3]
    ['ANTE', 'PLAY', 'PAIR_PLUS']
    >>> [step["kind"] for step in described["steps"]]
    ['wagering', 'deal', 'decide', 'reveal', 'showdown']
    """
    layout = game.layout
    steps = []
    for step in game.steps:
        entry: dict[str, Any] = {"name": str(step.name), "kind": type(step).__name__.lower()}
        entry["section"] = getattr(step, "section", None)
        if hasattr(step, "choices"):
            entry["choices"] = [
                {"name": choice.name, "places": list(choice.wagers), "folds": choice.folds,
                 "withdraws": list(choice.withdraws)}
                for choice in step.choices
            ]
        if hasattr(step, "spots"):
            entry["spots"] = [str(spot) for spot in step.spots]
        steps.append(entry)
    return {
        "id": game.id,
        "name": game.name,
        "layout": {
            "seat_spots": [str(spot) for spot in layout.seat_spots],
            "dealer_spots": [str(spot) for spot in layout.dealer_spots],
            "community_spots": [str(spot) for spot in layout.community_spots],
            "max_seats": layout.max_seats,
        },
        "wagers": [
            {
                "name": str(spec.name),
                "label": spec.label,
                "section": spec.section,
                "by_choice": spec.by_choice,
                "handle": spec.handle,
            }
            for spec in game.wagers
        ],  # fmt: skip
        "steps": steps,
        "options": [
            {
                "name": spec.name,
                "section": spec.section,
                "choices": [_json(choice) for choice in spec.choices],
                "default": _json(spec.default),
            }
            for spec in game.options
        ],  # fmt: skip
        "rulesets": [
            {
                "id": item.id,
                "chapter": item.chapter,
                "effective_from": _day(getattr(item, "effective_from", None)),
                "effective_to": _day(getattr(item, "effective_to", None)),
            }
            for item in game.rulesets
        ],  # fmt: skip
    }


def _json(value: Any) -> Any:
    return value if value is None or isinstance(value, bool | int) else str(value)


def _day(day: Any) -> str | None:
    return None if day is None else str(day.isoformat())
