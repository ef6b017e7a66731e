"""The people and devices that act on the casino floor, as Django groups.

Group names are the enum values; code compares enum members, never bare
strings, so a typo fails loudly.
"""

from __future__ import annotations

from enum import StrEnum


class Role(StrEnum):
    DEALER = "dealer"
    TABLE_DEVICE = "table device"
    FLOORPERSON = "floorperson"
    SHIFT_SUPERVISOR = "shift supervisor"
    CAGE_CASHIER = "cage cashier"
    FINANCE = "finance"
    REGULATOR = "regulator"
    ADMINISTRATOR = "administrator"
    # Scheduled jobs (close, deck checks) and the simulator's service account.
    SYSTEM = "system"


#: Roles that may only read: they never append anything.
READ_ONLY_ROLES = frozenset({Role.REGULATOR})

#: Roles that may download a sealed gaming day's regulator export.
EXPORT_READERS = frozenset(
    {Role.REGULATOR, Role.FINANCE, Role.SHIFT_SUPERVISOR, Role.ADMINISTRATOR}
)
