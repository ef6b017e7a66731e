"""What a ``ledger.correction`` means on the tables' streams, and who may
append one (``audit.registry.Corrections``)."""

from __future__ import annotations

from audit.registry import Corrections
from casino.roles import Role

#: Rounds, table days, slips, decks and counts: the event named stays as it
#: was recorded and is what replay, the figures and the exports read; the
#: correction (its reason and the payload that should have been recorded) is
#: shown beside it for the floor's and the regulator's review. The pit's
#: supervisors and the administrators may record one.
TABLE_CORRECTIONS = Corrections(
    meaning="a note on the named event for review: the event stays as recorded and is what "
    "replay and the figures read; the correction's reason and replacement are shown beside it",
    roles=frozenset(
        {Role.FLOORPERSON.value, Role.SHIFT_SUPERVISOR.value, Role.ADMINISTRATOR.value}
    ),
)
