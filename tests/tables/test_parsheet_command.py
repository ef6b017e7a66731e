"""The ``parsheet`` management command: readable tables, --json, and clear errors."""

from __future__ import annotations

import json
from fractions import Fraction
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError


def run(*args):
    out = StringIO()
    call_command("parsheet", *args, stdout=out)
    return out.getvalue()


def test_it_prints_the_exact_five_card_bonus_and_a_simulated_game():
    text = run(
        "criss_cross_poker",
        "--ruleset",
        "PA-674a-2019",
        "--strategy",
        "basic",
        "--rounds",
        "500",
        "--calibration-samples",
        "0",
        "--seed",
        "3",
    )
    assert "Five Card Bonus (674a.12(c)) - EXACT, all 2,598,960 hands counted" in text
    assert "House edge: 7653/216580 = 3.5336%" in text
    assert "Royal flush" in text and "250 to 1" in text
    assert "Whole game, strategy 'basic' - SIMULATED, 500 rounds" in text
    assert "Element of risk (per unit wagered):" in text
    assert "Strategy: Across Bet (674a.11(b))" in text
    assert "3x (" in text and "AA" in text


def test_json_parses_with_fractions_as_strings():
    report = json.loads(
        run(
            "double_cross_poker",
            "--ruleset",
            "MA-DCP-UNDATED",
            "--strategy",
            "basic",
            "--rounds",
            "300",
            "--json",
        )
    )
    sheet = report["side_wagers"][0]
    assert sheet["house_edge"]["fraction"] == "128/5525"
    assert sheet["house_edge_percent"] == "2.3167%"
    assert [row["combinations"] for row in sheet["rows"]] == [48, 52, 720, 1096, 3744, 16440]
    game = report["whole_game"]
    assert game["exact"] is False and game["rounds"] == 300
    assert "/" in game["house_edge"]["fraction"]
    assert isinstance(game["house_edge"]["decimal"], str)


def test_592_pair_of_tens_option_is_applied_and_reported():
    report = json.loads(
        run(
            "criss_cross_poker",
            "--ruleset",
            "PA-592-2014",
            "--pair-of-tens",
            "pay_1_to_1",
            "--strategy",
            "basic",
            "--rounds",
            "300",
            "--calibration-samples",
            "0",
            "--json",
        )
    )
    assert report["options"]["pair_of_tens_middle_bets"] == "pay_1_to_1"


@pytest.mark.parametrize(
    "args, message",
    [
        (("blackjack", "--ruleset", "PA-674a-2019"), "unknown game 'blackjack'"),
        (("criss_cross_poker", "--ruleset", "PA-999"), "unknown rule set 'PA-999'"),
        (
            ("double_cross_poker", "--ruleset", "PA-674a-2019"),
            "rule set PA-674a-2019 is for criss_cross_poker, not double_cross_poker",
        ),
        (
            ("criss_cross_poker", "--ruleset", "PA-674a-2019", "--pair-of-tens", "push"),
            "--pair-of-tens applies only",
        ),
        (
            ("criss_cross_poker", "--ruleset", "PA-674a-2019", "--strategy", "hunch"),
            "unknown strategy 'hunch'",
        ),
        (
            ("criss_cross_poker", "--ruleset", "PA-674a-2019", "--strategy"),
            "criss_cross_poker prints no strategy chart",
        ),
        (
            ("three_card_poker", "--ruleset", "PA-565-2010", "--strategy"),
            "three_card_poker has no strategy chart",
        ),
    ],
)
def test_it_refuses_bad_arguments_with_a_clear_message(args, message):
    with pytest.raises(CommandError, match=message.replace("(", r"\(")):
        run(*args)


def test_674a_11_b_exact_classes_print_the_across_decision_with_exact_values():
    report = json.loads(
        run(
            "criss_cross_poker",
            "--ruleset",
            "PA-674a-2019",
            "--exact",
            "--exact-classes",
            "AA,72o",
            "--processes",
            "1",
            "--json",
        )
    )
    assert report["whole_game"] is None  # only with all 169 classes
    table = {row["hand"]: row for row in report["strategy"]["table"]}
    assert set(table) == {"AA", "72o"}
    assert table["AA"]["action"] == "3x"
    assert table["AA"]["value_fold"]["fraction"] == "-2/1"
    assert Fraction(table["AA"]["value_3x"]["fraction"]) > 11  # 674a.12(a), (b): aces pay 1 to 1
    assert table["72o"]["action"] in ("fold", "1x", "3x")
    assert "Down Bet (674a.11(d))" in report["strategy"]["later"][0]
    text = run(
        "criss_cross_poker",
        "--ruleset",
        "PA-674a-2019",
        "--exact",
        "--exact-classes",
        "AA",
        "--processes",
        "1",
    )
    assert "EXACT, optimal strategy" in text
    assert "3x (1 classes): AA" in text
    assert "runtime" in text


@pytest.mark.parametrize(
    "args, message",
    [
        (
            ("criss_cross_poker", "--ruleset", "PA-674a-2019", "--exact-classes", "AA"),
            "--exact-classes needs --exact",
        ),
        (
            ("criss_cross_poker", "--ruleset", "PA-674a-2019", "--exact", "--exact-classes", "ZZ"),
            "unknown starting-hand class",
        ),
        (
            ("double_cross_poker", "--ruleset", "MA-DCP-UNDATED", "--exact"),
            "--exact is available for criss_cross_poker only",
        ),
        (
            ("criss_cross_poker", "--ruleset", "PA-674a-2019", "--exact", "--strategy", "basic"),
            "--exact solves the optimal strategy only",
        ),
    ],
)
def test_exact_refuses_bad_arguments(args, message):
    with pytest.raises(CommandError, match=message):
        run(*args)


def test_565_three_card_poker_par_sheet_is_exact_with_options_from_the_command_line():
    report = json.loads(
        run("three_card_poker", "--ruleset", "PA-565-2010", "--json",
            "--option", "pair_plus_table=1-3-6-30-40")  # fmt: skip
    )
    assert report["options"]["pair_plus_table"] == "1-3-6-30-40"
    assert report["selected"] == "Pair Plus 1-3-6-30-40"
    edges = {sheet["wager"]: sheet["house_edge_percent"] for sheet in report["side_wagers"]}
    assert edges == {
        "Pair Plus 565.12(d) minimum": "12.7964%",  # § 565.12(d)
        "Pair Plus 1-4-6-30-40": "2.3167%",
        "Pair Plus 1-3-6-30-40": "7.2760%",
    }
    game = report["whole_game"]
    assert game["house_edge"]["fraction"] == "686689/20358520"  # § 565.11(b), § 565.12(a)-(e)
    assert game["element_of_risk_percent"] == "2.0147%"
    assert game["strategy"].startswith("Play Q-6-4 or better")
    bonus = {sheet["wager"]: sheet["expected_result"]["fraction"] for sheet in report["ante_bonus"]}
    assert bonus["Ante bonus base"] == "292/5525"  # § 565.12(e)
    assert len(report["by_ante_bonus"]) == 13  # § 565.12(e), and (f): 3 columns x 4 readings
    text = run("three_card_poker", "--ruleset", "PA-565-2010")
    assert "House edge: 686689/20358520 = 3.3730%" in text
    assert "Play Q-6-4 or better" in text and "Pair Plus 1-4-6-30-40" in text


@pytest.mark.parametrize(
    "args, message",
    [
        (("three_card_poker", "--ruleset", "PA-565-2010", "--option", "ante_bonus_table=B"),
         r"565.12\(f\): ante_bonus_table=B needs an ante_bonus_reading"),
        (("three_card_poker", "--ruleset", "PA-565-2010", "--option", "pair_plus_table=2-2"),
         r"option pair_plus_table=2-2 is not one of .* \(565.12\(d\)\)"),
        (("three_card_poker", "--ruleset", "PA-565-2010", "--option", "tie_rule"),
         "is not NAME=VALUE"),
        (("three_card_poker", "--ruleset", "PA-674a-2019"),
         "rule set PA-674a-2019 is for criss_cross_poker, not three_card_poker"),
        (("criss_cross_poker", "--ruleset", "PA-674a-2019", "--option", "x=y"),
         "--option applies to declared par sheets"),
    ],
)  # fmt: skip
def test_three_card_poker_refuses_bad_options(args, message):
    with pytest.raises(CommandError, match=message):
        run(*args)


def test_every_registered_game_has_a_par_sheet():
    from tables.management.commands.parsheet import _games
    from tables.rules import registry

    assert _games() == registry.game_ids()


def test_583_flop_poker_par_sheet_is_exact_and_its_pot_has_no_edge():
    report = json.loads(run("flop_poker", "--ruleset", "PA-583-2014", "--json"))
    edges = {sheet["wager"]: sheet["house_edge"]["fraction"] for sheet in report["side_wagers"]}
    assert edges == {"Three Card Bonus, A-2-3 no straight (583.6(a))": "449/5525",  # § 583.12(c)
                     "Three Card Bonus, A-2-3 a straight": "297/5525"}  # fmt: skip
    game = report["whole_game"]
    assert game["house_edge"]["fraction"] == "3300677/50896300"  # § 583.11(b), § 583.12(a)-(b)
    assert game["play_frequency"]["fraction"] == "191/221" and game["hands_off_the_rule"] == 0
    assert report["pot"]["house_edge"]["fraction"] in ("0", "0/1")  # § 583.11(e)
    assert report["pot"]["handle"] is False


def test_563_hold_em_bonus_par_sheet_bonus_exact_whole_game_simulated():
    report = json.loads(run("texas_hold_em_bonus_poker", "--ruleset", "PA-563-2010", "--json",
                            "--option", "ante_qualifier=flush"))  # fmt: skip
    assert report["options"]["ante_qualifier"] == "flush"
    edges = {sheet["wager"]: sheet["house_edge"]["fraction"] for sheet in report["side_wagers"]}
    assert edges["Bonus 563.12(c) minimum"] == "59/663"  # § 563.12(c)
    assert edges["Bonus 563.12(c) minimum, aces supplement replaces"] == "13873/162435"  # (d)
    game = report["whole_game"]
    assert "SIMULATED (200,000 rounds, seed 1" in game["title"]
    assert game["house_edge"]["fraction"] == "4101/40000"  # flush qualifier, Ante pushed
    assert len(game["by_reading"]) == 4
    assert "SIMULATED" in run("texas_hold_em_bonus_poker", "--ruleset", "PA-563-2010")[:200]


def _row(text, name):
    return next(line.split() for line in text.splitlines() if line.split()[:1] == [name])


def test_585_props_and_hops_text_lists_every_wager_with_its_probability_and_edge():
    text = run("props_and_hops", "--ruleset", "PA-585-2014")
    assert "Props & Hops - EXACT over the 36 throws" in text
    # § 585.4: 30 to 1 on 1/36; the Field pays 2 to 1 on 2 and 12, 1 to 1 otherwise.
    assert _row(text, "HARD_2") == ["HARD_2", "585.2(d)(1)", "30", "to", "1", "0.0277777778",
                                    "0.9722222222", "13.8889%", "5/36"]  # fmt: skip
    assert _row(text, "FIELD")[2:9] == ["2", "to", "1,", "1", "to", "1", "0.4444444444"]
    assert _row(text, "FIELD")[-2:] == ["5.5556%", "1/18"]
    wagers = [line.split()[0] for line in text.split("Every wager")[1].split("Under")[0]
              .splitlines()[2:] if line.strip()]  # fmt: skip
    assert len(wagers) == 25
    # § 585.2(f)(4) says nothing of how Any Doubles loses: both readings printed.
    readings = text.split("Under each reading")[1]
    assert _row(readings, "returned")[-2:] == ["-66.6667%", "-2/3"]


def test_593_high_roll_dice_text_lists_counts_every_wager_and_every_reading():
    text = run("high_roll_dice", "--ruleset", "PA-593-2014")
    counts = text.split("first-roll count")[1].split("Every wager")[0]
    assert "10  0.0000000992" in counts  # six throws of 6^10 (§ 593.2(e)(4))
    # § 593.5(a): the ace pays 3 to 1 and wins ties; § 593.5(b) as read by default.
    assert _row(text, "PIP_1")[-4:] == ["1", "0.2453756295", "1.8497%", "46603/2519424"]
    assert _row(text, "LIKE_7")[2:5] == ["400", "to", "1"]
    assert _row(text, "LIKE_3")[2:5] == ["3", "to", "5"]
    assert _row(text, "MILLION_10")[2:4] == ["$1,000,000.00", "per"]  # § 593.5(c)
    assert _row(text, "EXTRA_ROLL")[-3] == "-"
    readings = text.split("Under each reading")[1]
    assert len([line for line in readings.splitlines() if line.startswith("  4000 ")]) == 6
    seven = run("high_roll_dice", "--ruleset", "PA-593-2014", "--option", "seven_of_a_kind=4000")
    assert _row(seven, "LIKE_7")[2] == "4000" and _row(seven, "LIKE_7")[-2].startswith("-")
