"""Double Attack Blackjack (§ 581) end to end: a round's events replayed to its settlement,
its findings, its refusals, and the table's shoe as a stream spanning rounds."""

from __future__ import annotations

import datetime

import pytest

from tables.rules import engine
from tables.rules.blackjack_round import BlackjackState, can_apply, to_act
from tables.rules.cards import Card, parse_cards
from tables.rules.engine import Outcome, RuleViolation
from tables.rules.events import (
    CardDealt,
    CardExposed,
    DealerCollected,
    DealerPaid,
    DealingMethod,
    Decision,
    Event,
    IrregularityKind,
    IrregularityReported,
    NoMoreBets,
    Recipient,
    RoundClosed,
    RoundOpened,
    WagerPlaced,
    WagerReturned,
    event_to_record,
)
from tables.rules.replay import FindingKind, replay
from tables.rules.shoe import Reshuffle
from tables.rules.shoe_stream import (
    SHOE_EVENT_TYPES,
    CardBurned,
    DealerChanged,
    ShoeCollected,
    ShoeCut,
    ShoeOpened,
    ShoeShuffled,
    replay_shoe,
)

DAY = datetime.date(2016, 8, 1)


def opened(round_id: str = "r1", seats: tuple[int, ...] = (1, 2), **options: object) -> RoundOpened:
    return RoundOpened.build(
        round_id=round_id, game="double_attack_blackjack", ruleset_id="PA-581-2014",
        table_id="DAB-01", gaming_day=DAY, seats=seats, players=tuple(f"p{n}" for n in seats),
        dealing_method=DealingMethod.MANUAL_SHOE, **options,
    )  # fmt: skip


def dealer(card: str, spot: str, face_up: bool = True) -> CardDealt:
    return CardDealt(card=Card.parse(card), recipient=Recipient.DEALER, spot=spot, face_up=face_up)


def player(seat: int, card: str, spot: str, hand: int = 1) -> CardDealt:
    return CardDealt(card=Card.parse(card), recipient=Recipient.PLAYER, seat=seat, spot=spot,
                     hand=hand, face_up=True)  # fmt: skip


def bet(seat: int, cents: int, wager: str = "BET") -> WagerPlaced:
    return WagerPlaced(seat=seat, wager=wager, amount_cents=cents)


def deal(up: str, hole: str, hands: dict[int, str], attack: dict[int, int] | None = None,
         ) -> list[Event]:  # fmt: skip
    """§ 581.7(e)-(f): the up card, the Double Attack Wagers, two cards to each seat, the hole."""
    events: list[Event] = [NoMoreBets(), dealer(up, "1")]
    events += [bet(seat, cents, "DOUBLE_ATTACK") for seat, cents in (attack or {}).items()]
    cards = {seat: text.split() for seat, text in hands.items()}
    for spot in (0, 1):
        events += [player(seat, cards[seat][spot], str(spot + 1)) for seat in sorted(cards)]
    return [*events, dealer(hole, "2", face_up=False)]


def state_after(events: list[Event]) -> BlackjackState:
    state = engine.open_round(events[0])  # type: ignore[arg-type]
    for event in events[1:]:
        state = engine.apply(state, event)
    return state


def lines(events: list[Event]) -> list[tuple[int, int, str, str, int, str]]:
    settlement = replay(events).settlement
    return [(line.seat, line.hand_index, line.wager, line.outcome.value, line.amount_cents,
             line.section) for line in settlement.lines]  # fmt: skip


# ----------------------------------------------------------------- a round


def split_round() -> list[Event]:
    """Seat 1 splits 8s, doubles the first hand; seat 2 has Blackjack; the dealer busts on 3."""
    return [
        opened(), bet(1, 1_000), bet(1, 500, "BUST_IT"), bet(2, 2_000),
        *deal("6h", "Jh", {1: "8c 8d", 2: "Ad Kd"}, attack={1: 1_000}),
        Decision(seat=1, choice="split", amount_cents=2_000),
        player(1, "3s", "2", hand=1),
        Decision(seat=1, hand=1, choice="double", amount_cents=2_000),
        player(1, "9s", "3", hand=1),
        Decision(seat=1, hand=1, choice="stand"),
        player(1, "Ks", "2", hand=2),
        Decision(seat=1, hand=2, choice="stand"),
        CardExposed(recipient=Recipient.DEALER, spot="2"),
        dealer("Qc", "3"),
    ]  # fmt: skip


def test_581_7_o_a_round_with_a_split_a_double_and_bust_it_replays_to_its_settlement():
    """§ 581.7(o), § 581.11(a), § 581.10(a), § 581.12(c): counterclockwise, Bust It first."""
    assert lines(split_round()) == [
        (2, 1, "BET", "win", 2_000, "581.7(h)(1)"),
        (1, 1, "BUST_IT", "win", 1_500, "581.12(c)"),
        (1, 1, "BET", "win", 1_000, "581.7(o)(1)(i)"),
        (1, 1, "DOUBLE_ATTACK", "win", 1_000, "581.7(o)(1)(i)"),
        (1, 1, "DOUBLE_DOWN", "win", 2_000, "581.7(o)(1)(i)"),
        (1, 2, "SPLIT", "win", 2_000, "581.7(o)(1)(i)"),
    ]


def test_a_dealer_who_pays_every_line_as_required_leaves_no_finding():
    settled = [DealerPaid(seat=line[0], hand=line[1], wager=line[2], amount_cents=line[4])
               for line in lines(split_round())]  # fmt: skip
    result = replay([*split_round(), *settled, RoundClosed()])
    assert result.findings == ()
    assert result.final_state.phase == "closed"
    assert ("bust_it_offered", "True") in result.settlement.options_applied


def test_581_12_a_a_blackjack_paid_3_to_2_is_mispaid_on_its_hand():
    """§ 581.12(a), § 581.2(b)(3)(i): Blackjack pays even money."""
    result = replay([*split_round(), DealerPaid(seat=2, wager="BET", amount_cents=3_000)])
    mispaid = [f for f in result.findings if f.seat == 2]
    assert [(f.kind, f.expected_cents, f.recorded_cents, f.section) for f in mispaid] == [
        (FindingKind.MISPAID_AMOUNT, 2_000, 3_000, "581.7(h)(1)")]


def test_a_split_hand_is_judged_apart_from_the_first_hand():
    """§ 581.11(a): the second hand's wager settles on its own; a payment to hand 1 for it
    is no payment of hand 2."""
    required = [DealerPaid(seat=s, hand=h, wager=w, amount_cents=a)
                for s, h, w, _, a, _ in lines(split_round()) if (h, w) != (2, "SPLIT")]  # fmt: skip
    wrong = DealerPaid(seat=1, hand=1, wager="SPLIT", amount_cents=2_000)
    findings = replay([*split_round(), *required, wrong]).findings
    assert [(f.kind, f.detail, f.wager) for f in findings] == [
        (FindingKind.MISSING_PAYMENT, "hand 2", "SPLIT"),
        (FindingKind.WRONG_WAGER, "the seat never placed this wager", "SPLIT")]


def bust_it_round(third: str, fourth: str | None) -> list[Event]:
    events = [opened(seats=(1,)), bet(1, 1_000), bet(1, 1_000, "BUST_IT"),
              *deal("9h", "5c", {1: "Kc 8d"}), Decision(seat=1, choice="stand"),
              dealer(third, "3")]  # fmt: skip
    return events + ([dealer(fourth, "4")] if fourth else [])


def test_581_7_m_2_ii_bust_it_paid_on_a_fourth_card_bust_is_found():
    """§ 581.7(m)(2): only the dealer's three-card hand decides the Bust It Wager."""
    events = bust_it_round("2s", "Kd")  # 9+5+2 = 16, then the king busts on the fourth card
    result = replay([*events, DealerPaid(seat=1, wager="BUST_IT", amount_cents=3_000)])
    bust_it = [f for f in result.findings if f.wager == "BUST_IT"]
    assert [(f.kind, f.recorded_cents, f.section) for f in bust_it] == [
        (FindingKind.UNEXPECTED_PAYMENT, 3_000, "581.7(m)(2)(ii)")]


def test_581_12_c_three_eights_of_one_suit_pay_200_to_1_on_bust_it():
    events = [opened(seats=(1,)), bet(1, 1_000), bet(1, 500, "BUST_IT"),
              *deal("8s", "8s", {1: "Kc 9d"}), Decision(seat=1, choice="stand"),
              dealer("8s", "3")]  # fmt: skip
    assert lines(events)[0] == (1, 1, "BUST_IT", "win", 100_000, "581.12(c)")


def test_581_7_n_a_dealer_standing_on_16_is_a_finding():
    """§ 581.7(n): the dealer draws to 17; standing on 16 is recorded, the hand settles as dealt."""
    events = [opened(seats=(1,)), bet(1, 1_000), *deal("9h", "4c", {1: "Kc 8d"}),
              Decision(seat=1, choice="stand"), dealer("3d", "3"),
              DealerCollected(seat=1, wager="BET", amount_cents=1_000)]  # fmt: skip
    result = replay(events)
    procedure = [f for f in result.findings if f.kind is FindingKind.DEALER_PROCEDURE]
    assert [(f.section, f.seat) for f in procedure] == [("581.7(n)", 0)]
    # The player's 18 beats the dealer's 16: the collection is itself a finding.
    assert (FindingKind.WRONGFUL_COLLECTION, "BET") in {(f.kind, f.wager) for f in result.findings}


def test_581_7_m_2_a_dealer_standing_on_two_cards_under_17_skips_the_bust_it_card():
    """§ 581.7(m)(2): the third card is drawn for the Bust It Wagers; standing returns them
    undecided and is a finding."""
    events = [opened(seats=(1,)), bet(1, 1_000), bet(1, 500, "BUST_IT"),
              *deal("9h", "7c", {1: "Kc 5d"}), Decision(seat=1, choice="hit"),
              player(1, "9s", "3"), RoundClosed()]  # fmt: skip
    result = replay(events)
    assert ("581.7(m)(2)", FindingKind.DEALER_PROCEDURE) in {
        (f.section, f.kind) for f in result.findings}
    assert lines(events)[0][2:4] + lines(events)[0][5:] == ("BUST_IT", "returned", "581.7(m)(2)")


def test_581_13_d_a_card_drawn_on_17_goes_to_the_discard_rack():
    """§ 581.13(d): the dealer had 17; the card he drew is discarded, not counted."""
    events = [opened(seats=(1,)), bet(1, 1_000), *deal("9h", "8c", {1: "Kc 8d"}),
              Decision(seat=1, choice="stand"), dealer("5d", "3")]  # fmt: skip
    state = state_after(events)
    assert state.dealer == tuple(parse_cards("9h 8c")) and state.discarded == (Card.parse("5d"),)
    assert lines(events)[0][2:5] == ("BET", "win", 1_000)  # 18 against the dealer's 17
    # The dealer counted the 5 and took 22 for a bust: paying the 18 is right all the same.
    result = replay([*events, DealerPaid(seat=1, wager="BET", amount_cents=1_000)])
    assert [(f.kind, f.section) for f in result.findings] == [
        (FindingKind.DEALER_PROCEDURE, "581.13(d)")]


def test_581_7_g_a_dealer_blackjack_on_the_peek_ends_the_round():
    """§ 581.7(g), (o)(2), § 581.12(b): the Bet lost, the Double Attack returned,
    Insurance paid 5 to 2."""
    events = [opened(seats=(1,)), bet(1, 1_000),
              *deal("Ah", "Kc", {1: "9c 9d"}, attack={1: 1_000}),
              bet(1, 500, "INSURANCE")]  # fmt: skip
    state = state_after(events)
    assert state.phase == "settlement"
    assert not can_apply(state, Decision(seat=1, choice="hit"))
    assert lines(events) == [
        (1, 1, "INSURANCE", "win", 1_250, "581.12(b)"),
        (1, 1, "BET", "lose", 1_000, "581.7(o)(1)(ii)(A)"),
        (1, 1, "DOUBLE_ATTACK", "returned", 1_000, "581.7(o)(2)"),
    ]


def test_581_9_b_1_a_surrender_forfeits_half_of_each_wager():
    events = [opened(seats=(1,)), bet(1, 1_000), *deal("9h", "8c", {1: "Kc 6d"}, {1: 500}),
              Decision(seat=1, choice="surrender")]  # fmt: skip
    assert [(w, o, a) for _, _, w, o, a, _ in lines(events)] == [
        ("BET", "forfeited", 500), ("DOUBLE_ATTACK", "forfeited", 250)]


# ----------------------------------------------------------------- refusals


@pytest.mark.parametrize(
    ("events", "section", "field"),
    [
        ([opened(), bet(1, 1_000), NoMoreBets(), dealer("6h", "1"), bet(1, 1_500, "DOUBLE_ATTACK")],
         "581.6(e)", "amount_cents"),
        ([opened(), bet(1, 1_000), bet(2, 1_000), NoMoreBets(), dealer("6h", "1"),
          player(1, "8c", "1"), bet(2, 1_000, "DOUBLE_ATTACK")], "581.6(e)", "wager"),
        ([opened(), bet(1, 1_000), bet(1, 2_000, "BUST_IT")], "581.6(f)", "amount_cents"),
        ([opened(), bet(1, 1_000), NoMoreBets(), bet(1, 500, "BUST_IT")], "581.7(e)", "wager"),
        ([opened(bust_it_offered=False), bet(1, 1_000), bet(1, 500, "BUST_IT")], "581.6(f)",
         "wager"),
        ([opened(seats=(1,)), bet(1, 1_000), *deal("Ah", "5c", {1: "9c 9d"}),
          bet(1, 600, "INSURANCE")], "581.8(b)", "amount_cents"),
        ([opened(seats=(1,)), bet(1, 1_000), *deal("Kh", "5c", {1: "9c 9d"}),
          bet(1, 500, "INSURANCE")], "581.8(a)", None),
        ([opened(seats=(1,)), bet(1, 1_000), *deal("Ah", "5c", {1: "9c 9d"}),
          Decision(seat=1, choice="stand"), bet(1, 500, "INSURANCE")], "581.8(b)", None),
        ([opened(seats=(1,)), bet(1, 1_000), NoMoreBets(), player(1, "8c", "1")], "581.7(f)",
         "spot"),
        ([opened(seats=(1,)), bet(1, 1_000), NoMoreBets(), dealer("Td", "1")], "581.3(a)",
         "card"),
        ([opened(seats=(1,)), bet(1, 1_000), *deal("As", "As", {1: "As As"}),
          Decision(seat=1, choice="split", amount_cents=1_000), player(1, "As", "2"),
          Decision(seat=1, hand=1, choice="stand"), player(1, "As", "2", hand=2),
          Decision(seat=1, hand=2, choice="stand"), dealer("As", "3"), dealer("As", "4"),
          dealer("As", "5")], "581.3(a)", "card"),
        ([opened(), bet(1, 1_000), bet(2, 1_000), *deal("6h", "9c", {1: "9c 2d", 2: "Kc 7d"}),
          Decision(seat=2, choice="stand")], "581.7(h)(2)", "seat"),
        ([opened(seats=(1,)), bet(1, 1_000), *deal("6h", "9c", {1: "9c 2d"}),
          Decision(seat=1, choice="split", amount_cents=1_000)], "581.11(a)", "choice"),
        ([opened(seats=(1,)), bet(1, 1_000), *deal("6h", "9c", {1: "9c 2d"}),
          Decision(seat=1, choice="double", amount_cents=1_001)], "581.10(a)", "amount_cents"),
        ([opened(seats=(1,)), bet(1, 1_000), *deal("6h", "9c", {1: "9c 2d"}),
          Decision(seat=1, choice="second_chance", amount_cents=1_000)], "581.7(h)(2)",
         "choice"),
    ],
    ids=["double-attack-above-bet", "double-attack-after-the-players-cards",
         "bust-it-above-bet", "bust-it-after-no-more-bets", "bust-it-not-offered",
         "insurance-above-half", "insurance-without-an-ace", "insurance-after-a-decision",
         "player-card-before-the-up-card", "a-ten-in-a-spanish-batch", "a-ninth-ace-of-spades",
         "decision-out-of-turn", "split-of-no-pair",
         "double-above-bet-and-attack", "second-chance-not-in-581"],
)  # fmt: skip
def test_what_chapter_581_forbids_is_refused_citing_its_section(events, section, field):
    state = state_after(events[:-1])
    with pytest.raises(RuleViolation) as refused:
        engine.apply(state, events[-1])
    assert (refused.value.section, refused.value.field) == (section, field)


def test_581_11_c_a_fifth_hand_is_refused():
    """§ 581.11(c): at most three splits, four hands."""
    events = [opened(seats=(1,)), bet(1, 1_000), *deal("6h", "9c", {1: "7c 7d"})]
    for hand in (1, 1, 1):
        events += [Decision(seat=1, hand=hand, choice="split", amount_cents=1_000),
                   player(1, "7s", "2", hand=hand)]  # fmt: skip
    state = state_after(events)
    assert len(state.seats[1].hands.hands) == 4  # type: ignore[union-attr]
    with pytest.raises(RuleViolation) as refused:
        engine.apply(state, Decision(seat=1, choice="split", amount_cents=1_000))
    assert refused.value.section == "581.11(c)"


def test_581_7_a_a_hand_dealt_round_is_refused():
    with pytest.raises(RuleViolation) as refused:
        engine.open_round(RoundOpened(
            round_id="r1", game="double_attack_blackjack", ruleset_id="PA-581-2014",
            table_id="DAB-01", gaming_day=DAY, seats=(1,), players=("p",),
            dealing_method=DealingMethod.HAND))  # fmt: skip
    assert (refused.value.section, refused.value.field) == ("581.7(a)", "dealing_method")


def test_a_reading_is_an_opening_option_recorded_in_the_settlement():
    """§ 581.7(o)(1)(ii)(B) is silent on a bust against a dealer bust: the round may say."""
    result = replay([opened(seats=(1,), bust_against_bust="push"), bet(1, 1_000)])
    assert ("bust_against_bust", "push") in result.settlement.options_applied


# ----------------------------------------------------------------- the shoe


def shoe_start(order: str | None = None) -> list[Event]:
    cards = None if order is None else tuple(parse_cards(order))
    return [ShoeOpened(ruleset_id="PA-581-2014"), ShoeShuffled(order=cards),
            ShoeCut(cut_at=100, cover_at=280), CardBurned()]  # fmt: skip


def test_581_3_a_a_ten_dealt_from_a_spanish_batch_is_a_shoe_finding():
    """§ 581.3(a), § 581.4(b): the batch holds no 10s."""
    round_events = [opened(seats=(1,)), bet(1, 1_000), *deal("6h", "Th", {1: "9c 2d"})]
    result = replay_shoe([*shoe_start(), *round_events])
    assert [(f.round_id, str(f.card), f.section) for f in result.findings] == [
        ("r1", "Th", "581.3(a)")]


def test_581_3_a_a_ninth_ace_of_spades_is_a_shoe_finding():
    events: list[Event] = [*shoe_start(), opened(seats=(1,))]
    events += [dealer("As", str(n)) for n in range(9)]
    findings = replay_shoe(events).findings
    assert [(f.section, f.reason.split(":")[0]) for f in findings] == [
        ("581.3(a)", "As cannot come out of this shoe")]


def test_581_7_a_replay_knows_the_next_card_when_the_shuffle_recorded_the_order():
    order = _batch()  # eight of each card, side by side
    cut = [*order[100:], *order[:100]]
    assert cut[2] != cut[40]
    events: list[Event] = [ShoeOpened(ruleset_id="PA-581-2014"),
                           ShoeShuffled(order=tuple(order)), ShoeCut(cut_at=100, cover_at=280),
                           CardBurned(), opened(seats=(1,)), dealer(str(cut[1]), "1"),
                           dealer(str(cut[40]), "2")]  # fmt: skip
    findings = replay_shoe(events).findings
    assert [(f.section, str(f.card)) for f in findings] == [("581.7(a)", str(cut[40]))]


def _batch() -> list[Card]:
    from tables.rules.cards import STANDARD_DECK
    from tables.rules.shoe import shoe_spec

    counts = shoe_spec("581").composition
    return [card for card in STANDARD_DECK for _ in range(counts[card.index])]


def test_581_7_c_a_new_dealer_burns_a_card_and_the_shoe_spans_rounds():
    """§ 581.7(c), (q): the first round's cards go to the rack; a new dealer's round without
    its burn is a finding; § 581.7(d): a round after the cover card needs a reshuffle."""
    first = [opened("r1", seats=(1,)), dealer("6h", "1"), dealer("7h", "2"), RoundClosed()]
    second = [opened("r2", seats=(1,)), dealer("6c", "1")]
    result = replay_shoe([*shoe_start(), *first, DealerChanged(dealer="d2"), *second])
    assert [(f.round_id, f.section) for f in result.findings] == [("r2", "581.7(c)")]
    assert result.shoe is not None and sum(result.shoe.discard) == 2


def test_581_7_d_dealing_past_the_cover_card_without_a_reshuffle_is_a_finding():
    order = _batch()
    cut = [*order[100:], *order[:100]]
    events: list[Event] = [ShoeOpened(ruleset_id="PA-581-2014"), ShoeShuffled(order=tuple(order)),
                           ShoeCut(cut_at=100, cover_at=288), CardBurned(),
                           opened("r1", seats=(1,))]  # fmt: skip
    # One long round takes the cover card (288 cards above it): the round is finished.
    events += [dealer(str(card), str(n)) for n, card in enumerate(cut[1:291], 1)]
    events.append(RoundClosed())
    result = replay_shoe([*events, opened("r2", seats=(1,)), dealer(str(cut[291]), "1")])
    assert [(f.round_id, f.section) for f in result.findings] == [
        ("r2", "581.7(d)"), ("r2", "581.7(d)")]
    after = replay_shoe([*events, ShoeCollected(reason=Reshuffle.COVER_CARD)])
    assert after.findings == () and after.shoe is not None
    assert after.shoe.phase.value == "collected"


def test_581_13_a_a_card_found_face_up_in_the_shoe_is_discarded_unused():
    events = [*shoe_start(), opened(seats=(1,)), IrregularityReported(
        kind=IrregularityKind.CARD_FACE_UP_IN_DECK, card=Card.parse("5d"))]
    result = replay_shoe(events)
    assert result.findings == () and result.shoe is not None
    assert result.shoe.discard[Card.parse("5d").index] == 1


def test_shoe_events_round_trip_through_their_stored_form():
    events = [*shoe_start("As Kd"), DealerChanged(dealer="d2"),
              ShoeCollected(reason=Reshuffle.DIRECTED)]  # fmt: skip
    for event in events:
        record = event_to_record(event)
        assert SHOE_EVENT_TYPES[record["type"]].from_payload(record["payload"]) == event


def test_wager_returned_after_a_void_is_no_finding():
    from tables.rules.events import RoundVoided

    events = [opened(seats=(1,)), bet(1, 1_000), NoMoreBets(), RoundVoided(reason="13(h)(1)"),
              WagerReturned(seat=1, wager="BET", amount_cents=1_000), RoundClosed()]  # fmt: skip
    result = replay(events)
    assert result.findings == ()
    assert [line.outcome for line in result.settlement.lines] == [Outcome.RETURNED]


@pytest.mark.parametrize(
    ("chapter_events", "kind", "voided", "section"),
    [("581", "HOLE_CARD_READ_UNASKED_SEEN", True, "581.13(h)(1)"),
     ("581", "HOLE_CARD_READ_UNASKED", False, "581.13(h)(2)")],
)  # fmt: skip
def test_581_13_h_the_hole_card_read_for_a_6_up_card(chapter_events, kind, voided, section):
    """§ 581.13(h): all hands dead if the reader let a player learn the hole card, else play on."""
    events = [opened(seats=(1,)), bet(1, 1_000), bet(1, 500, "BUST_IT"),
              *deal("6h", "9c", {1: "9d 8d"}, attack={1: 500}),
              IrregularityReported(kind=kind)]  # fmt: skip
    result = replay(events)
    assert result.settlement.voided is voided
    if voided:
        assert [(line.wager, line.outcome, line.section) for line in result.settlement.lines] == [
            ("BUST_IT", Outcome.RETURNED, section), ("BET", Outcome.RETURNED, section),
            ("DOUBLE_ATTACK", Outcome.RETURNED, section)]
    else:
        assert [(f.kind, f.section) for f in result.findings] == [
            (FindingKind.DEALER_PROCEDURE, section)]
        assert engine.apply(result.final_state, Decision(seat=1, choice="stand")).phase == "dealer"


def test_581_7_g_the_reader_on_a_king_is_no_irregularity():
    events = [opened(seats=(1,)), bet(1, 1_000), *deal("Kh", "9c", {1: "9d 8d"})]
    with pytest.raises(RuleViolation) as refused:
        engine.apply(state_after(events), IrregularityReported(kind="HOLE_CARD_READ_UNASKED"))
    assert refused.value.section == "581.7(g)"


def test_581_13_f_a_hand_dealt_no_card_is_dead_and_its_wagers_returned():
    """§ 581.13(f): the hand is dead (the player is in the next deal); the others play on."""
    events = [opened(), bet(1, 1_000), bet(1, 500, "BUST_IT"), bet(2, 1_000), NoMoreBets(),
              dealer("6h", "1"), IrregularityReported(kind="CARD_NOT_DEALT", seat=1),
              player(2, "9c", "1"), player(2, "8c", "2"), dealer("9d", "2", face_up=False),
              Decision(seat=2, choice="stand"), dealer("Ks", "3")]  # fmt: skip
    assert lines(events) == [
        (2, 1, "BET", "win", 1_000, "581.7(o)(1)(i)"),
        (1, 1, "BET", "returned", 1_000, "581.13(f)"),
        (1, 1, "BUST_IT", "returned", 500, "581.13(f)"),
    ]


def test_581_13_f_a_missed_second_card_comes_after_the_other_players_second_cards():
    events = [opened(), bet(1, 1_000), bet(2, 1_000), NoMoreBets(), dealer("6h", "1"),
              player(1, "9c", "1"), player(2, "8c", "1"),
              IrregularityReported(kind="CARD_NOT_DEALT", seat=1),
              player(2, "7c", "2")]  # fmt: skip
    state = state_after(events)
    with pytest.raises(RuleViolation) as refused:
        engine.apply(state, dealer("9d", "2", face_up=False))
    assert refused.value.section == "581.7(f)"
    state = engine.apply(state, player(1, "Kc", "2"))
    state = engine.apply(state, dealer("9d", "2", face_up=False))
    assert state.phase == "decisions" and state.seats[1].hands is not None


def test_581_13_f_only_the_seat_whose_card_is_next_can_be_passed_over():
    events = [opened(), bet(1, 1_000), bet(2, 1_000), NoMoreBets(), dealer("6h", "1")]
    with pytest.raises(RuleViolation) as refused:
        engine.apply(state_after(events), IrregularityReported(kind="CARD_NOT_DEALT", seat=2))
    assert (refused.value.section, refused.value.field) == ("581.13(f)", "seat")


def hit_round() -> list[Event]:
    """Seat 1 asks for a card on 9-2; seat 2 stands behind it."""
    return [opened(), bet(1, 1_000), bet(2, 1_000),
            *deal("6h", "9c", {1: "9d 2d", 2: "Kc 8c"}, attack={1: 500}),
            Decision(seat=1, choice="hit")]  # fmt: skip


def test_581_13_g_a_requested_card_not_dealt_comes_after_the_other_players_cards():
    """§ 581.13(g): at the player's option, after all other players, before the hole card."""
    events = [*hit_round(), IrregularityReported(kind="REQUESTED_CARD_LATER", seat=1)]
    state = state_after(events)
    assert to_act(state).seat == 2  # type: ignore[union-attr]
    state = engine.apply(state, Decision(seat=2, choice="stand"))
    assert (state.phase, to_act(state).seat) == ("decisions", 1)  # type: ignore[union-attr]
    state = engine.apply(state, player(1, "Qs", "3"))
    assert state.phase == "dealer"


def test_581_13_g_a_hand_called_dead_gets_its_bet_and_double_attack_back():
    """§ 581.13(g): or the hand is dead and its Bet and Double Attack Wagers returned."""
    events = [*hit_round(), IrregularityReported(kind="REQUESTED_CARD_DEAD", seat=1),
              Decision(seat=2, choice="stand"), dealer("Ks", "3")]  # fmt: skip
    assert lines(events) == [
        (2, 1, "BET", "win", 1_000, "581.7(o)(1)(i)"),
        (1, 1, "BET", "returned", 1_000, "581.13(g)"),
        (1, 1, "DOUBLE_ATTACK", "returned", 500, "581.13(g)"),
    ]


def test_581_13_g_only_the_hand_that_asked_can_be_passed_over():
    with pytest.raises(RuleViolation) as refused:
        engine.apply(state_after(hit_round()),
                     IrregularityReported(kind="REQUESTED_CARD_LATER", seat=2))
    assert (refused.value.section, refused.value.field) == ("581.13(g)", "seat")
