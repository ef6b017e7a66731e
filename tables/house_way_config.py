"""The casino's Pai Gow house way (§ 561.13(d)) as configuration in the ledger (issue 11).

The house way is the casino's Rules Submission, not the engine's: ``manage.py
load_house_way FILE --by USER`` records the file (``tables/house_ways/``, the
format in ``tables.rules.games._house_way``) as a ``config.changed`` of the
casino's stream (``casino-config:casino``, setting ``house_way``), effective
from the file's ``effective_from`` and confirmed by a second person where the
casino's segregation of duties requires it (``--confirm VERSION``). A round of
a game that takes a ``house_way`` option (Pai Gow Poker, § 561) must carry the
version in force when it opens (its token, with its parameters), so replay
settles it by that version without the ledger, and a dealer's hands set
otherwise are reset to it (§ 561.14(i)). Six-Card Fortune's dealer sets by the
chapter's own house way (§ 588.11(d)): no submission changes it. Rounds that
name ``SAMPLE-2010`` (before any house way was loaded) replay as before.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from audit import clock
from audit.ledger import Actor, read_stream
from casino import configuration as config
from tables.rules.engine import RuleViolation
from tables.rules.games._house_way import Submission, parse_submission

SETTING = "house_way"


def _refuse(error: RuleViolation) -> None:
    from audit import errors

    raise errors.RuleViolation(f"§ {error.section}: {error.reason}", field=error.field or "",
                               section=error.section)  # fmt: skip


def submission_at(moment: datetime.datetime, found: Sequence[config.Change] | None = None,
                  ) -> tuple[Submission, config.Change] | None:  # fmt: skip
    """The house way in force at ``moment`` and the change it comes from, or None
    (``found``: the casino stream's changes, read once by a caller checking many)."""
    if found is None:
        found = config.changes(read_stream(config.CASINO_STREAM))
    configuration = config.in_force(config.CASINO_STREAM, found, moment)
    stored = configuration.get(SETTING)
    if stored is None:
        return None
    change = configuration.sources[SETTING]
    data = {**stored, "effective_from": change.effective_from.isoformat()}
    return parse_submission(data), change


def load(data: Any, *, actor: Actor, reason: str = "") -> int:
    """Propose the house way of a Rules Submission file (parsed JSON); returns
    the version of the change on the casino's stream."""
    try:
        submission = parse_submission(data)
    except RuleViolation as error:
        _refuse(error)
    current = submission_at(max(clock.now(), submission.effective_from))
    if current is not None and current[0].way.id == submission.way.id and (
            current[0].version >= submission.version):  # fmt: skip
        _refuse(RuleViolation("561.13(d)", f"version: {submission.way.id} version "
                              f"{current[0].version} is in force; a revision raises the version",
                              "version"))  # fmt: skip
    stored = {key: value for key, value in dict(data).items() if key != "effective_from"}
    return config.propose(config.CASINO_STREAM, {SETTING: stored},
                          effective_from=submission.effective_from,
                          reason=reason or f"house way {submission.way.id} version "
                          f"{submission.version} ({submission.way.source})",
                          actor=actor)  # fmt: skip


def confirm(version: int, *, actor: Actor) -> int:
    """A second person's confirmation of the house way proposed at ``version``."""
    change = next((c for c in config.waiting_changes(config.CASINO_STREAM)
                   if c.version == version), None)  # fmt: skip
    if change is None or SETTING not in change.settings:
        from audit import errors

        raise errors.RuleViolation(f"version: {config.CASINO_STREAM} version {version} is no "
                                   "house way waiting for confirmation", field="version")
    return config.confirm(config.CASINO_STREAM, version, actor=actor)


def carried(payload: Mapping[str, Any]) -> str | None:
    """The house way a ``round.opened`` payload carries (its option, or the game's
    default), or None for a game that takes none."""
    from tables.rules.registry import game_ids, options_of

    game = payload["game"]
    specs = {spec.name: spec for spec in options_of(game)} if game in game_ids() else {}
    if SETTING not in specs:
        return None
    return str((payload.get("options") or {}).get(SETTING, specs[SETTING].default))


def check_opening(payload: Mapping[str, Any], moment: datetime.datetime,
                  refuse: Callable[[str, str], None]) -> None:  # fmt: skip
    """A round of a game with a ``house_way`` option carries the casino's house
    way in force when it opens (§ 561.13(d)), where one was loaded."""
    given = carried(payload)
    if given is None:
        return
    found = submission_at(moment)
    if found is None:
        return  # none loaded: the named way of the table's options (SAMPLE-2010)
    submission, change = found
    if given != submission.token:
        field = "events[0].payload.options.house_way"
        refuse(f"{field}: {given!r} is not the casino's house way in force at "
               f"{moment.isoformat()} (§ 561.13(d)): {submission.token!r} "
               f"({config.CASINO_STREAM} {change.events})", field)  # fmt: skip
