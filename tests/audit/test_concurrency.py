"""Eight writers at once against real PostgreSQL, with a reader tailing the log.

Every accepted event must be stored exactly once, stream versions must be
contiguous, and the reader following global positions must see them
strictly one after another: no gap, no event skipped because it committed
after a higher position was visible.
"""

from __future__ import annotations

import threading
from collections import Counter

import pytest
from django.db import connection

from audit import errors
from audit.ledger import append, head_position, read_all, read_stream, stream_version
from audit.models import Event
from tests.audit.helpers import SYSTEM, counted

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)

WRITERS = 8
BATCHES_PER_WRITER = 15
BATCH = 5


class Tail(threading.Thread):
    """Follows the global log until told to stop, recording every position seen."""

    def __init__(self, start_after: int):
        super().__init__(daemon=True)
        self.after = start_after
        self.seen: list[int] = []
        self.done = threading.Event()
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            while True:
                finished = self.done.is_set()
                for event in read_all(after=self.after, limit=200):
                    self.seen.append(event.position)
                    self.after = event.position
                if finished and self.after >= head_position():
                    return
        except BaseException as error:  # surfaced by the test
            self.error = error
        finally:
            connection.close()


def _run(writers: list[threading.Thread], tail: Tail) -> None:
    tail.start()
    for writer in writers:
        writer.start()
    for writer in writers:
        writer.join(120)
    tail.done.set()
    tail.join(60)
    assert tail.error is None, tail.error


def _accepted_by(results: dict[int, list[int]], errors_seen: list[BaseException], work) -> list:
    def make(writer_id: int) -> threading.Thread:
        def body() -> None:
            try:
                work(writer_id, results.setdefault(writer_id, []))
            except BaseException as error:
                errors_seen.append(error)
            finally:
                connection.close()

        return threading.Thread(target=body)

    return [make(w) for w in range(WRITERS)]


def test_eight_writers_on_one_stream_keep_versions_contiguous_and_lose_nothing():
    stream = "test:contended"
    start = head_position()
    accepted: dict[int, list[int]] = {}
    failures: list[BaseException] = []
    conflicts = Counter()

    def work(writer: int, mine: list[int]) -> None:
        for batch in range(BATCHES_PER_WRITER):
            seqs = [batch * BATCH + i for i in range(BATCH)]
            while True:
                version = stream_version(stream)
                try:
                    append(
                        stream,
                        [counted(writer, s) for s in seqs],
                        expected_version=version,
                        actor=SYSTEM,
                    )
                except (errors.StaleVersion, errors.UnknownStream):
                    conflicts[writer] += 1
                    continue
                mine.extend(seqs)
                break

    tail = Tail(start)
    _run(_accepted_by(accepted, failures, work), tail)
    assert failures == []

    events = read_stream(stream)
    total = WRITERS * BATCHES_PER_WRITER * BATCH
    assert [e.version for e in events] == list(range(1, total + 1))
    stored = Counter((e.payload["writer"], e.payload["seq"]) for e in events)
    expected = Counter((w, s) for w, seqs in accepted.items() for s in seqs)
    assert stored == expected and set(stored.values()) == {1}
    # Batches stay whole: each writer's batch occupies consecutive versions.
    for first in range(0, total, BATCH):
        assert len({events[first + i].payload["writer"] for i in range(BATCH)}) == 1
    assert tail.seen == list(range(start + 1, start + total + 1))
    assert sum(conflicts.values()) > 0, "the test did not exercise contention"


def test_eight_writers_on_their_own_streams_get_gap_free_increasing_positions():
    start = head_position()
    accepted: dict[int, list[int]] = {}
    failures: list[BaseException] = []

    def work(writer: int, mine: list[int]) -> None:
        stream = f"test:writer-{writer}"
        for batch in range(BATCHES_PER_WRITER):
            seqs = [batch * BATCH + i for i in range(BATCH)]
            append(
                stream,
                [counted(writer, s) for s in seqs],
                expected_version=batch * BATCH,
                actor=SYSTEM,
                idempotency_key=f"w{writer}-b{batch}",
            )
            mine.extend(seqs)

    tail = Tail(start)
    _run(_accepted_by(accepted, failures, work), tail)
    assert failures == []

    total = WRITERS * BATCHES_PER_WRITER * BATCH
    positions = list(
        Event.objects.filter(position__gt=start)
        .order_by("position")
        .values_list("position", flat=True)
    )
    assert positions == list(range(start + 1, start + total + 1))
    assert tail.seen == positions
    for writer in range(WRITERS):
        events = read_stream(f"test:writer-{writer}")
        assert [e.payload["seq"] for e in events] == accepted[writer]
        assert [e.version for e in events] == list(range(1, len(events) + 1))
        assert [e.position for e in events] == sorted(e.position for e in events)
