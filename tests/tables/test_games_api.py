"""``GET /api/v1/games``: every registered game's declared names, for table devices."""

from __future__ import annotations

import pytest

from casino.roles import Role
from tables.rules import registry

pytestmark = pytest.mark.django_db


def test_every_registered_game_is_published_with_the_names_its_events_may_use(
    api_client, role_users
):
    api_client.force_authenticate(role_users[Role.DEALER])
    response = api_client.get("/api/v1/games")
    assert response.status_code == 200
    games = {game["id"]: game for game in response.json()["games"]}
    assert set(games) == set(registry.game_ids())
    three = games["three_card_poker"]
    assert three["layout"]["dealer_spots"] == ["1", "2", "3"]
    play = next(step for step in three["steps"] if step["kind"] == "decide")
    assert play["section"] == "11(b)"
    assert [choice["name"] for choice in play["choices"]] == ["play", "fold"]
    reading = next(option for option in three["options"] if option["name"] == "ante_bonus_reading")
    assert reading["default"] is None and "straight_ABC_spades_AC" in reading["choices"]
    assert games["criss_cross_poker"]["layout"]["community_spots"] == [
        "TOP", "ROW_1", "CENTER", "ROW_3", "BOTTOM"]  # fmt: skip
    # § 590.7(e): the deal order; § 590.10(a)(1), § 590.11(b)(2): lammers are no handle.
    free_bet = games["free_bet_blackjack"]
    assert free_bet["deal"] == ["seats", "dealer_up", "seats", "dealer_hole"]
    assert {w["name"] for w in free_bet["wagers"] if not w["handle"]} == {
        "FREE_DOUBLE_LAMMER", "FREE_SPLIT_LAMMER"}  # fmt: skip
    assert [r["id"] for r in games["double_attack_blackjack"]["rulesets"]] == ["PA-581-2014"]


def test_the_games_are_read_only_to_accounts_with_a_casino_role(api_client, role_users):
    assert api_client.get("/api/v1/games").status_code == 401
    api_client.force_authenticate(role_users[None])
    assert api_client.get("/api/v1/games").status_code == 403
