"""Casino-wide configuration: the property, its jurisdiction, the gaming day
and the people who work the floor. Configuration, not facts: history is kept
(django-simple-history), facts go to the ledger."""

from __future__ import annotations

import datetime
import zoneinfo

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from simple_history.models import HistoricalRecords

#: Chip denominations most properties use, in cents; each casino keeps its own list
#: (the 25-cent chip makes change for Pai Gow's 5 % vigorish on $5 units, § 561.13(m)).
DEFAULT_CHIP_DENOMINATIONS = [25, 100, 250, 500, 2500, 10000, 50000, 100000, 500000]


def _default_denominations() -> list[int]:
    return list(DEFAULT_CHIP_DENOMINATIONS)


class Jurisdiction(models.Model):
    code = models.CharField(max_length=10, primary_key=True, help_text="e.g. PA, MA")
    name = models.CharField(max_length=100)
    history = HistoricalRecords()

    def __str__(self) -> str:
        return f"{self.code} — {self.name}"


class Casino(models.Model):
    """The property. One row; ``Casino.current()`` returns it."""

    name = models.CharField(max_length=100)
    jurisdiction = models.ForeignKey(Jurisdiction, on_delete=models.PROTECT)
    time_zone = models.CharField(max_length=64, default="America/New_York")
    gaming_day_starts_at = models.TimeField(
        default=datetime.time(6, 0),
        help_text="Local time at which one gaming day ends and the next begins.",
    )
    chip_denominations_cents = models.JSONField(
        default=_default_denominations,
        help_text="Chip and plaque values accepted in inventories, fills and credits (cents).",
    )
    history = HistoricalRecords()

    class Meta:
        verbose_name = "casino"

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        try:
            zoneinfo.ZoneInfo(self.time_zone)
        except (zoneinfo.ZoneInfoNotFoundError, ValueError):
            raise ValidationError({"time_zone": f"unknown time zone {self.time_zone!r}"}) from None
        values = self.chip_denominations_cents
        if (
            not isinstance(values, list)
            or not values
            or any(type(v) is not int or v <= 0 for v in values)
        ):
            raise ValidationError(
                {"chip_denominations_cents": "a list of positive whole numbers of cents"}
            )

    @classmethod
    def current(cls) -> Casino:
        casino = cls.objects.select_related("jurisdiction").first()
        if casino is None:
            raise cls.DoesNotExist("no casino is configured (run manage.py demo or the admin)")
        return casino

    def gaming_day(self, moment: datetime.datetime) -> datetime.date:
        """The gaming day ``moment`` belongs to: before the boundary it is still
        the previous day.

        >>> casino = Casino(time_zone="America/New_York",
        ...                 gaming_day_starts_at=datetime.time(6, 0))
        >>> utc = datetime.UTC
        >>> casino.gaming_day(datetime.datetime(2024, 5, 2, 9, 59, tzinfo=utc))  # 05:59 EDT
        datetime.date(2024, 5, 1)
        >>> casino.gaming_day(datetime.datetime(2024, 5, 2, 10, 0, tzinfo=utc))  # 06:00 EDT
        datetime.date(2024, 5, 2)
        """
        local = moment.astimezone(zoneinfo.ZoneInfo(self.time_zone))
        day = local.date()
        return day - datetime.timedelta(days=1) if local.time() < self.gaming_day_starts_at else day

    def gaming_day_bounds(self, day: datetime.date) -> tuple[datetime.datetime, datetime.datetime]:
        """The [start, end) instants of a gaming day, time-zone aware."""
        zone = zoneinfo.ZoneInfo(self.time_zone)
        start = datetime.datetime.combine(day, self.gaming_day_starts_at, tzinfo=zone)
        end = datetime.datetime.combine(
            day + datetime.timedelta(days=1), self.gaming_day_starts_at, tzinfo=zone
        )
        return start, end


def current_gaming_day(now: datetime.datetime) -> datetime.date:
    """The gaming day ``now`` belongs to at this casino; with no casino
    configured yet (a bare database), the settings' time zone and the default
    06:00 boundary."""
    try:
        casino = Casino.current()
    except Casino.DoesNotExist:
        casino = Casino(time_zone=settings.TIME_ZONE)
    return casino.gaming_day(now)


class Employee(models.Model):
    """A person on the floor, linked to the login that carries their roles
    (Django groups named after ``casino.roles.Role``)."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                                related_name="employee")  # fmt: skip
    badge = models.CharField(max_length=20, unique=True)
    full_name = models.CharField(max_length=150)
    active = models.BooleanField(default=True)
    history = HistoricalRecords()

    class Meta:
        ordering = ["full_name"]

    def __str__(self) -> str:
        return f"{self.full_name} ({self.badge})"

    @property
    def roles(self) -> frozenset[str]:
        return frozenset(self.user.groups.values_list("name", flat=True))


class VariancePolicy(models.Model):
    """The thresholds above which the gaming-day close raises a variance,
    per jurisdiction and effective-dated. The close reads them from the
    casino's configuration stream in the ledger (``casino.configuration``);
    these rows are the admin's view of it, written from the events and
    checked against them (and read only where the stream holds none yet).
    Defaults are common practice, not regulation."""

    jurisdiction = models.ForeignKey(Jurisdiction, on_delete=models.PROTECT)
    effective_from = models.DateField(default=datetime.date(2000, 1, 1))
    inventory_tolerance_cents = models.PositiveIntegerField(
        default=2500, help_text="table inventory change vs the rounds: above this is a variance"
    )
    drop_tolerance_cents = models.PositiveIntegerField(
        default=2500, help_text="counted drop vs the buy-ins recorded at the table"
    )
    hold_confidence_percent = models.PositiveSmallIntegerField(
        default=95,
        choices=[(90, "90 %"), (95, "95 %"), (99, "99 %")],
        help_text="a day's hold outside this confidence interval of the table's history",
    )
    hold_history_days = models.PositiveSmallIntegerField(
        default=90, help_text="closed days of the table's history the interval is drawn from"
    )
    hold_min_history_days = models.PositiveSmallIntegerField(
        default=7, help_text="no interval check before the table has this many closed days"
    )
    month_over_month_basis_points = models.PositiveIntegerField(
        default=300,
        help_text="month-to-date hold vs the previous month's, in hundredths of a percent",
    )
    meter_tolerance_cents = models.PositiveIntegerField(
        default=100,
        help_text="a progressive meter's displayed amount vs its book amount (issue 11)",
    )
    history = HistoricalRecords()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["jurisdiction", "effective_from"], name="variance_policy_unique"
            )
        ]
        ordering = ["jurisdiction", "-effective_from"]
        verbose_name_plural = "variance policies"

    def __str__(self) -> str:
        return f"{self.jurisdiction_id} from {self.effective_from}"

    @classmethod
    def in_force(cls, jurisdiction_id: str, day: datetime.date) -> VariancePolicy:
        """The policy in force on ``day`` (the defaults where none is configured)."""
        policy = (
            cls.objects.filter(jurisdiction_id=jurisdiction_id, effective_from__lte=day)
            .order_by("-effective_from")
            .first()
        )
        return policy or cls(jurisdiction_id=jurisdiction_id)

    def thresholds(self) -> dict[str, int]:
        """The figures the close records with its results."""
        return {
            "inventory_tolerance_cents": self.inventory_tolerance_cents,
            "drop_tolerance_cents": self.drop_tolerance_cents,
            "hold_confidence_percent": self.hold_confidence_percent,
            "hold_history_days": self.hold_history_days,
            "hold_min_history_days": self.hold_min_history_days,
            "month_over_month_basis_points": self.month_over_month_basis_points,
            "meter_tolerance_cents": self.meter_tolerance_cents,
        }


class DayCloseStatus(models.TextChoices):
    IN_PROGRESS = "in_progress", "in progress"
    CLOSED = "closed", "closed"


class DayClose(models.Model):
    """A gaming day's close as its ledger stream ``close:<day>`` tells it (projection)."""

    gaming_day = models.DateField(primary_key=True)
    status = models.CharField(max_length=20, choices=DayCloseStatus.choices)
    stage = models.CharField(max_length=20, help_text="the last stage completed")
    requested_by = models.CharField(max_length=150)
    forced = models.BooleanField(default=False)
    cutoff_position = models.BigIntegerField()
    started_at = models.DateTimeField()
    completed_at = models.DateTimeField(null=True, blank=True)
    tables = models.PositiveIntegerField(default=0)
    rounds = models.PositiveIntegerField(default=0)
    findings = models.PositiveIntegerField(default=0)
    variances = models.PositiveIntegerField(default=0)
    drop_cents = models.BigIntegerField(default=0)
    win_cents = models.BigIntegerField(default=0)
    theoretical_win_cents = models.BigIntegerField(default=0)
    seal_hash = models.CharField(max_length=64, blank=True)
    export_name = models.CharField(max_length=100, blank=True)
    export_sha256 = models.CharField(max_length=64, blank=True)
    computed_at_position = models.BigIntegerField()

    class Meta:
        ordering = ["-gaming_day"]
        verbose_name = "gaming-day close"

    def __str__(self) -> str:
        return f"close of {self.gaming_day} ({self.get_status_display()})"
