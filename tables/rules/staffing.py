"""A floorperson's span of control (§ 581.14(c), § 585.5(c); the same words in § 583.14(c),
§ 587.14(c) and § 593.6(c)): "A floorperson may not supervise more than four tables comprised
of any combination of banking table games excluding: (1) Baccarat. (2) Midibaccarat.
(3) Craps. (4) Mini-Craps. (5) Pai Gow. (6) Three Dice Football."

Pure data and one function: the floor board passes in who supervises which table and its
game, and gets back each floorperson over the limit.

Readings, each stated because the text leaves it open:

* Every game of our registry is a banking game (the house banks its wagers) but the poker
  room's nonbanked Poker (§ 553), which is not counted at all.
* "Pai Gow" is the tile game; Pai Gow Poker (§ 561) is a different game and is counted.
* None of the six excluded games is dealt here; they are listed by name so that a game of
  that id, if one is ever added, is left out of the count as the section says.

>>> over_the_limit({"T1": ("floor", "three_card_poker")})
()
>>> [o.tables for o in over_the_limit({f"T{n}": ("floor", "craps") for n in range(6)})]
[]
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

__all__ = ["MAX_BANKING_TABLES", "SECTIONS", "EXCLUDED_GAMES", "NONBANKING_GAMES",
           "OverTheLimit", "counted", "over_the_limit"]  # fmt: skip

#: "more than four tables" (§ 581.14(c), § 585.5(c)).
MAX_BANKING_TABLES = 4
SECTIONS = ("581.14(c)", "585.5(c)")
#: The games the section leaves out of the count, (1)–(6).
EXCLUDED_GAMES = frozenset({"baccarat", "midibaccarat", "craps", "mini_craps", "pai_gow",
                            "three_dice_football"})  # fmt: skip
#: Games that are not banking table games: the poker room (§ 553: the house takes a rake).
NONBANKING_GAMES = frozenset({"poker"})


@dataclass(frozen=True, slots=True)
class OverTheLimit:
    """A floorperson supervising more banking tables than the section allows."""

    floorperson: str
    #: The counted tables they supervise, sorted.
    tables: tuple[str, ...]
    sections: tuple[str, ...] = SECTIONS

    @property
    def reason(self) -> str:
        return (f"{self.floorperson} supervises {len(self.tables)} banking tables "
                f"({', '.join(self.tables)}): more than {MAX_BANKING_TABLES}")  # fmt: skip


def counted(game: str) -> bool:
    """Whether a table of ``game`` counts toward the limit: a banking game not excluded."""
    return game not in NONBANKING_GAMES and game not in EXCLUDED_GAMES


def over_the_limit(supervised: Mapping[str, tuple[str, str]]) -> tuple[OverTheLimit, ...]:
    """Each floorperson over the limit, from ``supervised``: table id → (floorperson, game)
    for the tables open now, sorted by floorperson."""
    by_floorperson: dict[str, list[str]] = {}
    for table_id, (floorperson, game) in supervised.items():
        if counted(game):
            by_floorperson.setdefault(floorperson, []).append(table_id)
    return tuple(OverTheLimit(floorperson, tuple(sorted(tables)))
                 for floorperson, tables in sorted(by_floorperson.items())
                 if len(tables) > MAX_BANKING_TABLES)  # fmt: skip
