"""High Roll Dice, Pennsylvania Chapter 593 (temporary; compilation current as of 2014-10-25).

Ten dice thrown by the dealer. Pip Street wins on the face that occurs most,
ties broken by rank ace > 6 > 5 > 4 > 3 > 2 (§ 593.2(d), (e)(1)); Like Kind
Boulevard on how many of it there are, two to eight (§ 593.2(e)(2));
Millionaire Row on nine or ten (§ 593.2(e)(4), at most $1). An Extra Roll
Wager, equal to the Like Kind Wagers (§ 593.1(b)(2)(iv)) and closed by the
electronic lock-out at "no more bets" (§ 593.1(c)(2)), has the unmatched dice
thrown again (§ 593.4(g)-(h)). Readings, each an option recorded in every
settlement (the par sheet prices each, ``tables/rules/parsheets/high_roll_dice.py``):

* ``seven_of_a_kind``: § 593.5(b) prints "4 00 to 1": 40, 400 (default) or 4000.
* ``three_of_a_kind``: § 593.5(b) prints "3 to 5" (default, odds-on) or ``5_to_3``.
* ``extra_roll``: how § 593.4(g)-(h) pays. ``circles`` (default): the Extra Roll
  stake is collected at "no more bets" (§ 593.4(a)) and kept; the Like Kind
  circles above the first count stay on the layout and the one the final count
  reaches is paid at § 593.5(d). ``circles_stake_returned``: as ``circles``, and
  the Extra Roll stake is given back when a kept circle is reached.
  ``final_count``: the Extra Roll is a bet on the final count at § 593.5(d)
  (stake back on a win), except a count the player's Like Kind Wager already
  won (§ 593.4(h)); a kept circle reached is returned, one missed collected.
* ``nine_wins_on_ten``: whether Millionaire Row's nine circle also wins on ten (no).
* ``millionaire_includes_stake``: whether § 593.5(c)'s amount includes the stake (no).

>>> first_count((6, 6, 6, 1, 1, 1, 4, 4, 2, 3))
(1, 3)
"""

from __future__ import annotations

import datetime
from collections.abc import Iterator

from tables.rules.declaration import (
    AtMost,
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
from tables.rules.engine import Outcome, Refusal, SettlementLine, plain_line, win_line
from tables.rules.events import DealingMethod, WagerPlaced
from tables.rules.irregularities import Remedies
from tables.rules.machine import RoundState, Seat, declare
from tables.rules.money import Fixed, Odds

PIPS = {face: f"PIP_{face}" for face in range(1, 7)}
CIRCLES = {count: f"LIKE_{count}" for count in range(2, 9)}
MILLIONAIRE = {9: "MILLION_9", 10: "MILLION_10"}
EXTRA_ROLL = "EXTRA_ROLL"
MILLIONAIRE_MAX_CENTS = 100  # § 593.2(e)(4): "may not be more than $1"
_EQUAL = frozenset((*PIPS.values(), *CIRCLES.values(), EXTRA_ROLL))

#: § 593.5(a), by the winning face.
PIP_ODDS = {2: Odds(6), 3: Odds(6), 4: Odds(5), 5: Odds(4), 6: Odds(4), 1: Odds(3)}
SEVENS = {"40": Odds(40), "400": Odds(400), "4000": Odds(4000)}
THREES = {"3_to_5": Odds(3, 5), "5_to_3": Odds(5, 3)}
#: § 593.5(c): fixed amounts.
MILLIONAIRE_PAYS = {10: 100_000_000, 9: 5_000_000}
#: § 593.5(d): no line for a final count of 2, 9 or 10.
EXTRA_ODDS = {8: Odds(50), 7: Odds(10), 6: Odds(4), 5: Odds(2), 4: Odds(1), 3: Odds(8)}
EXTRA_READINGS = ("circles", "circles_stake_returned", "final_count")


def like_kind_odds(seven: str, three: str) -> dict[int, Odds]:
    """§ 593.5(b) under the readings of its garbled seven and three lines."""
    return {8: Odds(5000), 7: SEVENS[seven], 6: Odds(30), 5: Odds(4), 4: Odds(1),
            3: THREES[three], 2: Odds(12)}  # fmt: skip


def rank(face: int) -> int:
    """§ 593.2(d): the ace ranks highest, then 6 down to 2."""
    return 7 if face == 1 else face


def first_count(faces: tuple[int, ...]) -> tuple[int, int]:
    """(the face that occurs most, ties to the higher rank; how many) (§ 593.2(e)(1)-(2))."""
    return max(((face, faces.count(face)) for face in set(faces)),
               key=lambda item: (item[1], rank(item[0])))  # fmt: skip


def final_count(state: RoundState) -> int:
    """The first count plus the extra roll's dice of the kept face (§ 593.4(h))."""
    face, count = first_count(state.rolls["first_roll"])
    return count + state.rolls.get("extra_roll", ()).count(face)


def _call_first(state: RoundState, faces: tuple[int, ...]) -> str:
    face, count = first_count(faces)
    return f"{count}x{face}"  # § 593.4(d): "four 5s" is called 4x5


def _call_extra(state: RoundState, faces: tuple[int, ...]) -> str:
    return f"+{faces.count(first_count(state.rolls['first_roll'])[0])}"


def _extra_due(state: RoundState) -> bool:
    return any(EXTRA_ROLL in seat.wagers for seat in state.seats.values())


def _win(state: RoundState, seat: Seat, wager: str, odds: Odds | Fixed, section: str,
         described: str) -> SettlementLine:  # fmt: skip
    return win_line(seat=seat.seat, player=seat.player, wager=wager,
                    stake_cents=seat.wagers[wager], odds=odds, rounding=state.rounding,
                    section=state.section(section), hand=described, pay_line=None)  # fmt: skip


def _first(state: RoundState, seat: Seat, wager: str, face: int, count: int,
           described: str) -> SettlementLine | None:  # fmt: skip
    """A wager the first roll decides (§ 593.4(f)), or ``None`` if it waits for the extra roll."""
    options = state.options
    lose = plain_line(seat, wager, Outcome.LOSE, state.section("4(f)"), described)
    if wager.startswith("PIP_"):
        won = wager == PIPS[face]
        return _win(state, seat, wager, PIP_ODDS[face], "5(a)", described) if won else lose
    if wager in MILLIONAIRE.values():
        hit = MILLIONAIRE[count] == wager if count in MILLIONAIRE else False
        hit = hit or (wager == MILLIONAIRE[9] and count == 10 and options["nine_wins_on_ten"])
        if not hit:
            return lose
        amount = MILLIONAIRE_PAYS[10 if wager == MILLIONAIRE[10] else 9]
        if options["millionaire_includes_stake"]:
            amount -= seat.wagers[wager]
        return _win(state, seat, wager, Fixed(amount), "5(c)", described)
    if wager == EXTRA_ROLL:
        return None
    circle = int(wager.split("_")[1])
    if circle == count:
        odds = like_kind_odds(options["seven_of_a_kind"], options["three_of_a_kind"])[circle]
        return _win(state, seat, wager, odds, "5(b)", described)
    if circle < count or EXTRA_ROLL not in seat.wagers:
        return lose
    return None


def _second(state: RoundState, seat: Seat, wager: str, count: int,
            described: str) -> SettlementLine:  # fmt: skip
    """A wager kept for the extra roll, settled on the final count (§ 593.4(h))."""
    reading, final = state.options["extra_roll"], final_count(state)
    reached = [c for c, name in CIRCLES.items() if name in seat.wagers and count < c == final]
    lose = plain_line(seat, wager, Outcome.LOSE, state.section("4(h)"), described)
    if wager == EXTRA_ROLL:
        if reading == "circles_stake_returned" and reached:
            return plain_line(seat, wager, Outcome.RETURNED, state.section("4(h)"), described)
        paid_first = final == count and CIRCLES.get(count) in seat.wagers
        if reading == "final_count" and final in EXTRA_ODDS and not paid_first:
            return _win(state, seat, wager, EXTRA_ODDS[final], "5(d)", described)
        return lose
    if int(wager.split("_")[1]) != final:
        return lose
    if reading == "final_count":
        return plain_line(seat, wager, Outcome.RETURNED, state.section("4(h)"), described)
    return _win(state, seat, wager, EXTRA_ODDS[final], "5(d)", described)


def settle(state: RoundState, seat: Seat) -> Iterator[SettlementLine]:
    """Each wager once the throw deciding it is made (first-roll wagers before the extra roll)."""
    faces = state.rolls.get("first_roll")
    if faces is None:
        return
    face, count = first_count(faces)
    described = f"{count}x{face}"
    done = isinstance(state.current, Showdown) or state.phase == "closed"
    if done and "extra_roll" in state.rolls:
        described += f", final {final_count(state)}"
    for wager in seat.wagers:
        line = _first(state, seat, wager, face, count, described)
        if line is None and done:
            line = _second(state, seat, wager, count, described)
        if line is not None:
            yield line


def wager_rules(state: RoundState, seat: Seat, event: WagerPlaced) -> Refusal | None:
    """§ 593.2(e): a Pip Street Wager first; Pip, Like Kind and Extra Roll of equal value."""
    wager, amount, placed = event.wager, event.amount_cents, seat.wagers
    if not any(name in placed for name in PIPS.values()) and not wager.startswith("PIP_"):
        return Refusal(state.section("2(e)(1)"), "a Pip Street Wager comes first", "wager")
    if wager == EXTRA_ROLL and not any(name in placed for name in CIRCLES.values()):
        return Refusal(state.section("2(e)(3)"), "needs a Like Kind Boulevard Wager", "wager")
    equal = {placed[name] for name in _EQUAL if name in placed}
    if wager in _EQUAL and equal and equal != {amount}:
        return Refusal(state.section("1(b)(2)(iv)"), "Pip Street, Like Kind Boulevard and "
                       f"Extra Roll Wagers are of equal value ({equal.pop()} cents), got "
                       f"{amount}", "amount_cents")  # fmt: skip
    return None


PA_593_2014 = GameRuleSet(
    id="PA-593-2014", game="high_roll_dice", jurisdiction="PA", chapter="593",
    effective_from=datetime.date(2014, 10, 25), max_seats=5,
    deck_change_hours_hand_dealt=None, deck_change_hours_shoe=None,
    dice_change_hours=24, dice_change_section="3(b)(1)",
    notes=("Temporary chapter, compilation current as of 2014-10-25, no effective date given; "
           "read as in force until replaced. Dice may not remain on a table more than 24 hours "
           "(593.3(b)(1)).",),
)  # fmt: skip

_NO_ROLLS = {  # § 593.4(b)-(c): invalid or void throws are thrown again; every wager stands
    "DIE_OFF_TABLE": NoRoll("4(b)", "invalid: a die went off the table", rethrow=True),
    "DIE_ON_DIE": NoRoll("4(b)", "invalid: one die rests on another", rethrow=True),
    "DIE_ON_OBJECT": NoRoll("4(c)", "void: a die rests on more than one side", rethrow=True),
}
_SECTIONS = {
    "seated": "2(c)", "wagers": "1(b)(2)", "by_choice": "2(a)", "already_placed": "2(b)",
    "after_no_more_bets": "2(a)", "decision_wager": "2(a)", "decisions": "2(a)",
    "card_in_play": "3(a)", "card_count": "3(a)", "no_spot": "3(a)", "card_mismatch": "3(a)",
    "early_exposure": "3(a)", "showdown": "4(d)", "throw": "4(b)", "settle": "4(f)",
    "collect": "4(f)", "close": "4(h)", "void": "4(c)", "irregularities": "4(c)",
}  # fmt: skip
_DEALING = DealingSections("4(a)", "4(b)", "3(a)", "3(a)")  # dice: no deal, no stub


def _like(count: int) -> WagerSpec:
    return WagerSpec(CIRCLES[count], f"Like Kind Boulevard {count} of a kind", "2(e)(2)")


GAME = declare(
    Game(
        id="high_roll_dice",
        name="High Roll Dice",
        rulesets=(PA_593_2014,),
        layout=Layout(
            seat_spots=(), max_seats=5, seats_section="1(a)", dice=10, dice_section="3(a)"
        ),  # fmt: skip
        wagers=(
            *(
                WagerSpec(PIPS[face], f"Pip Street {face}", "2(e)(1)")
                for face in (2, 3, 4, 5, 6, 1)
            ),
            *(_like(count) for count in CIRCLES),
            WagerSpec(EXTRA_ROLL, "Extra Roll Wager", "2(e)(3)", closes="1(c)(2)"),
            *(
                WagerSpec(
                    name,
                    f"Millionaire Row {count} of a kind",
                    "2(e)(4)",
                    amount=AtMost(MILLIONAIRE_MAX_CENTS),
                )
                for count, name in MILLIONAIRE.items()
            ),
        ),  # fmt: skip
        steps=(
            Wagering(),
            Throw(
                "first_roll",
                "4(b)",
                no_rolls=_NO_ROLLS,
                call=_call_first,
                call_section="4(d)",
                settles=True,
            ),
            Throw(
                "extra_roll",
                "4(g)",
                no_rolls=_NO_ROLLS,
                call=_call_extra,
                call_section="4(h)",
                dice=lambda state: 10 - first_count(state.rolls["first_roll"])[1],
                when=_extra_due,
            ),
            Showdown("4(h)"),
        ),  # fmt: skip
        settle=settle,
        wager_rules=wager_rules,
        options=(
            OptionSpec("seven_of_a_kind", "5(b)", tuple(SEVENS), "400"),
            OptionSpec("three_of_a_kind", "5(b)", tuple(THREES), "3_to_5"),
            OptionSpec("extra_roll", "4(h)", EXTRA_READINGS, "circles"),
            OptionSpec("nine_wins_on_ten", "5(c)", (False, True), False),
            OptionSpec("millionaire_includes_stake", "5(c)", (False, True), False),
        ),
        dealing=dict.fromkeys(DealingMethod, _DEALING),
        remedies=Remedies(face_up="3(a)", voids={}),
        sections=_SECTIONS,
    )
)
