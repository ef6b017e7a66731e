"""``manage.py parsheet`` for Four Card Poker (§ 557) and Let It Ride (§ 559)."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError


def run(*args):
    out = StringIO()
    call_command("parsheet", *args, stdout=out)
    return out.getvalue()


def test_559_let_it_ride_par_sheet_is_exact_with_every_three_card_bonus_table():
    report = json.loads(run("let_it_ride", "--ruleset", "PA-559-2010", "--json",
                            "--option", "three_card_bonus_table=D"))  # fmt: skip
    game = report["whole_game"]
    assert game["house_edge"]["fraction"] == "37963/1082900"  # 3.5057 % per bet
    assert game["element_of_risk_percent"] == "2.8453%"
    tables = [sheet["wager"] for sheet in report["side_wagers"]]
    assert len(tables) == 9 and report["selected"] == "Three Card Bonus Table D"
    assert report["let_it_ride_bonus"]["house_edge"]["fraction"] == "460/1911"


def test_559_14_e_the_command_refuses_tables_a_to_c_without_a_reading():
    with pytest.raises(CommandError, match="559.14"):
        run("let_it_ride", "--ruleset", "PA-559-2010", "--option", "three_card_bonus_table=A")


def test_557_four_card_poker_par_sheet_aces_up_exact_and_the_game_simulated(monkeypatch):
    from tables.rules.parsheets import four_card_poker

    monkeypatch.setattr(four_card_poker, "ROUNDS", 2_000)
    text = run("four_card_poker", "--ruleset", "PA-557-2010", "--option", "aces_up_table=V")
    assert "EXACT side wagers, SIMULATED game" in text
    assert "Aces Up Table V (557.12(a)(3)) (this rule set's) - EXACT, all 2,598,960" in text
    assert "House edge: 12643/324870 = 3.8917%" in text
    assert "2,598,960 hands" in text and "SIMULATED" in text
