"""The blackjack family's core: hand values, the chapters' rules, the dealer's draw, the peek.

Double Attack Blackjack (§ 581), Free Bet Blackjack (§ 590) and Double Back
Jack (§ 591) share everything here; :data:`DOUBLE_ATTACK_581`,
:data:`FREE_BET_590` and :data:`DOUBLE_BACK_JACK_591` say where they differ.
A seat's hands and decisions are in :mod:`tables.rules.blackjack_hands`, settlement
in :mod:`tables.rules.blackjack_settlement`.

Where a chapter is silent or contradicts itself the rule set carries an
explicit reading, with a default, that every settlement it touches records:

* ``soft_17``: all three chapters say the dealer stands on "all 17s"
  (§ 581.7(n), § 590.7(l), § 591.7(o)); ``HIT`` exists for a Rules
  Submission or a later chapter that says otherwise, never as the default.
* ``bust_against_bust``: a busted player hand against a busted dealer (or a
  dealer 22) is settled nowhere (§ 581.7(o)(1)(ii)(B), § 590.7(q)(1),
  § 591.7(r)(3)(i) collect a bust only against 21 or less): ``PLAYER_LOSES``
  (ordinary practice, the digests' advice) or ``PUSH`` (the literal text).
* ``split_twenty_one``: an ace and a 10-value card on a split hand. § 591.11(b)
  says a 21, not a Blackjack; § 581 and § 590 are silent, and their
  definition of Blackjack is "the initial two cards to a player" (§ 5xx.1), so
  the default is the same 21.
* ``surrender_added_money`` (§ 581.9): surrender is allowed after a double or
  a split, but § 581.9(b) only halves the Bet and Double Attack Wagers. The
  default halves the added money the same way.
* ``surrender_timing``: when a surrender is made against an ace or 10-value up
  card. § 590.7(h)(2) and § 591.7(i) list it among the decisions made once the
  card reader reported no Blackjack; § 590.9(a)(2) and § 591.9(a)(2) set the
  surrendered wager on the cards and settle it "After the Insurance Wager is
  offered and the card reader device is utilized", in full on a dealer
  Blackjack, so before the peek (§ 581.7(h)(2) and § 581.9(b)(2) read alike).
  The default is ``AFTER_PEEK``: the procedure section orders the whole round
  and § 5xx.9(a) itself puts surrender before the double, split, stand or draw
  that only come after the peek; a surrendered hand loses its whole wager to a
  dealer Blackjack under either reading (and the player's best choice is the
  same, so the house edge is), and rounds recorded before the reading existed
  replay unchanged. ``BEFORE_PEEK`` takes § 5xx.9(a)(2) literally: any seat
  surrenders its first two cards until the reader is used, and (in 590 and
  591) not after it; § 581.7(k)'s surrender after more cards stays.
* ``split_aces_one_card``: § 581.11(e) gives split aces one card each and no
  resplit; § 590 and § 591 say nothing, so by default they play on.
* ``second_chance_after_double`` / ``second_chance_on_split`` (§ 591.7(l)):
  not excluded by the text; allowed by default, on the hand's "current
  Blackjack Wager" (the doubled or split amount).

Two readings the issue lists turn out to move no money, so they are not
options: the Double Down cap of § 581.10(a) ("original Bet and Double Attack
Wagers", a sum or each doubled: the total allowed is the same, and the
Double Down Wager is one wager returned whole on a dealer Blackjack,
§ 581.10(b)); and the share of the Double Attack Wager a § 581 split hand
carries (§ 581.11(d) returns the whole split wager on a dealer Blackjack, and
otherwise every part of a hand shares its result at 1 to 1). Nor is the soft
ace after a Second Chance subtraction (§ 591.7(l)): a busted total is hard
and at least 22, so after subtracting at most 10 it is at least 12, and an
ace counted 11 would bust it again.

>>> from tables.rules.cards import parse_cards
>>> hand_value(parse_cards("Ah 6c")), hand_value(parse_cards("Ah 6c Kd"))
(HandValue(total=17, soft=True), HandValue(total=17, soft=False))
>>> dealer_must_draw(DOUBLE_ATTACK_581, parse_cards("Ah 6c"))
False
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from tables.rules.cards import Card, Rank
from tables.rules.engine import Refusal
from tables.rules.money import Odds
from tables.rules.shoe import ShoeSpec, shoe_spec

__all__ = [
    "BET",
    "BLACKJACK_WAGER",
    "DOUBLE_ATTACK",
    "DOUBLE_DOWN",
    "SPLIT",
    "FREE_SPLIT_LAMMER",
    "FREE_DOUBLE_LAMMER",
    "SECOND_CHANCE",
    "INSURANCE",
    "BUST_IT",
    "PUSH_22",
    "MARKERS",
    "card_value",
    "HandValue",
    "hand_value",
    "same_value",
    "is_ten_value",
    "Soft17",
    "BustAgainstBust",
    "SplitTwentyOne",
    "SurrenderAddedMoney",
    "SurrenderTiming",
    "BlackjackRules",
    "DOUBLE_ATTACK_581",
    "FREE_BET_590",
    "DOUBLE_BACK_JACK_591",
    "dealer_must_draw",
    "verify_dealer_draw",
    "verify_dealer_stand",
    "dealer_draws",
    "peek_required",
    "is_blackjack_pair",
    "verify_reader_use",
    "insurance_offered",
    "insurance_cap",
    "verify_insurance",
    "described",
]

# Wager names: a hand's money, its markers, and the seat's side wagers.
BET = "BET"  # § 581.6(d)
BLACKJACK_WAGER = "BLACKJACK"  # § 590.6(d), § 591.6(d)
DOUBLE_ATTACK = "DOUBLE_ATTACK"  # § 581.6(e)
DOUBLE_DOWN = "DOUBLE_DOWN"
SPLIT = "SPLIT"
FREE_SPLIT_LAMMER = "FREE_SPLIT_LAMMER"  # § 590.11(b)(2)
FREE_DOUBLE_LAMMER = "FREE_DOUBLE_LAMMER"  # § 590.10(a)(1)
SECOND_CHANCE = "SECOND_CHANCE"  # § 591.7(l)
INSURANCE = "INSURANCE"
BUST_IT = "BUST_IT"  # § 581.6(f)
PUSH_22 = "PUSH_22"  # § 590.6(e)
MARKERS = frozenset({FREE_SPLIT_LAMMER, FREE_DOUBLE_LAMMER})
"""Free Bet lammers: paid like money when they win, but no money when they lose."""

_TEN_VALUES = frozenset({Rank.TEN, Rank.JACK, Rank.QUEEN, Rank.KING})
# Counts by rank (read for every card of every hand): an ace 1, a 10-value 10.
_VALUES = {rank: 1 if rank is Rank.ACE else min(int(rank), 10) for rank in Rank}


def card_value(card: Card) -> int:
    """A card's count with an ace as 1 (§ 5xx.3(d)): 2-9 face value, 10 and faces 10.

    >>> card_value(Card.parse("Qs")), card_value(Card.parse("As")), card_value(Card.parse("7d"))
    (10, 1, 7)
    """
    return _VALUES[card.rank]


def is_ten_value(card: Card) -> bool:
    """A 10, jack, queen or king (§ 590.11(b)(1))."""
    return card.rank in _TEN_VALUES


@dataclass(frozen=True, slots=True)
class HandValue:
    """A hand's point count; ``soft`` when an ace counts 11 (§ 5xx.1, § 5xx.3(d)(3))."""

    total: int
    soft: bool

    @property
    def busted(self) -> bool:
        """Over 21 (§ 591.1 "Bust")."""
        return self.total > 21


# Every count a hand can reach, made once: replay values hands on almost every event, and a
# frozen dataclass's __init__ costs more than the count itself.
_HARD = tuple(HandValue(total, False) for total in range(64))
_SOFT = tuple(HandValue(total, True) for total in range(64))


def hand_value(cards: Iterable[Card]) -> HandValue:
    """The count of ``cards``: one ace counts 11 unless that would exceed 21 (§ 5xx.3(d)(3))."""
    total = 0
    aces = False
    for card in cards:
        value = _VALUES[card.rank]
        total += value
        aces = aces or value == 1
    if aces and total <= 11:
        return _SOFT[total + 10]
    return _HARD[total] if total < 64 else HandValue(total, False)


def same_value(first: Card, second: Card) -> bool:
    """Two cards "identical in value" (a king and a queen are, § 581.11(a))."""
    return card_value(first) == card_value(second)


def is_blackjack_pair(cards: Sequence[Card]) -> bool:
    """An ace and a 10-value card as two cards (§ 5xx.1 "Blackjack")."""
    if len(cards) != 2:
        return False
    first, second = _VALUES[cards[0].rank], _VALUES[cards[1].rank]
    return first + second == 11 and (first == 1 or second == 1)


class Soft17(enum.StrEnum):
    """What the dealer does on a soft 17."""

    STAND = "stand"
    HIT = "hit"


class BustAgainstBust(enum.StrEnum):
    """A busted player hand against a dealer who also went over 21."""

    PLAYER_LOSES = "player_loses"
    PUSH = "push"


class SplitTwentyOne(enum.StrEnum):
    """An ace and a 10-value card on a hand formed by a split."""

    TWENTY_ONE = "twenty_one"
    BLACKJACK = "blackjack"


class SurrenderAddedMoney(enum.StrEnum):
    """§ 581.9: what a surrender does to a Double Down or split wager on the hand."""

    HALF = "half"
    RETURNED = "returned"
    FORFEITED = "forfeited"


class SurrenderTiming(enum.StrEnum):
    """§ 590.7(h)(2) against § 590.9(a)(2) (§ 591.7(i), § 591.9(a)(2)): a surrender
    against an ace or 10-value up card comes after the card reader, or before it."""

    AFTER_PEEK = "after_peek"
    BEFORE_PEEK = "before_peek"


@dataclass(frozen=True, slots=True, kw_only=True)
class BlackjackRules:
    """One chapter's blackjack rules as data, and the readings its Rules Submission chose.

    ``sections`` maps a rule's key to its number in the chapter; :meth:`section`
    cites it.
    """

    chapter: str
    main_wager: str
    blackjack_odds: Odds
    insurance_odds: Odds
    win_odds: Odds = Odds(1)
    max_hands: int
    insurance_ranks: frozenset[Rank]
    double_on_any_count: bool = False
    late_surrender: bool = False
    free_bet: bool = False
    second_chance: bool = False
    dealer_22_pushes: bool = False
    blackjack_before_peek: bool = False
    twenty_one_at_once: bool = False
    dealer_may_stop: bool = False
    sections: Mapping[str, str]
    soft_17: Soft17 = Soft17.STAND
    bust_against_bust: BustAgainstBust = BustAgainstBust.PLAYER_LOSES
    split_twenty_one: SplitTwentyOne = SplitTwentyOne.TWENTY_ONE
    split_aces_one_card: bool = False
    surrender_added_money: SurrenderAddedMoney = SurrenderAddedMoney.HALF
    surrender_timing: SurrenderTiming = SurrenderTiming.AFTER_PEEK
    second_chance_after_double: bool = True
    second_chance_on_split: bool = True
    push_22_table: str = "A"
    #: Decks in a batch: eight Spanish decks in § 581.3(a); "at least one deck" in
    #: § 590.3(a) and § 591.3(a), the number the Rules Submission fixes (six is our
    #: default for a table that names none, not the regulation's).
    decks: int = 6
    #: Two batches alternating through an automated shuffler (§ 5xx.3(b)).
    two_batches: bool = False

    def section(self, key: str) -> str:
        """Cite the rule ``key`` in this chapter (``"split_limit"`` → ``"581.11(c)"``)."""
        return f"{self.chapter}.{self.sections[key]}"

    def shoe(self) -> ShoeSpec:
        """The batch these rules deal from (:mod:`tables.rules.shoe`).

        :raises RuleViolation: for a deck count the chapter does not allow.
        """
        return shoe_spec(self.chapter, self.decks, two_batches=self.two_batches)

    @property
    def readings(self) -> tuple[tuple[str, str], ...]:
        """Every reading and its value, as a settlement records them."""
        return (
            ("soft_17", self.soft_17.value),
            ("bust_against_bust", self.bust_against_bust.value),
            ("split_twenty_one", self.split_twenty_one.value),
            ("split_aces_one_card", str(self.split_aces_one_card).lower()),
            ("surrender_added_money", self.surrender_added_money.value),
            ("surrender_timing", self.surrender_timing.value),
            ("second_chance_after_double", str(self.second_chance_after_double).lower()),
            ("second_chance_on_split", str(self.second_chance_on_split).lower()),
            ("push_22_table", self.push_22_table),
        )


_COMMON = {
    "values": "3(d)", "blackjack": "1", "insurance_offer": "8(a)", "insurance_cap": "8(b)",
    "insurance_lost": "8(d)", "surrender": "9(a)", "double": "10(a)", "split": "11(a)",
    "win_odds": "12(a)", "draw": "7(j)", "double_card": "7(j)(2)", "decisions": "7(h)(2)",
}  # fmt: skip

DOUBLE_ATTACK_581 = BlackjackRules(
    chapter="581",
    main_wager=BET,
    blackjack_odds=Odds(1),  # § 581.12(a), § 581.2(b)(3)(i) "Blackjack pays even money"
    insurance_odds=Odds(5, 2),  # § 581.12(b)
    max_hands=4,  # § 581.11(c)
    insurance_ranks=frozenset({Rank.KING, Rank.QUEEN, Rank.JACK}),  # § 581.8(a)
    double_on_any_count=True,  # § 581.10(a) "two or more cards"
    late_surrender=True,  # § 581.9(a), § 581.7(k)
    split_aces_one_card=True,  # § 581.11(e)
    decks=8,  # § 581.3(a)
    sections={
        **_COMMON, "peek": "7(g)", "insurance_pays": "12(b)", "surrender_half": "9(b)(1)",
        "surrender_dealer_blackjack": "9(b)(2)(i)", "surrender_before_peek": "9(b)(2)",
        "split_limit": "11(c)", "split_aces": "11(e)", "dealer_draw": "7(n)",
        "dealer_third_card": "7(m)(2)", "win": "7(o)(1)(i)", "lose": "7(o)(1)(ii)",
        "tie": "7(o)(1)(iii)", "bust": "7(o)(1)(ii)(B)", "dealer_blackjack": "7(o)(1)(ii)(A)",
        "player_blackjack": "7(h)(1)", "player_blackjack_wins": "7(o)(1)(i)(C)",
        "double_attack_returned": "7(o)(2)", "double_then_dealer_blackjack": "10(b)",
        "split_then_dealer_blackjack": "11(d)", "bust_it": "12(c)", "bust_it_lost": "7(m)",
        "double_attack": "6(e)", "bust_it_amount": "6(f)",
    },
)  # fmt: skip
"""Double Attack Blackjack, temporary Chapter 581."""

FREE_BET_590 = BlackjackRules(
    chapter="590",
    main_wager=BLACKJACK_WAGER,
    blackjack_odds=Odds(3, 2),  # § 590.12(a)
    insurance_odds=Odds(2),  # § 590.12(b)
    max_hands=4,  # § 590.11(d)
    insurance_ranks=_TEN_VALUES,  # § 590.8(a)
    free_bet=True,
    dealer_22_pushes=True,  # § 590.7(n)(1)
    dealer_may_stop=True,  # § 590.7(m)
    sections={
        **_COMMON, "peek": "7(g)", "insurance_pays": "12(b)", "surrender_half": "9(a)(1)",
        "surrender_dealer_blackjack": "9(a)(2)", "surrender_before_peek": "9(a)(2)",
        "split_limit": "11(d)",
        "split_tens": "11(b)(1)", "split_free": "11(b)(2)", "double_free": "10(a)(1)",
        "double_paid": "10(a)(2)", "dealer_draw": "7(l)", "dealer_stop": "7(m)",
        "win": "7(o)", "lose": "7(q)", "tie": "7(p)", "bust": "7(q)(1)",
        "dealer_blackjack": "7(g)(2)", "both_blackjack": "7(g)(1)",
        "player_blackjack": "7(h)(1)", "dealer_22": "7(n)(1)", "push_22": "12(c)",
        "push_22_lost": "7(n)(2)", "push_22_dealer_blackjack": "7(g)(2)",
    },
)  # fmt: skip
"""Free Bet Blackjack, temporary Chapter 590."""

DOUBLE_BACK_JACK_591 = BlackjackRules(
    chapter="591",
    main_wager=BLACKJACK_WAGER,
    blackjack_odds=Odds(2),  # § 591.12(a)
    insurance_odds=Odds(2),  # § 591.12(c)
    max_hands=2,  # § 591.11(a) "a maximum of two separate hands"
    insurance_ranks=_TEN_VALUES,  # § 591.8(a)
    second_chance=True,
    dealer_22_pushes=True,  # § 591.7(q)(1)
    blackjack_before_peek=True,  # § 591.7(f)
    twenty_one_at_once=True,  # § 591.7(m)
    dealer_may_stop=True,  # § 591.7(p)
    sections={
        **_COMMON, "peek": "7(h)", "insurance_pays": "12(c)", "surrender_half": "9(a)(1)",
        "surrender_dealer_blackjack": "9(a)(2)", "surrender_before_peek": "9(a)(2)",
        "split_limit": "11(a)", "draw": "7(k)",
        "double_card": "10(a)", "decisions": "7(i)", "dealer_draw": "7(o)",
        "dealer_stop": "7(p)", "win": "7(s)(1)(ii)", "lose": "7(s)(3)", "tie": "7(s)(2)",
        "bust": "7(r)(3)(i)", "dealer_blackjack": "7(h)", "player_blackjack": "7(f)",
        "dealer_22": "7(q)(1)", "twenty_one": "7(m)", "split_twenty_one": "11(b)",
        "second_chance": "7(l)", "second_chance_pays": "12(b)",
        "second_chance_win": "7(s)(1)(i)",
    },
)  # fmt: skip
"""Double Back Jack, temporary Chapter 591."""


# ---- the dealer ---------------------------------------------------------------------------


def dealer_must_draw(rules: BlackjackRules, cards: Sequence[Card]) -> bool:
    """Whether the dealer's rule makes him draw to ``cards``: below 17 (and a soft 17 on ``HIT``).

    § 581.7(m)-(n), § 590.7(l), § 591.7(o): "until he has a hard or soft total
    of 17, 18, 19, 20 or 21".
    """
    value = hand_value(cards)
    return value.total < 17 or (value.total == 17 and value.soft and rules.soft_17 is Soft17.HIT)


def verify_dealer_draw(
    rules: BlackjackRules, cards: Sequence[Card], *, outcome_open: bool = True
) -> Refusal | None:
    """Why the dealer may not draw another card to ``cards`` (a finding when he did).

    ``outcome_open``: some wager still depends on the dealer's total; when none
    does § 590.7(m) and § 591.7(p) forbid further cards.
    """
    if len(cards) < 2:
        return None
    if not dealer_must_draw(rules, cards):
        return Refusal(
            rules.section("dealer_draw"),
            f"the dealer stands on {described(cards)}; a card drawn on a 17 goes to the "
            f"discard rack (§ {rules.chapter}.13(d))",
        )
    if rules.dealer_may_stop and not outcome_open:
        return Refusal(rules.section("dealer_stop"), "no wager depends on the dealer's total")
    return None


def verify_dealer_stand(
    rules: BlackjackRules, cards: Sequence[Card], *, outcome_open: bool = True
) -> Refusal | None:
    """Why the dealer may not stop on ``cards`` (a finding when he did: standing on 16).

    § 581.7(m)(2) makes the Double Attack dealer draw the third card for the
    Bust It Wagers whatever the players hold; the stop of § 590.7(m) and
    § 591.7(p) applies only once no wager depends on the total (a Push 22
    Wager still open does).
    """
    if not dealer_must_draw(rules, cards):
        return None
    if rules.dealer_may_stop and not outcome_open:
        return None
    third = len(cards) == 2 and "dealer_third_card" in rules.sections
    section = "dealer_third_card" if third else "dealer_draw"
    return Refusal(rules.section(section), f"the dealer must draw to {described(cards)}")


def dealer_draws(
    rules: BlackjackRules, cards: Sequence[Card], shoe: Iterable[Card]
) -> tuple[Card, ...]:
    """The dealer's final hand: ``cards`` and as many from ``shoe`` as the rule requires.

    >>> from tables.rules.cards import parse_cards
    >>> [str(card) for card in dealer_draws(FREE_BET_590, parse_cards("9h 4c"),
    ...                                      parse_cards("2d 3s Kc"))]
    ['9h', '4c', '2d', '3s']

    :raises ValueError: if the shoe runs out first.
    """
    hand = list(cards)
    source = iter(shoe)
    while dealer_must_draw(rules, hand):
        card = next(source, None)
        if card is None:
            raise ValueError("the shoe ran out before the dealer's hand was complete")
        hand.append(card)
    return tuple(hand)


def described(cards: Sequence[Card]) -> str:
    """``"soft 17"``, ``"hard 16"``: a total as refusals name it."""
    value = hand_value(cards)
    return f"{'soft' if value.soft else 'hard'} {value.total}"


# ---- the peek and insurance ---------------------------------------------------------------


def peek_required(rules: BlackjackRules, up_card: Card) -> bool:
    """Whether the hole card goes into the card reader: an ace or a 10-value up card.

    § 581.7(g) lists "an ace, king, queen or jack" (the batch has no 10s);
    § 590.7(g) and § 591.7(h) "an ace, king, queen, jack or ten".
    """
    return up_card.rank is Rank.ACE or up_card.rank in _TEN_VALUES


def verify_reader_use(
    rules: BlackjackRules, up_card: Card, *, players_could_learn: bool
) -> Refusal | None:
    """The remedy when the hole card went into the card reader for an up card that needs no peek.

    § 581.13(h): all hands dead and every wager returned if the reader lets a
    player learn the hole card (``players_could_learn``), else play goes on;
    § 590.13(i), § 591.13(i): play goes on. ``None``: the peek was required, or
    play goes on; otherwise the refusal names the void.
    """
    if peek_required(rules, up_card) or rules.chapter != "581" or not players_could_learn:
        return None
    return Refusal(f"{rules.chapter}.13(h)(1)", "all hands are dead and every wager returned")


def insurance_offered(up_card: Card) -> bool:
    """Insurance is offered when the dealer's first card is an ace (§ 5xx.8(a))."""
    return up_card.rank is Rank.ACE


def insurance_cap(main_stake_cents: int, chip_unit_cents: int) -> int:
    """The largest Insurance Wager: half the initial wager, or the next chip unit above it.

    § 5xx.8(b): "not more than 1/2 of the player's [initial] Bet Wager", or
    "in excess of 1/2 ... to the next unit that can be wagered in chips" when
    half cannot be bet.

    >>> insurance_cap(2_500, 100), insurance_cap(2_000, 100), insurance_cap(2_500, 50)
    (1300, 1000, 1250)
    """
    half = Fraction(main_stake_cents, 2)
    units = -(-half // chip_unit_cents)
    return int(units) * chip_unit_cents


def verify_insurance(
    rules: BlackjackRules,
    up_card: Card,
    main_stake_cents: int,
    amount_cents: int,
    *,
    chip_unit_cents: int = 100,
    peeked: bool = False,
) -> Refusal | None:
    """Why an Insurance Wager of ``amount_cents`` may not be placed."""
    if not insurance_offered(up_card):
        return Refusal(rules.section("insurance_offer"), "the dealer's first card is not an ace")
    if peeked:
        return Refusal(
            rules.section("insurance_cap"), "placed after the hole card went into the reader"
        )
    cap = insurance_cap(main_stake_cents, chip_unit_cents)
    if not 0 < amount_cents <= cap:
        return Refusal(
            rules.section("insurance_cap"),
            f"must be more than 0 and at most {cap} cents, got {amount_cents}",
            "amount_cents",
        )
    return None
