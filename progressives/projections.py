"""The meters' read model, folded from their streams by the rules engine."""

from __future__ import annotations

from audit.ledger import RecordedEvent, streams_touched
from audit.projections import Projection, ReadModel, emptying, register, upsert
from progressives.models import Meter
from progressives.streams import ADJUSTMENT_PROPOSED, METER_KIND, to_engine
from tables.rules.progressives.chapters import CHAPTERS
from tables.rules.progressives.events import METER_EVENT_TYPES
from tables.rules.progressives.meter import Payment, PaymentSource, Reading, apply


def meter_row(stream_id: str, events: list[RecordedEvent]) -> Meter | None:
    """One meter's row from its whole stream (``None`` before its configuration)."""
    state = None
    row = Meter(meter_id=stream_id.partition(":")[2], computed_at_position=events[-1].position)
    for event in events:
        if event.event_type not in METER_EVENT_TYPES:
            continue
        step = apply(state, to_engine(event.event_type, event.payload))
        state, effect = step.state, step.effect
        if isinstance(effect, Reading):
            row.displayed_cents, row.displayed_at = effect.displayed_cents, event.occurred_at
        elif isinstance(effect, Payment) and effect.source is PaymentSource.METER:
            row.last_hit_at, row.last_hit_table = event.occurred_at, effect.table
            row.last_hit_hand, row.last_hit_cents = effect.hand, effect.paid_cents
    if state is None:
        return None
    configuration = state.history[-1]
    row.chapter, row.game = configuration.chapter, CHAPTERS[configuration.chapter].game
    row.tables = list(configuration.tables)
    row.amount_cents, row.reserve_cents = state.amount_cents, state.reserve_cents
    return row


def _apply_meters(batch: list[RecordedEvent]) -> None:
    rows = [row for stream_id, events in streams_touched(batch, METER_KIND).items()
            if (row := meter_row(stream_id, events)) is not None]  # fmt: skip
    upsert(Meter, rows)


METERS = register(
    Projection(
        name="progressives.meters",
        description="Every progressive meter: its book amount and reserve, the tables linked, "
        "the controller's last reading and the last hit.",
        event_types=frozenset({*METER_EVENT_TYPES, ADJUSTMENT_PROPOSED}),
        apply=_apply_meters,
        clear=emptying(Meter),
        read_models=(ReadModel(Meter, day_field=None),),
    )
)
