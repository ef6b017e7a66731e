"""The blackjack family in the product by its declarations alone: a day of each game
through the ledger, projected with exactly the injected findings, its handle without
lammers, and the round viewer's split hands, sideways doubles, lammers and dealer."""

from __future__ import annotations

import datetime
import random

import pytest

from tables.cards_svg import blackjack_html
from tables.models import Finding, Round
from tables.rules.blackjack_games import double_back_jack_591, free_bet_blackjack_590
from tables.rules.blackjack_simulate import simulate_table
from tables.rules.events import CardDealt, Recipient
from tables.simulation import TablePlan, simulate_gaming_day

DAY = datetime.date(2015, 6, 1)


@pytest.mark.django_db
@pytest.mark.parametrize(("table", "ruleset", "chapter"), [
    ("DAB-01", "PA-581-2014", "581."),
    ("FBB-01", "PA-590-2014", "590."),
    ("DBJ-01", "PA-591-2014", "591."),
])  # fmt: skip
def test_a_blackjack_day_is_projected_with_exactly_the_injected_findings(table, ruleset, chapter):
    plan = TablePlan(table, ruleset, seats=(1, 2, 3, 4, 5))
    summary = simulate_gaming_day([plan], DAY, rounds_per_table=25, seed=7,
                                  dealer_error_percent=40, irregularity_percent=5)  # fmt: skip
    rows = Round.objects.filter(table_id=table)
    assert rows.count() == summary.rounds == 25
    assert set(rows.values_list("ruleset_id", "status").distinct()) == {(ruleset, "closed")}
    expected = sorted((stream, i.seat, str(i.wager), i.expected_finding.value)
                      for stream, i in summary.injected)  # fmt: skip
    assert expected
    assert sorted(Finding.objects.values_list("round_id", "seat", "wager", "kind")) == expected
    assert all(f.startswith(chapter) for f in Finding.objects.values_list("section", flat=True))


def _rounds_with(game, wanted: str, seed: int = 3) -> str:
    for events in simulate_table(random.Random(seed), game, rounds=200).rounds:
        drawn = blackjack_html(events)
        if wanted in drawn:
            return drawn
    raise AssertionError(f"no simulated round drew {wanted}")


def test_590_10_c_591_10_b_the_viewer_draws_a_doubled_hands_card_sideways():
    drawn = _rounds_with(double_back_jack_591.GAME, "card-sideways")
    assert 'title="doubled: dealt sideways"' in drawn or "Second Chance card" in drawn


def test_590_11_b_the_viewer_draws_split_hands_side_by_side_with_their_lammers():
    """§ 590.11(b)(2): the lammer is the second split hand's wager, drawn as a marker."""
    drawn = _rounds_with(free_bet_blackjack_590.GAME, "layout-seat split")
    assert "hand 1" in drawn and "hand 2" in drawn
    assert 'class="lammer"' in _rounds_with(free_bet_blackjack_590.GAME, 'class="lammer"')


def test_591_7_l_the_viewer_draws_the_second_chance_card_sideways():
    drawn = _rounds_with(double_back_jack_591.GAME, "Second Chance card")
    assert "card-sideways" in drawn


def test_5xx_7_the_dealers_hole_card_is_face_down_until_turned():
    """§ 590.7(e), (m): the hole card is dealt face down and turned before the dealer draws."""
    events = simulate_table(random.Random(2), free_bet_blackjack_590.GAME, rounds=1).rounds[0]
    up_to_hole = next(i for i, e in enumerate(events) if isinstance(e, CardDealt)
                      and e.recipient is Recipient.DEALER and e.spot == "2") + 1  # fmt: skip
    before = blackjack_html(events[:up_to_hole])
    after = blackjack_html(events)
    dealer = before.split('class="layout-dealer"')[1].split("</div>")[0]
    assert dealer.count("face-down card") == 1 and dealer.count("<svg") == 2
    dealer = after.split('class="layout-dealer"')[1].split("</div>")[0]
    assert "face-down card" not in dealer


@pytest.mark.django_db
def test_590_a_free_bet_table_closes_with_handle_without_lammers_and_theoretical_win(
        role_users, settings, tmp_path, monkeypatch):  # fmt: skip
    """§ 590.7(n)-(q): the close's handle is the money wagered (lammers are markers) and
    its theoretical win is Σ handle × the par sheet's edge; the table is on the floor board."""
    from fractions import Fraction

    from casino.models import Casino, Jurisdiction
    from operations.close import close_gaming_day
    from tables.floor import board_state
    from tables.models import Table, TableDayFigures
    from tables.rules.house_edge import house_edges
    from tests.operations.test_close import CREW, TEST_KEY, LedgerClock

    settings.EXPORT_ROOT = tmp_path / "exports"
    settings.LEDGER_SIGNING_KEY = TEST_KEY
    jurisdiction, _ = Jurisdiction.objects.get_or_create(code="PA", name="Pennsylvania")
    Casino.objects.create(name="Test casino", jurisdiction=jurisdiction)
    Table.objects.create(table_id="FBB-01", pit="1", game="free_bet_blackjack",
                         ruleset_id="PA-590-2014", min_wager_cents=500, max_wager_cents=50000,
                         dealing_method="AUTOMATED_SHOE")  # fmt: skip
    clock = LedgerClock(monkeypatch)
    clock.at = datetime.datetime.combine(DAY, datetime.time(15), tzinfo=datetime.UTC)
    from tables.simulation import simulate_table_days

    simulate_table_days([TablePlan("FBB-01", "PA-590-2014")], DAY, rounds_per_table=30, seed=4,
                        crew=CREW, dealer_error_percent=0, irregularity_percent=0)  # fmt: skip
    (tile,) = [t for t in board_state(clock.at)["tables"] if t["table_id"] == "FBB-01"]
    assert (tile["game"], tile["rounds_today"]) == ("Free Bet Blackjack", 30)
    clock.at = datetime.datetime.combine(DAY + datetime.timedelta(days=1), datetime.time(11),
                                         tzinfo=datetime.UTC)  # fmt: skip
    close_gaming_day(DAY, requested_by="finance")
    figures = TableDayFigures.objects.get(table_id="FBB-01", gaming_day=DAY)
    assert figures.status == "reconciled" and figures.rounds == 30
    from audit.ledger import read_stream

    placed = {"BLACKJACK": 0, "PUSH_22": 0}
    chosen = lammers = 0
    for row in Round.objects.filter(table_id="FBB-01"):
        for event in read_stream(row.stream_id):
            if event.event_type == "round.wager_placed":
                placed[event.payload["wager"]] += event.payload["amount_cents"]
            elif event.event_type == "round.decision":
                # A paid double or split is handle; a free one puts down a lammer, no money.
                chosen += event.payload["amount_cents"] or 0
                lammers += event.payload["choice"] in ("double", "split") and not (
                    event.payload["amount_cents"])  # fmt: skip
    assert lammers, "no lammer in 30 rounds: the test proves nothing"
    assert figures.handle_cents == sum(placed.values()) + chosen
    edges = {frozenset(edge.handle): edge.edge for edge in house_edges("PA-590-2014")}
    theoretical = (placed["BLACKJACK"] * edges[frozenset({"BLACKJACK"})]
                   + placed["PUSH_22"] * edges[frozenset({"PUSH_22"})])  # fmt: skip
    assert abs(figures.theoretical_win_cents - theoretical) <= Fraction(1, 2)


def test_581_7_n_13_d_the_viewer_shows_the_dealers_required_action_beside_his_own():
    """A dealer who drew to a soft 17 is shown against the rule; clean rounds are not."""
    from tables.rules.blackjack_games import double_attack_blackjack_581
    from tables.rules.blackjack_simulate import DealerError

    table = simulate_table(random.Random(19), double_attack_blackjack_581.GAME, rounds=300,
                           errors=(DealerError.DEALER_HITS_SOFT_17,))  # fmt: skip
    (planted,) = table.injected
    for events in table.rounds:
        drawn = blackjack_html(events)
        assert 'title="§ 581.7(n)"' in drawn or "dealer-actions" not in drawn
        if events[0].round_id == planted.round_id:
            assert "17: must stand, did draw (" in drawn and "discard rack, § 581.13(d))" in drawn
            assert "dealer-error" in drawn
        else:
            assert "dealer-error" not in drawn


def test_590_12_c_parsheet_command_prints_the_family_sheet_for_the_chosen_paytable():
    """``manage.py parsheet``: § 590.12(c) paytable B with the default six decks."""
    import io
    import json
    from fractions import Fraction

    from django.core.management import call_command

    from tables.rules.blackjack import FREE_BET_590
    from tables.rules.blackjack_parsheet import push_22_sheet
    from tables.rules.blackjack_strategy import house_edge
    from tables.rules.parsheets._blackjack import MAIN_GAME

    out = io.StringIO()
    call_command("parsheet", "free_bet_blackjack", "--ruleset", "PA-590-2014",
                 "--option", "push_22_table=B", "--json", stdout=out)  # fmt: skip
    report = json.loads(out.getvalue())
    assert report["exact"] is False and report["options"]["decks"] == 6
    edges = {sheet["wager"]: Fraction(sheet["house_edge"]["fraction"])
             for sheet in report["side_wagers"]}  # fmt: skip
    assert edges["PUSH_22"] == push_22_sheet(6, "B").house_edge
    game = Fraction(report["whole_game"]["house_edge"]["fraction"])
    assert game == house_edge(FREE_BET_590, 6).house_edge
    simulated = Fraction(report["whole_game"]["simulated_house_edge"]["fraction"])
    assert simulated == MAIN_GAME["free_bet_blackjack"].edge
    assert any(line.startswith("pair 8,8") for line in report["whole_game"]["chart"])


def test_590_10_parsheet_strategy_prints_the_chart_alone():
    """``manage.py parsheet <game> --strategy``: rows the totals, columns the up card;
    § 590.10(a)(1) a hard 11 doubles free against every up card."""
    import io

    from django.core.management import call_command

    out = io.StringIO()
    call_command("parsheet", "free_bet_blackjack", "--ruleset", "PA-590-2014", "--strategy",
                 stdout=out)  # fmt: skip
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("Chapter 590, 6 decks")
    assert lines[1].split() == ["2", "3", "4", "5", "6", "7", "8", "9", "10", "A"]
    hard_11 = next(line for line in lines if line.startswith("hard 11"))
    assert hard_11.split()[2:] == ["D"] * 10


@pytest.mark.django_db
def test_590_2_a_a_free_bet_table_has_at_most_six_positions():
    """§ 590.2(a): betting positions for no more than six players."""
    from django.core.exceptions import ValidationError

    from tables.models import Table

    table = Table(table_id="FBB-09", game="free_bet_blackjack", ruleset_id="PA-590-2014",
                  min_wager_cents=500, max_wager_cents=50000, positions=6,
                  dealing_method="AUTOMATED_SHOE")  # fmt: skip
    table.clean()
    table.positions = 7
    with pytest.raises(ValidationError, match=r"at most 6 positions \(§ 590.2\(a\)\)"):
        table.clean()
