"""The poker room's games and rule sets as data (§ 553.9-553.14, § 553.18).

A :class:`Variant` declares a game of § 553.9(a): its streets (what is burnt
and dealt, to whom and face up or down, who opens the betting and whether the
small or the big bet applies), how hands are formed and which pots are split.
A :class:`PokerRuleSet` is the casino's Rules Submission for one table: the
variant, the betting structure and limits, the antes, blinds or Forced Bet,
the cap on raises (§ 553.18), the rake and the Bad Beat fund, and the
options where the chapter leaves a reading open.

Seats are numbered clockwise from the dealer's left, so "the first player to
the left of the dealer" (§ 553.10(c)) is the lowest seat number in the hand
and "closest to the left of the dealer" (§ 553.10(f)(2)) the lowest.

>>> HOLDEM.streets[1].board_cards, SEVEN_CARD_STUD.streets[0].player_cards
(3, (False, False, True))
>>> rules = PokerRuleSet(variant=HOLDEM, structure=Structure.LIMIT, small_bet_cents=200,
...     big_bet_cents=400, blinds_cents=(100, 200))
>>> rules.bet_size(HOLDEM.streets[2])
400
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum
from fractions import Fraction
from typing import ClassVar

from tables.rules.poker_room.charges import BadBeatRules, IncrementalRake, PercentageRake
from tables.rules.poker_room.lows import LowTieBreak

__all__ = [
    "FIVE_CARD_DRAW_HIGH",
    "FIVE_CARD_DRAW_LOW",
    "FIVE_CARD_STUD",
    "HOLDEM",
    "Kill",
    "KillOption",
    "OMAHA",
    "OMAHA_HI_LO_8",
    "SEVEN_CARD_STUD",
    "SEVEN_CARD_STUD_HI_LO",
    "SEVEN_CARD_STUD_HI_LO_8",
    "VARIANTS",
    "ForcedBetCard",
    "LowRule",
    "OddChipHighOnly",
    "Opener",
    "PokerRuleSet",
    "Street",
    "Structure",
    "Variant",
]


class Structure(StrEnum):
    """Betting structure named in the Rules Submission (§ 553.18)."""

    LIMIT = "limit"
    POT_LIMIT = "pot_limit"
    NO_LIMIT = "no_limit"


class Opener(StrEnum):
    """Who starts a street's betting."""

    BLINDS = "blinds"
    """The player left of the blind(s) (§ 553.11(f), § 553.12(f))."""
    FORCED_BET = "forced_bet"
    """The Forced Bet by up-card, then clockwise (§ 553.10(d)-(e), § 553.14(d)-(e))."""
    LEFT_OF_BUTTON = "left_of_button"
    """The first player left of the button who has not folded (§ 553.11(g))."""
    HIGH_SHOWING = "high_showing"
    """The highest hand showing, ties to the dealer's left (§ 553.10(f), § 553.14(f))."""


class LowRule(StrEnum):
    """Whether a game splits the pot with a low hand, and with which qualifier."""

    NONE = "none"
    ANY = "any"
    """High-low-hand Split without qualifier (§ 553.10(i)(2))."""
    EIGHT_OR_BETTER = "eight_or_better"
    """§ 553.10(j), § 553.12(k)."""


class ForcedBetCard(StrEnum):
    """Which up-card makes the Forced Bet (§ 553.10(d)(1)-(3), § 553.14(d)); suits s, h, d, c."""

    LOWEST = "lowest"
    """Lowest up-card, the ace high (§ 553.10(d)(1), (3), § 553.14(d))."""
    HIGHEST_ACE_LOW = "highest_ace_low"
    """Highest up-card, "an ace shall be considered ranked below a two" (§ 553.10(d)(2))."""


class OddChipHighOnly(StrEnum):
    """Who gets the odd chip of a tied pot in a high-only game.

    The chapter says it only for high-low split pots (§ 553.10(i)(2)(ii),
    § 553.12(j)(2)(ii)); § 553.4(e) and § 553.11(j) divide "equally" and are
    silent on the chip that cannot be divided, so the rule set chooses.
    """

    HIGHEST_CARD_BY_SUIT = "highest_card_by_suit"
    """As § 553.10(i)(2)(ii) says for a tied high half."""
    FIRST_LEFT_OF_BUTTON = "first_left_of_button"
    """The tied player first clockwise from the button (or the dealer)."""


class KillOption(StrEnum):
    """Omaha High-low-hand Split Eight or Better's raised limits (§ 553.1, § 553.12(m))."""

    KILL = "kill"
    """"the betting limits are twice the posted table wagering limits"."""
    HALF_KILL = "half_kill"
    """"increased by one-half the posted table wagering limits"."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Kill:
    """The Kill or Half-kill option and its qualifying pot (§ 553.1, § 553.12(m))."""

    option: KillOption
    qualifying_pot_cents: int

    @property
    def factor(self) -> Fraction:
        """How much the posted limits are multiplied by while the option is in force."""
        return Fraction(2) if self.option is KillOption.KILL else Fraction(3, 2)

    def in_force_next(
        self, *, in_force: bool, pot_cents: int, scooped: bool, split_high_low: bool
    ) -> bool:
        """Whether the next hand plays at the raised limits (§ 553.1 "Kill option").

        They begin "when one player wins an entire qualifying pot" and "remain in
        effect until a pot is split between one player winning the high hand and
        another player winning the low-hand or until a pot does not equal or
        exceed the qualifying pot".

        >>> kill = Kill(option=KillOption.KILL, qualifying_pot_cents=5_000)
        >>> kill.in_force_next(in_force=False, pot_cents=6_000, scooped=True, split_high_low=False)
        True
        >>> kill.in_force_next(in_force=True, pot_cents=6_000, scooped=False, split_high_low=True)
        False
        """
        if pot_cents < self.qualifying_pot_cents:
            return False
        return not split_high_low if in_force else scooped


@dataclass(frozen=True, slots=True, kw_only=True)
class Street:
    """One round of cards and the betting round that follows it (§ 553.7(c)).

    :ivar name: e.g. ``"flop"``, ``"fourth street"``.
    :ivar burn: a card is burnt before the street's cards (§ 553.7(e)(3)).
    :ivar player_cards: one entry per round of cards to each player, True when face up.
    :ivar board_cards: community cards dealt face up in the center.
    :ivar draw: the players draw, one at a time, instead of a round of cards (§ 553.13(g)).
    :ivar big_bet: the limit game's larger bet applies.
    :ivar opener: who starts the betting.
    :ivar deal_section: the section prescribing the dealing.
    :ivar bet_section: the section prescribing the order of betting.
    """

    name: str
    burn: bool
    player_cards: tuple[bool, ...] = ()
    board_cards: int = 0
    draw: bool = False
    big_bet: bool
    opener: Opener
    deal_section: str
    bet_section: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Variant:
    """A game of § 553.9(a).

    :ivar high: the best high hand wins (or shares) the pot; False in Draw Low-hand.
    :ivar blinds_after_deal: the Blind Bets follow the deal (§ 553.13(e)).
    :ivar omaha: hands use exactly two hole cards and three board cards (§ 553.12(j)).
    :ivar button: a button orders the dealing and betting (§ 553.11(c)).
    :ivar forced_bet_card: which up-card makes the Forced Bet (stud games).
    :ivar showdown_section: the section naming the winner.
    """

    name: str
    section: str
    max_players: int
    streets: tuple[Street, ...]
    low: LowRule = LowRule.NONE
    high: bool = True
    omaha: bool = False
    button: bool
    blinds_after_deal: bool = False
    forced_bet_card: ForcedBetCard | None = None
    showdown_section: str


def _button_streets(section: str, hole_cards: int) -> tuple[Street, ...]:
    """Hold'em and Omaha (§ 553.11(e)-(i), § 553.12(e)-(i)): they differ only in hole cards."""
    return (
        Street(name="pre-flop", burn=False, player_cards=(False,) * hole_cards, big_bet=False,
               opener=Opener.BLINDS, deal_section=f"{section}(e)", bet_section=f"{section}(f)"),
        Street(name="flop", burn=True, board_cards=3, big_bet=False, opener=Opener.LEFT_OF_BUTTON,
               deal_section=f"{section}(g)", bet_section=f"{section}(g)"),
        Street(name="turn", burn=True, board_cards=1, big_bet=True, opener=Opener.LEFT_OF_BUTTON,
               deal_section=f"{section}(h)", bet_section=f"{section}(h)"),
        Street(name="river", burn=True, board_cards=1, big_bet=True, opener=Opener.LEFT_OF_BUTTON,
               deal_section=f"{section}(i)", bet_section=f"{section}(i)"),
    )  # fmt: skip


_SEVEN_CARD_STUD_STREETS = (
    Street(name="third street", burn=False, player_cards=(False, False, True), big_bet=False,
           opener=Opener.FORCED_BET, deal_section="553.10(c)", bet_section="553.10(e)"),
    Street(name="fourth street", burn=True, player_cards=(True,), big_bet=False,
           opener=Opener.HIGH_SHOWING, deal_section="553.10(f)", bet_section="553.10(g)"),
    Street(name="fifth street", burn=True, player_cards=(True,), big_bet=True,
           opener=Opener.HIGH_SHOWING, deal_section="553.10(h)", bet_section="553.10(g)"),
    Street(name="sixth street", burn=True, player_cards=(True,), big_bet=True,
           opener=Opener.HIGH_SHOWING, deal_section="553.10(h)", bet_section="553.10(g)"),
    Street(name="seventh street", burn=True, player_cards=(False,), big_bet=True,
           opener=Opener.HIGH_SHOWING, deal_section="553.10(h)", bet_section="553.10(g)"),
)  # fmt: skip

HOLDEM = Variant(
    name="Hold'em", section="553.11", max_players=10, streets=_button_streets("553.11", 2),
    button=True, showdown_section="553.11(j)",
)  # fmt: skip
OMAHA = Variant(
    name="Omaha High", section="553.12", max_players=10, streets=_button_streets("553.12", 4),
    omaha=True, button=True, showdown_section="553.12(j)(1)",
)  # fmt: skip
OMAHA_HI_LO_8 = Variant(
    name="Omaha High-low-hand Split Eight or Better", section="553.12", max_players=10,
    streets=_button_streets("553.12", 4), low=LowRule.EIGHT_OR_BETTER, omaha=True, button=True,
    showdown_section="553.12(j)(2)",
)  # fmt: skip
SEVEN_CARD_STUD = Variant(
    name="Seven-card Stud High", section="553.10", max_players=8,
    streets=_SEVEN_CARD_STUD_STREETS, button=False, forced_bet_card=ForcedBetCard.LOWEST,
    showdown_section="553.10(i)(1)",
)  # fmt: skip
SEVEN_CARD_STUD_HI_LO = Variant(
    name="Seven-card Stud High-low-hand Split", section="553.10", max_players=8,
    streets=_SEVEN_CARD_STUD_STREETS, low=LowRule.ANY, button=False,
    forced_bet_card=ForcedBetCard.HIGHEST_ACE_LOW, showdown_section="553.10(i)(2)",
)  # fmt: skip
SEVEN_CARD_STUD_HI_LO_8 = Variant(
    name="Seven-card Stud High-low-hand Split Eight or Better", section="553.10", max_players=8,
    streets=_SEVEN_CARD_STUD_STREETS, low=LowRule.EIGHT_OR_BETTER, button=False,
    forced_bet_card=ForcedBetCard.LOWEST, showdown_section="553.10(i)(2)",
)  # fmt: skip
FIVE_CARD_STUD = Variant(
    name="Five-card Stud", section="553.14", max_players=8, button=False,
    forced_bet_card=ForcedBetCard.LOWEST, showdown_section="553.14(h)",
    streets=(
        Street(name="second card", burn=False, player_cards=(False, True), big_bet=False,
               opener=Opener.FORCED_BET, deal_section="553.14(c)", bet_section="553.14(e)"),
        Street(name="third card", burn=True, player_cards=(True,), big_bet=False,
               opener=Opener.HIGH_SHOWING, deal_section="553.14(f)", bet_section="553.14(f)"),
        Street(name="fourth card", burn=True, player_cards=(True,), big_bet=True,
               opener=Opener.HIGH_SHOWING, deal_section="553.14(g)", bet_section="553.14(g)"),
        Street(name="fifth card", burn=True, player_cards=(True,), big_bet=True,
               opener=Opener.HIGH_SHOWING, deal_section="553.14(g)", bet_section="553.14(g)"),
    ),
)  # fmt: skip

_FIVE_CARD_DRAW_STREETS = (
    Street(name="deal", burn=False, player_cards=(False,) * 5, big_bet=False,
           opener=Opener.BLINDS, deal_section="553.13(d)", bet_section="553.13(f)"),
    Street(name="draw", burn=False, draw=True, big_bet=True, opener=Opener.LEFT_OF_BUTTON,
           deal_section="553.13(g)", bet_section="553.13(h)"),
)  # fmt: skip
FIVE_CARD_DRAW_HIGH = Variant(
    name="Five-card Draw High", section="553.13", max_players=8, streets=_FIVE_CARD_DRAW_STREETS,
    button=True, blinds_after_deal=True, showdown_section="553.13(i)(1)",
)  # fmt: skip
FIVE_CARD_DRAW_LOW = Variant(
    name="Five-card Draw Low-hand", section="553.13", max_players=8,
    streets=_FIVE_CARD_DRAW_STREETS, low=LowRule.ANY, high=False, button=True,
    blinds_after_deal=True, showdown_section="553.13(i)(2)",
)  # fmt: skip

VARIANTS = (
    HOLDEM, OMAHA, OMAHA_HI_LO_8, SEVEN_CARD_STUD, SEVEN_CARD_STUD_HI_LO,
    SEVEN_CARD_STUD_HI_LO_8, FIVE_CARD_DRAW_HIGH, FIVE_CARD_DRAW_LOW, FIVE_CARD_STUD,
)  # fmt: skip
"""The games of § 553.9(a)(1)-(5)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class PokerRuleSet:
    """One table's Rules Submission for its poker game (§ 521.2, § 553.15, § 553.18).

    :ivar small_bet_cents: the limit game's bet on the early streets; the
        minimum opening bet in pot limit and no limit.
    :ivar big_bet_cents: the limit game's bet on the later streets.
    :ivar ante_cents: every player's Ante, 0 for none (§ 553.10(b), § 553.11(b)).
    :ivar blinds_cents: the Blind Bets from the left of the button (§ 553.11(d)).
    :ivar forced_bet_cents: the Forced Bet of the stud games (§ 553.10(d)).
    :ivar max_raises: the most raises in one betting round, None for no cap (§ 553.18).
    :ivar chip_cents: the smallest chip; a split pot's odd chip is one of these,
        at most $1 (§ 553.10(i)(2)(i): "the excess amount, which may not exceed $1").
    :ivar low_tie_break: the reading of § 553.4(e) for low hands.
    :ivar odd_chip_high_only: the odd chip of a tied high-only pot.
    :ivar disclose_all_hands: losing hands may not be conceded unseen (§ 553.16(d)).
    :ivar rake: the rake of § 553.15(b)(1) or (2), or None.
    :ivar bad_beat: the Bad Beat fund's posted rules, or None (§ 553.20).
    :ivar kill: the Kill or Half-kill option, Omaha Eight or Better only (§ 553.12(m)).
    """

    variant: Variant
    structure: Structure
    small_bet_cents: int
    big_bet_cents: int
    ante_cents: int = 0
    blinds_cents: tuple[int, ...] = ()
    forced_bet_cents: int = 0
    max_raises: int | None = 3
    chip_cents: int = 100
    low_tie_break: LowTieBreak = LowTieBreak.WORST_CARD_FIRST
    odd_chip_high_only: OddChipHighOnly = OddChipHighOnly.HIGHEST_CARD_BY_SUIT
    disclose_all_hands: bool = False
    rake: PercentageRake | IncrementalRake | None = None
    bad_beat: BadBeatRules | None = None
    kill: Kill | None = None
    deck_change_hours: int = 6
    """§ 553.3(b): "All decks opened for use on a Poker table shall be changed at least
    every 6 hours", whatever the dealing or shuffling; a casino may post a shorter interval."""
    deck_change_section: ClassVar[str] = "553.3(b)"
    deck_count_every_rounds: ClassVar[int] = 5
    """§ 553.7(e)(4)(i): the dealer counts "the entire deck of cards at least once every five
    rounds to determine that 52 cards are present", or the stub in Hold'em and Omaha; (ii) a
    shuffler that counts the cards as it shuffles them does instead."""
    deck_count_section: ClassVar[str] = "553.7(e)(4)"

    @property
    def stub_count_allowed(self) -> bool:
        """§ 553.7(e)(4)(i): "the dealer may count the stub in the games of Hold 'Em Poker
        and Omaha Poker"; the other games count the entire deck."""
        return self.variant.section in ("553.11", "553.12")

    def __post_init__(self) -> None:
        if self.blinds_cents and not self.variant.button:
            raise ValueError(
                f"§ 553.11(d): Blind Bets belong to the button games, not {self.variant.name}"
            )
        if self.variant.forced_bet_card is not None and self.forced_bet_cents <= 0:
            raise ValueError(f"§ {self.variant.section}(d): {self.variant.name} needs a Forced Bet")
        if self.variant.button and not self.blinds_cents:
            raise ValueError(f"§ {self.variant.section}(d): {self.variant.name} needs a Blind Bet")
        if not 0 < self.chip_cents <= 100:
            raise ValueError("§ 553.10(i)(2)(i): the odd chip may not exceed $1")
        if self.kill is not None and self.variant.low is not LowRule.EIGHT_OR_BETTER:
            raise ValueError("§ 553.12(m): the Kill options belong to Omaha Eight or Better")
        if self.small_bet_cents <= 0 or self.big_bet_cents < self.small_bet_cents:
            raise ValueError("§ 553.18: the bets must be positive, the big bet at least the small")
        if not 0 < self.deck_change_hours <= 6:
            raise ValueError("§ 553.3(b): decks are changed at least every 6 hours")

    def killed(self) -> PokerRuleSet:
        """The rule set at the Kill or Half-kill limits, each rounded down to the chip.

        >>> rules = PokerRuleSet(variant=OMAHA_HI_LO_8, structure=Structure.LIMIT,
        ...     small_bet_cents=400, big_bet_cents=800, blinds_cents=(200, 400),
        ...     kill=Kill(option=KillOption.HALF_KILL, qualifying_pot_cents=10_000))
        >>> killed = rules.killed()
        >>> killed.small_bet_cents, killed.big_bet_cents, killed.kill is None
        (600, 1200, True)
        """
        if self.kill is None:
            raise ValueError("§ 553.12(m): this table offers no Kill option")
        factor = self.kill.factor
        chip = self.chip_cents

        def raised(amount: int) -> int:
            return int(amount * factor) // chip * chip

        # The raised limits are not raised again while in force.
        return replace(
            self, small_bet_cents=raised(self.small_bet_cents),
            big_bet_cents=raised(self.big_bet_cents), kill=None,
        )  # fmt: skip

    def bet_size(self, street: Street) -> int:
        """The limit bet of ``street``, or the minimum bet of the other structures."""
        return self.big_bet_cents if street.big_bet else self.small_bet_cents
