"""Read models of rounds and findings: projections of the ledger.

Nothing here is a source of truth. Each row says the ledger position it was
computed at; ``rebuild_projection tables.rounds`` recreates them all from
the ledger and must give identical rows.
"""

from __future__ import annotations

import datetime
from typing import Any

from django.db import models
from simple_history.models import HistoricalRecords


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
    #: Whether the dealer counted the stub in this round (§ 592.8(f): every 5 rounds).
    stub_counted = models.BooleanField(default=False)
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


# --- configuration ---------------------------------------------------------------


class Game(models.TextChoices):
    CRISS_CROSS_POKER = "criss_cross_poker", "Criss-Cross Poker"
    DOUBLE_CROSS_POKER = "double_cross_poker", "Double Cross Poker"


class DealingMethod(models.TextChoices):
    # Values are the rules engine's DealingMethod: the deck-change interval depends on it.
    HAND = "HAND", "by hand"
    MANUAL_SHOE = "MANUAL_SHOE", "manual dealing shoe"
    AUTOMATED_SHOE = "AUTOMATED_SHOE", "automated dealing shoe"


class Shuffler(models.TextChoices):
    NONE = "none", "none"
    AUTOMATED = "automated", "automated shuffler"
    AUTOMATED_COUNTING = "automated_counting", "automated shuffler that counts the cards"


class TableStatus(models.TextChoices):
    ACTIVE = "active", "in service"
    INACTIVE = "inactive", "out of service"


def _game_choices() -> list[tuple[str, str]]:
    """Every game in the engine's registry: a new game module needs no edit here."""
    from tables.rules.registry import game_ids, game_name

    return [(game_id, game_name(game_id)) for game_id in game_ids()]


def _ruleset_choices() -> list[tuple[str, str]]:
    from tables.rules.rulesets import RULESETS

    return [(ruleset_id, ruleset_id) for ruleset_id in sorted(RULESETS)]


class Table(models.Model):
    """A gaming table's configuration as the admin shows it: written from the
    ledger's ``table-config:<table>`` events (``tables.configuration``), which
    replay, the deck job and the close read, and checked against them. What
    happens at the table (openings, fills, decks, rounds) is in the ledger."""

    table_id = models.SlugField(max_length=50, unique=True, help_text="e.g. CC-01")
    pit = models.CharField(max_length=20, default="1")
    game = models.CharField(max_length=30, choices=_game_choices)
    ruleset_id = models.CharField(max_length=50, choices=_ruleset_choices,
                                  verbose_name="rule set")  # fmt: skip
    min_wager_cents = models.PositiveIntegerField()
    max_wager_cents = models.PositiveIntegerField()
    positions = models.PositiveSmallIntegerField(default=6)
    dealing_method = models.CharField(max_length=20, choices=DealingMethod.choices)
    shuffler = models.CharField(max_length=20, choices=Shuffler.choices, default=Shuffler.NONE)
    status = models.CharField(max_length=10, choices=TableStatus.choices,
                              default=TableStatus.ACTIVE)  # fmt: skip
    history = HistoricalRecords()

    class Meta:
        ordering = ["pit", "table_id"]

    def __str__(self) -> str:
        return self.table_id

    @property
    def ruleset(self):
        from tables.rules.poker_room.rulesets import POKER_RULESETS
        from tables.rules.rulesets import get_ruleset

        # A poker-room table's rule set is its Rules Submission for § 553.
        return POKER_RULESETS.get(self.ruleset_id) or get_ruleset(self.ruleset_id)

    def deck_change_interval(self) -> datetime.timedelta | None:
        """How long a deck may stay in use here: the rule set's hours for cards
        dealt by hand or from a shoe (§ 592.3(c): 4 h by hand, 8 h from a shoe).
        ``None`` where the game's rules set no interval (Double Cross defers
        to 205 CMR 146, which is not in our sources)."""
        ruleset = self.ruleset
        attribute = ("deck_change_hours_hand_dealt" if self.dealing_method == DealingMethod.HAND
                     else "deck_change_hours_shoe")  # fmt: skip
        # Poker has one interval whatever the dealing (§ 553.3(b): 6 hours).
        hours = getattr(ruleset, "deck_change_hours", None) or getattr(ruleset, attribute, None)
        return None if hours is None else datetime.timedelta(hours=hours)

    def deck_change_section(self) -> str:
        ruleset = self.ruleset
        return getattr(ruleset, "deck_change_section", None) or ruleset.section("3(c)")

    def dice_count(self) -> int:
        """How many dice the game's layout throws (0 for a card game)."""
        from tables.rules.registry import declared

        game = declared(self.game)
        return game.layout.dice if game is not None else 0

    def dice_change_interval(self) -> datetime.timedelta | None:
        """How long dice placed in the shaker may stay on the table (§ 585.3(b)(1),
        § 593.3(b)(1): 24 hours); ``None`` where the rule set states none."""
        hours = getattr(self.ruleset, "dice_change_hours", None)
        return None if hours is None else datetime.timedelta(hours=hours)

    def dice_change_section(self) -> str:
        return self.ruleset.section(self.ruleset.dice_change_section)

    def clean(self) -> None:
        from django.core.exceptions import ValidationError

        errors = {}
        ruleset = self.ruleset if self.ruleset_id else None
        if ruleset is not None and ruleset.game != self.game:
            errors["ruleset_id"] = (
                f"rule set {self.ruleset_id} is for {ruleset.game}, not {self.game}"
            )
        if (
            self.min_wager_cents
            and self.max_wager_cents
            and self.min_wager_cents > self.max_wager_cents
        ):
            errors["max_wager_cents"] = "the maximum wager is below the minimum"
        seats = _max_seats(ruleset) if ruleset is not None else None
        if ruleset is not None and seats and self.positions > seats:
            errors["positions"] = (
                f"{ruleset.id} allows at most {seats} positions "
                f"(§ {ruleset.section('2(a)')})"
            )
        if self.pk and ruleset is not None:
            before = Table.objects.filter(pk=self.pk).values_list("ruleset_id", flat=True).first()
            if (
                before != self.ruleset_id
                and TableDay.objects.filter(
                    table_id=self.table_id, status=TableDayStatus.OPEN
                ).exists()
            ):
                errors["ruleset_id"] = (
                    "the rule set may change only between gaming days: close the table's day first"
                )
        if errors:
            raise ValidationError(errors)


# --- read models of the table's day, slips, decks and compliance --------------------


class TableDayStatus(models.TextChoices):
    OPEN = "open", "open"
    CLOSED = "closed", "closed"


class TableDay(models.Model):
    """One table's gaming day as the ledger tells it (projection)."""

    stream_id = models.CharField(max_length=200, primary_key=True)
    table_id = models.CharField(max_length=50)
    gaming_day = models.DateField()
    status = models.CharField(max_length=10, choices=TableDayStatus.choices)
    opened_at = models.DateTimeField()
    closed_at = models.DateTimeField(null=True, blank=True)
    dealer = models.CharField(max_length=150, blank=True)
    opener_inventory = models.JSONField(default=dict, help_text="count by denomination (cents)")
    closer_inventory = models.JSONField(default=dict, help_text="count by denomination (cents)")
    opener_cents = models.BigIntegerField(default=0)
    closer_cents = models.BigIntegerField(null=True, blank=True)
    buy_ins_cents = models.BigIntegerField(default=0)
    fills_cents = models.BigIntegerField(default=0)
    credits_cents = models.BigIntegerField(default=0)
    drop_box = models.CharField(max_length=30, blank=True)
    computed_at_position = models.BigIntegerField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["table_id", "gaming_day"],
                                               name="table_day_unique")]  # fmt: skip
        ordering = ["-gaming_day", "table_id"]

    def __str__(self) -> str:
        return f"{self.table_id} {self.gaming_day}"


class SlipKind(models.TextChoices):
    FILL = "fill", "fill"
    CREDIT = "credit", "credit"


class SlipStatus(models.TextChoices):
    REQUESTED = "requested", "requested"
    APPROVED = "approved", "approved"
    VOIDED = "voided", "voided"


class Slip(models.Model):
    """A fill or credit slip (projection of its own ledger stream)."""

    stream_id = models.CharField(max_length=200, primary_key=True)
    year = models.PositiveSmallIntegerField()
    number = models.PositiveIntegerField()
    kind = models.CharField(max_length=10, choices=SlipKind.choices)
    table_id = models.CharField(max_length=50)
    gaming_day = models.DateField()
    amounts = models.JSONField(default=dict, help_text="count by denomination (cents)")
    amount_cents = models.BigIntegerField()
    status = models.CharField(max_length=10, choices=SlipStatus.choices)
    requested_by = models.CharField(max_length=150)
    approved_by = models.CharField(max_length=150, blank=True)
    void_reason = models.TextField(blank=True)
    computed_at_position = models.BigIntegerField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["year", "number"], name="slip_unique")]
        # The table-day view and the close: a table's slips of a day.
        indexes = [models.Index(fields=["gaming_day", "table_id"], name="slip_day_table")]

    def __str__(self) -> str:
        return f"{self.kind} {self.year}-{self.number:06d}"


class DeckStatus(models.TextChoices):
    RECEIVED = "received", "received"
    INSPECTED = "inspected", "inspected by the dealer"
    VERIFIED = "verified", "verified by the floorperson"
    IN_USE = "in_use", "in use"
    REMOVED = "removed", "removed"


class Deck(models.Model):
    """A deck's life at a table (projection of its ledger stream)."""

    stream_id = models.CharField(max_length=200, primary_key=True)
    deck_id = models.CharField(max_length=100)
    table_id = models.CharField(max_length=50)
    status = models.CharField(max_length=10, choices=DeckStatus.choices)
    back_colour = models.CharField(max_length=30, blank=True)
    received_at = models.DateTimeField()
    inspected_by = models.CharField(max_length=150, blank=True)
    verified_by = models.CharField(max_length=150, blank=True)
    in_use_since = models.DateTimeField(null=True, blank=True)
    removed_at = models.DateTimeField(null=True, blank=True)
    removed_reason = models.TextField(blank=True)
    computed_at_position = models.BigIntegerField()

    class Meta:
        # The deck job and the floor board: decks in use, by table.
        indexes = [models.Index(fields=["status", "table_id"], name="deck_status_table")]

    def __str__(self) -> str:
        return self.deck_id


class DiceStatus(models.TextChoices):
    RECEIVED = "received", "received"
    INSPECTED = "inspected", "inspected"
    IN_SHAKER = "in_shaker", "in the shaker at its table"
    REMOVED = "removed", "removed"


class DiceSet(models.Model):
    """A set of dice's life at a table (projection of its ledger stream)."""

    stream_id = models.CharField(max_length=200, primary_key=True)
    dice_id = models.CharField(max_length=100)
    table_id = models.CharField(max_length=50)
    status = models.CharField(max_length=10, choices=DiceStatus.choices)
    count = models.PositiveSmallIntegerField()
    received_at = models.DateTimeField()
    inspected_by = models.CharField(max_length=150, blank=True)
    placed_by = models.CharField(max_length=150, blank=True)
    in_shaker_since = models.DateTimeField(null=True, blank=True)
    removed_at = models.DateTimeField(null=True, blank=True)
    removed_reason = models.TextField(blank=True)
    cancelled = models.BooleanField(default=False)
    computed_at_position = models.BigIntegerField()

    class Meta:
        # The compliance job and the floor board: dice in a shaker, by table.
        indexes = [models.Index(fields=["status", "table_id"], name="dice_status_table")]

    def __str__(self) -> str:
        return self.dice_id


class ReviewStatus(models.TextChoices):
    OPEN = "open", "open"
    ACKNOWLEDGED = "acknowledged", "acknowledged"
    RESOLVED = "resolved", "resolved"
    ACCEPTED = "accepted", "accepted"


#: A finding still to be worked: the board counts these.
UNRESOLVED = (ReviewStatus.OPEN, ReviewStatus.ACKNOWLEDGED)


class ComplianceFinding(models.Model):
    """A rule broken at a table outside a round (a deck kept past its change
    interval, no stub count within five rounds), raised by a job as a ledger
    event in its own stream, so raising it twice is impossible."""

    stream_id = models.CharField(max_length=200, primary_key=True)
    kind = models.CharField(max_length=40)
    table_id = models.CharField(max_length=50)
    deck_id = models.CharField(max_length=100, blank=True)
    gaming_day = models.DateField()
    section = models.CharField(max_length=50)
    detail = models.TextField()
    raised_at = models.DateTimeField()
    acknowledged_by = models.CharField(max_length=150, blank=True)
    acknowledged_at = models.DateTimeField(null=True, blank=True)
    status = models.CharField(max_length=20, choices=ReviewStatus.choices,
                              default=ReviewStatus.OPEN)  # fmt: skip
    note = models.TextField(blank=True)
    closed_by = models.CharField(max_length=150, blank=True)
    closed_at = models.DateTimeField(null=True, blank=True)
    resolution = models.TextField(blank=True)
    correcting_event = models.CharField(max_length=220, blank=True)
    computed_at_position = models.BigIntegerField()

    class Meta:
        # The floor board: open findings of a day by table.
        indexes = [models.Index(fields=["gaming_day", "table_id"], name="compliance_day_table")]
        ordering = ["-raised_at"]

    def __str__(self) -> str:
        return f"{self.kind} {self.table_id} (§ {self.section})"


# --- the close's figures (projection of the close stream) ---------------------------


def _max_seats(ruleset: Any) -> int | None:
    """The betting positions a rule set allows; a blackjack game's from its declaration
    (§ 581.2(a), § 590.2(a), § 591.2(a): six)."""
    from tables.rules.registry import blackjack

    family = blackjack(ruleset.game)
    seats: int | None = family.max_seats if family is not None else ruleset.max_seats
    return seats


class TableDayFigures(models.Model):
    """A table's gaming day as the close reconciled it: the count's win and
    hold beside what the ledger says happened (rounds, buy-ins) and the
    theoretical win from the par sheets. Rows exist for closed days only."""

    table_id = models.CharField(max_length=50)
    gaming_day = models.DateField()
    game = models.CharField(max_length=30)
    pit = models.CharField(max_length=20)
    ruleset_id = models.CharField(max_length=50, blank=True)
    status = models.CharField(
        max_length=20, help_text="reconciled, or why not: left_open, no_count"
    )
    rounds = models.PositiveIntegerField(default=0)
    handle_cents = models.BigIntegerField(default=0)
    opener_cents = models.BigIntegerField(default=0)
    closer_cents = models.BigIntegerField(default=0)
    fills_cents = models.BigIntegerField(default=0)
    credits_cents = models.BigIntegerField(default=0)
    drop_cents = models.BigIntegerField(default=0)
    buy_ins_cents = models.BigIntegerField(default=0)
    win_cents = models.BigIntegerField(default=0)
    hold_basis_points = models.IntegerField(null=True, blank=True)
    collected_cents = models.BigIntegerField(default=0)
    paid_cents = models.BigIntegerField(default=0)
    expected_inventory_change_cents = models.BigIntegerField(default=0)
    inventory_change_cents = models.BigIntegerField(default=0)
    theoretical_win_cents = models.BigIntegerField(default=0)
    findings = models.PositiveIntegerField(default=0)
    variances = models.PositiveSmallIntegerField(default=0)
    computed_at_position = models.BigIntegerField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["table_id", "gaming_day"],
                                               name="table_day_figures_unique")]  # fmt: skip
        ordering = ["-gaming_day", "pit", "table_id"]
        verbose_name_plural = "table day figures"

    def __str__(self) -> str:
        return f"{self.table_id} {self.gaming_day}"


class Variance(models.Model):
    """A difference the close found above its policy's threshold."""

    table_id = models.CharField(max_length=50)
    gaming_day = models.DateField()
    kind = models.CharField(max_length=30)
    amount = models.BigIntegerField(help_text="cents, or basis points for hold variances")
    threshold = models.BigIntegerField()
    unit = models.CharField(max_length=20)
    detail = models.TextField()
    computed_at_position = models.BigIntegerField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["table_id", "gaming_day", "kind"],
                                               name="variance_unique")]  # fmt: skip
        ordering = ["-gaming_day", "table_id", "kind"]

    def __str__(self) -> str:
        return f"{self.kind} {self.table_id} {self.gaming_day}"


class BadBeatFundDay(models.Model):
    """One Bad Beat fund's gaming day as the close reconciled it (§ 553.20): opening +
    contributions − awards + transfers = closing, the box's count and the display; what finance
    reports (``tables.bad_beat_finance``). Written by the close's projection from its
    ``close.reconciled`` event."""

    fund_id = models.CharField(max_length=50)
    gaming_day = models.DateField()
    opening_cents = models.BigIntegerField()
    contributions_cents = models.BigIntegerField()
    #: The box's count (the cage's verified amount where there is one), None if not counted.
    counted_cents = models.BigIntegerField(null=True)
    awards_cents = models.BigIntegerField()
    awards = models.PositiveIntegerField()
    #: Received from discontinued funds less transferred to another (§ 553.20(i)).
    transferred_cents = models.BigIntegerField(default=0)
    closing_cents = models.BigIntegerField()
    displayed_cents = models.BigIntegerField(null=True)
    #: Hands whose display was pending adjustment at the close (§ 553.20(f)(1)).
    pending = models.JSONField(default=list)
    variances = models.PositiveIntegerField(default=0)
    computed_at_position = models.BigIntegerField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["fund_id", "gaming_day"],
                                               name="bad_beat_fund_day_unique")]  # fmt: skip
        ordering = ["-gaming_day", "fund_id"]

    def __str__(self) -> str:
        return f"{self.fund_id} {self.gaming_day}"


# --- the life of a finding (projection of the finding and compliance streams) -------


class FindingReview(models.Model):
    """What people did about a round's finding (a mispay): acknowledged with a
    note, then resolved by a correcting event or accepted with a reason. The
    finding itself is replay's (``Finding``); this is its own ledger stream."""

    stream_id = models.CharField(max_length=200, primary_key=True)
    round_stream = models.CharField(max_length=200)
    table_id = models.CharField(max_length=50)
    gaming_day = models.DateField()
    seat = models.SmallIntegerField()
    wager = models.CharField(max_length=30)
    kind = models.CharField(max_length=40)
    status = models.CharField(max_length=20, choices=ReviewStatus.choices)
    acknowledged_by = models.CharField(max_length=150, blank=True)
    acknowledged_at = models.DateTimeField(null=True, blank=True)
    note = models.TextField(blank=True)
    closed_by = models.CharField(max_length=150, blank=True)
    closed_at = models.DateTimeField(null=True, blank=True)
    #: The accepted finding's reason, or the resolved one's note.
    resolution = models.TextField(blank=True)
    #: ``<stream id> v<version>`` of the event that corrected a resolved finding.
    correcting_event = models.CharField(max_length=220, blank=True)
    computed_at_position = models.BigIntegerField()

    class Meta:
        indexes = [models.Index(fields=["gaming_day", "table_id"], name="review_day_table")]

    def __str__(self) -> str:
        return f"{self.kind} {self.round_stream} seat {self.seat} {self.wager}: {self.status}"


class VarianceReview(models.Model):
    """What people did about a variance of a close: acknowledged with a note
    and an owner, then resolved by a correcting event or accepted with a
    reason. The variance itself is the close's (``Variance``)."""

    stream_id = models.CharField(max_length=200, primary_key=True)
    gaming_day = models.DateField()
    table_id = models.CharField(max_length=50)
    kind = models.CharField(max_length=30)
    status = models.CharField(max_length=20, choices=ReviewStatus.choices)
    #: Who works it until it is closed (the acknowledger unless they named another).
    owner = models.CharField(max_length=150, blank=True)
    acknowledged_by = models.CharField(max_length=150, blank=True)
    acknowledged_at = models.DateTimeField(null=True, blank=True)
    note = models.TextField(blank=True)
    closed_by = models.CharField(max_length=150, blank=True)
    closed_at = models.DateTimeField(null=True, blank=True)
    resolution = models.TextField(blank=True)
    correcting_event = models.CharField(max_length=220, blank=True)
    computed_at_position = models.BigIntegerField()

    class Meta:
        indexes = [models.Index(fields=["gaming_day", "table_id"], name="variance_review_day")]

    def __str__(self) -> str:
        return f"{self.kind} {self.table_id} {self.gaming_day}: {self.status}"


class DealerCertification(models.Model):
    """A game a dealer passed the table test in (§ 527.5(a)): the admin's view
    of their personnel file, projected from ``training:<dealer>`` events."""

    #: ``<stream id>@<version>`` of the ``training.certified`` event.
    event = models.CharField(max_length=220, primary_key=True)
    dealer = models.CharField(max_length=150)
    game = models.CharField(max_length=50)
    certified_on = models.DateField()
    certified_by = models.CharField(max_length=150)
    recorded_at = models.DateTimeField()
    computed_at_position = models.BigIntegerField()

    class Meta:
        ordering = ["dealer", "game"]
        indexes = [models.Index(fields=["dealer", "game"], name="certification_dealer_game")]

    def __str__(self) -> str:
        return f"{self.dealer}: {self.game} from {self.certified_on} (§ 527.5(a))"
