"""Names in round events are whole names: a wager, spot or option name with a
trailing newline is refused, not stored beside the name it resembles (a "$"
anchor matches before a final newline; the checks use fullmatch)."""

from __future__ import annotations

import datetime

import pytest

from tables.rules.events import DealingMethod, RoundOpened, WagerPlaced


@pytest.mark.parametrize("name", ["ANTE\n", "ANTE\r\n", "\nANTE", "AN TE", ""])
def test_a_wager_name_with_a_newline_or_space_is_refused(name):
    with pytest.raises(ValueError, match="declared name"):
        WagerPlaced.from_payload({"seat": 1, "wager": name, "amount_cents": 500})


def test_a_declared_name_is_accepted():
    event = WagerPlaced.from_payload({"seat": 1, "wager": "ANTE", "amount_cents": 500})
    assert event.wager == "ANTE"


def test_an_option_name_with_a_trailing_newline_is_refused():
    payload = RoundOpened.build(
        round_id="T1-1", game="three_card_poker", ruleset_id="PA-565-2010", table_id="T1",
        gaming_day=datetime.date(2024, 1, 1), seats=(1,),
        players=("p",), dealing_method=DealingMethod.HAND, pay_table="A",
    ).to_payload()
    assert RoundOpened.from_payload(payload).option("pay_table") == "A"
    payload["options"] = {"pay_table\n": "A"}
    with pytest.raises(ValueError, match="badly formed option name"):
        RoundOpened.from_payload(payload)
