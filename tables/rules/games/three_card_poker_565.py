"""Three Card Poker, Pennsylvania Chapter 565 (temporary, 40 Pa.B. 1196, 2010-03-06).

Ante and Play against a dealer who plays with queen high or better, Pair Plus
against a posted table, the Ante bonus (§ 565.12(e), or § 565.12(f) in the
§ 565.7(f) versions). Readings, each an option recorded in every settlement:

* ``ante_bonus_reading``: § 565.12(f) prints "Straight 1 to 1" once and the
  spades mini royal's "50 to 1" twice for three columns. Each plausible
  placement is a choice; there is no default, so a § 565.7(f) version cannot
  open a round until its rule set names one.
* ``fold_pair_plus``: § 565.11(b) forfeits Pair Plus on a fold only in the
  § 565.7(f) versions; in the base game it is ``settled`` on the player's cards
  ("regardless of ...", § 565.12(d)) unless the rule set says ``forfeited``.
* ``tie_rule``: § 565.6(c) read literally compares the highest card not in the
  other hand (2-2-A beats K-K-3), against § 565.6(b)(5)'s order of pairs;
  ``conventional`` (pair first) is the default.
>>> from tables.rules.cards import parse_cards
>>> hand_key(parse_cards("As Ks Qs")), hand_key(parse_cards("Qh 7c 2d"))
('MINI_ROYAL_SPADES', 'HIGH_CARD')
"""

from __future__ import annotations

import datetime
from collections.abc import Iterator, Sequence
from typing import cast

from tables.rules.cards import Card, Rank, Suit
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
    Reveal,
    Showdown,
    Wagering,
    WagerSpec,
)  # fmt: skip
from tables.rules.engine import Outcome, Refusal, SettlementLine, plain_line, win_line
from tables.rules.events import DealingMethod, IrregularityKind, WagerPlaced
from tables.rules.hands import ThreeCardCategory as T
from tables.rules.hands import evaluate_three
from tables.rules.irregularities import Remedies
from tables.rules.machine import RoundState, Seat, declare
from tables.rules.money import Odds

ANTE, PAIR_PLUS, PLAY, BONUS = "ANTE", "PAIR_PLUS", "PLAY", "ANTE_BONUS"
_O = Odds
Hand = tuple[Card, ...]

# Pay tables: (hand key, odds) best line first; a hand takes the first line it is on.
PAY_TABLES: dict[str, tuple[tuple[str, Odds], ...]] = {
    # § 565.12(d): the odds are "no less than" these; a Rules Submission may post more.
    "565.12(d) minimum": (("MINI_ROYAL", _O(35)), ("STRAIGHT_FLUSH", _O(35)),
                          ("THREE_OF_A_KIND", _O(25)), ("STRAIGHT", _O(5)), ("FLUSH", _O(3)),
                          ("PAIR", _O(1))),
    "1-4-6-30-40": (("STRAIGHT_FLUSH", _O(40)), ("THREE_OF_A_KIND", _O(30)),
                    ("STRAIGHT", _O(6)), ("FLUSH", _O(4)), ("PAIR", _O(1))),
    "1-3-6-30-40": (("STRAIGHT_FLUSH", _O(40)), ("THREE_OF_A_KIND", _O(30)),
                    ("STRAIGHT", _O(6)), ("FLUSH", _O(3)), ("PAIR", _O(1))),
}  # fmt: skip
PAIR_PLUS_MINIMUM = PAY_TABLES["565.12(d) minimum"]

_BASE_BONUS = (("STRAIGHT_FLUSH", _O(5)), ("THREE_OF_A_KIND", _O(4)), ("STRAIGHT", _O(1)))
_F_COLUMNS = {  # § 565.12(f) as far as every column is legible
    "A": (("MINI_ROYAL", _O(5)), ("STRAIGHT_FLUSH", _O(4)), ("THREE_OF_A_KIND", _O(3))),
    "B": (("MINI_ROYAL", _O(50)), ("STRAIGHT_FLUSH", _O(8)), ("THREE_OF_A_KIND", _O(6))),
    "C": (("MINI_ROYAL", _O(10)), ("STRAIGHT_FLUSH", _O(4)), ("THREE_OF_A_KIND", _O(3))),
}
# reading → (columns paying a straight 1 to 1, columns paying a spades mini royal 50 to 1)
READINGS = {
    "straight_A_spades_AB": ("A", "AB"),  # as printed: values fill the leftmost columns
    "straight_A_spades_AC": ("A", "AC"),
    "straight_ABC_spades_AB": ("ABC", "AB"),
    "straight_ABC_spades_AC": ("ABC", "AC"),  # the digest's plausible reading
}


def ante_bonus(table: str, reading: str | None) -> tuple[tuple[str, Odds], ...]:
    """The Ante bonus lines: § 565.12(e) for ``base``, else column ``table`` of § 565.12(f)."""
    if table == "base":
        return _BASE_BONUS
    assert reading is not None
    straight, spades = READINGS[reading]
    lines: tuple[tuple[str, Odds], ...] = _F_COLUMNS[table]
    if table in spades:
        lines = (("MINI_ROYAL_SPADES", _O(50)), *lines)
    if table in straight:
        lines = (*lines, ("STRAIGHT", _O(1)))
    return lines


def hand_key(cards: Sequence[Card]) -> str:
    """The pay-table key of three cards (the mini royals named apart, § 565.12(d), (f))."""
    hand = evaluate_three(cards)
    if hand.category is T.STRAIGHT_FLUSH and hand.ranks[0] is Rank.ACE:
        return "MINI_ROYAL_SPADES" if cards[0].suit is Suit.SPADES else "MINI_ROYAL"
    return hand.category.name


def _keys(key: str) -> tuple[str, ...]:
    """Every line a hand of ``key`` is on, most specific first."""
    return {"MINI_ROYAL_SPADES": ("MINI_ROYAL_SPADES", "MINI_ROYAL", "STRAIGHT_FLUSH"),
            "MINI_ROYAL": ("MINI_ROYAL", "STRAIGHT_FLUSH")}.get(key, (key,))  # fmt: skip


def pay(table: Sequence[tuple[str, Odds]], key: str) -> Odds | None:
    """The odds ``table`` pays a hand of ``key``, or ``None`` when the hand loses."""
    for name in _keys(key):
        for line, odds in table:
            if line == name:
                return odds
    return None


def qualifies(cards: Sequence[Card]) -> bool:
    """Queen high or better (§ 565.12(a)): a pair or better, or a queen or higher card."""
    hand = evaluate_three(cards)
    return hand.category is not T.HIGH_CARD or max(card.rank for card in cards) >= Rank.QUEEN


def compare(player: Sequence[Card], dealer: Sequence[Card], tie_rule: str = "conventional") -> int:
    """1 if the player's hand is higher, 0 for a tie, -1 if lower (§ 565.6(b)-(c))."""
    mine, theirs = evaluate_three(player), evaluate_three(dealer)
    if tie_rule == "literal" and mine.category is theirs.category:
        left = sorted((card.rank for card in player), reverse=True)
        right = sorted((card.rank for card in dealer), reverse=True)
        for rank in left[:]:
            if rank in right:
                left.remove(rank)
                right.remove(rank)
        if not left:
            return 0
        return 1 if max(left) > max(right) else -1
    return (mine > theirs) - (mine < theirs)


def _line(seat: Seat, wager: str, odds: Odds | None, state: RoundState, section: str,
          described: str, lose: str = "11(d)(2)") -> SettlementLine:  # fmt: skip
    if odds is None:
        return plain_line(seat, wager, Outcome.LOSE, state.section(lose), described)
    return win_line(seat=seat.seat, player=seat.player, wager=wager, stake_cents=seat.wagers[wager],
                    odds=odds, rounding=state.rounding, section=state.section(section),
                    hand=described, pay_line=None)  # fmt: skip


def _bonus(state: RoundState, seat: Seat, key: str, described: str) -> Iterator[SettlementLine]:
    table = state.options["ante_bonus_table"]
    odds = pay(ante_bonus(table, state.options["ante_bonus_reading"]), key)
    if odds is not None:
        section = "12(e)" if table == "base" else "12(f)"
        yield win_line(seat=seat.seat, player=seat.player, wager=BONUS,
                       stake_cents=seat.wagers[ANTE], odds=odds, rounding=state.rounding,
                       section=state.section(section), hand=described, pay_line=key)  # fmt: skip


def settle(state: RoundState, seat: Seat) -> Iterator[SettlementLine]:
    """One seat's lines; the engine orders them and settles voids."""
    section = state.section
    versioned = state.options["version"] != "base"
    if seat.abandoned:  # § 565.7(c): abandoned wagers are treated as losing
        yield from (plain_line(seat, w, Outcome.LOSE, section("7(c)")) for w in seat.wagers)
        return
    cards, dealer = cast(Hand, seat.cards), cast(Hand, state.dealer)
    hand = evaluate_three(cards)
    key, described = hand_key(cards), str(hand)
    if seat.folded_at is not None:
        yield plain_line(seat, ANTE, Outcome.FORFEITED, section("11(b)"), described)
        if PAIR_PLUS in seat.wagers:
            if versioned or state.options["fold_pair_plus"] == "forfeited":
                yield plain_line(seat, PAIR_PLUS, Outcome.FORFEITED, section("11(b)"), described)
            else:
                odds = pay(PAY_TABLES[state.options["pair_plus_table"]], key)
                yield _line(seat, PAIR_PLUS, odds, state, "12(d)", described)
        return
    if PAIR_PLUS in seat.wagers:
        odds = pay(PAY_TABLES[state.options["pair_plus_table"]], key)
        yield _line(seat, PAIR_PLUS, odds, state, "12(d)", described)
    if ANTE not in seat.wagers:
        return
    if not qualifies(dealer):
        yield _line(seat, ANTE, Odds(1), state, "12(a)", described)
        yield plain_line(seat, PLAY, Outcome.RETURNED, section("12(a)"), described)
    else:
        result = compare(cards, dealer, state.options["tie_rule"])
        for wager in (ANTE, PLAY):
            if result > 0:
                yield _line(seat, wager, Odds(1), state, "12(b)", described)
            elif result == 0:
                yield plain_line(seat, wager, Outcome.PUSH, section("12(c)"), described)
            else:
                yield plain_line(seat, wager, Outcome.LOSE, section("11(d)(2)"), described)
    yield from _bonus(state, seat, key, described)


def wager_rules(state: RoundState, seat: Seat, event: WagerPlaced) -> Refusal | None:
    """§ 565.7(f): in a version, the Ante comes first and bounds the Pair Plus Wager."""
    version = state.options["version"]
    if version == "base" or event.wager != PAIR_PLUS:
        return None
    ante, amount = seat.wagers.get(ANTE), event.amount_cents
    rule = {"f1": "an Ante at least equal to the Pair Plus Wager",
            "f2": "an Ante at least half the Pair Plus Wager",
            "f3": "Ante and Pair Plus within five times each other"}[version]  # fmt: skip
    ok = ante is not None and {
        "f1": lambda: ante >= amount, "f2": lambda: 2 * ante >= amount,
        "f3": lambda: amount <= 5 * ante and ante <= 5 * amount}[version]()  # fmt: skip
    return (
        None
        if ok
        else Refusal(state.section(f"7(f)({version[1]})"), f"requires {rule}", "amount_cents")
    )


def _opening_check(state: RoundState) -> None:
    from tables.rules.engine import RuleViolation

    options = state.options
    versioned = options["version"] != "base"
    if versioned != (options["ante_bonus_table"] != "base"):
        raise RuleViolation(state.section("12(f)"), "the § 565.7(f) versions, and only they, use "
                            "a table of § 565.12(f)", "options.ante_bonus_table")  # fmt: skip
    if versioned and options["ante_bonus_reading"] is None:
        raise RuleViolation(state.section("12(f)"), "§ 565.12(f) is garbled in our text: the rule "
                            "set must name a reading", "options.ante_bonus_reading")  # fmt: skip


PA_565_2010 = GameRuleSet(
    id="PA-565-2010", game="three_card_poker", jurisdiction="PA", chapter="565",
    effective_from=datetime.date(2010, 3, 6),
    notes=("Temporary chapter (40 Pa.B. 1196); no later text is in our sources, so it is read as "
           "in force until replaced.",),
)  # fmt: skip

_SECTIONS = {  # what the engine cites for its generic checks
    "seated": "7(c)", "wagers": "7(a)", "by_choice": "7(d)", "already_placed": "7(d)",
    "after_no_more_bets": "7(d)", "no_spot": "11(c)", "card_mismatch": "11(d)",
    "collect": "11(c)", "decisions": "11(b)", "card_in_play": "3(a)", "card_count": "13(c)",
    "early_exposure": "13(d)", "showdown": "11(d)", "settle": "11(d)", "close": "11(e)",
    "void": "13", "irregularities": "13"
}  # fmt: skip

GAME = declare(
    Game(
        id="three_card_poker",
        name="Three Card Poker",
        rulesets=(PA_565_2010,),
        layout=Layout(seat_spots=("1", "2", "3"), dealer_spots=("1", "2", "3"), max_seats=7),
        wagers=(
            WagerSpec(ANTE, "Ante Wager", "7(a)(1)"),
            WagerSpec(PLAY, "Play Wager", "11(b)", amount=EqualTo(ANTE), by_choice=True),
            WagerSpec(PAIR_PLUS, "Pair Plus Wager", "7(a)(2)"),
            WagerSpec(BONUS, "Ante bonus", "12(e)", by_choice=True, handle=False),
        ),
        steps=(
            Wagering(),
            Deal(),
            Decide(
                "play_decision",
                "11(b)",
                (Choice("play", places=PLAY), Choice("fold", folds=True)),
                eligible=lambda seat: ANTE in seat.wagers,
            ),
            Reveal("dealer_reveal", "11(c)", ("1", "2", "3")),
            Showdown("11(d)"),
        ),
        settle=settle,
        wager_rules=wager_rules,
        opening_check=_opening_check,
        options=(
            OptionSpec("version", "7(f)", ("base", "f1", "f2", "f3"), "base"),
            OptionSpec("pair_plus_table", "12(d)", tuple(PAY_TABLES), "565.12(d) minimum"),
            OptionSpec("ante_bonus_table", "12(f)", ("base", "A", "B", "C"), "base"),
            OptionSpec("ante_bonus_reading", "12(f)", (None, *READINGS), None),
            OptionSpec("fold_pair_plus", "11(b)", ("settled", "forfeited"), "settled"),
            OptionSpec("tie_rule", "6(c)", ("conventional", "literal"), "conventional"),
        ),
        dealing={
            DealingMethod.MANUAL_SHOE: DealingSections("8(b)", "8(d)", "8(h)", "8(e)"),
            DealingMethod.HAND: DealingSections("9(a)(3)", "9(b)", "9(f)", "9(c)"),
            DealingMethod.AUTOMATED_SHOE: DealingSections("10(a)", "10(b)", "10(f)", "10(c)"),
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
