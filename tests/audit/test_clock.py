"""The ledger's clock (``audit.clock``): real, except inside ``recording_at``,
where a day's history played later is recorded inside its own gaming day, as
the demo's 2016 days and the bench's loads are (issue 13: "the demo records
each past day's events at times inside that gaming day"; issue 15, 8: 2016
rounds shown as opened in 2026)."""

from __future__ import annotations

import base64
import datetime

import pytest
from django.db import connection

from audit import clock, errors
from audit.ledger import Actor, NewEvent, append, read_stream
from casino.models import Casino, Jurisdiction
from casino.roles import Role
from operations.close import close_gaming_day, close_stream_id
from tables.models import DealingMethod, Game, Table
from tables.simulation import Crew, TablePlan, simulate_table_days
from tests.audit.helpers import SYSTEM, counted, new_stream
from tests.tables.test_decks import post, table  # noqa: F401  (fixtures)

pytestmark = pytest.mark.django_db

PAST_DAY = datetime.date(2016, 8, 26)
IN_2016 = datetime.datetime(2016, 8, 26, 14, tzinfo=datetime.UTC)
TEST_KEY = base64.b64encode(bytes(range(32))).decode()
CREW = Crew(dealer="dealer", floorperson="floorperson", cage="cage_cashier", counter="finance",
            verifier="shift_supervisor")  # fmt: skip


def _real_now() -> datetime.datetime:
    return datetime.datetime.now(datetime.UTC)


def test_outside_a_block_events_are_recorded_on_the_real_clock():
    before = _real_now()
    stream = new_stream()
    append(stream, [counted(1, 1)], expected_version=0, actor=SYSTEM)
    [event] = read_stream(stream)
    assert clock.offset() == datetime.timedelta(0)
    assert before <= event.recorded_at <= _real_now()
    assert event.occurred_at == event.recorded_at


def test_inside_a_block_events_are_recorded_from_the_moment_given_in_order():
    stream = new_stream()
    with clock.recording_at(IN_2016) as at:
        assert at == IN_2016
        for seq in range(1, 4):
            append(stream, [counted(1, seq)], expected_version=seq - 1, actor=SYSTEM)
    events = read_stream(stream)
    times = [event.recorded_at for event in events]
    assert times == sorted(times)
    # Running at real speed from 14:00 that day: within minutes of it, never before.
    assert times[0] >= IN_2016 and times[-1] < IN_2016 + datetime.timedelta(minutes=5)
    assert [event.occurred_at for event in events] == times
    # The block is over: the real clock again.
    after = new_stream()
    append(after, [counted(1, 1)], expected_version=0, actor=SYSTEM)
    assert read_stream(after)[0].recorded_at.year == _real_now().year


def test_the_shift_is_undone_when_the_block_fails_and_cannot_nest_or_be_naive():
    with pytest.raises(ZeroDivisionError), clock.recording_at(IN_2016):
        1 / 0  # noqa: B018
    assert clock.offset() == datetime.timedelta(0)
    with clock.recording_at(IN_2016), pytest.raises(RuntimeError, match="does not nest"), \
            clock.recording_at(IN_2016):
        pass
    assert clock.offset() == datetime.timedelta(0)
    naive = datetime.datetime(2016, 8, 26)
    with pytest.raises(ValueError, match="zone"), clock.recording_at(naive):
        pass
    assert clock.offset() == datetime.timedelta(0)


def test_a_shifted_ledger_clock_does_not_let_a_person_backdate(post, table):  # noqa: F811
    """``occurred_at`` a person or device claims is still checked against the
    server's real clock: the shift moves when the ledger records, not what
    it accepts."""
    with clock.recording_at(IN_2016):
        response = post(Role.FLOORPERSON, "D1", [("deck.received", {
            "table_id": "CC-01", "back_colour": "red", "received_by": "floorperson"})], 0,
            at=IN_2016 + datetime.timedelta(minutes=1))  # fmt: skip
        assert response.status_code == 400
        assert response.json()["field"] == "events[0].occurred_at"
        assert "before the server's clock" in response.json()["message"]
        # Nor ahead of the real clock, even for the system role.
        later = _real_now() + datetime.timedelta(hours=1)
        with pytest.raises(errors.SchemaViolation, match="ahead of the server's clock"):
            append("test:future", [NewEvent("test.counted", {"writer": 1, "seq": 1},
                                            occurred_at=later)],
                   expected_version=0, actor=Actor.system("import"))  # fmt: skip


def test_a_past_day_played_as_the_demo_plays_it_is_recorded_inside_that_gaming_day(
    role_users, settings, tmp_path
):
    """The demo's loop for one 2016 day: play inside the gaming day, the close
    the next morning; every event of the day's streams carries a
    ``recorded_at`` (and ``occurred_at``) inside its window, and the seal holds
    them."""
    from operations.management.commands.demo import PAST_CLOSE_RUNS_AFTER, PAST_PLAY_STARTS_AFTER

    settings.EXPORT_ROOT = tmp_path / "exports"
    settings.LEDGER_SIGNING_KEY = TEST_KEY
    jurisdiction, _ = Jurisdiction.objects.get_or_create(code="PA", name="Pennsylvania")
    casino = Casino.objects.create(name="Test casino", jurisdiction=jurisdiction,
                                   time_zone="America/New_York",
                                   gaming_day_starts_at=datetime.time(6, 0))  # fmt: skip
    Table.objects.create(table_id="T1", game=Game.CRISS_CROSS_POKER, ruleset_id="PA-592-2014",
                         min_wager_cents=500, max_wager_cents=50000,
                         dealing_method=DealingMethod.HAND)  # fmt: skip
    start, end = casino.gaming_day_bounds(PAST_DAY)
    with clock.recording_at(start + PAST_PLAY_STARTS_AFTER):
        summary = simulate_table_days([TablePlan("T1", "PA-592-2014")], PAST_DAY,
                                      rounds_per_table=5, seed=3, crew=CREW,
                                      dealer_error_percent=0, irregularity_percent=0)  # fmt: skip
    with clock.recording_at(end + PAST_CLOSE_RUNS_AFTER) as closed_at:
        report = close_gaming_day(PAST_DAY, requested_by="finance", now=closed_at)
    assert report.stages_run[-1] == "completed"

    with connection.cursor() as cursor:
        # Not the fixture's certifications of its dealer (§ 527.5(a)): set-up, recorded now.
        cursor.execute("SELECT stream_id, position, recorded_at, occurred_at FROM ledger_event "
                       "WHERE stream_id NOT LIKE 'close:%%' AND stream_id NOT LIKE 'training:%%' "
                       "ORDER BY position")  # fmt: skip
        played = cursor.fetchall()
    assert len(played) >= summary.events > 0  # the play, its count and checks
    outside = [row for row in played if not start <= row[2] < end or row[3] != row[2]]
    assert outside == []
    assert [row[2] for row in played] == sorted(row[2] for row in played)
    # The close ran the next morning, on the same clock, before the next day's play.
    closing = [event.recorded_at for event in read_stream(close_stream_id(PAST_DAY))]
    assert all(end <= moment < end + PAST_PLAY_STARTS_AFTER for moment in closing)
    sealed = next(e for e in read_stream(close_stream_id(PAST_DAY))
                  if e.event_type == "close.sealed")  # fmt: skip
    assert sealed.payload["events"] >= len(played)
