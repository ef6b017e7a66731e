"""Settlement steps the games share: seat order, voids, pay-table lines, the header.

Both games settle seats counterclockwise from the dealer's right, which with
seats numbered clockwise from the dealer's left is descending seat order; a
void returns every stake; a wager judged on a pay table loses off the table,
pushes on a push line and otherwise wins at the line's odds.

>>> from types import SimpleNamespace
>>> seats = {1: SimpleNamespace(seat=1), 4: SimpleNamespace(seat=4), 2: SimpleNamespace(seat=2)}
>>> [seat.seat for seat in counterclockwise(seats)]
[4, 2, 1]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from tables.rules.cards import JOKER_DECK, Card
from tables.rules.engine import Outcome, SettlementLine, lookup, plain_line
from tables.rules.money import RoundingPolicy, winnings
from tables.rules.rulesets import PayLine

__all__ = [
    "describe_cards",
    "counterclockwise",
    "returned_lines",
    "settlement_header",
    "pay_table_line",
]


# Text of each card by deck index: settlement describes every hand it judges.
_CARD_TEXT = tuple(str(card) for card in JOKER_DECK)


def describe_cards(cards: Iterable[Card | None], category_name: str) -> str:
    """``"Ah Kh Qh Jh Th (ROYAL_FLUSH)"``: the cards of a hand and its category.

    >>> describe_cards(JOKER_DECK[:3], "HIGH_CARD")
    '2c 2d 2h (HIGH_CARD)'
    """
    text = " ".join("None" if card is None else _CARD_TEXT[card.index] for card in cards)
    return f"{text} ({category_name})"


def counterclockwise(seats: Mapping[int, Any]) -> list[Any]:
    """The seats in settlement order: from the dealer's right, descending seat number."""
    return [seats[number] for number in sorted(seats, reverse=True)]


def returned_lines(
    seats: Iterable[Any], order: Iterable[str], section: str, notes: tuple[str, ...]
) -> tuple[SettlementLine, ...]:
    """Every placed wager of ``seats`` returned under ``section``, seat by seat in ``order``."""
    order = tuple(order)
    return tuple(
        plain_line(seat, wager, Outcome.RETURNED, section, notes=notes)
        for seat in seats
        for wager in order
        if wager in seat.wagers
    )


def settlement_header(state: Any, options: Iterable[tuple[str, str]]) -> dict[str, Any]:
    """The fields every settlement of ``state`` carries besides its lines."""
    opened = state.opened
    return {
        "round_id": opened.round_id,
        "ruleset_id": state.ruleset.id,
        "rounding": state.rounding.name,
        "options_applied": tuple(options),
    }


def pay_table_line(
    seat: Any,
    wager: str,
    *,
    category: int,
    pair_rank: int | None,
    described: str,
    table: tuple[PayLine, ...],
    rounding: RoundingPolicy,
    table_section: str,
    lose_section: str,
    win_section: str,
    conflict_push: bool,
    conflict_option: str,
) -> SettlementLine:
    """Settle ``wager`` of ``seat`` on ``table`` for a hand of ``category``.

    Off the table the wager loses (``lose_section``); on a line without odds it
    pushes, otherwise it wins at the line's odds (``win_section``). When the
    hand lands on several lines, ``conflict_push`` picks the push line (or the
    paying one) and the line's note names ``conflict_option``.
    """
    stake = seat.wagers[wager]
    key = (
        id(table),
        category,
        pair_rank,
        table_section,
        lose_section,
        win_section,
        conflict_push,
        conflict_option,
    )
    cached = _RESOLVED.get(key)
    if cached is None or cached[0] is not table:
        cached = (
            table,
            _resolve(
                table,
                category,
                pair_rank,
                table_section,
                lose_section,
                win_section,
                conflict_push,
                conflict_option,
            ),
        )
        _RESOLVED[key] = cached
    line, section, odds_text, notes = cached[1]
    if line is None:
        return plain_line(seat, wager, Outcome.LOSE, lose_section, described)
    if line.odds is None:
        return SettlementLine(
            seat=seat.seat,
            player=seat.player,
            wager=wager,
            stake_cents=stake,
            outcome=Outcome.PUSH,
            amount_cents=stake,
            section=section,
            hand=described,
            pay_line=line.label,
            odds=odds_text,
            notes=notes,
        )
    amount = winnings(stake, line.odds, rounding)
    return SettlementLine(
        seat=seat.seat,
        player=seat.player,
        wager=wager,
        stake_cents=stake,
        outcome=Outcome.WIN,
        amount_cents=amount,
        section=section,
        hand=described,
        pay_line=line.label,
        odds=odds_text,
        uncapped_cents=amount,
        notes=notes,
    )


# What a hand of one category (and pair rank) gets on one pay table under one set
# of sections and conflict option; keyed by the table's identity, which the entry
# keeps alive. The lines built from it are those of :func:`pay_table_line`.
_Resolution = tuple[PayLine | None, str, str, tuple[str, ...]]
_RESOLVED: dict[tuple[Any, ...], tuple[tuple[PayLine, ...], _Resolution]] = {}


def _resolve(
    table: tuple[PayLine, ...],
    category: int,
    pair_rank: int | None,
    table_section: str,
    lose_section: str,
    win_section: str,
    conflict_push: bool,
    conflict_option: str,
) -> _Resolution:
    """The line, section, odds text and notes of a hand settled on ``table``."""
    match = lookup(table, category, pair_rank)
    notes: tuple[str, ...] = ()
    line = match.line
    if match.conflict:
        line = next(item for item in match.conflict if (item.odds is None) == conflict_push)
        labels = " / ".join(f"'{item.label}'" for item in match.conflict)
        notes = (f"{table_section}: hand is on {labels}; applied {conflict_option}",)
    if line is None:
        return None, lose_section, "", notes
    odds_text = "push" if line.odds is None else str(line.odds)
    return line, f"{win_section}; {table_section}", odds_text, notes
