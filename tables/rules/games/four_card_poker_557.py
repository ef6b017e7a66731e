"""Four Card Poker, Pennsylvania Chapter 557 (temporary, 40 Pa.B. 1196, 2010-03-06).

Each player's best four of five cards against the dealer's best four of six
(§ 557.1 "Hand", § 557.11(e)); the dealer's sixth card is dealt face up
(§ 557.8(d)). No dealer qualification; a tie wins for the player
(§ 557.12(a)(1)). The Play Wager is one to three times the Ante; the Ante
bonus pays a three-of-a-kind or better whether or not the player beats the
dealer (§ 557.12(a)(2)); Aces Up pays the player's best hand against the table
the Rules Submission preselects, I to VII (§ 557.12(a)(3)), and survives a fold
(§ 557.11(c)). Options, each recorded in every settlement:

* ``aces_up_table``: one of § 557.12(a)(3)'s Tables I-VII (I unless a round says).
* ``ante_bonus_table``: § 557.12(a)(2)'s odds are "no less than" its table; a
  Rules Submission posting more adds a table here.
* ``tie_rule``: § 557.6(c) read literally compares the highest card not in the
  other hand (2-2-A-K beats K-K-Q-J), against § 557.6(b)(7)'s order of pairs;
  ``conventional`` (the category's ranks, then the kickers) is the default.

>>> from tables.rules.cards import parse_cards
>>> aces_up_key(best_four_of(parse_cards("As Ad 7c 4h 2s")))
'PAIR_OF_ACES'
"""

from __future__ import annotations

import datetime
from collections.abc import Iterator, Sequence
from itertools import combinations
from typing import cast

from tables.rules.cards import Card, Rank
from tables.rules.declaration import (
    Choice,
    Deal,
    DealingSections,
    Decide,
    Game,
    GameRuleSet,
    Layout,
    MultipleOf,
    OptionSpec,
    Reveal,
    Showdown,
    Wagering,
    WagerSpec,
)  # fmt: skip
from tables.rules.engine import Outcome, SettlementLine, plain_line, win_line
from tables.rules.events import DealingMethod, IrregularityKind
from tables.rules.hands import FourCardCategory as F
from tables.rules.hands import FourCardHand, best_four_of, four_card_strength
from tables.rules.irregularities import Remedies
from tables.rules.machine import RoundState, Seat, declare
from tables.rules.money import Odds

ANTE, PLAY, ACES_UP, BONUS = "ANTE", "PLAY", "ACES_UP", "ANTE_BONUS"
_O = Odds
Hand = tuple[Card, ...]

_ACES_UP_COLUMNS = {  # § 557.12(a)(3): four-of-a-kind .. pair of aces, column by column
    "I": (50, 40, 9, 6, 4, 2, 1), "II": (50, 40, 7, 6, 5, 2, 1), "III": (50, 30, 9, 6, 4, 2, 1),
    "IV": (50, 30, 7, 6, 5, 2, 1), "V": (50, 40, 8, 5, 4, 3, 1), "VI": (50, 40, 8, 6, 4, 2, 1),
    "VII": (50, 40, 7, 5, 4, 3, 1),
}  # fmt: skip
ACES_UP_KEYS = ("FOUR_OF_A_KIND", "STRAIGHT_FLUSH", "THREE_OF_A_KIND", "FLUSH", "STRAIGHT",
                "TWO_PAIR", "PAIR_OF_ACES")  # fmt: skip
# Pay tables: (hand key, odds) best line first.
ACES_UP_TABLES: dict[str, tuple[tuple[str, Odds], ...]] = {
    table: tuple((key, _O(odds)) for key, odds in zip(ACES_UP_KEYS, column, strict=True))
    for table, column in _ACES_UP_COLUMNS.items()
}
ANTE_BONUS_TABLES: dict[str, tuple[tuple[str, Odds], ...]] = {
    # § 557.12(a)(2): "no less than" these.
    "557.12(a)(2) minimum": (("FOUR_OF_A_KIND", _O(25)), ("STRAIGHT_FLUSH", _O(20)),
                             ("THREE_OF_A_KIND", _O(2))),
}  # fmt: skip


def aces_up_key(hand: FourCardHand) -> str | None:
    """The Aces Up line of ``hand``: its category, a pair only of aces (§ 557.1), else None."""
    if hand.category is F.PAIR:
        return "PAIR_OF_ACES" if hand.ranks[0] is Rank.ACE else None
    return None if hand.category is F.HIGH_CARD else hand.category.name


def pay(table: Sequence[tuple[str, Odds]], key: str | None) -> Odds | None:
    """The odds ``table`` pays a hand of ``key``, or ``None`` when the hand loses."""
    return next((odds for line, odds in table if line == key), None)


def best_cards(cards: Sequence[Card]) -> Hand:
    """The four of ``cards`` forming the highest hand (§ 557.11(e))."""
    return max(combinations(cards, 4), key=four_card_strength)


def compare(player: Sequence[Card], dealer: Sequence[Card], tie_rule: str = "conventional") -> int:
    """1 if the player's best four outrank the dealer's, 0 for a tie, -1 if lower (§ 557.6)."""
    mine, theirs = best_cards(player), best_cards(dealer)
    left, right = four_card_strength(mine), four_card_strength(theirs)
    if tie_rule == "literal" and best_four_of(mine).category is best_four_of(theirs).category:
        ranks = sorted((card.rank for card in mine), reverse=True)
        others = sorted((card.rank for card in theirs), reverse=True)
        for rank in ranks[:]:
            if rank in others:
                ranks.remove(rank)
                others.remove(rank)
        if not ranks:
            return 0
        return 1 if max(ranks) > max(others) else -1
    return (left > right) - (left < right)


def _win(state: RoundState, seat: Seat, wager: str, stake: int, odds: Odds, section: str,
         described: str, key: str | None = None) -> SettlementLine:  # fmt: skip
    return win_line(seat=seat.seat, player=seat.player, wager=wager, stake_cents=stake, odds=odds,
                    rounding=state.rounding, section=state.section(section), hand=described,
                    pay_line=key)  # fmt: skip


def settle(state: RoundState, seat: Seat) -> Iterator[SettlementLine]:
    """One seat's lines; the engine orders them and settles voids."""
    section = state.section
    if seat.abandoned:  # § 557.7(c): abandoned wagers may be treated as losing
        yield from (plain_line(seat, w, Outcome.LOSE, section("7(c)")) for w in seat.wagers)
        return
    hand = best_four_of(cast(Hand, seat.cards))
    described = str(hand)
    if ACES_UP in seat.wagers:
        key = aces_up_key(hand)
        odds = pay(ACES_UP_TABLES[state.options["aces_up_table"]], key)
        yield (plain_line(seat, ACES_UP, Outcome.LOSE, section("11(e)"), described) if odds is None
               else _win(state, seat, ACES_UP, seat.wagers[ACES_UP], odds, "12(a)(3)", described,
                         key))  # fmt: skip
    if ANTE not in seat.wagers:
        return
    if seat.folded_at is not None:  # § 557.11(c): the Ante is forfeited, Aces Up is not
        yield plain_line(seat, ANTE, Outcome.FORFEITED, section("11(c)"), described)
        return
    dealer = cast(Hand, state.dealer)
    won = compare(cast(Hand, seat.cards), dealer, state.options["tie_rule"]) >= 0
    against = f"{described} against the dealer's {best_four_of(dealer)}"
    for wager in (ANTE, PLAY):
        yield (_win(state, seat, wager, seat.wagers[wager], Odds(1), "12(a)(1)", against) if won
               else plain_line(seat, wager, Outcome.LOSE, section("11(e)"), against))  # fmt: skip
    odds = pay(ANTE_BONUS_TABLES[state.options["ante_bonus_table"]], hand.category.name)
    if odds is not None:  # § 557.12(a)(2): "regardless of whether the player's hand outranks"
        yield _win(state, seat, BONUS, seat.wagers[ANTE], odds, "12(a)(2)", described,
                   hand.category.name)  # fmt: skip


PA_557_2010 = GameRuleSet(
    id="PA-557-2010", game="four_card_poker", jurisdiction="PA", chapter="557",
    effective_from=datetime.date(2010, 3, 6), max_seats=7,
    notes=("Temporary chapter (40 Pa.B. 1196); no later text is in our sources, so it is read as "
           "in force until replaced.",),
)  # fmt: skip

_SECTIONS = {  # what the engine cites for its generic checks
    "seated": "7(c)", "wagers": "7(a)", "by_choice": "7(d)", "already_placed": "7(d)",
    "after_no_more_bets": "7(d)", "no_spot": "11(e)", "card_mismatch": "11(e)",
    "collect": "11(d)", "decisions": "11(c)", "card_in_play": "3(a)", "card_count": "13(c)",
    "early_exposure": "13(d)", "showdown": "11(e)", "settle": "11(f)", "close": "11(g)",
    "void": "13", "irregularities": "13",
}  # fmt: skip

GAME = declare(
    Game(
        id="four_card_poker",
        name="Four Card Poker",
        rulesets=(PA_557_2010,),
        layout=Layout(seat_spots=("1", "2", "3", "4", "5"),
                      dealer_spots=("1", "2", "3", "4", "5", "6"), max_seats=7),  # fmt: skip
        wagers=(
            WagerSpec(ANTE, "Ante Wager", "7(a)(1)"),
            WagerSpec(PLAY, "Play Wager", "11(c)", amount=MultipleOf(ANTE, 1, 3), by_choice=True),
            WagerSpec(ACES_UP, "Aces Up Wager", "7(a)(2)"),
            WagerSpec(BONUS, "Ante bonus", "12(a)(2)", by_choice=True, handle=False),
        ),
        steps=(
            Wagering(),
            Deal(),
            # § 557.8(d), § 557.9(b): the dealer's sixth card is dealt face up.
            Reveal("dealer_up_card", "8(d)", ("6",)),
            Decide(
                "play_decision",
                "11(c)",
                (Choice("play", places=PLAY), Choice("fold", folds=True)),
                eligible=lambda seat: ANTE in seat.wagers,
            ),
            Reveal("dealer_reveal", "11(e)", ("1", "2", "3", "4", "5")),
            Showdown("11(e)"),
        ),
        settle=settle,
        options=(
            OptionSpec("aces_up_table", "12(a)(3)", tuple(ACES_UP_TABLES), "I"),
            OptionSpec("ante_bonus_table", "12(a)(2)", tuple(ANTE_BONUS_TABLES),
                       "557.12(a)(2) minimum"),  # fmt: skip
            OptionSpec("tie_rule", "6(c)", ("conventional", "literal"), "conventional"),
        ),
        dealing={
            DealingMethod.MANUAL_SHOE: DealingSections("8(b)", "8(d)", "8(h)", "8(f)"),
            DealingMethod.HAND: DealingSections("9(a)(3)", "9(b)", "9(f)", "9(d)"),
            # § 557.10(b): of the dealer's second stack of five only the bottom card is used.
            DealingMethod.AUTOMATED_SHOE: DealingSections("10(a)(2)", "10(b)", "10(f)", "10(d)",
                                                          discarded=4),  # fmt: skip
        },
        remedies=Remedies(
            face_up="13(a)",
            voids={
                IrregularityKind.INCORRECT_CARD_COUNT: ("13(c)", "a wrong number of cards"),
                IrregularityKind.DEALER_CARD_EXPOSED_EARLY: ("13(d)", "a dealer card shown early"),
                IrregularityKind.SHOE_MALFUNCTION: ("13(f)", "the automated dealing shoe failed"),
            },
        ),  # fmt: skip
        sections=_SECTIONS,
    )
)
