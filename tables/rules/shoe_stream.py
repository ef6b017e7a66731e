"""A blackjack table's shoe as a stream that spans rounds, and its replay against the rounds.

The shoe's own events go on one stream per table (``shoe:<table>``): a batch
opened, shuffled (with the order when the shuffler or the simulation knows it),
cut, a card burned, a new dealer, the cards collected for a reshuffle, the
discard rack reshuffled to finish a round. The cards themselves are the
rounds' ``round.card_dealt`` events. :func:`replay_shoe` takes both in the
order the ledger holds them (the caller merges the table's shoe stream with its
round streams by global position) and folds them through
:class:`tables.rules.shoe.Shoe`: every card dealt is checked against what the
shoe still holds and, when the shuffle recorded it, against the card that had
to come next. What the table did anyway is a :class:`ShoeFinding`, never a
refusal; a shoe event the shoe cannot take (a cut too near the bottom) is
refused, as it was when it was appended.

>>> import datetime
>>> from tables.rules.cards import Card
>>> from tables.rules.events import CardDealt, DealingMethod, Recipient, RoundOpened
>>> opened = RoundOpened(round_id="r1", game="double_attack_blackjack",
...     ruleset_id="PA-581-2014", table_id="DAB-01", gaming_day=datetime.date(2016, 8, 1),
...     seats=(1,), players=("p1",), dealing_method=DealingMethod.MANUAL_SHOE)
>>> result = replay_shoe([ShoeOpened(ruleset_id="PA-581-2014"), ShoeShuffled(),
...     ShoeCut(cut_at=100, cover_at=250), CardBurned(), opened,
...     CardDealt(card=Card.parse("Th"), recipient=Recipient.DEALER, spot="1")])
>>> [(finding.round_id, finding.section) for finding in result.findings]
[('r1', '581.3(a)')]
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import ClassVar

from tables.rules import blackjack_games
from tables.rules.cards import Card
from tables.rules.engine import RuleViolation, game_rules_for
from tables.rules.events import (
    CardDealt,
    Event,
    IrregularityKind,
    IrregularityReported,
    RoundClosed,
    RoundOpened,
)
from tables.rules.shoe import Destination, Reshuffle, Shoe, shoe_spec

__all__ = [
    "ShoeOpened",
    "ShoeShuffled",
    "ShoeCut",
    "CardBurned",
    "DealerChanged",
    "ShoeCollected",
    "DiscardsReshuffled",
    "SHOE_EVENT_TYPES",
    "ShoeFinding",
    "ShoeReplay",
    "replay_shoe",
]


@dataclass(frozen=True, slots=True, kw_only=True)
class ShoeOpened(Event):
    """A fresh batch came to the table for the rule set's game, inspected (§ 5xx.4).

    ``decks``: the number the Rules Submission fixes (§ 590.3(a), § 591.3(a));
    none: the rule set's own (eight Spanish decks for § 581.3(a)).
    """

    TYPE: ClassVar[str] = "shoe.opened"
    ruleset_id: str
    decks: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class ShoeShuffled(Event):
    """The collected cards shuffled into one stack (§ 5xx.5(a)); ``order`` top first, if known."""

    TYPE: ClassVar[str] = "shoe.shuffled"
    order: tuple[Card, ...] | None = None
    batch: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class ShoeCut(Event):
    """The cut and the cover card's place, counted from the top (§ 5xx.5(d))."""

    TYPE: ClassVar[str] = "shoe.cut"
    cut_at: int
    cover_at: int


@dataclass(frozen=True, slots=True, kw_only=True)
class CardBurned(Event):
    """A card burned face down to the discard rack (§ 5xx.7(c), § 581.13(e)); ``card`` if seen."""

    TYPE: ClassVar[str] = "shoe.card_burned"
    card: Card | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class DealerChanged(Event):
    """A new dealer came to the table: one card to burn before dealing (§ 5xx.7(c))."""

    TYPE: ClassVar[str] = "shoe.dealer_changed"
    dealer: str


@dataclass(frozen=True, slots=True, kw_only=True)
class ShoeCollected(Event):
    """Every card gathered for a reshuffle between rounds, and why (§ 5xx.5(f), (g), 7(d))."""

    TYPE: ClassVar[str] = "shoe.collected"
    reason: Reshuffle = Reshuffle.COVER_CARD


@dataclass(frozen=True, slots=True, kw_only=True)
class DiscardsReshuffled(Event):
    """Too few cards to finish the round: the discard rack gathered for a shuffle (§ 581.13(e))."""

    TYPE: ClassVar[str] = "shoe.discards_reshuffled"


SHOE_EVENT_TYPES = {
    cls.TYPE: cls
    for cls in (ShoeOpened, ShoeShuffled, ShoeCut, CardBurned, DealerChanged, ShoeCollected,
                DiscardsReshuffled)
}  # fmt: skip
"""Every shoe event class by its stored type name."""


@dataclass(frozen=True, slots=True, kw_only=True)
class ShoeFinding:
    """A card the table dealt that this shoe could not have given at that point."""

    position: int
    round_id: str | None
    card: Card | None
    section: str
    reason: str


@dataclass(frozen=True, slots=True, kw_only=True)
class ShoeReplay:
    """The shoe after the table's events, and every finding on the way."""

    shoe: Shoe | None
    findings: tuple[ShoeFinding, ...]


def _opened(event: ShoeOpened) -> Shoe:
    for module in blackjack_games.modules():
        for ruleset in module.GAME.rulesets:
            if ruleset.id == event.ruleset_id:
                rules = ruleset.rules
                decks = rules.decks if event.decks is None else event.decks
                return Shoe.opened(shoe_spec(rules.chapter, decks, two_batches=rules.two_batches))
    raise RuleViolation("shoe.opened", f"no blackjack rule set {event.ruleset_id!r}", "ruleset_id")


def _shoe_step(shoe: Shoe | None, event: Event) -> Shoe:
    if isinstance(event, ShoeOpened):
        return _opened(event)
    if shoe is None:
        raise RuleViolation("shoe.opened", "no batch is at the table yet", "type")
    if isinstance(event, ShoeShuffled):
        return shoe.shuffle(event.order, event.batch)
    if isinstance(event, ShoeCut):
        return shoe.cut(event.cut_at, event.cover_at)
    if isinstance(event, CardBurned):
        return shoe.burn(event.card)
    if isinstance(event, DealerChanged):
        return shoe.dealer_changed()
    if isinstance(event, ShoeCollected):
        return shoe.collect(event.reason)
    assert isinstance(event, DiscardsReshuffled)
    return shoe.reshuffle_discards()


#: Irregularities that take a card out of the shoe: a card face up in it (§ 5xx.13(a)) and
#: a card drawn in error (§ 5xx.13(b)-(c), the blackjack chapters' kinds).
_DRAWN_KINDS = frozenset({
    IrregularityKind.CARD_FACE_UP_IN_DECK, IrregularityKind.CARD_DRAWN_IN_ERROR,
    "CARD_DRAWN_IN_ERROR_EXPOSED",
})


def replay_shoe(events: Iterable[Event]) -> ShoeReplay:
    """Fold a table's shoe events and its rounds' events, in ledger order, through its shoe.

    :raises RuleViolation: for a shoe event the shoe refuses (it was refused on append).
    """
    shoe: Shoe | None = None
    round_id: str | None = None
    findings: list[ShoeFinding] = []
    in_error: Card | None = None

    def found(position: int, card: Card | None, section: str, reason: str) -> None:
        findings.append(ShoeFinding(position=position, round_id=round_id, card=card,
                                    section=section, reason=reason))  # fmt: skip

    for position, event in enumerate(events):
        if type(event).TYPE in SHOE_EVENT_TYPES:
            shoe = _shoe_step(shoe, event)
        elif isinstance(event, RoundOpened):
            game_rules_for(event.game)  # an unknown game is refused, not skipped
            round_id, in_error = event.round_id, None
            if shoe is not None:
                refusal = shoe.verify_begin_round()
                if refusal is not None:
                    found(position, None, refusal.section, f"round opened: {refusal.reason}")
                shoe = shoe._replace(round_open=True)
        elif shoe is None:
            continue
        elif isinstance(event, CardDealt) and event.card == in_error:
            in_error = None  # drawn already, when it was drawn in error
        elif isinstance(event, CardDealt) or (
            isinstance(event, IrregularityReported) and event.card is not None
            and event.kind in _DRAWN_KINDS
        ):  # fmt: skip
            assert event.card is not None
            to = Destination.ROUND
            if isinstance(event, IrregularityReported):
                if event.kind == IrregularityKind.CARD_FACE_UP_IN_DECK:
                    to = Destination.DISCARD
                else:  # § 5xx.13(b)-(c): on the table until dealt, else racked with the round's
                    in_error = event.card
            shoe, refusals = shoe.replay_draw(event.card, to)
            for refusal in refusals:
                found(position, event.card, refusal.section, refusal.reason)
        elif isinstance(event, RoundClosed) and shoe.round_open:
            shoe = shoe.end_round()
            round_id = None
    return ShoeReplay(shoe=shoe, findings=tuple(findings))
