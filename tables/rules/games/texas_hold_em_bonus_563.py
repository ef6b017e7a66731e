"""Texas Hold 'Em Bonus Poker, Pennsylvania Chapter 563 (temporary, 40 Pa.B. 1188, 2010-03-06).

Ante against the dealer's best five of seven (§ 563.1 "Hand"), no dealer qualifier;
the Flop Wager at twice the Ante or a fold (§ 563.11(a)), the Turn and River Wagers
equal to the Ante or a check (§ 563.11(c), (e)), the board dealt in stages after a
burn each; the Bonus Wager on the player's two cards against a posted table
(§ 563.12(c)); the mandatory payout limit (§ 563.12(e)). Readings, each an option:

* ``ante_qualifier``: the Rules Submission's "straight or higher" or "flush or
  higher" (§ 563.2(b)(7), § 563.11(h)(2)).
* ``unqualified_ante``: a winning hand below the qualifier "may not be paid":
  ``push`` (returned, the default) or ``lose``; the text says neither.
* ``aces_supplement``: § 563.12(d) player and dealer aces at 1000 to 1,
  ``replaces`` the Ace-ace line or ``adds`` to it; ``None``: not offered.
* ``dealer_exposure_window``: § 563.13(a) voids for a dealer card shown
  "prior to each player having either folded or placed a Flop, Turn or River
  Wager": until the ``river`` decisions (default) or only the ``flop``'s.
* ``tie_rule``: § 563.6(c) read ``literal`` or ``conventional`` (default).

>>> from tables.rules.cards import parse_cards
>>> [bonus_key(parse_cards(cards)) for cards in ("As Ks", "9h 9c", "Kh Qh")]
['AK_SUITED', 'PAIR_2_TO_10', None]
"""

from __future__ import annotations

import datetime
import functools
from collections.abc import Iterator, Sequence
from typing import Any, cast

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
    MultipleOf,
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
from tables.rules.games._shared import other_position
from tables.rules.hands import FiveCardCategory as F
from tables.rules.hands import FiveCardHand, best_five_of, compare_literal
from tables.rules.irregularities import Remedies
from tables.rules.machine import RoundState, Seat, complete, declare
from tables.rules.money import Odds

ANTE, FLOP, TURN, RIVER, BONUS = "ANTE", "FLOP", "TURN", "RIVER", "BONUS"
BOARD = ("F1", "F2", "F3", "TURN", "RIVER")
_O = Odds

# § 563.12(c): the odds are "no less than" these; a Rules Submission may post more.
PAY_TABLES: dict[str, tuple[tuple[str, Odds], ...]] = {
    "563.12(c) minimum": (("AA", _O(30)), ("AK_SUITED", _O(25)), ("AQ_AJ_SUITED", _O(20)),
                          ("AK", _O(15)), ("KK_QQ_JJ", _O(10)), ("AQ_AJ", _O(5)),
                          ("PAIR_2_TO_10", _O(3))),
}  # fmt: skip
ACES_SUPPLEMENT = _O(1000)  # § 563.12(d): "no less than 1000 to 1"
QUALIFIERS = {"straight": F.STRAIGHT, "flush": F.FLUSH}
PAYOUT_LIMIT_FLOOR_CENTS = 5_000_000  # § 563.12(e): $50,000 or more


def bonus_key(cards: Sequence[Card]) -> str | None:
    """The § 563.12(c) line of a player's two cards, or ``None`` (not on the table)."""
    high, low = sorted((card.rank for card in cards), reverse=True)
    suited = cards[0].suit is cards[1].suit
    if high == low:
        return "AA" if high is Rank.ACE else "KK_QQ_JJ" if high >= Rank.JACK else "PAIR_2_TO_10"
    if high is Rank.ACE and low >= Rank.JACK:
        name = "AK" if low is Rank.KING else "AQ_AJ"
        return f"{name}_SUITED" if suited else name
    return None


def bonus_odds(table: str, key: str | None, dealer_aces: bool,
               supplement: str | None) -> Odds | None:  # fmt: skip
    """What a Bonus on ``key`` pays (§ 563.12(c)), with the § 563.12(d) supplement."""
    odds = dict(PAY_TABLES[table]).get(key) if key is not None else None
    if key == "AA" and dealer_aces and supplement is not None and odds is not None:
        extra = ACES_SUPPLEMENT.numerator // ACES_SUPPLEMENT.denominator
        return ACES_SUPPLEMENT if supplement == "replaces" else _O(extra + odds.numerator)
    return odds


def hand_of(cards: Sequence[Card | None], board: Sequence[Card | None]) -> FiveCardHand:
    """The best five of a hand's two cards and the five community cards (§ 563.1 "Hand")."""
    return _best(tuple(cast(Sequence[Card], (*cards, *board))))


_best = functools.lru_cache(maxsize=256)(best_five_of)  # the dealer's, judged for every seat


def compare(player: FiveCardHand, dealer: FiveCardHand, tie_rule: str = "conventional") -> int:
    """1 if the player's hand is higher, 0 for a tie, -1 if lower (§ 563.6(b)-(c))."""
    if tie_rule == "literal":
        return compare_literal(player, dealer)
    return (player > dealer) - (player < dealer)


def _win(state: RoundState, seat: Seat, wager: str, odds: Odds, section: str, hand: str,
         pay_line: str | None = None) -> SettlementLine:  # fmt: skip
    return win_line(seat=seat.seat, player=seat.player, wager=wager, stake_cents=seat.wagers[wager],
                    odds=odds, rounding=state.rounding, section=state.section(section), hand=hand,
                    pay_line=pay_line)  # fmt: skip


def _bonus(state: RoundState, seat: Seat) -> Iterator[SettlementLine]:
    if BONUS not in seat.wagers:
        return
    cards = cast(tuple[Card, Card], seat.cards)
    key = bonus_key(cards)
    dealer_aces = all(card is not None and card.rank is Rank.ACE for card in state.dealer)
    odds = bonus_odds(state.options["bonus_table"], key, dealer_aces,
                      state.options["aces_supplement"])  # fmt: skip
    shown = " ".join(str(card) for card in cards)
    if odds is None:
        yield plain_line(seat, BONUS, Outcome.LOSE, state.section("12(c)"), shown)
    else:
        section = "12(d)" if key == "AA" and dealer_aces and odds.numerator >= 1000 else "12(c)"
        yield _win(state, seat, BONUS, odds, section, shown, key)


def settle(state: RoundState, seat: Seat) -> Iterator[SettlementLine]:
    """One seat's lines: Ante, Flop, Turn and River, then the Bonus (§ 563.11(h)(4))."""
    section = state.section
    if seat.abandoned:  # § 563.7(e): abandoned wagers may be treated as losing
        yield from (plain_line(seat, w, Outcome.LOSE, section("7(e)")) for w in seat.wagers)
        return
    final = complete(state) or state.void_section is not None
    if seat.folded_at is not None:
        yield plain_line(seat, ANTE, Outcome.FORFEITED, section("11(a)(2)"))
        if final:  # § 563.11(a)(2)(i): the Bonus waits for the end of the round
            yield from _bonus(state, seat)
        return
    if not final:
        return
    if state.void_section is None:
        hand, dealer = hand_of(seat.cards, state.community), hand_of(state.dealer, state.community)
        result, described = compare(hand, dealer, state.options["tie_rule"]), str(hand)
        qualified = hand.category >= QUALIFIERS[state.options["ante_qualifier"]]
        for wager in (ANTE, FLOP, TURN, RIVER):
            if wager not in seat.wagers:
                continue
            if result < 0:
                yield plain_line(seat, wager, Outcome.LOSE, section("11(h)(1)"), described)
            elif result == 0:
                yield plain_line(seat, wager, Outcome.PUSH, section("11(h)(3)"), described)
            elif wager == ANTE and not qualified:
                unpaid = Outcome.PUSH if state.options["unqualified_ante"] == "push" else (
                    Outcome.LOSE)  # fmt: skip
                yield plain_line(seat, ANTE, unpaid, section("11(h)(2)"), described)
            else:
                yield _win(state, seat, wager, Odds(1), "12(b)", described)
    yield from _bonus(state, seat)


def wager_rules(state: RoundState, seat: Seat, event: WagerPlaced) -> Refusal | None:
    """§ 563.7(f): one position a player; § 563.7(c): the Bonus after an Ante, $1 or more."""
    if other_position(state, seat) is not None:
        return Refusal(state.section("7(f)"), "one player position per player", "seat")
    if event.wager != BONUS:
        return None
    if ANTE not in seat.wagers:
        return Refusal(state.section("7(c)"), "the Bonus Wager follows an Ante Wager", "wager")
    if event.amount_cents < 100:
        return Refusal(state.section("7(c)"), "the Bonus Wager is at least a $1 chip",
                       "amount_cents")  # fmt: skip
    return None


def _opening_check(state: RoundState) -> None:
    limit = state.opened.payout_limit_cents
    if limit is not None and limit < PAYOUT_LIMIT_FLOOR_CENTS:
        raise RuleViolation(state.section("12(e)"), "the payout limit is $50,000 or more",
                            "payout_limit_cents")  # fmt: skip


def _dealer_exposure_voids(state: Any) -> bool:
    """§ 563.13(a): a dealer card shown before the last decision the reading covers."""
    last = f"{state.options['dealer_exposure_window']}_decision"
    names = [step.name for step in state.game.steps]
    return bool(state.step <= names.index(last))


def void_settles(state: RoundState) -> tuple[str, ...]:
    """§ 563.13(a), (b): the Bonus is settled on a void once every first two cards are out."""
    dealt = all(card is not None for card in state.dealer) and all(
        card is not None for seat in state.seats.values() if seat.participating
        for card in seat.cards)  # fmt: skip
    kept = state.void_section in (state.section("13(a)"), state.section("13(b)"))
    return (BONUS,) if kept and dealt else ()


PA_563_2010 = GameRuleSet(
    id="PA-563-2010", game="texas_hold_em_bonus_poker", jurisdiction="PA", chapter="563",
    effective_from=datetime.date(2010, 3, 6), payout_limit_cents=PAYOUT_LIMIT_FLOOR_CENTS,
    notes=("Temporary chapter (40 Pa.B. 1188); no later text is in our sources, so it is read as "
           "in force until replaced.",
           "563.12(e): the $50,000 aggregate limit applies where the round names no higher one."),
)  # fmt: skip

_SECTIONS = {  # what the engine cites for its generic checks
    "seated": "7(e)", "wagers": "7(a)", "by_choice": "7(d)", "already_placed": "7(b)",
    "after_no_more_bets": "7(b)", "no_spot": "11", "card_mismatch": "11(h)",
    "collect": "11(a)(2)", "decisions": "11(a)", "card_in_play": "3(a)", "card_count": "13(d)",
    "early_exposure": "13(a)", "showdown": "11(h)", "settle": "11(h)", "close": "11(i)",
    "void": "13", "irregularities": "13", "payout_limit": "12(e)",
}  # fmt: skip

def _still_in(seat: Seat) -> bool:
    return FLOP in seat.wagers  # § 563.11(c), (e): only a Flop Wager's player is asked

GAME = declare(
    Game(
        id="texas_hold_em_bonus_poker",
        name="Texas Hold 'Em Bonus Poker",
        rulesets=(PA_563_2010,),
        layout=Layout(
            seat_spots=("1", "2"), dealer_spots=("1", "2"), community_spots=BOARD, max_seats=6
        ),  # fmt: skip
        wagers=(
            WagerSpec(ANTE, "Ante Wager", "7(b)", required=True),
            WagerSpec(FLOP, "Flop Wager", "11(a)", amount=MultipleOf(ANTE, 2, 2), by_choice=True),
            WagerSpec(TURN, "Turn Wager", "11(c)", amount=EqualTo(ANTE), by_choice=True),
            WagerSpec(RIVER, "River Wager", "11(e)", amount=EqualTo(ANTE), by_choice=True),
            WagerSpec(BONUS, "Bonus Wager", "7(c)"),
        ),
        steps=(
            Wagering(),
            Deal(),
            Decide(
                "flop_decision",
                "11(a)",
                (Choice("bet", places=FLOP), Choice("fold", folds=True)),
                eligible=lambda seat: ANTE in seat.wagers,
            ),  # fmt: skip
            Deal("flop_deal", spots=BOARD[:3], burn=1, face_up=True),
            Decide(
                "turn_decision",
                "11(c)",
                (Choice("bet", places=TURN), Choice("check")),
                eligible=_still_in,
            ),  # fmt: skip
            Deal("turn_deal", spots=("TURN",), burn=1, face_up=True),
            Decide(
                "river_decision",
                "11(e)",
                (Choice("bet", places=RIVER), Choice("check")),
                eligible=_still_in,
            ),  # fmt: skip
            Deal("river_deal", spots=("RIVER",), burn=1, face_up=True),
            Reveal("dealer_reveal", "11(g)", ("1", "2")),
            Showdown("11(h)"),
        ),
        settle=settle,
        wager_rules=wager_rules,
        opening_check=_opening_check,
        void_settles=void_settles,
        options=(
            OptionSpec("ante_qualifier", "11(h)(2)", tuple(QUALIFIERS), "straight"),
            OptionSpec("unqualified_ante", "11(h)(2)", ("push", "lose"), "push"),
            OptionSpec("bonus_table", "12(c)", tuple(PAY_TABLES), "563.12(c) minimum"),
            OptionSpec("aces_supplement", "12(d)", (None, "replaces", "adds"), None),
            OptionSpec("dealer_exposure_window", "13(a)", ("river", "flop"), "river"),
            OptionSpec("tie_rule", "6(c)", ("conventional", "literal"), "conventional"),
        ),
        dealing={
            DealingMethod.MANUAL_SHOE: DealingSections("8(b)", "8(d)", "8(h)", "8(f)"),
            DealingMethod.HAND: DealingSections("9(a)(3)", "9(b)", "9(f)", "9(d)"),
            DealingMethod.AUTOMATED_SHOE: DealingSections("10(a)(2)", "10(b)", "10(f)", "10(d)"),
        },
        remedies=Remedies(
            face_up="13(b)",
            voids={
                IrregularityKind.INCORRECT_CARD_COUNT: ("13(d)", "a wrong number of cards"),
                IrregularityKind.DEALER_CARD_EXPOSED_EARLY: ("13(a)", "a dealer card shown early"),
                IrregularityKind.SHOE_MALFUNCTION: ("13(f)", "the automated dealing shoe failed"),
            },
            void_if={IrregularityKind.DEALER_CARD_EXPOSED_EARLY: _dealer_exposure_voids},
        ),  # fmt: skip
        sections=_SECTIONS,
    )
)
