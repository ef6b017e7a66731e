"""Read models of the progressive meters, rebuilt from the ``meter:<id>`` streams."""

from __future__ import annotations

from django.db import models


class Meter(models.Model):
    """A meter as its stream folds (``progressives.projections``): the floor board's row."""

    meter_id = models.CharField(max_length=100, primary_key=True)
    chapter = models.CharField(max_length=10)
    game = models.CharField(max_length=50)
    #: The tables linked to it by the configuration in force last.
    tables = models.JSONField(default=list)
    #: What the regulation says the meter holds (the book amount), and its reserve.
    amount_cents = models.BigIntegerField()
    reserve_cents = models.BigIntegerField(default=0)
    #: The controller's last reading, and when.
    displayed_cents = models.BigIntegerField(null=True)
    displayed_at = models.DateTimeField(null=True)
    #: The last payout of a share of the meter (a "hit" on the floor board).
    last_hit_at = models.DateTimeField(null=True)
    last_hit_table = models.CharField(max_length=100, blank=True)
    last_hit_hand = models.CharField(max_length=50, blank=True)
    last_hit_cents = models.BigIntegerField(null=True)
    computed_at_position = models.BigIntegerField()

    class Meta:
        ordering = ("meter_id",)

    def __str__(self) -> str:
        return self.meter_id


class MeterDay(models.Model):
    """One meter's gaming day as the close reconciled it: the liability finance reports.

    Written by the close's projection from its ``close.reconciled`` event
    (``operations.meters``): opening + contributions − payouts + adjustments +
    resets = closing, beside the controller's closing reading.
    """

    meter_id = models.CharField(max_length=100)
    gaming_day = models.DateField()
    chapter = models.CharField(max_length=10)
    tables = models.JSONField(default=list)
    opening_cents = models.BigIntegerField()
    contributions_cents = models.BigIntegerField()
    reserve_contributions_cents = models.BigIntegerField(default=0)
    #: Shares of the meter owed to winners; the fixed lines the house paid beside them.
    payouts_cents = models.BigIntegerField()
    house_payouts_cents = models.BigIntegerField(default=0)
    adjustments_cents = models.BigIntegerField()
    resets_cents = models.BigIntegerField()
    closing_cents = models.BigIntegerField()
    reserve_cents = models.BigIntegerField(default=0)
    displayed_cents = models.BigIntegerField(null=True)
    variances = models.PositiveIntegerField(default=0)
    computed_at_position = models.BigIntegerField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["meter_id", "gaming_day"],
                                               name="meter_day_unique")]  # fmt: skip
        ordering = ["-gaming_day", "meter_id"]

    def __str__(self) -> str:
        return f"{self.meter_id} {self.gaming_day}"

    @property
    def movement_cents(self) -> int:
        """The day's change in the liability."""
        return self.closing_cents - self.opening_cents


class MeterCheckpoint(models.Model):
    """Where the close's fold of a meter stopped at the end of a gaming day, and the
    state it reached (``tables.rules.progressives.checkpoint``), so the next close
    folds only what came after it (``operations.meters``).

    A cache of a pure function of the stream's first ``version`` events, written by
    the close, not a fact: it is used only while the stream's event at ``version``
    still has ``event_hash`` and its format is the engine's; otherwise the close
    folds the stream from its first event. Deleting every row loses only speed.
    """

    meter_id = models.CharField(max_length=100)
    gaming_day = models.DateField()
    #: The last event folded.
    version = models.PositiveIntegerField()
    event_hash = models.CharField(max_length=64)
    state = models.JSONField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["meter_id", "gaming_day"],
                                               name="meter_checkpoint_unique")]  # fmt: skip

    def __str__(self) -> str:
        return f"{self.meter_id} {self.gaming_day} v{self.version}"
