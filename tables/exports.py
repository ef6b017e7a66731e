"""The read models a gaming day's regulator export carries as CSV
(registered with the ledger's exports, ``audit.providers``)."""

from __future__ import annotations

import datetime

from django.db.models import Q

from audit.providers import ExportFile, register_export_file
from tables.models import (
    BadBeatFundDay,
    ComplianceFinding,
    Deck,
    DiceSet,
    Finding,
    Round,
    Slip,
    TableDay,
    TableDayFigures,
    Variance,
)


def _decks_in_use(day: datetime.date, start: datetime.datetime, end: datetime.datetime):
    in_use = Q(received_at__lt=end) & (Q(removed_at__isnull=True) | Q(removed_at__gte=start))
    return Deck.objects.filter(in_use)


def _dice_on_tables(day: datetime.date, start: datetime.datetime, end: datetime.datetime):
    on_table = Q(received_at__lt=end) & (Q(removed_at__isnull=True) | Q(removed_at__gte=start))
    return DiceSet.objects.filter(on_table)


for _file in (
    ExportFile("rounds.csv", lambda day, start, end: Round.objects.filter(gaming_day=day)),
    ExportFile("findings.csv", lambda day, start, end: Finding.objects.filter(gaming_day=day)),
    ExportFile("slips.csv", lambda day, start, end: Slip.objects.filter(gaming_day=day)),
    ExportFile("table_days.csv",
               lambda day, start, end: TableDay.objects.filter(gaming_day=day)),
    ExportFile("decks.csv", _decks_in_use),
    ExportFile("dice.csv", _dice_on_tables),
    ExportFile("compliance.csv",
               lambda day, start, end: ComplianceFinding.objects.filter(gaming_day=day)),
    # The close's reconciliation (empty until the day is closed).
    ExportFile("win_report.csv", lambda day, start, end:
               TableDayFigures.objects.filter(gaming_day=day).order_by("table_id")),
    ExportFile("variances.csv", lambda day, start, end:
               Variance.objects.filter(gaming_day=day).order_by("table_id", "kind")),
    ExportFile("bad_beat_funds.csv", lambda day, start, end:
               BadBeatFundDay.objects.filter(gaming_day=day).order_by("fund_id")),
):  # fmt: skip
    register_export_file(_file)
