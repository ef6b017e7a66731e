"""How people read what the ledger stores: money in dollars, sections cited as
their jurisdiction writes them, moments in the casino's zone to the second.
(Cents and ISO timestamps stay in CSV files and the API.)"""

from __future__ import annotations

import datetime
from collections.abc import Iterable

from django.utils import timezone


def dollars(cents: int | None) -> str:
    """``123456`` → ``$1,234.56`` (a minus sign for negatives, a dash for none).

    >>> dollars(400000), dollars(-250), dollars(None)
    ('$4,000.00', '−$2.50', '—')
    """
    if cents is None or cents == "":
        return "—"
    sign = "−" if int(cents) < 0 else ""
    whole, part = divmod(abs(int(cents)), 100)
    return f"{sign}${whole:,}.{part:02d}"


def cite(section: str) -> str:
    """A section as its jurisdiction writes it: Pennsylvania's with a section
    sign, Massachusetts' rules of the game as "Section …".

    >>> cite("674a.11(b)"), cite("Section 10(g)(3)"), cite("")
    ('§ 674a.11(b)', 'Section 10(g)(3)', '')
    """
    section = str(section or "").strip()
    if not section or section.startswith(("Section", "§")):
        return section
    return f"§ {section}"


def moment(value: datetime.datetime | str | None) -> str:
    """A moment in the casino's zone to the second, with the zone's abbreviation."""
    if value in (None, ""):
        return "—"
    if isinstance(value, str):
        value = datetime.datetime.fromisoformat(value)
    local = timezone.localtime(value)
    return local.strftime("%Y-%m-%d %H:%M:%S %Z")


def denominations(counts: dict[str, int] | None) -> list[tuple[str, int, str]]:
    """An inventory as rows of a chip table: (chip, count, value), largest chip first.

    >>> denominations({"500": 4, "2500": 2})
    [('$25.00', 2, '$50.00'), ('$5.00', 4, '$20.00')]
    """
    rows = sorted((counts or {}).items(), key=lambda item: -int(item[0]))
    return [(dollars(int(chip)), count, dollars(int(chip) * count)) for chip, count in rows]


def people(usernames: Iterable[str]) -> dict[str, str]:
    """Each username as people read it: the employee's full name (the
    username where no employee record names it)."""
    from casino.models import Employee

    wanted = {name for name in usernames if name}
    named = dict(Employee.objects.filter(user__username__in=wanted)
                 .values_list("user__username", "full_name"))  # fmt: skip
    return {name: named.get(name) or name for name in wanted}
