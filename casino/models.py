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

#: Chip denominations most properties use, in cents; each casino keeps its own list.
DEFAULT_CHIP_DENOMINATIONS = [100, 250, 500, 2500, 10000, 50000, 100000, 500000]


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
