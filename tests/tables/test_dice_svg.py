"""The round viewer draws the dice as thrown: pips, each throw in order, no-rolls marked."""

from __future__ import annotations

import random
import re

from tables.cards_svg import dice_html, die_svg, layout_html
from tables.rules.events import DiceThrown
from tables.rules.registry import ruleset
from tables.rules.simulate_declared import Play, simulate_declared


def test_a_die_shows_its_face_as_that_many_pips():
    for face in range(1, 7):
        drawn = die_svg(face)
        assert drawn.count("<circle") == face and f'aria-label="die showing {face}"' in drawn
    assert die_svg(None).count("<circle") == 0


def test_585_3_f_each_throw_in_order_and_a_no_roll_struck_through_and_named():
    html = dice_html([DiceThrown(no_roll="DIE_ON_DIE", faces=(3,)),
                      DiceThrown(faces=(4, 3), called="3-4")])  # fmt: skip
    first, second = html.split('<div class="dice-throw')[1:]
    assert "no-roll" in first and "no roll (DIE_ON_DIE)" in first and "<line" in first
    assert re.findall(r"die showing (\d)", second) == ["4", "3"] and "called 3-4" in second
    assert "<line" not in second


def test_the_round_viewer_draws_every_die_of_a_high_roll_dice_round():
    sim = simulate_declared(random.Random(5), ruleset("PA-593-2014"), seats=(1, 2),
                            play=Play(no_roll_percent=0))  # fmt: skip
    throws = [e for e in sim.events if isinstance(e, DiceThrown)]
    html = layout_html("high_roll_dice", sim.events)
    assert html.count('class="die"') == sum(len(t.faces) for t in throws) >= 10
