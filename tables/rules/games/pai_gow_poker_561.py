"""Pai Gow Poker, Pennsylvania Chapter 561 (temporary, 40 Pa.B. 1196, 2010-03-06).

Seven cards from a deck with one joker (§ 561.3(a)) to each of six betting
positions and the dealer; each player sets a five-card high hand and a two-card
low hand (§ 561.13(a)), naming the low hand's spots (``params.low``, "6,7");
the dealer's hands are set by the casino's house way (§ 561.13(d)), data: a
named way here (:data:`HOUSE_WAYS`) or the version loaded from the casino's
Rules Submission that the round carries (``_house_way``), and a dealer's hand
set otherwise is reset to it (§ 561.14(i)): settlement always judges the house
way's setting, and a reported ``DEALER_HANDS_NOT_HOUSE_WAY`` is noted as reset. The starting
position comes from three dice (a throw the dealer totals and announces,
§ 561.12(b)) or a random number generator (§ 561.12(c): no throw is recorded).

Both hands higher wins 1 to 1 less a 5 % vigorish (§ 561.13(k), (m)); one
higher is a tie (§ 561.13(i)); copies go to the dealer (§ 561.13(g)(2)); a
high hand set below its low hand loses (§ 561.13(g)(3)); a surrender forfeits
the wager (§ 561.13(e)). Options recorded in every settlement:

* ``vigorish``: ``cents`` (5 % rounded up to the cent; § 561.13(m) states no
  rounding below 25 cents) or ``quarter`` (to 25 cents or the next multiple up).
* ``house_way``: the casino's house way in force when the round opened.
* ``tie_rule``: § 561.6(d) compares "the highest ranking card ... not contained
  in the other hand", which read literally lets 3-3-3-A-A beat K-K-K-2-2; only
  the ``conventional`` reading (sets, then kickers) is offered.

The stub: the engine records the cards of positions with a wager; the
unexposed stacks of the others go to the rack with the four undealt cards
(§ 561.9(e), (g)), so the stub count is 4 plus 7 per empty position.
Banking by a player: the chapter has none; the dealer banks every wager.

>>> [step.name for step in GAME.steps]
['wagering', 'start_position', 'dealing', 'set_hands', 'dealer_reveal', 'settlement']
"""

from __future__ import annotations

import datetime
import random
from collections.abc import Iterator, Mapping
from typing import Any

from tables.rules.declaration import (
    Choice,
    Deal,
    DealingSections,
    Decide,
    Game,
    GameRuleSet,
    Layout,
    NoRoll,
    OptionSpec,
    Reveal,
    Showdown,
    Throw,
    Wagering,
    WagerSpec,
)  # fmt: skip
from tables.rules.engine import Outcome, Refusal, RuleViolation, SettlementLine, plain_line
from tables.rules.events import DealingMethod, IrregularityKind
from tables.rules.games._house_way import (
    DEALER_HANDS_NOT_HOUSE_WAY,
    HouseWayChoices,
    house_way_of,
    is_token,
)
from tables.rules.games._pai_gow_hands import (
    HouseWay,
    Setting,
    commission,
    evaluate,
    fouled,
    house_way_561,
    two_areas_refusal,
    versus,
)  # fmt: skip
from tables.rules.irregularities import Remedies
from tables.rules.machine import RoundState, Seat, declare

WAGER = "PAI_GOW"
SET, SURRENDER = "set_hands", "surrender"
SPOTS = ("1", "2", "3", "4", "5", "6", "7")

HOUSE_WAYS: Mapping[str, HouseWay] = {
    way.id: way
    for way in (
        HouseWay(id="SAMPLE-2010", casino="(sample Rules Submission)",
                 effective_from=datetime.date(2010, 3, 6),
                 source="illustrative house way: no casino's submission is in our sources"),
    )
}  # fmt: skip
"""The house ways of the casinos' Rules Submissions (§ 561.13(d)), by id, effective-dated."""


def low_spots(params: Mapping[str, Any]) -> tuple[str, ...]:
    """The spots the player set as the low hand (``params.low``, "6,7")."""
    return tuple(spot.strip() for spot in str(params.get("low", "") or "").split(",") if spot)


def player_setting(seat: Seat) -> Setting:
    """The player's high and low hands, from the spots named in ``params.low``."""
    low = set(low_spots(seat.params))
    high = tuple(card for spot, card in zip(SPOTS, seat.cards, strict=True)
                 if spot not in low and card is not None)  # fmt: skip
    return Setting(high, tuple(card for spot, card in zip(SPOTS, seat.cards, strict=True)
                               if spot in low and card is not None))  # fmt: skip


def dealer_setting(state: RoundState) -> Setting:
    """The dealer's hands as the house way sets them (§ 561.13(d), § 561.14(i))."""
    cards = [card for card in state.dealer if card is not None]
    return house_way_561(cards, house_way(state))


def house_way(state: RoundState) -> HouseWay:
    """The house way the round's option names or carries (a loaded version's parameters)."""
    return house_way_of(state.options["house_way"], HOUSE_WAYS)


def _show(setting: Setting) -> str:
    high, low = evaluate(setting.high), evaluate(setting.low)
    return (f"{' '.join(map(str, setting.high))} ({high}) / "
            f"{' '.join(map(str, setting.low))} ({low})")  # fmt: skip


def settle(state: RoundState, seat: Seat) -> Iterator[SettlementLine]:
    """One seat's line (§ 561.13(e)-(m)); the engine orders and settles voids."""
    section = state.section
    if WAGER not in seat.wagers:
        return
    if seat.abandoned:  # § 561.7(b): abandoned wagers may be treated as losing
        yield plain_line(seat, WAGER, Outcome.LOSE, section("7(b)"))
        return
    if seat.folded_at is not None:
        yield plain_line(seat, WAGER, Outcome.FORFEITED, section("13(e)"))
        return
    mine, dealer = player_setting(seat), dealer_setting(state)
    described = f"{_show(mine)} v {_show(dealer)}"
    if fouled(mine):
        yield plain_line(seat, WAGER, Outcome.LOSE, section("13(g)(3)"), described)
        return
    high, low = versus(mine.high, dealer.high), versus(mine.low, dealer.low)
    if high > 0 and low > 0:
        stake = seat.wagers[WAGER]
        vig = commission(stake, state.options["vigorish"] == "quarter")
        yield SettlementLine(seat=seat.seat, player=seat.player, wager=WAGER, stake_cents=stake,
                             outcome=Outcome.WIN, amount_cents=stake - vig,
                             section=f"{section('13(k)')}; {section('13(m)')}", hand=described,
                             odds="1 to 1 less 5% vigorish", uncapped_cents=stake - vig,
                             notes=(f"vigorish {vig} cents",))  # fmt: skip
    elif high > 0 or low > 0:
        where = "13(i)(1)" if high > 0 else "13(i)(2)"
        yield plain_line(seat, WAGER, Outcome.PUSH, section(where), described)
    else:
        where = "13(g)(1)" if high < 0 and low < 0 else "13(g)(2)"
        yield plain_line(seat, WAGER, Outcome.LOSE, section(where), described)


def _set_rules(state: RoundState, seat: Seat, choice: str,
               params: Mapping[str, Any]) -> Refusal | None:  # fmt: skip
    """§ 561.13(a): the seven cards are set as a five-card and a two-card hand."""
    if choice != "set":
        return None
    low = low_spots(params)
    if len(low) != 2 or len(set(low)) != 2 or not set(low) <= set(SPOTS):
        return Refusal(state.section("13(a)"), "name the two cards of the low hand "
                       '(params.low, "6,7")', "params")  # fmt: skip
    return None


def strategy(state: RoundState, seat: Seat, step: Decide,
             rng: random.Random) -> tuple[str, dict[str, str]]:  # fmt: skip
    """Simulated players set their hands by the house way (1 in 200 fouls them)."""
    cards = [card for card in seat.cards if card is not None]
    setting = house_way_561(cards, house_way(state))
    low = setting.low
    if rng.randrange(200) == 0:  # a player's foul: the two highest cards low
        low = tuple(sorted(cards, key=lambda card: evaluate([card]))[-2:])
    spots = [spot for spot, card in zip(SPOTS, seat.cards, strict=True) if card in low]
    return "set", {"low": ",".join(spots)}


STRATEGY = strategy


def _opening_check(state: RoundState) -> None:
    automated = state.opened.dealing_method is DealingMethod.AUTOMATED_SHOE
    if state.options["start"] == "button" and not automated:
        raise RuleViolation(state.section("12(d)"), "a button needs an automated shuffler and "
                            "an automated dealing shoe", "options.start")  # fmt: skip
    if is_token(state.options["house_way"]):
        return  # a loaded version: the ledger holds when it is in force (checked at opening)
    way = HOUSE_WAYS[state.options["house_way"]]
    day = state.opened.gaming_day
    if day < way.effective_from or (way.effective_to is not None and day > way.effective_to):
        raise RuleViolation(state.section("13(d)"), f"house way {way.id} is not in force on "
                            f"{day}", "options.house_way")  # fmt: skip


PA_561_2010 = GameRuleSet(
    id="PA-561-2010", game="pai_gow_poker", jurisdiction="PA", chapter="561",
    effective_from=datetime.date(2010, 3, 6), cards_in_deck=53, stub_count_every_rounds=1,
    dice_change_hours=24, dice_change_section="8(a)(1)(iii)",
    notes=("Temporary chapter (40 Pa.B. 1196); no later text is in our sources, so it is read as "
           "in force until replaced.",),
)  # fmt: skip

_SECTIONS = {  # what the engine cites for its generic checks
    "seated": "7(b)", "wagers": "7(a)", "by_choice": "7(c)", "already_placed": "7(c)",
    "after_no_more_bets": "7(c)", "no_spot": "13(f)", "card_mismatch": "13(f)",
    "collect": "13(h)", "decisions": "13(b)", "card_in_play": "3(a)", "card_count": "14(h)",
    "early_exposure": "14(e)", "showdown": "13(f)", "settle": "13(l)", "close": "13(n)",
    "void": "14", "irregularities": "14", "throw": "12(b)",
}  # fmt: skip
_NO_ROLLS = {"not_flat": NoRoll("14(a)", "the dice are not all flat", rethrow=True),
             "die_out": NoRoll("14(b)", "a die fell out of the shaker", rethrow=True)}

GAME = declare(
    Game(
        id="pai_gow_poker",
        name="Pai Gow Poker",
        rulesets=(PA_561_2010,),
        layout=Layout(seat_spots=SPOTS, dealer_spots=SPOTS, max_seats=6, dice=3,
                      dice_section="2(e)(1)"),
        wagers=(WagerSpec(WAGER, "Pai Gow Poker Wager", "7(c)", required=True),),
        steps=(
            Wagering(),
            Throw("start_position", "12(b)", no_rolls=_NO_ROLLS, call_section="12(b)",
                  dice=lambda state: 3 if state.options["start"] == "dice" else 0,
                  call=lambda state, faces: str(sum(faces))),
            Deal(),
            Decide(SET, "13(b)", (Choice("set"), Choice(SURRENDER, folds=True)),
                   rules=_set_rules, any_order=True),
            Reveal("dealer_reveal", "13(c)", SPOTS),
            Showdown("13(f)"),
        ),  # fmt: skip
        settle=settle,
        opening_check=_opening_check,
        wager_rules=lambda state, seat, event: two_areas_refusal(
            state, seat, state.section("7(d)")),
        participates=lambda seat: WAGER in seat.wagers,
        options=(
            OptionSpec("two_areas", "7(d)", (False, True), False, recorded=False),
            OptionSpec("start", "12(a)", ("dice", "rng", "button"), "dice", recorded=False),
            OptionSpec("vigorish", "13(m)", ("cents", "quarter"), "cents"),
            OptionSpec("house_way", "13(d)", HouseWayChoices(HOUSE_WAYS), "SAMPLE-2010"),
            OptionSpec("tie_rule", "6(d)", ("conventional",), "conventional"),
        ),
        dealing={
            DealingMethod.MANUAL_SHOE: DealingSections("9(a)", "9(c)", "9(f)", "9(d)"),
            DealingMethod.HAND: DealingSections("10(a)(3)", "10(c)", "10(f)", "10(d)"),
            DealingMethod.AUTOMATED_SHOE: DealingSections("11(a)", "11(c)", "11(f)", "11(d)"),
        },
        remedies=Remedies(
            face_up="14(f)",
            voids={
                IrregularityKind.INCORRECT_CARD_COUNT: ("14(h)", "a wrong number of cards"),
                IrregularityKind.DEALER_CARD_EXPOSED_EARLY: ("14(e)", "a dealer card exposed"),
                IrregularityKind.SHOE_MALFUNCTION: ("14(m)", "the automated dealing shoe failed"),
            },
            resets={DEALER_HANDS_NOT_HOUSE_WAY: (
                "14(i)", "the dealer's hands reset to the house way in force and the round "
                "completed")},
        ),  # fmt: skip
        sections=_SECTIONS,
    )
)
