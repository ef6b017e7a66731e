"""A floorperson's span of control (§ 581.14(c), § 585.5(c)): at most four tables of banking
games, the six games the section lists left out of the count."""

from __future__ import annotations

from tables.rules.staffing import MAX_BANKING_TABLES, SECTIONS, counted, over_the_limit


def supervised(floorperson: str, game: str, count: int, prefix: str = "T") -> dict:
    return {f"{prefix}{n}": (floorperson, game) for n in range(1, count + 1)}


def test_581_14_c_a_floorperson_may_supervise_four_banking_tables():
    assert MAX_BANKING_TABLES == 4
    assert over_the_limit(supervised("floor", "double_attack_blackjack", 4)) == ()


def test_581_14_c_a_fifth_banking_table_is_over_the_limit_whatever_the_mix_of_games():
    tables = {**supervised("floor", "double_attack_blackjack", 3),
              **supervised("floor", "three_card_poker", 2, prefix="TCP"),
              **supervised("floor2", "free_bet_blackjack", 4, prefix="FBB")}  # fmt: skip
    (over,) = over_the_limit(tables)
    assert over.floorperson == "floor"
    assert over.tables == ("T1", "T2", "T3", "TCP1", "TCP2")
    assert over.sections == SECTIONS == ("581.14(c)", "585.5(c)")
    assert over.reason == "floor supervises 5 banking tables (T1, T2, T3, TCP1, TCP2): more than 4"


def test_585_5_c_the_listed_games_are_excluded_from_the_count():
    for game in ("baccarat", "midibaccarat", "craps", "mini_craps", "pai_gow",
                 "three_dice_football"):  # fmt: skip
        assert not counted(game)
    tables = {**supervised("floor", "craps", 6, prefix="CR"),
              **supervised("floor", "props_and_hops", 4, prefix="PAH")}  # fmt: skip
    assert over_the_limit(tables) == ()


def test_581_14_c_pai_gow_poker_is_counted_and_the_nonbanked_poker_room_is_not():
    # "Pai Gow" is the tile game; Pai Gow Poker (§ 561) is a banking game of its own.
    assert counted("pai_gow_poker")
    assert not counted("poker")
    tables = {**supervised("floor", "pai_gow_poker", 5), **supervised("floor2", "poker", 8, "P")}
    assert [o.floorperson for o in over_the_limit(tables)] == ["floor"]
