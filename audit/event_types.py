"""The ledger's own event types."""

from audit.registry import TEXT, EventType, object_schema, register_event_type

CORRECTION = register_event_type(
    EventType(
        name="ledger.correction",
        version=1,
        description="A correction of an earlier event in the same stream. The earlier "
        "event stays as it was recorded; readers apply the correction.",
        schema=object_schema(
            {
                # The version column is a 32-bit integer.
                "corrects_version": {"type": "integer", "minimum": 1, "maximum": 2**31 - 1},
                "reason": TEXT,
                "replacement": {
                    "type": ["object", "null"],
                    "description": "The payload that should have been recorded, if any.",
                },
            },
            required=["corrects_version", "reason"],
        ),
    )
)
