"""The blackjack family's games, each a :class:`~tables.rules.blackjack_round.BlackjackGame`.

Every public module here defines ``GAME`` and registers it with the engine on import, so
:func:`tables.rules.replay.replay` runs its rounds. They are kept apart from
:mod:`tables.rules.games` (the product's registry: the tables admin, the demo, par sheets,
finance's house edges, the round viewer) until each has those pieces; moving a module into
that package is then the whole change.
"""

from __future__ import annotations

import functools
import importlib
import pkgutil
from types import ModuleType

__all__ = ["modules"]


@functools.cache
def modules() -> tuple[ModuleType, ...]:
    """Every blackjack game module, imported once."""
    found = sorted(pkgutil.iter_modules(__path__), key=lambda info: info.name)
    return tuple(importlib.import_module(f"{__name__}.{info.name}") for info in found
                 if not info.name.startswith("_"))  # fmt: skip
