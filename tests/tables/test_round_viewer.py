"""The round viewer in the admin: the required settlement beside what the
dealer did, added up per (seat, wager) exactly as the findings add it up."""

from __future__ import annotations

import dataclasses
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
    rows = re.findall(r"<tr><td>(\d+)</td><td>([A-Z_0-9]+)</td><td>[^<]*</td><td>[^<]*</td>"
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
