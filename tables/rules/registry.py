"""Every game the engine knows: a module under :mod:`tables.rules.games` (or, for the
blackjack family, :mod:`tables.rules.blackjack_games`) is a game.

A game registers itself by being there: each public module of those packages
defines ``GAME`` (a :class:`~tables.rules.declaration.Game` declaration, or a
:class:`~tables.rules.blackjack_declaration.BlackjackGame` whose round machine
registers itself with the engine) and is imported here the first time anything asks.
Replay, the simulator, par sheets, finance's house edges, the round viewer, the demo
and the API's choices read this registry; adding a game touches its module and its rule sets only
(``tests/rules/test_registry.py`` proves every game has each piece).

>>> "three_card_poker" in game_ids()
True
>>> ruleset("PA-565-2010").game
'three_card_poker'
>>> ruleset("PA-581-2014").game
'double_attack_blackjack'
"""

from __future__ import annotations

import functools
import importlib
import pkgutil
from collections.abc import Mapping
from types import ModuleType
from typing import Any

from tables.rules.blackjack_declaration import BlackjackGame
from tables.rules.declaration import Game, OptionSpec

__all__ = [
    "game_modules",
    "game_ids",
    "declared",
    "blackjack",
    "game_name",
    "options_of",
    "rulesets",
    "ruleset",
    "describe",
    "describe_blackjack",
]

#: The blackjack family keeps its own package: its shared readings live in its ``__init__``.
_PACKAGES = ("tables.rules.games", "tables.rules.blackjack_games")


@functools.cache
def game_modules() -> Mapping[str, ModuleType]:
    """Every game module by its game id, imported once."""
    modules: dict[str, ModuleType] = {}
    for name in _PACKAGES:
        package = importlib.import_module(name)
        for info in sorted(pkgutil.iter_modules(package.__path__), key=lambda item: item.name):
            if info.name.startswith("_"):
                continue
            module = importlib.import_module(f"{name}.{info.name}")
            modules[module.GAME.id] = module
    return modules


def game_ids() -> tuple[str, ...]:
    """Every game id, sorted."""
    return tuple(sorted(game_modules()))


def declared(game_id: str) -> Game | None:
    """The declaration of ``game_id``, or ``None`` for a game with its own round machine
    (the blackjack family: :func:`blackjack` gives its declaration)."""
    game = game_modules()[game_id].GAME
    return game if isinstance(game, Game) else None


def blackjack(game_id: str) -> BlackjackGame | None:
    """The blackjack declaration of ``game_id``, or ``None`` for a game of another family."""
    game = game_modules()[game_id].GAME
    return game if isinstance(game, BlackjackGame) else None


def game_name(game_id: str) -> str:
    """The name a person reads (``"Three Card Poker"``)."""
    return str(game_modules()[game_id].GAME.name)


def options_of(game_id: str) -> tuple[OptionSpec, ...]:
    """The opening options ``game_id`` declares (any family)."""
    return tuple(game_modules()[game_id].GAME.options)


@functools.cache
def rulesets() -> Mapping[str, Any]:
    """Every registered game's rule sets by id (declared and blackjack games alike)."""
    found: dict[str, Any] = {}
    for module in game_modules().values():
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
    layout_json = {
        "seat_spots": [str(spot) for spot in layout.seat_spots],
        "dealer_spots": [str(spot) for spot in layout.dealer_spots],
        "community_spots": [str(spot) for spot in layout.community_spots],
        "max_seats": layout.max_seats,
    }
    return {**_named(game, layout_json), "steps": steps}


def _named(game: Game | BlackjackGame, layout: dict[str, Any]) -> dict[str, Any]:
    """What every family publishes: its wagers, options and rule sets."""
    return {
        "id": game.id,
        "name": game.name,
        "layout": layout,
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


def describe_blackjack(game: BlackjackGame) -> dict[str, Any]:
    """:func:`describe` for a blackjack game: its deal order, the decisions a hand may
    take, each side wager's window, and the same wagers, options and rule sets.

    >>> described = describe_blackjack(blackjack("free_bet_blackjack"))
    >>> described["deal"], [w["name"] for w in described["wagers"] if not w["handle"]]
    (['seats', 'dealer_up', 'seats', 'dealer_hole'], ['FREE_DOUBLE_LAMMER', 'FREE_SPLIT_LAMMER'])
    """
    # A hand's spots are its cards in order, and a seat's hands grow by splitting.
    described = _named(game, {"seat_spots": [], "dealer_spots": ["1", "2"],
                              "community_spots": [], "max_seats": game.max_seats})  # fmt: skip
    described["deal"] = list(game.deal)
    described["choices"] = ["hit", "stand", "double", "split", "surrender", "second_chance"]
    described["side_wagers"] = [
        {"name": side.name, "window": side.window.value, "at_most": side.at_most}
        for side in game.side_wagers
    ]  # fmt: skip
    return described


def _json(value: Any) -> Any:
    return value if value is None or isinstance(value, bool | int) else str(value)


def _day(day: Any) -> str | None:
    return None if day is None else str(day.isoformat())
