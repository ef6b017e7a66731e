"""Double Attack Blackjack (§ 581): the family's par sheet (:mod:`.._blackjack`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tables.rules.blackjack_games.double_attack_blackjack_581 import GAME
from tables.rules.house_edge import HouseEdge
from tables.rules.parsheets import _blackjack

__all__ = ["parsheet", "house_edges"]


def parsheet(ruleset: Any, options: Mapping[str, Any]) -> dict[str, Any]:
    """Side wagers exact, the main game as simulated."""
    return _blackjack.parsheet(GAME, ruleset, options)


def house_edges(ruleset: Any, options: Mapping[str, Any]) -> tuple[HouseEdge, ...]:
    """Finance's edges for a round's options."""
    return _blackjack.house_edges(GAME, ruleset, options)
