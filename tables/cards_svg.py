"""Cards and dice drawn as small SVGs, suits in colour: people would rather look than read."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe

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
    if card.upper() == "JK":  # the Pai Gow joker (§ 561.3(a)): a star, no suit
        rank, symbol, colour = "JK", "★", "#7a1fa2"
    else:
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


#: Where a die's pips sit on a 3×3 grid (0, 1, 2 across and down), by its face.
_PIPS = {
    1: ((1, 1),),
    2: ((0, 0), (2, 2)),
    3: ((0, 0), (1, 1), (2, 2)),
    4: ((0, 0), (2, 0), (0, 2), (2, 2)),
    5: ((0, 0), (2, 0), (1, 1), (0, 2), (2, 2)),
    6: ((0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)),
}


def die_svg(face: int | None, *, width: int = 30, void: bool = False) -> str:
    """One die showing ``face`` (1-6) as pips; ``None`` a die whose face was not read.

    ``void`` greys it and strikes it through: a throw that did not count.
    """
    fill, pip = ("#eee", "#999") if void else ("#fff", "#1b1b1b")
    pips = format_html_join(
        "",
        '<circle cx="{}" cy="{}" r="3.2" fill="{}"/>',
        ((9 + 11 * x, 9 + 11 * y, pip) for x, y in _PIPS.get(face or 0, ())),
    )
    label = f"die showing {face}" if face else "die not read"
    strike = mark_safe('<line x1="3" y1="37" x2="37" y2="3" stroke="#c62828" '
                       'stroke-width="2.5"/>') if void else ""  # fmt: skip
    return format_html(
        '<svg class="die" width="{}" height="{}" viewBox="0 0 40 40" role="img" '
        'aria-label="{}"><rect x="1" y="1" width="38" height="38" rx="7" fill="{}" '
        'stroke="#666"/>{}{}</svg>',
        width,
        width,
        label,
        fill,
        pips,
        strike,
    )


def dice_html(events: Sequence[Any], state: Any = None) -> str:
    """Every throw of the round in order, each die as it came to rest; a throw that
    did not count struck through and named; the dealer's call beside each; then, given
    the round's replayed ``state``, the areas of the layout the throws won
    (:func:`won_html`)."""
    from tables.rules.events import DiceThrown

    throws = [event for event in events if isinstance(event, DiceThrown)]
    rows = []
    for number, throw in enumerate(throws, start=1):
        void = throw.no_roll is not None
        faces: Sequence[int | None] = throw.faces or ((None,) if void else ())
        drawn = format_html_join("", "{}", ((die_svg(face, void=void),) for face in faces))
        what = f"throw {number}" + (f": no roll ({throw.no_roll})" if void else "")
        if throw.called:
            what += f", called {throw.called}"
        rows.append(format_html(
            '<div class="{}" style="margin:4px 0">{} <span>{}</span></div>',
            "dice-throw no-roll" if void else "dice-throw", drawn, what,
        ))  # fmt: skip
    if throws and state is not None:
        rows.append(won_html(state))
    return format_html_join("", "{}", ((row,) for row in rows))


def won_html(state: Any) -> str:
    """The areas of a dice layout the throws so far won (High Roll Dice's Pip Street face,
    its Like Kind Boulevard and Millionaire Row circles, a Props & Hops wager): what the
    game's own settlement pays a seat holding every wager, each marked with its label
    and, on hover, its section. Nothing for a void round or before a throw counts."""
    from tables.rules.engine import Outcome
    from tables.rules.machine import Seat

    game = getattr(state, "game", None)
    settle = getattr(game, "settle", None)
    if settle is None or not game.layout.dice or not state.rolls or state.void_section:
        return ""
    everything = Seat(seat=0, player="", wagers={spec.name: 100 for spec in game.wagers})
    won = [(game.wager(line.wager).label, line.section)
           for line in settle(state, everything) if line.outcome is Outcome.WIN]  # fmt: skip
    if not won:
        return ""
    marks = format_html_join(
        "",
        '<span class="won-area" title="{}" style="display:inline-block;margin:0 4px 2px 0;'
        'padding:1px 8px;border:2px solid #2e7d32;border-radius:12px;color:#1b5e20">'
        "&#10003; {}</span>",
        ((section, label) for label, section in won),
    )
    return format_html('<div class="dice-won" style="margin:4px 0">won: {}</div>', marks)


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
    # A card drawn after the deal (a bought or exchanged card) follows the dealt spots.
    spots = (*spots, *(spot for spot in cards if spot not in spots))
    drawn = format_html_join("", "{}", ((card_svg(cards.get(spot)),) for spot in spots))
    return format_html(
        '<div class="{}" style="display:inline-block;margin:6px 12px 0 0;text-align:center">'
        "{}<br>{}</div>",
        css,
        drawn,
        label,
    )


def layout_html(game_id: str, events: Sequence[Any], state: Any = None) -> str:
    """A round's cards on the game's own layout: the community spots (the cross
    for the games of the cross, else a row), the dealer's, then each seat dealt
    in. A spot not dealt (yet) is drawn face down. Then the dice, each throw as
    thrown, and what they won given the replayed ``state`` (:func:`dice_html`)."""
    from tables.rules.events import CardDealt, Recipient
    from tables.rules.registry import blackjack, game_ids

    if game_id in game_ids() and blackjack(game_id) is not None:
        return blackjack_html(events, state)
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
    parts.append(dice_html(events, state))
    return format_html_join("", "{}", ((part,) for part in parts))


def _sideways(card: str, why: str) -> str:
    """A card the dealer places sideways: a double-down card (§ 581.10(c), § 590.10(c),
    § 591.10(b)) or a Second Chance card (§ 591.7(l)(1))."""
    return format_html(
        '<span class="card-sideways" title="{}: dealt sideways" style="display:inline-block;'
        'transform:rotate(90deg);margin:0 10px">{}</span>', why, card_svg(card))  # fmt: skip


def blackjack_html(events: Sequence[Any], state: Any = None) -> str:
    """A blackjack round as the table shows it: the dealer's hand (the hole card face down
    until turned), each seat's hands side by side once split, a doubled hand's last card
    sideways, and the money and Free Bet lammers (markers, § 590.7(n)) on each hand."""
    from tables.rules.blackjack_state import BlackjackState
    from tables.rules.replay import replay

    if not isinstance(state, BlackjackState):
        state = replay(list(events)).final_state
    dealer = [card_svg(str(card)) for card in state.dealer]
    if len(dealer) > 1 and not state.hole_exposed:
        dealer[1] = card_svg(None)
    parts = [format_html(
        '<div class="layout-dealer" style="margin:6px 0">{}<br>dealer</div>',
        format_html_join("", "{}", ((card,) for card in dealer or [card_svg(None)])),
    ), _dealer_actions(state, events)]  # fmt: skip
    for number, seat in sorted(state.seats.items()):
        hands = seat.hands.hands if seat.hands is not None else ()
        drawn = [_blackjack_hand(f"seat {number}", seat.cards, (), False, None)] if not hands \
            else [_blackjack_hand(f"seat {number}" + (f" hand {index}" if len(hands) > 1 else ""),
                                  hand.cards, hand.stakes, hand.doubled, hand.second_chance_card)
                  for index, hand in enumerate(hands, start=1)]  # fmt: skip
        css = "layout-seat split" if len(hands) > 1 else "layout-seat"
        parts.append(format_html(
            '<div class="{}" style="display:inline-block;margin:6px 16px 0 0;vertical-align:top">'
            "{}</div>", css, format_html_join("", "{}", ((hand,) for hand in drawn))))  # fmt: skip
    return format_html_join("", "{}", ((part,) for part in parts))


def _dealer_actions(state: Any, events: Sequence[Any]) -> str:
    """The dealer's required action on each total beside what he did (§ 581.7(n),
    § 590.7(l), § 591.7(o): draw below 17, stand on all 17s); where § 590.7(m) or
    § 591.7(p) lets him stop with no wager open, a stop below 17 says so. A card he
    drew on a total that stands went to the discard rack (§ 5xx.13(d)): shown as drawn."""
    from tables.rules.blackjack import dealer_must_draw, hand_value
    from tables.rules.events import CardDealt, Recipient

    cards, rules = state.dealer, state.rules
    if not state.hole_exposed or len(cards) < 2:
        return ""
    finished = state.phase in ("settlement", "closed")
    racked = [event.card for event in events if isinstance(event, CardDealt)
              and event.recipient is Recipient.DEALER
              and event.card in state.discarded]  # fmt: skip
    steps = []
    for count in range(2, len(cards) + 1):
        required = "draw" if dealer_must_draw(rules, cards[:count]) else "stand"
        if count < len(cards) or racked:
            did = "draw"
        elif finished:
            did = "stand"
        else:
            continue
        allowed = did == required or (did == "stand" and rules.dealer_may_stop)
        note = " (may stop: no wager open)" if did != required and allowed else ""
        if count == len(cards) and racked:
            note = f" ({', '.join(map(str, racked))} to the discard rack, § {rules.chapter}.13(d))"
        steps.append((hand_value(cards[:count]).total, required, did, note,
                      "dealer-ok" if allowed else "dealer-error"))  # fmt: skip
    rows = format_html_join(
        "", '<li class="{}">{}: must {}, did {}{}</li>',
        ((css, total, required, did, note) for total, required, did, note, css in steps),
    )  # fmt: skip
    return format_html('<ul class="dealer-actions" title="§ {}">{}</ul>',
                       rules.section("dealer_draw"), rows)  # fmt: skip


def _blackjack_hand(label: str, cards: Sequence[Any], stakes: Sequence[tuple[str, int]],
                    doubled: bool, second_chance: Any) -> str:  # fmt: skip
    from tables.rules.blackjack import MARKERS as markers

    drawn = [card_svg(str(card)) for card in cards]
    if doubled and drawn:
        drawn[-1] = _sideways(str(cards[-1]), "doubled")
    if second_chance is not None:
        drawn.append(_sideways(str(second_chance), "Second Chance card, subtracted"))
    money = [f"{name} ${amount / 100:,.2f}" for name, amount in stakes if name not in markers]
    lammers = format_html_join(
        "", '<span class="lammer" title="a Free Bet lammer: a marker, not money '
        '(§ 590.10(a)(1), § 590.11(b)(2))" style="display:inline-block;margin:0 2px;'
        'padding:0 6px;border:2px dashed #8a6d00;border-radius:50%;'
        'color:#8a6d00">lammer ${}</span>',
        ((f"{amount / 100:,.2f}",) for name, amount in stakes if name in markers),
    )  # fmt: skip
    return format_html(
        '<div class="blackjack-hand" style="display:inline-block;margin:0 8px 0 0;'
        'text-align:center">{}<br>{}<br><small>{}</small> {}</div>',
        format_html_join("", "{}", ((card,) for card in drawn)), label, ", ".join(money), lammers,
    )  # fmt: skip
