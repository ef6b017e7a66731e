"""Hands in and out of PHH (pokerkit's hand history format): our hands come back exactly,
pokerkit plays what we write to the same end, and a history without burn cards replays."""

from __future__ import annotations

import dataclasses
import random

import pytest
from pokerkit import HandHistory

from tables.rules.engine import RuleViolation
from tables.rules.poker_room.phh import PHH_VARIANTS, from_phh, to_phh
from tables.rules.poker_room.replay import replay_hand
from tables.rules.poker_room.rules import FIVE_CARD_DRAW_HIGH, HOLDEM, VARIANTS, Structure
from tables.rules.poker_room.rulesets import poker_ruleset
from tables.rules.poker_room.simulate import random_hand
from tests.rules.poker_room.differential import Refused, in_pokerkit, rule_set
from tests.rules.poker_room.test_replay_553 import _side_pot_hand

PHH_GAMES = [
    (variant, structure)
    for variant in VARIANTS
    for structure in Structure
    if (variant.name, structure) in PHH_VARIANTS
]


def test_553_a_hand_with_side_pots_rake_and_bad_beat_comes_back_exactly():
    events = _side_pot_hand().settled()
    rules = poker_ruleset("PA-553-HOLDEM-NL-1-2-BB")
    text = to_phh(events, rules)
    assert 'variant = "NT"' in text and "p3 cbr 600" in text and 'd db AsTh2s' not in text
    back = from_phh(text, rules)
    assert back.burns_known and list(back.events) == events
    assert replay_hand(back.events).findings == ()


@pytest.mark.parametrize(("variant", "structure"), PHH_GAMES, ids=lambda v: getattr(v, "name", v))
def test_random_hands_of_every_phh_game_come_back_exactly(variant, structure):
    rules = rule_set(variant, structure)
    rng = random.Random(7)
    for _ in range(15):
        events = random_hand(rules, rng).settled()
        assert list(from_phh(to_phh(events, rules), rules).events) == events


@pytest.mark.parametrize(("variant", "structure"), PHH_GAMES, ids=lambda v: getattr(v, "name", v))
def test_pokerkit_reads_our_histories_and_ends_where_it_plays_them(variant, structure):
    # pokerkit's limit games cap a betting round at a bet and three raises.
    rules = dataclasses.replace(rule_set(variant, structure), max_raises=3)
    rng = random.Random(11)
    read = 0
    for _ in range(15):
        hand = random_hand(rules, rng)
        try:
            expected = in_pokerkit(rules, hand)
        except Refused:
            continue
        history = HandHistory.loads(to_phh(hand.events, rules))
        *_, final = iter(history)
        seats = history.seats
        starting = dict(zip(seats, history.starting_stacks, strict=True))
        assert {seat: final.stacks[i] - starting[seat] for i, seat in enumerate(seats)} == dict(
            sorted(expected.items()))  # fmt: skip
        read += 1
    assert read >= 12


def test_553_a_history_without_burn_cards_replays_with_placeholder_burns():
    events = _side_pot_hand().settled()
    rules = poker_ruleset("PA-553-HOLDEM-NL-1-2-BB")
    text = "".join(line + "\n" for line in to_phh(events, rules).splitlines()
                   if not line.startswith("_burnt_cards"))  # fmt: skip
    back = from_phh(text, rules)
    assert not back.burns_known
    result = replay_hand(back.events)
    assert result.complete and result.findings == ()
    assert result.settlement == replay_hand(events).settlement


def test_553_9_a_a_history_of_another_game_is_refused():
    events = _side_pot_hand().settled()
    text = to_phh(events, poker_ruleset("PA-553-HOLDEM-NL-1-2-BB"))
    with pytest.raises(RuleViolation, match="553.9"):
        from_phh(text, rule_set(HOLDEM, Structure.LIMIT))
    with pytest.raises(ValueError, match="PHH has no code"):
        to_phh(events, rule_set(FIVE_CARD_DRAW_HIGH, Structure.LIMIT))


def _settled(dealer) -> list:
    from tables.rules.poker_room.events import HandClosed
    from tables.rules.poker_room.replay import dealer_events
    from tables.rules.poker_room.settlement import settle

    return [*dealer.events, *dealer_events(settle(dealer.state)), HandClosed()]


def _irregular_holdem_hand():
    """§ 553.16(h), (n), (f): a card found face up in the deck before the hole cards are all
    dealt, a hole card exposed and exchanged, a card dealt to an ineligible player on the
    flop; the hand played through to the showdown and settled."""
    from tables.rules.poker_room.events import Acted, Action, Irregularity, Shown
    from tests.rules.poker_room.test_irregularities_553_16 import Dealer

    dealer = Dealer().deal(1).irregular(Irregularity.CARD_FACE_UP_IN_DECK, cards="2c").deal(5)
    exposed = str(dealer.state.cards[1][1][0])
    dealer.irregular(Irregularity.HOLE_CARD_EXPOSED, seat=1, cards=exposed).deal(1)
    for seat, action in ((3, Action.CALL), (1, Action.CALL), (2, Action.CHECK)):
        dealer.record(Acted(seat=seat, action=action))
    dealer.deal(4).irregular(Irregularity.INELIGIBLE_PLAYER_DEALT, cards="2h")
    for cards in (0, 2, 2):
        dealer.deal(cards)
        for seat in (1, 2, 3):
            dealer.record(Acted(seat=seat, action=Action.CHECK))
    for seat in dealer.state.showdown_order:
        dealer.record(Shown(seat=seat))
    return _settled(dealer)


def _void_holdem_hand(kind):
    """§ 553.16(g), (e)(1), (i)(3): the round voided, or a protected hand killed, after
    the betting began; the dealer returns the chips."""
    from tables.rules.poker_room.events import Acted, Action, Irregularity
    from tests.rules.poker_room.test_irregularities_553_16 import Dealer

    dealer = Dealer().deal(6).record(Acted(seat=3, action=Action.RAISE, to_cents=600))
    dealer.record(Acted(seat=1, action=Action.CALL))
    seat = 1 if kind is Irregularity.PROTECTED_HAND_KILLED else None
    dealer.irregular(kind, seat=seat)
    if seat is not None:
        dealer.record(Acted(seat=2, action=Action.FOLD))
    return _settled(dealer)


def test_553_16_a_hands_irregularities_come_back_from_phh_in_place_and_replay_clean():
    """§ 553.16(f), (h), (n): the irregularities ride in the ``_irregularities`` field at
    their place among the events; the remedies replay and the hand settles as before."""
    events = _irregular_holdem_hand()
    rules = poker_ruleset("PA-553-HOLDEM-NL-1-2-BB")
    text = to_phh(events, rules)
    assert ('_irregularities = ["4 card_face_up_in_deck 2c", "10 hole_card_exposed p1 Js", '
            '"19 ineligible_player_dealt 2h"]\n') in text
    back = from_phh(text, rules)
    assert list(back.events) == events
    result = replay_hand(back.events)
    assert result.complete and result.findings == ()
    # pokerkit keeps the field as one of the history's user-defined fields.
    kept = HandHistory.loads(text).user_defined_fields["_irregularities"]
    assert kept[1] == "10 hole_card_exposed p1 Js"


@pytest.mark.parametrize("kind", ["cards_missing", "cards_extra", "not_shuffled_or_cut",
                                  "protected_hand_killed"])  # fmt: skip
def test_553_16_g_a_voided_or_refunded_hand_comes_back_from_phh_with_its_remedy(kind):
    """§ 553.16(g): missing or extra cards void the round, the pot returned (so a misdeal,
    § 553.16(e)(1)); § 553.16(i)(3): a protected hand killed is refunded. Without the
    irregularity the hand would read as unfinished, its chips returned for nothing."""
    from tables.rules.poker_room.events import Irregularity, IrregularityFound

    events = _void_holdem_hand(Irregularity(kind))
    rules = poker_ruleset("PA-553-HOLDEM-NL-1-2-BB")
    back = from_phh(to_phh(events, rules), rules)
    assert list(back.events) == events
    result = replay_hand(back.events)
    assert result.complete and result.findings == ()
    bare = [event for event in events if not isinstance(event, IrregularityFound)]
    assert not replay_hand(bare).complete


def test_553_16_k_a_seven_stud_hand_with_both_hole_cards_exposed_comes_back_from_phh():
    """§ 553.16(k): both hole cards exposed void the player's hand, his Ante returned; the
    history read back deals the others as the remedy left them."""
    from tables.rules.poker_room.events import Irregularity
    from tests.rules.poker_room.test_irregularities_553_16 import STUD, Dealer

    dealer = Dealer(STUD, button=None).deal(1)
    dealer.irregular(Irregularity.HOLE_CARD_EXPOSED, seat=1, cards="Ah").deal(3)
    dealer.irregular(Irregularity.HOLE_CARD_EXPOSED, seat=1, cards="Js").deal(4)
    rules = poker_ruleset(STUD)
    back = from_phh(to_phh(dealer.events, rules), rules)
    assert list(back.events) == dealer.events
    assert 1 in replay_hand(back.events).state.folded


@pytest.mark.parametrize(("entry", "match"), [
    ('"x cards_missing"', "INDEX KIND"),
    ('"9 cards_lost"', "cards_lost"),
    ('"9 hole_card_exposed p1"', "'cards' is required"),
    ('"900 cards_missing"', "past the hand's"),
])  # fmt: skip
def test_553_16_a_bad_irregularities_entry_is_refused_naming_the_field(entry, match):
    rules = poker_ruleset("PA-553-HOLDEM-NL-1-2-BB")
    text = to_phh(_side_pot_hand().settled(), rules) + f"_irregularities = [{entry}]\n"
    with pytest.raises(RuleViolation, match=match) as refused:
        from_phh(text, rules)
    assert (refused.value.section, refused.value.field) == ("553.16", "_irregularities")


def test_553_16_f_h_a_history_without_burns_keeps_the_irregularities_cards_out_of_them():
    """§ 553.16(f), (h): a card found face up in the deck or dealt to an ineligible player
    is not used, so no placeholder burn may take it (the flop's would take 2h): the hand
    read without ``_burnt_cards`` still replays clean."""
    events = _irregular_holdem_hand()
    rules = poker_ruleset("PA-553-HOLDEM-NL-1-2-BB")
    text = "".join(line + "\n" for line in to_phh(events, rules).splitlines()
                   if not line.startswith("_burnt_cards"))  # fmt: skip
    result = replay_hand(from_phh(text, rules).events)
    assert result.complete and result.findings == ()
    assert result.settlement == replay_hand(events).settlement
