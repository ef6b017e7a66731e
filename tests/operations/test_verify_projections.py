"""Issue 21's insider attacks on the read models of a closed and sealed day.

Before: a round's recorded payment, a table day's win, drop and fills, the
day's variances, the day-close summary's win, a stream head's hash and
version and the rule set in the history table, each edited by someone with
database rights, were named by nothing; the finance page showed the forged
win, and ``rebuild_projection`` overwrote the evidence silently. Now
``verify_projections`` recomputes every read model from the ledger into
shadow tables and names each difference (table, key, field, stored value,
the value the events give, the events), its outcome recorded in the ledger,
which the finance pages, the floor board and the export read."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command

from audit import consistency
from audit.exports import ExportError, export_day
from audit.ledger import read_stream
from audit.models import StreamIndex
from casino.models import DayClose
from casino.roles import Role
from operations.close import close_gaming_day
from tables.models import Round, TableDay, TableDayFigures, Variance
from tables.simulation import TableDayPlan
from tests.audit.test_verify_ledger import _bypass_triggers
from tests.operations.test_close import DAY
from tests.operations.test_configuration_in_the_ledger import imported  # noqa: F401

pytestmark = pytest.mark.django_db
PAGE = f"/admin/finance/{DAY.isoformat()}/"
RED = "These figures are not the ledger's."


def verify_projections(*arguments: str) -> tuple[int, str]:
    out = StringIO()
    try:
        call_command("verify_projections", "--no-progress", "--by", "auditor", *arguments,
                     stdout=out)  # fmt: skip
    except SystemExit as exit_:
        return int(exit_.code), out.getvalue()
    return 0, out.getvalue()


@pytest.fixture
def closed(imported, play):  # noqa: F811
    # T1's tray $30 short at the close and D1's drop $100 short: two variances.
    play(TableDayPlan(inventory_short_cents={"T1": 3_000}, drop_short_cents={"D1": 10_000}))
    close_gaming_day(DAY, requested_by="finance")
    assert Variance.objects.filter(gaming_day=DAY).count() == 2
    for user in imported.values():
        user.is_staff = True
        user.save()
    return imported


def _page(client, users, path=PAGE) -> str:
    client.force_login(users[Role.FINANCE])
    response = client.get(path)
    assert response.status_code == 200
    return response.content.decode()


def _warns(client, users) -> str:
    """The finance day page warns in red, linking the recorded differences."""
    html = _page(client, users)
    assert RED in html
    outcome = consistency.last_outcome(DAY)
    assert f'href="/admin/read-model-check/{outcome.position}/"' in html
    return html


def test_an_untouched_day_verifies_and_the_page_does_not_warn(closed, client):
    code, out = verify_projections()
    assert code == 0, out
    assert "OK: " in out and "every row is what the events give" in out
    code, out = verify_projections("--gaming-day", DAY.isoformat())
    assert code == 0, out
    assert "tables.decks: its rows have no gaming day" in out
    assert RED not in _page(client, closed)
    (outcome,) = consistency.recent_outcomes()[:1]
    assert outcome.count == 0 and outcome.payload["gaming_day"] == DAY.isoformat()
    assert outcome.run_by == "auditor"


def test_21_a_rounds_recorded_payment_raised_by_1000_dollars_is_named(closed, client):
    target = Round.objects.filter(gaming_day=DAY, table_id="T1").order_by("stream_id").first()
    paid = target.recorded_paid_cents
    _bypass_triggers("UPDATE tables_round SET recorded_paid_cents = recorded_paid_cents + "
                     "100000 WHERE stream_id = %s", [target.stream_id])  # fmt: skip
    code, out = verify_projections("--gaming-day", DAY.isoformat())
    assert code == 1
    last = read_stream(target.stream_id)[-1]
    assert (f"DIFFERS tables.rounds: tables_round {target.stream_id}: recorded_paid_cents is "
            f"{paid + 100000}, the events give {paid} ({target.stream_id} up to version "
            f"{last.version} (position {last.position}))") in out, out
    assert "1 difference(s) (2024-05-01: 1)" in out
    _warns(client, closed)


def test_21_a_table_days_win_drop_and_fills_raised_are_named(closed, client):
    row = TableDayFigures.objects.get(gaming_day=DAY, table_id="T1")
    fills = TableDay.objects.get(gaming_day=DAY, table_id="T1").fills_cents
    _bypass_triggers("UPDATE tables_tabledayfigures SET win_cents = win_cents + 5000000, "
                     "drop_cents = drop_cents + 5000000, fills_cents = fills_cents + 100000 "
                     "WHERE id = %s", [row.id])  # fmt: skip
    _bypass_triggers("UPDATE tables_tableday SET fills_cents = fills_cents + 100000 "
                     "WHERE table_id = 'T1' AND gaming_day = %s", [DAY])  # fmt: skip
    code, out = verify_projections()
    assert code == 1
    close = read_stream(f"close:{DAY}")
    reconciled = next(e for e in close if e.event_type == "close.reconciled")
    source = f"(close:{DAY} up to version {reconciled.version} (position {reconciled.position}))"
    for field, stored, given in (("win_cents", row.win_cents + 5000000, row.win_cents),
                                 ("drop_cents", row.drop_cents + 5000000, row.drop_cents),
                                 ("fills_cents", row.fills_cents + 100000, row.fills_cents)):
        assert (f"DIFFERS casino.closes: tables_tabledayfigures T1 {DAY}: {field} is {stored}, "
                f"the events give {given} {source}") in out, out
    assert (f"DIFFERS tables.table_days: tables_tableday table:T1:{DAY}: fills_cents is "
            f"{fills + 100000}, the events give {fills} (table:T1:{DAY} up to version") in out
    assert "4 difference(s) (2024-05-01: 4)" in out
    html = _warns(client, closed)
    assert "found 4 differences on gaming day 2024-05-01" in html
    # The table's own page warns too.
    assert RED in _page(client, closed, f"{PAGE}T1/")


def test_21_the_days_variances_deleted_are_named(closed, client):
    _bypass_triggers("DELETE FROM tables_variance WHERE gaming_day = %s", [DAY])
    code, out = verify_projections("--gaming-day", DAY.isoformat())
    assert code == 1
    for table, kind in (("T1", "inventory"), ("D1", "drop")):
        assert (f"DIFFERS casino.closes: tables_variance {table} {DAY} {kind}: the row is "
                f"missing, the events give it (close:{DAY} up to version") in out, out
    _warns(client, closed)
    html = _page(client, closed, f"/admin/finance/variances/?from={DAY}&to={DAY}&status=all")
    assert RED in html


def test_21_the_day_close_summarys_win_raised_is_named(closed, client):
    win = DayClose.objects.get(gaming_day=DAY).win_cents
    _bypass_triggers("UPDATE casino_dayclose SET win_cents = win_cents + 5000000 "
                     "WHERE gaming_day = %s", [DAY])  # fmt: skip
    code, out = verify_projections()
    assert code == 1
    assert (f"DIFFERS casino.closes: casino_dayclose {DAY}: win_cents is {win + 5000000}, the "
            f"events give {win} (close:{DAY} up to version") in out, out
    _warns(client, closed)


def test_21_a_stream_heads_hash_and_version_edited_are_named(closed, client):
    stream = Round.objects.filter(gaming_day=DAY).order_by("stream_id").first().stream_id
    head = StreamIndex.objects.get(stream_id=stream)
    _bypass_triggers("UPDATE ledger_stream_index SET head_hash = %s, version = version - 1 "
                     "WHERE stream_id = %s", ["0" * 64, stream])  # fmt: skip
    code, out = verify_projections("--gaming-day", DAY.isoformat())
    assert code == 1
    assert (f"DIFFERS audit.stream_index: ledger_stream_index {stream}: version is "
            f"{head.version - 1}, the events give {head.version}") in out, out
    assert (f"DIFFERS audit.stream_index: ledger_stream_index {stream}: head_hash is "
            f"'{'0' * 64}', the events give '{head.head_hash}'") in out, out
    assert "2 difference(s) (2024-05-01: 2)" in out
    _warns(client, closed)
    # The floor board warns of any difference.
    client.force_login(closed[Role.SHIFT_SUPERVISOR])
    board = client.get("/admin/floor/").content.decode()
    assert RED in board and "found 2 differences on the read models" in board
    # Checked with the whole ledger, the row is dated by its stream too.
    code, out = verify_projections("audit.stream_index")
    assert code == 1 and "2 difference(s) (2024-05-01: 2)" in out, out


def test_21_the_rule_set_edited_in_the_history_table_is_named(closed, client):
    _bypass_triggers("UPDATE tables_historicaltable SET ruleset_id = 'PA-674a-2016' "
                     "WHERE table_id = 'T1'", [])  # fmt: skip
    code, out = verify_projections("tables.configuration")
    assert code == 1
    assert ("DIFFERS tables.configuration: tables_historicaltable T1 history " in out
            and "ruleset_id is 'PA-674a-2016', the events give 'PA-674a-2019' "
            "(table-config:T1 version 1 (position " in out), out  # fmt: skip


def test_the_differences_page_lists_what_the_check_recorded(closed, client):
    _bypass_triggers("UPDATE casino_dayclose SET win_cents = 1 WHERE gaming_day = %s", [DAY])
    verify_projections()
    outcome = consistency.last_outcome(DAY)
    html = _page(client, closed, f"/admin/read-model-check/{outcome.position}/")
    assert "casino_dayclose" in html and "win_cents" in html and outcome.stream_id in html
    client.force_login(closed[Role.DEALER])
    assert client.get(f"/admin/read-model-check/{outcome.position}/").status_code in (302, 403)


def test_the_export_and_the_downloads_refuse_forged_figures(closed, client, tmp_path):
    _bypass_triggers("UPDATE casino_dayclose SET win_cents = 1 WHERE gaming_day = %s", [DAY])
    _bypass_triggers("UPDATE tables_tabledayfigures SET win_cents = 1 WHERE gaming_day = %s",
                     [DAY])  # fmt: skip
    verify_projections()
    with pytest.raises(ExportError, match="read models are not what the ledger gives"):
        export_day(DAY, tmp_path)
    client.force_login(closed[Role.FINANCE])
    assert client.get(f"{PAGE}win-report.csv").status_code == 409


def test_rebuild_reports_and_records_what_it_replaces_before_replacing_it(closed, client):
    win = DayClose.objects.get(gaming_day=DAY).win_cents
    _bypass_triggers("UPDATE casino_dayclose SET win_cents = win_cents + 5000000 "
                     "WHERE gaming_day = %s", [DAY])  # fmt: skip
    verify_projections()
    out = StringIO()
    call_command("rebuild_projection", "casino.closes", "--no-progress", "--by", "it-admin",
                 stdout=out)  # fmt: skip
    text = out.getvalue()
    assert (f"REPLACING casino.closes: casino_dayclose {DAY}: win_cents is {win + 5000000}, "
            f"the events give {win}") in text, text
    outcome = consistency.last_outcome(DAY)
    assert outcome.rebuilt and outcome.run_by == "it-admin" and outcome.on(DAY) == 1
    assert outcome.differences()[0]["stored"] == str(win + 5000000)
    assert DayClose.objects.get(gaming_day=DAY).win_cents == win
    html = _page(client, closed)
    assert RED not in html and "rebuilt from the ledger by it-admin" in html
    assert verify_projections()[0] == 0
    # Nothing to replace: nothing recorded.
    before = len(consistency.recent_outcomes())
    call_command("rebuild_projection", "casino.closes", "--no-progress", stdout=StringIO())
    assert len(consistency.recent_outcomes()) == before


def test_the_nightly_job_records_its_finding(closed):
    from django_celery_beat.models import PeriodicTask

    from audit.tasks import verify_projections as nightly

    assert PeriodicTask.objects.get(task="audit.verify_projections").crontab.hour == "4"
    assert nightly.apply().get()["ok"] is True
    _bypass_triggers("DELETE FROM tables_variance WHERE gaming_day = %s", [DAY])
    result = nightly.apply().get()
    assert result["ok"] is False and result["differences"] == 2
    outcome = consistency.last_outcome(DAY)
    assert outcome.stream_id == result["recorded"] and outcome.run_by == "nightly job"
    assert outcome.on(DAY) == 2


def test_the_check_never_writes_the_live_rows(closed):
    _bypass_triggers("UPDATE casino_dayclose SET win_cents = 1 WHERE gaming_day = %s", [DAY])
    verify_projections()
    assert DayClose.objects.get(gaming_day=DAY).win_cents == 1


def test_nobody_but_the_checks_writes_their_outcome(closed):
    from audit import errors
    from audit.ledger import Actor, NewEvent, append

    forged = NewEvent(consistency.VERIFIED, {
        "gaming_day": None, "projections": ["tables.rounds"], "count": 0, "days": {},
        "differences": [], "run_by": "finance", "skipped": [], "events": 0})  # fmt: skip
    with pytest.raises(errors.Forbidden, match="may not append projections.verified"):
        append("projection-check:20240502T000000000000Z", [forged], expected_version=0,
               actor=Actor.from_user(closed[Role.FINANCE]))  # fmt: skip


def test_the_win_report_checks_its_figures_against_the_close_on_every_view(closed, client):
    """No check has run since the tampering: the day's page and the table's
    recompute the close's figures from its events and say so."""
    win = TableDayFigures.objects.get(gaming_day=DAY, table_id="T1").win_cents
    _bypass_triggers("UPDATE tables_tabledayfigures SET win_cents = win_cents + 5000000 "
                     "WHERE gaming_day = %s AND table_id = 'T1'", [DAY])  # fmt: skip
    assert consistency.last_outcome(DAY) is None
    html = _page(client, closed)
    assert RED in html and 'id="close-forged"' in html
    assert (f"casino.closes: tables_tabledayfigures T1 {DAY}: win_cents is {win + 5000000}, "
            f"the events give {win}") in html
    assert 'id="close-forged"' in _page(client, closed, f"{PAGE}T1/")
    assert 'id="close-forged"' not in _page(client, closed, f"{PAGE}D1/")
    assert client.get(f"{PAGE}win-report.pdf").status_code == 409
    # The page only reads: nothing recorded, nothing repaired.
    assert consistency.last_outcome(DAY) is None
    assert TableDayFigures.objects.get(gaming_day=DAY, table_id="T1").win_cents == win + 5000000


def test_rebuilding_the_configuration_history_records_the_tampered_row_first(closed):
    from tables.models import Table

    _bypass_triggers("UPDATE tables_historicaltable SET ruleset_id = 'PA-674a-2016' "
                     "WHERE table_id = 'T1'", [])  # fmt: skip
    out = StringIO()
    call_command("rebuild_projection", "--no-progress", "--by", "it-admin", stdout=out)
    assert ("REPLACING tables.configuration: tables_historicaltable T1 history "
            in out.getvalue()), out.getvalue()  # fmt: skip
    assert "tables.configuration: rewritten from the ledger's events" in out.getvalue()
    recorded = consistency.recent_outcomes()[0]
    assert recorded.rebuilt and recorded.count == 1 and recorded.run_by == "it-admin"
    assert "'PA-674a-2016'" in recorded.differences()[0]["stored"]
    assert Table.history.get(table_id="T1").ruleset_id == "PA-674a-2019"
    assert verify_projections()[0] == 0
