"""Free Bet Blackjack (§ 590) and Double Back Jack (§ 591) on the blackjack round machine."""

from __future__ import annotations

import datetime

import pytest

from tables.rules import engine
from tables.rules.cards import Card
from tables.rules.engine import RuleViolation
from tables.rules.events import (
    CardDealt,
    DealerPaid,
    DealingMethod,
    Decision,
    Event,
    NoMoreBets,
    Recipient,
    RoundOpened,
    WagerPlaced,
)
from tables.rules.replay import FindingKind, replay

DAY = datetime.date(2016, 8, 1)
GAMES = {"590": ("free_bet_blackjack", "PA-590-2014"), "591": ("double_back_jack", "PA-591-2014")}


def opened(chapter: str, seats: tuple[int, ...] = (1,), **options: object) -> RoundOpened:
    game, ruleset = GAMES[chapter]
    return RoundOpened.build(
        round_id="r1", game=game, ruleset_id=ruleset, table_id="T", gaming_day=DAY, seats=seats,
        players=tuple(f"p{n}" for n in seats), dealing_method=DealingMethod.AUTOMATED_SHOE,
        **options,
    )  # fmt: skip


def card(text: str, seat: int | None = None, spot: str = "1", hand: int = 1) -> CardDealt:
    recipient = Recipient.DEALER if seat is None else Recipient.PLAYER
    return CardDealt(card=Card.parse(text), recipient=recipient, seat=seat, spot=spot, hand=hand,
                     face_up=spot != "2" or seat is not None)  # fmt: skip


def bet(seat: int, cents: int, wager: str = "BLACKJACK") -> WagerPlaced:
    return WagerPlaced(seat=seat, wager=wager, amount_cents=cents)


def deal(up: str, hole: str, hands: dict[int, str]) -> list[Event]:
    """§ 590.7(e), § 591.7(e): a card to each player, the up card, a second each, the hole."""
    cards = {seat: text.split() for seat, text in hands.items()}
    events: list[Event] = [NoMoreBets()]
    events += [card(cards[seat][0], seat, "1") for seat in sorted(cards)]
    events.append(card(up, None, "1"))
    events += [card(cards[seat][1], seat, "2") for seat in sorted(cards)]
    return [*events, card(hole, None, "2")]


def lines(events: list[Event]) -> list[tuple[int, int, str, str, int, str]]:
    return [(line.seat, line.hand_index, line.wager, line.outcome.value, line.amount_cents,
             line.section) for line in replay(events).settlement.lines]  # fmt: skip


def refusal(events: list[Event]) -> tuple[str, str | None]:
    state = engine.open_round(events[0])  # type: ignore[arg-type]
    for event in events[1:-1]:
        state = engine.apply(state, event)
    with pytest.raises(RuleViolation) as refused:
        engine.apply(state, events[-1])
    return refused.value.section, refused.value.field


# ----------------------------------------------------------------- § 590


def test_590_10_a_1_a_free_double_wins_its_lammer_paid_1_to_1():
    """§ 590.10(a)(1), § 590.7(o), § 590.12(a): a winning lammer is paid like money."""
    events = [opened("590"), bet(1, 1_000), *deal("6h", "9c", {1: "6d 4c"}),
              Decision(seat=1, choice="double"), card("9d", 1, "3"),
              card("Kc", None, "3")]  # fmt: skip
    assert lines(events) == [(1, 1, "BLACKJACK", "win", 1_000, "590.7(o)"),
                             (1, 1, "FREE_DOUBLE_LAMMER", "win", 1_000, "590.7(o)")]


@pytest.mark.parametrize(("table", "paid"), [("A", 4_000), ("B", 3_500)])
def test_590_7_n_1_a_dealer_22_pushes_collects_the_lammers_and_pays_push_22(table, paid):
    """§ 590.7(n)(1), § 590.12(c): Other 22 at 8 to 1 (A) or 7 to 1 (B); a lammer moves no money."""
    events = [opened("590", push_22_table=table), bet(1, 1_000), bet(1, 500, "PUSH_22"),
              *deal("6h", "6d", {1: "8c 8d"}), Decision(seat=1, choice="split"),
              card("Ks", 1, "2", 1), Decision(seat=1, hand=1, choice="stand"),
              card("Qs", 1, "2", 2), Decision(seat=1, hand=2, choice="stand"),
              card("Kc", None, "3")]  # fmt: skip
    assert lines(events) == [
        (1, 1, "PUSH_22", "win", paid, "590.12(c)"),
        (1, 1, "BLACKJACK", "push", 1_000, "590.7(n)(1)"),
        (1, 2, "FREE_SPLIT_LAMMER", "lose", 0, "590.7(n)(1)"),
    ]
    result = replay(events)
    assert ("push_22_table", table) in result.settlement.options_applied
    assert result.settlement.lines[2].movement.amount_cents == 0  # type: ignore[union-attr]


def test_590_12_b_insurance_pays_2_to_1_on_a_dealer_blackjack():
    events = [opened("590"), bet(1, 1_000), *deal("Ah", "Tc", {1: "9c 9d"}),
              bet(1, 500, "INSURANCE")]  # fmt: skip
    assert lines(events) == [(1, 1, "INSURANCE", "win", 1_000, "590.12(b)"),
                             (1, 1, "BLACKJACK", "lose", 1_000, "590.7(g)(2)")]


def test_590_7_m_a_dealer_who_draws_when_no_wager_depends_on_it_is_a_finding():
    """§ 590.7(m): every hand busted, no Push 22: the dealer draws no more."""
    busted = [opened("590"), bet(1, 1_000), *deal("6h", "6d", {1: "Tc 6c"}),
              Decision(seat=1, choice="hit"), card("Kd", 1, "3"),
              card("Ks", None, "3")]  # fmt: skip

    def procedure(events: list[Event]) -> list[str]:
        return [f.section for f in replay(events).findings
                if f.kind is FindingKind.DEALER_PROCEDURE]  # fmt: skip

    assert procedure(busted) == ["590.7(m)"]
    assert procedure([*busted[:2], bet(1, 500, "PUSH_22"), *busted[2:]]) == []


@pytest.mark.parametrize(
    ("events", "expected"),
    [
        ([opened("590"), bet(1, 1_000), *deal("6h", "9c", {1: "6d 4c"}),
          Decision(seat=1, choice="double", amount_cents=500)], ("590.10(a)(1)", "amount_cents")),
        ([opened("590"), bet(1, 1_000), *deal("6h", "9c", {1: "Kd Qc"}),
          Decision(seat=1, choice="split")], ("590.11(b)(1)", "amount_cents")),
        ([opened("590"), bet(1, 1_000), *deal("6h", "9c", {1: "6d 2c"}),
          Decision(seat=1, choice="hit"), card("2d", 1, "3"), Decision(seat=1, choice="surrender")],
         ("590.9(a)", "choice")),
        ([opened("590", push_22_offered=False), bet(1, 1_000), bet(1, 500, "PUSH_22")],
         ("590.6(e)", "wager")),
        ([opened("590"), bet(1, 1_000), NoMoreBets(), card("6d", 1, "1"),
          bet(1, 500, "PUSH_22")], ("590.6(c)", "wager")),
    ],
    ids=["free-double-with-money", "tens-split-for-free", "surrender-after-a-draw",
         "push-22-not-offered", "push-22-after-the-first-card"],
)  # fmt: skip
def test_what_chapter_590_forbids_is_refused(events, expected):
    assert refusal(events) == expected


def test_590_11_b_1_a_pair_of_10_values_splits_for_money():
    events = [opened("590"), bet(1, 1_000), *deal("6h", "9c", {1: "Kd Qc"}),
              Decision(seat=1, choice="split", amount_cents=1_000)]  # fmt: skip
    state = engine.open_round(events[0])  # type: ignore[arg-type]
    for event in events[1:]:
        state = engine.apply(state, event)
    assert [hand.stakes for hand in state.seats[1].hands.hands] == [
        (("BLACKJACK", 1_000),), (("SPLIT", 1_000),)]


# ----------------------------------------------------------------- § 591


def test_591_7_f_a_blackjack_is_paid_2_to_1_before_the_peek_even_against_a_dealer_blackjack():
    """§ 591.7(f), (h), § 591.12(a)."""
    events = [opened("591", seats=(1, 2)), bet(1, 1_000), bet(2, 1_000),
              *deal("Ah", "Kc", {1: "As Kd", 2: "9c 9d"}),
              DealerPaid(seat=1, wager="BLACKJACK", amount_cents=2_000),
              bet(2, 500, "INSURANCE")]  # fmt: skip
    assert lines(events) == [(2, 1, "INSURANCE", "win", 1_000, "591.12(c)"),
                             (2, 1, "BLACKJACK", "lose", 1_000, "591.7(h)"),
                             (1, 1, "BLACKJACK", "win", 2_000, "591.7(f)")]


def test_591_7_l_2_a_second_chance_card_to_21_pays_the_second_chance_and_pushes_the_bet():
    events = [opened("591"), bet(1, 1_000), *deal("6h", "9c", {1: "Tc 6c"}),
              Decision(seat=1, choice="hit"), card("Kd", 1, "3"),
              Decision(seat=1, choice="second_chance", amount_cents=1_000),
              card("5s", 1, "4")]  # fmt: skip
    assert lines(events) == [(1, 1, "BLACKJACK", "push", 1_000, "591.7(l)(2)"),
                             (1, 1, "SECOND_CHANCE", "win", 1_000, "591.7(l)(2)")]


def test_591_7_m_a_21_is_paid_at_once_whatever_the_dealer_makes():
    events = [opened("591"), bet(1, 1_000), *deal("6h", "5c", {1: "7c 4c"}),
              Decision(seat=1, choice="hit"), card("Kd", 1, "3")]  # fmt: skip
    events += [card("Th", None, "3")]  # the dealer's 21 comes too late
    assert lines(events) == [(1, 1, "BLACKJACK", "win", 1_000, "591.7(m)")]


def test_591_7_q_1_a_dealer_22_pushes_the_remaining_wagers():
    events = [opened("591"), bet(1, 1_000), *deal("6h", "6c", {1: "Tc 8c"}),
              Decision(seat=1, choice="stand"), card("Kd", None, "3")]  # fmt: skip
    assert lines(events) == [(1, 1, "BLACKJACK", "push", 1_000, "591.7(q)(1)")]


@pytest.mark.parametrize(
    ("events", "expected"),
    [
        ([opened("591"), bet(1, 1_000), *deal("6h", "9c", {1: "Tc 6c"}),
          Decision(seat=1, choice="hit"), card("Kd", 1, "3"),
          Decision(seat=1, choice="second_chance", amount_cents=500)],
         ("591.7(l)", "amount_cents")),
        ([opened("591"), bet(1, 1_000), *deal("6h", "9c", {1: "8c 8d"}),
          Decision(seat=1, choice="split", amount_cents=1_000), card("8s", 1, "2"),
          Decision(seat=1, choice="split", amount_cents=1_000)], ("591.11(a)", "choice")),
        ([opened("591"), bet(1, 1_000), *deal("6h", "9c", {1: "Tc 6c"}),
          Decision(seat=1, choice="second_chance", amount_cents=1_000)], ("591.7(l)", "choice")),
    ],
    ids=["second-chance-not-equal", "second-split", "second-chance-before-a-bust"],
)  # fmt: skip
def test_what_chapter_591_forbids_is_refused(events, expected):
    assert refusal(events) == expected


@pytest.mark.parametrize("chapter", ["590", "591"])
def test_5xx_3_a_a_sixth_ace_of_spades_is_refused_in_a_five_deck_round(chapter):
    """§ 590.3(a), § 591.3(a): the Rules Submission's five decks hold five of each card."""
    events = [opened(chapter, seats=(1, 2, 3), decks=5), bet(1, 1_000), bet(2, 1_000),
              bet(3, 1_000), *deal("As", "As", {1: "As As", 2: "As 3c", 3: "As 4c"})]  # fmt: skip
    assert refusal(events) == (f"{chapter}.3(a)", "card")
    six_decks = [opened(chapter, seats=(1, 2, 3)), *events[1:]]
    assert replay(six_decks).final_state.dealer == (Card.parse("As"), Card.parse("As"))


@pytest.mark.parametrize("chapter", ["590", "591"])
def test_5xx_13_i_the_hole_card_read_for_a_6_up_card_lets_play_continue(chapter):
    """§ 590.13(i), § 591.13(i): play continues even if a player could learn the hole card."""
    from tables.rules.events import IrregularityReported

    events = [opened(chapter), bet(1, 1_000), *deal("6h", "9c", {1: "9d 8d"}),
              IrregularityReported(kind="HOLE_CARD_READ_UNASKED_SEEN")]  # fmt: skip
    result = replay(events)
    assert not result.settlement.voided
    assert [(f.kind, f.section) for f in result.findings] == [
        (FindingKind.DEALER_PROCEDURE, f"{chapter}.13(i)")]


@pytest.mark.parametrize("chapter", ["590", "591"])
def test_the_temporary_chapter_is_not_in_force_after_its_rescission(chapter):
    """46 Pa.B. 5540 rescinded temporary Chapters 590 and 591 from 2016-08-27."""
    import dataclasses

    late = dataclasses.replace(opened(chapter), gaming_day=datetime.date(2016, 8, 27))
    with pytest.raises(RuleViolation) as refused:
        engine.open_round(late)
    assert (refused.value.section, refused.value.field) == (chapter, "gaming_day")


def test_590_13_g_a_hand_dealt_no_card_is_dead_and_its_push_22_returned():
    from tables.rules.events import IrregularityReported

    events = [opened("590", seats=(1, 2)), bet(1, 1_000), bet(1, 500, "PUSH_22"), bet(2, 1_000),
              NoMoreBets(), IrregularityReported(kind="CARD_NOT_DEALT", seat=1),
              card("9c", 2, "1"), card("6h", None, "1"), card("8c", 2, "2"),
              card("9d", None, "2"), Decision(seat=2, choice="stand"),
              card("Ks", None, "3")]  # fmt: skip
    assert [(seat, wager, outcome, section) for seat, _, wager, outcome, _, section
            in lines(events)] == [
        (2, "BLACKJACK", "win", "590.7(o)"),
        (1, "BLACKJACK", "returned", "590.13(g)"),
        (1, "PUSH_22", "returned", "590.13(g)"),
    ]  # fmt: skip
