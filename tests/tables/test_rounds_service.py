"""The rounds service keeps each round's engine state, so an append costs one
engine step: the state it holds always equals a replay of the stored round,
a refused append leaves it as it was, and an append it did not see (another
process) is noticed by the stream's version and hash and caught up."""

from __future__ import annotations

import dataclasses

import pytest
from django.core.management import call_command

from audit import errors, projections
from audit.ledger import Actor, NewEvent, append, read_stream
from audit.records import StreamSoFar
from tables import rounds
from tables.models import Finding, Round
from tables.rules import replay
from tables.rules.events import Wager
from tables.verification import verify_round
from tests.tables.helpers import criss_cross_round, index_of_wager

pytestmark = pytest.mark.django_db
STREAM = "round:T1-1"
SERVICE = rounds.SERVICE


@pytest.fixture(autouse=True)
def _cold_service(settings):
    # The projections run where a test says so (they use the service too).
    settings.LEDGER_PROJECT_ON_APPEND = False
    SERVICE.forget()
    yield
    SERVICE.forget()


def _new(event) -> NewEvent:
    return NewEvent(event.TYPE, event.to_payload())


def _append_one(event, version: int, commit) -> None:
    """Append as a device does, the transaction committing (callbacks run)."""
    with commit(execute=True):
        append(STREAM, [_new(event)], expected_version=version, actor=Actor.system("tests"))


def _counts() -> dict[str, int]:
    return dict(SERVICE.counts)


def _delta(before: dict[str, int]) -> dict[str, int]:
    return {k: SERVICE.counts[k] - before[k] for k in before}


def _assert_equals_replay(entry: rounds.RoundState) -> None:
    expected = replay.replay(entry.events)
    stored = verify_round(STREAM, read_stream(STREAM))
    assert entry.events == stored.result.events
    assert entry.state == expected.final_state == stored.result.final_state
    assert entry.settlement == expected.settlement
    assert entry.findings == expected.findings


def test_the_state_after_each_single_event_append_equals_a_full_replay(
    django_capture_on_commit_callbacks,
):
    events, _ = criss_cross_round()
    before = _counts()
    for version, event in enumerate(events):
        _append_one(event, version, django_capture_on_commit_callbacks)
        entry = SERVICE.cached(STREAM)
        assert (entry.version, entry.head_hash) == (version + 1, read_stream(STREAM)[-1].hash)
        assert entry.events == tuple(events[: version + 1])
    _assert_equals_replay(SERVICE.cached(STREAM))
    # Every append after the first found the round at its head: nothing replayed or read.
    assert _delta(before) == {"hit": len(events) - 1, "caught_up": 0, "rebuilt": 0}


def test_a_refused_event_leaves_the_cached_state_and_the_next_valid_append_works(
    django_capture_on_commit_callbacks,
):
    events, _ = criss_cross_round()
    index = index_of_wager(events, Wager.DOWN_BET)
    for version, event in enumerate(events[:index]):
        _append_one(event, version, django_capture_on_commit_callbacks)
    held = SERVICE.cached(STREAM)
    ante = events[index_of_wager(events, Wager.ANTE_DOWN)].amount_cents
    too_much = dataclasses.replace(events[index], amount_cents=4 * ante)
    # § 674a.11(d) (a Down Bet of one to three times the Ante): alone, and after
    # a legal Down Bet in the same batch (a second one): nothing half-applied.
    for batch in ([too_much], [events[index], too_much]):
        with (
            django_capture_on_commit_callbacks(execute=True) as callbacks,
            pytest.raises(errors.RuleViolation) as refused,
        ):
            append(STREAM, [_new(e) for e in batch], expected_version=index,
                   actor=Actor.system("tests"))  # fmt: skip
        assert refused.value.section.startswith("674a.")
        assert refused.value.field.startswith(f"events[{len(batch) - 1}].payload")
        assert not callbacks
        assert SERVICE.cached(STREAM) is held
    assert len(read_stream(STREAM)) == index

    before = _counts()
    for version in range(index, len(events)):
        _append_one(events[version], version, django_capture_on_commit_callbacks)
    assert _delta(before) == {"hit": len(events) - index, "caught_up": 0, "rebuilt": 0}
    _assert_equals_replay(SERVICE.cached(STREAM))


def test_an_append_by_another_process_is_noticed_by_version_and_caught_up(
    django_capture_on_commit_callbacks,
):
    events, _ = criss_cross_round()
    for version, event in enumerate(events[:5]):
        _append_one(event, version, django_capture_on_commit_callbacks)
    held = SERVICE.cached(STREAM)
    # Another process appends two events: this one never hears of them.
    append(STREAM, [_new(e) for e in events[5:7]], expected_version=5, actor=Actor.system("x"))
    assert SERVICE.cached(STREAM) is held and held.version == 5

    before = _counts()
    _append_one(events[7], 7, django_capture_on_commit_callbacks)
    assert _delta(before) == {"hit": 0, "caught_up": 1, "rebuilt": 0}
    assert SERVICE.cached(STREAM).version == 8
    _assert_equals_replay(SERVICE.cached(STREAM))


def test_a_cached_state_is_never_trusted_for_a_chain_it_was_not_built_from(
    django_capture_on_commit_callbacks,
):
    events, _ = criss_cross_round()
    for version, event in enumerate(events[:6]):
        _append_one(event, version, django_capture_on_commit_callbacks)
    early = rounds.empty(STREAM).read(read_stream(STREAM)[:3])
    stale = [
        # The same version on another chain (a database rebuilt under the same ids).
        dataclasses.replace(early, version=6, head_hash="0" * 64),
        # Behind the stream, but not on its chain.
        dataclasses.replace(early, head_hash="0" * 64),
        # Ahead of the stream (an append this process saw that was rolled back).
        dataclasses.replace(early, version=12),
    ]
    for version, entry in enumerate(stale, start=6):
        SERVICE.keep(entry)
        before = _counts()
        _append_one(events[version], version, django_capture_on_commit_callbacks)
        assert _delta(before) == {"hit": 0, "caught_up": 0, "rebuilt": 1}
        _assert_equals_replay(SERVICE.cached(STREAM))


def test_a_missing_round_is_rebuilt_from_the_ledger(django_capture_on_commit_callbacks):
    events, _ = criss_cross_round()
    append(STREAM, [_new(e) for e in events[:-1]], expected_version=0, actor=Actor.system("x"))
    assert SERVICE.cached(STREAM) is None
    before = _counts()
    _append_one(events[-1], len(events) - 1, django_capture_on_commit_callbacks)
    assert _delta(before) == {"hit": 0, "caught_up": 0, "rebuilt": 1}
    _assert_equals_replay(SERVICE.cached(STREAM))


def test_the_cache_is_bounded_least_recently_used_first():
    service = rounds.RoundsService(capacity=2)
    for key in ("a", "b"):
        service.keep(rounds.empty(f"round:{key}"))
    service.cached("round:a")  # a is now the most recent
    service.keep(rounds.empty("round:c"))
    assert [service.cached(f"round:{k}") is not None for k in "abc"] == [True, False, True]


def _projected() -> tuple[list, list]:
    return (
        list(Round.objects.order_by("stream_id").values_list()),
        sorted(Finding.objects.values_list("round_id", "seat", "wager", "kind", "expected_cents",
                                           "recorded_cents", "section", "detail",
                                           "computed_at_position")),  # fmt: skip
    )


def test_the_projection_follows_each_append_from_the_service_and_equals_a_rebuild(
    django_capture_on_commit_callbacks,
):
    from tests.tables.helpers import DealerError

    for seed in range(200):
        events, injected = criss_cross_round(
            seed=seed, dealer_errors=[DealerError.MISPAY_FIRST_WIN]
        )
        if injected:
            break
    rounds_projection = projections.PROJECTIONS["tables.rounds"]
    half = len(events) // 2
    before = _counts()
    for version in range(half):
        _append_one(events[version], version, django_capture_on_commit_callbacks)
        projections.run(rounds_projection)
    # Two events this process does not hear of: the projection advances the
    # round it holds by the batch's events, and the next append finds it there.
    append(STREAM, [_new(e) for e in events[half : half + 2]], expected_version=half,
           actor=Actor.system("x"))  # fmt: skip
    projections.run(rounds_projection)
    for version in range(half + 2, len(events)):
        _append_one(events[version], version, django_capture_on_commit_callbacks)
        projections.run(rounds_projection)
    # n - 1 appends (one of two events) and as many projection runs: each found
    # the round at its head but the first append and the run after the two.
    assert _delta(before) == {
        "hit": 2 * (len(events) - 1) - 2,
        "caught_up": 1,
        "rebuilt": 0,
    }
    row = Round.objects.get(stream_id=STREAM)
    assert (row.status, row.event_count, row.finding_count) == ("closed", len(events), 1)
    incremental = _projected()

    SERVICE.forget()
    call_command("rebuild_projection", "tables.rounds", "--no-progress")
    assert _projected() == incremental


def test_a_policy_reads_the_stream_only_if_it_looks_at_it():
    reads = []

    def read(stream_id, version):
        reads.append((stream_id, version))
        return ["e1", "e2", "e3"]

    so_far = StreamSoFar("test:1", 3, "h", read)
    assert (len(so_far), so_far.version, so_far.head_hash, reads) == (3, 3, "h", [])
    assert list(so_far) == ["e1", "e2", "e3"] and so_far[-1] == "e3"
    assert reads == [("test:1", 3)]
