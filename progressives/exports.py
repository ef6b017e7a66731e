"""The meters a gaming day's regulator export carries (registered with the
ledger's exports, ``audit.providers``): each meter's day as the close
reconciled it (empty until the day is closed)."""

from __future__ import annotations

from audit.providers import ExportFile, register_export_file
from progressives.models import MeterDay

register_export_file(ExportFile(
    "meters.csv",
    lambda day, start, end: MeterDay.objects.filter(gaming_day=day).order_by("meter_id"),
))  # fmt: skip
