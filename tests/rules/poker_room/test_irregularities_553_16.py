"""The chapter's irregularities (§ 553.16(e)-(q)) applied by the hand's replay, citing sections."""

from __future__ import annotations

import dataclasses
import datetime

from tables.rules.cards import STANDARD_DECK, Card, parse_cards
from tables.rules.events import Event, event_to_record
from tables.rules.poker_room.events import (
    Acted,
    Action,
    BetReturned,
    CardBurnt,
    CardDealt,
    HandClosed,
    HandOpened,
    Irregularity,
    IrregularityFound,
    Posted,
    PotPushed,
    Shown,
    poker_event_from_record,
)
from tables.rules.poker_room.hand import HandState, Phase
from tables.rules.poker_room.replay import FindingKind, apply, dealer_events, open_from, replay_hand
from tables.rules.poker_room.rules import FIVE_CARD_STUD
from tables.rules.poker_room.settlement import LineKind, settle

DAY = datetime.date(2026, 11, 24)
HOLDEM, STUD, DRAW = "PA-553-HOLDEM-NL-1-2-BB", "PA-553-STUD-HL8-2-4", "PA-553-DRAW-HIGH-2-4"


class Dealer:
    """Events recorded one at a time, each applied to the hand, cards from a stacked deck."""

    def __init__(self, ruleset_id: str = HOLDEM, deck: str = "", button: int | None = 3) -> None:
        opened = HandOpened(
            hand_id="P1-1", table_id="P1", gaming_day=DAY, ruleset_id=ruleset_id,
            seats=(1, 2, 3), players=("ann", "bob", "cy"), stacks_cents=(5_000,) * 3,
            button=button,
        )  # fmt: skip
        self.events: list[Event] = [opened]
        self.state: HandState = open_from(opened)
        self.deck = iter(parse_cards(deck or "Ah Kd Qc Js Td 9h 8c 7s 6d 5h 4c 3s 2d Ad Kc Qh"))
        self.post()

    def record(self, event: Event) -> Dealer:
        self.state = apply(self.state, event)
        self.events.append(event)
        return self

    def post(self) -> Dealer:
        while self.state.phase is Phase.POSTING:
            owed = self.state.posts[0]
            self.record(Posted(seat=owed.seat, kind=owed.kind, amount_cents=owed.amount_cents))
        return self

    def deal(self, cards: int) -> Dealer:
        for _ in range(cards):
            slot = self.state.deals[0]
            card = next(self.deck)
            self.record(CardBurnt(card=card) if slot.burn else
                        CardDealt(card=card, seat=slot.seat, face_up=slot.face_up))  # fmt: skip
            self.post()
        return self

    def irregular(self, kind: Irregularity, seat: int | None = None, cards: str = "") -> Dealer:
        return self.record(IrregularityFound(kind=kind, seat=seat, cards=parse_cards(cards)))


def _findings(events: list[Event]) -> set[tuple[FindingKind, str]]:
    return {(finding.kind, finding.section) for finding in replay_hand(events).findings}


def test_553_16_e_1_a_misdeal_voids_the_round_and_every_chip_goes_back():
    dealer = Dealer().deal(2).irregular(Irregularity.NOT_SHUFFLED_OR_CUT)
    assert dealer.state.phase is Phase.VOID
    settlement = settle(dealer.state)
    lines = [(line.kind, line.seat, line.amount_cents, line.section) for line in settlement.lines]
    assert lines == [(LineKind.RETURNED, 1, 100, "553.16(e)(1)"),
                     (LineKind.RETURNED, 2, 200, "553.16(e)(1)")]  # fmt: skip
    right = [*dealer.events, *dealer_events(settlement), HandClosed()]
    assert replay_hand(right).findings == ()
    # A dealer who pushes the blinds to the big blind applied no remedy of the chapter.
    wrong = [*dealer.events, BetReturned(seat=1, amount_cents=100),
             PotPushed(pot=0, seat=2, amount_cents=200), HandClosed()]  # fmt: skip
    assert _findings(wrong) == {(FindingKind.WRONG_RETURN, "553.16(e)(1)"),
                                (FindingKind.MISPUSHED_POT, "553.16(e)(1)")}  # fmt: skip


def test_553_16_e_2_a_wrong_start_found_before_two_voluntary_wagers_is_a_misdeal():
    dealer = Dealer().deal(6).record(Acted(seat=3, action=Action.CALL))
    dealer.irregular(Irregularity.WRONG_STARTING_POSITION)
    assert (dealer.state.phase, dealer.state.void_section) == (Phase.VOID, "553.16(e)(2)")


def test_553_16_e_2_and_4_after_two_voluntary_wagers_no_misdeal_the_round_continues():
    dealer = Dealer().deal(6).record(Acted(seat=3, action=Action.CALL))
    dealer.record(Acted(seat=1, action=Action.CALL))
    for kind, section in ((Irregularity.WRONG_STARTING_POSITION, "553.16(e)(2)"),
                          (Irregularity.SEAT_NOT_DEALT, "553.16(e)(4)")):  # fmt: skip
        events = [*dealer.events, IrregularityFound(kind=kind)]
        (finding,) = replay_hand(events).findings
        assert (finding.kind, finding.section, finding.event_index) == (
            FindingKind.REFUSED_EVENT, section, len(events) - 1)


def test_553_16_h_a_card_face_up_in_the_deck_is_not_used_and_a_second_is_a_misdeal_e_3():
    dealer = Dealer().deal(1).irregular(Irregularity.CARD_FACE_UP_IN_DECK, cards="2c")
    assert dealer.state.phase is Phase.DEALING and Card.parse("2c") in dealer.state.discarded
    dealer.deal(1)  # the deal goes on with the next card
    assert dealer.state.cards[2] == ((Card.parse("Kd"), False),)
    dealer.irregular(Irregularity.CARD_FACE_UP_IN_DECK, cards="2h")
    assert (dealer.state.phase, dealer.state.void_section) == (Phase.VOID, "553.16(e)(3)")


def test_553_16_g_missing_cards_void_the_round_and_nothing_is_dealt_after():
    dealer = Dealer().deal(6).record(Acted(seat=3, action=Action.RAISE, to_cents=600))
    dealer.record(Acted(seat=1, action=Action.CALL)).irregular(Irregularity.CARDS_MISSING)
    assert settle(dealer.state).total(LineKind.RETURNED) == 600 + 600 + 200
    (finding,) = replay_hand([*dealer.events, CardBurnt(card=Card.parse("2c"))]).findings
    assert (finding.kind, finding.section) == (FindingKind.REFUSED_EVENT, "553.16(g)")


def test_553_16_f_and_m_cards_to_an_ineligible_player_or_off_the_table_are_discarded():
    dealer = Dealer().deal(2).irregular(Irregularity.INELIGIBLE_PLAYER_DEALT, cards="2c")
    dealer.irregular(Irregularity.CARD_OFF_TABLE, cards="2h").deal(4)
    assert dealer.state.phase is Phase.BETTING
    assert set(parse_cards("2c 2h")) <= set(dealer.state.discarded)
    # A card already in play cannot also be found off the table.
    events = [*dealer.events, IrregularityFound(kind=Irregularity.CARD_OFF_TABLE,
                                                cards=parse_cards("Ah"))]  # fmt: skip
    (finding,) = replay_hand(events).findings
    assert finding.section == "553.16(g)"


def test_553_16_n_an_exposed_holdem_hole_card_is_exchanged_for_the_top_card():
    dealer = Dealer().deal(4).irregular(Irregularity.HOLE_CARD_EXPOSED, seat=1, cards="Js")
    assert Card.parse("Js") in dealer.state.discarded
    assert dealer.state.deals[0].seat == 1  # the top card of the deck goes to seat 1
    dealer.deal(3)
    assert tuple(card for card, _ in dealer.state.cards[1]) == parse_cards("Ah Td")
    assert dealer.state.phase is Phase.BETTING and dealer.state.to_act == (3, 1, 2)


def test_553_16_n_a_dealer_who_does_not_exchange_the_card_is_found():
    dealer = Dealer().deal(4).irregular(Irregularity.HOLE_CARD_EXPOSED, seat=1, cards="Js")
    events = [*dealer.events, CardDealt(card=Card.parse("Td"), seat=2)]
    (finding,) = replay_hand(events).findings
    assert (finding.kind, finding.section) == (FindingKind.REFUSED_EVENT, "553.16(n)")


def test_553_16_n_a_card_exposed_after_the_betting_began_is_refused():
    dealer = Dealer().deal(6).record(Acted(seat=3, action=Action.CALL))
    events = [*dealer.events, IrregularityFound(kind=Irregularity.HOLE_CARD_EXPOSED, seat=1,
                                                cards=parse_cards("Ah"))]  # fmt: skip
    (finding,) = replay_hand(events).findings
    assert (finding.section, finding.detail.split(": ")[1]) == (
        "553.16(n)", "only a card exposed in the dealing process is exchanged")


def test_553_16_k_seven_stud_first_hole_card_exposed_third_card_dealt_face_down():
    dealer = Dealer(STUD, button=None).deal(1)
    dealer.irregular(Irregularity.HOLE_CARD_EXPOSED, seat=1, cards="Ah")
    dealer.deal(6)
    assert dealer.state.cards[1] == ((Card.parse("Ah"), True), (Card.parse("Js"), False),
                                     (Card.parse("8c"), False))  # fmt: skip
    # A dealer who turns the third card up anyway is found.
    dealt = [*dealer.events[:-1], CardDealt(card=Card.parse("8c"), seat=1, face_up=True)]
    (finding,) = replay_hand(dealt).findings
    assert (finding.kind, finding.section) == (FindingKind.REFUSED_EVENT, "553.16(k)")


def test_553_16_k_both_seven_stud_hole_cards_exposed_void_the_hand_and_return_its_ante():
    dealer = Dealer(STUD, button=None).deal(4)
    dealer.irregular(Irregularity.HOLE_CARD_EXPOSED, seat=1, cards="Ah")
    dealer.irregular(Irregularity.HOLE_CARD_EXPOSED, seat=1, cards="Js")
    state = dealer.state
    assert 1 in state.folded and state.refunds == ((1, 25, "553.16(k)"),)
    assert all(slot.seat != 1 for slot in state.deals)
    dealer.deal(4)  # seats 2 and 3 get their second and up cards; the Forced Bet is posted
    assert dealer.state.phase is Phase.BETTING and dealer.state.forced_bet_seat in (2, 3)
    assert 1 not in dealer.state.to_act


def test_553_16_l_five_stud_exposed_hole_card_second_card_dealt_face_down():
    dealer = Dealer(STUD, button=None)
    rules = dataclasses.replace(dealer.state.rules, variant=FIVE_CARD_STUD)
    opened = dealer.events[0]
    assert isinstance(opened, HandOpened)
    state = open_from(opened, rules)
    for event in dealer.events[1:4]:
        state = apply(state, event)  # the antes
    state = apply(state, CardDealt(card=Card.parse("Ah"), seat=1))
    state = apply(state, IrregularityFound(kind=Irregularity.HOLE_CARD_EXPOSED, seat=1,
                                           cards=(Card.parse("Ah"),)))  # fmt: skip
    slot = next(slot for slot in state.deals if slot.seat == 1)
    assert (slot.face_up, slot.section) == (False, "553.16(l)")


def test_553_16_q_five_card_draw_has_no_exposure_remedy_in_the_chapter():
    dealer = Dealer(DRAW).deal(1)
    events = [*dealer.events, IrregularityFound(kind=Irregularity.HOLE_CARD_EXPOSED, seat=1,
                                                cards=parse_cards("Ah"))]  # fmt: skip
    (finding,) = replay_hand(events).findings
    assert finding.section == "553.16(q)"


def test_553_16_i_3_a_protected_hand_collected_by_the_dealer_is_refunded():
    dealer = Dealer().deal(6).record(Acted(seat=3, action=Action.RAISE, to_cents=600))
    dealer.record(Acted(seat=1, action=Action.CALL))
    dealer.irregular(Irregularity.PROTECTED_HAND_KILLED, seat=1)
    assert dealer.state.to_act == (2,) and dealer.state.refunds == ((1, 600, "553.16(i)(3)"),)
    dealer.record(Acted(seat=2, action=Action.FOLD))
    settlement = settle(dealer.state)
    returned = {(line.seat, line.amount_cents, line.section) for line in settlement.lines
                if line.kind is LineKind.RETURNED}  # fmt: skip
    assert returned == {(1, 600, "553.16(i)(3)"), (3, 400, "553.15(d)")}
    right = [*dealer.events, *dealer_events(settlement), HandClosed()]
    assert replay_hand(right).findings == ()
    kept = [e for e in right if e != BetReturned(seat=1, amount_cents=600)]
    assert _findings(kept) == {(FindingKind.WRONG_RETURN, "553.16(i)(3)")}


def test_553_16_the_irregularity_event_round_trips_and_names_its_missing_field():
    event = IrregularityFound(kind=Irregularity.HOLE_CARD_EXPOSED, seat=2, cards=parse_cards("Ah"))
    assert poker_event_from_record(event_to_record(event)) == event
    try:
        IrregularityFound(kind=Irregularity.CARD_OFF_TABLE)
    except ValueError as error:
        assert "cards" in str(error)
    else:
        raise AssertionError("a card off the table names its card")


def _to_seventh_street() -> Dealer:
    """A Seven-card Stud hand checked and called to its last card, dealt to seat 1 first."""
    dealer = Dealer(STUD, deck=" ".join(str(card) for card in STANDARD_DECK), button=None)
    state = dealer.state
    while not (state.phase is Phase.DEALING and state.street_index == 4):
        if state.phase is Phase.DEALING:
            dealer.deal(1)
        else:
            dealer.record(Acted(seat=state.to_act[0], action=Action.CALL))
        state = dealer.state
    dealer.deal(2)  # the burn, then seat 1's seventh card, face down
    return dealer


def test_553_16_k_1_a_seventh_card_exposed_the_player_may_end_his_wagering():
    dealer = _to_seventh_street()
    seventh = dealer.state.cards[1][-1][0]
    dealer.irregular(Irregularity.SEVENTH_CARD_EXPOSED_WAGERING_ENDED, seat=1, cards=str(seventh))
    dealer.deal(2)
    assert dealer.state.phase is Phase.BETTING and 1 not in dealer.state.to_act
    first, second = dealer.state.to_act
    dealer.record(Acted(seat=first, action=Action.BET, to_cents=400))
    dealer.record(Acted(seat=second, action=Action.CALL))
    while dealer.state.phase is Phase.SHOWDOWN:
        state = dealer.state
        dealer.record(Shown(seat=state.showdown_order[len(state.shown)]))
    pots = settle(dealer.state).pots
    # Seat 1 contends only for the pot formed before the last round's wagers.
    assert [pot.eligible for pot in pots] == [(1, 2, 3), (2, 3)] and pots[1].amount_cents == 800


def test_553_16_k_2_by_default_a_seventh_card_exposed_contends_for_the_entire_pot():
    dealer = _to_seventh_street()
    seventh = dealer.state.cards[1][-1][0]
    dealer.irregular(Irregularity.HOLE_CARD_EXPOSED, seat=1, cards=str(seventh)).deal(2)
    assert 1 in dealer.state.to_act


def test_553_16_k_1_only_a_stud_seventh_card_ends_the_wagering():
    dealer = Dealer().deal(4)
    events = [*dealer.events, IrregularityFound(
        kind=Irregularity.SEVENTH_CARD_EXPOSED_WAGERING_ENDED, seat=1, cards=parse_cards("Ah"))]
    (finding,) = replay_hand(events).findings
    assert finding.section == "553.16(k)(1)"
