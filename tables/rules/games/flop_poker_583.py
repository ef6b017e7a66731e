"""Flop Poker, Pennsylvania Chapter 583 (temporary; compilation current as of 2014-10-25).

No dealer hand. Each player's three cards and two of the three community
cards (§ 583.11(d)(2)) make his five-card hand: the Ante (1 to 1) and the Flop
Wager (the posted table, § 583.12(b)) win on a pair of jacks or better, the
Three Card Bonus on the player's own three cards (§ 583.12(c)). The Pot
Wagers, each equal to the table minimum, are pooled in the centre and the
highest hand at the table, folded or not, takes them all (§ 583.8(b),
§ 583.11(b), (e)): the pot is the players' money, never the house's, so its
lines name the pot as counterparty and it is no handle. Readings, each an option:

* ``pot_odd_cents``: a split pot's odd cents (the chapter is silent) go one each
  to the winners in settlement order, from the dealer's right (``first_settled``,
  the default), or clockwise from the dealer's left (``clockwise``).
* ``three_card_ace_low``: § 583.6(a) lets an ace be low only "with a 2, 3, 4 and
  5", so A-2-3 is no three-card straight (``False``, the default).
* ``fold_three_card_bonus``: a folded player's cards stay on the layout and
  § 583.11(d)(1) settles the bonus "for each player who placed" it (``settled``);
  ``forfeited`` takes it with the Ante.
* ``tie_rule``: § 583.6(c) read ``literal`` or ``conventional`` (default), for the Pot.

>>> from tables.rules.cards import parse_cards
>>> bonus_key(parse_cards("Ah 2h 3h")), bonus_key(parse_cards("Ah 2h 3h"), ace_low=True)
('FLUSH', 'STRAIGHT_FLUSH')
"""

from __future__ import annotations

import datetime
import functools
from collections.abc import Iterator, Sequence
from itertools import combinations
from typing import cast

from tables.rules.cards import Card, Rank
from tables.rules.declaration import (
    Choice,
    Deal,
    DealingSections,
    Decide,
    EqualTo,
    Game,
    GameRuleSet,
    Layout,
    OptionSpec,
    Showdown,
    Wagering,
    WagerSpec,
)  # fmt: skip
from tables.rules.engine import (
    Outcome,
    Refusal,
    SettlementLine,
    plain_line,
    pot_lines,
    win_line,
)  # fmt: skip
from tables.rules.events import DealingMethod, IrregularityKind, WagerPlaced
from tables.rules.games._shared import other_position
from tables.rules.hands import FiveCardCategory as F
from tables.rules.hands import (
    FiveCardHand,
    ThreeCardCategory,
    compare_literal,
    evaluate_five,
    evaluate_three,
)
from tables.rules.irregularities import Remedies
from tables.rules.machine import RoundState, Seat, complete, declare
from tables.rules.money import Odds

ANTE, POT, FLOP, BONUS = "ANTE", "POT", "FLOP", "THREE_CARD_BONUS"
BOARD = ("F1", "F2", "F3")
_O = Odds

# § 583.12(b): the posted Flop table; a pair of jacks or better (§ 583.11(d)(2)).
FLOP_TABLE: tuple[tuple[str, Odds], ...] = (
    ("ROYAL_FLUSH", _O(1000)), ("STRAIGHT_FLUSH", _O(500)), ("FOUR_OF_A_KIND", _O(100)),
    ("FULL_HOUSE", _O(30)), ("FLUSH", _O(20)), ("STRAIGHT", _O(10)), ("THREE_OF_A_KIND", _O(4)),
    ("TWO_PAIR", _O(2)), ("JACKS_OR_BETTER", _O(1)),
)  # fmt: skip
# § 583.12(c): the Three Card Bonus on the player's own three cards.
BONUS_TABLE: tuple[tuple[str, Odds], ...] = (
    ("ROYAL", _O(100)), ("STRAIGHT_FLUSH", _O(50)), ("THREE_OF_A_KIND", _O(25)),
    ("STRAIGHT", _O(6)), ("FLUSH", _O(3)), ("PAIR", _O(1)),
)  # fmt: skip
TABLE_MINIMUMS = (100, 200, 300, 500, 1000, 1500, 2000, 2500, 5000, 10000)


def hand_of(own: Sequence[Card | None], board: Sequence[Card | None]) -> FiveCardHand:
    """§ 583.11(d)(2): the player's three cards and the best two of the three community."""
    return _hand(tuple(cast(Sequence[Card], own)), tuple(cast(Sequence[Card], board)))


@functools.lru_cache(maxsize=1024)  # a round's hands are judged for every seat's pot line
def _hand(own: tuple[Card, ...], board: tuple[Card, ...]) -> FiveCardHand:
    return max(evaluate_five((*own, *pair)) for pair in combinations(board, 2))


def flop_key(hand: FiveCardHand) -> str | None:
    """The § 583.12(b) line of a hand, or ``None`` below a pair of jacks."""
    if hand.category is F.PAIR:
        return "JACKS_OR_BETTER" if hand.ranks[0] >= Rank.JACK else None
    return None if hand.category is F.HIGH_CARD else hand.category.name


def bonus_key(cards: Sequence[Card], ace_low: bool = False) -> str | None:
    """The § 583.6(d) hand of three cards, or ``None`` below a pair."""
    hand = evaluate_three(cards)
    category = hand.category
    if category in (ThreeCardCategory.STRAIGHT, ThreeCardCategory.STRAIGHT_FLUSH):
        if hand.ranks[0] is Rank.THREE and not ace_low:  # A-2-3, § 583.6(a)
            suited = category is ThreeCardCategory.STRAIGHT_FLUSH
            return "FLUSH" if suited else None
        if category is ThreeCardCategory.STRAIGHT_FLUSH and hand.ranks[0] is Rank.ACE:
            return "ROYAL"
    return None if category is ThreeCardCategory.HIGH_CARD else category.name


def _odds(table: Sequence[tuple[str, Odds]], key: str | None) -> Odds | None:
    return dict(table).get(key) if key is not None else None


def _line(state: RoundState, seat: Seat, wager: str, odds: Odds | None, section: str,
          hand: str, pay_line: str | None, lose: str) -> SettlementLine:  # fmt: skip
    if odds is None:
        return plain_line(seat, wager, Outcome.LOSE, state.section(lose), hand)
    return win_line(seat=seat.seat, player=seat.player, wager=wager, stake_cents=seat.wagers[wager],
                    odds=odds, rounding=state.rounding, section=state.section(section), hand=hand,
                    pay_line=pay_line)  # fmt: skip


def pot_winners(state: RoundState) -> list[int]:
    """The seats the Pot goes to (§ 583.11(e)), in the order its odd cents go."""
    eligible = [seat for seat in state.seats.values() if seat.participating and not seat.abandoned]
    hands = {seat.seat: hand_of(seat.cards, state.community) for seat in eligible}
    if state.options["tie_rule"] == "literal":
        best = [n for n in hands if all(compare_literal(hands[n], h) >= 0 for h in hands.values())]
    else:
        top = max(hands.values(), default=None)
        best = [n for n, hand in hands.items() if hand == top]
    return sorted(best, reverse=state.options["pot_odd_cents"] == "first_settled")


def _pot(state: RoundState, seat: Seat) -> SettlementLine:
    cached = _POTS.get(id(state))
    if cached is None or cached[0] is not state:  # the whole table's lines, once per state
        staked = [other for other in state.seats.values() if POT in other.wagers]
        hands = {other.seat: str(hand_of(other.cards, state.community))
                 for other in staked if other.participating}  # fmt: skip
        lines = pot_lines(staked, POT, pot_winners(state), section=state.section("11(e)"),
                          hands=hands)  # fmt: skip
        if len(_POTS) > 64:
            _POTS.clear()
        cached = _POTS[id(state)] = (state, lines)
    return cached[1][seat.seat]


_POTS: dict[int, tuple[RoundState, dict[int, SettlementLine]]] = {}


def settle(state: RoundState, seat: Seat) -> Iterator[SettlementLine]:
    """One seat's lines: the Three Card Bonus, Ante and Flop (§ 583.11(d)), then the Pot (e)."""
    section, done = state.section, complete(state)
    if seat.abandoned:  # § 583.7(b): abandoned wagers may be treated as losing
        yield from (plain_line(seat, w, Outcome.LOSE, section("7(b)")) for w in seat.wagers
                    if w != POT)  # fmt: skip
        if done and POT in seat.wagers:
            yield _pot(state, seat)
        return
    if not seat.participating:  # § 583.8(c): cards only to a seat with a Pot and an Ante
        yield from (plain_line(seat, w, Outcome.RETURNED, section("8(c)")) for w in seat.wagers)
        return
    if seat.folded_at is not None:
        yield plain_line(seat, ANTE, Outcome.FORFEITED, section("11(b)"))
        if BONUS in seat.wagers and state.options["fold_three_card_bonus"] == "forfeited":
            yield plain_line(seat, BONUS, Outcome.FORFEITED, section("11(b)"))
    if not done:
        return
    own = cast(Sequence[Card], seat.cards)
    if BONUS in seat.wagers and not (
        seat.folded_at is not None and state.options["fold_three_card_bonus"] == "forfeited"
    ):
        key = bonus_key(own, state.options["three_card_ace_low"])
        shown = f"{' '.join(str(card) for card in own)} ({key or 'less than a pair'})"
        yield _line(state, seat, BONUS, _odds(BONUS_TABLE, key), "12(c)", shown, key, "11(d)(1)")
    if seat.folded_at is None:
        hand = hand_of(own, state.community)
        key, described = flop_key(hand), str(hand)
        ante = None if key is None else Odds(1)
        yield _line(state, seat, ANTE, ante, "12(a)", described, key, "11(d)(2)")
        if FLOP in seat.wagers:
            yield _line(state, seat, FLOP, _odds(FLOP_TABLE, key), "12(b)", described, key,
                        "11(d)(2)")  # fmt: skip
    if POT in seat.wagers:
        yield _pot(state, seat)


def wager_rules(state: RoundState, seat: Seat, event: WagerPlaced) -> Refusal | None:
    """§ 583.7(e): one position a player; § 583.7(d)(1): the Pot Wager is the table minimum."""
    if other_position(state, seat) is not None:
        return Refusal(state.section("7(e)"), "one player position per player", "seat")
    minimum = state.options["table_minimum_cents"]
    if event.wager == POT and event.amount_cents != minimum:
        return Refusal(state.section("7(d)(1)"), f"the Pot Wager must equal the table minimum "
                       f"({minimum} cents), got {event.amount_cents}", "amount_cents")  # fmt: skip
    return None


PA_583_2014 = GameRuleSet(
    id="PA-583-2014", game="flop_poker", jurisdiction="PA", chapter="583",
    effective_from=datetime.date(2014, 10, 25),
    notes=("Temporary chapter, compilation current as of 2014-10-25; read as in force until "
           "replaced.",
           "583.11(e): the Pot is the players' money: its lines name the pot, never the house."),
)  # fmt: skip

_SECTIONS = {  # what the engine cites for its generic checks
    "seated": "7(b)", "wagers": "7(d)", "by_choice": "7(c)", "already_placed": "7(c)",
    "after_no_more_bets": "7(c)", "no_spot": "11", "card_mismatch": "11(d)",
    "collect": "11(b)", "decisions": "11(b)", "card_in_play": "3(a)", "card_count": "13(c)",
    "early_exposure": "11(c)", "showdown": "11(d)", "settle": "11(d)", "close": "11(f)",
    "void": "13", "irregularities": "13",
}  # fmt: skip

GAME = declare(
    Game(
        id="flop_poker",
        name="Flop Poker",
        rulesets=(PA_583_2014,),
        layout=Layout(seat_spots=("1", "2", "3"), community_spots=BOARD, max_seats=6),
        wagers=(
            WagerSpec(
                BONUS,
                "Three Card Bonus Wager",
                "7(d)(3)",
                offered=lambda state: state.options["three_card_bonus_offered"],
            ),
            WagerSpec(ANTE, "Ante Wager", "7(d)(1)", required=True),
            WagerSpec(FLOP, "Flop Wager", "11(b)", amount=EqualTo(ANTE), by_choice=True),
            WagerSpec(POT, "Pot Wager", "7(d)(1)", handle=False, required=True),
        ),  # fmt: skip
        steps=(
            Wagering(),
            Deal(),
            Decide(
                "flop_decision", "11(b)", (Choice("bet", places=FLOP), Choice("fold", folds=True))
            ),  # fmt: skip
            Deal(
                "flop_deal",
                spots=BOARD,
                burn=1,
                face_up=True,
                no_burn=frozenset({DealingMethod.AUTOMATED_SHOE}),
            ),  # fmt: skip
            Showdown("11(d)"),
        ),
        settle=settle,
        wager_rules=wager_rules,
        participates=lambda seat: ANTE in seat.wagers and POT in seat.wagers,
        folded_hands_shown=True,
        options=(
            OptionSpec("table_minimum_cents", "2(b)(6)", TABLE_MINIMUMS, 500),
            OptionSpec("three_card_bonus_offered", "7(d)(3)", (True, False), True, recorded=False),
            OptionSpec("pot_odd_cents", "11(e)", ("first_settled", "clockwise"), "first_settled"),
            OptionSpec("three_card_ace_low", "6(a)", (False, True), False),
            OptionSpec("fold_three_card_bonus", "11(b)", ("settled", "forfeited"), "settled"),
            OptionSpec("tie_rule", "6(c)", ("conventional", "literal"), "conventional"),
        ),
        dealing={
            DealingMethod.MANUAL_SHOE: DealingSections("8(b)", "8(c)", "8(g)", "8(e)"),
            DealingMethod.HAND: DealingSections("9(b)", "9(c)", "9(g)", "9(e)"),
            DealingMethod.AUTOMATED_SHOE: DealingSections("10(a)(2)", "10(b)", "10(f)", "10(d)"),
        },
        remedies=Remedies(
            face_up="13(a)",
            voids={
                IrregularityKind.INCORRECT_CARD_COUNT: ("13(c)", "a wrong number of cards"),
                IrregularityKind.SHOE_MALFUNCTION: ("13(e)", "the automated dealing shoe failed"),
            },
        ),  # fmt: skip
        sections=_SECTIONS,
    )
)
