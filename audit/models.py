"""The ledger's tables.

``Event`` is the append-only store. The database itself refuses UPDATE,
DELETE and TRUNCATE on it (triggers in migration 0002); corrections are new
events. ``LedgerHead`` holds the next global position: taking its row lock is
the last step of an append, so positions are handed out in commit order and
gap-free (a reader following positions never skips a late commit; see
``audit.ledger``).
"""

from __future__ import annotations

from django.contrib.auth.models import Group
from django.db import models
from simple_history.models import HistoricalRecords


class Event(models.Model):
    position = models.BigIntegerField(primary_key=True)
    stream_id = models.CharField(max_length=200)
    version = models.IntegerField()
    event_type = models.CharField(max_length=100)
    schema_version = models.SmallIntegerField()
    payload = models.JSONField()
    metadata = models.JSONField()
    occurred_at = models.DateTimeField()
    recorded_at = models.DateTimeField()
    prev_hash = models.CharField(max_length=64)
    hash = models.CharField(max_length=64)

    class Meta:
        db_table = "ledger_event"
        constraints = [
            # Optimistic concurrency: a stale writer collides here (HTTP 409).
            # Its index also serves "read one stream" and verify_ledger's walk.
            models.UniqueConstraint(fields=["stream_id", "version"], name="ledger_stream_version"),
        ]
        indexes = [
            # The admin's and exports' filters by type within the global order.
            models.Index(fields=["event_type", "position"], name="ledger_type_position"),
        ]

    def __str__(self) -> str:
        return f"#{self.position} {self.stream_id} v{self.version} {self.event_type}"


class LedgerHead(models.Model):
    """One row: the last global position handed out."""

    id = models.SmallIntegerField(primary_key=True, default=1)
    position = models.BigIntegerField(default=0)

    class Meta:
        db_table = "ledger_head"

    def __str__(self) -> str:
        return f"ledger head at {self.position}"


class StreamStart(models.Model):
    """One row per stream, written with its first event: the gaming day it
    began on, which partitions the ledger on PostgreSQL (``audit.partitions``).
    Its primary key refuses a second creation of a stream, whatever day key
    the other writer chose; append-only, and kept when retention archives
    the stream (the stream then takes no more events). Unused on SQLite."""

    stream_id = models.CharField(max_length=200, primary_key=True)
    day_key = models.DateField()

    class Meta:
        db_table = "ledger_stream"

    def __str__(self) -> str:
        return f"{self.stream_id} ({self.day_key})"


class IdempotencyRecord(models.Model):
    """The first result of each idempotency key; append-only like the ledger."""

    key = models.CharField(max_length=200, primary_key=True)
    stream_id = models.CharField(max_length=200)
    request_hash = models.CharField(max_length=64)
    result = models.JSONField()
    created_at = models.DateTimeField()

    class Meta:
        db_table = "ledger_idempotency"

    def __str__(self) -> str:
        return self.key


class RejectedSubmission(models.Model):
    """Every refused append, with the reason, the actor and the raw body.

    Nothing of a refused submission reaches the ledger; this table is
    append-only too, so the audit trail of refusals cannot be pruned. Its
    growth is bounded instead: a refusal keeps the first
    ``REJECTED_BODY_PREFIX_BYTES`` of the body exactly as received
    (``body_prefix``; ``raw_body`` is that prefix as readable text), with the
    whole body's length and SHA-256, and clients without valid credentials are
    throttled per address before anything is stored. Rows from before
    migration 0011 kept the whole body in ``raw_body`` and have no length,
    digest nor prefix (null).
    """

    received_at = models.DateTimeField()
    stream_id = models.CharField(max_length=200, blank=True)
    status_code = models.SmallIntegerField()
    reason = models.CharField(max_length=50)
    message = models.TextField()
    field = models.CharField(max_length=200, blank=True)
    section = models.CharField(max_length=50, blank=True)
    actor = models.CharField(max_length=150, blank=True)
    device = models.CharField(max_length=150, blank=True)
    source = models.CharField(max_length=30)
    idempotency_key = models.CharField(max_length=200, blank=True)
    raw_body = models.TextField(blank=True)
    # Nullable without a default, so adding them is an ALTER TABLE ADD COLUMN on
    # SQLite too (a rebuilt table would lose its append-only triggers).
    body_prefix = models.BinaryField(null=True, help_text="the body's first bytes, as received")
    body_length = models.BigIntegerField(null=True, help_text="the whole body's length, bytes")
    # Null (not "") marks a row from before 0011, as for the two fields above.
    body_sha256 = models.CharField(  # noqa: DJ001
        max_length=64, null=True, help_text="SHA-256 of the whole body; empty when not read"
    )

    class Meta:
        db_table = "ledger_rejected"
        # The admin lists the newest refusals first.
        indexes = [models.Index(fields=["-received_at"], name="ledger_rejected_recent")]

    def __str__(self) -> str:
        return f"{self.received_at:%Y-%m-%d %H:%M:%S} {self.reason} {self.stream_id}"


class AppendPermission(models.Model):
    """Which role may append which event type: data, checked on every append.

    ``event_type`` may end with ``*`` to grant a family (``round.*``).
    """

    role = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="append_permissions")
    event_type = models.CharField(max_length=100)
    history = HistoricalRecords()

    class Meta:
        db_table = "ledger_append_permission"
        constraints = [
            models.UniqueConstraint(fields=["role", "event_type"], name="ledger_permission_unique")
        ]
        ordering = ["role__name", "event_type"]

    def __str__(self) -> str:
        return f"{self.role.name} may append {self.event_type}"


class ProjectionCheckpoint(models.Model):
    """The last ledger position a projection applied, written in the same
    transaction as the projection's rows (exactly once)."""

    name = models.CharField(max_length=100, primary_key=True)
    position = models.BigIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        db_table = "ledger_projection_checkpoint"

    def __str__(self) -> str:
        return f"{self.name} @ {self.position}"


class StreamIndex(models.Model):
    """Read model: one row per stream (a projection, rebuilt by replay)."""

    stream_id = models.CharField(max_length=200, primary_key=True)
    kind = models.CharField(max_length=50)
    version = models.IntegerField()
    first_position = models.BigIntegerField()
    last_position = models.BigIntegerField()
    last_event_type = models.CharField(max_length=100)
    first_occurred_at = models.DateTimeField()
    last_occurred_at = models.DateTimeField()
    head_hash = models.CharField(max_length=64)

    class Meta:
        db_table = "ledger_stream_index"
        # The admin's and the API's stream list by kind, newest first.
        indexes = [
            models.Index(fields=["kind", "-last_position"], name="ledger_stream_kind_recent")
        ]

    def __str__(self) -> str:
        return self.stream_id


class DaySeal(models.Model):
    """A gaming day's signed seal (``audit.seals``): append-only like the ledger.

    ``previous_seal_hash`` is unique, so the seals form one line: two seals can
    never name the same predecessor (a concurrent or out-of-order seal collides
    here instead of forking the chain).
    """

    gaming_day = models.DateField(unique=True)
    body = models.JSONField(help_text="the signed document, canonical JSON")
    seal_hash = models.CharField(max_length=64, unique=True)
    merkle_root = models.CharField(max_length=64)
    previous_seal_hash = models.CharField(max_length=64, unique=True)
    signature = models.CharField(max_length=128, help_text="Ed25519, base64")
    public_key = models.CharField(max_length=64, help_text="Ed25519 raw public key, base64")
    development_key = models.BooleanField(default=False)
    sealed_at = models.DateTimeField()
    event_count = models.IntegerField()
    stream_count = models.IntegerField()

    class Meta:
        db_table = "ledger_day_seal"
        ordering = ["-gaming_day"]

    def __str__(self) -> str:
        return f"seal of {self.gaming_day} ({self.merkle_root[:12]}…)"


class CloseMember(models.Model):
    """Scratch, not a record: one close's seal membership while it reads the
    day in parts (``operations.day_read``), so that no process holds every
    stream of a busy day; each part's reader asks for the members reaching
    its range. Deleted when the read ends (and a killed run's, by the next).
    ``replay`` marks the rounds and poker hands the close replays."""

    run = models.CharField(max_length=80)
    stream_id = models.CharField(max_length=200)
    first_version = models.IntegerField()
    last_version = models.IntegerField()
    first_position = models.BigIntegerField()
    last_position = models.BigIntegerField()

    class Meta:
        db_table = "audit_close_member"
        constraints = [
            models.UniqueConstraint(fields=["run", "stream_id"], name="close_member_unique")
        ]
        indexes = [models.Index(fields=["run", "last_position"], name="close_member_ends")]

    def __str__(self) -> str:
        return f"{self.run}: {self.stream_id}"


class CloseRound(models.Model):
    """Scratch beside ``CloseMember``: the rounds a close replays, listed by a
    query that runs while the membership is asked (``operations.day_read``)."""

    run = models.CharField(max_length=80)
    stream_id = models.CharField(max_length=200)

    class Meta:
        db_table = "audit_close_round"
        indexes = [models.Index(fields=["run", "stream_id"], name="close_round_run")]

    def __str__(self) -> str:
        return f"{self.run}: {self.stream_id}"
