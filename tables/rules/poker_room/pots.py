"""The main pot, side pots, the uncalled bet and split pots (§ 553.8(b)(4), § 553.15(d)).

An All-in player "shall only be eligible to win the amount of the pot to which
he contributed" and betting continues "by generating a separate side pot which
only those players shall be eligible to win" (§ 553.8(b)(4)(i), (iii)). The
pots are built from each seat's total contribution to the round, as pokerkit
builds them: one layer per distinct contribution level, a layer eligible to the
players still in the hand who reached it, adjacent layers with the same players
merged. A layer nobody still in the hand reached (money of folded players above
every live player's contribution) joins the pot below it.

The part of the largest contribution that nobody matched is the uncalled final
bet: it is "not ... part of the pot" for the rake (§ 553.15(d)) and goes back
to the player who bet it (the pot is "the total amount anted or bet by the
players", § 553.1 "Pot", and a bet nobody called is not won from anyone).

Chips are conserved: the pots plus the returned bet equal the contributions.

>>> pots, returned = build_pots({1: 500, 2: 200, 3: 500, 4: 900}, live={1, 2, 4})
>>> [(pot.amount_cents, pot.eligible) for pot in pots], returned
([(800, (1, 2, 4)), (900, (1, 4))], (4, 400))
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

__all__ = ["Pot", "build_pots", "split"]


@dataclass(frozen=True, slots=True)
class Pot:
    """One pot: its amount and the seats that may win it, in seat order."""

    amount_cents: int
    eligible: tuple[int, ...]


def build_pots(
    contributions: Mapping[int, int], live: set[int] | frozenset[int]
) -> tuple[tuple[Pot, ...], tuple[int, int] | None]:
    """Main pot first, then side pots, and the uncalled bet returned.

    :param contributions: each seat's total put in during the round (antes,
        blinds, forced bets and bets).
    :param live: the seats that have not folded.
    :return: the pots and ``(seat, amount)`` of the uncalled bet, or None.

    >>> build_pots({1: 100, 2: 300}, live={2})
    ((Pot(amount_cents=200, eligible=(2,)),), (2, 200))
    """
    amounts = dict(contributions)
    returned: tuple[int, int] | None = None
    ordered = sorted(amounts.values(), reverse=True)
    if ordered and (len(ordered) == 1 or ordered[0] > ordered[1]):
        top = max(amounts, key=lambda seat: amounts[seat])
        excess = ordered[0] - (ordered[1] if len(ordered) > 1 else 0)
        amounts[top] -= excess
        returned = (top, excess)
    pots: list[Pot] = []
    previous = 0
    for level in sorted(set(amounts.values())):
        if level == 0:
            continue
        layer = sum(min(amount, level) - min(amount, previous) for amount in amounts.values())
        eligible = tuple(sorted(seat for seat in live if amounts.get(seat, 0) >= level))
        previous = level
        if pots and (not eligible or pots[-1].eligible == eligible):
            pots[-1] = Pot(pots[-1].amount_cents + layer, pots[-1].eligible)
        elif eligible:
            pots.append(Pot(layer, eligible))
        else:
            # Only folded money so far: it belongs to the pot the next level forms.
            pots.append(Pot(layer, ()))
    if pots and not pots[0].eligible and len(pots) > 1:
        pots[1] = Pot(pots[0].amount_cents + pots[1].amount_cents, pots[1].eligible)
        del pots[0]
    return tuple(pots), returned


def split(
    amount_cents: int, winners_in_odd_chip_order: Sequence[int], chip_cents: int
) -> dict[int, int]:
    """Share a pot equally among tied winners; the excess goes to the first one.

    Each share is a whole number of chips; "the excess ... shall be given to the
    player with the highest ranking high Poker card by suit" (§ 553.10(i)(2)(ii),
    and (iii) for the low): to one player, the first of
    ``winners_in_odd_chip_order``. With three or more tied players the excess may
    be more than one chip, though the text says it "may not exceed $1"; it
    still goes to that one player, as the text says.

    :param amount_cents: the amount to share.
    :param winners_in_odd_chip_order: the tied winners, the excess's first.
    :param chip_cents: the smallest chip in play.
    :return: each winner's share.

    >>> split(1_000, (3, 1, 7), chip_cents=100)
    {3: 400, 1: 300, 7: 300}
    >>> split(1_100, (3, 1, 7), chip_cents=100)
    {3: 500, 1: 300, 7: 300}
    >>> split(1_050, (2, 5), chip_cents=100)
    {2: 550, 5: 500}
    """
    each = amount_cents // (chip_cents * len(winners_in_odd_chip_order)) * chip_cents
    shares = dict.fromkeys(winners_in_odd_chip_order, each)
    shares[winners_in_odd_chip_order[0]] += amount_cents - each * len(shares)
    return shares
