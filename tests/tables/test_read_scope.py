"""Who may read which stream through the API (issue 14: a table device, a
dealer or a cage cashier could read every stream and the whole global log:
counts, closes, who downloaded which export).

The matrix is written out here independently of ``tables.read_scope`` and
tested cell by cell through the API: every role against a stream of every
kind at table T1 on DAY, read by a device whose token is bound to T1 and a
dealer assigned to T1 that day. Then the bindings themselves: another table's
device, another day's dealer, an unassigned dealer, a token bound to nothing.
"""

from __future__ import annotations

import datetime
import itertools
from types import SimpleNamespace

import pytest
from django.utils import timezone

from audit.models import Event
from casino.roles import Role
from tables.models import TableDay, TableDayStatus
from tables.read_scope import FOLLOW_LOG, KINDS, READ_MATRIX, Scope

pytestmark = pytest.mark.django_db

DAY = "2024-05-01"
_positions = itertools.count(10_000_000)

# One stream of each kind at table T1 on DAY, as the ledger would name it.
STREAMS = {
    "round": "round:T1-20240501-00001",
    "table": f"table:T1:{DAY}",
    "slip": "slip:2024-000001",
    "deck": "deck:D-0001",
    "dice": "dice:X-0001",
    "compliance": "compliance:deck-due:D-0001:1",
    "finding": "finding:T1-20240501-00001:2:ANTE:MISPAID-AMOUNT",
    "count": f"count:T1:{DAY}",
    "close": f"close:{DAY}",
    "export": f"export:{DAY}",
    "ledger-check": "ledger-check:2024-05-02",
    "variance": f"variance:{DAY}:T1:hold",
    "table-config": "table-config:T1",
    "casino-config": "casino-config:casino",
    "access": "access:2024-05-01",
    "permission-change": "permission-change:20240501T090000-abcdef",
    "projection-check": "projection-check:20240502T083000000000Z",
    "poker-hand": "poker-hand:P1-20240501-0001",
    "badbeat": "badbeat:BB1",
    "retention": "retention:2019-01-01_2019-01-31",
    "meter": "meter:CSP-M1",
    "training": "training:dealer_9",
    "timecharge": f"timecharge:T1:{DAY}",
}

# fmt: off
# A = every stream of the kind, T = its bound table's (devices), D = its assigned
# table days' (dealers), . = none; the last column: follows the global log.
# Columns: 1 round, 2 table, 3 slip, 4 deck, 5 dice, 6 compliance, 7 finding,
# 8 count, 9 close, 10 export, 11 ledger-check, 12 variance, 13 table-config,
# 14 casino-config, 15 access, 16 permission-change, 17 projection-check, 18 poker-hand,
# 19 badbeat, 20 retention, 21 meter, 22 training, 23 timecharge.
#                           1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 log
EXPECTED = {
    Role.DEALER:           "D D D D D . . . .  .  .  .  .  .  .  .  .  D  .  .  .  .  D  0",
    Role.TABLE_DEVICE:     "T T T T T T . . .  .  .  .  T  .  .  .  .  T  .  .  .  .  T  0",
    Role.FLOORPERSON:      "A A A A A A A . .  .  .  .  A  .  .  .  A  A  A  .  A  A  A  0",
    Role.SHIFT_SUPERVISOR: "A A A A A A A A A  .  .  A  A  A  .  .  A  A  A  .  A  A  A  0",
    Role.CAGE_CASHIER:     ". . A . . . . . .  .  .  .  .  .  .  .  .  .  A  .  .  .  .  0",
    Role.FINANCE:          "A A A . . . . A A  .  .  A  A  A  .  .  A  A  A  .  A  .  A  0",
    Role.REGULATOR:        "A A A A A A A A A  A  A  A  A  A  A  A  A  A  A  A  A  A  A  1",
    Role.ADMINISTRATOR:    ". . . . . . . . A  A  A  .  A  A  A  A  A  .  .  A  A  .  .  0",
    Role.SYSTEM:           "A A A A A A A A A  A  A  A  A  A  A  A  A  A  A  A  A  A  A  1",
    None:                  ". . . . . . . . .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  0",
}
# fmt: on
LETTER = {Scope.ALL: "A", Scope.TABLE: "T", Scope.ASSIGNED: "D", Scope.NONE: "."}
COLUMNS = list(STREAMS)


def cell(role: Role | None, kind: str) -> str:
    return EXPECTED[role].split()[COLUMNS.index(kind)]


def _put(stream_id: str, event_type: str, payload: dict, version: int = 1) -> None:
    """A stream's event as stored (the read scope reads the ledger's own rows)."""
    from audit.registry import REGISTRY

    now = timezone.now()
    schema_version = REGISTRY.event_types[event_type].version  # read as stored: no upcast
    Event.objects.create(position=next(_positions), stream_id=stream_id, version=version,
                         event_type=event_type, schema_version=schema_version, payload=payload,
                         metadata={},
                         occurred_at=now, recorded_at=now, prev_hash="0" * 64,
                         hash=f"{next(_positions):064d}")  # fmt: skip


def _table_day(table_id: str, day: str, dealer: str, *, status=TableDayStatus.OPEN) -> None:
    _put(f"table:{table_id}:{day}", "table.opened",
         {"dealer": dealer, "floorperson": "floorperson", "opener": {"100": 1}})  # fmt: skip
    TableDay.objects.create(stream_id=f"table:{table_id}:{day}", table_id=table_id,
                            gaming_day=datetime.date.fromisoformat(day), status=status,
                            opened_at=timezone.now(), dealer=dealer,
                            computed_at_position=0)  # fmt: skip


@pytest.fixture
def streams(db):
    """One stream of every kind at T1 on DAY; the dealer ``dealer`` deals there."""
    at = {"table_id": "T1", "gaming_day": DAY}
    _table_day("T1", DAY, "dealer")
    _put(STREAMS["round"], "round.opened", {"round_id": "T1-20240501-00001", **at})
    _put(STREAMS["slip"], "slip.fill_requested", {**at, "amounts": {"2500": 4}})
    _put(STREAMS["deck"], "deck.received", {"deck_id": "D-0001", "table_id": "T1"})
    _put(STREAMS["dice"], "dice.received", {"dice_id": "X-0001", "table_id": "T1"})
    _put(STREAMS["poker-hand"], "poker.hand_opened", {"hand_id": "P1-20240501-0001", **at})
    _put(STREAMS["badbeat"], "badbeat.count_verified",
         {"gaming_day": DAY, "amount_cents": 0, "cashier": "cage_cashier"})  # fmt: skip
    _put(STREAMS["compliance"], "compliance.deck_change_due",
         {"deck_id": "D-0001", **at})  # fmt: skip
    _put(STREAMS["finding"], "finding.acknowledged", {"note": "seen"})
    _put(STREAMS["count"], "count.entered", {"drop_cents": 100})
    _put(STREAMS["timecharge"], "timecharge.verified", {"amount_cents": 0})
    _put(STREAMS["close"], "close.started", {"gaming_day": DAY})
    _put(STREAMS["training"], "training.certified",
         {"game": "criss_cross_poker", "certified_on": DAY, "certified_by": "shift_supervisor"})
    _put(STREAMS["export"], "audit.export_downloaded", {"gaming_day": DAY})
    _put(STREAMS["ledger-check"], "ledger.check_failed", {"problems": []})
    _put(STREAMS["variance"], "variance.acknowledged", {"note": "seen"})
    _put(STREAMS["table-config"], "config.changed", {"settings": {"min_wager_cents": 500}})
    _put(STREAMS["casino-config"], "config.changed", {"settings": {}})
    _put(STREAMS["access"], "access.logged_in", {"account": "floorperson"})
    _put(STREAMS["permission-change"], "permission.change_proposed", {"proposed_by": "admin"})
    _put(STREAMS["projection-check"], "projections.verified", {"count": 0})
    _put(STREAMS["retention"], "ledger.retained", {"events": 0})
    _put(STREAMS["meter"], "meter.read", {"table": "T1", "displayed_cents": 100})
    return STREAMS


def reader(api_client, role_users, role: Role | None, table_id: str = "T1"):
    """The role's client; a device's token is bound to ``table_id``."""
    token = SimpleNamespace(pk=f"token-of-{role}", table_id=table_id)
    api_client.force_authenticate(role_users[role], token=token)
    return api_client


def read(client, stream_id: str) -> int:
    return client.get(f"/api/v1/streams/{stream_id}/events").status_code


def test_the_matrix_names_every_role_every_kind_and_an_account_without_one():
    from audit.registry import REGISTRY

    assert set(EXPECTED) == {*Role, None}
    assert all(len(row.split()) == len(COLUMNS) + 1 for row in EXPECTED.values())
    assert list(KINDS) == COLUMNS
    assert set(KINDS) == {kind for kind in REGISTRY.stream_kinds if kind != "test"}


@pytest.mark.parametrize("role", [r for r in EXPECTED if r is not None], ids=str)
def test_the_modules_matrix_is_the_written_one(role):
    scopes, follows = READ_MATRIX[role], role in FOLLOW_LOG
    assert " ".join(LETTER[s] for s in scopes) + f" {int(follows)}" == " ".join(
        EXPECTED[role].split()
    )


@pytest.mark.parametrize("kind", COLUMNS)
@pytest.mark.parametrize("role", list(EXPECTED), ids=lambda role: str(role or "no role"))
def test_each_role_reads_exactly_the_streams_of_its_cell(api_client, role_users, streams, role,
                                                         kind):  # fmt: skip
    expected = 200 if cell(role, kind) in "ATD" else 403
    assert read(reader(api_client, role_users, role), streams[kind]) == expected


@pytest.mark.parametrize("role", list(EXPECTED), ids=lambda role: str(role or "no role"))
def test_only_the_regulator_and_the_system_follow_the_global_log(api_client, role_users, role):
    response = reader(api_client, role_users, role).get("/api/v1/events")
    assert response.status_code == (200 if EXPECTED[role].split()[-1] == "1" else 403)


# --- the bindings ----------------------------------------------------------------------------


def test_a_device_bound_to_another_table_reads_none_of_t1s_streams(api_client, role_users,
                                                                   streams):  # fmt: skip
    client = reader(api_client, role_users, Role.TABLE_DEVICE, table_id="T2")
    assert {kind: read(client, stream) for kind, stream in streams.items()} == dict.fromkeys(
        streams, 403
    )


def test_a_device_token_bound_to_no_table_reads_nothing(api_client, role_users, streams):
    api_client.force_authenticate(role_users[Role.TABLE_DEVICE], token=SimpleNamespace(pk=1))
    assert read(api_client, STREAMS["round"]) == 403
    api_client.force_authenticate(role_users[Role.TABLE_DEVICE])  # a session: no token at all
    assert read(api_client, STREAMS["table"]) == 403


def test_a_dealer_reads_only_the_table_days_they_were_assigned_to(api_client, role_users,
                                                                  streams):  # fmt: skip
    from django.contrib.auth.models import Group, User

    other = User.objects.create_user(username="dealer_2", password="pw")
    other.groups.add(Group.objects.get(name=Role.DEALER.value))
    api_client.force_authenticate(other)
    assert read(api_client, STREAMS["table"]) == 403
    assert read(api_client, STREAMS["round"]) == 403
    # Assigned later in the day (table.dealer_assigned): the day is theirs too.
    _put(STREAMS["table"], "table.dealer_assigned", {"dealer": "dealer_2"}, version=2)
    assert read(api_client, STREAMS["table"]) == 200
    assert read(api_client, STREAMS["round"]) == 200
    assert read(api_client, STREAMS["finding"]) == 403  # a cell they have not


def test_a_dealer_does_not_read_another_day_at_the_same_table(api_client, role_users, streams):
    _table_day("T1", "2024-05-02", "someone_else", status=TableDayStatus.OPEN)
    _put("round:T1-20240502-00001", "round.opened",
         {"round_id": "T1-20240502-00001", "table_id": "T1", "gaming_day": "2024-05-02"})
    client = reader(api_client, role_users, Role.DEALER)
    assert read(client, "round:T1-20240502-00001") == 403
    assert read(client, "table:T1:2024-05-02") == 403
    assert read(client, STREAMS["round"]) == 200


def test_a_dealer_reads_the_decks_of_a_table_only_while_assigned_to_an_open_day(
    api_client, role_users, streams
):
    client = reader(api_client, role_users, Role.DEALER)
    assert read(client, STREAMS["deck"]) == 200
    TableDay.objects.filter(stream_id=STREAMS["table"]).update(status=TableDayStatus.CLOSED)
    assert read(client, STREAMS["deck"]) == 403
    assert read(client, STREAMS["table"]) == 200  # the day itself stays theirs to read


def test_a_stream_one_may_not_read_is_403_whether_or_not_it_exists(api_client, role_users,
                                                                   streams):  # fmt: skip
    client = reader(api_client, role_users, Role.CAGE_CASHIER)
    assert read(client, "count:T9:2024-05-01") == 403
    assert read(client, STREAMS["count"]) == 403
    assert read(client, "slip:2031-000009") == 404  # a kind they read: it does not exist
