"""Rule sets as data: one frozen value per jurisdiction, chapter and version.

Settlement code never holds a literal payout; it looks hands up in the pay
tables below. Each table is transcribed line by line, in the regulation's own
order and wording (``label``), and tests compare it with the regulation text.

Version register for Criss-Cross Poker (Pennsylvania):

* ``PA-592-2014``: temporary Chapter 592, effective 2014-07-12, in force until
  Chapter 674a took effect (the temporary text says it "expire[s] 2 years
  after publication"; the 2016 rulemaking rescinded it on 2016-08-27; we read
  it as in force through 2016-08-26 and flag it).
* ``PA-674a-2016``: Chapter 674a as adopted, effective 2016-08-27. The source
  files do not hold the pre-2019 text of §§ 674a.7 and 674a.12, so, as the
  digest advises, this version equals ``PA-674a-2019`` and flags those two
  sections (``unverified_sections``).
* ``PA-674a-2019``: §§ 674a.7 and 674a.12 as amended effective 2019-11-02.

Double Cross Poker (Massachusetts): ``MA-DCP-UNDATED``, one version; the
source text gives no effective date, so it is open-ended and flagged.

Effective dates are compared with the *gaming day* (the date a gaming day
starts); a gaming day that straddles midnight on an effective date is settled
under the version in force when it started.

>>> ruleset_for("criss_cross_poker", "PA", datetime.date(2015, 1, 1)).id
'PA-592-2014'
>>> ruleset_for("criss_cross_poker", "PA", datetime.date(2019, 11, 2)).id
'PA-674a-2019'
"""

from __future__ import annotations

import datetime
import enum
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from tables.rules.hands import FiveCardCategory, ThreeCardCategory
from tables.rules.money import Odds

__all__ = [
    "PairOfTensMiddleBets",
    "HandComparison",
    "PayLine",
    "CrissCrossRuleSet",
    "DoubleCrossRuleSet",
    "RuleSet",
    "PA_592_2014",
    "PA_674A_2016",
    "PA_674A_2019",
    "MA_DCP",
    "RULESETS",
    "get_ruleset",
    "ruleset_for",
]

CRISS_CROSS_POKER = "criss_cross_poker"
DOUBLE_CROSS_POKER = "double_cross_poker"


class PairOfTensMiddleBets(enum.StrEnum):
    """How a pair of 10s settles Across/Down/Middle Bets under § 592.12(b).

    § 592.12(b) lists "Pair of 10s, jack, queens, kings or aces 1 to 1" and
    also "Pair of 6s through 10s Push"; the rule set must say which applies.
    """

    PUSH = "push"
    PAY_1_TO_1 = "pay_1_to_1"


class HandComparison(enum.StrEnum):
    """How two five-card hands are compared (Double Cross Section 5 gives no kicker rule)."""

    STANDARD = "standard"
    CATEGORY_ONLY = "category_only"


@dataclass(frozen=True, slots=True, kw_only=True)
class PayLine:
    """One line of a pay table.

    A hand matches when its category equals ``category`` (or is higher, with
    ``or_better``) and, for a pair line, the pair's rank is within
    ``pair_ranks`` (inclusive). ``odds`` of ``None`` means the wager pushes.

    >>> line = PayLine(label="Pair of 6s through 10s", category=FiveCardCategory.PAIR,
    ...                pair_ranks=(6, 10), odds=None)
    >>> line.pays
    False
    """

    label: str
    category: FiveCardCategory | ThreeCardCategory
    odds: Odds | None
    pair_ranks: tuple[int, int] | None = None
    or_better: bool = False

    @property
    def pays(self) -> bool:
        """Whether a hand on this line wins (rather than pushes)."""
        return self.odds is not None

    def matches(self, category: int, pair_rank: int | None) -> bool:
        """Whether a hand of ``category`` (and ``pair_rank``) is on this line.

        >>> PayLine(label="Pair of jacks or better", category=FiveCardCategory.PAIR,
        ...         pair_ranks=(11, 14), or_better=True, odds=Odds(1)).matches(
        ...         FiveCardCategory.FLUSH, None)
        True
        """
        if self.or_better and category > self.category:
            return True
        if category != self.category:
            return False
        if self.pair_ranks is None:
            return True
        low, high = self.pair_ranks
        return pair_rank is not None and low <= pair_rank <= high


def _line(
    label: str,
    category: FiveCardCategory | ThreeCardCategory,
    odds: tuple[int, int] | None,
    *,
    pair_ranks: tuple[int, int] | None = None,
    or_better: bool = False,
) -> PayLine:
    return PayLine(
        label=label,
        category=category,
        odds=None if odds is None else Odds(*odds),
        pair_ranks=pair_ranks,
        or_better=or_better,
    )


C = FiveCardCategory
T = ThreeCardCategory

# § 592.12(a) = § 674a.12(a)
CRISS_CROSS_ANTE_TABLE: tuple[PayLine, ...] = (
    _line("Pair of jacks or better", C.PAIR, (1, 1), pair_ranks=(11, 14), or_better=True),
    _line("Pair of 6s through 10s", C.PAIR, None, pair_ranks=(6, 10)),
)

_BET_TABLE_TOP: tuple[PayLine, ...] = (
    _line("Royal flush", C.ROYAL_FLUSH, (500, 1)),
    _line("Straight flush", C.STRAIGHT_FLUSH, (100, 1)),
    _line("Four-of-a-kind", C.FOUR_OF_A_KIND, (40, 1)),
    _line("Full house", C.FULL_HOUSE, (12, 1)),
    _line("Flush", C.FLUSH, (8, 1)),
    _line("Straight", C.STRAIGHT, (5, 1)),
    _line("Three-of-a-kind", C.THREE_OF_A_KIND, (3, 1)),
    _line("Two pair", C.TWO_PAIR, (2, 1)),
)

# § 592.12(b), as printed (both 2014 texts): a pair of 10s is on two lines.
CRISS_CROSS_592_BET_TABLE: tuple[PayLine, ...] = (
    *_BET_TABLE_TOP,
    _line("Pair of 10s, jack, queens, kings or aces", C.PAIR, (1, 1), pair_ranks=(10, 14)),
    _line("Pair of 6s through 10s", C.PAIR, None, pair_ranks=(6, 10)),
)

# § 674a.12(b) as amended effective 2019-11-02.
CRISS_CROSS_674A_BET_TABLE: tuple[PayLine, ...] = (
    *_BET_TABLE_TOP,
    _line("Pair of jacks, queens, kings or aces", C.PAIR, (1, 1), pair_ranks=(11, 14)),
    _line("Pair of 6s through 10s", C.PAIR, None, pair_ranks=(6, 10)),
)

# § 592.12(c) = § 674a.12(c)
CRISS_CROSS_FIVE_CARD_BONUS_TABLE: tuple[PayLine, ...] = (
    _line("Royal flush", C.ROYAL_FLUSH, (250, 1)),
    _line("Straight flush", C.STRAIGHT_FLUSH, (100, 1)),
    _line("Four-of-a-kind", C.FOUR_OF_A_KIND, (40, 1)),
    _line("Full house", C.FULL_HOUSE, (15, 1)),
    _line("Flush", C.FLUSH, (10, 1)),
    _line("Straight", C.STRAIGHT, (6, 1)),
    _line("Three-of-a-kind", C.THREE_OF_A_KIND, (4, 1)),
    _line("Two pair", C.TWO_PAIR, (3, 1)),
    _line("Pair of 6s or better", C.PAIR, (1, 1), pair_ranks=(6, 14)),
)

# Double Cross Section 11(b): minimum odds on each winning raise wager.
DOUBLE_CROSS_RAISE_TABLE: tuple[PayLine, ...] = (
    _line("Royal Flush", C.ROYAL_FLUSH, (300, 1)),
    _line("Straight Flush", C.STRAIGHT_FLUSH, (50, 1)),
    _line("Four-of-a-Kind", C.FOUR_OF_A_KIND, (15, 1)),
    _line("Full House", C.FULL_HOUSE, (7, 1)),
    _line("Flush", C.FLUSH, (6, 1)),
    _line("Straight", C.STRAIGHT, (5, 1)),
    _line("Three-of-a-Kind", C.THREE_OF_A_KIND, (3, 1)),
    _line("Two Pair", C.TWO_PAIR, (3, 2)),
    _line("One Pair", C.PAIR, (1, 1)),
    _line("High Card", C.HIGH_CARD, (1, 1)),
)

# Double Cross Section 11(c): minimum odds on each winning three-card wager.
DOUBLE_CROSS_THREE_CARD_TABLE: tuple[PayLine, ...] = (
    _line("Three-card Straight Flush", T.STRAIGHT_FLUSH, (40, 1)),
    _line("Three-of-a-Kind", T.THREE_OF_A_KIND, (30, 1)),
    _line("Three-card Straight", T.STRAIGHT, (6, 1)),
    _line("Three-card Flush", T.FLUSH, (4, 1)),
    _line("One Pair", T.PAIR, (1, 1)),
)


@dataclass(frozen=True, slots=True, kw_only=True)
class CrissCrossRuleSet:
    """Criss-Cross Poker (Pennsylvania Chapter 592 or 674a) as data.

    ``section_prefix`` ("592" or "674a") turns the shared numbering into
    citations: section ``"11(b)"`` becomes ``"592.11(b)"``.
    """

    id: str
    game: str = CRISS_CROSS_POKER
    jurisdiction: str = "PA"
    chapter: str
    section_prefix: str
    effective_from: datetime.date
    effective_to: datetime.date | None
    ante_table: tuple[PayLine, ...] = CRISS_CROSS_ANTE_TABLE
    bet_table: tuple[PayLine, ...]
    five_card_bonus_table: tuple[PayLine, ...] = CRISS_CROSS_FIVE_CARD_BONUS_TABLE
    # § .12(b) under 592 lists a pair of 10s twice; None where no conflict exists.
    pair_of_tens_middle_bets: PairOfTensMiddleBets | None = None
    bet_multiple_min: int = 1
    bet_multiple_max: int = 3
    bet_whole_multiples_only: bool = False
    max_seats: int = 6
    # § 592.7(g): one position. § 674a.7(g): as filed in the Rules Submission.
    positions_per_player: int | None = 1
    positions_per_player_configurable: bool = False
    # § 674a.12(d): a licensee may set a limit of at least the floor.
    payout_limit_permitted: bool = False
    payout_limit_floor_cents: int = 5_000_000
    payout_limit_wagers: tuple[str, ...] = (
        "ANTE_ACROSS",
        "ANTE_DOWN",
        "ACROSS_BET",
        "DOWN_BET",
        "MIDDLE_BET",
    )
    deck_change_hours_hand_dealt: int = 4
    deck_change_hours_shoe: int = 8
    stub_count_every_rounds: int = 5
    cards_in_deck: int = 52
    unverified_sections: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()

    @property
    def defaults(self) -> Mapping[str, Any]:
        """The opening options a round takes when it does not set them."""
        return {
            "pair_of_tens_middle_bets": self.pair_of_tens_middle_bets,
            "positions_per_player": self.positions_per_player,
        }

    @property
    def settlement_notes(self) -> tuple[str, ...]:
        """What every settlement under this version carries: its unverified sections."""
        return self.notes if self.unverified_sections else ()

    def section(self, number: str) -> str:
        """Cite ``number`` in this chapter.

        >>> PA_592_2014.section("11(b)")
        '592.11(b)'
        """
        return f"{self.section_prefix}.{number}"

    def in_force(self, gaming_day: datetime.date) -> bool:
        """Whether this version governs ``gaming_day``."""
        return self.effective_from <= gaming_day and (
            self.effective_to is None or gaming_day <= self.effective_to
        )


@dataclass(frozen=True, slots=True, kw_only=True)
class DoubleCrossRuleSet:
    """Double Cross Poker (Massachusetts rules of the game) as data."""

    id: str
    game: str = DOUBLE_CROSS_POKER
    jurisdiction: str = "MA"
    chapter: str
    effective_from: datetime.date | None
    effective_to: datetime.date | None
    # Section 10(g)(3): "the player shall be paid 1 to 1 on the ante".
    ante_odds: Odds = field(default_factory=lambda: Odds(1, 1))
    raise_table: tuple[PayLine, ...] = DOUBLE_CROSS_RAISE_TABLE
    three_card_table: tuple[PayLine, ...] = DOUBLE_CROSS_THREE_CARD_TABLE
    three_card_min_cents: int = 100
    three_card_max_cents: int = 10_000
    hand_comparison: HandComparison = HandComparison.STANDARD
    payout_limit_permitted: bool = True
    payout_limit_floor_cents: int = 6_000_000
    payout_limit_wagers: tuple[str, ...] = ("ANTE", "RAISE_1", "RAISE_2")
    max_seats: int | None = None
    positions_per_player: int | None = None
    stub_count_every_rounds: int = 5
    cards_in_deck: int = 52
    unverified_sections: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()

    def section(self, number: str) -> str:
        """Cite ``number`` in the Double Cross rules.

        >>> MA_DCP.section("10(a)")
        'Section 10(a)'
        """
        return f"Section {number}"

    def in_force(self, gaming_day: datetime.date) -> bool:
        """Whether this version governs ``gaming_day`` (open ends are unbounded)."""
        return (self.effective_from is None or self.effective_from <= gaming_day) and (
            self.effective_to is None or gaming_day <= self.effective_to
        )


RuleSet = CrissCrossRuleSet | DoubleCrossRuleSet

PA_592_2014 = CrissCrossRuleSet(
    id="PA-592-2014",
    chapter="58 Pa. Code Chapter 592 (temporary), Pa.B. Doc. No. 14-1427",
    section_prefix="592",
    effective_from=datetime.date(2014, 7, 12),
    effective_to=datetime.date(2016, 8, 26),
    bet_table=CRISS_CROSS_592_BET_TABLE,
    pair_of_tens_middle_bets=PairOfTensMiddleBets.PUSH,
    positions_per_player=1,
    notes=(
        "592.12(b) lists a pair of 10s as paying 1 to 1 and as a push; the default "
        "reading is push (as 674a.12(b) and the ante table 592.12(a) do); configurable.",
        "Temporary regulations 'expire 2 years after publication' (about 2014-07-12 + 2y); "
        "treated as in force until Chapter 674a took effect on 2016-08-27. Confirm.",
    ),
)

PA_674A_2019 = CrissCrossRuleSet(
    id="PA-674a-2019",
    chapter="58 Pa. Code Chapter 674a, §§ 674a.7 and 674a.12 as amended, 49 Pa.B. 6676",
    section_prefix="674a",
    effective_from=datetime.date(2019, 11, 2),
    effective_to=None,
    bet_table=CRISS_CROSS_674A_BET_TABLE,
    positions_per_player=1,
    positions_per_player_configurable=True,
    payout_limit_permitted=True,
    notes=(
        "674a.7(g): positions per player as filed in the Rules Submission (default 1; "
        "set per round with RoundOpened.positions_per_player).",
        "674a.12(d): the limit must also be at least the maximum win per round at the "
        "minimum wager; the table configuration must check that (not known per round).",
    ),
)

PA_674A_2016 = CrissCrossRuleSet(
    id="PA-674a-2016",
    chapter="58 Pa. Code Chapter 674a as adopted, 46 Pa.B. 5540",
    section_prefix="674a",
    effective_from=datetime.date(2016, 8, 27),
    effective_to=datetime.date(2019, 11, 1),
    bet_table=CRISS_CROSS_674A_BET_TABLE,
    positions_per_player=1,
    positions_per_player_configurable=True,
    payout_limit_permitted=True,
    unverified_sections=("674a.7", "674a.12"),
    notes=(
        "The 2016-2019 text of 674a.7 and 674a.12 is not in the source files; modelled "
        "on the 2019 text as the digest advises. Obtain 46 Pa.B. 5540 to confirm.",
    ),
)

MA_DCP = DoubleCrossRuleSet(
    id="MA-DCP-UNDATED",
    chapter="Massachusetts Rules of the Game of Double Cross Poker (205 CMR 146 et seq.)",
    effective_from=None,
    effective_to=None,
    unverified_sections=("effective dates",),
    notes=(
        "The source gives no effective date; compliance must supply it.",
        "Section 11(b) pay odds are minimums ('no less than'); a licensee may configure "
        "higher odds by replacing raise_table/three_card_table.",
        "Section 11(b) cites 'the payout limitation in (c)'; read as (d).",
        "Section 11(d) limit applied to the ante and both raises; the three-card wager "
        "is excluded by default (payout_limit_wagers).",
        "Hands of equal category are compared by standard poker order (kickers); "
        "Section 5 states no kicker rule (hand_comparison).",
    ),
)

_OWN: Mapping[str, RuleSet] = {
    ruleset.id: ruleset for ruleset in (PA_592_2014, PA_674A_2016, PA_674A_2019, MA_DCP)
}


class _AllRuleSets(Mapping[str, Any]):
    """These rule sets and those of every declared game (:mod:`tables.rules.registry`)."""

    def _all(self) -> Mapping[str, Any]:
        from tables.rules.registry import rulesets

        return {**_OWN, **rulesets()}

    def __getitem__(self, key: str) -> Any:
        return _OWN[key] if key in _OWN else self._all()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())


RULESETS: Mapping[str, Any] = _AllRuleSets()
"""Every rule set by its stable id, the declared games' included."""


def get_ruleset(ruleset_id: str) -> Any:
    """Return the rule set with ``ruleset_id``.

    >>> get_ruleset("MA-DCP-UNDATED").game
    'double_cross_poker'

    :raises KeyError: for an unknown id.
    """
    try:
        return RULESETS[ruleset_id]
    except KeyError:
        raise KeyError(f"unknown rule set {ruleset_id!r}") from None


def ruleset_for(game: str, jurisdiction: str, gaming_day: datetime.date) -> Any:
    """Return the rule set in force for ``game`` in ``jurisdiction`` on ``gaming_day``.

    >>> ruleset_for("criss_cross_poker", "PA", datetime.date(2017, 3, 1)).id
    'PA-674a-2016'
    >>> ruleset_for("criss_cross_poker", "PA", datetime.date(2014, 7, 11))
    Traceback (most recent call last):
    ...
    LookupError: no criss_cross_poker rule set in force in PA on 2014-07-11

    :raises LookupError: when no version (or more than one) is in force.
    """
    matches = [
        ruleset
        for ruleset in RULESETS.values()
        if ruleset.game == game
        and ruleset.jurisdiction == jurisdiction
        and ruleset.in_force(gaming_day)
    ]
    if len(matches) != 1:
        problem = "no" if not matches else "more than one"
        raise LookupError(
            f"{problem} {game} rule set in force in {jurisdiction} on {gaming_day.isoformat()}"
        )
    return matches[0]
