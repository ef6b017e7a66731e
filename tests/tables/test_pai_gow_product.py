"""Pai Gow Poker (§ 561) and Six-Card Fortune Pai Gow Poker (§ 588) days through the
ledger: simulated with dealer errors and irregularities, projected, every finding the
one injected, and the joker drawn by the round viewer."""

from __future__ import annotations

import datetime

import pytest

from tables.models import Finding, Round
from tables.simulation import TablePlan, simulate_gaming_day

pytestmark = pytest.mark.django_db
DAY = datetime.date(2024, 5, 1)


@pytest.mark.parametrize(("table", "ruleset", "game", "chapter"), [
    ("PGP-01", "PA-561-2010", "pai_gow_poker", "561."),
    ("SCFPGP-01", "PA-588-2014", "six_card_fortune_pai_gow_poker", "588."),
])  # fmt: skip
def test_a_pai_gow_day_is_projected_with_exactly_the_injected_findings(table, ruleset, game,
                                                                       chapter):  # fmt: skip
    plan = TablePlan(table, ruleset, seats=(1, 2, 3, 4, 5, 6))
    summary = simulate_gaming_day([plan], DAY, rounds_per_table=30, seed=5,
                                  dealer_error_percent=30, irregularity_percent=5)  # fmt: skip
    rows = Round.objects.filter(table_id=table)
    assert rows.count() == summary.rounds == 30
    assert {row.game for row in rows} == {game}
    expected = sorted((stream, i.seat, str(i.wager), i.expected_finding.value)
                      for stream, i in summary.injected)  # fmt: skip
    assert expected
    assert sorted(Finding.objects.values_list("round_id", "seat", "wager", "kind")) == expected
    assert all(f.startswith(chapter) for f in Finding.objects.values_list("section", flat=True))
    for row in rows.filter(finding_count=0):
        assert row.recorded_paid_cents == row.required_paid_cents
