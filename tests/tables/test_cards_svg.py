"""The round viewer draws Pai Gow's joker (§ 561.3(a), § 588.3(a)) as a card of its own."""

from __future__ import annotations

from tables.cards_svg import card_svg


def test_561_3_a_the_joker_is_drawn_as_a_joker_not_a_suit():
    drawn = card_svg("Jk")
    assert 'aria-label="Jk"' in drawn and ">JK<" in drawn and "★" in drawn
    assert "♠" not in drawn and "♠" in card_svg("As")
