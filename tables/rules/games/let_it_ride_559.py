"""Let It Ride Poker, Pennsylvania Chapter 559 (temporary, 40 Pa.B. 1196, 2010-03-06).

Three equal wagers (§ 559.7(d)); after seeing his three cards the player may
take back Bet Number 1, after the first community card Bet Number 2
(§ 559.13(b), (d)); the five-card hand (three cards and two community cards)
pays every bet left at § 559.14(b)'s odds from a pair of tens up
(§ 559.13(f)(2)). Optional wagers the Rules Submission may offer, each an
option recorded in every settlement:

* ``three_card_bonus_table``: the Three Card Bonus (§ 559.9) on the player's
  three cards, at one of § 559.14(e)'s Tables A-F (``None``: not offered).
* ``mini_royal_reading``: Tables A-C print the mini-royal "N/A", and
  § 559.6(c)(2) makes a straight flush "other than a mini-royal", so as
  written it is a § 559.6(c)(4) ``straight``; paying it as a
  ``straight_flush`` is the common practice. No default: a round under
  Tables A-C must name one.
* ``let_it_ride_bonus``: the $1 Let It Ride Bonus (§ 559.8) on the five-card
  hand. Its chip goes into the table inventory container at "no more bets"
  (§ 559.10(b)), so the wager is lost then whatever the hand, and a winner is
  paid § 559.14(d)'s amount as ``LET_IT_RIDE_BONUS_PAYOUT``.

A payout limit (§ 559.14(c), at least $50,000) caps Bets 1-3 of a hand only.

>>> from tables.rules.cards import parse_cards
>>> three_card_key(parse_cards("Ah Kh Qh")), main_key(parse_cards("Th Tc 4s 8d 2c"))
('MINI_ROYAL', 'PAIR_OF_TENS_OR_BETTER')
"""

from __future__ import annotations

import datetime
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import cast

from tables.rules.cards import Card, Rank
from tables.rules.declaration import (
    Choice,
    Deal,
    DealingSections,
    Decide,
    EqualTo,
    Exactly,
    Game,
    GameRuleSet,
    Layout,
    OptionSpec,
    Reveal,
    Showdown,
    Wagering,
    WagerSpec,
)  # fmt: skip
from tables.rules.engine import (
    Outcome,
    Refusal,
    RuleViolation,
    SettlementLine,
    plain_line,
    win_line,
)
from tables.rules.events import DealingMethod, IrregularityKind, WagerPlaced
from tables.rules.hands import FiveCardCategory as F
from tables.rules.hands import ThreeCardCategory as T
from tables.rules.hands import evaluate_five, evaluate_three
from tables.rules.irregularities import Remedies
from tables.rules.machine import RoundState, Seat, declare
from tables.rules.money import Fixed, Odds

BET_1, BET_2, BET_3 = "BET_1", "BET_2", "BET_3"
BETS = (BET_1, BET_2, BET_3)
THREE_CARD_BONUS, LIR_BONUS = "THREE_CARD_BONUS", "LET_IT_RIDE_BONUS"
LIR_PAYOUT = "LET_IT_RIDE_BONUS_PAYOUT"
LIR_BONUS_CENTS = 100  # § 559.8(b): "a $1 gaming chip"
_O = Odds
Hand = tuple[Card, ...]

# Pay tables: (hand key, odds) best line first; § 559.14(b): "no less than" these.
MAIN_TABLES: dict[str, tuple[tuple[str, Odds], ...]] = {
    "559.14(b) minimum": (("ROYAL_FLUSH", _O(1000)), ("STRAIGHT_FLUSH", _O(200)),
                          ("FOUR_OF_A_KIND", _O(50)), ("FULL_HOUSE", _O(11)), ("FLUSH", _O(8)),
                          ("STRAIGHT", _O(5)), ("THREE_OF_A_KIND", _O(3)), ("TWO_PAIR", _O(2)),
                          ("PAIR_OF_TENS_OR_BETTER", _O(1))),
}  # fmt: skip
# § 559.14(d): the amounts paid on the $1 wager, "no less than" these.
LIR_BONUS_AMOUNTS: dict[str, tuple[tuple[str, int], ...]] = {
    "559.14(d) minimum": (("ROYAL_FLUSH", 2_500_000), ("STRAIGHT_FLUSH", 250_000),
                          ("FOUR_OF_A_KIND", 40_000), ("FULL_HOUSE", 20_000), ("FLUSH", 5_000),
                          ("STRAIGHT", 2_500), ("THREE_OF_A_KIND", 500)),
}  # fmt: skip
_TCB = {  # § 559.14(e): straight flush, three-of-a-kind, straight, flush, pair
    "A": (40, 30, 6, 4, 1), "B": (40, 30, 5, 4, 1), "C": (40, 30, 6, 3, 1),
}
_TCB_KEYS = ("STRAIGHT_FLUSH", "THREE_OF_A_KIND", "STRAIGHT", "FLUSH", "PAIR")
THREE_CARD_TABLES: dict[str, tuple[tuple[str, Odds], ...]] = {
    **{t: tuple((k, _O(o)) for k, o in zip(_TCB_KEYS, c, strict=True)) for t, c in _TCB.items()},
    # Tables D-F are A-C with a mini-royal at 50 to 1.
    **{d: (("MINI_ROYAL", _O(50)), *tuple((k, _O(o)) for k, o in zip(_TCB_KEYS, _TCB[t],
                                                                      strict=True)))
       for d, t in (("D", "A"), ("E", "B"), ("F", "C"))},
}  # fmt: skip
MINI_ROYAL_READINGS = ("straight_flush", "straight")


def main_key(cards: Sequence[Card]) -> str | None:
    """The § 559.14(b) line of a five-card hand, or None below a pair of tens (§ 559.13(f)(2))."""
    hand = evaluate_five(cards)
    if hand.category is F.PAIR:
        return "PAIR_OF_TENS_OR_BETTER" if hand.ranks[0] >= Rank.TEN else None
    return None if hand.category is F.HIGH_CARD else hand.category.name


def three_card_key(cards: Sequence[Card]) -> str | None:
    """The § 559.6(c) hand of three cards (A-K-Q suited apart), or None below a pair."""
    hand = evaluate_three(cards)
    if hand.category is T.STRAIGHT_FLUSH and hand.ranks[0] is Rank.ACE:
        return "MINI_ROYAL"
    return None if hand.category is T.HIGH_CARD else hand.category.name


def three_card_odds(table: str, key: str | None, reading: str | None) -> Odds | None:
    """What Table ``table`` pays a three-card hand of ``key`` (a mini-royal under A-C by
    ``reading``), or None when it loses."""
    lines = dict(THREE_CARD_TABLES[table])
    if key == "MINI_ROYAL" and key not in lines:
        key = "STRAIGHT_FLUSH" if reading == "straight_flush" else "STRAIGHT"
    return None if key is None else lines.get(key)


def bonus_amount(table: str, key: str | None) -> int | None:
    """The amount § 559.14(d) pays a five-card hand of ``key`` on the $1 wager, or None."""
    return dict(LIR_BONUS_AMOUNTS[table]).get(key) if key else None


def _lose(seat: Seat, wager: str, state: RoundState, described: str) -> SettlementLine:
    return plain_line(seat, wager, Outcome.LOSE, state.section("13(f)(3)"), described)


def _win(state: RoundState, seat: Seat, wager: str, odds: Odds, section: str,
         described: str, key: str | None) -> SettlementLine:  # fmt: skip
    return win_line(seat=seat.seat, player=seat.player, wager=wager,
                    stake_cents=seat.wagers[wager], odds=odds, rounding=state.rounding,
                    section=state.section(section), hand=described, pay_line=key,
                    )  # fmt: skip


def settle(state: RoundState, seat: Seat) -> Iterator[SettlementLine]:
    """One seat's lines (a bet taken back is returned by the engine, § 559.13(b)(2), (d)(2))."""
    section = state.section
    if not seat.participating:  # § 559.7(d): no cards without the three equal wagers
        yield from (plain_line(seat, w, Outcome.RETURNED, section("7(d)")) for w in seat.wagers)
        return
    if seat.abandoned:  # § 559.7(b): abandoned wagers may be treated as losing
        yield from (plain_line(seat, w, Outcome.LOSE, section("7(b)")) for w in seat.wagers)
        return
    own = cast(Hand, seat.cards)
    cards = (*own, *cast(Hand, state.community))
    described, key = str(evaluate_five(cards)), main_key(cards)
    odds = pay(MAIN_TABLES[state.options["main_table"]], key)
    for wager in BETS:
        if wager in seat.wagers:
            yield (_lose(seat, wager, state, described) if odds is None
                   else _win(state, seat, wager, odds, "14(b)", described, key))  # fmt: skip
    amount = bonus_amount(state.options["let_it_ride_bonus_amounts"], key)
    if LIR_BONUS in seat.wagers and amount is not None:  # the $1 itself was taken (§ 559.10(b))
        yield win_line(seat=seat.seat, player=seat.player, wager=LIR_PAYOUT,
                       stake_cents=seat.wagers[LIR_BONUS], odds=Fixed(amount),
                       rounding=state.rounding, section=section("14(d)"), hand=described,
                       pay_line=key)  # fmt: skip
    if THREE_CARD_BONUS in seat.wagers:
        three = evaluate_three(own)
        key = three_card_key(own)
        odds3 = three_card_odds(state.options["three_card_bonus_table"], key,
                                state.options["mini_royal_reading"])  # fmt: skip
        yield (_lose(seat, THREE_CARD_BONUS, state, str(three)) if odds3 is None
               else _win(state, seat, THREE_CARD_BONUS, odds3, "14(e)", str(three), key))


def pay(table: Sequence[tuple[str, Odds]], key: str | None) -> Odds | None:
    """The odds ``table`` pays a hand of ``key``, or ``None`` when the hand loses."""
    return next((odds for line, odds in table if line == key), None)


def wager_rules(state: RoundState, seat: Seat, event: WagerPlaced) -> Refusal | None:
    """§ 559.8(b), § 559.9(b): a bonus wager only beside the three wagers of § 559.7."""
    if event.wager in BETS or all(bet in seat.wagers for bet in BETS):
        return None
    number = "8(b)" if event.wager == LIR_BONUS else "9(b)"
    return Refusal(state.section(number), "only a player who has placed the three wagers "
                   "(Bets Number 1, 2 and 3) may make it", "wager")  # fmt: skip


def _opening_check(state: RoundState) -> None:
    table, limit = state.options["three_card_bonus_table"], state.opened.payout_limit_cents
    if table in ("A", "B", "C") and state.options["mini_royal_reading"] is None:
        raise RuleViolation(state.section("14(e)"), f"Table {table} prints the mini-royal N/A: "
                            "the rule set must name a reading",
                            "options.mini_royal_reading")  # fmt: skip
    if limit is not None and limit < 5_000_000:
        raise RuleViolation(state.section("14(c)"), "a maximum payout must be at least $50,000",
                            "payout_limit_cents")  # fmt: skip


@dataclass(frozen=True, slots=True, kw_only=True)
class LetItRideRuleSet(GameRuleSet):
    """§ 559.14(c): a payout limit applies to the wagers of § 559.7 only, "payable to a
    player on a single hand": a player at two positions (§ 559.7(e)) has two hands."""

    payout_limit_wagers: tuple[str, ...] = BETS
    payout_limit_per_hand: bool = True


PA_559_2010 = LetItRideRuleSet(
    id="PA-559-2010", game="let_it_ride", jurisdiction="PA", chapter="559",
    effective_from=datetime.date(2010, 3, 6), max_seats=7,
    notes=("Temporary chapter (40 Pa.B. 1196); no later text is in our sources, so it is read as "
           "in force until replaced.",),
)  # fmt: skip

_SECTIONS = {  # what the engine cites for its generic checks
    "seated": "7(b)", "wagers": "7(a)", "by_choice": "7(c)", "already_placed": "7(c)",
    "after_no_more_bets": "7(c)", "no_spot": "13(f)", "card_mismatch": "13(f)(1)",
    "collect": "13(f)(3)", "decisions": "13(b)", "card_in_play": "3(a)", "card_count": "15(c)",
    "early_exposure": "13(c)", "showdown": "13(f)", "settle": "13(f)(3)", "close": "13(h)",
    "void": "15", "irregularities": "15", "payout_limit": "14(c)",
}  # fmt: skip

GAME = declare(
    Game(
        id="let_it_ride",
        name="Let It Ride Poker",
        rulesets=(PA_559_2010,),
        layout=Layout(seat_spots=("1", "2", "3"), community_spots=("1", "2"), max_seats=7),
        wagers=(
            WagerSpec(BET_1, "Bet Number 1", "7(d)", required=True),
            WagerSpec(BET_2, "Bet Number 2", "7(d)", amount=EqualTo(BET_1), required=True),
            WagerSpec(BET_3, "Bet Number 3", "7(d)", amount=EqualTo(BET_1), required=True),
            WagerSpec(THREE_CARD_BONUS, "Three Card Bonus Wager", "9(a)",
                      offered=lambda state: state.options["three_card_bonus_table"] is not None),
            WagerSpec(LIR_BONUS, "Let It Ride Bonus Wager", "8(b)", amount=Exactly(LIR_BONUS_CENTS),
                      offered=lambda state: bool(state.options["let_it_ride_bonus"]),
                      closes="2(f)(2)", taken="10(b)"),
            WagerSpec(LIR_PAYOUT, "Let It Ride Bonus payout", "14(d)", by_choice=True,
                      handle=False),
        ),  # fmt: skip
        steps=(
            Wagering(),
            Deal(),
            Decide("bet_1_decision", "13(b)", (Choice("let_it_ride"),
                                               Choice("withdraw", withdraws=(BET_1,)))),
            Reveal("first_community_card", "13(c)", ("1",), dealer=False),
            Decide("bet_2_decision", "13(d)", (Choice("let_it_ride"),
                                               Choice("withdraw", withdraws=(BET_2,)))),
            Reveal("second_community_card", "13(e)", ("2",), dealer=False),
            Showdown("13(f)"),
        ),  # fmt: skip
        settle=settle,
        wager_rules=wager_rules,
        opening_check=_opening_check,
        participates=lambda seat: all(bet in seat.wagers for bet in BETS),
        options=(
            OptionSpec("main_table", "14(b)", tuple(MAIN_TABLES), "559.14(b) minimum"),
            OptionSpec("three_card_bonus_table", "14(e)", (None, *THREE_CARD_TABLES), None),
            OptionSpec("mini_royal_reading", "14(e)", (None, *MINI_ROYAL_READINGS), None),
            OptionSpec("let_it_ride_bonus", "8(a)", (False, True), False),
            OptionSpec("let_it_ride_bonus_amounts", "14(d)", tuple(LIR_BONUS_AMOUNTS),
                       "559.14(d) minimum"),
        ),  # fmt: skip
        dealing={
            DealingMethod.MANUAL_SHOE: DealingSections("10(b)", "10(d)", "10(h)", "10(f)"),
            DealingMethod.HAND: DealingSections("11(a)(3)", "11(b)", "11(f)", "11(d)"),
            # § 559.12(b): of the community stack of three the bottom card is discarded.
            DealingMethod.AUTOMATED_SHOE: DealingSections("12(a)(2)", "12(b)", "12(f)", "12(d)",
                                                          discarded=1),  # fmt: skip
        },
        remedies=Remedies(
            face_up="15(a)",
            voids={
                IrregularityKind.INCORRECT_CARD_COUNT: ("15(c)", "a wrong number of cards"),
                IrregularityKind.SHOE_MALFUNCTION: ("15(e)", "the automated dealing shoe failed"),
            },
        ),  # fmt: skip
        sections=_SECTIONS,
    )
)
