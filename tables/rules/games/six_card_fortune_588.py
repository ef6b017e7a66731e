"""Six-Card Fortune Pai Gow Poker, Pennsylvania Chapter 588 (temporary; compilation of 2014-10-25).

Six cards from a deck with one joker (§ 588.3(a)) to each of six positions and
the dealer; each player sets a five-card high hand and a one-card low hand
(§ 588.11(b), ``params.low``, "6"); the dealer's are set by § 588.11(d)
(:func:`~tables.rules.games._pai_gow_hands.house_way_588`; a dealer's hand set
otherwise is reset to it, § 588.13(i)). The main wager and the Double Down pay
1 to 1 with no commission (§ 588.12(a)); copies go to the dealer (§ 588.6(c)).
The Fortune Bonus, Insurance and Progressive Payout Wagers are settled on each
player's best five of six (§ 588.11(h)); Envy bonuses by
:func:`~tables.rules.progressives.envy.settle_envy_588`, paid by the house.

**The meter link** (for the progressive meter streams): a Progressive Payout
Wager is taken into the table inventory container at "no more bets"
(``taken``, § 588.8(b)(2)): each accepted ``PROGRESSIVE`` wager is a
contribution. Lines paying "for 1" are paid by the dealer as
``PROGRESSIVE_PAYOUT``. Lines paying a share of the meter may not be paid from
the table inventory (§ 588.11(h)(3)(i)(B)(4)): they are not in the table's
settlement; :func:`progressive_hits` (``_six_card_fortune.meter_hits``) lists them
in payment order, each to be paid the meter "when it is the player's turn to be
paid" (§ 588.12(d)(3)).

Readings, each an option with no default where the chapter contradicts itself,
required to open a round that offers the wager, and recorded in settlements:
``envy_recipients`` and ``envy_unscheduled`` (see the Envy module), and
``double_down_hand``: § 588.11(g)(1)'s "dealer's hand contains a pair of eights
or better" read on the dealer's six cards or on his set high hand.

>>> [step.name for step in GAME.steps][3:6]
['double_down', 'set_hands', 'dealer_reveal']
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
    EqualTo,
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
)
from tables.rules.engine import (
    Outcome,
    Refusal,
    RuleViolation,
    SettlementLine,
    plain_line,
    win_line,
)
from tables.rules.events import DealingMethod, IrregularityKind
from tables.rules.games._house_way import DEALER_HANDS_NOT_HOUSE_WAY
from tables.rules.games._pai_gow_hands import (
    FORTUNE_TABLE,
    INSURANCE_NAMES,
    INSURANCE_TABLE,
    Category,
    Setting,
    best_of_six,
    evaluate,
    fouled,
    house_way_588,
    insurance_key,
    two_areas_refusal,
    versus,
)
from tables.rules.games._six_card_fortune import (
    ENVY,
    FORTUNE,
    PROGRESSIVE,
    SCHEDULE,
    SPOTS,
    cards_of,
    envy_lines,
    player_setting,
)
from tables.rules.games._six_card_fortune import (
    progressive_hits as progressive_hits,  # the meter streams read it (meter_rounds)
)
from tables.rules.irregularities import Remedies
from tables.rules.machine import RoundState, Seat, declare
from tables.rules.money import Fixed, Odds
from tables.rules.progressives.chapters import SIX_CARD_FORTUNE_588, ForOne
from tables.rules.progressives.envy import EnvyKind, EnvyRecipients, UnscheduledAmounts

MAIN, DOUBLE_DOWN, INSURANCE = "SIX_CARD_FORTUNE", "DOUBLE_DOWN", "INSURANCE"
PROGRESSIVE_PAYOUT = "PROGRESSIVE_PAYOUT"

def _against(state: RoundState, seat: Seat, wager: str, mine: Setting,
             dealer: Setting, described: str) -> SettlementLine:  # fmt: skip
    """§ 588.11(f): a copy counts as the dealer's higher hand (§ 588.6(c))."""
    section = state.section
    if fouled(mine):
        return plain_line(seat, wager, Outcome.LOSE, section("11(f)(1)(v)"), described)
    high, low = versus(mine.high, dealer.high) > 0, versus(mine.low, dealer.low, True) > 0
    if high and low:
        return win_line(seat=seat.seat, player=seat.player, wager=wager,
                        stake_cents=seat.wagers[wager], odds=Odds(1), rounding=state.rounding,
                        section=section("12(a)"), hand=described, pay_line=None)  # fmt: skip
    if high or low:
        where = "11(f)(2)(i)" if high else "11(f)(2)(ii)"
        return plain_line(seat, wager, Outcome.PUSH, section(where), described)
    return plain_line(seat, wager, Outcome.LOSE, section("11(f)(1)"), described)


def _pays(state: RoundState, seat: Seat, wager: str, odds: Odds | Fixed | None, section: str,
          lose: str, described: str, key: str,
          stake: str | None = None) -> SettlementLine:  # fmt: skip
    if odds is None:
        return plain_line(seat, wager, Outcome.LOSE, state.section(lose), described)
    return win_line(seat=seat.seat, player=seat.player, wager=wager,
                    stake_cents=seat.wagers[stake or wager],
                    odds=odds, rounding=state.rounding, section=state.section(section),
                    hand=described, pay_line=key)  # fmt: skip


def settle(state: RoundState, seat: Seat) -> Iterator[SettlementLine]:
    """One seat's lines (§ 588.11(f)-(h)); the engine orders them and settles voids."""
    if seat.abandoned:  # § 588.7(b): abandoned wagers may be treated as losing
        yield from (plain_line(seat, w, Outcome.LOSE, state.section("7(b)")) for w in seat.wagers)
        return
    mine = player_setting(seat)
    dealer = house_way_588(cards_of(state.dealer))
    described = (f"{' '.join(map(str, mine.high))} / {mine.low[0] if mine.low else '-'} v "
                 f"{' '.join(map(str, dealer.high))} / {dealer.low[0]}")  # fmt: skip
    yield _against(state, seat, MAIN, mine, dealer, described)
    if DOUBLE_DOWN in seat.wagers:
        judged = (dealer.high if state.options["double_down_hand"] == "high_hand"
                  else cards_of(state.dealer))  # fmt: skip
        hand = evaluate(judged) if len(judged) == 5 else best_of_six(judged)
        qualifies = hand.category > Category.PAIR or (
            hand.category is Category.PAIR and hand.ranks[0] >= 8)  # fmt: skip
        yield (_against(state, seat, DOUBLE_DOWN, mine, dealer, described) if qualifies else
               plain_line(seat, DOUBLE_DOWN, Outcome.RETURNED, state.section("11(g)(2)")))
    best = best_of_six(cards_of(seat.cards))
    key = best.category.name
    if FORTUNE in seat.wagers:
        yield _pays(state, seat, FORTUNE, FORTUNE_TABLE.get(best.category), "12(b)(i)",
                    "11(h)(1)(i)(A)", key, key)  # fmt: skip
    if INSURANCE in seat.wagers:
        high = insurance_key(best)
        yield _pays(state, seat, INSURANCE, None if high is None else INSURANCE_TABLE[high],
                    "12(c)", "11(h)(2)(i)", key, INSURANCE_NAMES.get(high or 0, key))  # fmt: skip
    if PROGRESSIVE in seat.wagers and key in SCHEDULE:  # the stake itself was taken
        pays = SIX_CARD_FORTUNE_588.schedule_line(key).pays
        if isinstance(pays, ForOne):
            yield _pays(state, seat, PROGRESSIVE_PAYOUT, Fixed(pays.on(seat.wagers[PROGRESSIVE])),
                        "12(d)(1)", "11(h)(3)(i)(A)", key, key, PROGRESSIVE)  # fmt: skip
    if state.options["fortune_bonus_offered"] or state.options["progressive_offered"]:
        yield from envy_lines(state, seat)


def _set_rules(state: RoundState, seat: Seat, choice: str,
               params: Mapping[str, Any]) -> Refusal | None:  # fmt: skip
    """§ 588.11(b): the six cards are set as a five-card high hand and a one-card low hand."""
    if str(params.get("low", "")).strip() not in SPOTS:
        return Refusal(state.section("11(b)"), 'name the card of the low hand (params.low, "6")',
                       "params")  # fmt: skip
    return None


def strategy(state: RoundState, seat: Seat, step: Decide,
             rng: random.Random) -> str | tuple[str, dict[str, str]]:  # fmt: skip
    """Simulated players set by § 588.11(d) and double down with two pair or better."""
    cards = cards_of(seat.cards)
    if step.name == "double_down":
        strong = best_of_six(cards).category >= Category.TWO_PAIR
        return "double_down" if strong else "no_double_down"
    low = house_way_588(cards).low[0]
    return "set", {"low": next(spot for spot, card in zip(SPOTS, seat.cards, strict=True)
                               if card is low)}  # fmt: skip


STRATEGY = strategy


def _opening_check(state: RoundState) -> None:
    options = state.options
    if options["double_down_offered"] and options["double_down_hand"] is None:
        raise RuleViolation(state.section("11(g)(1)"), "the rule set must say which dealer's hand "
                            "must hold a pair of eights", "options.double_down_hand")  # fmt: skip
    if options["fortune_bonus_offered"] or options["progressive_offered"]:
        for name in ("envy_recipients", "envy_unscheduled"):
            if options[name] is None:
                raise RuleViolation(state.section("11(h)(1)(ii)"), "Chapter 588's Envy provisions "
                                    "contradict each other: the rule set must name a reading",
                                    f"options.{name}")  # fmt: skip


PA_588_2014 = GameRuleSet(
    id="PA-588-2014", game="six_card_fortune_pai_gow_poker", jurisdiction="PA", chapter="588",
    effective_from=datetime.date(2014, 10, 25), cards_in_deck=53, stub_count_every_rounds=1,
    dice_change_hours=24, dice_change_section="2(d)(1)(i)",
    notes=("Temporary chapter, compilation current as of 2014-10-25; read as in force until "
           "replaced.",),
)  # fmt: skip

_SECTIONS = {  # what the engine cites for its generic checks
    "seated": "7(b)", "wagers": "7(a)", "by_choice": "11(c)", "already_placed": "7(c)",
    "after_no_more_bets": "7(c)", "no_spot": "11(e)", "card_mismatch": "11(e)",
    "collect": "11(f)(1)", "decisions": "11(a)(3)", "card_in_play": "3(a)", "card_count": "13(h)",
    "early_exposure": "13(e)", "showdown": "11(e)", "settle": "11(e)", "close": "11(j)",
    "void": "13", "irregularities": "13", "throw": "5(i)(1)",
}  # fmt: skip
_NO_ROLLS = {"not_flat": NoRoll("13(a)", "the dice are not all flat", rethrow=True),
             "die_out": NoRoll("13(b)", "a die fell out of the shaker", rethrow=True)}


def _offered(name: str) -> Any:
    return lambda state: bool(state.options[f"{name}_offered"])


GAME = declare(
    Game(
        id="six_card_fortune_pai_gow_poker",
        name="Six-Card Fortune Pai Gow Poker",
        rulesets=(PA_588_2014,),
        layout=Layout(seat_spots=SPOTS, dealer_spots=SPOTS, max_seats=6, dice=3,
                      dice_section="2(d)(1)(i)"),
        wagers=(
            WagerSpec(MAIN, "Six-Card Fortune Pai Gow Poker Wager", "7(d)", required=True),
            WagerSpec(DOUBLE_DOWN, "Double Down Wager", "7(e)(1)", amount=EqualTo(MAIN),
                      by_choice=True, offered=_offered("double_down")),
            WagerSpec(FORTUNE, "Fortune Bonus Wager", "7(e)(2)", offered=_offered("fortune_bonus")),
            WagerSpec(INSURANCE, "Insurance Wager", "7(e)(3)", offered=_offered("insurance")),
            WagerSpec(PROGRESSIVE, "Progressive Payout Wager", "7(e)(4)", closes="2(c)(2)",
                      offered=_offered("progressive"), taken="8(b)(2)"),
            WagerSpec(PROGRESSIVE_PAYOUT, "Progressive payout", "12(d)(1)", by_choice=True,
                      handle=False),
            *(WagerSpec(name, f"Envy Bonus ({kind})", "12(b)(ii)" if kind is EnvyKind.FORTUNE_BONUS
                        else "12(d)(4)", by_choice=True, handle=False)
              for kind, name in ENVY.items()),
        ),  # fmt: skip
        steps=(
            Wagering(),
            Throw("start_position", "5(i)", no_rolls=_NO_ROLLS, call_section="5(i)(1)(iii)",
                  dice=lambda state: 3 if state.options["start"] == "dice" else 0,
                  call=lambda state, faces: str(sum(faces))),
            Deal(),
            Decide("double_down", "11(c)", (Choice("double_down", places=DOUBLE_DOWN),
                                             Choice("no_double_down")),
                   when=_offered("double_down"), eligible=lambda seat: MAIN in seat.wagers),
            Decide("set_hands", "11(a)(3)", (Choice("set"),), rules=_set_rules,
                   any_order=True),
            Reveal("dealer_reveal", "11(d)", SPOTS),
            Showdown("11(e)"),
        ),  # fmt: skip
        settle=settle,
        opening_check=_opening_check,
        wager_rules=lambda state, seat, event: two_areas_refusal(
            state, seat, state.section("7(f)")),
        participates=lambda seat: MAIN in seat.wagers,
        options=(
            OptionSpec("two_areas", "7(f)", (False, True), False, recorded=False),
            OptionSpec("start", "5(i)", ("dice", "rng"), "dice", recorded=False),
            *(OptionSpec(f"{name}_offered", section, (False, True), False, recorded=False)
              for name, section in (("double_down", "7(e)(1)"), ("fortune_bonus", "7(e)(2)"),
                                    ("insurance", "7(e)(3)"), ("progressive", "7(e)(4)"))),
            OptionSpec("double_down_hand", "11(g)(1)", (None, "six_cards", "high_hand"), None),
            OptionSpec("envy_recipients", "11(h)(1)(ii)", (None, *EnvyRecipients), None),
            OptionSpec("envy_unscheduled", "12(b)(ii)", (None, *UnscheduledAmounts), None),
        ),  # fmt: skip
        dealing={
            DealingMethod.MANUAL_SHOE: DealingSections("8(b)", "8(d)", "8(f)", "8(e)"),
            DealingMethod.HAND: DealingSections("9(a)(3)", "9(c)", "9(e)", "9(d)"),
            DealingMethod.AUTOMATED_SHOE: DealingSections("10(a)(2)", "10(c)", "10(e)", "10(d)"),
        },
        remedies=Remedies(
            face_up="13(f)",
            voids={
                IrregularityKind.INCORRECT_CARD_COUNT: ("13(h)", "a wrong number of cards"),
                IrregularityKind.DEALER_CARD_EXPOSED_EARLY: ("13(e)", "a dealer card exposed"),
                IrregularityKind.SHOE_MALFUNCTION: ("13(m)", "the automated dealing shoe failed"),
            },
            resets={DEALER_HANDS_NOT_HOUSE_WAY: ("13(i)", "the dealer's hands reset per "
                                                 "§ 588.11(d) and the round completed")},
        ),  # fmt: skip
        sections=_SECTIONS,
    )
)
