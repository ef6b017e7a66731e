"""The simulated gaming day's rounds (``tables.simulation``) as a table plays them."""

from __future__ import annotations

import datetime
import random

from tables.rules.machine import refuse_next_opening
from tables.rules.replay import replay
from tables.simulation import TablePlan, _rounds


def test_585_3_j_a_simulated_props_and_hops_table_passes_the_shaker_round_to_round():
    """Each round opens with the shooter the table's previous round left it: the same
    until a 7, then the next player to the left among those seated."""
    plans = [TablePlan("PAH-01", "PA-585-2014")]
    day = datetime.date(2016, 8, 1)
    previous, kept, passed = None, 0, 0
    for _, events, _ in _rounds(plans, day, 40, random.Random(585), 0, 0):
        state = replay(events).final_state
        if previous is not None:
            assert refuse_next_opening(previous, events[0]) is None
            seven = sum(previous.rolls.get("roll", (0,))) == 7
            moved = previous.options["shooter"] != state.options["shooter"]
            passed += seven
            kept += not seven and not moved
        previous = state
    assert passed and kept
