"""A blackjack seat's hands from the deal to its last decision: draws, doubles, splits, surrender.

Each decision has ``verify_<decision>`` (a :class:`Refusal` citing the
chapter, or ``None``), ``can_<decision>`` and the decision itself, which
returns a new :class:`SeatHands` or raises :class:`RuleViolation`. The chapter's
differences come from :class:`tables.rules.blackjack.BlackjackRules`.

>>> from tables.rules.blackjack import FREE_BET_590
>>> from tables.rules.cards import Card, parse_cards
>>> seat = SeatHands.dealt(FREE_BET_590, Card.parse("6h"), parse_cards("8c 8d"), 1_000)
>>> seat = seat.split(0).card(Card.parse("3s"))
>>> [hand.stakes for hand in seat.hands]
[(('BLACKJACK', 1000),), (('FREE_SPLIT_LAMMER', 1000),)]
>>> seat.can_double(0), seat.verify_double(500).section
(True, '590.10(a)(1)')
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from typing import NamedTuple

from tables.rules.blackjack import (
    DOUBLE_ATTACK,
    DOUBLE_DOWN,
    FREE_DOUBLE_LAMMER,
    FREE_SPLIT_LAMMER,
    MARKERS,
    SECOND_CHANCE,
    SPLIT,
    BlackjackRules,
    BustAgainstBust,
    HandValue,
    SplitTwentyOne,
    card_value,
    described,
    hand_value,
    is_blackjack_pair,
    is_ten_value,
    same_value,
)
from tables.rules.cards import Card, Rank
from tables.rules.engine import Refusal, RuleViolation, evolve

__all__ = ["Pending", "Hand", "SeatHands"]


class Pending(enum.StrEnum):
    """The card a hand is waiting for, after the decision that calls for it."""

    HIT = "hit"
    DOUBLE = "double"
    SECOND_CHANCE = "second_chance"


class Hand(NamedTuple):
    """One of a seat's hands: its cards, the money and markers on it, and what it did."""

    cards: tuple[Card, ...]
    stakes: tuple[tuple[str, int], ...]
    split: bool = False
    aces_split: bool = False
    doubled: bool = False
    stood: bool = False
    surrendered: bool = False
    pending: Pending | None = None
    second_chance_card: Card | None = None

    def stake(self, wager: str) -> int:
        """Cents (or a marker's worth) on ``wager``, 0 if none."""
        return sum(amount for name, amount in self.stakes if name == wager)

    @property
    def money_cents(self) -> int:
        """The money on the hand, markers excluded (a Second Chance Wager's "current" amount)."""
        return sum(amount for name, amount in self.stakes if name not in MARKERS)

    @property
    def value(self) -> HandValue:
        """The count of the hand's cards (a Second Chance card not subtracted)."""
        return hand_value(self.cards)


class SeatHands(NamedTuple):
    """A seat's hands from the deal to its last decision, and the dealer's up card.

    Each decision has ``verify_<decision>`` (a :class:`Refusal` or ``None``),
    ``can_<decision>`` and the decision itself, which returns a new value or
    raises :class:`RuleViolation` (with ``verified=True`` the caller has just had
    ``verify_<decision>`` return ``None``, as replay has, so it is not run twice);
    :meth:`card` deals the card a decision (or a split) calls for. ``active`` is the
    hand deciding; once past the last hand, :attr:`finished` is true.
    """

    rules: BlackjackRules
    up_card: Card
    original_cents: int
    hands: tuple[Hand, ...]
    double_attack_cents: int = 0
    active: int = 0

    @classmethod
    def dealt(
        cls,
        rules: BlackjackRules,
        up_card: Card,
        cards: Sequence[Card],
        original_cents: int,
        double_attack_cents: int = 0,
    ) -> SeatHands:
        """A seat's two first cards under its main wager (and a § 581 Double Attack Wager)."""
        stakes: tuple[tuple[str, int], ...] = ((rules.main_wager, original_cents),)
        if double_attack_cents:
            stakes += ((DOUBLE_ATTACK, double_attack_cents),)
        seat = cls(
            rules=rules,
            up_card=up_card,
            original_cents=original_cents,
            double_attack_cents=double_attack_cents,
            hands=(Hand(cards=tuple(cards), stakes=stakes),),
        )
        return seat._advanced()

    # ---- state ---------------------------------------------------------------------------

    @property
    def finished(self) -> bool:
        """No hand of the seat awaits a decision or a card."""
        return self.active >= len(self.hands)

    @property
    def hand(self) -> Hand:
        """The hand deciding now."""
        return self.hands[self.active]

    def is_blackjack(self, hand: Hand) -> bool:
        """Whether ``hand`` is a Blackjack: the first two cards, or a split hand by reading."""
        if not is_blackjack_pair(hand.cards) or hand.second_chance_card is not None:
            return False
        return not hand.split or self.rules.split_twenty_one is SplitTwentyOne.BLACKJACK

    def depends_on_dealer(self, hand: Hand) -> bool:
        """Whether the dealer's final total can still change how ``hand`` settles.

        Not a surrender, nor a Blackjack (paid at once, § 5xx.7(h)(1), § 591.7(f)),
        nor a § 591.7(m) 21 or a Second Chance 21 or bust (§ 591.7(l)(1)-(2)),
        nor a bust unless ``bust_against_bust`` pushes against a dealer bust.
        The dealer's stop of § 590.7(m) and § 591.7(p) needs none left.
        """
        if hand.surrendered or self.is_blackjack(hand):
            return False
        total = hand.value.total
        if hand.second_chance_card is not None:
            return total - card_value(hand.second_chance_card) < 21
        if total == 21:
            return not self.rules.twenty_one_at_once
        return total < 21 or self.rules.bust_against_bust is BustAgainstBust.PUSH

    @property
    def awaits_dealer(self) -> bool:
        """Whether any hand of the seat still depends on the dealer's total."""
        return any(self.depends_on_dealer(hand) for hand in self.hands)

    def second_chance_open(self, hand: Hand) -> bool:
        """Whether a busted ``hand`` may still buy a Second Chance card (§ 591.7(l))."""
        rules = self.rules
        return (
            rules.second_chance
            and hand.second_chance_card is None
            and hand.value.busted
            and (rules.second_chance_after_double or not hand.doubled)
            and (rules.second_chance_on_split or not hand.split)
        )

    def is_done(self, hand: Hand) -> bool:
        """Whether ``hand`` needs no more decisions or cards (it may be settled)."""
        if hand.surrendered or hand.stood:
            return True
        if hand.pending is not None or len(hand.cards) < 2:
            return False
        if hand.second_chance_card is not None or self.is_blackjack(hand):
            return True
        total = hand.value.total
        if total > 21:
            return not self.second_chance_open(hand)
        if total == 21:
            return True
        one_card = hand.doubled or (hand.aces_split and self.rules.split_aces_one_card)
        # § 581.9(a): a doubled hand (or split ace) may still surrender below 21.
        return one_card and not self.rules.late_surrender

    def _first_undone(self, hands: tuple[Hand, ...]) -> int:
        active = self.active
        while active < len(hands) and self.is_done(hands[active]):
            active += 1
        return active

    def _advanced(self) -> SeatHands:
        active = self._first_undone(self.hands)
        return self if active == self.active else evolve(self, active=active)

    def _with_hand(self, hand: Hand, *extra: Hand) -> SeatHands:
        hands = (*self.hands[: self.active], hand, *extra, *self.hands[self.active + 1 :])
        return evolve(self, hands=hands, active=self._first_undone(hands))

    def _refusal(self, key: str, reason: str, field: str | None = "choice") -> Refusal:
        return Refusal(self.rules.section(key), reason, field)

    def _turn_refusal(self) -> Refusal | None:
        if self.finished:
            return self._refusal("decisions", "no hand of this seat awaits a decision")
        hand = self.hand
        if hand.pending is not None or len(hand.cards) < 2:
            return self._refusal("decisions", "the hand's card is due before any decision")
        return None

    @staticmethod
    def _raise(refusal: Refusal | None) -> None:
        if refusal is not None:
            raise RuleViolation.from_refusal(refusal)

    # ---- draw and stand ------------------------------------------------------------------

    def _draw_refusal(self, hand: Hand) -> Refusal | None:
        if self.is_blackjack(hand) or hand.value.total >= 21:
            return self._refusal("draw", f"no card may be drawn to {described(hand.cards)}")
        if hand.doubled:
            return self._refusal("double_card", "a doubled hand takes one card only")
        if hand.aces_split and self.rules.split_aces_one_card:
            return self._refusal("split_aces", "each split ace receives only one card")
        return None

    def verify_hit(self) -> Refusal | None:
        """Why the active hand may not draw a card (§ 5xx.7(j))."""
        return self._turn_refusal() or self._draw_refusal(self.hand)

    def can_hit(self) -> bool:
        """Whether :meth:`hit` would succeed."""
        return self.verify_hit() is None

    def hit(self, *, verified: bool = False) -> SeatHands:
        """The player asks for a card; :meth:`card` deals it."""
        if not verified:
            self._raise(self.verify_hit())
        return self._with_hand(evolve(self.hand, pending=Pending.HIT))

    def verify_stand(self) -> Refusal | None:
        """Why the active hand may not stand (on a bust: decline the Second Chance)."""
        return self._turn_refusal()

    def can_stand(self) -> bool:
        """Whether :meth:`stand` would succeed."""
        return self.verify_stand() is None

    def stand(self, *, verified: bool = False) -> SeatHands:
        """The player stands on the active hand."""
        if not verified:
            self._raise(self.verify_stand())
        return self._with_hand(evolve(self.hand, stood=True))

    # ---- double down ---------------------------------------------------------------------

    def free_double(self, hand: Hand) -> bool:
        """Whether ``hand`` doubles for a Free Bet lammer: two cards totalling hard 9, 10 or 11."""
        value = hand.value
        return self.rules.free_bet and len(hand.cards) == 2 and not value.soft and (
            9 <= value.total <= 11)  # fmt: skip

    def verify_double(self, amount_cents: int) -> Refusal | None:
        """Why the active hand may not double down for ``amount_cents`` (0: a free double)."""
        refusal = self._turn_refusal()
        if refusal is not None:
            return refusal
        hand, rules = self.hand, self.rules
        if self.is_blackjack(hand):
            return self._refusal("double", "a Blackjack may not double down")
        refusal = self._draw_refusal(hand)
        if refusal is not None:
            return refusal
        if len(hand.cards) != 2 and not rules.double_on_any_count:
            return self._refusal("double", "only the first two cards of a hand double down")
        if self.free_double(hand):
            if amount_cents:
                return self._refusal(
                    "double_free", "a hard 9, 10 or 11 doubles for a Free Bet lammer, no money",
                    "amount_cents",
                )  # fmt: skip
            return None
        cap = self.original_cents + self.double_attack_cents
        key = "double_paid" if rules.free_bet else "double"
        if not 0 < amount_cents <= cap:
            return self._refusal(
                key, f"must be more than 0 and at most {cap} cents, got {amount_cents}",
                "amount_cents",
            )  # fmt: skip
        return None

    def can_double(self, amount_cents: int) -> bool:
        """Whether :meth:`double` would succeed."""
        return self.verify_double(amount_cents) is None

    def double(self, amount_cents: int, *, verified: bool = False) -> SeatHands:
        """The player doubles down; :meth:`card` deals the one card, sideways."""
        if not verified:
            self._raise(self.verify_double(amount_cents))
        hand = self.hand
        added = (
            (FREE_DOUBLE_LAMMER, self.original_cents)
            if self.free_double(hand)
            else (DOUBLE_DOWN, amount_cents)
        )
        doubled = evolve(
            hand, stakes=(*hand.stakes, added), doubled=True, pending=Pending.DOUBLE
        )
        return self._with_hand(doubled)

    # ---- splits --------------------------------------------------------------------------

    def split_wager(self, hand: Hand) -> tuple[str, int]:
        """The wager a split of ``hand`` puts on the new hand, and its amount.

        § 581.11(a): equal to the original Bet and Double Attack Wagers;
        § 590.11(b): a pair of 10-values equal to the original Blackjack Wager,
        any other pair a Free Bet lammer; § 591.11(a): the original wager.
        """
        if self.rules.free_bet and not is_ten_value(hand.cards[0]):
            return FREE_SPLIT_LAMMER, self.original_cents
        return SPLIT, self.original_cents + self.double_attack_cents

    def verify_split(self, amount_cents: int) -> Refusal | None:
        """Why the active hand may not split for ``amount_cents`` (0: a free split)."""
        refusal = self._turn_refusal()
        if refusal is not None:
            return refusal
        hand, rules = self.hand, self.rules
        if len(hand.cards) != 2 or not same_value(*hand.cards):
            return self._refusal("split", "only two cards identical in value split")
        if len(self.hands) >= rules.max_hands:
            return self._refusal("split_limit", f"at most {rules.max_hands} hands")
        if hand.aces_split and rules.split_aces_one_card:
            return self._refusal("split_aces", "aces may not be split more than once")
        wager, amount = self.split_wager(hand)
        expected = 0 if wager in MARKERS else amount
        if amount_cents != expected:
            key = ("split_free" if expected == 0 else "split_tens") if rules.free_bet else "split"
            return self._refusal(
                key, f"the split wager must be {expected} cents, got {amount_cents}",
                "amount_cents",
            )  # fmt: skip
        return None

    def can_split(self, amount_cents: int) -> bool:
        """Whether :meth:`split` would succeed."""
        return self.verify_split(amount_cents) is None

    def split(self, amount_cents: int, *, verified: bool = False) -> SeatHands:
        """Two hands of one card each; the first (the dealer's left) is completed first.

        § 581.11(b), § 590.11(c), § 591.11(b). The hand's own wagers stay with the
        first hand (§ 590.11(b)(2)(ii)).
        """
        if not verified:
            self._raise(self.verify_split(amount_cents))
        hand = self.hand
        aces = hand.cards[0].rank is Rank.ACE
        first = evolve(hand, cards=hand.cards[:1], split=True, aces_split=aces)
        second = Hand(
            cards=hand.cards[1:], stakes=(self.split_wager(hand),), split=True, aces_split=aces
        )
        return self._with_hand(first, second)

    # ---- surrender -----------------------------------------------------------------------

    def verify_surrender(self) -> Refusal | None:
        """Why the active hand may not surrender.

        § 581.9(a): on the first two cards, or after more cards, a split or a
        double, but not after standing, and below 21 (§ 581.7(k)).
        § 590.9(a), § 591.9(a): on the first two cards, before any other decision.
        """
        refusal = self._turn_refusal()
        if refusal is not None:
            return refusal
        hand = self.hand
        if self.is_blackjack(hand):
            return self._refusal("surrender", "a Blackjack does not surrender")
        if self.rules.late_surrender:  # a hand of 21 or more is already over (§ 581.7(j)(1))
            return None
        # Two cards on the only hand: no draw, double or split has happened yet.
        if len(self.hands) > 1 or len(hand.cards) != 2:
            return self._refusal(
                "surrender", "surrender comes before any double, split, stand or draw"
            )
        return None

    def can_surrender(self) -> bool:
        """Whether :meth:`surrender` would succeed."""
        return self.verify_surrender() is None

    def surrender(self, *, verified: bool = False) -> SeatHands:
        """The player gives up the active hand for half its wager (settled at the peek)."""
        if not verified:
            self._raise(self.verify_surrender())
        return self._with_hand(evolve(self.hand, surrendered=True))

    # ---- Second Chance (§ 591.7(l)) ------------------------------------------------------

    def verify_second_chance(self, amount_cents: int) -> Refusal | None:
        """Why the busted active hand may not buy a Second Chance card for ``amount_cents``."""
        refusal = self._turn_refusal()
        if refusal is not None:
            return refusal
        if not self.rules.second_chance:
            return Refusal(
                self.rules.section("decisions"), "the game has no Second Chance", "choice"
            )
        hand = self.hand
        if not self.second_chance_open(hand):
            return self._refusal("second_chance", "only a busted hand, once, buys a Second Chance")
        if amount_cents != hand.money_cents:
            return self._refusal(
                "second_chance",
                f"must equal the current Blackjack Wager ({hand.money_cents} cents), "
                f"got {amount_cents}",
                "amount_cents",
            )
        return None

    def can_second_chance(self, amount_cents: int) -> bool:
        """Whether :meth:`second_chance` would succeed."""
        return self.verify_second_chance(amount_cents) is None

    def second_chance(self, amount_cents: int, *, verified: bool = False) -> SeatHands:
        """The Second Chance Wager; :meth:`card` deals the card to subtract, sideways."""
        if not verified:
            self._raise(self.verify_second_chance(amount_cents))
        hand = self.hand
        bought = evolve(
            hand, stakes=(*hand.stakes, (SECOND_CHANCE, amount_cents)),
            pending=Pending.SECOND_CHANCE,
        )  # fmt: skip
        return self._with_hand(bought)

    # ---- cards ---------------------------------------------------------------------------

    def verify_card(self) -> Refusal | None:
        """Why no card is due to the active hand now."""
        if self.finished:
            return self._refusal("decisions", "no hand of this seat awaits a card", "card")
        hand = self.hand
        if hand.pending is None and len(hand.cards) >= 2:
            return self._refusal("decisions", "the player has not asked for a card", "card")
        return None

    def can_card(self) -> bool:
        """Whether :meth:`card` would succeed."""
        return self.verify_card() is None

    def card(self, card: Card, *, verified: bool = False) -> SeatHands:
        """``card`` dealt to the active hand: its split card, a hit, a double or a Second Chance."""
        if not verified:
            self._raise(self.verify_card())
        hand = self.hand
        if hand.pending is Pending.SECOND_CHANCE:
            return self._with_hand(evolve(hand, second_chance_card=card, pending=None))
        return self._with_hand(evolve(hand, cards=(*hand.cards, card), pending=None))
