"""A table's win and hold for a gaming day, and totals by game and by day.

The formula is in ``table_win``: pure, with every input explicit, in cents.
``day_win`` gathers those inputs from the ledger — the table's day as the
``TableDay`` read model computes it (opener, closer, and the fills and
credits of approved, unvoided slips) and the latest verified count of its
drop — and refuses to answer while the day is open or the count unverified.

Nothing here is stored: the close job decides where figures go.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass
from fractions import Fraction

from audit.ledger import read_stream, read_streams
from tables.count import latest_verified_count
from tables.models import Table, TableDay, TableDayStatus
from tables.table_day import slip_streams_of, table_day_row, table_stream_id


class WinNotAvailable(Exception):
    """The win of a table's day cannot be computed yet (the message says why)."""


def table_win(
    opener_cents: int, closer_cents: int, fills_cents: int, credits_cents: int, drop_cents: int
) -> int:
    """The table game win: closing inventory + credits + drop − opening
    inventory − fills.

    As the issue cites it: Pennsylvania § 601a.9(c), Mississippi Gaming
    Regulation 13-7-3.3 and Maryland COMAR 36.05.03.15(D). Those texts are
    not among our sources; the formula is taken from the issue, not checked
    against them.

    >>> table_win(opener_cents=72_000, closer_cents=60_000, fills_cents=200_000,
    ...           credits_cents=50_000, drop_cents=150_000)
    -12000
    """
    return closer_cents + credits_cents + drop_cents - opener_cents - fills_cents


def hold(win_cents: int, drop_cents: int) -> Fraction | None:
    """The hold: win as a fraction of the drop; None when there is no drop.

    >>> hold(30_000, 150_000)
    Fraction(1, 5)
    >>> hold(-5_000, 0) is None
    True
    """
    if drop_cents == 0:
        return None
    return Fraction(win_cents, drop_cents)


@dataclass(frozen=True, kw_only=True)
class TableWin:
    """One table's gaming day: every component of the win, in cents."""

    table_id: str
    game: str
    gaming_day: datetime.date
    opener_cents: int
    closer_cents: int
    fills_cents: int
    credits_cents: int
    currency_cents: int
    chips_cents: int
    drop_cents: int
    win_cents: int
    hold: Fraction | None
    #: The ledger position of the last event these figures include.
    computed_at_position: int


@dataclass(frozen=True, kw_only=True)
class WinTotals:
    """The sum of several tables' days; the hold is total win over total drop."""

    tables: int
    opener_cents: int
    closer_cents: int
    fills_cents: int
    credits_cents: int
    currency_cents: int
    chips_cents: int
    drop_cents: int
    win_cents: int
    hold: Fraction | None


def day_win(table_id: str, gaming_day: datetime.date | str) -> TableWin:
    """The win of one table's gaming day, read from the ledger.

    The ``TableDay`` row is computed from the ledger at its head with the
    projection's own function, so a projection that lags behind the close
    cannot give an old figure. Raises ``WinNotAvailable`` when the day was
    never opened, is not closed, or its drop has no verified count.
    """
    day = (
        gaming_day
        if isinstance(gaming_day, datetime.date)
        else datetime.date.fromisoformat(gaming_day)
    )
    table = Table.objects.filter(table_id=table_id).first()
    if table is None:
        raise WinNotAvailable(f"no table {table_id} is configured")
    row = table_day_at(table_id, day)
    if row is None:
        raise WinNotAvailable(f"table {table_id} was not opened on gaming day {day}")
    if row.status != TableDayStatus.CLOSED or row.closer_cents is None:
        raise WinNotAvailable(
            f"table {table_id} is not closed on gaming day {day}: the win needs the closer"
        )
    count = latest_verified_count(table_id, day)
    if count is None:
        raise WinNotAvailable(
            f"the drop of table {table_id} on gaming day {day} has no verified count: the "
            "latest count or recount must be verified by a second person"
        )
    win = table_win(row.opener_cents, row.closer_cents, row.fills_cents, row.credits_cents,
                    count.drop_cents)  # fmt: skip
    return TableWin(
        table_id=table_id,
        game=table.game,
        gaming_day=day,
        opener_cents=row.opener_cents,
        closer_cents=row.closer_cents,
        fills_cents=row.fills_cents,
        credits_cents=row.credits_cents,
        currency_cents=count.currency_cents,
        chips_cents=count.chips_cents,
        drop_cents=count.drop_cents,
        win_cents=win,
        hold=hold(win, count.drop_cents),
        computed_at_position=max(row.computed_at_position, count.position),
    )


def table_day_at(
    table_id: str, day: datetime.date, upto: int | None = None
) -> TableDay | None:
    """The table's day from the ledger (up to position ``upto`` if given),
    computed with the projection's own function; None if never opened."""
    events = [e for e in read_stream(table_stream_id(table_id, day))
              if upto is None or e.position <= upto]  # fmt: skip
    if not events:
        return None
    slips: dict[str, list] = {}
    for event in read_streams(slip_streams_of(table_id, day)):
        if upto is None or event.position <= upto:
            slips.setdefault(event.stream_id, []).append(event)
    return table_day_row(table_stream_id(table_id, day), events, slips)


def roll_up(wins: Iterable[TableWin]) -> WinTotals:
    """Totals of several tables' days (an empty list gives zeros and no hold)."""
    wins = list(wins)

    def total(name: str) -> int:
        return sum(getattr(win, name) for win in wins)

    win_cents, drop_cents = total("win_cents"), total("drop_cents")
    return WinTotals(
        tables=len(wins),
        opener_cents=total("opener_cents"),
        closer_cents=total("closer_cents"),
        fills_cents=total("fills_cents"),
        credits_cents=total("credits_cents"),
        currency_cents=total("currency_cents"),
        chips_cents=total("chips_cents"),
        drop_cents=drop_cents,
        win_cents=win_cents,
        hold=hold(win_cents, drop_cents),
    )


def _roll_up_by(wins: Iterable[TableWin], key: Callable[[TableWin], Hashable]) -> dict:
    groups: dict = {}
    for win in wins:
        groups.setdefault(key(win), []).append(win)
    return {group: roll_up(members) for group, members in sorted(groups.items())}


def by_game(wins: Iterable[TableWin]) -> dict[str, WinTotals]:
    """Totals per game, in game order."""
    return _roll_up_by(wins, lambda win: win.game)


def by_day(wins: Iterable[TableWin]) -> dict[datetime.date, WinTotals]:
    """Totals per gaming day, in date order."""
    return _roll_up_by(wins, lambda win: win.gaming_day)
