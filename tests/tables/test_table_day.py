"""A table's gaming day in the ledger: opened with an opener signed by a
dealer and a floorperson, dealers assigned and relieved, buy-ins, the drop
box, and closed with a closer — refused at append time when the rules
forbid it, and projected into ``TableDay`` rows that a rebuild reproduces.

Opening, closing and inventory procedures are internal controls
(Pennsylvania Chapter 465a), not in our sources, so these rules cite no
section.
"""

from __future__ import annotations

import dataclasses

import pytest
from django.contrib.auth.models import Group, User
from rest_framework.test import APIClient

from audit import errors
from audit.ledger import Actor, NewEvent, StreamBatch, append_many
from audit.models import Event, RejectedSubmission
from audit.projections import PROJECTIONS, rebuild, run
from casino.models import Casino, Jurisdiction
from casino.roles import Role
from tables.models import DealingMethod, Game, Table, TableDay, TableDayStatus, TableStatus
from tests.conftest import certify_in_every_game
from tests.tables.helpers import criss_cross_round, payload_body

pytestmark = pytest.mark.django_db

DAY = "2024-05-01"
TABLE = "table:T1:2024-05-01"
OPENER = {"100": 20, "500": 40, "2500": 20}  # 20 + 200 + 500 dollars = 72,000 cents


@dataclasses.dataclass
class Floor:
    users: dict
    dealer_2: User

    def user(self, role: Role | None) -> User:
        return self.users[role]

    def post(self, who, stream_id: str, events, expected_version: int = 0):
        user = who if isinstance(who, User) else self.users[who]
        client = APIClient()
        client.force_authenticate(user)
        body = {
            "expected_version": expected_version,
            "events": [{"type": event_type, "payload": payload} for event_type, payload in events],
        }
        return client.post(f"/api/v1/streams/{stream_id}/events", body, format="json")

    def open_table(self, stream_id: str = TABLE, opener=None):
        """The floorperson opens, the dealer countersigns in person: version 2."""
        response = self.post(Role.FLOORPERSON, stream_id, [opened(opener)])
        assert response.status_code == 201, response.json()
        return self.countersign(stream_id, 1)

    def countersign(self, stream_id: str, version: int, who=Role.DEALER, signer="dealer"):
        kind = stream_id.partition(":")[0]
        response = self.post(who, stream_id, [(f"{kind}.countersigned",
                                               {"countersigns_version": version,
                                                "signer": signer})], version)  # fmt: skip
        assert response.status_code == 201, response.json()
        return response


def make_floor(role_users, *, dealer_2_trained: bool = True) -> Floor:
    """A casino with the default chip denominations, table T1 and a second dealer
    (certified in every game unless not ``dealer_2_trained``, § 527.5(a))."""
    jurisdiction, _ = Jurisdiction.objects.get_or_create(code="PA", name="Pennsylvania")
    Casino.objects.create(name="Test casino", jurisdiction=jurisdiction)
    Table.objects.create(table_id="T1", game=Game.CRISS_CROSS_POKER, ruleset_id="PA-674a-2019",
                         min_wager_cents=500, max_wager_cents=50000,
                         dealing_method=DealingMethod.HAND)  # fmt: skip
    dealer_2 = User.objects.create_user(username="dealer_2", password="pw")
    dealer_2.groups.add(Group.objects.get(name=Role.DEALER.value))
    if dealer_2_trained:
        certify_in_every_game("dealer_2")
    return Floor(users=role_users, dealer_2=dealer_2)


def opened(opener=None, dealer="dealer", floorperson="floorperson"):
    return ("table.opened", {"opener": opener or OPENER, "dealer": dealer,
                             "floorperson": floorperson})  # fmt: skip


def closed(closer=None, dealer="dealer", floorperson="floorperson"):
    return ("table.closed", {"closer": OPENER if closer is None else closer, "dealer": dealer,
                             "floorperson": floorperson})  # fmt: skip


def buy_in(cash_cents=10000, chips=None, seat=1):
    return ("table.buy_in", {"seat": seat, "cash_cents": cash_cents,
                             "chips": chips or {"2500": 4}})  # fmt: skip


def refusal(response) -> dict:
    assert response.status_code == 400, response.json()
    return response.json()


@pytest.fixture
def floor(role_users):
    return make_floor(role_users)


# --- opening -----------------------------------------------------------------------------


def test_a_floorperson_opens_the_table_with_an_opener_signed_by_a_dealer(floor):
    floor.open_table()
    assert Event.objects.filter(stream_id=TABLE).count() == 2


def test_the_opener_is_signed_by_two_different_people(floor):
    both = User.objects.create_user(username="both", password="pw")
    both.groups.add(*Group.objects.filter(name__in=[Role.DEALER.value, Role.FLOORPERSON.value]))
    body = refusal(floor.post(both, TABLE, [opened(dealer="both", floorperson="both")]))
    assert body["field"] == "events[0].payload.floorperson"
    assert "two different people" in body["message"]


def test_the_signers_must_be_users_holding_the_dealer_and_floorperson_roles(floor):
    body = refusal(floor.post(Role.FLOORPERSON, TABLE, [opened(dealer="cage_cashier")]))
    assert body["field"] == "events[0].payload.dealer"
    assert "must hold the role dealer" in body["message"]
    body = refusal(floor.post(Role.FLOORPERSON, TABLE, [opened(dealer="nobody")]))
    assert body["message"] == "events[0].payload.dealer: no active user 'nobody'"


def test_a_shift_supervisor_signs_as_the_floorperson(floor):
    response = floor.post(Role.SHIFT_SUPERVISOR, TABLE, [opened(floorperson="shift_supervisor")])
    assert response.status_code == 201


def test_a_person_appends_only_an_opening_they_sign_themselves(floor):
    body = refusal(floor.post(Role.SHIFT_SUPERVISOR, TABLE, [opened()]))
    assert "shift_supervisor must be among its signers" in body["message"]
    assert not Event.objects.filter(stream_id=TABLE).exists()


def test_a_job_appends_an_opening_on_behalf_of_its_signers(floor):
    # append_many, as bulk jobs do; the policy still sees the stream.
    (result,) = append_many([StreamBatch(TABLE, [NewEvent(*opened())])], actor=Actor.system("job"))
    assert result.last_version == 1
    with pytest.raises(errors.RuleViolation, match="already opened"):
        append_many([StreamBatch(TABLE, [NewEvent(*opened())], expected_version=1)],
                    actor=Actor.system("job"))  # fmt: skip


def test_a_table_is_not_opened_twice_in_a_day(floor):
    floor.open_table()
    body = refusal(floor.post(Role.FLOORPERSON, TABLE, [opened()], expected_version=2))
    assert body["message"].startswith("table T1 was already opened on gaming day 2024-05-01")


def test_the_day_starts_with_table_opened(floor):
    body = refusal(floor.post(Role.TABLE_DEVICE, TABLE, [buy_in()]))
    assert body["message"].startswith("table T1 is not open on gaming day 2024-05-01")
    assert body["field"] == "events[0].type"


def test_an_unknown_table_or_an_impossible_gaming_day_is_refused(floor):
    body = refusal(floor.post(Role.FLOORPERSON, "table:T9:2024-05-01", [opened()]))
    assert body == {"error": "rule_violation", "message": "no table T9 is configured",
                    "field": "stream_id"}  # fmt: skip
    body = refusal(floor.post(Role.FLOORPERSON, "table:T1:2024-02-30", [opened()]))
    assert body["field"] == "stream_id"
    assert "<gaming day YYYY-MM-DD>" in body["message"]


def test_a_table_out_of_service_cannot_open(floor):
    Table.objects.filter(table_id="T1").update(status=TableStatus.INACTIVE)
    assert "out of service" in refusal(floor.post(Role.FLOORPERSON, TABLE, [opened()]))["message"]


# --- amounts ------------------------------------------------------------------------------


def test_an_unknown_denomination_is_refused_naming_the_field_and_recorded(floor):
    body = refusal(floor.post(Role.FLOORPERSON, TABLE, [opened({"300": 5})]))
    assert body["field"] == "events[0].payload.opener.300"
    assert "300 cents is not a chip denomination of this casino" in body["message"]
    assert not Event.objects.filter(stream_id=TABLE).exists()
    rejection = RejectedSubmission.objects.get(stream_id=TABLE)
    assert (rejection.status_code, rejection.field) == (400, "events[0].payload.opener.300")


@pytest.mark.parametrize(
    ("opener", "field", "rule"),
    [
        ({"500": -1}, "events[0].payload.opener.500", "bigger than or equal to 1"),
        ({"500": 0}, "events[0].payload.opener.500", "bigger than or equal to 1"),
        ({"500": 1.5}, "events[0].payload.opener.500", "integer cents"),
        ({"5.00": 1}, "events[0].payload.opener.5.00", "denomination in whole cents"),
        ({"-500": 1}, "events[0].payload.opener.-500", "denomination in whole cents"),
        ({}, "events[0].payload.opener", "at least 1"),
    ],
)
def test_negative_zero_or_fractional_counts_and_keys_are_refused(floor, opener, field, rule):
    body = floor.post(Role.FLOORPERSON, TABLE, [("table.opened", {"opener": opener,
                      "dealer": "dealer", "floorperson": "floorperson"})]).json()  # fmt: skip
    assert body["error"] == "schema_violation"
    assert body["field"] == field
    assert rule in body["message"]
    assert not Event.objects.filter(stream_id=TABLE).exists()
    assert RejectedSubmission.objects.filter(stream_id=TABLE, status_code=400).count() == 1


def test_a_table_cannot_be_configured_without_a_casino(role_users):
    Casino.objects.all().delete()
    floor = make_floor(role_users)
    Casino.objects.all().delete()
    body = refusal(floor.post(Role.FLOORPERSON, TABLE, [opened()]))
    assert "no casino is configured" in body["message"]


# --- buy-ins, dealers, drop box ---------------------------------------------------------------


def test_a_buy_in_gives_chips_worth_the_cash_taken(floor):
    floor.open_table()
    assert floor.post(Role.TABLE_DEVICE, TABLE, [buy_in()], expected_version=2).status_code == 201
    body = refusal(floor.post(Role.DEALER, TABLE, [buy_in(10000, {"2500": 3})], 3))
    assert body["field"] == "events[0].payload.chips"
    assert (
        "chips given (7500 cents) must equal the cash taken (cash_cents 10000)" in body["message"]
    )


@pytest.mark.parametrize("cash", [-10000, 0])
def test_a_buy_in_of_no_or_negative_cash_is_refused(floor, cash):
    floor.open_table()
    body = refusal(floor.post(Role.DEALER, TABLE, [buy_in(cash)], expected_version=2))
    assert body["field"] == "events[0].payload.cash_cents"


def test_a_buy_in_names_a_seat_of_the_table(floor):
    floor.open_table()
    body = refusal(floor.post(Role.DEALER, TABLE, [buy_in(seat=7)], expected_version=2))
    assert body["message"] == "events[0].payload.seat: table T1 has 6 positions"


def test_a_dealer_is_relieved_only_while_at_the_table(floor):
    floor.open_table()
    relieve_other = ("table.dealer_relieved", {"dealer": "dealer_2"})
    body = refusal(floor.post(Role.FLOORPERSON, TABLE, [relieve_other], 2))
    assert body["message"].startswith("events[0].payload.dealer: dealer_2 is not the dealer")
    shift_change = [("table.dealer_relieved", {"dealer": "dealer"}),
                    ("table.dealer_assigned", {"dealer": "dealer_2"})]  # fmt: skip
    assert floor.post(Role.FLOORPERSON, TABLE, shift_change, 2).status_code == 201
    again = ("table.dealer_assigned", {"dealer": "dealer_2"})
    assert (
        "already the dealer" in refusal(floor.post(Role.FLOORPERSON, TABLE, [again], 4))["message"]
    )
    not_a_dealer = ("table.dealer_assigned", {"dealer": "finance"})
    assert refusal(floor.post(Role.FLOORPERSON, TABLE, [not_a_dealer], 4))["field"] == (
        "events[0].payload.dealer"
    )


def test_a_drop_box_is_removed_before_another_is_put_on_the_table(floor):
    floor.open_table()
    removed = ("table.drop_box_removed", {"box_id": "DB-1", "removed_by": "floorperson"})
    replaced = ("table.drop_box_replaced", {"box_id": "DB-2", "replaced_by": "floorperson"})
    assert floor.post(Role.FLOORPERSON, TABLE, [replaced], 2).status_code == 201
    body = refusal(floor.post(Role.FLOORPERSON, TABLE, [replaced], 3))
    assert body["message"].endswith("drop box DB-2 is still on table T1; remove it first")
    body = refusal(floor.post(Role.FLOORPERSON, TABLE, [removed], 3))
    assert body["message"].endswith("the drop box on table T1 is DB-2, not DB-1")
    removed_2 = ("table.drop_box_removed", {"box_id": "DB-2", "removed_by": "floorperson"})
    assert floor.post(Role.FLOORPERSON, TABLE, [removed_2], 3).status_code == 201
    assert "no drop box" in refusal(floor.post(Role.FLOORPERSON, TABLE, [removed_2], 4))["message"]
    by_someone_else = ("table.drop_box_removed", {"box_id": "DB-2", "removed_by": "floorperson"})
    body = refusal(floor.post(Role.SHIFT_SUPERVISOR, TABLE, [by_someone_else], 4))
    assert body["field"] == "events[0].payload.removed_by"


# --- closing -----------------------------------------------------------------------------------


def test_nothing_follows_table_closed(floor):
    floor.open_table()
    assert floor.post(Role.FLOORPERSON, TABLE, [closed()], 2).status_code == 201
    body = refusal(floor.post(Role.TABLE_DEVICE, TABLE, [buy_in()], 3))
    assert "awaits dealer's countersignature" in body["message"]
    floor.countersign(TABLE, 3)
    body = refusal(floor.post(Role.TABLE_DEVICE, TABLE, [buy_in()], 4))
    assert "nothing follows table.closed" in body["message"]


def test_closing_with_a_round_in_progress_is_refused_with_a_clear_message(floor):
    floor.open_table()
    device = APIClient()
    device.force_authenticate(floor.user(Role.TABLE_DEVICE))
    events, _ = criss_cross_round()
    round_url = "/api/v1/streams/round:T1-1/events"
    assert device.post(round_url, payload_body(events[:3]), format="json").status_code == 201
    body = refusal(floor.post(Role.FLOORPERSON, TABLE, [closed()], 2))
    assert body["message"] == (
        "table T1 cannot close on gaming day 2024-05-01: round(s) round:T1-1 are still in "
        "progress (close or void them first)"
    )
    assert body["field"] == "events[0].type"
    rest = payload_body(events[3:], expected_version=3)
    assert device.post(round_url, rest, format="json").status_code == 201
    assert floor.post(Role.FLOORPERSON, TABLE, [closed()], 2).status_code == 201


def test_a_round_of_another_table_or_day_does_not_hold_the_close(floor):
    floor.open_table()
    device = APIClient()
    device.force_authenticate(floor.user(Role.TABLE_DEVICE))
    events, _ = criss_cross_round(round_id="T2-1")
    other = dataclasses.replace(events[0], table_id="T2")
    # T2 is not configured, so only a job (an import) may record its round.
    append_many([StreamBatch("round:T2-1", [NewEvent(other.TYPE, other.to_payload())])],
                actor=Actor.system("import"))  # fmt: skip
    assert floor.post(Role.FLOORPERSON, TABLE, [closed()], 2).status_code == 201


# --- the projection ------------------------------------------------------------------------------


def _rows():
    return list(TableDay.objects.order_by("stream_id").values())


def test_the_table_day_projection_folds_the_day_and_a_rebuild_gives_identical_rows(floor):
    floor.open_table()
    run(PROJECTIONS["tables.table_days"])
    row = TableDay.objects.get(stream_id=TABLE)
    assert (row.status, row.opener_cents, row.dealer) == (TableDayStatus.OPEN, 72000, "dealer")
    day = [
        buy_in(10000, {"2500": 4}),
        buy_in(2500, {"500": 5}, seat=2),
        ("table.dealer_relieved", {"dealer": "dealer"}),
        ("table.dealer_assigned", {"dealer": "dealer_2"}),
        ("table.drop_box_replaced", {"box_id": "DB-7", "replaced_by": "floorperson"}),
    ]
    assert floor.post(Role.FLOORPERSON, TABLE, day, 2).status_code == 201
    closer = {"100": 20, "500": 35, "2500": 16}
    response = floor.post(Role.FLOORPERSON, TABLE, [closed(closer, dealer="dealer_2")], 7)
    assert response.status_code == 201
    run(PROJECTIONS["tables.table_days"])
    # The closer awaits dealer_2's countersignature: the table is not closed yet.
    assert TableDay.objects.get(stream_id=TABLE).status == TableDayStatus.OPEN
    floor.countersign(TABLE, 8, who=floor.dealer_2, signer="dealer_2")
    run(PROJECTIONS["tables.table_days"])
    row = TableDay.objects.get(stream_id=TABLE)
    assert row.status == TableDayStatus.CLOSED
    assert (row.table_id, str(row.gaming_day)) == ("T1", DAY)
    assert row.opener_inventory == OPENER
    assert (row.closer_inventory, row.closer_cents) == (closer, 2000 + 17500 + 40000)
    assert (row.buy_ins_cents, row.fills_cents, row.credits_cents) == (12500, 0, 0)
    assert (row.dealer, row.drop_box) == ("dealer_2", "DB-7")
    assert row.closed_at is not None
    assert (
        row.computed_at_position == Event.objects.filter(stream_id=TABLE).latest("version").position
    )
    before = _rows()
    rebuild(PROJECTIONS["tables.table_days"], batch_size=3)
    assert _rows() == before
