"""Who wins what at the end of a hand, and what the house and the Bad Beat fund take.

The end of a round of play (§ 553.7(e)(6)): the pots are formed from what each
player put in, the uncalled final bet goes back (:mod:`.pots`), the rake is
taken from the pot and any side pots (§ 553.15(b)), then the Bad Beat
contribution (§ 553.20(c): "after the dealer has extracted the rake"), and
what is left of each pot goes to its winners. § 553.7(e)(6) prints "(ii) Award
all side pots" before "(iii) Collect the rake", but § 553.15(b)(1) rakes "the
pot and any side pots", so each pot is raked before it is awarded.

Hands (§ 553.4, cards speak, (f)): the best five of a player's cards and the
board (§ 553.10(i), § 553.11(j)), or two hole cards and three board cards in
Omaha (§ 553.12(j)); in Five-card Draw Low-hand only the low counts
(§ 553.13(i)(2)). Split games give half to the best high and half to the
best low (§ 553.10(i)(2), § 553.12(j)(2)); with no qualifying low the high
takes it all (§ 553.10(j), § 553.12(k)). Among the players eligible for a pot,
those who showed compete; a pot none of them showed for goes by the cards.

Odd chips (§ 553.10(i)(2)(i)-(iv), § 553.12(j)(2)(i)-(iv)): the odd chip of the
halves goes to the high hand; of a tied high half, to "the player with the
highest ranking high Poker card by suit"; of a tied low half, to "the player
with the lowest ranking low-hand Poker card by suit". The text does not say
which card is compared: here the highest card of each tied high hand (rank,
then spades, hearts, diamonds, clubs), and the lowest card of each tied low
hand (the ace lowest, then clubs lowest), the hands being tied in rank.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from itertools import combinations

from tables.rules.cards import Card, Rank
from tables.rules.engine import RuleViolation
from tables.rules.hands import FiveCardHand, evaluate_five, five_card_strength
from tables.rules.poker_room.charges import IncrementalRake
from tables.rules.poker_room.hand import SUIT_ORDER, HandState, Phase
from tables.rules.poker_room.lows import LowHand, evaluate_low, low_pip
from tables.rules.poker_room.pots import Pot, build_pots, split
from tables.rules.poker_room.rules import LowRule, OddChipHighOnly

__all__ = ["BadBeat", "HandSettlement", "Line", "LineKind", "settle"]


class LineKind(StrEnum):
    """What a settlement line moves."""

    RETURNED = "returned"
    """The uncalled final bet, back to its bettor (§ 553.15(d))."""
    RAKE = "rake"
    """To the rake area, then the drop box (§ 553.15(b))."""
    BAD_BEAT = "bad_beat"
    """To the transparent Bad Beat box, never the drop box (§ 553.2(e), § 553.20(c))."""
    HIGH = "high"
    LOW = "low"
    UNCONTESTED = "uncontested"
    """The last player left when everyone else folded (§ 553.7(d), (e)(6))."""


@dataclass(frozen=True, slots=True)
class Line:
    """One money movement: ``seat`` None for the house's rake and the fund."""

    kind: LineKind
    seat: int | None
    pot: int | None
    amount_cents: int
    section: str


@dataclass(frozen=True, slots=True)
class BadBeat:
    """A losing hand that qualifies under the fund's posted rules (§ 553.1, § 553.20(f))."""

    losing_seat: int
    winning_seat: int
    losing_hand: FiveCardHand


@dataclass(frozen=True, slots=True)
class HandSettlement:
    """The money a finished hand requires, pot by pot."""

    pots: tuple[Pot, ...]
    lines: tuple[Line, ...]
    bad_beat: BadBeat | None
    void_section: str = ""
    """The section that voided the round (§ 553.16(e), (g)): no pot, every chip returned."""

    def total(self, kind: LineKind) -> int:
        """Sum of the lines of one kind."""
        return sum(line.amount_cents for line in self.lines if line.kind is kind)

    def received(self, seat: int) -> int:
        """What ``seat`` takes from the table: its uncalled bet and its winnings."""
        return sum(line.amount_cents for line in self.lines if line.seat == seat)

    @property
    def scooped(self) -> bool:
        """One player won every pot entirely: what starts a Kill (§ 553.1 "Kill option")."""
        winners = {line.seat for line in self.lines if line.kind in _WINNINGS}
        return len(winners) == 1

    @property
    def split_high_low(self) -> bool:
        """A pot was split between a high winner and another player's low: what ends a Kill."""
        for index in range(len(self.pots)):
            high = {
                line.seat for line in self.lines if line.pot == index and line.kind is LineKind.HIGH
            }
            low = {
                line.seat for line in self.lines if line.pot == index and line.kind is LineKind.LOW
            }
            if high and low and high != low:
                return True
        return False


_WINNINGS = frozenset({LineKind.HIGH, LineKind.LOW, LineKind.UNCONTESTED})


_Ranked = tuple[tuple[int, int], ...]
"""Cards as (rank, suit order) pairs, highest first: what the odd chip compares."""


def _best_high(state: HandState, seat: int) -> tuple[FiveCardHand, _Ranked]:
    """The best high hand and, among the five-card sets making it, the one with the highest card."""
    fives = list(_fives(state, seat))
    strengths = [five_card_strength(five) for five in fives]
    best = max(strengths)
    # Only the sets making the best hand matter for the odd chip's card.
    top = max(
        _desc(five) for five, strength in zip(fives, strengths, strict=True) if strength == best
    )
    return evaluate_five(
        next(five for five, s in zip(fives, strengths, strict=True) if s == best)
    ), top


def _best_low(state: HandState, seat: int) -> tuple[LowHand, tuple[Card, ...]] | None:
    rules = state.rules
    qualifier = rules.variant.low is LowRule.EIGHT_OR_BETTER
    best: tuple[LowHand, tuple[Card, ...]] | None = None
    for five in _fives(state, seat):
        # A nine or above never qualifies (§ 553.10(j)): skip it before evaluating.
        if qualifier and any(Rank.EIGHT < card.rank < Rank.ACE for card in five):
            continue
        low = evaluate_low(five, rules.low_tie_break)
        if qualifier and not low.qualifies_eight_or_better:
            continue
        if best is None or low > best[0]:
            best = (low, tuple(five))
    return best


def _fives(state: HandState, seat: int) -> Iterable[tuple[Card, ...]]:
    own = tuple(card for card, _ in state.cards.get(seat, ()))
    if state.rules.variant.omaha:
        return (
            two + three for two in combinations(own, 2) for three in combinations(state.board, 3)
        )
    return combinations(own + state.board, 5)


def _desc(cards: Sequence[Card]) -> _Ranked:
    return tuple(sorted(((int(card.rank), SUIT_ORDER[card.suit]) for card in cards), reverse=True))


def settle(state: HandState) -> HandSettlement:
    """The settlement a complete hand requires.

    :raises RuleViolation: if the hand is not complete.
    """
    if state.phase is Phase.VOID:
        # § 553.16(g): "all gaming chips ... in the pot shall be returned to the appropriate player"
        voided = [
            Line(LineKind.RETURNED, seat, None, state.contributed[seat], state.void_section)
            for seat in state.seats if state.contributed[seat]
        ]  # fmt: skip
        return HandSettlement(pots=(), lines=_refund_lines(state) + tuple(voided), bad_beat=None,
                              void_section=state.void_section)  # fmt: skip
    if state.phase is not Phase.COMPLETE:
        raise RuleViolation("553.7(e)(6)", "the hand is settled only when complete", "phase")
    rules = state.rules
    pots, returned = build_pots(state.contributed, frozenset(state.live))
    lines: list[Line] = list(_refund_lines(state))
    if returned is not None:
        lines.append(Line(LineKind.RETURNED, returned[0], None, returned[1], "553.15(d)"))
    amounts = tuple(pot.amount_cents for pot in pots)
    rake_section = "553.15(b)(2)" if isinstance(rules.rake, IncrementalRake) else "553.15(b)(1)"
    reached_flop = not rules.variant.button or len(state.board) >= 3
    rakes = (
        rules.rake.required(amounts, reached_flop=reached_flop) if rules.rake else (0,) * len(pots)
    )
    bad_beat: BadBeat | None = None
    for index, pot in enumerate(pots):
        left = pot.amount_cents - rakes[index]
        if rakes[index]:
            lines.append(Line(LineKind.RAKE, None, index, rakes[index], rake_section))
        if rules.bad_beat is not None:
            contribution = rules.bad_beat.contribution_cents(
                pot_before_rake_cents=pot.amount_cents, pot_after_rake_cents=left
            )
            if contribution:
                lines.append(Line(LineKind.BAD_BEAT, None, index, contribution, "553.20(c)"))
                left -= contribution
        awards, beat = _award(state, index, pot, left)
        lines += awards
        bad_beat = bad_beat or beat
    return HandSettlement(pots=pots, lines=tuple(lines), bad_beat=bad_beat)


def _refund_lines(state: HandState) -> tuple[Line, ...]:
    """Money of a hand killed or called void, back to its player (§ 553.16(i)(3), (k))."""
    return tuple(
        Line(LineKind.RETURNED, seat, None, cents, section)
        for seat, cents, section in state.refunds
    )


def _award(
    state: HandState, index: int, pot: Pot, amount: int
) -> tuple[list[Line], BadBeat | None]:
    rules = state.rules
    variant = rules.variant
    if len(state.live) == 1:
        return [Line(LineKind.UNCONTESTED, pot.eligible[0], index, amount, "553.7(d)")], None
    showed = [seat for seat in pot.eligible if seat in state.shown]
    contenders = (
        showed or [seat for seat in pot.eligible if seat not in state.mucked] or list(pot.eligible)
    )
    highs = {seat: _best_high(state, seat) for seat in contenders}
    top = max(hand for hand, _ in highs.values())
    high_winners = [seat for seat in contenders if highs[seat][0] == top]
    lows: dict[int, tuple[LowHand, tuple[Card, ...]]] = {}
    if variant.low is not LowRule.NONE:
        for seat in contenders:
            low = _best_low(state, seat)
            if low is not None:
                lows[seat] = low
    section = variant.showdown_section
    lines: list[Line] = []
    high_amount = amount
    if lows:
        # Halves in whole chips; the excess goes to the high hand (§ 553.10(i)(2)(i)).
        # In Draw Low-hand the best low takes the pot (§ 553.13(i)(2)).
        low_amount = amount // (2 * rules.chip_cents) * rules.chip_cents if variant.high else amount
        high_amount = amount - low_amount
        best_low = max(low for low, _ in lows.values())
        low_winners = [seat for seat in contenders if seat in lows and lows[seat][0] == best_low]
        # The lowest card of each tied low by low pip, then clubs lowest (§ 553.10(i)(2)(iii)).
        low_order = sorted(
            low_winners,
            key=lambda seat: min((low_pip(c.rank), SUIT_ORDER[c.suit]) for c in lows[seat][1]),
        )
        for seat, share in split(low_amount, low_order, rules.chip_cents).items():
            lines.append(Line(LineKind.LOW, seat, index, share, section))
    if not variant.high:
        return lines, None
    for seat, share in split(
        high_amount, _high_order(state, high_winners, highs), rules.chip_cents
    ).items():
        lines.append(Line(LineKind.HIGH, seat, index, share, section))
    beat = None
    if rules.bad_beat is not None and index == 0:
        losers = [seat for seat in showed if seat not in high_winners]
        if losers:
            loser = max(losers, key=lambda seat: highs[seat][0])
            if rules.bad_beat.qualifies(highs[loser][0]):
                beat = BadBeat(loser, high_winners[0], highs[loser][0])
    return lines, beat


def _high_order(
    state: HandState, winners: list[int], highs: dict[int, tuple[FiveCardHand, _Ranked]]
) -> list[int]:
    """Tied high winners in the order the odd chip goes to them."""
    variant = state.rules.variant
    if (
        variant.low is LowRule.NONE
        and state.rules.odd_chip_high_only is OddChipHighOnly.FIRST_LEFT_OF_BUTTON
    ):
        start = state.button if variant.button else None
        order = [seat for seat in state.seats if start is None or seat > start]
        order += [seat for seat in state.seats if seat not in order]
        return [seat for seat in order if seat in winners]
    # "the highest ranking high Poker card by suit" (§ 553.10(i)(2)(ii)).
    return sorted(winners, key=lambda seat: highs[seat][1][0], reverse=True)
