"""Double Attack Blackjack, 58 Pa. Code Chapter 581 (temporary), as a declaration.

Eight Spanish decks (§ 581.3(a)); the dealer's up card comes first and the
Double Attack Wager, up to the Bet, is placed after seeing it (§ 581.6(e),
§ 581.7(e)); the players' two cards face up, the hole card face down
(§ 581.7(f)); the reader peeks on an ace, king, queen or jack (§ 581.7(g));
Blackjack pays even money, Insurance 5 to 2 (§ 581.12); the optional Bust It
Wager, up to the Bet, is decided by the dealer's third card (§ 581.7(m),
§ 581.12(c)). The hands, the dealer's rule and the settlement come from
:data:`tables.rules.blackjack.DOUBLE_ATTACK_581`.

>>> GAME.deal
('dealer_up', 'seats', 'seats', 'dealer_hole')
>>> [side.name for side in GAME.side_wagers]
['BUST_IT', 'DOUBLE_ATTACK']
"""

from __future__ import annotations

import datetime

from tables.rules.blackjack import (
    BET,
    BUST_IT,
    DOUBLE_ATTACK,
    DOUBLE_ATTACK_581,
    DOUBLE_DOWN,
    INSURANCE,
    SPLIT,
)
from tables.rules.blackjack_declaration import (
    DEALER_HOLE,
    DEALER_UP,
    SEATS,
    BlackjackGame,
    BlackjackRuleSet,
    SideWager,
    Window,
)
from tables.rules.blackjack_round import declare
from tables.rules.blackjack_settlement import settle_bust_it
from tables.rules.declaration import OptionSpec, WagerSpec

__all__ = ["GAME", "PA_581_2014"]

PA_581_2014 = BlackjackRuleSet(
    id="PA-581-2014",
    game="double_attack_blackjack",
    jurisdiction="PA",
    chapter="581",
    effective_from=datetime.date(2014, 10, 25),
    rules=DOUBLE_ATTACK_581,
    notes=("§ 581.3(c): the decks are changed at least once every 24 hours",),
)

GAME = declare(
    BlackjackGame(
        id="double_attack_blackjack",
        name="Double Attack Blackjack",
        rulesets=(PA_581_2014,),
        wagers=(
            WagerSpec(BET, "Bet Wager", "6(d)"),
            WagerSpec(DOUBLE_ATTACK, "Double Attack Wager", "6(e)"),
            WagerSpec(BUST_IT, "Bust It Wager", "6(f)"),
            WagerSpec(INSURANCE, "Insurance Wager", "8(b)"),
            WagerSpec(DOUBLE_DOWN, "Double Down Wager", "10(a)", by_choice=True),
            WagerSpec(SPLIT, "Split wager", "11(a)", by_choice=True),
        ),
        side_wagers=(
            SideWager(name=BUST_IT, window=Window.BEFORE_DEAL, at_most=BET,
                      settle=settle_bust_it, offered_option="bust_it_offered"),
            SideWager(name=DOUBLE_ATTACK, window=Window.AFTER_UP_CARD, at_most=BET, settle=None),
        ),  # fmt: skip
        deal=(DEALER_UP, SEATS, SEATS, DEALER_HOLE),  # § 581.7(e), (f)
        sections={
            "seated": "2(a)",
            "wagers": "6(a)",
            "after_no_more_bets": "7(e)",
            "deal": "7(f)",
            "dealing_shoe": "7(a)",
            "dealer_draw_error": "13(d)",
            "irregularities": "13(a)",
            "drawn_in_error": "13(b)",
            "exposed_in_error": "13(c)",
            "card_not_given": "13(g)",
            "card_missed": "13(f)",
            "settle": "7(o)",
            "close": "7(q)",
            "void": "13(h)(1)",
            # The card reader: inspected each gaming day, no dealing while it is broken.
            "reader_inspection": "2(d)",
            "reader_malfunction": "13(i)",
            # 10s found in a Spanish batch: removed and torn by the dealer and a floorperson.
            "tens_removed": "4(b)",
        },
        options=(OptionSpec("bust_it_offered", "6(f)", (True, False), True),),
    )
)
