"""Sections another app adds to the finance win report that ``tables`` prints
(the PDF finance signs), by registration: ``tables`` and ``progressives`` import
neither the other, so the progressive liability reaches the PDF through here, as
it reaches the finance page through a template tag loaded by name."""

from __future__ import annotations

import datetime
from collections.abc import Callable
from dataclasses import dataclass

#: A cell: text as it is, an ``int`` an amount of money in cents, ``None`` nothing.
Cell = str | int | None


@dataclass(frozen=True, slots=True)
class ReportSection:
    """A titled table of a closed day: a header row and its rows."""

    title: str
    header: tuple[str, ...]
    rows: tuple[tuple[Cell, ...], ...]
    #: Each column's width, in inches, as printed.
    widths: tuple[float, ...]


SectionOf = Callable[[datetime.date], ReportSection | None]
_sections: dict[str, SectionOf] = {}


def register_report_section(name: str, section_of: SectionOf) -> SectionOf:
    """Register ``section_of(day)``: the section of a closed day, ``None`` when it has none."""
    existing = _sections.get(name)
    if existing is not None and existing is not section_of:
        raise ValueError(f"report section {name} registered twice")
    _sections[name] = section_of
    return section_of


def report_sections(day: datetime.date) -> list[ReportSection]:
    """Every registered section of ``day`` that has something to show, by name."""
    found = (_sections[name](day) for name in sorted(_sections))
    return [section for section in found if section is not None]
