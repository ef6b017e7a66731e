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
