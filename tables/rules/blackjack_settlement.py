"""Settlement of the blackjack family: each hand's wagers and the side wagers, in integer cents.

Every result names its section, its exact odds (:class:`Odds`) and the
readings of :class:`BlackjackRules` it depended on. Winnings are computed by
:func:`tables.rules.money.winnings` with the rounding policy the caller
passes; half a wager given up (a surrender) is halved with the same policy,
the player's half rounded, the house collecting the rest.

A Free Bet lammer (:data:`MARKERS`) is a marker, not money: a winning lammer
is paid 1 to 1 "an equivalent amount" (§ 590.7(o), § 590.12(a)); a losing,
tied or dealer-22 lammer is collected and no money moves (§ 590.7(n)(1),
(p), (q)). Its result says so with ``marker`` and ``collected_cents == 0``.

>>> from tables.rules.blackjack import FREE_BET_590
>>> from tables.rules.blackjack_hands import SeatHands
>>> from tables.rules.cards import Card, parse_cards
>>> from tables.rules.money import ROUND_DOWN_TO_CENT
>>> seat = SeatHands.dealt(FREE_BET_590, Card.parse("6h"), parse_cards("Ah Kd"), 1_000)
>>> [(r.wager, r.outcome.value, r.paid_cents) for r in settle_seat(
...     seat, parse_cards("6h Tc 9d"), ROUND_DOWN_TO_CENT)]
[('BLACKJACK', 'win', 1500)]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import NamedTuple

from tables.rules.blackjack import (
    BET,
    DOUBLE_ATTACK,
    MARKERS,
    SECOND_CHANCE,
    BlackjackRules,
    BustAgainstBust,
    SurrenderAddedMoney,
    card_value,
    hand_value,
    is_blackjack_pair,
)
from tables.rules.blackjack_hands import Hand, SeatHands
from tables.rules.cards import Card, Rank, Suit
from tables.rules.engine import Outcome
from tables.rules.money import Odds, RoundingPolicy, winnings

__all__ = [
    "WagerResult",
    "BUST_IT_TABLE",
    "PUSH_22_TABLES",
    "settle_hand",
    "settle_seat",
    "settle_insurance",
    "settle_bust_it",
    "settle_push_22",
]

# § 581.12(c), in the regulation's order: (label, odds, third card ranks); the two
# three-8s lines come first and take precedence (§ 581.7(m)(2)(i)).
BUST_IT_TABLE: tuple[tuple[str, Odds, frozenset[Rank]], ...] = (
    ("8, 8, 8 of the same suit", Odds(200), frozenset()),
    ("8, 8, 8 of the same color", Odds(50), frozenset()),
    ("Third card drawn is a 6", Odds(15), frozenset({Rank.SIX})),
    ("Third card drawn is a 7", Odds(10), frozenset({Rank.SEVEN})),
    ("Third card drawn is a 8", Odds(8), frozenset({Rank.EIGHT})),
    ("Third card drawn is a 9", Odds(6), frozenset({Rank.NINE})),
    ("Third card drawn is a King, queen or jack", Odds(3),
     frozenset({Rank.KING, Rank.QUEEN, Rank.JACK})),
)  # fmt: skip

# § 590.12(c): paytables A and B ("Same suite 22" as printed means one suit).
PUSH_22_TABLES: dict[str, tuple[tuple[str, Odds], ...]] = {
    "A": (("Same suit 22", Odds(50)), ("Same color 22", Odds(20)), ("Other 22", Odds(8))),
    "B": (("Same suit 22", Odds(50)), ("Same color 22", Odds(20)), ("Other 22", Odds(7))),
}

_RED = frozenset({Suit.HEARTS, Suit.DIAMONDS})
_EVEN = Odds(1)


class WagerResult(NamedTuple):
    """How one wager (or marker) of a seat ends.

    ``hand`` numbers the seat's hands from 1 (0: a wager of the seat, not of a
    hand: Insurance, Bust It, Push 22). ``paid_cents`` is winnings the house
    pays; ``collected_cents`` money it takes; the rest of a money stake stays
    with the player. A named tuple, not a frozen dataclass, because replay makes
    one for every wager of every round and the dataclass's ``__init__`` cost more
    than the settling.
    """

    hand: int
    wager: str
    stake_cents: int
    outcome: Outcome
    section: str
    paid_cents: int = 0
    collected_cents: int = 0
    odds: Odds | None = None
    pay_line: str | None = None
    marker: bool = False
    readings: tuple[tuple[str, str], ...] = ()


def _results(
    hand: Hand,
    number: int,
    outcome: Outcome,
    section: str,
    rounding: RoundingPolicy,
    odds: Odds = _EVEN,
    readings: tuple[tuple[str, str], ...] = (),
    wagers: Iterable[str] | None = None,
) -> tuple[WagerResult, ...]:
    """Every wager of ``hand`` (or only ``wagers``) ending in ``outcome``."""
    chosen = None if wagers is None else frozenset(wagers)
    results = []
    for wager, stake in hand.stakes:
        if chosen is not None and wager not in chosen:
            continue
        marker = wager in MARKERS
        win = outcome is Outcome.WIN
        lost = outcome in (Outcome.LOSE, Outcome.FORFEITED)
        results.append(
            WagerResult(
                hand=number, wager=wager, stake_cents=stake, outcome=outcome, section=section,
                paid_cents=winnings(stake, odds, rounding) if win else 0,
                collected_cents=stake if lost and not marker else 0,
                odds=odds if win else None, marker=marker, readings=readings,
            )  # fmt: skip
        )
    return tuple(results)


def _markers_collected(
    hand: Hand, number: int, section: str, rounding: RoundingPolicy
) -> tuple[WagerResult, ...]:
    return _results(hand, number, Outcome.LOSE, section, rounding, wagers=MARKERS)


def _money(hand: Hand) -> tuple[str, ...]:
    return tuple(wager for wager, _ in hand.stakes if wager not in MARKERS)


def _push_money_collect_markers(
    hand: Hand, number: int, section: str, rounding: RoundingPolicy,
    readings: tuple[tuple[str, str], ...] = (),
) -> tuple[WagerResult, ...]:  # fmt: skip
    pushed = _results(hand, number, Outcome.PUSH, section, rounding, readings=readings,
                      wagers=_money(hand))  # fmt: skip
    return pushed + _markers_collected(hand, number, section, rounding)


def _surrendered(
    seat: SeatHands, hand: Hand, number: int, dealer_blackjack: bool, rounding: RoundingPolicy
) -> tuple[WagerResult, ...]:
    rules = seat.rules
    if dealer_blackjack:
        section = rules.section("surrender_dealer_blackjack")
        if rules.chapter != "581":
            return _results(hand, number, Outcome.LOSE, section, rounding)
        # § 581.9(b)(2)(i): the entire Bet is collected and the Double Attack Wager
        # returned; added money as on any dealer Blackjack (§ 581.10(b), § 581.11(d)).
        lost = _results(hand, number, Outcome.LOSE, section, rounding, wagers=(BET,))
        others = tuple(wager for wager, _ in hand.stakes if wager != BET)
        return lost + _results(hand, number, Outcome.RETURNED, section, rounding, wagers=others)
    section = rules.section("surrender_half")
    results = []
    for wager, stake in hand.stakes:
        readings: tuple[tuple[str, str], ...] = ()
        added = wager not in (BET, DOUBLE_ATTACK, rules.main_wager)
        if added:
            option = rules.surrender_added_money
            readings = (("surrender_added_money", option.value),)
            if option is SurrenderAddedMoney.RETURNED:
                results.append(WagerResult(hand=number, wager=wager, stake_cents=stake,
                                           outcome=Outcome.RETURNED, section=section,
                                           readings=readings))  # fmt: skip
                continue
            if option is SurrenderAddedMoney.FORFEITED:
                results.append(WagerResult(hand=number, wager=wager, stake_cents=stake,
                                           outcome=Outcome.FORFEITED, section=section,
                                           collected_cents=stake, readings=readings))  # fmt: skip
                continue
        kept = rounding(Fraction(stake, 2))
        results.append(
            WagerResult(hand=number, wager=wager, stake_cents=stake, outcome=Outcome.FORFEITED,
                        section=section, collected_cents=stake - kept, readings=readings)
        )  # fmt: skip
    return tuple(results)


def _busted(
    seat: SeatHands, hand: Hand, number: int, dealer_total: int, rounding: RoundingPolicy
) -> tuple[WagerResult, ...]:
    rules = seat.rules
    if dealer_total <= 21:
        return _results(hand, number, Outcome.LOSE, rules.section("bust"), rounding)
    option = rules.bust_against_bust
    readings = (("bust_against_bust", option.value),)
    if option is BustAgainstBust.PLAYER_LOSES:
        return _results(hand, number, Outcome.LOSE, rules.section("bust"), rounding,
                        readings=readings)  # fmt: skip
    section = rules.section("dealer_22" if dealer_total == 22 and rules.dealer_22_pushes else "tie")
    return _push_money_collect_markers(hand, number, section, rounding, readings)


def _split_readings(seat: SeatHands, hand: Hand) -> tuple[tuple[str, str], ...]:
    if hand.split and is_blackjack_pair(hand.cards):
        return (("split_twenty_one", seat.rules.split_twenty_one.value),)
    return ()


def _second_chance(
    seat: SeatHands, hand: Hand, number: int, dealer_total: int, rounding: RoundingPolicy
) -> tuple[WagerResult, ...]:
    """§ 591.7(l): the card's value (an ace as one) comes off the busted total."""
    assert hand.second_chance_card is not None
    rules = seat.rules
    total = hand.value.total - card_value(hand.second_chance_card)
    others = tuple(wager for wager, _ in hand.stakes if wager != SECOND_CHANCE)

    def paid(section: str) -> tuple[WagerResult, ...]:
        returned = _results(hand, number, Outcome.PUSH, section, rounding, wagers=others)
        return returned + _results(hand, number, Outcome.WIN, section, rounding,
                                   wagers=(SECOND_CHANCE,))  # fmt: skip

    if total > 21:
        return _results(hand, number, Outcome.LOSE, f"{rules.chapter}.7(l)(1)", rounding)
    if total == 21:
        return paid(f"{rules.chapter}.7(l)(2)")
    if dealer_total == 22:
        return _results(hand, number, Outcome.PUSH, rules.section("dealer_22"), rounding)
    if dealer_total > 21 or total > dealer_total:
        return paid(rules.section("second_chance_win"))
    if total == dealer_total:
        return _results(hand, number, Outcome.PUSH, rules.section("tie"), rounding)
    return _results(hand, number, Outcome.LOSE, rules.section("lose"), rounding)


def settle_hand(
    seat: SeatHands, index: int, dealer: Sequence[Card], rounding: RoundingPolicy
) -> tuple[WagerResult, ...]:
    """Every wager and marker on ``seat.hands[index]`` against the dealer's ``dealer`` cards.

    ``dealer`` is the up card, the hole card and the cards drawn: its first
    two decide a dealer Blackjack, all of them the dealer's total (a dealer
    Blackjack's two cards are all there is).

    :raises ValueError: if the hand still awaits a decision or a card.
    """
    hand = seat.hands[index]
    if not seat.is_done(hand):
        raise ValueError(f"hand {index + 1} still awaits a decision or a card")
    rules, number = seat.rules, index + 1
    dealer_blackjack = is_blackjack_pair(dealer[:2])
    dealer_total = hand_value(dealer).total
    player_blackjack = seat.is_blackjack(hand)
    split_readings = _split_readings(seat, hand)
    if player_blackjack and rules.blackjack_before_peek:  # § 591.7(f)
        return _results(hand, number, Outcome.WIN, rules.section("player_blackjack"), rounding,
                        rules.blackjack_odds, split_readings)  # fmt: skip
    if hand.surrendered:
        return _surrendered(seat, hand, number, dealer_blackjack, rounding)
    if dealer_blackjack:
        if player_blackjack:
            key = "tie" if rules.chapter == "581" else "both_blackjack"
            return _results(hand, number, Outcome.PUSH, rules.section(key), rounding)
        if rules.chapter == "581":
            return _after_dealer_blackjack_581(seat, hand, number, rounding)
        return _results(hand, number, Outcome.LOSE, rules.section("dealer_blackjack"), rounding)
    if player_blackjack:
        return _results(hand, number, Outcome.WIN, rules.section("player_blackjack"), rounding,
                        rules.blackjack_odds, split_readings)  # fmt: skip
    if hand.second_chance_card is not None:
        return _second_chance(seat, hand, number, dealer_total, rounding)
    total = hand.value.total
    if total == 21 and rules.twenty_one_at_once:  # § 591.7(m), before the dealer plays
        section = rules.section("split_twenty_one" if split_readings else "twenty_one")
        return _results(hand, number, Outcome.WIN, section, rounding, rules.win_odds,
                        split_readings)  # fmt: skip
    if total > 21:
        return _busted(seat, hand, number, dealer_total, rounding)
    if dealer_total == 22 and rules.dealer_22_pushes:
        return _push_money_collect_markers(
            hand, number, rules.section("dealer_22"), rounding, split_readings
        )
    if dealer_total > 21 or total > dealer_total:
        return _results(hand, number, Outcome.WIN, rules.section("win"), rounding,
                        rules.win_odds, split_readings)  # fmt: skip
    if total == dealer_total:
        if rules.free_bet:
            return _push_money_collect_markers(hand, number, rules.section("tie"), rounding,
                                               split_readings)  # fmt: skip
        return _results(hand, number, Outcome.PUSH, rules.section("tie"), rounding,
                        readings=split_readings)  # fmt: skip
    return _results(hand, number, Outcome.LOSE, rules.section("lose"), rounding,
                    readings=split_readings)  # fmt: skip


def _after_dealer_blackjack_581(
    seat: SeatHands, hand: Hand, number: int, rounding: RoundingPolicy
) -> tuple[WagerResult, ...]:
    """§ 581.7(o): only the original Bet is lost; § 581.7(o)(2), 10(b), 11(d) return the rest."""
    rules = seat.rules
    lost = _results(hand, number, Outcome.LOSE, rules.section("dealer_blackjack"), rounding,
                    wagers=(BET,))  # fmt: skip
    returned: list[WagerResult] = []
    for wager, _ in hand.stakes:
        if wager == BET:
            continue
        key = {DOUBLE_ATTACK: "double_attack_returned"}.get(
            wager, "split_then_dealer_blackjack" if hand.split else "double_then_dealer_blackjack"
        )
        returned += _results(hand, number, Outcome.RETURNED, rules.section(key), rounding,
                             wagers=(wager,))  # fmt: skip
    return lost + tuple(returned)


def settle_seat(
    seat: SeatHands, dealer: Sequence[Card], rounding: RoundingPolicy
) -> tuple[WagerResult, ...]:
    """Every hand of ``seat``, in hand order (the side wagers are settled on their own)."""
    return tuple(
        result
        for index in range(len(seat.hands))
        for result in settle_hand(seat, index, dealer, rounding)
    )


def settle_insurance(
    rules: BlackjackRules, stake_cents: int, hole_card: Card, rounding: RoundingPolicy
) -> WagerResult:
    """The Insurance Wager: won on a hole card the chapter names (§ 5xx.8(a)), else collected.

    Paid at 5 to 2 in § 581.12(b), where only kings, queens and jacks count,
    and 2 to 1 in § 590.12(b) and § 591.12(c).
    """
    if hole_card.rank in rules.insurance_ranks:
        return WagerResult(
            hand=0, wager="INSURANCE", stake_cents=stake_cents, outcome=Outcome.WIN,
            section=rules.section("insurance_pays"), odds=rules.insurance_odds,
            paid_cents=winnings(stake_cents, rules.insurance_odds, rounding),
        )  # fmt: skip
    return WagerResult(
        hand=0, wager="INSURANCE", stake_cents=stake_cents, outcome=Outcome.LOSE,
        section=rules.section("insurance_lost"), collected_cents=stake_cents,
    )  # fmt: skip


def settle_bust_it(
    rules: BlackjackRules, stake_cents: int, dealer: Sequence[Card], rounding: RoundingPolicy
) -> WagerResult:
    """The Bust It Wager (§ 581.7(m), § 581.12(c)): decided by the dealer's third card alone.

    :raises ValueError: if the dealer's first two cards are under 17 and no third is given.
    """
    lost = WagerResult(
        hand=0, wager="BUST_IT", stake_cents=stake_cents, outcome=Outcome.LOSE,
        section=f"{rules.chapter}.7(m)(1)", collected_cents=stake_cents,
    )  # fmt: skip
    if hand_value(dealer[:2]).total >= 17:
        return lost
    if len(dealer) < 3:
        raise ValueError("the dealer's third card decides the Bust It Wager (§ 581.7(m)(2))")
    three = dealer[:3]
    if hand_value(three).total <= 21:
        return WagerResult(
            hand=0, wager="BUST_IT", stake_cents=stake_cents, outcome=Outcome.LOSE,
            section=f"{rules.chapter}.7(m)(2)(ii)", collected_cents=stake_cents,
        )  # fmt: skip
    eights = all(card.rank is Rank.EIGHT for card in three)
    suits = {card.suit for card in three}
    for label, odds, ranks in BUST_IT_TABLE:
        if ranks:
            hit = three[2].rank in ranks
        elif "suit" in label:
            hit = eights and len(suits) == 1
        else:
            hit = eights and (suits <= _RED or not suits & _RED)
        if hit:
            return WagerResult(
                hand=0, wager="BUST_IT", stake_cents=stake_cents, outcome=Outcome.WIN,
                section=rules.section("bust_it"), odds=odds, pay_line=label,
                paid_cents=winnings(stake_cents, odds, rounding),
            )  # fmt: skip
    raise ValueError(f"no § 581.12(c) line for a bust on {three[2]}")


def settle_push_22(
    rules: BlackjackRules, stake_cents: int, dealer: Sequence[Card], rounding: RoundingPolicy
) -> WagerResult:
    """The Push 22 Wager (§ 590.6(e), § 590.12(c)): won when the dealer's hand totals 22.

    The best line only: all the dealer's cards of one suit, else of one colour,
    else any 22. A dealer Blackjack collects it (§ 590.7(g)), any other total
    too (§ 590.7(n)(2)).
    """
    if is_blackjack_pair(dealer[:2]) or hand_value(dealer).total != 22:
        key = "push_22_dealer_blackjack" if is_blackjack_pair(dealer[:2]) else "push_22_lost"
        return WagerResult(
            hand=0, wager="PUSH_22", stake_cents=stake_cents, outcome=Outcome.LOSE,
            section=rules.section(key), collected_cents=stake_cents,
        )  # fmt: skip
    suits = {card.suit for card in dealer}
    table = PUSH_22_TABLES[rules.push_22_table]
    line = table[0] if len(suits) == 1 else table[1] if suits <= _RED or not suits & _RED else (
        table[2])  # fmt: skip
    label, odds = line
    return WagerResult(
        hand=0, wager="PUSH_22", stake_cents=stake_cents, outcome=Outcome.WIN,
        section=rules.section("push_22"), odds=odds, pay_line=label,
        paid_cents=winnings(stake_cents, odds, rounding),
        readings=(("push_22_table", rules.push_22_table),),
    )  # fmt: skip
