"""Low hands (§ 553.4(c)-(e)) and the eight-or-better qualifier (§ 553.10(j), § 553.12(k))."""

from __future__ import annotations

from collections import Counter
from itertools import combinations_with_replacement
from math import comb, prod

from tables.rules.cards import Card, Rank, Suit, parse_cards
from tables.rules.poker_room.lows import (
    LowCategory,
    LowTieBreak,
    best_low,
    best_omaha_low,
    evaluate_low,
)


def _low(text: str, tie_break: LowTieBreak = LowTieBreak.WORST_CARD_FIRST):
    return evaluate_low(parse_cards(text), tie_break)


def test_553_4_c_the_ace_is_the_best_low_card_and_the_wheel_the_best_low():
    assert _low("As 2d 3c 4h 5s") > _low("2s 3d 4c 5h 6s") > _low("Ks Qd Jc 9h 8s")


def test_553_4_d_straights_and_flushes_do_not_count_for_low():
    # § 553.10(k)(1)-(2): a 2-3-4-5-6 straight and an eight-low flush are good lows.
    assert _low("2h 3h 4h 5h 6h") == _low("2c 3d 4h 5s 6c")
    assert _low("8s 6s 4s 3s As").qualifies_eight_or_better


def test_553_4_d_pairs_rank_below_any_unpaired_low_inverting_the_high_ranks():
    assert _low("Ks Qd Jc 9h 8s") > _low("As Ad 2c 3h 4s")
    assert _low("As Ad 2c 3h 4s") > _low("As Ad 2c 2h 4s")  # one pair beats two pairs
    assert _low("As Ad 2c 2h 4s") > _low("As Ad Ac 2h 3s")  # two pairs beat three of a kind
    categories = [_low(text).category for text in ("Ks Kd Kc Kh 2s", "3s 3d 3c 2h 2s")]
    assert categories == [LowCategory.FOUR_OF_A_KIND, LowCategory.FULL_HOUSE]


def test_553_4_e_as_played_the_hand_with_the_lower_worst_card_wins():
    assert _low("7c 6d 5c 4h 3s") > _low("8c 5d 4c 3h 2s")
    assert _low("8c 6d 4c 3h 2s") > _low("8c 6d 5c 3h 2s")
    assert _low("8c 6d 4c 3h 2s") == _low("8d 6h 4s 3c 2d")  # suits are equal: a tie


def test_553_4_e_read_literally_the_highest_unshared_card_of_subsection_c_wins():
    literal = LowTieBreak.LITERAL_553_4_E
    # 5-4-3 are shared; 8-5-4-3-2 keeps the 2, which § 553.4(c) ranks above the 7 and 6.
    assert _low("8c 5d 4c 3h 2s", literal) > _low("7c 6d 5c 4h 3s", literal)
    assert _low("As 2d 3c 4h 5s", literal) > _low("As 2d 3c 4h 6s", literal)


def test_553_10_j_eight_or_better_excludes_pairs_and_nines_to_kings():
    assert _low("8c 7d 6c 5h 4s").qualifies_eight_or_better
    assert not _low("9c 4d 3c 2h As").qualifies_eight_or_better
    assert not _low("8c 8d 3c 2h As").qualifies_eight_or_better


def _every_rank_multiset():
    """Each multiset of five ranks (no rank more than four times) with the number of hands
    holding it: suits being equal in low (§ 553.4(c)), one hand per multiset stands for all."""
    suits = "cdhs"
    for ranks in combinations_with_replacement(list(Rank), 5):
        counts = Counter(ranks)
        if max(counts.values()) > 4:
            continue
        cards = [Card(rank, Suit(suits[n])) for rank, k in counts.items() for n in range(k)]
        yield evaluate_low(cards), prod(comb(4, k) for k in counts.values())


def test_553_10_j_exactly_56_rank_sets_qualify_for_eight_or_better():
    # Five distinct ranks among A-8 (C(8, 5) = 56), each card in four suits: 56 x 4^5.
    qualifying = [(hand, ways) for hand, ways in _every_rank_multiset()
                  if hand.qualifies_eight_or_better]  # fmt: skip
    assert len(qualifying) == 56
    assert sum(ways for _, ways in qualifying) == 56 * 4**5 == 57_344


def test_553_4_d_every_five_card_low_falls_into_its_category():
    counts: Counter[LowCategory] = Counter()
    for hand, ways in _every_rank_multiset():
        counts[hand.category] += ways
    assert sum(counts.values()) == 2_598_960
    assert counts == {
        LowCategory.NO_PAIR: 1_317_888,
        LowCategory.ONE_PAIR: 1_098_240,
        LowCategory.TWO_PAIRS: 123_552,
        LowCategory.THREE_OF_A_KIND: 54_912,
        LowCategory.FULL_HOUSE: 3_744,
        LowCategory.FOUR_OF_A_KIND: 624,
    }


def test_553_4_d_the_6175_rank_multisets_are_totally_ordered_with_the_wheel_best():
    hands = sorted(hand for hand, _ in _every_rank_multiset())
    assert len(hands) == len(set(hands)) == 6_175
    assert str(hands[-1]) == "5-4-3-2-A" and hands[0].category is LowCategory.FOUR_OF_A_KIND


def test_553_10_k_l_the_best_low_of_seven_cards_may_reuse_the_high_cards():
    cards = parse_cards("Ah 2h 3h 4h 5h Kd Kc")
    low = best_low(cards, eight_or_better=True)
    assert low is not None and str(low) == "5-4-3-2-A"


def test_553_4_e_read_literally_a_nine_low_outranks_an_eight_low_but_does_not_qualify():
    literal = LowTieBreak.LITERAL_553_4_E
    nine_low, eight_low = _low("9c 4d 3h 2s Ac", literal), _low("8c 7d 6h 5s 4c", literal)
    assert nine_low > eight_low
    assert not nine_low.qualifies_eight_or_better and eight_low.qualifies_eight_or_better
    cards = parse_cards("9c 4d 3h 2s Ac Kd Kh")
    assert best_low(cards, eight_or_better=True, tie_break=literal) is None


def test_553_12_l_1_omaha_lows_use_exactly_two_hole_and_three_board_cards():
    # Four low hole cards but only two may play; the board gives the other three.
    assert best_omaha_low(parse_cards("Ac 2d 3h 4s"), parse_cards("Kc Qd Jh 8s 7c"),
                          eight_or_better=True) is None  # fmt: skip
    low = best_omaha_low(
        parse_cards("Ac 2d Kh Ks"), parse_cards("3c 4d 5h Qs Qc"), eight_or_better=True
    )
    assert low is not None and str(low) == "5-4-3-2-A"
