"""The house way loaded from the casino's Rules Submission (§ 561.13(d)), reset to (§ 561.14(i))."""

from __future__ import annotations

import json
import pathlib

import pytest

from tables.rules.cards import parse_cards
from tables.rules.engine import Automation, Outcome, RuleViolation
from tables.rules.events import IrregularityReported
from tables.rules.games import pai_gow_poker_561 as game
from tables.rules.games import six_card_fortune_588
from tables.rules.games._house_way import from_token, parse_submission, token
from tables.rules.games._pai_gow_hands import house_way_561
from tables.rules.machine import open_round
from tables.rules.replay import FindingKind, replay
from tests.rules.test_pai_gow_poker_561 import a_round, opened

SAMPLE_FILE = pathlib.Path(__file__).parents[2] / "tables" / "house_ways" / "sample-2010.json"
# Jacks and fours with an ace: SAMPLE-2010 splits them (fours low); a way keeping
# every two pair together plays A-K low.
DEALER = "Jc Jd 4h 4s Ah Kd 2c"
PLAYER = {1: "Qc Qh 9s 8d 6c As Ks"}  # queens high, A-K low


def submission(**dealer):
    data = json.loads(SAMPLE_FILE.read_text())
    data["dealer"].update(dealer)
    return data


def test_561_13_d_the_sample_submission_file_parses_to_the_named_way():
    loaded = parse_submission(json.loads(SAMPLE_FILE.read_text()))
    named = game.HOUSE_WAYS["SAMPLE-2010"]
    assert (loaded.way.id, loaded.version, loaded.effective_from.isoformat()) == (
        "SAMPLE-2010", 2, "2026-12-01T06:00:00+00:00")
    cards = parse_cards(DEALER)
    assert house_way_561(cards, loaded.way) == house_way_561(cards, named)
    assert from_token(loaded.token).split_two_pair_from == named.split_two_pair_from


@pytest.mark.parametrize(("change", "field"), [
    ({"format": "pitboss.house-way/9"}, "format"),
    ({"id": "lower case"}, "id"),
    ({"version": 0}, "version"),
    ({"effective_from": "2026-12-01T06:00:00"}, "effective_from"),
    ({"colour": "red"}, "colour"),
    ({"dealer": {"split_quads_from": 7}}, "dealer.split_trip_aces"),
])  # fmt: skip
def test_561_13_d_a_bad_submission_names_the_field(change, field):
    data = {**json.loads(SAMPLE_FILE.read_text()), **change}
    with pytest.raises(RuleViolation) as refused:
        parse_submission(data)
    assert (refused.value.section, refused.value.field) == ("561.13(d)", field)
    assert refused.value.reason.startswith(f"{field}: ")


@pytest.mark.parametrize(("dealer", "field"), [
    ({"split_quads_from": 16}, "dealer.split_quads_from"),
    ({"split_trip_aces": 1}, "dealer.split_trip_aces"),
    ({"play_straight": True}, "dealer.play_straight"),
])  # fmt: skip
def test_561_13_d_a_bad_dealer_parameter_names_the_field(dealer, field):
    with pytest.raises(RuleViolation) as refused:
        parse_submission(submission(**dealer))
    assert refused.value.field == field


def test_561_13_d_a_round_settles_by_the_version_it_carries():
    """Before the new version (the named way) a push; after it (the loaded
    version's parameters in the round's option) the same cards lose."""
    before = replay(a_round(PLAYER, DEALER, {1: "6,7"}), tuple(Automation)).settlement
    keeps = parse_submission(submission(split_two_pair_from=15)).token
    after = replay(a_round(PLAYER, DEALER, {1: "6,7"}, house_way=keeps),
                   tuple(Automation)).settlement  # fmt: skip
    assert [(line.outcome, line.section) for line in before.lines] == [
        (Outcome.PUSH, "561.13(i)(1)")]
    assert [(line.outcome, line.section) for line in after.lines] == [
        (Outcome.LOSE, "561.13(g)(2)")]
    assert ("house_way", "SAMPLE-2010") in before.options_applied
    assert ("house_way", keeps) in after.options_applied


def test_561_13_d_a_malformed_house_way_option_is_refused():
    way = parse_submission(submission()).way
    with pytest.raises(RuleViolation) as refused:
        open_round(game.GAME, opened(house_way=token(way, 1).replace("quads=7", "quads=99")))
    assert (refused.value.section, refused.value.field) == ("561.13(d)", "options.house_way")


def test_561_14_i_a_dealer_hand_set_otherwise_is_reset_to_the_version_in_force():
    """The dealer set the old way (fours low) after the new version took
    effect: the hands are reset to the new way's setting and the round completed."""
    keeps = parse_submission(submission(split_two_pair_from=15)).token
    events = [*a_round(PLAYER, DEALER, {1: "6,7"}, house_way=keeps),
              IrregularityReported(kind=game.DEALER_HANDS_NOT_HOUSE_WAY, note="4h 4s set low")]
    result = replay(events, tuple(Automation))
    assert [line.outcome for line in result.settlement.lines] == [Outcome.LOSE]
    found = [f for f in result.findings if f.kind is FindingKind.DEALER_PROCEDURE]
    assert [(f.section, f.wager) for f in found] == [("561.14(i)",
                                                     game.DEALER_HANDS_NOT_HOUSE_WAY)]
    assert "4h 4s set low" in found[0].detail
    assert any(note.startswith("561.14(i): ") for note in result.settlement.notes)


def test_588_11_d_six_card_fortune_sets_the_dealer_by_the_chapter_not_a_submission():
    """§ 588.11(d) writes the dealer's house way into the chapter (reset to it,
    § 588.13(i)): the game takes no casino house way as an option."""
    assert "house_way" not in {spec.name for spec in six_card_fortune_588.GAME.options}


def test_561_13_d_the_par_sheet_prices_a_loaded_version_by_its_parameters():
    from tables.rules.parsheets.pai_gow_poker import main_game

    same = parse_submission(submission()).token
    keeps = parse_submission(submission(split_two_pair_from=15)).token
    assert main_game(same, rounds=400) == main_game("SAMPLE-2010", rounds=400)
    assert main_game(keeps, rounds=400)[2] != main_game("SAMPLE-2010", rounds=400)[2]


def test_588_13_i_a_dealer_hand_set_otherwise_is_reset_to_the_chapters_way():
    """§ 588.13(i): reset per § 588.11(d) (the chapter's own house way) and completed."""
    from tables.rules.games._house_way import DEALER_HANDS_NOT_HOUSE_WAY
    from tests.rules.test_six_card_fortune_588 import READINGS
    from tests.rules.test_six_card_fortune_588 import a_round as a_588_round

    events = [*a_588_round({1: "Ac Ad 8h 6s 4c Qd"}, {1: "6"}, **READINGS),
              IrregularityReported(kind=DEALER_HANDS_NOT_HOUSE_WAY, note="the kings split")]
    result = replay(events, tuple(Automation))
    found = [f for f in result.findings if f.kind is FindingKind.DEALER_PROCEDURE]
    assert [(f.section, f.wager) for f in found] == [("588.13(i)", DEALER_HANDS_NOT_HOUSE_WAY)]
    # aces and a queen beat the kings high and the 9 low, as § 588.11(d)(1) sets them
    line = result.settlement.lines[0]
    assert (line.outcome, line.hand.endswith("Kc Kd 7s 5c 3d / 9h")) == (Outcome.WIN, True)
