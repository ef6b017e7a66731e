"""The dice par sheets are exact: probabilities sum to one, and agree with counting every throw."""

from __future__ import annotations

import itertools
from fractions import Fraction

from tables.rules import parsheets, registry
from tables.rules.games import high_roll_dice_593 as hrd
from tables.rules.house_edge import house_edges
from tables.rules.parsheets import high_roll_dice, props_and_hops

DEFAULTS = {"seven_of_a_kind": "400", "three_of_a_kind": "3_to_5", "extra_roll": "circles",
            "nine_wins_on_ten": False, "millionaire_includes_stake": False}  # fmt: skip


def test_585_4_each_wager_edge_over_the_36_throws():
    sheets = {row["wager"]: row for row in props_and_hops.parsheet(None, {
        "any_doubles_otherwise": "lose"})["wagers"]}  # fmt: skip
    assert sheets["HARD_2"]["house_edge"] == Fraction(5, 36)  # 30 to 1 on 1/36
    assert sheets["HOP_1_2"]["house_edge"] == Fraction(1, 9)  # 15 to 1 on 2/36
    assert sheets["FIELD"]["house_edge"] == Fraction(1, 18)  # 2 to 1 on 2 and 12
    assert sheets["ANY_CRAPS"]["house_edge"] == Fraction(1, 9)
    assert sheets["ANY_DOUBLES"]["house_edge"] == Fraction(1, 6)
    returned = props_and_hops.wager_sheet("ANY_DOUBLES", "returned")  # § 585.2(f)(4) reading
    assert returned["house_edge"] == Fraction(-2, 3)


def test_593_counting_over_multisets_agrees_with_every_ordered_throw_of_fewer_dice():
    # The same multinomial weights over 3,003 multisets give 6^10 throws in all.
    assert sum(high_roll_dice.first_roll().values()) == 1
    assert sum(high_roll_dice.count_probabilities().values()) == 1
    assert high_roll_dice.count_probabilities()[10] == Fraction(6, 6**10)
    # P(N = 9): a face nine times, another once: 6 * 5 * 10 throws.
    assert high_roll_dice.count_probabilities()[9] == Fraction(300, 6**10)
    for count in range(1, 11):
        assert sum(high_roll_dice.extra_roll(count).values()) == 1


def test_593_5_pip_street_edges_from_the_faces_probabilities():
    faces = {face: Fraction(0) for face in range(1, 7)}
    for (face, _), probability in high_roll_dice.first_roll().items():
        faces[face] += probability
    assert sum(faces.values()) == 1 and faces[1] > faces[6] > faces[5] > faces[2]  # § 593.2(d)
    edges = high_roll_dice.wager_edges(DEFAULTS)
    assert edges["PIP_1"] == 1 - 4 * faces[1]
    assert edges["LIKE_7"] == 1 - 401 * high_roll_dice.count_probabilities()[7]


def test_593_readings_change_the_combination_and_4000_to_1_gives_the_player_the_edge():
    edges = {(row["seven_of_a_kind"], row["three_of_a_kind"], row["extra_roll"]):
             row["all_circles_and_extra_roll_edge"]
             for row in high_roll_dice.parsheet(None, DEFAULTS)["readings"]}  # fmt: skip
    assert len(edges) == 18
    assert edges[("4000", "3_to_5", "circles")] < 0 < edges[("400", "3_to_5", "circles")]
    assert all(high_roll_dice.wager_edges({**DEFAULTS, "seven_of_a_kind": "4000"})[
        "LIKE_7"] < 0 for _ in (1,))  # fmt: skip


def test_dice_games_offer_par_sheets_and_finance_reads_their_edges():
    assert {"props_and_hops", "high_roll_dice"} <= set(parsheets.games())
    edges = house_edges("PA-593-2014")
    handles = set(itertools.chain.from_iterable(edge.handle for edge in edges))
    assert handles == {spec.name for spec in hrd.GAME.wagers}
    assert len(house_edges("PA-585-2014")) == 25
    assert registry.declared("high_roll_dice") is hrd.GAME
