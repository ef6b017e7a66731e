"""The engine that runs every declared game (:mod:`tables.rules.declaration`).

One state type, :class:`RoundState`, serves every declared game; its
``game`` field is the declaration. The engine verifies and applies each
generic event against it (a refused event names the section it breaks and
the field at fault), moves from step to step, performs the automations a
table leaves to it, applies the declared irregularity remedies, and computes
the required settlement: seats counterclockwise from the dealer's right, each
seat's wagers in the declared order, a void returning every stake, a payout
limit where the game declares one. The options that decided money are listed
in the settlement's ``options_applied``.

Where a check's section differs between chapters, the game names it under a
key of ``Game.sections``: ``seated``, ``wagers`` (a wager the game does not
have), ``by_choice`` (a decision's wager placed early), ``already_placed``,
``after_no_more_bets``, ``decisions``, ``card_in_play``, ``card_count``,
``early_exposure``, ``no_spot``, ``card_mismatch``, ``showdown``, ``settle``,
``collect``, ``close``, ``void``, ``irregularities`` and ``payout_limit``;
a dice game adds ``throw`` (a throw out of turn) and, where losing wagers are
collected before any winner is paid, ``losers_first``.

Dice (a :class:`~tables.rules.declaration.Throw` step): each ``round.roll``
that counts records the faces of every die under the step's name in
``RoundState.rolls``; one that does not is kept in ``no_rolls`` and its
declared remedy applied (thrown again, or the round void). The dealer's call
is compared with the one the game derives from the faces, and a difference is
kept in ``miscalls`` and noted in the settlement.

States are values: :func:`apply` returns a new state and never changes one.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from operator import is_
from typing import Any, NamedTuple, cast

from tables.rules.cards import JOKER, Card
from tables.rules.declaration import Deal, Decide, Draw, Game, Reveal, Showdown, Throw, Wagering
from tables.rules.engine import (
    Automation,
    Outcome,
    Refusal,
    RuleViolation,
    Settlement,
    SettlementLine,
    apply_payout_limit,
    evolve,
    fee_line,
    plain_line,
    register_game,
)
from tables.rules.events import (
    CardDealt,
    CardExposed,
    DealerCollected,
    DealerPaid,
    Decision,
    DiceThrown,
    Event,
    IrregularityKind,
    IrregularityReported,
    NoMoreBets,
    Options,
    PlayerFolded,
    ProgressiveCounted,
    Recipient,
    RoundClosed,
    RoundOpened,
    RoundVoided,
    StubCounted,
    WagerPlaced,
    WagerReturned,
)
from tables.rules.games._shared import card_bit, opening_rounding, record_dealer_action, void
from tables.rules.irregularities import Breach, count_stub, report_irregularity
from tables.rules.money import RoundingPolicy
from tables.rules.progressives.chapters import CHAPTERS
from tables.rules.progressives.wager_check import WagerCountFinding, check_wager_count
from tables.rules.settlement import counterclockwise, returned_lines

__all__ = [
    "Seat",
    "RoundState",
    "declare",
    "open_round",
    "verify",
    "can_apply",
    "apply",
    "required_settlement",
    "complete",
    "Miscall",
    "miscalls",
    "carried",
    "refuse_next_opening",
    "opened_as_left",
    "draws_due",
    "withdrawn_lines",
    "taken_lines",
    "turned_at_showdown",
]

VOIDED = "voided"
CLOSED = "closed"
_KINDS = frozenset(kind.value for kind in IrregularityKind)
_GROUPS = {Recipient.PLAYER: "seats", Recipient.DEALER: "dealer", Recipient.COMMUNITY: "community"}


class Seat(NamedTuple):
    """One betting position: its player, wagers, cards, choices and whether it is still in."""

    seat: int
    player: str
    wagers: Mapping[str, int]
    cards: tuple[Card | None, ...] = ()
    exposed: tuple[bool, ...] = ()
    participating: bool = False
    folded_at: str | None = None
    abandoned: bool = False
    choices: Mapping[str, str] = {}
    params: Mapping[str, Any] = {}

    @property
    def active(self) -> bool:
        """Dealt in, and neither folded nor gone."""
        return self.participating and self.folded_at is None and not self.abandoned


class Miscall(NamedTuple):
    """The dealer announced ``called`` where the dice showed ``derived``."""

    step: str
    called: str
    derived: str
    section: str

    def __str__(self) -> str:
        return f"{self.section}: the dealer called {self.called!r}; the dice show {self.derived!r}"


class RoundState(NamedTuple):
    """The state of one round of a declared game."""

    game: Game
    ruleset: Any
    opened: RoundOpened
    automations: frozenset[Automation]
    rounding: RoundingPolicy
    options: Mapping[str, Any]
    phase: str
    step: int
    #: ``game.steps[step]``, kept beside its number (read on every event); None once closed.
    at: Any
    seats: Mapping[int, Seat]
    dealer: tuple[Card | None, ...] = ()
    dealer_exposed: tuple[bool, ...] = ()
    community: tuple[Card | None, ...] = ()
    community_exposed: tuple[bool, ...] = ()
    used_cards: int = 0
    cards_dealt: int = 0
    #: Cards the deal places (fixed at "no more bets"): the deal ends when all are dealt.
    cards_due: int = 0
    face_up_found: tuple[Card, ...] = ()
    pending: tuple[int, ...] = ()
    decisions_made: int = 0
    stub_counted: bool = False
    void_section: str | None = None
    void_reason: str | None = None
    deck_removal_required: bool = False
    reshuffle_required: bool = False
    dealer_actions: tuple[Event, ...] = ()
    notes: tuple[str, ...] = ()
    #: The faces of each counting throw, by the name of its step.
    rolls: Mapping[str, tuple[int, ...]] = {}
    #: Throws that did not count: (step, kind).
    no_rolls: tuple[tuple[str, str], ...] = ()
    miscalls: tuple[Miscall, ...] = ()
    #: Irregularities remedied by a reset (``Remedies.resets``), for replay's findings.
    breaches: tuple[Breach, ...] = ()
    #: A throw that ``settles`` was made: the wagers it decided may be paid.
    settling: bool = False
    #: The dealer's count of the progressive chips was recorded, and how it differed.
    progressive_counted: bool = False
    progressive_count: WagerCountFinding | None = None

    def section(self, number: str) -> str:
        """Cite ``number`` in this round's chapter."""
        return str(self.ruleset.section(number))

    def cite(self, key: str) -> str:
        """Cite the section the game declares for the generic check ``key``."""
        return self.section(self.game.sections[key])

    @property
    def current(self) -> Any:
        """The step the round is in (``None`` once closed)."""
        return self.at

    @property
    def to_act(self) -> int | None:
        """The seat whose decision is awaited, if any."""
        return self.pending[0] if self.pending else None


def complete(state: RoundState) -> bool:
    """Whether every wager can be settled: the round reached its showdown (or closed)."""
    return isinstance(state.at, Showdown) or state.phase == CLOSED


# ------------------------------------------------------------------ opening


def open_round(
    game: Game, event: RoundOpened, automations: frozenset[Automation] = frozenset()
) -> RoundState:
    """The state of a round of ``game`` just opened.

    :raises RuleViolation: for a rule set of another game or not in force, too
        many seats, an option the game does not declare or a value it does not allow.
    """
    ruleset = next((item for item in game.rulesets if item.id == event.ruleset_id), None)
    if ruleset is None:
        raise RuleViolation("round.opened", f"not a {game.name} rule set", "ruleset_id")
    if not ruleset.in_force(event.gaming_day):
        raise RuleViolation(
            ruleset.chapter, f"{ruleset.id} is not in force on {event.gaming_day}", "gaming_day"
        )
    layout, most = game.layout, game.layout.max_seats
    if most is not None and (len(event.seats) > most or max(event.seats, default=1) > most):
        raise RuleViolation(
            ruleset.section(layout.seats_section),
            f"no more than {layout.max_seats} betting positions",
            "seats",
        )
    if event.payout_limit_cents is not None and "payout_limit" not in game.sections:
        raise RuleViolation(
            ruleset.chapter, "the chapter sets no payout limit", "payout_limit_cents"
        )
    declared = {spec.name: spec for spec in game.options}
    for name in dict(event.options):
        if name not in declared:
            raise RuleViolation("round.opened", f"not an option of {game.name}", f"options.{name}")
    defaults = getattr(ruleset, "defaults", {})
    options = {}
    for spec in game.options:
        value = event.option(spec.name, defaults.get(spec.name, spec.default))
        if value not in spec.choices:
            allowed = ", ".join(repr(choice) for choice in spec.choices)
            raise RuleViolation(
                ruleset.section(spec.section), f"must be one of {allowed}", f"options.{spec.name}"
            )
        options[spec.name] = value
    size = len(layout.seat_spots) + len(layout.seat_draw_spots)
    seats = {
        number: Seat(number, player, {}, cards=(None,) * size, exposed=(False,) * size)
        for number, player in sorted(zip(event.seats, event.players, strict=True))
    }
    dealer = len(layout.dealer_spots) + len(layout.dealer_draw_spots)
    community = len(layout.community_spots)
    state = RoundState(
        game=game,
        ruleset=ruleset,
        opened=event,
        automations=automations,
        rounding=opening_rounding(event),
        options=options,
        phase=game.steps[0].name,
        step=0,
        at=game.steps[0],
        seats=seats,
        dealer=(None,) * dealer,
        dealer_exposed=(False,) * dealer,
        community=(None,) * community,
        community_exposed=(False,) * community,
    )
    if game.opening_check is not None:
        game.opening_check(state)
    return state


# ------------------------------------------------------------- verification


def _refuse_wager(state: RoundState, event: WagerPlaced) -> Refusal | None:
    seat = state.seats.get(event.seat)
    if seat is None:
        return Refusal(state.cite("seated"), "only seated players may wager", "seat")
    step = state.at
    if isinstance(step, Decide):
        choice = _choice_placing(step, event.wager)
        if choice is None and "decision_wager" in state.game.sections:
            return Refusal(state.cite("decision_wager"), 'no wager after "no more bets"', "wager")
        return _refuse_choice(state, event, choice or event.wager, event.amount_cents)
    if not isinstance(step, Wagering):
        closing = state.game.wager(event.wager)
        if closing is not None and closing.closes is not None:
            return Refusal(state.section(closing.closes),
                           f"the {closing.label} is closed: not recognised", "wager")  # fmt: skip
        return Refusal(state.cite("after_no_more_bets"), 'no wager after "no more bets"', "wager")
    spec = state.game.wager(event.wager)
    if spec is None:
        return Refusal(state.cite("wagers"), f"{state.game.name} has no {event.wager}", "wager")
    if spec.by_choice:
        return Refusal(
            state.cite("by_choice"), f"{spec.name} is made only at its decision", "wager"
        )
    if spec.name in seat.wagers:
        return Refusal(state.cite("already_placed"), f"{spec.name} already placed", "wager")
    if spec.offered is not None and not spec.offered(state):
        return Refusal(state.section(spec.section), f"the {spec.label} is not offered", "wager")
    reason = spec.amount.refusal(seat.wagers, event.amount_cents, state.ruleset)
    if reason is not None:
        return Refusal(state.section(spec.section), reason, "amount_cents")
    rules = state.game.wager_rules
    return None if rules is None else rules(state, seat, event)


def _choice_placing(step: Decide, wager: str) -> str | None:
    """The choice of ``step`` that places ``wager`` alone, if one does."""
    for choice in step.choices:
        if choice.wagers == (wager,):
            return choice.name
    return None


def _refuse_choice(
    state: RoundState, event: Event, choice_name: str, amount: int | None
) -> Refusal | None:
    """A decision, whichever event records it: ``round.decision``, a Play Wager, a fold;
    then the step's own ``rules`` (the chapter's conditions on a choice)."""
    refusal = _refuse_any_choice(state, event, choice_name, amount)
    step = state.at
    if refusal is not None or not isinstance(step, Decide) or step.rules is None:
        return refusal
    seat = state.seats[getattr(event, "seat", 0)]
    return step.rules(state, seat, choice_name, dict(getattr(event, "params", ())))


def _refuse_any_choice(
    state: RoundState, event: Event, choice_name: str, amount: int | None
) -> Refusal | None:
    step = state.at
    what = {WagerPlaced: "wager", Decision: "choice"}.get(type(event), "seat")
    if not isinstance(step, Decide):
        return Refusal(state.cite("decisions"), "no decision is asked for now", what)
    choice = next((item for item in step.choices if item.name == choice_name), None)
    section = state.section(step.section)
    if choice is None:
        offered = ", ".join(item.name for item in step.choices)
        return Refusal(section, f"the choices now are {offered}", what)
    seat_number: int = getattr(event, "seat", 0)
    if step.any_order and seat_number not in state.pending:
        return Refusal(section, f"seat {seat_number} has no decision pending", "seat")
    if not step.any_order and state.to_act != seat_number:
        return Refusal(
            section,
            f"out of turn: seat {state.to_act} decides first (clockwise from the dealer's left)",
            "seat",
        )
    if not choice.wagers:
        if amount is None:
            return _refuse_withdrawal(state, seat_number, choice, section)
        return Refusal(section, "this choice wagers nothing", "amount_cents")
    if amount is None or len(choice.wagers) > 1:
        return Refusal(section, f"{choice.name} places the {choice.places}", "amount_cents")
    spec = state.game.wager(choice.wagers[0])
    assert spec is not None
    reason = spec.amount.refusal(state.seats[seat_number].wagers, amount, state.ruleset)
    return None if reason is None else Refusal(state.section(spec.section), reason, "amount_cents")


def _refuse_withdrawal(state: RoundState, number: int, choice: Any, section: str) -> Refusal | None:
    """A choice that takes a wager back needs the wager on the layout."""
    wagers = state.seats[number].wagers
    missing = [name for name in choice.withdraws if name not in wagers]
    return Refusal(section, f"no {missing[0]} to take back", "choice") if missing else None


def _refuse_no_more_bets(state: RoundState, event: NoMoreBets) -> Refusal | None:
    if not isinstance(state.at, Wagering):
        return Refusal(state.section(_dealing(state).no_more_bets), "already announced", None)
    return None


#: The wager a chapter's progressive payout wager is placed under in every declared game.
PROGRESSIVE = "PROGRESSIVE"


def _refuse_progressive_count(state: RoundState, event: ProgressiveCounted) -> Refusal | None:
    rules = CHAPTERS.get(str(getattr(state.ruleset, "chapter", "")))
    if rules is None or rules.game != state.game.id or state.game.wager(PROGRESSIVE) is None:
        return Refusal(state.cite("wagers"), f"{state.game.name} has no progressive payout wager",
                       "collected_chips")  # fmt: skip
    section = rules.count_sections[state.opened.dealing_method][0]
    if isinstance(state.at, Wagering) or state.cards_dealt or state.progressive_counted:
        return Refusal(section, 'the progressive chips are counted once, after "no more bets" '
                       "and before the first card is dealt", None)  # fmt: skip
    return None


def _progressive_count(state: RoundState, event: ProgressiveCounted) -> RoundState:
    accepted = sum(PROGRESSIVE in seat.wagers for seat in state.seats.values())
    finding = check_wager_count(CHAPTERS[state.ruleset.chapter], state.opened.dealing_method,
                                collected_chips=event.collected_chips,
                                accepted_wagers=accepted)  # fmt: skip
    return evolve(state, progressive_counted=True, progressive_count=finding)


def _dealing(state: RoundState) -> Any:
    return state.game.dealing[state.opened.dealing_method]


def _spots(state: RoundState, recipient: Recipient) -> tuple[str, ...]:
    """Every spot of ``recipient``: those the deal fills, then those a draw fills."""
    layout = state.game.layout
    if recipient is Recipient.PLAYER:
        return layout.seat_spots + layout.seat_draw_spots
    if recipient is Recipient.DEALER:
        return layout.dealer_spots + layout.dealer_draw_spots
    return layout.community_spots


def _dealt_spots(state: RoundState, recipient: Recipient) -> tuple[str, ...]:
    layout = state.game.layout
    if recipient is Recipient.PLAYER:
        return layout.seat_spots
    return layout.dealer_spots if recipient is Recipient.DEALER else layout.community_spots


def _cards(state: RoundState, recipient: Recipient, seat: int | None) -> tuple[Card | None, ...]:
    if recipient is Recipient.PLAYER:
        return state.seats[seat or 0].cards
    return state.dealer if recipient is Recipient.DEALER else state.community


def _group_done(state: RoundState, group: str) -> bool:
    # ``card is None`` rather than ``None in cards``: ``in`` would call Card.__eq__.
    layout = state.game.layout
    if group == "seats":
        dealt = len(layout.seat_spots)
        return all(card is not None for seat in state.seats.values() if seat.participating
                   for card in seat.cards[:dealt])  # fmt: skip
    if group == "dealer":
        return all(card is not None for card in state.dealer[: len(layout.dealer_spots)])
    return all(card is not None for card in state.community)


def _refuse_deal(state: RoundState, event: CardDealt) -> Refusal | None:
    step = state.at
    if type(step) is Draw:
        return _refuse_draw(state, step, event)
    if type(step) is not Deal:
        return _refuse_deal_now(state)
    if state.used_cards & card_bit(event.card):
        return Refusal(state.cite("card_in_play"), f"{event.card} is already in play", "card")
    if event.card is JOKER and getattr(state.ruleset, "cards_in_deck", 52) != 53:
        return Refusal(state.cite("card_in_play"), "this game's deck has no joker", "card")
    spots = _dealt_spots(state, event.recipient)
    if event.spot not in spots:
        what = "spot" if spots else "recipient"
        return _refused_deal(state, f"{event.recipient} has no spot {event.spot}", what)
    index = spots.index(event.spot)
    if event.recipient is Recipient.PLAYER:
        seat = state.seats.get(event.seat or 0)
        if seat is None or not seat.participating:
            return _refused_deal(state, "cards go only to seats dealt in", "seat")
    staged = _staged_refusal(state, step, event)
    if staged is not None:
        return staged
    group = _GROUPS[event.recipient]
    if group in step.order:
        earlier = step.order[: step.order.index(group)]
        if not all(_group_done(state, name) for name in earlier):
            reason = f"the {', '.join(earlier)} cards are dealt first"
            return _refused_deal(state, reason, "recipient")
    cards = _cards(state, event.recipient, event.seat)
    if cards[index] is not None:
        return Refusal(state.cite("card_count"), f"{event.spot} already dealt; report it", "spot")
    if index and cards[index - 1] is None and event.recipient is not Recipient.COMMUNITY:
        return _refused_deal(state, "one card at a time, in order", "spot")
    return None


def draws_due(state: RoundState) -> list[tuple[Recipient, int | None, str]]:
    """The cards the current :class:`Draw` step still owes, in the order they go out."""
    step = state.at
    if type(step) is not Draw:
        return []
    layout = state.game.layout
    due: list[tuple[Recipient, int | None, str]] = []
    if step.dealer:
        dealt = len(layout.dealer_spots)
        for index in range(step.cards(state, None)):
            if state.dealer[dealt + index] is None:
                due.append((Recipient.DEALER, None, layout.dealer_draw_spots[index]))
        return due
    dealt = len(layout.seat_spots)
    for number, seat in sorted(state.seats.items()):
        if not seat.active:
            continue
        for index in range(step.cards(state, seat)):
            if seat.cards[dealt + index] is None:
                due.append((Recipient.PLAYER, number, layout.seat_draw_spots[index]))
    return due


def _refuse_draw(state: RoundState, step: Draw, event: CardDealt) -> Refusal | None:
    if state.used_cards & card_bit(event.card):
        return Refusal(state.cite("card_in_play"), f"{event.card} is already in play", "card")
    due = draws_due(state)
    if not due:
        return Refusal(state.section(step.section), "no card is drawn now", None)
    recipient, seat, spot = due[0]
    if (event.recipient, event.seat if recipient is Recipient.PLAYER else None,
            event.spot) != (recipient, seat, spot):  # fmt: skip
        to = "the dealer" if seat is None else f"seat {seat}"
        return Refusal(state.section(step.section), f"the next card drawn goes to {to}, "
                       f"spot {spot} (clockwise from the dealer's left)", "spot")  # fmt: skip
    return None


def _staged_spots(game: Game) -> frozenset[str]:
    """The community spots dealt by their own steps, between decisions."""
    return frozenset(spot for step in game.steps if isinstance(step, Deal) for spot in step.spots)


def _staged_refusal(state: RoundState, step: Deal, event: CardDealt) -> Refusal | None:
    """A staged deal takes only its own spots; the first deal never takes theirs."""
    community = event.recipient is Recipient.COMMUNITY
    if step.spots and not (community and event.spot in step.spots):
        return _refused_deal(state, f"now only {', '.join(step.spots)} are dealt", "spot")
    if not step.spots and community and event.spot in _staged_spots(state.game):
        return _refused_deal(state, f"{event.spot} is dealt at its own step", "spot")
    return None


def _burned(state: RoundState) -> int:
    """The cards burned by the deal steps dealt so far (none where the method burns none)."""
    method, spots = state.opened.dealing_method, state.game.layout.community_spots
    dealt = {spot for spot, card in zip(spots, state.community, strict=True) if card is not None}
    return sum(step.burn for step in state.game.steps[: state.step + 1]
               if isinstance(step, Deal) and method not in step.no_burn
               and dealt.issuperset(step.spots))  # fmt: skip


def _refused_deal(state: RoundState, reason: str, field: str | None) -> Refusal:
    return Refusal(state.section(_dealing(state).deal), reason, field)


def _refuse_deal_now(state: RoundState) -> Refusal:
    if isinstance(state.at, Wagering):
        section = state.section(_dealing(state).no_more_bets)
        return Refusal(section, 'deal only after "no more bets"', None)
    return _refused_deal(state, "dealing is complete", None)


def _refuse_expose(state: RoundState, event: CardExposed) -> Refusal | None:
    step = state.at
    spots = _spots(state, event.recipient)
    if not spots:
        return Refusal(
            state.cite("no_spot"), f"no {event.recipient.value.lower()} cards", "recipient"
        )
    if event.spot not in spots:
        return Refusal(state.cite("no_spot"), f"the layout has no {event.spot} there", "spot")
    index = spots.index(event.spot)
    if event.recipient is Recipient.PLAYER:
        if not isinstance(step, Showdown):
            return Refusal(
                state.cite("showdown"), "players' cards are turned at settlement", "seat"
            )
        seat = state.seats.get(event.seat or 0)
        if seat is None or not turned_at_showdown(state, seat):
            return Refusal(
                state.cite("showdown"), "only remaining players' cards are turned", "seat"
            )
        later = [other.seat for other in state.seats.values() if turned_at_showdown(state, other)
                 and other.seat > seat.seat and _hidden(other)]  # fmt: skip
        if later:
            reason = f"seat {max(later)} first (counterclockwise)"
            return Refusal(state.cite("showdown"), reason, "seat")
        if seat.exposed[index]:
            return Refusal(state.cite("showdown"), "already face up", "spot")
        dealt = seat.cards[index]
        if dealt is None:
            return Refusal(state.cite("showdown"), f"no card was dealt to {event.spot}", "spot")
    else:
        dealer = event.recipient is Recipient.DEALER
        due = isinstance(step, Reveal) and step.dealer == dealer
        if not due and dealer and "dealer_exposure" in state.game.sections:
            return Refusal(state.cite("dealer_exposure"), "not the dealer's reveal", "recipient")
        if not due or event.spot not in step.spots:
            return Refusal(state.cite("early_exposure"), f"{event.spot} is not due now", "spot")
        if (state.dealer_exposed if dealer else state.community_exposed)[index]:
            return Refusal(state.section(step.section), f"{event.spot} is already face up", "spot")
        dealt = _cards(state, event.recipient, None)[index]
    if event.card is not None and event.card != dealt:
        return Refusal(
            state.cite("card_mismatch"), f"that card is {dealt}, not {event.card}", "card"
        )
    return None


def turned_at_showdown(state: RoundState, seat: Seat) -> bool:
    """Whether ``seat``'s cards are turned at the showdown: still in, or folded where the
    game leaves a folded hand on the layout."""
    if seat.active:
        return True
    return state.game.folded_hands_shown and seat.participating and not seat.abandoned


def _refuse_stub(state: RoundState, event: StubCounted) -> Refusal | None:
    steps = state.game.steps
    first = next((number for number, step in enumerate(steps) if isinstance(step, Decide)), None)
    deals = [number for number, step in enumerate(steps) if isinstance(step, Deal)]
    if len(deals) > 1:  # community cards dealt in stages: the stub once the last is out
        if state.step <= deals[-1] or state.stub_counted:
            return Refusal(state.section(_dealing(state).stub_when),
                           "the stub is counted after the last card is dealt", None)  # fmt: skip
        return None
    # After the deal (a card it turns face up included) and before the first decision.
    dealt = first is not None and state.step <= first and all(
        isinstance(step, Reveal) for step in steps[state.step : first])  # fmt: skip
    if not dealt or state.decisions_made or state.stub_counted:
        return Refusal(
            state.section(_dealing(state).stub_when),
            "the stub is counted after the deal and before the first decision",
            None,
        )
    return None


def _refuse_irregularity(state: RoundState, event: IrregularityReported) -> Refusal | None:
    kind = event.kind
    if kind not in _KINDS and kind not in state.game.remedies.resets:  # or the game's own
        return Refusal(state.cite("irregularities"), f"no irregularity {kind!r} is known", "kind")
    if kind == IrregularityKind.DEALER_CARD_EXPOSED_EARLY and not state.game.layout.dealer_spots:
        return Refusal(state.cite("irregularities"), "the dealer has no cards", "kind")
    if kind == IrregularityKind.CARD_FACE_UP_IN_DECK:
        if event.card is None:
            face_up = state.section(state.game.remedies.face_up)
            return Refusal(face_up, "name the card found face up", "card")
        if state.used_cards & card_bit(event.card):
            return Refusal(state.cite("card_in_play"), f"{event.card} is already in play", "card")
    if kind == IrregularityKind.PLAYER_LEFT_TABLE and event.seat not in state.seats:
        return Refusal(state.cite("seated"), "name the seat the player left", "seat")
    return None


def _refuse_dealer_action(state: RoundState, event: Any) -> Refusal | None:
    if event.seat not in state.seats:
        return Refusal(state.cite("settle"), f"seat {event.seat} is not in this round", "seat")
    if isinstance(event, DealerPaid) and not (
        complete(state) or state.phase == VOIDED or state.settling
    ) and event.wager not in _early(state, state.seats[event.seat]):
        return Refusal(state.cite("settle"), "wagers are paid at settlement", None)
    if isinstance(event, DealerPaid) and "losers_first" in state.game.sections:
        return _refuse_winner_first(state)
    before = isinstance(state.at, Wagering) or (isinstance(state.at, Deal) and not state.at.spots)
    if isinstance(event, DealerCollected) and before:
        spec = state.game.wager(event.wager)
        if spec is None or spec.taken is None or isinstance(state.at, Wagering):
            return Refusal(state.cite("collect"), "nothing is lost before the first decision",
                           None)  # fmt: skip
    return None


def _refuse_winner_first(state: RoundState) -> Refusal | None:
    """A winner is paid only once every losing wager is collected."""
    taken: dict[tuple[int, str], int] = {}
    for action in state.dealer_actions:
        if isinstance(action, DealerCollected | WagerReturned):
            sign = 1 if isinstance(action, DealerCollected) else -1
            key = (action.seat, action.wager)
            taken[key] = taken.get(key, 0) + sign * action.amount_cents
    for line in _losers(state):
        if taken.get((line.seat, line.wager), 0) < line.collected_cents:
            return Refusal(
                state.cite("losers_first"),
                f"collect seat {line.seat}'s losing {line.wager} before paying any winner",
                None,
            )
    return None


_DEALER_ACTIONS = RoundState._fields.index("dealer_actions")
#: The state :func:`_losers` last settled and its losing lines. Paying, collecting and
#: returning change only ``dealer_actions``, which no settlement reads, so every payment
#: of a settlement after the first finds the same objects in every other field and reuses
#: the lines instead of settling the round again per payment (most of a dice round's
#: replay, where every wager is settled at each payment). States are immutable and the
#: entry holds its state, so an identical object is never a recycled one.
_losers_of: tuple[RoundState | None, tuple[SettlementLine, ...]] = (None, ())


def _losers(state: RoundState) -> tuple[SettlementLine, ...]:
    """The lines of ``state``'s required settlement that collect a losing wager."""
    global _losers_of
    held, lines = _losers_of  # one read: another thread may replace the entry
    if (
        held is not None
        and all(map(is_, held[:_DEALER_ACTIONS], state[:_DEALER_ACTIONS]))
        and all(map(is_, held[_DEALER_ACTIONS + 1 :], state[_DEALER_ACTIONS + 1 :]))
    ):
        return lines
    lines = tuple(line for line in required_settlement(state).lines if line.collected_cents)
    _losers_of = (state, lines)
    return lines


def _throw_due(state: RoundState, step: Throw) -> int:
    return state.game.layout.dice if step.dice is None else step.dice(state)


def _refuse_roll(state: RoundState, event: DiceThrown) -> Refusal | None:
    layout, step = state.game.layout, state.at
    if not layout.dice:
        return Refusal("round", f"{state.game.name} is not played with dice", None)
    if not isinstance(step, Throw):
        return Refusal(state.cite("throw"), "no throw of the dice is due now", None)
    if event.no_roll is not None and event.no_roll not in step.no_rolls:
        kinds = ", ".join(step.no_rolls) or "none"
        return Refusal(state.section(step.section), f"the throws that do not count are {kinds}",
                       "no_roll")  # fmt: skip
    due = _throw_due(state, step)
    dice = state.section(layout.dice_section)
    if event.no_roll is None and len(event.faces) != due:
        return Refusal(dice, f"{due} dice are thrown, got {len(event.faces)} faces", "faces")
    if event.no_roll is not None and len(event.faces) > due:
        return Refusal(dice, f"only {due} dice are thrown, got {len(event.faces)}", "faces")
    for face in event.faces:
        if not 1 <= face <= 6:
            return Refusal(dice, f"a die shows 1 to 6, got {face}", "faces")
    return None


def _roll(state: RoundState, event: DiceThrown) -> RoundState:
    step: Throw = state.at
    if event.no_roll is not None:
        state = evolve(state, no_rolls=(*state.no_rolls, (step.name, event.no_roll)))
        remedy = step.no_rolls[event.no_roll]
        if remedy.rethrow:
            return state
        return _void(state, state.section(remedy.section), remedy.reason)
    state = evolve(state, rolls={**state.rolls, step.name: event.faces},
                   settling=state.settling or step.settles)  # fmt: skip
    if step.call is not None and event.called is not None:
        derived = step.call(state, event.faces)
        if event.called.strip().casefold() != derived.casefold():
            section = state.section(step.call_section or step.section)
            miscall = Miscall(step.name, event.called, derived, section)
            state = evolve(state, miscalls=(*state.miscalls, miscall))
    return _advance(state)


def _refuse_close(state: RoundState, event: RoundClosed) -> Refusal | None:
    if state.phase == VOIDED:
        return None
    if not isinstance(state.at, Showdown):
        return Refusal(state.cite("close"), "the round is not yet settled", None)
    if Automation.EXPOSE_PLAYER_CARDS not in state.automations:
        for seat in state.seats.values():
            if turned_at_showdown(state, seat) and _hidden(seat):
                return Refusal(state.cite("showdown"), f"seat {seat.seat}'s cards are hidden", None)
    return None


def _hidden(seat: Seat) -> bool:
    """Whether a card the seat holds is still face down (a draw spot never dealt is empty)."""
    return not all(shown or card is None
                   for card, shown in zip(seat.cards, seat.exposed, strict=True))  # fmt: skip


_AFTER_VOID = (
    DealerPaid,
    DealerCollected,
    WagerReturned,
    RoundClosed,
    RoundVoided,
    IrregularityReported,
)


def verify(state: RoundState, event: Event) -> Refusal | None:
    """Why ``event`` may not follow ``state``, or ``None`` if it may."""
    if state.phase == CLOSED:
        return Refusal(state.cite("close"), "the round is closed", None)
    entry = _table(state.game).get(type(event))
    if entry is None:
        return Refusal("round", f"{event.TYPE} does not belong in a {state.game.name} round", None)
    if state.phase == VOIDED and not isinstance(event, _AFTER_VOID):
        return Refusal(state.void_section or state.cite("void"), "the round is void", None)
    refusal: Refusal | None = entry[0](state, event)
    return refusal


def can_apply(state: RoundState, event: Event) -> bool:
    """Whether ``event`` may follow ``state``."""
    return verify(state, event) is None


# ------------------------------------------------------------------- apply


def _with_seat(state: RoundState, seat: Seat, **changes: Any) -> RoundState:
    seats = dict(state.seats)
    seats[seat.seat] = seat
    return evolve(state, seats=seats, **changes)


def _place(state: RoundState, event: WagerPlaced) -> RoundState:
    step = state.at
    if isinstance(step, Decide):
        choice = _choice_placing(step, event.wager)
        assert choice is not None
        return _decide(state, event.seat, choice, {event.wager: event.amount_cents})
    seat = state.seats[event.seat]
    return _with_seat(state, evolve(seat, wagers={**seat.wagers, event.wager: event.amount_cents}))


def _decide(
    state: RoundState,
    number: int,
    choice_name: str,
    amounts: Mapping[str, int],
    params: Mapping[str, Any] | None = None,
) -> RoundState:
    step = state.at
    choice = next(item for item in step.choices if item.name == choice_name)
    seat = state.seats[number]
    seat = evolve(seat, choices={**seat.choices, step.name: choice.name})
    if amounts:
        seat = evolve(seat, wagers={**seat.wagers, **amounts})
    if params:
        seat = evolve(seat, params={**seat.params, **params})
    if choice.folds:
        seat = evolve(seat, folded_at=step.name)
    pending = state.pending
    pending = pending[1:] if pending and pending[0] == number else tuple(
        other for other in pending if other != number)  # fmt: skip
    state = _with_seat(state, seat, pending=pending, decisions_made=state.decisions_made + 1)
    return _advance(state)


def _decision(state: RoundState, event: Decision) -> RoundState:
    choice = next(item for item in state.at.choices if item.name == event.choice)
    amounts = {choice.wagers[0]: event.amount_cents} if event.amount_cents else {}
    return _decide(state, event.seat, event.choice, amounts, dict(event.params))


def _recorded_decision(state: RoundState, event: Any) -> RoundState:
    choice, amounts, params = state.game.decisions[type(event)](event)
    return _decide(state, event.seat, choice, amounts, params)


def _no_more_bets(state: RoundState, event: NoMoreBets) -> RoundState:
    participates, layout = state.game.participates, state.game.layout
    seats = {
        number: evolve(seat, participating=participates(seat))
        for number, seat in state.seats.items()
    }
    dealt_in = sum(seat.participating for seat in seats.values())
    due = dealt_in * len(layout.seat_spots) + len(layout.dealer_spots) + len(layout.community_spots)
    due -= len(_staged_spots(state.game))
    return _next_step(evolve(state, seats=seats, cards_due=due))


def _replace(items: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return items[:index] + (value,) + items[index + 1 :]


def _deal(state: RoundState, event: CardDealt) -> RoundState:
    index = _spots(state, event.recipient).index(event.spot)
    dealt = {"used_cards": state.used_cards | card_bit(event.card),
             "cards_dealt": state.cards_dealt + 1}  # fmt: skip
    if event.recipient is Recipient.DEALER:
        state = evolve(state, dealer=_replace(state.dealer, index, event.card), **dealt)
    elif event.recipient is Recipient.COMMUNITY:
        state = evolve(state, community=_replace(state.community, index, event.card), **dealt)
        if state.at.face_up:
            state = evolve(state, community_exposed=_replace(state.community_exposed, index, True))
    else:
        seat = state.seats[event.seat or 0]
        seat = evolve(seat, cards=_replace(seat.cards, index, event.card))
        state = _with_seat(state, seat, **dealt)
    return _advance(state)


def _expose(state: RoundState, event: CardExposed) -> RoundState:
    index = _spots(state, event.recipient).index(event.spot)
    if event.recipient is Recipient.PLAYER:
        seat = state.seats[event.seat or 0]
        return _with_seat(state, evolve(seat, exposed=_replace(seat.exposed, index, True)))
    if event.recipient is Recipient.DEALER:
        state = evolve(state, dealer_exposed=_replace(state.dealer_exposed, index, True))
    else:
        state = evolve(state, community_exposed=_replace(state.community_exposed, index, True))
    return _advance(state)


def _void(state: RoundState, section: str, reason: str) -> RoundState:
    return cast(RoundState, void(state, VOIDED, section, reason))


def _irregularity(state: RoundState, event: IrregularityReported) -> RoundState:
    state = report_irregularity(state, event, remedies=state.game.remedies, void=_void)
    if event.kind == IrregularityKind.PLAYER_LEFT_TABLE:
        seat = evolve(state.seats[event.seat or 0], abandoned=True)
        state = _with_seat(state, seat, pending=tuple(s for s in state.pending if s != seat.seat))
        return _advance(state)
    return state


def _stub(state: RoundState, event: StubCounted) -> RoundState:
    dealing = _dealing(state)
    section = state.section(dealing.stub_wrong)
    remedy = state.game.stub_remedy
    return cast(RoundState, count_stub(state, event, section=section, remedy=remedy, void=_void,
                                       discarded=dealing.discarded + _burned(state)))  # fmt: skip


def _revealed(state: RoundState, step: Reveal) -> bool:
    layout = state.game.layout
    spots = layout.dealer_spots if step.dealer else layout.community_spots
    flags = state.dealer_exposed if step.dealer else state.community_exposed
    return all(flags[spots.index(spot)] for spot in step.spots)


def _step_done(state: RoundState) -> bool:
    step = state.at
    if isinstance(step, Deal):
        return state.cards_dealt == state.cards_due
    if isinstance(step, Decide):
        return not state.pending
    if isinstance(step, Reveal):
        return _revealed(state, step)
    if isinstance(step, Draw):
        return not draws_due(state)
    if isinstance(step, Throw):
        if step.name in state.rolls:
            return True
        skipped = step.when is not None and not step.when(state)
        return skipped or _throw_due(state, step) == 0
    return False


def _advance(state: RoundState) -> RoundState:
    while state.phase not in (VOIDED, CLOSED) and _step_done(state):
        state = _next_step(state)
    return state


def _next_step(state: RoundState) -> RoundState:
    number = state.step + 1
    step = state.game.steps[number]
    state = evolve(state, step=number, at=step, phase=step.name, pending=())
    if isinstance(step, Deal) and step.spots:
        # A stage of the board is dealt only while a hand is still to be judged on it.
        if any(turned_at_showdown(state, seat) for seat in state.seats.values()):
            state = evolve(state, cards_due=state.cards_due + len(step.spots))
    elif isinstance(step, Decide):
        seats = sorted(state.seats.items())
        asked = step.when is None or step.when(state)
        pending = tuple(n for n, seat in seats if asked and seat.active and step.eligible(seat))
        state = evolve(state, pending=pending)
    elif isinstance(step, Reveal):
        automation = Automation.REVEAL_DEALER_CARDS if step.dealer else (
            Automation.REVEAL_COMMUNITY_CARDS)  # fmt: skip
        if automation in state.automations:
            spots = _spots(state, Recipient.DEALER if step.dealer else Recipient.COMMUNITY)
            field = "dealer_exposed" if step.dealer else "community_exposed"
            flags = tuple(
                done or spot in step.spots
                for spot, done in zip(spots, getattr(state, field), strict=True)
            )
            state = evolve(state, **{field: flags})
    return _advance(state)


def _closed(state: RoundState, event: RoundClosed) -> RoundState:
    return evolve(state, phase=CLOSED, step=len(state.game.steps), at=None)


_CHECKS: dict[type[Event], Any] = {
    WagerPlaced: _refuse_wager,
    NoMoreBets: _refuse_no_more_bets,
    CardDealt: _refuse_deal,
    CardExposed: _refuse_expose,
    StubCounted: _refuse_stub,
    ProgressiveCounted: _refuse_progressive_count,
    Decision: lambda state, event: _refuse_choice(state, event, event.choice, event.amount_cents),
    PlayerFolded: lambda state, event: _refuse_choice(state, event, "fold", None),
    IrregularityReported: _refuse_irregularity,
    RoundVoided: lambda state, event: None,
    DiceThrown: _refuse_roll,
    DealerPaid: _refuse_dealer_action,
    DealerCollected: _refuse_dealer_action,
    WagerReturned: _refuse_dealer_action,
    RoundClosed: _refuse_close,
}
_STEPS: dict[type[Event], Any] = {
    WagerPlaced: _place,
    NoMoreBets: _no_more_bets,
    CardDealt: _deal,
    CardExposed: _expose,
    StubCounted: _stub,
    ProgressiveCounted: _progressive_count,
    Decision: _decision,
    PlayerFolded: lambda state, event: _decide(state, event.seat, "fold", {}),
    IrregularityReported: _irregularity,
    RoundVoided: lambda state, event: _void(state, "floor", event.reason),
    DiceThrown: _roll,
    DealerPaid: record_dealer_action,
    DealerCollected: record_dealer_action,
    WagerReturned: record_dealer_action,
    RoundClosed: _closed,
}


def apply(state: RoundState, event: Event) -> RoundState:
    """The state after ``event``.

    :raises RuleViolation: naming the section when the rules forbid it.
    """
    entry = _table(state.game).get(type(event))
    refusal = verify(state, event) if entry is None or state.phase in (VOIDED, CLOSED) else (
        entry[0](state, event))  # fmt: skip
    if refusal is not None:
        raise RuleViolation.from_refusal(refusal)
    assert entry is not None
    after: RoundState = entry[1](state, event)
    return after


_TABLES: dict[str, tuple[Game, Mapping[type[Event], tuple[Any, Any]]]] = {}


def _table(game: Game) -> Mapping[type[Event], tuple[Any, Any]]:
    """Each event type ``game`` accepts, with its check and its step (built once per game)."""
    cached = _TABLES.get(game.id)
    if cached is not None and cached[0] is game:
        return cached[1]
    table = {kind: (game.checks.get(kind, check), _STEPS[kind]) for kind, check in _CHECKS.items()}
    for kind in game.decisions:
        table[kind] = (game.checks[kind], _recorded_decision)
    _TABLES[game.id] = (game, table)
    return table


# -------------------------------------------------------------- settlement


def _options_applied(state: RoundState) -> tuple[tuple[str, str], ...]:
    applied = [("rounding", state.rounding.name)]
    for spec in state.game.options:
        value = state.options[spec.name]
        if spec.recorded and value is not None:
            applied.append((spec.name, str(value)))
    if state.opened.payout_limit_cents is not None:
        applied.append(("payout_limit_cents", str(state.opened.payout_limit_cents)))
    return tuple(applied)


def required_settlement(state: RoundState) -> Settlement:
    """What the game's chapter requires for every wager of the round so far.

    Before the showdown only what is already decided (folds, abandoned seats,
    seats not dealt in) is settled and ``complete`` is false.
    """
    game, ruleset = state.game, state.ruleset
    if game.settlement is not None:
        return game.settlement(state)
    header: dict[str, Any] = {
        "round_id": state.opened.round_id,
        "ruleset_id": ruleset.id,
        "rounding": state.rounding.name,
        "options_applied": _options_applied(state),
        "notes": (
            *getattr(ruleset, "settlement_notes", ruleset.notes),
            *(str(miscall) for miscall in state.miscalls),
            *(f"{breach.section}: {breach.reason}" for breach in state.breaches),
            *_carried_notes(state),
        ),
    }
    seats = counterclockwise(state.seats)
    order = tuple(spec.name for spec in game.wagers)
    if state.void_section is not None:
        notes = (state.void_reason,) if state.void_reason else ()
        lines = _fees_kept(state, returned_lines(seats, order, state.void_section, notes))
        if game.void_settles is not None:
            lines = _void_settled(state, lines, game.void_settles(state))
        return Settlement(lines=lines, voided=True, void_section=state.void_section, **header)
    done = complete(state)
    dealt = not isinstance(state.at, Wagering)
    settled: list[SettlementLine] = []
    for seat in seats:
        by_wager = withdrawn_lines(state, seat)
        if by_wager:
            seat = seat._replace(wagers={w: a for w, a in seat.wagers.items() if w not in by_wager})
        decided = seat.folded_at or seat.abandoned or (dealt and not seat.participating)
        names = order if done or decided or state.settling else _early(state, seat)
        if seat.wagers and names:
            by_wager.update((line.wager, line) for line in game.settle(state, seat)
                            if line.wager in names)  # fmt: skip
        if dealt:
            by_wager.update(taken_lines(state, seat))
        settled.extend(by_wager[name] for name in order if name in by_wager)
    limit = state.opened.payout_limit_cents
    if limit is None:
        limit = getattr(ruleset, "payout_limit_cents", None)
    if limit is not None:
        wagers = getattr(ruleset, "payout_limit_wagers", game.handle_wagers)
        # Per player, unless the chapter caps each hand (a betting position) on its own.
        per_hand = getattr(ruleset, "payout_limit_per_hand", False)
        settled = list(apply_payout_limit(tuple(settled), limit_cents=limit, wagers=wagers,
                                          section=state.cite("payout_limit"),
                                          group=(lambda line: line.seat) if per_hand else (
                                              lambda line: line.player)))  # fmt: skip
    return Settlement(lines=tuple(settled), complete=done, **header)


def _fees_kept(state: RoundState, lines: tuple[SettlementLine, ...]) -> tuple[SettlementLine, ...]:
    """A void returns the wagers; a fee is no wager and stays collected unless the game
    says the round returns it."""
    kept = {spec.name for spec in state.game.wagers if spec.fee
            and not (spec.fee_returned_on_void and spec.fee_returned_on_void(state))}  # fmt: skip
    if not kept:
        return lines
    seats = state.seats
    return tuple(fee_line(seats[line.seat], line.wager, line.section, line.hand)
                 if line.wager in kept else line for line in lines)  # fmt: skip


def _early(state: RoundState, seat: Seat) -> tuple[str, ...]:
    """The seat's wagers the game settles before the showdown (``Game.settled_early``)."""
    early = state.game.settled_early
    return () if early is None else tuple(early(state, seat))


def withdrawn_lines(state: RoundState, seat: Seat) -> dict[str, SettlementLine]:
    """The wagers ``seat`` took back by a decision (a choice's ``withdraws``),
    each returned under the decision's section; the game settles the rest."""
    lines: dict[str, SettlementLine] = {}
    if not seat.choices:
        return lines
    for step in state.game.steps:
        if isinstance(step, Decide) and step.name in seat.choices:
            choice = next(item for item in step.choices if item.name == seat.choices[step.name])
            for wager in choice.withdraws:
                if wager in seat.wagers:
                    lines[wager] = plain_line(seat, wager, Outcome.RETURNED,
                                              state.section(step.section))  # fmt: skip
    return lines


def taken_lines(state: RoundState, seat: Seat) -> dict[str, SettlementLine]:
    """The wagers of ``seat`` the house took at "no more bets" (a spec's ``taken``),
    each lost under that section whatever the hand; a void returns them."""
    return {
        spec.name: plain_line(seat, spec.name, Outcome.LOSE, state.section(spec.taken))
        for spec in state.game.wagers
        if spec.taken is not None and spec.name in seat.wagers
    }


def _void_settled(
    state: RoundState, returned: tuple[SettlementLine, ...], kept: tuple[str, ...]
) -> tuple[SettlementLine, ...]:
    """The void's returned lines, with the ``kept`` wagers settled on the cards instead."""
    if not kept:
        return returned
    settled: dict[tuple[int, str], SettlementLine] = {}
    for seat in state.seats.values():
        if any(wager in seat.wagers for wager in kept):
            lines = state.game.settle(state, seat)
            settled.update(((line.seat, line.wager), line) for line in lines if line.wager in kept)
    return tuple(settled.get((line.seat, line.wager), line) for line in returned)


def miscalls(state: RoundState) -> tuple[Miscall, ...]:
    """Every call of the dice the dealer announced wrongly in the round so far."""
    return state.miscalls


def carried(state: RoundState) -> Mapping[str, Any]:
    """The opening options the table's next round inherits (empty until complete)."""
    carries = state.game.carries
    if carries is None or not complete(state):
        return {}
    return carries(state)


def _left(previous: RoundState, opened: RoundOpened) -> Mapping[str, Any]:
    game = previous.game
    if game.opens_with is None or previous.phase != CLOSED or opened.game != game.id:
        return {}
    return game.opens_with(previous, opened)


def opened_as_left(previous: RoundState, opened: RoundOpened) -> RoundOpened:
    """``opened`` with the options the table's closed round ``previous`` left it
    (``Game.opens_with``), as a simulated table records its next round."""
    left = _left(previous, opened)
    if not left:
        return opened
    return replace(opened, options=Options({**opened.options.as_dict(), **left}))


def refuse_next_opening(previous: RoundState, opened: RoundOpened) -> Refusal | None:
    """The refusal of ``opened``, the next round at the table after the closed round
    ``previous``, if it does not open as that round left the table (``Game.opens_with``:
    § 585.3(j)'s shooter)."""
    game, required = previous.game, _left(previous, opened)
    for spec in game.options:
        if spec.name not in required:
            continue
        given = opened.options.get(spec.name)
        if given != required[spec.name]:
            return Refusal(previous.section(spec.section),
                           f"{spec.name} is {required[spec.name]} after round "
                           f"{previous.opened.round_id} at the table, got {given}",
                           f"options.{spec.name}")  # fmt: skip
    return None


def _carried_notes(state: RoundState) -> tuple[str, ...]:
    return tuple(f"next round: {name}={value}" for name, value in carried(state).items())


# ------------------------------------------------------------ registration


class _Declared:
    """What the engine's registry holds for one declared game."""

    def __init__(self, game: Game) -> None:
        self.game = game

    def open(self, event: RoundOpened, automations: frozenset[Automation]) -> RoundState:
        return open_round(self.game, event, automations)

    apply = staticmethod(apply)
    required_settlement = staticmethod(required_settlement)


def declare(game: Game) -> Game:
    """Register ``game`` with the engine (called once by its module)."""
    register_game(game.id, RoundState, _Declared(game))
    return game


def step_names(game: Game) -> Iterable[str]:
    """The phases a round of ``game`` passes through, in order."""
    return (step.name for step in game.steps)
