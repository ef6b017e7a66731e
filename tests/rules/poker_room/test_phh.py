"""Hands in and out of PHH (pokerkit's hand history format): our hands come back exactly,
pokerkit plays what we write to the same end, and a history without burn cards replays."""

from __future__ import annotations

import dataclasses
import random

import pytest
from pokerkit import HandHistory

from tables.rules.engine import RuleViolation
from tables.rules.poker_room.phh import PHH_VARIANTS, from_phh, to_phh
from tables.rules.poker_room.replay import replay_hand
from tables.rules.poker_room.rules import FIVE_CARD_DRAW_HIGH, HOLDEM, VARIANTS, Structure
from tables.rules.poker_room.rulesets import poker_ruleset
from tables.rules.poker_room.simulate import random_hand
from tests.rules.poker_room.differential import Refused, in_pokerkit, rule_set
from tests.rules.poker_room.test_replay_553 import _side_pot_hand

PHH_GAMES = [
    (variant, structure)
    for variant in VARIANTS
    for structure in Structure
    if (variant.name, structure) in PHH_VARIANTS
]


def test_553_a_hand_with_side_pots_rake_and_bad_beat_comes_back_exactly():
    events = _side_pot_hand().settled()
    rules = poker_ruleset("PA-553-HOLDEM-NL-1-2-BB")
    text = to_phh(events, rules)
    assert 'variant = "NT"' in text and "p3 cbr 600" in text and 'd db AsTh2s' not in text
    back = from_phh(text, rules)
    assert back.burns_known and list(back.events) == events
    assert replay_hand(back.events).findings == ()


@pytest.mark.parametrize(("variant", "structure"), PHH_GAMES, ids=lambda v: getattr(v, "name", v))
def test_random_hands_of_every_phh_game_come_back_exactly(variant, structure):
    rules = rule_set(variant, structure)
    rng = random.Random(7)
    for _ in range(15):
        events = random_hand(rules, rng).settled()
        assert list(from_phh(to_phh(events, rules), rules).events) == events


@pytest.mark.parametrize(("variant", "structure"), PHH_GAMES, ids=lambda v: getattr(v, "name", v))
def test_pokerkit_reads_our_histories_and_ends_where_it_plays_them(variant, structure):
    # pokerkit's limit games cap a betting round at a bet and three raises.
    rules = dataclasses.replace(rule_set(variant, structure), max_raises=3)
    rng = random.Random(11)
    read = 0
    for _ in range(15):
        hand = random_hand(rules, rng)
        try:
            expected = in_pokerkit(rules, hand)
        except Refused:
            continue
        history = HandHistory.loads(to_phh(hand.events, rules))
        *_, final = iter(history)
        seats = history.seats
        starting = dict(zip(seats, history.starting_stacks, strict=True))
        assert {seat: final.stacks[i] - starting[seat] for i, seat in enumerate(seats)} == dict(
            sorted(expected.items()))  # fmt: skip
        read += 1
    assert read >= 12


def test_553_a_history_without_burn_cards_replays_with_placeholder_burns():
    events = _side_pot_hand().settled()
    rules = poker_ruleset("PA-553-HOLDEM-NL-1-2-BB")
    text = "".join(line + "\n" for line in to_phh(events, rules).splitlines()
                   if not line.startswith("_burnt_cards"))  # fmt: skip
    back = from_phh(text, rules)
    assert not back.burns_known
    result = replay_hand(back.events)
    assert result.complete and result.findings == ()
    assert result.settlement == replay_hand(events).settlement


def test_553_9_a_a_history_of_another_game_is_refused():
    events = _side_pot_hand().settled()
    text = to_phh(events, poker_ruleset("PA-553-HOLDEM-NL-1-2-BB"))
    with pytest.raises(RuleViolation, match="553.9"):
        from_phh(text, rule_set(HOLDEM, Structure.LIMIT))
    with pytest.raises(ValueError, match="PHH has no code"):
        to_phh(events, rule_set(FIVE_CARD_DRAW_HIGH, Structure.LIMIT))
