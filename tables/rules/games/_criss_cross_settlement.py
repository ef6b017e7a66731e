"""Criss-Cross Poker hands and settlement lines (Chapters 592 and 674a, § .11(h), § .12).

The cross: five community boxes; the Across Hand is a seat's two cards with
ROW_1, CENTER and ROW_3, the Down Hand its two cards with TOP, CENTER and
BOTTOM (§ .1). Each wager settled on a hand is looked up in the rule set's pay
table; the licensee's pair-of-10s option resolves a hand on two lines (§ .12(b)).

>>> [position.value for position in ACROSS_LINE]
['ROW_1', 'CENTER', 'ROW_3']
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tables.rules.engine import Outcome, SettlementLine, plain_line
from tables.rules.events import Position, Wager
from tables.rules.hands import FiveCardHand, evaluate_five
from tables.rules.rulesets import PairOfTensMiddleBets, PayLine
from tables.rules.settlement import describe_cards, pay_table_line

__all__ = [
    "POSITIONS",
    "INDEX",
    "ACROSS_LINE",
    "DOWN_LINE",
    "SETTLEMENT_ORDER",
    "across_hand",
    "down_hand",
    "seat_lines",
]

POSITIONS: tuple[Position, ...] = (
    Position.TOP,
    Position.ROW_1,
    Position.CENTER,
    Position.ROW_3,
    Position.BOTTOM,
)
INDEX = {position: index for index, position in enumerate(POSITIONS)}
ACROSS_LINE = (Position.ROW_1, Position.CENTER, Position.ROW_3)
DOWN_LINE = (Position.TOP, Position.CENTER, Position.BOTTOM)
_ACROSS_INDEXES = tuple(INDEX[position] for position in ACROSS_LINE)
_DOWN_INDEXES = tuple(INDEX[position] for position in DOWN_LINE)
# § .11(h)(1)-(5): the order of a seat's wagers at settlement.
SETTLEMENT_ORDER = (
    Wager.ANTE_ACROSS,
    Wager.ACROSS_BET,
    Wager.ANTE_DOWN,
    Wager.DOWN_BET,
    Wager.MIDDLE_BET,
    Wager.FIVE_CARD_BONUS,
)


def _hand(state: Any, seat: Any, line: tuple[Position, ...]) -> FiveCardHand:
    cards = [*seat.cards, *(state.community[INDEX[position]] for position in line)]
    return evaluate_five(cards)


def across_hand(state: Any, seat: int) -> FiveCardHand:
    """The Across Hand of ``seat``: two cards plus ROW_1, CENTER, ROW_3 (§ .1)."""
    return _hand(state, state.seats[seat], ACROSS_LINE)


def down_hand(state: Any, seat: int) -> FiveCardHand:
    """The Down Hand of ``seat``: two cards plus TOP, CENTER, BOTTOM (§ .1)."""
    return _hand(state, state.seats[seat], DOWN_LINE)


def _describe(cards: object, hand: FiveCardHand) -> str:
    return describe_cards(cards, hand.category.name)  # type: ignore[arg-type]


def _table_line(
    state: Any,
    seat: Any,
    wager: Wager,
    hand: FiveCardHand,
    described: str,
    table_section: str,
    lose_section: str,
    win_section: str,
    table: tuple[PayLine, ...],
) -> SettlementLine:
    choice = state.options["pair_of_tens_middle_bets"] or PairOfTensMiddleBets.PUSH
    category = hand.category
    return pay_table_line(
        seat,
        wager,
        category=category,
        pair_rank=None if hand.pair_rank is None else int(hand.pair_rank),
        described=described,
        table=table,
        rounding=state.rounding,
        table_section=table_section,
        lose_section=lose_section,
        win_section=win_section,
        conflict_push=choice is PairOfTensMiddleBets.PUSH,
        conflict_option=_CONFLICT_OPTIONS[choice],
    )


_CONFLICT_OPTIONS = {
    choice: f"pair_of_tens_middle_bets={choice}" for choice in PairOfTensMiddleBets
}


def _simple(
    seat: Any, wager: Wager, outcome: Outcome, section: str, note: str | None = None
) -> SettlementLine:
    return plain_line(seat, wager, outcome, section, notes=(note,) if note else ())


# § .11(h)(1)-(2) and § .12(a)-(b): each wager settled on a hand, the hand's line,
# and the sections of its pay table, of losing and of winning; the rule set's table.
_HAND_WAGERS = (
    (Wager.ANTE_ACROSS, ACROSS_LINE, "12(a)", "11(h)(1)(i)", "11(h)(1)(ii)", "ante_table"),
    (Wager.ACROSS_BET, ACROSS_LINE, "12(b)", "11(h)(1)(i)", "11(h)(1)(ii)", "bet_table"),
    (Wager.ANTE_DOWN, DOWN_LINE, "12(a)", "11(h)(2)(i)", "11(h)(2)(ii)", "ante_table"),
    (Wager.DOWN_BET, DOWN_LINE, "12(b)", "11(h)(2)(i)", "11(h)(2)(ii)", "bet_table"),
)


def _sections(ruleset: Any) -> Mapping[str, str]:
    """Every section number settlement cites, as cited by ``ruleset``."""
    cached = _SECTIONS.get(id(ruleset))
    if cached is None or cached[0] is not ruleset:
        cited = {number: ruleset.section(number) for number in _CITED}
        cached = (ruleset, _LazySections(ruleset, cited))
        _SECTIONS[id(ruleset)] = cached
    return cached[1]


class _LazySections(dict[str, str]):
    """Section texts by number; a number not cited before is asked of the rule set."""

    def __init__(self, ruleset: Any, cited: Mapping[str, str]) -> None:
        super().__init__(cited)
        self._ruleset = ruleset

    def __missing__(self, number: str) -> str:
        text: str = self._ruleset.section(number)
        self[number] = text
        return text


# Section numbers seat_lines cites (others are cited through __missing__).
_CITED: tuple[str, ...] = ("7(b)", "7(d)", "11(b)", "11(d)", "11(f)", "12(a)", "12(b)", "12(c)")
_CITED += ("11(h)(3)", "11(h)(4)", "11(h)(5)", "11(h)(1)(i)", "11(h)(1)(ii)", "11(h)(2)(i)")
_CITED += ("11(h)(2)(ii)",)
# Rule-set section texts by the rule set's identity (the entry keeps it alive).
_SECTIONS: dict[int, tuple[Any, Mapping[str, str]]] = {}
# The Five Card Bonus hand of the last board settled: the board is the same
# tuple for every seat of a round, so it is evaluated once per settlement.
# (One entry, replaced whole, so that threads never see half of one.)
_LAST_BOARD: list[tuple[Any, Any]] = [(None, None)]


def _board_hand(board: tuple[Any, ...]) -> tuple[FiveCardHand, str]:
    """The Five Card Bonus hand of ``board`` and its description."""
    last_board, result = _LAST_BOARD[0]
    if last_board is board:
        return result  # type: ignore[no-any-return]
    bonus = evaluate_five(board)
    result = (bonus, _describe(board, bonus))
    _LAST_BOARD[0] = (board, result)
    return result


def seat_lines(
    state: Any,
    seat: Any,
    *,
    complete: bool,
    dealt: bool,
    folds: Mapping[Any, tuple[Wager, Wager, str, tuple[Wager, ...]]],
) -> list[SettlementLine]:
    """The lines of one seat, its wagers in the order of § .11(h)(1)-(5).

    ``dealt``: the cards were dealt (a seat not dealt in gets its wagers back).
    ``folds`` gives, by the phase of a fold, the section and the wagers it forfeits.
    Before the round is ``complete`` only forfeits are listed.
    """
    ruleset = state.ruleset
    section = _sections(ruleset).__getitem__
    lines: list[SettlementLine] = []
    placed = [wager for wager in SETTLEMENT_ORDER if wager in seat.wagers]
    if not seat.participating and dealt:
        return [
            _simple(
                seat,
                wager,
                Outcome.RETURNED,
                section("7(d)"),
                "not dealt in: both Antes are required",
            )
            for wager in placed
        ]
    if seat.abandoned:
        return [
            _simple(
                seat,
                wager,
                Outcome.FORFEITED,
                section("7(b)"),
                "player left the table: wagers treated as losing",
            )
            for wager in placed
        ]
    forfeited: tuple[Wager, ...] = ()
    if seat.folded_at is not None:
        forfeited = folds[seat.folded_at][3]
        number = folds[seat.folded_at][2]
        lines.extend(
            _simple(seat, wager, Outcome.FORFEITED, section(number))
            for wager in placed
            if wager in forfeited
        )
    if not complete:
        return lines
    if seat.folded_at is None:
        community = state.community
        across_cards = [*seat.cards, *[community[index] for index in _ACROSS_INDEXES]]
        down_cards = [*seat.cards, *[community[index] for index in _DOWN_INDEXES]]
        across = evaluate_five(across_cards)
        down = evaluate_five(down_cards)
        across_text = _describe(across_cards, across)
        down_text = _describe(down_cards, down)
        hands = {ACROSS_LINE: across_text, DOWN_LINE: down_text}
        for wager, line, table_no, lose_no, win_no, table in _HAND_WAGERS:
            if wager in seat.wagers:
                lines.append(
                    _table_line(
                        state,
                        seat,
                        wager,
                        across if line is ACROSS_LINE else down,
                        hands[line],
                        section(table_no),
                        section(lose_no),
                        section(win_no),
                        getattr(ruleset, table),
                    )
                )
        if Wager.MIDDLE_BET in seat.wagers:
            higher, text = (
                (across, across_text) if across.strength >= down.strength else (down, down_text)
            )
            lines.append(
                _table_line(
                    state,
                    seat,
                    Wager.MIDDLE_BET,
                    higher,
                    text,
                    section("12(b)"),
                    section("11(h)(3)"),
                    section("11(h)(4)"),
                    ruleset.bet_table,
                )
            )
    if Wager.FIVE_CARD_BONUS in seat.wagers:
        bonus, bonus_text = _board_hand(state.community)
        lines.append(
            _table_line(
                state,
                seat,
                Wager.FIVE_CARD_BONUS,
                bonus,
                bonus_text,
                section("12(c)"),
                section("11(h)(5)"),
                section("11(h)(5)"),
                ruleset.five_card_bonus_table,
            )
        )
    return lines
