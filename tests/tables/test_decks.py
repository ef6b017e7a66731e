"""Deck streams through the API: who may sign what, the order of a deck's
life (§ 592.4), how many decks a table may have in play (§ 592.3(a)-(b)),
and the ``tables.decks`` projection."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth.models import Group, User

from audit import projections
from audit.models import RejectedSubmission
from casino.roles import Role
from tables.decks import DECKS
from tables.models import Deck, DeckStatus, Table

pytestmark = pytest.mark.django_db

# People record what happens now (occurred_at within a day of the server's clock).
T0 = (datetime.datetime.now(datetime.UTC) - datetime.timedelta(hours=6)).replace(microsecond=0)


def make_table(table_id="CC-01", **overrides):
    fields = dict(
        table_id=table_id,
        game="criss_cross_poker",
        ruleset_id="PA-592-2014",
        min_wager_cents=500,
        max_wager_cents=50000,
        dealing_method="HAND",
        shuffler="none",
    )
    fields.update(overrides)
    return Table.objects.create(**fields)


@pytest.fixture
def table(db):
    return make_table()


@pytest.fixture
def post(api_client, role_users):
    """post(role, deck_id, [(type, payload)], version) → response."""

    def post(who, deck_id, events, version, *, at=T0):
        user = who if isinstance(who, User) else role_users[who]
        api_client.force_authenticate(user)
        body = {
            "expected_version": version,
            "events": [
                {"type": kind, "payload": payload, "occurred_at": at.isoformat()}
                for kind, payload in events
            ],
        }
        return api_client.post(f"/api/v1/streams/deck:{deck_id}/events", body, format="json")

    return post


def received(colour="red"):
    return ("deck.received", {"table_id": "CC-01", "back_colour": colour,
                              "received_by": "floorperson"})  # fmt: skip


def ready_deck(post, deck_id, *, colour="red", at=T0):
    """Received, inspected by the dealer, verified by the floorperson: version 3."""
    assert post(Role.FLOORPERSON, deck_id, [received(colour)], 0, at=at).status_code == 201
    inspected = ("deck.inspected", {"dealer": "dealer"})
    assert post(Role.DEALER, deck_id, [inspected], 1, at=at).status_code == 201
    verified = ("deck.verified", {"floorperson": "floorperson"})
    assert post(Role.FLOORPERSON, deck_id, [verified], 2, at=at).status_code == 201


def in_use(post, deck_id, *, colour="red", at=T0):
    ready_deck(post, deck_id, colour=colour, at=at)
    response = post(Role.FLOORPERSON, deck_id, [("deck.put_in_use", {})], 3, at=at)
    assert response.status_code == 201, response.json()


def test_a_deck_goes_from_receipt_to_removal(table, post):
    ready_deck(post, "D1")
    later = T0 + datetime.timedelta(minutes=5)
    assert post(Role.FLOORPERSON, "D1", [("deck.spread", {})], 3, at=later).status_code == 201
    assert post(Role.FLOORPERSON, "D1", [("deck.put_in_use", {})], 4, at=later).status_code == 201
    count = ("deck.stub_counted", {"count": 37, "expected": 37})
    assert post(Role.DEALER, "D1", [count], 5, at=later).status_code == 201
    removed = ("deck.removed", {"reason": "four-hour change"})
    end = T0 + datetime.timedelta(hours=4)
    assert post(Role.FLOORPERSON, "D1", [removed], 6, at=end).status_code == 201

    projections.run(DECKS)
    deck = Deck.objects.get(stream_id="deck:D1")
    assert (deck.deck_id, deck.table_id, deck.status, deck.back_colour) == (
        "D1", "CC-01", DeckStatus.REMOVED, "red")  # fmt: skip
    assert (deck.inspected_by, deck.verified_by) == ("dealer", "floorperson")
    assert (deck.received_at, deck.in_use_since, deck.removed_at) == (T0, later, end)
    assert deck.removed_reason == "four-hour change"


def test_the_same_person_may_not_inspect_and_verify(table, post):
    both = User.objects.create_user(username="pat", password="pw")
    both.groups.add(Group.objects.get(name=Role.DEALER.value),
                    Group.objects.get(name=Role.FLOORPERSON.value))  # fmt: skip
    taken = ("deck.received", {"table_id": "CC-01", "back_colour": "red", "received_by": "pat"})
    assert post(both, "D1", [taken], 0).status_code == 201
    assert post(both, "D1", [("deck.inspected", {"dealer": "pat"})], 1).status_code == 201
    response = post(both, "D1", [("deck.verified", {"floorperson": "pat"})], 2)
    assert response.status_code == 400
    body = response.json()
    assert body["error"] == "rule_violation"
    assert body["section"] == "592.4(a)"
    assert "may not also verify" in body["message"]
    assert RejectedSubmission.objects.filter(stream_id="deck:D1").count() == 1


def test_a_person_signs_only_for_themselves(table, post):
    assert post(Role.FLOORPERSON, "D1", [received()], 0).status_code == 201
    response = post(Role.FLOORPERSON, "D1", [("deck.inspected", {"dealer": "dealer"})], 1)
    assert response.status_code == 400
    assert "only for themselves" in response.json()["message"]


def test_the_signer_must_hold_the_role(table, post):
    assert post(Role.FLOORPERSON, "D1", [received()], 0).status_code == 201
    assert post(Role.DEALER, "D1", [("deck.inspected", {"dealer": "dealer"})], 1).status_code == 201
    # A shift supervisor may verify; a dealer may not, and nor may a stranger.
    response = post(Role.DEALER, "D1", [("deck.verified", {"floorperson": "dealer"})], 2)
    assert response.status_code in (400, 403)
    response = post(Role.FLOORPERSON, "D1", [("deck.verified", {"floorperson": "nobody"})], 2)
    assert response.status_code == 400
    assert "not an active user" in response.json()["message"]
    verified = ("deck.verified", {"floorperson": "shift_supervisor"})
    assert post(Role.SHIFT_SUPERVISOR, "D1", [verified], 2).status_code == 201


def test_a_dealer_may_not_put_a_deck_in_use(table, post):
    ready_deck(post, "D1")
    assert post(Role.DEALER, "D1", [("deck.put_in_use", {})], 3).status_code == 403


def test_the_deck_must_be_received_at_a_known_table(table, post):
    unknown = ("deck.received", {"table_id": "XX-99", "back_colour": "red",
                                 "received_by": "floorperson"})  # fmt: skip
    response = post(Role.FLOORPERSON, "D1", [unknown], 0)
    assert response.status_code == 400
    assert response.json()["field"] == "events[0].payload.table_id"


def test_events_follow_the_order_of_592_4(table, post):
    assert post(Role.FLOORPERSON, "D1", [("deck.put_in_use", {})], 0).status_code == 400
    assert post(Role.FLOORPERSON, "D1", [received()], 0).status_code == 201
    # Verification before inspection, use before verification: refused.
    verify = ("deck.verified", {"floorperson": "floorperson"})
    assert post(Role.FLOORPERSON, "D1", [verify], 1).status_code == 400
    assert post(Role.FLOORPERSON, "D1", [("deck.put_in_use", {})], 1).status_code == 400
    count = ("deck.stub_counted", {"count": 40, "expected": 40})
    assert post(Role.DEALER, "D1", [count], 1).status_code == 400
    assert post(Role.FLOORPERSON, "D1", [received()], 1).status_code == 400


def test_a_wrong_stub_count_is_a_fact_and_is_accepted(table, post):
    in_use(post, "D1")
    count = ("deck.stub_counted", {"count": 36, "expected": 37})
    assert post(Role.TABLE_DEVICE, "D1", [count], 4).status_code == 201


def test_nothing_follows_removal(table, post):
    in_use(post, "D1")
    removed = ("deck.removed", {"reason": "stub count wrong (§ 592.8(h))"})
    assert post(Role.FLOORPERSON, "D1", [removed], 4).status_code == 201
    count = ("deck.stub_counted", {"count": 37, "expected": 37})
    response = post(Role.DEALER, "D1", [count], 5)
    assert response.status_code == 400
    assert "nothing may follow" in response.json()["message"]


def test_one_deck_in_play_without_an_automated_shuffler(table, post):
    in_use(post, "D1")
    ready_deck(post, "D2", colour="blue")
    response = post(Role.FLOORPERSON, "D2", [("deck.put_in_use", {})], 3)
    assert response.status_code == 400
    assert response.json()["section"] == "592.3(a)"
    # A deck change: the old deck removed, then the new one in use.
    removed = ("deck.removed", {"reason": "deck change"})
    assert post(Role.FLOORPERSON, "D1", [removed], 4).status_code == 201
    assert post(Role.FLOORPERSON, "D2", [("deck.put_in_use", {})], 3).status_code == 201


def test_two_decks_of_different_backs_alternate_with_a_shuffler(post, db):
    make_table(shuffler="automated", dealing_method="MANUAL_SHOE")
    in_use(post, "D1", colour="red")
    ready_deck(post, "D2", colour="Red")
    response = post(Role.FLOORPERSON, "D2", [("deck.put_in_use", {})], 3)
    assert response.status_code == 400
    assert response.json()["section"] == "592.3(b)(1)"
    in_use(post, "D3", colour="blue")
    ready_deck(post, "D4", colour="green")
    response = post(Role.FLOORPERSON, "D4", [("deck.put_in_use", {})], 3)
    assert response.status_code == 400
    assert response.json()["section"] == "592.3(b)"


def test_the_projection_rebuilds_identical_rows(table, post):
    in_use(post, "D1")
    ready_deck(post, "D2", colour="blue")
    removed = ("deck.removed", {"reason": "deck change"})
    assert post(Role.FLOORPERSON, "D1", [removed], 4).status_code == 201
    assert post(Role.FLOORPERSON, "D2", [("deck.put_in_use", {})], 3).status_code == 201
    projections.run(DECKS)
    assert projections.run(DECKS) == 0  # each event once
    before = list(Deck.objects.order_by("stream_id").values())
    assert [row["status"] for row in before] == [DeckStatus.REMOVED, DeckStatus.IN_USE]
    projections.rebuild(DECKS)
    assert list(Deck.objects.order_by("stream_id").values()) == before


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_racing_decks_at_one_table_let_exactly_one_into_play(role_users):
    import threading

    from django.db import connection

    from audit import errors
    from audit.ledger import Actor, NewEvent, append

    make_table()
    system = Actor.system("test")
    decks = [f"R{n}" for n in range(6)]
    for deck_id in decks:
        append(f"deck:{deck_id}", [
            NewEvent("deck.received", {"table_id": "CC-01", "back_colour": "red",
                                       "received_by": "floorperson"}),
            NewEvent("deck.inspected", {"dealer": "dealer"}),
            NewEvent("deck.verified", {"floorperson": "floorperson"}),
        ], expected_version=0, actor=system)  # fmt: skip
    start = threading.Barrier(len(decks))
    outcomes: dict[str, str] = {}

    def put_in_use(deck_id: str) -> None:
        try:
            start.wait(10)
            append(f"deck:{deck_id}", [NewEvent("deck.put_in_use", {})], expected_version=3,
                   actor=system)  # fmt: skip
            outcomes[deck_id] = "in use"
        except errors.RuleViolation as refusal:
            outcomes[deck_id] = refusal.section
        finally:
            connection.close()

    threads = [threading.Thread(target=put_in_use, args=(d,)) for d in decks]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert sorted(outcomes.values()) == ["592.3(a)"] * (len(decks) - 1) + ["in use"]
