"""Builders of explicit round streams for the Criss-Cross family tests.

Cards are written as text; community cards for Criss-Cross are given in the
order TOP, ROW_1, CENTER, ROW_3, BOTTOM (so the Across Hand is the player's
two cards with the 2nd-4th cards and the Down Hand with the 1st, 3rd, 5th).
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence

from tables.rules.cards import parse_cards
from tables.rules.events import (
    Alignment,
    CardDealt,
    CardExposed,
    DealingMethod,
    Event,
    NoMoreBets,
    PlayDeclared,
    PlayerFolded,
    Position,
    Recipient,
    RoundOpened,
    ThreeCardElection,
    Wager,
    WagerPlaced,
)

CC_POSITIONS = (Position.TOP, Position.ROW_1, Position.CENTER, Position.ROW_3, Position.BOTTOM)
DC_DEAL_ORDER = (Position.ROW_1, Position.CENTER, Position.ROW_3, Position.TOP, Position.BOTTOM)
DAY_674A = datetime.date(2021, 3, 1)
DAY_592 = datetime.date(2015, 3, 1)


def opened(
    *,
    game: str = "criss_cross_poker",
    ruleset_id: str = "PA-674a-2019",
    day: datetime.date = DAY_674A,
    seats: Sequence[int] = (1,),
    players: Sequence[str] | None = None,
    **options: object,
) -> RoundOpened:
    """A ``round.opened`` event with sensible defaults."""
    return RoundOpened.build(
        round_id="R-1",
        game=game,
        ruleset_id=ruleset_id,
        table_id="T-1",
        gaming_day=day,
        seats=tuple(seats),
        players=tuple(players or [f"P{seat}" for seat in seats]),
        dealing_method=options.pop("dealing_method", DealingMethod.MANUAL_SHOE),  # type: ignore[arg-type]
        **options,
    )


def cc_deal(community: str, holes: Mapping[int, str]) -> list[Event]:
    """Deal the cross (TOP, ROW_1, CENTER, ROW_3, BOTTOM) then one card at a time."""
    events: list[Event] = [
        CardDealt(card=card, recipient=Recipient.COMMUNITY, spot=position)
        for position, card in zip(CC_POSITIONS, parse_cards(community), strict=True)
    ]
    parsed = {seat: parse_cards(text) for seat, text in holes.items()}
    for hole in (1, 2):
        for seat in sorted(parsed):
            events.append(
                CardDealt(
                    card=parsed[seat][hole - 1],
                    recipient=Recipient.PLAYER,
                    seat=seat,
                    spot=str(hole),
                )
            )
    return events


def reveal(*positions: Position) -> list[Event]:
    """Turn community cards face up."""
    return [CardExposed(recipient=Recipient.COMMUNITY, spot=position) for position in positions]


def cc_round(
    *,
    community: str,
    holes: Mapping[int, str],
    ante: int | Mapping[int, int] = 1000,
    bets: Mapping[int, Sequence[int | None]] | None = None,
    bonus: Mapping[int, int] | None = None,
    ruleset_id: str = "PA-674a-2019",
    day: datetime.date | None = None,
    expose_players: bool = True,
    **options: object,
) -> list[Event]:
    """A whole Criss-Cross round up to settlement (no dealer actions, not closed).

    ``bets[seat]`` lists the Across, Down and Middle Bet amounts; ``None``
    folds at that decision. Missing seats bet 1x the ante each time.
    """
    seats = sorted(holes)
    antes = ante if isinstance(ante, Mapping) else {seat: ante for seat in seats}
    bonus = bonus or {}
    if day is None:
        day = DAY_592 if ruleset_id.startswith("PA-592") else DAY_674A
    if bonus:
        options.setdefault("five_card_bonus_offered", True)
    events: list[Event] = [opened(ruleset_id=ruleset_id, day=day, seats=seats, **options)]
    for seat in seats:
        events.append(WagerPlaced(seat=seat, wager=Wager.ANTE_ACROSS, amount_cents=antes[seat]))
        events.append(WagerPlaced(seat=seat, wager=Wager.ANTE_DOWN, amount_cents=antes[seat]))
        if seat in bonus:
            events.append(
                WagerPlaced(seat=seat, wager=Wager.FIVE_CARD_BONUS, amount_cents=bonus[seat])
            )
    events.append(NoMoreBets())
    events.extend(cc_deal(community, holes))
    plan = {seat: list((bets or {}).get(seat, [antes[seat]] * 3)) for seat in seats}
    active = list(seats)
    steps = (
        (Wager.ACROSS_BET, (Position.ROW_1, Position.ROW_3)),
        (Wager.DOWN_BET, (Position.TOP, Position.BOTTOM)),
        (Wager.MIDDLE_BET, (Position.CENTER,)),
    )
    for step, (wager, positions) in enumerate(steps):
        for seat in list(active):
            amount = plan[seat][step]
            if amount is None:
                events.append(PlayerFolded(seat=seat))
                active.remove(seat)
            else:
                events.append(WagerPlaced(seat=seat, wager=wager, amount_cents=amount))
        events.extend(reveal(*positions))
    if expose_players:
        for seat in sorted(active, reverse=True):
            for hole in (1, 2):
                events.append(CardExposed(recipient=Recipient.PLAYER, seat=seat, spot=str(hole)))
    return events


def dc_round(
    *,
    community: str,
    dealer: str,
    holes: Mapping[int, str],
    ante: int = 1000,
    three_card: Mapping[int, int] | None = None,
    expose: Mapping[int, bool] | None = None,
    plays: Mapping[int, Alignment | None] | None = None,
    ruleset_id: str = "MA-DCP-UNDATED",
    **options: object,
) -> list[Event]:
    """A whole Double Cross round up to settlement.

    ``community`` is in deal order ROW_1, CENTER, ROW_3, TOP, BOTTOM;
    ``plays[seat]`` is the alignment played, or ``None`` to fold (default VERTICAL).
    """
    seats = sorted(holes)
    three_card = three_card or {}
    events: list[Event] = [
        opened(game="double_cross_poker", ruleset_id=ruleset_id, seats=seats, **options)
    ]
    for seat in seats:
        events.append(WagerPlaced(seat=seat, wager=Wager.ANTE, amount_cents=ante))
        if seat in three_card:
            events.append(
                WagerPlaced(seat=seat, wager=Wager.THREE_CARD, amount_cents=three_card[seat])
            )
    events.append(NoMoreBets())
    for seat in seats:
        for hole, card in enumerate(parse_cards(holes[seat]), start=1):
            events.append(
                CardDealt(card=card, recipient=Recipient.PLAYER, seat=seat, spot=str(hole))
            )
    for hole, card in enumerate(parse_cards(dealer), start=1):
        events.append(CardDealt(card=card, recipient=Recipient.DEALER, spot=str(hole)))
    for position, card in zip(DC_DEAL_ORDER, parse_cards(community), strict=True):
        events.append(CardDealt(card=card, recipient=Recipient.COMMUNITY, spot=position))
    events.extend(reveal(Position.TOP, Position.ROW_3))
    for seat in seats:
        if seat in three_card:
            events.append(ThreeCardElection(seat=seat, expose=(expose or {}).get(seat, True)))
    plays = plays or {}
    active = []
    for seat in seats:
        alignment = plays.get(seat, Alignment.VERTICAL)
        if alignment is None:
            events.append(PlayerFolded(seat=seat))
        else:
            events.append(
                PlayDeclared(seat=seat, alignment=alignment, raise_1_cents=ante, raise_2_cents=ante)
            )
            active.append(seat)
    events.extend(reveal(Position.ROW_1, Position.CENTER, Position.BOTTOM))
    for hole in (1, 2):
        events.append(CardExposed(recipient=Recipient.DEALER, spot=str(hole)))
    for seat in sorted(active, reverse=True):
        for hole in (1, 2):
            events.append(CardExposed(recipient=Recipient.PLAYER, seat=seat, spot=str(hole)))
    return events
