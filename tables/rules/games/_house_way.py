"""A casino's house way as data (§ 561.13(d)): its Rules Submission file and the round's option.

§ 561.13(d): each certificate holder submits "the manner in which it will
require the hands of the dealer to be set"; § 561.14(i): hands the dealer sets
otherwise are reset to it. The casino's house way is therefore per-casino data,
loaded from its submission (``manage.py load_house_way``) onto the casino's
configuration stream, versioned and effective-dated; every round carries the
version in force when it opened as its ``house_way`` option (a :func:`token`),
so replay needs nothing but the round's events. The named ways of
``pai_gow_poker_561.HOUSE_WAYS`` (``SAMPLE-2010``) stay valid for the rounds
that name them.

The submission file (JSON, ``format`` ``pitboss.house-way/1``)::

    {
      "format": "pitboss.house-way/1",
      "id": "SAMPLE-2010",            # the casino's name of its house way
      "version": 1,                   # a positive integer, raised with each revision
      "casino": "...",                # who submitted it
      "source": "...",                # where in the Rules Submission it is written
      "effective_from": "2026-12-01T06:00:00+00:00",   # a date and time with its zone
      "dealer": {                     # how the dealer's seven cards are set
        "split_quads_from": 7,        # four of a kind of this rank or higher split (2-14; 15 never)
        "split_trip_aces": true,      # three aces: a pair high, an ace low
        "split_two_pair_from": 11,    # two pair whose higher pair is this rank or more split (2-15)
        "two_pair_together_with_ace": true,   # below that, kept together when an ace leads low
        "play_straights": true        # a straight or better kept high over a pair or no pair
      }
    }

Ranks are numbers: 11 jack, 12 queen, 13 king, 14 ace, 15 "never".

>>> way = HouseWay(id="ACME", casino="Acme", effective_from=datetime.date(2026, 1, 1))
>>> token(way, 2)
'ACME/2;quads=7;trip_aces=1;two_pair=11;ace_together=1;straights=1'
>>> from_token(token(way, 2)).split_two_pair_from
11
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tables.rules.engine import RuleViolation
from tables.rules.games._pai_gow_hands import HouseWay

__all__ = ["DEALER_HANDS_NOT_HOUSE_WAY", "FORMAT", "Submission", "parse_submission", "token",
           "from_token", "is_token", "HouseWayChoices", "house_way_of"]  # fmt: skip

FORMAT = "pitboss.house-way/1"
#: The irregularity reported where the dealer's hands were not set by the house way:
#: they are reset to it and the round completed (§ 561.14(i), § 588.13(i)).
DEALER_HANDS_NOT_HOUSE_WAY = "DEALER_HANDS_NOT_HOUSE_WAY"
SECTION = "561.13(d)"
#: The dealer's parameters: (file key, token key, kind, lowest, highest).
_PARAMETERS = (
    ("split_quads_from", "quads", int, 2, 15),
    ("split_trip_aces", "trip_aces", bool, 0, 1),
    ("split_two_pair_from", "two_pair", int, 2, 15),
    ("two_pair_together_with_ace", "ace_together", bool, 0, 1),
    ("play_straights", "straights", bool, 0, 1),
)
_ID = re.compile(r"[A-Z0-9][A-Z0-9_-]{0,39}")
_TOKEN = re.compile(r"(?P<id>[A-Z0-9][A-Z0-9_-]{0,39})/(?P<version>[1-9][0-9]{0,5})"
                    + "".join(rf";{key}=(?P<{key}>[0-9]{{1,2}})" for _, key, *_ in _PARAMETERS))


@dataclass(frozen=True, slots=True)
class Submission:
    """A house way as the casino's Rules Submission file gives it."""

    way: HouseWay
    version: int
    effective_from: datetime.datetime

    @property
    def token(self) -> str:
        return token(self.way, self.version)


def _refuse(field: str, reason: str) -> RuleViolation:
    return RuleViolation(SECTION, f"{field}: {reason}", field)


def parse_submission(data: Any) -> Submission:
    """The house way of a Rules Submission file (parsed JSON), or a
    ``RuleViolation`` citing § 561.13(d) and naming the field at fault."""
    if not isinstance(data, Mapping):
        raise _refuse("(file)", "a JSON object")
    known = {"format", "id", "version", "casino", "source", "effective_from", "dealer"}
    unknown = sorted(set(data) - known)
    if unknown:
        raise _refuse(unknown[0], f"not a field of {FORMAT} (its fields: "
                      f"{', '.join(sorted(known))})")  # fmt: skip
    if data.get("format") != FORMAT:
        raise _refuse("format", f"must be {FORMAT!r}")
    way_id = data.get("id")
    if not isinstance(way_id, str) or not _ID.fullmatch(way_id):
        raise _refuse("id", "capitals, digits, '-' or '_', at most 40 characters")
    version = data.get("version")
    if type(version) is not int or not 1 <= version <= 999_999:
        raise _refuse("version", "a whole number from 1")
    texts = {}
    for key in ("casino", "source"):
        value = data.get(key)
        if not isinstance(value, str) or not value.strip() or len(value) > 500:
            raise _refuse(key, "a text of 1 to 500 characters")
        texts[key] = value.strip()
    try:
        moment = datetime.datetime.fromisoformat(str(data.get("effective_from")))
    except ValueError:
        moment = None
    if moment is None or moment.tzinfo is None:
        raise _refuse("effective_from", "a date and time with its zone "
                      "(2026-12-01T06:00:00+00:00)")  # fmt: skip
    dealer = data.get("dealer")
    if not isinstance(dealer, Mapping):
        raise _refuse("dealer", "an object of the dealer's parameters")
    names = {name for name, *_ in _PARAMETERS}
    unknown = sorted(set(dealer) - names)
    if unknown:
        raise _refuse(f"dealer.{unknown[0]}", f"not a parameter (they are: "
                      f"{', '.join(sorted(names))})")  # fmt: skip
    values: dict[str, Any] = {}
    for name, _, kind, low, high in _PARAMETERS:
        value = dealer.get(name)
        if type(value) is not kind or (kind is int and not low <= value <= high):
            wanted = "true or false" if kind is bool else f"a rank from {low} to {high}"
            raise _refuse(f"dealer.{name}", f"{wanted}, got {value!r}")
        values[name] = value
    way = HouseWay(id=way_id, casino=texts["casino"], source=texts["source"],
                   effective_from=moment.date(), **values)  # fmt: skip
    return Submission(way, version, moment)


def token(way: HouseWay, version: int) -> str:
    """The round option naming a house way and carrying its parameters."""
    values = "".join(f";{key}={int(getattr(way, name))}" for name, key, *_ in _PARAMETERS)
    return f"{way.id}/{version}{values}"


def is_token(text: object) -> bool:
    match = isinstance(text, str) and _TOKEN.fullmatch(text)
    return bool(match) and all(low <= int(match[key]) <= high  # type: ignore[index]
                               for _, key, _, low, high in _PARAMETERS)  # fmt: skip


def from_token(text: str) -> HouseWay:
    """The house way a round's ``house_way`` option carries (its dates are the ledger's)."""
    match = _TOKEN.fullmatch(text)
    if match is None or not is_token(text):
        raise RuleViolation(SECTION, f"not a house way: {text!r}", "options.house_way")
    def value(key: str) -> int:
        return int(match[key])

    return HouseWay(id=match["id"], casino="(the casino's Rules Submission)",
                    effective_from=datetime.date.min, source=f"version {match['version']}",
                    split_quads_from=value("quads"), split_trip_aces=bool(value("trip_aces")),
                    split_two_pair_from=value("two_pair"),
                    two_pair_together_with_ace=bool(value("ace_together")),
                    play_straights=bool(value("straights")))  # fmt: skip


class HouseWayChoices(tuple[str, ...]):
    """The ``house_way`` option's choices: the named ways, or any loaded way's token."""

    __slots__ = ()

    def __contains__(self, value: object) -> bool:
        return tuple.__contains__(self, value) or is_token(value)


def house_way_of(value: str, named: Mapping[str, HouseWay]) -> HouseWay:
    """The house way a round's option names (a named way) or carries (a token)."""
    return named[value] if value in named else from_token(value)
