"""Cards drawn as small SVGs, suits in colour: people would rather look than read."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.html import format_html, format_html_join

_SUITS = {
    "c": ("♣", "#1b1b1b"),
    "d": ("♦", "#c62828"),
    "h": ("♥", "#c62828"),
    "s": ("♠", "#1b1b1b"),
}


def card_svg(card: str | None, *, width: int = 44) -> str:
    """One card (``"Ah"``, ``"10d"``); ``None`` draws a face-down card."""
    height = int(width * 1.4)
    if not card:
        return format_html(
            '<svg class="card" width="{}" height="{}" viewBox="0 0 44 62" role="img" '
            'aria-label="face-down card"><rect x="1" y="1" width="42" height="60" rx="5" '
            'fill="#2e5d8a" stroke="#1d3d5c"/><rect x="5" y="5" width="34" height="52" rx="3" '
            'fill="none" stroke="#9fc3e6" stroke-dasharray="3 2"/></svg>',
            width,
            height,
        )
    rank, suit = card[:-1], card[-1]
    rank = "10" if rank == "T" else rank
    symbol, colour = _SUITS[suit]
    return format_html(
        '<svg class="card" width="{}" height="{}" viewBox="0 0 44 62" role="img" '
        'aria-label="{}"><rect x="1" y="1" width="42" height="60" rx="5" fill="#fff" '
        'stroke="#888"/><text x="5" y="16" font-size="13" font-family="sans-serif" '
        'font-weight="bold" fill="{}">{}</text><text x="22" y="44" font-size="24" '
        'text-anchor="middle" fill="{}">{}</text></svg>',
        width,
        height,
        card,
        colour,
        rank,
        colour,
        symbol,
    )


#: The boxes of the cross (community spots named by ``Position``) on a 3×3 grid,
#: TOP furthest from the dealer, as the games of the cross lay them out.
_CROSS = ((None, "TOP", None), ("ROW_1", "CENTER", "ROW_3"), (None, "BOTTOM", None))


def _spots_of(game_id: str, events: Sequence[Any]) -> tuple[tuple[str, ...], ...]:
    """The (community, dealer, seat) spots the game declares; for a game the
    registry does not declare, the spots its events used, in order."""
    from tables.rules.events import CardDealt, Recipient
    from tables.rules.registry import declared, game_ids

    game = declared(game_id) if game_id in game_ids() else None
    if game is not None:
        layout = game.layout
        return layout.community_spots, layout.dealer_spots, layout.seat_spots
    used: dict[Recipient, dict[str, None]] = {recipient: {} for recipient in Recipient}
    for event in events:
        if isinstance(event, CardDealt):
            used[event.recipient][event.spot] = None
    return tuple(tuple(used[r]) for r in (Recipient.COMMUNITY, Recipient.DEALER, Recipient.PLAYER))


def _hand(css: str, label: str, spots: Sequence[str], cards: Mapping[str, str]) -> str:
    drawn = format_html_join("", "{}", ((card_svg(cards.get(spot)),) for spot in spots))
    return format_html(
        '<div class="{}" style="display:inline-block;margin:6px 12px 0 0;text-align:center">'
        "{}<br>{}</div>",
        css,
        drawn,
        label,
    )


def layout_html(game_id: str, events: Sequence[Any]) -> str:
    """A round's cards on the game's own layout: the community spots (the cross
    for the games of the cross, else a row), the dealer's, then each seat dealt
    in. A spot not dealt (yet) is drawn face down."""
    from tables.rules.events import CardDealt, Recipient

    dealt: dict[tuple[Recipient, int | None], dict[str, str]] = {}
    for event in events:
        if isinstance(event, CardDealt):
            dealt.setdefault((event.recipient, event.seat), {})[event.spot] = str(event.card)
    community_spots, dealer_spots, seat_spots = _spots_of(game_id, events)
    community = dealt.get((Recipient.COMMUNITY, None), {})
    parts = []
    if set(community_spots) == {spot for row in _CROSS for spot in row if spot}:
        cells = format_html_join(
            "",
            "<tr>{}</tr>",
            (
                (
                    format_html_join(
                        "",
                        '<td style="padding:2px">{}</td>',
                        ((card_svg(community.get(spot)) if spot else "",) for spot in row),
                    ),
                )
                for row in _CROSS
            ),
        )
        parts.append(format_html('<table class="cross" style="border:none">{}</table>', cells))
    elif community_spots:
        parts.append(_hand("layout-community", "community", community_spots, community))
    hands = []
    if dealer_spots:
        hands.append(_hand("layout-dealer", "dealer", dealer_spots,
                           dealt.get((Recipient.DEALER, None), {})))  # fmt: skip
    seats = sorted(seat for recipient, seat in dealt if recipient is Recipient.PLAYER and seat)
    for seat in seats:
        hands.append(_hand("layout-seat", f"seat {seat}", seat_spots,
                           dealt[(Recipient.PLAYER, seat)]))  # fmt: skip
    parts.append(format_html("<div>{}</div>", format_html_join("", "{}", ((h,) for h in hands))))
    return format_html_join("", "{}", ((part,) for part in parts))
