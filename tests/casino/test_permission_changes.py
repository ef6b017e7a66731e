"""Segregation of duties for the append permissions (issue 14, "People": a
superuser changed append permissions alone, outside the ledger). Now a change
is a ledger event proposed by one administrator and applied only when a
second confirms it."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group, User

from audit import errors
from audit.ledger import Actor, read_stream
from audit.models import AppendPermission, RejectedSubmission
from audit.validation import may_append
from casino import permission_changes as changes
from casino.roles import Role

pytestmark = pytest.mark.django_db
PAGE = "/admin/permission-changes/"


def administrator(username: str, *, superuser: bool = True) -> User:
    user = User.objects.create_user(username, password="pw", is_staff=True,
                                    is_superuser=superuser)  # fmt: skip
    user.groups.add(Group.objects.get(name=Role.ADMINISTRATOR.value))
    return user


@pytest.fixture
def ada():
    return administrator("ada")


@pytest.fixture
def abe():
    return administrator("abe")


def dealer_may(event_type: str) -> bool:
    return may_append(Actor("dana", frozenset({Role.DEALER.value})), event_type)


def test_a_superuser_can_no_longer_change_append_permissions_alone_in_the_admin(client, ada):
    """The attack, as it was done: the admin's add, change, delete and
    history-revert pages. All refused; the rows stay as they were."""
    client.force_login(ada)
    before = set(AppendPermission.objects.values_list("role__name", "event_type"))
    permission = AppendPermission.objects.first()
    base = "/admin/audit/appendpermission/"
    dealer = Group.objects.get(name=Role.DEALER.value)
    assert client.post(base + "add/", {"role": dealer.pk, "event_type": "*"}).status_code == 403
    assert client.post(f"{base}{permission.pk}/change/",
                       {"role": dealer.pk, "event_type": "*"}).status_code == 403  # fmt: skip
    assert client.post(f"{base}{permission.pk}/delete/", {"post": "yes"}).status_code == 403
    history = permission.history.first()
    revert = client.post(f"{base}{permission.pk}/history/{history.history_id}/",
                         {"role": dealer.pk, "event_type": "*"})  # fmt: skip
    assert revert.status_code == 403
    assert set(AppendPermission.objects.values_list("role__name", "event_type")) == before
    assert "Propose a change" in client.get(base).content.decode()


def test_the_proposer_cannot_confirm_their_own_change(ada):
    stream = changes.propose(ada, role=Role.DEALER.value, event_type="table.*",
                             change="grant", reason="dealers open their own tables")  # fmt: skip
    assert not dealer_may("table.opened")
    with pytest.raises(errors.Forbidden, match="a second administrator confirms it"):
        changes.answer(ada, stream, confirm=True)
    assert not dealer_may("table.opened")
    assert [e.event_type for e in read_stream(stream)] == [changes.PROPOSED]
    refused = RejectedSubmission.objects.get(stream_id=stream)
    assert refused.actor == "ada" and refused.status_code == 403


def test_a_second_administrator_s_confirmation_applies_the_change_as_a_ledger_event(ada, abe):
    stream = changes.propose(ada, role=Role.DEALER.value, event_type="table.*",
                             change="grant", reason="dealers open their own tables")  # fmt: skip
    changes.answer(abe, stream, confirm=True)
    assert dealer_may("table.opened")
    proposed, confirmed = read_stream(stream)
    assert proposed.payload["proposed_by"] == "ada" and proposed.metadata["actor"] == "ada"
    assert confirmed.payload == {"confirmed_by": "abe"} and confirmed.metadata["actor"] == "abe"
    # The revocation goes the same way, the other way round.
    back = changes.propose(abe, role=Role.DEALER.value, event_type="table.*",
                           change="revoke", reason="back to the floorperson")  # fmt: skip
    assert dealer_may("table.opened")
    changes.answer(ada, back, confirm=True)
    assert not dealer_may("table.opened")
    history = AppendPermission.history.filter(event_type="table.*", role__name="dealer")
    assert [h.history_type for h in history.order_by("history_date")] == ["+", "-"]


def test_a_rejected_change_changes_nothing_and_gets_one_answer(ada, abe):
    stream = changes.propose(ada, role=Role.DEALER.value, event_type="slip.*",
                             change="grant", reason="x")  # fmt: skip
    changes.answer(abe, stream, confirm=False, reason="dealers never handle slips")
    assert not dealer_may("slip.fill_requested")
    with pytest.raises(errors.RuleViolation, match="already answered"):
        changes.answer(abe, stream, confirm=True)
    assert not dealer_may("slip.fill_requested")


def test_the_api_cannot_append_a_confirmation(api_client, ada, abe):
    stream = changes.propose(ada, role=Role.DEALER.value, event_type="slip.*",
                             change="grant", reason="x")  # fmt: skip
    api_client.force_login(abe)
    response = api_client.post(f"/api/v1/streams/{stream}/events", {
        "expected_version": 1,
        "events": [{"type": changes.CONFIRMED, "payload": {"confirmed_by": "abe"}}]},
        format="json")  # fmt: skip
    assert response.status_code == 403 and "not through the API" in response.json()["message"]
    assert not dealer_may("slip.fill_requested")


def test_only_administrators_propose_and_nonsense_is_refused(role_users, ada):
    supervisor = role_users[Role.SHIFT_SUPERVISOR]
    with pytest.raises(errors.Forbidden):
        changes.propose(supervisor, role=Role.DEALER.value, event_type="slip.*",
                        change="grant", reason="x")  # fmt: skip
    with pytest.raises(errors.SchemaViolation, match="no event type"):
        changes.propose(ada, role=Role.DEALER.value, event_type="made.up", change="grant",
                        reason="x")  # fmt: skip
    with pytest.raises(errors.RuleViolation, match="not revoked this way"):
        changes.propose(ada, role=Role.ADMINISTRATOR.value, event_type=changes.OWN_GRANT,
                        change="revoke", reason="x")  # fmt: skip


def test_the_admin_page_proposes_and_another_administrator_confirms(client, ada, abe):
    client.force_login(ada)
    client.post(PAGE, {"action": "propose", "role": Role.DEALER.value, "change": "grant",
                       "event_type": "table.*", "reason": "dealers open tables"})  # fmt: skip
    (proposal,) = changes.proposals()
    page = client.get(PAGE).content.decode()
    assert proposal.stream_id in page and 'value="confirm"' not in page  # not offered to ada
    refused = client.post(PAGE, {"action": "confirm", "stream_id": proposal.stream_id})
    assert "a second administrator confirms it" in refused.content.decode()
    assert not dealer_may("table.opened")
    client.force_login(abe)
    assert 'value="confirm"' in client.get(PAGE).content.decode()
    assert client.post(PAGE, {"action": "confirm",
                              "stream_id": proposal.stream_id}).status_code == 302  # fmt: skip
    assert dealer_may("table.opened")
    assert changes.proposals()[0].answer == "confirmed"


def test_others_cannot_open_the_page(client, role_users):
    supervisor = role_users[Role.SHIFT_SUPERVISOR]
    supervisor.is_staff = True
    supervisor.save()
    client.force_login(supervisor)
    assert client.get(PAGE).status_code == 403


def test_a_regulator_who_may_only_view_cannot_revert_a_table_from_its_history(client,
                                                                             role_users):
    """Found attacking this work: django-simple-history's history page saved
    a posted revert for anyone allowed to view the history, a regulator
    included (every configuration with history: tables, variance policies,
    employees). A revert is a change: refused without the change permission."""
    from tables.models import DealingMethod, Table

    table = Table.objects.create(
        table_id="CC-01", game="criss_cross_poker", ruleset_id="PA-674a-2019",
        min_wager_cents=500, max_wager_cents=50000, dealing_method=DealingMethod.HAND,
    )
    regulator = role_users[Role.REGULATOR]
    regulator.is_staff = True
    regulator.save()
    client.force_login(regulator)
    url = f"/admin/tables/table/{table.pk}/history/{table.history.first().history_id}/"
    assert client.get(url).status_code == 200  # reading the history stays allowed
    response = client.post(url, {
        "table_id": "CC-01", "pit": "1", "game": "criss_cross_poker",
        "ruleset_id": "PA-674a-2019", "min_wager_cents": 1, "max_wager_cents": 50000,
        "positions": 6, "dealing_method": "HAND", "shuffler": "none", "status": "active"})
    assert response.status_code == 403
    table.refresh_from_db()
    assert table.min_wager_cents == 500
