"""Read models of rounds and findings: projections of the ledger.

Nothing here is a source of truth. Each row says the ledger position it was
computed at; ``rebuild_projection tables.rounds`` recreates them all from
the ledger and must give identical rows.
"""

from __future__ import annotations

from django.db import models


class RoundStatus(models.TextChoices):
    IN_PROGRESS = "in_progress", "in progress"
    CLOSED = "closed", "closed"
    VOIDED = "voided", "voided"


class Round(models.Model):
    stream_id = models.CharField(max_length=200, primary_key=True)
    round_id = models.CharField(max_length=150)
    table_id = models.CharField(max_length=50)
    game = models.CharField(max_length=50)
    ruleset_id = models.CharField(max_length=50)
    gaming_day = models.DateField()
    status = models.CharField(max_length=20, choices=RoundStatus.choices)
    opened_at = models.DateTimeField()
    last_event_at = models.DateTimeField()
    seats = models.SmallIntegerField()
    event_count = models.IntegerField()
    wagered_cents = models.BigIntegerField()
    required_paid_cents = models.BigIntegerField()
    required_collected_cents = models.BigIntegerField()
    recorded_paid_cents = models.BigIntegerField()
    recorded_collected_cents = models.BigIntegerField()
    recorded_returned_cents = models.BigIntegerField()
    finding_count = models.SmallIntegerField()
    #: Rule-set choices the settlement applied (e.g. the § 592.12(b) pair of 10s).
    options_applied = models.JSONField(default=dict)
    computed_at_position = models.BigIntegerField()

    class Meta:
        # The table-day view and the replay/close jobs: one table's rounds of a day.
        indexes = [
            models.Index(fields=["gaming_day", "table_id"], name="round_day_table"),
        ]
        ordering = ["-opened_at"]

    def __str__(self) -> str:
        return f"{self.table_id} {self.gaming_day} {self.round_id}"


class Finding(models.Model):
    """A difference between what the dealer did and what the regulation requires."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="findings")
    table_id = models.CharField(max_length=50)
    gaming_day = models.DateField()
    kind = models.CharField(max_length=40)
    seat = models.SmallIntegerField()
    wager = models.CharField(max_length=30)
    expected_cents = models.BigIntegerField()
    recorded_cents = models.BigIntegerField()
    section = models.CharField(max_length=50)
    detail = models.TextField(blank=True)
    computed_at_position = models.BigIntegerField()

    class Meta:
        # The floor board's and finance's open findings by day and table.
        indexes = [models.Index(fields=["gaming_day", "table_id"], name="finding_day_table")]
        ordering = ["round_id", "seat", "wager"]

    def __str__(self) -> str:
        return f"{self.kind} seat {self.seat} {self.wager} (§ {self.section})"

    @property
    def difference_cents(self) -> int:
        return self.recorded_cents - self.expected_cents
