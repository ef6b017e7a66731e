"""The daily win report as a PDF that finance prints and signs (reportlab).

The same report gives the same bytes (reportlab's invariant mode, no time of
printing), and page streams are not compressed, so the text can be searched.
"""

from __future__ import annotations

import datetime
import io
from typing import TYPE_CHECKING, Any
from xml.sax.saxutils import escape

from tables.finance import percent_text
from tables.formatting import dollars

if TYPE_CHECKING:
    from tables.finance import DayReport, Line


def _ascii_dollars(cents: int) -> str:
    return dollars(cents).replace("−", "-")


def win_report_pdf(report: DayReport) -> bytes:
    """The daily win report to print and sign, as PDF bytes.

    The same report gives the same bytes (reportlab's invariant mode, no
    time of printing), and page streams are not compressed, so the text can
    be searched. Standard fonts only: the text is kept to Latin-1.
    """
    from reportlab.lib import colors
    from reportlab.lib.pagesizes import landscape, letter
    from reportlab.lib.styles import getSampleStyleSheet
    from reportlab.lib.units import inch
    from reportlab.platypus import (
        KeepTogether,
        Paragraph,
        SimpleDocTemplate,
        Spacer,
    )
    from reportlab.platypus import Table as PdfTable

    styles = getSampleStyleSheet()
    small = styles["BodyText"].clone("small", fontSize=8, leading=10)
    heading = styles["Heading3"].clone("heading", keepWithNext=1)
    close, day = report.close, report.day
    casino_name = report.casino.name if report.casino else "Pitboss"
    jurisdiction = str(report.casino.jurisdiction) if report.casino else ""
    zone = None
    if report.casino:
        import zoneinfo

        zone = zoneinfo.ZoneInfo(report.casino.time_zone)

    def when(moment: datetime.datetime | None) -> str:
        if moment is None:
            return "-"
        return moment.astimezone(zone).strftime("%Y-%m-%d %H:%M:%S %Z") if zone else \
            moment.isoformat()  # fmt: skip

    def p(text: str, style: Any = small) -> Any:
        return Paragraph(escape(text), style)

    grid = [("GRID", (0, 0), (-1, -1), 0.4, colors.grey),
            ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#dfe9e3")),
            ("FONTNAME", (0, 0), (-1, 0), "Helvetica-Bold"),
            ("FONTSIZE", (0, 0), (-1, -1), 8),
            ("VALIGN", (0, 0), (-1, -1), "TOP")]  # fmt: skip

    def money_table(
        rows: list[list[Any]], widths: list[float], bold_from: int | None, first_money: int
    ) -> Any:
        table = PdfTable(rows, colWidths=widths, repeatRows=1)
        style = [*grid, ("ALIGN", (first_money, 1), (-1, -1), "RIGHT")]
        if bold_from is not None:
            style += [
                ("FONTNAME", (0, bold_from), (-1, -1), "Helvetica-Bold"),
                ("LINEABOVE", (0, bold_from), (-1, bold_from), 1, colors.black),
            ]
        table.setStyle(style)
        return table

    story: list[Any] = [
        Paragraph(escape(f"Daily win report - {casino_name}"), styles["Title"]),
        p(
            f"Gaming day {day.isoformat()} ({day:%A %d %B %Y})"
            + (f" - {jurisdiction}" if jurisdiction else ""),
            styles["Heading2"],
        ),
    ]
    info = [
        ["Close", f"{close.get_status_display()}, completed {when(close.completed_at)}; "
                  f"requested by {close.requested_by}{' (forced)' if close.forced else ''}"],
        ["Started", f"{when(close.started_at)}; reads the ledger up to position "
                    f"{close.cutoff_position}"],
        ["Covers", f"{close.tables} tables, {close.rounds} rounds, {close.findings} findings, "
                   f"{close.variances} variances"],
        ["Seal hash", close.seal_hash or "-"],
        ["Export", f"{close.export_name or '-'}  sha256 {close.export_sha256 or '-'}"],
    ]  # fmt: skip
    info_table = PdfTable(info, colWidths=[1.0 * inch, 8.8 * inch])
    info_table.setStyle([("FONTSIZE", (0, 0), (-1, -1), 8),
                         ("FONTNAME", (0, 0), (0, -1), "Helvetica-Bold"),
                         ("FONTNAME", (1, 3), (1, 4), "Courier")])  # fmt: skip
    story += [info_table, Spacer(1, 10), p("Win by table", heading)]
    header = ["Table", "Pit", "Game", "Status", "Rounds", "Handle", "Drop", "Win", "Hold",
              "Theoretical win", "Variances"]  # fmt: skip

    def money_row(label: str, line: Line, pit: str, game: str, status: str) -> list[str]:
        return [label, pit, game, status, str(line.rounds), _ascii_dollars(line.handle_cents),
                _ascii_dollars(line.drop_cents), _ascii_dollars(line.win_cents),
                percent_text(line.hold_points, "-").replace("—", "-"),
                _ascii_dollars(line.theoretical_win_cents), str(line.variances)]  # fmt: skip

    rows = [header]
    rows += [money_row(line.table_id, line, line.pit, line.game_label,
                       line.status.replace("_", " ")) for line in report.tables]  # fmt: skip
    subtotals = len(rows)
    rows += [money_row(f"Game: {line.label}", line, "", "", "") for line in report.games]
    rows += [money_row(f"Pit {line.pit}", line, "", "", "") for line in report.pits]
    rows += [money_row("Casino total", report.total, "", "", "")]
    widths = [1.3, 0.5, 1.4, 0.9, 0.6, 1.0, 1.0, 1.0, 0.7, 1.1, 0.7]
    table = money_table(rows, [w * inch for w in widths], subtotals, 4)
    table.setStyle([("SPAN", (0, row), (3, row)) for row in range(subtotals, len(rows))])
    story.append(table)
    story += [Spacer(1, 10), p("Day, month to date and year to date (closed days)",
                               heading)]  # fmt: skip
    rows = [["", "Day drop", "Day win", "Day hold", "MTD drop", "MTD win", "MTD hold",
             "YTD drop", "YTD win", "YTD hold"]]  # fmt: skip
    for period in report.periods:
        rows.append([period.label] + [
            text for line in (period.day, period.month, period.year)
            for text in (_ascii_dollars(line.drop_cents), _ascii_dollars(line.win_cents),
                         percent_text(line.hold_points, "-").replace("—", "-"))
        ])  # fmt: skip
    story.append(money_table(rows, [1.5 * inch] + [0.92 * inch] * 9, None, 1))
    if report.funds:
        story += [Spacer(1, 10), p("Bad Beat funds, Section 553.20", heading)]
        rows = [["Fund", "Opening", "Contributions", "Count", "Awards", "Transfers", "Closing",
                 "Displayed", "MTD contrib.", "MTD awards", "YTD contrib.",
                 "YTD awards"]]  # fmt: skip
        for line in report.funds:
            f = line.fund
            rows.append([f.fund_id + (" (pending)" if f.pending else ""),
                         *(_ascii_dollars(c) if c is not None else "-" for c in (
                             f.opening_cents, f.contributions_cents, f.counted_cents,
                             f.awards_cents, f.transferred_cents, f.closing_cents,
                             f.displayed_cents,
                             line.month.contributions_cents, line.month.awards_cents,
                             line.year.contributions_cents, line.year.awards_cents))])  # fmt: skip
        story.append(money_table(rows, [1.1 * inch] + [0.8 * inch] * 11, None, 1))
    for section in report.sections:
        rows = [list(section.header)]
        rows += [["-" if cell is None else _ascii_dollars(cell) if isinstance(cell, int) else
                  p(cell) for cell in row] for row in section.rows]  # fmt: skip
        story += [Spacer(1, 10), p(section.title, heading),
                  money_table(rows, [w * inch for w in section.widths], None, 2)]  # fmt: skip
    story += [Spacer(1, 10), p(f"Variances ({len(report.variances)})", heading)]
    if report.variances:
        rows = [["Table", "Kind", "Amount", "Threshold", "Detail"]]
        rows += [[v.variance.table_id, v.kind, v.amount.replace("−", "-"),
                  v.threshold.replace("−", "-"), p(v.variance.detail)]
                 for v in report.variances]  # fmt: skip
        table = PdfTable(rows, colWidths=[w * inch for w in (0.9, 1.6, 1.0, 1.0, 5.3)],
                         repeatRows=1)  # fmt: skip
        table.setStyle([*grid, ("ALIGN", (2, 1), (3, -1), "RIGHT")])
        story.append(table)
    else:
        story.append(p("No variance above the thresholds."))
    line = "_" * 34
    signature = PdfTable(
        [["Prepared by", line, "Signature", line, "Date", "_" * 16],
         ["Reviewed by", line, "Signature", line, "Date", "_" * 16]],
        colWidths=[w * inch for w in (0.9, 2.6, 0.8, 2.6, 0.5, 1.4)], rowHeights=0.45 * inch,
    )  # fmt: skip
    signature.setStyle([("VALIGN", (0, 0), (-1, -1), "BOTTOM"),
                        ("FONTNAME", (0, 0), (-1, -1), "Helvetica"),
                        ("FONTSIZE", (0, 0), (-1, -1), 9)])  # fmt: skip
    story.append(KeepTogether([
        Spacer(1, 14), p("Sign-off", heading),
        p("I have reviewed the figures above against the sealed gaming day "
          f"{day.isoformat()} (seal {close.seal_hash or '-'})."), signature,
    ]))  # fmt: skip
    footer = (f"Pitboss daily win report - {casino_name} - gaming day {day.isoformat()} - "
              f"seal {close.seal_hash[:16] or '-'}")  # fmt: skip

    def on_page(canvas: Any, document: Any) -> None:
        canvas.saveState()
        canvas.setFont("Helvetica", 7)
        canvas.drawString(document.leftMargin, 0.4 * inch, footer)
        canvas.drawRightString(document.pagesize[0] - document.rightMargin, 0.4 * inch,
                               f"page {document.page}")  # fmt: skip
        canvas.restoreState()

    buffer = io.BytesIO()
    document = SimpleDocTemplate(
        buffer, pagesize=landscape(letter), invariant=1, pageCompression=0,
        leftMargin=0.6 * inch, rightMargin=0.6 * inch, topMargin=0.6 * inch,
        bottomMargin=0.7 * inch, title=f"Daily win report {day.isoformat()}",
        author=casino_name, subject=f"Gaming day {day.isoformat()}", creator="Pitboss",
    )  # fmt: skip
    document.build(story, onFirstPage=on_page, onLaterPages=on_page)
    return buffer.getvalue()
