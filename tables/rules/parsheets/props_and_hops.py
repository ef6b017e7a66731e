"""Props & Hops (§ 585): every one-roll wager exactly, over the 36 ordered throws of two dice.

>>> sheet = wager_sheet("ANY_SEVEN", "lose")
>>> sheet["win_probability"], sheet["house_edge"]
(Fraction(1, 6), Fraction(1, 6))
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from tables.rules.games import props_and_hops_585 as game
from tables.rules.house_edge import HouseEdge

__all__ = ["wager_sheet", "parsheet", "house_edges"]

THROWS = tuple(itertools.product(range(1, 7), repeat=2))


@functools.cache
def wager_sheet(wager: str, any_doubles_otherwise: str) -> dict[str, Any]:
    """Probability of a win, expected result and house edge per unit of ``wager``."""
    won = lost = Fraction(0)
    expected = Fraction(0)
    paid = set()
    for faces in THROWS:
        odds = game.pays(faces, wager)
        if odds is not None:
            paid.add(odds)
            won += Fraction(1, 36)
            expected += Fraction(1, 36) * odds.ratio
        elif not (wager == game.ANY_DOUBLES and any_doubles_otherwise == "returned"):
            lost += Fraction(1, 36)
            expected -= Fraction(1, 36)
    # The Field pays two odds (585.4): both shown, the higher first.
    pays = ", ".join(str(odds) for odds in sorted(paid, key=lambda odds: -odds.ratio))
    return {"wager": wager, "section": f"585.{game._SECTIONS[wager]}", "pays": pays,
            "win_probability": won,
            "lose_probability": lost, "expected": expected, "house_edge": -expected}  # fmt: skip


def parsheet(ruleset: Any, options: Mapping[str, Any]) -> dict[str, Any]:
    """Every wager under the round's reading of Any Doubles, and under the other reading."""
    reading = options["any_doubles_otherwise"]
    return {
        "title": "Props & Hops - EXACT over the 36 throws of two dice (585.2, 585.4)",
        "wagers": [wager_sheet(spec.name, reading) for spec in game.WAGERS],
        "readings": [{"any_doubles_otherwise": other, **wager_sheet(game.ANY_DOUBLES, other)}
                     for other in ("lose", "returned")],  # fmt: skip
        "notes": [
            "A no roll (585.3(f)-(g)) returns every wager and is left out: it changes "
            "no wager's edge per decision."
        ],  # fmt: skip
    }


def house_edges(ruleset: Any, options: Mapping[str, Any]) -> tuple[HouseEdge, ...]:
    """Each wager's exact edge per unit of its own handle."""
    reading = options["any_doubles_otherwise"]
    return tuple(
        HouseEdge(handle=frozenset({spec.name}), edge=wager_sheet(spec.name, reading)["house_edge"],
                  source=f"exact over 36 throws (585.4), any doubles otherwise {reading}")
        for spec in game.WAGERS
    )  # fmt: skip
