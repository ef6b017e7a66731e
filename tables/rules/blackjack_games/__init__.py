"""The blackjack family's games, each a :class:`~tables.rules.blackjack_round.BlackjackGame`.

Every public module here defines ``GAME`` and registers it with the engine on import, so
:func:`tables.rules.replay.replay` runs its rounds; :mod:`tables.rules.registry` reads
this package beside :mod:`tables.rules.games`, which puts each game in the product (the
tables admin, the API, the demo, par sheets in :mod:`tables.rules.parsheets`, finance's
house edges, the round viewer) by its module alone.

Readings (where the chapters are silent or contradict themselves), each recorded in
the settlement's ``options_applied``; the first four are round options:

* ``bust_against_bust`` = ``player_loses``: § 581.7(o)(1)(ii)(B), § 590.7(q)(1) and
  § 591.7(r)(3)(i) collect a bust only against a dealer's 21 or less; ordinary
  practice (and the digests' advice) is that a bust loses at once. ``push`` is the
  literal text.
* ``split_twenty_one`` = ``twenty_one``: § 591.11(b) says so; § 581 and § 590 define
  Blackjack as "the initial two cards" (§ 5xx.1).
* ``surrender_added_money`` = ``half``: § 581.9(a) lets a doubled or split hand
  surrender, § 581.9(b) halves only the Bet and Double Attack Wagers; the added
  money is halved alike.
* ``surrender_timing`` = ``after_peek``: § 590.7(h)(2) and § 591.7(i) offer surrender
  once the card reader reported no Blackjack; § 590.9(a)(2) and § 591.9(a)(2) settle a
  surrender "After the Insurance Wager is offered and the card reader device is
  utilized", so make it before. The procedure section orders the round, and a
  surrendered hand loses all to a dealer Blackjack either way. ``before_peek``: any
  seat surrenders its first two cards until the reader is used, and not after it
  against an ace or 10-value up card.
* ``split_aces_one_card``: true in § 581 (§ 581.11(e)), false where silent (590, 591).
* ``second_chance_after_double`` / ``_on_split`` = true: § 591.7(l) excludes neither,
  on the hand's "current Blackjack Wager".
* ``soft_17`` = ``stand``: every chapter says "all 17s".
* A dealer card drawn on 18 or more goes to the discard rack like one drawn on 17
  (§ 5xx.13(d) names 17 only); a card drawn after § 590.7(m) or § 591.7(p) stopped
  the dealer stays (no wager depends on it) and is a finding.
* A hand whose second card was passed over gets it after every other player's second
  card (§ 581.13(f), § 5xx.13(g)); the player's other option is not written.
* A card drawn in error and exposed (§ 5xx.13(c)) is this remedy only once the initial
  deal is complete: § 581.13(c) waits for the dealer's two cards too, § 590.13(c) and
  § 591.13(c) for the players' (then only the hole card is left to deal). A refusing
  seat's hands still playing stand as they are (a split hand on its one card: "may not
  have additional cards"); a face-down card drawn in error that no one takes goes to the
  discard rack like the refused one (§ 5xx.13(b) is silent).
* ``decks`` (590, 591) = 6 where the Rules Submission names none; ``push_22_table`` = A.
"""

from __future__ import annotations

import functools
import importlib
import pkgutil
from types import ModuleType

__all__ = ["modules"]


@functools.cache
def modules() -> tuple[ModuleType, ...]:
    """Every blackjack game module, imported once."""
    found = sorted(pkgutil.iter_modules(__path__), key=lambda info: info.name)
    return tuple(importlib.import_module(f"{__name__}.{info.name}") for info in found
                 if not info.name.startswith("_"))  # fmt: skip
