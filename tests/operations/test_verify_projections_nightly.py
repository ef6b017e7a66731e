"""Issue 21, "the nightly job fans out per table like the close": the
nightly check of the read models (``audit.nightly_projections``) runs as
Celery tasks, one per part (each day by table, and what has no day), and
names exactly what one process checking the whole ledger names, every day
included (forging a read model adds nothing to the ledger), and the finding
still reaches the finance page and the floor board."""

from __future__ import annotations

import datetime

import pytest
from django.conf import settings as django_settings

from audit import consistency, nightly_projections
from casino.roles import Role
from tests.audit.test_verify_ledger import _bypass_triggers
from tests.operations.test_close import DAY
from tests.operations.test_configuration_in_the_ledger import imported  # noqa: F401
from tests.operations.test_verify_projections import RED, _warns, closed  # noqa: F401
from tests.operations.test_verify_projections_in_parts import ATTACKS

pytestmark = pytest.mark.django_db
#: A day the ledger holds nothing of: a round row forged onto it.
EMPTY_DAY = DAY + datetime.timedelta(days=40)


def _forge_every_attack() -> None:
    for sqls in ATTACKS.values():
        for sql in sqls:
            _bypass_triggers(sql, [])
    columns = ("round_id, table_id, game, ruleset_id, status, opened_at, last_event_at, seats, "
               "event_count, wagered_cents, required_paid_cents, required_collected_cents, "
               "recorded_paid_cents, recorded_collected_cents, recorded_returned_cents, "
               "finding_count, stub_counted, options_applied, computed_at_position")
    _bypass_triggers(f"INSERT INTO tables_round (stream_id, gaming_day, {columns}) SELECT "
                     f"'round:FORGED-1', %s, {columns} FROM tables_round ORDER BY stream_id "
                     "LIMIT 1", [EMPTY_DAY])  # fmt: skip


def test_the_parts_are_each_day_by_table_and_what_has_no_day(closed):  # noqa: F811
    _forge_every_attack()
    jobs = nightly_projections.plan(2)
    assert jobs[0]["day"] is None and set(jobs[0]["names"]) == {
        "audit.stream_index", "tables.decks", "tables.dice", "progressives.meters",
        "tables.training"}  # fmt: skip
    # DAY in two parts (T1 and D1), and the forged row's day though no event names it.
    assert [job["day"] for job in jobs[1:]] == [DAY.isoformat()] * 2 + [EMPTY_DAY.isoformat()]
    assert all("audit.stream_index" not in job["names"] for job in jobs[1:])


def test_the_fan_out_names_what_one_process_names(closed):  # noqa: F811
    _forge_every_attack()
    alone = [str(d) for d in consistency.verify().differences]
    fanned = [str(d) for d in nightly_projections.verify_in_parts(2).differences]
    assert fanned == alone
    assert any("round:FORGED-1: the row is stored, no event gives it" in d for d in fanned)
    assert len(fanned) >= 10


def test_the_nightly_task_warns_the_finance_page_and_the_floor_board(closed, client):  # noqa: F811
    from audit.tasks import verify_projections as nightly

    assert django_settings.CELERY_TASK_ALWAYS_EAGER  # the parts run here, as tasks
    _bypass_triggers("UPDATE tables_round SET recorded_paid_cents = recorded_paid_cents + 100000 "
                     "WHERE stream_id = (SELECT min(stream_id) FROM tables_round)", [])  # fmt: skip
    result = nightly.apply().get()
    assert result["ok"] is False and result["differences"] == 1
    outcome = consistency.last_outcome(DAY)
    assert outcome.stream_id == result["recorded"] and outcome.on(DAY) == 1
    assert outcome.payload["gaming_day"] is None  # it covered every day
    _warns(client, closed)
    client.force_login(closed[Role.SHIFT_SUPERVISOR])
    board = client.get("/admin/floor/").content.decode()
    assert RED in board and "found 1 difference" in board, board


@pytest.mark.slow
@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_a_real_worker_runs_the_parts_and_names_what_one_process_names(closed, client,  # noqa: F811
                                                                       tmp_path):  # fmt: skip
    from celery import Celery

    from tests.operations.test_close_celery import WAIT_SECONDS, Workers, redis_url
    from tests.tables.test_deck_job_celery import flushed_broker

    _forge_every_attack()
    alone = [str(d)[:500] for d in consistency.verify().differences]
    broker = redis_url()
    flushed_broker(broker)
    client_app = Celery("nightly-test", broker=broker, backend=broker, set_as_current=False)
    workers = Workers(tmp_path, broker)
    try:
        workers.start(concurrency=2)  # the job in one process, parts in the other too
        sent = client_app.send_task("audit.verify_projections")
        result = sent.get(timeout=WAIT_SECONDS * 3, interval=0.2, disable_sync_subtasks=False)
    except BaseException:
        workers.stop_all()
        print(workers.logs())
        raise
    finally:
        workers.stop_all()
        flushed_broker(broker)
    log = workers.log(1)
    # Every part was a task; the worker's other process checked some of them.
    assert log.count("audit.verify_projections_part[") >= 2 * 4, log[-3000:]
    assert "'checked'" in log, log[-3000:]
    assert result["ok"] is False and result["differences"] == len(alone)
    outcome = consistency.last_outcome(DAY)
    assert outcome.stream_id == result["recorded"] and outcome.run_by == "nightly job"
    assert [d["text"] for d in outcome.differences()] == alone
    _warns(client, closed)
