"""A game as a declaration: what a game module says, and the engine runs.

A module under :mod:`tables.rules.games` declares one :class:`Game`: its
layout (the card spots of a seat's hand, the dealer's and the community's),
its wagers (name, section, when they are placed, how their amount relates to
another wager, whether they are handle), its steps in order (wagering, the
deal, decisions with their named choices, reveals, the showdown), its rule
sets, its opening options, its irregularity remedies and one settlement
function of a seat's final state. :mod:`tables.rules.machine` owns everything
else once: verify/apply for every generic event, automation, voids, the stub
count, closing, settlement order, payout limits and rounding, and replay's
findings.

Every section a declaration names is a number within the rule set's chapter
(``"12(a)"``); the rule set prefixes it (``"565.12(a)"``).

>>> MultipleOf("ANTE", 1, 3).refusal({"ANTE": 500}, 2000)
'must be 1 to 3 times the ANTE (500..1500 cents), got 2000'
>>> EqualTo("ANTE").refusal({"ANTE": 500}, 500) is None
True
"""

from __future__ import annotations

import datetime
import random
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from tables.rules.events import DealingMethod, Event, RoundOpened, WagerPlaced
from tables.rules.irregularities import Remedies, StubRemedy
from tables.rules.rulesets import PayLine

if TYPE_CHECKING:
    from tables.rules.engine import Refusal, Settlement, SettlementLine
    from tables.rules.machine import RoundState, Seat

__all__ = [
    "Layout",
    "Amount",
    "AnyAmount",
    "EqualTo",
    "MultipleOf",
    "AtMost",
    "Exactly",
    "WagerSpec",
    "Choice",
    "Wagering",
    "Deal",
    "Decide",
    "Reveal",
    "Draw",
    "Showdown",
    "NoRoll",
    "Throw",
    "Step",
    "Misreading",
    "OptionSpec",
    "DealingSections",
    "GameRuleSet",
    "Game",
]


@dataclass(frozen=True, slots=True)
class Layout:
    """The card spots of the table: each seat's hand, the dealer's and the community's.

    Spots are listed in the order the deal fills them; ``max_seats`` (``None``
    where the chapter sets none) cites ``seats_section``.
    """

    seat_spots: tuple[str, ...]
    dealer_spots: tuple[str, ...] = ()
    community_spots: tuple[str, ...] = ()
    max_seats: int | None = 7
    seats_section: str = "2(a)"
    #: The dice thrown at once (0: a card game), ``dice_section`` citing how many.
    dice: int = 0
    dice_section: str = "3(a)"
    #: Spots only a :class:`Draw` fills (a card bought or exchanged, the dealer's
    #: replacement), after the hand's dealt spots; the deal never fills them.
    seat_draw_spots: tuple[str, ...] = ()
    dealer_draw_spots: tuple[str, ...] = ()


class Amount:
    """How a wager's amount relates to the seat's other wagers."""

    def refusal(self, stakes: Mapping[str, int], amount: int, ruleset: Any = None) -> str | None:
        """Why ``amount`` may not be wagered beside ``stakes``, or ``None``."""
        return None


@dataclass(frozen=True, slots=True)
class AnyAmount(Amount):
    """Any amount within the table's posted limits."""


@dataclass(frozen=True, slots=True)
class EqualTo(Amount):
    """Exactly the amount of another wager (a Play Wager equal to the Ante)."""

    wager: str

    def refusal(self, stakes: Mapping[str, int], amount: int, ruleset: Any = None) -> str | None:
        base = stakes.get(self.wager)
        if base is None:
            return f"needs a {self.wager} first"
        if amount != base:
            return f"must equal the {self.wager} ({base} cents), got {amount}"
        return None


@dataclass(frozen=True, slots=True)
class MultipleOf(Amount):
    """From ``low`` to ``high`` times another wager, in whole multiples if ``whole``.

    Each bound may name an attribute of the rule set instead (the versions of a
    chapter differ in them).
    """

    wager: str
    low: int | str
    high: int | str
    whole: bool | str = False

    def refusal(self, stakes: Mapping[str, int], amount: int, ruleset: Any = None) -> str | None:
        base = stakes.get(self.wager)
        if base is None:
            return f"needs a {self.wager} first"
        low, high, whole = self.low, self.high, self.whole
        if isinstance(low, str):
            low = getattr(ruleset, low)
        if isinstance(high, str):
            high = getattr(ruleset, high)
        if isinstance(whole, str):
            whole = getattr(ruleset, whole)
        if not low * base <= amount <= high * base:
            return (
                f"must be {low} to {high} times the {self.wager} "
                f"({low * base}..{high * base} cents), got {amount}"
            )
        if whole and amount % base:
            return f"must be a whole multiple of the {self.wager}"
        return None


@dataclass(frozen=True, slots=True)
class AtMost(Amount):
    """Any amount up to ``cents`` (a wager the chapter caps, "may not be more than $1").

    >>> AtMost(100).refusal({}, 500)
    'may not be more than 100 cents, got 500'
    """

    cents: int

    def refusal(self, stakes: Mapping[str, int], amount: int, ruleset: Any = None) -> str | None:
        return None if amount <= self.cents else (
            f"may not be more than {self.cents} cents, got {amount}")  # fmt: skip


@dataclass(frozen=True, slots=True)
class Exactly(Amount):
    """Exactly ``cents`` (a wager made with one chip of a set value, "a $1 gaming chip").

    >>> Exactly(100).refusal({}, 500)
    'must be exactly 100 cents, got 500'
    """

    cents: int

    def refusal(self, stakes: Mapping[str, int], amount: int, ruleset: Any = None) -> str | None:
        return None if amount == self.cents else f"must be exactly {self.cents} cents, got {amount}"


@dataclass(frozen=True, slots=True)
class WagerSpec:
    """One betting area of the layout.

    ``by_choice`` wagers are placed only by a decision's choice (a Play Wager);
    the others before "no more bets". ``offered`` (when given) says whether the
    round's rule set and options offer it. ``handle`` wagers count in finance's
    handle; a fee or a marker does not.
    """

    name: str
    label: str
    section: str
    amount: Amount = AnyAmount()
    by_choice: bool = False
    handle: bool = True
    offered: Callable[[RoundState], bool] | None = None
    #: The section that ends this wager's placement, where it is not the game's
    #: "no more bets" (an electronic lock-out).
    closes: str | None = None
    #: A fee (Lunar Poker's Options fee), not a wager: never handle, settled by
    #: :func:`tables.rules.engine.fee_line` to the ``fee`` counterparty, and on a
    #: void kept unless ``fee_returned_on_void`` says so for the round.
    fee: bool = False
    fee_returned_on_void: Callable[[RoundState], bool] | None = None
    #: Every player who plays makes it (Let It Ride's three equal bets; a Pot Wager
    #: beside the Ante, required to be dealt in): a simulated player always places it.
    required: bool = False
    #: The section under which the house takes the stake at "no more bets" (a $1
    #: bonus chip into the table inventory container): collected then, returned
    #: only if the round is void; the game pays a winner under another wager name.
    taken: str | None = None


@dataclass(frozen=True, slots=True)
class Choice:
    """One choice a decision offers: it may place wagers, and it may end the hand.

    ``withdraws``: the wagers the choice takes back (Let It Ride's Bet Number 1
    and 2): each is returned to the player at once, citing the decision's section.
    """

    name: str
    places: str | tuple[str, ...] | None = None
    folds: bool = False
    withdraws: tuple[str, ...] = ()
    #: The wagers the choice places, as a tuple (read on every decision).
    wagers: tuple[str, ...] = field(init=False, default=())

    def __post_init__(self) -> None:
        places = self.places
        wagers = () if places is None else (places,) if isinstance(places, str) else places
        object.__setattr__(self, "wagers", wagers)


@dataclass(frozen=True, slots=True)
class Wagering:
    """Wagers are placed until the dealer announces "no more bets"."""

    name: str = "wagering"


@dataclass(frozen=True, slots=True)
class Deal:
    """Every spot of every participating seat, the dealer's and the community's is dealt.

    Each hand's spots are filled in order. ``order`` names groups (``"community"``,
    ``"seats"``, ``"dealer"``) that must be complete before the next one gets a card;
    groups it does not name may interleave (one card at a time round the table).
    """

    name: str = "dealing"
    order: tuple[str, ...] = ()
    #: Community spots this step alone deals, between decisions (a flop, a turn card);
    #: the first deal leaves them. Empty: the deal of every other spot.
    spots: tuple[str, ...] = ()
    #: Cards burned face down before this step's cards (counted at the stub count).
    burn: int = 0
    #: The step's cards are dealt face up (turned as they are dealt).
    face_up: bool = False
    #: Dealing methods that burn no card here (an automated shoe's community stack).
    no_burn: frozenset[DealingMethod] = frozenset()


@dataclass(frozen=True, slots=True)
class Decide:
    """Each seat still in the hand and ``eligible`` chooses, clockwise from the dealer's left.

    ``any_order``: the seats may decide in any order (a side wager resolved per seat).
    """

    name: str
    section: str
    choices: tuple[Choice, ...]
    eligible: Callable[[Seat], bool] = lambda seat: True
    any_order: bool = False
    #: Whether the decision is asked at all this round (skipped when false).
    when: Callable[[RoundState], bool] | None = None
    #: The chapter's own conditions on a choice: why ``(state, seat, choice, params)``
    #: is refused (a royal flush may not bet; an exchange names 2 to 5 cards), or None.
    rules: Callable[[RoundState, Seat, str, Mapping[str, Any]], Refusal | None] | None = None


@dataclass(frozen=True, slots=True)
class Reveal:
    """The dealer turns ``spots`` face up (``dealer`` or ``community`` spots)."""

    name: str
    section: str
    spots: tuple[str, ...]
    dealer: bool = True


@dataclass(frozen=True, slots=True)
class Draw:
    """Cards dealt after the deal into the layout's draw spots, in spot order.

    ``cards(state, seat)`` is how many a seat still in the hand is due (a bought
    sixth card, the cards it exchanged); seats draw clockwise from the dealer's
    left. With ``dealer``, ``cards(state, None)`` is the dealer's (a replacement).
    """

    name: str
    section: str
    cards: Callable[[RoundState, Seat | None], int]
    dealer: bool = False


@dataclass(frozen=True, slots=True)
class Showdown:
    """Settlement: the remaining players' cards are turned counterclockwise, then paid."""

    section: str
    name: str = "settlement"


@dataclass(frozen=True, slots=True)
class NoRoll:
    """A throw that does not count, of a kind the chapter names, and its remedy.

    ``rethrow``: the dice are thrown again and every wager stands (High Roll
    Dice's invalid throw, a lid lifted while shaking); otherwise the round is
    void and every wager returned (Props & Hops's "no roll").
    """

    section: str
    reason: str
    rethrow: bool = False


@dataclass(frozen=True, slots=True)
class Throw:
    """The dice are thrown (``round.roll``): the faces of every die, once the throw counts.

    ``dice`` (when given) says how many dice this throw has, else the layout's;
    ``when`` (when given) whether it is thrown at all (an extra roll only for
    its wagers); a throw of no dice is skipped. ``call`` gives what the dealer
    must announce for the faces thrown: a different call is recorded as a
    miscall, never refused. ``settles``: the wagers this throw decides may be
    paid at once, before the round's last step.
    """

    name: str
    section: str
    no_rolls: Mapping[str, NoRoll] = field(default_factory=dict)
    dice: Callable[[RoundState], int] | None = None
    when: Callable[[RoundState], bool] | None = None
    call: Callable[[RoundState, tuple[int, ...]], str] | None = None
    call_section: str | None = None
    settles: bool = False


Step = Wagering | Deal | Decide | Reveal | Draw | Throw | Showdown


@dataclass(frozen=True, slots=True)
class Misreading:
    """A dealer's misreading of a throw, for the simulator to stage and replay to find.

    A game offers its own as ``MISREADINGS`` (by the simulator's error name) in its module
    or its par-sheet module. ``faces`` gives faces for the throw ``throw`` that show the
    mistake given the round's wagers and options, or ``None`` when none can; ``wager``, if
    given, is one a seat must hold for it to show (placed if no seat does). ``lines``
    gives the settlement lines the mistaken dealer acts on, for the wagers it touches.
    ``drawn`` says whether simulated days draw it at random: one that needs a throw
    far rarer than a dealer's error (ten dice alike, 1 in 10 million) is staged only
    when asked for, or a demo's days would be ruled by the jackpots it forces.
    """

    throw: str
    faces: Callable[[RoundState, random.Random], tuple[int, ...] | None]
    lines: Callable[[RoundState], Iterable[SettlementLine]]
    wager: str | None = None
    drawn: bool = True


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """An opening option of the Rules Submission the game accepts on ``round.opened``.

    A ``recorded`` option that decides money is listed in every settlement it
    touched (when it has a value).
    """

    name: str
    section: str
    choices: tuple[Any, ...]
    default: Any
    recorded: bool = True


@dataclass(frozen=True, slots=True)
class DealingSections:
    """The sections that depend on the dealing method: no more bets, the deal, the stub."""

    no_more_bets: str
    deal: str
    stub_wrong: str
    stub_when: str
    #: Cards the method takes from the deck into the discard rack unseen (an
    #: automated shoe's stack of which only some cards are used): not in the stub.
    discarded: int = 0


@dataclass(frozen=True, slots=True, kw_only=True)
class GameRuleSet:
    """One version of a game's rules in one jurisdiction, in force over a date range.

    ``pay_tables`` and ``options`` are what the Rules Submission may choose
    between; ``defaults`` what this version uses when a round does not say.
    """

    id: str
    game: str
    jurisdiction: str
    chapter: str
    effective_from: datetime.date
    effective_to: datetime.date | None = None
    pay_tables: Mapping[str, tuple[PayLine, ...]] = field(default_factory=dict)
    defaults: Mapping[str, Any] = field(default_factory=dict)
    cards_in_deck: int = 52
    max_seats: int | None = None
    deck_change_hours_hand_dealt: int | None = 4
    deck_change_hours_shoe: int | None = 8
    stub_count_every_rounds: int = 5
    #: How long dice placed in the shaker may stay on the table, and where that is written.
    dice_change_hours: int | None = None
    dice_change_section: str = ""
    #: A payout limit the chapter imposes where a round names none (cents).
    payout_limit_cents: int | None = None
    notes: tuple[str, ...] = ()

    def section(self, number: str) -> str:
        """Cite ``number`` in this rule set's chapter."""
        return f"{self.chapter}.{number}"

    def in_force(self, day: datetime.date) -> bool:
        """Whether this version governs a gaming day starting on ``day``."""
        if day < self.effective_from:
            return False
        return self.effective_to is None or day <= self.effective_to


class RuleSetLike(Protocol):
    """What the engine reads of a rule set (a :class:`GameRuleSet`, or a chapter's own class)."""

    @property
    def id(self) -> str: ...
    @property
    def chapter(self) -> str: ...
    @property
    def notes(self) -> tuple[str, ...]: ...
    def section(self, number: str) -> str: ...
    def in_force(self, day: datetime.date, /) -> bool: ...


Decided = tuple[str, Mapping[str, int], Mapping[str, Any]]
"""A decision as the engine applies it: the choice, the wagers it places, its parameters."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Game:
    """Everything the engine needs to run, simulate, price and draw one game."""

    id: str
    name: str
    rulesets: tuple[RuleSetLike, ...]
    layout: Layout
    wagers: tuple[WagerSpec, ...]
    steps: tuple[Step, ...]
    settle: Callable[[RoundState, Seat], Iterable[SettlementLine]]
    dealing: Mapping[DealingMethod, DealingSections]
    remedies: Remedies
    stub_remedy: StubRemedy = StubRemedy(
        misdeal="stub count: cards misdealt but the whole deck remains",
        mismatch="stub count {counted}, expected {expected}, no misdeal: deck removed",
    )
    options: tuple[OptionSpec, ...] = ()
    wager_rules: Callable[[RoundState, Seat, WagerPlaced], Refusal | None] | None = None
    opening_check: Callable[[RoundState], None] | None = None
    participates: Callable[[Seat], bool] = lambda seat: bool(seat.wagers)
    #: Where the chapter's rule for an event type differs from the engine's generic check.
    checks: Mapping[type[Event], Callable[[RoundState, Any], Refusal | None]] = field(
        default_factory=dict
    )
    #: How a decision recorded by an older event type reads: (choice, amounts, params).
    decisions: Mapping[type[Event], Callable[[Any], Decided]] = field(default_factory=dict)
    #: A settlement the chapter orders as a whole rather than seat by seat.
    settlement: Callable[[RoundState], Settlement] | None = None
    sections: Mapping[str, str] = field(default_factory=dict)
    #: The wagers of a seat still in the hand that the chapter settles before the
    #: showdown (Lunar Poker's instant payout and Super Wager, § 589.11(c)): listed in
    #: the settlement, and payable, once decided.
    settled_early: Callable[[RoundState, Seat], Iterable[str]] | None = None
    #: What the table carries from this round to its next (opening options such as
    #: the seat holding the dice shaker), once the round is complete.
    carries: Callable[[RoundState], Mapping[str, Any]] | None = None
    #: The opening options the table's next round (its ``round.opened``) must take
    #: after this closed round: what it ``carries``, fitted to the next round's seats.
    opens_with: Callable[[RoundState, RoundOpened], Mapping[str, Any]] | None = None
    #: The wagers a void still settles on the cards (a Bonus Wager, § 563.13(a)), by
    #: the void's state; every other wager is returned.
    void_settles: Callable[[RoundState], tuple[str, ...]] | None = None
    #: A folded hand stays on the layout and is turned at the showdown with the others
    #: (it still plays for a pot, § 583.11(b), (d)).
    folded_hands_shown: bool = False

    def wager(self, name: str) -> WagerSpec | None:
        """The wager called ``name``, if the game has one (looked up on every wager event)."""
        index = _WAGER_INDEX.get(self.id)
        if index is None or index[0] is not self:
            index = (self, {spec.name: spec for spec in self.wagers})
            _WAGER_INDEX[self.id] = index
        return index[1].get(name)

    @property
    def handle_wagers(self) -> tuple[str, ...]:
        """The wagers finance counts as handle."""
        return tuple(spec.name for spec in self.wagers if spec.handle and not spec.fee)


# Each game's wagers by name, keyed by game id and checked by identity.
_WAGER_INDEX: dict[str, tuple[Game, dict[str, WagerSpec]]] = {}
