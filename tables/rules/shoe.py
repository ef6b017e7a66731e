"""The dealing shoe of the blackjack chapters: one state that spans many rounds.

Double Attack Blackjack (§ 581), Free Bet Blackjack (§ 590) and Double Back
Jack (§ 591) deal every round from a shoe filled once per shuffle:

* the batch: eight Spanish decks of 48 cards, the 10s removed (§ 581.3(a)),
  or as many standard decks as the Rules Submission sets (§ 590.3(a),
  § 591.3(a)); with an automated shuffler two batches alternate, one shuffled
  while the other is dealt (§ 5xx.3(b));
* the shuffle (§ 5xx.5(a)), recorded with the order of the cards when the
  device or the simulation knows it, so replay knows the next card;
* the cut: a cover card at least ten cards from the top or bottom, the cards
  above it moved under, then the cover card at least 1/4 of the way in from
  the bottom (§ 5xx.5(d));
* burns: the first card of each full batch and one per new dealer go to the
  discard rack (§ 5xx.7(c));
* the cover card reached, at the start of a round or during it: the round is
  completed, then the cards are collected and reshuffled (§ 5xx.7(d));
* too few cards to finish a round: the discard rack is shuffled and cut, its
  first card burned, and the round completed (§ 581.13(e), § 590.13(f),
  § 591.13(f)); we read "insufficient" as the shoe being empty, so the cards
  still in the shoe are dealt first;
* the discard rack, which takes each round's cards once it is settled
  (§ 581.7(q), § 590.7(s), § 591.7(u)).

Every action is a ``verify_<action>`` returning a :class:`Refusal` (its
section and a reason) or ``None``, a ``can_<action>`` bool, and the action
itself, which returns a new :class:`Shoe` or raises :class:`RuleViolation`.
:meth:`Shoe.replay_draw` records a card the table did deal, whatever the
rules say, and returns the findings instead of refusing.

The shoe never invents a card: the order comes with the shuffle, or not at
all (then only the batch's composition is checked).

>>> from tables.rules.cards import Card
>>> shoe = Shoe.opened(shoe_spec("591", decks=1)).shuffle().cut(cut_at=20, cover_at=39)
>>> shoe.burns_due, shoe.cards_left
(1, 52)
>>> shoe = shoe.burn().begin_round().draw(Card.parse("As"))
>>> shoe.cards_left, shoe.unaccounted[Card.parse("As").index]
(50, 0)
>>> shoe.draw(Card.parse("As"))  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
tables.rules.engine.RuleViolation: 591.3(a): As cannot come out of this shoe: ...
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from tables.rules.cards import STANDARD_DECK, Card, Rank
from tables.rules.engine import Refusal, RuleViolation, evolve

__all__ = [
    "DeckKind",
    "ShoeSpec",
    "shoe_spec",
    "ShoePhase",
    "Destination",
    "Reshuffle",
    "Shoe",
]


class DeckKind(enum.StrEnum):
    """What one deck of the batch holds."""

    SPANISH_48 = "spanish_48"
    """A standard deck with the 10 of each suit removed (§ 581.3(a), § 581.4(b))."""
    STANDARD_52 = "standard_52"


# Chapter → (the batch's deck kind, the "insufficient cards" section, the discard
# rack's section at the end of a round, the failed shuffler's reshuffle). Every
# other shoe section has the same number in the three chapters.
_CHAPTERS = {
    "581": (DeckKind.SPANISH_48, "13(e)", "7(q)", "13(j)"),
    "590": (DeckKind.STANDARD_52, "13(f)", "7(s)", "13(k)"),
    "591": (DeckKind.STANDARD_52, "13(f)", "7(u)", "13(k)"),
}
_SPANISH_DECKS = 8  # § 581.3(a), (b)(1): an eight-deck batch


@dataclass(frozen=True, slots=True, kw_only=True)
class ShoeSpec:
    """A chapter's batch of cards: how many decks of which kind, one batch or two.

    Build it with :func:`shoe_spec`, which checks the chapter's rules.
    """

    chapter: str
    decks: int
    kind: DeckKind
    two_batches: bool = False
    insufficient_section: str = "13(f)"
    discard_section: str = "7(s)"
    shuffler_section: str = "13(k)"
    composition: tuple[int, ...] = field(init=False, repr=False, compare=False)
    """How many of each card (by :attr:`Card.index`) one batch holds."""

    def __post_init__(self) -> None:
        per_deck = tuple(
            0 if self.kind is DeckKind.SPANISH_48 and card.rank is Rank.TEN else 1
            for card in STANDARD_DECK
        )
        object.__setattr__(self, "composition", tuple(count * self.decks for count in per_deck))

    @property
    def size(self) -> int:
        """Cards in one batch (384 for Double Attack's eight Spanish decks)."""
        return sum(self.composition)

    def section(self, number: str) -> str:
        """Cite ``number`` in the chapter (``"5(d)"`` → ``"581.5(d)"``)."""
        return f"{self.chapter}.{number}"


def shoe_spec(chapter: str, decks: int | None = None, *, two_batches: bool = False) -> ShoeSpec:
    """The batch a chapter allows: eight Spanish decks for 581, ``decks`` standard ones otherwise.

    With ``two_batches`` (an automated shuffler other than a continuous one,
    § 5xx.3(b)) ``decks`` is the number in each batch.

    :raises RuleViolation: for a deck count the chapter does not allow.

    >>> shoe_spec("581").size, shoe_spec("590", 6).size
    (384, 312)
    >>> shoe_spec("581", 6)
    Traceback (most recent call last):
    ...
    tables.rules.engine.RuleViolation: 581.3(a): Double Attack Blackjack is played with an \
eight-deck batch, got 6 decks (field: decks)
    """
    if chapter not in _CHAPTERS:
        raise ValueError(f"no blackjack shoe for chapter {chapter!r}")
    kind, insufficient, discard, shuffler = _CHAPTERS[chapter]
    if kind is DeckKind.SPANISH_48:
        if decks not in (None, _SPANISH_DECKS):
            raise RuleViolation(
                f"{chapter}.3(b)(1)" if two_batches else f"{chapter}.3(a)",
                f"Double Attack Blackjack is played with an eight-deck batch, got {decks} decks",
                "decks",
            )
        decks = _SPANISH_DECKS
    elif decks is None or decks < 1:
        raise RuleViolation(f"{chapter}.3(a)", f"at least one deck is needed, got {decks}", "decks")
    return ShoeSpec(
        chapter=chapter,
        decks=decks,
        kind=kind,
        two_batches=two_batches,
        insufficient_section=insufficient,
        discard_section=discard,
        shuffler_section=shuffler,
    )


class ShoePhase(enum.StrEnum):
    """Where the cards are between the shuffles."""

    COLLECTED = "collected"
    """Gathered for a shuffle: a fresh batch, a reshuffle, or the discard rack mid-round."""
    STACKED = "stacked"
    """Shuffled into one stack, waiting for the cut."""
    DEALING = "dealing"
    """Cut, in the dealing shoe."""
    RESHUFFLE_DUE = "reshuffle_due"
    """The cover card came out and the round is over: collect and reshuffle (§ 5xx.7(d))."""


class Destination(enum.StrEnum):
    """Where a card taken from the shoe goes."""

    ROUND = "round"
    """Onto the layout, a card of the round."""
    DISCARD = "discard"
    """Straight to the discard rack unused: a card found face up in the shoe
    (§ 5xx.13(a)) or one the dealer drew in error on a 17 (§ 5xx.13(d))."""


class Reshuffle(enum.StrEnum):
    """Why every card is gathered and reshuffled between rounds."""

    COVER_CARD = "cover_card"
    """The cover card came out during the last round (§ 5xx.5(f), § 5xx.7(d))."""
    DIRECTED = "directed"
    """A floorperson or above directed it after a round (§ 5xx.5(f))."""
    IDLE_TABLE = "idle_table"
    """No gaming activity: the cards are spread, inspected and reshuffled (§ 5xx.5(g))."""
    SHUFFLER_FAILED = "shuffler_failed"
    """The automated shuffler jammed or did not complete its cycle (§ 581.13(j), § 590.13(k))."""


def _bumped(counts: tuple[int, ...], index: int, delta: int) -> tuple[int, ...]:
    return (*counts[:index], counts[index] + delta, *counts[index + 1 :])


_NONE = (0,) * 52


class Shoe(NamedTuple):
    """The cards of one table's batch, from the shuffle to the discard rack.

    Counts are by :attr:`Card.index`. ``unaccounted`` holds the cards of the
    batch nobody has seen leave the stack: those still in it, and those burned
    face down (``unseen_burns`` of them). Seen cards are ``on_table`` (the
    round's) or in the ``discard`` rack. Without a finding,
    ``unaccounted + on_table + discard`` is the batch, and
    ``sum(unaccounted) == cards_left + unseen_burns``.
    """

    spec: ShoeSpec
    phase: ShoePhase = ShoePhase.COLLECTED
    batch: int | None = None
    """Which of the two batches is in play (0 or 1), with two batches."""
    previous_batch: int | None = None
    unaccounted: tuple[int, ...] = _NONE
    on_table: tuple[int, ...] = _NONE
    discard: tuple[int, ...] = _NONE
    unseen_burns: int = 0
    order: tuple[Card, ...] | None = None
    """The stack, top first, once cut, when the shuffle recorded it."""
    size: int = 0
    """Cards in the stack at the cut."""
    drawn: int = 0
    """Cards taken from the stack since the cut."""
    cover_at: int | None = None
    """Cards above the cover card in the stack."""
    cover_reached: bool = False
    burns_due: int = 0
    round_open: bool = False
    from_discards: bool = False
    """The stack is the discard rack, reshuffled mid-round (§ 581.13(e))."""
    foreign: int = 0
    """Cards replay recorded that could not have come out of this batch."""

    # ---- construction ---------------------------------------------------------------

    @classmethod
    def opened(cls, spec: ShoeSpec) -> Shoe:
        """A fresh batch at the table, inspected and ready for the shuffle (§ 5xx.4)."""
        return cls(spec=spec, unaccounted=spec.composition, size=spec.size)

    # ---- what the state says ----------------------------------------------------------

    @property
    def cards_left(self) -> int:
        """Cards still in the stack (the cover card not counted)."""
        return self.size - self.drawn if self.phase is not ShoePhase.COLLECTED else 0

    @property
    def next_card(self) -> Card | None:
        """The card the dealer takes next, when the shuffle recorded the order."""
        if self.phase is not ShoePhase.DEALING or self.order is None or not self.cards_left:
            return None
        return self.order[self.drawn]

    def _refusal(self, number: str, reason: str, field: str | None = None) -> Refusal:
        return Refusal(self.spec.section(number), reason, field)

    @staticmethod
    def _raise(refusal: Refusal | None) -> None:
        if refusal is not None:
            raise RuleViolation.from_refusal(refusal)

    # ---- the shuffle ------------------------------------------------------------------

    def verify_shuffle(
        self, order: Sequence[Card] | None = None, batch: int | None = None
    ) -> Refusal | None:
        """Why the collected cards may not be shuffled into ``order`` (from ``batch``)."""
        if self.phase is not ShoePhase.COLLECTED:
            return self._refusal("5(a)", f"the cards are {self.phase.value}, not collected")
        if self.spec.two_batches and not self.from_discards:
            if batch not in (0, 1):
                return self._refusal("3(b)(1)", "name the batch (0 or 1) being shuffled", "batch")
            if batch == self.previous_batch:
                return self._refusal(
                    "3(b)(4)", f"batch {batch} dealt the last shoe: the batches alternate", "batch"
                )
        if order is not None:
            counts = [0] * 52
            for card in order:
                counts[card.index] += 1
            expected = self._stack_counts()
            if tuple(counts) != expected:
                return self._refusal(
                    "3(a)", "the shuffled order is not the collected cards", "order"
                )
        return None

    def can_shuffle(self, order: Sequence[Card] | None = None, batch: int | None = None) -> bool:
        """Whether :meth:`shuffle` would succeed."""
        return self.verify_shuffle(order, batch) is None

    def _stack_counts(self) -> tuple[int, ...]:
        # Collected for a shuffle, every unaccounted card is in the stack.
        return self.unaccounted

    def shuffle(self, order: Sequence[Card] | None = None, batch: int | None = None) -> Shoe:
        """The cards shuffled into one stack (§ 5xx.5(a)), top first when ``order`` is known."""
        self._raise(self.verify_shuffle(order, batch))
        if self.spec.two_batches and not self.from_discards:
            batch_in_play: int | None = batch
        else:
            batch_in_play = self.batch
        return evolve(
            self,
            phase=ShoePhase.STACKED,
            order=None if order is None else tuple(order),
            batch=batch_in_play,
        )

    # ---- the cut ----------------------------------------------------------------------

    def verify_cut(self, cut_at: int, cover_at: int) -> Refusal | None:
        """Why the stack may not be cut ``cut_at`` cards down with the cover card ``cover_at`` down.

        § 5xx.5(d): the cutter's cover card goes in at least ten cards from the
        top or bottom; the cards above it go under; the dealer then inserts the
        cover card "at least 1/4 of the way in from the bottom". A floorperson
        may have the stack recut before play starts (§ 5xx.5(e)): no card has
        left the shoe yet.
        """
        if self.phase is ShoePhase.DEALING and self.drawn:
            return self._refusal("5(e)", "a recut comes before any card leaves the shoe")
        if self.phase not in (ShoePhase.STACKED, ShoePhase.DEALING):
            return self._refusal("5(b)", f"the cards are {self.phase.value}, not a shuffled stack")
        if not 10 <= cut_at <= self.size - 10:
            return self._refusal(
                "5(d)",
                f"the cut must be at least ten cards from the top or bottom of {self.size}, "
                f"got {cut_at}",
                "cut_at",
            )
        if not 0 <= cover_at <= self.size or 4 * (self.size - cover_at) < self.size:
            return self._refusal(
                "5(d)",
                f"the cover card must be at least 1/4 of the way in from the bottom: at most "
                f"{self.size - -(-self.size // 4)} cards above it of {self.size}, got {cover_at}",
                "cover_at",
            )
        return None

    def can_cut(self, cut_at: int, cover_at: int) -> bool:
        """Whether :meth:`cut` would succeed."""
        return self.verify_cut(cut_at, cover_at) is None

    def cut(self, cut_at: int, cover_at: int) -> Shoe:
        """The cut: the stack goes in the shoe, its first card due a burn (§ 5xx.7(c), 13(e)).

        A recut (§ 5xx.5(e)) cuts the stack again and leaves the burn due once.
        """
        self._raise(self.verify_cut(cut_at, cover_at))
        order = None if self.order is None else (*self.order[cut_at:], *self.order[:cut_at])
        recut = self.phase is ShoePhase.DEALING
        return evolve(
            self,
            phase=ShoePhase.DEALING,
            order=order,
            cover_at=cover_at,
            # The discard rack reshuffled mid-round follows a shoe whose cover card
            # already came out: the round is completed, then everything is reshuffled.
            cover_reached=self.from_discards,
            burns_due=self.burns_due if recut else self.burns_due + 1,
        )

    # ---- burns ------------------------------------------------------------------------

    def dealer_changed(self) -> Shoe:
        """A new dealer came to the table: one more card to burn before dealing (§ 5xx.7(c))."""
        return evolve(self, burns_due=self.burns_due + 1)

    def verify_burn(self, card: Card | None = None) -> Refusal | None:
        """Why the next card may not be burned now (``card`` when it was seen)."""
        if self.phase is not ShoePhase.DEALING:
            return self._refusal("7(c)", f"the cards are {self.phase.value}, not in the shoe")
        if not self.burns_due:
            return self._refusal("7(c)", "no burn is due: a full batch or a new dealer burns one")
        if not self.cards_left:
            return self._refusal(self.spec.insufficient_section, "the shoe is empty")
        return self._card_refusal(card) if card is not None else None

    def can_burn(self, card: Card | None = None) -> bool:
        """Whether :meth:`burn` would succeed."""
        return self.verify_burn(card) is None

    def burn(self, card: Card | None = None) -> Shoe:
        """The next card, face down, to the discard rack (§ 5xx.7(c), § 581.13(e))."""
        self._raise(self.verify_burn(card))
        seen = card if card is not None else self.next_card
        return self._taken(seen, Destination.DISCARD, burns_due=self.burns_due - 1)

    # ---- rounds -----------------------------------------------------------------------

    def verify_begin_round(self) -> Refusal | None:
        """Why a round may not start on this shoe."""
        if self.phase is ShoePhase.RESHUFFLE_DUE:
            return self._refusal("7(d)", "the cover card came out: collect and reshuffle first")
        if self.phase is not ShoePhase.DEALING:
            return self._refusal("7(a)", f"the cards are {self.phase.value}, not in the shoe")
        if self.round_open:
            return self._refusal("7(a)", "a round is already being dealt")
        return None

    def can_begin_round(self) -> bool:
        """Whether :meth:`begin_round` would succeed."""
        return self.verify_begin_round() is None

    def begin_round(self) -> Shoe:
        """A round starts dealing from this shoe."""
        self._raise(self.verify_begin_round())
        return evolve(self, round_open=True)

    def verify_end_round(self) -> Refusal | None:
        """Why the round's cards may not go to the discard rack now."""
        if not self.round_open:
            return self._refusal(self.spec.discard_section, "no round is being dealt")
        return None

    def end_round(self) -> Shoe:
        """The round is settled: its cards go to the discard rack (§ 581.7(q) and siblings).

        Once the cover card has come out the shoe is due a reshuffle (§ 5xx.7(d)).
        """
        self._raise(self.verify_end_round())
        discard = tuple(a + b for a, b in zip(self.discard, self.on_table, strict=True))
        return evolve(
            self,
            round_open=False,
            discard=discard,
            on_table=_NONE,
            phase=ShoePhase.RESHUFFLE_DUE if self.cover_reached else self.phase,
        )

    # ---- drawing ----------------------------------------------------------------------

    def _card_refusal(self, card: Card) -> Refusal | None:
        if not self.unaccounted[card.index]:
            held = self.spec.composition[card.index]
            why = (
                "a Spanish batch holds no 10s (§ 581.4(b))"
                if held == 0
                else f"the batch holds {held} and all are accounted for"
            )
            return self._refusal("3(a)", f"{card} cannot come out of this shoe: {why}", "card")
        expected = self.next_card
        if expected is not None and card != expected:
            return self._refusal(
                "7(a)", f"the shuffle put {expected} next in the shoe, not {card}", "card"
            )
        return None

    def verify_draw(self, card: Card) -> Refusal | None:
        """Why ``card`` may not be the next card out of the shoe."""
        if self.phase is ShoePhase.RESHUFFLE_DUE:
            return self._refusal("7(d)", "the cover card came out: collect and reshuffle first")
        if self.phase is not ShoePhase.DEALING:
            return self._refusal("7(a)", f"the cards are {self.phase.value}, not in the shoe")
        if not self.round_open:
            return self._refusal("7(a)", "no round is being dealt")
        if self.burns_due:
            return self._refusal(
                "7(c)", f"{self.burns_due} card(s) must be burned before any card is dealt"
            )
        if not self.cards_left:
            return self._refusal(
                self.spec.insufficient_section,
                "the shoe is empty: shuffle and cut the discard rack to complete the round",
            )
        return self._card_refusal(card)

    def can_draw(self, card: Card) -> bool:
        """Whether :meth:`draw` would succeed."""
        return self.verify_draw(card) is None

    def draw(self, card: Card, to: Destination = Destination.ROUND) -> Shoe:
        """``card`` comes out of the shoe to the layout or, unused, to the discard rack."""
        self._raise(self.verify_draw(card))
        return self._taken(card, to)

    def replay_draw(
        self, card: Card, to: Destination = Destination.ROUND
    ) -> tuple[Shoe, tuple[Refusal, ...]]:
        """Record ``card`` as dealt (it was), with every rule it broke as a finding.

        A card the batch cannot hold is kept aside (``foreign``); a card out of
        the recorded order makes the rest of the order unknown.

        >>> from tables.rules.cards import Card
        >>> shoe = Shoe.opened(shoe_spec("581")).shuffle().cut(cut_at=100, cover_at=250)
        >>> shoe = shoe.burn().begin_round()
        >>> shoe, findings = shoe.replay_draw(Card.parse("Th"))
        >>> [finding.section for finding in findings], shoe.foreign
        (['581.3(a)'], 1)
        """
        findings: list[Refusal] = []
        state = self
        if state.phase is ShoePhase.RESHUFFLE_DUE:
            findings.append(self._refusal("7(d)", "dealt after the cover card without a reshuffle"))
            state = evolve(state, phase=ShoePhase.DEALING)
        if not state.round_open:
            findings.append(self._refusal("7(a)", "a card dealt outside a round"))
            state = evolve(state, round_open=True)
        if state.burns_due:
            findings.append(self._refusal("7(c)", f"{state.burns_due} burn(s) skipped"))
            state = evolve(state, burns_due=0)
        if state.phase is not ShoePhase.DEALING:
            findings.append(self._refusal("7(a)", f"a card dealt while {state.phase.value}"))
        elif not state.cards_left:
            findings.append(
                self._refusal(self.spec.insufficient_section, "a card dealt from an empty shoe")
            )
        refusal = state._card_refusal(card)
        if refusal is not None:
            findings.append(refusal)
        if not state.unaccounted[card.index]:
            return evolve(
                state, drawn=state.drawn + 1, foreign=state.foreign + 1, order=None
            ), tuple(findings)
        if refusal is not None:
            state = evolve(state, order=None)
        return state._taken(card, to), tuple(findings)

    def _taken(self, card: Card | None, to: Destination, burns_due: int | None = None) -> Shoe:
        reached = self.cover_reached or (self.cover_at is not None and self.drawn >= self.cover_at)
        burns = self.burns_due if burns_due is None else burns_due
        drawn = self.drawn + 1
        if card is None:  # a burn nobody saw
            return evolve(self, drawn=drawn, cover_reached=reached, burns_due=burns,
                          unseen_burns=self.unseen_burns + 1)  # fmt: skip
        unaccounted = _bumped(self.unaccounted, card.index, -1)
        if to is Destination.ROUND:
            return evolve(self, drawn=drawn, cover_reached=reached, burns_due=burns,
                          unaccounted=unaccounted,
                          on_table=_bumped(self.on_table, card.index, 1))  # fmt: skip
        discard = _bumped(self.discard, card.index, 1)
        return evolve(self, drawn=drawn, cover_reached=reached, burns_due=burns,
                      unaccounted=unaccounted, discard=discard)  # fmt: skip

    # ---- reshuffles -------------------------------------------------------------------

    def verify_collect(self, reason: Reshuffle = Reshuffle.COVER_CARD) -> Refusal | None:
        """Why every card may not be gathered for a reshuffle now, for ``reason``."""
        if self.round_open:
            return self._refusal("7(d)", "the round is completed before the reshuffle")
        if reason is Reshuffle.COVER_CARD:
            if self.phase is ShoePhase.RESHUFFLE_DUE:
                return None
            return self._refusal("5(f)", "the cover card has not come out")
        if self.phase is ShoePhase.COLLECTED:
            number = {Reshuffle.DIRECTED: "5(f)", Reshuffle.IDLE_TABLE: "5(g)"}.get(
                reason, self.spec.shuffler_section
            )
            return self._refusal(number, "the cards are already collected")
        return None

    def can_collect(self, reason: Reshuffle = Reshuffle.COVER_CARD) -> bool:
        """Whether :meth:`collect` would succeed."""
        return self.verify_collect(reason) is None

    def collect(self, reason: Reshuffle = Reshuffle.COVER_CARD) -> Shoe:
        """Every card of the batch gathered for the next shuffle (the other batch with two)."""
        self._raise(self.verify_collect(reason))
        return Shoe(
            spec=self.spec,
            previous_batch=self.batch,
            unaccounted=self.spec.composition,
            size=self.spec.size,
        )

    def verify_reshuffle_discards(self) -> Refusal | None:
        """Why the discard rack may not be reshuffled to complete the round (§ 581.13(e))."""
        section = self.spec.insufficient_section
        if not self.round_open or self.phase is not ShoePhase.DEALING:
            return self._refusal(section, "only a round short of cards reshuffles the rack")
        if self.cards_left:
            return self._refusal(section, f"{self.cards_left} cards are still in the shoe")
        if not sum(self.discard) + self.unseen_burns:
            return self._refusal(section, "the discard rack is empty")
        return None

    def can_reshuffle_discards(self) -> bool:
        """Whether :meth:`reshuffle_discards` would succeed."""
        return self.verify_reshuffle_discards() is None

    def reshuffle_discards(self) -> Shoe:
        """The discard rack gathered to be shuffled and cut mid-round (§ 581.13(e) and siblings).

        The round's cards stay on the layout; the cut that follows is due one
        burn, face down (:meth:`cut`).
        """
        self._raise(self.verify_reshuffle_discards())
        rack = sum(self.discard) + self.unseen_burns
        unaccounted = tuple(a + b for a, b in zip(self.unaccounted, self.discard, strict=True))
        return evolve(
            self,
            phase=ShoePhase.COLLECTED,
            unaccounted=unaccounted,
            discard=_NONE,
            unseen_burns=0,
            order=None,
            size=rack,
            drawn=0,
            cover_at=None,
            from_discards=True,
        )
