"""Lunar Poker, Pennsylvania Chapter 589 (temporary, 43 Pa.B. 7087, 2013-12-07, to 2016-08-26).

Ante and a Bet of twice the Ante against a dealer who plays with ace-king or
better; first a player folds, bets, declares a royal or straight flush (paid
at once on the Ante, § 589.11(c)(1)) or pays an Options fee equal to the Ante
to buy a sixth card or exchange 2 to 5 cards (§ 589.11(b), (d)(2)). A dealer
who does not qualify may be forced, for another fee, to swap his highest card
(§ 589.11(e)(2)). The Super Wager is settled on the first five cards
(§ 589.11(c)(2)). Fees are ``fee`` wagers: collected, never handle, revenue.

Readings, each an option recorded in every settlement:

* ``super_reading``: § 589.12(b) pays "Ace-king" 6 (or 5) to 1, and § 589.6(d)(7)
  makes it any hand holding an ace and a king; read so (``literal``) the wager
  returns 148.8 % (table A), and 125.2 % when only the § 589.6(b)(10) hand
  (ace-king, nothing better) is meant (``ace_king_high``). Either way the table
  is defective; there is no default, so the Super is not offered until the
  rule set names a reading.
* ``fees_on_void``: § 589.13 returns "all wagers" on a void; a fee is not a
  wager (§ 589.1), so by default it is ``kept``; ``returned`` where the rule set says.

The second-combination payout (§ 589.11(e)(1)(ii)) pays the best-paying
combination of the player's cards (all six when bought) with a card outside
the winning combination, once.

>>> [step.name for step in GAME.steps][2:5]
['first_decision', 'draw', 'draw_decision']
"""

from __future__ import annotations

import datetime
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from tables.rules.cards import Card
from tables.rules.declaration import (
    Choice,
    Deal,
    DealingSections,
    Decide,
    Draw,
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
    fee_line,
    plain_line,
    win_line,
)  # fmt: skip
from tables.rules.events import DealingMethod, IrregularityKind, WagerPlaced
from tables.rules.games._lunar_hands import (
    BET_TABLE,
    INSTANT,
    SPOTS,
    SUPER_READINGS,
    SUPER_TABLES,
    dealer_hand,
    discards,
    hand_of,
    name,
    qualifies,
    second_combination,
    super_key,
    winning_combination,
)  # fmt: skip
from tables.rules.hands import FiveCardCategory as F
from tables.rules.hands import best_five_of, evaluate_five
from tables.rules.irregularities import Remedies
from tables.rules.machine import RoundState, Seat, complete, declare
from tables.rules.money import Odds, payout

ANTE, SUPER, BET, OPTIONS_FEE, FORCE_FEE = "ANTE", "SUPER", "BET", "OPTIONS_FEE", "FORCE_FEE"
FIRST, DRAWN, FORCE = "first_decision", "draw_decision", "force_decision"
_O = Odds

def drawn(state: RoundState, seat: Seat | None) -> int:
    """Cards a seat draws (§ 589.11(d)(2)(i)): one bought, or as many as it exchanged."""
    assert seat is not None
    choice = seat.choices.get(FIRST)
    return 1 if choice == "sixth_card" else len(discards(seat)) if choice == "exchange" else 0


def _forcing(state: RoundState, seat: Seat | None) -> int:
    return int(any(seat.choices.get(FORCE) == "force" for seat in state.seats.values()))


def _showdown(state: RoundState, seat: Seat, dealer: Sequence[Card],
              sub: str) -> Iterator[SettlementLine]:  # fmt: skip
    section, cards = state.section, hand_of(seat)
    mine, theirs = best_five_of(cards), best_five_of(dealer)
    described = name(cards)
    if mine < theirs:
        yield from (plain_line(seat, w, Outcome.LOSE, section(f"{sub}(i)"), described)
                    for w in (ANTE, BET))  # fmt: skip
    elif mine == theirs:
        yield from (plain_line(seat, w, Outcome.PUSH, section(f"{sub}(iii)"), described)
                    for w in (ANTE, BET))  # fmt: skip
    else:
        yield plain_line(seat, ANTE, Outcome.RETURNED, section(f"{sub}(ii)"), described)
        category, winning = winning_combination(cards)
        second = second_combination(cards, winning)
        stake, odds = seat.wagers[BET], BET_TABLE[category]
        amount = payout(stake, odds, state.rounding)
        paid, lines = f"{odds}", category.name
        if second is not None:
            amount += payout(stake, BET_TABLE[second], state.rounding)
            paid, lines = f"{odds} + {BET_TABLE[second]}", f"{lines} + {second.name}"
        yield SettlementLine(seat=seat.seat, player=seat.player, wager=BET, stake_cents=stake,
                             outcome=Outcome.WIN, amount_cents=amount,
                             section=f"{section(sub + '(ii)')}; {section('12(c)')}",
                             hand=described, pay_line=lines, odds=paid,
                             uncapped_cents=amount)  # fmt: skip


def settle(state: RoundState, seat: Seat) -> Iterator[SettlementLine]:
    """One seat's lines (§ 589.11(c)-(e), § 589.12); the engine orders them."""
    section, options, wagers = state.section, state.options, seat.wagers
    for fee, where in ((OPTIONS_FEE, "11(d)(2)(i)"), (FORCE_FEE, "11(e)(2)(ii)")):
        if fee in wagers:
            yield fee_line(seat, fee, section(where))
    if seat.abandoned:  # § 589.7(b): abandoned wagers may be treated as losing
        yield from (plain_line(seat, w, Outcome.LOSE, section("7(b)")) for w in wagers
                    if w not in (OPTIONS_FEE, FORCE_FEE))  # fmt: skip
        return
    five = tuple(card for card in seat.cards[:5] if card is not None)
    if SUPER in wagers:
        key = super_key(five, options["super_reading"])
        odds = None if key is None else SUPER_TABLES[options["super_table"]][key]
        yield (plain_line(seat, SUPER, Outcome.LOSE, section("11(c)(2)(i)"), name(five))
               if odds is None else
               win_line(seat=seat.seat, player=seat.player, wager=SUPER, stake_cents=wagers[SUPER],
                        odds=odds, rounding=state.rounding, section=section("12(b)"),
                        hand=name(five), pay_line=key))  # fmt: skip
    first = seat.choices.get(FIRST)
    if ANTE not in wagers or (first != "declare" and seat.active and not complete(state)):
        return
    if first == "declare":  # § 589.11(c)(1): paid at once on the Ante; the hand ends
        royal = evaluate_five(five).category is F.ROYAL_FLUSH
        yield win_line(seat=seat.seat, player=seat.player, wager=ANTE, stake_cents=wagers[ANTE],
                       odds=INSTANT[options["instant_table"]][0 if royal else 1],
                       rounding=state.rounding, section=section("12(a)"), hand=name(five),
                       pay_line="ROYAL_FLUSH" if royal else "STRAIGHT_FLUSH")  # fmt: skip
        return
    if seat.folded_at is not None:
        where = "11(d)(1)" if seat.folded_at == FIRST else "11(d)(2)(iv)"
        yield plain_line(seat, ANTE, Outcome.FORFEITED, section(where), name(hand_of(seat)))
        return
    dealer = tuple(card for card in state.dealer[:5] if card is not None)
    if qualifies(dealer):
        yield from _showdown(state, seat, dealer, "11(e)(1)")
    elif seat.choices.get(FORCE) != "force":
        yield win_line(seat=seat.seat, player=seat.player, wager=ANTE, stake_cents=wagers[ANTE],
                       odds=_O(1), rounding=state.rounding, section=section("12(d)"),
                       hand=name(hand_of(seat)), pay_line=None)  # fmt: skip
        yield plain_line(seat, BET, Outcome.RETURNED, section("11(e)(2)(i)"))
    elif not qualifies(dealer_hand(state)):
        yield from (plain_line(seat, w, Outcome.RETURNED, section("11(e)(2)(ii)(A)"))
                    for w in (ANTE, BET))  # fmt: skip
    else:
        yield from _showdown(state, seat, dealer_hand(state), "11(e)(2)(ii)(B)")


def _first_rules(state: RoundState, seat: Seat, choice: str,
                 params: Mapping[str, Any]) -> Refusal | None:  # fmt: skip
    """§ 589.11(b): a royal or straight flush is declared, never bet; an exchange is 2-5 cards."""
    five = [card for card in seat.cards[:5] if card is not None]
    flush = evaluate_five(five).category >= F.STRAIGHT_FLUSH
    if choice == "bet" and flush:
        return Refusal(state.section("11(b)(2)"), "a royal or straight flush is declared, "
                       "not bet", "choice")  # fmt: skip
    if choice == "declare" and not flush:
        return Refusal(state.section("11(b)(2)"), "only a royal or straight flush is declared",
                       "choice")  # fmt: skip
    out = discards(seat._replace(params=params))
    if choice == "exchange" and not (2 <= len(out) <= 5 and len(set(out)) == len(out)
                                     and set(out) <= set(SPOTS)):  # fmt: skip
        return Refusal(state.section("11(b)(3)"), "name 2 to 5 of the cards 1-5 to exchange "
                       '(params.discard, "1,3")', "params")  # fmt: skip
    return None


def settled_early(state: RoundState, seat: Seat) -> tuple[str, ...]:
    """§ 589.11(c): once "all decisions are locked in", the instant payout and the Super."""
    first = seat.choices.get(FIRST)
    if first is None or state.phase == FIRST:
        return ()
    return (ANTE, SUPER) if first == "declare" else (SUPER,)


def _one_position(state: RoundState, seat: Seat, event: WagerPlaced) -> Refusal | None:
    """§ 589.7(e): a player may not wager on more than one position."""
    if any(other.player == seat.player and other.seat != seat.seat and other.wagers
           for other in state.seats.values()):  # fmt: skip
        return Refusal(state.section("7(e)"), f"{seat.player} wagers at another position", "seat")
    return None


def _opening_check(state: RoundState) -> None:
    if state.options["super_offered"] and state.options["super_reading"] is None:
        raise RuleViolation(state.section("12(b)"), "§ 589.12(b) is defective in our text: the "
                            "rule set must name a reading to offer the Super Wager",
                            "options.super_reading")  # fmt: skip


PA_589_2013 = GameRuleSet(
    id="PA-589-2013", game="lunar_poker", jurisdiction="PA", chapter="589",
    effective_from=datetime.date(2013, 12, 7), effective_to=datetime.date(2016, 8, 26),
    notes=("Temporary chapter (43 Pa.B. 7087), rescinded by 46 Pa.B. 5540 from 2016-08-27.",),
)  # fmt: skip

_SECTIONS = {  # what the engine cites for its generic checks
    "seated": "7(b)", "wagers": "7(c)", "by_choice": "7(d)", "already_placed": "7(d)",
    "after_no_more_bets": "7(d)", "no_spot": "11(e)", "card_mismatch": "11(f)",
    "collect": "11(d)", "decisions": "11(b)", "card_in_play": "3(a)", "card_count": "13(c)",
    "early_exposure": "13(d)", "showdown": "11(e)", "settle": "11(e)", "close": "11(f)",
    "void": "13", "irregularities": "13",
}  # fmt: skip
_FEE = EqualTo(ANTE)

GAME = declare(
    Game(
        id="lunar_poker",
        name="Lunar Poker",
        rulesets=(PA_589_2013,),
        layout=Layout(seat_spots=SPOTS, dealer_spots=SPOTS, max_seats=5,
                      seat_draw_spots=("6", "7", "8", "9", "10"), dealer_draw_spots=("6",)),
        wagers=(
            WagerSpec(ANTE, "Ante Wager", "7(c)(1)"),
            WagerSpec(BET, "Bet Wager", "11(b)(2)", amount=MultipleOf(ANTE, 2, 2),
                      by_choice=True),
            WagerSpec(SUPER, "Super Wager", "7(c)(2)",
                      offered=lambda state: bool(state.options["super_offered"])),
            WagerSpec(OPTIONS_FEE, "Options fee (draw)", "11(b)(3)", amount=_FEE, by_choice=True,
                      handle=False, fee=True,
                      fee_returned_on_void=lambda s: s.options["fees_on_void"] == "returned"),
            WagerSpec(FORCE_FEE, "Options fee (force the dealer)", "11(e)(2)(ii)", amount=_FEE,
                      by_choice=True, handle=False, fee=True,
                      fee_returned_on_void=lambda s: s.options["fees_on_void"] == "returned"),
        ),  # fmt: skip
        steps=(
            Wagering(),
            Deal(),
            Decide(FIRST, "11(b)", (
                Choice("bet", places=BET), Choice("fold", folds=True),
                Choice("sixth_card", places=OPTIONS_FEE), Choice("exchange", places=OPTIONS_FEE),
                Choice("declare", folds=True)),
                eligible=lambda seat: ANTE in seat.wagers, rules=_first_rules),  # fmt: skip
            Draw("draw", "11(d)(2)", drawn),
            Decide(DRAWN, "11(d)(2)(iii)", (Choice("bet", places=BET), Choice("fold", folds=True)),
                   eligible=lambda seat: seat.choices.get(FIRST) in ("sixth_card", "exchange")),
            Reveal("dealer_reveal", "11(e)", SPOTS[:4]),  # the fifth is dealt face up (8(c))
            Decide(FORCE, "11(e)(2)", (Choice("force", places=FORCE_FEE), Choice("no_force")),
                   eligible=lambda seat: BET in seat.wagers,
                   when=lambda state: not qualifies([c for c in state.dealer[:5] if c])),
            Draw("dealer_draw", "11(e)(2)(ii)", _forcing, dealer=True),
            Showdown("11(e)"),
        ),  # fmt: skip
        settle=settle,
        opening_check=_opening_check,
        wager_rules=_one_position,
        settled_early=settled_early,
        participates=lambda seat: ANTE in seat.wagers,
        options=(
            OptionSpec("super_offered", "2(b)(4)", (False, True), False, recorded=False),
            OptionSpec("super_table", "12(b)", tuple(SUPER_TABLES), "A"),
            OptionSpec("super_reading", "12(b)", (None, *SUPER_READINGS), None),
            OptionSpec("instant_table", "12(a)", tuple(INSTANT), "A"),
            OptionSpec("fees_on_void", "13", ("kept", "returned"), "kept"),
        ),
        dealing={
            DealingMethod.MANUAL_SHOE: DealingSections("8(b)", "8(c)", "11(g)(2)", "11(g)"),
            DealingMethod.HAND: DealingSections("9(a)(3)", "9(b)", "11(g)(2)", "11(g)"),
            DealingMethod.AUTOMATED_SHOE: DealingSections("10(a)(2)", "10(b)", "11(g)(2)", "11(g)"),
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
