"""Hands in the Poker Hand History format (PHH, the TOML files pokerkit reads and writes).

:func:`to_phh` writes a recorded hand; :func:`from_phh` reads one back into
events that :func:`~tables.rules.poker_room.replay.replay_hand` verifies, so a
poker room's existing histories can be checked and ours read by other tools.

PHH names players p1, p2, ... from the button's left (the button last), or
from the dealer's left in stud; ``seats`` keeps our seat numbers. PHH records
no burn cards and no money the dealer moved: both go in user-defined fields
(PHH's leading underscore), ``_burnt_cards`` and ``_dealer`` (``"rake POT
AMOUNT"``, ``"bad_beat POT AMOUNT"``, ``"push POT pN AMOUNT"``, ``"return pN
AMOUNT"``), with ``_ruleset_id`` and ``_bad_beat_fund``, so that our hands
come back exactly. PHH has no word for the chapter's irregularities (§ 553.16) either:
``_irregularities`` keeps each as ``"INDEX KIND [pN] [CARDS]"``, INDEX its place
among the hand's events (the opening is 0), so that the reader applies it where
it happened and the remedy (a void, a card exchanged, a hand refunded) replays. A
reader that ignores the field sees a hand without its remedies: the field is
there so that ours is complete. A history from elsewhere without ``_burnt_cards`` has its
burns filled with cards the hand never shows, lowest first, and
:attr:`PhhHand.burns_known` is False: the burns are placeholders for replay,
never to be stored as facts.

Only the games PHH has codes for are written: no-limit and limit Hold'em
(``NT``, ``FT``), pot-limit Omaha (``PO``), limit Omaha and Seven-card Stud
Eight or Better (``FO/8``, ``F7S/8``) and limit Seven-card Stud (``F7S``).
"""

from __future__ import annotations

import datetime
import tomllib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from tables.rules.cards import STANDARD_DECK, Card, parse_cards
from tables.rules.engine import RuleViolation
from tables.rules.events import Event
from tables.rules.poker_room.events import (
    Acted,
    Action,
    BadBeatContributed,
    BetReturned,
    CardBurnt,
    CardDealt,
    Discarded,
    HandClosed,
    HandOpened,
    Irregularity,
    IrregularityFound,
    Mucked,
    Posted,
    PotPushed,
    RakeTaken,
    Shown,
)
from tables.rules.poker_room.hand import Phase, PostKind
from tables.rules.poker_room.replay import apply, open_from
from tables.rules.poker_room.rules import (
    HOLDEM,
    OMAHA,
    OMAHA_HI_LO_8,
    SEVEN_CARD_STUD,
    SEVEN_CARD_STUD_HI_LO_8,
    PokerRuleSet,
    Structure,
    Variant,
)

__all__ = ["PHH_VARIANTS", "PhhHand", "from_phh", "to_phh"]

PHH_VARIANTS: dict[tuple[str, Structure], str] = {
    (HOLDEM.name, Structure.NO_LIMIT): "NT",
    (HOLDEM.name, Structure.LIMIT): "FT",
    (OMAHA.name, Structure.POT_LIMIT): "PO",
    (OMAHA_HI_LO_8.name, Structure.LIMIT): "FO/8",
    (SEVEN_CARD_STUD.name, Structure.LIMIT): "F7S",
    (SEVEN_CARD_STUD_HI_LO_8.name, Structure.LIMIT): "F7S/8",
}
"""PHH's code of each game we write, by variant name and structure."""


@dataclass(frozen=True, slots=True)
class PhhHand:
    """A hand read from PHH: its events, and whether its burn cards were recorded."""

    events: tuple[Event, ...]
    burns_known: bool


def _order(variant: Variant, opened: HandOpened) -> list[int]:
    seats = list(opened.seats)
    if variant.button:
        start = seats.index(opened.button) + 1 if opened.button in seats else 0
        seats = seats[start:] + seats[:start]
    return seats


def _toml(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    assert isinstance(value, list)
    return "[" + ", ".join(_toml(item) for item in value) + "]"


def to_phh(events: Sequence[Event], rules: PokerRuleSet) -> str:
    """The hand ``events`` record, as PHH text.

    :raises ValueError: for a game PHH has no code for.
    """
    opened = events[0]
    assert isinstance(opened, HandOpened)
    code = PHH_VARIANTS.get((rules.variant.name, rules.structure))
    if code is None:
        raise ValueError(f"PHH has no code for {rules.variant.name} ({rules.structure})")
    order = _order(rules.variant, opened)
    player = {seat: f"p{index + 1}" for index, seat in enumerate(order)}
    count = len(order)
    fields: dict[str, object] = {"variant": code, "antes": [rules.ante_cents] * count}
    if rules.variant.button:
        blinds = list(rules.blinds_cents) + [0] * count
        fields["blinds_or_straddles"] = blinds[:count]
    else:
        fields["bring_in"] = rules.forced_bet_cents
    if rules.structure is Structure.LIMIT:
        fields |= {"small_bet": rules.small_bet_cents, "big_bet": rules.big_bet_cents}
    else:
        fields["min_bet"] = rules.small_bet_cents
    stacks = opened.stacks
    fields["starting_stacks"] = [stacks[seat] for seat in order]
    fields["actions"] = list(_actions(events[1:], player))
    day = opened.gaming_day
    fields |= {
        "hand": opened.hand_id, "table": opened.table_id, "year": day.year, "month": day.month,
        "day": day.day, "seats": order, "players": [opened.players[opened.seats.index(seat)]
                                                    for seat in order],
        "_ruleset_id": opened.ruleset_id,
        "_burnt_cards": [str(e.card) for e in events if isinstance(e, CardBurnt)],
        "_dealer": list(_dealer(events, player)),
    }  # fmt: skip
    if opened.bad_beat_fund is not None:
        fields["_bad_beat_fund"] = opened.bad_beat_fund
    irregularities = list(_irregularities(events, player))
    if irregularities:
        fields["_irregularities"] = irregularities
    return "".join(f"{name} = {_toml(value)}\n" for name, value in fields.items())


def _actions(events: Sequence[Event], player: dict[int, str]) -> Iterator[str]:
    board: list[str] = []
    for event in events:
        if isinstance(event, CardDealt) and event.seat is None:
            board.append(str(event.card))
            continue
        if board:
            yield "d db " + "".join(board)
            board = []
        if isinstance(event, CardDealt) and event.seat is not None:
            yield f"d dh {player[event.seat]} {event.card}"
        elif isinstance(event, Posted) and event.kind is PostKind.FORCED_BET:
            yield f"{player[event.seat]} pb"
        elif isinstance(event, Discarded):
            yield f"{player[event.seat]} sd {''.join(map(str, event.cards))}".rstrip()
        elif isinstance(event, Acted):
            if event.action is Action.FOLD:
                yield f"{player[event.seat]} f"
            elif event.action in (Action.CHECK, Action.CALL):
                yield f"{player[event.seat]} cc"
            else:
                yield f"{player[event.seat]} cbr {event.to_cents}"
        elif isinstance(event, Shown):
            yield f"{player[event.seat]} sm -"
        elif isinstance(event, Mucked):
            yield f"{player[event.seat]} sm"
    if board:
        yield "d db " + "".join(board)


def _dealer(events: Sequence[Event], player: dict[int, str]) -> Iterator[str]:
    for event in events:
        if isinstance(event, RakeTaken):
            yield f"rake {event.pot} {event.amount_cents}"
        elif isinstance(event, BadBeatContributed):
            yield f"bad_beat {event.pot} {event.amount_cents}"
        elif isinstance(event, PotPushed):
            yield f"push {event.pot} {player[event.seat]} {event.amount_cents}"
        elif isinstance(event, BetReturned):
            yield f"return {player[event.seat]} {event.amount_cents}"
        elif isinstance(event, HandClosed):
            yield "closed"


def _irregularities(events: Sequence[Event], player: dict[int, str]) -> Iterator[str]:
    for index, event in enumerate(events):
        if isinstance(event, IrregularityFound):
            words = [str(index), event.kind.value]
            if event.seat is not None:
                words.append(player[event.seat])
            if event.cards:
                words.append("".join(map(str, event.cards)))
            yield " ".join(words)


def _irregularity(entry: str, by_name: dict[str, int]) -> tuple[int, IrregularityFound]:
    """An ``_irregularities`` entry: where it goes among the events, and the event."""
    words = entry.split()
    try:
        if len(words) < 2 or not words[0].isdigit() or int(words[0]) < 1:
            raise ValueError("INDEX KIND [pN] [CARDS]")
        kind, rest = Irregularity(words[1]), words[2:]
        seat = by_name[rest.pop(0)] if rest and rest[0] in by_name else None
        if len(rest) > 1:
            raise ValueError("INDEX KIND [pN] [CARDS]")
        cards = parse_cards(_spaced(rest[0])) if rest else ()
        return int(words[0]), IrregularityFound(kind=kind, seat=seat, cards=cards)
    except ValueError as error:
        raise RuleViolation("553.16", f"not an irregularity: {entry!r} ({error})",
                            "_irregularities") from None  # fmt: skip


def from_phh(text: str, rules: PokerRuleSet) -> PhhHand:
    """The events of the PHH hand ``text``, played under ``rules``.

    Forced wagers and burns are recorded where the machine's plan puts them;
    every card dealt and every action comes from the history.

    :raises RuleViolation: a history that is not PHH, of another game, or an
        action the chapter refuses (the section it breaks).
    """
    try:
        fields = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise RuleViolation("553.7(a)", f"not a PHH hand: {error}", "phh") from None
    code = PHH_VARIANTS.get((rules.variant.name, rules.structure))
    if fields.get("variant") != code:
        raise RuleViolation(
            "553.9(a)", f"the history is {fields.get('variant')!r}, the rules {code!r}", "variant"
        )
    count = len(fields["starting_stacks"])
    seats = [int(seat) for seat in fields.get("seats", range(1, count + 1))]
    players = [str(name) for name in fields.get("players", (f"p{i + 1}" for i in range(count)))]
    by_name = {f"p{index + 1}": seat for index, seat in enumerate(seats)}
    day = datetime.date(
        int(fields.get("year", 1970)), int(fields.get("month", 1)), int(fields.get("day", 1))
    )
    ordered = sorted(range(count), key=seats.__getitem__)
    opened = HandOpened(
        hand_id=str(fields.get("hand", "phh")), table_id=str(fields.get("table", "phh")),
        gaming_day=day, ruleset_id=str(fields.get("_ruleset_id", "-")),
        seats=tuple(seats[i] for i in ordered), players=tuple(players[i] for i in ordered),
        stacks_cents=tuple(int(fields["starting_stacks"][i]) for i in ordered),
        button=seats[-1] if rules.variant.button else None,
        bad_beat_fund=fields.get("_bad_beat_fund"),
    )  # fmt: skip
    actions = [str(action).split("#")[0].split() for action in fields["actions"]]
    irregular = sorted((_irregularity(str(entry), by_name)
                        for entry in fields.get("_irregularities", ())),
                       key=lambda pair: pair[0])  # fmt: skip
    shown = {card for words in actions for card in _dealt_cards(words)}
    shown |= {card for _, found in irregular for card in found.cards}
    known = "_burnt_cards" in fields
    burns = iter(
        parse_cards(" ".join(fields["_burnt_cards"]))
        if known
        else [card for card in STANDARD_DECK if card not in shown]
    )
    hand = _Reader(opened, rules, burns, irregular)
    for words in actions:
        hand.read(words, by_name)
    for entry in fields.get("_dealer", ()):
        hand.unapplied()
        hand.events.append(_money(str(entry).split(), by_name))
    hand.unapplied()
    if hand.irregular:
        index, found = hand.irregular[0]
        raise RuleViolation("553.16", f"irregularity {found.kind.value} at event {index}, "
                            f"past the hand's {len(hand.events)} events", "_irregularities")
    return PhhHand(events=tuple(hand.events), burns_known=known)


def _dealt_cards(words: list[str]) -> list[Card]:
    if words[:2] == ["d", "db"] or words[:2] == ["d", "dh"]:
        return list(parse_cards(_spaced(words[-1])))
    return []


def _spaced(cards: str) -> str:
    """``"AhKd"`` as ``"Ah Kd"`` (PHH writes cards run together)."""
    return " ".join(cards[index : index + 2] for index in range(0, len(cards), 2))


class _Reader:
    """Applies a history's steps, recording the forced wagers and burns the plan puts between."""

    def __init__(
        self, opened: HandOpened, rules: PokerRuleSet, burns: Iterator[Card],
        irregular: list[tuple[int, IrregularityFound]],
    ) -> None:  # fmt: skip
        self.events: list[Event] = [opened]
        self.state = open_from(opened, rules)
        self.burns = burns
        self.irregular = irregular
        """The irregularities still to record, by their place among the events."""
        self.planned()

    def _record(self, event: Event) -> None:
        self.state = apply(self.state, event)
        self.events.append(event)

    def _due(self) -> IrregularityFound | None:
        if self.irregular and self.irregular[0][0] == len(self.events):
            return self.irregular.pop(0)[1]
        return None

    def unapplied(self) -> None:
        """The irregularities due among the dealer's money, kept as they came: the reader
        does not apply the money, so neither what follows it."""
        while (found := self._due()) is not None:
            self.events.append(found)

    def planned(self) -> None:
        """Record the irregularities due here and what the plan prescribes next."""
        while True:
            if (found := self._due()) is not None:
                self._record(found)
                continue
            state = self.state
            if state.phase is Phase.POSTING and state.posts[0].kind is not PostKind.FORCED_BET:
                owed = state.posts[0]
                self._record(Posted(seat=owed.seat, kind=owed.kind, amount_cents=owed.amount_cents))
            elif state.phase is Phase.DEALING and state.deals[0].burn:
                self._record(CardBurnt(card=next(c for c in self.burns if c not in state.seen)))
            else:
                return

    def read(self, words: list[str], by_name: dict[str, int]) -> None:
        self.planned()  # the irregularities found before this step
        match words:
            case ["d", "db", cards]:
                for card in parse_cards(_spaced(cards)):
                    self._record(CardDealt(card=card, seat=None, face_up=True))
                    self.planned()
            case ["d", "dh", name, cards]:
                for card in parse_cards(_spaced(cards)):
                    face_up = self.state.deals[0].face_up if self.state.deals else False
                    self._record(CardDealt(card=card, seat=by_name[name], face_up=face_up))
                    self.planned()
            case [name, "pb"]:
                post = self.state.posts[0] if self.state.posts else None
                amount = post.amount_cents if post else self.state.rules.forced_bet_cents
                self._record(Posted(seat=by_name[name], kind=PostKind.FORCED_BET,
                                    amount_cents=amount))  # fmt: skip
            case [name, "sd", *cards]:
                self._record(Discarded(seat=by_name[name], cards=tuple(
                    parse_cards(_spaced(cards[0]))) if cards else ()))  # fmt: skip
            case [name, "f"]:
                self._record(Acted(seat=by_name[name], action=Action.FOLD))
            case [name, "cc"]:
                seat = by_name[name]
                to_call = self.state.current_bet - self.state.bets.get(seat, 0)
                self._record(Acted(seat=seat, action=Action.CALL if to_call else Action.CHECK))
            case [name, "cbr", amount]:
                action = Action.RAISE if self.state.current_bet else Action.BET
                self._record(Acted(seat=by_name[name], action=action, to_cents=int(amount)))
            case [name, "sm", *shown]:
                seat = by_name[name]
                self._record(Shown(seat=seat) if shown else Mucked(seat=seat))
            case _:
                raise RuleViolation("553.7(a)", f"not a PHH action: {' '.join(words)!r}", "actions")
        self.planned()


def _money(words: list[str], by_name: dict[str, int]) -> Event:
    match words:
        case ["rake", pot, amount]:
            return RakeTaken(pot=int(pot), amount_cents=int(amount))
        case ["bad_beat", pot, amount]:
            return BadBeatContributed(pot=int(pot), amount_cents=int(amount))
        case ["push", pot, name, amount]:
            return PotPushed(pot=int(pot), seat=by_name[name], amount_cents=int(amount))
        case ["return", name, amount]:
            return BetReturned(seat=by_name[name], amount_cents=int(amount))
        case ["closed"]:
            return HandClosed()
    raise RuleViolation("553.7(a)", f"not a dealer's entry: {' '.join(words)!r}", "_dealer")
