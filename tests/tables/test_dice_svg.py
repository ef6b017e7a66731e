"""The round viewer draws the dice as thrown: pips, each throw in order, no-rolls marked."""

from __future__ import annotations

import random
import re

from tables.cards_svg import dice_html, die_svg, layout_html
from tables.rules.events import DiceThrown
from tables.rules.registry import declared, ruleset
from tables.rules.simulate import DiceError
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


def _won(html):
    return re.findall(r'class="won-area" title="([^"]+)"[^>]*>&#10003; ([^<]+)</span>', html)


def test_593_2_e_the_viewer_marks_the_pip_street_face_and_circles_the_throws_won():
    from tables.rules.replay import replay

    hrd = ruleset("PA-593-2014")
    seen = set()
    for seed in range(30):
        sim = simulate_declared(random.Random(seed), hrd, seats=(1, 2),
                                play=Play(no_roll_percent=0))  # fmt: skip
        state = replay(sim.events).final_state
        first, *extra = [e.faces for e in sim.events if isinstance(e, DiceThrown)]
        face, count = max(((f, first.count(f)) for f in set(first)),
                          key=lambda item: (item[1], 7 if item[0] == 1 else item[0]))  # § 593.2(d)
        won = _won(layout_html("high_roll_dice", sim.events, state))
        assert ("593.5(a)", f"Pip Street {face}") in won  # § 593.2(e)(1)
        assert ("593.5(b)", f"Like Kind Boulevard {count} of a kind") in won  # § 593.2(e)(2)
        final = count + (extra[0].count(face) if extra else 0)
        if final > count:  # § 593.4(h): the circle the extra roll reached, paid at (d)
            assert ("593.5(d)", f"Like Kind Boulevard {final} of a kind") in won
            seen.add("extra")
        assert len(won) == 2 + (final > count)
    assert "extra" in seen
    # § 593.2(e)(4): ten of a kind wins Millionaire Row's ten circle (not the nine, by default).
    sim = simulate_declared(random.Random(1), hrd, seats=(1, 2),
                            dealer_errors=[DiceError.NINE_PAID_ON_TEN])  # fmt: skip
    won = _won(layout_html("high_roll_dice", sim.events, replay(sim.events).final_state))
    assert [label for _, label in won if "Millionaire" in label] == ["Millionaire Row 10 of a kind"]
    # Without the replayed state (or before a throw) nothing is marked.
    assert "won-area" not in layout_html("high_roll_dice", sim.events)


def test_585_4_the_viewer_marks_every_props_and_hops_wager_the_roll_won_and_none_on_a_no_roll():
    from tables.rules.replay import replay

    sim = simulate_declared(random.Random(2), ruleset("PA-585-2014"), seats=(1, 2),
                            play=Play(no_roll_percent=0))  # fmt: skip
    roll = next(e.faces for e in sim.events if isinstance(e, DiceThrown))
    won = {label for _, label in _won(layout_html("props_and_hops", sim.events,
                                                  replay(sim.events).final_state))}  # fmt: skip
    from tables.rules.games import props_and_hops_585 as pah

    assert won and won == {declared("props_and_hops").wager(name).label
                           for name in pah.winners(roll)}  # fmt: skip
    voided = simulate_declared(random.Random(0), ruleset("PA-585-2014"), seats=(1, 2),
                               play=Play(no_roll_percent=100))  # fmt: skip
    state = replay(voided.events).final_state
    assert state.void_section and "won-area" not in layout_html("props_and_hops", voided.events,
                                                                state)  # fmt: skip
