"""The meters' sections of pages another app renders (the finance day page, the
floor board): loaded by name in their templates, so neither app imports the other."""

from __future__ import annotations

import datetime
from typing import Any

from django import template

from progressives.liability import liability
from progressives.models import Meter

register = template.Library()


@register.inclusion_tag("progressives/meter_liability.html")
def meter_liability(day: datetime.date) -> dict[str, Any]:
    """Progressive liability per meter on a closed day, and its movement."""
    return {"lines": liability(day), "day": day}


@register.inclusion_tag("progressives/meter_board.html")
def meter_board() -> dict[str, Any]:
    """The meters on the floor board: amount, the controller's reading, last hit, tables."""
    return {"meters": list(Meter.objects.all())}
