"""The blackjack chapters' dealing shoe (tables.rules.shoe), § 581, § 590, § 591."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tables.rules.cards import STANDARD_DECK, Card, Rank
from tables.rules.engine import RuleViolation
from tables.rules.shoe import Destination, Reshuffle, Shoe, ShoePhase, shoe_spec

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _card(text: str) -> Card:
    return Card.parse(text)


def _ordered(spec, seed: int = 7) -> list[Card]:
    cards = [card for card in STANDARD_DECK for _ in range(spec.composition[card.index])]
    random.Random(seed).shuffle(cards)
    return cards


def _dealing(chapter="590", decks=1, seed=7, cut_at=10, cover_at=None):
    """A shoe shuffled into a known order, cut, its first card burned, a round open."""
    spec = shoe_spec(chapter, None if chapter == "581" else decks)
    order = _ordered(spec, seed)
    cover_at = spec.size * 3 // 4 if cover_at is None else cover_at
    shoe = Shoe.opened(spec).shuffle(order).cut(cut_at=cut_at, cover_at=cover_at)
    return shoe.burn().begin_round(), order[cut_at:] + order[:cut_at]


def _refused(section: str, action, *args, **kwargs) -> RuleViolation:
    with pytest.raises(RuleViolation) as caught:
        action(*args, **kwargs)
    assert caught.value.section == section
    return caught.value


# ---- the batch (§ 5xx.3) ---------------------------------------------------------------


def test_581_3_a_the_batch_is_eight_spanish_decks_without_10s():
    spec = shoe_spec("581")
    assert (spec.decks, spec.size) == (8, 384)
    assert all(spec.composition[card.index] == (0 if card.rank is Rank.TEN else 8)
               for card in STANDARD_DECK)  # fmt: skip
    _refused("581.3(a)", shoe_spec, "581", 6)


def test_581_3_b_1_two_batches_are_eight_decks_each():
    assert shoe_spec("581", two_batches=True).size == 384
    _refused("581.3(b)(1)", shoe_spec, "581", 4, two_batches=True)


@pytest.mark.parametrize("chapter", ["590", "591"])
def test_590_591_3_a_any_number_of_standard_decks_from_one(chapter):
    assert shoe_spec(chapter, 6).size == 312
    assert shoe_spec(chapter, 1).composition == (1,) * 52
    _refused(f"{chapter}.3(a)", shoe_spec, chapter, 0)


def test_581_3_a_a_10_cannot_come_out_of_a_spanish_batch():
    shoe, _ = _dealing("581", cut_at=100, cover_at=250)
    error = _refused("581.3(a)", shoe.draw, _card("Td"))
    assert "no 10s" in error.reason


def test_590_3_a_a_sixth_ace_of_spades_cannot_come_out_of_a_five_deck_shoe():
    spec = shoe_spec("590", 5)
    shoe = Shoe.opened(spec).shuffle().cut(cut_at=50, cover_at=150).burn(_card("2c"))
    shoe = shoe.begin_round()
    for _ in range(5):
        shoe = shoe.draw(_card("As"))
    _refused("590.3(a)", shoe.draw, _card("As"))


def test_590_3_b_4_the_two_batches_alternate_shoe_by_shoe():
    spec = shoe_spec("590", 2, two_batches=True)
    shoe = Shoe.opened(spec)
    _refused("590.3(b)(1)", shoe.shuffle)
    shoe = shoe.shuffle(batch=0).cut(cut_at=20, cover_at=60).burn().begin_round().end_round()
    shoe = shoe.collect(Reshuffle.DIRECTED)
    _refused("590.3(b)(4)", shoe.shuffle, batch=0)
    assert shoe.shuffle(batch=1).batch == 1


def test_591_3_a_a_shuffled_order_must_be_the_batch():
    spec = shoe_spec("591", 1)
    order = _ordered(spec)
    _refused("591.3(a)", Shoe.opened(spec).shuffle, order[:-1] + [order[0]])


# ---- the cut (§ 5xx.5(d)) --------------------------------------------------------------


def test_581_5_d_the_cut_is_at_least_ten_cards_from_the_top_or_bottom():
    shoe = Shoe.opened(shoe_spec("581")).shuffle()
    _refused("581.5(d)", shoe.cut, cut_at=9, cover_at=200)
    _refused("581.5(d)", shoe.cut, cut_at=375, cover_at=200)
    assert shoe.can_cut(cut_at=10, cover_at=200) and shoe.can_cut(cut_at=374, cover_at=200)


def test_581_5_d_the_cover_card_is_at_least_a_quarter_in_from_the_bottom():
    shoe = Shoe.opened(shoe_spec("581")).shuffle()
    assert shoe.cut(cut_at=100, cover_at=288).cover_at == 288  # 96 = 384 / 4 below it
    error = _refused("581.5(d)", shoe.cut, cut_at=100, cover_at=289)
    assert error.field == "cover_at"


def test_590_5_d_a_quarter_of_an_odd_stack_is_rounded_towards_the_bottom_card():
    spec = shoe_spec("590", 1)
    shoe = Shoe.opened(spec).shuffle()
    # 52 cards: 13 must lie below the cover card.
    assert shoe.can_cut(cut_at=20, cover_at=39) and not shoe.can_cut(cut_at=20, cover_at=40)


def test_590_5_d_the_cut_moves_the_cards_above_it_to_the_bottom():
    spec = shoe_spec("590", 1)
    order = _ordered(spec)
    shoe = Shoe.opened(spec).shuffle(order).cut(cut_at=12, cover_at=30)
    assert shoe.order == tuple(order[12:] + order[:12])
    assert shoe.next_card == order[12]


def test_590_5_e_a_floorperson_may_have_the_stack_recut_before_play():
    spec = shoe_spec("590", 1)
    order = _ordered(spec)
    shoe = Shoe.opened(spec).shuffle(order).cut(cut_at=12, cover_at=30)
    recut = shoe.cut(cut_at=20, cover_at=35)
    assert recut.order == tuple(order[32:] + order[:32]) and recut.burns_due == 1
    _refused("590.5(e)", recut.burn().cut, 20, 35)


def test_590_5_b_no_cut_before_the_shuffle():
    _refused("590.5(b)", Shoe.opened(shoe_spec("590", 1)).cut, cut_at=20, cover_at=30)


# ---- burns (§ 5xx.7(c)) ----------------------------------------------------------------


def test_591_7_c_the_first_card_of_a_full_batch_is_burned_before_any_deal():
    spec = shoe_spec("591", 1)
    order = _ordered(spec)
    shoe = Shoe.opened(spec).shuffle(order).cut(cut_at=10, cover_at=30).begin_round()
    _refused("591.7(c)", shoe.draw, order[10])
    shoe = shoe.burn()
    assert shoe.discard[order[10].index] == 1 and shoe.next_card == order[11]
    assert shoe.draw(order[11]).on_table[order[11].index] == 1


def test_591_7_c_each_new_dealer_burns_one_card():
    shoe, order = _dealing("591")
    shoe = shoe.end_round().dealer_changed().begin_round()
    _refused("591.7(c)", shoe.draw, order[1])
    assert shoe.burn().draw(order[2]).cards_left == 52 - 3


def test_581_7_c_no_burn_is_due_without_a_fresh_batch_or_a_new_dealer():
    shoe, _ = _dealing("581", cut_at=100, cover_at=250)
    _refused("581.7(c)", shoe.burn)


def test_590_7_c_an_unseen_burn_stays_unaccounted_for():
    spec = shoe_spec("590", 1)
    shoe = Shoe.opened(spec).shuffle().cut(cut_at=10, cover_at=30).burn()
    assert shoe.unseen_burns == 1 and sum(shoe.unaccounted) == 52
    assert shoe.cards_left == 51


# ---- the cover card (§ 5xx.7(d), § 5xx.5(f)) -------------------------------------------


def test_590_7_d_the_cover_card_reached_mid_round_finishes_the_round_then_reshuffles():
    shoe, order = _dealing("590", cover_at=39)  # the burn took one: 38 more before the cover
    for card in order[1:39]:
        shoe = shoe.draw(card)
    assert not shoe.cover_reached
    shoe = shoe.draw(order[39]).draw(order[40])  # the cover card came out first; play goes on
    assert shoe.cover_reached and shoe.phase is ShoePhase.DEALING
    shoe = shoe.end_round()
    assert shoe.phase is ShoePhase.RESHUFFLE_DUE
    _refused("590.7(d)", shoe.begin_round)
    shoe = shoe.collect()
    assert shoe.phase is ShoePhase.COLLECTED and shoe.unaccounted == shoe.spec.composition


def test_591_7_d_the_cover_card_first_at_a_round_is_played_through():
    shoe, order = _dealing("591", cover_at=39)
    for card in order[1:39]:
        shoe = shoe.draw(card)
    shoe = shoe.end_round().begin_round()  # the cover card is the next thing in the shoe
    shoe = shoe.draw(order[39])
    assert shoe.cover_reached
    assert shoe.end_round().phase is ShoePhase.RESHUFFLE_DUE


def test_581_5_f_a_floorperson_may_direct_a_reshuffle_after_any_round():
    shoe, _ = _dealing("581", cut_at=100, cover_at=250)
    _refused("581.7(d)", shoe.collect, Reshuffle.DIRECTED)  # not in the middle of a round
    shoe = shoe.end_round()
    _refused("581.5(f)", shoe.collect)
    assert shoe.collect(Reshuffle.DIRECTED).phase is ShoePhase.COLLECTED
    assert shoe.collect(Reshuffle.IDLE_TABLE).phase is ShoePhase.COLLECTED  # § 581.5(g)
    _refused("581.5(g)", shoe.collect(Reshuffle.IDLE_TABLE).collect, Reshuffle.IDLE_TABLE)


# ---- too few cards (§ 581.13(e), § 590.13(f), § 591.13(f)) -----------------------------


@pytest.mark.parametrize(("chapter", "section"), [("590", "590.13(f)"), ("591", "591.13(f)")])
def test_13_f_an_empty_shoe_reshuffles_the_discard_rack_to_finish_the_round(chapter, section):
    shoe, order = _dealing(chapter, cover_at=39)
    for card in order[1:20]:
        shoe = shoe.draw(card)
    shoe = shoe.end_round().begin_round()  # 20 cards in the rack (burn + 19)
    _refused(section, shoe.reshuffle_discards)  # cards are still in the shoe
    for card in order[20:]:
        shoe = shoe.draw(card)
    _refused(section, shoe.draw, order[0])
    shoe = shoe.reshuffle_discards()
    assert shoe.size == 20 and shoe.phase is ShoePhase.COLLECTED
    rack = order[:20]
    shoe = shoe.shuffle(rack).cut(cut_at=10, cover_at=10)
    _refused(f"{chapter}.7(c)", shoe.draw, rack[10])  # the first card goes face down to the rack
    shoe = shoe.burn().draw(rack[11])
    assert shoe.end_round().phase is ShoePhase.RESHUFFLE_DUE


def test_581_13_e_the_round_short_of_cards_cites_581_13_e():
    shoe, _ = _dealing("581", cut_at=100, cover_at=250)
    _refused("581.13(e)", shoe.reshuffle_discards)


# ---- cards not used (§ 5xx.13(a), (d)) and the rack (§ 5xx.7(q)/(s)/(u)) ---------------


def test_590_13_a_a_card_found_face_up_in_the_shoe_goes_to_the_discard_rack():
    shoe, order = _dealing("590")
    shoe = shoe.draw(order[1], Destination.DISCARD)
    assert shoe.discard[order[1].index] == 1 and shoe.on_table[order[1].index] == 0


def test_581_7_q_the_rounds_cards_go_to_the_discard_rack():
    shoe, order = _dealing("581", cut_at=100, cover_at=250)
    shoe = shoe.draw(order[1]).draw(order[2])
    shoe = shoe.end_round()
    assert sum(shoe.on_table) == 0 and sum(shoe.discard) == 3  # the burn and the two dealt
    _refused("581.7(q)", shoe.end_round)


# ---- replay -----------------------------------------------------------------------------


def test_replay_knows_the_next_card_and_flags_one_out_of_order():
    shoe, order = _dealing("590")
    assert shoe.next_card == order[1]
    shoe, findings = shoe.replay_draw(order[2])
    assert [(finding.section, finding.field) for finding in findings] == [("590.7(a)", "card")]
    assert shoe.next_card is None  # the recorded order no longer holds


def test_replay_flags_a_card_the_shoe_could_not_hold_and_keeps_it_aside():
    spec = shoe_spec("590", 1)
    shoe = Shoe.opened(spec).shuffle().cut(cut_at=10, cover_at=30).burn(_card("Ah"))
    shoe, findings = shoe.begin_round().replay_draw(_card("Ah"))
    assert [finding.section for finding in findings] == ["590.3(a)"]
    assert shoe.foreign == 1 and shoe.cards_left == 50


def test_replay_flags_a_skipped_burn_and_a_deal_past_the_cover_card():
    spec = shoe_spec("591", 1)
    order = _ordered(spec)
    shoe = Shoe.opened(spec).shuffle(order).cut(cut_at=10, cover_at=39).begin_round()
    shoe, findings = shoe.replay_draw(order[10])
    assert [finding.section for finding in findings] == ["591.7(c)"]
    for card in (order[11:] + order[:10])[:39]:
        shoe = shoe.draw(card)
    shoe = shoe.end_round()
    shoe, findings = shoe.replay_draw((order[11:] + order[:10])[39])
    assert [finding.section for finding in findings] == ["591.7(d)", "591.7(a)"]


# ---- properties -------------------------------------------------------------------------


def _conserved(shoe: Shoe) -> None:
    """Every card of the batch is somewhere: unaccounted, on the layout or in the rack."""
    total = tuple(a + b + c for a, b, c in zip(shoe.unaccounted, shoe.on_table, shoe.discard,
                                               strict=True))  # fmt: skip
    assert total == shoe.spec.composition
    if shoe.phase is ShoePhase.DEALING:
        assert sum(shoe.unaccounted) == shoe.cards_left + shoe.unseen_burns


@SETTINGS
@given(
    seed=st.integers(min_value=0, max_value=2**32 - 1),
    chapter=st.sampled_from(["581", "590", "591"]),
    decks=st.integers(min_value=1, max_value=8),
)
def test_cards_are_conserved_through_rounds_burns_and_reshuffles(seed, chapter, decks):
    """§ 5xx.7(c), (d), § 5xx.13: no card appears or vanishes, shoe after shoe."""
    rng = random.Random(seed)
    spec = shoe_spec(chapter, None if chapter == "581" else decks)
    shoe = Shoe.opened(spec)
    for _shoe_number in range(2):
        order = _ordered(spec, rng.randrange(10**6)) if rng.random() < 0.5 else None
        shoe = shoe.shuffle(order)
        cut_at = rng.randint(10, spec.size - 10)
        shoe = shoe.cut(cut_at=cut_at, cover_at=rng.randint(0, spec.size * 3 // 4))
        _conserved(shoe)
        while shoe.phase is ShoePhase.DEALING:
            if rng.random() < 0.1:
                shoe = shoe.dealer_changed()
            while shoe.burns_due and shoe.cards_left:
                shoe = shoe.burn()
            shoe = shoe.begin_round()
            for _card_number in range(rng.randint(4, min(30, spec.size // 4))):
                if not shoe.cards_left:
                    shoe = shoe.reshuffle_discards().shuffle()
                    shoe = shoe.cut(cut_at=10, cover_at=shoe.size // 2).burn()
                card = shoe.next_card or rng.choice(
                    [c for c in STANDARD_DECK if shoe.unaccounted[c.index]]
                )
                shoe = shoe.draw(card)
                _conserved(shoe)
            shoe = shoe.end_round()
            _conserved(shoe)
        assert shoe.phase is ShoePhase.RESHUFFLE_DUE
        shoe = shoe.collect()
        _conserved(shoe)


def test_590_7_c_a_new_dealer_at_a_fresh_batch_burns_twice():
    """§ 590.7(c) read literally: one card for the full batch and one for the new dealer."""
    spec = shoe_spec("590", 1)
    shoe = Shoe.opened(spec).dealer_changed().shuffle().cut(cut_at=10, cover_at=30)
    assert shoe.burns_due == 2
    assert shoe.burn().burn().burns_due == 0


def test_590_3_b_5_a_round_short_of_cards_reshuffles_the_rack_of_the_batch_in_play():
    spec = shoe_spec("590", 1, two_batches=True)
    order = _ordered(spec)
    shoe = Shoe.opened(spec).shuffle(order, batch=0).cut(cut_at=10, cover_at=39)
    stack = order[10:] + order[:10]
    shoe = shoe.burn().begin_round()
    for card in stack[1:31]:
        shoe = shoe.draw(card)
    shoe = shoe.end_round().begin_round()
    for card in stack[31:]:
        shoe = shoe.draw(card)
    shoe = shoe.reshuffle_discards().shuffle()  # the rack of batch 0: no batch to name
    assert shoe.batch == 0 and shoe.size == 31
    shoe = shoe.cut(cut_at=10, cover_at=15).burn()
    card = next(card for card in STANDARD_DECK if shoe.unaccounted[card.index])
    shoe = shoe.draw(card).end_round()
    shoe = shoe.collect()
    assert shoe.previous_batch == 0
    _refused("590.3(b)(4)", shoe.shuffle, batch=0)


@pytest.mark.parametrize(("chapter", "section"), [("581", "581.13(j)"), ("590", "590.13(k)")])
def test_13_j_k_a_failed_shuffler_reshuffles_the_cards(chapter, section):
    spec = shoe_spec(chapter, None if chapter == "581" else 2)
    stacked = Shoe.opened(spec).shuffle()
    collected = stacked.collect(Reshuffle.SHUFFLER_FAILED)
    assert collected.phase is ShoePhase.COLLECTED and collected.can_shuffle()
    _refused(section, collected.collect, Reshuffle.SHUFFLER_FAILED)
