"""Caribbean Stud Poker, Pennsylvania Chapter 555 (temporary, 40 Pa.B. 1196, 2010-03-06).

An Ante, then a Bet Wager of double the Ante or a fold (§ 555.1, § 555.11(a))
against a dealer who qualifies with ace, king, four, three and two or better
(§ 555.1; the layout's "Ace/King or Better", § 555.2(b)(4), says the same: A-K-4-3-2
is the lowest hand holding an ace and a king). The Bet pays § 555.13(c)'s odds on
the player's hand; when the dealer does not qualify the Ante wins 1 to 1 and the
Bet is returned (§ 555.11(f)(2)-(3)).

The $1 progressive payout wager (§ 555.7(c)) goes into the table inventory
container at "no more bets" (§ 555.8(b)), so the round takes it whatever the
hand. What it wins is not the round's to say: a share of the meter is the
meter "when it is the player's turn to be paid" (§ 555.13(f)) and fixed amounts
follow the meter's configured schedule (§ 555.13(d)). The meter stream
(:mod:`tables.rules.progressives.meter`) settles every progressive payout; this
module says which seats hold a progressive payout hand (:func:`progressive_hits`).

Readings, each an option recorded in every settlement:

* ``tie_rule``: § 555.6(c) read literally compares the highest card not in the
  other hand (two 2s with A-K-Q beat two kings with 5-4-3), against § 555.6(b)'s
  order of pairs; ``conventional`` is the default (as in § 565.6(c)).

>>> from tables.rules.cards import parse_cards
>>> qualifies(parse_cards("Ah Kd 4c 3s 2h")), qualifies(parse_cards("Ah Qd Jc 9s 8h"))
(True, False)
>>> progressive_hand(parse_cards("Ah Kh Qh Jh Th")), progressive_hand(parse_cards("9h Th Jh Qd Kh"))
('ROYAL_FLUSH', None)
"""

from __future__ import annotations

import datetime
from collections.abc import Iterator, Sequence
from typing import cast

from tables.rules.cards import Card, parse_cards
from tables.rules.declaration import (
    Choice,
    Deal,
    DealingSections,
    Decide,
    Exactly,
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
from tables.rules.engine import Outcome, Refusal, SettlementLine, plain_line, win_line
from tables.rules.events import DealingMethod, IrregularityKind, WagerPlaced
from tables.rules.hands import FiveCardCategory as F
from tables.rules.hands import compare_literal, evaluate_five, five_card_strength
from tables.rules.irregularities import Remedies
from tables.rules.machine import RoundState, Seat, declare
from tables.rules.money import Odds

ANTE, BET, PROGRESSIVE = "ANTE", "BET", "PROGRESSIVE"
PROGRESSIVE_CENTS = 100  # § 555.7(c): "a $1 gaming chip"
_O = Odds
Hand = tuple[Card, ...]

# § 555.13(c): the Bet Wager's odds on the player's hand, "no less than" these.
BET_TABLES: dict[str, tuple[tuple[str, Odds], ...]] = {
    "555.13(c) minimum": (("ROYAL_FLUSH", _O(100)), ("STRAIGHT_FLUSH", _O(50)),
                          ("FOUR_OF_A_KIND", _O(20)), ("FULL_HOUSE", _O(7)), ("FLUSH", _O(5)),
                          ("STRAIGHT", _O(4)), ("THREE_OF_A_KIND", _O(3)), ("TWO_PAIR", _O(2)),
                          ("ONE_PAIR_OR_LESS", _O(1))),
}  # fmt: skip
#: § 555.1 "Progressive payout hand": a flush, full house, four-of-a-kind,
#: straight flush or royal flush (the names of the meter's schedule lines).
PROGRESSIVE_HANDS = ("ROYAL_FLUSH", "STRAIGHT_FLUSH", "FOUR_OF_A_KIND", "FULL_HOUSE", "FLUSH")
#: § 555.1: "ace, king, four, three and two or better"; suits do not rank (§ 555.6).
QUALIFYING_STRENGTH = five_card_strength(parse_cards("Ah Kd 4c 3s 2h"))


def qualifies(cards: Sequence[Card]) -> bool:
    """Whether the dealer's five cards are a qualifying hand (§ 555.1)."""
    return five_card_strength(cards) >= QUALIFYING_STRENGTH


def bet_key(cards: Sequence[Card]) -> str:
    """The § 555.13(c) line of a player's hand ("One Pair or less" below two pair)."""
    category = evaluate_five(cards).category
    return "ONE_PAIR_OR_LESS" if category <= F.PAIR else category.name


def progressive_hand(cards: Sequence[Card]) -> str | None:
    """The § 555.13(d) line a hand is paid on, or ``None`` below a flush (§ 555.1)."""
    category = evaluate_five(cards).category
    return category.name if category >= F.FLUSH else None


def compare(player: Sequence[Card], dealer: Sequence[Card], tie_rule: str = "conventional") -> int:
    """1 if the player's hand is higher, 0 for a tie, -1 if lower (§ 555.6(b)-(c))."""
    mine, theirs = evaluate_five(player), evaluate_five(dealer)
    if tie_rule == "literal":
        return compare_literal(mine, theirs)
    return (mine > theirs) - (mine < theirs)


def progressive_hits(state: RoundState) -> tuple[tuple[int, str], ...]:
    """``(seat, hand)`` of every seat whose accepted progressive wager holds a
    progressive payout hand, in the order they are paid: from the dealer's right,
    counterclockwise (§ 555.11(e)(3)), i.e. descending seat numbers.

    A folded hand is "immediately collected ... and placed in the discard rack"
    (§ 555.11(a)); it cannot be verified as a winning hand (§ 555.12(b)(1)), so
    it wins nothing; nor does a void round, whose wagers are returned.
    """
    if state.void_section is not None:
        return ()
    hits = []
    for number in sorted(state.seats, reverse=True):
        seat = state.seats[number]
        if PROGRESSIVE not in seat.wagers or seat.folded_at is not None or seat.abandoned:
            continue
        if any(card is None for card in seat.cards):
            continue
        hand = progressive_hand(cast(Hand, seat.cards))
        if hand is not None:
            hits.append((number, hand))
    return tuple(hits)


def _win(state: RoundState, seat: Seat, wager: str, odds: Odds, section: str,
         described: str, key: str | None = None) -> SettlementLine:  # fmt: skip
    return win_line(seat=seat.seat, player=seat.player, wager=wager,
                    stake_cents=seat.wagers[wager], odds=odds, rounding=state.rounding,
                    section=state.section(section), hand=described, pay_line=key)  # fmt: skip


def settle(state: RoundState, seat: Seat) -> Iterator[SettlementLine]:
    """One seat's Ante and Bet (the engine takes the progressive wager, § 555.8(b))."""
    section = state.section
    if seat.abandoned:  # § 555.7(f): abandoned wagers may be treated as losing
        yield from (plain_line(seat, w, Outcome.LOSE, section("7(f)")) for w in seat.wagers
                    if w != PROGRESSIVE)  # fmt: skip
        return
    cards, dealer = cast(Hand, seat.cards), cast(Hand, state.dealer)
    described = str(evaluate_five(cards))
    if seat.folded_at is not None:
        yield plain_line(seat, ANTE, Outcome.FORFEITED, section("11(a)"), described)
        return
    if not qualifies(dealer):
        yield _win(state, seat, ANTE, Odds(1), "11(f)(2)", described)
        yield plain_line(seat, BET, Outcome.RETURNED, section("11(f)(3)"), described)
        return
    result = compare(cards, dealer, state.options["tie_rule"])
    if result > 0:
        key = bet_key(cards)
        odds = dict(BET_TABLES[state.options["bet_table"]])[key]
        yield _win(state, seat, ANTE, Odds(1), "13(b)", described)
        yield _win(state, seat, BET, odds, "13(c)", described, key)
        return
    outcome, cited = (Outcome.PUSH, "11(e)(2)") if result == 0 else (Outcome.LOSE, "11(e)(1)")
    for wager in (ANTE, BET):
        yield plain_line(seat, wager, outcome, section(cited), described)


def wager_rules(state: RoundState, seat: Seat, event: WagerPlaced) -> Refusal | None:
    """§ 555.7(c): a progressive payout wager only "upon placing an Ante Wager"."""
    if event.wager != PROGRESSIVE or ANTE in seat.wagers:
        return None
    return Refusal(state.section("7(c)"), "a progressive payout wager is placed only upon "
                   "placing an Ante Wager", "wager")  # fmt: skip


PA_555_2010 = GameRuleSet(
    id="PA-555-2010", game="caribbean_stud_poker", jurisdiction="PA", chapter="555",
    effective_from=datetime.date(2010, 3, 6), max_seats=7,
    notes=("Temporary chapter (40 Pa.B. 1196); no later text is in our sources, so it is read as "
           "in force until replaced.",
           "The progressive's schedule, rate of progression and reset amount are the meter's "
           "configuration (555.13(d)-(e)), effective-dated in its own stream.",),
)  # fmt: skip

_SECTIONS = {  # what the engine cites for its generic checks
    "seated": "7(f)", "wagers": "7(a)", "by_choice": "11(a)", "already_placed": "7(b)",
    "after_no_more_bets": "7(b)", "no_spot": "11(e)", "card_mismatch": "11(e)",
    "collect": "11(e)(1)", "decisions": "11(a)", "card_in_play": "3(a)", "card_count": "14(d)",
    "early_exposure": "14(a)", "showdown": "11(d)", "settle": "11(e)(3)", "close": "11(g)",
    "void": "14", "irregularities": "14",
}  # fmt: skip

GAME = declare(
    Game(
        id="caribbean_stud_poker",
        name="Caribbean Stud Poker",
        rulesets=(PA_555_2010,),
        layout=Layout(seat_spots=("1", "2", "3", "4", "5"),
                      dealer_spots=("1", "2", "3", "4", "5"), max_seats=7),  # fmt: skip
        wagers=(
            WagerSpec(ANTE, "Ante Wager", "7(b)"),
            WagerSpec(BET, "Bet Wager", "11(a)", amount=MultipleOf(ANTE, 2, 2), by_choice=True),
            # § 555.2(f)(2): the lock-out stops recognition after "no more bets";
            # § 555.8(b): the chips go into the table inventory container at once.
            WagerSpec(PROGRESSIVE, "Progressive payout wager", "7(c)",
                      amount=Exactly(PROGRESSIVE_CENTS), closes="2(f)(2)", taken="8(b)"),
        ),  # fmt: skip
        steps=(
            Wagering(),
            Deal(),
            # § 555.8(d)(2), § 555.9(b)(2): the dealer's first card is dealt face up
            # (§ 555.10(g): with an automated shoe, the bottom card of its stack).
            Reveal("dealer_up_card", "8(d)(2)", ("1",)),
            Decide(
                "bet_decision",
                "11(a)",
                (Choice("bet", places=BET), Choice("fold", folds=True)),
                eligible=lambda seat: ANTE in seat.wagers,
            ),
            Reveal("dealer_reveal", "11(d)", ("2", "3", "4", "5")),
            Showdown("11(e)"),
        ),
        settle=settle,
        wager_rules=wager_rules,
        participates=lambda seat: ANTE in seat.wagers,
        options=(
            OptionSpec("bet_table", "13(c)", tuple(BET_TABLES), "555.13(c) minimum"),
            OptionSpec("tie_rule", "6(c)", ("conventional", "literal"), "conventional"),
        ),
        dealing={
            DealingMethod.MANUAL_SHOE: DealingSections("8(b)", "8(d)", "8(h)", "8(f)"),
            DealingMethod.HAND: DealingSections("9(a)(3)", "9(b)", "9(f)", "9(d)"),
            DealingMethod.AUTOMATED_SHOE: DealingSections("10(a)(2)", "10(b)", "10(f)", "10(d)"),
        },
        remedies=Remedies(
            face_up="14(b)",
            voids={
                IrregularityKind.DEALER_CARD_EXPOSED_EARLY: ("14(a)", "a hole card shown early"),
                IrregularityKind.SHOE_MALFUNCTION: ("14(f)", "the automated dealing shoe failed"),
            },
            # § 555.14(d): a player's wrong count voids only that hand, a dealer's
            # four cards are completed, any other misdeal to the dealer voids all.
            referred=frozenset({IrregularityKind.INCORRECT_CARD_COUNT}),
            referred_note="{kind}: referred to the floor (555.14(d))",
        ),  # fmt: skip
        sections=_SECTIONS,
    )
)
