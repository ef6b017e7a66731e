"""The round viewer in the admin: the required settlement beside what the
dealer did, added up per (seat, wager) exactly as the findings add it up."""

from __future__ import annotations

import dataclasses
import datetime
import html
import re

import pytest
from django.contrib.admin.utils import quote

from audit import projections
from audit.ledger import Actor, NewEvent, append
from tables.models import Finding
from tables.rules.events import DealerPaid, Wager
from tests.tables.helpers import criss_cross_round

pytestmark = pytest.mark.django_db
STREAM = "round:T1-1"
# Seat 1 of this simulated round wins $50.00 on its Across Bet and $25.00 on its Ante Across.
SEED = 33


def _payment(events, wager: Wager) -> tuple[int, DealerPaid]:
    return next((i, e) for i, e in enumerate(events)
                if isinstance(e, DealerPaid) and (e.seat, e.wager) == (1, wager))  # fmt: skip


def _append(events, version: int = 0) -> None:
    append(STREAM, [NewEvent(e.TYPE, e.to_payload()) for e in events], expected_version=version,
           actor=Actor.system("tests"))  # fmt: skip
    projections.run(projections.PROJECTIONS["tables.rounds"])


def _round_with(wager: Wager, amounts: list[int]) -> int:
    """The simulated round with its one payment on seat 1's ``wager`` replaced
    by one payment per amount, appended and projected. Returns the amount the
    settlement requires."""
    events, _ = criss_cross_round(seed=SEED)
    at, paid = _payment(events, wager)
    events[at : at + 1] = [dataclasses.replace(paid, amount_cents=a) for a in amounts]
    _append(events)
    return paid.amount_cents


def _dealer_did(client, seat: int, wager: Wager) -> tuple[str, str]:
    """The (required, dealer did) cells of the viewer's line for a seat's wager."""
    page = client.get(f"/admin/tables/round/{quote(STREAM)}/change/")
    assert page.status_code == 200
    rows = re.findall(r"<tr[^>]*><td>(\d+)</td><td>([A-Z_0-9]+)</td><td>[^<]*</td><td>[^<]*</td>"
                      r"<td>([^<]*)</td><td>([^<]*)</td><td>§ [^<]*</td></tr>",
                      page.content.decode())  # fmt: skip
    (line,) = [(req, did) for s, w, req, did in rows if (int(s), w) == (seat, wager.value)]
    return html.unescape(line[0]), html.unescape(line[1])


def test_a_wager_paid_in_two_parts_shows_their_sum_and_no_mispay(admin_client):
    required = _round_with(Wager.ACROSS_BET, [2_500, 2_500])
    assert required == 5_000
    assert _dealer_did(admin_client, 1, Wager.ACROSS_BET) == (
        "$50.00", "paid $50.00 ($25.00 + $25.00)")  # fmt: skip
    assert not Finding.objects.filter(seat=1, wager=Wager.ACROSS_BET.value).exists()


def test_a_wager_paid_twice_shows_both_payments_beside_the_finding(admin_client):
    required = _round_with(Wager.ANTE_ACROSS, [2_500, 2_500])
    assert required == 2_500
    assert _dealer_did(admin_client, 1, Wager.ANTE_ACROSS) == (
        "$25.00", "paid $50.00 ($25.00 + $25.00)")  # fmt: skip
    (finding,) = Finding.objects.filter(seat=1, wager=Wager.ANTE_ACROSS.value)
    assert (finding.kind, finding.expected_cents, finding.recorded_cents) == (
        "MISPAID_AMOUNT", 2_500, 5_000)  # fmt: skip
    page = admin_client.get(f"/admin/tables/round/{quote(STREAM)}/change/").content.decode()
    assert "MISPAID_AMOUNT" in page and "$50.00" in page


def test_the_viewer_shows_the_round_as_it_is_now_not_as_first_viewed(admin_client):
    events, _ = criss_cross_round(seed=SEED)
    at, _ = _payment(events, Wager.ANTE_ACROSS)
    _append(events[:at])
    assert _dealer_did(admin_client, 1, Wager.ANTE_ACROSS) == ("$25.00", "nothing")
    _append(events[at:], version=at)
    assert _dealer_did(admin_client, 1, Wager.ANTE_ACROSS) == ("$25.00", "paid $25.00")


# --- what a floor supervisor reads on the round's page ------------------------------------


def _page(client, stream: str = STREAM) -> str:
    page = client.get(f"/admin/tables/round/{quote(stream)}/change/")
    assert page.status_code == 200
    return page.content.decode()


def test_the_mispaid_line_is_highlighted_and_the_others_are_not(admin_client):
    _round_with(Wager.ANTE_ACROSS, [2_500, 2_500])
    page = _page(admin_client)
    (marked,) = re.findall(r'<tr class="mispaid"><td>(\d+)</td><td>([A-Z_]+)</td>', page)
    assert marked == ("1", "ANTE_ACROSS")


def test_the_round_names_its_dealer_floorperson_game_rules_and_table_day(admin_client,
                                                                         role_users):  # fmt: skip
    from tests.tables.test_table_day import make_floor

    make_floor(role_users).open_table()  # table T1 on 2024-05-01: dealer and floorperson
    _round_with(Wager.ACROSS_BET, [5_000])
    page = _page(admin_client)
    assert "dealer <strong>dealer</strong> · floorperson <strong>floorperson</strong>" in page
    assert "Criss-Cross Poker" in page and "58 Pa. Code Chapter 674a" in page
    assert ">criss_cross_poker<" not in page and "Computed at position" not in page
    assert 'href="/admin/floor/T1/2024-05-01/"' in page
    assert "§ 674a." in page


def test_the_rounds_history_is_its_events_with_who_recorded_each_and_from_where(admin_client):
    from audit.models import Event

    _round_with(Wager.ACROSS_BET, [5_000])
    page = _page(admin_client)
    history = page[page.index('id="round-history"'):]
    rows = re.findall(r"<tr><td class=\"num\">(\d+)</td><td>([a-z_.]+)</td>", history)
    stored = list(Event.objects.filter(stream_id=STREAM).order_by("version")
                  .values_list("version", "event_type"))  # fmt: skip
    assert [(int(v), t) for v, t in rows] == [(v, t.removeprefix("round.")) for v, t in stored]
    assert "<td>tests</td><td>—</td><td>job</td>" in history
    # The admin's History button leads to the same events.
    response = admin_client.get(f"/admin/tables/round/{quote(STREAM)}/history/")
    assert response.status_code == 302 and response.url.endswith("/change/#round-history")


def test_a_massachusetts_round_cites_its_sections_as_section_not_with_a_section_sign(
    admin_client,
):
    import random

    from tables.rules.rulesets import get_ruleset
    from tables.rules.simulate import simulate_double_cross

    simulated = simulate_double_cross(random.Random(3), get_ruleset("MA-DCP-UNDATED"),
                                      seats=(1, 2), gaming_day=datetime.date(2024, 5, 1))
    opened = dataclasses.replace(simulated.events[0], round_id="DX-1", table_id="DX-1")
    events = [opened, *simulated.events[1:]]
    append("round:DX-1", [NewEvent(e.TYPE, e.to_payload()) for e in events], expected_version=0,
           actor=Actor.system("tests"))  # fmt: skip
    projections.run(projections.PROJECTIONS["tables.rounds"])
    page = _page(admin_client, "round:DX-1")
    assert "<td>Section 10(" in page or "<td>Section 11(" in page
    assert "§ Section" not in page
    assert "Double Cross Poker" in page


def test_593_the_viewer_draws_a_high_roll_dice_round_with_the_circles_it_won(admin_client):
    import random

    from tables.rules.events import DiceThrown
    from tables.rules.registry import ruleset
    from tables.rules.simulate_declared import Play, simulate_declared

    sim = simulate_declared(random.Random(5), ruleset("PA-593-2014"), seats=(1, 2),
                            play=Play(no_roll_percent=0))  # fmt: skip
    stream = "round:HRD-1"
    events = [dataclasses.replace(sim.events[0], round_id="HRD-1"), *sim.events[1:]]
    append(stream, [NewEvent(e.TYPE, e.to_payload()) for e in events], expected_version=0,
           actor=Actor.system("tests"))  # fmt: skip
    projections.run(projections.PROJECTIONS["tables.rounds"])
    page = admin_client.get(f"/admin/tables/round/{quote(stream)}/change/").content.decode()
    first = next(e.faces for e in sim.events if isinstance(e, DiceThrown))
    assert page.count('class="die"') >= len(first) == 10
    # § 593.2(e)(2): the Like Kind Boulevard circle of the first roll's count is marked won.
    count = max(first.count(face) for face in first)
    assert f"&#10003; Like Kind Boulevard {count} of a kind" in page
