"""High Roll Dice (§ 593): every wager exactly, by multinomial counting over ten dice.

Ten dice fall in 3,003 multisets; each is weighted by the number of ordered
throws giving it (10! / the product of each face's count!), out of 6^10. The
extra roll of the 10 - N unmatched dice adds k more of the kept face with the
binomial weight C(10 - N, k) 5^(10-N-k) / 6^(10-N) (§ 593.4(g)-(h)).

The dealer's misreadings the simulator stages (``MISREADINGS``) are here too,
keeping the declaration short: a Pip Street tie broken by counting order (the
face counted first from the ace up) instead of rank (§ 593.2(e)(1)), and
Millionaire Row's nine circle paid on ten where it does not win (§ 593.2(e)(4)).

>>> sum(first_roll().values())
Fraction(1, 1)
>>> round(float(count_probabilities()[3]), 4)
0.5293
"""

from __future__ import annotations

import functools
import itertools
import math
import random
from collections import Counter
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from tables.rules.declaration import Misreading
from tables.rules.engine import SettlementLine
from tables.rules.games import high_roll_dice_593 as game
from tables.rules.house_edge import HouseEdge
from tables.rules.machine import RoundState
from tables.rules.money import Fixed

__all__ = ["first_roll", "count_probabilities", "extra_roll", "wager_rows", "wager_edges",
           "combination", "parsheet", "house_edges", "counted_first", "MISREADINGS"]  # fmt: skip

DICE = 10


@functools.cache
def first_roll() -> Mapping[tuple[int, int], Fraction]:
    """P(the winning face, its count) over the 3,003 multisets of ten dice."""
    found: Counter[tuple[int, int]] = Counter()
    for multiset in itertools.combinations_with_replacement(range(1, 7), DICE):
        counts = Counter(multiset)
        ways = math.factorial(DICE)
        for count in counts.values():
            ways //= math.factorial(count)
        found[game.first_count(multiset)] += ways
    return {key: Fraction(ways, 6**DICE) for key, ways in found.items()}


@functools.cache
def count_probabilities() -> Mapping[int, Fraction]:
    """P(N): the count of the face occurring most on the first roll."""
    result: dict[int, Fraction] = {}
    for (_, count), probability in first_roll().items():
        result[count] = result.get(count, Fraction(0)) + probability
    return dict(sorted(result.items()))


def extra_roll(count: int) -> dict[int, Fraction]:
    """P(final count) after the extra roll of the 10 - ``count`` unmatched dice."""
    left = DICE - count
    return {count + k: Fraction(math.comb(left, k) * 5 ** (left - k), 6**left)
            for k in range(left + 1)}  # fmt: skip


def _like(options: Mapping[str, Any]) -> dict[int, Fraction]:
    odds = game.like_kind_odds(options["seven_of_a_kind"], options["three_of_a_kind"])
    return {count: item.ratio for count, item in odds.items()}


def wager_rows(options: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Each single wager settled on the first roll: its pay, P(win) and house edge per unit
    (§ 593.5(a)-(c)); Millionaire Row per unit of its $1 maximum stake."""
    faces: dict[int, Fraction] = {}
    for (face, _), probability in first_roll().items():
        faces[face] = faces.get(face, Fraction(0)) + probability
    counts, like = count_probabilities(), _like(options)
    seven, three = options["seven_of_a_kind"], options["three_of_a_kind"]
    rows = []

    def row(name: str, section: str, pays: object, win: Fraction, amount: Fraction) -> None:
        edge = -(win * amount - (1 - win))
        rows.append({"wager": name, "section": f"593.{section}", "pays": str(pays),
                     "win_probability": win, "house_edge": edge})  # fmt: skip

    for face, name in game.PIPS.items():
        row(name, "5(a)", game.PIP_ODDS[face], faces[face], game.PIP_ODDS[face].ratio)
    for count, name in game.CIRCLES.items():
        row(name, "5(b)", game.like_kind_odds(seven, three)[count], counts[count], like[count])
    for count, name in game.MILLIONAIRE.items():
        win = counts.get(count, Fraction(0))
        if count == 9 and options["nine_wins_on_ten"]:
            win += counts.get(10, Fraction(0))
        amount = Fraction(game.MILLIONAIRE_PAYS[count], game.MILLIONAIRE_MAX_CENTS)
        amount -= 1 if options["millionaire_includes_stake"] else 0
        pays = Fixed(game.MILLIONAIRE_PAYS[count])
        row(name, "5(c)", f"{pays} per $1", win, amount)
    return rows


def wager_edges(options: Mapping[str, Any]) -> dict[str, Fraction]:
    """House edge per unit of each single wager settled on the first roll (§ 593.5(a)-(c))."""
    return {row["wager"]: row["house_edge"] for row in wager_rows(options)}


def combination(options: Mapping[str, Any], extra: bool) -> Fraction:
    """Expected result per unit of all seven Like Kind circles, and the Extra Roll if ``extra``."""
    like, reading = _like(options), options["extra_roll"]
    total = Fraction(0)
    for count, p_count in count_probabilities().items():
        if not extra:
            total += p_count * (like.get(count, 0) - sum(c != count for c in like))
            continue
        for final, p_final in extra_roll(count).items():
            value = Fraction(like.get(count, 0))
            value -= sum(c < count for c in like)
            kept = [c for c in like if c > count]
            reached = final in kept
            value -= len(kept) - reached
            if reached and reading != "final_count":
                value += game.EXTRA_ODDS[final].ratio
            if reading == "final_count":
                paid_first = final == count and count in like
                value += (game.EXTRA_ODDS[final].ratio if final in game.EXTRA_ODDS
                          and not paid_first else -1)  # fmt: skip
            elif not (reading == "circles_stake_returned" and reached):
                value -= 1
            total += p_count * p_final * value
    return total / (len(like) + extra)


def _readings() -> list[dict[str, Any]]:
    rows = []
    for seven, three, reading in itertools.product(game.SEVENS, game.THREES, game.EXTRA_READINGS):
        options = {"seven_of_a_kind": seven, "three_of_a_kind": three, "extra_roll": reading,
                   "nine_wins_on_ten": False, "millionaire_includes_stake": False}  # fmt: skip
        circles = combination(options, extra=False)
        both = combination(options, extra=True)
        rows.append({"seven_of_a_kind": seven, "three_of_a_kind": three, "extra_roll": reading,
                     "all_circles_edge": -circles, "all_circles_and_extra_roll_edge": -both,
                     "extra_roll_edge": -(8 * both - 7 * circles)})  # fmt: skip
    return rows


def parsheet(ruleset: Any, options: Mapping[str, Any]) -> dict[str, Any]:
    """Every wager under ``options``, and the combinations under every reading."""
    return {
        "title": "High Roll Dice - EXACT by multinomial counting over the 3,003 multisets of "
        "ten dice (593.2, 593.5)",
        "count_probabilities": [{"first_count": count, "probability": probability}
                                for count, probability in count_probabilities().items()],
        "wagers": [*wager_rows(options), _extra_row(options)],
        "readings": _readings(),
        "notes": [
            "EXTRA_ROLL and extra_roll_edge: what the Extra Roll adds per unit of it, beside "
            "all seven circles (593.4(g)-(h)); an edge below 0 favours the player."
        ],  # fmt: skip
    }


def _extra_row(options: Mapping[str, Any]) -> dict[str, Any]:
    """The Extra Roll's edge is only defined beside the circles it keeps (§ 593.4(g)-(h))."""
    circles, both = combination(options, extra=False), combination(options, extra=True)
    return {"wager": game.EXTRA_ROLL, "section": "593.5(d)", "pays": "by final count",
            "win_probability": None, "house_edge": -(8 * both - 7 * circles)}  # fmt: skip


def house_edges(ruleset: Any, options: Mapping[str, Any]) -> tuple[HouseEdge, ...]:
    """Each wager's exact edge; the Extra Roll's is its value beside all seven circles."""
    source = ", ".join(f"{name} {value}" for name, value in sorted(options.items()))
    edges = tuple(HouseEdge(handle=frozenset({name}), edge=edge, source=f"exact, {source}")
                  for name, edge in wager_edges(options).items())  # fmt: skip
    extra = HouseEdge(handle=frozenset({game.EXTRA_ROLL}), edge=_extra_row(options)["house_edge"],
                      source=f"exact, beside all seven circles, {source}")  # fmt: skip
    return (*edges, extra)


def counted_first(faces: tuple[int, ...]) -> int:
    """The face a dealer counting from the ace up finds first with the top count: the
    ace wins a tie either way, but 2 beats 6 where rank says 6 (§ 593.2(e)(1))."""
    count = game.first_count(faces)[1]
    return min(face for face in faces if faces.count(face) == count)


def _tied(state: RoundState, rng: random.Random) -> tuple[int, ...] | None:
    """Ten dice whose top count is tied so that counting order and rank differ, on a face
    some seat's Pip Street Wager names; ``None`` if none turns up."""
    wagered = {name for seat in state.seats.values() for name in seat.wagers}
    for _ in range(1000):
        faces = tuple(rng.randint(1, 6) for _ in range(DICE))
        right, wrong = game.first_count(faces)[0], counted_first(faces)
        if right != wrong and {game.PIPS[right], game.PIPS[wrong]} & wagered:
            return faces
    return None


def _misread(state: RoundState, wagers: tuple[str, ...], face: int) -> list[SettlementLine]:
    """The first-roll lines of ``wagers`` as a dealer settles them who reads ``face``."""
    count = game.first_count(state.rolls["first_roll"])[1]
    lines = (game._first(state, seat, wager, face, count, f"{count}x{face}")
             for seat in state.seats.values() for wager in seat.wagers if wager in wagers)
    return [line for line in lines if line is not None]  # fmt: skip


def _pips_by_count(state: RoundState) -> list[SettlementLine]:
    return _misread(state, tuple(game.PIPS.values()), counted_first(state.rolls["first_roll"]))


def _ten(state: RoundState, rng: random.Random) -> tuple[int, ...] | None:
    """Ten of a kind, where the nine circle does not win on it."""
    return None if state.options["nine_wins_on_ten"] else (rng.randint(1, 6),) * DICE


def _nine_on_ten(state: RoundState) -> list[SettlementLine]:
    misread = state._replace(options={**state.options, "nine_wins_on_ten": True})
    face = game.first_count(state.rolls["first_roll"])[0]
    return _misread(misread, (game.MILLIONAIRE[9],), face)


#: The simulator's staged dealer errors (:class:`tables.rules.simulate.DiceError`).
MISREADINGS = {
    "pip_tie_by_count_order": Misreading("first_roll", _tied, _pips_by_count),
    "nine_paid_on_ten": Misreading("first_roll", _ten, _nine_on_ten, wager=game.MILLIONAIRE[9],
                                    drawn=False),
}
