"""What the house takes from a poker pot, and the Bad Beat fund (§ 553.15, § 553.20).

All amounts are integer cents. Every rounding is downward, to the cent or to
the rule set's chip, so the house never takes more than its posted rules
allow; what rounding leaves stays in the pot (rake) or in the fund (awards).

Rake (§ 553.15(b)). A rule set names one of:

* :class:`PercentageRake`: "not to exceed 10%" (§ 553.15(b)(1)) of each pot,
  with the posted maximum (§ 553.15(a)(3)); the cap is for the round of play,
  taken from the main pot first, then the side pots in the order they formed.
  Optionally none when the hand ends before the flop ("no flop, no drop", a
  common posted rule; the chapter neither requires nor forbids it).
* :class:`IncrementalRake`: fixed amounts "as certain predetermined dollar
  levels have been achieved" (§ 553.15(b)(2)), over the whole pot.

Either is computed on the pot without the uncalled final bet (§ 553.15(d)):
the caller passes the pots after :func:`~tables.rules.poker_room.pots.build_pots`
has returned it. Time charges (§ 553.15(b)(3)) are charged per seat or per
table per period, not on a pot: :class:`TimeCharge`.

Bad Beat (§ 553.20): :class:`BadBeatRules` are the posted rules § 553.20(b)
requires (maximum contribution per pot and its calculation, minimum pot,
qualifying hands and payouts). The contribution is taken "after the dealer has
extracted the rake" and before the pot is pushed (§ 553.20(c)).

>>> from fractions import Fraction
>>> rake = PercentageRake(rate=Fraction(1, 10), cap_cents=400, unit_cents=100)
>>> rake.required((2_350, 1_000), reached_flop=True)
(200, 100)
>>> rake.required((9_000,), reached_flop=True)
(400,)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction

from tables.rules.hands import FiveCardHand

__all__ = [
    "MAXIMUM_PERCENTAGE",
    "BadBeatAward",
    "BadBeatRules",
    "ChargeBasis",
    "IncrementalRake",
    "PercentageRake",
    "RakeFinding",
    "TimeCharge",
    "rake_finding",
]

MAXIMUM_PERCENTAGE = Fraction(1, 10)
"""§ 553.15(b)(1): "A percentage rake, not to exceed 10%"."""


@dataclass(frozen=True, slots=True, kw_only=True)
class PercentageRake:
    """A percentage of each pot, with the posted maximum (§ 553.15(a)(3), (b)(1)).

    :ivar rate: the share of each pot, at most 10 %.
    :ivar cap_cents: the posted maximum for the round of play, or None.
    :ivar unit_cents: each pot's rake is rounded down to a multiple of this
        (the smallest chip the dealer takes; 1 for cents).
    :ivar no_flop_no_drop: no rake when a community-card hand ends before the flop.
    """

    rate: Fraction
    cap_cents: int | None = None
    unit_cents: int = 1
    no_flop_no_drop: bool = False

    def __post_init__(self) -> None:
        if not 0 <= self.rate <= MAXIMUM_PERCENTAGE:
            raise ValueError(
                f"§ 553.15(b)(1): a percentage rake may not exceed 10%, got {self.rate}"
            )
        if self.unit_cents < 1 or (self.cap_cents is not None and self.cap_cents < 0):
            raise ValueError("the rake unit must be positive and the cap not negative")

    def required(self, pots_cents: Sequence[int], *, reached_flop: bool) -> tuple[int, ...]:
        """Rake each pot requires, main pot first (§ 553.15(b)(1), (d)).

        :param pots_cents: the pots, main first, without the uncalled final bet.
        :param reached_flop: whether the flop was dealt (Stud: always True).
        :return: one amount per pot.

        >>> from fractions import Fraction
        >>> five_percent = PercentageRake(rate=Fraction(1, 20), no_flop_no_drop=True)
        >>> five_percent.required((300,), reached_flop=False)
        (0,)
        """
        if self.no_flop_no_drop and not reached_flop:
            return tuple(0 for _ in pots_cents)
        left = self.cap_cents
        taken = []
        for pot in pots_cents:
            amount = pot * self.rate.numerator // self.rate.denominator
            if left is not None:
                amount = min(amount, left)
            # Whole units only, also when the cap is not a multiple of the unit.
            amount = amount // self.unit_cents * self.unit_cents
            if left is not None:
                left -= amount
            taken.append(amount)
        return tuple(taken)


@dataclass(frozen=True, slots=True, kw_only=True)
class IncrementalRake:
    """Fixed amounts as the pot reaches posted levels (§ 553.15(b)(2)).

    :ivar levels: (level, amount) pairs: ``amount`` is taken once the pot reaches
        ``level``; e.g. ((1000, 100), (3000, 100), (5000, 100)) takes $1 at $10,
        $20 and $50, up to $3.
    :ivar no_flop_no_drop: as for :class:`PercentageRake`.

    >>> levels = IncrementalRake(levels=((1_000, 100), (3_000, 100)))
    >>> levels.required((2_000, 1_500), reached_flop=True)
    (200, 0)
    """

    levels: tuple[tuple[int, int], ...]
    no_flop_no_drop: bool = False

    def __post_init__(self) -> None:
        thresholds = [level for level, _ in self.levels]
        if thresholds != sorted(thresholds) or any(amount < 0 for _, amount in self.levels):
            raise ValueError("incremental rake levels must rise and take no negative amount")

    def required(self, pots_cents: Sequence[int], *, reached_flop: bool) -> tuple[int, ...]:
        """Rake the round requires on the whole pot, taken from the main pot first.

        :param pots_cents: the pots, main first, without the uncalled final bet.
        :param reached_flop: whether the flop was dealt (Stud: always True).
        :return: one amount per pot.
        """
        if self.no_flop_no_drop and not reached_flop:
            return tuple(0 for _ in pots_cents)
        left = sum(amount for level, amount in self.levels if sum(pots_cents) >= level)
        taken = []
        for pot in pots_cents:
            amount = min(pot, left)
            left -= amount
            taken.append(amount)
        return tuple(taken)


class RakeFinding(StrEnum):
    """How the rake a dealer took compares with what the pots required."""

    CORRECT = "correct"
    OVER_RAKED = "over_raked"
    UNDER_RAKED = "under_raked"


def rake_finding(required_cents: int, taken_cents: int) -> tuple[RakeFinding, int]:
    """The finding and the difference (taken minus required), citing § 553.15.

    >>> rake_finding(300, 500)
    (<RakeFinding.OVER_RAKED: 'over_raked'>, 200)
    """
    difference = taken_cents - required_cents
    if difference > 0:
        return RakeFinding.OVER_RAKED, difference
    if difference < 0:
        return RakeFinding.UNDER_RAKED, difference
    return RakeFinding.CORRECT, 0


class ChargeBasis(StrEnum):
    """Whom a time charge is assessed on (§ 553.15(b)(3)(i))."""

    PER_PLAYER = "per_player"
    PER_TABLE = "per_table"


@dataclass(frozen=True, slots=True, kw_only=True)
class TimeCharge:
    """An hourly fee by the game's limits, assessed every 20 or 30 minutes (§ 553.15(b)(3)).

    :ivar hourly_cents: the posted hourly fee for these limits (§ 553.15(b)(3)(ii)).
    :ivar period_minutes: 20 or 30 (§ 553.15(b)(3)(iii)).
    :ivar basis: per player or per table (§ 553.15(b)(3)(i)).

    >>> charge = TimeCharge(hourly_cents=1_000, period_minutes=20, basis=ChargeBasis.PER_PLAYER)
    >>> charge.per_period_cents, charge.due_cents(seated=7)
    (333, 2331)
    """

    hourly_cents: int
    period_minutes: int
    basis: ChargeBasis
    per_period_cents: int = field(init=False)

    def __post_init__(self) -> None:
        if self.period_minutes not in (20, 30):
            raise ValueError(
                f"§ 553.15(b)(3)(iii): time charges are assessed every 20 or 30 minutes, "
                f"not {self.period_minutes}"
            )
        # The fraction of the hourly fee, rounded down to the cent.
        object.__setattr__(self, "per_period_cents", self.hourly_cents * self.period_minutes // 60)

    def due_cents(self, *, seated: int) -> int:
        """Charge for one period at a table with ``seated`` players.

        Per player, every seated player pays, inactive ones included
        (§ 553.15(b)(3)(i)); per table, one charge while anyone is seated.
        """
        if self.basis is ChargeBasis.PER_PLAYER:
            return self.per_period_cents * seated
        return self.per_period_cents if seated else 0


@dataclass(frozen=True, slots=True, kw_only=True)
class BadBeatAward:
    """Shares of one Bad Beat payout, in cents; ``kept_cents`` stays in the fund."""

    losing_hand_cents: int
    winning_hand_cents: int
    table_cents: dict[int, int]
    kept_cents: int


@dataclass(frozen=True, slots=True, kw_only=True)
class BadBeatRules:
    """A Bad Beat fund's posted rules (§ 553.20(b)(1)-(3)).

    :ivar rate: share of the pot, after the rake, contributed (§ 553.20(b)(1), (c)).
    :ivar maximum_cents: the most contributed from one pot (§ 553.20(b)(1)).
    :ivar unit_cents: the contribution is rounded down to a multiple of this.
    :ivar minimum_pot_cents: no contribution from a smaller pot (§ 553.20(b)(2)).
    :ivar minimum_measured_before_rake: the chapter does not say whether the
        minimum pot is measured before or after the rake: the posted rules must.
    :ivar qualifying_hand: the weakest losing hand that is a Bad Beat (§ 553.1
        "Bad Beat", § 553.20(b)(3)); a hand at least as strong qualifies.
    :ivar payout_share: share of the fund a Bad Beat pays out; the rest seeds
        the next one.
    :ivar losing_share, winning_share, table_share: how the payout is shared
        (§ 553.20(b)(3)); the table share is split equally among the other
        players dealt in. They add up to one.

    >>> from fractions import Fraction
    >>> rules = BadBeatRules(rate=Fraction(1, 10), maximum_cents=100, unit_cents=25,
    ...     minimum_pot_cents=2_000, qualifying_hand=None, payout_share=Fraction(1),
    ...     losing_share=Fraction(1, 2), winning_share=Fraction(1, 4), table_share=Fraction(1, 4))
    >>> rules.contribution_cents(pot_before_rake_cents=2_500, pot_after_rake_cents=2_200)
    100
    >>> rules.contribution_cents(pot_before_rake_cents=1_900, pot_after_rake_cents=1_700)
    0
    """

    rate: Fraction
    maximum_cents: int
    unit_cents: int
    minimum_pot_cents: int
    qualifying_hand: FiveCardHand | None
    payout_share: Fraction
    losing_share: Fraction
    winning_share: Fraction
    table_share: Fraction
    minimum_measured_before_rake: bool = True

    def __post_init__(self) -> None:
        if self.losing_share + self.winning_share + self.table_share != 1:
            raise ValueError("§ 553.20(b)(3): the Bad Beat shares must add up to the payout")
        if not 0 < self.payout_share <= 1 or not 0 <= self.rate <= 1 or self.unit_cents < 1:
            raise ValueError("Bad Beat payout share, rate and unit out of range")

    def contribution_cents(self, *, pot_before_rake_cents: int, pot_after_rake_cents: int) -> int:
        """What one pot contributes, after the rake (§ 553.20(c)), within the maximum."""
        measured = (
            pot_before_rake_cents if self.minimum_measured_before_rake else pot_after_rake_cents
        )
        if measured < self.minimum_pot_cents:
            return 0
        amount = pot_after_rake_cents * self.rate.numerator // self.rate.denominator
        amount = min(amount, self.maximum_cents)
        return amount // self.unit_cents * self.unit_cents

    def qualifies(self, losing_hand: FiveCardHand) -> bool:
        """Whether a losing hand is a Bad Beat under the posted rules (§ 553.1)."""
        return self.qualifying_hand is not None and losing_hand >= self.qualifying_hand

    def award(
        self, *, fund_cents: int, losing_seat: int, winning_seat: int, table_seats: Sequence[int]
    ) -> BadBeatAward:
        """Shares of a Bad Beat payout from a fund of ``fund_cents`` (§ 553.20(b)(3)).

        Each share is rounded down to the cent; the cents left over, and the
        table share when no other player was dealt in, stay in the fund so that
        every dollar contributed is paid to players (§ 553.20(i)).

        >>> from fractions import Fraction
        >>> rules = BadBeatRules(rate=Fraction(1, 10), maximum_cents=100, unit_cents=1,
        ...     minimum_pot_cents=0, qualifying_hand=None, payout_share=Fraction(9, 10),
        ...     losing_share=Fraction(1, 2), winning_share=Fraction(1, 4),
        ...     table_share=Fraction(1, 4))
        >>> award = rules.award(fund_cents=1_000_003, losing_seat=2, winning_seat=5,
        ...     table_seats=(1, 3, 4))
        >>> award.losing_hand_cents, award.winning_hand_cents, award.table_cents, award.kept_cents
        (450001, 225000, {1: 75000, 3: 75000, 4: 75000}, 100002)
        """
        payout = fund_cents * self.payout_share.numerator // self.payout_share.denominator
        losing = payout * self.losing_share.numerator // self.losing_share.denominator
        winning = payout * self.winning_share.numerator // self.winning_share.denominator
        others = [seat for seat in table_seats if seat not in (losing_seat, winning_seat)]
        table_total = payout * self.table_share.numerator // self.table_share.denominator
        each = table_total // len(others) if others else 0
        table = {seat: each for seat in others}
        kept = fund_cents - losing - winning - each * len(others)
        return BadBeatAward(
            losing_hand_cents=losing, winning_hand_cents=winning, table_cents=table, kept_cents=kept
        )
