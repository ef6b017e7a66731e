"""Props & Hops, Pennsylvania Chapter 585 (temporary; compilation current as of 2014-10-25).

One-roll wagers on two dice shaken in a covered shaker (§ 585.2), paid at the
odds of § 585.4; a "no roll" returns every wager (§ 585.3(f)-(g)); losing
wagers are collected before any winner is paid (§ 585.3(h)). The shooter
keeps the shaker until a 7, then it passes "to the next player to the left"
(§ 585.3(j)); the table carries the shooter's seat to its next round as the
``shooter`` option, and that round is refused if it offers the shaker to anyone
else (``opens_with``, among the players seated then). Readings, each an option
recorded in every settlement:

* ``shaker_passes``: § 585.3(j)'s "to the left" is unanchored. ``shooter_left``
  (default; the shooter's left, as the shaker passes at craps) is the next
  seat up (seat 1 is farthest to the dealer's left, § 585.3(e)), wrapping to
  the first; ``dealer_left`` is the next seat down.
* ``any_doubles_otherwise``: § 585.2(f)(4) writes no losing condition for Any
  Doubles; ``lose`` (default, as every other wager of § 585.2) or ``returned``.

>>> winners((1, 1))[:3]
('HARD_2', 'FIELD', 'ANY_CRAPS')
>>> pays((6, 6), "FIELD"), pays((3, 4), "FIELD")
(Odds(numerator=2, denominator=1), None)
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from tables.rules.declaration import (
    DealingSections,
    Game,
    GameRuleSet,
    Layout,
    NoRoll,
    OptionSpec,
    Showdown,
    Throw,
    Wagering,
    WagerSpec,
)
from tables.rules.engine import Outcome, RuleViolation, SettlementLine, plain_line, win_line
from tables.rules.events import DealingMethod, RoundOpened
from tables.rules.irregularities import Remedies
from tables.rules.machine import RoundState, Seat, declare
from tables.rules.money import Odds

_NAMES = {1: "One", 2: "Two", 3: "Three", 4: "Four", 5: "Five", 6: "Six"}
_TOTALS = {2: "Two", 4: "Four", 6: "Six", 8: "Eight", 10: "Ten", 12: "Twelve"}

#: § 585.2(d)(1)-(6): the six Double Wagers (the Hardways), won on a pair of ``face``.
DOUBLES = {f"HARD_{2 * face}": (face, face) for face in range(1, 7)}
#: § 585.2(e)(1)-(15): the fifteen Any Number Wagers, won on exactly these two faces.
NUMBERS = {f"HOP_{low}_{high}": (low, high)
           for low in range(1, 7) for high in range(low + 1, 7)}  # fmt: skip
FIELD, ANY_CRAPS, ANY_SEVEN, ANY_DOUBLES = "FIELD", "ANY_CRAPS", "ANY_SEVEN", "ANY_DOUBLES"

#: § 585.4: the payout odds; the Field pays 2 to 1 on a 2 or 12.
DOUBLE_ODDS, NUMBER_ODDS = Odds(30), Odds(15)
FIELD_TOTALS = {2: Odds(2), 12: Odds(2), 3: Odds(1), 4: Odds(1), 9: Odds(1), 10: Odds(1),
                11: Odds(1)}  # fmt: skip
OTHER_ODDS = {ANY_CRAPS: Odds(7), ANY_SEVEN: Odds(4), ANY_DOUBLES: Odds(4)}

_SECTIONS = {FIELD: "2(f)(1)", ANY_CRAPS: "2(f)(2)", ANY_SEVEN: "2(f)(3)", ANY_DOUBLES: "2(f)(4)",
             **{name: f"2(d)({index})" for index, name in enumerate(DOUBLES, 1)},
             **{name: f"2(e)({index})" for index, name in enumerate(NUMBERS, 1)}}  # fmt: skip


def pays(faces: tuple[int, ...], wager: str) -> Odds | None:
    """The odds ``wager`` is paid on ``faces`` (§ 585.2, § 585.4); ``None``: it loses."""
    low, high = sorted(faces)
    total = low + high
    if wager in DOUBLES:
        return DOUBLE_ODDS if DOUBLES[wager] == (low, high) else None
    if wager in NUMBERS:
        return NUMBER_ODDS if NUMBERS[wager] == (low, high) else None
    if wager == FIELD:
        return FIELD_TOTALS.get(total)
    won = {ANY_CRAPS: total in (2, 3, 12), ANY_SEVEN: total == 7, ANY_DOUBLES: low == high}
    return OTHER_ODDS[wager] if won[wager] else None


def winners(faces: tuple[int, ...]) -> tuple[str, ...]:
    """Every wager ``faces`` wins, in the layout's order."""
    return tuple(spec.name for spec in WAGERS if pays(faces, spec.name) is not None)


def call(state: RoundState, faces: tuple[int, ...]) -> str:
    """§ 585.3(g): the dealer announces both faces (written low-high, ``"3-4"``)."""
    low, high = sorted(faces)
    return f"{low}-{high}"


def settle(state: RoundState, seat: Seat) -> Iterator[SettlementLine]:
    """Every wager of the seat on the roll; the engine returns them all on a no roll."""
    faces = state.rolls["roll"]
    described = call(state, faces)
    for wager, stake in seat.wagers.items():
        odds = pays(faces, wager)
        if odds is not None:
            yield win_line(seat=seat.seat, player=seat.player, wager=wager, stake_cents=stake,
                           odds=odds, rounding=state.rounding, section=state.section("4"),
                           hand=described, pay_line=None)  # fmt: skip
        elif wager == ANY_DOUBLES and state.options["any_doubles_otherwise"] == "returned":
            yield plain_line(seat, wager, Outcome.RETURNED, state.section("2(f)(4)"), described)
        else:
            yield plain_line(seat, wager, Outcome.LOSE, state.section(_SECTIONS[wager]), described)


def shooter(state: RoundState) -> int:
    """The seat holding the shaker: the table's, else the player farthest to the dealer's left."""
    chosen: int | None = state.options["shooter"]
    return min(state.seats) if chosen is None else chosen


def _next_player(seats: Iterable[int], holder: int, passes: str) -> int:
    """The next seated player to ``holder``'s left under ``shaker_passes`` (empty seats are
    passed over, round the table)."""
    seats = sorted(seats)
    if passes == "shooter_left":
        return next((seat for seat in seats if seat > holder), seats[0])
    return next((seat for seat in reversed(seats) if seat < holder), seats[-1])


def _passes(state: RoundState) -> bool:
    faces = state.rolls.get("roll")
    return faces is not None and sum(faces) == 7


def carries(state: RoundState) -> Mapping[str, Any]:
    """§ 585.3(j): the shooter keeps the shaker until a 7, then it passes to the left."""
    now = shooter(state)
    if not _passes(state):
        return {"shooter": now}
    return {"shooter": _next_player(state.seats, now, state.options["shaker_passes"])}


def opens_with(previous: RoundState, opened: RoundOpened) -> Mapping[str, Any]:
    """The shooter of the table's next round (§ 585.3(j)): the same player until a 7, then
    the next player to the left among those seated at that round. A shooter gone before
    throwing a 7 (the chapter is silent) is read as passing the shaker the same way."""
    holder, seats = shooter(previous), opened.seats
    if not seats or (holder in seats and not _passes(previous)):
        return {"shooter": holder}
    return {"shooter": _next_player(seats, holder, previous.options["shaker_passes"])}


def _opening_check(state: RoundState) -> None:
    chosen = state.options["shooter"]
    if chosen is not None and chosen not in state.seats:
        raise RuleViolation(state.section("3(e)"), "the shaker is offered to a seated player",
                            "options.shooter")  # fmt: skip


WAGERS = (
    *(WagerSpec(name, f"{_TOTALS[2 * face]} the Hardway Bet", _SECTIONS[name])
      for name, (face, _) in DOUBLES.items()),
    *(WagerSpec(name, f"{_NAMES[low]}-{_NAMES[high]} Bet", _SECTIONS[name])
      for name, (low, high) in NUMBERS.items()),
    WagerSpec(FIELD, "Field Wager", "2(f)(1)"),
    WagerSpec(ANY_CRAPS, "Any Craps Wager", "2(f)(2)"),
    WagerSpec(ANY_SEVEN, "Any Seven Wager", "2(f)(3)"),
    WagerSpec(ANY_DOUBLES, "Any Doubles Wager", "2(f)(4)"),
)  # fmt: skip

PA_585_2014 = GameRuleSet(
    id="PA-585-2014", game="props_and_hops", jurisdiction="PA", chapter="585",
    effective_from=datetime.date(2014, 10, 25), max_seats=6,
    deck_change_hours_hand_dealt=None, deck_change_hours_shoe=None,
    dice_change_hours=24, dice_change_section="3(b)(1)",
    notes=("Temporary chapter, compilation current as of 2014-10-25; read as in force until "
           "replaced. Dice may not remain on a table more than 24 hours (585.3(b)(1)).",),
)  # fmt: skip

_NO_ROLLS = {
    "DIE_OUT_OF_SHAKER": NoRoll("3(f)", 'no roll: a die fell out of the shaker'),
    "DIE_ON_DIE": NoRoll("3(g)", "no roll: one die came to rest on the other"),
    "NOT_FLAT": NoRoll("3(g)", "no roll: the dice did not land flat"),
    "LID_REMOVED": NoRoll("3(e)", "the shooter lifted the lid: covered and shaken again",
                          rethrow=True),
}  # fmt: skip

_SECTIONS_CITED = {
    "seated": "2(c)", "wagers": "2(b)", "by_choice": "2(a)", "already_placed": "2(b)",
    "after_no_more_bets": "2(a)", "decision_wager": "2(a)", "decisions": "2(a)",
    "card_in_play": "3(a)", "card_count": "3(a)", "no_spot": "3(a)", "card_mismatch": "3(a)",
    "early_exposure": "3(a)", "showdown": "3(g)", "throw": "3(e)", "settle": "3(h)",
    "collect": "3(h)", "losers_first": "3(h)", "close": "3(i)", "void": "3(f)",
    "irregularities": "3(f)",
}  # fmt: skip
_DEALING = DealingSections("3(e)", "3(f)", "3(a)", "3(a)")  # dice: no deal, no stub

GAME = declare(
    Game(
        id="props_and_hops",
        name="Props & Hops",
        rulesets=(PA_585_2014,),
        layout=Layout(
            seat_spots=(), max_seats=6, seats_section="1(a)", dice=2, dice_section="3(a)"
        ),  # fmt: skip
        wagers=WAGERS,
        steps=(
            Wagering(),
            Throw("roll", "3(g)", no_rolls=_NO_ROLLS, call=call, call_section="3(g)"),
            Showdown("3(h)"),
        ),
        settle=settle,
        opening_check=_opening_check,
        options=(
            OptionSpec("shooter", "3(j)", (None, 1, 2, 3, 4, 5, 6), None, recorded=False),
            OptionSpec("shaker_passes", "3(j)", ("shooter_left", "dealer_left"), "shooter_left"),
            OptionSpec("any_doubles_otherwise", "2(f)(4)", ("lose", "returned"), "lose"),
        ),
        dealing=dict.fromkeys(DealingMethod, _DEALING),
        remedies=Remedies(face_up="3(a)", voids={}),
        sections=_SECTIONS_CITED,
        carries=carries,
        opens_with=opens_with,
    )
)
