"""Raise It Up Stud Poker, Pennsylvania Chapter 587 (temporary; compilation of 2014-10-25).

An Ante and an equal Blind (§ 587.7(d)(1)); three cards to each player and three
community cards face down (§ 587.8(d)); one Play Wager, placed at one of three
decisions: 1, 2 or 3 times the Ante before 4th Street (§ 587.11(b)), 1 or 2
times before 5th Street (§ 587.11(d)), once the Ante or a fold before sixth
Street (§ 587.11(f)). A player who has placed it is no longer asked ("remaining
players", § 587.11(e), (h)). Each Play Wager name is the decision it was
placed at. The best five of the player's three and the community's three
cards pays the Ante, Play and Blind from a pair of 10s (§ 587.11(i)(2),
§ 587.12(b)-(d)); there is no dealer hand.

Optional wagers, each an option: ``pair_plus_table`` (§ 587.12(a), ``None``: not
offered, since a table must be chosen to offer it), ``six_card_bonus_table``
(§ 587.12(f)) and ``progressive_offered`` (§ 587.7(d)(4)). The Progressive
Payout Wager is taken at "no more bets" (§ 587.8(b)); its "for 1" lines are
paid by the dealer as ``PROGRESSIVE_PAYOUT``, its whole-meter line off the table
(§ 587.11(i)(3)(i)(D)) through the meter (:func:`progressive_hits`), and Envy
Bonuses (:func:`~tables.rules.progressives.envy.settle_envy_587`) as
``PROGRESSIVE_ENVY``. Its amount is $1 or $5, the only wagers § 587.12(e)(5)
schedules an Envy Bonus for.

Readings, each an option recorded in settlements:

* ``folded_pair_plus``: § 587.11(f) discards a folded hand unless it carries a
  Progressive or Six Card Bonus Wager and § 587.11(g) forfeits no Pair Plus:
  ``settled`` (default, as § 587.11(i)(1) reads) or ``lost``.
* ``ace_low_three_card_straight``: § 587.6(a) lets an ace be low only "with a 2,
  3, 4 and 5"; A-2-3 is therefore no three-card straight (default ``False``).

>>> from tables.rules.cards import parse_cards
>>> main_key(parse_cards("Th Tc 4s 8d 2c 5h")), three_card_key(parse_cards("Ah 2c 3d"), False)
('PAIR_OF_TENS_OR_BETTER', None)
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Iterator
from typing import cast

from tables.rules.cards import Card
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
from tables.rules.engine import Outcome, Refusal, SettlementLine, plain_line, win_line
from tables.rules.events import DealingMethod, IrregularityKind, WagerPlaced
from tables.rules.games._raise_it_up import (
    ANTE,
    BLIND,
    BLIND_TABLE,
    COMMUNITY,
    ENVY,
    PAIR_PLUS,
    PAIR_PLUS_TABLES,
    PLAY_TABLE,
    PLAYS,
    PROGRESSIVE,
    PROGRESSIVE_AMOUNTS,
    PROGRESSIVE_PAYOUT,
    SIX_CARD,
    SIX_CARD_TABLES,
    main_key,
    progressive_key,
    three_card_key,
)
from tables.rules.games._shared import other_position
from tables.rules.hands import best_five_of, evaluate_three
from tables.rules.irregularities import Remedies
from tables.rules.machine import RoundState, Seat, complete, declare
from tables.rules.money import Fixed, Odds
from tables.rules.progressives.chapters import RAISE_IT_UP_587, ForOne
from tables.rules.progressives.envy import EnvySeat587, envy_hand_587, settle_envy_587


def _cards(seat: Seat) -> tuple[Card, ...]:
    return cast(tuple[Card, ...], seat.cards)


def _on_table(seat: Seat) -> bool:
    """A folded hand stays on the table only with a Progressive or Six Card Bonus (§ 587.11(f))."""
    kept = seat.folded_at is None or PROGRESSIVE in seat.wagers or SIX_CARD in seat.wagers
    return kept and not seat.abandoned and None not in seat.cards


def progressive_hits(state: RoundState) -> tuple[tuple[int, str], ...]:
    """``(seat, hand)`` of each hit paid 100 % of the meter, off the table
    (§ 587.11(i)(3)(i)(D)), in payment order: from the dealer's right (§ 587.11(i)).
    A folded player forfeits the wager (§ 587.11(g)); a void round returns it."""
    if state.void_section is not None:
        return ()
    hits = []
    for number in sorted(state.seats, reverse=True):
        seat = state.seats[number]
        if PROGRESSIVE not in seat.wagers or seat.folded_at is not None or not _on_table(seat):
            continue
        key = progressive_key(_cards(seat), state.options["ace_low_three_card_straight"])
        if key is not None and RAISE_IT_UP_587.schedule_line(key).from_meter:
            hits.append((number, key))
    return tuple(hits)


def _win(state: RoundState, seat: Seat, wager: str, odds: Odds | Fixed, section: str,
         described: str, key: str | None, stake: str | None = None) -> SettlementLine:  # fmt: skip
    return win_line(seat=seat.seat, player=seat.player, wager=wager,
                    stake_cents=seat.wagers[stake or wager], odds=odds, rounding=state.rounding,
                    section=state.section(section), hand=described, pay_line=key)  # fmt: skip


def _table_pays(state: RoundState, seat: Seat, wager: str, odds: Odds | None, section: str,
                described: str, key: str | None) -> SettlementLine:  # fmt: skip
    if odds is None:
        return plain_line(seat, wager, Outcome.LOSE, state.section(section), described)
    return _win(state, seat, wager, odds, section, described, key)


def _envy(state: RoundState, seat: Seat) -> Iterator[SettlementLine]:
    """§ 587.11(i)(3)(i)(E), § 587.11(g): folded or not, for other players' hands."""
    seats = [EnvySeat587(seat=number, progressive_cents=other.wagers.get(PROGRESSIVE, 0),
                         hand=envy_hand_587(_cards(other)) if _on_table(other) else None)
             for number, other in state.seats.items() if other.participating]  # fmt: skip
    mine = [line for line in settle_envy_587(seats).lines if line.seat == seat.seat]
    if mine:
        yield _win(state, seat, ENVY, Fixed(sum(line.amount_cents for line in mine)),
                   "12(e)(5)", ", ".join(f"{line.hand} at seat {line.for_seat}" for line in mine),
                   None, PROGRESSIVE)  # fmt: skip


def settle(state: RoundState, seat: Seat) -> Iterator[SettlementLine]:
    """One seat's lines in § 587.11(i)'s order: Pair Plus; Ante, Blind and Play; then the
    Progressive Payout with its Envy Bonuses and the Six Card Bonus."""
    section, options = state.section, state.options
    if seat.abandoned:  # § 587.7(b): abandoned wagers may be treated as losing
        yield from (plain_line(seat, w, Outcome.LOSE, section("7(b)")) for w in seat.wagers
                    if w != PROGRESSIVE)  # fmt: skip
        return
    final = complete(state)
    if seat.folded_at is not None:  # § 587.11(f): Ante and Blind collected at once
        yield from (plain_line(seat, w, Outcome.FORFEITED, section("11(f)")) for w in (ANTE, BLIND))
    if not final:
        return
    cards, ace_low = _cards(seat), options["ace_low_three_card_straight"]
    if PAIR_PLUS in seat.wagers:
        if seat.folded_at is not None and options["folded_pair_plus"] == "lost":
            yield plain_line(seat, PAIR_PLUS, Outcome.LOSE, section("11(f)"), "folded")
        else:
            key = three_card_key(cards, ace_low)
            odds = PAIR_PLUS_TABLES[options["pair_plus_table"]].get(key or "")
            yield _table_pays(state, seat, PAIR_PLUS, odds, "12(a)", str(evaluate_three(cards)),
                              key)  # fmt: skip
    six = (*cards, *cast(tuple[Card, ...], state.community))
    described = str(best_five_of(six))
    if seat.folded_at is None:
        key = main_key(six)
        play = next(wager for wager in PLAYS if wager in seat.wagers)
        if key is None:  # § 587.11(i)(2)(i)
            yield from (plain_line(seat, w, Outcome.LOSE, section("11(i)(2)(i)"), described)
                        for w in (ANTE, BLIND, play))  # fmt: skip
        else:  # § 587.11(i)(2)(ii)
            yield _win(state, seat, ANTE, Odds(1), "12(b)", described, key)
            yield _win(state, seat, play, PLAY_TABLE[key], "12(c)", described, key)
            blind = BLIND_TABLE.get(key)
            yield (plain_line(seat, BLIND, Outcome.PUSH, section("12(d)"), described)
                   if blind is None else _win(state, seat, BLIND, blind, "12(d)", described, key))
        progressive = progressive_key(cards, ace_low) if PROGRESSIVE in seat.wagers else None
        pays = progressive and RAISE_IT_UP_587.schedule_line(progressive).pays
        if isinstance(pays, ForOne):  # the stake was taken at "no more bets" (§ 587.8(b))
            yield _win(state, seat, PROGRESSIVE_PAYOUT, Fixed(pays.on(seat.wagers[PROGRESSIVE])),
                       "12(e)(1)", progressive or "", progressive, PROGRESSIVE)  # fmt: skip
    if PROGRESSIVE in seat.wagers:
        yield from _envy(state, seat)
    if SIX_CARD in seat.wagers:  # § 587.11(g): still settled for a folded player
        key = main_key(six)
        odds = SIX_CARD_TABLES[options["six_card_bonus_table"]].get(key or "")
        yield _table_pays(state, seat, SIX_CARD, odds, "12(f)", described, key)


def wager_rules(state: RoundState, seat: Seat, event: WagerPlaced) -> Refusal | None:
    """§ 587.7(e): one position a player; § 587.7(d)(4): the Progressive Payout Wager
    after the Ante and Blind, of $1 or $5 (§ 587.12(e)(5))."""
    if other_position(state, seat) is not None:
        return Refusal(state.section("7(e)"), "a player may not wager on more than one player "
                       "position", "seat")  # fmt: skip
    if event.wager != PROGRESSIVE:
        return None
    if ANTE not in seat.wagers or BLIND not in seat.wagers:
        return Refusal(state.section("7(d)(4)"), "the Progressive Payout Wager follows the Ante "
                       "and Blind Wagers", "wager")  # fmt: skip
    if event.amount_cents not in PROGRESSIVE_AMOUNTS:
        return Refusal(state.section("12(e)(5)"), "a Progressive Payout Wager is $1 or $5, the "
                       "wagers the Envy Bonus schedules name", "amount_cents")  # fmt: skip
    return None


PA_587_2014 = GameRuleSet(
    id="PA-587-2014", game="raise_it_up_stud_poker", jurisdiction="PA", chapter="587",
    effective_from=datetime.date(2014, 10, 25), max_seats=6,
    notes=("Temporary chapter, compilation current as of 2014-10-25; read as in force until "
           "replaced.",
           "The progressive's rate (at least 14 %) and reset amount (at least $1,000) are the "
           "meter's configuration (587.12(e)(3)), effective-dated in its own stream.",
           "587.8(h), 587.9(f), 587.10(f) say a player has '2 cards'; each is dealt 3."),
)  # fmt: skip

_SECTIONS = {  # what the engine cites for its generic checks
    "seated": "7(b)", "wagers": "7(a)", "by_choice": "7(c)", "already_placed": "7(c)",
    "after_no_more_bets": "7(c)", "no_spot": "11(i)", "card_mismatch": "11(i)",
    "collect": "11(i)(2)(i)", "decisions": "11(b)", "card_in_play": "3(a)",
    "card_count": "13(c)", "early_exposure": "13(d)", "showdown": "11(i)", "settle": "11(i)",
    "close": "11(j)", "void": "13", "irregularities": "13",
}  # fmt: skip


def _undecided(seat: Seat) -> bool:
    return ANTE in seat.wagers and not any(play in seat.wagers for play in PLAYS)


def _offered(name: str) -> Callable[[RoundState], bool]:
    return lambda state: state.options[name] not in (None, False)


GAME = declare(
    Game(
        id="raise_it_up_stud_poker",
        name="Raise It Up Stud Poker",
        rulesets=(PA_587_2014,),
        layout=Layout(seat_spots=("1", "2", "3"), community_spots=COMMUNITY, max_seats=6),
        wagers=(
            WagerSpec(ANTE, "Ante Wager", "7(d)(1)", required=True),
            WagerSpec(BLIND, "Blind Wager", "7(d)(1)", amount=EqualTo(ANTE), required=True),
            WagerSpec(PLAYS[0], "Play Wager (before 4th Street)", "11(b)",
                      amount=MultipleOf(ANTE, 1, 3, whole=True), by_choice=True),
            WagerSpec(PLAYS[1], "Play Wager (before 5th Street)", "11(d)",
                      amount=MultipleOf(ANTE, 1, 2, whole=True), by_choice=True),
            WagerSpec(PLAYS[2], "Play Wager (before sixth Street)", "11(f)",
                      amount=EqualTo(ANTE), by_choice=True),
            WagerSpec(PAIR_PLUS, "Pair Plus Wager", "7(d)(3)", offered=_offered("pair_plus_table")),
            WagerSpec(PROGRESSIVE, "Progressive Payout Wager", "7(d)(4)", closes="2(c)(2)",
                      offered=_offered("progressive_offered"), taken="8(b)"),
            WagerSpec(SIX_CARD, "Six Card Bonus Wager", "7(d)(5)",
                      offered=_offered("six_card_bonus_table")),
            WagerSpec(PROGRESSIVE_PAYOUT, "Progressive payout", "12(e)(1)", by_choice=True,
                      handle=False),
            WagerSpec(ENVY, "Envy Bonus", "12(e)(5)", by_choice=True, handle=False),
        ),  # fmt: skip
        steps=(
            Wagering(),
            Deal(order=("seats", "community")),
            Decide("first_decision", "11(b)", (Choice("check"), Choice("play", places=PLAYS[0])),
                   eligible=_undecided),
            Reveal("fourth_street", "11(c)", COMMUNITY[:1], dealer=False),
            Decide("second_decision", "11(d)", (Choice("check"), Choice("play", places=PLAYS[1])),
                   eligible=_undecided),
            Reveal("fifth_street", "11(e)", COMMUNITY[1:2], dealer=False),
            Decide("third_decision", "11(f)", (Choice("play", places=PLAYS[2]),
                                               Choice("fold", folds=True)), eligible=_undecided),
            Reveal("sixth_street", "11(h)", COMMUNITY[2:], dealer=False),
            Showdown("11(i)"),
        ),  # fmt: skip
        settle=settle,
        wager_rules=wager_rules,
        participates=lambda seat: ANTE in seat.wagers and BLIND in seat.wagers,
        options=(
            OptionSpec("pair_plus_table", "12(a)", (None, *PAIR_PLUS_TABLES), None),
            OptionSpec("six_card_bonus_table", "12(f)", (None, *SIX_CARD_TABLES), None),
            OptionSpec("progressive_offered", "7(d)(4)", (False, True), False),
            OptionSpec("folded_pair_plus", "11(f)", ("settled", "lost"), "settled"),
            OptionSpec("ace_low_three_card_straight", "6(a)", (False, True), False),
        ),  # fmt: skip
        dealing={
            DealingMethod.MANUAL_SHOE: DealingSections("8(b)", "8(d)", "8(h)", "8(f)"),
            DealingMethod.HAND: DealingSections("9(a)(3)", "9(b)", "9(f)", "9(d)"),
            DealingMethod.AUTOMATED_SHOE: DealingSections("10(a)(2)", "10(b)", "10(f)", "10(d)"),
        },
        remedies=Remedies(
            face_up="13(a)",
            voids={
                IrregularityKind.INCORRECT_CARD_COUNT: ("13(c)", "a wrong number of cards"),
                IrregularityKind.COMMUNITY_CARD_EXPOSED_EARLY: ("13(d)",
                                                                "a community card shown early"),
                IrregularityKind.SHOE_MALFUNCTION: ("13(f)", "the automated dealing shoe failed"),
            },
        ),  # fmt: skip
        sections=_SECTIONS,
    )
)
