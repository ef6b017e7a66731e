"""Hand evaluators (tables.rules.hands).

Five-card hands: Pennsylvania Criss-Cross Poker § 592.6 (temporary, 2014) and
§ 674a.6 (final), and Massachusetts Double Cross Poker Section 5(a), (b).
Three-card hands: Double Cross Poker Section 5(c).
Each test is named after the section it proves.
"""

from collections import Counter
from collections.abc import Sequence
from itertools import combinations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tables.rules.cards import STANDARD_DECK, Card, Rank, parse_cards
from tables.rules.hands import (
    FiveCardCategory,
    FiveCardHand,
    ThreeCardCategory,
    ThreeCardHand,
    best_five_of,
    evaluate_five,
    evaluate_three,
    five_card_strength,
    three_card_strength,
)

Five = FiveCardCategory
Three = ThreeCardCategory


def five(text: str) -> FiveCardHand:
    """Evaluate five cards written as text."""
    return evaluate_five(parse_cards(text))


def three(text: str) -> ThreeCardHand:
    """Evaluate three cards written as text."""
    return evaluate_three(parse_cards(text))


# Published counts over all C(52, 5) = 2,598,960 five-card hands.
FIVE_CARD_COUNTS = {
    Five.ROYAL_FLUSH: 4,
    Five.STRAIGHT_FLUSH: 36,
    Five.FOUR_OF_A_KIND: 624,
    Five.FULL_HOUSE: 3_744,
    Five.FLUSH: 5_108,
    Five.STRAIGHT: 10_200,
    Five.THREE_OF_A_KIND: 54_912,
    Five.TWO_PAIR: 123_552,
    Five.PAIR: 1_098_240,
    Five.HIGH_CARD: 1_302_540,
}
# Distinct hand values (equivalence classes) per category, 7,462 in all.
FIVE_CARD_CLASSES = {
    Five.ROYAL_FLUSH: 1,
    Five.STRAIGHT_FLUSH: 9,
    Five.FOUR_OF_A_KIND: 156,
    Five.FULL_HOUSE: 156,
    Five.FLUSH: 1_277,
    Five.STRAIGHT: 10,
    Five.THREE_OF_A_KIND: 858,
    Five.TWO_PAIR: 858,
    Five.PAIR: 2_860,
    Five.HIGH_CARD: 1_277,
}
# Counts over all C(52, 3) = 22,100 three-card hands (A-2-3 and Q-K-A straights).
THREE_CARD_COUNTS = {
    Three.STRAIGHT_FLUSH: 48,
    Three.THREE_OF_A_KIND: 52,
    Three.STRAIGHT: 720,
    Three.FLUSH: 1_096,
    Three.PAIR: 3_744,
    Three.HIGH_CARD: 16_440,
}


# --- Five-card hands: exhaustive enumeration -------------------------------------------


@pytest.mark.slow
def test_592_6_b_every_five_card_hand_falls_in_its_published_category() -> None:
    counts: Counter[FiveCardCategory] = Counter()
    strengths_by_category: dict[FiveCardCategory, set[int]] = {category: set() for category in Five}
    for cards in combinations(STANDARD_DECK, 5):
        hand = evaluate_five(cards)
        counts[hand.category] += 1
        strengths_by_category[hand.category].add(hand.strength)
    assert sum(counts.values()) == 2_598_960
    assert dict(counts) == FIVE_CARD_COUNTS
    assert {category: len(found) for category, found in strengths_by_category.items()} == (
        FIVE_CARD_CLASSES
    )
    # Double Cross Section 5(b) ranks categories from highest to lowest: every
    # hand of a higher category beats every hand of a lower one.
    ordered = [strengths_by_category[category] for category in Five]
    for lower, higher in zip(ordered, ordered[1:], strict=False):
        assert max(lower) < min(higher)


@pytest.mark.slow
def test_double_cross_5_b_five_card_strength_has_7462_distinct_values() -> None:
    strengths = {five_card_strength(cards) for cards in combinations(STANDARD_DECK, 5)}
    assert len(strengths) == 7_462
    assert strengths == set(range(7_462))


# --- Five-card hands: § 592.6(a) card rank -----------------------------------------------


def test_592_6_a_ace_low_straight_only_with_2_3_4_5() -> None:
    wheel = five("Ah 2c 3d 4s 5h")
    assert wheel.category is Five.STRAIGHT
    assert wheel.ranks == (Rank.FIVE, Rank.FOUR, Rank.THREE, Rank.TWO, Rank.ACE)
    assert str(wheel) == "Straight, 5 high"
    assert wheel < five("2c 3d 4s 5h 6c") < five("Tc Jd Qs Kh Ac")
    assert wheel > five("Ah Kc Qd Js 9h")  # beats any non-straight below it
    assert wheel > five("Ah Ac Ad Ks Qh")


def test_592_6_a_ace_low_straight_flush_only_with_2_3_4_5() -> None:
    steel_wheel = five("Ah 2h 3h 4h 5h")
    assert steel_wheel.category is Five.STRAIGHT_FLUSH
    assert steel_wheel.ranks[0] is Rank.FIVE
    assert str(steel_wheel) == "Straight flush, 5 high"
    assert steel_wheel < five("2h 3h 4h 5h 6h")
    assert steel_wheel > five("Ac Ad Ah As Kc")


@pytest.mark.parametrize("text", ["Qh Kc Ad 2s 3h", "Kh Ac 2d 3s 4h", "Jh Qc Kd As 2h"])
def test_592_6_a_no_wrap_around_straight(text: str) -> None:
    assert five(text).category is Five.HIGH_CARD


@pytest.mark.parametrize("text", ["Qh Kh Ah 2h 3h", "Kh Ah 2h 3h 4h"])
def test_674a_6_a_no_wrap_around_straight_flush(text: str) -> None:
    assert five(text).category is Five.FLUSH


def test_592_6_a_all_suits_are_equal_in_rank() -> None:
    assert five("Ah Kh Qh Jh Th") == five("As Ks Qs Js Ts") == five("Ac Kc Qc Jc Tc")
    assert five("9c 9d 5h 5s 2c") == five("9h 9s 5c 5d 2d")
    assert hash(five("9c 9d 5h 5s 2c")) == hash(five("9h 9s 5c 5d 2d"))


# --- Five-card hands: § 592.6(b) permissible hands, highest to lowest ----------------------

ONE_HAND_PER_CATEGORY_WEAKEST_FIRST = [
    ("Ks Qh 9d 6c 3s", Five.HIGH_CARD, "King high"),
    ("2h 2c 3d 4s 6h", Five.PAIR, "Pair of 2s"),
    ("2h 2c 3d 3s 4h", Five.TWO_PAIR, "Two pair, 3s and 2s"),
    ("2h 2c 2d 3s 4h", Five.THREE_OF_A_KIND, "Three of a kind, 2s"),
    ("Ah 2c 3d 4s 5h", Five.STRAIGHT, "Straight, 5 high"),
    ("2h 3h 4h 5h 7h", Five.FLUSH, "Flush, 7 high"),
    ("2h 2c 2d 3s 3h", Five.FULL_HOUSE, "Full house, 2s full of 3s"),
    ("2h 2c 2d 2s 3h", Five.FOUR_OF_A_KIND, "Four of a kind, 2s"),
    ("Ah 2h 3h 4h 5h", Five.STRAIGHT_FLUSH, "Straight flush, 5 high"),
    ("Ah Kh Qh Jh Th", Five.ROYAL_FLUSH, "Royal flush"),
]


@pytest.mark.parametrize(("text", "category", "name"), ONE_HAND_PER_CATEGORY_WEAKEST_FIRST)
def test_592_6_b_each_permissible_hand_is_recognised(
    text: str, category: FiveCardCategory, name: str
) -> None:
    hand = five(text)
    assert hand.category is category
    assert str(hand) == name


def test_592_6_b_the_weakest_hand_of_a_category_beats_the_strongest_of_the_one_below() -> None:
    strongest_of_category_below = {
        Five.PAIR: "Ah Kc Qd Js 9h",
        Five.TWO_PAIR: "Ah Ac Kd Qs Jh",
        Five.THREE_OF_A_KIND: "Ah Ac Kd Ks Qh",
        Five.STRAIGHT: "Ah Ac Ad Ks Qh",
        Five.FLUSH: "Ah Kc Qd Js Th",
        Five.FULL_HOUSE: "Ah Kh Qh Jh 9h",
        Five.FOUR_OF_A_KIND: "Ah Ac Ad Ks Kh",
        Five.STRAIGHT_FLUSH: "Ah Ac Ad As Kh",
        Five.ROYAL_FLUSH: "Kh Qh Jh Th 9h",
    }
    for (text, category, _), (below, _, _) in zip(
        ONE_HAND_PER_CATEGORY_WEAKEST_FIRST[1:],
        ONE_HAND_PER_CATEGORY_WEAKEST_FIRST[:-1],
        strict=True,
    ):
        assert five(text) > five(strongest_of_category_below[category]) >= five(below)


def test_592_6_b_2_a_royal_flush_is_not_counted_as_a_straight_flush() -> None:
    assert five("Ah Kh Qh Jh Th").category is Five.ROYAL_FLUSH
    assert five("Kh Qh Jh Th 9h").category is Five.STRAIGHT_FLUSH


def test_592_6_b_5_a_flush_is_not_in_consecutive_order() -> None:
    assert five("9s 7s 6s 5s 4s").category is Five.FLUSH
    assert five("8s 7s 6s 5s 4s").category is Five.STRAIGHT_FLUSH


def test_592_6_b_6_a_straight_is_of_different_suits() -> None:
    assert five("9s 8s 7s 6s 5h").category is Five.STRAIGHT


# --- Five-card hands: order within a category (Double Cross Section 10(g)) -----------------


@pytest.mark.parametrize(
    ("weaker", "stronger"),
    [
        # High card (Double Cross 5(b)(10)): highest card, then the next, down to the last.
        ("Ah Qc Jd 8s 4h", "Ah Kc 9d 6s 3h"),
        ("Ah Kc 9d 6s 3h", "Ac Kd 9s 6h 4c"),
        ("7h 5c 4d 3s 2h", "8h 5c 4d 3s 2h"),
        # Pair: pair rank, then kickers.
        ("Kh Kc Ad Qs Jh", "Ah Ac 2d 3s 4h"),
        ("Ah Ac Kd Qs Th", "Ah Ac Kd Qs Jh"),
        # Two pair: higher pair, lower pair, kicker.
        ("Kh Kc Qd Qs Ah", "Ah Ac 2d 2s 3h"),
        ("Ah Ac 2d 2s Kh", "Ah Ac 3d 3s 2h"),
        ("Ah Ac 3d 3s 2h", "Ah Ac 3d 3s 4h"),
        # Three of a kind: the three, then kickers.
        ("Kh Kc Kd As Qh", "Ah Ac Ad 2s 3h"),
        ("7h 7c 7d As 2h", "7h 7c 7d As 3h"),
        # Straight: high card.
        ("9h Tc Jd Qs Kh", "Th Jc Qd Ks Ah"),
        # Flush: highest card down.
        ("Kh Qh Jh Th 8h", "Ah 5h 4h 3h 2h"),
        # Full house: the three, then the pair.
        ("Kh Kc Kd As Ah", "Ah Ac Ad 2s 2h"),
        ("7h 7c 7d 2s 2h", "7h 7c 7d 3s 3h"),
        # Four of a kind: the four, then the kicker.
        ("Kh Kc Kd Ks Ah", "Ah Ac Ad As 2h"),
        ("7h 7c 7d 7s 2h", "7h 7c 7d 7s 3h"),
        # Straight flush: high card.
        ("9h Th Jh Qh Kh", "Th Jh Qh Kh Ah"),
    ],
)
def test_double_cross_10_g_hands_of_a_category_compare_by_rank_then_kickers(
    weaker: str, stronger: str
) -> None:
    assert five(weaker) < five(stronger)
    assert five(stronger) > five(weaker)
    assert five_card_strength(parse_cards(weaker)) < five_card_strength(parse_cards(stronger))


def test_double_cross_10_g_3_equal_hands_tie() -> None:
    player, dealer = five("Ah Kc 9d 6s 3h"), five("As Kd 9c 6h 3s")
    assert player == dealer
    assert not player < dealer and not player > dealer
    assert player <= dealer and player >= dealer
    assert player.strength == dealer.strength
    assert player is dealer  # one value per strength


def test_674a_6_b_9_pair_rank_supports_pair_of_6s_or_better() -> None:
    def pays(hand: FiveCardHand) -> bool:
        return hand.category > Five.PAIR or (hand.pair_rank or 0) >= Rank.SIX

    assert five("6h 6c As 7d 2c").pair_rank is Rank.SIX
    assert pays(five("6h 6c As 7d 2c"))
    assert not pays(five("5h 5c As Kd Qc"))
    assert pays(five("2h 2c 3s 3d 4c"))
    assert five("2h 2c 3s 3d 4c").pair_rank is None
    assert five("Ah Kc 9d 6s 3h").pair_rank is None


def test_five_card_hands_are_ordered_values() -> None:
    weaker, stronger = five("2h 2c 3d 4s 6h"), five("Ah Kh Qh Jh Th")
    assert sorted([stronger, weaker]) == [weaker, stronger]
    assert max(weaker, stronger) is stronger
    assert weaker != stronger and hash(weaker) != hash(stronger)
    assert weaker != three("2h 2c 3d")
    with pytest.raises(TypeError):
        _ = weaker < three("2h 2c 3d")


# --- Five-card hands: input checks ---------------------------------------------------------


@pytest.mark.parametrize("text", ["", "Ah", "Ah Kh Qh Jh", "Ah Kh Qh Jh Th 9h"])
def test_evaluate_five_refuses_a_wrong_number_of_cards(text: str) -> None:
    with pytest.raises(ValueError, match="needs 5"):
        evaluate_five(parse_cards(text))
    with pytest.raises(ValueError):
        five_card_strength(parse_cards(text))


@pytest.mark.parametrize("text", ["Ah Ah Kd Qs Jc", "Ah Ah Kh Qh Jh", "2c 2c 2c 2c 2c"])
def test_evaluate_five_refuses_duplicate_cards(text: str) -> None:
    with pytest.raises(ValueError, match="repeats a card"):
        evaluate_five(parse_cards(text))


def test_evaluate_five_refuses_things_that_are_not_cards() -> None:
    with pytest.raises(ValueError, match="not a Card"):
        evaluate_five(["Ah", "Kh", "Qh", "Jh", "Th"])  # type: ignore[list-item]


# --- Best five of six or seven --------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("As Ks Qs Js Ts 9s 2d", "Royal flush"),
        ("2h 3d 4c 5s 9h Ah Kh", "Straight, 5 high"),
        ("2h 3d 4c 5s 6h Ah Kh", "Straight, 6 high"),
        ("7h 7c 7d Ks Kh 2c 2d", "Full house, 7s full of kings"),
        ("Ah Kh 9h 6h 3h 2h", "Flush, ace high"),
        ("Ah Kc 9d 6s 3h 2c", "Ace high"),
    ],
)
def test_best_five_of_picks_the_strongest_combination(text: str, name: str) -> None:
    assert str(best_five_of(parse_cards(text))) == name


@pytest.mark.parametrize("text", ["Ah Kh Qh Jh", "Ah Ah Kh Qh Jh Th"])
def test_best_five_of_refuses_too_few_or_repeated_cards(text: str) -> None:
    with pytest.raises(ValueError):
        best_five_of(parse_cards(text))


# --- Property checks against a plain reference evaluator -----------------------------------


def reference_value(cards: Sequence[Card]) -> tuple[int, tuple[int, ...]]:
    """Standard poker value written independently: (category, tie-break ranks)."""
    values = sorted((int(card.rank) for card in cards), reverse=True)
    counts = Counter(values)
    grouped = sorted(counts, key=lambda value: (counts[value], value), reverse=True)
    shape = sorted(counts.values(), reverse=True)
    flush = len({card.suit for card in cards}) == 1
    straight_high = None
    if len(counts) == 5 and values[0] - values[4] == 4:
        straight_high = values[0]
    elif values == [14, 5, 4, 3, 2]:
        straight_high = 5
    if straight_high is not None and flush:
        return (9 if straight_high == 14 else 8), (straight_high,)
    if shape == [4, 1]:
        return 7, tuple(grouped)
    if shape == [3, 2]:
        return 6, tuple(grouped)
    if flush:
        return 5, tuple(values)
    if straight_high is not None:
        return 4, (straight_high,)
    return {(3, 1, 1): 3, (2, 2, 1): 2, (2, 1, 1, 1): 1}.get(tuple(shape), 0), tuple(grouped)


hands_of_five = st.lists(st.sampled_from(STANDARD_DECK), min_size=5, max_size=5, unique=True)


@given(hands_of_five, hands_of_five)
def test_double_cross_5_b_ordering_agrees_with_a_reference_evaluator(
    first: list[Card], second: list[Card]
) -> None:
    first_hand, second_hand = evaluate_five(first), evaluate_five(second)
    assert int(first_hand.category) == reference_value(first)[0]
    assert (first_hand < second_hand) == (reference_value(first) < reference_value(second))
    assert (first_hand == second_hand) == (reference_value(first) == reference_value(second))


@given(hands_of_five, st.randoms(use_true_random=False))
def test_592_6_a_the_order_of_the_cards_does_not_matter(cards: list[Card], random: object) -> None:
    shuffled = list(cards)
    random.shuffle(shuffled)  # type: ignore[attr-defined]
    assert evaluate_five(shuffled) is evaluate_five(cards)
    assert five_card_strength(tuple(shuffled)) == five_card_strength(cards)


@given(st.lists(st.sampled_from(STANDARD_DECK), min_size=7, max_size=7, unique=True))
def test_best_five_of_seven_is_the_maximum_over_all_combinations(cards: list[Card]) -> None:
    assert best_five_of(cards) == max(evaluate_five(combo) for combo in combinations(cards, 5))


# --- Three-card hands: Double Cross Section 5(c) -------------------------------------------


@pytest.mark.slow
def test_double_cross_5_c_every_three_card_hand_falls_in_its_category() -> None:
    counts = Counter(evaluate_three(cards).category for cards in combinations(STANDARD_DECK, 3))
    assert sum(counts.values()) == 22_100
    assert dict(counts) == THREE_CARD_COUNTS
    strengths = {three_card_strength(cards) for cards in combinations(STANDARD_DECK, 3)}
    assert strengths == set(range(len(strengths)))


def test_double_cross_5_c_categories_rank_in_the_listed_order() -> None:
    # Section 5(c)(1)-(5): straight flush, three-of-a-kind, straight, flush, one pair.
    listed_highest_first = [
        ("2h 3h 4h", Three.STRAIGHT_FLUSH, "Three-card straight flush, 4 high"),
        ("2h 2c 2d", Three.THREE_OF_A_KIND, "Three of a kind, 2s"),
        ("Ah 2c 3d", Three.STRAIGHT, "Three-card straight, 3 high"),
        ("2h 3h 5h", Three.FLUSH, "Three-card flush, 5 high"),
        ("2h 2c 3d", Three.PAIR, "Pair of 2s"),
        ("2h 3c 5d", Three.HIGH_CARD, "5 high"),
    ]
    strongest_just_below = ["Ah Ac Ad", "Qh Kc Ad", "Ah Kh Jh", "Ah Ac Kd", "Ah Kc Jd"]
    for (text, category, name), below in zip(
        listed_highest_first, [*strongest_just_below, None], strict=True
    ):
        hand = three(text)
        assert hand.category is category
        assert str(hand) == name
        if below is not None:
            assert hand > three(below)
    assert list(ThreeCardCategory) == [
        category for _, category, _ in reversed(listed_highest_first)
    ]


def test_double_cross_5_c_3_ace_may_not_be_combined_with_king_and_two() -> None:
    assert three("Kh Ac 2d").category is Three.HIGH_CARD
    assert three("Kh Ah 2h").category is Three.FLUSH
    assert str(three("Kh Ac 2d")) == "Ace high"


def test_double_cross_5_c_3_queen_king_ace_and_ace_two_three_are_straights() -> None:
    high, low = three("Qh Kc Ad"), three("Ah 2c 3d")
    assert high.category is low.category is Three.STRAIGHT
    assert low.ranks == (Rank.THREE, Rank.TWO, Rank.ACE)
    assert low < three("2h 3c 4d") < three("Jh Qc Kd") < high
    assert three("Qh Kh Ah").category is three("Ah 2h 3h").category is Three.STRAIGHT_FLUSH
    assert three("Ah 2h 3h") < three("2h 3h 4h")


def test_double_cross_5_c_hands_of_a_category_compare_by_rank_then_kickers() -> None:
    assert three("Ah Ac 2d") > three("Kh Kc Qd")
    assert three("Kh Kc Qd") > three("Kh Kc Jd")
    assert three("Ah Kh 9h") > three("Ah Qh Jh")
    assert three("Ah Kc 9d") > three("Ah Qc Jd")
    assert three("Ah Kc 9d") == three("As Kd 9c")
    assert three("Qh Qc 2d").pair_rank is Rank.QUEEN
    assert three("Qh Kc 2d").pair_rank is None


@pytest.mark.parametrize("text", ["", "Ah Kh", "Ah Kh Qh Jh"])
def test_evaluate_three_refuses_a_wrong_number_of_cards(text: str) -> None:
    with pytest.raises(ValueError, match="needs 3"):
        evaluate_three(parse_cards(text))
    with pytest.raises(ValueError):
        three_card_strength(parse_cards(text))


def test_evaluate_three_refuses_duplicate_cards() -> None:
    with pytest.raises(ValueError, match="repeats a card"):
        evaluate_three(parse_cards("Ah Ah Kd"))


@given(st.lists(st.sampled_from(STANDARD_DECK), min_size=3, max_size=3, unique=True))
def test_double_cross_5_c_the_order_of_the_cards_does_not_matter(cards: list[Card]) -> None:
    assert evaluate_three(cards[::-1]) is evaluate_three(cards)
    assert evaluate_three([cards[1], cards[0], cards[2]]) is evaluate_three(cards)


def test_563_6_c_583_6_c_the_literal_tie_rule_keeps_the_wheel_lowest_and_reads_unshared_cards():
    from tables.rules.hands import compare_literal

    wheel = evaluate_five(parse_cards("Ah 2c 3d 4s 5h"))
    six = evaluate_five(parse_cards("2h 3c 4d 5s 6h"))
    assert compare_literal(wheel, six) == -1  # § 563.6(b)(6): A-2-3-4-5 the lowest straight
    pairs = (
        evaluate_five(parse_cards("2h 2c Ad Ks Qh")),
        evaluate_five(parse_cards("Kh Kc 7d 5s 4h")),
    )
    assert compare_literal(*pairs) == 1 and pairs[0] < pairs[1]  # the digests' example
    same = (
        evaluate_five(parse_cards("9h 9c 7d 5s 4h")),
        evaluate_five(parse_cards("9d 9s 7c 5h 4d")),
    )
    assert compare_literal(*same) == 0
