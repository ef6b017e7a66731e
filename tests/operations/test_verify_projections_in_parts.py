"""Issue 21, "Speed": ``verify_projections`` of a gaming day in parts by
table (``--workers``) names exactly the differences one process names, for
each of the insider attacks of ``test_verify_projections``: a projection's
rows of one table are compared in the part that recomputed that table's
streams, and those that are no table's (the day's DayClose) whole in one."""

from __future__ import annotations

import pytest

from audit import consistency
from audit.models import StreamIndex
from audit.projections import PROJECTIONS
from tables.models import Round
from tests.audit.test_verify_ledger import _bypass_triggers
from tests.operations.test_close import DAY
from tests.operations.test_configuration_in_the_ledger import imported  # noqa: F401
from tests.operations.test_verify_projections import closed, verify_projections  # noqa: F401

pytestmark = pytest.mark.django_db

#: The attacks of test_verify_projections, as the database edits they are.
ATTACKS = {
    "a round's payment": ["UPDATE tables_round SET recorded_paid_cents = recorded_paid_cents "
                          "+ 100000 WHERE stream_id = (SELECT min(stream_id) FROM tables_round "
                          "WHERE table_id = 'T1')"],
    "a table day's win, drop and fills": [
        "UPDATE tables_tabledayfigures SET win_cents = win_cents + 5000000, drop_cents = "
        "drop_cents + 5000000, fills_cents = fills_cents + 100000 WHERE table_id = 'T1'",
        "UPDATE tables_tableday SET fills_cents = fills_cents + 100000 WHERE table_id = 'T1'"],
    "the day's variances deleted": ["DELETE FROM tables_variance"],
    "the day close's win": ["UPDATE casino_dayclose SET win_cents = win_cents + 5000000"],
    "a stream head": ["UPDATE ledger_stream_index SET head_hash = repeat('0', 64), version = "
                      "version - 1 WHERE stream_id = (SELECT min(stream_id) FROM tables_round)"],
    "a round of D1 deleted": ["DELETE FROM tables_round WHERE stream_id = (SELECT "
                              "max(stream_id) FROM tables_round WHERE table_id = 'D1')"],
    "the rule set in the history table": ["UPDATE tables_historicaltable SET ruleset_id = "
                                          "'PA-674a-2016' WHERE table_id = 'T1'"],
}  # fmt: skip


def _texts(workers: int) -> list[str]:
    return [str(d) for d in consistency.verify(gaming_day=DAY, workers=workers).differences]


def test_the_day_splits_by_table_and_checks_the_day_close_whole(closed):  # noqa: F811
    chosen = [p for p in PROJECTIONS.values() if p.day_streams is not None]
    streams = {p.name: frozenset(p.day_streams(DAY)) for p in chosen}
    parts = consistency._plan(chosen, streams, 4)
    assert len(parts) == 2  # two tables, T1 and D1
    rounds = dict(Round.objects.filter(gaming_day=DAY).values_list("stream_id", "table_id"))
    for part in parts:
        tables = {rounds[s] for s in part.streams["tables.rounds"]}
        assert len(tables) == 1  # every round of a table in one part
        (table,) = tables
        assert f"table:{table}:{DAY}" in part.streams["tables.table_days"]
    # Each projection's streams are in exactly one part.
    for name, every in streams.items():
        shares = [part.streams[name] for part in parts if name in part.streams]
        assert frozenset().union(*shares) == every and sum(map(len, shares)) == len(every)
    assert [part.whole for part in parts].count(frozenset({"casino.closes"})) == 1


@pytest.mark.parametrize("attack", sorted(ATTACKS))
def test_21_each_attack_is_named_the_same_in_parts(closed, attack):  # noqa: F811
    for sql in ATTACKS[attack]:
        _bypass_triggers(sql, [])
    alone = _texts(1)
    assert alone  # named
    assert _texts(2) == alone
    assert _texts(3) == alone


def test_every_attack_at_once_is_named_the_same_by_the_command(closed):  # noqa: F811
    for sqls in ATTACKS.values():
        for sql in sqls:
            _bypass_triggers(sql, [])
    code, one = verify_projections("--gaming-day", DAY.isoformat(), "--workers", "1")
    assert code == 1
    code, two = verify_projections("--gaming-day", DAY.isoformat(), "--workers", "2")
    assert code == 1

    def named(out: str) -> list[str]:
        return [line for line in out.splitlines() if line.startswith("DIFFERS")]

    assert named(two) == named(one) and len(named(one)) >= 10


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_the_parts_run_in_processes_of_their_own_in_one_snapshot(closed):  # noqa: F811
    from django.db import connection

    for sql in ATTACKS["a round's payment"] + ATTACKS["the day close's win"]:
        _bypass_triggers(sql, [])
    assert consistency._can_fork(2)
    alone = _texts(1)
    assert len(alone) == 2
    assert _texts(2) == alone
    # Nothing the parts did outlived them.
    assert StreamIndex.objects.filter(stream_id__startswith="round:").count() > 0
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE state LIKE 'idle in "
                       "transaction%%' AND datname = current_database()")  # fmt: skip
        assert cursor.fetchone()[0] == 0
