"""Cards of the standard deck (tables.rules.cards).

Card ranks and suits: § 592.6(a) / § 674a.6(a) (Pennsylvania Criss-Cross Poker)
and Double Cross Poker Section 5(a) (Massachusetts): "ace, king, queen, jack, 10,
9, 8, 7, 6, 5, 4, 3 and 2"; "All suits shall be equal in rank".
"""

import copy
import pickle
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tables.rules.cards import STANDARD_DECK, Card, Rank, Suit, parse_cards


def test_592_6_a_ranks_run_from_two_to_ace_high() -> None:
    assert [rank.symbol for rank in sorted(Rank)] == list("23456789TJQKA")
    assert Rank.ACE > Rank.KING > Rank.QUEEN > Rank.JACK > Rank.TEN > Rank.TWO
    assert int(Rank.ACE) == 14 and int(Rank.TWO) == 2


def test_double_cross_5_a_there_are_four_suits() -> None:
    assert [suit.value for suit in Suit] == ["c", "d", "h", "s"]


def test_the_standard_deck_has_52_distinct_cards_in_index_order() -> None:
    assert len(STANDARD_DECK) == 52
    assert len(set(STANDARD_DECK)) == 52
    assert [card.index for card in STANDARD_DECK] == list(range(52))
    assert [str(card) for card in STANDARD_DECK[:5]] == ["2c", "2d", "2h", "2s", "3c"]
    assert str(STANDARD_DECK[-1]) == "As"


def test_the_index_numbering_is_stable() -> None:
    # Stored in events: these values must never change.
    assert Card.parse("2c").index == 0
    assert Card.parse("Td").index == 33
    assert Card.parse("Ah").index == 50
    assert Card.parse("As").index == 51


@pytest.mark.parametrize("index", range(52))
def test_from_index_inverts_index(index: int) -> None:
    assert Card.from_index(index).index == index


@pytest.mark.parametrize("index", [-1, 52, 100])
def test_from_index_refuses_an_index_outside_the_deck(index: int) -> None:
    with pytest.raises(ValueError, match=str(index)):
        Card.from_index(index)


@pytest.mark.parametrize(
    ("text", "rank", "suit"),
    [
        ("Ah", Rank.ACE, Suit.HEARTS),
        ("Td", Rank.TEN, Suit.DIAMONDS),
        ("10d", Rank.TEN, Suit.DIAMONDS),
        ("2c", Rank.TWO, Suit.CLUBS),
        ("ks", Rank.KING, Suit.SPADES),
        ("QH", Rank.QUEEN, Suit.HEARTS),
        (" 9c ", Rank.NINE, Suit.CLUBS),
    ],
)
def test_parse_reads_rank_then_suit(text: str, rank: Rank, suit: Suit) -> None:
    assert Card.parse(text) == Card(rank, suit)


@pytest.mark.parametrize(
    "text", ["", "A", "h", "1h", "11h", "Ax", "AhK", "0d", "Ah ", "hA", "100d"]
)
def test_parse_refuses_invalid_text_and_names_it(text: str) -> None:
    if text == "Ah ":  # surrounding whitespace is allowed
        assert Card.parse(text) == Card.parse("Ah")
        return
    with pytest.raises(ValueError, match=re.escape(repr(text))):
        Card.parse(text)


@pytest.mark.parametrize("card", STANDARD_DECK, ids=str)
def test_str_and_parse_round_trip(card: Card) -> None:
    assert Card.parse(str(card)) == card
    assert len(str(card)) == 2


def test_cards_are_frozen_values() -> None:
    card = Card.parse("Ah")
    with pytest.raises(AttributeError):
        card.rank = Rank.KING  # type: ignore[misc]
    assert card == Card(Rank.ACE, Suit.HEARTS)
    assert hash(card) == hash(Card(Rank.ACE, Suit.HEARTS))
    assert card != Card.parse("As")
    assert copy.deepcopy(card) == card
    assert pickle.loads(pickle.dumps(card)) == card
    assert pickle.loads(pickle.dumps(card)).index == card.index


def test_card_refuses_fields_of_the_wrong_type() -> None:
    with pytest.raises(TypeError):
        Card(14, "h")  # type: ignore[arg-type]


@pytest.mark.parametrize("text", ["AhKd Qs", "AhKdQs", "Ah Kd Qs", " Ah,Kd, Qs ", "AhKd10s"])
def test_parse_cards_reads_cards_with_or_without_separators(text: str) -> None:
    expected = (Card.parse("Ah"), Card.parse("Kd"), Card.parse("Qs" if "10" not in text else "Ts"))
    assert parse_cards(text) == expected


def test_parse_cards_keeps_duplicates_and_reads_blank_as_no_cards() -> None:
    assert parse_cards("AhAh") == (Card.parse("Ah"), Card.parse("Ah"))
    assert parse_cards("") == ()
    assert parse_cards("   ") == ()


@pytest.mark.parametrize("text", ["AhK", "Ah Kx", "Ah1h", "Ah; Kd", "xx"])
def test_parse_cards_refuses_invalid_text_and_names_it(text: str) -> None:
    with pytest.raises(ValueError, match=re.escape(repr(text))):
        parse_cards(text)


@given(st.lists(st.sampled_from(STANDARD_DECK), max_size=10), st.sampled_from(["", " ", ", "]))
def test_parse_cards_round_trips_any_cards(cards: list[Card], separator: str) -> None:
    assert parse_cards(separator.join(str(card) for card in cards)) == tuple(cards)
