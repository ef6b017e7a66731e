"""Today as it is played: each table's drop, win, hold and theoretical win for
a gaming day the close has not closed, per table, per pit and for the casino.

Nothing here is final; every page that shows it says "not closed". The
figures come from the read models as they stand: the drop is the cash the
table recorded for buy-ins (``TableDay``) until a verified count replaces it;
the win is what the dealers collected less what they paid in the rounds
(``Round``), which is the table's win when the inventory and the drop
reconcile, and the count's win (closer + credits + drop − opener − fills) once
the table is closed and its count verified; the theoretical win is Σ handle ×
house edge of the rounds, replayed with the close's own tally
(:class:`tables.reconciliation.PlayTally`), so the close will record the same
figure.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from dataclasses import dataclass

from django.db.models import Count, Sum

from tables.count import latest_verified_count
from tables.finance import Line, by_pit, total
from tables.formatting import people
from tables.models import Round, Table, TableDay, TableDayStatus
from tables.reconciliation import PlayTally, basis_points, round_half_even
from tables.win import table_win

#: What the drop and win of a live line are, shown beside them.
FROM_BUY_INS = "buy-ins so far"
FROM_COUNT = "verified count"
FROM_ROUNDS = "collected − paid so far"
FROM_CLOSER = "closer and count"


@dataclass(frozen=True, kw_only=True)
class LiveLine(Line):
    """A table's day so far, with where its drop and win come from."""

    drop_source: str = FROM_BUY_INS
    win_source: str = FROM_ROUNDS
    day_status: str = ""
    dealer: str = ""

    @property
    def hold_points(self) -> int | None:
        return basis_points(self.hold)


def theoretical_by_table(day: datetime.date,
                         tables: Iterable[str] | None = None) -> dict[str, PlayTally]:  # fmt: skip
    """Each table's rounds of ``day`` replayed and tallied as the close does."""
    from tables.verification import RoundSelection, replay_rounds

    wanted = set(tables) if tables is not None else None
    tallies: dict[str, PlayTally] = {}

    def add(verified) -> None:
        if verified.result is None:
            return
        table_id = verified.result.events[0].table_id
        if wanted is None or table_id in wanted:
            tallies.setdefault(table_id, PlayTally()).add_round(verified.result,
                                                                len(verified.recorded))

    replay_rounds(RoundSelection(gaming_day=day), on_round=add)
    return tallies


def live_lines(day: datetime.date, *, theoretical: bool = True) -> list[LiveLine]:
    """Every table that opened or played on ``day``, as it stands now."""
    days = {d.table_id: d for d in TableDay.objects.filter(gaming_day=day)}
    played = Round.objects.filter(gaming_day=day).values("table_id").annotate(
        n=Count("pk"), collected=Sum("recorded_collected_cents"),
        paid=Sum("recorded_paid_cents"))  # fmt: skip
    rounds = {row["table_id"]: row for row in played}
    table_ids = sorted(set(days) | set(rounds))
    configured = {t.table_id: t for t in Table.objects.filter(table_id__in=table_ids)}
    tallies = theoretical_by_table(day, table_ids) if theoretical else {}
    names = people(d.dealer for d in days.values())
    lines = []
    for table_id in table_ids:
        row, played, table = days.get(table_id), rounds.get(table_id, {}), configured.get(table_id)
        tally = tallies.get(table_id)
        drop, drop_source = (row.buy_ins_cents if row else 0), FROM_BUY_INS
        win = (played.get("collected") or 0) - (played.get("paid") or 0)
        win_source = FROM_ROUNDS
        count = latest_verified_count(table_id, day) if row else None
        if count is not None:
            drop, drop_source = count.drop_cents, FROM_COUNT
            if row.status == TableDayStatus.CLOSED and row.closer_cents is not None:
                win = table_win(row.opener_cents, row.closer_cents, row.fills_cents,
                                row.credits_cents, drop)  # fmt: skip
                win_source = FROM_CLOSER
        lines.append(LiveLine(
            label=table_id, table_id=table_id, pit=table.pit if table else "",
            game=table.game if table else "", status="not closed",
            rounds=played.get("n", 0),
            handle_cents=tally.handle_cents if tally else 0,
            drop_cents=drop, win_cents=win,
            theoretical_win_cents=round_half_even(tally.theoretical) if tally else 0,
            drop_source=drop_source, win_source=win_source,
            day_status=row.get_status_display() if row else "not opened",
            dealer=names.get(row.dealer, "") if row else ""))  # fmt: skip
    return lines


@dataclass
class LiveReport:
    day: datetime.date
    tables: list[LiveLine]
    pits: list[Line]
    total: Line


def live_report(day: datetime.date) -> LiveReport:
    lines = live_lines(day)
    return LiveReport(day, lines, by_pit(lines), total("Casino so far", lines))
