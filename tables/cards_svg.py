"""Cards drawn as small SVGs, suits in colour: people would rather look than read."""

from __future__ import annotations

from django.utils.html import format_html

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
