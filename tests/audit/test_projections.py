"""Projections apply each event exactly once and rebuild to identical rows."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from audit import projections
from audit.ledger import append, head_position
from audit.models import ProjectionCheckpoint, StreamIndex
from tests.audit.helpers import SYSTEM, counted, new_stream

pytestmark = pytest.mark.django_db


def _rows() -> list[tuple]:
    return list(StreamIndex.objects.order_by("stream_id").values_list())


def test_the_stream_index_follows_the_ledger_and_moves_its_checkpoint():
    a, b = new_stream("a"), new_stream("b")
    append(a, [counted(1, 0)], expected_version=0, actor=SYSTEM)
    append(b, [counted(2, 0), counted(2, 1)], expected_version=0, actor=SYSTEM)
    projections.run(projections.STREAM_INDEX, batch_size=2)
    append(a, [counted(1, 1)], expected_version=1, actor=SYSTEM)
    projections.run(projections.STREAM_INDEX)
    row = StreamIndex.objects.get(stream_id=a)
    assert (row.kind, row.version, row.last_event_type) == ("test", 2, "test.counted")
    assert StreamIndex.objects.get(stream_id=b).version == 2
    checkpoint = ProjectionCheckpoint.objects.get(name="audit.stream_index")
    assert checkpoint.position == head_position()


def test_running_again_applies_nothing_twice():
    append(new_stream(), [counted(1, 0)], expected_version=0, actor=SYSTEM)
    projections.run(projections.STREAM_INDEX)
    before = _rows()
    assert projections.run(projections.STREAM_INDEX) == 0
    assert _rows() == before


@pytest.mark.parametrize("name", sorted(projections.PROJECTIONS))
def test_a_rebuild_from_scratch_gives_identical_rows(name):
    for writer in range(4):
        stream = new_stream()
        append(stream, [counted(writer, i) for i in range(3)], expected_version=0, actor=SYSTEM)
        projections.run(projections.PROJECTIONS[name], batch_size=5)
        append(stream, [counted(writer, 9)], expected_version=3, actor=SYSTEM)
    projections.run(projections.PROJECTIONS[name])
    before = _rows()
    call_command("rebuild_projection", name, "--no-progress")
    assert _rows() == before


def test_a_projection_of_other_types_still_moves_its_checkpoint_to_the_head():
    rounds = projections.PROJECTIONS["tables.rounds"]
    append(new_stream(), [counted(1, i) for i in range(3)], expected_version=0, actor=SYSTEM)
    assert projections.run(rounds) == 0
    assert ProjectionCheckpoint.objects.get(name=rounds.name).position == head_position()
