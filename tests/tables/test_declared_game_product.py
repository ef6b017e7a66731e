"""A declared game lives in the product through its declaration alone: Three
Card Poker (§ 565) simulated through the ledger, projected with its settlement
and findings, and drawn on its own layout by the round viewer."""

from __future__ import annotations

import datetime
import re

import pytest
from django.contrib.admin.utils import quote

from audit import projections
from audit.ledger import Actor, NewEvent, append, read_stream
from tables.models import Finding, Round
from tables.rules.events import CardDealt, DealerPaid, Decision, Recipient, WagerPlaced
from tables.rules.rulesets import get_ruleset
from tables.rules.simulate_declared import simulate_declared
from tables.simulation import TablePlan, simulate_gaming_day

pytestmark = pytest.mark.django_db
DAY = datetime.date(2024, 5, 1)
TCP = TablePlan("TCP-01", "PA-565-2010", seats=(1, 2, 3, 4, 5, 6))


def test_a_three_card_poker_day_through_the_ledger_is_projected_with_settlement_and_findings():
    summary = simulate_gaming_day([TCP], DAY, rounds_per_table=40, seed=3,
                                  dealer_error_percent=30, irregularity_percent=5)  # fmt: skip
    rows = Round.objects.filter(table_id="TCP-01")
    assert rows.count() == summary.rounds == 40
    assert set(rows.values_list("game", "ruleset_id", "status").distinct()) == {
        ("three_card_poker", "PA-565-2010", "closed")}  # fmt: skip
    expected = sorted((stream, i.seat, str(i.wager), i.expected_finding.value)
                      for stream, i in summary.injected)  # fmt: skip
    assert len(expected) >= 5
    assert sorted(Finding.objects.values_list("round_id", "seat", "wager", "kind")) == expected
    assert all(f.startswith("565.") for f in Finding.objects.values_list("section", flat=True))
    for row in rows.filter(finding_count=0):
        assert row.recorded_paid_cents == row.required_paid_cents
        assert row.recorded_collected_cents == row.required_collected_cents
    # A Play Wager is placed by a decision, and an Ante bonus paid on a wager never placed.
    events = [event for row in rows for event in read_stream(row.stream_id)]
    assert any(e.event_type == "round.decision" and e.payload["choice"] == "play" for e in events)
    # The simulator's handle counts the Play Wagers (decisions that put chips down).
    assert summary.handle_cents["TCP-01"] == sum(
        e.payload["amount_cents"] or 0 for e in events
        if e.event_type in ("round.wager_placed", "round.decision"))  # fmt: skip


def _append_round(events, stream: str) -> None:
    append(stream, [NewEvent(e.TYPE, e.to_payload()) for e in events], expected_version=0,
           actor=Actor.system("tests"))  # fmt: skip
    projections.run(projections.PROJECTIONS["tables.rounds"])


def _a_round_with_a_play_and_a_bonus():
    import dataclasses
    import random

    for seed in range(500):
        sim = simulate_declared(random.Random(seed), get_ruleset("PA-565-2010"),
                                seats=(1, 3, 5), gaming_day=DAY)  # fmt: skip
        plays = [e for e in sim.events if isinstance(e, Decision) and e.choice == "play"]
        paid = {e.wager for e in sim.events if isinstance(e, DealerPaid)}
        if plays and "ANTE_BONUS" in paid and len(plays) < 3:
            opened = dataclasses.replace(sim.events[0], round_id="TCP-01-1", table_id="TCP-01")
            return [opened, *sim.events[1:]]
    raise AssertionError("no round with a Play Wager, a fold and an Ante bonus")


def _spots(page: str, css: str) -> list[tuple[str, list[str]]]:
    """(label, card labels) of each hand of class ``css`` the viewer drew."""
    hands = re.findall(rf'<div class="{css}"[^>]*>(.*?)<br>([^<]*)</div>', page, re.S)
    return [(label, re.findall(r'aria-label="([^"]+)"', cards)) for cards, label in hands]


def test_the_round_viewer_draws_three_card_pokers_layout_dealer_and_seats(admin_client):
    events = _a_round_with_a_play_and_a_bonus()
    stream = "round:TCP-01-1"
    _append_round(events, stream)
    page = admin_client.get(f"/admin/tables/round/{quote(stream)}/change/")
    assert page.status_code == 200
    html = page.content.decode()
    dealt = [e for e in events if isinstance(e, CardDealt)]
    dealer = [str(e.card) for e in dealt if e.recipient is Recipient.DEALER]
    assert _spots(html, "layout-dealer") == [("dealer", dealer)] and len(dealer) == 3
    wagering = sorted({e.seat for e in events if isinstance(e, WagerPlaced)})
    seats = [(f"seat {seat}", [str(e.card) for e in dealt if e.seat == seat]) for seat in wagering]
    assert _spots(html, "layout-seat") == seats
    assert all(len(cards) == 3 for _, cards in seats)
    assert 'class="cross"' not in html and "layout-community" not in html
    # The settlement beside what the dealer did, Play and Ante bonus lines included.
    assert "<td>PLAY</td>" in html and "<td>ANTE_BONUS</td>" in html and "§ 565.12" in html
    assert Round.objects.get(stream_id=stream).finding_count == 0


def test_the_round_viewer_still_draws_the_cross_for_criss_cross(admin_client):
    from tests.tables.helpers import criss_cross_round

    events, _ = criss_cross_round()
    _append_round(events, "round:T1-1")
    html = admin_client.get(f"/admin/tables/round/{quote('round:T1-1')}/change/").content.decode()
    assert html.count('<table class="cross"') == 1
    cross = html.split('<table class="cross"')[1].split("</table>")[0]
    community = [str(e.card) for e in events
                 if isinstance(e, CardDealt) and e.recipient is Recipient.COMMUNITY]  # fmt: skip
    assert sorted(re.findall(r'aria-label="([^"]+)"', cross)) == sorted(community)
    assert [label for label, cards in _spots(html, "layout-seat") if len(cards) == 2] == [
        "seat 1", "seat 2"]  # fmt: skip
    assert "layout-dealer" not in html
